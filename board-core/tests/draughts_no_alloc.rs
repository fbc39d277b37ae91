//! Proves that move generation, playing moves and perft never touch the
//! heap: a counting global allocator, counting per thread (the test harness
//! runs tests on several threads; each test only looks at its own count).

use board_core::draughts::{Position, perft, perft_divide};

mod common;
use common::{Counting, StackBuf, allocations_during};

#[global_allocator]
static GLOBAL: Counting = Counting;

const POSITIONS: &[&str] = &[
    "W:W31-50:B1-20",
    "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
    "W:WK31-50:BK1-20",
    "W:W6,7,8,9,10:B41,42,43,44,45",
];

#[test]
fn the_counter_sees_allocations() {
    // The instrument works: a Vec allocates on this thread.
    let (n, v) = allocations_during(|| vec![1u8; 100]);
    assert!(n >= 1);
    drop(v);
}

#[test]
fn legal_moves_play_and_perft_do_not_allocate() {
    // Parsing is outside the measured region.
    let positions: Vec<Position> = POSITIONS.iter().map(|f| f.parse().unwrap()).collect();
    let (n, total) = allocations_during(|| {
        let mut total = 0u64;
        for pos in &positions {
            total += common::each_child(pos, |mv, child| {
                assert!(pos.is_legal(mv));
                assert_eq!(pos.find_move(mv.from(), mv.to(), mv.captures()), Some(mv));
                let _ = child.outcome();
            });
            total += perft(pos, 4);
            total += perft_divide(pos, 3).0;
        }
        total
    });
    assert!(total > 0);
    assert_eq!(
        n, 0,
        "{n} heap allocations during move generation/play/perft"
    );
}

#[test]
fn move_text_does_not_allocate() {
    use std::fmt::Write;
    let positions: Vec<Position> = POSITIONS.iter().map(|f| f.parse().unwrap()).collect();
    let (n, ()) = allocations_during(|| {
        for pos in &positions {
            for &mv in pos.legal_moves().iter() {
                let mut buf = StackBuf::new();
                write!(buf, "{}", pos.move_text(mv)).unwrap();
                assert_eq!(pos.parse_move(buf.as_str()), Ok(mv));
            }
        }
    });
    assert_eq!(n, 0, "{n} heap allocations in move text");
}
