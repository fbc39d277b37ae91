#![no_main]
libfuzzer_sys::fuzz_target!(|msgs: Vec<damexchange::Message<'_>>| {
    boardwire_fuzz::dxp::value_roundtrip(&msgs)
});
