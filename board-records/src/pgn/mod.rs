//! PGN, Portable Game Notation (chess): the PGN standard (S. J. Edwards,
//! 1994-03-12) in its import and export formats, and what real exports
//! carry ([`spec::pgn_pdn`](crate::spec::pgn_pdn), part 1).
//!
//! | item | what |
//! |---|---|
//! | [`Reader`] | streaming reader over `&[u8]`: [`Reader::read_game`] into a [`Visitor`] (zero copy), [`Reader::next_game`] / [`Reader::games`] into a [`Game`]; [`Limits`] cap what a file can grow |
//! | [`Game`] | tags ([`Tags`]), start position (FEN/SetUp), main line of [`Node`]s (move, SAN, NAGs, comments, variations), result, [`Warning`]s |
//! | [`Game::to_pgn`], `Display` | the export format, infallible ([`writer`]) |
//! | [`Commands`] | `[%clk]`, `[%emt]`, `[%eval]` in comments as [`Command`]s (durations, [`Eval`]) |
//! | [`SyntaxError`], [`GameError`], [`ReadError`] | line, column, byte offset ([`Location`]) and what |
//!
//! Moves are checked with board-core's SAN reader
//! ([`Position::parse_san`](board_core::chess::Position::parse_san)): the
//! first illegal one stops the game with its ply and board-core's reason.
//! Null moves (`--`, python-chess's `Z0`) pass the turn; they are refused
//! in check.
//!
//! ```
//! use board_records::pgn::{Reader, Score};
//! use core::time::Duration;
//!
//! let pgn = "[Event \"Rated Blitz game\"]\n[Result \"0-1\"]\n\n\
//!            1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... c5?! { [%eval 0.31] [%clk 0:02:58] } 0-1\n";
//! let game = Reader::new(pgn.as_bytes()).next_game().unwrap()?;
//! assert_eq!(game.moves[0].clock(), Some(Duration::from_secs(180)));
//! assert_eq!(game.moves[1].eval().map(|e| e.score), Some(Score::Centipawns(31)));
//! assert_eq!(game.moves[1].nags[0].0, 6);
//! # Ok::<(), board_records::pgn::ReadError>(())
//! ```

pub(crate) mod command;
mod error;
mod game;
pub mod reader;
mod types;
pub mod writer;

pub use command::{Command, CommandError, CommandProblem, Commands, Eval, Score};
pub use error::{
    GameError, GameProblem, Located, Location, ReadError, RecordFormat, SyntaxError, SyntaxProblem,
};
pub use game::{Comment, Game, GameBuilder, Games, Node, Tag, Tags, ValueError, Warning};
pub use reader::{Limits, MAX_SYMBOL_LEN, Reader, Skip, Visitor};
pub use types::{CommentKind, GameResult, Nag, RawComment, RawValue, decode_text};
