//! Shogi perft: board-core against haitaka (crates.io) and
//! shogi_legality_lite (crates.io), same positions and depths, one run.
//! Counts are asserted against the vectors file, so a wrong generator
//! cannot look fast.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "shogi_common.rs"]
mod common;
use common::*;

/// Each of [`CASES`]: board-core against the peer, same position and
/// depth.
fn perft_side_by_side(c: &mut Criterion) {
    for (name, sfen, peer, depth, leaves) in CASES {
        let ours_p = ours(sfen);
        let mut theirs = peer.perft(sfen, depth);
        let mut g = c.benchmark_group(format!("shogi_perft_{name}_d{depth}"));
        g.sample_size(10);
        g.bench_function("board-core", |b| {
            b.iter(|| assert_eq!(ours_perft(black_box(&ours_p), depth), leaves))
        });
        g.bench_function(peer.name(), |b| b.iter(|| assert_eq!(theirs(), leaves)));
        g.finish();
    }
}

/// Game-end queries ("is there a legal move?", checkmate) and the
/// pawn-drop-mate test, on board-core alone: `has_legal_move` (stops at
/// the first legal move) against counting every move
/// (`count_legal_moves() == 0`, what it did before), on positions with
/// many moves, with none, and the end of a recorded Floodgate game lost by
/// uchifuzume (White to move, P*6d would mate).
fn game_end_queries(c: &mut Criterion) {
    let positions = [
        ("startpos", START),
        ("max593", MAX593),
        // Head-gold mate: no legal move, in check.
        ("mated", "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"),
        // The perft suite's position without a legal move (not in check).
        (
            "no_move",
            "+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200",
        ),
        (
            "uchifuzume_game_end",
            "ln1g1k1nl/2+P6/4gg1p1/2p1ppp2/1+rSK3PP/p1PGSPP1L/3+r5/9/LN7 w B2SN5Pbp 104",
        ),
    ];
    let mut g = c.benchmark_group("shogi_game_end");
    for (name, sfen) in positions {
        let p = ours(sfen);
        let none = p.legal_moves().is_empty();
        g.bench_function(format!("{name}/has_legal_move"), |b| {
            b.iter(|| assert_eq!(!black_box(&p).has_legal_move(), none))
        });
        g.bench_function(format!("{name}/count_is_zero"), |b| {
            b.iter(|| assert_eq!(black_box(&p).count_legal_moves() == 0, none))
        });
        g.bench_function(format!("{name}/is_checkmate"), |b| {
            b.iter(|| black_box(black_box(&p).is_checkmate()))
        });
    }
    // The generator's pawn-drop-mate test runs once per generation here
    // (White holds a pawn and the square in front of Black's king is
    // free): the full count, and the one move checked on its own.
    let p = ours(positions[4].1);
    let n = p.count_legal_moves();
    g.bench_function("uchifuzume_game_end/count_legal_moves", |b| {
        b.iter(|| assert_eq!(black_box(&p).count_legal_moves(), n))
    });
    let drop_move = board_core::shogi::Move::from_usi("P*6d").unwrap();
    assert!(matches!(
        p.check_move(drop_move),
        Err(board_core::shogi::IllegalReason::PawnDropMate { .. })
    ));
    g.bench_function("uchifuzume_game_end/check_move_P*6d", |b| {
        b.iter(|| assert!(black_box(&p).check_move(black_box(drop_move)).is_err()))
    });
    g.finish();
}

criterion_group!(benches, perft_side_by_side, game_end_queries);
criterion_main!(benches);
