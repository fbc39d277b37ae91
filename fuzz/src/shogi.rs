//! Shogi (`board_core::shogi`) properties: text decoders never panic and
//! round-trip; the move generator agrees with the single-move checker.

use board_core::shogi::{CsaMove, CsaPositionParser, CsaPositionStatus, Move, Position};

/// Any bytes as SFEN: no panic; an accepted position prints canonically,
/// re-reads to itself, and its legal moves are exactly the moves
/// `check_move` accepts among them, each playable.
pub fn sfen_any(data: &[u8]) {
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_sfen(text) else {
        return;
    };
    let printed = pos.to_string();
    assert_eq!(Position::from_sfen(&printed).unwrap(), pos);
    let moves = pos.legal_moves();
    assert_eq!(moves.len() as u64, pos.count_legal_moves());
    for &m in moves.iter() {
        pos.check_move(m).unwrap();
        let csa = pos.move_to_csa(m).unwrap();
        assert_eq!(pos.move_from_csa(&csa).unwrap(), m);
        let _ = pos.play(m).unwrap();
    }
}

/// Any bytes as a CSA move token: no panic; accepted tokens are canonical
/// (print back to the same 7 bytes).
pub fn csa_move_any(data: &[u8]) {
    if let Ok(m) = CsaMove::parse(data) {
        assert_eq!(&m.to_bytes()[..], data);
        assert_eq!(CsaMove::parse(&m.to_bytes()).unwrap(), m);
        let _ = Position::startpos().move_from_csa(&m);
    }
}

/// Any bytes as USI move text: no panic; accepted text prints back to itself.
pub fn usi_any(data: &[u8]) {
    if let Ok(m) = Move::from_usi_bytes(data) {
        assert_eq!(m.to_string().as_bytes(), data);
    }
    if let Ok(text) = core::str::from_utf8(data) {
        let _ = Position::startpos().parse_usi(text);
    }
}

/// Any bytes as a CSA position block (split on `\n`): no panic; a completed
/// position written back in CSA format reads back to the same position.
pub fn csa_position_any(data: &[u8]) {
    let mut parser = CsaPositionParser::new();
    for line in data.split(|&b| b == b'\n') {
        if let Ok(CsaPositionStatus::Complete(pos)) = parser.feed_line(line) {
            let text = pos.csa().to_string();
            assert!(
                Position::from_csa(text.as_bytes())
                    .unwrap()
                    .same_position(&pos)
            );
        }
    }
}

/// Random playouts (choices from the fuzzer's bytes) from the start
/// position: every listed move is legal, every position re-reads from SFEN,
/// and an arbitrary move is legal exactly when it is listed.
pub fn playout(choices: &[u8]) {
    let mut pos = Position::startpos();
    for pair in choices.chunks(2) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let probe = Move::from_usi_bytes(&[
            b'1' + pair[0] % 9,
            b'a' + pair[0] / 9 % 9,
            b'1' + pair.get(1).copied().unwrap_or(0) % 9,
            b'a' + pair.get(1).copied().unwrap_or(0) / 9 % 9,
        ])
        .unwrap();
        assert_eq!(pos.is_legal(probe), moves.contains(&probe));
        let m = moves[pair[0] as usize % moves.len()];
        pos = pos.play(m).unwrap();
        assert_eq!(Position::from_sfen(&pos.to_string()).unwrap(), pos);
    }
}

/// `arbitrary` values (feature `arbitrary` of board-core): a position
/// reached by legal moves re-reads from its SFEN; any move value prints as
/// USI that parses back to it and is legal exactly when listed; any CSA
/// move value prints as 7 bytes that parse back to it, and when it names a
/// legal move, that move converts back to the same token.
pub fn value(pos: &Position, mv: Move, csa: CsaMove) {
    let sfen = pos.to_string();
    assert_eq!(Position::from_sfen(&sfen).as_ref(), Ok(pos), "{sfen}");
    let usi = mv.to_string();
    assert_eq!(Move::from_usi(&usi), Ok(mv), "{usi}");
    let moves = pos.legal_moves();
    assert_eq!(pos.is_legal(mv), moves.contains(&mv), "{sfen} {usi}");
    assert_eq!(pos.play(mv).is_ok(), moves.contains(&mv), "{sfen} {usi}");
    assert_eq!(CsaMove::parse(&csa.to_bytes()), Ok(csa));
    if let Ok(m) = pos.move_from_csa(&csa) {
        assert!(moves.contains(&m), "{sfen} {csa}");
        assert_eq!(pos.move_to_csa(m), Ok(csa), "{sfen} {csa}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`value`] on values made from 200 fixed-seed byte strings.
    #[test]
    fn values() {
        crate::for_fixed_values(200, |v: (Position, Move, CsaMove)| value(&v.0, v.1, v.2));
    }
}
