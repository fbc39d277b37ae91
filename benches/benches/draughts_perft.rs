//! Criterion benchmarks of draughts move generation through `perft`
//! (bulk-counted at the last ply), on the start position and on the
//! capture-heavy second position of `board-core/tests/data/perft-draughts.txt`.
//! Throughput is reported in leaf nodes per second.
//!
//! `cargo bench -p benches --bench draughts_perft`
//!
//! With the filter `speed` (`cargo bench -p benches --bench draughts_perft
//! -- speed`) only the speed pass runs: the three deep positions compared
//! with Moby Dam (start d9, Woldouby d15, kings d8), best of 3 runs each in
//! thread CPU time, printed in Mn/s (the machine is shared: wall time would
//! count the load). Build it with `RUSTFLAGS="-C target-cpu=native"` for
//! the numbers in the README.

use std::hint::black_box;
use std::time::Duration;

use board_core::draughts::{Position, perft};
#[path = "cpu_time.rs"]
mod cpu_time;
use cpu_time::thread_cpu_seconds;
use criterion::{Criterion, Throughput};

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

/// The deep positions of the speed pass: name, FEN, depth, leaf count
/// (`board-core/tests/data/perft-draughts.txt`).
const SPEED: &[(&str, &str, u32, u64)] = &[
    ("startpos", "W:W31-50:B1-20", 9, 41_022_423),
    (
        "woldouby",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        15,
        346_184_885,
    ),
    (
        "kings",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        8,
        86_724_219,
    ),
];

/// The speed pass: best of 3 thread-CPU-time runs per position, the count
/// checked on every run.
fn speed() {
    for &(name, fen, depth, nodes) in SPEED {
        let pos: Position = fen.parse().unwrap();
        let best = (0..3)
            .map(|_| {
                let t = thread_cpu_seconds();
                assert_eq!(perft(black_box(&pos), depth), nodes, "{name}");
                thread_cpu_seconds() - t
            })
            .fold(f64::INFINITY, f64::min);
        println!(
            "draughts speed {name} d{depth}: {nodes} nodes, {best:.3} s, {:.0} Mn/s",
            nodes as f64 / best / 1e6
        );
    }
}

fn main() {
    let filter = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_default();
    if filter == "speed" {
        speed();
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench_perft(&mut c);
    bench_legal_moves(&mut c);
    c.final_summary();
}
