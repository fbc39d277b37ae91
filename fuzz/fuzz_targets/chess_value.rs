#![no_main]
use board_core::chess::{Move, Position, UciMove};
libfuzzer_sys::fuzz_target!(|v: (Position, Move, UciMove)| boardwire_fuzz::chess::value(
    &v.0, v.1, v.2
));
