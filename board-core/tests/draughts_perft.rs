//! Known-answer perft tests from `tests/data/perft-draughts.txt` (sources:
//! dctl test suite, Aart Bik's published BikDam perft, Moby Dam test
//! script).

use board_core::draughts::{Position, perft, perft_divide};

const VECTORS: &str = include_str!("data/perft-draughts.txt");

/// Node budget for the normal (fast) test run; deeper counts run in the
/// ignored `perft_deep` test.
const FAST_NODES: u64 = 3_000_000;

struct Line {
    fen: &'static str,
    counts: Vec<(u32, u64)>,
}

mod common;

fn vectors() -> Vec<Line> {
    common::perft_suite(VECTORS)
        .into_iter()
        .map(|(fen, counts)| Line { fen, counts })
        .collect()
}

#[test]
fn vectors_file_is_complete() {
    let v = vectors();
    assert_eq!(v.len(), 5);
    assert_eq!(
        v.iter().map(|l| l.counts.len()).sum::<usize>(),
        11 + 9 + 15 + 11 + 9
    );
}

#[test]
fn perft_shallow() {
    let mut checked = 0;
    for line in vectors() {
        let pos: Position = line.fen.parse().unwrap();
        for &(depth, expected) in &line.counts {
            if expected > FAST_NODES {
                continue;
            }
            assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", line.fen);
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} counts checked");
}

#[test]
fn divide_sums_to_perft() {
    for line in vectors() {
        let pos: Position = line.fen.parse().unwrap();
        let &(depth, expected) = line
            .counts
            .iter()
            .rev()
            .find(|(_, n)| *n < 200_000)
            .unwrap();
        let (total, per_move) = perft_divide(&pos, depth);
        assert_eq!(total, expected);
        assert_eq!(per_move.len(), pos.legal_moves().len());
        assert_eq!(per_move.iter().map(|(_, n)| n).sum::<u64>(), expected);
    }
}

#[test]
fn legal_moves_agree_with_bulk_count() {
    // perft(1) is bulk-counted; legal_moves() builds the list.
    for line in vectors() {
        let pos: Position = line.fen.parse().unwrap();
        for &(mv, _) in perft_divide(&pos, 2).1.iter() {
            let mut child = pos;
            child.play_unchecked(mv);
            assert_eq!(child.legal_moves().len() as u64, perft(&child, 1));
        }
    }
}

/// Every count in the vectors file, run with
/// `cargo test --release -p board-core --test draughts_perft -- --ignored`.
#[test]
#[ignore = "deep perft: minutes in release mode"]
fn perft_deep() {
    for line in vectors() {
        let pos: Position = line.fen.parse().unwrap();
        for &(depth, expected) in &line.counts {
            if expected <= FAST_NODES {
                continue;
            }
            let start = std::time::Instant::now();
            let n = perft(&pos, depth);
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "{} D{depth} {n} {secs:.2}s {:.1} Mnodes/s",
                line.fen,
                n as f64 / secs / 1e6
            );
            assert_eq!(n, expected, "{} depth {depth}", line.fen);
        }
    }
}
