//! A Hub engine process (docs/specs/hub.md) driven through games: the
//! start-up (`hub` → `id`/`param`... `wait`, `set-param` per option,
//! `init` → `ready`), then per game `new-game`, per move `pos ...`,
//! `level ...`, `go think` → `done`, `quit` at the end. Every wait has a
//! deadline; an engine that exits, stays silent or plays an illegal move
//! is an [`EngineError`]. The DXP bridge on top of it is
//! [`crate::dxp_bridge`].

use std::time::Duration;

use board_core::draughts::{Move, Position};
use tokio::time::Instant;

use crate::hub::{Command, HubMessage, Level, decode};
use crate::process::{Engine, EngineError, EngineSpec, Limits, Line};
use crate::types::EngineOption;
use crate::usi_engine::{Skipped, Timeouts};

/// A Hub engine. See the module documentation.
pub struct HubEngine {
    engine: Engine,
    name: Option<String>,
    params: Vec<String>,
    timeouts: Timeouts,
    bad: u32,
    log: Box<dyn FnMut(Skipped) + Send>,
}

impl core::fmt::Debug for HubEngine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HubEngine")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

enum Seen {
    Wait,
    Ready,
    Id(Option<String>),
    Param(Option<String>),
    Done(crate::hub::HubMove),
    Error(String),
    Other,
}

impl HubEngine {
    /// Starts the engine and runs the start-up ([`Timeouts::usiok`] bounds
    /// `wait`, [`Timeouts::readyok`] `ready`); each option is sent as
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
        let mut e = Self {
            engine: Engine::spawn(spec, limits)?,
            name: None,
            params: Vec::new(),
            timeouts,
            bad: 0,
            log,
        };
        e.engine.send(&Command::Hub.to_bytes()).await?;
        let t0 = Instant::now();
        loop {
            match e.next(t0 + timeouts.usiok, "wait", t0).await? {
                Seen::Wait => break,
                Seen::Id(n) => e.name = n.or(e.name.take()),
                Seen::Param(Some(p)) => e.params.push(p),
                _ => {}
            }
        }
        for o in options {
            e.engine
                .send(
                    &Command::SetParam {
                        name: &o.name,
                        value: o.value.as_ref(),
                    }
                    .to_bytes(),
                )
                .await?;
        }
        e.engine.send(&Command::Init.to_bytes()).await?;
        let t0 = Instant::now();
        loop {
            if let Seen::Ready = e.next(t0 + timeouts.readyok, "ready", t0).await? {
                return Ok(e);
            }
        }
    }

    /// The `name=` of the engine's `id`.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The `name=` of each `param` line of the start-up, in order.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    async fn next(
        &mut self,
        deadline: Instant,
        awaiting: &'static str,
        started: Instant,
    ) -> Result<Seen, EngineError> {
        let mut bad = false;
        let seen = match self.engine.recv_line(deadline, awaiting, started).await? {
            Line::Text(t) if t.iter().all(|&b| b == b' ' || b == b'\t') => Seen::Other,
            Line::Text(t) => match decode(&t) {
                Ok(HubMessage::Wait) => Seen::Wait,
                Ok(HubMessage::Ready) => Seen::Ready,
                Ok(HubMessage::Id(p)) => Seen::Id(p.text("name").map(str::to_owned)),
                Ok(HubMessage::Param(p)) => Seen::Param(p.text("name").map(str::to_owned)),
                Ok(HubMessage::Done { mv, .. }) => Seen::Done(mv),
                Ok(HubMessage::Error(p)) => {
                    Seen::Error(p.text("message").unwrap_or("error").to_owned())
                }
                // Hub: lines a GUI does not know are ignored (`init book`).
                Ok(_) => Seen::Other,
                Err(e) => {
                    (self.log)(Skipped::Malformed(e, t));
                    bad = true;
                    Seen::Other
                }
            },
            Line::Overlong(n) => {
                (self.log)(Skipped::Overlong(n));
                bad = true;
                Seen::Other
            }
        };
        let max = self.engine.limits().max_bad_lines;
        if bad {
            self.bad += 1;
            if max > 0 && self.bad >= max {
                return Err(EngineError::BadLines(self.bad));
            }
        } else {
            self.bad = 0;
        }
        Ok(seen)
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
        let mut now_pos = *start;
        for &m in moves {
            now_pos.play_unchecked(m);
        }
        let mut b = Command::Pos { start, moves }.to_bytes();
        Command::Level(level).encode(&mut b);
        Command::GoThink.encode(&mut b);
        self.engine.send(&b).await?;
        let began = Instant::now();
        let deadline = began + allowed + self.timeouts.think_margin;
        loop {
            match self.next(deadline, "done", began).await {
                Ok(Seen::Done(hm)) => {
                    return hm.to_move(&now_pos).ok_or(EngineError::IllegalMove {
                        mv: hm.to_string(),
                        reason: "no legal move has this from, to and captured set".into(),
                    });
                }
                Ok(Seen::Error(msg)) => {
                    return Err(EngineError::IllegalMove {
                        mv: "(none)".into(),
                        reason: format!("the engine said: {msg}"),
                    });
                }
                Ok(_) => {}
                Err(e @ EngineError::Silent { .. }) => {
                    let _ = self.engine.send(&Command::Stop.to_bytes()).await;
                    return Err(e);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `quit`; the process is killed when it has not ended within 2 s.
    pub async fn quit(self) {
        self.engine
            .shutdown(&Command::Quit.to_bytes(), Duration::from_secs(2))
            .await;
    }
}
