#![no_main]
boardwire_fuzz::decode_target!(
    csa_protocol,
    ClientMessage,
    boardwire_fuzz::csa::client_line
);
