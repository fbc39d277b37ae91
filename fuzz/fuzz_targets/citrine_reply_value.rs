#![no_main]
libfuzzer_sys::fuzz_target!(|reply: novag_citrine::message::Reply<'_>| {
    boardwire_fuzz::citrine::reply_value(&reply)
});
