//! The family's `tokio_util` codec, written once (feature `tokio`):
//! [`Codec`] cuts frames with the protocol's [`Framer`], decodes each with
//! the protocol's decoder and encodes messages of the other direction and
//! a session's [`Transmit`]. Each protocol crate names it for its own
//! messages (`damexchange::codec::DxpCodec`, `csa_protocol::codec::{ClientCodec,
//! ServerCodec}`, `novag_citrine::codec::{HostCodec, DeviceCodec}`) by
//! implementing [`Protocol`] and [`Decodable`].
//!
//! A malformed or over-long frame is an *item*, `Err(FrameError)` (a
//! `Decoder` error would end a `FramedRead` stream): its bytes are consumed
//! and the next frame decodes. Only an I/O error ends the stream.
//!
//! ```
//! use boardwire_proto::codec::{Codec, Decodable, Encode, Protocol};
//! use boardwire_proto::framer::{LfLines, LineFramer};
//! use bytes::BytesMut;
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! /// A toy protocol: lines of at most 8 bytes, decoded as their length.
//! #[derive(Debug, PartialEq)]
//! struct Len(usize);
//! struct Toy;
//! impl Protocol for Toy {
//!     type Framer = LineFramer<LfLines<8>>;
//!     type Leniency = ();
//!     type Error = ();
//! }
//! /// What the toy sends back: a line.
//! struct Line<'a>(&'a str);
//! impl Encode for Line<'_> {
//!     fn encode(&self, out: &mut Vec<u8>) {
//!         out.extend_from_slice(self.0.as_bytes());
//!         out.push(b'\n');
//!     }
//! }
//! impl Decodable for Len {
//!     type Protocol = Toy;
//!     type Peer<'a> = Line<'a>;
//!     fn decode_frame(frame: &[u8], _: &()) -> Result<Len, ()> {
//!         Ok(Len(frame.len()))
//!     }
//! }
//!
//! let mut codec = Codec::<Len>::default();
//! let mut buf = BytesMut::from(&b"abc\nde"[..]);
//! assert_eq!(codec.decode(&mut buf)?, Some(Ok(Len(3))));
//! assert_eq!(codec.decode(&mut buf)?, None); // `de` waits for its LF
//! assert_eq!(codec.decode_eof(&mut buf)?, Some(Ok(Len(2)))); // a last line
//! codec.encode(&Line("hi"), &mut buf)?;
//! assert_eq!(&buf[..], b"hi\n");
//! # Ok::<(), std::io::Error>(())
//! ```

use core::fmt;
use std::io;
use std::vec::Vec;

use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::error::FrameError;
use crate::framer::{Framer, decode_rest, frame_and_decode};
use crate::transmit::Transmit;

/// What a protocol crate tells the [`Codec`] once: its framer, its runtime
/// leniency and its decode error.
pub trait Protocol {
    /// The protocol's framer ([`Framer::DEFAULT_MAX_LEN`] is the codec's
    /// default cap).
    type Framer: Framer + Clone + fmt::Debug;
    /// The protocol's runtime leniency.
    type Leniency: Clone + fmt::Debug + Default;
    /// The protocol's decode error (a frame that is not a message).
    type Error;
}

/// A message that a [`Codec`] decodes, owned (`'static`): its protocol,
/// the messages the same codec encodes (the other direction's), and how
/// one frame becomes one message.
pub trait Decodable: Sized + 'static {
    /// The protocol it belongs to.
    type Protocol: Protocol;
    /// The messages of the other direction, which the codec encodes.
    type Peer<'a>: Encode;

    /// Decodes one frame (its terminator stripped) with `leniency`.
    ///
    /// # Errors
    /// The protocol's decode error.
    fn decode_frame(frame: &[u8], leniency: &LeniencyOf<Self>) -> Result<Self, ErrorOf<Self>>;

    /// The leniency a new codec decodes with: `Default` (strict) unless a
    /// side says otherwise.
    fn leniency() -> LeniencyOf<Self> {
        LeniencyOf::<Self>::default()
    }
}

/// A message that the [`Codec`] encodes: its frame, terminator included.
pub trait Encode {
    /// Appends the frame and its terminator to `out`.
    fn encode(&self, out: &mut Vec<u8>);
}

/// The leniency of `M`'s protocol.
pub type LeniencyOf<M> = <<M as Decodable>::Protocol as Protocol>::Leniency;
/// The decode error of `M`'s protocol.
pub type ErrorOf<M> = <<M as Decodable>::Protocol as Protocol>::Error;
type FramerOf<M> = <<M as Decodable>::Protocol as Protocol>::Framer;

/// The family's `tokio_util::codec::{Decoder, Encoder}` for `Framed`
/// streams: decodes `M` (items `Ok(M)`, or `Err(FrameError)` for a frame
/// that is malformed or over the cap), encodes `M::Peer` messages and a
/// session's [`Transmit`].
///
/// Decoding uses the protocol's [`Framer`]: each received byte is scanned
/// once, and a frame over the cap is reported once and skipped up to its
/// terminator. At the end of the stream ([`Decoder::decode_eof`]) bytes left
/// without a terminator are [`decode_rest`]'s: an error for a protocol
/// whose frames always end with one, else a last frame.
#[derive(Clone, Debug)]
pub struct Codec<M: Decodable> {
    framer: FramerOf<M>,
    leniency: LeniencyOf<M>,
    scratch: Vec<u8>,
}

impl<M: Decodable> Codec<M> {
    /// A codec for frames of at most `max_frame_len` bytes (the terminator
    /// not counted), decoding with `M`'s default leniency
    /// ([`Decodable::leniency`]).
    pub fn new(max_frame_len: usize) -> Self {
        Codec {
            framer: <FramerOf<M> as Framer>::new(max_frame_len),
            leniency: M::leniency(),
            scratch: Vec::new(),
        }
    }

    /// The same codec decoding with `leniency`.
    pub fn with_leniency(mut self, leniency: LeniencyOf<M>) -> Self {
        self.leniency = leniency;
        self
    }
}

impl<M: Decodable> Default for Codec<M> {
    /// The protocol's cap ([`Framer::DEFAULT_MAX_LEN`]).
    fn default() -> Self {
        Self::new(<FramerOf<M> as Framer>::DEFAULT_MAX_LEN)
    }
}

impl<M: Decodable> Decoder for Codec<M> {
    type Item = Result<M, FrameError<ErrorOf<M>>>;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<Self::Item>> {
        let leniency = &self.leniency;
        let (consumed, item) =
            frame_and_decode(&mut self.framer, src, |f| M::decode_frame(f, leniency));
        src.advance(consumed);
        Ok(item)
    }

    /// At the end of the stream: the frames left, then what
    /// [`decode_rest`] makes of bytes without a terminator.
    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<Self::Item>> {
        if let Some(item) = self.decode(src)? {
            return Ok(Some(item));
        }
        let leniency = &self.leniency;
        let item = decode_rest(&mut self.framer, src, |f| M::decode_frame(f, leniency));
        src.clear();
        Ok(item)
    }
}

impl<'m, M: Decodable> Encoder<&'m M::Peer<'m>> for Codec<M> {
    type Error = io::Error;

    /// Appends the message and its terminator. Never fails.
    fn encode(&mut self, item: &'m M::Peer<'m>, dst: &mut BytesMut) -> io::Result<()> {
        self.scratch.clear();
        item.encode(&mut self.scratch);
        dst.extend_from_slice(&self.scratch);
        Ok(())
    }
}

impl<M: Decodable> Encoder<Transmit> for Codec<M> {
    type Error = io::Error;

    /// Appends a session's bytes as they are (terminator included). Never
    /// fails.
    fn encode(&mut self, item: Transmit, dst: &mut BytesMut) -> io::Result<()> {
        dst.extend_from_slice(item.as_bytes());
        Ok(())
    }
}

/// Implements [`Protocol`], [`Decodable`] and [`Encode`] for a protocol
/// crate's messages, forwarding to its plain functions and inherent
/// methods (no method is generated): `Protocol` for `$kind` (the crate's
/// `MessageKind`) with its framer, leniency and decode error; for each
/// `Message <-> Peer`, `Decodable for Message<'static>` (decoded by
/// `$decode(frame, leniency)` then `Message::into_owned`, encoding `Peer`;
/// `Message (leniency)` sets the codec's default leniency, else
/// `Default`) and `Encode for Message<'_>` (its inherent `encode`).
///
/// ```ignore
/// boardwire_proto::impl_codec! {
///     MessageKind: Framer, Leniency, DecodeError, decode_with;
///     ServerMessage <-> ClientMessage,
///     ClientMessage <-> ServerMessage,
/// }
/// ```
#[macro_export]
macro_rules! impl_codec {
    (
        $kind:ty: $framer:ty, $leniency:ty, $error:ty, $decode:path;
        $( $msg:ident $(($default:expr))? <-> $peer:ident ),+ $(,)?
    ) => {
        impl $crate::codec::Protocol for $kind {
            type Framer = $framer;
            type Leniency = $leniency;
            type Error = $error;
        }
        $(
            impl $crate::codec::Decodable for $msg<'static> {
                type Protocol = $kind;
                type Peer<'a> = $peer<'a>;
                fn decode_frame(frame: &[u8], leniency: &$leniency) -> Result<Self, $error> {
                    $decode(frame, leniency).map($msg::into_owned)
                }
                $(
                    fn leniency() -> $leniency {
                        $default
                    }
                )?
            }
            impl $crate::codec::Encode for $msg<'_> {
                fn encode(&self, out: &mut ::std::vec::Vec<u8>) {
                    $msg::encode(self, out);
                }
            }
        )+
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framer::{LineFramer, NulFrames};

    /// A toy protocol whose leniency is a flag, and messages that report
    /// the leniency they were decoded with.
    struct Toy;
    impl Protocol for Toy {
        type Framer = LineFramer<NulFrames<8>>;
        type Leniency = bool;
        type Error = ();
    }
    #[derive(Debug, PartialEq)]
    struct DecodedWith(bool);
    /// The same, for a side whose default leniency is lenient.
    #[derive(Debug, PartialEq)]
    struct LenientSide(bool);
    struct Nothing;
    impl Encode for Nothing {
        fn encode(&self, _: &mut Vec<u8>) {}
    }
    impl Decodable for DecodedWith {
        type Protocol = Toy;
        type Peer<'a> = Nothing;
        fn decode_frame(_: &[u8], leniency: &bool) -> Result<Self, ()> {
            Ok(DecodedWith(*leniency))
        }
    }
    impl Decodable for LenientSide {
        type Protocol = Toy;
        type Peer<'a> = Nothing;
        fn decode_frame(_: &[u8], leniency: &bool) -> Result<Self, ()> {
            Ok(LenientSide(*leniency))
        }
        fn leniency() -> bool {
            true
        }
    }

    /// `Decodable::leniency` is `Default` (strict) unless a side says
    /// otherwise; `with_leniency` replaces it.
    #[test]
    fn the_leniency_a_codec_decodes_with() {
        let frame = || BytesMut::from(&b"x\0"[..]);
        let mut strict = Codec::<DecodedWith>::default();
        assert_eq!(
            strict.decode(&mut frame()).unwrap(),
            Some(Ok(DecodedWith(false)))
        );
        let mut lenient = Codec::<DecodedWith>::default().with_leniency(true);
        assert_eq!(
            lenient.decode(&mut frame()).unwrap(),
            Some(Ok(DecodedWith(true)))
        );
        let mut side = Codec::<LenientSide>::new(8);
        assert_eq!(
            side.decode(&mut frame()).unwrap(),
            Some(Ok(LenientSide(true)))
        );
        let mut side = Codec::<LenientSide>::new(8).with_leniency(false);
        assert_eq!(
            side.decode(&mut frame()).unwrap(),
            Some(Ok(LenientSide(false)))
        );
    }

    /// A session's bytes are appended as they are, after what the buffer
    /// holds.
    #[test]
    fn a_transmit_is_appended_as_it_is() {
        let mut codec = Codec::<DecodedWith>::default();
        let mut dst = BytesMut::from(&b"E00\0"[..]);
        codec.encode(Transmit::new(b"K1\0"), &mut dst).unwrap();
        assert_eq!(&dst[..], b"E00\0K1\0");
    }
}
