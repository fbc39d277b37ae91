#![no_main]
libfuzzer_sys::fuzz_target!(|s: csa_protocol::message::GameSummary| {
    boardwire_fuzz::csa::summary_value(&s)
});
