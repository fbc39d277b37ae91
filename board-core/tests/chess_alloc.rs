//! Proves that chess move generation, playing moves and perft never touch
//! the heap: a counting global allocator (counts per thread, so the test
//! harness's own threads do not interfere) must see zero allocations.

use board_core::chess::{Position, perft, perft_divide};

mod common;
use common::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn movegen_play_and_perft_do_not_allocate() {
    // Parse first (parsing does not allocate either, but is not the claim).
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    ];
    let positions: Vec<Position> = fens.iter().map(|f| f.parse().unwrap()).collect();

    let before = allocations();
    let mut total = 0u64;
    for pos in &positions {
        let mut ends = 0u64;
        total += common::each_child(pos, |_, child| {
            ends += u64::from(child.is_checkmate()) + u64::from(child.is_stalemate());
        });
        total += ends;
        total += perft(pos, 3);
        total += perft_divide(pos, 2).1.len() as u64;
        total += u64::from(pos.is_insufficient_material());
    }
    let after = allocations();
    assert!(total > 0);
    assert_eq!(
        after - before,
        0,
        "heap allocations during movegen/play/perft"
    );
}

#[test]
fn san_writing_and_reading_do_not_allocate() {
    let positions: Vec<Position> = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
    ]
    .iter()
    .map(|f| f.parse().unwrap())
    .collect();
    let before = allocations();
    let mut total = 0usize;
    for pos in &positions {
        for &mv in pos.legal_moves().iter() {
            let san = pos.san(mv);
            total += san.as_str().len();
            assert_eq!(pos.parse_san(san.as_str()), Ok(mv));
            total += usize::from(pos.parse_san("Qxx9").is_err());
        }
    }
    let after = allocations();
    assert!(total > 0);
    assert_eq!(after - before, 0, "heap allocations during SAN");
}

#[test]
fn the_counter_counts() {
    // The allocator hook works: a Vec allocation is seen.
    let before = allocations();
    let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
    assert!(allocations() > before);
    drop(v);
}
