#![no_main]
libfuzzer_sys::fuzz_target!(|cmd: novag_citrine::message::Command<'_>| {
    boardwire_fuzz::citrine::command_value(&cmd)
});
