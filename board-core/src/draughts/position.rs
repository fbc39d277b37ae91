//! The position: piece placement and side to move.

use core::fmt;
use core::ops::ControlFlow;

use super::MAX_MOVES;
use super::bitboard::{BLACK_PROMOTION, BOARD, WHITE_PROMOTION};
use super::legality::IllegalReason;
use super::movegen::{self, has_capture};
use super::types::{Color, Move, Piece, PieceKind, Square, SquareSet};
use crate::MoveList;
use crate::movelist::CapacityError;

/// A validated international draughts position: the pieces on squares
/// 1..=50 and the side to move.
///
/// Draw rules (repetition, 25-move rule, ...) need the game history and are
/// not part of a position; the optional PDN FEN counters are accepted when
/// parsing and not kept.
///
/// ```
/// use board_core::draughts::{Position, Square};
/// let pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 9);
/// let mv = pos.parse_move("32-28").unwrap();
/// let pos = pos.play(mv).unwrap();
/// assert_eq!(pos.to_string(), "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
/// assert!(pos.piece_at(Square::new(32).unwrap()).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) white: u64,
    pub(crate) black: u64,
    pub(crate) kings: u64,
    pub(crate) side: Color,
}

/// An unchecked position: the piece on each square and the side to move,
/// as a PDN FEN or DamExchange's GAMEREQ says it, before the rules are
/// applied. [`Position::from_setup`] validates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each square; `board[0]` is square 1, `board[49]`
    /// square 50.
    pub board: [Option<Piece>; 50],
    /// The side to move.
    pub side_to_move: Color,
}

impl Setup {
    /// An empty board, White to move.
    pub const fn empty() -> Setup {
        Setup {
            board: [None; 50],
            side_to_move: Color::White,
        }
    }

    /// The start position: Black men on 1..=20, White men on 31..=50,
    /// White to move.
    pub fn startpos() -> Setup {
        Position::startpos().to_setup()
    }
}

impl Default for Setup {
    /// [`Setup::empty`].
    fn default() -> Setup {
        Setup::empty()
    }
}

/// Why a [`Setup`] is not a valid position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// A man stands on its own promotion row (White on 1..=5, Black on
    /// 46..=50): it would have been promoted.
    #[error("{color} man on square {square}, its own promotion row")]
    ManOnPromotionRow {
        /// The offending square.
        square: Square,
        /// The man's colour.
        color: Color,
    },
    /// The position has [`MAX_MOVES`] or more legal moves (a move list
    /// would be full); no such position is known.
    #[error("position has {} or more legal moves", MAX_MOVES)]
    TooManyMoves,
}

/// A rejected [`Position::play`]: the position, unchanged, the move and the
/// reason. Displayed `illegal move 32-29: the man on 32 cannot reach 29`
/// (the move in PDN's short form).
#[derive(Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct PlayError {
    /// The position, unchanged.
    pub position: Position,
    /// The move that was refused.
    pub mv: Move,
    /// Why.
    pub reason: IllegalReason,
}

impl fmt::Debug for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlayError")
            .field("position", &format_args!("{}", self.position))
            .field("mv", &self.mv)
            .field("reason", &self.reason)
            .finish()
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// The side to move has no legal move (no pieces, or all blocked) and
    /// loses.
    Win {
        /// The side that wins.
        winner: Color,
    },
}

impl Position {
    /// The start position: Black men on 1..=20, White men on 31..=50, White
    /// to move.
    pub const fn startpos() -> Position {
        Position {
            white: 0x1f_fbff << 33,
            black: 0x1f_fbff,
            kings: 0,
            side: Color::White,
        }
    }

    /// Validates an unchecked [`Setup`] (as DamExchange's GAMEREQ set-up
    /// sends it, or a PDN FEN describes it) into a position.
    ///
    /// # Errors
    /// [`SetupError::ManOnPromotionRow`] for a white man on 1..=5 or a black
    /// man on 46..=50 (the lowest such square is named);
    /// [`SetupError::TooManyMoves`] if the position has [`MAX_MOVES`] or
    /// more legal moves.
    ///
    /// ```
    /// use board_core::draughts::{Position, Setup};
    /// let setup = Position::startpos().to_setup();
    /// assert_eq!(Position::from_setup(&setup), Ok(Position::startpos()));
    /// assert_eq!(Setup::startpos(), setup);
    /// ```
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        let mut pos = Position {
            white: 0,
            black: 0,
            kings: 0,
            side: setup.side_to_move,
        };
        for (square, piece) in Square::all().zip(setup.board) {
            if let Some(piece) = piece {
                pos.put(square, piece);
            }
        }
        pos.validate()
    }

    pub(crate) fn put(&mut self, square: Square, piece: Piece) {
        let b = 1u64 << square.bit();
        self.white &= !b;
        self.black &= !b;
        self.kings &= !b;
        match piece.color {
            Color::White => self.white |= b,
            Color::Black => self.black |= b,
        }
        if piece.kind == PieceKind::King {
            self.kings |= b;
        }
    }

    pub(crate) fn validate(self) -> Result<Position, SetupError> {
        let bad_white = self.white & !self.kings & WHITE_PROMOTION;
        let bad_black = self.black & !self.kings & BLACK_PROMOTION;
        if bad_white != 0 || bad_black != 0 {
            let (bits, color) = if bad_white != 0 {
                (bad_white, Color::White)
            } else {
                (bad_black, Color::Black)
            };
            return Err(SetupError::ManOnPromotionRow {
                square: Square::from_bit(bits.trailing_zeros()),
                color,
            });
        }
        self.try_legal_moves()
            .map_err(|_| SetupError::TooManyMoves)?;
        Ok(self)
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `square`, if any.
    #[inline]
    pub const fn piece_at(&self, square: Square) -> Option<Piece> {
        let b = 1u64 << square.bit();
        let color = if self.white & b != 0 {
            Color::White
        } else if self.black & b != 0 {
            Color::Black
        } else {
            return None;
        };
        let kind = if self.kings & b != 0 {
            PieceKind::King
        } else {
            PieceKind::Man
        };
        Some(Piece { color, kind })
    }

    /// The squares holding pieces of `color`.
    #[inline]
    pub const fn pieces(&self, color: Color) -> SquareSet {
        SquareSet(match color {
            Color::White => self.white,
            Color::Black => self.black,
        })
    }

    /// The squares holding kings (both colours).
    #[inline]
    pub const fn kings(&self) -> SquareSet {
        SquareSet(self.kings)
    }

    /// The empty squares.
    #[inline]
    pub const fn empty(&self) -> SquareSet {
        SquareSet(BOARD & !(self.white | self.black))
    }

    /// The position as an unchecked [`Setup`] (the inverse of
    /// [`Position::from_setup`]).
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 50];
        for (slot, square) in board.iter_mut().zip(Square::all()) {
            *slot = self.piece_at(square);
        }
        Setup {
            board,
            side_to_move: self.side,
        }
    }

    /// Every legal move, in a fixed-capacity list (no heap allocation).
    /// Never panics.
    ///
    /// Captures are the maximal ones only, each (from, to, captured set)
    /// once. Order: captures by origin square; quiet moves of men first.
    ///
    /// Every position that [`FromStr`](core::str::FromStr),
    /// [`Position::from_setup`] or [`Position::play`] hands out has been
    /// checked to have fewer than [`MAX_MOVES`] legal moves, so the list is
    /// complete. Only a position reached through
    /// [`Position::play_unchecked`] could have more (none is known; see
    /// [`MAX_MOVES`]); the list then holds the first [`MAX_MOVES`] of them
    /// and is full, and that is the only way the list can be full.
    /// [`Position::try_legal_moves`] reports that case as an error,
    /// [`Position::for_each_legal_move`] and [`Position::count_legal_moves`]
    /// handle any number of moves.
    pub fn legal_moves(&self) -> super::MoveList {
        let mut list = MoveList::new();
        // On overflow the list holds the first MAX_MOVES moves (see above).
        let _ = movegen::legal_moves_into(self, &mut list);
        list
    }

    /// Every legal move, or [`CapacityError`] if the position has
    /// [`MAX_MOVES`] or more (no such position is known).
    ///
    /// # Errors
    /// [`CapacityError`] when the moves fill the list.
    pub fn try_legal_moves(&self) -> Result<super::MoveList, CapacityError> {
        let list = self.legal_moves();
        if list.len() == MAX_MOVES {
            return Err(CapacityError {
                capacity: MAX_MOVES,
            });
        }
        Ok(list)
    }

    /// Calls `f` with every legal move, in [`Position::legal_moves`] order
    /// when they fit in a list, until `f` returns
    /// [`ControlFlow::Break`] (then returned at once; no further move is
    /// generated or passed). Quiet moves, and captures taking fewer than 4
    /// pieces, go to `f` straight from the generator, which stops at the
    /// first `Break` (a capture search runs twice: once to find the
    /// largest number of pieces that can be taken, once to hand over the
    /// moves taking that many); captures of 4 or more pieces, where two
    /// paths can be the same move, are collected and deduplicated first.
    /// Handles any number of moves without heap allocation (a position with
    /// more than [`MAX_MOVES`] is searched again in chunks; none is known).
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use board_core::draughts::Position;
    /// let mut n = 0;
    /// let _ = Position::startpos().for_each_legal_move(|_| {
    ///     n += 1;
    ///     ControlFlow::<()>::Continue(())
    /// });
    /// assert_eq!(n, 9);
    /// // The first move whose piece starts on square 32, and stop there.
    /// let found = Position::startpos().for_each_legal_move(|mv| {
    ///     if mv.from().number() == 32 { ControlFlow::Break(mv) } else { ControlFlow::Continue(()) }
    /// });
    /// assert!(matches!(found, ControlFlow::Break(mv) if mv.from().number() == 32));
    /// ```
    pub fn for_each_legal_move<B>(&self, f: impl FnMut(Move) -> ControlFlow<B>) -> ControlFlow<B> {
        let s = self.sides();
        if has_capture(&s) {
            movegen::for_each_capture(&s, f)
        } else {
            movegen::for_each_quiet(&s, self.side, f)
        }
    }

    /// The number of legal moves (as `legal_moves().len()` when they fit;
    /// exact for any number, faster).
    pub fn count_legal_moves(&self) -> u64 {
        movegen::count_legal(self)
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        has_capture(&self.sides())
    }

    /// The legal move going from `from` to `to` and capturing exactly the
    /// pieces on `captures` (empty for a quiet move), as DamExchange's MOVE
    /// message describes it; `None` if there is no such legal move.
    pub fn find_move(&self, from: Square, to: Square, captures: SquareSet) -> Option<Move> {
        let mv = Move::from_bits(from.bit(), to.bit(), captures.0);
        self.is_legal(mv).then_some(mv)
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        // Cheap rejections before generating.
        let own = match self.side {
            Color::White => self.white,
            Color::Black => self.black,
        };
        if own >> mv.origin_bit() & 1 == 0 {
            return false;
        }
        let s = self.sides();
        if has_capture(&s) {
            movegen::is_legal_capture(&s, mv)
        } else {
            !mv.is_capture()
                && movegen::for_each_quiet(&s, self.side, |m| {
                    if m == mv {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .is_break()
        }
    }

    /// Plays `mv` if it is legal and returns the new position; otherwise
    /// gives the position back in the error.
    ///
    /// ```
    /// use board_core::draughts::{IllegalReason, Position, Square};
    /// let pos = Position::startpos();
    /// let black = pos.play(pos.parse_move("32-28").unwrap()).unwrap();
    /// let mv = black.parse_move("16-21").unwrap();
    /// let err = pos.play(mv).unwrap_err();
    /// assert_eq!(err.reason, IllegalReason::OpponentPiece {
    ///     square: Square::new(16).unwrap(),
    ///     owner: board_core::draughts::Color::Black,
    /// });
    /// assert_eq!(err.to_string(), "illegal move 16-21: the piece on 16 belongs to black, not the side to move");
    /// ```
    ///
    /// # Errors
    /// [`PlayError`] (holding this position, the move and the
    /// [`IllegalReason`], as [`Position::check_move`] gives it) when `mv` is
    /// not one of [`Position::legal_moves`], or
    /// [`IllegalReason::TooManyMovesAfter`] when the new position would
    /// exceed the move list capacity (no such position is known).
    pub fn play(self, mv: Move) -> Result<Position, PlayError> {
        // Fast path: the legality test; the reason only on refusal.
        if !self.is_legal(mv) {
            return Err(PlayError {
                position: self,
                mv,
                reason: self.illegal_reason(mv),
            });
        }
        let mut next = self;
        next.play_unchecked(mv);
        match next.try_legal_moves() {
            Ok(_) => Ok(next),
            Err(_) => Err(PlayError {
                position: self,
                mv,
                reason: IllegalReason::TooManyMovesAfter,
            }),
        }
    }

    /// Plays `mv` without checking it: the fast path for moves taken from
    /// [`Position::legal_moves`] of this same position. An illegal move
    /// gives an unspecified (but memory-safe, panic-free) position.
    #[inline(always)]
    pub fn play_unchecked(&mut self, mv: Move) {
        let from = 1u64 << mv.origin_bit();
        let to = 1u64 << mv.dest_bit();
        let caps = mv.caps();
        let is_king = self.kings & from != 0;
        match self.side {
            Color::White => {
                self.white = (self.white & !from) | to;
                self.black &= !caps;
                self.kings &= !caps;
                if is_king {
                    self.kings = (self.kings & !from) | to;
                } else {
                    self.kings |= to & WHITE_PROMOTION;
                }
                self.side = Color::Black;
            }
            Color::Black => {
                self.black = (self.black & !from) | to;
                self.white &= !caps;
                self.kings &= !caps;
                if is_king {
                    self.kings = (self.kings & !from) | to;
                } else {
                    self.kings |= to & BLACK_PROMOTION;
                }
                self.side = Color::White;
            }
        }
    }

    /// Whether the side to move has a legal move (a capture, or a quiet
    /// move counted from the bitboards: no list is built).
    pub fn has_legal_move(&self) -> bool {
        let s = self.sides();
        has_capture(&s) || movegen::count_quiet(&s, self.side) > 0
    }

    /// Whether the game is over: the side to move has no legal move.
    pub fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The outcome if the side to move has no legal move (it loses), else
    /// `None`. Draw rules are not applied (they need the game history).
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            None
        } else {
            Some(Outcome::Win {
                winner: self.side.opposite(),
            })
        }
    }
}

default_is_startpos!(Position);

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{self}\")")
    }
}
