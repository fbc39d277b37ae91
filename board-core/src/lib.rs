#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! [`draughts`], [`chess`] and [`shogi`] hold one game each; [`Game`] is
//! the trait over their positions (one shape: the same method names and
//! types in the three games, and the generic [`Game::perft`]);
//! [`MoveList`] is the fixed-capacity list their `legal_moves()` return;
//! [`player`] is the built-in move chooser; [`time`] is the clock reading
//! the protocol crates' sans-IO sessions take.
#![no_std]
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// `arbitrary` needs `std`.
#[cfg(any(feature = "std", feature = "arbitrary"))]
extern crate std;

#[cfg(feature = "arbitrary")]
mod arbitrary_impls;

pub mod chess;
pub mod draughts;
mod game;
mod movelist;
pub mod player;
pub mod shogi;
pub mod time;

pub use game::Game;
pub use movelist::{CapacityError, MoveList, MoveListIntoIter};
