//! Perft against the published counts in `tests/data/perft-shogi.txt`.

use board_core::shogi::{Position, perft};

const VECTORS: &str = include_str!("data/perft-shogi.txt");

mod common;

/// (SFEN, [(depth, nodes)]) for every line of the vectors file.
fn vectors() -> Vec<(&'static str, Vec<(u32, u64)>)> {
    common::perft_suite(VECTORS)
}

fn run(max_nodes: u64, min_nodes: u64) -> usize {
    let mut checked = 0;
    for (sfen, counts) in vectors() {
        let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        for (depth, nodes) in counts {
            if nodes > max_nodes || nodes < min_nodes {
                continue;
            }
            assert_eq!(perft(&pos, depth), nodes, "{sfen} depth {depth}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn vectors_file_parses() {
    let v = vectors();
    assert_eq!(v.len(), 6);
    assert_eq!(v.iter().map(|(_, c)| c.len()).sum::<usize>(), 15);
}

#[test]
fn shallow_perft_vectors() {
    // Everything up to a million leaves (debug-friendly).
    assert_eq!(run(1_000_000, 0), 11);
}

/// The deep counts. Run with
/// `cargo test --release -p board-core --test shogi_perft -- --ignored --nocapture`.
#[test]
#[ignore]
fn deep_perft_vectors() {
    let start = std::time::Instant::now();
    let n = run(u64::MAX, 1_000_001);
    eprintln!("{n} deep counts reproduced in {:?}", start.elapsed());
    assert_eq!(n, 4);
}
