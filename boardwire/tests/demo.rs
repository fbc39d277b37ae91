//! `boardwire demo` (and `boardwire` with no arguments) as a user runs it:
//! exit status, and the key messages of the three protocols in the
//! transcript. The expected message shapes come from the spec notes
//! (damexchange's spec/damexchange.md, csa-protocol's spec/csa.md,
//! novag-citrine's spec/citrine.md), not from our output.

mod common;

use std::time::Duration;

use common::{Run, assert_contains, words};

/// Runs `boardwire args`, failing after `limit`.
fn run_bounded(args: &[&str], limit: Duration) -> Run {
    let r = common::run_bounded(args, limit);
    assert!(
        !r.timed_out,
        "boardwire {args:?} still running after {limit:?}"
    );
    r
}

/// The transcript lines of `proto` as (party, arrow, message text without
/// the reading in parentheses).
fn messages<'a>(text: &'a str, proto: &str) -> Vec<(&'a str, &'a str, &'a str)> {
    text.lines()
        .filter(|l| l.split_whitespace().next() == Some(proto))
        .filter_map(|l| {
            // proto, seconds, party, arrow, message.
            let rest = l[proto.len()..].trim_start();
            let (_secs, rest) = rest.split_once(' ')?;
            let rest = rest.trim_start();
            let (party, rest) = rest.split_once(' ')?;
            let rest = rest.trim_start();
            let (arrow, msg) = rest.split_once(' ').unwrap_or((rest, ""));
            let msg = msg.split("  (").next().unwrap_or(msg);
            Some((party, arrow, msg))
        })
        .collect()
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

#[test]
fn no_arguments_runs_the_whole_demo() {
    let o = run_bounded(&[], Duration::from_secs(60));
    let out = o.stdout;
    let err = o.stderr;
    assert_eq!(o.code, Some(0), "{err}\n{out}");

    // ---- DXP (spec note damexchange's spec/damexchange.md: *Messages*, *BACKREQ*,
    // *BACKACC*, *Roles and dialogue (layer 2)*).
    let dxp = messages(&out, "dxp");
    let sent = |pred: &dyn Fn(&str) -> bool| {
        dxp.iter()
            .any(|(p, a, m)| *p == "initiator" && *a == "->" && pred(m))
    };
    let received = |pred: &dyn Fn(&str) -> bool| {
        dxp.iter()
            .any(|(p, a, m)| *p == "initiator" && *a == "<-" && pred(m))
    };
    // GAMEREQ: `R`, version `01`, 32-byte name, colour W/Z, 3+3 digits, `A`:
    // 43 bytes.
    assert!(
        sent(&|m| m.len() == 43
            && m.starts_with("R01")
            && matches!(&m[35..36], "W" | "Z")
            && is_digits(&m[36..42])
            && m.ends_with('A')),
        "no GAMEREQ:\n{out}"
    );
    // GAMEACC accepted: `A`, 32-byte name, `0`: 34 bytes.
    assert!(
        received(&|m| m.len() == 34 && m.starts_with('A') && m.ends_with('0')),
        "no GAMEACC 0:\n{out}"
    );
    // MOVE both ways: `M`, 4-digit time, from, to, count, captured squares.
    let is_move = |m: &str| {
        m.starts_with('M')
            && m.len() >= 11
            && (m.len() - 11).is_multiple_of(2)
            && is_digits(&m[1..])
    };
    assert!(sent(&is_move) && received(&is_move), "no MOVEs:\n{out}");
    // BACKREQ `B` + 3-digit move number + W/Z, answered `K0`, in that order.
    let back_req = dxp
        .iter()
        .position(|(_, a, m)| {
            *a == "->"
                && m.len() == 5
                && m.starts_with('B')
                && is_digits(&m[1..4])
                && matches!(&m[4..], "W" | "Z")
        })
        .unwrap_or_else(|| panic!("no BACKREQ:\n{out}"));
    assert!(
        dxp[back_req..]
            .iter()
            .any(|(_, a, m)| *a == "<-" && *m == "K0"),
        "no BACKACC K0 after the BACKREQ:\n{out}"
    );
    // GAMEEND: `E` + reason 0..=3 + stop 0/1, one each way; the second
    // (the answer) has reason 0.
    let is_end =
        |m: &str| m.len() == 3 && m.starts_with('E') && matches!(&m[1..2], "0" | "1" | "2" | "3");
    let ends: Vec<_> = dxp.iter().filter(|(_, _, m)| is_end(m)).collect();
    assert_eq!(ends.len(), 2, "GAMEEND exchange:\n{out}");
    assert_ne!(ends[0].1, ends[1].1, "{ends:?}");
    assert!(ends[1].2.starts_with("E0"), "{ends:?}");

    // ---- CSA (spec note csa-protocol's spec/csa.md: *Plain CSA mode*, *Game_Summary*,
    // *Agreement -> game*, *Extended mode (x1), shogi-server* for x1 and
    // MONITOR2, *Results*).
    let csa = messages(&out, "csa");
    let has = |party: &str, arrow: &str, pred: &dyn Fn(&str) -> bool| {
        csa.iter()
            .any(|(p, a, m)| *p == party && *a == arrow && pred(m))
    };
    // Passwords never reach a log: the field is `*****` (as in `csa decode`).
    assert!(has("alice", "->", &|m| m == "LOGIN alice *****"));
    assert!(has("alice", "<-", &|m| m == "LOGIN:alice OK"));
    assert!(has("bob", "->", &|m| m == "LOGIN bob ***** x1"));
    assert!(has("bob", "<-", &|m| m == "##[LOGIN] +OK x1"));
    assert!(has("bob", "->", &|m| m.starts_with("%%GAME ")
        && m.ends_with(" -")));
    for who in ["alice", "bob"] {
        assert!(
            has(who, "<-", &|m| m.starts_with("BEGIN Game_Summary")
                && m.contains("END Game_Summary")),
            "{who}: no Game_Summary:\n{out}"
        );
        assert!(
            has(who, "->", &|m| m.starts_with("AGREE")),
            "{who}: no AGREE"
        );
        assert!(
            has(who, "<-", &|m| m.starts_with("START:")),
            "{who}: no START"
        );
        assert!(has(who, "<-", &|m| m == "#RESIGN"), "{who}: no #RESIGN");
        // A confirmed move: sign, from, to, piece, `,T<seconds>`.
        assert!(
            has(who, "<-", &|m| m.len() > 8
                && matches!(&m[..1], "+" | "-")
                && is_digits(&m[1..5])
                && &m[7..9] == ",T"),
            "{who}: no move confirmation:\n{out}"
        );
    }
    assert!(has("alice", "->", &|m| m == "%TORYO"));
    assert!(has("alice", "<-", &|m| m == "#LOSE"));
    assert!(has("bob", "<-", &|m| m == "#WIN"));
    assert!(has("bob", "->", &|m| m.starts_with("%%MONITOR2ON ")));
    assert!(has("bob", "<-", &|m| m.starts_with("##[MONITOR2][")
        && m.contains("%TORYO")));
    assert!(has("bob", "->", &|m| m == "LOGOUT"));
    assert!(has("bob", "<-", &|m| m == "LOGOUT:completed"));

    // ---- Citrine (spec note novag-citrine's spec/citrine.md, *Commands (host -> device)
    // and replies (device -> host)*: X ON, M moves acknowledged, T take-backs).
    let cit = messages(&out, "citrine");
    let sent: Vec<&str> = cit
        .iter()
        .filter(|(_, a, _)| *a == "->")
        .map(|t| t.2)
        .collect();
    let got: Vec<&str> = cit
        .iter()
        .filter(|(_, a, _)| *a == "<-")
        .map(|t| t.2)
        .collect();
    assert!(sent.contains(&"X ON") && got.contains(&"Xmit on"), "{out}");
    assert!(sent.iter().any(|m| m.starts_with("M ")), "{out}");
    // White move acknowledgements `M <n> e2-e4 |`; one of them twice in a row
    // (the duplicate acknowledgement).
    let acks: Vec<&&str> = got
        .iter()
        .filter(|m| m.starts_with("M ") && !m.contains(','))
        .collect();
    assert!(
        acks.windows(2).any(|w| w[0] == w[1]),
        "no duplicate acknowledgement:\n{out}"
    );
    // Two `T` commands, each answered by a `T` line (black's with a comma).
    assert_eq!(sent.iter().filter(|m| **m == "T").count(), 2, "{out}");
    let tb: Vec<&&str> = got.iter().filter(|m| m.starts_with("T ")).collect();
    assert_eq!(tb.len(), 2, "{out}");
    assert!(tb[0].contains(',') && !tb[1].contains(','), "{tb:?}");

    // ---- Summary.
    for part in ["dxp", "csa", "citrine"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(part) && l.contains(" passed ")),
            "{part} not passed:\n{out}"
        );
    }
    assert_contains(&out, "3 of 3 part(s) passed");
}

#[test]
fn quiet_prints_the_summary_only() {
    // README: `boardwire` alone runs the demo, so its options work without
    // the command too.
    for args in [
        &["demo", "--quiet", "--only", "dxp"][..],
        &["--quiet", "--only", "dxp"][..],
    ] {
        let o = run_bounded(args, Duration::from_secs(60));
        let out = o.stdout;
        assert_eq!(o.code, Some(0), "{args:?}: {out}");
        assert_eq!(out.lines().count(), 3, "{args:?}: {out}");
        assert!(out.starts_with("== summary\ndxp "), "{args:?}: {out}");
    }
}

#[test]
fn a_failing_part_fails_the_demo() {
    for part in ["dxp", "csa", "citrine"] {
        let o = run_bounded(
            &words(&format!("demo --quiet --only {part} --fail {part}")),
            Duration::from_secs(60),
        );
        let out = o.stdout;
        let err = o.stderr;
        assert_eq!(o.code, Some(1), "{part}: {out}{err}");
        assert!(
            err.starts_with(&format!("error: demo part {part} failed: ")),
            "{part}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_contains(&out, " FAILED ");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn help_lists_demo() {
    let o = run_bounded(&["--help"], Duration::from_secs(20));
    let out = o.stdout;
    assert_eq!(o.code, Some(0));
    assert!(
        out.lines().any(|l| l.trim_start().starts_with("demo ")),
        "{out}"
    );
}
