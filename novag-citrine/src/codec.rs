//! tokio codecs (feature `tokio`) for `tokio_util::codec::Framed` over any
//! `AsyncRead + AsyncWrite`: a serial port or pseudo-terminal opened as
//! `serial::AsyncPort` (features `tokio` + `serial`, Unix), a TCP
//! serial bridge such as ser2net.
//!
//! [`HostCodec`] is the host's end (decodes [`Reply`], encodes
//! [`Command`] and the [`Driver`](crate::session::Driver)'s [`Transmit`](crate::session::Transmit));
//! [`DeviceCodec`] the device's end (decodes [`Command`], encodes
//! [`Reply`] and the [`Device`](crate::session::Device)'s [`Transmit`](crate::session::Transmit)).
//! Both are the family's one codec (`boardwire_proto::codec::Codec`) over
//! [`Framer`] and [`decode`](crate::decode()):
//! a malformed or over-long line is an item `Err(FrameError)` (the bytes
//! are consumed and the next line decodes); only I/O errors end the
//! stream. Lines are CR, LF or CR LF ([`spec::citrine`](crate::spec::citrine), *Link*).
//!
//! ```
//! use bytes::BytesMut;
//! use novag_citrine::codec::HostCodec;
//! use novag_citrine::message::Reply;
//! use tokio_util::codec::Decoder;
//!
//! let mut codec = HostCodec::default();
//! let mut buf = BytesMut::from(&b"M   1   e2-e4 |\r\nNew Ga"[..]);
//! let Some(Ok(Reply::Move(m))) = codec.decode(&mut buf)? else { panic!() };
//! assert_eq!(m.text.to_string(), "e2-e4");
//! assert!(codec.decode(&mut buf)?.is_none()); // `New Ga` is incomplete
//! # Ok::<(), std::io::Error>(())
//! ```

use boardwire_proto::codec::Codec;

use crate::decode::{Leniency, decode_with};
use crate::error::{DecodeError, MessageKind};
use crate::framer::Framer;
use crate::message::{Command, Reply};

/// The host's end: decodes device [`Reply`] lines (with
/// [`Leniency::DOCUMENT`] by default, as the host driver does), encodes
/// [`Command`]s and the driver's [`Transmit`](crate::session::Transmit)s:
/// the family's `Codec` (`boardwire_proto::codec::Codec`) for Citrine.
///
/// `HostCodec::new(max_frame_len)` takes lines of at most that many bytes
/// (the terminator not counted; longer lines are items
/// `Err(FrameError::Overlong)`); [`HostCodec::default`] has the cap
/// [`framer::DEFAULT_MAX_LEN`](crate::framer::DEFAULT_MAX_LEN) (256 bytes);
/// `with_leniency(leniency)` decodes with `leniency`. At the end of the
/// stream a last line without terminator is decoded as a line (a device
/// that closed right after it).
pub type HostCodec = Codec<Reply<'static>>;

/// The device's end: decodes host [`Command`] lines (strictly), encodes
/// [`Reply`]s and the simulated device's
/// [`Transmit`](crate::session::Transmit)s; as [`HostCodec`] the other way
/// round.
pub type DeviceCodec = Codec<Command<'static>>;

// Citrine for the family's codec: the line framer, the leniency, the
// decode error; the host decodes replies (with the document's spellings
// by default, as the host driver does), the device commands.
boardwire_proto::impl_codec! {
    MessageKind: Framer, Leniency, DecodeError, decode_with;
    Reply (Leniency::DOCUMENT) <-> Command,
    Command <-> Reply,
}
