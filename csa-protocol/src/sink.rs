//! Writing into a byte buffer without `std::io` and without `fmt`: the
//! encoders append bytes with [`Sink`] (`Vec<u8>` implements it). Writing
//! into a `Vec` cannot fail, so the encoders are infallible.

use alloc::vec::Vec;
use core::fmt;

/// Byte writers for `Vec<u8>`, the methods the encoders use.
pub(crate) trait Sink {
    /// Appends raw bytes.
    fn put(&mut self, bytes: &[u8]);
    /// Appends text.
    fn put_str(&mut self, s: &str);
    /// Appends `n` in decimal, without leading zeros.
    fn put_u64(&mut self, n: u64);
    /// Appends `n` in decimal, a `-` before a negative number.
    fn put_i64(&mut self, n: i64);
    /// Appends formatted text (the `write!` macro calls this; for what is
    /// written rarely, such as records).
    fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> fmt::Result;
    /// Appends raw bytes (as [`put`](Self::put)), for `write!` chains.
    fn write_all(&mut self, bytes: &[u8]) -> fmt::Result;
}

struct Adapter<'a>(&'a mut Vec<u8>);

impl fmt::Write for Adapter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

impl Sink for Vec<u8> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }

    #[inline(always)]
    fn put_str(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }

    #[inline]
    fn put_u64(&mut self, mut n: u64) {
        if n < 10 {
            self.push(b'0' + n as u8);
            return;
        }
        let mut buf = [0u8; 20];
        let mut i = buf.len();
        loop {
            i -= 1;
            buf[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.extend_from_slice(&buf[i..]);
    }

    fn put_i64(&mut self, n: i64) {
        if n < 0 {
            self.push(b'-');
        }
        self.put_u64(n.unsigned_abs());
    }

    fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> fmt::Result {
        fmt::write(&mut Adapter(self), args)
    }

    fn write_all(&mut self, bytes: &[u8]) -> fmt::Result {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Sink;
    use alloc::format;
    use alloc::vec::Vec;

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
            assert_eq!(out, format!("{n}").into_bytes());
        }
        for n in [0i64, 1, -1, 9, -9, 10, -10, i64::MAX, i64::MIN, -12_345] {
            let mut out = Vec::new();
            out.put_i64(n);
            assert_eq!(out, format!("{n}").into_bytes());
        }
    }
}
