#![no_main]
libfuzzer_sys::fuzz_target!(|msgs: Vec<csa_protocol::message::ClientMessage<'static>>| {
    boardwire_fuzz::csa::client_value(&msgs)
});
