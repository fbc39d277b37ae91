#![no_main]
use board_core::shogi::{CsaMove, Move, Position};
libfuzzer_sys::fuzz_target!(|v: (Position, Move, CsaMove)| boardwire_fuzz::shogi::value(
    &v.0, v.1, v.2
));
