#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| boardwire_fuzz::citrine::session(data));
