//! Formatting into a byte buffer without `std::io`: `write!(out, ...)` on a
//! `Vec<u8>` when [`Sink`] is in scope. Writing into a `Vec` cannot fail, so
//! every `fmt::Result` these return is `Ok` (the encoders are infallible).

use alloc::vec::Vec;
use core::fmt;

/// `write_fmt` / `write_all` for `Vec<u8>`, the two methods the encoders use.
pub(crate) trait Sink {
    /// Appends formatted text (the `write!` macro calls this).
    fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> fmt::Result;
    /// Appends raw bytes.
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
    fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> fmt::Result {
        fmt::write(&mut Adapter(self), args)
    }

    fn write_all(&mut self, bytes: &[u8]) -> fmt::Result {
        self.extend_from_slice(bytes);
        Ok(())
    }
}
