//! `tokio-util` codec for `Framed` DXP streams (feature `tokio`): a thin
//! adapter over [`Framer`] and [`decode_with`].
//!
//! Since an error returned by a `Decoder` ends a `FramedRead` stream, a
//! malformed or over-long frame is an *item*: the stream yields
//! `Ok(Err(FrameError))` for it and goes on with the next frame. Only an I/O
//! error ends the stream.

use boardwire_proto::framer::{decode_rest, frame_and_decode};
use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::decode::{Leniency, decode_with};
use crate::error::FrameError;
use crate::framer::Framer;
use crate::message::{MAX_MESSAGE_LEN, Message};
use crate::session::Transmit;

/// Decoder/encoder of NUL-terminated DXP messages for
/// `tokio_util::codec::Framed` ([`spec::damexchange`](crate::spec::damexchange), *Transport
/// (layer 1)*).
///
/// Decoding uses the [`Framer`]: each received byte is scanned once, and
/// at most `max_frame_len + 1` bytes of one frame are buffered; a longer
/// frame is reported once ([`FrameError::Overlong`]) and skipped up to its
/// NUL. Encoding takes a [`Message`] or a session's [`Transmit`].
///
/// ```
/// use bytes::BytesMut;
/// use damexchange::codec::DxpCodec;
/// use damexchange::Message;
/// use tokio_util::codec::Decoder;
/// let mut codec = DxpCodec::default();
/// let mut buf = BytesMut::from(&b"M00\0K1\0"[..]);
/// assert!(codec.decode(&mut buf).unwrap().unwrap().is_err()); // reported, skipped
/// assert!(matches!(codec.decode(&mut buf).unwrap().unwrap(), Ok(Message::BackAcc(_))));
/// ```
#[derive(Clone, Debug)]
pub struct DxpCodec {
    framer: Framer,
    leniency: Leniency,
}

impl Default for DxpCodec {
    /// The spec's cap, 127 bytes per frame; strict decoding.
    fn default() -> DxpCodec {
        DxpCodec::new(MAX_MESSAGE_LEN)
    }
}

impl DxpCodec {
    /// A codec with frames of at most `max_frame_len` bytes (the NUL not
    /// counted), decoding strictly.
    pub fn new(max_frame_len: usize) -> DxpCodec {
        DxpCodec {
            framer: Framer::new(max_frame_len),
            leniency: Leniency::STRICT,
        }
    }

    /// The same codec decoding with `leniency`.
    pub fn with_leniency(mut self, leniency: Leniency) -> DxpCodec {
        self.leniency = leniency;
        self
    }
}

impl Decoder for DxpCodec {
    type Item = Result<Message<'static>, FrameError>;
    type Error = std::io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> std::io::Result<Option<Self::Item>> {
        let (consumed, item) = frame_and_decode(&mut self.framer, buf, |frame| {
            decode_with::<Message>(frame, &self.leniency).map(Message::into_owned)
        });
        buf.advance(consumed);
        Ok(item)
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> std::io::Result<Option<Self::Item>> {
        if let Some(item) = self.decode(buf)? {
            return Ok(Some(item));
        }
        let item = decode_rest(&mut self.framer, buf, |frame| {
            decode_with::<Message>(frame, &self.leniency).map(Message::into_owned)
        });
        buf.clear();
        Ok(item)
    }
}

impl Encoder<&Message<'_>> for DxpCodec {
    type Error = std::io::Error;

    /// Appends the message and its NUL. Never fails.
    fn encode(&mut self, item: &Message<'_>, dst: &mut BytesMut) -> std::io::Result<()> {
        dst.extend_from_slice(item.encoded().as_frame());
        Ok(())
    }
}

impl Encoder<Message<'_>> for DxpCodec {
    type Error = std::io::Error;

    /// Appends the message and its NUL. Never fails.
    fn encode(&mut self, item: Message<'_>, dst: &mut BytesMut) -> std::io::Result<()> {
        self.encode(&item, dst)
    }
}

impl Encoder<Transmit> for DxpCodec {
    type Error = std::io::Error;

    /// Appends a session's frame (NUL included). Never fails.
    fn encode(&mut self, item: Transmit, dst: &mut BytesMut) -> std::io::Result<()> {
        dst.extend_from_slice(item.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use super::*;
    use crate::decode::decode;
    use crate::error::{DecodeError, Field, MessageKind, Problem};

    /// Runs a stream through the codec in chunks of `chunk` bytes, as a
    /// `FramedRead` would: decode until `None`, then read more; at the end
    /// `decode_eof`.
    fn run(stream: &[u8], chunk: usize) -> Vec<Result<String, FrameError>> {
        let mut codec = DxpCodec::default();
        let mut buf = BytesMut::new();
        let mut items = Vec::new();
        for part in stream.chunks(chunk) {
            buf.extend_from_slice(part);
            while let Some(item) = codec.decode(&mut buf).unwrap() {
                items.push(item.map(|m| m.encoded().as_str().to_string()));
            }
            assert!(buf.len() <= MAX_MESSAGE_LEN + 1, "buffer capped");
        }
        while let Some(item) = codec.decode_eof(&mut buf).unwrap() {
            items.push(item.map(|m| m.encoded().as_str().to_string()));
        }
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
                Err(FrameError::Malformed(DecodeError::new(
                    MessageKind::Move,
                    Field::CaptureCount,
                    9,
                    Problem::Missing
                )))
            );
            assert!(
                matches!(
                    items[2],
                    Err(FrameError::Overlong {
                        len: 128..=300,
                        max: 127
                    })
                ),
                "chunk {chunk}: {items:?}"
            );
            assert_eq!(items[3].as_deref(), Ok("M0012061100"));
            assert_eq!(items[4], Err(FrameError::Unterminated { len: 2 }));
        }
    }

    #[test]
    fn encodes_a_sessions_transmit() {
        use crate::session::{Follower, FollowerConfig};
        use crate::types::Name;
        let mut f: Follower<std::time::Instant> = Follower::new(
            FollowerConfig::new(Name::new("Ours").unwrap()),
            std::time::Instant::now(),
        );
        let mut codec = DxpCodec::default();
        let mut buf = BytesMut::from(&b"R01PyTester                        Z005000A\0"[..]);
        let Some(Ok(msg)) = codec.decode(&mut buf).unwrap() else {
            panic!("GAMEREQ")
        };
        f.handle_message(&msg, std::time::Instant::now());
        let mut dst = BytesMut::new();
        codec.encode(f.poll_transmit().unwrap(), &mut dst).unwrap();
        // spec/damexchange.md, *GAMEACC*: name padded to 32, code 0, then the NUL.
        assert_eq!(&dst[..], b"AOurs                            0\0");
    }

    #[test]
    fn encoder_appends_nul() {
        let mut codec = DxpCodec::default();
        let mut dst = BytesMut::new();
        let msg: Message = decode(b"B005Z").unwrap();
        codec.encode(&msg, &mut dst).unwrap();
        codec.encode(msg, &mut dst).unwrap();
        assert_eq!(&dst[..], b"B005Z\0B005Z\0");
    }
}
