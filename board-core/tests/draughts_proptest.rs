//! Property tests: FEN and move text round trips, consistency between the
//! move generator's entry points, and panic-freedom on arbitrary text.

use board_core::draughts::{
    Color, Move, PdnMove, Piece, PieceKind, Position, Setup, Square, SquareSet, perft,
};
use proptest::prelude::*;

mod common;

/// A random valid set-up: each square empty or holding a man/king of
/// either colour (men on their own promotion row become kings).
fn arb_position() -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..10, 50), any::<bool>()).prop_filter_map(
        "too many moves",
        |(cells, white)| {
            let mut board = [None; 50];
            for (i, c) in cells.iter().enumerate() {
                let n = i as u8 + 1;
                let piece = match c {
                    0 | 1 => Piece::new(Color::White, PieceKind::Man),
                    2 => Piece::new(Color::White, PieceKind::King),
                    3 | 4 => Piece::new(Color::Black, PieceKind::Man),
                    5 => Piece::new(Color::Black, PieceKind::King),
                    _ => continue,
                };
                let promo = match piece.color {
                    Color::White => n <= 5,
                    Color::Black => n >= 46,
                };
                board[i] = Some(if promo {
                    Piece::new(piece.color, PieceKind::King)
                } else {
                    piece
                });
            }
            Position::from_setup(&Setup {
                board,
                side_to_move: if white { Color::White } else { Color::Black },
            })
            .ok()
        },
    )
}

/// A position reached by random legal moves from the start.
fn arb_playout() -> impl Strategy<Value = Position> {
    prop::collection::vec(any::<u16>(), 0..80).prop_map(|choices| {
        let mut pos = Position::startpos();
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[c as usize % moves.len()]);
        }
        pos
    })
}

fn check_moves(pos: &Position) -> Result<(), TestCaseError> {
    let moves = pos.legal_moves();
    prop_assert_eq!(pos.count_legal_moves(), moves.len() as u64);
    prop_assert_eq!(perft(pos, 1), moves.len() as u64);
    prop_assert_eq!(pos.is_game_over(), moves.is_empty());
    if let Some(first) = moves.first() {
        // Majority rule: every capture takes the same number of pieces.
        prop_assert!(
            moves
                .iter()
                .all(|m| m.captures().len() == first.captures().len())
        );
    }
    for (i, &mv) in moves.iter().enumerate() {
        prop_assert!(!moves[..i].contains(&mv), "duplicate {:?}", mv);
        let text = pos.move_text(mv).to_string();
        prop_assert_eq!(pos.parse_move(&text), Ok(mv), "{} in {}", text, pos);
        let path = pos.capture_path(mv).unwrap();
        prop_assert_eq!(path.squares().next(), Some(mv.from()));
        prop_assert_eq!(path.squares().last(), Some(mv.to()));
        prop_assert_eq!(path.squares().count(), mv.captures().len().max(1) + 1);
        prop_assert!(pos.is_legal(mv));
        prop_assert_eq!(pos.find_move(mv.from(), mv.to(), mv.captures()), Some(mv));
        let mut child = *pos;
        child.play_unchecked(mv);
        prop_assert_eq!(pos.play(mv), Ok(child));
        prop_assert_eq!(child.side_to_move(), !pos.side_to_move());
        prop_assert_eq!(
            child.pieces(!pos.side_to_move()).len(),
            pos.pieces(!pos.side_to_move()).len() - mv.captures().len()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn fen_round_trip(pos in arb_position()) {
        let text = pos.to_string();
        let back: Position = text.parse().unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.to_string(), text);
        prop_assert_eq!(Position::from_setup(&pos.to_setup()), Ok(pos));
    }

    #[test]
    fn moves_of_random_setups(pos in arb_position()) {
        check_moves(&pos)?;
    }

    #[test]
    fn moves_of_random_playouts(pos in arb_playout()) {
        check_moves(&pos)?;
        prop_assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
    }

    #[test]
    fn legal_exactly_when_listed(pos in arb_playout(), from in 1u8..=50, to in 1u8..=50, caps in any::<u64>()) {
        let caps: SquareSet = (1..=50u8).filter(|n| caps >> n & 1 == 1 && caps.count_ones() < 12).filter_map(Square::new).collect();
        let from = Square::new(from).unwrap();
        let to = Square::new(to).unwrap();
        let listed = pos.legal_moves().iter().find(|m| m.from() == from && m.to() == to && m.captures() == caps).copied();
        prop_assert_eq!(pos.find_move(from, to, caps), listed);
        if let Some(mv) = listed {
            prop_assert!(pos.is_legal(mv));
        }
    }

    #[test]
    fn fen_parser_never_panics(text in ".{0,80}") {
        let _ = text.parse::<Position>();
    }

    #[test]
    fn fen_parser_never_panics_on_fen_alphabet(text in "[WBK:,\\-0-9HF ]{0,60}") {
        common::reparses::<Position>(&text)?;
    }

    #[test]
    fn move_text_never_panics(pos in arb_playout(), text in "[0-9xX\\- ]{0,40}|.{0,40}") {
        let _ = text.parse::<PdnMove>();
        if let Ok(mv) = pos.parse_move(&text) {
            prop_assert!(pos.legal_moves().contains(&mv));
        }
    }
}

#[test]
fn move_default_is_never_legal_in_startpos() {
    // The list's filler value is not a legal move there.
    assert!(!Position::startpos().is_legal(Move::default()));
}
