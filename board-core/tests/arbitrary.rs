//! Feature `arbitrary`: every generated value is valid. Positions pass the
//! games' own text validation and re-read to themselves; move values print
//! as their notation and parse back to themselves; a move value is accepted
//! by a position exactly when the position lists it.
//!
//! Run with `cargo test -p board-core --features arbitrary --test arbitrary`
//! (CI: `.ci/checks/05-board-core-arbitrary`).
#![cfg(feature = "arbitrary")]

use arbitrary::{Arbitrary, Unstructured};
use board_core::player::Player;
use board_core::{chess, draughts, shogi};

/// Runs `check` on `ROUNDS` byte strings of growing length (up to 4 KiB)
/// from a fixed-seed generator.
fn for_random_bytes(seed: u64, mut check: impl FnMut(&mut Unstructured<'_>)) {
    const ROUNDS: usize = 300;
    let mut rng = Player::new(seed);
    let mut buf = Vec::new();
    for round in 0..ROUNDS {
        buf.clear();
        let len = round * 4096 / ROUNDS;
        buf.extend((0..len).map(|_| rng.next_u64() as u8));
        check(&mut Unstructured::new(&buf));
    }
}

/// A generated `T` whose text (`Display`) reads back (`read`) as itself;
/// returns it with its text.
fn printed<'a, T, E>(
    u: &mut Unstructured<'a>,
    read: impl FnOnce(&str) -> Result<T, E>,
) -> (T, String)
where
    T: Arbitrary<'a> + Clone + std::fmt::Display + PartialEq + std::fmt::Debug,
    E: PartialEq + std::fmt::Debug,
{
    let value = T::arbitrary(u).unwrap();
    let text = value.to_string();
    assert_eq!(read(&text), Ok(value.clone()), "{text}");
    (value, text)
}

#[test]
fn draughts_values() {
    let mut deep = 0;
    for_random_bytes(1, |u| {
        let (pos, fen) = printed(u, str::parse::<draughts::Position>);
        if pos != draughts::Position::startpos() {
            deep += 1;
        }
        let sq = draughts::Square::arbitrary(u).unwrap();
        assert!((1..=50).contains(&sq.number()));
        let set = draughts::SquareSet::arbitrary(u).unwrap();
        assert!(set.iter().all(|s| (1..=50).contains(&s.number())));
        let (pdn, text) = printed(u, str::parse::<draughts::PdnMove>);
        if let Ok(mv) = pos.resolve_move(&pdn) {
            assert!(pos.legal_moves().contains(&mv), "{fen} {text}");
        }
        if let Some(mv) = pos.find_move(pdn.from(), pdn.to(), set) {
            assert!(pos.legal_moves().contains(&mv), "{fen} {text} {set:?}");
        }
    });
    assert!(deep > 200, "playouts leave the start position: {deep}");
}

#[test]
fn chess_values() {
    let mut deep = 0;
    for_random_bytes(2, |u| {
        let (pos, fen) = printed(u, str::parse::<chess::Position>);
        if pos.fullmove_number() > 10 {
            deep += 1;
        }
        let mv = chess::Move::arbitrary(u).unwrap();
        assert_eq!(
            pos.play(mv).is_ok(),
            pos.legal_moves().contains(&mv),
            "{fen} {mv}"
        );
        let (uci, text) = printed(u, str::parse::<chess::UciMove>);
        match uci.to_move(&pos) {
            Ok(mv) => assert!(pos.legal_moves().contains(&mv)),
            Err(_) => assert!(!pos.legal_moves().iter().any(|m| m.to_string() == text)),
        }
        let rights = chess::CastlingRights::arbitrary(u).unwrap();
        assert!(matches!(rights.to_string().len(), 1..=4));
    });
    assert!(deep > 100, "playouts go past move 10: {deep}");
}

#[test]
fn shogi_values() {
    let mut deep = 0;
    for_random_bytes(3, |u| {
        let (pos, sfen) = printed(u, shogi::Position::from_sfen);
        if pos.move_number() > 20 {
            deep += 1;
        }
        let (mv, usi) = printed(u, shogi::Move::from_usi);
        assert_eq!(
            pos.is_legal(mv),
            pos.legal_moves().contains(&mv),
            "{sfen} {usi}"
        );
        let csa = shogi::CsaMove::arbitrary(u).unwrap();
        assert_eq!(shogi::CsaMove::parse(&csa.to_bytes()), Ok(csa));
        if let Ok(m) = pos.move_from_csa(&csa) {
            assert!(pos.legal_moves().contains(&m), "{sfen} {csa}");
            assert_eq!(pos.move_to_csa(m), Ok(csa), "{sfen} {csa}");
        }
        let mut player = Player::arbitrary(u).unwrap();
        if let Some(m) = player.choose_shogi(&pos) {
            assert!(pos.legal_moves().contains(&m), "{sfen} {m}");
        }
        let hand = shogi::Hand::arbitrary(u).unwrap();
        for kind in shogi::PieceKind::HAND {
            assert!(hand.count(kind) <= kind.total_count());
        }
    });
    assert!(deep > 100, "playouts go past move 20: {deep}");
}
