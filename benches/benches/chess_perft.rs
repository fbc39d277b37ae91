//! Chess perft, side by side: board-core vs cozy-chess (and shakmaty), all
//! with bulk counting at the last ply, on the start position (depth 6,
//! 119 060 324 nodes) and Kiwipete (depth 5, 193 690 690 nodes).
//! Throughput is reported in nodes (criterion "elem/s" = nodes/s).
//!
//! Before criterion runs, a ratio pass times board-core and cozy-chess
//! alternately (best of 5 runs each, in thread CPU time) and prints both speeds in Mn/s and
//! the ratio ours/cozy-chess, so the ratio comes from one run on one
//! machine state.
//!
//! Run: `cargo bench -p benches --bench chess_perft` (baseline x86-64:
//! board-core still takes its BMI2 `pext` path when the CPU has BMI2, by
//! run-time detection; cozy-chess stays on its portable code), and
//! `RUSTFLAGS="-C target-cpu=native" cargo bench -p benches --bench
//! chess_perft --target x86_64-unknown-linux-gnu` for the native build (the
//! `--target` keeps its artefacts apart from the baseline ones). Pass
//! `ratio` as the filter (`-- ratio`) for the ratio pass alone. On a
//! shared machine compare within a run only.

#[path = "cpu_time.rs"]
mod cpu_time;
use benches::peers::cozy_perft;
use cpu_time::thread_cpu_seconds;
use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

const POSITIONS: [(&str, &str, u32, u64); 2] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        119_060_324,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
    ),
];

/// Best thread CPU time of `runs` calls of `f`, in seconds, with the node
/// count checked on every call.
fn best_of(runs: usize, nodes: u64, f: &dyn Fn() -> u64) -> f64 {
    (0..runs)
        .map(|_| {
            let t = thread_cpu_seconds();
            assert_eq!(black_box(f()), nodes);
            thread_cpu_seconds() - t
        })
        .fold(f64::INFINITY, f64::min)
}

/// The ratio pass: board-core and cozy-chess alternately, best of 5 each.
fn ratios() {
    for (name, fen, depth, nodes) in POSITIONS {
        let ours: board_core::chess::Position = fen.parse().unwrap();
        let cozy: cozy_chess::Board = fen.parse().unwrap();
        let (mut t_ours, mut t_cozy) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..5 {
            t_ours = t_ours.min(best_of(1, nodes, &|| {
                board_core::chess::perft(black_box(&ours), depth)
            }));
            t_cozy = t_cozy.min(best_of(1, nodes, &|| cozy_perft(black_box(&cozy), depth)));
        }
        let mn = |t: f64| nodes as f64 / t / 1e6;
        eprintln!(
            "chess_perft ratio {name} d{depth}: board-core {:.0} Mn/s, cozy-chess {:.0} Mn/s, \
             ours/cozy-chess {:.2}",
            mn(t_ours),
            mn(t_cozy),
            t_cozy / t_ours
        );
    }
}

fn chess_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess_perft");
    group.sample_size(10);
    for (name, fen, depth, nodes) in POSITIONS {
        let ours: board_core::chess::Position = fen.parse().unwrap();
        let cozy: cozy_chess::Board = fen.parse().unwrap();
        let shak = benches::peers::shakmaty_position(fen).unwrap();
        // Same answer from all three before timing anything.
        assert_eq!(board_core::chess::perft(&ours, depth), nodes);
        assert_eq!(cozy_perft(&cozy, depth), nodes);
        assert_eq!(shakmaty::perft(&shak, depth), nodes);

        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new("board-core", name), |b| {
            b.iter(|| board_core::chess::perft(black_box(&ours), black_box(depth)))
        });
        group.bench_function(BenchmarkId::new("cozy-chess", name), |b| {
            b.iter(|| cozy_perft(black_box(&cozy), black_box(depth)))
        });
        group.bench_function(BenchmarkId::new("shakmaty", name), |b| {
            b.iter(|| shakmaty::perft(black_box(&shak), black_box(depth)))
        });
    }
    group.finish();
}

fn main() {
    let filter = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_default();
    ratios();
    if filter == "ratio" {
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    chess_perft(&mut c);
    c.final_summary();
}
