#![no_main]
boardwire_fuzz::value_target!(
    csa_protocol,
    ServerMessage,
    boardwire_fuzz::csa::server_value
);
