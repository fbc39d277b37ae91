#![doc = include_str!("../README.md")]
//!
//! # Modules
//!
//! | module | holds |
//! |---|---|
//! | [`types`] | the wire vocabulary: [`wire::Color`], [`wire::Square`], [`wire::Piece`], [`Name`], [`ChatText`] |
//! | [`wire`] | every message and value type of the wire in one place (`wire::Move`, `wire::Color`, ...; the root leaves those names to board-core) |
//! | [`json`] | a message as one JSON object, fields in the spec's terms ([`json::Json`]) |
//! | [`message`] | [`Message`] and one struct per kind; encoders that cannot fail |
//! | [`parse`] | the `nom` parsers, one per field and message |
//! | [`decode`](mod@decode) | [`decode()`], [`decode_with()`], [`Decode`], [`Leniency`] |
//! | [`error`] | [`DecodeError`], [`ValueError`], [`FrameError`] |
//! | [`framer`] | [`Framer`] over a caller-owned buffer, [`framer::Status`] |
//! | [`convert`] | wire ⇄ `board-core` draughts moves, colours, positions |
//! | [`session`] | the sans-IO [`Initiator`](session::Initiator) and [`Follower`](session::Follower) |
//! | `play` | feature `std`: games on one connection over the drivers' callback, either role (move source, ply limit, rejected moves, the initiator's match and report) |
//! | [`stream`] | a recorded byte stream decoded message by message, with stream offsets |
//! | `codec` | feature `tokio`: `DxpCodec` for `tokio_util::codec::Framed` |
//! | `net` | feature `tokio`: `net::serve` (follower) and `net::connect` (initiator) over TCP |
//!
//! Spec: [`spec::damexchange`](crate::spec::damexchange), shipped with this crate (the DamExchange pages
//! by Frank Mesander, protocol version `01`, layers 1 and 2, as checked
//! against Scan 3.1, Moby Dam, pydraughts and dctl); the item docs cite its
//! sections.
#![no_std]
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
// `arbitrary` (and its derive) needs `std`; so do the unit tests.
#[cfg(any(feature = "std", feature = "arbitrary", test))]
extern crate std;

#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod codec;
pub mod convert;
pub mod decode;
pub mod error;
pub mod framer;
pub mod json;
pub mod message;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod net;
pub mod parse;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod play;
pub mod session;
/// The specification notes this crate's documentation cites ("spec note,
/// *Section*"), shipped in the package as `spec/<name>.md` and rendered
/// here, one module per note.
pub mod spec {
    // The DamExchange (DXP) note: transport, dialogue, messages byte by byte, how real implementations differ, board conventions.
    #[doc = include_str!("../spec/damexchange.md")]
    pub mod damexchange {}
}
pub mod stream;
pub mod types;

#[cfg(feature = "arbitrary")]
mod arbitrary_impls;

/// The wire vocabulary in one place: every message type and every value
/// type of the DXP wire, as `message` and `types` define them.
///
/// The wire's own [`Color`](wire::Color), [`Move`](wire::Move),
/// [`Square`](wire::Square), [`Piece`](wire::Piece),
/// [`PieceKind`](wire::PieceKind) and [`Setup`](wire::Setup) live here and
/// not at the crate root, so that `use board_core::draughts::*; use
/// damexchange::*;` leaves those names to board-core's game types (which
/// the sessions take); [`convert`] goes between the two.
///
/// ```
/// use board_core::draughts::*;
/// use damexchange::*;
/// let mv: Move = Position::startpos().legal_moves()[0]; // board-core's
/// let wire: wire::Move = convert::move_to_wire(mv, 3);   // the MOVE message
/// assert_eq!(wire.time(), 3);
/// ```
pub mod wire {
    pub use crate::message::{
        AcceptanceCode, BackAcc, BackAccCode, BackReq, Captures, Chat, DEFAULT_PORT, Describe,
        Encoded, GameAcc, GameEnd, GameEndReason, GameReq, MAX_MESSAGE_LEN, Message, Move, Setup,
        StartPosition, StopCode, Unrecognised,
    };
    pub use crate::types::{
        ChatText, Color, Name, Piece, PieceKind, Square, board_letter, parse_board_letter,
    };
}

pub use decode::{Decode, Leniency, decode, decode_with};
pub use error::{DecodeError, Expected, Field, FrameError, MessageKind, Problem, ValueError};
pub use framer::{Framer, Status};
// The wire types whose names board-core's draughts module does not use;
// the others are in [`wire`].
pub use message::{
    AcceptanceCode, BackAcc, BackAccCode, BackReq, Captures, Chat, DEFAULT_PORT, Encoded, GameAcc,
    GameEnd, GameEndReason, GameReq, MAX_MESSAGE_LEN, Message, StartPosition, StopCode,
    Unrecognised,
};
pub use types::{ChatText, Name, board_letter, parse_board_letter};
