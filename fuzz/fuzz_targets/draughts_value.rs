#![no_main]
use board_core::draughts::{PdnMove, Position, SquareSet};
libfuzzer_sys::fuzz_target!(
    |v: (Position, PdnMove, SquareSet)| boardwire_fuzz::draughts::value(&v.0, v.1, v.2)
);
