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
//! The reference for every item is the boardwire project's spec note on the
//! Citrine protocol (Novag's 2008 "Citrine to PC Communication Protocol",
//! captured device output, Scid's Novag module); the item docs cite its
//! sections ("Link", "Commands (host -> device) and replies (device ->
//! host)", "Move text the Citrine prints", "Pacing", "Known field
//! problems"). Where the protocol document and captured device output
//! differ, both spellings are accepted (`ID.UCBII VI.09` / `ID. UCBII
//! V1.09`, `t 2 g8-f6` / `T   1,  e7-e5`, move lines with and without the
//! trailing ` |`).
//!
//! # Features and `no_std`
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | links `std`; [`Timestamp`] for `std::time::Instant` |
//! | `serialport` | yes | the `serial` module (implies `std`) |
//!
//! The crate is `#![no_std]` and needs `alloc` (the driver's and device's
//! queues, owned lines); decoding a reply never allocates. The driver and
//! the device take the time from the caller as a [`Timestamp`]:
//! `std::time::Instant` with `std`, or a [`core::time::Duration`] since an
//! origin of the caller's choice.
//!
//! ```
//! use novag_citrine::{Command, Reply, convert};
//! use novag_citrine::vocab::Position;
//!
//! let e2e4 = Position::startpos().parse_uci("e2e4")?;
//! assert_eq!(Command::Move(convert::to_host_move(e2e4)).to_bytes(), b"M e2e4\r\n");
//! let Reply::Move(ack) = Reply::decode(b"M   1   e2-e4 |")? else { unreachable!() };
//! assert_eq!(convert::to_move(&Position::startpos(), &ack.text)?, e2e4);
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```

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
mod time;
mod types;
pub mod vocab;

pub use command::{Command, HostMove, LevelTarget};
pub use error::{DecodeError, ErrorKind, Field, ValueError};
pub use framer::{Frame, LineFramer, Step};
pub use reply::{DiagramRow, MoveLine, RawLine, Reply};
pub use time::Timestamp;
pub use types::{ClockTime, Level, LevelKind, MoveNumber, MoveText, NormalMove, Promotion, Token};

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
