//! 81-square bitboards and the attack tables, all computed at compile time.
//!
//! Bit `i` is the square with index `i` = `(file - 1) * 9 + (rank - 1)`, so
//! each file is a run of 9 consecutive bits (rank 1 lowest). Black moves
//! towards lower bits within a file.

use super::types::{Color, PieceKind, Square};

/// A set of squares (bits 0..=80 of a `u128`; bits 81.. always zero).
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Bitboard(pub(crate) u128);

/// All 81 squares.
pub(crate) const BOARD: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard(BOARD);

    /// The set containing only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// `true` if `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// `true` if the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest-index square, `None` if empty.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// `true` if the set has two or more squares.
    #[inline]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The raw bits (bits 0..=80).
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(i as u8))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl core::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl core::ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl core::ops::$atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl core::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD)
    }
}

// ---------------------------------------------------------------------------
// Compile-time tables.

/// (file delta, rank delta) of the eight ray directions. Even entries point
/// to lower bit indices, odd ones to higher indices; `d ^ 1` is the opposite.
/// 0: rank-1 (Black's forward), 1: rank+1, 2: file-1, 3: file+1,
/// 4: file-1 rank-1, 5: file+1 rank+1, 6: file-1 rank+1, 7: file+1 rank-1.
const DIRS: [(i8, i8); 8] = [
    (0, -1),
    (0, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
];

const fn sq_at(file0: i8, rank0: i8) -> Option<usize> {
    if file0 >= 0 && file0 < 9 && rank0 >= 0 && rank0 < 9 {
        Some((file0 * 9 + rank0) as usize)
    } else {
        None
    }
}

const fn build_rays() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 81 {
            let (df, dr) = DIRS[d];
            let mut f = (s / 9) as i8 + df;
            let mut r = (s % 9) as i8 + dr;
            let mut bb = 0u128;
            while let Some(i) = sq_at(f, r) {
                bb |= 1u128 << i;
                f += df;
                r += dr;
            }
            t[d][s] = bb;
            s += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[d][s]`: squares from `s` (exclusive) to the board edge in direction `d`.
pub(crate) static RAYS: [[u128; 81]; 8] = build_rays();

const fn build_dir() -> [[u8; 81]; 81] {
    let mut t = [[0xffu8; 81]; 81];
    let rays = build_rays();
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut b = 0;
            while b < 81 {
                if rays[d][a] >> b & 1 != 0 {
                    t[a][b] = d as u8;
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

/// `DIR[a][b]`: the ray direction from `a` to `b`, `0xff` if not aligned.
static DIR: [[u8; 81]; 81] = build_dir();

/// Step offsets from Black's point of view (rank delta -1 = forward).
const PAWN_STEPS: &[(i8, i8)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i8, i8)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i8, i8)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn build_steps(steps: &[(i8, i8)]) -> [[u128; 81]; 2] {
    let mut t = [[0u128; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 81 {
            let mut bb = 0u128;
            let mut k = 0;
            while k < steps.len() {
                let (df, dr) = steps[k];
                let dr = if c == 0 { dr } else { -dr };
                if let Some(i) = sq_at((s / 9) as i8 + df, (s % 9) as i8 + dr) {
                    bb |= 1u128 << i;
                }
                k += 1;
            }
            t[c][s] = bb;
            s += 1;
        }
        c += 1;
    }
    t
}

pub(crate) static PAWN: [[u128; 81]; 2] = build_steps(PAWN_STEPS);
pub(crate) static KNIGHT: [[u128; 81]; 2] = build_steps(KNIGHT_STEPS);
pub(crate) static SILVER: [[u128; 81]; 2] = build_steps(SILVER_STEPS);
pub(crate) static GOLD: [[u128; 81]; 2] = build_steps(GOLD_STEPS);
pub(crate) static KING: [[u128; 81]; 2] = build_steps(KING_STEPS);

const fn rank_mask(rank: u8) -> u128 {
    let mut bb = 0u128;
    let mut f = 0;
    while f < 9 {
        bb |= 1u128 << (f * 9 + rank as usize - 1);
        f += 1;
    }
    bb
}

/// File masks, index 0 = file 1.
pub(crate) const FILE_MASK: [u128; 9] = {
    let mut t = [0u128; 9];
    let mut f = 0;
    while f < 9 {
        t[f] = 0x1ffu128 << (9 * f);
        f += 1;
    }
    t
};

/// Rank masks, index 0 = rank 1.
pub(crate) const RANK_MASK: [u128; 9] = {
    let mut t = [0u128; 9];
    let mut r = 0;
    while r < 9 {
        t[r] = rank_mask(r as u8 + 1);
        r += 1;
    }
    t
};

/// Promotion zone (enemy camp) per colour: ranks 1-3 for Black, 7-9 for White.
pub(crate) const ZONE: [u128; 2] = [
    RANK_MASK[0] | RANK_MASK[1] | RANK_MASK[2],
    RANK_MASK[6] | RANK_MASK[7] | RANK_MASK[8],
];

/// The far rank per colour (rank 1 for Black, rank 9 for White): squares
/// where a pawn or lance would have no move.
pub(crate) const LAST1: [u128; 2] = [RANK_MASK[0], RANK_MASK[8]];

/// The two far ranks per colour: squares where a knight would have no move.
pub(crate) const LAST2: [u128; 2] = [RANK_MASK[0] | RANK_MASK[1], RANK_MASK[7] | RANK_MASK[8]];

/// The squares where a piece of `kind` of the colour with index `color`
/// would have no move (a dead piece): [`LAST1`] for a pawn or lance,
/// [`LAST2`] for a knight, none for the rest.
#[inline]
pub(crate) const fn dead_squares(kind: PieceKind, color: usize) -> u128 {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => LAST1[color],
        PieceKind::Knight => LAST2[color],
        _ => 0,
    }
}

// ---------------------------------------------------------------------------
// Sliding attacks (classical ray approach: first blocker by bit scan).

#[inline(always)]
fn ray_pos(d: usize, s: usize, occ: u128) -> u128 {
    let r = RAYS[d][s];
    let b = r & occ;
    if b == 0 {
        r
    } else {
        r ^ RAYS[d][b.trailing_zeros() as usize]
    }
}

#[inline(always)]
fn ray_neg(d: usize, s: usize, occ: u128) -> u128 {
    let r = RAYS[d][s];
    let b = r & occ;
    if b == 0 {
        r
    } else {
        r ^ RAYS[d][127 - b.leading_zeros() as usize]
    }
}

/// Squares attacked by a lance of `color` on `s` given occupancy `occ`.
#[inline(always)]
pub(crate) fn lance_attacks(color: Color, s: usize, occ: u128) -> u128 {
    match color {
        Color::Black => ray_neg(0, s, occ),
        Color::White => ray_pos(1, s, occ),
    }
}

/// Squares attacked by a rook on `s` given occupancy `occ`.
#[inline(always)]
pub(crate) fn rook_attacks(s: usize, occ: u128) -> u128 {
    ray_neg(0, s, occ) | ray_pos(1, s, occ) | ray_neg(2, s, occ) | ray_pos(3, s, occ)
}

/// Squares attacked by a bishop on `s` given occupancy `occ`.
#[inline(always)]
pub(crate) fn bishop_attacks(s: usize, occ: u128) -> u128 {
    ray_neg(4, s, occ) | ray_pos(5, s, occ) | ray_neg(6, s, occ) | ray_pos(7, s, occ)
}

static ROOK_PSEUDO: [u128; 81] = {
    let rays = build_rays();
    let mut t = [0u128; 81];
    let mut s = 0;
    while s < 81 {
        t[s] = rays[0][s] | rays[1][s] | rays[2][s] | rays[3][s];
        s += 1;
    }
    t
};

static BISHOP_PSEUDO: [u128; 81] = {
    let rays = build_rays();
    let mut t = [0u128; 81];
    let mut s = 0;
    while s < 81 {
        t[s] = rays[4][s] | rays[5][s] | rays[6][s] | rays[7][s];
        s += 1;
    }
    t
};

/// Rook moves on an empty board.
#[inline(always)]
pub(crate) fn rook_pseudo(s: usize) -> u128 {
    ROOK_PSEUDO[s]
}

/// Bishop moves on an empty board.
#[inline(always)]
pub(crate) fn bishop_pseudo(s: usize) -> u128 {
    BISHOP_PSEUDO[s]
}

/// The first occupied square from `s` in direction `d` (as a one-bit set),
/// or 0 if the ray is empty.
#[inline(always)]
pub(crate) fn first_blocker(d: usize, s: usize, occ: u128) -> u128 {
    let b = RAYS[d][s] & occ;
    if b == 0 {
        0
    } else if d & 1 == 1 {
        b & b.wrapping_neg()
    } else {
        1u128 << (127 - b.leading_zeros())
    }
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline(always)]
pub(crate) fn between(a: usize, b: usize) -> u128 {
    let d = DIR[a][b];
    if d == 0xff {
        0
    } else {
        RAYS[d as usize][a] ^ RAYS[d as usize][b] ^ (1u128 << b)
    }
}

/// The full line through `a` and `b` (both included) if aligned, else empty.
#[inline(always)]
pub(crate) fn line(a: usize, b: usize) -> u128 {
    let d = DIR[a][b];
    if d == 0xff {
        0
    } else {
        RAYS[d as usize][a] | RAYS[d as usize ^ 1][a] | (1u128 << a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(f: u8, r: u8) -> usize {
        Square::new(f, r).unwrap().index()
    }

    #[test]
    fn step_tables() {
        // Black knight on 2h jumps to 1f and 3f.
        assert_eq!(KNIGHT[0][sq(2, 8)], 1 << sq(1, 6) | 1 << sq(3, 6));
        // White pawn on 3c attacks 3d.
        assert_eq!(PAWN[1][sq(3, 3)], 1 << sq(3, 4));
        // King in the corner 1a: 2a, 1b, 2b.
        assert_eq!(KING[0][sq(1, 1)].count_ones(), 3);
        assert_eq!(GOLD[0][sq(5, 5)].count_ones(), 6);
        assert_eq!(SILVER[1][sq(5, 5)].count_ones(), 5);
    }

    #[test]
    fn sliders() {
        assert_eq!(rook_attacks(sq(5, 5), 0).count_ones(), 16);
        assert_eq!(bishop_attacks(sq(5, 5), 0).count_ones(), 16);
        let occ = 1u128 << sq(5, 3);
        let a = lance_attacks(Color::Black, sq(5, 9), occ);
        assert_eq!(a.count_ones(), 6); // 5h..5c
        assert_eq!(between(sq(1, 1), sq(9, 9)).count_ones(), 7);
        assert_eq!(between(sq(1, 1), sq(2, 3)), 0);
        assert_eq!(line(sq(5, 1), sq(5, 2)), FILE_MASK[4]);
    }
}
