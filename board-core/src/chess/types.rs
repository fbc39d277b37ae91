//! Chess vocabulary: colours, files, ranks, squares, kinds, pieces and moves.
//!
//! Every type here is a small `Copy` value. Squares are numbered 0..=63 in
//! little-endian rank-file order (`a1` = 0, `b1` = 1, ..., `h8` = 63), the
//! usual bitboard convention.

use core::fmt;
use core::str::FromStr;

/// The side a piece belongs to, or the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White, who moves first and starts on ranks 1 and 2.
    White = 0,
    /// Black, who starts on ranks 7 and 8.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN side-to-move letter: `'w'` or `'b'`.
    #[inline]
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Parses the FEN side-to-move letter (`'w'` or `'b'`, lower case only).
    #[inline]
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The rank a pawn of this colour promotes on minus one, i.e. the rank
    /// from which a pawn push promotes (rank 7 for White, rank 2 for Black).
    #[inline]
    pub const fn seventh_rank(self) -> Rank {
        match self {
            Color::White => Rank::Seventh,
            Color::Black => Rank::Second,
        }
    }

    /// This colour's back rank (rank 1 for White, rank 8 for Black).
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }
}

not_is_opposite!(Color);

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

macro_rules! coord_enum {
    ($(#[$meta:meta])* $name:ident, $first:literal, [$($variant:ident),*]) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $(#[allow(missing_docs)] $variant),*
        }

        impl $name {
            /// All eight values in board order.
            pub const ALL: [$name; 8] = [$($name::$variant),*];

            /// The value with index `index` (0..=7), or `None`.
            #[inline]
            pub const fn new(index: u32) -> Option<$name> {
                if index < 8 { Some(Self::ALL[index as usize]) } else { None }
            }

            /// The index, 0..=7.
            #[inline]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The algebraic character.
            #[inline]
            pub const fn char(self) -> char {
                ($first as u32 + self as u32) as u8 as char
            }

            /// Parses the algebraic character (lower-case file letter or rank digit).
            #[inline]
            pub const fn from_char(c: char) -> Option<$name> {
                let base = $first as u32;
                let c = c as u32;
                if c >= base && c < base + 8 { Self::new(c - base) } else { None }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                use fmt::Write;
                f.write_char(self.char())
            }
        }
    };
}

coord_enum!(
    /// A file (column) `a`..=`h`, index 0..=7.
    File, 'a', [A, B, C, D, E, F, G, H]
);
coord_enum!(
    /// A rank (row) `1`..=`8`, index 0..=7; `First` is White's back rank.
    Rank, '1', [First, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth]
);

impl Rank {
    /// The same rank seen from `color`'s side (`Rank::First` from Black's
    /// side is `Rank::Eighth`).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }
}

/// A square, `a1` = 0 ... `h8` = 63 (index = 8 * rank + file).
///
/// Always in range: the only constructors check the index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $index:literal),* $(,)?) => {
        impl Square {
            $(
                #[allow(missing_docs)]
                pub const $name: Square = Square($index);
            )*
        }
    };
}

square_consts!(
    A1 = 0,
    B1 = 1,
    C1 = 2,
    D1 = 3,
    E1 = 4,
    F1 = 5,
    G1 = 6,
    H1 = 7,
    A2 = 8,
    B2 = 9,
    C2 = 10,
    D2 = 11,
    E2 = 12,
    F2 = 13,
    G2 = 14,
    H2 = 15,
    A3 = 16,
    B3 = 17,
    C3 = 18,
    D3 = 19,
    E3 = 20,
    F3 = 21,
    G3 = 22,
    H3 = 23,
    A4 = 24,
    B4 = 25,
    C4 = 26,
    D4 = 27,
    E4 = 28,
    F4 = 29,
    G4 = 30,
    H4 = 31,
    A5 = 32,
    B5 = 33,
    C5 = 34,
    D5 = 35,
    E5 = 36,
    F5 = 37,
    G5 = 38,
    H5 = 39,
    A6 = 40,
    B6 = 41,
    C6 = 42,
    D6 = 43,
    E6 = 44,
    F6 = 45,
    G6 = 46,
    H6 = 47,
    A7 = 48,
    B7 = 49,
    C7 = 50,
    D7 = 51,
    E7 = 52,
    F7 = 53,
    G7 = 54,
    H7 = 55,
    A8 = 56,
    B8 = 57,
    C8 = 58,
    D8 = 59,
    E8 = 60,
    F8 = 61,
    G8 = 62,
    H8 = 63,
);

impl Square {
    /// The square with index `index` (0..=63), or `None`.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with index `index & 63` (never fails; used on bit scans).
    #[inline]
    pub(crate) const fn new_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square((rank as u8) * 8 + file as u8)
    }

    /// The index 0..=63 (`a1` = 0, `h8` = 63).
    #[inline]
    pub const fn index(self) -> usize {
        // The mask is a no-op (the value is always < 64) that lets the
        // compiler drop bounds checks on `[_; 64]` tables.
        (self.0 & 63) as usize
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        File::ALL[(self.0 & 7) as usize]
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[((self.0 >> 3) & 7) as usize]
    }

    /// The square mirrored vertically (`e2` <-> `e7`).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// `true` for dark squares (`a1` is dark).
    #[inline]
    pub const fn is_dark(self) -> bool {
        (self.0 ^ (self.0 >> 3)) & 1 == 0
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.file().char())?;
        f.write_char(self.rank().char())
    }
}

/// Error parsing a square name such as `e4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid square name (expected a file a-h then a rank 1-8)")]
pub struct ParseSquareError;

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(ParseSquareError);
        }
        match (File::from_char(b[0] as char), Rank::from_char(b[1] as char)) {
            (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
            _ => Err(ParseSquareError),
        }
    }
}

/// A kind of piece, independent of colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Pawn (`p`).
    Pawn = 0,
    /// Knight (`n`).
    Knight = 1,
    /// Bishop (`b`).
    Bishop = 2,
    /// Rook (`r`).
    Rook = 3,
    /// Queen (`q`).
    Queen = 4,
    /// King (`k`).
    King = 5,
}

impl PieceKind {
    /// All six kinds, pawn first.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// The four kinds a pawn may promote to, strongest first.
    pub const PROMOTIONS: [PieceKind; 4] = [
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
    ];

    /// 0 (pawn) ..= 5 (king).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter (`p n b r q k`), as in UCI promotions and
    /// Black's FEN pieces.
    #[inline]
    pub const fn char(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    /// Parses a letter of either case.
    #[inline]
    pub const fn from_char(c: char) -> Option<PieceKind> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceKind::Pawn),
            'n' => Some(PieceKind::Knight),
            'b' => Some(PieceKind::Bishop),
            'r' => Some(PieceKind::Rook),
            'q' => Some(PieceKind::Queen),
            'k' => Some(PieceKind::King),
            _ => None,
        }
    }
}

/// A coloured piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind of piece.
    pub kind: PieceKind,
}

impl Piece {
    /// The FEN letter: upper case for White, lower case for Black.
    #[inline]
    pub const fn char(self) -> char {
        let c = self.kind.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Parses a FEN piece letter (`PNBRQK` White, `pnbrqk` Black).
    #[inline]
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match PieceKind::from_char(c) {
            Some(kind) => Some(Piece { color, kind }),
            None => None,
        }
    }
}

/// King side (`O-O`, king to the g file) or queen side (`O-O-O`, king to
/// the c file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// King side: king e→g, rook h→f.
    KingSide,
    /// Queen side: king e→c, rook a→d.
    QueenSide,
}

impl fmt::Display for CastlingSide {
    /// `king side` or `queen side`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastlingSide::KingSide => "king side",
            CastlingSide::QueenSide => "queen side",
        })
    }
}

/// What a move does besides moving a piece from one square to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the others (including captures and pawn
    /// double pushes).
    Normal,
    /// A pawn capturing en passant; `to` is the en passant square.
    EnPassant,
    /// Castling, encoded as the king's move (`e1g1`, `e1c1`, `e8g8`, `e8c8`).
    Castle(CastlingSide),
    /// A pawn move to the last rank, promoting to the given kind (knight,
    /// bishop, rook or queen).
    Promotion(PieceKind),
}

impl MoveKind {
    /// The eight kinds a legal move can have, in the order of their codes
    /// in a [`Move`]: normal, en passant, castling king side and queen
    /// side, promotion to a knight, bishop, rook and queen.
    pub const ALL: [MoveKind; 8] = [
        MoveKind::Normal,
        MoveKind::EnPassant,
        MoveKind::Castle(CastlingSide::KingSide),
        MoveKind::Castle(CastlingSide::QueenSide),
        MoveKind::Promotion(PieceKind::Knight),
        MoveKind::Promotion(PieceKind::Bishop),
        MoveKind::Promotion(PieceKind::Rook),
        MoveKind::Promotion(PieceKind::Queen),
    ];
}

/// A chess move: from, to, and its [`MoveKind`]. Packed in 16 bits.
///
/// Moves come from [`Position::legal_moves`](super::Position::legal_moves)
/// or from UCI text parsed against a position
/// ([`Position::parse_uci`](super::Position::parse_uci)). Castling is the
/// king's two-square move. `Move::default()` is the placeholder `a1a1`,
/// never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

pub(crate) const KIND_NORMAL_BITS: u16 = 0;
pub(crate) const KIND_EN_PASSANT_BITS: u16 = 1;
pub(crate) const KIND_CASTLE_KING_BITS: u16 = 2;
pub(crate) const KIND_CASTLE_QUEEN_BITS: u16 = 3;
// 4 + kind index for promotions: knight 5, bishop 6, rook 7, queen 8.
pub(crate) const KIND_PROMOTION_BASE: u16 = 4;
const KIND_NORMAL: u16 = KIND_NORMAL_BITS;
const KIND_EN_PASSANT: u16 = KIND_EN_PASSANT_BITS;
const KIND_CASTLE_KING: u16 = KIND_CASTLE_KING_BITS;
const KIND_CASTLE_QUEEN: u16 = KIND_CASTLE_QUEEN_BITS;

impl Move {
    /// A move from `from` to `to` of the given kind. A promotion to a pawn
    /// or king is stored as a promotion to a queen (no such move is ever
    /// legal; use `PieceKind::PROMOTIONS`).
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let k = match kind {
            MoveKind::Normal => KIND_NORMAL,
            MoveKind::EnPassant => KIND_EN_PASSANT,
            MoveKind::Castle(CastlingSide::KingSide) => KIND_CASTLE_KING,
            MoveKind::Castle(CastlingSide::QueenSide) => KIND_CASTLE_QUEEN,
            MoveKind::Promotion(kind) => match kind {
                PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen => {
                    KIND_PROMOTION_BASE + kind as u16
                }
                PieceKind::Pawn | PieceKind::King => KIND_PROMOTION_BASE + PieceKind::Queen as u16,
            },
        };
        Move(from.0 as u16 | (to.0 as u16) << 6 | k << 12)
    }

    /// A normal move (no promotion, castling or en passant).
    #[inline]
    pub(crate) const fn normal(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6)
    }

    #[inline]
    pub(crate) const fn with_kind_bits(from: Square, to: Square, bits: u16) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | bits << 12)
    }

    #[inline]
    pub(crate) const fn kind_bits(self) -> u16 {
        self.0 >> 12
    }

    /// The square the moving piece leaves (the king's square for castling).
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    /// The square the moving piece reaches (the king's target for castling,
    /// the en passant square for an en passant capture).
    #[inline]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_EN_PASSANT => MoveKind::EnPassant,
            KIND_CASTLE_KING => MoveKind::Castle(CastlingSide::KingSide),
            KIND_CASTLE_QUEEN => MoveKind::Castle(CastlingSide::QueenSide),
            k if k > KIND_PROMOTION_BASE => {
                MoveKind::Promotion(PieceKind::ALL[((k - KIND_PROMOTION_BASE) % 6) as usize])
            }
            _ => MoveKind::Normal,
        }
    }

    /// The promotion kind, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// `true` for castling moves.
    #[inline]
    pub const fn is_castle(self) -> bool {
        matches!(self.kind(), MoveKind::Castle(_))
    }

    /// `true` for en passant captures.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == KIND_EN_PASSANT
    }

    /// The move in UCI syntax (`e2e4`, `e7e8q`, castling `e1g1`).
    #[inline]
    pub const fn to_uci(self) -> super::uci::UciMove {
        super::uci::UciMove {
            from: self.from(),
            to: self.to(),
            promotion: self.promotion(),
        }
    }
}

impl fmt::Display for Move {
    /// Prints the move in UCI syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_uci(), f)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci())?;
        match self.kind() {
            MoveKind::EnPassant => f.write_str("(ep)"),
            MoveKind::Castle(_) => f.write_str("(castle)"),
            _ => Ok(()),
        }
    }
}
