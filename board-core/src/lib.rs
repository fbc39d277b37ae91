#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! [`draughts`], [`chess`] and [`shogi`] hold one game each; [`MoveList`]
//! is the fixed-capacity list their `legal_moves()` return; [`time`] is the
//! clock reading the protocol crates' sans-IO sessions take.
#![no_std]
#![deny(unsafe_code)]

#[cfg(feature = "std")]
extern crate std;

pub mod chess;
pub mod draughts;
mod movelist;
pub mod player;
pub mod shogi;
pub mod time;

pub use movelist::{CapacityError, MoveList};
