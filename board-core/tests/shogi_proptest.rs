//! Property tests: SFEN and CSA round trips on positions reached by
//! playouts of the built-in player (`board_core::player::Player`), "legal
//! exactly when listed", and no panic on arbitrary text.

use board_core::player::Player;
use board_core::shogi::{
    Color, CsaMove, CsaPositionParser, Hand, Move, Piece, PieceKind, Position, Setup, Square,
};
use proptest::prelude::*;

/// The position after up to `plies` moves of the built-in player (seeded)
/// from `start`.
fn playout(start: Position, seed: u64, plies: usize) -> Position {
    let mut player = Player::new(seed);
    let mut pos = start;
    for _ in 0..plies {
        let Some(m) = player.choose_shogi(&pos) else {
            break;
        };
        pos.play_unchecked(m);
    }
    pos
}

fn any_square() -> impl Strategy<Value = Square> {
    (1u8..=9, 1u8..=9).prop_map(|(f, r)| Square::new(f, r).unwrap())
}

fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        (any_square(), any_square(), any::<bool>()).prop_map(|(f, t, p)| Move::normal(f, t, p)),
        (0usize..7, any_square()).prop_map(|(k, t)| Move::drop(PieceKind::HAND[k], t).unwrap()),
    ]
}

fn start_positions() -> impl Strategy<Value = Position> {
    prop_oneof![
        Just(Position::startpos()),
        // Lots of pieces in hand: drops everywhere.
        Just(Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p 1").unwrap()),
        Just(Position::from_sfen("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1").unwrap()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn sfen_and_csa_round_trip(start in start_positions(), seed in any::<u64>(), plies in 0usize..120) {
        let pos = playout(start, seed, plies);
        let sfen = pos.to_string();
        let back = Position::from_sfen(&sfen).unwrap();
        prop_assert_eq!(back, pos);
        prop_assert_eq!(back.to_string(), sfen);
        let csa = pos.csa().to_string();
        let from_csa = Position::from_csa(csa.as_bytes()).unwrap();
        prop_assert!(from_csa.same_position(&pos), "{} vs {}", from_csa, pos);
        prop_assert_eq!(Position::from_setup(&pos.to_setup()).unwrap(), pos);
    }

    #[test]
    fn legal_exactly_when_listed(start in start_positions(), seed in any::<u64>(), plies in 0usize..150, mv in any_move()) {
        let pos = playout(start, seed, plies);
        let moves = pos.legal_moves();
        prop_assert_eq!(pos.count_legal_moves(), moves.len() as u64);
        prop_assert_eq!(pos.check_move(mv).is_ok(), moves.contains(&mv), "{} in {}", mv, pos);
        for &m in moves.iter() {
            prop_assert!(pos.check_move(m).is_ok(), "{} in {}", m, pos);
            // USI and CSA text convert back to the same move.
            prop_assert_eq!(pos.parse_usi(&m.to_string()).unwrap(), m);
            let csa = pos.move_to_csa(m).unwrap();
            prop_assert_eq!(pos.parse_csa_move(&csa.to_bytes()).unwrap(), m);
        }
        // No duplicates.
        let mut sorted: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        sorted.sort();
        sorted.dedup();
        prop_assert_eq!(sorted.len(), moves.len());
    }

    #[test]
    fn random_setups_validate_or_error(cells in proptest::collection::vec(0u8..40, 81), hand in proptest::collection::vec(0u8..5, 14), white in any::<bool>()) {
        let mut setup = Setup::empty();
        for (i, &c) in cells.iter().enumerate() {
            setup.board[i] = match c {
                0..=27 => Some(Piece::new(if c >= 14 { Color::White } else { Color::Black }, PieceKind::ALL[(c % 14) as usize])),
                _ => None,
            };
        }
        for (i, &n) in hand.iter().enumerate() {
            let mut h: Hand = setup.hands[i / 7];
            h.add(PieceKind::HAND[i % 7], n);
            setup.hands[i / 7] = h;
        }
        setup.side_to_move = if white { Color::White } else { Color::Black };
        if let Ok(pos) = Position::from_setup(&setup) {
            // Accepted positions print and re-read to themselves and generate.
            prop_assert_eq!(Position::from_sfen(&pos.to_string()).unwrap(), pos);
            let _ = pos.legal_moves();
        }
    }

    #[test]
    fn no_panic_on_arbitrary_sfen(s in "\\PC{0,120}") {
        let _ = Position::from_sfen(&s);
    }

    #[test]
    fn no_panic_on_sfen_like_text(s in "[1-9a-zA-Z+/]{0,90} [bwx]{0,2} [0-9RBGSNLPrbgsnlpK+-]{0,12}( [0-9]{0,12})?") {
        let _ = Position::from_sfen(&s);
    }

    #[test]
    fn no_panic_on_arbitrary_usi(s in "\\PC{0,8}", t in "[0-9a-zA-Z*+]{3,6}") {
        let pos = Position::startpos();
        let _ = Move::from_usi(&s);
        let _ = pos.parse_usi(&s);
        let _ = pos.parse_usi(&t);
    }

    #[test]
    fn no_panic_on_arbitrary_csa(b in proptest::collection::vec(any::<u8>(), 0..10), t in "[+-][0-9]{4}[A-Z]{2}") {
        let pos = Position::startpos();
        let _ = CsaMove::parse(&b);
        let _ = pos.parse_csa_move(&b);
        if let Ok(m) = CsaMove::parse(t.as_bytes()) {
            prop_assert_eq!(m.to_string(), t.clone());
            let _ = pos.move_from_csa(&m);
        }
    }

    #[test]
    fn no_panic_on_arbitrary_csa_position_lines(lines in proptest::collection::vec("(P[1-9I+-]|[+-]|')?[ *+0-9A-Z-]{0,40}", 0..14)) {
        let mut parser = CsaPositionParser::new();
        for l in &lines {
            let _ = parser.feed_line(l.as_bytes());
        }
        let joined = lines.join("\n");
        let _ = Position::from_csa(joined.as_bytes());
    }
}
