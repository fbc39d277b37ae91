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
        err.contains("no game 3 (the record has 2 game(s), numbered from 1)"),
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
        // The kif reader's typed error, worded by what it found.
        assert!(err.contains("no KIF or KI2 item"), "{file}: {err}");
        let found = if text.is_empty() {
            "the text is empty"
        } else {
            "not a KIF/KI2 record"
        };
        assert!(err.contains(found), "{file}: {err}");
        exited(
            &boardwire(&["convert", path.to_str().unwrap(), out.to_str().unwrap()]),
            2,
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    }
}

/// shogi-server's records of boardwire-vectors (`csa-records/`).
fn server_record(name: &str) -> String {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../boardwire-vectors/data/csa-records"
    );
    let file = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains(name))
        .unwrap();
    file.to_str().unwrap().to_string()
}

/// The 2008 Floodgate game ended by a pawn-drop mate (boardwire-vectors).
const UCHIFUZUME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../boardwire-vectors/data/uchifuzume-floodgate-2008.csa"
);

/// The KIF text (UTF-8) `convert` writes for `file`.
fn kif_of(file: &str) -> String {
    stdout(&ok(&["convert", file, "-", "--to", "kif"]))
}

/// Endings shogi-server states only in its `'summary:` line (no `%` line,
/// shogi-records §3.5) become the KIF ending words of §1.7, with the
/// reason in a `*` comment after the last move, and the KfW summary line.
#[test]
fn server_summary_endings_become_kif_ending_words() {
    // Max moves: `summary:max_moves:… draw:… draw` after 256 moves: 持将棋
    // (the draw among §1.7's words; %MAX_MOVES is a draw, §3.6).
    let kif = kif_of(&server_record("MaxMovesTest"));
    assert!(kif.contains("\n 257 持将棋\nまで256手で持将棋\n"), "{kif}");
    assert!(
        kif.contains("\n*shogi-server: max_moves: the game reached the move limit"),
        "{kif}"
    );
    // Perpetual check: `oute_sennichite:<sente> lose:<gote> win` after
    // 110 moves (White's king escaped last): Black, to move, checked
    // and loses: 反則負け.
    let kif = kif_of(&server_record("OuteSennichiteTest"));
    assert!(
        kif.contains("\n 111 反則負け\nまで110手で先手の反則負け\n"),
        "{kif}"
    );
    assert!(kif.contains("連続王手の千日手"), "{kif}");
    // White sent a Black move after 3 plies: `illegal move:<sente> win:
    // <gote> lose`, White to move lost: 反則負け, the move named.
    let kif = kif_of(&server_record("TestWhiteMovesBlack"));
    assert!(
        kif.contains("\n   4 反則負け\nまで3手で後手の反則負け\n"),
        "{kif}"
    );
    assert!(
        kif.contains(
            "*shogi-server: illegal move: an illegal move (#ILLEGAL_MOVE): ILLEGAL_MOVE(+1716FU)\n"
        ),
        "{kif}"
    );
    // Floodgate 2008: `summary:uchifuzume:KShogi900 lose:usapyon-on-note
    // win`; KShogi900 is White, to move after 103 plies: 反則負け.
    let kif = kif_of(UCHIFUZUME);
    assert!(
        kif.contains("\n 104 反則負け\nまで103手で後手の反則負け\n"),
        "{kif}"
    );
    assert!(kif.contains("打ち歩詰め"), "{kif}");
    // KI2 (no ending words): the summary line and the comment.
    let ki2 = stdout(&ok(&["convert", UCHIFUZUME, "-", "--to", "ki2"]));
    assert!(
        ki2.contains("打ち歩詰め") && ki2.ends_with("まで103手で後手の反則負け\n"),
        "{ki2}"
    );
    // Back to CSA: the offender's %-ILLEGAL_ACTION (§3.6).
    let csa = stdout(&with_stdin(
        &["convert", "-", "-", "--from", "kif", "--to", "csa"],
        kif.as_bytes(),
    ));
    assert!(csa.ends_with("%-ILLEGAL_ACTION\n"), "{csa}");
}

/// CSA `$START_TIME:` ⇄ KIF `開始日時：` (shogi-records §1.3, §3.3).
#[test]
fn the_start_time_is_carried() {
    let kif = kif_of(&server_record("MaxMovesTest"));
    assert!(kif.contains("\n開始日時：2026/12/01 08:32:43\n"), "{kif}");
    let csa = stdout(&with_stdin(
        &["convert", "-", "-", "--from", "kif", "--to", "csa"],
        kif.as_bytes(),
    ));
    assert!(
        csa.contains("\n$START_TIME:2026/12/01 08:32:43\nPI\n"),
        "{csa}"
    );
    // KfW V3's form with a weekday (§1.3).
    let kif = "開始日時：1999/07/15(木) 19:07:12\n手合割：平手\n";
    let csa = stdout(&with_stdin(
        &["convert", "-", "-", "--from", "kif", "--to", "csa"],
        kif.as_bytes(),
    ));
    assert_eq!(csa, "V2.2\n$START_TIME:1999/07/15 19:07:12\nPI\n+\n");
}

/// A start position that is a named handicap with White to move is
/// written `手合割：<name>` (§1.4), not a diagram; cshogi 1.1.0 reads that
/// KIF to the same SFEN as the CSA file (`PI82HI22KA`, `-`).
#[test]
fn handicap_starts_are_written_by_name() {
    let csa = "V2.2\nPI82HI22KA\n-\n-5142OU\n%TORYO\n";
    let kif = stdout(&with_stdin(
        &["convert", "-", "-", "--from", "csa", "--to", "kif"],
        csa.as_bytes(),
    ));
    assert!(kif.contains("\n手合割：二枚落ち\n"), "{kif}");
    assert!(!kif.contains('|'), "{kif}");
    // 上手 (White) moved and 下手 to move resigned.
    assert!(kif.ends_with("まで1手で上手の勝ち\n"), "{kif}");
    let moves = stdout(&with_stdin(
        &["convert", "-", "-", "--from", "kif", "--to", "moves"],
        kif.as_bytes(),
    ));
    assert_eq!(
        moves,
        "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a4b\n"
    );
    // shogi-server's `hc…` games remove Black's pieces with Black to
    // move (§3.4): no named handicap, a diagram.
    let hc = stdout(&ok(&[
        "convert",
        &server_record("hc2p_hoge"),
        "-",
        "--to",
        "kif",
    ]));
    assert!(!hc.contains("手合割") && hc.contains("|"), "{hc}");
}

/// CSA errors give the line and the 1-based column as the KIF and PGN
/// errors do (the examples of csa-protocol's docs: the move cut off at
/// line 4 byte 6 of the line; the rook drop on line 6).
#[test]
fn csa_errors_name_line_and_column_from_one() {
    let o = with_stdin(
        &["convert", "-", "-", "--from", "csa", "--to", "moves"],
        b"V2.2\nPI\n+\n+7776F\n",
    );
    let err = exited(&o, 2);
    assert!(
        err.starts_with("error: standard input: CSA syntax error at line 4, column 7 (byte 16): "),
        "{err}"
    );
    let o = with_stdin(
        &["convert", "-", "-", "--from", "csa", "--to", "moves"],
        b"V2.2\nPI\n+\n+7776FU,T1\n-3334FU\n+0055HI\n",
    );
    let err = exited(&o, 2);
    assert!(
        err.starts_with(
            "error: standard input: CSA game error at line 6, column 1 (byte 29): record 1: ply 3 (+0055HI): "
        ),
        "{err}"
    );
    // No game at all to write into KIF: said so, not "has 0".
    let o = with_stdin(&["convert", "-", "-", "--from", "csa", "--to", "kif"], b"");
    let err = exited(&o, 2);
    assert!(err.contains("no game to write"), "{err}");
}

/// `show --record --ply N` on a game whose later ply is illegal shows the
/// plies before it and says where the game stops reading.
#[test]
fn show_stops_before_the_first_illegal_ply() {
    let dir = tempdir("show-illegal");
    let file = dir.join("bad.csa");
    std::fs::write(&file, "V2.2\nPI\n+\n+7776FU\n-3334FU\n+0055HI\n").unwrap();
    let name = file.to_str().unwrap();
    let o = boardwire(&["show", "--record", name, "--ply", "2"]);
    let err = exited(&o, 0);
    let sfen = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    let diagram = stdout(&ok(&["show", "shogi", sfen]));
    assert_eq!(
        stdout(&o),
        format!("{diagram}after ply 2 of 2, game 1 of {name}\n")
    );
    assert!(
        err.contains("reads up to ply 2 only") && err.contains("+0055HI"),
        "{err}"
    );
    let err = exited(&boardwire(&["show", "--record", name]), 2);
    assert!(err.contains("reads up to ply 2 only"), "{err}");
    // The same in KIF.
    let kif = dir.join("bad.kifu");
    std::fs::write(
        &kif,
        "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五飛打\n",
    )
    .unwrap();
    let o = boardwire(&["show", "--record", kif.to_str().unwrap(), "--ply", "2"]);
    exited(&o, 0);
    assert!(stdout(&o).starts_with(&diagram), "{}", stdout(&o));
}

/// Characters Shift_JIS lacks are written `&#N;` in a `.kif` with a
/// warning naming each and its line.
#[test]
fn characters_shift_jis_lacks_are_warned_about() {
    let dir = tempdir("sjis");
    let out = dir.join("out.kif");
    let o = with_stdin(
        &["convert", "-", out.to_str().unwrap(), "--from", "kif"],
        "先手：☗A\n手合割：平手\n".as_bytes(),
    );
    let err = exited(&o, 0);
    assert!(
        err.contains("line 3: '☗' (U+2617) is not in Shift_JIS: written as &#9751;"),
        "{err}"
    );
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.windows(7).any(|w| w == b"&#9751;"));
}
