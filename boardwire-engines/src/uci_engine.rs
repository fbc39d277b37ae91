//! A UCI engine process driven through games: the handshake
//! (`uci`/`uciok`, `setoption`, `isready`/`readyok`), then per game
//! `ucinewgame`, per move `position ...` + `go movetime MS` → `bestmove`,
//! `quit` at the end. Every wait has a deadline; an engine that exits,
//! stays silent or plays an illegal move is an [`EngineError`].

use std::time::Duration;

use board_core::chess::{Move, Position};
use tokio::time::Instant;

use crate::process::{Engine, EngineError, EngineSpec, Limits, Line};
use crate::types::EngineOption;
use crate::uci::{Command, EngineMessage, decode};
use crate::usi_engine::{Skipped, Timeouts};

/// A UCI engine. See the module documentation.
pub struct UciEngine {
    engine: Engine,
    name: Option<String>,
    timeouts: Timeouts,
    bad: u32,
    log: Box<dyn FnMut(Skipped) + Send>,
}

impl core::fmt::Debug for UciEngine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UciEngine")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

enum Seen {
    UciOk,
    ReadyOk,
    IdName(String),
    BestMove(Option<board_core::chess::UciMove>),
    Bad,
    Other,
}

impl UciEngine {
    /// Starts the engine and runs the handshake ([`Timeouts::usiok`] bounds
    /// `uciok`, [`Timeouts::readyok`] `readyok`). `log` sees every line
    /// that was skipped.
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
            timeouts,
            bad: 0,
            log,
        };
        e.send(Command::Uci).await?;
        let start = Instant::now();
        let deadline = start + timeouts.usiok;
        loop {
            match e.next(deadline, "uciok", start).await? {
                Seen::UciOk => break,
                Seen::IdName(n) => e.name = Some(n),
                _ => {}
            }
        }
        for o in options {
            e.send(Command::SetOption {
                name: &o.name,
                value: o.value.as_ref(),
            })
            .await?;
        }
        e.ready().await?;
        Ok(e)
    }

    /// `id name` of the engine.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    async fn send(&mut self, c: Command<'_>) -> Result<(), EngineError> {
        self.engine.send(&c.to_bytes()).await
    }

    async fn ready(&mut self) -> Result<(), EngineError> {
        self.send(Command::IsReady).await?;
        let start = Instant::now();
        let deadline = start + self.timeouts.readyok;
        loop {
            if let Seen::ReadyOk = self.next(deadline, "readyok", start).await? {
                return Ok(());
            }
        }
    }

    async fn next(
        &mut self,
        deadline: Instant,
        awaiting: &'static str,
        started: Instant,
    ) -> Result<Seen, EngineError> {
        let seen = match self.engine.recv_line(deadline, awaiting, started).await? {
            // Empty lines (stockfish writes one) are no lines at all.
            Line::Text(t) if t.iter().all(|&b| b == b' ' || b == b'\t') => Seen::Other,
            Line::Text(t) => match decode(&t) {
                Ok(EngineMessage::UciOk) => Seen::UciOk,
                Ok(EngineMessage::ReadyOk) => Seen::ReadyOk,
                Ok(EngineMessage::IdName(n)) => {
                    Seen::IdName(String::from_utf8_lossy(n).into_owned())
                }
                Ok(EngineMessage::BestMove { best, .. }) => Seen::BestMove(best),
                Ok(EngineMessage::Unrecognised(_)) => Seen::Bad,
                Ok(_) => Seen::Other,
                Err(e) => {
                    (self.log)(Skipped::Malformed(e, t));
                    Seen::Bad
                }
            },
            Line::Overlong(n) => {
                (self.log)(Skipped::Overlong(n));
                Seen::Bad
            }
        };
        let max = self.engine.limits().max_bad_lines;
        if let Seen::Bad = seen {
            self.bad += 1;
            if max > 0 && self.bad >= max {
                return Err(EngineError::BadLines(self.bad));
            }
        } else {
            self.bad = 0;
        }
        Ok(seen)
    }

    /// `isready`/`readyok`, then `ucinewgame`.
    ///
    /// # Errors
    /// As [`UciEngine::start`].
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.send(Command::UciNewGame).await?;
        self.ready().await
    }

    /// `position` + `go movetime MS`; waits for `bestmove` up to `MS` plus
    /// [`Timeouts::think_margin`]; the move checked in the position
    /// reached (`None`: the engine has no move, `bestmove (none)`).
    ///
    /// # Errors
    /// [`EngineError::Silent`] (the engine is then told `stop`),
    /// [`EngineError::Exited`], [`EngineError::IllegalMove`].
    pub async fn think(
        &mut self,
        start: &Position,
        moves: &[Move],
        movetime_ms: u64,
    ) -> Result<Option<Move>, EngineError> {
        let mut now_pos = *start;
        for &m in moves {
            now_pos.play_unchecked(m);
        }
        let mut bytes = Command::Position { start, moves }.to_bytes();
        Command::GoMovetime(movetime_ms).encode(&mut bytes);
        self.engine.send(&bytes).await?;
        let began = Instant::now();
        let deadline = began + Duration::from_millis(movetime_ms) + self.timeouts.think_margin;
        loop {
            match self.next(deadline, "bestmove", began).await {
                Ok(Seen::BestMove(None)) => return Ok(None),
                Ok(Seen::BestMove(Some(u))) => {
                    return u
                        .to_move(&now_pos)
                        .map(Some)
                        .map_err(|e| EngineError::IllegalMove {
                            mv: u.to_string(),
                            reason: e.to_string(),
                        });
                }
                Ok(_) => {}
                Err(e @ EngineError::Silent { .. }) => {
                    let _ = self.send(Command::Stop).await;
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
