#![no_main]
boardwire_fuzz::decode_target!(
    csa_protocol,
    ServerMessage,
    boardwire_fuzz::csa::server_line
);
