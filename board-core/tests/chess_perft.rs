//! Perft counts from `tests/data/perft-chess.txt` (Chess Programming Wiki
//! "Perft Results", positions 1-6 and the mirrored position 4) and from
//! `tests/data/perftsuite.epd`. Shallow depths run always; the deep ones are
//! `#[ignore]`d (run with `cargo test --release -p board-core --test
//! chess_perft -- --ignored`).

use board_core::chess::{Position, perft};

const VECTORS: &str = include_str!("data/perft-chess.txt");

/// (FEN, [(depth, nodes)]) from the vectors file.
fn vectors() -> Vec<(&'static str, Vec<(u32, u64)>)> {
    VECTORS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';').map(str::trim);
            let fen = parts.next().unwrap();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.split_once(' ').unwrap();
                    (d.trim_start_matches('D').parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

fn run(max_nodes: u64, min_nodes: u64) -> usize {
    let mut checked = 0;
    for (fen, counts) in vectors() {
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
    assert!(run(5_000_000, 0) >= 30);
}

#[test]
#[ignore = "deep perft: minutes in release mode"]
fn vectors_deep() {
    assert!(run(u64::MAX, 5_000_000) >= 10);
}
