//! The family's one built-in player: a seeded, deterministic move chooser
//! for the three games, enough to play whole games unattended (the
//! `boardwire` demo and `--auto` runs, the protocol crates' tests, the
//! simulated Novag Citrine). It is not an engine; it is simple but not
//! silly, and the same for every game ([`Player::choose`], over
//! [`Game`]):
//!
//! * it wins at once when it can: a move after which the opponent has lost
//!   ([`Game::is_lost`]: checkmate in chess, no legal move in draughts and
//!   shogi);
//! * otherwise, three times in four, it takes the move that wins the most
//!   material ([`Game::material_gain`]: captures and promotions; the first
//!   of equals), when some move wins any;
//! * otherwise it plays a random legal move.
//!
//! Choices come from a xorshift64* generator seeded by [`Player::new`], so
//! the same seed and the same positions give the same moves on every
//! platform. Nothing allocates: the legal lists are the games' fixed
//! `MoveList`s on the stack.

use crate::{Game, chess, draughts, shogi};

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

    /// A legal move for the side to move in any game (the policy in the
    /// module docs), `None` when it has none (the game is over).
    ///
    /// ```
    /// use board_core::{draughts, player::Player};
    /// let pos = draughts::Position::startpos();
    /// let mv = Player::new(1).choose(&pos).unwrap();
    /// assert!(pos.is_legal(mv));
    /// ```
    pub fn choose<G: Game>(&mut self, position: &G) -> Option<G::Move> {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mut best: Option<(u32, G::Move)> = None;
        for &mv in moves.iter() {
            let mut after = *position;
            after.play_unchecked(mv);
            if after.is_lost() {
                return Some(mv);
            }
            let gain = position.material_gain(mv);
            if gain > 0 && best.is_none_or(|(g, _)| gain > g) {
                best = Some((gain, mv));
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

    /// [`Player::choose`] for draughts: `None` when the side to move has
    /// no move (it has lost).
    pub fn choose_draughts(&mut self, position: &draughts::Position) -> Option<draughts::Move> {
        self.choose(position)
    }

    /// [`Player::choose`] for chess: `None` when the side to move has no
    /// move (checkmate or stalemate).
    pub fn choose_chess(&mut self, position: &chess::Position) -> Option<chess::Move> {
        self.choose(position)
    }

    /// [`Player::choose`] for shogi: `None` when the side to move has no
    /// move (checkmate: resign).
    pub fn choose_shogi(&mut self, position: &shogi::Position) -> Option<shogi::Move> {
        self.choose(position)
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
