//! A UCI engine process driven through games: the handshake
//! (`uci`/`uciok`, `setoption`, `isready`/`readyok`), then per game
//! `ucinewgame`, per move `position ...` + `go movetime MS` → `bestmove`,
//! `quit` at the end. Every wait has a deadline; an engine that exits,
//! stays silent or plays an illegal move is an [`EngineError`].

use std::time::Duration;

use board_core::chess::{Move, Position, UciMove};

use crate::error::DecodeError;
use crate::line_engine::{Ask, LineEngine, Read, Wire};
pub use crate::line_engine::{Skipped, Timeouts};
use crate::process::EngineError;
use crate::types::EngineOption;
use crate::uci::{Command, EngineMessage, decode};

/// UCI, for [`LineEngine`]: `uci` → `uciok`, `setoption`, `isready` →
/// `readyok`, `quit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uci;

/// A UCI engine. See the module documentation; the start-up, the name and
/// `quit` are [`LineEngine`]'s.
pub type UciEngine = LineEngine<Uci>;

/// The lines the driver waits for or uses (`pub` in a private module:
/// the type of a public trait's item).
mod seen {
    use super::*;

    #[derive(Debug, PartialEq, Eq)]
    pub enum Seen {
        UciOk,
        ReadyOk,
        IdName(String),
        BestMove(Option<UciMove>),
    }
}
use seen::Seen;

impl Wire for Uci {
    type Seen = Seen;
    type Kept = ();
    const HELLO: Ask<Seen> = Ask {
        bytes: b"uci\n",
        awaiting: "uciok",
        answers: |s| *s == Seen::UciOk,
    };
    const READY: Ask<Seen> = Ask {
        bytes: b"isready\n",
        awaiting: "readyok",
        answers: |s| *s == Seen::ReadyOk,
    };
    const QUIT: &'static [u8] = b"quit\n";

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

    fn option(o: &EngineOption, out: &mut Vec<u8>) {
        Command::SetOption {
            name: &o.name,
            value: o.value.as_ref(),
        }
        .encode(out);
    }

    fn greet(seen: Seen, (): &mut ()) -> Option<String> {
        match seen {
            Seen::IdName(n) => Some(n),
            _ => None,
        }
    }
}

impl LineEngine<Uci> {
    async fn send(&mut self, c: Command<'_>) -> Result<(), EngineError> {
        self.core.send(&c.to_bytes()).await
    }

    /// `ucinewgame`, then `isready`/`readyok` (the order the UCI
    /// description gives: the GUI waits for `readyok` after
    /// `ucinewgame`).
    ///
    /// # Errors
    /// As [`UciEngine::start`].
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.send(Command::UciNewGame).await?;
        self.core.ready::<Uci>().await
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
        self.core
            .search(
                &bytes,
                allowed,
                "bestmove",
                &stop,
                Uci::classify,
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readiness_check_is_the_encoders_isready() {
        assert_eq!(Uci::READY.bytes, Command::IsReady.to_bytes());
        assert!((Uci::READY.answers)(&Seen::ReadyOk) && !(Uci::READY.answers)(&Seen::UciOk));
    }

    #[test]
    fn the_greeting_and_quit_are_the_encoders() {
        assert_eq!(Uci::HELLO.bytes, Command::Uci.to_bytes());
        assert_eq!(Uci::QUIT, Command::Quit.to_bytes());
    }
}
