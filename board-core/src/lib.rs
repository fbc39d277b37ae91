//! Rules, legal move generation, notations and perft for the board games the
//! boardwire family speaks: international draughts (10x10), chess and shogi.
//!
//! Every game module has the same shape, so a reader who knows one knows the
//! others:
//!
//! | item | meaning |
//! |---|---|
//! | `Position` | a validated position; `FromStr` parses the game's position text (PDN FEN, FEN, SFEN), `Display` prints it canonically |
//! | `Move` | a small `Copy` move value |
//! | `Position::legal_moves()` | every legal move, in a fixed-capacity [`MoveList`] (no heap allocation) |
//! | `Position::play(self, mv)` | checked: returns the new position, or the unchanged position and the reason on an illegal move |
//! | `Position::play_unchecked(&mut self, mv)` | fast path for moves taken from `legal_moves()` |
//! | `perft(&position, depth)` | leaf-node count, the move generator's oracle |
//!
//! Syntax errors (`ParseMoveError`, `ParseFenError`, ...) and legality errors
//! (`IllegalMoveError`, `PlayError`) are separate types.
//!
//! The crate is `#![no_std]` and never allocates while generating moves,
//! playing them or counting perft.
#![no_std]
#![deny(unsafe_code)]

#[cfg(feature = "std")]
extern crate std;

pub mod chess;
pub mod draughts;
mod movelist;
pub mod shogi;

pub use movelist::{CapacityError, MoveList};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
