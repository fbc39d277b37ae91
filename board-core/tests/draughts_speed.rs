//! Draughts perft speed on the three deep positions compared with Moby Dam
//! (start d9, Woldouby d15, kings d8), in thread CPU time (Linux: read
//! from `/proc/thread-self/schedstat`; the machine may be shared).
//! Ignored by default; run it in release:
//!
//! `cargo test -p board-core --release --test draughts_speed -- --ignored --nocapture`
//!
//! `DRAUGHTS_SPEED_CUT=k` takes `k` plies off every depth (for runs under
//! callgrind); `DRAUGHTS_SPEED_ONLY=name` runs one position
//! (`startpos`, `woldouby` or `kings`); `DRAUGHTS_SPEED_RUNS=n` sets the
//! number of runs (best of 3 by default). The counts are checked against
//! `tests/data/perft-draughts.txt`.

use board_core::draughts::{Position, perft};
use std::hint::black_box;

/// Name, FEN, depth and the leaf counts of the published tables at depths
/// `depth - 2 ..= depth`.
const CASES: &[(&str, &str, u32, [u64; 3])] = &[
    (
        "startpos",
        "W:W31-50:B1-20",
        9,
        [1_049_442, 6_483_961, 41_022_423],
    ),
    (
        "woldouby",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        15,
        [9_872_645, 58_360_286, 346_184_885],
    ),
    (
        "kings",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        8,
        [629_010, 9_041_010, 86_724_219],
    ),
];

/// CPU time of this thread in nanoseconds, if the kernel tells it.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

#[test]
#[ignore = "speed measurement: run in release with --ignored --nocapture"]
fn draughts_speed() {
    let cut: u32 = std::env::var("DRAUGHTS_SPEED_CUT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
        .min(2);
    let runs: usize = std::env::var("DRAUGHTS_SPEED_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let only = std::env::var("DRAUGHTS_SPEED_ONLY").ok();
    for &(name, fen, depth, counts) in CASES {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let pos: Position = fen.parse().unwrap();
        let depth = depth - cut;
        let nodes = counts[2 - cut as usize];
        let mut best = u64::MAX;
        for _ in 0..runs.max(1) {
            let t = thread_cpu_ns();
            assert_eq!(perft(black_box(&pos), depth), nodes, "{name} d{depth}");
            if let (Some(a), Some(b)) = (t, thread_cpu_ns()) {
                best = best.min(b - a);
            }
        }
        if best == u64::MAX {
            println!("draughts speed {name} d{depth}: {nodes} nodes (no CPU clock)");
        } else {
            println!(
                "draughts speed {name} d{depth}: {nodes} nodes, {:.3} s, {:.0} Mn/s",
                best as f64 * 1e-9,
                nodes as f64 * 1e3 / best as f64
            );
        }
    }
}
