//! Shogi perft: board-core against haitaka (crates.io) and
//! shogi_legality_lite (crates.io), same positions and depths, one run.
//! Counts are asserted against the vectors file, so a wrong generator
//! cannot look fast.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "shogi_common.rs"]
mod common;
use common::*;

fn startpos_d5(c: &mut Criterion) {
    let mut g = c.benchmark_group("shogi_perft_startpos_d5");
    g.sample_size(10);
    let ours_p = ours(START);
    let hai = haitaka_board(START);
    g.bench_function("board-core", |b| {
        b.iter(|| assert_eq!(ours_perft(black_box(&ours_p), 5), 19_861_490))
    });
    g.bench_function("haitaka", |b| {
        b.iter(|| assert_eq!(haitaka_perft(black_box(&hai), 5), 19_861_490))
    });
    g.finish();
    // shogi_legality_lite is far slower: depth 4 (719 731 leaves).
    let mut g = c.benchmark_group("shogi_perft_startpos_d4");
    g.sample_size(10);
    let lite = lite_position(START);
    g.bench_function("board-core", |b| {
        b.iter(|| assert_eq!(ours_perft(black_box(&ours_p), 4), 719_731))
    });
    g.bench_function("shogi_legality_lite", |b| {
        b.iter(|| assert_eq!(lite_perft(black_box(&lite), 4), 719_731))
    });
    g.finish();
}

fn max593_d3(c: &mut Criterion) {
    let mut g = c.benchmark_group("shogi_perft_max593_d3");
    g.sample_size(10);
    let ours_p = ours(MAX593);
    let hai = haitaka_board(MAX593);
    g.bench_function("board-core", |b| {
        b.iter(|| assert_eq!(ours_perft(black_box(&ours_p), 3), 53_393_368))
    });
    g.bench_function("haitaka", |b| {
        b.iter(|| assert_eq!(haitaka_perft(black_box(&hai), 3), 53_393_368))
    });
    g.finish();
    let mut g = c.benchmark_group("shogi_perft_max593_d2");
    g.sample_size(10);
    let lite = lite_position(MAX593);
    g.bench_function("board-core", |b| {
        b.iter(|| assert_eq!(ours_perft(black_box(&ours_p), 2), 105_677))
    });
    g.bench_function("shogi_legality_lite", |b| {
        b.iter(|| assert_eq!(lite_perft(black_box(&lite), 2), 105_677))
    });
    g.finish();
}

criterion_group!(benches, startpos_d5, max593_d3);
criterion_main!(benches);
