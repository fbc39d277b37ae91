//! International draughts (`board_core::draughts`) properties: PDN FEN and
//! PDN move text round-trip; the move generator agrees with the single-move
//! checks (`is_legal`, `find_move`, `play`).

use board_core::draughts::{Position, Square, SquareSet};

/// Checks one position: it prints a canonical PDN FEN that re-reads to
/// itself; the legal list has `count_legal_moves` entries, no duplicates,
/// and every move is accepted by `is_legal`/`find_move`, prints as PDN text
/// that parses back to the same move, and plays to a position that prints
/// and re-reads.
fn check_position(pos: &Position) {
    let fen = pos.to_string();
    assert_eq!(fen.parse::<Position>().as_ref(), Ok(pos), "{fen}");
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal_moves(), "{fen}");
    assert_eq!(
        pos.must_capture(),
        moves.iter().any(|m| m.is_capture()),
        "{fen}"
    );
    for (i, &mv) in moves.iter().enumerate() {
        assert!(!moves.iter().skip(i + 1).any(|&m| m == mv), "{fen}");
        assert!(pos.is_legal(mv), "{fen}");
        assert_eq!(pos.find_move(mv.from(), mv.to(), mv.captures()), Some(mv));
        let text = pos.move_text(mv).to_string();
        assert_eq!(pos.parse_move(&text), Ok(mv), "{fen} {text}");
        let child = pos.play(mv).expect("a listed move plays");
        let child_fen = child.to_string();
        assert_eq!(child_fen.parse::<Position>(), Ok(child), "{fen} {text}");
        assert_eq!(pos.check_move(mv), Ok(()), "{fen} {text}");
        // The same move in the child (the other side to move, the piece
        // moved): never legal there unless listed; the reason displays.
        check_foreign(&child, mv);
    }
    // The moves of the same board with the other side to move.
    let flipped = match fen.split_at(1) {
        ("W", rest) => format!("B{rest}"),
        (_, rest) => format!("W{rest}"),
    };
    if let Ok(other) = flipped.parse::<Position>() {
        for &mv in other.legal_moves().iter() {
            check_foreign(pos, mv);
        }
    }
}

/// `check_move` of a move from another position: `Ok` exactly when the
/// move is listed here, and an error's reason displays.
fn check_foreign(pos: &Position, mv: board_core::draughts::Move) {
    let listed = pos.legal_moves().contains(&mv);
    match pos.check_move(mv) {
        Ok(()) => assert!(listed, "{pos}: check_move accepts {mv:?}, not listed"),
        Err(reason) => {
            assert!(!listed, "{pos}: check_move refuses listed {mv:?}: {reason}");
            assert!(!pos.is_legal(mv));
            let _ = reason.to_string();
        }
    }
}

/// Any bytes as PDN FEN (first line) and PDN move text (second line): no
/// panic; an accepted position passes [`check_position`]; move text that
/// parses names a listed move.
pub fn fen_any(data: &[u8]) {
    let Some((pos, fen, mv_text)) = crate::position_and_rest::<Position>(data) else {
        return;
    };
    check_position(&pos);
    if let Ok(mv) = pos.parse_move(mv_text) {
        assert!(pos.legal_moves().contains(&mv), "{fen} {mv_text}");
    }
}

fn square(b: u8) -> Square {
    Square::new(1 + b % 50).expect("1..=50")
}

/// Random playouts of up to 200 plies from the start position, driven by
/// the fuzzer's bytes (4 per ply: the move index, then a probe's origin, destination and
/// captured square): every position passes [`check_position`], and an
/// arbitrary (from, to, captures) triple is found by `find_move` exactly
/// when it is in the legal list.
pub fn playout(choices: &[u8]) {
    let mut pos = Position::startpos();
    for ply in choices.chunks_exact(4).take(200) {
        check_position(&pos);
        let moves = pos.legal_moves();
        let (from, to) = (square(ply[1]), square(ply[2]));
        let mut captures = SquareSet::new();
        if ply[3] >= 50 {
            captures.insert(square(ply[3]));
        }
        let listed = moves
            .iter()
            .find(|m| m.from() == from && m.to() == to && m.captures() == captures);
        assert_eq!(pos.find_move(from, to, captures).as_ref(), listed, "{pos}");
        if moves.is_empty() {
            assert!(pos.is_game_over());
            break;
        }
        let mv = moves[usize::from(ply[0]) % moves.len()];
        pos = pos.play(mv).expect("a listed move plays");
    }
}

/// `arbitrary` values (feature `arbitrary` of board-core): a position
/// reached by legal moves passes [`check_position`]; any PDN move value
/// prints as text that parses back to it, and resolves only to a listed
/// move; `find_move` with any square set finds only listed moves.
pub fn value(pos: &Position, pdn: board_core::draughts::PdnMove, set: SquareSet) {
    check_position(pos);
    let text = pdn.to_string();
    assert_eq!(text.parse(), Ok(pdn), "{text}");
    let moves = pos.legal_moves();
    if let Ok(mv) = pos.resolve_move(&pdn) {
        assert!(moves.contains(&mv), "{pos} {text}");
    }
    let found = pos.find_move(pdn.from(), pdn.to(), set);
    let listed = moves
        .iter()
        .find(|m| m.from() == pdn.from() && m.to() == pdn.to() && m.captures() == set);
    assert_eq!(found.as_ref(), listed, "{pos} {text} {set:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`value`] on values made from 200 fixed-seed byte strings.
    #[test]
    fn values() {
        crate::for_fixed_values(
            200,
            |v: (Position, board_core::draughts::PdnMove, SquareSet)| value(&v.0, v.1, v.2),
        );
    }
}
