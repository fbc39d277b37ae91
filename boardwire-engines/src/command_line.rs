//! What the encoders of the engine-side protocols ([`crate::usi`],
//! [`crate::uci`], [`crate::hub`]) share: one command line is built as
//! text straight into the caller's buffer (no allocation of its own), then
//! its LF.

use std::fmt::{self, Write as _};

use crate::types::Text;

/// A command line being written at the end of the caller's buffer: text
/// goes in as UTF-8, through `push_str` or `write!`; ASCII bytes
/// through [`Sink::put`] (the moves and numbers, written without `fmt`).
pub(crate) struct Line<'a>(&'a mut Vec<u8>);

impl Line<'_> {
    /// Appends `text`.
    pub(crate) fn push_str(&mut self, text: &str) {
        self.0.extend_from_slice(text.as_bytes());
    }

    /// Room for `additional` more bytes (one growth for a long line).
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.0.reserve(additional);
    }
}

/// Where the encoders' ASCII pieces go: the family's byte writer, into
/// the line being written (a `Vec`, the fast path) or a formatter (the
/// `Display` of a move, through `fmt_with`), so that one function writes a
/// move's text for both.
pub(crate) use boardwire_proto::sink::{Sink, fmt_with};

impl Sink for Line<'_> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }
}

/// Appends `n`, `1..=99` (a draughts square number), in decimal.
#[inline(always)]
pub(crate) fn put_small(s: &mut impl Sink, n: u8) {
    if n < 10 {
        s.put(&[b'0' + n]);
    } else {
        s.put(&[b'0' + n / 10, b'0' + n % 10]);
    }
}

/// Appends `x` as `{x}` writes it; whole numbers of seconds (what GUIs
/// send) without `fmt`'s float formatting.
pub(crate) fn put_f64(s: &mut Line<'_>, x: f64) {
    // Whole, non-negative and below 10^15: exactly the integer's digits
    // (`{}` of such an `f64` prints no fraction and no exponent).
    if x.fract() == 0.0 && (0.0..1e15).contains(&x) && x.is_sign_positive() {
        s.put_u64(x as u64);
    } else {
        let _ = write!(s, "{x}");
    }
}

/// A board-core move as the engine protocol writes it, ASCII.
pub(crate) trait WireMove: Copy {
    /// The longest text, bytes.
    const MAX_LEN: usize;
    /// Appends the move's text.
    fn put(self, s: &mut impl Sink);
}

impl WireMove for board_core::chess::Move {
    const MAX_LEN: usize = 5;
    /// UCI: `e2e4`, `e7e8q`, castling as the king's move (what the
    /// move's `Display` prints).
    #[inline(always)]
    fn put(self, s: &mut impl Sink) {
        let (f, t) = (self.from().index() as u8, self.to().index() as u8);
        s.put(&[
            b'a' + (f & 7),
            b'1' + (f >> 3),
            b'a' + (t & 7),
            b'1' + (t >> 3),
        ]);
        if let Some(k) = self.promotion() {
            s.put(&[k.char() as u8]);
        }
    }
}

impl WireMove for board_core::shogi::Move {
    const MAX_LEN: usize = 5;
    /// USI: `7g7f`, `8h2b+`, `P*5e` (board-core's `usi_bytes`).
    #[inline(always)]
    fn put(self, s: &mut impl Sink) {
        let (b, n) = self.usi_bytes();
        s.put(&[b[0], b[1], b[2], b[3]]);
        if n == 5 {
            s.put(&[b[4]]);
        }
    }
}

impl fmt::Write for Line<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.push_str(text);
        Ok(())
    }
}

/// Appends the line `write` builds and its LF to `out`.
pub(crate) fn encode(out: &mut Vec<u8>, write: impl FnOnce(&mut Line<'_>)) {
    write(&mut Line(out));
    out.push(b'\n');
}

/// The line `encode` appends, with its LF.
pub(crate) fn to_bytes(encode: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut v = Vec::new();
    encode(&mut v);
    v
}

/// USI's and UCI's `setoption name <name> [value <value>]`.
pub(crate) fn set_option(s: &mut Line<'_>, name: &Text<'_>, value: Option<&Text<'_>>) {
    let _ = write!(s, "setoption name {name}");
    if let Some(v) = value {
        let _ = write!(s, " value {v}");
    }
}

/// USI's and UCI's ` moves <move>...` after a `position` (nothing for no
/// moves).
pub(crate) fn moves<M: WireMove>(s: &mut Line<'_>, moves: &[M]) {
    if let Some((first, rest)) = moves.split_first() {
        s.reserve(7 + moves.len() * (M::MAX_LEN + 1) + 1);
        s.push_str(" moves ");
        first.put(s);
        for m in rest {
            s.put(b" ");
            m.put(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(f: impl FnOnce(&mut Line<'_>)) -> String {
        let mut v = Vec::new();
        f(&mut Line(&mut v));
        String::from_utf8(v).unwrap()
    }

    /// Numbers are written as Rust's `{}` writes them (the reference the
    /// `fmt`-free writers stand in for): whole seconds as integers, and
    /// every other `f64` (fractions, -0, huge, not finite) through `fmt`.
    #[test]
    fn numbers_are_written_as_fmt_writes_them() {
        for x in [
            0.0,
            -0.0,
            1.0,
            120.0,
            0.5,
            1.5,
            -3.0,
            999_999_999_999_999.0,
            1e15,
            1e16,
            9_007_199_254_740_993.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            assert_eq!(written(|s| put_f64(s, x)), format!("{x}"), "{x:?}");
        }
        for n in [0u64, 7, 9, 10, 99, 100, 1000, 600_000, u64::MAX] {
            assert_eq!(written(|s| s.put_u64(n)), n.to_string());
        }
        for n in 0u8..=99 {
            assert_eq!(written(|s| put_small(s, n)), n.to_string());
        }
    }

    /// Every legal move of positions with castling, promotions (to each
    /// piece), en passant and drops is written as board-core's `Display`
    /// prints its UCI / USI text.
    #[test]
    fn moves_are_written_as_board_core_prints_them() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        ] {
            let p: board_core::chess::Position = fen.parse().unwrap();
            for m in p.legal_moves().iter() {
                assert_eq!(written(|s| m.put(s)), m.to_string());
            }
        }
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            // board-core's perft vectors: every drop and promotion.
            "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
            "l7l/5bS2/p1np5/6Sk1/4p2B1/PSpPPn1G1/1P1G2g1N/2+l6/L1KN1+r3 b R3Pgs7p 1",
        ] {
            let p = board_core::shogi::Position::from_sfen(sfen).unwrap();
            for m in p.legal_moves().iter() {
                assert_eq!(written(|s| m.put(s)), m.to_string());
            }
        }
    }
}
