#![no_main]
boardwire_fuzz::value_target!(damexchange, Message, boardwire_fuzz::dxp::value_roundtrip);
