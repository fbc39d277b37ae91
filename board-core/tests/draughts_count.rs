//! The counting-only paths of `perft` (bulk counting at the last ply: the
//! kings' capture tally, the quiet-parent leaf counts) against the move
//! lists of `legal_moves`, at every ply of random games and on random
//! sparse set-ups with kings (where kings take 4 pieces or more and two
//! capture paths can be one move).

use board_core::draughts::{Color, Piece, PieceKind, Position, Setup, perft};
use proptest::prelude::*;

/// `perft(pos, 1)` and `perft(pos, 2)` as the move lists give them.
fn check_counts(pos: &Position) -> Result<(), TestCaseError> {
    let moves = pos.legal_moves();
    prop_assert_eq!(perft(pos, 1), moves.len() as u64, "{}", pos);
    let mut leaves = 0;
    for &mv in moves.iter() {
        let mut child = *pos;
        child.play_unchecked(mv);
        let n = child.legal_moves().len() as u64;
        prop_assert_eq!(perft(&child, 1), n, "{} after {:?}", pos, mv);
        leaves += n;
    }
    prop_assert_eq!(perft(pos, 2), leaves, "{}", pos);
    Ok(())
}

/// A sparse random set-up: about 3 squares in 10 hold a piece, most of
/// them kings.
fn arb_sparse() -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..24, 50), any::<bool>()).prop_filter_map(
        "invalid set-up",
        |(cells, white)| {
            let mut board = [None; 50];
            for (i, c) in cells.iter().enumerate() {
                let n = i as u8 + 1;
                let (color, kind) = match c {
                    0 => (Color::White, PieceKind::Man),
                    1 | 2 => (Color::White, PieceKind::King),
                    3 => (Color::Black, PieceKind::Man),
                    4..=6 => (Color::Black, PieceKind::King),
                    _ => continue,
                };
                let promo = match color {
                    Color::White => n <= 5,
                    Color::Black => n >= 46,
                };
                let kind = if promo { PieceKind::King } else { kind };
                board[i] = Some(Piece::new(color, kind));
            }
            Position::from_setup(&Setup {
                board,
                side_to_move: if white { Color::White } else { Color::Black },
            })
            .ok()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Every ply of a random game from the start position.
    #[test]
    fn counts_match_lists_along_games(choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let mut pos = Position::startpos();
        for c in choices {
            check_counts(&pos)?;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[c as usize % moves.len()]);
        }
    }

    /// Sparse set-ups with many kings, and every ply of a short random
    /// game from them.
    #[test]
    fn counts_match_lists_with_kings(pos in arb_sparse(), choices in prop::collection::vec(any::<u16>(), 0..12)) {
        let mut pos = pos;
        for c in choices {
            check_counts(&pos)?;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[c as usize % moves.len()]);
        }
    }
}

/// Kings taking 4 pieces or more (14 here, by several paths that give the
/// same move): the published counts of `perft-draughts.txt` (dctl, BikDam,
/// Moby Dam) at depths 1 to 3.
#[test]
fn long_king_captures_are_counted_once() {
    let pos: Position = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
        .parse()
        .unwrap();
    assert_eq!(perft(&pos, 1), 14);
    assert_eq!(perft(&pos, 2), 55);
    assert_eq!(perft(&pos, 3), 1168);
}
