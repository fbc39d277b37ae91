//! Chess vocabulary used on the wire: squares, colours, pieces.
//!
//! These are board-core's chess types (`board_core::chess`), re-exported so
//! that users of this crate need not depend on board-core directly; the
//! crate only adds private helpers (square from file and rank indices).

pub use board_core::chess::{
    CastlingSide, Color, File, Move, Piece, PieceKind, Position, Rank, Square,
};

/// The square on file `0..8` (a..h) and rank `0..8` (1..8), `None` outside.
pub(crate) fn square(file: u8, rank: u8) -> Option<Square> {
    Some(Square::from_coords(
        File::new(u32::from(file))?,
        Rank::new(u32::from(rank))?,
    ))
}

/// Upper-case piece letter (`N B R Q K`; `P` for pawns).
pub(crate) fn role_letter(r: PieceKind) -> u8 {
    r.char().to_ascii_uppercase() as u8
}

/// The role for a piece letter, either case.
pub(crate) fn role_from_letter(b: u8) -> Option<PieceKind> {
    PieceKind::from_char(b as char)
}
