//! Wire ⇄ `board-core` shogi: CSA moves are `board_core::shogi::CsaMove`
//! (board-core owns the CSA move and position notation), [`Side`] converts
//! to and from `board_core::shogi::Color`, and [`GameBoard`] is the board a
//! session keeps: a `board_core::shogi` position plus the history a CSA
//! server needs for repetition (sennichite) and perpetual check
//! (oute-sennichite) — [`spec::csa`](crate::spec::csa), *Server-side legality*.
//!
//! All rules (move legality incl. nifu, uchifuzume, dead pieces, leaving the
//! king in check; the 27-point declaration) are board-core's; this module
//! only keeps the history and maps results.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use board_core::shogi::{
    CsaPositionError, HistoryEntry, IllegalReason, Move, Position, Repetition, repetition,
};

use crate::moves::CsaMove;
use crate::types::Side;

/// The board move a CSA move stands for in `pos`, checked against every
/// rule (board-core's [`Position::move_from_csa`]).
///
/// ```
/// use board_core::shogi::Position;
/// use csa_protocol::convert::{to_board_move, to_csa_move};
///
/// let pos = Position::startpos();
/// let mv = to_board_move(&pos, &"+7776FU".parse().unwrap()).unwrap();
/// assert_eq!(mv.to_string(), "7g7f"); // USI
/// assert_eq!(to_csa_move(&pos, mv).unwrap().to_string(), "+7776FU");
/// ```
///
/// # Errors
/// [`IllegalMove`] with board-core's reason.
pub fn to_board_move(pos: &Position, mv: &CsaMove) -> Result<Move, IllegalMove> {
    pos.move_from_csa(mv).map_err(IllegalMove)
}

/// The CSA move (`+7776FU`: sign, from, to, piece after the move) of a
/// board move in `pos`.
///
/// # Errors
/// [`IllegalMove`] when `mv` is not legal in `pos`.
pub fn to_csa_move(pos: &Position, mv: Move) -> Result<CsaMove, IllegalMove> {
    pos.move_to_csa(mv).map_err(IllegalMove)
}

/// The start position of a `Game_Summary` Position block (`PI`, `P1`..`P9`,
/// hands, the side to move), read by board-core.
///
/// # Errors
/// board-core's [`CsaPositionError`] (line, byte, reason).
pub fn start_position(p: &crate::message::PositionSection) -> Result<Position, CsaPositionError> {
    Position::from_csa(p.position_text().as_bytes())
}

/// Positions a game may reach (initial position included). With the usual
/// `Max_Moves` of 256 this is never reached; a longer game ends with
/// [`PlayOutcome::HistoryFull`].
pub const MAX_HISTORY: usize = 1024;

/// What a legal move led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayOutcome {
    /// The game goes on.
    Continue,
    /// The position (board, hands, side to move) occurred for the 4th time:
    /// a draw (`#SENNICHITE`).
    Sennichite,
    /// 4th occurrence while `loser` gave check with every move since the
    /// first occurrence: `loser` loses (`#OUTE_SENNICHITE`).
    OuteSennichite {
        /// The side that checked continuously.
        loser: Side,
    },
    /// [`MAX_HISTORY`] positions were reached: repetition can no longer be
    /// judged, so the caller must end the game (as `#MAX_MOVES`).
    HistoryFull,
}

/// A move was rejected by the rules: board-core's reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal move: {0}")]
pub struct IllegalMove(pub IllegalReason);

/// A position with its repetition history.
///
/// The history grows with the game (about 112 bytes a position, at most
/// [`MAX_HISTORY`] positions), so that a server with thousands of games
/// pays for the moves played, not for the longest possible game.
#[derive(Clone)]
pub struct GameBoard {
    pos: Position,
    history: Vec<HistoryEntry>,
    full: bool,
}

impl core::fmt::Debug for GameBoard {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GameBoard")
            .field("sfen", &self.pos.to_string())
            .field("positions", &self.history.len())
            .finish()
    }
}

impl GameBoard {
    /// The standard start position (hirate).
    pub fn startpos() -> Self {
        Self::new(Position::startpos())
    }

    /// A board from a position (the history starts with it).
    pub fn new(pos: Position) -> Self {
        Self {
            history: alloc::vec![HistoryEntry::of(&pos)],
            pos,
            full: false,
        }
    }

    /// Reads a CSA position text (`P1`..`P9` / `PI`, hands, side line)
    /// with board-core's reader.
    ///
    /// # Errors
    /// board-core's [`CsaPositionError`] (line, column, reason).
    pub fn from_csa(text: &str) -> Result<Self, CsaPositionError> {
        Position::from_csa(text.as_bytes()).map(Self::new)
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        Side::from(self.pos.side_to_move())
    }

    /// Moves played since the initial position.
    pub fn ply(&self) -> usize {
        self.history.len().saturating_sub(1)
    }

    /// The board move a CSA move stands for here, checked against every
    /// rule (sign, piece named, un-promotion, dead pieces, nifu,
    /// uchifuzume, leaving the king in check).
    ///
    /// # Errors
    /// [`IllegalMove`] with board-core's reason.
    pub fn check(&self, mv: &CsaMove) -> Result<Move, IllegalMove> {
        self.pos.move_from_csa(mv).map_err(IllegalMove)
    }

    /// Plays a move after checking it against every rule.
    ///
    /// # Errors
    /// [`IllegalMove`] when the move is not legal here (the board is
    /// unchanged).
    pub fn play(&mut self, mv: &CsaMove) -> Result<PlayOutcome, IllegalMove> {
        let m = self.check(mv)?;
        self.play_move(m)
    }

    /// Plays a board move (checked).
    ///
    /// # Errors
    /// [`IllegalMove`] when the move is not legal here.
    pub fn play_move(&mut self, m: Move) -> Result<PlayOutcome, IllegalMove> {
        self.pos = self.pos.play(m).map_err(|e| IllegalMove(e.reason))?;
        if self.full {
            return Ok(PlayOutcome::HistoryFull);
        }
        if self.history.len() >= MAX_HISTORY {
            self.full = true;
            return Ok(PlayOutcome::HistoryFull);
        }
        self.history.push(HistoryEntry::of(&self.pos));
        Ok(match repetition(&self.history) {
            Repetition::None => PlayOutcome::Continue,
            Repetition::Sennichite => PlayOutcome::Sennichite,
            Repetition::PerpetualCheck { loser } => PlayOutcome::OuteSennichite {
                loser: Side::from(loser),
            },
            // `Repetition` may grow; treat anything new as a plain draw.
            #[allow(unreachable_patterns)]
            _ => PlayOutcome::Sennichite,
        })
    }

    /// Whether the side to move may declare a win now (`%KACHI`, the
    /// 27-point rule, judged by board-core).
    pub fn can_declare_win(&self) -> bool {
        self.pos.impasse_declaration().is_ok()
    }

    /// The position as CSA text (`P1`..`P9`, hands, side line), LF-ended.
    pub fn csa_text(&self) -> String {
        self.pos.csa().to_string()
    }
}
