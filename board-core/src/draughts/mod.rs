//! International draughts (10x10): rules, bitboard move generation, PDN FEN
//! and PDN move notation, perft.
//!
//! Board conventions ([`spec::damexchange`](crate::spec::damexchange), *Board conventions users
//! expect*): squares 1..=50 numbered left to right from Black's side (top
//! row 1..=5); Black men start on 1..=20, White men on 31..=50; White moves
//! first. Rules: men move one square diagonally forward and capture forward
//! and backward; kings fly; capturing is compulsory and the sequence taking
//! the most pieces must be played (men and kings count the same); captured
//! pieces are removed only after the whole capture and none is jumped twice;
//! a man promotes only when its move ends on the far row. Draw rules are
//! not part of a [`Position`].
//!
//! Same shape as the other game modules (see the crate docs): [`Position`]
//! (PDN FEN in and out, `{:#}` diagram), [`Setup`] validated by
//! [`Position::from_setup`], [`Position::side_to_move`],
//! [`Position::legal_moves`] into a [`MoveList`],
//! [`Position::count_legal_moves`], [`Position::for_each_legal_move`]
//! (early exit), [`Position::play`] / [`Position::play_unchecked`],
//! [`perft`] and [`perft_divide`].
//!
//! ```
//! use board_core::draughts::{Position, perft};
//! let pos: Position = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46".parse().unwrap();
//! assert_eq!(pos.legal_moves().len(), 14);
//! assert_eq!(perft(&pos, 2), 55);
//! let mv = pos.legal_moves()[0];
//! assert_eq!(mv.captures().len(), 14);
//! ```

mod bitboard;
mod fen;
mod legality;
mod movegen;
mod notation;
mod perft;
mod position;
mod types;

pub use crate::movelist::CapacityError;
pub use fen::ParseFenError;
pub use legality::IllegalReason;
pub use notation::{
    AMBIGUOUS_SHOWN, CapturePath, IllegalMoveError, MAX_PATH, MoveText, MoveTextError,
    ParseMoveError, PdnMove,
};
pub use perft::{perft, perft_divide};
pub use position::{Outcome, PlayError, Position, Setup, SetupError};
pub use types::{
    Color, Move, Piece, PieceKind, Square, SquareOutOfRange, SquareSet, SquareSetIter,
};

/// Capacity of a draughts legal move list.
///
/// Quiet moves: every quiet move ends on an empty square, and an empty
/// square can be reached by at most one piece per direction (the nearest
/// piece along each of its 4 diagonals), so there are at most `4 * e`
/// quiet moves with `e` empty squares; a piece has at most 17 quiet moves
/// (a king on the long diagonal's centre: 9 + 8), so at most `17 * p` with
/// `p = 50 - e` pieces of the side to move. `min(4e, 17(50 - e)) <= 161`.
///
/// Captures: only the sequences taking the maximal number of pieces are
/// legal, each (from, to, captured set) once. For one-piece captures the
/// same counting gives `4 * e <= 200` (each move is fixed by its landing
/// square and the direction it arrives from). For longer captures no bound
/// is known or published, and set-ups with many kings of both colours have
/// hundreds: a hill-climbing search over random set-ups
/// (`examples/draughts_worst_moves.rs`, about 8 CPU-minutes) found at most
/// 407 (every move taking 6 pieces; confirmed with pydraughts; dame-rs, whose
/// list holds 256, panics there). The capacity is 2.5 times that. It is not
/// a proof, so nothing depends on it being one: [`perft`],
/// [`Position::count_legal_moves`], [`Position::for_each_legal_move`] and
/// [`Position::is_legal`] handle any number of moves (a capture search that
/// does not fit in a list is redone in chunks of `MAX_MOVES`, each search
/// collecting one chunk's distinct moves and dropping those met earlier),
/// and no public function panics. Only the list
/// ([`Position::legal_moves`], [`perft_divide`]'s per-move counts) is
/// bounded: the FEN parser, [`Position::from_setup`] and [`Position::play`]
/// refuse positions with `MAX_MOVES` or more legal moves, so their lists are
/// complete; for a position reached through [`Position::play_unchecked`] a
/// full list is the sign that moves are missing, and
/// [`Position::try_legal_moves`] reports it as [`CapacityError`].
/// The `capacity_worst_positions` test pins the worst positions found.
pub const MAX_MOVES: usize = 1024;

/// A list of draughts moves with capacity [`MAX_MOVES`] (stored inline).
pub type MoveList = crate::MoveList<Move, MAX_MOVES>;
