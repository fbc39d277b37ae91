//! Proves that shogi move generation, play and perft never touch the heap:
//! a counting global allocator (per thread, since tests run in parallel)
//! must see zero allocations while they run.

use board_core::shogi::{
    CsaMove, CsaPositionParser, GameHistory, Move, Position, perft, perft_divide,
};

mod common;
use common::{Counting, StackBuf, allocations_during};

#[global_allocator]
static GLOBAL: Counting = Counting;

const POSITIONS: [&str; 4] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "l7l/5bS2/p1np5/6Sk1/4p2B1/PSpPPn1G1/1P1G2g1N/2+l6/L1KN1+r3 b R3Pgs7p 1",
    "4k4/9/9/9/9/9/9/9/9 b 16P 1",
];

#[test]
fn generation_play_and_perft_do_not_allocate() {
    for sfen in POSITIONS {
        let (n, pos) = allocations_during(|| Position::from_sfen(sfen).unwrap());
        assert_eq!(n, 0, "SFEN parse of {sfen}");
        let (n, moves) = allocations_during(|| pos.legal_moves());
        assert_eq!(n, 0, "legal_moves of {sfen}");
        let (n, count) = allocations_during(|| pos.count_legal_moves());
        assert_eq!(n, 0);
        assert_eq!(count, moves.len() as u64);
        let (n, _) = allocations_during(|| {
            for &m in moves.iter() {
                let mut p = pos;
                p.play_unchecked(m);
                let p2 = pos.play(m).unwrap();
                assert!(p.same_position(&p2));
                let _ = p.is_checkmate();
                let _ = pos.move_to_csa(m).unwrap();
            }
            // An illegal move is refused without allocating either.
            let _ = pos.play(Move::from_usi("5e5d").unwrap()).unwrap_err();
        });
        assert_eq!(n, 0, "play of {sfen}");
        let depth = if moves.len() > 100 { 2 } else { 3 };
        let (n, _) = allocations_during(|| perft(&pos, depth));
        assert_eq!(n, 0, "perft of {sfen}");
        let (n, _) = allocations_during(|| perft_divide(&pos, 2));
        assert_eq!(n, 0, "perft_divide of {sfen}");
    }
}

#[test]
fn notation_and_history_do_not_allocate() {
    let (n, _) = allocations_during(|| {
        let pos = Position::startpos();
        let csa = CsaMove::parse(b"+7776FU").unwrap();
        let mv = pos.move_from_csa(&csa).unwrap();
        let _ = pos.parse_usi("7g7f").unwrap();
        let mut parser = CsaPositionParser::new();
        for line in [&b"PI82HI"[..], b"P+00HI", b"+"] {
            let _ = parser.feed_line(line).unwrap();
        }
        let mut history: GameHistory<32> = GameHistory::new(&pos);
        let after = pos.play(mv).unwrap();
        history.push(&after).unwrap();
        // SFEN and CSA text into a stack buffer.
        let mut buf = StackBuf::new();
        use std::fmt::Write;
        write!(buf, "{after} {}", after.csa()).unwrap();
        write!(buf, "{csa} {mv}").unwrap();
    });
    assert_eq!(n, 0);
}

#[test]
fn the_counter_counts() {
    let (n, v) = allocations_during(|| vec![1u8; 10]);
    assert!(n >= 1);
    drop(v);
}
