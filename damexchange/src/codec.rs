//! `tokio-util` codec for `Framed` DXP streams (feature `tokio`).
//!
//! Since an error returned by a `Decoder` ends a `FramedRead` stream, a
//! malformed or over-long frame is an *item*: the stream yields
//! `Ok(Err(FrameError))` for it and goes on with the next frame. Only an I/O
//! error ends the stream.

use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::decode::{Leniency, decode_with};
use crate::framer::FrameError;
use crate::message::{MAX_MESSAGE_LEN, Message};

/// Decoder/encoder of NUL-terminated DXP messages for `tokio_util::codec::Framed`.
///
/// Decoding scans each received byte once (it remembers how far it looked
/// for the NUL) and never buffers more than 127 bytes of one frame: a longer
/// frame is reported once and skipped up to its NUL.
///
/// ```
/// use bytes::BytesMut;
/// use damexchange::{DxpCodec, Message};
/// use tokio_util::codec::Decoder;
/// let mut codec = DxpCodec::new();
/// let mut buf = BytesMut::from(&b"Xhello\0K1\0"[..]);
/// assert!(codec.decode(&mut buf).unwrap().unwrap().is_err()); // reported, skipped
/// assert!(matches!(codec.decode(&mut buf).unwrap().unwrap(), Ok(Message::BackAcc(_))));
/// ```
#[derive(Clone, Debug, Default)]
pub struct DxpCodec {
    scanned: usize,
    discarding: bool,
    position: u64,
    leniency: Leniency,
}

impl DxpCodec {
    /// A codec decoding strictly.
    pub fn new() -> DxpCodec {
        DxpCodec::default()
    }

    /// A codec decoding with `leniency`.
    pub fn with_leniency(leniency: Leniency) -> DxpCodec {
        DxpCodec {
            leniency,
            ..DxpCodec::default()
        }
    }

    /// Stream offset of the next byte to be decoded.
    pub fn position(&self) -> u64 {
        self.position
    }

    fn skip(&mut self, buf: &mut BytesMut, n: usize) {
        buf.advance(n);
        self.position += n as u64;
        self.scanned = 0;
    }
}

impl Decoder for DxpCodec {
    type Item = Result<Message<'static>, FrameError>;
    type Error = std::io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> std::io::Result<Option<Self::Item>> {
        loop {
            let from = self.scanned.min(buf.len());
            let nul = buf[from..].iter().position(|&b| b == 0).map(|i| i + from);
            if self.discarding {
                match nul {
                    Some(i) => {
                        self.skip(buf, i + 1);
                        self.discarding = false;
                        continue;
                    }
                    None => {
                        let n = buf.len();
                        self.skip(buf, n);
                        return Ok(None);
                    }
                }
            }
            let start = self.position;
            return Ok(match nul {
                Some(i) => {
                    let frame = buf.split_to(i + 1);
                    self.position += (i + 1) as u64;
                    self.scanned = 0;
                    if i > MAX_MESSAGE_LEN {
                        Some(Err(FrameError::TooLong {
                            stream_offset: start,
                        }))
                    } else {
                        Some(
                            decode_with(&frame[..i], &self.leniency)
                                .map(Message::into_owned)
                                .map_err(|error| FrameError::Decode {
                                    stream_offset: start,
                                    error,
                                }),
                        )
                    }
                }
                None if buf.len() > MAX_MESSAGE_LEN => {
                    let n = buf.len();
                    self.skip(buf, n);
                    self.discarding = true;
                    Some(Err(FrameError::TooLong {
                        stream_offset: start,
                    }))
                }
                None => {
                    self.scanned = buf.len();
                    None
                }
            });
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> std::io::Result<Option<Self::Item>> {
        if let Some(item) = self.decode(buf)? {
            return Ok(Some(item));
        }
        if buf.is_empty() {
            return Ok(None);
        }
        let (start, len) = (self.position, buf.len());
        self.skip(buf, len);
        Ok(Some(Err(FrameError::Unterminated {
            stream_offset: start,
            len,
        })))
    }
}

impl Encoder<&Message<'_>> for DxpCodec {
    type Error = std::io::Error;

    /// Appends the message and its NUL. Never fails.
    fn encode(&mut self, item: &Message<'_>, dst: &mut BytesMut) -> std::io::Result<()> {
        dst.extend_from_slice(item.encode().as_frame());
        Ok(())
    }
}

impl Encoder<Message<'_>> for DxpCodec {
    type Error = std::io::Error;

    /// Appends the message and its NUL. Never fails.
    fn encode(&mut self, item: Message<'_>, dst: &mut BytesMut) -> std::io::Result<()> {
        dst.extend_from_slice(item.encode().as_frame());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use super::*;
    use crate::decode::decode;

    /// Runs a stream through the codec in chunks of `chunk` bytes, as a
    /// `FramedRead` would: decode until `None`, then read more; at the end
    /// `decode_eof`.
    fn run(stream: &[u8], chunk: usize) -> Vec<Result<String, FrameError>> {
        let mut codec = DxpCodec::new();
        let mut buf = BytesMut::new();
        let mut items = Vec::new();
        for part in stream.chunks(chunk) {
            buf.extend_from_slice(part);
            while let Some(item) = codec.decode(&mut buf).unwrap() {
                items.push(item.map(|m| m.to_string()));
            }
            assert!(buf.len() <= MAX_MESSAGE_LEN, "buffer capped");
        }
        while let Some(item) = codec.decode_eof(&mut buf).unwrap() {
            items.push(item.map(|m| m.to_string()));
        }
        assert_eq!(codec.position(), stream.len() as u64);
        items
    }

    #[test]
    fn malformed_frames_are_items_and_the_stream_goes_on() {
        let stream = [
            &b"R01PyTester                        Z005000A\0"[..],
            b"M00003228\0",
            &[b'x'; 300],
            b"\0M0012061100\0E0",
        ]
        .concat();
        for chunk in 1..=stream.len() {
            let items = run(&stream, chunk);
            assert_eq!(items.len(), 5, "chunk {chunk}: {items:?}");
            assert_eq!(
                items[0].as_deref(),
                Ok("R01PyTester                        Z005000A")
            );
            assert_eq!(
                items[1],
                Err(FrameError::Decode {
                    stream_offset: 44,
                    error: decode(b"M00003228").unwrap_err()
                })
            );
            assert_eq!(items[2], Err(FrameError::TooLong { stream_offset: 54 }));
            assert_eq!(items[3].as_deref(), Ok("M0012061100"));
            assert_eq!(
                items[4],
                Err(FrameError::Unterminated {
                    stream_offset: 367,
                    len: 2
                })
            );
        }
    }

    #[test]
    fn encoder_appends_nul() {
        let mut codec = DxpCodec::new();
        let mut dst = BytesMut::new();
        let msg = decode(b"B005Z").unwrap();
        codec.encode(&msg, &mut dst).unwrap();
        codec.encode(msg, &mut dst).unwrap();
        assert_eq!(&dst[..], b"B005Z\0B005Z\0");
    }
}
