//! Helpers shared by the CLI test binaries: run the built `boardwire` and
//! read its output. Each test binary uses only some of them.
#![allow(dead_code)]

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
    // A run that refuses its arguments exits without reading its input:
    // the write then meets a closed pipe, which is no failure of the test.
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
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

/// Asserts that `text` contains `needle`, showing `text` when not.
#[track_caller]
pub fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "no {needle:?} in:\n{text}");
}

/// Asserts the exit code of `o` (showing its stderr when it differs) and
/// returns its stderr.
#[track_caller]
pub fn exited(o: &Output, code: i32) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{err}");
    err
}

/// A finished (or killed) run of [`run_bounded`] or [`finish`].
pub struct Run {
    /// The exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// Killed after the time limit.
    pub timed_out: bool,
    /// Its stdout (UTF-8).
    pub stdout: String,
    /// Its stderr (UTF-8).
    pub stderr: String,
}

impl Run {
    /// Asserts that the run ended by itself with exit code `code`.
    #[track_caller]
    pub fn exited(&self, code: i32) {
        assert!(!self.timed_out, "hung; output so far:\n{}", self.stdout);
        assert_eq!(self.code, Some(code), "{}\n{}", self.stdout, self.stderr);
    }
}

/// Starts `boardwire` with `args`, stdin, stdout and stderr piped.
pub fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` up to `limit`, kills it after that; `stdin` is kept
/// open until then (dropping it would be an end of input). The pipes are
/// read on threads so a chatty child never blocks on them.
pub fn finish(
    mut child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    limit: std::time::Duration,
) -> Run {
    use std::io::Read;
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            r.read_to_string(&mut s).unwrap();
            s
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    let start = std::time::Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            timed_out = true;
            child.kill().unwrap();
            break child.wait().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    drop(stdin);
    Run {
        code: status.code(),
        timed_out,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Runs `boardwire` with `args` and stdin open but silent, killing it after
/// `limit`.
pub fn run_bounded(args: &[&str], limit: std::time::Duration) -> Run {
    let mut child = spawn(args);
    let stdin = child.stdin.take();
    finish(child, stdin, limit)
}

/// The first line a server `child` writes to stderr (`listening on ADDR`),
/// read byte by byte; its stderr pipe is closed after it.
pub fn first_stderr_line(child: &mut std::process::Child) -> String {
    use std::io::Read;
    let mut stderr = child.stderr.take().unwrap();
    let mut line = Vec::new();
    let mut b = [0u8; 1];
    while !line.ends_with(b"\n") {
        assert_eq!(stderr.read(&mut b).unwrap(), 1);
        line.push(b[0]);
    }
    String::from_utf8(line).unwrap()
}

/// The address a server `child` listens on, from its first stderr line.
pub fn listening_addr(child: &mut std::process::Child) -> String {
    let line = first_stderr_line(child);
    line.trim().rsplit(' ').next().unwrap().to_string()
}

/// The words of `line` (arguments without blanks written as one string:
/// `words("dxp connect 127.0.0.1:1 --games 0")`).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Asserts that `text` starts with `prefix`, showing `text` when not.
#[track_caller]
pub fn assert_starts(text: &str, prefix: &str) {
    assert!(text.starts_with(prefix), "not {prefix:?} first in:\n{text}");
}

/// Runs `boardwire` with `args`, asserts that it succeeded (showing its
/// stderr when not) and returns its output.
#[track_caller]
pub fn ok(args: &[&str]) -> Output {
    let o = boardwire(args);
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// [`ok`] with `input` on stdin.
#[track_caller]
pub fn ok_stdin(args: &[&str], input: &[u8]) -> Output {
    let o = with_stdin(args, input);
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// Runs `boardwire` with `args`, asserts exit code 2 (bad input; `args`
/// and stderr shown when not) and returns its stderr.
#[track_caller]
pub fn refused(args: &[&str]) -> String {
    let o = boardwire(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    err
}

/// A batch run: `boardwire` with `args` and `input` on stdin, its exit
/// code asserted to be `code`: its stdout's lines and its stderr.
#[track_caller]
pub fn batch(args: &[&str], input: &[u8], code: i32) -> (Vec<String>, String) {
    let o = with_stdin(args, input);
    let err = exited(&o, code);
    (stdout(&o).lines().map(String::from).collect(), err)
}

/// `boardwire perft ... --divide` (`args`), which must succeed with the
/// count `total` first and `moves` root moves after it: those, each split
/// at its space (the move, its count).
#[track_caller]
pub fn divide(args: &[&str], total: &str, moves: usize) -> Vec<(String, String)> {
    let out = stdout(&ok(args));
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some(total));
    let rest: Vec<_> = lines
        .map(|l| {
            let (mv, n) = l.split_once(' ').unwrap();
            (mv.to_owned(), n.to_owned())
        })
        .collect();
    assert_eq!(rest.len(), moves);
    rest
}

/// Asserts that there are `count` `lines` and, for each `(i, line)` of
/// `expected`, that line `i` is `line`, or starts with it when it ends in
/// `..`.
#[track_caller]
pub fn assert_lines_at(lines: &[String], count: usize, expected: &[(usize, &str)]) {
    assert_eq!(lines.len(), count, "{lines:#?}");
    for &(i, e) in expected {
        match e.strip_suffix("..") {
            Some(start) => assert!(lines[i].starts_with(start), "line {i}: {lines:#?}"),
            None => assert_eq!(lines[i], e, "line {i}: {lines:#?}"),
        }
    }
}
