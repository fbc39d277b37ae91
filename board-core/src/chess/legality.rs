//! Why a move is not legal: [`Position::check_move`], [`PlayError`] and the
//! castling conditions ([`CastlingProblem`]).
//!
//! The verdict is always the legal move list's ([`Position::is_legal`]);
//! the reason is worked out only for a refused move, so the checked
//! [`Position::play`] costs what `is_legal` costs.

use core::fmt;

use super::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use super::bitboard::Bitboard;
use super::position::Position;
use super::types::{CastlingSide, Color, File, Move, MoveKind, PieceKind, Rank, Square};
use super::uci::IllegalReason;

/// Why castling on one side is not legal now (FIDE Laws 3.8.2); see
/// [`IllegalReason::Castling`] and [`SanProblem::IllegalCastling`](super::SanProblem::IllegalCastling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CastlingProblem {
    /// The castling right is gone: the king or that rook has moved (or the
    /// rook was captured), or the position was set up without it.
    NoRight,
    /// A square between the king and the rook is occupied (the first one
    /// from the king's side).
    Blocked {
        /// The occupied square.
        square: Square,
    },
    /// The king is in check.
    InCheck,
    /// The square the king passes over (f1/d1, f8/d8) is attacked.
    ThroughCheck {
        /// The attacked square.
        square: Square,
    },
    /// The square the king lands on (g1/c1, g8/c8) is attacked.
    IntoCheck {
        /// The attacked square.
        square: Square,
    },
    /// A move flagged as castling that is not the king's castling move of
    /// the side to move (`e1g1`, `e1c1`, `e8g8`, `e8c8`).
    WrongSquares,
}

impl fmt::Display for CastlingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CastlingProblem::NoRight => {
                f.write_str("the right is gone (the king or the rook has moved)")
            }
            CastlingProblem::Blocked { square } => write!(f, "{square} is not empty"),
            CastlingProblem::InCheck => f.write_str("the king is in check"),
            CastlingProblem::ThroughCheck { square } => {
                write!(f, "the king would pass through check on {square}")
            }
            CastlingProblem::IntoCheck { square } => {
                write!(f, "the king would land in check on {square}")
            }
            CastlingProblem::WrongSquares => {
                f.write_str("castling is the king's move e1g1, e1c1, e8g8 or e8c8")
            }
        }
    }
}

/// A rejected [`Position::play`]: the position, unchanged, the move and
/// why it is not legal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct PlayError {
    /// The position, unchanged.
    pub position: Position,
    /// The rejected move (printed in UCI).
    pub mv: Move,
    /// Why it is not legal ([`Position::check_move`]).
    pub reason: IllegalReason,
}

/// `"knight"`, `"pawn"`, ...: the English name of a piece kind.
pub(crate) const fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "pawn",
        PieceKind::Knight => "knight",
        PieceKind::Bishop => "bishop",
        PieceKind::Rook => "rook",
        PieceKind::Queen => "queen",
        PieceKind::King => "king",
    }
}

/// The king's from and to squares of `color`'s castling on `side`.
pub(crate) const fn castling_squares(color: Color, side: CastlingSide) -> (Square, Square) {
    match (color, side) {
        (Color::White, CastlingSide::KingSide) => (Square::E1, Square::G1),
        (Color::White, CastlingSide::QueenSide) => (Square::E1, Square::C1),
        (Color::Black, CastlingSide::KingSide) => (Square::E8, Square::G8),
        (Color::Black, CastlingSide::QueenSide) => (Square::E8, Square::C8),
    }
}

impl Position {
    /// Checks `mv` against the rules here: `Ok` exactly when
    /// [`Position::is_legal`] (`mv` is in [`Position::legal_moves`]).
    ///
    /// # Errors
    /// The [`IllegalReason`], the first that applies: no piece or the
    /// opponent's on `mv.from()`; a flag the piece cannot have
    /// ([`IllegalReason::WrongKind`]: en passant or promotion on a
    /// non-pawn, castling on a non-king); a legal move between the same
    /// squares with another flag ([`IllegalReason::PromotionMissing`],
    /// [`IllegalReason::NotAPromotion`], [`IllegalReason::KindMismatch`]);
    /// castling that is not allowed now ([`IllegalReason::Castling`]); the
    /// piece does not move so ([`IllegalReason::NoSuchMove`]); a pawn
    /// reaching the last rank unflagged or promoting elsewhere; and last
    /// the move would leave the king in check
    /// ([`IllegalReason::LeavesKingInCheck`]).
    ///
    /// ```
    /// use board_core::chess::{IllegalReason, Move, MoveKind, PieceKind, Position, Square};
    /// let pos = Position::startpos();
    /// assert_eq!(pos.check_move(Move::new(Square::E2, Square::E4, MoveKind::Normal)), Ok(()));
    /// assert_eq!(
    ///     pos.check_move(Move::new(Square::G1, Square::F3, MoveKind::EnPassant)),
    ///     Err(IllegalReason::WrongKind { kind: PieceKind::Knight, move_kind: MoveKind::EnPassant })
    /// );
    /// ```
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalReason> {
        if self.is_legal(mv) {
            Ok(())
        } else {
            Err(self.illegal_reason(mv))
        }
    }

    /// The reason for a move that is not legal (the caller has checked).
    #[cold]
    pub(crate) fn illegal_reason(&self, mv: Move) -> IllegalReason {
        let (from, to) = (mv.from(), mv.to());
        let us = self.side_to_move();
        let Some(piece) = self.piece_at(from) else {
            return IllegalReason::NoPiece;
        };
        if piece.color != us {
            return IllegalReason::OpponentPiece;
        }
        let kind = piece.kind;
        let move_kind = mv.kind();
        let fits = match move_kind {
            MoveKind::Normal => true,
            MoveKind::EnPassant | MoveKind::Promotion(_) => kind == PieceKind::Pawn,
            MoveKind::Castle(_) => kind == PieceKind::King,
        };
        if !fits {
            return IllegalReason::WrongKind { kind, move_kind };
        }
        let legal = self.legal_moves();
        if let Some(other) = legal.iter().find(|m| m.from() == from && m.to() == to) {
            // `mv` is not legal, `other` is: they differ in the flag. All
            // four promotions are generated together, so a promotion
            // `mv` would have been legal if `other` is one.
            return match (other.kind(), move_kind) {
                (MoveKind::Promotion(_), _) => IllegalReason::PromotionMissing,
                (_, MoveKind::Promotion(_)) => IllegalReason::NotAPromotion,
                (legal, given) => IllegalReason::KindMismatch { given, legal },
            };
        }
        let in_check = self.is_check();
        if let MoveKind::Castle(side) = move_kind {
            let problem = if castling_squares(us, side) != (from, to) {
                CastlingProblem::WrongSquares
            } else {
                // `None` cannot happen (castling is legal exactly when no
                // problem is found, tested); the generic reason then.
                match self.castling_problem(side) {
                    Some(p) => p,
                    None => return IllegalReason::NoSuchMove { kind, in_check },
                }
            };
            return IllegalReason::Castling { side, problem };
        }
        if !self.pseudo_reaches(kind, from, to, move_kind == MoveKind::EnPassant) {
            return IllegalReason::NoSuchMove { kind, in_check };
        }
        if kind == PieceKind::Pawn {
            let last = to.rank() == Rank::Eighth.relative_to(us);
            match move_kind {
                MoveKind::Promotion(_) if !last => return IllegalReason::NotAPromotion,
                MoveKind::Normal if last => return IllegalReason::PromotionMissing,
                _ => {}
            }
        }
        IllegalReason::LeavesKingInCheck {
            kind,
            pinned: self.pinned.contains(from),
            in_check,
        }
    }

    /// `true` if the side to move's piece of `kind` on `from` moves to
    /// `to` by the movement rules, the board's blockers and the target's
    /// occupant, ignoring its own king's safety (not castling).
    /// `en_passant`: a pawn's capture onto the en passant square.
    pub(crate) fn pseudo_reaches(
        &self,
        kind: PieceKind,
        from: Square,
        to: Square,
        en_passant: bool,
    ) -> bool {
        let us = self.side_to_move();
        let occupied = self.occupied();
        if self.by_color(us).contains(to) {
            return false;
        }
        let theirs = self.by_color(!us);
        let targets = match kind {
            PieceKind::Pawn => {
                if en_passant {
                    return self.ep_square() == Some(to) && pawn_attacks(us, from).contains(to);
                }
                let captures = pawn_attacks(us, from) & theirs;
                let step = |sq: Square| -> Option<Square> {
                    let i = sq.index() as i32 + if us == Color::White { 8 } else { -8 };
                    u32::try_from(i).ok().and_then(Square::new)
                };
                let mut pushes = Bitboard::EMPTY;
                if let Some(one) = step(from).filter(|s| !occupied.contains(*s)) {
                    pushes = pushes.with(one);
                    if from.rank() == Rank::Second.relative_to(us)
                        && let Some(two) = step(one).filter(|s| !occupied.contains(*s))
                    {
                        pushes = pushes.with(two);
                    }
                }
                captures | pushes
            }
            PieceKind::Knight => knight_attacks(from),
            PieceKind::Bishop => bishop_attacks(from, occupied),
            PieceKind::Rook => rook_attacks(from, occupied),
            PieceKind::Queen => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
            PieceKind::King => king_attacks(from),
        };
        targets.contains(to)
    }

    /// Why the side to move cannot castle on `side` now, or `None` when
    /// that castling is legal (it is then in [`Position::legal_moves`]).
    pub(crate) fn castling_problem(&self, side: CastlingSide) -> Option<CastlingProblem> {
        let us = self.side_to_move();
        if !self.castling_rights().has(us, side) {
            return Some(CastlingProblem::NoRight);
        }
        let rank = us.back_rank();
        let sq = |file: File| Square::from_coords(file, rank);
        let (between, pass, land): (&[File], File, File) = match side {
            CastlingSide::KingSide => (&[File::F, File::G], File::F, File::G),
            CastlingSide::QueenSide => (&[File::D, File::C, File::B], File::D, File::C),
        };
        let occupied = self.occupied();
        if let Some(&file) = between.iter().find(|&&f| occupied.contains(sq(f))) {
            return Some(CastlingProblem::Blocked { square: sq(file) });
        }
        if self.is_check() {
            return Some(CastlingProblem::InCheck);
        }
        let without_king = occupied.without(self.king(us));
        if self.attacked_by::<false>(!us, sq(pass), without_king) {
            return Some(CastlingProblem::ThroughCheck { square: sq(pass) });
        }
        if self.attacked_by::<false>(!us, sq(land), without_king) {
            return Some(CastlingProblem::IntoCheck { square: sq(land) });
        }
        None
    }
}
