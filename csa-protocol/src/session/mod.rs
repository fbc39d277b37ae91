//! Sans-IO sessions (STYLE.md convention 7): state machines that never touch
//! a socket or the clock. Inputs are `handle_*` calls (bytes received, and
//! the current time, which the caller reads and passes in as a
//! [`Timestamp`]); outputs are pulled with `poll_*`. The two are tested
//! against each other in memory (`tests/games.rs`).
//!
//! # Time
//!
//! The sessions only compare time stamps, add durations to them and measure
//! the time between two of them, so any monotonic clock will do:
//! - with the `std` feature, [`std::time::Instant`](https://doc.rust-lang.org/std/time/struct.Instant.html);
//! - everywhere, [`core::time::Duration`] read as "time since an epoch the
//!   caller chose" (a tick counter, a monotonic timer, or simulated time in
//!   tests), so `no_std` programs need nothing beyond `core`;
//! - any other clock type, by implementing [`Timestamp`].
//!
//! The type is inferred from the first time passed in; where it must be
//! named, name it (`Server<Instant>`, `Client<Duration>`). There is no
//! default type parameter, so turning the `std` feature on (features are
//! additive across a build) never changes what a type means.
//!
//! ```
//! use core::time::Duration;
//! use csa_protocol::session::client::{Client, ClientConfig};
//! use csa_protocol::{Password, UserName};
//!
//! let config = ClientConfig::new(
//!     UserName::new("alice").unwrap(),
//!     Password::new("floodgate-300-10F,secret").unwrap(),
//! );
//! // Time in milliseconds since our own epoch, as a Duration.
//! let mut client: Client<Duration> = Client::new(config, Duration::ZERO);
//! assert_eq!(
//!     client.poll_transmit().unwrap(),
//!     b"LOGIN alice floodgate-300-10F,secret\n"
//! );
//! ```

pub mod client;
pub mod server;

/// A point in time on the caller's monotonic clock (shared by the whole
/// crate family; see [`board_core::time`]).
pub use board_core::time::Timestamp;
