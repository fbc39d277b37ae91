//! A small built-in chess player: enough to play whole games unattended
//! (the simulated device's engine, `boardwire citrine --auto`). Not a
//! strong engine: it mates in one when it can, otherwise takes the most
//! valuable piece it can capture (least valuable attacker first), otherwise
//! plays a pseudo-random legal move.

use crate::vocab::{Move, Position, Role};

/// A seeded, deterministic move chooser.
#[derive(Debug, Clone)]
pub struct Player {
    state: u64,
}

fn value(r: Role) -> u32 {
    match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

impl Player {
    /// A player whose choices depend only on `seed` and the positions.
    pub fn new(seed: u64) -> Self {
        Player {
            state: seed ^ 0x9e37_79b9_7f4a_7c15 | 1,
        }
    }

    /// The next pseudo-random number (xorshift64).
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        x
    }

    /// A legal move of `position`, `None` when there is none.
    pub fn choose(&mut self, position: &Position) -> Option<Move> {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mut best: Option<(u32, Move)> = None;
        for &mv in moves.iter() {
            let after = position.play(mv).expect("legal");
            if after.is_checkmate() {
                return Some(mv);
            }
            let gain = if mv.is_en_passant() {
                1
            } else {
                position.piece_at(mv.to()).map_or(0, |p| value(p.role))
            };
            if gain > 0 {
                let attacker = position.piece_at(mv.from()).map_or(0, |p| value(p.role));
                let score = gain * 128 - attacker;
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, mv));
                }
            }
        }
        let r = self.next_u64();
        // Capture when there is one, but not always: keeps games varied.
        if let Some((_, mv)) = best
            && !r.is_multiple_of(4)
        {
            return Some(mv);
        }
        Some(moves[(r >> 8) as usize % moves.len()])
    }
}
