#![no_main]
boardwire_fuzz::decode_target!(novag_citrine, Command);
