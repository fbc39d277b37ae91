#![doc = include_str!("../README.md")]
//!
//! ## API map
//!
//! | layer | items |
//! |---|---|
//! | framing | [`frame::LineFramer`] (borrowing), [`frame::LineBuffer`] (owning): LF or CRLF, keep-alive empty lines, a length cap |
//! | client lines | [`decode_client_line`] → [`ClientMessage`] / [`X1Command`]; [`ClientMessage::encode`] |
//! | server lines | [`decode_server_line`] → [`ServerMessage`] / [`X1Reply`]; [`ServerMessage::encode`] |
//! | `Game_Summary` | [`GameSummary`] (typed, [`GameSummary::parse`] / [`GameSummary::encode`]), [`GameSummaryReader`] (line by line) |
//! | kifu files | [`kifu::parse_kifu`] / [`kifu::write_kifu`]: V2, V2.1, V2.2, V3.0, raw-byte comments |
//! | sessions | [`session::server::Server`], [`session::client::Client`]: sans-IO, time passed in as a [`session::Timestamp`] |
//! | TCP | `net::serve`, `net::play` (feature `tokio`) |
//! | board | [`GameBoard`]: a `board-core` shogi position with the game's history (repetition, perpetual check) |
//!
//! Decoding borrows from the line and never allocates; every decoded value
//! has an owned form (`into_owned`). A line that is no protocol line at all
//! decodes to an `Unrecognised` value; a malformed protocol line is a
//! [`DecodeError`] naming the line kind, the field and the column.
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

#[cfg(test)]
mod tests {
    /// Every error type is a `core::error::Error` (thiserror 2 without
    /// `std`), with or without the `std` feature: a compile-time check.
    #[test]
    fn errors_implement_core_error() {
        fn is_error<E: core::error::Error + Send + Sync + 'static>() {}
        is_error::<crate::DecodeError>();
        is_error::<crate::ValueError>();
        is_error::<crate::SummaryError>();
        is_error::<crate::IllegalMove>();
        is_error::<crate::kifu::KifuError>();
        is_error::<crate::session::client::ClientError>();
    }
}
