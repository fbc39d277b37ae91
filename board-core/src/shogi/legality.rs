//! Checking one move against a position, with the reason when it is illegal.

use super::bitboard::{self as bb, GOLD, KING, KNIGHT, PAWN, SILVER, ZONE, dead_squares};
use super::position::Position;
use super::types::{Color, Move, PieceKind, Square};

/// `sente` (Black, `+`) or `gote` (White, `-`).
fn sente_gote(c: Color) -> &'static str {
    match c {
        Color::Black => "sente",
        Color::White => "gote",
    }
}

/// Why a move is not legal in a position: of CSA text
/// ([`Position::move_from_csa`], which alone gives
/// [`IllegalReason::WrongSide`], [`IllegalReason::PieceMismatch`] and
/// [`IllegalReason::Unpromotion`]) or of a [`Move`] value
/// ([`Position::check_move`], [`PlayError`], [`Position::parse_usi`]).
/// Syntax errors are separate types
/// ([`ParseUsiMoveError`](super::ParseUsiMoveError),
/// [`ParseCsaMoveError`](super::ParseCsaMoveError)).
///
/// Shogi has no `IllegalMoveError` (chess's and draughts' name for "a
/// well-formed move text that is not a legal move here, and why"): a USI
/// text is exactly one [`Move`] and a CSA token one board move or drop, so
/// nothing of the text is lost between syntax and rules; the reasons name
/// the squares and pieces involved, and
/// [`MoveTextError::Illegal`](super::MoveTextError::Illegal) carries the
/// reason alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IllegalReason {
    /// A CSA move signed for the side that is not to move. Displayed with
    /// both names of the side and its CSA sign: `it is sente's (black's)
    /// turn: its moves start with +`.
    #[error(
        "it is {}'s ({to_move}'s) turn: its moves start with {}",
        sente_gote(*to_move),
        to_move.csa_sign()
    )]
    WrongSide {
        /// The side to move.
        to_move: Color,
    },
    /// No piece on the origin square.
    #[error("no piece on {square}")]
    NoPiece {
        /// The origin.
        square: Square,
    },
    /// The piece on the origin square belongs to the opponent.
    #[error("the piece on {square} belongs to the opponent")]
    OpponentPiece {
        /// The origin.
        square: Square,
    },
    /// A CSA move names a piece that is neither the piece on the origin
    /// square nor its promotion.
    #[error("CSA move names {named} but {on_board} stands on {square}")]
    PieceMismatch {
        /// The origin.
        square: Square,
        /// The piece on the board.
        on_board: PieceKind,
        /// The piece the move names.
        named: PieceKind,
    },
    /// A CSA move names the unpromoted form of a promoted piece.
    #[error("a promoted piece cannot unpromote ({square})")]
    Unpromotion {
        /// The origin.
        square: Square,
    },
    /// A drop of a piece not held in hand.
    #[error("no {kind} in hand")]
    NotInHand {
        /// The kind.
        kind: PieceKind,
    },
    /// A drop on an occupied square.
    #[error("cannot drop on occupied {square}")]
    DropOnOccupied {
        /// The destination.
        square: Square,
    },
    /// A board move onto one's own piece.
    #[error("own piece on {square}")]
    CaptureOwnPiece {
        /// The destination.
        square: Square,
    },
    /// The piece does not move that way, or its path is blocked.
    #[error("the {kind} on {from} cannot reach {to}")]
    Unreachable {
        /// The moving piece.
        kind: PieceKind,
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
    },
    /// Promotion of a piece that has no promoted form (gold, king,
    /// promoted pieces).
    #[error("a {kind} cannot promote")]
    CannotPromote {
        /// The moving piece.
        kind: PieceKind,
    },
    /// Promotion on a move that neither starts nor ends in the enemy camp.
    #[error("promotion outside the promotion zone ({from} to {to})")]
    PromotionOutsideZone {
        /// The origin.
        from: Square,
        /// The destination.
        to: Square,
    },
    /// The piece would have no future move (pawn/lance on the last rank,
    /// knight on the last two): promotion is compulsory, the drop impossible.
    #[error("a piece on {square} would have no move (promotion compulsory / drop impossible)")]
    DeadPiece {
        /// The destination.
        square: Square,
    },
    /// A pawn drop on a file that already holds an own unpromoted pawn.
    #[error("two pawns on file {file} (nifu)")]
    Nifu {
        /// File 1..=9.
        file: u8,
    },
    /// A pawn drop that checkmates (uchifuzume): forbidden.
    #[error("pawn drop on {square} would checkmate (uchifuzume)")]
    PawnDropMate {
        /// The drop square.
        square: Square,
    },
    /// The move leaves (or puts) the mover's own king in check.
    #[error("the move leaves the king in check")]
    LeavesKingInCheck,
}

/// A rejected [`Position::play`]: the position, unchanged, and the reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct PlayError {
    /// The position, unchanged.
    pub position: Position,
    /// The move that was refused.
    pub mv: Move,
    /// Why.
    pub reason: IllegalReason,
}

impl Position {
    /// Checks `mv` against the rules in this position; `Ok` exactly when
    /// `mv` is in [`Position::legal_moves`].
    ///
    /// # Errors
    /// [`IllegalReason`]: the rule `mv` breaks.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalReason> {
        let us = self.side;
        let u = us.index();
        let to = mv.to();
        let ti = to.index();
        let tbit = 1u128 << ti;
        let occ = self.occupied_bits();
        if let Some(kind) = mv.drop_kind() {
            if self.hands[u].count(kind) == 0 {
                return Err(IllegalReason::NotInHand { kind });
            }
            if occ & tbit != 0 {
                return Err(IllegalReason::DropOnOccupied { square: to });
            }
            if dead_squares(kind, u) & tbit != 0 {
                return Err(IllegalReason::DeadPiece { square: to });
            }
            if kind == PieceKind::Pawn
                && self.kind_bb(PieceKind::Pawn)
                    & self.by_color[u]
                    & bb::FILE_MASK[to.file() as usize - 1]
                    != 0
            {
                return Err(IllegalReason::Nifu { file: to.file() });
            }
            if let Some(k) = self.king(us)
                && self.attackers(us.opposite(), k.index(), occ | tbit) != 0
            {
                return Err(IllegalReason::LeavesKingInCheck);
            }
            if kind == PieceKind::Pawn
                && let Some(tk) = self.king(us.opposite())
                && PAWN[u][ti] == 1u128 << tk.index()
                && self.is_pawn_drop_mate(us, ti, tk.index())
            {
                return Err(IllegalReason::PawnDropMate { square: to });
            }
            return Ok(());
        }

        // Board move.
        let Some(from) = mv.from() else {
            return Err(IllegalReason::NoPiece { square: to });
        };
        let Some(piece) = self.piece_at(from) else {
            return Err(IllegalReason::NoPiece { square: from });
        };
        if piece.color != us {
            return Err(IllegalReason::OpponentPiece { square: from });
        }
        if self.by_color[u] & tbit != 0 {
            return Err(IllegalReason::CaptureOwnPiece { square: to });
        }
        let kind = piece.kind;
        let fi = from.index();
        if attacks_of(kind, us, fi, occ) & tbit == 0 {
            return Err(IllegalReason::Unreachable { kind, from, to });
        }
        if mv.is_promotion() {
            if !kind.can_promote() {
                return Err(IllegalReason::CannotPromote { kind });
            }
            if ZONE[u] & (tbit | 1u128 << fi) == 0 {
                return Err(IllegalReason::PromotionOutsideZone { from, to });
            }
        } else {
            if dead_squares(kind, u) & tbit != 0 {
                return Err(IllegalReason::DeadPiece { square: to });
            }
        }
        if let Some(k) = self.king(us) {
            let mut after = *self;
            after.play_unchecked(mv);
            let k = if kind == PieceKind::King { to } else { k };
            if after.attackers(us.opposite(), k.index(), after.occupied_bits()) != 0 {
                return Err(IllegalReason::LeavesKingInCheck);
            }
        }
        Ok(())
    }

    /// `true` if `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Plays `mv` if it is legal; otherwise gives the unchanged position
    /// back together with the reason.
    #[allow(clippy::result_large_err)]
    pub fn play(mut self, mv: Move) -> Result<Position, PlayError> {
        match self.check_move(mv) {
            Ok(()) => {
                self.play_unchecked(mv);
                Ok(self)
            }
            Err(reason) => Err(PlayError {
                position: self,
                mv,
                reason,
            }),
        }
    }
}

/// Squares a piece of `kind` and `color` on square index `s` attacks.
pub(crate) fn attacks_of(kind: PieceKind, color: Color, s: usize, occ: u128) -> u128 {
    use PieceKind::*;
    let c = color.index();
    match kind {
        Pawn => PAWN[c][s],
        Lance => bb::lance_attacks(color, s, occ),
        Knight => KNIGHT[c][s],
        Silver => SILVER[c][s],
        Gold | ProPawn | ProLance | ProKnight | ProSilver => GOLD[c][s],
        Bishop => bb::bishop_attacks(s, occ),
        Rook => bb::rook_attacks(s, occ),
        King => KING[0][s],
        Horse => bb::bishop_attacks(s, occ) | KING[0][s],
        Dragon => bb::rook_attacks(s, occ) | KING[0][s],
    }
}
