//! Shared between the shogi benchmarks: our perft and the peers', each
//! with bulk counting at the last ply where the peer supports it.

#![allow(dead_code)]

use std::hint::black_box;

/// The even-game start position.
pub const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// The 593-legal-move position (vectors file).
pub const MAX593: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";

/// A peer shogi move generator the benchmarks compare board-core with.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Peer {
    /// haitaka (bulk counting, with drops).
    Haitaka,
    /// shogi_legality_lite (far slower: shallower depths).
    Lite,
}

impl Peer {
    /// The crate's name, as the benchmarks print it.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Haitaka => "haitaka",
            Peer::Lite => "shogi_legality_lite",
        }
    }

    /// The peer's perft of `sfen` at `depth`, the position read once.
    pub fn perft(self, sfen: &str, depth: u32) -> Box<dyn FnMut() -> u64> {
        match self {
            Peer::Haitaka => {
                let board = haitaka_board(sfen);
                Box::new(move || haitaka_perft(black_box(&board), depth as u8))
            }
            Peer::Lite => {
                let p = lite_position(sfen);
                Box::new(move || lite_perft(black_box(&p), depth as usize))
            }
        }
    }
}

/// The perft cases the shogi benchmarks time: (name, SFEN, the peer
/// board-core is compared with, depth, leaf count).
pub const CASES: [(&str, &str, Peer, u32, u64); 4] = [
    ("startpos", START, Peer::Haitaka, 5, 19_861_490),
    ("startpos", START, Peer::Lite, 4, 719_731),
    ("max593", MAX593, Peer::Haitaka, 3, 53_393_368),
    ("max593", MAX593, Peer::Lite, 2, 105_677),
];

/// Our position from SFEN.
pub fn ours(sfen: &str) -> board_core::shogi::Position {
    board_core::shogi::Position::from_sfen(sfen).unwrap()
}

/// Our perft (bulk counting).
pub fn ours_perft(p: &board_core::shogi::Position, depth: u32) -> u64 {
    board_core::shogi::perft(p, depth)
}

/// haitaka's board from SFEN.
pub fn haitaka_board(sfen: &str) -> haitaka::Board {
    haitaka::Board::from_sfen(sfen).unwrap()
}

/// haitaka's own bulk-counting perft (its `examples/perft.rs`, with drops).
pub fn haitaka_perft(board: &haitaka::Board, depth: u8) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    // Board moves and drops come as the same kind of list.
    let mut count = |moves: haitaka::PieceMoves| {
        if depth == 1 {
            nodes += moves.into_iter().len() as u64;
        } else {
            for mv in moves {
                let mut b = board.clone();
                b.play_unchecked(mv);
                nodes += haitaka_perft(&b, depth - 1);
            }
        }
        false
    };
    board.generate_board_moves(&mut count);
    board.generate_drops(&mut count);
    nodes
}

/// shogi_legality_lite's position (via shogi_usi_parser).
pub fn lite_position(sfen: &str) -> shogi_core::PartialPosition {
    use shogi_usi_parser::FromUsi;
    shogi_core::PartialPosition::from_usi(&format!("sfen {sfen}")).unwrap()
}

/// shogi_legality_lite's own perft (counts the leaf list's length).
pub fn lite_perft(p: &shogi_core::PartialPosition, depth: usize) -> u64 {
    shogi_legality_lite::perft::perft(p.clone(), depth).all
}
