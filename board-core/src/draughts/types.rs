//! Small `Copy` vocabulary types: colours, squares, pieces, square sets, moves.

use core::fmt;

use super::bitboard::{BOARD, bit_of, square_of};

/// A side. White moves first and its men move towards squares 1..=5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White: men start on squares 31..=50 and promote on 1..=5.
    White,
    /// Black: men start on squares 1..=20 and promote on 46..=50.
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The PDN letter: `W` or `B`.
    #[inline]
    pub const fn pdn_char(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl fmt::Display for Color {
    /// `white` or `black` (lowercase, as chess and shogi colours print).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

not_is_opposite!(Color);

/// A playable square of the 10x10 board, numbered 1..=50 from Black's side
/// (top row 1..=5, left to right), as in PDN and DamExchange.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square numbered `number`, or `None` outside 1..=50.
    #[inline]
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 50 {
            Some(Square(number))
        } else {
            None
        }
    }

    /// The square's number, 1..=50.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Row 0..=9 counted from Black's side (squares 1..=5 are row 0).
    #[inline]
    pub const fn row(self) -> u8 {
        (self.0 - 1) / 5
    }

    /// Column 0..=9 from the left as White sees the board (square 1 is in
    /// column 1, square 46 in column 0).
    #[inline]
    pub const fn column(self) -> u8 {
        let i = (self.0 - 1) % 5;
        if self.row().is_multiple_of(2) {
            2 * i + 1
        } else {
            2 * i
        }
    }

    /// Every square, 1..=50 in order.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (1..=50u8).map(Square)
    }

    #[inline]
    pub(crate) const fn bit(self) -> u32 {
        bit_of(self.0)
    }

    #[inline]
    pub(crate) const fn from_bit(bit: u32) -> Square {
        Square(square_of(bit))
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.0)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<Square> for u8 {
    fn from(s: Square) -> u8 {
        s.0
    }
}

impl TryFrom<u8> for Square {
    type Error = SquareOutOfRange;
    fn try_from(n: u8) -> Result<Square, SquareOutOfRange> {
        Square::new(n).ok_or(SquareOutOfRange(n))
    }
}

/// A square number outside 1..=50.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("square {0} is outside 1..=50")]
pub struct SquareOutOfRange(pub u8);

/// Man or king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Moves one square diagonally forward; captures forward and backward.
    Man,
    /// Flying king: moves and captures along whole diagonals.
    King,
}

/// A piece: its colour and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Man or king.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The piece's letter in a diagram or board string: `w`/`b` for men,
    /// `W`/`B` for kings (the letters of Hub's `pos=` and of the `{:#}`
    /// diagram; DXP's GAMEREQ board writes black as `z`/`Z` instead).
    ///
    /// ```
    /// use board_core::draughts::{Color, Piece, PieceKind};
    /// assert_eq!(Piece::new(Color::White, PieceKind::Man).letter(), 'w');
    /// assert_eq!(Piece::new(Color::Black, PieceKind::King).letter(), 'B');
    /// ```
    #[inline]
    pub const fn letter(self) -> char {
        match (self.color, self.kind) {
            (Color::White, PieceKind::Man) => 'w',
            (Color::White, PieceKind::King) => 'W',
            (Color::Black, PieceKind::Man) => 'b',
            (Color::Black, PieceKind::King) => 'B',
        }
    }
}

/// A set of squares (a `Copy` bitset). Iterates in increasing square order.
///
/// ```
/// use board_core::draughts::{Square, SquareSet};
/// let set: SquareSet = [9, 20, 4].into_iter().filter_map(Square::new).collect();
/// assert_eq!(set.len(), 3);
/// let numbers: Vec<u8> = set.iter().map(Square::number).collect();
/// assert_eq!(numbers, [4, 9, 20]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct SquareSet(pub(crate) u64);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);
    /// All 50 squares.
    pub const ALL: SquareSet = SquareSet(BOARD);

    /// The empty set.
    #[inline]
    pub const fn new() -> SquareSet {
        SquareSet(0)
    }

    /// The set holding only `square`.
    #[inline]
    pub const fn from_square(square: Square) -> SquareSet {
        SquareSet(1 << square.bit())
    }

    /// Number of squares in the set (0..=50).
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// `true` when the set holds no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 >> square.bit() & 1 == 1
    }

    /// Adds `square`; returns `true` if it was not there yet.
    #[inline]
    pub fn insert(&mut self, square: Square) -> bool {
        let had = self.contains(square);
        self.0 |= 1 << square.bit();
        !had
    }

    /// Removes `square`; returns `true` if it was there.
    #[inline]
    pub fn remove(&mut self, square: Square) -> bool {
        let had = self.contains(square);
        self.0 &= !(1 << square.bit());
        had
    }

    /// The squares in both sets.
    #[inline]
    pub const fn intersection(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 & other.0)
    }

    /// The squares in either set.
    #[inline]
    pub const fn union(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 | other.0)
    }

    /// The lowest-numbered square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_bit(self.0.trailing_zeros()))
        }
    }

    /// Iterates over the squares in increasing order.
    #[inline]
    pub const fn iter(self) -> SquareSetIter {
        SquareSetIter(self.0)
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(Square::number))
            .finish()
    }
}

/// Iterator over a [`SquareSet`], in increasing square order.
#[derive(Debug, Clone)]
pub struct SquareSetIter(u64);

impl Iterator for SquareSetIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::from_bit(b))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for SquareSetIter {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let b = 63 - self.0.leading_zeros();
        self.0 &= !(1 << b);
        Some(Square::from_bit(b))
    }
}

impl ExactSizeIterator for SquareSetIter {}
impl core::iter::FusedIterator for SquareSetIter {}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareSetIter;
    fn into_iter(self) -> SquareSetIter {
        self.iter()
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        let mut set = SquareSet::new();
        for s in iter {
            set.insert(s);
        }
        set
    }
}

impl Extend<Square> for SquareSet {
    fn extend<I: IntoIterator<Item = Square>>(&mut self, iter: I) {
        for s in iter {
            self.insert(s);
        }
    }
}

impl From<Square> for SquareSet {
    fn from(s: Square) -> SquareSet {
        SquareSet::from_square(s)
    }
}

/// A legal-move candidate: origin, destination and the set of captured
/// squares (empty for a quiet move).
///
/// Equality is on (from, to, captured set): two capture paths with the same
/// triple are one move (they lead to the same position), two with the same
/// from/to but different captured sets are different moves. Intermediate
/// landing squares are not stored; [`Position::capture_path`](super::Position::capture_path)
/// reconstructs one.
///
/// `from == to` is possible: a piece capturing round in a circle.
///
/// Eight bytes: the captured set in the board layout's bits 0..=53, `to`'s
/// bit index in bits 54..=59, and `from`'s bit index split over bits
/// 60..=63 (low 4 bits) and the two ghost bits 10 and 21 (which no square
/// uses). Ordering is by (from, to, captured set), as for the three fields.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u64);

impl Ord for Move {
    fn cmp(&self, other: &Move) -> core::cmp::Ordering {
        (self.origin_bit(), self.dest_bit(), self.caps()).cmp(&(
            other.origin_bit(),
            other.dest_bit(),
            other.caps(),
        ))
    }
}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Move) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Move {
    /// `from`, `to`: bit indices (0..=53) of playable squares; `captures`:
    /// a set of playable squares.
    #[inline]
    pub(crate) const fn from_bits(from: u32, to: u32, captures: u64) -> Move {
        let from = from as u64;
        Move(
            captures
                | (to as u64) << 54
                | (from & 15) << 60
                | ((from >> 4) & 1) << 10
                | ((from >> 5) & 1) << 21,
        )
    }

    /// The bit index of the origin square.
    #[inline(always)]
    pub(crate) const fn origin_bit(self) -> u32 {
        ((self.0 >> 60) | ((self.0 >> 6) & 16) | ((self.0 >> 16) & 32)) as u32
    }

    /// The bit index of the destination square.
    #[inline(always)]
    pub(crate) const fn dest_bit(self) -> u32 {
        ((self.0 >> 54) & 63) as u32
    }

    /// The captured squares as a bit set.
    #[inline(always)]
    pub(crate) const fn caps(self) -> u64 {
        self.0 & BOARD
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_bit(self.origin_bit())
    }

    /// The square the piece ends on.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_bit(self.dest_bit())
    }

    /// The squares of the captured pieces (empty for a quiet move).
    #[inline]
    pub const fn captures(self) -> SquareSet {
        SquareSet(self.caps())
    }

    /// Whether the move captures.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.caps() != 0
    }

    /// The number of captured pieces, 0..=20 in reachable positions.
    #[inline]
    pub const fn capture_count(self) -> u32 {
        self.caps().count_ones()
    }
}

impl fmt::Debug for Move {
    /// `32-28`, or `28x19` followed by the captured squares: `28x19 {23}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_capture() {
            write!(f, "{}x{} {:?}", self.from(), self.to(), self.captures())
        } else {
            write!(f, "{}-{}", self.from(), self.to())
        }
    }
}

impl fmt::Display for Move {
    /// PDN's short form, `32-28` or `28x19`, as the chess and shogi moves
    /// print their UCI/USI text. Two legal captures can share origin and
    /// destination; [`Position::move_text`](super::Position::move_text)
    /// writes the landing squares then (`11x18x25`), which needs the
    /// position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}{sep}{}", self.from(), self.to())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(feature = "std")]
    fn move_displays_pdn_short_form() {
        // PDN 3.0: `-` for a move, `x` for a capture, squares 1..=50.
        assert_eq!(
            std::format!("{}", Move::from_bits(bit_of(32), bit_of(28), 0)),
            "32-28"
        );
        let captured = 1u64 << bit_of(23);
        assert_eq!(
            std::format!("{}", Move::from_bits(bit_of(28), bit_of(19), captured)),
            "28x19"
        );
    }

    #[test]
    fn move_packs_into_eight_bytes_and_round_trips() {
        assert_eq!(core::mem::size_of::<Move>(), 8);
        let all: u64 = (1..=50u8).map(|s| 1u64 << bit_of(s)).sum();
        for from in 1..=50u8 {
            for to in 1..=50u8 {
                for caps in [0, all, all & !(1 << bit_of(from)), 1 << bit_of(to)] {
                    let mv = Move::from_bits(bit_of(from), bit_of(to), caps);
                    assert_eq!(mv.from().number(), from);
                    assert_eq!(mv.to().number(), to);
                    assert_eq!(mv.caps(), caps);
                }
            }
        }
        // Ordered by (from, to, captured set).
        let a = Move::from_bits(bit_of(40), bit_of(1), 0);
        let b = Move::from_bits(bit_of(41), bit_of(2), 0);
        let c = Move::from_bits(bit_of(41), bit_of(2), 1);
        assert!(a < b && b < c);
    }
}
