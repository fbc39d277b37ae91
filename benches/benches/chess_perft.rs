//! Chess perft, side by side: board-core vs cozy-chess vs shakmaty, all
//! with bulk counting at the last ply, on the start position (depth 5,
//! 4 865 609 nodes) and Kiwipete (depth 4, 4 085 603 nodes). Throughput is
//! reported in nodes (criterion "elem/s" = nodes/s).
//!
//! Run: `cargo bench -p benches --bench chess_perft`. The three
//! implementations of one position are measured in the same run, one after
//! the other; on a shared machine compare within a run only.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const POSITIONS: [(&str, &str, u32, u64); 2] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4_865_609,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    ),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

fn chess_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("chess_perft");
    group.sample_size(20);
    for (name, fen, depth, nodes) in POSITIONS {
        let ours: board_core::chess::Position = fen.parse().unwrap();
        let cozy: cozy_chess::Board = fen.parse().unwrap();
        let shak: shakmaty::Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
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

criterion_group!(benches, chess_perft);
criterion_main!(benches);
