//! Wire values ⇄ `board-core` draughts values: moves, colours, positions.
//!
//! A MOVE names a move by (from, to, set of captured squares)
//! ([`spec::damexchange`](crate::spec::damexchange), *MOVE*); [`find_move`] finds the legal move of
//! a position with that triple, [`move_to_wire`] writes a board move as a
//! MOVE. A GAMEREQ set-up ([`spec::damexchange`](crate::spec::damexchange), *GAMEREQ*) converts to
//! and from a board position.

use board_core::draughts::{self as board, Position};

use crate::message::{Captures, Move as WireMove, Setup};
use crate::types::{
    Color as WireColor, Piece as WirePiece, PieceKind as WireKind, Square as WireSquare,
};

/// Converts a GAMEREQ set-up into a board position.
///
/// # Errors
/// The position's [`board::SetupError`] when the set-up is not a valid
/// position (a man on its promotion row, too many pieces...).
pub fn setup_to_position(setup: &Setup) -> Result<Position, board::SetupError> {
    let board = setup.board.map(|c| c.map(piece_to_board));
    Position::from_setup(&board::Setup {
        board,
        side_to_move: color_to_board(setup.side_to_move),
    })
}

/// Converts a board position into a GAMEREQ set-up.
pub fn position_to_setup(position: &Position) -> Setup {
    Setup {
        side_to_move: color_to_wire(position.side_to_move()),
        board: position.to_setup().board.map(|c| {
            c.map(|p| WirePiece {
                color: color_to_wire(p.color),
                kind: match p.kind {
                    board::PieceKind::Man => WireKind::Man,
                    board::PieceKind::King => WireKind::King,
                },
            })
        }),
    }
}

fn piece_to_board(p: WirePiece) -> board::Piece {
    board::Piece::new(
        color_to_board(p.color),
        match p.kind {
            WireKind::Man => board::PieceKind::Man,
            WireKind::King => board::PieceKind::King,
        },
    )
}

/// Wire colour to board colour.
pub const fn color_to_board(c: WireColor) -> board::Color {
    match c {
        WireColor::White => board::Color::White,
        WireColor::Black => board::Color::Black,
    }
}

/// Board colour to wire colour.
pub const fn color_to_wire(c: board::Color) -> WireColor {
    match c {
        board::Color::White => WireColor::White,
        board::Color::Black => WireColor::Black,
    }
}

/// The MOVE message for a board move: captured squares in increasing order
/// (the spec allows any order). `time` is clamped to 9999 seconds.
pub fn move_to_wire(mv: board::Move, time: u16) -> WireMove {
    let sq = |s: board::Square| WireSquare::new(s.number()).unwrap_or(WireSquare::MIN_SQUARE);
    let mut captured = Captures::EMPTY;
    for s in mv.captures().iter().take(Captures::MAX) {
        captured.push_unchecked(sq(s));
    }
    WireMove {
        time: time.min(WireMove::MAX_TIME),
        from: sq(mv.from()),
        to: sq(mv.to()),
        captured,
    }
}

/// The legal move of `position` that a MOVE names by (from, to, captured
/// set), if any.
pub fn find_move(position: &Position, mv: &WireMove) -> Option<board::Move> {
    let sq = |s: WireSquare| board::Square::new(s.number());
    let captures: board::SquareSet = mv
        .captured()
        .as_slice()
        .iter()
        .filter_map(|&s| sq(s))
        .collect();
    position.find_move(sq(mv.from())?, sq(mv.to())?, captures)
}
