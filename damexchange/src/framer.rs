//! Framing of the NUL-terminated DXP byte stream ([`spec::damexchange`](crate::spec::damexchange),
//! *Transport (layer 1)*): [`Framer`] and [`Status`].
//!
//! Every message is followed by one `\0`. A read may hold several messages,
//! or part of one. The framer works over a buffer the caller owns (the
//! httparse shape): it hands out each complete frame borrowed from that
//! buffer (zero-copy), remembers how far it has scanned so that no byte is
//! looked at twice, and enforces a cap: a frame longer than the cap is
//! reported once, as soon as more than the cap has arrived without a NUL,
//! and skipped up to and including its NUL, so the frames after it still
//! decode.

use crate::message::MAX_MESSAGE_LEN;

/// What [`Framer::decode`] found at the front of the buffer: the family's
/// one `Status` (`Complete { frame, consumed }`, `Partial { consumed }`,
/// `Overlong { len, consumed }`), re-exported from `boardwire-proto`.
///
/// After every call the caller drops `consumed` bytes from the front of its
/// buffer. Call again while `consumed` is non-zero; `Partial { consumed: 0 }`
/// means "read more bytes, append them, call again". A
/// [`FrameBuffer`] does all of this.
pub use boardwire_proto::Status;

/// A capped buffer the caller owns, with a framer: bytes in, frames out
/// (the family's one "buffer + framer" loop, from `boardwire-proto`).
/// `FrameBuffer::new(Framer::default(), [0u8; 128])` holds a whole DXP
/// message on the stack.
pub use boardwire_proto::framer::{Frame, FrameBuffer};

/// Splits a DXP byte stream into frames (messages without their NUL), over
/// a buffer the caller owns.
///
/// `Framer::new(max_frame_len)`: the cap in bytes, the NUL not counted;
/// [`Framer::default`] is the spec's 127 (128 with the NUL).
///
/// ```
/// use damexchange::framer::{Framer, Status};
/// let mut framer = Framer::default();
/// let mut buf = b"E00\0M00".to_vec();
/// assert_eq!(framer.decode(&buf), Status::Complete { frame: b"E00", consumed: 4 });
/// buf.drain(..4);
/// assert_eq!(framer.decode(&buf), Status::Partial { consumed: 0 });
/// buf.extend_from_slice(b"12061100\0");
/// assert_eq!(framer.decode(&buf), Status::Complete { frame: b"M0012061100", consumed: 12 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Framer {
    max: usize,
    /// Bytes at the front of the buffer already known to hold no NUL.
    scanned: usize,
    /// Skipping the rest of an over-long frame.
    discarding: bool,
}

/// The default cap of [`Framer::default`], bytes, the NUL not counted: the
/// spec's longest message, [`MAX_MESSAGE_LEN`] (127;
/// [`spec::damexchange`](crate::spec::damexchange), *Transport (layer 1)*).
pub const DEFAULT_MAX_LEN: usize = MAX_MESSAGE_LEN;

impl Default for Framer {
    /// A framer with the spec's cap, [`DEFAULT_MAX_LEN`] (127 bytes, 128
    /// with the NUL).
    fn default() -> Framer {
        Framer::new(DEFAULT_MAX_LEN)
    }
}

impl Framer {
    /// A framer whose frames have at most `max_frame_len` bytes (the NUL
    /// not counted).
    pub const fn new(max_frame_len: usize) -> Framer {
        Framer {
            max: max_frame_len,
            scanned: 0,
            discarding: false,
        }
    }

    /// The cap, bytes without the NUL.
    pub const fn max_frame_len(&self) -> usize {
        self.max
    }

    /// `true` while the rest of an over-long frame is being skipped.
    pub const fn is_discarding(&self) -> bool {
        self.discarding
    }

    /// Forgets what was scanned and any over-long frame being skipped (a new
    /// stream).
    pub fn reset(&mut self) {
        self.scanned = 0;
        self.discarding = false;
    }

    /// Looks for the next frame at the front of `buf` (the bytes not yet
    /// consumed, with new bytes appended). See [`Status`] for the result.
    pub fn decode<'b>(&mut self, buf: &'b [u8]) -> Status<'b> {
        // The caller may hand in fewer bytes than before (a new buffer):
        // never trust more than it holds.
        let from = self.scanned.min(buf.len());
        if self.discarding {
            return match memchr_nul(&buf[from..]) {
                Some(i) => {
                    self.discarding = false;
                    self.scanned = 0;
                    Status::Partial {
                        consumed: from + i + 1,
                    }
                }
                None => {
                    self.scanned = 0;
                    Status::Partial {
                        consumed: buf.len(),
                    }
                }
            };
        }
        // Look no further than one byte past the cap.
        let limit = buf.len().min(self.max.saturating_add(1));
        match memchr_nul(&buf[from.min(limit)..limit]) {
            Some(i) => {
                let at = from.min(limit) + i;
                self.scanned = 0;
                Status::Complete {
                    frame: &buf[..at],
                    consumed: at + 1,
                }
            }
            None if buf.len() > self.max => {
                // Over the cap: the frame is reported now; its NUL may
                // already be in the buffer.
                self.scanned = 0;
                match memchr_nul(&buf[limit..]) {
                    Some(i) => Status::Overlong {
                        len: limit + i,
                        consumed: limit + i + 1,
                    },
                    None => {
                        self.discarding = true;
                        Status::Overlong {
                            len: buf.len(),
                            consumed: buf.len(),
                        }
                    }
                }
            }
            None => {
                self.scanned = buf.len();
                Status::Partial { consumed: 0 }
            }
        }
    }
}

/// The family's framer contract: `Framer::new(cap)`, `decode`, the spec's
/// cap (127), a one-byte terminator, and bytes left without their NUL when
/// the stream ends are an error ([`FrameError::Unterminated`](crate::error::FrameError)).
impl boardwire_proto::Framer for Framer {
    const DEFAULT_MAX_LEN: usize = DEFAULT_MAX_LEN;
    const MAX_TERMINATOR_LEN: usize = 1;
    const LAST_FRAME_NEEDS_TERMINATOR: bool = true;

    fn new(max_frame_len: usize) -> Framer {
        Framer::new(max_frame_len)
    }

    fn max_frame_len(&self) -> usize {
        self.max
    }

    fn decode<'b>(&mut self, buf: &'b [u8]) -> Status<'b> {
        Framer::decode(self, buf)
    }

    fn reset(&mut self) {
        Framer::reset(self);
    }
}

#[inline]
fn memchr_nul(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == 0)
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::*;

    /// Runs a stream through the framer in chunks, as a reader would.
    fn frames(stream: &[u8], chunk: usize, max: usize) -> Vec<Result<Vec<u8>, usize>> {
        let mut framer = Framer::new(max);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        for part in stream.chunks(chunk) {
            buf.extend_from_slice(part);
            loop {
                let (consumed, item) = match framer.decode(&buf) {
                    Status::Complete { frame, consumed } => (consumed, Some(Ok(frame.to_vec()))),
                    Status::Partial { consumed } => (consumed, None),
                    Status::Overlong { len, consumed } => (consumed, Some(Err(len))),
                };
                out.extend(item);
                buf.drain(..consumed);
                if consumed == 0 {
                    break;
                }
            }
            assert!(buf.len() <= max + 1, "buffer capped");
        }
        out
    }

    #[test]
    fn every_chunking_gives_the_same_frames() {
        let stream = [&b"E00\0\0K1\0"[..], &[b'x'; 20], b"\0M0012061100\0"].concat();
        for chunk in 1..=stream.len() {
            let got = frames(&stream, chunk, 12);
            assert_eq!(got.len(), 5, "chunk {chunk}: {got:?}");
            assert_eq!(got[0], Ok(b"E00".to_vec()));
            assert_eq!(got[1], Ok(Vec::new()));
            assert_eq!(got[2], Ok(b"K1".to_vec()));
            // Reported once, with the bytes seen so far (13 ..= 20).
            assert!(matches!(got[3], Err(13..=20)), "chunk {chunk}: {got:?}");
            assert_eq!(got[4], Ok(b"M0012061100".to_vec()));
        }
    }

    #[test]
    fn exactly_the_cap_is_a_frame() {
        let mut framer = Framer::default();
        let mut frame = [b'C'; 128];
        frame[127] = 0;
        assert!(matches!(
            framer.decode(&frame),
            Status::Complete { consumed: 128, .. }
        ));
        let long = [b'C'; 128];
        assert_eq!(
            framer.decode(&long),
            Status::Overlong {
                len: 128,
                consumed: 128
            }
        );
        assert!(framer.is_discarding());
        assert_eq!(framer.decode(b"CC\0K1\0"), Status::Partial { consumed: 3 });
        assert_eq!(
            framer.decode(b"K1\0"),
            Status::Complete {
                frame: b"K1",
                consumed: 3
            }
        );
    }
}
