//! Sans-IO sessions: state machines that never touch a socket or the
//! clock. [`Client`] plays on a CSA server; [`Server`] serves many
//! connections.
//!
//! # Call order (the same for every session of the crate family)
//!
//! ```text
//! session.handle_input(bytes, now);        // raw bytes from the wire
//! session.handle_message(&msg, now);       // or a message a codec decoded
//! session.handle_frame_error(&err, now);   // or what the codec reported instead
//! session.handle_timeout(now);             // when poll_timeout() has passed
//! session.handle_close(now);               // the peer closed the stream
//! session.send_move(mv, now)?;             // commands return Result<_, CommandError>
//! while let Some(t) = session.poll_transmit() { write(t) }  // 1. bytes to write
//! while let Some(e) = session.poll_event() { react(e) }     // 2. what happened
//! let next = session.poll_timeout();                        // 3. when to wake
//! ```
//!
//! The [`Server`] takes a connection id ([`ConnId`]) as the first argument
//! of every input (`handle_connect(conn, now)`, `handle_input(conn, bytes,
//! now)`, `handle_message(conn, &msg, now)`, `handle_frame_error(conn,
//! &err, now)`, `handle_close(conn, now)`) and
//! its `poll_transmit()` yields `(conn, transmit)`; a transmit with
//! [`Transmit::closes`] asks the I/O layer to close that connection
//! once the bytes are written.
//!
//! # Time
//!
//! The sessions only compare time stamps, add durations to them and measure
//! the time between two of them, so any monotonic clock will do: with `std`,
//! `std::time::Instant`; everywhere, [`core::time::Duration`] read as "time
//! since an epoch the caller chose" (a tick counter, or simulated time in
//! tests); any other clock type, by implementing [`Timestamp`].
//!
//! ```
//! use core::time::Duration;
//! use csa_protocol::session::{Client, ClientConfig};
//! use csa_protocol::types::{Password, UserName};
//!
//! let config = ClientConfig::new(
//!     UserName::new("alice").unwrap(),
//!     Password::new("floodgate-300-10F,secret").unwrap(),
//! );
//! let mut client: Client<Duration> = Client::new(config, Duration::ZERO);
//! assert_eq!(
//!     client.poll_transmit().unwrap().as_bytes(),
//!     b"LOGIN alice floodgate-300-10F,secret\n"
//! );
//! ```

pub mod client;
pub mod server;

pub use crate::clock::{Clock, TimeControl};
pub use client::{
    Awaited, Client, ClientConfig, ClientState, CommandError, Event, GameEnded, GameStarted,
    Outcome,
};
pub use server::{
    ConnId, GameRecord, League, LeagueGame, LeagueResult, LeagueRound, Rating, RatingIds, Server,
    ServerConfig, ServerEvent, WaitingPlayer,
};

/// A point in time on the caller's monotonic clock (shared by the whole
/// crate family; see [`board_core::time`]).
pub use board_core::time::Timestamp;

/// Bytes a session wants written: one or more whole lines, each with its
/// LF, and (from the [`Server`]) whether the connection is to be closed
/// after them ([`Transmit::closes`]; the bytes may then be empty). The
/// family's one `Transmit`, shared with `damexchange` and `novag-citrine`.
pub use boardwire_proto::Transmit;

/// The family's sans-IO contract, implemented by [`Client`] (`Conn = ()`)
/// and [`Server`] (`Conn =` [`ConnId`]): code written once over it runs any
/// session of `damexchange`, `csa-protocol` and `novag-citrine`.
pub use boardwire_proto::Session;
/// Two one-peer sessions wired together in memory (tests, examples,
/// simulations): `pump`, `next_deadline`, `handle_timeouts`, and the loop
/// that works for every session of the family (the shared core's).
pub use boardwire_proto::memory;

/// The default of [`ClientConfig::max_game_plies`] (20,000 plies): the
/// family's one default, `boardwire_proto`'s, whose documentation gives
/// the published facts it is chosen from.
pub use boardwire_proto::DEFAULT_MAX_GAME_PLIES;
