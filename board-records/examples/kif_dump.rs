//! Reads a KIF/KI2 file and prints one line per game line: the USI moves
//! of the main line (`moves …`), or `error: …`. With `--write kif|ki2`,
//! prints our KIF/KI2 output instead (UTF-8). The differential check
//! (`.ci/checks/82-kif-differential`) and the corpus test use it.
//!
//! With `--from-usi LIST OUTDIR`, builds games from LIST (one a line,
//! tab-separated: SFEN, USI moves, times `spent:total,…` or `-`, ending
//! word or `-`, comments `index:kind:text` joined by U+001F or `-`,
//! where index 0 = the start and kind is `*`, `**` or `*#`) and writes
//! each as `OUTDIR/NNNNN.kif` (Shift_JIS) or `.kifu` (UTF-8, odd numbers)
//! and `.ki2u`: the differential check's generator side.
//!
//! Usage: `kif_dump FILE... [--write kif|ki2]`,
//! `kif_dump --from-usi LIST OUTDIR`

use std::process::ExitCode;

use board_core::shogi::Position;
use board_records::kif::{
    self, Comment, CommentKind, Ending, Format, Game, MoveTime, Node, TextEncoding,
};

fn from_usi(list: &str, out: &str) -> Result<usize, String> {
    let text = std::fs::read_to_string(list).map_err(|e| e.to_string())?;
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 5 {
            return Err(format!("line {}: {} fields", i + 1, f.len()));
        }
        let start: Position = f[0].parse().map_err(|e| format!("line {}: {e}", i + 1))?;
        let mut game = Game::new(start);
        game.headers.push(("先手".into(), "Sente Player".into()));
        game.headers.push(("後手".into(), "後手さん".into()));
        let mut pos = start;
        let times: Vec<&str> = if f[2] == "-" {
            Vec::new()
        } else {
            f[2].split(',').collect()
        };
        for (k, usi) in f[1].split_ascii_whitespace().enumerate() {
            let mv = pos
                .parse_usi(usi)
                .map_err(|e| format!("line {}: {usi}: {e}", i + 1))?;
            pos = pos.play(mv).map_err(|e| format!("line {}: {e}", i + 1))?;
            let mut node = Node::new(mv);
            if let Some(t) = times.get(k) {
                let (a, b) = t.split_once(':').ok_or("time")?;
                node.time = Some(MoveTime {
                    spent: a.parse().map_err(|_| "time")?,
                    total: b.parse().ok(),
                });
            }
            game.main.moves.push(node);
        }
        if f[3] != "-" {
            let e = Ending::ALL
                .into_iter()
                .find(|e| e.word() == f[3])
                .ok_or("ending")?;
            game.main.end = Some((e, None));
        }
        if f[4] != "-" {
            for c in f[4].split('\u{1f}') {
                let mut parts = c.splitn(3, ':');
                let idx: usize = parts.next().and_then(|x| x.parse().ok()).ok_or("comment")?;
                let kind = match parts.next() {
                    Some("*") => CommentKind::Plain,
                    Some("**") => CommentKind::Reading,
                    _ => CommentKind::Analysis,
                };
                let text = parts.next().unwrap_or("").to_string();
                let notes = if idx == 0 {
                    &mut game.start_notes
                } else {
                    &mut game.main.moves[idx - 1].notes
                };
                notes.comments.push(Comment { kind, text });
            }
        }
        let (ext, enc) = if i % 2 == 0 {
            ("kif", TextEncoding::ShiftJis)
        } else {
            ("kifu", TextEncoding::Utf8)
        };
        std::fs::write(
            format!("{out}/{i:05}.{ext}"),
            game.to_bytes(Format::Kif, enc),
        )
        .map_err(|e| e.to_string())?;
        std::fs::write(
            format!("{out}/{i:05}.ki2u"),
            game.to_bytes(Format::Ki2, TextEncoding::Utf8),
        )
        .map_err(|e| e.to_string())?;
        n += 1;
    }
    Ok(n)
}

const USAGE: &str =
    "usage: kif_dump FILE... [--write kif|ki2]\n       kif_dump --from-usi LIST OUTDIR";

fn main() -> ExitCode {
    let mut write = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--from-usi" {
            let (Some(list), Some(out)) = (args.next(), args.next()) else {
                eprintln!("--from-usi LIST OUTDIR");
                return ExitCode::FAILURE;
            };
            return match from_usi(&list, &out) {
                Ok(n) => {
                    println!("wrote {n} games");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            };
        } else if a == "--write" {
            write = args.next();
            if !matches!(write.as_deref(), Some("kif" | "ki2")) {
                eprintln!("--write takes kif or ki2\n{USAGE}");
                return ExitCode::from(2);
            }
        } else if a == "-h" || a == "--help" {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        } else if a.starts_with("--") {
            eprintln!("unknown option {a}\n{USAGE}");
            return ExitCode::from(2);
        } else {
            files.push(a);
        }
    }
    if files.is_empty() {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    let mut failed = false;
    for f in files {
        let bytes = match std::fs::read(&f) {
            Ok(b) => b,
            Err(e) => {
                println!("{f}\terror: {e}");
                failed = true;
                continue;
            }
        };
        let hint = std::path::Path::new(&f)
            .extension()
            .and_then(|e| e.to_str())
            .and_then(TextEncoding::from_extension);
        match kif::read(&bytes, hint) {
            Ok(game) => match write.as_deref() {
                Some("kif") => print!("{}", game.to_kif(None)),
                Some("ki2") => print!("{}", game.to_ki2(None)),
                _ => {
                    let moves: Vec<String> = game.moves().map(|m| m.to_string()).collect();
                    println!("{f}\tsfen {}\tmoves {}", game.start, moves.join(" "));
                }
            },
            Err(e) => {
                println!("{f}\terror: {e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
