//! `boardwire show`, `boardwire play` and `boardwire moves --notation`.
//! Expected positions: the FEN sequence of Wikipedia's "Forsyth-Edwards
//! Notation" article (1.e4 c5 2.Nf3, written without the en passant
//! square no capture can use, board-core's canonical FEN), the well-known
//! SFEN after 1.7g7f 3c3d (-3334FU), and hand-derived draughts and
//! diagram values from the standard start positions.

mod common;
use common::{
    assert_contains, batch, boardwire, exited, ok, ok_stdin, refused, stderr, stdout, words,
};

const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
const AFTER_NF3: &str = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
const SHOGI_AFTER_2: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";

#[test]
fn play_chess_in_uci_and_san() {
    let o = ok(&["play", "chess", "startpos", "e2e4"]);
    assert_eq!(stdout(&o), format!("{AFTER_E4}\n"));
    for moves in [
        &["e4", "c5", "Nf3"][..],
        &["e2e4", "c7c5", "g1f3"],
        &["e4", "c7c5", "Ng1f3"],
    ] {
        let mut args = vec!["play", "chess", "startpos"];
        args.extend_from_slice(moves);
        let o = boardwire(&args);
        assert!(o.status.success(), "{moves:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), format!("{AFTER_NF3}\n"), "{moves:?}");
    }
    // No moves: the position itself, canonical.
    let o = boardwire(&["play", "chess", "startpos"]);
    assert_eq!(
        stdout(&o),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
    );
}

#[test]
fn play_with_board_prints_the_position_then_the_diagram() {
    let o = ok(&["play", "chess", "startpos", "--board", "e4"]);
    let expected = format!(
        "{AFTER_E4}
  +-----------------+
8 | r n b q k b n r |
7 | p p p p p p p p |
6 | . . . . . . . . |
5 | . . . . . . . . |
4 | . . . . P . . . |
3 | . . . . . . . . |
2 | P P P P . P P P |
1 | R N B Q K B N R |
  +-----------------+
    a b c d e f g h
black to move
"
    );
    assert_eq!(stdout(&o), expected);
}

#[test]
fn play_shogi_in_usi_and_csa() {
    for moves in [
        &["7g7f", "3c3d"][..],
        &["+7776FU", "-3334FU"],
        &["7g7f", "-3334FU"],
    ] {
        // With `--` and without: a CSA gote move starts with `-`.
        for dashes in [&["--"][..], &[]] {
            let mut args = vec!["play", "shogi", "startpos"];
            args.extend_from_slice(dashes);
            args.extend_from_slice(moves);
            let o = boardwire(&args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            assert_eq!(stdout(&o), format!("{SHOGI_AFTER_2}\n"), "{args:?}");
        }
    }
    // --board after the moves is the flag, not a move.
    let o = ok(&["play", "shogi", "startpos", "+7776FU", "-3334FU", "--board"]);
    let out = stdout(&o);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some(SHOGI_AFTER_2));
    assert!(lines.count() >= 9, "{out}");
}

#[test]
fn play_reads_options_and_dashes_after_the_moves() {
    // README: `--board` and one `--` may come before or after the moves.
    let o = ok(&words("play shogi startpos 7g7f --board -- -3334FU"));
    assert_eq!(stdout(&o).lines().next(), Some(SHOGI_AFTER_2));
    // No move starts with `--`: an unknown option after a move is named.
    let o = boardwire(&["play", "chess", "startpos", "e4", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error: unexpected argument '--json'"),
        "{}",
        stderr(&o)
    );
    // --help after a move prints play's help.
    let o = ok(&["play", "chess", "startpos", "e4", "--help"]);
    assert_contains(&stdout(&o), "Usage: boardwire play");
}

#[test]
fn an_unquoted_position_is_named_as_such() {
    let o = boardwire(&words(
        "show chess rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ));
    let err = exited(&o, 2);
    assert_contains(&err, "unexpected argument 'w'");
    assert_contains(&err, "quote it");
}

#[test]
fn an_unknown_option_gets_no_quoting_hint() {
    for args in [
        &["show", "chess", "startpos", "--json"][..],
        &["perft", "chess", "startpos", "-1"][..],
    ] {
        let err = refused(args);
        assert_contains(&err, "unexpected argument");
        assert!(!err.contains("quote it"), "{args:?}: {err}");
    }
}

#[test]
fn play_draughts_in_pdn() {
    // 32-28 19-23 28x19: White's man from 32 takes the man on 23 and lands
    // on 19.
    let o = ok(&["play", "draughts", "startpos", "32-28", "19-23", "28x19"]);
    assert_eq!(
        stdout(&o),
        "B:W19,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50\
         :B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20\n"
    );
}

#[test]
fn an_illegal_move_fails_with_exit_2_naming_it() {
    for (args, needles) in [
        (
            &["play", "chess", "startpos", "e4", "e4"][..],
            &["move 2 \"e4\"", "no legal move matches"][..],
        ),
        (
            // Knights on b8 and f6 both reach d7.
            &["play", "chess", "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "Nd7"],
            &["move 1 \"Nd7\": ambiguous: knights on f6 and b8 can reach d7"],
        ),
        (
            &words("play chess startpos e2e5"),
            &["move 1 \"e2e5\"", "illegal move e2e5"],
        ),
        (
            // UCI-shaped text gets the UCI reason (rank 9 at byte 3), not SAN's.
            &["play", "chess", "startpos", "e2e9"],
            &["move 1 \"e2e9\"", "invalid UCI move at byte 3"],
        ),
        (
            &words("play chess startpos Nf9"),
            &["move 1 \"Nf9\"", "at byte 2", "expected a square"],
        ),
        (
            &words("play chess startpos O-O"),
            &["move 1 \"O-O\"", "castling is not legal here"],
        ),
        (
            &words("play shogi startpos -- -3334FU"),
            &["move 1 \"-3334FU\""],
        ),
        (
            &words("play draughts startpos 32-26"),
            &["move 1 \"32-26\""],
        ),
    ] {
        let o = boardwire(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&o), "", "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: {err}");
        }
    }
}

#[test]
fn show_draws_the_start_positions() {
    let o = ok(&["show", "chess", "startpos"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 12);
    assert_eq!(lines[1], "8 | r n b q k b n r |");
    assert_eq!(lines[8], "1 | R N B Q K B N R |");
    assert_eq!(lines[11], "white to move");

    let out = stdout(&boardwire(&["show", "draughts", "startpos"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 13);
    assert_eq!(
        lines[4],
        "| b   b   b   b   b   |   | 16    17    18    19    20    |"
    );
    assert_eq!(
        lines[7],
        "|   w   w   w   w   w |   |    31    32    33    34    35 |"
    );

    let out = stdout(&boardwire(&["show", "shogi", "startpos"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 15);
    assert_eq!(lines[0], "gote (w) in hand: -");
    assert_eq!(lines[1], "     9  8  7  6  5  4  3  2  1");
    assert_eq!(lines[11], "  |  L  N  S  G  K  G  S  N  L | i");
    assert_eq!(lines[14], "sente (b) to move");

    let o = boardwire(&["show", "chess", "not a fen"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn moves_in_san_and_csa() {
    // The 20 first moves of chess in SAN.
    let o = ok(&["moves", "chess", "startpos", "--notation", "san"]);
    let mut got: Vec<String> = stdout(&o).lines().map(String::from).collect();
    got.sort();
    let mut want: Vec<String> = "a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4 Na3 Nc3 Nf3 Nh3"
        .split(' ')
        .map(String::from)
        .collect();
    want.sort();
    assert_eq!(got, want);
    // UCI stays the default.
    let o = boardwire(&["moves", "chess", "startpos", "--notation", "uci"]);
    assert!(stdout(&o).lines().any(|l| l == "g1f3"));

    let o = ok(&["moves", "shogi", "startpos", "--notation", "csa"]);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 30);
    assert!(out.lines().any(|l| l == "+7776FU"), "{out}");
    assert!(out.lines().any(|l| l == "+2868HI"), "{out}");

    let o = boardwire(&["moves", "draughts", "startpos", "--notation", "pdn"]);
    assert!(stdout(&o).lines().any(|l| l == "32-28"));
}

#[test]
fn moves_json_carries_both_chess_notations_and_batch_works() {
    // After 1.e4 f5: 2.Qh5+ checks along h5-e8.
    let fen = "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let o = boardwire(&["moves", "chess", fen, "--json"]);
    let out = stdout(&o);
    assert!(
        out.lines().any(|l| l == r#"{"uci":"d1h5","san":"Qh5+"}"#),
        "{out}"
    );
    assert!(out.lines().any(|l| l == r#"{"uci":"e4f5","san":"exf5"}"#));
    let o = ok_stdin(
        &words("moves chess - --notation san"),
        format!("{fen}\n8/8/8/8/8/8/8/K6k w - - 0 1\n").as_bytes(),
    );
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].split(' ').any(|m| m == "Qh5+"), "{}", lines[0]);
    assert_eq!(lines[1], "Kb1 Ka2 Kb2");
}

#[test]
fn a_notation_of_another_game_is_refused() {
    for args in [
        &["moves", "chess", "startpos", "--notation", "csa"][..],
        &["moves", "shogi", "startpos", "--notation", "san"],
        &["moves", "draughts", "startpos", "--notation", "uci"],
    ] {
        let o = boardwire(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_contains(&stderr(&o), "not written in");
    }
}

#[test]
fn help_lists_show_and_play() {
    let out = stdout(&boardwire(&["--help"]));
    assert_contains(&out, "show");
    assert_contains(&out, "play");
    let out = stdout(&boardwire(&["moves", "--help"]));
    assert_contains(&out, "--notation");
}

#[test]
fn play_batch_mode_answers_every_line() {
    let input = b"startpos moves e4 c5 Nf3\nstartpos moves e4 e4\n\nstartpos\nnot a fen moves e4\n";
    let (lines, err) = batch(&["play", "chess", "-"], input, 2);
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], AFTER_NF3);
    assert!(lines[1].starts_with("error: move 2 \"e4\""), "{}", lines[1]);
    assert_eq!(lines[2], "error: line 3 is blank");
    assert_eq!(
        lines[3],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert!(
        lines[4].starts_with("error: invalid chess position"),
        "{}",
        lines[4]
    );
    assert_contains(&err, "3 stdin line(s) failed");
    let o = ok_stdin(&["play", "shogi", "-"], b"startpos moves 7g7f -3334FU\n");
    assert_eq!(stdout(&o), format!("{SHOGI_AFTER_2}\n"));
    // Moves on the command line do not mix with batch mode.
    assert_eq!(
        boardwire(&["play", "chess", "-", "e4"]).status.code(),
        Some(2)
    );
}
