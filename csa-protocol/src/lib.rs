#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! | module | holds |
//! |---|---|
//! | [`types`] | validated wire vocabulary: [`types::UserName`], [`types::Password`], [`types::GameId`], [`types::GameName`], [`types::Side`], [`types::MoveTime`], CSA moves |
//! | [`message`] | [`message::ClientMessage`] (client → server lines, x1 commands), [`message::ServerMessage`] (server → client lines, x1 replies), `Game_Summary` lines and blocks ([`message::GameSummary`]) |
//! | [`parse`] | the parsers of each grammar rule, public so that they can be embedded |
//! | [`decode`](mod@decode) | [`decode::decode`], [`decode::decode_with`], [`decode::Decode`], [`decode::Leniency`] |
//! | [`error`] | [`error::DecodeError`], [`error::ValueError`], [`error::FrameError`] |
//! | [`framer`] | [`framer::Framer`]: LF or CR LF, keep-alive empty lines, a length cap |
//! | [`convert`] | wire ⇄ `board-core` shogi: [`convert::GameBoard`] (a position with its repetition history) |
//! | [`kifu`] | CSA kifu files: V2, V2.1, V2.2, V3.0, raw-byte comments |
//! | [`session`] | sans-IO [`session::Client`] and [`session::Server`] |
//! | `codec` | feature `tokio`: `ClientCodec`, `ServerCodec` (tokio-util) |
//! | `net` | feature `tokio`: `net::serve`, `net::connect`, `net::run`, `net::connect_with`, `net::run_with` |
#![no_std]
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

#[cfg(feature = "arbitrary")]
mod arbitrary;
mod clock;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod codec;
pub mod convert;
pub mod decode;
mod describe;
pub mod error;
pub mod framer;
pub mod join;
pub mod kifu;
pub mod message;
mod moves;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod net;
pub mod parse;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod play;
mod position;
pub mod reading;
pub mod server_log;
pub mod session;
mod sink;
/// The specification notes this crate's documentation cites ("spec note,
/// *Section*"), shipped in the package as `spec/<name>.md` and rendered
/// here, one module per note.
pub mod spec {
    // The CSA shogi server protocol note: lexical rules, plain CSA mode, Game_Summary, moves, results, extended mode (x1), server-side legality, notation.
    #[doc = include_str!("../spec/csa.md")]
    pub mod csa {}
}
pub mod transcript;
pub mod types;

// The family's common names at the crate root, as in `damexchange` and
// `novag-citrine` (docs/SHAPE.md, "The names, as decided").
pub use decode::{Decode, Leniency, decode, decode_with};
pub use error::{DecodeError, Expected, Field, FrameError, MessageKind, Problem, ValueError};
pub use framer::{Framer, Status};
pub use message::{ClientMessage, GameSummary, ServerMessage, X1Command, X1Reply};

#[cfg(test)]
mod tests {
    /// Every error type is a `core::error::Error` (thiserror 2 without
    /// `std`), with or without the `std` feature: a compile-time check.
    #[test]
    fn errors_implement_core_error() {
        fn is_error<E: core::error::Error + Send + Sync + 'static>() {}
        is_error::<crate::error::DecodeError>();
        is_error::<crate::error::ValueError>();
        is_error::<crate::error::FrameError>();
        is_error::<crate::message::SummaryError>();
        is_error::<crate::convert::IllegalMove>();
        is_error::<crate::kifu::KifuError>();
        is_error::<crate::session::CommandError>();
    }

    /// `DecodeError` is `Copy + Hash` (a map key, a set of seen errors), as
    /// in the other protocol crates (docs/SHAPE.md, *Errors*).
    #[test]
    fn decode_error_is_copy_and_hash() {
        fn is_key<E: Copy + Eq + core::hash::Hash>() {}
        is_key::<crate::DecodeError>();
        is_key::<crate::Problem>();
        is_key::<crate::Expected>();
    }
}
