//! The engine options of `dxp serve`, `dxp connect`, `csa connect` and
//! `citrine`, declared once: `--engine PROGRAM`, `--engine-arg ARG`,
//! `--option NAME=VALUE`, `--engine-timeout SECONDS`. Each command says
//! which protocol its engine speaks (Hub, USI, UCI).

use std::ffi::OsString;
use std::time::Duration;

use boardwire_engines::process::EngineSpec;
use boardwire_engines::types::EngineOption;
use boardwire_engines::usi_engine::Skipped;

use crate::transcript::show;

/// The engine that plays instead of the built-in player.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct EngineArgs {
    /// An engine to play with instead of the built-in player, run as
    /// PROGRAM [--engine-arg ARG]... (no shell): a Hub engine for `dxp`
    /// (Scan: `--engine scan --engine-arg hub`; `dxp serve` starts one per
    /// connection), a USI engine for `csa connect`, a UCI engine for
    /// `citrine`.
    #[arg(long, value_name = "PROGRAM")]
    pub(crate) engine: Option<OsString>,
    /// An argument for the engine (repeatable, in order).
    #[arg(
        long,
        value_name = "ARG",
        allow_hyphen_values = true,
        requires = "engine"
    )]
    pub(crate) engine_arg: Vec<OsString>,
    /// An engine option (repeatable), sent in the start-up: USI/UCI
    /// `setoption name NAME value VALUE` (`NAME=` for a button), Hub
    /// `set-param name=NAME value=VALUE` before `init` (`NAME=` sends
    /// `value=""`; a NAME the engine does not list in its `param` lines is
    /// named in a warning and sent all the same).
    #[arg(long = "option", value_name = "NAME=VALUE", requires = "engine")]
    pub(crate) options: Vec<EngineOption>,
    /// Seconds the engine may take for each step of its start-up (USI
    /// `usi` and `isready`, UCI `uci` and `isready`, Hub `hub` → `wait`
    /// and `init` → `ready`). Range 1..=3600 seconds.
    #[arg(long, default_value_t = 60, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) engine_timeout: u64,
}

/// `--engine`'s help line on one command: `engine` names the protocol the
/// command's engine speaks.
pub(crate) fn engine_help(engine: &str) -> String {
    format!(
        "{engine} to play with instead of the built-in player, \
         run as PROGRAM [--engine-arg ARG]... (no shell)"
    )
}

impl EngineArgs {
    /// The program and its arguments, when `--engine` is given.
    pub(crate) fn spec(&self) -> Option<EngineSpec> {
        Some(EngineSpec {
            program: self.engine.clone()?,
            args: self.engine_arg.clone(),
        })
    }

    /// `--engine-timeout`.
    pub(crate) fn start_timeout(&self) -> Duration {
        Duration::from_secs(self.engine_timeout)
    }
}

/// The stderr line for an engine line the driver skipped, after `who`
/// (`follower#N: ` in `dxp serve`, else empty): `engine line skipped:
/// <message> <field> at byte <n>: <problem>: <line>` or `engine line of
/// more than <n> bytes skipped`.
pub(crate) fn skipped_line(who: &str, s: &Skipped) -> String {
    match s {
        Skipped::Malformed(e, line) => format!("{who}engine line skipped: {e}: {}", show(line)),
        Skipped::Overlong(len) => format!("{who}engine line of more than {len} bytes skipped"),
    }
}

/// The engine drivers' log of skipped lines: [`skipped_line`] on stderr.
pub(crate) fn skipped_line_log(who: String) -> Box<dyn FnMut(Skipped) + Send> {
    Box::new(move |s| eprintln!("{}", skipped_line(&who, &s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's format of the line (boardwire/README.md, *Engine
    /// bridges*), for an engine line that did not decode.
    #[test]
    fn a_skipped_line_names_field_and_byte() {
        let line = b"bestmove 7j7f".to_vec();
        let e = boardwire_engines::usi::decode(&line).unwrap_err();
        assert_eq!(
            skipped_line("", &Skipped::Malformed(e, line)),
            format!("engine line skipped: {e}: bestmove 7j7f")
        );
        assert!(e.to_string().contains("at byte 10"), "{e}");
        assert_eq!(
            skipped_line("follower#2: ", &Skipped::Overlong(65536)),
            "follower#2: engine line of more than 65536 bytes skipped"
        );
    }
}
