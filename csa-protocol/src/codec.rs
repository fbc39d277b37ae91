//! tokio-util codecs (feature `tokio`): [`ClientCodec`] for a client
//! (decodes [`ServerMessage`], encodes [`ClientMessage`] and the session's
//! [`Transmit`](crate::session::Transmit)) and [`ServerCodec`] for a server
//! (the reverse). Both are the family's one codec
//! (`boardwire_proto::codec::Codec`) over [`Framer`] and [`decode_with`].
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

use boardwire_proto::codec::Codec;

use crate::decode::{Leniency, decode_with};
use crate::error::{DecodeError, MessageKind};
use crate::framer::Framer;
use crate::message::{ClientMessage, ServerMessage};

/// The client side: decodes [`ServerMessage`]s, encodes
/// [`ClientMessage`]s and a [`crate::session::Client`]'s
/// [`Transmit`](crate::session::Transmit): the family's `Codec`
/// (`boardwire_proto::codec::Codec`) for CSA.
///
/// `ClientCodec::new(max_frame_len)` takes lines of at most that many
/// bytes (terminator excluded); [`ClientCodec::default`] has the cap
/// [`DEFAULT_MAX_LEN`](crate::framer::DEFAULT_MAX_LEN);
/// `with_leniency(leniency)` decodes with `leniency`. At the end of the
/// stream a last line without its LF is decoded as a line (a peer that
/// closed right after writing it), as novag-citrine's codecs do; one longer
/// than the cap is `Overlong`.
pub type ClientCodec = Codec<ServerMessage<'static>>;

/// The server side: decodes [`ClientMessage`]s, encodes
/// [`ServerMessage`]s and a [`crate::session::Server`]'s
/// [`Transmit`](crate::session::Transmit) (the I/O layer closes the
/// connection when `Transmit::closes` says so); as [`ClientCodec`] the
/// other way round.
pub type ServerCodec = Codec<ClientMessage<'static>>;

// CSA for the family's codec: the line framer, the leniency, the decode
// error; each side decodes its peer's lines and encodes its own.
boardwire_proto::impl_codec! {
    MessageKind: Framer, Leniency, DecodeError, decode_with;
    ServerMessage <-> ClientMessage,
    ClientMessage <-> ServerMessage,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Field, FrameError, Problem};
    use crate::session::Transmit;
    use crate::types::UserName;
    use bytes::BytesMut;
    use std::vec::Vec;
    use tokio_util::codec::{Decoder, Encoder};

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
