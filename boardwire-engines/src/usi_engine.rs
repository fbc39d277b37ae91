//! A USI engine process driven through one game after another: the
//! handshake (`usi`/`usiok`, `setoption`, `isready`/`readyok`), then per
//! game `usinewgame`, per move `position ...` + `go ...` → `bestmove`, and
//! `gameover`, `quit` at the end. Every wait has a deadline; an engine
//! that exits, stays silent or plays an illegal move is an
//! [`EngineError`].

use std::time::Duration;

use board_core::shogi::{Move, Position};

use crate::error::DecodeError;
use crate::line_engine::{Ask, LineEngine, Read, Wire};
pub use crate::line_engine::{Skipped, Timeouts};
use crate::parse::Score;
use crate::process::EngineError;
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

/// The lines the driver waits for or uses (`pub` in a private module:
/// the type of a public trait's item).
mod seen {
    use super::*;

    #[derive(Debug, PartialEq, Eq)]
    pub enum Seen {
        UsiOk,
        ReadyOk,
        IdName(String),
        BestMove(BestMove, Option<Move>),
        Info,
    }
}
use seen::Seen;

/// USI, for [`LineEngine`]: `usi` → `usiok`, `setoption`, `isready` →
/// `readyok`, `quit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usi;

/// A USI engine. See the module documentation; the start-up, the name and
/// `quit` are [`LineEngine`]'s.
pub type UsiEngine = LineEngine<Usi>;

impl Wire for Usi {
    type Seen = Seen;
    type Kept = ();
    const HELLO: Ask<Seen> = Ask {
        bytes: b"usi\n",
        awaiting: "usiok",
        answers: |s| *s == Seen::UsiOk,
    };
    const READY: Ask<Seen> = Ask {
        bytes: b"isready\n",
        awaiting: "readyok",
        answers: |s| *s == Seen::ReadyOk,
    };
    const QUIT: &'static [u8] = b"quit\n";

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

impl LineEngine<Usi> {
    async fn send(&mut self, c: Command<'_>) -> Result<(), EngineError> {
        self.core.send(&c.to_bytes()).await
    }

    /// `isready`/`readyok`, then `usinewgame`: call before each game.
    ///
    /// # Errors
    /// As [`UsiEngine::start`].
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        self.core.ready::<Usi>().await?;
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
        self.core
            .search(
                &bytes,
                allowed,
                "bestmove",
                &stop,
                Usi::classify,
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readiness_check_is_the_encoders_isready() {
        assert_eq!(Usi::READY.bytes, Command::IsReady.to_bytes());
        assert!((Usi::READY.answers)(&Seen::ReadyOk) && !(Usi::READY.answers)(&Seen::UsiOk));
    }

    #[test]
    fn the_greeting_and_quit_are_the_encoders() {
        assert_eq!(Usi::HELLO.bytes, Command::Usi.to_bytes());
        assert_eq!(Usi::QUIT, Command::Quit.to_bytes());
    }
}
