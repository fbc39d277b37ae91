//! Reads a PGN file and prints, per game, a canonical dump (tags, game
//! comment, the move tree in UCI with NAGs, comments and variations, the
//! result); writes our export of every game that reads to a second file.
//! The python-chess differential (.ci/checks/80-pgn-differential) prints
//! the same dump from python-chess and compares.
//!
//! `cargo run -p board-records --example pgn_dump -- IN.pgn DUMP.txt OUT.pgn`
#![allow(missing_docs)]

use std::fmt::Write as _;

use board_records::pgn::{Comment, Node, Reader};

fn joined(comments: &[Comment]) -> String {
    comments
        .iter()
        .map(Comment::text)
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn line(out: &mut String, nodes: &[Node]) {
    for n in nodes {
        let uci = n.mv().map_or("0000".to_string(), |m| m.to_string());
        let mut nags: Vec<u8> = n.nags.iter().map(|g| g.0).collect();
        nags.sort_unstable();
        nags.dedup();
        let nags: Vec<String> = nags.iter().map(u8::to_string).collect();
        let _ = writeln!(
            out,
            "m {uci} n={} s={} c={}",
            nags.join(","),
            joined(&n.starting_comments).replace('\n', "\\n"),
            joined(&n.comments).replace('\n', "\\n")
        );
        for v in &n.variations {
            out.push_str("(\n");
            line(out, v);
            out.push_str(")\n");
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, input, dump, written] = &args[..] else {
        return Err("usage: pgn_dump IN.pgn DUMP.txt OUT.pgn".into());
    };
    let bytes = std::fs::read(input)?;
    let mut out = String::new();
    let mut pgn = String::new();
    for (i, g) in Reader::new(&bytes).games().enumerate() {
        let _ = writeln!(out, "game {i}");
        match g {
            Ok(g) => {
                for t in g.tags.iter() {
                    let _ = writeln!(out, "tag {}={}", t.name(), t.value());
                }
                let _ = writeln!(out, "comment {}", joined(&g.comments).replace('\n', "\\n"));
                let _ = writeln!(out, "start {}", g.start());
                line(&mut out, &g.moves);
                let result = g.result.map_or("none", |r| r.as_str());
                let _ = writeln!(out, "result {result}");
                for w in &g.warnings {
                    let _ = writeln!(out, "warning {w}");
                }
                pgn.push_str(&g.to_pgn());
            }
            Err(e) => {
                let _ = writeln!(out, "error {e}");
            }
        }
    }
    std::fs::write(dump, out)?;
    std::fs::write(written, pgn)?;
    Ok(())
}
