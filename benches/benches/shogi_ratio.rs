//! Interleaved timing of shogi perft, board-core vs haitaka vs
//! shogi_legality_lite: the implementations alternate run by run (the
//! machine is shared, so drifting load hits all of them alike), and the
//! median of each is reported with the ratios.
//!
//! `cargo bench -p benches --bench shogi_ratio [-- ROUNDS]`

use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "shogi_common.rs"]
mod common;
use common::*;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time(f: &mut dyn FnMut() -> u64, expected: u64) -> Duration {
    let t = Instant::now();
    let n = f();
    let d = t.elapsed();
    assert_eq!(n, expected);
    d
}

fn compare(
    name: &str,
    expected: u64,
    rounds: usize,
    impls: &mut [(&str, &mut dyn FnMut() -> u64)],
) {
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); impls.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in impls.iter_mut().enumerate() {
            times[i].push(time(*f, expected));
        }
    }
    println!("{name} ({expected} leaves, {rounds} interleaved rounds, median):");
    let meds: Vec<Duration> = times.into_iter().map(median).collect();
    for ((label, _), d) in impls.iter().zip(&meds) {
        println!(
            "  {label:<22} {:>9.3} s  {:>7.1} M nodes/s  ours is {:.2}x faster",
            d.as_secs_f64(),
            expected as f64 / d.as_secs_f64() / 1e6,
            d.as_secs_f64() / meds[0].as_secs_f64()
        );
    }
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5);
    // Against haitaka first, then against shogi_legality_lite.
    for peer in [Peer::Haitaka, Peer::Lite] {
        for (name, sfen, _, depth, leaves) in CASES.into_iter().filter(|c| c.2 == peer) {
            let p = ours(sfen);
            let mut theirs = peer.perft(sfen, depth);
            compare(
                &format!("{name} depth {depth}"),
                leaves,
                rounds,
                &mut [
                    ("board-core", &mut || ours_perft(black_box(&p), depth)),
                    (peer.name(), &mut *theirs),
                ],
            );
        }
    }
}
