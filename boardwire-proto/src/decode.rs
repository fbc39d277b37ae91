//! One decode entry point for the family: [`decode`] and [`decode_with`],
//! generic over [`Decode`], which every crate's message types implement
//! (`damexchange::Message`, `csa_protocol::message::ClientMessage` /
//! `ServerMessage`, `novag_citrine::message::Command` / `Reply`); the wanted
//! type comes from a turbofish (`decode::<Message>(frame)`) or from the
//! patterns the result is matched against. Each crate re-exports the three
//! under its own `decode` module with its own [`Leniency`](Decode::Leniency)
//! type (one documented field per quirk of a real peer) and `DecodeError`.
//!
//! ```
//! use boardwire_proto::decode::{decode, decode_with, Decode, Strict};
//!
//! /// A toy leniency: whether lower case is read.
//! #[derive(Default)]
//! struct Leniency { lower_case: bool }
//! impl Strict for Leniency {
//!     const STRICT: Leniency = Leniency { lower_case: false };
//! }
//!
//! #[derive(Debug, PartialEq)]
//! struct Ping;
//! impl<'a> Decode<'a> for Ping {
//!     type Leniency = Leniency;
//!     type Error = usize; // the offset of the first bad byte
//!     fn decode_with(frame: &'a [u8], l: &Leniency) -> Result<Ping, usize> {
//!         let ok = frame == b"PING" || (l.lower_case && frame == b"ping");
//!         if ok { Ok(Ping) } else { Err(0) }
//!     }
//! }
//!
//! assert_eq!(decode::<Ping>(b"PING"), Ok(Ping));
//! assert_eq!(decode::<Ping>(b"ping"), Err(0));
//! assert_eq!(decode_with::<Ping>(b"ping", &Leniency { lower_case: true }), Ok(Ping));
//! ```

/// A decoder setting with a strict value: exactly the spec's grammar,
/// what [`decode`] uses.
pub trait Strict {
    /// The spec's grammar and nothing else.
    const STRICT: Self;
}

/// A message type that decodes from one frame (a line or NUL-terminated
/// frame, its terminator removed by the crate's framer), borrowing from
/// it (`'a`).
pub trait Decode<'a>: Sized {
    /// The crate's decoding leniency (`Leniency`, with `Leniency::STRICT`).
    type Leniency: Strict;
    /// The crate's error: a `DecodeError` naming the message kind, the
    /// field and the 0-based byte offset.
    type Error;

    /// Decodes `frame` with `leniency`.
    ///
    /// # Errors
    /// [`Self::Error`] for a frame of a known kind with a malformed field (a
    /// frame of no known kind decodes to the type's `Unrecognised`
    /// variant where it has one).
    fn decode_with(frame: &'a [u8], leniency: &Self::Leniency) -> Result<Self, Self::Error>;
}

/// Decodes one frame strictly (`Leniency::STRICT`).
///
/// # Errors
/// The message type's error (its crate's `DecodeError`).
#[inline(always)]
pub fn decode<'a, M: Decode<'a>>(frame: &'a [u8]) -> Result<M, M::Error> {
    M::decode_with(frame, &<M::Leniency as Strict>::STRICT)
}

/// Decodes one frame with `leniency`.
///
/// # Errors
/// The message type's error (its crate's `DecodeError`).
#[inline]
pub fn decode_with<'a, M: Decode<'a>>(
    frame: &'a [u8],
    leniency: &M::Leniency,
) -> Result<M, M::Error> {
    M::decode_with(frame, leniency)
}
