//! Chess (`board_core::chess`) properties.

use board_core::chess::{Move, MoveKind, Position, Role, Square, UciError};

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
    let Ok(text) = core::str::from_utf8(data) else {
        return;
    };
    let (fen, rest) = text.split_once('\n').unwrap_or((text, ""));
    let Ok(pos) = fen.parse::<Position>() else {
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
        let kinds = [
            MoveKind::Normal,
            MoveKind::EnPassant,
            MoveKind::Castle(board_core::chess::CastlingSide::KingSide),
            MoveKind::Castle(board_core::chess::CastlingSide::QueenSide),
            MoveKind::Promotion(Role::Knight),
            MoveKind::Promotion(Role::Bishop),
            MoveKind::Promotion(Role::Rook),
            MoveKind::Promotion(Role::Queen),
        ];
        let from = Square::new(u32::from(b[0] % 64)).unwrap();
        let to = Square::new(u32::from(b[1] % 64)).unwrap();
        let mv = Move::new(from, to, kinds[usize::from(b[2] % 8)]);
        let legal = pos.legal_moves().contains(&mv);
        assert_eq!(pos.play(mv).is_ok(), legal);
        let mut unchecked = pos;
        unchecked.play_unchecked(mv);
        let _ = unchecked.count_legal_moves();
    }
}
