#![no_main]
libfuzzer_sys::fuzz_target!(|msgs: Vec<csa_protocol::message::ServerMessage<'static>>| {
    boardwire_fuzz::csa::server_value(&msgs)
});
