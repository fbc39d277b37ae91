//! [`Setup`]: an unchecked chess position, validated by
//! [`Position::from_setup`] into a [`Position`].

use super::MAX_MOVES;
use super::bitboard::Bitboard;
use super::position::{CastlingRights, Position};
use super::types::{CastlingSide, Color, File, Piece, PieceKind, Rank, Square};

/// An unchecked position: what a FEN (or a board on a chess computer)
/// says, before the rules are applied. [`Position::from_setup`] validates
/// it; [`Position::to_setup`] gives it back.
///
/// ```
/// use board_core::chess::{Position, Setup, SetupError, Color};
/// let mut setup = Setup::startpos();
/// assert_eq!(Position::from_setup(&setup), Ok(Position::startpos()));
/// setup.board[4] = None; // no white king on e1
/// assert_eq!(Position::from_setup(&setup), Err(SetupError::MissingKing(Color::White)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`] (`a1` = 0,
    /// `h1` = 7, `h8` = 63).
    pub board: [Option<Piece>; 64],
    /// The side to move.
    pub side_to_move: Color,
    /// The castling rights.
    pub castling_rights: CastlingRights,
    /// The en passant square (behind a pawn that just moved two squares),
    /// if any. Kept by [`Position::from_setup`] only when an en passant
    /// capture is legal (the canonical form).
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move (50-move rule).
    pub halfmove_clock: u32,
    /// The full-move number, starting at 1 (0 is read as 1).
    pub fullmove_number: u32,
}

impl Setup {
    /// An empty board, White to move, no castling rights, no en passant
    /// square, counters `0 1`. Not a legal position (no kings).
    pub const fn empty() -> Setup {
        Setup {
            board: [None; 64],
            side_to_move: Color::White,
            castling_rights: CastlingRights::NONE,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// The standard start position.
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

/// Why a [`Setup`] is not a legal chess position. The FEN reader reports
/// the same problems as [`FenErrorKind`](super::FenErrorKind)s, with the
/// field and byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// More pieces than one side can have (16 pieces, 8 pawns, and no more
    /// promoted pieces than missing pawns).
    #[error("{0} has more material than promotions allow")]
    TooMuchMaterial(Color),
    /// A pawn on rank 1 or 8 (the lowest such square).
    #[error("pawn on {0}, a back rank")]
    PawnOnBackRank(Square),
    /// The side not to move is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// A castling right without the king on e1/e8 and the rook on its
    /// corner.
    #[error("{color} {side} castling right without king and rook on their original squares")]
    CastlingWithoutPieces {
        /// Whose right.
        color: Color,
        /// Which right.
        side: CastlingSide,
    },
    /// An en passant square no double push can have produced: not on rank 6
    /// (White to move) or 3 (Black to move), no enemy pawn just past it, or
    /// it or the square the pawn came from is occupied.
    #[error("en passant square {0} without an enemy pawn just past it (or not empty)")]
    ImpossibleEnPassant(Square),
    /// More legal moves than [`MAX_MOVES`] (only possible in positions no
    /// game can reach).
    #[error("more than 218 legal moves")]
    TooManyMoves,
}

impl Position {
    /// Validates an unchecked [`Setup`] into a position.
    ///
    /// # Errors
    /// The first problem found, checked in this order: each side's kings
    /// ([`SetupError::MissingKing`], [`SetupError::TooManyKings`]) and
    /// material ([`SetupError::TooMuchMaterial`], White first),
    /// [`SetupError::PawnOnBackRank`], [`SetupError::OppositeCheck`],
    /// [`SetupError::CastlingWithoutPieces`],
    /// [`SetupError::ImpossibleEnPassant`], [`SetupError::TooManyMoves`].
    /// An en passant square on which no capture is legal is accepted and
    /// dropped.
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        let mut pos = Position::empty();
        for (i, piece) in setup.board.iter().enumerate() {
            if let Some(piece) = piece {
                let bb = Bitboard::from_square(Square::new_masked(i as u32));
                pos.by_kind[piece.kind.index()] |= bb;
                pos.by_color[piece.color.index()] |= bb;
            }
        }
        pos.turn = setup.side_to_move;
        pos.castling = setup.castling_rights;
        pos.halfmove_clock = setup.halfmove_clock;
        pos.fullmove_number = setup.fullmove_number.max(1);
        validate(&mut pos)?;
        if let Some(sq) = setup.ep_square {
            let expected = match pos.turn {
                Color::White => Rank::Sixth,
                Color::Black => Rank::Third,
            };
            // The pawn that just double-pushed stands in front of the ep
            // square; the ep square and the square it came from are empty.
            let them = !pos.turn;
            let pushed = Square::new_masked((sq.index() ^ 8) as u32);
            let origin = Square::new_masked(if pos.turn == Color::White {
                sq.index() as u32 + 8
            } else {
                (sq.index() as u32).wrapping_sub(8) & 63
            });
            let occupied = pos.occupied();
            if sq.rank() != expected
                || !pos
                    .by_piece(Piece {
                        color: them,
                        kind: PieceKind::Pawn,
                    })
                    .contains(pushed)
                || occupied.contains(sq)
                || occupied.contains(origin)
            {
                return Err(SetupError::ImpossibleEnPassant(sq));
            }
            if pos.ep_capture_exists(sq) {
                pos.ep_square = Some(sq);
            }
        }
        if pos.count_legal_moves() > MAX_MOVES as u64 {
            return Err(SetupError::TooManyMoves);
        }
        Ok(pos)
    }

    /// The position as an unchecked [`Setup`] (`Position::from_setup` of it
    /// gives the position back).
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 64];
        for (i, slot) in board.iter_mut().enumerate() {
            *slot = self.piece_at(Square::new_masked(i as u32));
        }
        Setup {
            board,
            side_to_move: self.turn,
            castling_rights: self.castling,
            ep_square: self.ep_square,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }
}

/// The checks on the pieces, the side to move and the castling rights;
/// sets the derived check information.
fn validate(pos: &mut Position) -> Result<(), SetupError> {
    for color in Color::ALL {
        let ours = pos.by_color(color);
        let kings = (pos.by_kind(PieceKind::King) & ours).count();
        if kings == 0 {
            return Err(SetupError::MissingKing(color));
        }
        if kings > 1 {
            return Err(SetupError::TooManyKings(color));
        }
        // Material reachable by promotion: every piece beyond the initial
        // count (1 queen, 2 rooks, 2 bishops, 2 knights) needs a pawn that
        // promoted, so pawns + promoted <= 8.
        let count = |kind: PieceKind| (pos.by_kind(kind) & ours).count();
        let pawns = count(PieceKind::Pawn);
        let promoted = count(PieceKind::Queen).saturating_sub(1)
            + count(PieceKind::Rook).saturating_sub(2)
            + count(PieceKind::Bishop).saturating_sub(2)
            + count(PieceKind::Knight).saturating_sub(2);
        if pawns + promoted > 8 || ours.count() > 16 {
            return Err(SetupError::TooMuchMaterial(color));
        }
    }
    if let Some(sq) = (pos.by_kind(PieceKind::Pawn) & Bitboard::BACKRANKS).first() {
        return Err(SetupError::PawnOnBackRank(sq));
    }
    let them = !pos.turn;
    if pos.attacked_by::<false>(pos.turn, pos.king(them), pos.occupied()) {
        return Err(SetupError::OppositeCheck);
    }
    for color in Color::ALL {
        let back = color.back_rank();
        let king_home = Square::from_coords(File::E, back);
        for (side, rook_file) in [
            (CastlingSide::KingSide, File::H),
            (CastlingSide::QueenSide, File::A),
        ] {
            if !pos.castling.has(color, side) {
                continue;
            }
            let rook_home = Square::from_coords(rook_file, back);
            let king_ok = pos
                .by_piece(Piece {
                    color,
                    kind: PieceKind::King,
                })
                .contains(king_home);
            let rook_ok = pos
                .by_piece(Piece {
                    color,
                    kind: PieceKind::Rook,
                })
                .contains(rook_home);
            if !king_ok || !rook_ok {
                return Err(SetupError::CastlingWithoutPieces { color, side });
            }
        }
    }
    pos.update_check_info();
    Ok(())
}
