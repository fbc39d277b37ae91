//! `boardwire csa` against hostile peers on 127.0.0.1: a server that
//! streams bytes without line ends, and a `csa serve` that refuses
//! connections past `--max-connections`.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{assert_contains, boardwire, words};

/// A listener that streams `A` to whoever connects, without a line end.
fn streaming_peer() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for mut s in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let chunk = [b'A'; 65536];
                while s.write_all(&chunk).is_ok() {}
            });
        }
    });
    addr
}

#[test]
fn csa_connect_gives_up_on_a_peer_without_line_ends() {
    let addr = streaming_peer();
    for x1 in [false, true] {
        let line = format!("csa connect --user u --password p --game g-300-10 --timeout 2 {addr}");
        let mut args = words(&line);
        if x1 {
            args.insert(2, "--x1");
        }
        let started = Instant::now();
        let out = boardwire(&args);
        let took = started.elapsed();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        assert!(took < Duration::from_secs(8), "{took:?}");
        assert!(
            out.stdout.len() < 10_000,
            "{} bytes of stdout",
            out.stdout.len()
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_contains(
            &err,
            "the server did not send the LOGIN reply for 2 s (--timeout)",
        );
    }
}

#[test]
fn csa_serve_refuses_connections_past_the_limit() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(common::words(
            "csa serve --listen 127.0.0.1:0 --max-connections 1",
        ))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let addr = common::listening_addr(&mut child);
    let mut first = TcpStream::connect(&addr).unwrap();
    first.write_all(b"LOGIN a pw x1\n").unwrap();
    let mut got = [0u8; 64];
    first
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let n = first.read(&mut got).unwrap();
    assert!(got[..n].starts_with(b"LOGIN:a OK"));
    let mut second = TcpStream::connect(&addr).unwrap();
    second
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut refused = Vec::new();
    second.read_to_end(&mut refused).unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(refused, b"##[ERROR] too many connections\n");
}
