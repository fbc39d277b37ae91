#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| boardwire_fuzz::draughts_reference::differential(data));
