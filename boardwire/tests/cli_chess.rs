//! `boardwire perft chess` and `boardwire moves chess`: output formats,
//! exit codes, errors. Expected counts come from the chess perft vectors
//! (Chess Programming Wiki "Perft Results", board-core/tests/data).

mod common;
use common::{assert_contains, boardwire, divide, ok, stderr, stdout, with_stdin, words};

#[test]
fn perft_prints_the_count_alone() {
    let o = ok(&["perft", "chess", "startpos", "4"]);
    assert_eq!(stdout(&o), "197281\n");
    assert_contains(&stderr(&o), "nodes 197281");
    assert_eq!(
        stdout(&boardwire(&["perft", "chess", "kiwipete", "3"])),
        "97862\n"
    );
    let pos3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    assert_eq!(
        stdout(&boardwire(&["perft", "chess", pos3, "4"])),
        "43238\n"
    );
    assert_eq!(
        stdout(&boardwire(&["perft", "chess", "startpos", "0"])),
        "1\n"
    );
}

#[test]
fn perft_divide() {
    let rest = divide(&["perft", "chess", "kiwipete", "2", "--divide"], "2039", 48);
    let counts = rest.iter().map(|(_, n)| n.parse::<u64>().unwrap());
    assert_eq!(counts.sum::<u64>(), 2039);
    // Castling is printed as the king's move.
    assert!(rest.iter().any(|(mv, _)| mv == "e1g1"));
    assert!(rest.iter().any(|(mv, _)| mv == "e1c1"));
}

#[test]
fn moves_plain_and_json() {
    let o = boardwire(&["moves", "chess", "startpos"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 20);
    assert!(out.lines().any(|l| l == "e2e4"));
    let o = boardwire(&[
        "moves",
        "chess",
        "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1",
        "--json",
    ]);
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l == r#"{"uci":"e7d8q","san":"exd8=Q+"}"#),
        "{out}"
    );
    assert!(
        out.lines()
            .all(|l| l.starts_with(r#"{"uci":""#) && l.ends_with("\"}"))
    );
}

#[test]
fn moves_batch_from_stdin() {
    let o = with_stdin(
        &words("moves chess - --json"),
        b"startpos\nnot a fen\n8/8/8/8/8/8/8/K6k w - - 0 1\n",
    );
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with(r#"{"fen":"startpos","moves":[{"uci":"#));
    assert!(lines[1].starts_with(r#"{"fen":"not a fen","error":"#));
    assert_eq!(
        lines[2],
        r#"{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","moves":[{"uci":"a1b1","san":"Kb1"},{"uci":"a1a2","san":"Ka2"},{"uci":"a1b2","san":"Kb2"}]}"#
    );
}

#[test]
fn bad_input_is_a_one_line_error_with_exit_2() {
    for (args, needle) in [
        (
            &["perft", "chess", "rnbqkbnr/pppppppp w KQkq - 0 1", "2"][..],
            // Two ranks, the board field ends at byte 17.
            "invalid FEN board at byte 17: expected 8 ranks",
        ),
        (&["perft", "chess", "startpos", "two"][..], "two"),
        (
            // Leading blanks count: the `x` is byte 46 of the text as given.
            &[
                "moves",
                "chess",
                "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            ][..],
            "side to move at byte 46: unexpected character 'x'",
        ),
        (
            &["moves", "chess", "8/8/8/8/8/8/8/8 w - - 0 1"][..],
            "no king",
        ),
        (
            &["moves", "chess", "k7/8/8/8/8/8/8/r3K3 b - - 0 1"][..],
            "not to move is in check",
        ),
    ] {
        let o = boardwire(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(stdout(&o).is_empty());
    }
}
