#![no_main]
boardwire_fuzz::value_target!(novag_citrine, Command, |commands: &[_]| commands
    .iter()
    .for_each(boardwire_fuzz::citrine::command_value));
