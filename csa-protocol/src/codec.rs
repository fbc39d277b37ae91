//! tokio-util codecs (feature `tokio`): [`ClientCodec`] for a client
//! (decodes [`ServerMessage`], encodes [`ClientMessage`] and the session's
//! [`Transmit`]) and [`ServerCodec`] for a server (the reverse). Both are
//! thin adapters over [`Framer`] and [`decode_with`].
//!
//! A malformed or over-long line is an item `Err(FrameError)`, never an
//! `io::Error`: its bytes are consumed and the next line decodes. The
//! keep-alive (an empty line) is an item of its own
//! ([`ServerMessage::KeepAlive`], [`ClientMessage::KeepAlive`]).
//!
//! ```
//! use bytes::BytesMut;
//! use csa_protocol::codec::ClientCodec;
//! use csa_protocol::message::ServerMessage;
//! use tokio_util::codec::Decoder;
//!
//! let mut codec = ClientCodec::default();
//! let mut buf = BytesMut::from(&b"LOGIN:alice OK\r\n\n#WI"[..]);
//! let Some(Ok(ServerMessage::LoginOk(name))) = codec.decode(&mut buf).unwrap() else { panic!() };
//! assert_eq!(name.as_str(), "alice");
//! assert_eq!(codec.decode(&mut buf).unwrap(), Some(Ok(ServerMessage::KeepAlive)));
//! assert_eq!(codec.decode(&mut buf).unwrap(), None); // `#WI` is not complete
//! ```

use std::io;
use std::vec::Vec;

use boardwire_proto::framer::{decode_rest, frame_and_decode};
use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::decode::{Leniency, decode_with};
use crate::error::FrameError;
use crate::framer::{DEFAULT_MAX_LEN, Framer};
use crate::message::{ClientMessage, ServerMessage};
use crate::session::Transmit;

macro_rules! codec {
    ($(#[$meta:meta])* $name:ident, decodes $in:ident, encodes $out:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone)]
        pub struct $name {
            framer: Framer,
            leniency: Leniency,
            scratch: Vec<u8>,
        }

        impl $name {
            /// A codec for lines of at most `max_frame_len` bytes
            /// (terminator excluded).
            pub fn new(max_frame_len: usize) -> Self {
                Self {
                    framer: Framer::new(max_frame_len),
                    leniency: Leniency::STRICT,
                    scratch: Vec::new(),
                }
            }

            /// The same codec decoding with `leniency`.
            pub fn with_leniency(mut self, leniency: Leniency) -> Self {
                self.leniency = leniency;
                self
            }
        }

        impl Default for $name {
            /// Lines of at most [`DEFAULT_MAX_LEN`] bytes.
            fn default() -> Self {
                Self::new(DEFAULT_MAX_LEN)
            }
        }

        impl Decoder for $name {
            type Item = Result<$in<'static>, FrameError>;
            type Error = io::Error;

            fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<Self::Item>> {
                let (consumed, item) = frame_and_decode(&mut self.framer, src, |line| {
                    decode_with::<$in<'_>>(line, &self.leniency).map($in::into_owned)
                });
                src.advance(consumed);
                Ok(item)
            }

            /// At the end of the stream a last line without its LF is
            /// decoded as a line (a peer that closed right after writing
            /// it), as novag-citrine's codecs do; one longer than the cap
            /// is `Overlong`.
            fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<Self::Item>> {
                if let Some(item) = self.decode(src)? {
                    return Ok(Some(item));
                }
                let item = decode_rest(&mut self.framer, src, |line| {
                    decode_with::<$in<'_>>(line, &self.leniency).map($in::into_owned)
                });
                src.clear();
                Ok(item)
            }
        }

        impl Encoder<&$out<'_>> for $name {
            type Error = io::Error;

            fn encode(&mut self, item: &$out<'_>, dst: &mut BytesMut) -> io::Result<()> {
                self.scratch.clear();
                item.encode(&mut self.scratch);
                dst.extend_from_slice(&self.scratch);
                Ok(())
            }
        }

        impl Encoder<Transmit> for $name {
            type Error = io::Error;

            fn encode(&mut self, item: Transmit, dst: &mut BytesMut) -> io::Result<()> {
                dst.extend_from_slice(item.as_bytes());
                Ok(())
            }
        }
    };
}

codec!(
    /// The client side: decodes [`ServerMessage`]s, encodes
    /// [`ClientMessage`]s and a [`crate::session::Client`]'s [`Transmit`].
    ClientCodec, decodes ServerMessage, encodes ClientMessage
);

codec!(
    /// The server side: decodes [`ClientMessage`]s, encodes
    /// [`ServerMessage`]s and a [`crate::session::Server`]'s [`Transmit`]
    /// (the I/O layer closes the connection when
    /// [`Transmit::closes`] says so).
    ServerCodec, decodes ClientMessage, encodes ServerMessage
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Field, MessageKind, Problem};
    use crate::types::UserName;

    #[test]
    fn bad_lines_are_items_and_the_stream_goes_on() {
        let mut codec = ServerCodec::new(16);
        let mut buf = BytesMut::from(&b"LOGIN\nxxxxxxxxxxxxxxxxxxxxxxxx\r\nLOGOUT\n\n"[..]);
        let mut items = Vec::new();
        while let Some(item) = codec.decode(&mut buf).unwrap() {
            items.push(item);
        }
        assert_eq!(
            items,
            [
                Err(FrameError::Malformed(crate::error::DecodeError::new(
                    MessageKind::Login,
                    Field::Name,
                    5,
                    Problem::Missing
                ))),
                Err(FrameError::Overlong { len: 24, max: 16 }),
                Ok(ClientMessage::Logout),
                Ok(ClientMessage::KeepAlive),
            ]
        );
        assert!(buf.is_empty());
    }

    #[test]
    fn a_last_line_without_lf_is_decoded_at_the_end_of_the_stream() {
        // spec/csa.md, *Plain CSA mode*: `LOGOUT`; a line ends with LF
        // (or CR LF, *Transport and lexical rules*), which a peer closing
        // the connection may not have sent.
        for bytes in [&b"LOGOUT"[..], b"LOGOUT\r", b"\nLOGOUT"] {
            let mut codec = ServerCodec::default();
            let mut buf = BytesMut::from(bytes);
            let mut items = Vec::new();
            while let Some(item) = codec.decode_eof(&mut buf).unwrap() {
                items.push(item);
            }
            let mut want = Vec::new();
            if bytes.starts_with(b"\n") {
                want.push(Ok(ClientMessage::KeepAlive));
            }
            want.push(Ok(ClientMessage::Logout));
            assert_eq!(items, want, "{bytes:?}");
            assert!(buf.is_empty());
        }
        let mut codec = ServerCodec::new(4);
        let mut buf = BytesMut::from(&b"LOGOUT"[..]);
        assert_eq!(
            codec.decode_eof(&mut buf).unwrap(),
            Some(Err(FrameError::Overlong { len: 6, max: 4 }))
        );
        assert_eq!(codec.decode_eof(&mut buf).unwrap(), None);
    }

    #[test]
    fn encoders_write_the_line_and_the_transmit() {
        let mut codec = ServerCodec::default();
        let mut out = BytesMut::new();
        let ok = ServerMessage::LoginOk(UserName::new("alice").unwrap());
        codec.encode(&ok, &mut out).unwrap();
        codec.encode(Transmit::new(b"#WIN\n"), &mut out).unwrap();
        assert_eq!(&out[..], b"LOGIN:alice OK\n#WIN\n");
    }
}
