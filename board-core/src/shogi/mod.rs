//! Shogi (Japanese chess, 9x9 with drops): rules, allocation-free legal
//! move generation, SFEN/USI and CSA notation, perft.
//!
//! Same shape as the other game modules (see the crate docs):
//!
//! | item | meaning |
//! |---|---|
//! | [`Position`] | validated position; `FromStr`/`Display` = SFEN; CSA via [`CsaPositionParser`] / [`Position::csa`] |
//! | [`Setup`] | unchecked position (what a text says), validated by [`Position::from_setup`] |
//! | [`Move`] | 2-byte `Copy` move (board move with promotion flag, or drop); `Display`/`FromStr` = USI |
//! | [`CsaMove`] | position-free CSA move token `+7776FU` (piece named *after* the move) |
//! | [`Position::legal_moves`] | every legal move in a fixed-capacity [`MoveList`] (capacity [`MAX_MOVES`]); [`Position::count_legal_moves`] counts them, [`Position::for_each_legal_move`] visits them with early exit |
//! | [`Position::play`] / [`Position::play_unchecked`] | checked (reason on error: [`IllegalReason`]) / fast |
//! | [`perft`], [`perft_divide`] | leaf counts (bulk counting at the last ply) |
//!
//! Colours: [`Color::Black`] is **sente** (先手, CSA `+`, SFEN `b`, moves
//! first in an even game); [`Color::White`] is **gote** (後手, CSA `-`,
//! SFEN `w`). Squares: file 1..=9, rank 1..=9 as in both notations
//! (`7g` = CSA `77` = file 7, rank 7).
//!
//! Rules implemented: all piece moves; drops; promotion when a move starts
//! or ends in the enemy camp (ranks 1-3 for Black), optional (both moves
//! are generated) except where the piece would have no future move — pawn
//! or lance on the last rank, knight on the last two — where it is forced,
//! and such drops are impossible; nifu (no second unpromoted pawn of one
//! side on a file); no pawn-drop mate (uchifuzume, a distinct
//! [`IllegalReason::PawnDropMate`]); no move leaving one's own king in
//! check. Queries: [`Position::is_check`], [`Position::is_checkmate`],
//! [`Position::outcome`] (the side to move has no legal move: it loses,
//! [`Outcome`]), [`Position::impasse_declaration`] (CSA `%KACHI`), and
//! [`GameHistory`] for repetition / perpetual check.
//!
//! ```
//! use board_core::shogi::{perft, Position};
//! let pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 30);
//! assert_eq!(perft(&pos, 3), 25_470);
//! let after = pos.play(pos.parse_usi("7g7f")?)?;
//! assert_eq!(after.to_string(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bitboard;
mod csa;
mod legality;
mod movegen;
mod position;
mod rules;
mod sfen;
mod types;
mod usi;
mod zobrist;

pub use bitboard::Bitboard;
pub use csa::{
    CsaMove, CsaPosition, CsaPositionError, CsaPositionErrorKind, CsaPositionParser,
    CsaPositionStatus, ParseCsaMoveError,
};
pub use legality::{IllegalReason, PlayError};
pub use movegen::{MAX_MOVES, MoveList, perft, perft_divide};
pub use position::{Outcome, Position, Setup, SetupError};
pub use rules::{
    DeclarationError, GameHistory, HistoryEntry, ImpasseCount, Repetition, repetition,
};
pub use sfen::{ParseSfenError, SfenField};
pub use types::{Color, Hand, Move, Piece, PieceKind, Square};
pub use usi::{MoveTextError, ParseUsiMoveError};
