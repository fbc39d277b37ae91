#![no_main]
boardwire_fuzz::decode_target!(novag_citrine, Reply, boardwire_fuzz::citrine::reply_decode);
