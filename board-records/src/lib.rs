//! Game records over [`board_core`]: the files people keep their games in.
//!
//! Today: **PGN** (chess), the PGN standard's import and export formats
//! and what real exports carry ([`pgn`]), and a first slice of **PDN**
//! (international draughts, [`pdn`]), and **KIF/KI2** (shogi, [`kif`]).
//! The crate is meant to hold every
//! record format of the three games (CSA files for shogi next)
//! over one structure: a zero-copy streaming reader over
//! `&[u8]` with a visitor, an owned game built from it with every move
//! checked against board-core's rules, and an infallible writer.
//!
//! Why a crate of its own and not modules of the protocol crates: a
//! record is no wire protocol (no frames, no sessions), it concerns a
//! whole game of one of board-core's games, and the tools that save games
//! (a DXP match, a Citrine session, a CSA game) each need the record
//! format of *another* protocol's game family less often than the same
//! record code for several of them. Keeping it beside board-core (which
//! stays allocation-free and depends on `thiserror` only) lets the
//! protocol crates stay slim and gives users who only have files one
//! small dependency.
//!
//! ```
//! use board_records::pgn::Reader;
//!
//! let pgn = b"[Event \"Casual\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let mut reader = Reader::new(pgn);
//! let game = reader.next_game().unwrap()?;
//! assert_eq!(game.tags.get("Event"), Some("Casual"));
//! assert_eq!(game.moves.len(), 7);
//! assert_eq!(game.moves[6].san(), "Qxf7#");
//! assert!(game.end_position().is_checkmate());
//! # Ok::<(), board_records::pgn::ReadError>(())
//! ```
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod annotated;
pub mod error;
pub mod kif;
pub mod pdn;
pub mod pgn;

/// The spec notes this crate implements, rendered as documentation.
pub mod spec {
    /// PGN (chess) and PDN (international draughts): reader/writer notes.
    #[doc = include_str!("../spec/pgn-pdn.md")]
    pub mod pgn_pdn {}

    /// Shogi records: KIF, KI2 and CSA files (reader/writer notes).
    #[doc = include_str!("../spec/shogi-records.md")]
    pub mod shogi_records {}
}
