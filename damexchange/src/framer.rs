//! Framing of the NUL-terminated DXP byte stream (spec, "Transport").
//!
//! Every message is followed by one `\0`. A read may hold several messages,
//! or part of one. The [`Framer`] scans each received byte once: frames that
//! lie wholly inside one read are handed out borrowed from it (zero-copy);
//! only the unterminated tail of a read is copied into a fixed 127-byte
//! buffer to be completed by the next read. A frame longer than 127 bytes is
//! reported once as [`FrameError::TooLong`] and its bytes are skipped up to the
//! next NUL, so the frames after it still decode.

use crate::decode::{Leniency, decode_with};
use crate::error::DecodeError;
use crate::message::{MAX_MESSAGE_LEN, Message};

/// A frame that could not be turned into a message.
///
/// `stream_offset` is the position in the whole byte stream (0 = first byte
/// received) of the frame's first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// More than 127 bytes without a NUL. Reported as soon as the 128th byte
    /// arrives; the frame's bytes are skipped up to and including the next NUL.
    #[error("frame at stream offset {stream_offset}: longer than {max} bytes, skipped up to the next NUL", max = MAX_MESSAGE_LEN)]
    TooLong {
        /// Offset of the frame's first byte in the stream.
        stream_offset: u64,
    },
    /// A complete frame that is not a valid message.
    #[error("frame at stream offset {stream_offset}: {error}")]
    Decode {
        /// Offset of the frame's first byte in the stream.
        stream_offset: u64,
        /// What is wrong with it.
        error: DecodeError,
    },
    /// The stream ended inside a frame (bytes without their NUL).
    #[error(
        "frame at stream offset {stream_offset}: stream ended after {len} bytes without the terminating NUL"
    )]
    Unterminated {
        /// Offset of the frame's first byte in the stream.
        stream_offset: u64,
        /// Bytes received of it.
        len: usize,
    },
}

impl FrameError {
    /// Offset of the faulty frame's first byte in the stream.
    pub fn stream_offset(&self) -> u64 {
        match *self {
            FrameError::TooLong { stream_offset }
            | FrameError::Decode { stream_offset, .. }
            | FrameError::Unterminated { stream_offset, .. } => stream_offset,
        }
    }
}

/// Splits a DXP byte stream into frames (messages without their NUL).
///
/// Feed each read with [`Framer::next_frame`] (or [`Framer::next_message`])
/// in a loop until it returns `None`; the slice given is advanced past what
/// was used. Memory is bounded: at most 127 bytes are buffered.
///
/// ```
/// use damexchange::{Framer, Message};
/// let mut framer = Framer::new();
/// let mut seen = Vec::new();
/// // Two messages in one read, then one split over two reads.
/// for read in [&b"AScan 3.1                        0\0M0000342900\0E0"[..], b"0\0"] {
///     let mut input = read;
///     while let Some(msg) = framer.next_message(&mut input) {
///         seen.push(msg.unwrap().kind());
///     }
/// }
/// assert_eq!(seen.len(), 3);
/// ```
#[derive(Clone, Debug)]
pub struct Framer {
    buf: [u8; MAX_MESSAGE_LEN],
    len: usize,
    /// Skipping the rest of an over-long frame.
    discarding: bool,
    /// Stream offset of the next byte to be received.
    position: u64,
    leniency: Leniency,
}

impl Default for Framer {
    fn default() -> Framer {
        Framer::new()
    }
}

impl Framer {
    /// A framer whose [`Framer::next_message`] decodes strictly.
    pub const fn new() -> Framer {
        Framer::with_leniency(Leniency::STRICT)
    }

    /// A framer whose [`Framer::next_message`] decodes with `leniency`.
    pub const fn with_leniency(leniency: Leniency) -> Framer {
        Framer {
            buf: [0; MAX_MESSAGE_LEN],
            len: 0,
            discarding: false,
            position: 0,
            leniency,
        }
    }

    /// The leniency used by [`Framer::next_message`].
    pub fn leniency(&self) -> &Leniency {
        &self.leniency
    }

    /// Stream offset of the next byte to be received (bytes consumed so far).
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Bytes of an incomplete frame held back (0..=127).
    pub fn buffered(&self) -> usize {
        self.len
    }

    /// `true` while the rest of an over-long frame is being skipped.
    pub fn is_discarding(&self) -> bool {
        self.discarding
    }

    /// The next complete frame (message bytes, without the NUL), taken from
    /// the held-back partial frame and `input`; `input` is advanced past the
    /// bytes used. `None` when `input` is used up without completing a frame
    /// (its tail is kept for the next call).
    ///
    /// # Errors
    /// An item `Err(FrameError::TooLong)` for a frame over 127 bytes; it is
    /// reported once and skipped.
    pub fn next_frame<'s, 'd: 's>(
        &'s mut self,
        input: &mut &'d [u8],
    ) -> Option<Result<&'s [u8], FrameError>> {
        self.next_frame_at(input).map(|r| r.map(|(_, frame)| frame))
    }

    /// [`Framer::next_frame`] with the stream offset of the frame's first byte.
    fn next_frame_at<'s, 'd: 's>(
        &'s mut self,
        input: &mut &'d [u8],
    ) -> Option<Result<(u64, &'s [u8]), FrameError>> {
        loop {
            if input.is_empty() {
                return None;
            }
            let data: &'d [u8] = input;
            let nul = data.iter().position(|&b| b == 0);
            if self.discarding {
                match nul {
                    Some(i) => {
                        self.consume(input, i + 1);
                        self.discarding = false;
                        continue;
                    }
                    None => {
                        self.consume(input, data.len());
                        return None;
                    }
                }
            }
            let frame_start = self.position - self.len as u64;
            match nul {
                Some(i) if self.len == 0 => {
                    self.consume(input, i + 1);
                    if i > MAX_MESSAGE_LEN {
                        return Some(Err(FrameError::TooLong {
                            stream_offset: frame_start,
                        }));
                    }
                    return Some(Ok((frame_start, &data[..i])));
                }
                Some(i) => {
                    self.consume(input, i + 1);
                    let len = self.len;
                    self.len = 0;
                    if len + i > MAX_MESSAGE_LEN {
                        return Some(Err(FrameError::TooLong {
                            stream_offset: frame_start,
                        }));
                    }
                    self.buf[len..len + i].copy_from_slice(&data[..i]);
                    return Some(Ok((frame_start, &self.buf[..len + i])));
                }
                None => {
                    let n = data.len();
                    if self.len + n > MAX_MESSAGE_LEN {
                        self.consume(input, n);
                        self.len = 0;
                        self.discarding = true;
                        return Some(Err(FrameError::TooLong {
                            stream_offset: frame_start,
                        }));
                    }
                    self.buf[self.len..self.len + n].copy_from_slice(data);
                    self.len += n;
                    self.consume(input, n);
                    return None;
                }
            }
        }
    }

    /// Like [`Framer::next_frame`], and decodes the frame with the framer's
    /// leniency. The message borrows from the frame.
    ///
    /// # Errors
    /// An item `Err(FrameError)` for an over-long frame or one that does not
    /// decode; the frames after it are unaffected.
    pub fn next_message<'s, 'd: 's>(
        &'s mut self,
        input: &mut &'d [u8],
    ) -> Option<Result<Message<'s>, FrameError>> {
        let leniency = self.leniency;
        let (start, frame) = match self.next_frame_at(input)? {
            Ok(found) => found,
            Err(e) => return Some(Err(e)),
        };
        Some(
            decode_with(frame, &leniency).map_err(|error| FrameError::Decode {
                stream_offset: start,
                error,
            }),
        )
    }

    /// Call at end of stream: reports bytes of an unterminated last frame
    /// (and forgets them). `None` when the stream ended cleanly.
    pub fn finish(&mut self) -> Option<FrameError> {
        let err = (self.len > 0).then(|| FrameError::Unterminated {
            stream_offset: self.position - self.len as u64,
            len: self.len,
        });
        self.len = 0;
        self.discarding = false;
        err
    }

    #[inline]
    fn consume(&mut self, input: &mut &[u8], n: usize) {
        *input = &input[n..];
        self.position += n as u64;
    }
}
