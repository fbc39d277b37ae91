//! A USI engine process driven through one game after another: the
//! handshake (`usi`/`usiok`, `setoption`, `isready`/`readyok`), then per
//! game `usinewgame`, per move `position ...` + `go ...` → `bestmove`, and
//! `gameover`, `quit` at the end. Every wait has a deadline; an engine
//! that exits, stays silent or plays an illegal move is an
//! [`EngineError`].

use std::time::Duration;

use board_core::shogi::{Move, Position};
use tokio::time::Instant;

use crate::error::DecodeError;
use crate::parse::Score;
use crate::process::{Engine, EngineError, EngineSpec, Limits, Line};
use crate::types::EngineOption;
use crate::usi::{BestMove, Command, EngineMessage, GameOver, Go, decode};

/// How long the engine may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timeouts {
    /// `usi` → `usiok` (default 10 s).
    pub usiok: Duration,
    /// `isready` → `readyok` (default 60 s: engines load their
    /// evaluation files here).
    pub readyok: Duration,
    /// Added to the time the `go` allows before the engine counts as
    /// silent (default 5 s).
    pub think_margin: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            usiok: Duration::from_secs(10),
            readyok: Duration::from_secs(60),
            think_margin: Duration::from_secs(5),
        }
    }
}

/// What the engine found for one move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thought {
    /// `bestmove`'s move, legal in the position (checked), `resign` or `win`.
    pub best: BestMove,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The last `info` line with a score (multipv 1): its text, to read
    /// again with [`crate::usi::decode`] (the PV for a Floodgate comment).
    pub info: Option<Vec<u8>>,
    /// Its score.
    pub score: Option<Score>,
    /// How long the engine took.
    pub elapsed: Duration,
}

/// A line the engine wrote that the driver skipped (reported to the
/// caller's log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skipped {
    /// It did not decode.
    Malformed(DecodeError, Vec<u8>),
    /// It was over the line cap (bytes seen).
    Overlong(usize),
}

#[derive(Debug, PartialEq, Eq)]
enum Seen {
    UsiOk,
    ReadyOk,
    IdName(String),
    BestMove(BestMove, Option<Move>),
    Info,
    Unrecognised,
    Other,
}

/// A USI engine. See the module documentation.
pub struct UsiEngine {
    engine: Engine,
    name: Option<String>,
    timeouts: Timeouts,
    bad: u32,
    log: Box<dyn FnMut(Skipped) + Send>,
}

impl core::fmt::Debug for UsiEngine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UsiEngine")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl UsiEngine {
    /// Starts the engine and runs the handshake: `usi` (waits for `usiok`),
    /// a `setoption` per option, `isready` (waits for `readyok`). `log`
    /// sees every line that was skipped.
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
        let engine = Engine::spawn(spec, limits)?;
        let mut e = Self {
            engine,
            name: None,
            timeouts,
            bad: 0,
            log,
        };
        e.send(Command::Usi).await?;
        let start = Instant::now();
        let deadline = start + timeouts.usiok;
        loop {
            match e.next(deadline, "usiok", start).await?.0 {
                Seen::UsiOk => break,
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

    /// `isready` → `readyok`.
    async fn ready(&mut self) -> Result<(), EngineError> {
        self.send(Command::IsReady).await?;
        let start = Instant::now();
        let deadline = start + self.timeouts.readyok;
        loop {
            if self.next(deadline, "readyok", start).await?.0 == Seen::ReadyOk {
                return Ok(());
            }
        }
    }

    /// The next line and what it is (`Seen::Skipped` for a line that
    /// was skipped or is of no interest).
    async fn next(
        &mut self,
        deadline: Instant,
        awaiting: &'static str,
        started: Instant,
    ) -> Result<(Seen, Vec<u8>), EngineError> {
        let line = self.engine.recv_line(deadline, awaiting, started).await?;
        let max = self.engine.limits().max_bad_lines;
        let (seen, text) = match line {
            // Empty lines (some engines write them) are no lines at all.
            Line::Text(t) if t.iter().all(|&b| b == b' ' || b == b'\t') => (Seen::Other, t),
            Line::Text(t) => match decode(&t) {
                Ok(m) => (
                    match m {
                        EngineMessage::UsiOk => Seen::UsiOk,
                        EngineMessage::ReadyOk => Seen::ReadyOk,
                        EngineMessage::BestMove { best, ponder } => Seen::BestMove(best, ponder),
                        EngineMessage::IdName(n) => {
                            Seen::IdName(String::from_utf8_lossy(n).into_owned())
                        }
                        EngineMessage::Info(_) => Seen::Info,
                        EngineMessage::Unrecognised(_) => Seen::Unrecognised,
                        _ => Seen::Other,
                    },
                    t,
                ),
                Err(e) => {
                    (self.log)(Skipped::Malformed(e, t.clone()));
                    (Seen::Unrecognised, t)
                }
            },
            Line::Overlong(n) => {
                (self.log)(Skipped::Overlong(n));
                (Seen::Unrecognised, Vec::new())
            }
        };
        if seen == Seen::Unrecognised {
            self.bad += 1;
            if max > 0 && self.bad >= max {
                return Err(EngineError::BadLines(self.bad));
            }
        } else {
            self.bad = 0;
        }
        Ok((seen, text))
    }

    /// `isready`/`readyok`, then `usinewgame`: call before each game.
    ///
    /// # Errors
    /// As [`UsiEngine::start`].
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.ready().await?;
        self.send(Command::UsiNewGame).await
    }

    /// Sends `position` (`start` and `moves`) and `go`, waits for
    /// `bestmove` until `allowed` (the time the `go` lets the engine use)
    /// plus [`Timeouts::think_margin`], and checks the move in the
    /// position reached.
    ///
    /// # Errors
    /// [`EngineError::Silent`] past the deadline (the engine is then told
    /// `stop`), [`EngineError::Exited`], [`EngineError::IllegalMove`] (also
    /// for a ponder move that is no move at all is *not* an error: it is
    /// dropped).
    pub async fn think(
        &mut self,
        start: &Position,
        moves: &[Move],
        go: Go,
        allowed: Duration,
    ) -> Result<Thought, EngineError> {
        let mut now_pos = *start;
        for &m in moves {
            now_pos.play_unchecked(m);
        }
        let mut bytes = Command::Position { start, moves }.to_bytes();
        Command::Go(go).encode(&mut bytes);
        self.engine.send(&bytes).await?;
        let began = Instant::now();
        let deadline = began + allowed + self.timeouts.think_margin;
        let mut info: Option<Vec<u8>> = None;
        let mut score = None;
        loop {
            let (msg, text) = match self.next(deadline, "bestmove", began).await {
                Ok(r) => r,
                Err(e @ EngineError::Silent { .. }) => {
                    let _ = self.send(Command::Stop).await;
                    return Err(e);
                }
                Err(e) => return Err(e),
            };
            match msg {
                Seen::Info => {
                    if let Ok(EngineMessage::Info(i)) = decode(&text)
                        && i.score.is_some()
                        && i.multipv.is_none_or(|m| m == 1)
                    {
                        score = i.score;
                        info = Some(text);
                    }
                }
                Seen::BestMove(best, ponder) => {
                    if let BestMove::Move(m) = best
                        && let Err(e) = now_pos.check_move(m)
                    {
                        return Err(EngineError::IllegalMove {
                            mv: m.to_string(),
                            reason: e.to_string(),
                        });
                    }
                    return Ok(Thought {
                        best,
                        ponder,
                        info,
                        score,
                        elapsed: began.elapsed(),
                    });
                }
                _ => {}
            }
        }
    }

    /// `gameover win|lose|draw`.
    ///
    /// # Errors
    /// [`EngineError::Write`].
    pub async fn game_over(&mut self, r: GameOver) -> Result<(), EngineError> {
        self.send(Command::GameOver(r)).await
    }

    /// `quit`; the process is killed when it has not ended within 2 s.
    pub async fn quit(self) {
        self.engine
            .shutdown(&Command::Quit.to_bytes(), Duration::from_secs(2))
            .await;
    }
}
