//! The CSA shogi server protocol: the line codec, `Game_Summary` blocks,
//! shogi-server's extended "x1" mode, and CSA kifu files.
//!
//! Shogi programs play on game servers (the CSA championships, Floodgate,
//! private tournaments) over this protocol: TCP port 4081, one ASCII command
//! per line (spec note `docs/specs/csa.md`).
//!
//! | layer | items |
//! |---|---|
//! | framing | [`frame::LineFramer`] (borrowing), [`frame::LineBuffer`] (owning): LF or CRLF, keep-alive empty lines, a length cap |
//! | client lines | [`decode_client_line`] → [`ClientMessage`] / [`X1Command`]; [`ClientMessage::encode`] |
//! | server lines | [`decode_server_line`] → [`ServerMessage`] / [`X1Reply`]; [`ServerMessage::encode`] |
//! | `Game_Summary` | [`GameSummary`] (typed, [`GameSummary::parse`] / [`GameSummary::encode`]), [`GameSummaryReader`] (line by line) |
//! | kifu files | [`kifu::parse_kifu`] / [`kifu::write_kifu`]: V2, V2.1, V2.2, V3.0, raw-byte comments |
//! | sessions | [`session::server::Server`], [`session::client::Client`]: sans-IO, time passed in |
//! | TCP | `net::serve`, `net::play` (feature `tokio`) |
//!
//! Decoding borrows from the line and never allocates; every decoded value
//! has an owned form (`into_owned`). Every value that can be constructed
//! encodes to a valid line that decodes back to itself (validation happens
//! in the constructors: [`UserName::new`], [`Password::new`], ...). A line
//! that is no protocol line at all decodes to an `Unrecognised` value; a
//! malformed protocol line is a [`DecodeError`] naming the line kind, the
//! field and the column. Passwords are wrapped ([`Password`]) so that
//! `Debug` output never shows them.
//!
//! CSA move notation (`+7776FU`) and the CSA position notation belong to
//! `board-core` ([`board_core::shogi`]); this crate uses them.
//!
//! ```
//! use csa_protocol::{decode_client_line, ClientMessage};
//!
//! let msg = decode_client_line(b"LOGIN alice floodgate-300-10F,secret x1").unwrap();
//! let ClientMessage::Login { name, password, x1 } = &msg else { panic!() };
//! assert_eq!((name.as_str(), x1), ("alice", &true));
//! assert!(!format!("{msg:?}").contains("secret"));
//! assert_eq!(msg.to_line(), b"LOGIN alice floodgate-300-10F,secret x1");
//! let _ = password;
//! ```
#![no_std]
#![deny(unsafe_code)]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

mod board;
mod client;
mod clock;
mod cursor;
mod error;
pub mod frame;
pub mod kifu;
mod moves;
#[cfg(feature = "tokio")]
pub mod net;
mod position;
mod server;
pub mod session;
mod sink;
mod summary;
mod types;

pub use board::{GameBoard, IllegalMove, MAX_HISTORY, PlayOutcome};
pub use client::{ClientMessage, GameRequest, SpecialMove, X1Command, decode_client_line};
pub use clock::{Clock, TimeControl};
pub use error::{DecodeError, Problem, ValueError};
pub use moves::{BuoyMoves, CsaMove, MOVE_LEN, move_side};
pub use position::MAX_POSITION_LINE;
pub use server::{
    EndReason, Outcome, Raw, ServerMessage, ServerSpecial, SummaryLine, WhoEntry, X1Reply,
    decode_server_line,
};
pub use summary::{
    FieldKey, GameSummary, GameSummaryReader, PositionSection, SummaryError, TimeBase, TimeSection,
    TimeUnit,
};
pub use types::{
    GameId, GameName, GameNameTime, MoveTime, Password, Side, SidePreference, Tag, Text, UserName,
    Word,
};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
