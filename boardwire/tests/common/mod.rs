//! Helpers shared by the CLI test binaries: run the built `boardwire` and
//! read its output.

use std::process::{Command, Output};

/// Runs `boardwire` with `args` and waits for it.
pub fn boardwire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(args)
        .output()
        .unwrap()
}

/// The process's stdout as UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The process's stderr as UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
