//! One decode entry point for every line type: [`decode`] and
//! [`decode_with`], generic over [`Decode`] (implemented by
//! [`ClientMessage`] and [`ServerMessage`]), so the wanted type comes from a
//! turbofish or from the match patterns.
//!
//! Decoding borrows from the line and never allocates. A line that is no
//! protocol line at all decodes to `Unrecognised`; a line of a known kind
//! with a bad field is a [`DecodeError`] naming the kind, the field and the
//! 0-based byte offset.
//!
//! ```
//! use csa_protocol::decode::decode;
//! use csa_protocol::message::{ClientMessage, ServerMessage};
//!
//! assert_eq!(decode::<ClientMessage>(b"LOGOUT"), Ok(ClientMessage::Logout));
//! assert_eq!(decode::<ServerMessage>(b"LOGOUT:completed"), Ok(ServerMessage::LogoutCompleted));
//! ```

use boardwire_proto::decode::Strict;

use crate::error::DecodeError;
use crate::message::{ClientMessage, ServerMessage};

/// How strictly lines are read (httparse's `ParserConfig`): one documented
/// field per quirk of a real peer. `Leniency::STRICT` is the default.
///
/// The recorded peers (shogi-server, Floodgate records) need no leniency
/// yet: CR LF line ends are accepted by the [`crate::framer`] always, and
/// shogi-server's free-text answers (`type 'LOGIN name password' ...`) are
/// messages of their own. The struct exists so that a quirk found later is
/// a new field, not a new function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Leniency {}

impl Leniency {
    /// Exactly the grammar of [`spec::csa`](crate::spec::csa).
    pub const STRICT: Leniency = Leniency {};
}

/// A line type that can be decoded from one line (terminator removed by
/// the [`crate::framer`]): the family's one trait, implemented here by
/// [`ClientMessage`] and [`ServerMessage`] with [`Leniency`] and
/// [`DecodeError`].
pub use boardwire_proto::decode::Decode;
/// Decodes one line: strictly ([`Leniency::STRICT`], `decode`) or with a
/// leniency (`decode_with`); [`DecodeError`] for a known kind of line with
/// a bad field.
pub use boardwire_proto::decode::{decode, decode_with};

impl Strict for Leniency {
    const STRICT: Leniency = Leniency::STRICT;
}

impl<'a> Decode<'a> for ClientMessage<'a> {
    type Leniency = Leniency;
    type Error = DecodeError;

    fn decode_with(frame: &'a [u8], _leniency: &Leniency) -> Result<Self, DecodeError> {
        crate::message::decode_client_line(frame)
    }
}

impl<'a> Decode<'a> for ServerMessage<'a> {
    type Leniency = Leniency;
    type Error = DecodeError;

    fn decode_with(frame: &'a [u8], _leniency: &Leniency) -> Result<Self, DecodeError> {
        crate::message::decode_server_line(frame)
    }
}
