//! Writing into a byte buffer without `std::io` and without `fmt`: the
//! encoders append bytes with the family's [`Sink`] (`Vec<u8>` implements it). Writing
//! into a `Vec` cannot fail, so the encoders are infallible.

use alloc::vec::Vec;
use core::fmt;

pub(crate) use boardwire_proto::sink::Sink;

/// `write!` into a `Vec<u8>` (for what is written rarely, such as
/// records), beside the family's [`Sink`] byte writers.
pub(crate) trait SinkFmt {
    /// Appends formatted text (the `write!` macro calls this).
    fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> fmt::Result;
    /// Appends raw bytes (as [`Sink::put`]), for `write!` chains.
    fn write_all(&mut self, bytes: &[u8]) -> fmt::Result;
}

struct Adapter<'a>(&'a mut Vec<u8>);

impl fmt::Write for Adapter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

impl SinkFmt for Vec<u8> {
    fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> fmt::Result {
        fmt::write(&mut Adapter(self), args)
    }

    fn write_all(&mut self, bytes: &[u8]) -> fmt::Result {
        self.extend_from_slice(bytes);
        Ok(())
    }
}
