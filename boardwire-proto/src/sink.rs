//! Writing a message's text as bytes, without `std::io` and without `fmt`:
//! the family's encoders append ASCII pieces (keywords, squares, numbers)
//! to a [`Sink`]. One writer function per message serves both the encoder
//! (a `Vec<u8>`, the fast path: no formatting machinery, no allocation of
//! its own) and `Display` ([`FmtSink`], through [`fmt_with`]), so the two
//! cannot disagree.
//!
//! ```
//! use boardwire_proto::sink::{Sink, fmt_with};
//!
//! fn put_clock(s: &mut impl Sink, seconds: u64) {
//!     s.put_str("T");
//!     s.put_u64(seconds);
//! }
//!
//! let mut out = Vec::new();
//! put_clock(&mut out, 1_800);
//! assert_eq!(out, b"T1800");
//!
//! struct Clock(u64);
//! impl core::fmt::Display for Clock {
//!     fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
//!         fmt_with(f, |s| put_clock(s, self.0))
//!     }
//! }
//! assert_eq!(Clock(7).to_string(), "T7");
//! ```

use core::fmt;

/// Where an encoder's bytes go. Only [`put`](Self::put) is required; the
/// numbers are written through it in decimal, as `{n}` formats them.
pub trait Sink {
    /// Appends `bytes`. The family's encoders pass ASCII, but for a line's
    /// own bytes kept from the wire (an unrecognised line written back).
    fn put(&mut self, bytes: &[u8]);

    /// Appends the bytes of `text`.
    #[inline(always)]
    fn put_str(&mut self, text: &str) {
        self.put(text.as_bytes());
    }

    /// Appends `n` in decimal without leading zeros (`0`, `7`, `1800`):
    /// the bytes `format!("{n}")` gives, for every `u64`.
    #[inline]
    fn put_u64(&mut self, n: u64) {
        if n < 10 {
            self.put(&[b'0' + n as u8]);
            return;
        }
        let mut buf = [0u8; 20];
        let mut i = buf.len();
        let mut n = n;
        while n > 0 {
            i -= 1;
            buf[i] = b'0' + (n % 10) as u8;
            n /= 10;
        }
        self.put(&buf[i..]);
    }

    /// Appends `n` in decimal, `-` before a negative number: the bytes
    /// `format!("{n}")` gives, for every `i64` (`i64::MIN` included).
    #[inline]
    fn put_i64(&mut self, n: i64) {
        if n < 0 {
            self.put(b"-");
        }
        self.put_u64(n.unsigned_abs());
    }
}

#[cfg(feature = "alloc")]
impl Sink for alloc::vec::Vec<u8> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A [`Sink`] over a [`fmt::Formatter`], for `Display`: what
/// [`fmt_with`] hands its writer. Bytes that are not UTF-8 are a
/// [`fmt::Error`]; after the first error nothing more is written.
pub struct FmtSink<'a, 'b> {
    f: &'a mut fmt::Formatter<'b>,
    result: fmt::Result,
}

impl Sink for FmtSink<'_, '_> {
    fn put(&mut self, bytes: &[u8]) {
        if self.result.is_ok() {
            self.result = match core::str::from_utf8(bytes) {
                Ok(text) => self.f.write_str(text),
                Err(_) => Err(fmt::Error),
            };
        }
    }
}

/// `Display` through a [`Sink`] writer: runs `write` on a [`FmtSink`] over
/// `f`; `Ok` when everything was written, else the first error.
pub fn fmt_with(
    f: &mut fmt::Formatter<'_>,
    write: impl FnOnce(&mut FmtSink<'_, '_>),
) -> fmt::Result {
    let mut s = FmtSink { f, result: Ok(()) };
    write(&mut s);
    s.result
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::{Sink, fmt_with};
    use alloc::format;
    use alloc::string::ToString;
    use alloc::vec::Vec;
    use core::fmt;

    /// The decimal writers write what `fmt` writes, at the edges of every
    /// digit count and of the types.
    #[test]
    fn numbers_as_fmt_writes_them() {
        let mut edges = alloc::vec![0u64, 1, 9, u64::MAX, u64::MAX - 1];
        let mut p = 1u64;
        while let Some(q) = p.checked_mul(10) {
            edges.extend([p - 1, p, p + 1, q - 1]);
            p = q;
        }
        for n in edges {
            let mut out = Vec::new();
            out.put_u64(n);
            assert_eq!(out, format!("{n}").into_bytes(), "{n}");
        }
        for n in [0i64, 1, -1, 9, -9, 10, -10, i64::MAX, i64::MIN, -12_345] {
            let mut out = Vec::new();
            out.put_i64(n);
            assert_eq!(out, format!("{n}").into_bytes(), "{n}");
        }
        let mut out = Vec::new();
        out.put_str("Ｔ");
        assert_eq!(out, "Ｔ".as_bytes());
    }

    struct Pieces(&'static [&'static [u8]]);

    impl fmt::Display for Pieces {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            fmt_with(f, |s| {
                for piece in self.0 {
                    s.put(piece);
                }
            })
        }
    }

    /// `Display` through the sink writes every piece; bytes that are not
    /// UTF-8 fail the formatting, and nothing after them is written.
    #[test]
    fn display_through_the_sink() {
        assert_eq!(Pieces(&[b"+7776", b"FU"]).to_string(), "+7776FU");
        let mut out = alloc::string::String::new();
        let r = fmt::write(
            &mut out,
            format_args!("{}", Pieces(&[b"ok", &[0xFF], b"after"])),
        );
        assert!(r.is_err());
        assert_eq!(out, "ok");
    }
}
