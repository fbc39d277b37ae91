//! Game-end rules a server needs besides checkmate: the 27-point impasse
//! declaration (CSA `%KACHI`) and repetition / perpetual check (CSA
//! `#SENNICHITE`, `#OUTE_SENNICHITE`).

use super::bitboard::ZONE;
use super::position::Position;
use super::types::{Color, PieceKind};
use crate::CapacityError;

/// A valid impasse declaration: what was counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImpasseCount {
    /// Own pieces in the enemy camp, king excluded (at least 10).
    pub pieces_in_camp: u32,
    /// Points: pieces in the camp (king excluded) and in hand, rook and
    /// bishop (promoted or not) 5, every other piece 1.
    pub points: u32,
}

/// Why the side to move may not declare a win (CSA `%KACHI`) now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DeclarationError {
    /// The declarer has no king.
    #[error("the declarer has no king")]
    NoKing,
    /// The declarer's king is not in the enemy camp (ranks 1-3 for Black, 7-9 for White).
    #[error("the king is not in the enemy camp")]
    KingNotInCamp,
    /// The declarer is in check.
    #[error("the declarer is in check")]
    InCheck,
    /// Fewer than 10 own pieces (king excluded) in the enemy camp.
    #[error("only {count} pieces in the enemy camp (10 needed)")]
    TooFewPieces {
        /// Pieces counted.
        count: u32,
    },
    /// Not enough points (Black needs 28, White 27).
    #[error("{points} points, {needed} needed")]
    TooFewPoints {
        /// Points counted.
        points: u32,
        /// Points needed.
        needed: u32,
    },
}

fn points_of(kind: PieceKind) -> u32 {
    match kind.unpromoted() {
        PieceKind::Bishop | PieceKind::Rook => 5,
        PieceKind::King => 0,
        _ => 1,
    }
}

impl Position {
    /// Checks the side to move's impasse declaration under the CSA
    /// 27-point rule (server protocol 1.2 `%KACHI`, shogi-server's
    /// `good_kachi?`): the king in the enemy camp, not in check, at least 10
    /// other own pieces in the camp, and points (camp + hand; rook/bishop 5,
    /// others 1) of at least 28 for Black (sente) or 27 for White (gote).
    /// Time conditions are the server's business.
    ///
    /// # Errors
    ///
    /// [`DeclarationError`], the first condition that fails: no king, king
    /// outside the enemy camp, in check, fewer than 10 pieces in the camp, or
    /// too few points (with the count).
    pub fn impasse_declaration(&self) -> Result<ImpasseCount, DeclarationError> {
        let us = self.side_to_move();
        let camp = ZONE[us.index()];
        let k = self.king(us).ok_or(DeclarationError::NoKing)?;
        if camp >> k.index() & 1 == 0 {
            return Err(DeclarationError::KingNotInCamp);
        }
        if self.is_check() {
            return Err(DeclarationError::InCheck);
        }
        let mine = self.by_color[us.index()] & camp & !(1u128 << k.index());
        let pieces_in_camp = mine.count_ones();
        if pieces_in_camp < 10 {
            return Err(DeclarationError::TooFewPieces {
                count: pieces_in_camp,
            });
        }
        let mut points = 0;
        for kind in PieceKind::ALL {
            points += (mine & self.kind_bb(kind)).count_ones() * points_of(kind);
        }
        let hand = self.hand(us);
        for kind in PieceKind::HAND {
            points += hand.count(kind) as u32 * points_of(kind);
        }
        let needed = match us {
            Color::Black => 28,
            Color::White => 27,
        };
        if points < needed {
            return Err(DeclarationError::TooFewPoints { points, needed });
        }
        Ok(ImpasseCount {
            pieces_in_camp,
            points,
        })
    }
}

/// What the latest position means for repetition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repetition {
    /// The position has occurred fewer than 4 times.
    None,
    /// Fourth occurrence of (board, hands, side to move): the game is a
    /// draw (sennichite, CSA `#SENNICHITE`).
    Sennichite,
    /// Fourth occurrence, and every move of `loser` since the first of them
    /// gave check: `loser` loses (CSA `#OUTE_SENNICHITE`).
    PerpetualCheck {
        /// The side that checked continuously.
        loser: Color,
    },
}

/// One position of a game as repetition compares it: board, hands, side
/// to move (exactly, not by hash alone) and whether the move that led
/// there gave check. About 112 bytes. [`GameHistory`] keeps them inline;
/// a caller with a heap may keep them in a growing `Vec` and judge with
/// [`repetition`] (a CSA server with thousands of games does).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct HistoryEntry {
    hash: u64,
    board: [u8; 81],
    hands: [[u8; 7]; 2],
    side: Color,
    /// The move that led here gave check.
    check: bool,
}

impl core::fmt::Debug for HistoryEntry {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HistoryEntry")
            .field("hash", &format_args!("{:#018x}", self.hash))
            .field("side", &self.side)
            .field("check", &self.check)
            .finish_non_exhaustive()
    }
}

const EMPTY_ENTRY: HistoryEntry = HistoryEntry {
    hash: 0,
    board: [0; 81],
    hands: [[0; 7]; 2],
    side: Color::Black,
    check: false,
};

impl HistoryEntry {
    /// The entry of `p` (the position reached by a move, or the game's
    /// initial position).
    pub fn of(p: &Position) -> HistoryEntry {
        HistoryEntry {
            hash: p.zobrist(),
            board: p.board,
            hands: [p.hands[0].counts(), p.hands[1].counts()],
            side: p.side_to_move(),
            check: p.is_check(),
        }
    }
    fn same(&self, o: &HistoryEntry) -> bool {
        self.hash == o.hash && self.side == o.side && self.board == o.board && self.hands == o.hands
    }
}

/// The repetition verdict for the last of `entries` (a game's positions in
/// order, the initial one first), as [`GameHistory::push`] judges it: the
/// 4th occurrence of the same board, hands and side to move is
/// [`Repetition::Sennichite`], or [`Repetition::PerpetualCheck`] when one
/// side gave check with every one of its moves since the first of the four.
/// [`Repetition::None`] for an empty slice.
pub fn repetition(entries: &[HistoryEntry]) -> Repetition {
    let Some(e) = entries.last() else {
        return Repetition::None;
    };
    let mut count = 0;
    let mut first = 0;
    for (i, x) in entries.iter().enumerate() {
        if x.same(e) {
            if count == 0 {
                first = i;
            }
            count += 1;
        }
    }
    if count < 4 {
        return Repetition::None;
    }
    // Moves since the first occurrence: entry j was reached by a move of
    // the side not to move in entry j.
    for loser in Color::ALL {
        let mut moves = 0;
        let continuous = entries[first + 1..]
            .iter()
            .filter(|x| x.side != loser)
            .inspect(|_| moves += 1)
            .all(|x| x.check);
        if continuous && moves > 0 {
            return Repetition::PerpetualCheck { loser };
        }
    }
    Repetition::Sennichite
}

/// The positions of one game, for repetition (sennichite) and perpetual
/// check (oute-sennichite) as a CSA server judges them: the 4th occurrence
/// of the same board, hands and side to move ends the game — a draw, unless
/// one side gave check with every one of its moves since the first of the
/// four occurrences, in which case that side loses.
///
/// Holds up to `N` positions inline (no heap allocation; each entry takes
/// about 100 bytes). Positions are compared exactly, not by hash alone.
///
/// ```
/// use board_core::shogi::{GameHistory, Move, Position, Repetition};
/// let mut pos = Position::startpos();
/// let mut history: GameHistory<64> = GameHistory::new(&pos);
/// let mut verdict = Repetition::None;
/// for usi in ["2h3h", "8b7b", "3h2h", "7b8b"].iter().cycle().take(12) {
///     pos = pos.play(Move::from_usi(usi)?)?;
///     verdict = history.push(&pos)?;
/// }
/// assert_eq!(verdict, Repetition::Sennichite);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct GameHistory<const N: usize> {
    entries: [HistoryEntry; N],
    len: usize,
}

impl<const N: usize> GameHistory<N> {
    /// A history holding the game's initial position (the one before the
    /// first move, or the `Game_Summary` position after its listed moves).
    pub fn new(initial: &Position) -> Self {
        let mut h = GameHistory {
            entries: [EMPTY_ENTRY; N],
            len: 0,
        };
        if N > 0 {
            h.entries[0] = HistoryEntry::of(initial);
            h.len = 1;
        }
        h
    }

    /// Number of positions recorded.
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if nothing is recorded (only when `N == 0`).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Records the position reached by a move and judges repetition.
    /// Fails (recording nothing) when the history is full.
    ///
    /// # Errors
    ///
    /// [`CapacityError`] (with the capacity `N`) when `N` positions are
    /// already recorded.
    pub fn push(&mut self, position: &Position) -> Result<Repetition, CapacityError> {
        if self.len >= N {
            return Err(CapacityError { capacity: N });
        }
        self.entries[self.len] = HistoryEntry::of(position);
        self.len += 1;
        Ok(repetition(&self.entries[..self.len]))
    }
}
