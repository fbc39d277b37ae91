//! A Hub engine process ([`spec::hub`](crate::spec::hub)) driven through games: the
//! start-up (`hub` → `id`/`param`... `wait`, `set-param` per option,
//! `init` → `ready`), then per game `new-game`, per move `pos ...`,
//! `level ...`, `go think` → `done`, `quit` at the end. Every wait has a
//! deadline; an engine that exits, stays silent or plays an illegal move
//! is an [`EngineError`]. The DXP bridge on top of it is
//! [`crate::dxp_bridge`].

use std::time::Duration;

use board_core::draughts::{Move, Position};

use crate::error::DecodeError;
use crate::hub::{Command, HubMessage, HubMove, Level, decode};
use crate::line_engine::{Ask, LineEngine, NewGame, Read, Wire, reached};
pub use crate::line_engine::{Skipped, Timeouts};
use crate::process::EngineError;
use crate::types::EngineOption;

/// Hub, for [`LineEngine`]: `hub` → `id`/`param`... `wait`, `set-param`
/// per option (`NAME=` with no value as `value=""`), `init` → `ready`,
/// `quit`; the engine's `param` names are kept ([`HubEngine::params`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hub;

/// A Hub engine. See the module documentation; the start-up, the name and
/// `quit` are [`LineEngine`]'s.
pub type HubEngine = LineEngine<Hub>;

/// The lines the driver waits for or uses (`pub` in a private module:
/// the type of a public trait's item).
mod seen {
    use super::*;

    pub enum Seen {
        Wait,
        Ready,
        Id(Option<String>),
        Param(Option<String>),
        Done(HubMove),
        Error(String),
    }
}
use seen::Seen;

impl Wire for Hub {
    type Seen = Seen;
    type Kept = Vec<String>;
    const HELLO: Ask<Seen> = Ask {
        bytes: b"hub\n",
        awaiting: "wait",
        answers: |s| matches!(s, Seen::Wait),
    };
    const READY: Ask<Seen> = Ask {
        bytes: b"init\n",
        awaiting: "ready",
        answers: |s| matches!(s, Seen::Ready),
    };
    const ANSWER: &'static str = "done";
    const NEW_GAME: NewGame = NewGame::Alone(b"new-game\n");

    fn classify(line: &[u8]) -> Result<Read<Seen>, DecodeError> {
        Ok(Read::Seen(match decode(line)? {
            HubMessage::Wait => Seen::Wait,
            HubMessage::Ready => Seen::Ready,
            HubMessage::Id(p) => Seen::Id(p.text("name").map(str::to_owned)),
            HubMessage::Param(p) => Seen::Param(p.text("name").map(str::to_owned)),
            HubMessage::Done { mv, .. } => Seen::Done(mv),
            HubMessage::Error(p) => Seen::Error(p.text("message").unwrap_or("error").to_owned()),
            // Hub: lines a GUI does not know are ignored (`init book`).
            _ => return Ok(Read::Ignored),
        }))
    }

    fn option(o: &EngineOption, out: &mut Vec<u8>) {
        Command::SetParam {
            name: &o.name,
            value: o.value.as_ref(),
        }
        .encode(out);
    }

    fn greet(seen: Seen, params: &mut Vec<String>) -> Option<String> {
        match seen {
            Seen::Id(n) => n,
            Seen::Param(Some(p)) => {
                params.push(p);
                None
            }
            _ => None,
        }
    }
}

impl LineEngine<Hub> {
    /// The `name=` of each `param` line of the start-up, in order.
    pub fn params(&self) -> &[String] {
        &self.kept
    }

    /// `pos` (`start` and `moves`), `level`, `go think`; waits for `done`
    /// up to `allowed` plus [`Timeouts::think_margin`] and checks the move
    /// in the position reached.
    ///
    /// # Errors
    /// [`EngineError::Silent`] (the engine is then told `stop`),
    /// [`EngineError::Exited`], [`EngineError::IllegalMove`] (also for an
    /// `error` line during the search).
    pub async fn think(
        &mut self,
        start: &Position,
        moves: &[Move],
        level: Level,
        allowed: Duration,
    ) -> Result<Move, EngineError> {
        self.search(start, moves, level, allowed, None).await
    }

    /// [`HubEngine::think`] for search `id`, told `stop` ([`spec::hub`](crate::spec::hub),
    /// *A search*: the engine still answers `done`) as soon as `current`
    /// holds another id or its sender is dropped: the search no longer
    /// counts (a take-back, the game's end, the connection closed). The
    /// move it then gives is returned all the same, for the caller to
    /// drop.
    ///
    /// # Errors
    /// As [`HubEngine::think`].
    pub async fn think_while_current(
        &mut self,
        start: &Position,
        moves: &[Move],
        level: Level,
        allowed: Duration,
        current: &mut tokio::sync::watch::Receiver<u64>,
        id: u64,
    ) -> Result<Move, EngineError> {
        self.search(start, moves, level, allowed, Some((current, id)))
            .await
    }

    async fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        level: Level,
        allowed: Duration,
        current: Option<(&mut tokio::sync::watch::Receiver<u64>, u64)>,
    ) -> Result<Move, EngineError> {
        let now_pos = reached(start, moves);
        let mut b = Command::Pos { start, moves }.to_bytes();
        Command::Level(level).encode(&mut b);
        Command::GoThink.encode(&mut b);
        self.run_search(&b, allowed, current, |s, _, _| match s {
            Seen::Done(hm) => Some(hm.to_move(&now_pos).ok_or(EngineError::IllegalMove {
                mv: hm.to_string(),
                reason: "no legal move has this from, to and captured set".into(),
            })),
            Seen::Error(msg) => Some(Err(EngineError::IllegalMove {
                mv: "(none)".into(),
                reason: format!("the engine said: {msg}"),
            })),
            _ => None,
        })
        .await
    }
}
