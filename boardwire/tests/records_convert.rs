//! `boardwire convert` and `boardwire show --record`, on known answers
//! from the peers (files in tests/data/records):
//!
//! - `import.pgn` (import format: no Site/Date/Round, `1.e4`, `0-0`, a
//!   comment, a set-up game) and `import.python-chess.pgn` /
//!   `import.python-chess.moves`: python-chess 1.11.2's export
//!   (`StringExporter(columns=80)`) and its UCI moves of the same file.
//! - `dxp-games.pdn` (two games `dxp connect --pdn` saved) and
//!   `dxp-games.pydraughts.moves`: pydraughts 0.6.7's moves of the same
//!   games, captures as its `steps_move` (origin, every landing square).
//! - the Floodgate kifu of boardwire-vectors ([`FLOODGATE`]) and `floodgate.cshogi.moves`:
//!   cshogi 1.1.0's USI moves of it (`cshogi.CSA.Parser`).
//! - The positions after some plies: python-chess's, pydraughts' and cshogi's FENs/SFENs.

mod common;

use common::{boardwire, exited, ok, stdout, with_stdin};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records");

fn data(name: &str) -> String {
    format!("{DATA}/{name}")
}

/// The Floodgate kifu (CSA V2.2) kept once in boardwire-vectors.
const FLOODGATE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../boardwire-vectors/data/floodgate-900-0-gps_normal-gps_l-20100507.csa"
);

fn read(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

#[test]
fn pgn_to_pgn_is_python_chess_export_format() {
    let o = ok(&["convert", &data("import.pgn"), "-"]);
    assert_eq!(stdout(&o), read("import.python-chess.pgn"));
}

#[test]
fn pgn_to_moves_is_python_chess_uci() {
    let o = ok(&["convert", &data("import.pgn"), "-", "--to", "moves"]);
    assert_eq!(stdout(&o), read("import.python-chess.moves"));
}

#[test]
fn standard_input_and_output_need_from() {
    let input = std::fs::read(data("import.pgn")).unwrap();
    let o = with_stdin(&["convert", "-", "-", "--from", "pgn"], &input);
    assert_eq!(exited(&o, 0), "");
    assert_eq!(stdout(&o), read("import.python-chess.pgn"));
    let o = with_stdin(&["convert", "-", "-"], &input);
    let err = exited(&o, 2);
    assert!(err.contains("--from"), "{err}");
}

#[test]
fn output_file_by_extension() {
    let dir = tempdir("convert-out");
    let out = dir.join("clean.pgn");
    ok(&["convert", &data("import.pgn"), out.to_str().unwrap()]);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        read("import.python-chess.pgn")
    );
}

#[test]
fn pdn_to_moves_is_pydraughts_long_form() {
    let o = ok(&["convert", &data("dxp-games.pdn"), "-", "--to", "moves"]);
    let text = stdout(&o);
    let expected: Vec<String> = read("dxp-games.pydraughts.moves")
        .lines()
        .map(str::to_string)
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), expected.len(), "{text}");
    for (line, moves) in lines.iter().zip(&expected) {
        let (fen, rest) = line.split_once(" moves ").unwrap();
        // Both games start from the standard position.
        let pos: board_core::draughts::Position = fen.parse().unwrap();
        assert_eq!(pos, board_core::draughts::Position::startpos());
        assert_eq!(rest, moves);
    }
}

#[test]
fn pdn_to_pdn_reads_to_the_same_moves() {
    let o = ok(&["convert", &data("dxp-games.pdn"), "-", "--to", "pdn"]);
    let text = stdout(&o);
    let games: Vec<_> = board_records::pdn::Reader::new(text.as_bytes())
        .games()
        .map(Result::unwrap)
        .collect();
    let expected = read("dxp-games.pydraughts.moves");
    assert_eq!(games.len(), 2);
    // Results as pydraughts read them from the input.
    assert_eq!(games[0].result, Some("0-2"));
    assert_eq!(games[1].result, Some("2-0"));
    for (g, moves) in games.iter().zip(expected.lines()) {
        assert_eq!(g.moves.len(), moves.split(' ').count());
    }
}

#[test]
fn pgn_to_pdn_is_refused() {
    let dir = tempdir("refused");
    let out = dir.join("x.pdn");
    let o = boardwire(&["convert", &data("import.pgn"), out.to_str().unwrap()]);
    let err = exited(&o, 2);
    assert_eq!(
        err.trim_end(),
        "error: cannot convert PGN (chess) to PDN (draughts): they record different games"
    );
    assert!(!out.exists());
}

#[test]
fn an_illegal_move_is_named_with_file_line_and_column() {
    // `h1=N` with the king on g1 in check from the queen on a7: python-chess
    // refuses it too ("illegal san: 'h1=N' in 8/Q7/8/8/8/8/7p/4K1k1 b - - 2
    // 41"). It is on line 3, after the 23 characters `40. a8=Q+ Kg1 41.
    // Qa7+ ` (column 24; byte 64: an empty line, the 40-byte FEN line, 23).
    let dir = tempdir("illegal");
    let file = dir.join("bad.pgn");
    std::fs::write(
        &file,
        "\n[FEN \"8/P7/8/8/8/8/6kp/4K3 w - - 0 40\"]\n40. a8=Q+ Kg1 41. Qa7+ h1=N *\n",
    )
    .unwrap();
    let name = file.to_str().unwrap();
    let o = boardwire(&["convert", name, "-"]);
    let err = exited(&o, 2);
    let first = err.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "error: {name}: PGN game error at line 3, column 24 (byte 64): ply 4: h1=N:"
        )),
        "{err}"
    );
}

#[test]
fn show_record_after_plies_is_python_chess_position() {
    // python-chess: after 7 plies of the first game of import.pgn.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4";
    let o = ok(&["show", "--record", &data("import.pgn"), "--ply", "7"]);
    let diagram = stdout(&ok(&["show", "chess", fen]));
    let text = stdout(&o);
    assert!(text.starts_with(&diagram), "{text}");
    assert!(
        text.ends_with(&format!(
            "after ply 7 of 24, game 1 of {}\n",
            data("import.pgn")
        )),
        "{text}"
    );
}

#[test]
fn show_record_at_the_end_is_pydraughts_position() {
    // pydraughts: the final position of game 1 of dxp-games.pdn.
    let o = ok(&["show", "--record", &data("dxp-games.pdn")]);
    let diagram = stdout(&ok(&["show", "draughts", "W:W:B11,12,13,15,20,4,6,9,K47"]));
    assert!(stdout(&o).starts_with(&diagram), "{}", stdout(&o));
    let o = ok(&["show", "--record", &data("dxp-games.pdn"), "--game", "2"]);
    let diagram = stdout(&ok(&[
        "show",
        "draughts",
        "B:W27,28,32,33,35,37,43,44,45,46,49,K2,K5:B",
    ]));
    assert!(stdout(&o).starts_with(&diagram), "{}", stdout(&o));
}

#[test]
fn show_record_beyond_the_game_is_refused() {
    let o = boardwire(&["show", "--record", &data("import.pgn"), "--ply", "25"]);
    let err = exited(&o, 2);
    assert!(
        err.contains("--ply 25") && err.contains("24 plies"),
        "{err}"
    );
}

/// A fresh directory under the target's tmp dir.
fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("records-convert-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The bad game of the illegal-move test (python-chess refuses `h1=N`),
/// then a good one: Scholar's mate.
const BAD_THEN_GOOD: &str = "[FEN \"8/P7/8/8/8/8/6kp/4K3 w - - 0 40\"]\n\n40. a8=Q+ Kg1 41. Qa7+ h1=N *\n\n\
    [Event \"second\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

#[test]
fn show_record_counts_games_in_the_file_bad_ones_too() {
    let dir = tempdir("nth");
    let file = dir.join("two.pgn");
    std::fs::write(&file, BAD_THEN_GOOD).unwrap();
    let name = file.to_str().unwrap();
    // Game 2 is the second game of the file: the mate, 7 plies.
    let o = ok(&["show", "--record", name, "--game", "2"]);
    let fen = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4";
    let diagram = stdout(&ok(&["show", "chess", fen]));
    assert_eq!(
        stdout(&o),
        format!("{diagram}after ply 7 of 7, game 2 of {name}\n")
    );
    // Game 1 does not read: said, with the reader's error.
    let err = exited(&boardwire(&["show", "--record", name, "--game", "1"]), 2);
    assert!(
        err.contains("game 1 does not read") && err.contains("h1=N"),
        "{err}"
    );
    let err = exited(&boardwire(&["show", "--record", name, "--game", "3"]), 2);
    assert!(
        err.contains("no game 3 (the record has 2 game(s))"),
        "{err}"
    );
}

#[test]
fn an_output_is_left_untouched_when_no_game_reads() {
    let dir = tempdir("untouched");
    let bad = dir.join("bad.pgn");
    std::fs::write(
        &bad,
        "[FEN \"8/P7/8/8/8/8/6kp/4K3 w - - 0 40\"]\n\n40. a8=Q+ Kg1 41. Qa7+ h1=N *\n",
    )
    .unwrap();
    let out = dir.join("out.pgn");
    std::fs::write(&out, "precious\n").unwrap();
    let err = exited(
        &boardwire(&["convert", bad.to_str().unwrap(), out.to_str().unwrap()]),
        2,
    );
    assert!(err.contains("left untouched"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    // With one good game, the output is replaced by it alone.
    std::fs::write(&bad, BAD_THEN_GOOD).unwrap();
    exited(
        &boardwire(&["convert", bad.to_str().unwrap(), out.to_str().unwrap()]),
        2,
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("4. Qxf7# 1-0") && !text.contains("precious"),
        "{text}"
    );
}

/// The USI moves cshogi 1.1.0 reads from the Floodgate kifu
/// ([`FLOODGATE`]): `floodgate.cshogi.moves`.
fn floodgate_moves() -> String {
    read("floodgate.cshogi.moves")
}

#[test]
fn a_csa_kifu_gives_the_usi_moves_cshogi_reads() {
    let o = ok(&["convert", FLOODGATE, "-", "--to", "moves"]);
    assert_eq!(stdout(&o), floodgate_moves());
}

#[test]
fn csa_to_kif_and_ki2_and_back_keeps_the_moves_names_and_ending() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("records-convert-shogi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kif = dir.join("floodgate.kif");
    let ki2 = dir.join("floodgate.ki2u");
    let csa = dir.join("back.csa");
    let (kif, ki2, csa) = (
        kif.to_str().unwrap(),
        ki2.to_str().unwrap(),
        csa.to_str().unwrap(),
    );
    ok(&["convert", FLOODGATE, kif]);
    // `.kif`: Shift_JIS with its declaration (shogi-records §1.1).
    let bytes = std::fs::read(kif).unwrap();
    assert!(bytes.starts_with(b"#KIF version=2.0 encoding=Shift_JIS"));
    ok(&["convert", kif, ki2]);
    ok(&["convert", ki2, csa]);
    for f in [kif, ki2, csa] {
        let o = ok(&["convert", f, "-", "--to", "moves"]);
        assert_eq!(stdout(&o), floodgate_moves(), "{f}");
    }
    let text = std::fs::read_to_string(csa).unwrap();
    // The names, the game id and the ending of the Floodgate file: %TORYO
    // (`'summary:toryo`), gps_normal to move resigns.
    for line in [
        "N+gps_normal",
        "N-gps_l",
        "$EVENT:wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007",
        "%TORYO",
    ] {
        assert!(text.lines().any(|l| l == line), "{line}: {text}");
    }
    // KIF: the KfW summary line of a resignation with Black to move.
    let kif_text = stdout(&ok(&["convert", kif, "-", "--to", "kif"]));
    assert!(
        kif_text.contains("先手：gps_normal") && kif_text.contains("後手の勝ち"),
        "{kif_text}"
    );
}

#[test]
fn shogi_to_chess_and_several_games_into_kif_are_refused() {
    let err = exited(&boardwire(&["convert", FLOODGATE, "x.pgn"]), 2);
    assert!(err.contains("different games"), "{err}");
    let two = format!(
        "{}/\n{}",
        std::fs::read_to_string(FLOODGATE).unwrap(),
        std::fs::read_to_string(FLOODGATE).unwrap()
    );
    let o = with_stdin(
        &["convert", "-", "-", "--from", "csa", "--to", "moves"],
        two.as_bytes(),
    );
    assert_eq!(stdout(&o), floodgate_moves().repeat(2));
    let o = with_stdin(
        &["convert", "-", "-", "--from", "csa", "--to", "kif"],
        two.as_bytes(),
    );
    let err = exited(&o, 2);
    assert!(err.contains("KIF and KI2 hold one game"), "{err}");
}

#[test]
fn show_record_draws_a_shogi_position() {
    // After +7776FU -3334FU: cshogi's SFEN of that position, drawn by
    // `boardwire show shogi`.
    let sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    let diagram = stdout(&ok(&["show", "shogi", sfen]));
    let o = ok(&["show", "--record", FLOODGATE, "--ply", "2"]);
    let plies = floodgate_moves().split(' ').count() - 2;
    assert_eq!(
        stdout(&o),
        format!("{diagram}after ply 2 of {plies}, game 1 of {}\n", FLOODGATE)
    );
}

/// Text with no KIF item named `.kif` (junk, a CSA file renamed, an empty
/// file) is no record: exit 2 and the output left alone, not an empty game
/// (a newcomer's finding: `--to moves` printed `startpos`).
#[test]
fn a_kif_name_on_text_without_kif_is_refused() {
    let dir = tempdir("not-kif");
    let out = dir.join("out.csa");
    std::fs::write(&out, "precious\n").unwrap();
    for (file, text) in [
        ("junk.kif", "hello world\n"),
        ("csa-as.kif", "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n"),
        ("empty.kif", ""),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let err = exited(
            &boardwire(&["convert", path.to_str().unwrap(), "-", "--to", "moves"]),
            2,
        );
        assert!(err.contains("not a KIF/KI2 record"), "{file}: {err}");
        exited(
            &boardwire(&["convert", path.to_str().unwrap(), out.to_str().unwrap()]),
            2,
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    }
}
