#![doc = include_str!("../README.md")]
//!
//! # Modules
//!
//! A tool crate: it depends on the protocol crates and adds the engine
//! side.
//!
//! | module | holds |
//! |---|---|
//! | [`error`] | [`error::DecodeError`] (message, field, 0-based byte offset, problem), [`error::ValueError`] |
//! | [`types`] | [`types::Text`] (one command line's text), [`types::EngineOption`] (`--option NAME=VALUE`) |
//! | [`parse`] | `nom` parsers of the USI/UCI engine output grammar, one per rule |
//! | [`usi`] | USI: `usi::decode` (engine lines), `usi::Command` (encoders) |
//! | [`uci`] | UCI: `uci::decode` (engine lines), `uci::Command` (encoders) |
//! | [`uci_engine`] | a UCI engine through its handshake, games and moves |
//! | [`hub`] | Hub v2 (draughts): `hub::decode` (engine lines, `key=value` pairs), `hub::Command`, `HubMove` (from, to, captured set), the `pos=` string |
//! | [`hub_engine`] | a Hub engine through its start-up and searches |
//! | [`dxp_bridge`] | a Hub engine playing one side of DXP games: GAMEREQ clock → `level`, `done` → MOVE, take-backs, failures |
//! | [`time`] | CSA clocks (Game_Summary, `,T` confirmations) → USI `go` |
//! | [`convert`] | USI ⇄ board-core ⇄ CSA moves; Floodgate comments `'* <score> <PV>` |
//! | [`process`] | the tokio child-process driver: spawn (no shell), line cap, timeouts |
//! | [`usi_engine`] | a USI engine through its handshake, games and moves |
//!
//! Engine output is decoded without allocating (`decode` borrows the
//! line); encoders cannot fail (texts are validated when made).

pub mod convert;
pub mod dxp_bridge;
pub mod error;
pub mod hub;
pub mod hub_engine;
mod line_engine;
pub mod parse;
pub mod process;
/// The specification notes this crate's documentation cites ("spec note,
/// *Section*"), shipped in the package as `spec/<name>.md` and rendered
/// here, one module per note.
pub mod spec {
    // The Hub protocol note (draughts engines): syntax, start-up, a search, moves, and bridging to DXP.
    #[doc = include_str!("../spec/hub.md")]
    pub mod hub {}
}
pub mod time;
pub mod types;
pub mod uci;
pub mod uci_engine;
pub mod usi;
pub mod usi_engine;

/// The README's examples, compiled as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
