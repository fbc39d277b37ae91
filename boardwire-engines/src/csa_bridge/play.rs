//! A USI engine playing its games on a CSA server (plain and x1 mode;
//! several games in x1) through [`UsiBridge`]: the connection run
//! ([`csa_protocol::play::run_logged`]), what the bridge did as log notes,
//! the next game asked for (x1), and the CSA kifu file of the games.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use board_core::shogi::{Move, Position};
use csa_protocol::kifu::{GameMove, Kifu, end_statement};
use csa_protocol::message::{EndReason, GameSummary};
use csa_protocol::net::Activity;
use csa_protocol::play::{PlayError, game_event, run_logged};
use csa_protocol::session::{ClientConfig, Event};
use csa_protocol::transcript::{Log, Problems};
use csa_protocol::types::{GameName, SidePreference};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;

use super::{Answer, BridgePlan, Report, UsiBridge};

/// How the engine plays its games on the server.
pub struct EnginePlan {
    /// The engine, its options, the time margin and the engine timeout.
    pub bridge: BridgePlan,
    /// x1: games to play (1 in plain mode).
    pub games: u32,
    /// Where to write the CSA kifu of the games (rewritten after each game,
    /// the games separated by `/`), if anywhere.
    pub kifu: Option<PathBuf>,
    /// x1: the game asked for again after each game.
    pub rematch: Option<(GameName<'static>, SidePreference)>,
    /// How long the server may stay silent when an answer is due.
    pub timeout: Duration,
}

/// What the games with the engine gave.
#[derive(Debug, Default)]
pub struct EngineReport {
    /// Games played.
    pub games: u32,
    /// The engine failed: why.
    pub engine_failed: Option<String>,
    /// Other problems (login refused, board mismatch...).
    pub problems: Problems,
}

/// The engine with its answers, started ([`UsiBridge::spawn`], then its
/// `Answer::Started`).
pub type Engine = (UsiBridge, mpsc::Receiver<Answer>);

/// Plays on `stream` with the engine until the server closes the
/// connection (x1: until `plan.games` games are played, or the engine
/// failed, then LOGOUT).
///
/// `log` gets the lines sent and received and a note for what the bridge
/// did (moves played with their Floodgate comment, resignations). Errors:
/// [`PlayError`] when the connection fails (login refused, I/O, silence).
pub async fn play_engine<IO, L>(
    stream: IO,
    config: ClientConfig,
    plan: &EnginePlan,
    (mut bridge, mut answers): Engine,
    t: &mut L,
) -> Result<EngineReport, PlayError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    L: Log,
{
    let mut report = EngineReport::default();
    let mut kifu = KifuFile::default();
    // The answers go through a channel of ours, so that once the run is
    // over they can still be drained while the engine quits.
    let (tx, rx) = mpsc::channel(8);
    let forward = tokio::spawn(async move {
        while let Some(a) = answers.recv().await {
            let _ = tx.send(a).await;
        }
    });
    let result = run_logged(
        stream,
        config,
        plan.timeout,
        rx,
        t,
        |client, activity, t| {
            let now = Instant::now();
            let shown = match activity {
                Activity::Event(e) => {
                    game_event(client, &e, &mut report.problems, t);
                    match e {
                        Event::GameSummary(s) => {
                            kifu.new_game(&s);
                            Some(bridge.game_offered(client, now))
                        }
                        Event::Move { time, .. } => {
                            let ply = client.moves().len().saturating_sub(1);
                            set(&mut kifu.times, ply, time.map(|t| t.as_secs()));
                            None
                        }
                        Event::GameEnded(end) => {
                            bridge.game_ended(&end);
                            report.games += 1;
                            if let Some(path) = &plan.kifu {
                                let (start, moves) = (&end.start, &end.moves);
                                match kifu.write(path, start, moves, end.reason) {
                                    Ok(()) => {
                                        t.note(&format!("kifu written to {}", path.display()))
                                    }
                                    Err(e) => report.problems.push(e),
                                }
                            }
                            let more = report.games < plan.games && bridge.failed().is_none();
                            match plan.rematch.as_ref().filter(|_| more) {
                                Some((name, side)) => {
                                    t.note(&format!("game {} of {}", report.games + 1, plan.games));
                                    if let Err(e) = client.request_game(name.clone(), *side, now) {
                                        report.problems.push(format!("%%GAME: {e}"));
                                        let _ = client.logout(now);
                                    }
                                }
                                None => {
                                    let _ = client.logout(now);
                                }
                            }
                            None
                        }
                        _ => None,
                    }
                }
                Activity::Idle => bridge.our_turn(client, now),
                Activity::External(answer) => Some(bridge.answer(client, answer, now)),
                _ => None,
            };
            match shown {
                None | Some(Report::Started { .. } | Report::Agreed | Report::Asked(_)) => {}
                Some(r) => {
                    if let Report::Played { ply, comment, .. } = &r {
                        set(&mut kifu.comments, *ply, comment.clone());
                    }
                    t.note(&r.to_string());
                }
            }
        },
    )
    .await;
    report.engine_failed = bridge.failed().map(str::to_owned);
    // The engine is told `quit` (killed after 2 s); wait a little more.
    drop(bridge);
    let _ = tokio::time::timeout(Duration::from_secs(5), forward).await;
    result?;
    Ok(report)
}

/// `v[i] = x`, growing `v` as needed.
fn set<T: Clone + Default>(v: &mut Vec<T>, i: usize, x: T) {
    if v.len() <= i {
        v.resize(i + 1, T::default());
    }
    v[i] = x;
}

/// The kifu of the games so far (`--kifu`), rewritten after each game.
#[derive(Default)]
struct KifuFile {
    /// `T` of every move of the current game, by ply.
    times: Vec<Option<u64>>,
    /// Our Floodgate comments, by ply.
    comments: Vec<Option<String>>,
    names: [Option<String>; 2],
    game_id: Option<String>,
    text: String,
}

impl KifuFile {
    fn new_game(&mut self, s: &GameSummary) {
        self.names = [&s.name_black, &s.name_white].map(|n| n.as_ref().map(|n| n.to_string()));
        self.game_id = s.game_id.as_ref().map(|g| g.to_string());
        self.times.clear();
        self.comments.clear();
    }

    fn write(
        &mut self,
        path: &Path,
        start: &Position,
        moves: &[Move],
        reason: Option<EndReason>,
    ) -> Result<(), String> {
        let mut pos = *start;
        let mut km = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            let Ok(csa) = pos.move_to_csa(m) else { break };
            km.push(GameMove {
                csa,
                time: self.times.get(i).copied().flatten(),
                comment: self.comments.get(i).cloned().flatten(),
            });
            pos.play_unchecked(m);
        }
        let k = Kifu {
            names: self.names.clone(),
            game_id: self.game_id.clone(),
            start,
            moves: km,
            end: reason.and_then(|r| end_statement(r, pos.side_to_move())),
        };
        if !self.text.is_empty() {
            self.text.push_str("/\n");
        }
        self.text.push_str(&k.to_string());
        std::fs::write(path, &self.text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}
