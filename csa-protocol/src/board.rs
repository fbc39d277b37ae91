//! The game board a session keeps: a `board_core::shogi` position plus the
//! history a CSA server needs for repetition (sennichite) and perpetual
//! check (oute-sennichite) — spec note, "Server-side legality".
//!
//! All rules (move legality incl. nifu, uchifuzume, dead pieces, leaving the
//! king in check; the 27-point declaration) are board-core's; this module
//! only keeps the history and maps results.

use alloc::string::String;
use alloc::vec::Vec;
use core::hash::{Hash, Hasher};

use board_core::shogi::Position;

use crate::moves::CsaMove;
use crate::types::Side;

/// What a legal move led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayOutcome {
    /// The game goes on.
    Continue,
    /// The position (board, hands, side to move) occurred for the 4th time:
    /// a draw (`#SENNICHITE`).
    Sennichite,
    /// 4th occurrence while `loser` gave check with every move since the
    /// first occurrence: `loser` loses (`#OUTE_SENNICHITE`).
    OuteSennichite {
        /// The side that checked continuously.
        loser: Side,
    },
}

/// A move was rejected by the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal move")]
pub struct IllegalMove;

/// A position with its repetition history.
#[derive(Debug, Clone)]
pub struct GameBoard {
    pos: Position,
    /// One entry per position reached (the initial one included): its key
    /// and whether the side to move there is in check.
    history: Vec<(u64, bool)>,
}

fn key(pos: &Position) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    pos.hash(&mut h);
    h.finish()
}

impl GameBoard {
    /// The standard start position (hirate).
    pub fn startpos() -> Self {
        Self::new(Position::startpos())
    }

    /// A board from a position.
    pub fn new(pos: Position) -> Self {
        let k = key(&pos);
        let check = pos.is_check();
        Self {
            pos,
            history: alloc::vec![(k, check)],
        }
    }

    /// Reads a CSA position text (`P1`..`P9` / `PI`, hands, side line).
    ///
    /// # Errors
    /// [`IllegalMove`] (used as "invalid position") when board-core rejects
    /// the text.
    pub fn from_csa(text: &str) -> Result<Self, IllegalMove> {
        Position::from_csa(text)
            .map(Self::new)
            .map_err(|_| IllegalMove)
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        Side::from(self.pos.side_to_move())
    }

    /// Moves played since the initial position.
    pub fn ply(&self) -> usize {
        self.history.len() - 1
    }

    /// Plays a move after checking it against every rule.
    ///
    /// # Errors
    /// [`IllegalMove`] when the move is not legal here (the board is
    /// unchanged).
    pub fn play(&mut self, mv: &CsaMove) -> Result<PlayOutcome, IllegalMove> {
        let mut next = self.pos.clone();
        next.play_csa(mv).map_err(|_| IllegalMove)?;
        self.pos = next;
        let k = key(&self.pos);
        let check = self.pos.is_check();
        self.history.push((k, check));
        Ok(self.repetition())
    }

    fn repetition(&self) -> PlayOutcome {
        let (k, _) = self.history[self.history.len() - 1];
        let occurrences: Vec<usize> = self
            .history
            .iter()
            .enumerate()
            .filter(|(_, (hk, _))| *hk == k)
            .map(|(i, _)| i)
            .collect();
        if occurrences.len() < 4 {
            return PlayOutcome::Continue;
        }
        // Since the first occurrence, did one side give check with every
        // one of its moves? history[i].1 is "side to move at i is in check",
        // i.e. the move leading to i gave check.
        let first = occurrences[0];
        let last = self.history.len() - 1;
        let mover_at = |i: usize| {
            // The side that made the move leading to position i.
            let stm_now = self.side_to_move();
            if (last - i).is_multiple_of(2) {
                stm_now.opponent()
            } else {
                stm_now
            }
        };
        for side in [Side::Black, Side::White] {
            let all_checks = (first + 1..=last)
                .filter(|&i| mover_at(i) == side)
                .all(|i| self.history[i].1);
            let any = (first + 1..=last).any(|i| mover_at(i) == side);
            if any && all_checks {
                return PlayOutcome::OuteSennichite { loser: side };
            }
        }
        PlayOutcome::Sennichite
    }

    /// Whether the side to move may declare a win now (`%KACHI`, the
    /// 27-point rule).
    pub fn can_declare_win(&self) -> bool {
        self.pos.can_declare_win()
    }

    /// The position as CSA text (`P1`..`P9`, hands, side line), LF-ended.
    pub fn csa_text(&self) -> String {
        self.pos.to_csa()
    }
}
