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
use crate::line_engine::{Ask, LineEngine, Read, Startup};
pub use crate::line_engine::{Skipped, Timeouts};
use crate::process::{EngineError, EngineSpec, Limits};
use crate::types::EngineOption;

/// A Hub engine. See the module documentation.
#[derive(Debug)]
pub struct HubEngine {
    engine: LineEngine,
    params: Vec<String>,
}

enum Seen {
    Wait,
    Ready,
    Id(Option<String>),
    Param(Option<String>),
    Done(HubMove),
    Error(String),
}

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

impl HubEngine {
    /// Starts the engine and runs the start-up ([`Timeouts::handshake`] bounds
    /// `wait`, [`Timeouts::ready`] `ready`); each option is sent as
    /// `set-param` (`NAME=` with no value as `value=""`). The engine's
    /// `param` names are kept ([`HubEngine::params`]).
    ///
    /// # Errors
    /// [`EngineError`]: not started, exited, silent past a timeout.
    pub async fn start(
        spec: &EngineSpec,
        options: &[EngineOption],
        limits: Limits,
        timeouts: Timeouts,
        log: Box<dyn FnMut(Skipped) + Send>,
    ) -> Result<Self, EngineError> {
        let startup = Startup {
            classify,
            hello: Ask {
                bytes: &Command::Hub.to_bytes(),
                awaiting: "wait",
                answers: |s| matches!(s, Seen::Wait),
            },
            options,
            option: |o, out| {
                Command::SetParam {
                    name: &o.name,
                    value: o.value.as_ref(),
                }
                .encode(out);
            },
            ready: Ask {
                bytes: &Command::Init.to_bytes(),
                awaiting: "ready",
                answers: |s| matches!(s, Seen::Ready),
            },
        };
        let mut params = Vec::new();
        let engine = LineEngine::start(spec, limits, timeouts, log, startup, |s| match s {
            Seen::Id(n) => n,
            Seen::Param(Some(p)) => {
                params.push(p);
                None
            }
            _ => None,
        })
        .await?;
        Ok(Self { engine, params })
    }

    /// The `name=` of the engine's `id`.
    pub fn name(&self) -> Option<&str> {
        self.engine.name.as_deref()
    }

    /// The `name=` of each `param` line of the start-up, in order.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// `new-game`.
    ///
    /// # Errors
    /// [`EngineError::Write`].
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.engine.send(&Command::NewGame.to_bytes()).await
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
        let mut now_pos = *start;
        for &m in moves {
            now_pos.play_unchecked(m);
        }
        let mut b = Command::Pos { start, moves }.to_bytes();
        Command::Level(level).encode(&mut b);
        Command::GoThink.encode(&mut b);
        let stop = Command::Stop.to_bytes();
        self.engine
            .search(
                &b,
                allowed,
                "done",
                &stop,
                classify,
                current,
                |s, _, _| match s {
                    Seen::Done(hm) => Some(hm.to_move(&now_pos).ok_or(EngineError::IllegalMove {
                        mv: hm.to_string(),
                        reason: "no legal move has this from, to and captured set".into(),
                    })),
                    Seen::Error(msg) => Some(Err(EngineError::IllegalMove {
                        mv: "(none)".into(),
                        reason: format!("the engine said: {msg}"),
                    })),
                    _ => None,
                },
            )
            .await
    }

    /// `quit`; the process is killed when it has not ended within 2 s.
    pub async fn quit(self) {
        self.engine.quit(&Command::Quit.to_bytes()).await;
    }
}
