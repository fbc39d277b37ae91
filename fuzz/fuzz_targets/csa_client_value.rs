#![no_main]
boardwire_fuzz::value_target!(
    csa_protocol,
    ClientMessage,
    boardwire_fuzz::csa::client_value
);
