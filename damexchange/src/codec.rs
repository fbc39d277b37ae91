//! `tokio-util` codec for `Framed` DXP streams (feature `tokio`): the
//! family's one codec (`boardwire_proto::codec::Codec`) over [`Framer`] and
//! [`decode_with`].
//!
//! Since an error returned by a `Decoder` ends a `FramedRead` stream, a
//! malformed or over-long frame is an *item*: the stream yields
//! `Ok(Err(FrameError))` for it and goes on with the next frame. Only an I/O
//! error ends the stream.

use boardwire_proto::codec::Codec;
use bytes::BytesMut;
use tokio_util::codec::Encoder;

use crate::decode::{Leniency, decode_with};
use crate::error::{DecodeError, MessageKind};
use crate::framer::Framer;
use crate::message::Message;

/// Decoder/encoder of NUL-terminated DXP messages for
/// `tokio_util::codec::Framed` ([`spec::damexchange`](crate::spec::damexchange), *Transport
/// (layer 1)*): the family's `Codec` (`boardwire_proto::codec::Codec`) for
/// DXP.
///
/// Decoding uses the [`Framer`]: each received byte is scanned once, and
/// at most `max_frame_len + 1` bytes of one frame are buffered; a longer
/// frame is reported once ([`FrameError::Overlong`](crate::error::FrameError))
/// and skipped up to its NUL; bytes without their NUL at the end of the
/// stream are `FrameError::Unterminated`. Encoding takes a [`Message`] (or
/// a reference to one) or a session's [`Transmit`](crate::session::Transmit).
/// `DxpCodec::new(max_frame_len)` caps frames at that many bytes (the NUL
/// not counted), [`DxpCodec::default`] at the spec's 127; both decode
/// strictly until `with_leniency(leniency)`.
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
pub type DxpCodec = Codec<Message<'static>>;

// DXP for the family's codec: the NUL framer, the leniency, the decode
// error; both ends decode and encode the same messages.
boardwire_proto::impl_codec! {
    MessageKind: Framer, Leniency, DecodeError, decode_with;
    Message <-> Message,
}

impl Encoder<Message<'_>> for DxpCodec {
    type Error = std::io::Error;

    /// Appends the message and its NUL. Never fails.
    fn encode(&mut self, item: Message<'_>, dst: &mut BytesMut) -> std::io::Result<()> {
        self.encode(&item, dst)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use super::*;
    use crate::decode::decode;
    use crate::error::{Field, FrameError, Problem};
    use crate::message::MAX_MESSAGE_LEN;
    use tokio_util::codec::Decoder;

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
