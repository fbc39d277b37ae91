//! Searches for draughts positions with many legal moves (the evidence
//! behind `draughts::MAX_MOVES`): random restarts plus hill climbing over
//! set-ups, separately for positions where the side to move must capture.
//!
//! `cargo run --release -p board-core --example draughts_worst_moves [seconds] [seed] [quiet|capture|both]`

use board_core::draughts::{Color, Piece, PieceKind, Position, Setup};
use board_core::player::Player;
use std::time::{Duration, Instant};

/// The set-ups' random numbers: the built-in player's generator.
struct Rng(Player);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n
    }
}

fn random_piece(rng: &mut Rng, square: usize) -> Option<Piece> {
    let r = rng.below(100);
    let color = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut kind = if rng.below(3) == 0 {
        PieceKind::Man
    } else {
        PieceKind::King
    };
    let promo = match color {
        Color::White => square < 5,
        Color::Black => square >= 45,
    };
    if promo {
        kind = PieceKind::King;
    }
    (r < 35).then_some(Piece { color, kind })
}

fn score(board: &[Option<Piece>; 50], want_capture: bool) -> Option<(usize, Position)> {
    let pos = Position::from_setup(&Setup {
        board: *board,
        side_to_move: Color::White,
    })
    .ok()?;
    if pos.must_capture() != want_capture {
        return None;
    }
    Some((pos.try_legal_moves().ok()?.len(), pos))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let secs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let seed: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15);
    let mode = args.next().unwrap_or_else(|| "both".into());
    let mut rng = Rng(Player::new(seed));
    for want_capture in [false, true] {
        if (mode == "quiet" && want_capture) || (mode == "capture" && !want_capture) {
            continue;
        }
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut best = (0, Position::startpos());
        while Instant::now() < deadline {
            let mut board = [None; 50];
            for (i, slot) in board.iter_mut().enumerate() {
                *slot = random_piece(&mut rng, i);
            }
            let Some(mut cur) = score(&board, want_capture) else {
                continue;
            };
            for _ in 0..20_000 {
                let mut next = board;
                for _ in 0..1 + rng.below(3) {
                    let i = rng.below(50) as usize;
                    next[i] = random_piece(&mut rng, i);
                }
                if let Some(s) = score(&next, want_capture)
                    && s.0 >= cur.0
                {
                    board = next;
                    cur = s;
                }
            }
            if cur.0 > best.0 {
                best = cur;
                println!("capture={want_capture} moves={} {}", best.0, best.1);
            }
        }
    }
}
