//! The family's one built-in player: a seeded, deterministic move chooser
//! for the three games, enough to play whole games unattended (the
//! `boardwire` demo and `--auto` runs, the protocol crates' tests, the
//! simulated Novag Citrine). It is not an engine; it is simple but not
//! silly:
//!
//! * **draughts**: prefers a move that promotes a man, then the move after
//!   which the opponent's best capture takes least, and wins outright when
//!   the opponent is left without a move (captures are compulsory, so the
//!   legal list already holds only the longest captures);
//! * **chess**: mates in one when it can, otherwise (three times in four)
//!   takes the most valuable piece it can, least valuable attacker first,
//!   otherwise plays a random legal move;
//! * **shogi**: mates in one when it can, otherwise (three times in four)
//!   captures the most valuable piece it can, otherwise plays a random
//!   legal move.
//!
//! Ties are broken by a xorshift64* generator seeded by [`Player::new`], so
//! the same seed and the same positions give the same moves on every
//! platform. Nothing allocates: the legal lists are the games' fixed
//! `MoveList`s on the stack.

use crate::{chess, draughts, shogi};

/// A seeded, deterministic move chooser for draughts, chess and shogi.
///
/// ```
/// use board_core::{chess, player::Player};
/// let mut a = Player::new(7);
/// let mut b = Player::new(7);
/// let pos = chess::Position::startpos();
/// let mv = a.choose_chess(&pos).unwrap();
/// assert_eq!(Some(mv), b.choose_chess(&pos)); // same seed, same move
/// assert!(pos.legal_moves().contains(&mv));
/// ```
#[derive(Debug, Clone)]
pub struct Player {
    state: u64,
}

impl Player {
    /// A player whose choices depend only on `seed` and the positions it is
    /// shown (any `u64`, zero included).
    pub fn new(seed: u64) -> Player {
        Player {
            // Never zero: a xorshift state of zero stays zero.
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        }
    }

    /// The next pseudo-random number (xorshift64*, Vigna 2016).
    pub fn next_u64(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A pseudo-random index in `0..len`; `len` must not be zero.
    fn index(&mut self, len: usize) -> usize {
        // The high bits of xorshift64* are its best.
        ((self.next_u64() >> 11) % len as u64) as usize
    }

    /// A legal draughts move for the side to move, `None` when it has none
    /// (it has lost).
    pub fn choose_draughts(&mut self, position: &draughts::Position) -> Option<draughts::Move> {
        let moves = position.legal_moves();
        let mut best: Option<(i64, u64, draughts::Move)> = None;
        for &mv in moves.iter() {
            let mut score = 0i64;
            let promotes = position
                .piece_at(mv.from())
                .is_some_and(|p| p.kind == draughts::PieceKind::Man)
                && match position.side_to_move() {
                    draughts::Color::White => mv.to().number() <= 5,
                    draughts::Color::Black => mv.to().number() >= 46,
                };
            if promotes {
                score += 50;
            }
            let mut next = *position;
            next.play_unchecked(mv);
            // All of the opponent's legal moves capture the same number of
            // pieces when any captures (the majority rule).
            let reply = next.legal_moves();
            score -= 10 * i64::from(reply.first().map_or(0, |m| m.capture_count()));
            if reply.is_empty() {
                score += 1000;
            }
            let tie = self.next_u64();
            if best.is_none_or(|(s, t, _)| (score, tie) > (s, t)) {
                best = Some((score, tie, mv));
            }
        }
        best.map(|(_, _, mv)| mv)
    }

    /// A legal chess move for the side to move, `None` when it has none
    /// (checkmate or stalemate).
    pub fn choose_chess(&mut self, position: &chess::Position) -> Option<chess::Move> {
        let moves = position.legal_moves();
        self.mate_or_capture(
            &moves,
            |mv| {
                let mut after = *position;
                after.play_unchecked(mv);
                after.is_checkmate()
            },
            |mv| {
                let gain = if mv.is_en_passant() {
                    chess_value(chess::Role::Pawn)
                } else {
                    position
                        .piece_at(mv.to())
                        .map_or(0, |p| chess_value(p.role))
                };
                // Most valuable victim, least valuable attacker.
                let attacker = position
                    .piece_at(mv.from())
                    .map_or(0, |p| chess_value(p.role));
                if gain > 0 { gain * 128 - attacker } else { 0 }
            },
        )
    }

    /// A legal shogi move for the side to move, `None` when it has none
    /// (checkmate: resign).
    pub fn choose_shogi(&mut self, position: &shogi::Position) -> Option<shogi::Move> {
        let moves = position.legal_moves();
        self.mate_or_capture(
            &moves,
            |mv| {
                let mut after = *position;
                after.play_unchecked(mv);
                after.is_checkmate()
            },
            |mv| match (mv.from(), position.piece_at(mv.to())) {
                (Some(_), Some(victim)) => shogi_value(victim.kind),
                _ => 0,
            },
        )
    }

    /// The chess and shogi policy: the first move that `mates`; otherwise,
    /// three times in four, the move with the highest `capture` score (0 =
    /// no capture; the first of equals); otherwise a random move. `None`
    /// for an empty list.
    fn mate_or_capture<M: Copy>(
        &mut self,
        moves: &[M],
        mates: impl Fn(M) -> bool,
        capture: impl Fn(M) -> u32,
    ) -> Option<M> {
        if moves.is_empty() {
            return None;
        }
        let mut best: Option<(u32, M)> = None;
        for &mv in moves {
            if mates(mv) {
                return Some(mv);
            }
            let score = capture(mv);
            if score > 0 && best.is_none_or(|(s, _)| score > s) {
                best = Some((score, mv));
            }
        }
        let r = self.next_u64();
        if let Some((_, mv)) = best
            && !r.is_multiple_of(4)
        {
            return Some(mv);
        }
        Some(moves[self.index(moves.len())])
    }
}

fn chess_value(r: chess::Role) -> u32 {
    match r {
        chess::Role::Pawn => 1,
        chess::Role::Knight | chess::Role::Bishop => 3,
        chess::Role::Rook => 5,
        chess::Role::Queen => 9,
        chess::Role::King => 100,
    }
}

fn shogi_value(k: shogi::PieceKind) -> u32 {
    use shogi::PieceKind as K;
    match k {
        K::Pawn => 1,
        K::Lance | K::Knight => 3,
        K::Silver | K::Gold => 5,
        K::ProPawn | K::ProLance | K::ProKnight | K::ProSilver => 6,
        K::Bishop => 8,
        K::Rook => 10,
        K::Horse => 11,
        K::Dragon => 13,
        K::King => 100,
    }
}

#[cfg(test)]
mod tests {
    use super::Player;
    use crate::{chess, draughts, shogi};
    use core::str::FromStr;
    use std::string::ToString;

    #[test]
    fn whole_games_stay_legal_and_end() {
        for seed in 0..4u64 {
            let mut p = Player::new(seed);
            let mut pos = draughts::Position::startpos();
            for _ in 0..400 {
                let Some(mv) = p.choose_draughts(&pos) else {
                    break;
                };
                pos = pos.play(mv).expect("chosen move is legal");
            }
            let mut pos = chess::Position::startpos();
            for _ in 0..300 {
                let Some(mv) = p.choose_chess(&pos) else {
                    break;
                };
                pos = pos.play(mv).expect("chosen move is legal");
            }
            let mut pos = shogi::Position::startpos();
            for _ in 0..300 {
                let Some(mv) = p.choose_shogi(&pos) else {
                    break;
                };
                pos = pos.play(mv).expect("chosen move is legal");
            }
        }
    }

    #[test]
    fn mates_in_one() {
        // Scholar's mate is available: Qxf7#.
        let pos = chess::Position::from_str(
            "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
        )
        .unwrap();
        for seed in 0..8 {
            let mv = Player::new(seed).choose_chess(&pos).unwrap();
            assert_eq!(mv.to_uci().to_string(), "h5f7");
        }
    }

    #[test]
    fn no_move_is_none() {
        // Fool's mate: White is checkmated.
        let pos = chess::Position::from_str(
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        )
        .unwrap();
        assert_eq!(Player::new(1).choose_chess(&pos), None);
    }
}
