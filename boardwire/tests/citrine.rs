//! `boardwire citrine --simulate`: the host against the simulated Citrine on
//! a pseudo-terminal. Every run is bounded: the process is killed after a
//! timeout and the test fails instead of hanging.
//!
//! Expectations come from the spec note (novag-citrine's spec/citrine.md, *Commands
//! (host -> device) and replies (device -> host)*, command `F`): after a new
//! game the Citrine plays Black and takes White only after `F` (flip), so
//! with `--side black` the device's move must come first; the moves are
//! checked against the chess rules of `board-core`, not against our output.

mod common;

use std::io::{Read, Write};
use std::thread;
use std::time::{Duration, Instant};

use board_core::chess::Position;
use common::{
    Run, assert_starts, boardwire, exited, finish, run_bounded as run, spawn, stderr, words,
};

#[test]
fn host_as_black_flips_the_device_to_white_and_the_device_moves_first() {
    let r = run(
        &words("citrine --simulate --auto --side black --max-plies 6"),
        Duration::from_secs(30),
    );
    r.exited(0);
    // The device acknowledges the flip at the new-game position with a bare
    // `Flip` (spec note novag-citrine's spec/citrine.md, *Commands (host -> device) and
    // replies (device -> host)*, command `F`), printed as the decoded line's text.
    assert!(r.stdout.lines().any(|l| l == "line Flip"), "{}", r.stdout);
    // Plies alternate: the device (White) first, then our acknowledged
    // moves (Black); each is legal in the position it was played in.
    let plies: Vec<(&str, &str)> = r
        .stdout
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter(|(kind, _)| *kind == "device" || *kind == "ack")
        .collect();
    assert_eq!(plies.len(), 6, "{}", r.stdout);
    let mut position = Position::startpos();
    for (i, (kind, uci)) in plies.iter().enumerate() {
        let expected = if i % 2 == 0 { "device" } else { "ack" };
        assert_eq!(*kind, expected, "ply {i}: {}", r.stdout);
        let mv = position
            .parse_uci(uci)
            .unwrap_or_else(|e| panic!("ply {i} {uci}: {e}\n{}", r.stdout));
        position = position.play(mv).unwrap();
    }
    assert!(
        r.stdout
            .lines()
            .any(|l| l == "result unfinished at the 6-ply limit after 6 plies"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("disagreement"), "{}", r.stdout);
}

#[test]
fn quit_works_while_the_device_thinks() {
    // As Black with a 20 s thinking time it is never the host's turn while
    // the test runs: `quit` must still stop the game at once.
    let mut child = spawn(&words(
        "citrine --simulate --side black --sim-think-ms 20000",
    ));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"quit\n").unwrap();
    let r = finish(child, Some(stdin), Duration::from_secs(10));
    assert!(!r.timed_out, "quit ignored; output so far:\n{}", r.stdout);
    r.exited(0);
    assert!(
        r.stdout.lines().any(|l| l == "result quit after 0 plies"),
        "{}",
        r.stdout
    );
}

#[test]
fn end_of_input_works_while_the_device_thinks() {
    let mut child = spawn(&words(
        "citrine --simulate --side black --sim-think-ms 20000",
    ));
    drop(child.stdin.take());
    let r = finish(child, None, Duration::from_secs(10));
    assert!(!r.timed_out, "end of input ignored:\n{}", r.stdout);
    r.exited(0);
    assert!(
        r.stdout
            .lines()
            .any(|l| l == "result input closed after 0 plies"),
        "{}",
        r.stdout
    );
}

#[test]
fn no_port_and_no_simulate_names_both() {
    let o = boardwire(&["citrine"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_starts(&err, "error");
    assert!(
        err.contains("--port") && err.contains("--simulate"),
        "{err}"
    );
    // Both at once is an error too.
    let o = boardwire(&["citrine", "--simulate", "--port", "/dev/null"]);
    exited(&o, 2);
}

#[test]
fn repaired_disagreements_are_counted_in_the_auto_failure() {
    // Every third move line is cut in half: each cut line is a disagreement
    // the driver repairs through `P`; `--auto` still exits 1 (README, exit
    // codes) and says how many there were and that all were repaired.
    let r = run(
        &words("citrine --simulate --auto --sim-truncate 3 --max-plies 12"),
        Duration::from_secs(60),
    );
    r.exited(1);
    let seen = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("disagreement:"))
        .count();
    assert!(seen >= 1, "{}", r.stdout);
    assert_eq!(
        r.stdout
            .lines()
            .filter(|l| l.starts_with("resync "))
            .count(),
        seen,
        "{}",
        r.stdout
    );
    let err = r.stderr.trim_end();
    assert_eq!(err.lines().count(), 1, "{err}");
    let times = if seen == 1 { "time" } else { "times" };
    assert!(
        err.contains(&format!("disagreed {seen} {times}")) && err.contains("all were repaired"),
        "{err}"
    );
}

#[test]
fn a_device_that_never_answers_stops_the_run() {
    // An adapter that receives but cannot send (spec note
    // novag-citrine's spec/citrine.md, *Known field problems (from user reports)*): the
    // run used to wait forever; now the first unanswered
    // command (`X ON`) stops it after --ack-timeout-ms with exit 1.
    let r = run(
        &words("citrine --simulate --auto --sim-mute --ack-timeout-ms 500"),
        Duration::from_secs(20),
    );
    r.exited(1);
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("device silent: no Xmit line within ")),
        "{}",
        r.stdout
    );
    let err = r.stderr.trim_end();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_starts(
        err,
        "error: the device did not answer: no Xmit line within ",
    );
}

#[test]
fn duplicate_acks_and_a_cut_out_of_turn_line_end_for_every_seed() {
    // `--side black --sim-duplicate-acks 1 --sim-truncate 2
    // --sim-new-game-at 4 --sim-out-of-turn-at 4` hung in 6 of 6 runs
    // before the fix, and with the out-of-turn move at ply 2 still did: the
    // cut out-of-turn line was applied through `P` but never taken back.
    // Each run must end (exit 1: the cut lines are disagreements).
    for (oot, seed) in [("4", "1"), ("2", "1"), ("2", "2"), ("4", "3")] {
        let r = run(
            &words(&format!(
                "citrine --simulate --auto --side black --sim-duplicate-acks 1 --sim-truncate 2 --sim-new-game-at 4 --sim-out-of-turn-at {oot} --seed {seed}"
            )),
            Duration::from_secs(30),
        );
        assert!(
            !r.timed_out,
            "oot {oot} seed {seed} hung; output so far:\n{}",
            r.stdout
        );
        r.exited(1);
        assert!(
            r.stderr
                .contains("all were repaired by resynchronising through P"),
            "{}\n{}",
            r.stdout,
            r.stderr
        );
        assert!(
            !r.stdout.contains("differs from ours"),
            "{}\n{}",
            r.stdout,
            r.stderr
        );
    }
}

#[test]
fn a_device_sending_only_garbage_is_summarised_then_silent() {
    // A device sending only garbage used to run forever, printing each
    // line raw. Now: the first 3 bad lines, escaped, one summary line,
    // then the silence rule (no answer to `X ON`) with exit 1.
    let r = run(
        &words("citrine --simulate --auto --sim-garbage --ack-timeout-ms 1000"),
        Duration::from_secs(20),
    );
    r.exited(1);
    assert!(
        !r.stdout.bytes().any(|b| b < 0x20 && b != b'\n'),
        "raw control bytes on stdout: {:?}",
        r.stdout
    );
    let bad: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("bad line "))
        .collect();
    assert_eq!(bad.len(), 3, "{}", r.stdout);
    assert!(bad[0].contains(r"\x1b[2J\x07\xff\x00"), "{}", bad[0]);
    // `X ON` and the resync's `P` (a header and 8 rows) are each answered
    // with one garbage line: 10 in all, 3 shown.
    assert!(
        r.stdout
            .lines()
            .any(|l| l == "(7 more bad lines not shown)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.lines().count() < 12, "{}", r.stdout);
    let err = r.stderr.trim_end();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_starts(
        err,
        "error: the device did not answer: no Xmit line within ",
    );
}

/// Runs an interactive game: waits for each `wait_for` text on stdout
/// before typing the next line; returns the run after `quit`.
fn interactive(args: &[&str], script: &[(&str, &str)]) -> Run {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().unwrap();
    let mut out = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0
                || tx
                    .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                    .is_err()
            {
                break;
            }
        }
    });
    let mut seen = String::new();
    let mut from = 0;
    for (wait_for, line) in script {
        let start = Instant::now();
        loop {
            if let Some(i) = seen[from..].find(wait_for) {
                from += i + wait_for.len();
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "waited for {wait_for:?}; output so far:\n{seen}"
            );
            if let Ok(s) = rx.recv_timeout(Duration::from_millis(50)) {
                seen.push_str(&s);
            }
        }
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
    }
    let status = {
        let start = Instant::now();
        loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > Duration::from_secs(15) {
                child.kill().unwrap();
                break child.wait().unwrap();
            }
            thread::sleep(Duration::from_millis(20));
        }
    };
    while let Ok(s) = rx.recv_timeout(Duration::from_millis(200)) {
        seen.push_str(&s);
    }
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    Run {
        code: status.code(),
        timed_out: false,
        stdout: seen,
        stderr,
    }
}

#[test]
fn takeback_at_the_first_prompt_as_black_takes_back_nothing() {
    // A take-back must not half happen: the second `T` was refused but the first had gone
    // out, taking back the device's move; then no prompt ever again.
    let r = interactive(
        &words("citrine --simulate --side black"),
        &[
            ("your move", "takeback"),
            ("cannot take back", "position"),
            ("resync in sync", "e7e5"),
            // The prompt at Black's second move (the FEN's move number).
            (" 2): ", "takeback"),
            ("takeback e7e5", "quit"),
        ],
    );
    r.exited(0);
    let refused: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("cannot take back"))
        .collect();
    assert_eq!(
        refused,
        ["cannot take back: no move of yours to take back"],
        "{}",
        r.stdout
    );
    // The second takeback (after e7e5 and the device's reply) takes back
    // both, the device's reply first; the device's first move stays.
    let taken: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("takeback "))
        .collect();
    assert_eq!(taken.len(), 2, "{}", r.stdout);
    assert_eq!(taken[1], "takeback e7e5", "{}", r.stdout);
    assert!(
        r.stdout.contains("result quit after 1 plies"),
        "{}",
        r.stdout
    );
}

#[test]
fn takeback_at_the_first_prompt_as_white_is_refused_once() {
    let r = interactive(
        &["citrine", "--simulate"],
        &[("your move", "takeback"), ("your move", "quit")],
    );
    r.exited(0);
    assert_eq!(
        r.stdout.matches("cannot take back").count(),
        1,
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("takeback "), "{}", r.stdout);
}

#[test]
fn help_and_san_at_the_prompt() {
    // A user at the prompt needs help and the notation they know: `help`
    // lists the commands; moves in SAN are
    // accepted beside UCI; a bad move names both notations.
    let r = interactive(
        &["citrine", "--simulate"],
        &[
            ("your move", "help"),
            ("commands:", "Nf3"),
            ("ack g1f3", "xyz"),
            ("neither UCI", "quit"),
        ],
    );
    r.exited(0);
    let help = r
        .stdout
        .lines()
        .find(|l| l.starts_with("commands:"))
        .unwrap();
    for word in [
        "UCI", "SAN", "auto", "takeback", "position", "new", "help", "quit",
    ] {
        assert!(help.contains(word), "{word} missing: {help}");
    }
    let bad = r
        .stdout
        .lines()
        .find(|l| l.starts_with("not a move here"))
        .unwrap();
    assert!(
        bad.contains("\"xyz\"") && bad.contains("UCI") && bad.contains("SAN"),
        "{bad}"
    );
    assert!(
        !r.stdout.contains("invalid UCI move at byte 1"),
        "{}",
        r.stdout
    );
}
