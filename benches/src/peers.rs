//! The Rust peers' perft, each with bulk counting at the last ply where the
//! peer allows it: used by the `compare` binary and the perft benchmarks.

/// cozy-chess's perft, bulk-counted (its move lists come per piece).
pub fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
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

/// shakmaty's position from FEN (standard castling).
pub fn shakmaty_position(fen: &str) -> Result<shakmaty::Chess, String> {
    fen.parse::<shakmaty::fen::Fen>()
        .map_err(|e| e.to_string())?
        .into_position(shakmaty::CastlingMode::Standard)
        .map_err(|e| e.to_string())
}

/// haitaka's board from SFEN.
pub fn haitaka_board(sfen: &str) -> Result<haitaka::Board, String> {
    haitaka::Board::from_sfen(sfen).map_err(|e| format!("{e:?}"))
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
pub fn lite_position(sfen: &str) -> Result<shogi_core::PartialPosition, String> {
    use shogi_usi_parser::FromUsi;
    shogi_core::PartialPosition::from_usi(&format!("sfen {sfen}")).map_err(|e| format!("{e:?}"))
}

/// shogi_legality_lite's own perft (counts the leaf list's length).
pub fn lite_perft(p: &shogi_core::PartialPosition, depth: usize) -> u64 {
    shogi_legality_lite::perft::perft(p.clone(), depth).all
}
