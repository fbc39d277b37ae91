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
    benches::peers::haitaka_board(sfen).unwrap()
}

pub use benches::peers::{haitaka_perft, lite_perft};

/// shogi_legality_lite's position (via shogi_usi_parser).
pub fn lite_position(sfen: &str) -> shogi_core::PartialPosition {
    benches::peers::lite_position(sfen).unwrap()
}
