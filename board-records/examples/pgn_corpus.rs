//! Writes the benchmark's PGN corpus (benches/support/corpus.rs) to a file, for
//! running other readers (pgn-reader, python-chess) on the same bytes.
//!
//! `cargo run -p board-records --example pgn_corpus -- OUT.pgn [GAMES] [SEED]`
#![allow(missing_docs)]

#[path = "../benches/support/corpus.rs"]
mod corpus;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).map_or("corpus.pgn", String::as_str);
    let games = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(300);
    let seed = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2026);
    std::fs::write(out, corpus::corpus(seed, games))
}
