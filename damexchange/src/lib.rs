//! DamExchange (DXP): the protocol two international-draughts (10x10)
//! programs use to play each other over TCP (default port 27531).
//!
//! * [`decode`] / [`decode_with`]: one message from one frame, zero-copy
//!   (names and chat text borrow the input), strict by default with
//!   runtime [`Leniency`] options for real peers' quirks. Errors
//!   ([`DecodeError`]) name the message, field and byte offset.
//! * [`Message`] and its seven message types with validated constructors;
//!   [`Message::encode`] cannot fail and every value decodes back to itself.
//! * [`Framer`]: the NUL-terminated stream, 127-byte frame cap, over-long
//!   frames reported and skipped, never rescanning.
//! * `DxpCodec` (feature `tokio`): a `tokio-util` `Decoder`/`Encoder`.
//! * [`session`]: sans-IO [`Initiator`](session::Initiator) and
//!   [`Follower`](session::Follower) state machines that keep the game with
//!   `board-core` (legal moves, take-backs, move numbers) and never touch a
//!   socket or the clock (the time is passed in as a
//!   [`Timestamp`](session::Timestamp)).
//!
//! Spec: the DamExchange pages by Frank Mesander, protocol version `01`,
//! layers 1 (transport) and 2 (dialogue and messages), as summarised in the
//! boardwire project's DXP notes; the item docs cite their sections and say
//! where real implementations differ from the text (see the README's
//! "Where peers disagree").
//!
//! # Features and `no_std`
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | links `std`; [`Timestamp`](session::Timestamp) for `std::time::Instant` |
//! | `tokio` | no | `DxpCodec` for `tokio_util::codec::Framed` (implies `std`) |
//! | `arbitrary` | no | `arbitrary::Arbitrary` for the message types (links `std`) |
//!
//! The crate is `#![no_std]` and needs `alloc` (owned names, the sessions'
//! queues); decoding itself never allocates.
//!
//! ```
//! use damexchange::{decode, Message, Framer};
//! let msg = decode(b"R01Tornado voor Windows 4.0        W060065A").unwrap();
//! let Message::GameReq(req) = &msg else { unreachable!() };
//! assert_eq!(req.initiator().as_str(), "Tornado voor Windows 4.0");
//! assert_eq!((req.minutes(), req.moves()), (60, 65));
//! assert_eq!(msg.encode().as_bytes(), b"R01Tornado voor Windows 4.0        W060065A");
//! ```
#![no_std]
#![deny(unsafe_code)]

extern crate alloc;
// `arbitrary` (and its derive) needs `std`; so do the unit tests.
#[cfg(any(feature = "std", feature = "arbitrary", test))]
extern crate std;

#[cfg(feature = "tokio")]
mod codec;
mod decode;
mod error;
mod framer;
mod message;
pub mod session;
mod types;

#[cfg(feature = "arbitrary")]
mod arbitrary_impls;

#[cfg(feature = "tokio")]
pub use codec::DxpCodec;
pub use decode::{Leniency, decode, decode_with};
pub use error::{DecodeError, Expected, Field, MessageKind, ValueError};
pub use framer::{FrameError, Framer};
pub use message::{
    AcceptanceCode, BackAcc, BackAccCode, BackReq, Captures, Chat, DEFAULT_PORT, Encoded, GameAcc,
    GameEnd, GameEndReason, GameReq, MAX_MESSAGE_LEN, Message, Move, Setup, StartPosition,
    StopCode,
};
pub use types::{
    ChatText, Color, Name, Piece, PieceKind, Square, board_letter, parse_board_letter,
};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
