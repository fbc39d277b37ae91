#![no_main]
boardwire_fuzz::decode_target!(damexchange, Message, boardwire_fuzz::dxp::decode_any);
