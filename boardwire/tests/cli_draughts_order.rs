//! `boardwire moves draughts`: move lists in the documented order (issue
//! 16, item 8): by from square, then to square, then captured set; in
//! plain text, `--json` and batch mode alike.

mod common;

use common::{boardwire, with_stdin, words};

/// White's nine first moves in international draughts (every opening
/// book lists them), in the documented order.
const OPENING: &str = "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30";

fn stdout(args: &[&str]) -> String {
    let o = boardwire(args);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn start_position_moves_are_sorted_by_from_then_to() {
    let out = stdout(&["moves", "draughts", "startpos"]);
    assert_eq!(
        out.split_whitespace().collect::<Vec<_>>().join(" "),
        OPENING
    );
}

/// (from, to, captures) of each `--json` line.
fn json_keys(out: &str) -> Vec<(u32, u32, Vec<u32>)> {
    out.lines()
        .map(|l| {
            let num = |key: &str| -> u32 {
                let rest = &l[l.find(key).unwrap() + key.len()..];
                rest[..rest.find(|c: char| !c.is_ascii_digit()).unwrap()]
                    .parse()
                    .unwrap()
            };
            let caps = &l[l.find("\"captures\":[").unwrap() + 12..];
            let caps = &caps[..caps.find(']').unwrap()];
            let mut caps: Vec<u32> = caps
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            caps.sort_unstable();
            (num("\"from\":"), num("\"to\":"), caps)
        })
        .collect()
}

#[test]
fn json_and_captures_are_in_the_same_order() {
    let out = stdout(&["moves", "draughts", "startpos", "--json"]);
    let notations: Vec<&str> = out
        .lines()
        .map(|l| {
            let n = &l[l.find("\"notation\":\"").unwrap() + 12..];
            &n[..n.find('"').unwrap()]
        })
        .collect();
    assert_eq!(notations.join(" "), OPENING);
    // A king on 38 with two capture routes ending on different squares
    // (and the same from square): sorted by the to square.
    let out = stdout(&words("moves draughts W:WK38:B22,24,32,33,42,43,44 --json"));
    let keys = json_keys(&out);
    assert!(keys.len() >= 2, "{out}");
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "{out}");
    assert!(keys.windows(2).any(|w| w[0].1 != w[1].1), "{out}");
}

#[test]
fn a_king_capturing_four_is_sorted_by_to_square() {
    // Unsorted, this printed `38x38 38x43 38x49 38x42 38x47` (a king on 38
    // taking the four men around it, then landing on any free square of
    // its last line): the same five moves, by to square.
    let out = stdout(&["moves", "draughts", "W:WK38:B22,23,32,33"]);
    assert_eq!(
        out.split_whitespace().collect::<Vec<_>>(),
        ["38x38", "38x42", "38x43", "38x47", "38x49"]
    );
}

#[test]
fn batch_mode_uses_the_same_order() {
    let o = with_stdin(&["moves", "draughts", "-"], b"startpos\n");
    assert_eq!(String::from_utf8(o.stdout).unwrap().trim_end(), OPENING);
}
