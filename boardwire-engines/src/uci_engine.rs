//! A UCI engine process driven through games: the handshake
//! (`uci`/`uciok`, `setoption`, `isready`/`readyok`), then per game
//! `ucinewgame`, per move `position ...` + `go movetime MS` → `bestmove`,
//! `quit` at the end. Every wait has a deadline; an engine that exits,
//! stays silent or plays an illegal move is an [`EngineError`].

use std::time::Duration;

use board_core::chess::{Move, Position, UciMove};

use crate::error::DecodeError;
use crate::line_engine::{FamilySeen, LineEngine, Read, UsiFamily, classify_family};
pub use crate::line_engine::{Skipped, Timeouts};
use crate::process::EngineError;
use crate::uci::{Command, engine_line};

/// UCI, for [`LineEngine`]: `uci` → `uciok`, `setoption`, `isready` →
/// `readyok`, `quit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uci;

/// A UCI engine. See the module documentation; the start-up, the name and
/// `quit` are [`LineEngine`]'s.
pub type UciEngine = LineEngine<Uci>;

/// What the driver reads of a UCI engine's line.
type Seen = FamilySeen<Option<UciMove>, Option<UciMove>>;

impl UsiFamily for Uci {
    type Best = Option<UciMove>;
    type Ponder = Option<UciMove>;
    const GREETING: &'static [u8] = b"uci\n";
    const AWAITING: &'static str = "uciok";

    fn classify(line: &[u8]) -> Result<Read<Seen>, DecodeError> {
        Ok(classify_family(engine_line(line)?))
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
        self.run_search(&bytes, allowed, None, |s, _, _| {
            let Seen::BestMove(best, _) = s else {
                return None;
            };
            Some(match best {
                None => Ok(None),
                Some(u) => u
                    .to_move(&now_pos)
                    .map(Some)
                    .map_err(|e| EngineError::IllegalMove {
                        mv: u.to_string(),
                        reason: e.to_string(),
                    }),
            })
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line_engine::Wire;

    #[test]
    fn the_readiness_check_is_the_encoders_isready() {
        assert_eq!(Uci::READY.bytes, Command::IsReady.to_bytes());
        assert!((Uci::READY.answers)(&Seen::ReadyOk) && !(Uci::READY.answers)(&Seen::HelloOk));
    }

    #[test]
    fn the_greeting_and_quit_are_the_encoders() {
        assert_eq!(<Uci as Wire>::HELLO.bytes, Command::Uci.to_bytes());
        assert_eq!(Uci::QUIT, Command::Quit.to_bytes());
        assert_eq!(Uci::STOP, Command::Stop.to_bytes());
    }
}
