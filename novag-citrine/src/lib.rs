#![doc = include_str!("../README.md")]
//!
//! # Modules
//!
//! | module | holds |
//! |---|---|
//! | [`types`] | validated wire vocabulary: [`MoveNumber`](types::MoveNumber), [`ClockTime`](types::ClockTime), [`Level`](types::Level), [`MoveText`](types::MoveText), [`Token`](types::Token), ...; [`vocab`]: board-core's chess types re-exported |
//! | [`message`] | [`Command`](message::Command) (host → device), [`Reply`](message::Reply) (device → host); encoders that cannot fail, `Display` the wire line, `describe()` for transcripts |
//! | [`parse`] | the nom parsers, one public function per grammar rule |
//! | [`decode`](mod@decode) | [`decode::<Reply>(line)`](decode::decode), [`decode::<Command>(line)`](decode::decode), [`decode_with`], [`Leniency`] |
//! | [`error`] | [`DecodeError`] (with [`MessageKind`], [`Field`], [`Problem`], [`Expected`]), [`ValueError`], [`FrameError`] |
//! | [`framer`] | [`Framer`](framer::Framer): CR / LF / CR LF lines over a caller-owned buffer, with a cap ([`framer::DEFAULT_MAX_LEN`], 256 bytes, by default) |
//! | [`convert`] | printed moves ⇄ board-core chess moves against a position; typed moves (UCI or SAN) |
//! | [`session`] | sans-IO [`Driver`](session::Driver) (host) and [`Device`](session::Device) (simulated Citrine) |
//! | `codec` | feature `tokio`: `HostCodec`, `DeviceCodec` for `tokio_util::codec::Framed` |
//! | `serial` | feature `serial` (opt-in): the driver that owns the port (`serial::connect`, `serial::run`, `serial::Config`, `serial::Limits`, `serial::open`), the simulator on a pty, and with `tokio` on Unix `serial::AsyncPort` (the port as `AsyncRead + AsyncWrite` for the codecs) |
//!
//! The reference for every item is [`spec::citrine`](crate::spec::citrine), shipped
//! with this crate (Novag's 2008 "Citrine to PC Communication Protocol",
//! captured device output, Scid's Novag module); item docs cite its
//! sections (*Link*, *Commands (host -> device) and replies (device ->
//! host)*, *Move text the Citrine prints*, *Pacing*, *Known field
//! problems*).

#![no_std]
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

#[cfg(feature = "arbitrary")]
mod arbitrary_impls;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod codec;
pub mod convert;
pub mod decode;
pub mod error;
mod event_text;
pub mod framer;
pub mod message;
pub mod parse;
#[cfg(feature = "serial")]
#[cfg_attr(docsrs, doc(cfg(feature = "serial")))]
pub mod serial;
pub mod session;
/// The specification notes this crate's documentation cites ("spec note,
/// *Section*"), shipped in the package as `spec/<name>.md` and rendered
/// here, one module per note.
pub mod spec {
    // The Novag Citrine serial protocol note: link settings, commands and replies, move text, pacing, known field problems.
    #[doc = include_str!("../spec/citrine.md")]
    pub mod citrine {}
}
pub mod types;
pub mod vocab;

// The family's common names at the crate root, as in `damexchange` and
// `csa-protocol` (docs/SHAPE.md, "The names, as decided").
pub use decode::{Decode, Leniency, decode, decode_with};
pub use error::{DecodeError, Expected, Field, FrameError, MessageKind, Problem, ValueError};
pub use framer::{Framer, Status};
pub use message::{Command, Reply};
