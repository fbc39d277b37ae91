//! Criterion benchmarks of draughts move generation through `perft`
//! (bulk-counted at the last ply), on the start position and on the
//! capture-heavy second position of `board-core/tests/data/perft-draughts.txt`.
//! Throughput is reported in leaf nodes per second.
//!
//! `cargo bench -p benches --bench draughts_perft`

use std::hint::black_box;
use std::time::Duration;

use board_core::draughts::{Position, perft};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const CASES: &[(&str, &str, u32, u64)] = &[
    ("startpos", "W:W31-50:B1-20", 7, 1_049_442),
    (
        "kings_capture",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        5,
        87_195,
    ),
    (
        "woldouby",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        11,
        377_436,
    ),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("draughts_perft");
    group
        .measurement_time(Duration::from_secs(5))
        .sample_size(20);
    for &(name, fen, depth, nodes) in CASES {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(perft(&pos, depth), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}_d{depth}"), |b| {
            b.iter(|| perft(black_box(&pos), depth))
        });
    }
    group.finish();
}

fn bench_legal_moves(c: &mut Criterion) {
    let pos: Position = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
        .parse()
        .unwrap();
    c.bench_function("draughts_legal_moves_kings_capture", |b| {
        b.iter(|| black_box(&pos).legal_moves().len())
    });
    let pos = Position::startpos();
    c.bench_function("draughts_legal_moves_startpos", |b| {
        b.iter(|| black_box(&pos).legal_moves().len())
    });
}

criterion_group!(benches, bench_perft, bench_legal_moves);
criterion_main!(benches);
