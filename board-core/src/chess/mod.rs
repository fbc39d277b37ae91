//! Standard chess (FIDE Laws of Chess, not Chess960): vocabulary, FEN,
//! UCI moves, allocation-free legal move generation with bitboards, game
//! end queries and `perft`.
//!
//! | item | meaning |
//! |---|---|
//! | [`Position`] | a legal position; `FromStr` parses FEN ([`ParseFenError`] names the field and byte offset), `Display` prints canonical FEN, `{:#}` draws it |
//! | [`Setup`] | unchecked position (the FEN's fields), validated by [`Position::from_setup`] ([`SetupError`]); [`Position::to_setup`] |
//! | [`Move`] | 16-bit `Copy` move: from, to, [`MoveKind`] (castling is the king's move, `e1g1`) |
//! | [`Position::legal_moves`] | every legal move in a [`MoveList`] of capacity [`MAX_MOVES`] = 218 (no heap allocation); [`Position::count_legal_moves`] counts them, [`Position::for_each_legal_move`] visits them with early exit |
//! | [`Position::side_to_move`] | whose move it is ([`Color`]); pieces are [`Piece`] `{ color, kind: PieceKind }` |
//! | [`Position::play`] | checked: the new position, or [`PlayError`] holding the unchanged position, the move and the [`IllegalReason`]; [`Position::check_move`] gives the reason alone |
//! | [`Position::play_unchecked`] | fast path for moves taken from `legal_moves()` |
//! | [`Position::parse_uci`], [`Move::to_uci`] | UCI text against a position; syntax ([`ParseUciError`]) and legality ([`IllegalMoveError`]) errors are separate |
//! | [`Position::parse_san`], [`Position::san`] | SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`) against a position: [`SanError`] names the byte offset and the [`SanProblem`]; writing is canonical ([`San`], at most 7 bytes) |
//! | [`perft`], [`perft_divide`] | leaf-node counts (bulk counting at the last ply); `perft_divide` gives `(total, per root move)` |
//!
//! Squares are 0..=63, `a1` = 0, `h1` = 7, `h8` = 63.
//!
//! ```
//! use board_core::chess::{perft, Position};
//!
//! let pos: Position = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".parse()?;
//! assert_eq!(pos, Position::startpos());
//! assert_eq!(pos.legal_moves().len(), 20);
//! let mv = pos.parse_uci("e2e4")?;
//! let pos = pos.play(mv)?;
//! assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! assert_eq!(perft(&Position::startpos(), 3), 8_902);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod attacks;
mod bitboard;
mod fen;
mod legality;
mod movegen;
mod perft;
mod position;
pub mod san;
mod setup;
mod simd;
mod types;
mod uci;

pub use bitboard::Bitboard;
pub use fen::{FenErrorKind, FenField, ParseFenError};
pub use legality::{CastlingProblem, PlayError};
pub use perft::{perft, perft_divide};
pub use position::{CastlingRights, Outcome, Position};
pub use san::{San, SanError, SanIllegal, SanProblem};
pub use setup::{Setup, SetupError};
pub use types::{
    CastlingSide, Color, File, Move, MoveKind, ParseSquareError, Piece, PieceKind, Rank, Square,
};
pub use uci::{
    IllegalMoveError, IllegalReason, ParseUciError, ParseUciErrorKind, UciError, UciMove,
};

/// Capacity of a chess [`MoveList`]: 218 moves.
///
/// 218 is the largest number of legal moves in any position reachable
/// from the start position: Nenad Petrović's 1964 composition
/// `R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1` has 218, and
/// Tobias Peter's 2024 exhaustive search by integer programming (published
/// on lichess.org, "there is no reachable chess position with more than 218
/// moves") proved no reachable position has more. Positions that no game
/// can reach may have more (up to 288 with impossible set-ups), so FEN
/// parsing rejects material no promotions can produce and, as a final
/// guard, any position with more than 218 legal moves
/// ([`FenErrorKind::TooManyMoves`]); playing moves keeps the material
/// constraint. The bound is tested on Petrović's position.
pub const MAX_MOVES: usize = 218;

/// A list of chess moves with capacity [`MAX_MOVES`] (stored inline).
pub type MoveList = crate::MoveList<Move, MAX_MOVES>;
