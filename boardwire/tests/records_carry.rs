//! What `boardwire convert` carries from one shogi record format to
//! another besides the moves (issue 32, items 2 and 4): CSA `T` times
//! (V3.0's fractions too) and `'*` comments, Floodgate `'**` scores, KIF
//! comments and `変化` variations. The files are the real ones of
//! `board-records/tests/data/{csa,kif}/real/` (PROVENANCE.md there); the
//! values asserted are what the files say (read by cshogi 1.1.0 where it
//! reads them) or the spec note's (shogi-records §1.6, §1.9, §3.5, §3.8).

mod common;

use std::path::PathBuf;

use board_records::kif::{self, CommentKind};
use common::{ok, stdout, with_stdin};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../board-records/tests/data");

fn csa(name: &str) -> String {
    format!("{DATA}/csa/real/{name}")
}

fn kif_file(name: &str) -> String {
    format!("{DATA}/kif/real/{name}")
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("records-carry-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The KIF game `convert` writes for `file` (UTF-8, read back).
fn as_kif(file: &str) -> kif::Game {
    let text = stdout(&ok(&["convert", file, "-", "--to", "kif"]));
    kif::read_str(&text).unwrap()
}

#[test]
fn csa_times_and_comments_become_kif_time_columns_and_comments() {
    // ShogiHome's usi-csa-bridge record: `T` after each move, `'*互角`
    // and ShogiHome's `'**評価値=…` keys after White's moves (§3.5: `'*`
    // is the comment on the move above). cshogi reads the same times.
    let g = as_kif(&csa("sh-bridge-27.csa"));
    let spent: Vec<u32> = g.main.moves.iter().map(|n| n.time.unwrap().spent).collect();
    assert_eq!(spent, [2, 1, 2, 1, 3, 1]);
    // The time used: each side's sum (§1.6).
    let used: Vec<u32> = g
        .main
        .moves
        .iter()
        .map(|n| n.time.unwrap().total.unwrap())
        .collect();
    assert_eq!(used, [2, 1, 4, 2, 7, 3]);
    let second = &g.main.moves[1].notes.comments;
    let texts: Vec<(&CommentKind, &str)> =
        second.iter().map(|c| (&c.kind, c.text.as_str())).collect();
    assert_eq!(
        texts,
        [
            (&CommentKind::Plain, "互角"),
            (&CommentKind::Reading, "評価値=-35"),
            (&CommentKind::Reading, "読み筋=▲２五歩△８五歩"),
            (&CommentKind::Reading, "深さ=8"),
            (&CommentKind::Reading, "ノード数=12345"),
            (&CommentKind::Reading, "エンジン=usi-csa-bridge"),
        ]
    );
    assert!(g.main.moves[0].notes.comments.is_empty());
}

#[test]
fn floodgate_scores_and_fractional_times_survive_csa_to_csa() {
    // A Floodgate record: its first move's `'** 130 …` line (the 電竜戦
    // server's) is kept as the score, the PV is dropped.
    let o = ok(&[
        "convert",
        &csa("jkf-dr1test-aobazero-viper.csa"),
        "-",
        "--to",
        "csa",
    ]);
    let text = stdout(&o);
    let first: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "+7776FU")
        .take(3)
        .collect();
    assert_eq!(first, ["+7776FU", "T10", "'** 130"]);
    // V3.0 (§3.5, §3.8): `T` with a fraction; the output is V3.0 with its
    // encoding line, and the fractions are kept.
    let v3 =
        "'CSA encoding=UTF-8\nV3.0\nPI\n+\n+7776FU\nT1.5\n-3334FU\nT0.25\n+2726FU\nT12\n%CHUDAN\n";
    let o = with_stdin(
        &["convert", "-", "-", "--from", "csa", "--to", "csa"],
        v3.as_bytes(),
    );
    let text = stdout(&o);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("'CSA encoding=UTF-8"));
    assert_eq!(lines.next(), Some("V3.0"));
    for t in ["T1.5", "T0.25", "T12"] {
        assert!(text.lines().any(|l| l == t), "{t}: {text}");
    }
    // Whole seconds only: V2.2 as before.
    let v22 = "V2.2\nPI\n+\n+7776FU\nT1\n%CHUDAN\n";
    let o = with_stdin(
        &["convert", "-", "-", "--from", "csa", "--to", "csa"],
        v22.as_bytes(),
    );
    assert!(stdout(&o).starts_with("V2.2\n"), "{}", stdout(&o));
}

#[test]
fn kif_comments_become_csa_comments() {
    // Kifu for Windows' last_comment.kif: `*コメント` after move 2 (§1.8);
    // in CSA a `'*` line after that move and its time (§3.5).
    let o = ok(&[
        "convert",
        &kif_file("jkf-last_comment.kif"),
        "-",
        "--to",
        "csa",
    ]);
    let text = stdout(&o);
    let after: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "-3334FU")
        .take(4)
        .collect();
    assert_eq!(after, ["-3334FU", "T0", "'*コメント", "+2726FU"]);
}

#[test]
fn kif_variations_and_comments_survive_kif_to_ki2() {
    // Kifu for Windows' fork.kif: `変化：N手` branches (§1.9); KI2 holds
    // them in the same form (§2), so KIF → KI2 → KIF keeps every line.
    let dir = tempdir("fork");
    let ki2 = dir.join("fork.ki2u");
    let ki2 = ki2.to_str().unwrap();
    let file = kif_file("jkf-fork.kif");
    ok(&["convert", &file, ki2]);
    let text = std::fs::read_to_string(ki2).unwrap();
    let source = std::fs::read(&file).unwrap();
    let source_text = kif::decode(&source, Some(kif::TextEncoding::ShiftJis))
        .unwrap()
        .text
        .into_owned();
    let branches = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("変化："))
            .map(str::to_owned)
            .collect()
    };
    assert!(!branches(&source_text).is_empty());
    assert_eq!(branches(&text), branches(&source_text));
    // The same tree of moves and endings (KI2 has no time column).
    let back = kif::read_str(&text).unwrap();
    let orig = kif::read(&source, Some(kif::TextEncoding::ShiftJis)).unwrap();
    assert_eq!(shape(&back.main), shape(&orig.main));
}

/// A line's moves, each with its variations in brackets, and its ending.
fn shape(v: &kif::Variation) -> String {
    let mut s = String::new();
    for n in &v.moves {
        s.push_str(&n.mv.to_string());
        for b in &n.variations {
            s.push_str(&format!("({})", shape(b)));
        }
        s.push(' ');
    }
    s.push_str(&format!("{:?}", v.end.map(|e| e.0)));
    s
}
