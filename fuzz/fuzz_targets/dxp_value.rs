#![no_main]
libfuzzer_sys::fuzz_target!(|msgs: Vec<damexchange::Message<'static>>| boardwire_fuzz::dxp::value_roundtrip(&msgs));
