//! Errors of the PGN reader: syntax ([`SyntaxError`]) and the game's
//! meaning ([`GameError`]: an illegal move, a bad FEN tag, a variant we do
//! not play) are different types; [`ReadError`] is either.

use alloc::string::String;
use core::fmt;

use board_core::chess::{ParseFenError, SanError};

pub use crate::error::{Located, Location, RecordFormat};
use crate::error::{Ply, Problem};

/// What is syntactically wrong (see [`SyntaxError`]). The caps are those of
/// [`Limits`](super::Limits); each names the limit that was passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SyntaxProblem {
    /// A byte that starts no token here (outside comments and strings:
    /// non-ASCII, a control character, `<`, `>`, `[` inside movetext...).
    UnexpectedByte {
        /// The byte.
        byte: u8,
    },
    /// A tag pair's name (a symbol: `[A-Za-z0-9][A-Za-z0-9_+#=:-]*`) was
    /// expected after `[` (standard §8.1).
    ExpectedTagName,
    /// A tag pair's value, a string `"…"`, was expected after the name.
    ExpectedTagValue,
    /// The `]` closing a tag pair was expected after its value.
    ExpectedTagClose,
    /// A string reached the end of the input without its closing `"`.
    UnterminatedString,
    /// A line feed, carriage return or tab inside a string (standard
    /// §7: no newline or tab inside a string).
    ControlInString,
    /// A `{` comment reached the end of the input without its `}`.
    UnterminatedComment,
    /// A token of digits and symbol characters that is neither a move
    /// number, a result nor castling with zeros (`12e4`, `1-2`).
    BadToken,
    /// A NAG (`$n`) above 255, or a `$` without digits (standard §7).
    BadNag,
    /// An annotation of `!` and `?` that is not one of `!`, `?`, `!!`,
    /// `??`, `!?`, `?!` (standard §8.2.3.8).
    BadSuffix,
    /// A `)` without its `(`.
    UnmatchedClose,
    /// The game ended (blank line, next tag section or end of input) with
    /// this many variations still open.
    UnclosedVariation {
        /// How many `(` are not closed.
        depth: usize,
    },
    /// A game termination marker inside a variation.
    ResultInVariation,
    /// A move, NAG or variation after the game termination marker (only
    /// whitespace, comments and escape lines may follow it).
    TokenAfterResult,
    /// More tag pairs in one game than the limit.
    TooManyTags {
        /// The limit.
        max: usize,
    },
    /// A tag name or value longer than the limit (bytes, escapes counted
    /// as written).
    StringTooLong {
        /// The limit.
        max: usize,
    },
    /// A comment longer than the limit (bytes between the delimiters).
    CommentTooLong {
        /// The limit.
        max: usize,
    },
    /// A symbol (move) longer than 255 bytes (standard §7).
    SymbolTooLong {
        /// The limit, 255.
        max: usize,
    },
    /// Variations nested deeper than the limit.
    TooDeep {
        /// The limit.
        max: usize,
    },
    /// More moves in one game (all variations counted) than the limit.
    TooManyMoves {
        /// The limit.
        max: usize,
    },
    /// One game longer than the limit (bytes).
    GameTooLong {
        /// The limit.
        max: usize,
    },
}

impl fmt::Display for SyntaxProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SyntaxProblem::UnexpectedByte { byte } if byte.is_ascii_graphic() => {
                write!(f, "unexpected '{}'", byte as char)
            }
            SyntaxProblem::UnexpectedByte { byte } => write!(f, "unexpected byte 0x{byte:02x}"),
            SyntaxProblem::ExpectedTagName => f.write_str("expected a tag name"),
            SyntaxProblem::ExpectedTagValue => f.write_str("expected a tag value string"),
            SyntaxProblem::ExpectedTagClose => f.write_str("expected ']' closing the tag pair"),
            SyntaxProblem::UnterminatedString => f.write_str("string without its closing quote"),
            SyntaxProblem::ControlInString => {
                f.write_str("line feed, carriage return or tab inside a string")
            }
            SyntaxProblem::UnterminatedComment => f.write_str("comment without its closing '}'"),
            SyntaxProblem::BadToken => f.write_str("not a move number, result or move"),
            SyntaxProblem::BadNag => f.write_str("NAG without digits or above 255"),
            SyntaxProblem::BadSuffix => f.write_str("unknown move suffix annotation"),
            SyntaxProblem::UnmatchedClose => f.write_str("')' without '('"),
            SyntaxProblem::UnclosedVariation { depth } => {
                write!(f, "{depth} variation(s) not closed at the end of the game")
            }
            SyntaxProblem::ResultInVariation => f.write_str("game result inside a variation"),
            SyntaxProblem::TokenAfterResult => f.write_str("movetext after the game result"),
            SyntaxProblem::TooManyTags { max } => write!(f, "more than {max} tag pairs"),
            SyntaxProblem::StringTooLong { max } => write!(f, "string longer than {max} bytes"),
            SyntaxProblem::CommentTooLong { max } => write!(f, "comment longer than {max} bytes"),
            SyntaxProblem::SymbolTooLong { max } => write!(f, "symbol longer than {max} bytes"),
            SyntaxProblem::TooDeep { max } => write!(f, "variations nested deeper than {max}"),
            SyntaxProblem::TooManyMoves { max } => write!(f, "more than {max} moves in one game"),
            SyntaxProblem::GameTooLong { max } => write!(f, "game longer than {max} bytes"),
        }
    }
}

impl Problem for SyntaxProblem {
    const KIND: &'static str = "syntax";
}

/// A syntax error: the format ([`RecordFormat::Pgn`], or
/// [`RecordFormat::Pdn`] from the [`pdn`](crate::pdn) reader), where (the
/// first bad byte; for an unterminated string or comment, its opening
/// delimiter; for a cap, the token that passed it) and what. The reader
/// has skipped to the next game when it returns one (see
/// [`Reader`](super::Reader)). Displayed as `PGN syntax error at line 4,
/// column 8 (byte 29): unexpected '<'`.
pub type SyntaxError = Located<SyntaxProblem>;

/// What is wrong with a game that is syntactically fine (see
/// [`GameError`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameProblem {
    /// The first move that is not legal (or not a move) in its position;
    /// `ply` is its 1-based half-move number counted from the game's start
    /// position along its line (a variation's move has the ply of the move
    /// it replaces, plus its index), `depth` the variation depth (0 = main
    /// line), `san` the text as written.
    IllegalMove {
        /// 1-based half-move number from the start position.
        ply: u32,
        /// Variation depth, 0 for the main line.
        depth: u32,
        /// The move as written.
        san: String,
        /// board-core's reason (syntax problem with its byte offset in the
        /// move, or legality problem).
        reason: SanError,
    },
    /// A null move (`--`) when the side to move is in check.
    NullMoveInCheck {
        /// 1-based half-move number from the start position.
        ply: u32,
    },
    /// The FEN tag is not a legal standard-chess position.
    Fen(ParseFenError),
    /// A `Variant` tag naming a game other than standard chess (standard
    /// values accepted: `Standard`, `Normal`, `From Position`, `Illegal`
    /// (ChessBase), `Chess`, empty).
    UnsupportedVariant(String),
    /// A variation `(` where its line has no move yet to replace.
    VariationWithoutMove,
}

impl fmt::Display for GameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameProblem::IllegalMove {
                ply,
                depth,
                san,
                reason,
            } => {
                let place = Ply {
                    ply: *ply,
                    depth: *depth,
                };
                write!(f, "{place}: {san}: {}", reason.problem)
            }
            GameProblem::NullMoveInCheck { ply } => {
                write!(f, "ply {ply}: null move while in check")
            }
            GameProblem::Fen(e) => write!(f, "FEN tag: {e}"),
            GameProblem::UnsupportedVariant(v) => write!(f, "unsupported variant {v:?}"),
            GameProblem::VariationWithoutMove => f.write_str("variation before any move"),
        }
    }
}

impl Problem for GameProblem {
    const KIND: &'static str = "game";
}

/// A game that reads but means nothing playable: the format
/// ([`RecordFormat::Pgn`]), the location of the token at fault (the move,
/// the FEN or Variant tag, the `(`) and the problem. The reader has
/// skipped the rest of the game.
pub type GameError = Located<GameProblem>;

/// Reading one game into a [`Game`](super::Game) failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Syntax.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// Meaning (an illegal move, a bad FEN, a variant).
    #[error(transparent)]
    Game(#[from] GameError),
}

impl ReadError {
    /// Where the error is.
    pub fn location(&self) -> Location {
        match self {
            ReadError::Syntax(e) => e.location,
            ReadError::Game(e) => e.location,
        }
    }
}
