//! Reads a KIF/KI2 file and prints one line per game line: the USI moves
//! of the main line (`moves …`), or `error: …`. With `--write kif|ki2`,
//! prints our KIF/KI2 output instead (UTF-8). The differential check
//! (`.ci/checks/82-kif-differential`) and the corpus test use it.
//!
//! Usage: `kif_dump FILE... [--write kif|ki2]`

use std::process::ExitCode;

use board_records::kif::{self, TextEncoding};

fn main() -> ExitCode {
    let mut write = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--write" {
            write = args.next();
        } else {
            files.push(a);
        }
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
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
