//! Chess (`board_core::chess`) properties.

use board_core::chess::{Move, MoveKind, Position, Square, UciError};

/// Any text as a FEN: parsing never panics; an accepted position prints a
/// canonical FEN that parses back to the same position; its legal moves
/// print as UCI that parses back to the same moves; every child position
/// is again accepted (the mover's king is never left in check).
pub fn fen_any(data: &[u8]) {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = text.parse::<Position>() else {
        return;
    };
    let fen = pos.to_string();
    assert_eq!(fen.parse::<Position>(), Ok(pos), "{fen}");
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal_moves());
    for &mv in moves.iter() {
        assert_eq!(pos.parse_uci(&mv.to_string()), Ok(mv));
        let child = pos.play(mv).expect("legal move rejected");
        assert!(child.to_string().parse::<Position>().is_ok(), "{fen} {mv}");
    }
}

/// A position (first line) and a move text or move bits (the rest): a UCI
/// text parses to a move exactly when that move is in the legal list, and
/// `play` accepts any 16-bit move exactly when it is legal.
pub fn play_any(data: &[u8]) {
    let Some((pos, _, rest)) = crate::position_and_rest::<Position>(data) else {
        return;
    };
    match pos.parse_uci(rest) {
        Ok(mv) => assert!(pos.legal_moves().contains(&mv)),
        Err(UciError::Illegal(_)) => {
            assert!(!pos.legal_moves().iter().any(|m| m.to_string() == rest));
        }
        Err(UciError::Syntax(_)) => {}
    }
    let b = rest.as_bytes();
    if b.len() >= 3 {
        let from = Square::new(u32::from(b[0] % 64)).unwrap();
        let to = Square::new(u32::from(b[1] % 64)).unwrap();
        let mv = Move::new(from, to, MoveKind::ALL[usize::from(b[2] % 8)]);
        let legal = pos.legal_moves().contains(&mv);
        assert_eq!(pos.play(mv).is_ok(), legal);
        let mut unchecked = pos;
        unchecked.play_unchecked(mv);
        let _ = unchecked.count_legal_moves();
    }
}

/// `arbitrary` values (feature `arbitrary` of board-core): a position
/// reached by legal moves re-reads from its FEN; any move value plays
/// exactly when it is listed (and `check_move` agrees, giving
/// `play`'s reason); any UCI move value prints as text that parses
/// back to it and resolves to a listed move or to an illegal-move error.
pub fn value(pos: &Position, mv: Move, uci: board_core::chess::UciMove) {
    let fen = pos.to_string();
    assert_eq!(fen.parse::<Position>().as_ref(), Ok(pos), "{fen}");
    let moves = pos.legal_moves();
    assert_eq!(pos.play(mv).is_ok(), moves.contains(&mv), "{fen} {mv}");
    assert_eq!(pos.is_legal(mv), moves.contains(&mv), "{fen} {mv}");
    assert_eq!(
        pos.check_move(mv).is_ok(),
        moves.contains(&mv),
        "{fen} {mv}"
    );
    if let Err(e) = pos.play(mv) {
        assert_eq!(Err(e.reason), pos.check_move(mv), "{fen} {mv}");
    }
    let text = uci.to_string();
    assert_eq!(text.parse(), Ok(uci), "{text}");
    match pos.parse_uci(&text) {
        Ok(m) => assert!(moves.contains(&m), "{fen} {text}"),
        Err(UciError::Illegal(_)) => {
            assert!(!moves.iter().any(|m| m.to_string() == text), "{fen} {text}");
        }
        Err(UciError::Syntax(e)) => panic!("{text}: {e}"),
    }
}

/// A position (first line) and SAN text (the rest): reading never
/// panics, an error points inside the text (or at its end) and displays; a
/// move read is legal, and its canonical SAN reads back to it. Every legal
/// move of the position is written (`san`) in at most 7 bytes, no two
/// alike, as text that reads back to it, ending in `#` exactly when it
/// mates and `+` exactly when it checks otherwise (FIDE Laws, Appendix C).
pub fn san_any(data: &[u8]) {
    let Some((pos, fen, text)) = crate::position_and_rest::<Position>(data) else {
        return;
    };
    let moves = pos.legal_moves();
    match pos.parse_san(text) {
        Ok(mv) => {
            assert!(moves.contains(&mv), "{fen} {text:?}: {mv} is not legal");
            let san = pos.san(mv);
            assert_eq!(pos.parse_san(san.as_str()), Ok(mv), "{fen} {text:?} {san}");
        }
        Err(e) => {
            assert!(e.offset <= text.len(), "{fen} {text:?}: {e:?}");
            let _ = e.to_string();
        }
    }
    let mut written: Vec<String> = Vec::new();
    for &mv in moves.iter() {
        let san = pos.san(mv);
        let s = san.to_string();
        assert_eq!(s, san.as_str());
        assert!((2..=7).contains(&s.len()), "{fen} {mv}: {s:?}");
        assert_eq!(pos.parse_san(&s), Ok(mv), "{fen} {mv}: {s}");
        let child = pos.play(mv).expect("a legal move plays");
        let mark = if child.is_checkmate() {
            Some('#')
        } else if child.is_check() {
            Some('+')
        } else {
            None
        };
        let last = s.chars().last().filter(|c| matches!(c, '+' | '#'));
        assert_eq!(last, mark, "{fen} {mv}: {s}");
        assert!(!written.contains(&s), "{fen}: {s} written for two moves");
        written.push(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`value`] on values made from 200 fixed-seed byte strings.
    #[test]
    fn values() {
        crate::for_fixed_values(200, |v: (Position, Move, board_core::chess::UciMove)| {
            value(&v.0, v.1, v.2)
        });
    }
}
