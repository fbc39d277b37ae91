//! `boardwire csa connect --engine PROGRAM`: starting the USI engine (with
//! the CLI's log of the lines it skipped); the games themselves are
//! `boardwire_engines::csa_bridge::play_engine`.

use boardwire_engines::csa_bridge::{Answer, Engine, EnginePlan, UsiBridge};

/// Starts the engine and waits for its handshake (before connecting).
pub(crate) async fn start_engine(plan: &EnginePlan) -> Result<Engine, String> {
    let log = crate::engine_args::skipped_line_log(String::new());
    let (bridge, mut answers) = UsiBridge::spawn(plan.bridge.clone(), log);
    match answers.recv().await {
        Some(Answer::Started { .. }) => Ok((bridge, answers)),
        Some(Answer::Failed(why)) => Err(why),
        _ => Err("the engine task is gone".into()),
    }
}
