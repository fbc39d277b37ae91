//! A UCI engine process driven through games: the handshake
//! (`uci`/`uciok`, `setoption`, `isready`/`readyok`), then per game
//! `ucinewgame`, per move `position ...` + `go movetime MS` → `bestmove`,
//! `quit` at the end. Every wait has a deadline; an engine that exits,
//! stays silent or plays an illegal move is an [`EngineError`].

use std::time::Duration;

use board_core::chess::{Move, Position, UciMove};

use crate::error::DecodeError;
use crate::line_engine::{Ask, LineEngine, Read, Startup};
pub use crate::line_engine::{Skipped, Timeouts};
use crate::process::{EngineError, EngineSpec, Limits};
use crate::types::EngineOption;
use crate::uci::{Command, EngineMessage, decode};

/// `isready` → `readyok`.
const READY: Ask<'static, Seen> = Ask {
    bytes: b"isready\n",
    awaiting: "readyok",
    answers: |s| matches!(s, Seen::ReadyOk),
};

/// A UCI engine. See the module documentation.
#[derive(Debug)]
pub struct UciEngine {
    engine: LineEngine,
}

enum Seen {
    UciOk,
    ReadyOk,
    IdName(String),
    BestMove(Option<UciMove>),
}

fn classify(line: &[u8]) -> Result<Read<Seen>, DecodeError> {
    Ok(match decode(line)? {
        EngineMessage::UciOk => Read::Seen(Seen::UciOk),
        EngineMessage::ReadyOk => Read::Seen(Seen::ReadyOk),
        EngineMessage::IdName(n) => {
            Read::Seen(Seen::IdName(String::from_utf8_lossy(n).into_owned()))
        }
        EngineMessage::BestMove { best, .. } => Read::Seen(Seen::BestMove(best)),
        EngineMessage::Unrecognised(_) => Read::Bad,
        _ => Read::Ignored,
    })
}

impl UciEngine {
    /// Starts the engine and runs the handshake ([`Timeouts::handshake`] bounds
    /// `uciok`, [`Timeouts::ready`] `readyok`). `log` sees every line
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
        let startup = Startup {
            classify,
            hello: Ask {
                bytes: &Command::Uci.to_bytes(),
                awaiting: "uciok",
                answers: |s| matches!(s, Seen::UciOk),
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

    /// `ucinewgame`, then `isready`/`readyok` (the order the UCI
    /// description gives: the GUI waits for `readyok` after
    /// `ucinewgame`).
    ///
    /// # Errors
    /// As [`UciEngine::start`].
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.send(Command::UciNewGame).await?;
        self.engine.ready(&READY, classify).await
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
        let allowed = Duration::from_millis(movetime_ms);
        let stop = Command::Stop.to_bytes();
        self.engine
            .search(
                &bytes,
                allowed,
                "bestmove",
                &stop,
                classify,
                None,
                |s, _, _| {
                    let Seen::BestMove(best) = s else {
                        return None;
                    };
                    Some(match best {
                        None => Ok(None),
                        Some(u) => {
                            u.to_move(&now_pos)
                                .map(Some)
                                .map_err(|e| EngineError::IllegalMove {
                                    mv: u.to_string(),
                                    reason: e.to_string(),
                                })
                        }
                    })
                },
            )
            .await
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
        assert!((READY.answers)(&Seen::ReadyOk) && !(READY.answers)(&Seen::UciOk));
    }
}
