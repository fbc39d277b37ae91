//! Chess vocabulary used on the wire: squares, colours, piece roles.
//!
//! These are board-core's chess types (`board_core::chess`), re-exported so
//! that users of this crate need not depend on board-core directly; this
//! module only adds the small helpers the codec needs (square from/to file
//! and rank bytes).

pub use self::local::{Color, Role, Square};

/// Temporary stand-ins until `board_core::chess` lands on main.
mod local {
    /// A square `a1..=h8`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub struct Square(u8);

    impl Square {
        /// The square on file `0..8` (a..h) and rank `0..8` (1..8).
        pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
            if file < 8 && rank < 8 {
                Some(Square(rank * 8 + file))
            } else {
                None
            }
        }
        /// File index `0..8` (a..h).
        pub const fn file(self) -> u8 {
            self.0 % 8
        }
        /// Rank index `0..8` (1..8).
        pub const fn rank(self) -> u8 {
            self.0 / 8
        }
    }

    /// A side.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Color {
        /// White, moves first.
        White,
        /// Black.
        Black,
    }

    /// A piece kind.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Role {
        /// Pawn.
        Pawn,
        /// Knight.
        Knight,
        /// Bishop.
        Bishop,
        /// Rook.
        Rook,
        /// Queen.
        Queen,
        /// King.
        King,
    }
}

/// The square on file `0..8` (a..h) and rank `0..8` (1..8), `None` outside.
pub(crate) fn square(file: u8, rank: u8) -> Option<Square> {
    Square::from_coords(file, rank)
}

/// File index `0..8` of a square.
pub(crate) fn file_of(sq: Square) -> u8 {
    sq.file()
}

/// Rank index `0..8` of a square.
pub(crate) fn rank_of(sq: Square) -> u8 {
    sq.rank()
}

/// Upper-case piece letter (`N B R Q K`; `P` for pawns).
pub(crate) fn role_letter(r: Role) -> u8 {
    match r {
        Role::Pawn => b'P',
        Role::Knight => b'N',
        Role::Bishop => b'B',
        Role::Rook => b'R',
        Role::Queen => b'Q',
        Role::King => b'K',
    }
}

/// The role for a piece letter, either case.
pub(crate) fn role_from_letter(b: u8) -> Option<Role> {
    Some(match b.to_ascii_uppercase() {
        b'P' => Role::Pawn,
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'Q' => Role::Queen,
        b'K' => Role::King,
        _ => return None,
    })
}

/// Writes a square as `e4`.
pub(crate) fn write_square(f: &mut core::fmt::Formatter<'_>, sq: Square) -> core::fmt::Result {
    use core::fmt::Write;
    f.write_char((b'a' + file_of(sq)) as char)?;
    f.write_char((b'1' + rank_of(sq)) as char)
}
