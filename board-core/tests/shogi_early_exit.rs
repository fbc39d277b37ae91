//! The callback generator [`Position::for_each_legal_move`] and the
//! "is there a legal move" queries built on its early exit
//! (`has_legal_move`, `is_checkmate`): the published perft counts
//! reproduced through the callback alone, the same moves in the same order
//! as [`Position::legal_moves`] on every position of the perft suites'
//! trees to depth 2, a stop at exactly the first `Break`, and known answers
//! (the suites' D1 counts, cross-checked with cshogi).

use core::ops::ControlFlow;

use board_core::shogi::{Move, Position};

const VECTORS: &str = include_str!("data/perft-shogi.txt");

mod common;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// Perft using nothing but the callback generator: interior nodes recurse
/// from inside the callback, leaves are counted as callback calls.
fn perft_by_callback(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    let flow = p.for_each_legal_move(|mv| {
        if depth == 1 {
            nodes += 1;
        } else {
            let mut child = *p;
            child.play_unchecked(mv);
            nodes += perft_by_callback(&child, depth - 1);
        }
        ControlFlow::<()>::Continue(())
    });
    assert_eq!(flow, ControlFlow::Continue(()));
    nodes
}

#[test]
fn callback_perft_reproduces_the_published_counts() {
    let mut checked = 0;
    for (sfen, counts) in common::perft_suite(VECTORS) {
        let p = pos(sfen);
        for (depth, nodes) in counts {
            if nodes > 1_000_000 {
                continue;
            }
            assert_eq!(perft_by_callback(&p, depth), nodes, "{sfen} depth {depth}");
            checked += 1;
        }
    }
    assert_eq!(checked, 11);
}

/// The moves `for_each_legal_move` passes, all of them.
fn visited(p: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    let flow = p.for_each_legal_move(|mv| {
        out.push(mv);
        ControlFlow::<()>::Continue(())
    });
    assert_eq!(flow, ControlFlow::Continue(()));
    out
}

/// Checks one position: same moves and order as the list, and the
/// early-exit queries agree with the list.
fn check_position(p: &Position) {
    let list = p.legal_moves();
    assert_eq!(visited(p), &list[..], "{p}");
    assert_eq!(!p.has_legal_move(), list.is_empty(), "{p}");
    assert_eq!(p.is_checkmate(), p.is_check() && list.is_empty(), "{p}");
}

#[test]
fn callback_order_is_list_order_on_the_perft_trees() {
    let mut with_d2 = 0;
    for (sfen, counts) in common::perft_suite(VECTORS) {
        let root = pos(sfen);
        let mut positions = 0u64;
        check_position(&root);
        positions += 1;
        for &m1 in root.legal_moves().iter() {
            let mut p1 = root;
            p1.play_unchecked(m1);
            check_position(&p1);
            positions += 1;
            for &m2 in p1.legal_moves().iter() {
                let mut p2 = p1;
                p2.play_unchecked(m2);
                check_position(&p2);
                positions += 1;
            }
        }
        // Every node of the tree was visited: 1 + D1 + D2 (published).
        if let [(1, d1), (2, d2), ..] = counts[..] {
            assert_eq!(positions, 1 + d1 + d2, "{sfen}");
            with_d2 += 1;
        }
    }
    assert_eq!(with_d2, 3);
}

#[test]
fn early_exit_stops_at_exactly_the_first_break() {
    for (sfen, counts) in common::perft_suite(VECTORS) {
        let p = pos(sfen);
        let list = p.legal_moves();
        // D1 of the suite (published): the number of legal moves.
        assert_eq!(
            Some(list.len() as u64),
            counts.first().map(|c| c.1),
            "{sfen}"
        );
        let n = list.len();
        for k in [1, 2, n / 2, n.saturating_sub(1), n] {
            if k == 0 || k > n {
                continue;
            }
            let (flow, calls) = common::break_at(&p, k);
            assert_eq!(calls, k, "{sfen}: break at call {k}");
            assert_eq!(flow, ControlFlow::Break(list[k - 1]), "{sfen}");
        }
        if n == 0 {
            let mut calls = 0;
            let flow = p.for_each_legal_move(|_| {
                calls += 1;
                ControlFlow::Break(())
            });
            assert_eq!((calls, flow), (0, ControlFlow::Continue(())));
        }
    }
}

#[test]
fn known_answers_of_the_no_legal_move_queries() {
    // The suite's D1 0 position: no legal move, not in check (cshogi: no
    // legal move, not in check).
    let p = pos("+R+N+SGKG+S+N+R/+B+N+SG+LG+S+N+B/P+LPP+LPP+LP/1P2P2P1/9/9/9/9/4k4 b 9P 200");
    assert!(!p.has_legal_move());
    assert!(!p.is_check());
    assert!(!p.is_checkmate());
    // Head-gold mate: in check, no legal move.
    let p = pos("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    assert!(!p.has_legal_move() && p.is_checkmate());
    // In check with one legal move (the suite's D1 1 position, 7i7h).
    let p = pos("l7l/5bS2/p1np5/6Sk1/4p2B1/PSpPPn1G1/1P1G2g1N/2+l6/L1KN1+r3 b R3Pgs7p 1");
    assert!(p.is_check());
    assert!(p.has_legal_move() && !p.is_checkmate());
    // In check by the rook on 9a, the king's steps covered by the rook on
    // 8a: the only legal moves are the 7 gold drops on 9b..9h, the last
    // kind of move the generator produces (cshogi: 7 moves, all G*9x).
    let p = pos("rr6k/9/9/9/9/9/9/9/K8 b G 1");
    assert!(p.is_check());
    assert!(p.has_legal_move() && !p.is_checkmate());
    let moves = visited(&p);
    assert_eq!(moves.len(), 7);
    assert!(moves.iter().all(|m| m.to_string().starts_with("G*9")));
    // Without the gold in hand it is mate.
    assert!(pos("rr6k/9/9/9/9/9/9/9/K8 b - 1").is_checkmate());
}
