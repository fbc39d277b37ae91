//! Moves between the engines' notations, board-core and CSA, and the
//! Floodgate comment of a move ([`csa_protocol::spec::csa`], *Moves*:
//! `+7776FU,'* 30 -3334FU`: the evaluation, then a principal variation
//! beginning with the expected reply).
//!
//! USI moves are board-core's [`Move`] text (`7g7f`); a CSA move is
//! written from a position (the piece after the move, `+7776FU`) with
//! [`Position::move_to_csa`]. Both checks are board-core's: an engine move
//! that is illegal in the position is an [`IllegalReason`].

use std::fmt::Write as _;

use board_core::shogi::{Color, IllegalReason, Move, Position};

use crate::parse::{Info, Score};

/// The score written for a mate in a Floodgate comment (the convention of
/// Floodgate clients: ±100000 from sente's side).
pub const MATE_SCORE: i32 = 100_000;

/// The engine's `score` (from the side to move, `us`) as a Floodgate
/// evaluation: centipawns from sente's (black's) side; a mate ±
/// [`MATE_SCORE`].
pub fn floodgate_score(score: Score, us: Color) -> i32 {
    let v = match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n < 0 => -MATE_SCORE,
        Score::Mate(_) | Score::MateWinning => MATE_SCORE,
        Score::MateLosing => -MATE_SCORE,
    };
    match us {
        Color::Black => v,
        Color::White => v.saturating_neg(),
    }
}

/// A USI move checked in `position` and its CSA token (`+7776FU`).
///
/// # Errors
/// The move is illegal in `position` (board-core's reason).
pub fn usi_to_csa(position: &Position, mv: Move) -> Result<String, IllegalReason> {
    Ok(position.move_to_csa(mv)?.to_string())
}

/// The Floodgate comment of our move `best` in `position` (before it),
/// without the `,'` that the CSA writer puts before it: `* <score>
/// <reply> <...>` — the evaluation ([`floodgate_score`]), then the
/// engine's principal variation after `best`, in CSA, as far as its moves
/// are legal (the PV's first move is dropped when it is `best`). `None`
/// when the engine gave no score.
pub fn floodgate_comment(position: &Position, best: Move, info: &Info<'_>) -> Option<String> {
    let score = info.score?;
    let us = position.side_to_move();
    let mut out = format!("* {}", floodgate_score(score, us));
    let mut pos = *position;
    if pos.check_move(best).is_err() {
        return Some(out);
    }
    pos.play_unchecked(best);
    let mut words = info.pv_moves().peekable();
    if words
        .peek()
        .and_then(|w| Move::from_usi_bytes(w).ok())
        .is_some_and(|m| m == best)
    {
        words.next();
    }
    for w in words {
        let Ok(m) = Move::from_usi_bytes(w) else {
            break;
        };
        let Ok(csa) = pos.move_to_csa(m) else { break };
        let _ = write!(out, " {csa}");
        pos.play_unchecked(m);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::usi::{EngineMessage, decode};

    fn info(line: &[u8]) -> Info<'_> {
        match decode(line).unwrap() {
            EngineMessage::Info(i) => i,
            m => panic!("{m:?}"),
        }
    }

    #[test]
    fn usi_and_csa_moves() {
        // csa-protocol's spec/csa.md, *Moves*: `+7776FU`; `+8822UM` promotes a bishop.
        let start = Position::startpos();
        let m = Move::from_usi("7g7f").unwrap();
        assert_eq!(usi_to_csa(&start, m).unwrap(), "+7776FU");
        let pos = Position::from_sfen(
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        )
        .unwrap();
        let m = Move::from_usi("8h2b+").unwrap();
        assert_eq!(usi_to_csa(&pos, m).unwrap(), "+8822UM");
        // A drop: `00` as the origin.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        assert_eq!(
            usi_to_csa(&pos, Move::from_usi("P*5e").unwrap()).unwrap(),
            "+0055FU"
        );
        // Illegal: gote's piece, for sente.
        assert!(usi_to_csa(&start, Move::from_usi("3c3d").unwrap()).is_err());
        // And back: the server's CSA move to the USI move for the engine.
        assert_eq!(start.csa_to_usi(b"+2726FU").unwrap().to_string(), "2g2f");
    }

    #[test]
    fn floodgate_comments() {
        let start = Position::startpos();
        let best = Move::from_usi("7g7f").unwrap();
        // The PV begins with our move: dropped; the reply follows.
        let i = info(b"info depth 4 score cp 30 pv 7g7f 3c3d 2g2f");
        assert_eq!(
            floodgate_comment(&start, best, &i).unwrap(),
            "* 30 -3334FU +2726FU"
        );
        // Gote's evaluation is turned to sente's side.
        let pos = Position::from_sfen(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        )
        .unwrap();
        let i = info(b"info score cp 45 pv 3c3d");
        let m = Move::from_usi("3c3d").unwrap();
        assert_eq!(floodgate_comment(&pos, m, &i).unwrap(), "* -45");
        // Mate scores; an illegal PV move ends the PV.
        let i = info(b"info score mate 5 pv 7g7f 3c3d 9a9b");
        assert_eq!(
            floodgate_comment(&start, best, &i).unwrap(),
            "* 100000 -3334FU"
        );
        assert!(floodgate_comment(&start, best, &info(b"info depth 1")).is_none());
    }
}
