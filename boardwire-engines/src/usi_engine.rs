//! A USI engine process driven through one game after another: the
//! handshake (`usi`/`usiok`, `setoption`, `isready`/`readyok`), then per
//! game `usinewgame`, per move `position ...` + `go ...` → `bestmove`, and
//! `gameover`, `quit` at the end. Every wait has a deadline; an engine
//! that exits, stays silent or plays an illegal move is an
//! [`EngineError`].

use std::time::Duration;

use board_core::shogi::{Move, Position};

use crate::error::DecodeError;
use crate::line_engine::{
    FamilySeen, LineEngine, NewGame, Read, UsiFamily, classify_family, reached,
};
pub use crate::line_engine::{Skipped, Timeouts};
use crate::parse::Score;
use crate::process::EngineError;
use crate::usi::{BestMove, Command, EngineMessage, GameOver, Go, decode, engine_line};

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

/// USI, for [`LineEngine`]: `usi` → `usiok`, `setoption`, `isready` →
/// `readyok`, `quit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usi;

/// A USI engine. See the module documentation; the start-up, the name and
/// `quit` are [`LineEngine`]'s.
pub type UsiEngine = LineEngine<Usi>;

/// What the driver reads of a USI engine's line.
type Seen = FamilySeen<BestMove, Move>;

impl UsiFamily for Usi {
    type Best = BestMove;
    type Ponder = Move;
    const GREETING: &'static [u8] = b"usi\n";
    const AWAITING: &'static str = "usiok";
    const NEW_GAME: NewGame = NewGame::AfterReady(b"usinewgame\n");

    fn classify(line: &[u8]) -> Result<Read<Seen>, DecodeError> {
        Ok(classify_family(engine_line(line)?))
    }
}

impl LineEngine<Usi> {
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
        let now_pos = reached(start, moves);
        let mut bytes = Command::Position { start, moves }.to_bytes();
        Command::Go(go).encode(&mut bytes);
        let mut info: Option<Vec<u8>> = None;
        let mut score = None;
        self.run_search(&bytes, allowed, None, |s, text, took| match s {
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
        })
        .await
    }

    /// `gameover win|lose|draw`.
    ///
    /// # Errors
    /// [`EngineError::Write`].
    pub async fn game_over(&mut self, r: GameOver) -> Result<(), EngineError> {
        self.core.send(&Command::GameOver(r).to_bytes()).await
    }
}
