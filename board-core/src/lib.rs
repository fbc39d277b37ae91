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

// `arbitrary` needs `std`; so do the unit tests (also without `std`).
#[cfg(any(feature = "std", feature = "arbitrary", test))]
extern crate std;

#[cfg(feature = "arbitrary")]
mod arbitrary_impls;

/// `impl core::ops::Not for COLOR` forwarding to the colour's inherent
/// `opposite()`: the three games' colours share it (a trait impl that
/// forwards, nothing else).
macro_rules! not_is_opposite {
    ($color:ty) => {
        impl core::ops::Not for $color {
            type Output = $color;
            #[inline]
            fn not(self) -> $color {
                self.opposite()
            }
        }
    };
}

/// `impl Default for POSITION` forwarding to the position's inherent
/// `startpos()`: the three games' positions share it (a trait impl that
/// forwards, nothing else).
macro_rules! default_is_startpos {
    ($position:ty) => {
        impl Default for $position {
            /// The start position (`startpos()`).
            fn default() -> Self {
                Self::startpos()
            }
        }
    };
}

pub mod chess;
pub mod draughts;
mod game;
mod movelist;
pub mod player;
pub mod shogi;
/// The specification notes this crate's documentation cites ("spec note,
/// *Section*"), shipped in the package as `spec/<name>.md` and rendered
/// here, one module per note.
pub mod spec {
    // A copy of the damexchange crate's spec/damexchange.md (tests/spec_copy.rs
    // keeps it identical): its *Board conventions users expect* section is the
    // draughts board this crate implements.
    #[doc = include_str!("../spec/damexchange.md")]
    pub mod damexchange {}
}
pub mod time;

pub use game::Game;
pub use movelist::{CapacityError, MoveList, MoveListIntoIter};
