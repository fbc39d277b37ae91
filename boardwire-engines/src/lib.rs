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
//! | [`line_engine`] | what the three engine drivers share: one generic [`line_engine::LineEngine`] (start-up, name, `quit`; bad lines, timeouts, searches), [`line_engine::Timeouts`], [`line_engine::Skipped`] |
//! | [`uci_engine`] | a UCI engine through its handshake, games and moves |
//! | [`hub`] | Hub v2 (draughts): `hub::decode` (engine lines, `key=value` pairs), `hub::Command`, `HubMove` (from, to, captured set), the `pos=` string |
//! | [`hub_engine`] | a Hub engine through its start-up and searches |
//! | [`dxp_bridge`] | a Hub engine playing one side of DXP games: GAMEREQ clock → `level`, `done` → MOVE, take-backs, failures |
//! | [`csa_bridge`] | a USI engine playing CSA games: Game_Summary → `AGREE`, both clocks → `go`, `bestmove` → the CSA move with its Floodgate comment, `resign`/`win` → `%TORYO`/`%KACHI`, `gameover`, failures |
//! | [`citrine_bridge`] | a UCI engine playing the host's side against a Novag Citrine: position → `go movetime`, `bestmove` → `M`, new games, take-backs, failures |
//! | [`citrine_host`] | the host's side of a Citrine game (`boardwire citrine`) without port or terminal: the driver's activity and typed lines in, the built-in player or the engine, lines for a person out |
//! | [`time`] | CSA clocks (Game_Summary, `,T` confirmations) → USI `go` |
//! | [`convert`] | USI ⇄ board-core ⇄ CSA moves; Floodgate comments `'* <score> <PV>` |
//! | [`process`] | the tokio child-process driver: spawn (no shell), line cap, timeouts |
//! | [`usi_engine`] | a USI engine through its handshake, games and moves |
//!
//! The three bridges have one shape: `spawn` starts the engine in a task
//! of its own (driven by the one child-process driver, [`process`]) and
//! returns the bridge and the channel of its answers; the caller passes
//! the session's events on (`game_started` — CSA: `game_offered`, where
//! the game is agreed —, `our_turn` whenever the session is idle, `answer`
//! for each answer, `taken_back` where the protocol has take-backs,
//! `game_ended`) and reads `failed()`; the calls return a `Report` for the
//! transcript.
//!
//! Engine output is decoded without allocating (`decode` borrows the
//! line); encoders cannot fail (texts are validated when made).

mod bridge;
pub mod citrine_bridge;
mod citrine_events;
pub mod citrine_host;
mod command_line;
pub mod convert;
pub mod csa_bridge;
pub mod dxp_bridge;
pub mod error;
pub mod hub;
pub mod hub_engine;
pub mod line_engine;
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
