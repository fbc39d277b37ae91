//! tokio codecs (feature `tokio`) for `tokio_util::codec::Framed` over any
//! `AsyncRead + AsyncWrite`: a serial port or pseudo-terminal opened as
//! `serial::AsyncPort` (features `tokio` + `serial`, Unix), a TCP
//! serial bridge such as ser2net.
//!
//! [`HostCodec`] is the host's end (decodes [`Reply`], encodes
//! [`Command`] and the [`Driver`](crate::session::Driver)'s [`Transmit`]);
//! [`DeviceCodec`] the device's end (decodes [`Command`], encodes
//! [`Reply`] and the [`Device`](crate::session::Device)'s [`Transmit`]).
//! Both are thin adapters over [`Framer`] and [`decode`](crate::decode()):
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

use std::io;

use boardwire_proto::framer::{decode_rest, frame_and_decode};
use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::decode::{Leniency, decode_with};
use crate::error::FrameError;
use crate::framer::Framer;
use crate::message::{Command, Reply};
use crate::session::Transmit;

macro_rules! codec {
    ($(#[$doc:meta])* $name:ident, $item:ident, $out:ident, $leniency:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $name {
            framer: Framer,
            leniency: Leniency,
        }

        impl $name {
            /// A codec whose lines are at most `max_frame_len` bytes (the
            /// terminator not counted); longer lines are items
            /// `Err(FrameError::Overlong)`.
            pub fn new(max_frame_len: usize) -> Self {
                $name {
                    framer: Framer::new(max_frame_len),
                    leniency: $leniency,
                }
            }

            /// The same codec decoding with `leniency`.
            pub fn with_leniency(mut self, leniency: Leniency) -> Self {
                self.leniency = leniency;
                self
            }
        }

        impl Default for $name {
            /// [`framer::DEFAULT_MAX_LEN`](crate::framer::DEFAULT_MAX_LEN) (256 bytes).
            fn default() -> Self {
                $name::new(crate::framer::DEFAULT_MAX_LEN)
            }
        }

        impl Decoder for $name {
            type Item = Result<$item<'static>, FrameError>;
            type Error = io::Error;

            fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<Self::Item>> {
                let (consumed, item) = frame_and_decode(&mut self.framer, src, |line| {
                    decode_with::<$item<'_>>(line, &self.leniency).map($item::into_owned)
                });
                src.advance(consumed);
                Ok(item)
            }

            /// At the end of the stream a last line without terminator is
            /// decoded as a line (a device that closed right after it).
            fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<Self::Item>> {
                if let Some(item) = self.decode(src)? {
                    return Ok(Some(item));
                }
                let item = decode_rest(&mut self.framer, src, |line| {
                    decode_with::<$item<'_>>(line, &self.leniency).map($item::into_owned)
                });
                src.clear();
                Ok(item)
            }
        }

        impl Encoder<&$out<'_>> for $name {
            type Error = io::Error;

            /// The line and CR LF; cannot fail.
            fn encode(&mut self, msg: &$out<'_>, dst: &mut BytesMut) -> io::Result<()> {
                dst.extend_from_slice(&msg.to_bytes());
                Ok(())
            }
        }

        impl Encoder<Transmit> for $name {
            type Error = io::Error;

            /// The session's bytes, as they are; cannot fail.
            fn encode(&mut self, t: Transmit, dst: &mut BytesMut) -> io::Result<()> {
                dst.extend_from_slice(t.as_bytes());
                Ok(())
            }
        }
    };
}

codec!(
    /// The host's end: decodes device [`Reply`] lines (with
    /// [`Leniency::DOCUMENT`] by default, as the host driver does), encodes
    /// [`Command`]s and the driver's [`Transmit`]s.
    HostCodec,
    Reply,
    Command,
    Leniency::DOCUMENT
);

codec!(
    /// The device's end: decodes host [`Command`] lines, encodes
    /// [`Reply`]s and the simulated device's [`Transmit`]s.
    DeviceCodec,
    Command,
    Reply,
    Leniency::STRICT
);
