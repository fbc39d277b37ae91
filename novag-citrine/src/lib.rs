//! The Novag Citrine chess computer's RS-232 protocol (57600 baud, 8N1, no
//! flow control; text lines ended with CR LF).
//!
//! Layers, each usable on its own:
//!
//! | layer | items |
//! |---|---|
//! | framing | [`LineFramer`]: line boundaries (CR, LF, CR LF) with a length cap |
//! | codec | [`Command`] (host -> device, infallible encoding), [`Reply`] (device -> host, zero-copy decoding, unknown lines as [`Reply::Unrecognised`]) |
//! | session | [`driver::Driver`]: sans-IO host driver (pacing, duplicate acks, take-backs, resync via `P`) |
//! | simulation | [`device::Device`]: sans-IO simulated Citrine with misbehaviour switches; [`player::Player`]: a small built-in player |
//! | I/O (feature `serialport`, default) | `serial`: 57600 8N1 transport with read timeouts and device-loss errors; `serial::Simulator`: the simulated device on a pty |
//! | moves | [`convert`]: printed moves ⇄ board-core chess moves against a position |
//!
//! The reference for every item is the workspace's spec note on the Citrine
//! protocol (`docs/specs/citrine.md`); section names are cited in the docs.
//! Where the protocol document and captured device output differ, both
//! spellings are accepted (`ID.UCBII VI.09` / `ID. UCBII V1.09`, `t 2 g8-f6`
//! / `T   1,  e7-e5`, move lines with and without the trailing ` |`).

#![no_std]
#![deny(unsafe_code)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod command;
pub mod convert;
pub mod device;
pub mod driver;
mod error;
mod framer;
mod parse;
pub mod player;
mod reply;
#[cfg(feature = "serialport")]
pub mod serial;
mod types;
pub mod vocab;

pub use command::{Command, HostMove, LevelTarget};
pub use error::{DecodeError, ErrorKind, Field, ValueError};
pub use framer::{Frame, LineFramer, Step};
pub use reply::{DiagramRow, MoveLine, RawLine, Reply};
pub use types::{ClockTime, Level, LevelKind, MoveNumber, MoveText, NormalMove, Promotion, Token};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
