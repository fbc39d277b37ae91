//! The [`Game`] trait's shared shape, written once over the three games:
//! `has_legal_move`, `check_move` and `play`'s `PlayError` agree with the
//! move list, and `startpos` parses in every game's position text. Known
//! answers: the start positions' move counts (draughts 9, chess 20, shogi
//! 30: the published depth-1 perft counts) and a position of each game
//! where the side to move has no legal move (draughts: no piece left;
//! chess: Fool's mate; shogi: head-gold mate, cross-checked with cshogi in
//! `shogi_early_exit.rs`).

use board_core::{Game, chess, draughts, shogi};

/// A fixed-seed playout of `plies` plies: at every position every legal
/// move passes `check_move`, a move of an earlier position that is not in
/// this list fails it with the same reason `play` gives, and
/// `has_legal_move` agrees with the list.
fn playout<G: Game>(plies: usize) -> usize {
    let mut pos = G::startpos();
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut earlier: Vec<G::Move> = Vec::new();
    let mut checked = 0;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        assert_eq!(pos.has_legal_move(), !moves.is_empty(), "{pos}");
        for mv in pos.legal_moves() {
            assert_eq!(pos.check_move(mv), Ok(()), "{pos}");
        }
        for &mv in &earlier {
            if !moves.contains(&mv) {
                let reason = pos.check_move(mv).expect_err("not listed");
                let err = pos.play(mv).expect_err("not listed");
                assert!(err.to_string().ends_with(&reason.to_string()), "{err}");
                assert!(err.to_string().starts_with("illegal move "), "{err}");
                checked += 1;
            }
        }
        if moves.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = moves[(seed % moves.len() as u64) as usize];
        earlier.extend(moves.iter().copied().take(4));
        if earlier.len() > 64 {
            earlier.drain(..earlier.len() - 64);
        }
        pos = pos.play(mv).expect("listed move");
    }
    checked
}

#[test]
fn check_move_and_play_error_agree_in_every_game() {
    assert!(playout::<draughts::Position>(120) > 100);
    assert!(playout::<chess::Position>(120) > 100);
    assert!(playout::<shogi::Position>(120) > 100);
}

fn start_moves<G: Game>() -> u64 {
    let pos: G = "startpos".parse().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pos, G::startpos());
    assert!(pos.has_legal_move());
    assert_eq!(
        pos.legal_moves().into_iter().count() as u64,
        pos.count_legal_moves()
    );
    pos.count_legal_moves()
}

#[test]
fn startpos_parses_in_every_game() {
    assert_eq!(start_moves::<draughts::Position>(), 9);
    assert_eq!(start_moves::<chess::Position>(), 20);
    assert_eq!(start_moves::<shogi::Position>(), 30);
}

fn no_move<G: Game>(text: &str) {
    let pos: G = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(!pos.has_legal_move(), "{text}");
    assert!(pos.is_lost(), "{text}");
}

#[test]
fn has_legal_move_false_when_the_side_to_move_has_none() {
    // White to move with no piece left.
    no_move::<draughts::Position>("W:W:B1,2");
    // Fool's mate: 1. f3 e5 2. g4 Qh4#.
    no_move::<chess::Position>("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    // Head-gold mate.
    no_move::<shogi::Position>("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
}
