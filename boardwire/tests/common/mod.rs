//! Helpers shared by the CLI test binaries: run the built `boardwire` and
//! read its output.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `boardwire` with `args` and waits for it.
pub fn boardwire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `boardwire` with `args`, `input` on its stdin, and waits for it.
pub fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The process's stdout as UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The process's stderr as UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
