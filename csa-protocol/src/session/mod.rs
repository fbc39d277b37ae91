//! Sans-IO sessions (STYLE.md convention 7): state machines that never touch
//! a socket or the clock. Inputs are `handle_*` calls (bytes received, time
//! passed in as [`std::time::Instant`]); outputs are pulled with `poll_*`.
//! The two are tested against each other in memory (`tests/games.rs`).

pub mod client;
pub mod server;
