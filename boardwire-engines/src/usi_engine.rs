//! A USI engine process driven through one game after another: the
//! handshake (`usi`/`usiok`, `setoption`, `isready`/`readyok`), then per
//! game `usinewgame`, per move `position ...` + `go ...` → `bestmove`, and
//! `gameover`, `quit` at the end. Every wait has a deadline; an engine
//! that exits, stays silent or plays an illegal move is an
//! [`EngineError`].

use std::time::Duration;

use board_core::shogi::{Move, Position};

use crate::error::DecodeError;
use crate::line_engine::{Ask, LineEngine, Read, Startup};
pub use crate::line_engine::{Skipped, Timeouts};
use crate::parse::Score;
use crate::process::{EngineError, EngineSpec, Limits};
use crate::types::EngineOption;
use crate::usi::{BestMove, Command, EngineMessage, GameOver, Go, decode};

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

#[derive(Debug, PartialEq, Eq)]
enum Seen {
    UsiOk,
    ReadyOk,
    IdName(String),
    BestMove(BestMove, Option<Move>),
    Info,
}

fn classify(line: &[u8]) -> Result<Read<Seen>, DecodeError> {
    Ok(match decode(line)? {
        EngineMessage::UsiOk => Read::Seen(Seen::UsiOk),
        EngineMessage::ReadyOk => Read::Seen(Seen::ReadyOk),
        EngineMessage::BestMove { best, ponder } => Read::Seen(Seen::BestMove(best, ponder)),
        EngineMessage::IdName(n) => {
            Read::Seen(Seen::IdName(String::from_utf8_lossy(n).into_owned()))
        }
        EngineMessage::Info(_) => Read::Seen(Seen::Info),
        EngineMessage::Unrecognised(_) => Read::Bad,
        _ => Read::Ignored,
    })
}

/// `isready` → `readyok`.
const READY: Ask<'static, Seen> = Ask {
    bytes: b"isready\n",
    awaiting: "readyok",
    answers: |s| *s == Seen::ReadyOk,
};

/// A USI engine. See the module documentation.
#[derive(Debug)]
pub struct UsiEngine {
    engine: LineEngine,
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
        let startup = Startup {
            classify,
            hello: Ask {
                bytes: &Command::Usi.to_bytes(),
                awaiting: "usiok",
                answers: |s| *s == Seen::UsiOk,
            },
            options,
            option: |o, out| {
                Command::SetOption {
                    name: &o.name,
                    value: o.value.as_ref(),
                }
                .encode(out);
            },
            ready: READY,
        };
        let engine = LineEngine::start(spec, limits, timeouts, log, startup, |s| match s {
            Seen::IdName(n) => Some(n),
            _ => None,
        })
        .await?;
        Ok(Self { engine })
    }

    /// `id name` of the engine.
    pub fn name(&self) -> Option<&str> {
        self.engine.name.as_deref()
    }

    async fn send(&mut self, c: Command<'_>) -> Result<(), EngineError> {
        self.engine.send(&c.to_bytes()).await
    }

    /// `isready`/`readyok`, then `usinewgame`: call before each game.
    ///
    /// # Errors
    /// As [`UsiEngine::start`].
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.engine.ready(&READY, classify).await?;
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
        let stop = Command::Stop.to_bytes();
        let mut info: Option<Vec<u8>> = None;
        let mut score = None;
        self.engine
            .search(
                &bytes,
                allowed,
                "bestmove",
                &stop,
                classify,
                None,
                |s, text, took| match s {
                    Seen::Info => {
                        if let Ok(EngineMessage::Info(i)) = decode(&text)
                            && i.score.is_some()
                            && i.multipv.is_none_or(|m| m == 1)
                        {
                            score = i.score;
                            info = Some(text);
                        }
                        None
                    }
                    Seen::BestMove(best, ponder) => {
                        if let BestMove::Move(m) = best
                            && let Err(e) = now_pos.check_move(m)
                        {
                            return Some(Err(EngineError::IllegalMove {
                                mv: m.to_string(),
                                reason: e.to_string(),
                            }));
                        }
                        Some(Ok(Thought {
                            best,
                            ponder,
                            info: info.take(),
                            score: score.take(),
                            elapsed: took,
                        }))
                    }
                    _ => None,
                },
            )
            .await
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
        self.engine.quit(&Command::Quit.to_bytes()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readiness_check_is_the_encoders_isready() {
        assert_eq!(READY.bytes, Command::IsReady.to_bytes());
        assert!((READY.answers)(&Seen::ReadyOk) && !(READY.answers)(&Seen::UsiOk));
    }
}
