//! Helpers shared by the board-core test binaries (each uses a part, hence
//! `allow(dead_code)`): the perft vector files' parser, a counting
//! global allocator, a stack buffer to format into, and the walks over a
//! position's moves the three games' tests make alike ([`each_child`],
//! [`break_at`]).
//!
//! The allocation-counting tests (`chess_alloc.rs`, `draughts_no_alloc.rs`,
//! `shogi_alloc.rs`) install [`Counting`] themselves:
//!
//! ```ignore
//! mod common;
//! use common::{Counting, allocations_during};
//!
//! #[global_allocator]
//! static GLOBAL: Counting = Counting;
//! ```

#![allow(dead_code)]

/// The counting allocator of the family's no-alloc tests (one copy, in
/// `boardwire-vectors`).
#[allow(unused_imports)] // each test binary uses a part
pub use boardwire_vectors::counting::{Counting, allocations, allocations_during};

/// The lines of a perft vector file (`tests/data/perft-*.txt`,
/// `perftsuite.epd`): `<position> ; D1 <nodes> ; D2 <nodes> ...` (spaces
/// after `;` optional; blank lines and `#` comments skipped), as
/// (position text, [(depth, nodes)]). Panics on a malformed line.
pub fn perft_suite(data: &'static str) -> Vec<(&'static str, Vec<(u32, u64)>)> {
    data.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut fields = line.split(';').map(str::trim);
            let position = fields.next().unwrap();
            let counts = fields
                .map(|f| {
                    let field = || -> Option<(u32, u64)> {
                        let (d, n) = f.split_once(' ')?;
                        Some((d.strip_prefix('D')?.parse().ok()?, n.trim().parse().ok()?))
                    };
                    field().unwrap_or_else(|| {
                        panic!("{line}: expected `D<depth> <nodes>`, found {f:?}")
                    })
                })
                .collect();
            (position, counts)
        })
        .collect()
}

/// A fixed buffer to format into without a `String` (for the allocation
/// tests): `write!` fails with [`std::fmt::Error`] past 512 bytes.
pub struct StackBuf {
    bytes: [u8; 512],
    len: usize,
}

impl StackBuf {
    /// An empty buffer.
    pub fn new() -> StackBuf {
        StackBuf {
            bytes: [0; 512],
            len: 0,
        }
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        // Only `write_str` fills it, with whole `str`s.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap()
    }
}

impl std::fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The parsers' round trip on arbitrary text: text that reads as a `P`
/// writes back (`Display`) as text that reads as the same `P`; text that
/// does not read is fine (only a panic fails).
pub fn reparses<P>(text: &str) -> Result<(), proptest::test_runner::TestCaseError>
where
    P: std::str::FromStr + std::fmt::Display + PartialEq + std::fmt::Debug,
    P::Err: PartialEq + std::fmt::Debug,
{
    if let Ok(p) = text.parse::<P>() {
        proptest::prop_assert_eq!(p.to_string().parse::<P>(), Ok(p));
    }
    Ok(())
}

/// Plays each legal move of `pos` both unchecked and checked (`play`),
/// asserts that the two agree, and hands the move and the position after it
/// to `f`. Returns the number of legal moves of all those positions
/// together (so that the work cannot be optimised away).
pub fn each_child<G: board_core::Game>(pos: &G, mut f: impl FnMut(G::Move, &G)) -> u64 {
    let mut total = 0;
    for &mv in pos.legal_moves().iter() {
        let mut child = *pos;
        child.play_unchecked(mv);
        let checked = pos.play(mv).unwrap();
        assert_eq!(checked, child, "{pos}: {mv:?}");
        total += child.legal_moves().len() as u64;
        f(mv, &child);
    }
    total
}

/// `pos.for_each_legal_move` told to stop at the `k`-th move (1-based):
/// what it returned, and how many moves the callback saw.
pub fn break_at<G: board_core::Game>(pos: &G, k: usize) -> (std::ops::ControlFlow<G::Move>, usize) {
    let mut seen = 0;
    let flow = pos.for_each_legal_move(|mv| {
        seen += 1;
        if seen == k {
            std::ops::ControlFlow::Break(mv)
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    (flow, seen)
}
