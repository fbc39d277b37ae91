//! `boardwire dxp` against scripted peers on 127.0.0.1: what a follower or
//! initiator that does not go to plan gets (issues 13 and 16). Frames and
//! codes are the spec's (damexchange's spec/damexchange.md, *Messages*).

// Shared helpers it does not use are allowed.
mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::Duration;

use common::{assert_contains, assert_starts, boardwire, stderr, stdout, words};

/// Reads one frame (up to its NUL, not included).
fn frame(s: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let mut b = [0u8; 1];
    loop {
        match s.read(&mut b) {
            Ok(1) if b[0] == 0 => break,
            Ok(1) => out.push(b[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn send(s: &mut TcpStream, frames: &[&str]) {
    let mut bytes = Vec::new();
    for f in frames {
        bytes.extend_from_slice(f.as_bytes());
        bytes.push(0);
    }
    s.write_all(&bytes).unwrap();
}

fn gameacc(code: char) -> String {
    format!("A{:<32}{code}", "Scripted")
}

/// A follower on 127.0.0.1 that runs `script` on the one connection it
/// accepts; its address and thread (the frames it read, as the script
/// returns them).
fn scripted_follower(
    script: impl FnOnce(&mut TcpStream) -> Vec<String> + Send + 'static,
) -> (String, JoinHandle<Vec<String>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let handle = std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        script(&mut s)
    });
    (addr, handle)
}

/// Reads `n` GAMEREQs, refusing each with GAMEACC 2 ("not this game"):
/// the frames read.
fn refuse(s: &mut TcpStream, n: usize) -> Vec<String> {
    let mut reqs = Vec::new();
    for _ in 0..n {
        reqs.push(frame(s));
        send(s, &[&gameacc('2')]);
    }
    reqs
}

/// `boardwire dxp connect ADDR --timeout 5 EXTRA` against a
/// [`scripted_follower`] running `script`: the run, and the frames the
/// follower read.
fn connect_to(
    extra: &str,
    script: impl FnOnce(&mut TcpStream) -> Vec<String> + Send + 'static,
) -> (Output, Vec<String>) {
    let (addr, follower) = scripted_follower(script);
    let o = boardwire(&words(&format!("dxp connect {addr} --timeout 5 {extra}")));
    (o, follower.join().unwrap())
}

#[test]
fn an_illegal_move_from_the_follower_is_told_and_exits_1() {
    // We play White; the follower answers our first move with a MOVE of a
    // white man (50-45), which Black cannot play.
    let (o, seen) = connect_to("", |s| {
        let req = frame(s);
        send(s, &[&gameacc('0')]);
        let ours = frame(s);
        send(s, &["M0000504500"]);
        let chat = frame(s);
        let end = frame(s);
        send(s, &["E00"]);
        vec![req, ours, chat, end]
    });
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(seen[0].starts_with("R01boardwire"), "{seen:?}");
    assert!(seen[1].starts_with('M'), "{seen:?}");
    assert!(
        seen[2].starts_with("Cerror: MOVE M0000504500 rejected"),
        "{seen:?}"
    );
    assert_eq!(seen[3], "E00", "{seen:?}");
    let err = stderr(&o);
    assert_contains(&err, "misbehaved");
    assert_contains(&err, "50-45");
}

#[test]
fn gameacc_2_is_answered_with_the_next_gamereq() {
    // GAMEACC 2: "not this game, but willing to play another — initiator
    // sends another GAMEREQ". Two refusals, then a game the follower ends at
    // at once (GAMEEND reason 0): one game completed of --games 1.
    let (o, seen) = connect_to("", |s| {
        let mut reqs = refuse(s, 2);
        reqs.push(frame(s));
        send(s, &[&gameacc('0'), "E00"]);
        // Our first move (we play White in the third game: colours
        // alternate) may cross the GAMEEND; then the answer.
        let mut next = frame(s);
        if next.starts_with('M') {
            next = frame(s);
        }
        reqs.push(next);
        reqs
    });
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(seen[..3].iter().all(|r| r.starts_with("R01")), "{seen:?}");
    assert_eq!(seen[3], "E00", "{seen:?}");
    assert_eq!(
        stdout(&o).lines().last(),
        Some("result: 1 games, 0 won, 0 lost, 0 drawn, 1 without result")
    );
}

#[test]
fn three_refusals_in_a_row_exit_1_saying_so() {
    let (o, seen) = connect_to("", |s| {
        let mut reqs = refuse(s, 3);
        // Nothing more is sent: the initiator closes.
        reqs.push(frame(s));
        reqs
    });
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(seen[3], "", "{seen:?}");
    let err = stderr(&o);
    assert_contains(
        &err,
        "only 0 of 1 games completed: the follower refused 3 games in a row",
    );
}

#[test]
fn end_first_and_chat_come_before_the_gamereq() {
    let (o, seen) = connect_to("--end-first --chat hello", |s| {
        let got = vec![frame(s), frame(s), frame(s)];
        // GAMEACC 3: no games at all; the initiator stops.
        send(s, &[&gameacc('3')]);
        got
    });
    assert_eq!(seen[0], "Chello");
    assert_eq!(seen[1], "E00");
    assert!(seen[2].starts_with("R01"), "{seen:?}");
    assert_eq!(o.status.code(), Some(1));
    assert_contains(&stderr(&o), "the follower refused");
}

#[test]
fn a_follower_that_closes_mid_game_is_named_on_stderr() {
    let (o, _) = connect_to("", |s| {
        let req = frame(s);
        send(s, &[&gameacc('0')]);
        vec![req, frame(s)]
    });
    assert_eq!(o.status.code(), Some(1));
    assert_contains(&stdout(&o), ":: game 1 unfinished: ");
    assert!(
        stderr(&o).contains(
            "only 0 of 1 games completed: the follower closed the connection during game 1"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn gameacc_and_move_in_one_segment_print_in_protocol_order() {
    // We play Black: the follower (White) sends GAMEACC and its first MOVE
    // in one write; the "game started" note comes between them.
    let (o, _) = connect_to("--color black", |s| {
        let req = frame(s);
        send(s, &[&gameacc('0'), "M0000322800", "E00"]);
        vec![req, frame(s), frame(s)]
    });
    let out = stdout(&o);
    let at = |needle: &str| {
        out.lines()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle:?} in {out}"))
    };
    assert!(at("<- AScripted") < at(":: game 1: game started"), "{out}");
    assert!(
        at(":: game 1: game started") < at("<- M0000322800"),
        "{out}"
    );
}

#[test]
fn connect_against_a_stream_without_nul_times_out_printing_little() {
    let (addr, follower) = scripted_follower(|s| {
        let chunk = [b'A'; 65536];
        for _ in 0..400 {
            if s.write_all(&chunk).is_err() {
                break;
            }
        }
        Vec::new()
    });
    let o = boardwire(&["dxp", "connect", &addr, "--timeout", "1"]);
    let _ = follower.join();
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.len() < 10_000, "{} bytes", o.stdout.len());
    // Reported once.
    assert_eq!(stdout(&o).matches("malformed").count(), 1, "{}", stdout(&o));
}

// ---------------------------------------------------------------- serve

struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardwire"))
            .args(["dxp", "serve", "--listen", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let addr = common::listening_addr(&mut child);
        Server { child, addr }
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s
    }

    /// Stops the server; its stdout.
    fn stop(mut self) -> String {
        std::thread::sleep(Duration::from_millis(200));
        self.child.kill().unwrap();
        let mut out = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        self.child.wait().unwrap();
        out
    }
}

fn gamereq(rest: &str) -> String {
    format!("R01{:<32}{rest}", "Hostile")
}

#[test]
fn serve_answers_a_gamereq_it_cannot_decode() {
    let server = Server::start(&[]);
    // Thinking time `0.5`, lower-case colour, a short name: GAMEACC 2 and a
    // CHAT naming the field; a bad version field: GAMEACC 1.
    for (req, code, field) in [
        (gamereq("W0.5000A"), '2', "thinking time at byte 37"),
        (gamereq("w005000A"), '2', "follower's colour at byte 35"),
        ("R01HostileW005000A".to_string(), '2', "initiator name"),
        (
            format!("R0x{:<32}W005000A", "Hostile"),
            '1',
            "version at byte 2",
        ),
    ] {
        let mut s = server.connect();
        send(&mut s, &[&req]);
        let chat = frame(&mut s);
        assert_starts(&chat, "Cerror: GAMEREQ ");
        assert!(chat.contains(field), "{chat}");
        assert_eq!(frame(&mut s), format!("A{:<32}{code}", "boardwire"));
    }
    server.stop();
}

#[test]
fn serve_lenient_accepts_a_decimal_time_and_lower_case() {
    let server = Server::start(&["--lenient"]);
    for req in [gamereq("Z0.5000A"), "R01Hostilez005000A ".to_string()] {
        let mut s = server.connect();
        send(&mut s, &[&req]);
        assert_eq!(frame(&mut s), format!("A{:<32}0", "boardwire"));
    }
    server.stop();
}

#[test]
fn serve_closes_after_16_bad_frames_with_a_chat_and_shows_3() {
    let server = Server::start(&[]);
    let mut s = server.connect();
    let garbage: Vec<&str> = vec!["X"; 40];
    send(&mut s, &garbage);
    assert_eq!(
        frame(&mut s),
        "Cerror: 16 malformed or unrecognised frames in a row; closing"
    );
    assert_eq!(frame(&mut s), "", "closed");
    let out = server.stop();
    assert_eq!(out.matches("<- X").count(), 3, "{out}");
    assert_contains(
        &out,
        ":: 13 more malformed or unrecognised frame(s), not shown",
    );
    assert_contains(&out, "too many malformed or unrecognised frames in a row");
}

#[test]
fn serve_max_plies_stops_with_reason_0_and_a_disconnect_is_unfinished() {
    let server = Server::start(&["--max-plies", "0", "--first-move-delay-ms", "0"]);
    // The follower plays White and moves first: with --max-plies 0 it stops
    // the game at once, GAMEEND reason 0.
    let mut s = server.connect();
    send(&mut s, &[&gamereq("W005000A")]);
    assert_eq!(frame(&mut s), format!("A{:<32}0", "boardwire"));
    assert_eq!(frame(&mut s), "E00");
    send(&mut s, &["E00"]);
    // A second connection closes during its game.
    let mut s2 = server.connect();
    send(&mut s2, &[&gamereq("Z005000A")]);
    assert_eq!(frame(&mut s2), format!("A{:<32}0", "boardwire"));
    drop(s2);
    let out = server.stop();
    assert!(
        out.contains(
            "follower#1 :: 0 plies played: we stop the game (GAMEEND reason 0, no result)"
        ),
        "{out}"
    );
    assert_contains(&out, "follower#1 :: game 1: game over: no result");
    assert!(
        out.contains(
            "follower#2 :: game 1 unfinished: game over: no result (the connection closed"
        ),
        "{out}"
    );
}

#[test]
fn chat_control_bytes_are_escaped_on_stdout() {
    let server = Server::start(&[]);
    let mut s = server.connect();
    send(&mut s, &["Cbell\x07esc\x1b[2J"]);
    send(&mut s, &[&gamereq("Z005000A")]);
    frame(&mut s);
    let out = server.stop();
    assert_contains(&out, "Cbell\\x07esc\\x1b[2J  (CHAT: bell\\x07esc\\x1b[2J)");
    assert!(!out.contains('\x07') && !out.contains('\x1b'), "{out}");
}
