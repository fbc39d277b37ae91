//! The 64-bit board layout with ghost squares.
//!
//! Square `s` (1..=50) lives at bit `s - 1 + (s - 1) / 10`: every pair of
//! rows (10 squares) is followed by one unused "ghost" bit (bits 10, 21, 32
//! and 43), so that one diagonal step is always a shift by 5 or 6 bits and a
//! step off the left or right edge lands on a ghost bit (or outside bits
//! 0..=53), which is never part of any piece or empty set:
//!
//! | shift | direction (White at the bottom) |
//! |---|---|
//! | `+5` | down-left (towards White's side) |
//! | `+6` | down-right |
//! | `-5` | up-right (towards Black's side) |
//! | `-6` | up-left |
//!
//! White men move up (`-5`, `-6`), Black men move down (`+5`, `+6`).

/// All 50 playable squares.
pub(crate) const BOARD: u64 = ((1 << 54) - 1) & !((1 << 10) | (1 << 21) | (1 << 32) | (1 << 43));
/// Squares 1..=5: White's promotion row.
pub(crate) const WHITE_PROMOTION: u64 = 0x1f;
/// Squares 46..=50: Black's promotion row.
pub(crate) const BLACK_PROMOTION: u64 = 0x1f << 49;

/// Direction index 0..4: `+5`, `+6`, `-5`, `-6`. The reverse of `d` is
/// `d ^ 2`; the two perpendicular directions are `d ^ 1` and `d ^ 3`.
pub(crate) const DIR_SHIFT: [i32; 4] = [5, 6, -5, -6];

/// Bit index of square number `s` (1..=50).
#[inline]
pub(crate) const fn bit_of(s: u8) -> u32 {
    let i = (s - 1) as u32;
    i + i / 10
}

/// Square number (1..=50) of a playable bit index.
#[inline]
pub(crate) const fn square_of(bit: u32) -> u8 {
    (bit - bit / 11 + 1) as u8
}

const fn is_playable(bit: i32) -> bool {
    bit >= 0 && bit < 54 && (BOARD >> bit) & 1 == 1
}

/// `RAYS[d][b]`: the squares strictly beyond bit `b` in direction `d`, up to
/// the edge of the board.
pub(crate) static RAYS: [[u64; 64]; 4] = build_rays();

const fn build_rays() -> [[u64; 64]; 4] {
    let mut rays = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut b = 0;
        while b < 54 {
            if is_playable(b) {
                let mut ray = 0u64;
                let mut t = b + DIR_SHIFT[d];
                while is_playable(t) {
                    ray |= 1 << t;
                    t += DIR_SHIFT[d];
                }
                rays[d][b as usize] = ray;
            }
            b += 1;
        }
        d += 1;
    }
    rays
}

/// The nearest set bit of `set` when walking in direction `d` (`set` must be
/// a non-empty subset of a ray in that direction).
#[inline(always)]
pub(crate) fn nearest(d: usize, set: u64) -> u32 {
    if d < 2 {
        set.trailing_zeros()
    } else {
        63 - set.leading_zeros()
    }
}

/// Left and right shift amounts of one step in each direction (one of
/// them is 0).
const STEP_LEFT: [u32; 4] = [5, 6, 0, 0];
const STEP_RIGHT: [u32; 4] = [0, 0, 5, 6];

/// Shift a set one step in direction `d` (0..4): `set << 5`, `set << 6`,
/// `set >> 5` or `set >> 6`.
///
/// Written as a left shift then a right shift, one of them by 0, so that a
/// direction known only at run time (the king's capture search) costs two
/// shifts and no branch (a `match` compiles to a jump table there); with
/// `d` known at compile time it folds to one shift.
#[inline(always)]
pub(crate) fn step(d: usize, set: u64) -> u64 {
    (set << STEP_LEFT[d & 3]) >> STEP_RIGHT[d & 3]
}

/// Shift a set `k` steps in direction `d` (see [`step`]).
#[inline(always)]
pub(crate) fn steps(d: usize, k: u32, set: u64) -> u64 {
    (set << (STEP_LEFT[d & 3] * k)) >> (STEP_RIGHT[d & 3] * k)
}

/// The squares of `within` from which a king looking in direction `d`
/// over `empty` squares first meets a piece of `targets`, for all squares
/// at once and without branches: an occluded fill from the targets
/// backwards through the empty squares (the runs of empty squares before
/// a piece are at most 8 long: 7 fill steps after the first).
#[inline(always)]
pub(crate) fn seers(d: usize, targets: u64, empty: u64, within: u64) -> u64 {
    let b = d ^ 2;
    let mut g = step(b, targets) & empty;
    let mut p = empty;
    g |= p & step(b, g);
    p &= step(b, p);
    g |= p & steps(b, 2, g);
    p &= steps(b, 2, p);
    g |= p & steps(b, 4, g);
    g & within
}

/// The squares a flying king on `bit` reaches in direction `d` over `empty`
/// squares (stopping before the first non-empty square).
#[inline(always)]
pub(crate) fn slide(d: usize, bit: u32, empty: u64) -> u64 {
    let ray = RAYS[d][bit as usize];
    let blockers = ray & !empty;
    if blockers == 0 {
        ray
    } else {
        let b = nearest(d, blockers);
        ray & !(RAYS[d][b as usize] | (1 << b))
    }
}

/// All squares a flying king on `bit` reaches over `empty` squares.
#[inline(always)]
pub(crate) fn king_moves(bit: u32, empty: u64) -> u64 {
    slide(0, bit, empty) | slide(1, bit, empty) | slide(2, bit, empty) | slide(3, bit, empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_bit_round_trip() {
        for s in 1..=50u8 {
            let b = bit_of(s);
            assert!(BOARD >> b & 1 == 1);
            assert_eq!(square_of(b), s);
        }
        assert_eq!(BOARD.count_ones(), 50);
    }

    #[test]
    fn neighbours_match_the_numbering() {
        // Square 1 (row 1, column 2) touches 6 and 7; 6 touches 1 and 11;
        // 46 (bottom left) touches 41 only; 5 touches 10 only.
        let n = |s: u8| -> [u64; 4] {
            let b = bit_of(s) as usize;
            [0, 1, 2, 3].map(|d| step(d, 1 << b) & BOARD)
        };
        let sq = |s: u8| 1u64 << bit_of(s);
        assert_eq!(n(1), [sq(6), sq(7), 0, 0]);
        assert_eq!(n(6), [0, sq(11), sq(1), 0]);
        assert_eq!(n(46), [0, 0, sq(41), 0]);
        assert_eq!(n(5), [sq(10), 0, 0, 0]);
        assert_eq!(n(28), [sq(32), sq(33), sq(23), sq(22)]);
        // The long diagonal 46..5.
        let long: u64 = [41, 37, 32, 28, 23, 19, 14, 10, 5]
            .iter()
            .map(|&s| sq(s))
            .sum();
        assert_eq!(RAYS[2][bit_of(46) as usize], long);
    }
}
