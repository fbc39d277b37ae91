//! A UCI engine process driven through games: the handshake
//! (`uci`/`uciok`, `setoption`, `isready`/`readyok`), then per game
//! `ucinewgame`, per move `position ...` + `go movetime MS` → `bestmove`,
//! `quit` at the end. Every wait has a deadline; an engine that exits,
//! stays silent or plays an illegal move is an [`EngineError`].

use std::time::Duration;

use board_core::chess::{Move, Position, UciMove};

use crate::error::DecodeError;
use crate::line_engine::{
    FamilySeen, LineEngine, NewGame, Read, UsiFamily, classify_family, reached,
};
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
    const NEW_GAME: NewGame = NewGame::ThenReady(b"ucinewgame\n");

    fn classify(line: &[u8]) -> Result<Read<Seen>, DecodeError> {
        Ok(classify_family(engine_line(line)?))
    }
}

impl LineEngine<Uci> {
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
        let now_pos = reached(start, moves);
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
