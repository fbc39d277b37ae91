//! A recorded byte stream decoded message by message: a capture of one
//! direction of a connection, or a file of NUL-terminated frames
//! ([`spec::damexchange`](crate::spec::damexchange), *Transport (layer
//! 1)*), each message or error with its 0-based offset in the stream.
//! What `boardwire dxp decode` reads.
//!
//! ```
//! use damexchange::stream::StreamDecoder;
//! use damexchange::{Leniency, Message};
//!
//! let mut stream = StreamDecoder::new(Leniency::STRICT);
//! let mut seen = Vec::new();
//! // `B005Z` and `K1` (spec, *BACKREQ*, *BACKACC*), then `M00` cut off
//! // mid-frame; bytes may come in any pieces.
//! for chunk in [&b"B005Z\0K"[..], b"1\0M00\0M0"] {
//!     stream
//!         .feed(chunk, |offset, msg| {
//!             seen.push((offset, msg.map(|m| m.describe().to_string()).map_err(|e| e.to_string())));
//!             Ok::<(), ()>(())
//!         })
//!         .unwrap();
//! }
//! assert_eq!(seen[0], (0, Ok("BACKREQ: back to move 5, black to move".into())));
//! assert_eq!(seen[1], (6, Ok("BACKACC: refused".into())));
//! assert_eq!(seen[2].0, 9);
//! assert_eq!(
//!     seen[2].1.as_ref().unwrap_err(),
//!     "frame at stream offset 9: MOVE time at byte 3: missing"
//! );
//! let end = stream.finish().unwrap();
//! assert_eq!(
//!     end.to_string(),
//!     "frame at stream offset 13: stream ended after 2 bytes without the terminating NUL"
//! );
//! ```

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::decode::{Leniency, decode_with};
use crate::error::FrameError;
use crate::framer::{Frame, FrameBuffer, Framer};
use crate::message::{MAX_MESSAGE_LEN, Message};

/// A frame of a stream that is not a message: its stream offset (0-based,
/// the frame's first byte) and what is wrong ([`FrameError::Malformed`],
/// [`FrameError::Overlong`] — skipped up to the next NUL —, or
/// [`FrameError::Unterminated`] at the end of the stream).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamError {
    /// The frame's first byte in the stream.
    pub offset: u64,
    /// What is wrong.
    pub error: FrameError,
}

/// `frame at stream offset <offset>: <what>`: the decode error (message,
/// field, byte in the frame, problem), `longer than 127 bytes, skipped up
/// to the next NUL`, or `stream ended after <n> bytes without the
/// terminating NUL`.
impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "frame at stream offset {}: ", self.offset)?;
        match &self.error {
            FrameError::Malformed(e) => write!(f, "{e}"),
            FrameError::Overlong { max, .. } => {
                write!(f, "longer than {max} bytes, skipped up to the next NUL")
            }
            FrameError::Unterminated { len } => write!(
                f,
                "stream ended after {len} bytes without the terminating NUL"
            ),
            other => write!(f, "{other}"),
        }
    }
}

impl core::error::Error for StreamError {}

/// One direction of a recorded stream: bytes in ([`StreamDecoder::feed`],
/// any pieces), each message or [`StreamError`] out with its stream
/// offset; [`StreamDecoder::finish`] at the end of the stream. Frames are
/// cut by the crate's [`Framer`] (127 bytes at most, NUL excluded) over a
/// [`FrameBuffer`] of 64 KiB.
#[derive(Debug)]
pub struct StreamDecoder {
    input: FrameBuffer<Framer, Box<[u8]>>,
    taken: u64,
    leniency: Leniency,
}

impl StreamDecoder {
    /// A stream at offset 0, decoded with `leniency`.
    pub fn new(leniency: Leniency) -> StreamDecoder {
        StreamDecoder {
            input: FrameBuffer::with_capacity(Framer::default(), 1 << 16),
            taken: 0,
            leniency,
        }
    }

    /// The stream offset of the first byte not yet framed.
    pub fn position(&self) -> u64 {
        self.taken - self.input.buffered().len() as u64
    }

    /// Feeds `bytes`, calling `each(stream offset, message or error)` for
    /// every complete frame, in order.
    ///
    /// # Errors
    /// The first error `each` returns (the bytes after it are not framed).
    pub fn feed<E>(
        &mut self,
        mut bytes: &[u8],
        mut each: impl FnMut(u64, Result<Message<'_>, StreamError>) -> Result<(), E>,
    ) -> Result<(), E> {
        while !bytes.is_empty() {
            let n = self.input.push(bytes);
            (bytes, self.taken) = (&bytes[n..], self.taken + n as u64);
            // The frame (copied: the offset needs the buffer), its length
            // and the bytes of it taken from the stream so far: its NUL
            // counted, which an over-long frame's is when it was in the
            // buffer (the framer then skips nothing more of it).
            while let Some(frame) = self.input.next_frame() {
                let (frame, len, taken) = match frame {
                    Frame::Complete(f) => (Some(f.to_vec()), f.len(), f.len() + 1),
                    Frame::Overlong { len, .. } => {
                        let nul = !self.input.framer().is_discarding();
                        (None, len, len + usize::from(nul))
                    }
                };
                let offset = self.position() - taken as u64;
                let error = |error| StreamError { offset, error };
                let result = match &frame {
                    Some(f) => decode_with::<Message>(f, &self.leniency)
                        .map_err(|e| error(FrameError::Malformed(e))),
                    None => Err(error(FrameError::Overlong {
                        len,
                        max: MAX_MESSAGE_LEN,
                    })),
                };
                each(offset, result)?;
            }
        }
        Ok(())
    }

    /// At the end of the stream: the unterminated last frame, if any
    /// ([`FrameError::Unterminated`]); the decoder is empty after it.
    pub fn finish(&mut self) -> Option<StreamError> {
        let len = self.input.buffered().len();
        if len == 0 || self.input.framer().is_discarding() {
            return None;
        }
        let offset = self.position();
        self.input.clear();
        Some(StreamError {
            offset,
            error: FrameError::Unterminated { len },
        })
    }
}

/// The messages of a text with one message per line (LF or CR LF, no
/// NULs; empty lines skipped), each with the stream offset of its line:
/// `(offset, decoded)`.
pub fn lines<'a>(
    text: &'a [u8],
    leniency: &'a Leniency,
) -> impl Iterator<Item = (u64, Result<Message<'a>, crate::error::DecodeError>)> + 'a {
    let mut offset = 0u64;
    text.split_inclusive(|&b| b == b'\n')
        .filter_map(move |line| {
            let at = offset;
            offset += line.len() as u64;
            let msg = line.strip_suffix(b"\n").unwrap_or(line);
            let msg = msg.strip_suffix(b"\r").unwrap_or(msg);
            (!msg.is_empty()).then(|| (at, decode_with(msg, leniency)))
        })
}

/// The directions of one recorded connection (a capture's `C->S` and
/// `S->C`), each its own [`StreamDecoder`] (a frame may span chunks of
/// one direction, never two), by name, in the order they first appear.
#[derive(Debug)]
pub struct Directions {
    streams: Vec<(String, StreamDecoder)>,
    leniency: Leniency,
}

impl Directions {
    /// No direction yet; each will decode with `leniency`.
    pub fn new(leniency: Leniency) -> Directions {
        Directions {
            streams: Vec::new(),
            leniency,
        }
    }

    /// The decoder of direction `who`, a new one (offset 0) the first time
    /// or after its [`end`](Directions::end).
    pub fn get(&mut self, who: &str) -> &mut StreamDecoder {
        let k = match self.streams.iter().position(|(w, _)| w == who) {
            Some(k) => k,
            None => {
                let stream = StreamDecoder::new(self.leniency);
                self.streams.push((who.to_string(), stream));
                self.streams.len() - 1
            }
        };
        &mut self.streams[k].1
    }

    /// Direction `who` ended (its EOF): its unterminated last frame, if
    /// any.
    pub fn end(&mut self, who: &str) -> Option<StreamError> {
        let k = self.streams.iter().position(|(w, _)| w == who)?;
        self.streams.remove(k).1.finish()
    }

    /// The connection ended (the input ends, or a new connection starts):
    /// every direction's unterminated last frame, with the direction's
    /// name, in the order the directions first appeared; none is left.
    pub fn end_all(&mut self) -> Vec<(String, StreamError)> {
        self.streams
            .drain(..)
            .filter_map(|(who, mut s)| s.finish().map(|e| (who, e)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};
    use alloc::vec;
    use alloc::vec::Vec;

    /// Each frame's offset and reading or error.
    type Readings = Vec<(u64, Result<String, String>)>;

    fn all(chunks: &[&[u8]]) -> (Readings, Option<String>) {
        let mut s = StreamDecoder::new(Leniency::STRICT);
        let mut out = Vec::new();
        for c in chunks {
            s.feed(c, |o, r| {
                out.push((
                    o,
                    r.map(|m| m.describe().to_string())
                        .map_err(|e| e.to_string()),
                ));
                Ok::<(), ()>(())
            })
            .unwrap();
        }
        (out, s.finish().map(|e| e.to_string()))
    }

    /// spec/damexchange.md, *MOVE*: `M001205250422122320` (5x25 taking
    /// four), split over chunks; an over-long frame is reported once and
    /// the next frame decodes at its true offset.
    #[test]
    fn offsets_over_chunks_and_overlong_frames() {
        let (out, end) = all(&[b"M0012052504", b"22122320\0E00\0"]);
        assert_eq!(
            out,
            vec![
                (0, Ok("MOVE 5x25 taking 22,12,23,20, 12 s".to_string())),
                (20, Ok("GAMEEND: no reason, will play another game".into())),
            ]
        );
        assert_eq!(end, None);
        let mut long = vec![b'C'; 200];
        long.extend_from_slice(b"\0K1\0");
        let (out, end) = all(&[&long]);
        assert_eq!(out.len(), 2);
        assert!(
            out[0]
                .1
                .as_ref()
                .unwrap_err()
                .ends_with(": longer than 127 bytes, skipped up to the next NUL")
        );
        assert_eq!(out[1], (201, Ok("BACKACC: refused".into())));
        assert_eq!(end, None);
    }

    /// spec/damexchange.md, *BACKREQ* and *GAMEEND* examples, one a line;
    /// offsets are those of the lines.
    #[test]
    fn one_message_a_line() {
        let got: Vec<(u64, String)> = lines(b"B005Z\r\n\nE00\nM00", &Leniency::STRICT)
            .map(|(o, r)| {
                (
                    o,
                    r.map_or_else(|e| e.to_string(), |m| m.describe().to_string()),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (0, "BACKREQ: back to move 5, black to move".to_string()),
                (8, "GAMEEND: no reason, will play another game".into()),
                (12, "MOVE time at byte 3: missing".into()),
            ]
        );
    }

    /// Each direction is its own stream: a frame split over two chunks of
    /// one direction decodes, interleaved with the other's; an EOF ends
    /// one direction (its cut frame reported), `end_all` the rest.
    #[test]
    fn directions_are_separate_streams() {
        let mut d = Directions::new(Leniency::STRICT);
        let mut seen = Vec::new();
        let mut feed = |d: &mut Directions, who: &str, bytes: &[u8]| {
            d.get(who)
                .feed(bytes, |o, r| {
                    seen.push((who.to_string(), o, r.is_ok()));
                    Ok::<(), ()>(())
                })
                .unwrap();
        };
        feed(&mut d, "C->S", b"M00003228");
        feed(&mut d, "S->C", b"K1\0E0");
        feed(&mut d, "C->S", b"00\0");
        assert_eq!(
            seen,
            vec![("S->C".to_string(), 0, true), ("C->S".to_string(), 0, true)]
        );
        assert_eq!(d.end("C->S"), None);
        assert_eq!(d.get("C->S").position(), 0);
        let rest = d.end_all();
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].0, "S->C");
        assert_eq!(rest[0].1.offset, 3);
        assert!(d.end_all().is_empty());
    }
}
