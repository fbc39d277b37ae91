//! USI and UCI move text (issue 29, mutation testing of board-core's
//! notations): the values each documented function returns, from the
//! protocols' published move syntax (USI: `7g7f`, `8h2b+`, `P*5e`, files
//! 1-9 and ranks a-i; UCI: `e2e4`, `e7e8q`) and the start positions.

use board_core::chess;
use board_core::shogi::{self, Move, MoveTextError, ParseUsiMoveError as E, Position};

/// `offset()`: where a syntax error is, `None` for a wrong length.
#[test]
fn usi_error_offsets() {
    assert_eq!(Move::from_usi("7g7").unwrap_err().offset(), None);
    assert_eq!(Move::from_usi("7g7f7g").unwrap_err().offset(), None);
    assert_eq!(Move::from_usi("0g7f").unwrap_err().offset(), Some(0));
    assert_eq!(Move::from_usi("7g0f").unwrap_err().offset(), Some(2));
    assert_eq!(Move::from_usi("7g7j").unwrap_err().offset(), Some(3));
    assert_eq!(Move::from_usi("7g7f=").unwrap_err().offset(), Some(4));
}

/// `str::parse` reads the same move as `Move::from_usi`.
#[test]
fn usi_from_str() {
    for text in ["7g7f", "8h2b+", "P*5e", "1a9i"] {
        assert_eq!(text.parse::<Move>(), Move::from_usi(text), "{text}");
        assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
    }
    assert_eq!("7g7".parse::<Move>(), Err(E::Length { len: 3 }));
}

/// `Position::parse_usi`: the legal move, or the syntax error, or the reason
/// the move is illegal in the position.
#[test]
fn usi_in_the_start_position() {
    let start = Position::startpos();
    // 7g7f (the pawn in front of the bishop, one step) is legal.
    assert_eq!(start.parse_usi("7g7f"), Ok(Move::from_usi("7g7f").unwrap()));
    assert_eq!(
        start.parse_usi("7g7"),
        Err(MoveTextError::Syntax(E::Length { len: 3 }))
    );
    // 7g7e: a pawn moves one square only.
    assert!(matches!(
        start.parse_usi("7g7e"),
        Err(MoveTextError::Illegal(_))
    ));
    // 5e5d: nothing on 5e.
    assert!(matches!(
        start.parse_usi("5e5d"),
        Err(MoveTextError::Illegal(shogi::IllegalReason::NoPiece { .. }))
    ));
}

/// UCI: `str::parse` and `Display` of the move values, and
/// `Position::parse_uci` in the start position.
#[test]
fn uci_values() {
    let start = chess::Position::startpos();
    let u: chess::UciMove = "e2e4".parse().unwrap();
    assert_eq!(u.to_string(), "e2e4");
    assert_eq!(u.promotion, None);
    let e2e4 = start.parse_uci("e2e4").unwrap();
    assert_eq!(u.to_move(&start), Ok(e2e4));
    assert_eq!(e2e4.to_string(), "e2e4");
    let u: chess::UciMove = "a7a8n".parse().unwrap();
    assert_eq!(u.to_string(), "a7a8n");
    assert_eq!(u.promotion, Some(chess::PieceKind::Knight));
}

/// The reason a move value is refused when another kind of move joins its
/// squares, in words: e2-e4 given as an en passant capture in the start
/// position, where the legal move between e2 and e4 is a plain move.
#[test]
fn kind_mismatch_in_words() {
    use chess::{IllegalReason, MoveKind};
    let start = chess::Position::startpos();
    let sq = |s: &str| s.parse::<chess::Square>().unwrap();
    let mv = chess::Move::new(sq("e2"), sq("e4"), MoveKind::EnPassant);
    let reason = start.check_move(mv).unwrap_err();
    assert_eq!(
        reason,
        IllegalReason::KindMismatch {
            given: MoveKind::EnPassant,
            legal: MoveKind::Normal
        }
    );
    assert_eq!(
        reason.to_string(),
        "the legal move between these squares is a plain move, not an en passant capture"
    );
}
