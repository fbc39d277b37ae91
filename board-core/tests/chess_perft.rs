//! Perft counts from `tests/data/perft-chess.txt` (Chess Programming Wiki
//! "Perft Results", positions 1-6 and the mirrored position 4) and from
//! `tests/data/perftsuite.epd`. Shallow depths run always; the deep ones are
//! `#[ignore]`d (run with `cargo test --release -p board-core --test
//! chess_perft -- --ignored`).

use board_core::chess::{Position, perft};

const VECTORS: &str = include_str!("data/perft-chess.txt");
const SUITE: &str = include_str!("data/perftsuite.epd");

mod common;
use common::perft_suite as parse;

fn run(data: &'static str, max_nodes: u64, min_nodes: u64) -> usize {
    let mut checked = 0;
    for (fen, counts) in parse(data) {
        let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (depth, nodes) in counts {
            if nodes <= max_nodes && nodes > min_nodes {
                assert_eq!(perft(&pos, depth), nodes, "{fen} depth {depth}");
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn vectors_shallow() {
    assert_eq!(run(VECTORS, 5_000_000, 0), 30);
}

#[test]
#[ignore = "deep perft: minutes in release mode"]
fn vectors_deep() {
    assert_eq!(run(VECTORS, u64::MAX, 5_000_000), 14);
}

#[test]
fn suite_shallow() {
    assert_eq!(parse(SUITE).len(), 126);
    // Depths 1-3 of all 126 positions and every count up to 100k nodes.
    assert!(run(SUITE, 100_000, 0) >= 126 * 3);
}

#[test]
#[ignore = "deep perft: about a minute in release mode"]
fn suite_deep() {
    // Every count of the suite (depth 4 to 6, up to 525M nodes).
    assert!(run(SUITE, u64::MAX, 100_000) > 126);
}
