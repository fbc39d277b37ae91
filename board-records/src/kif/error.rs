//! Errors of the KIF/KI2 reader: text encoding ([`DecodeError`]), syntax
//! ([`SyntaxError`]) and meaning ([`GameError`]: an illegal or ambiguous
//! move, a handicap or diagram we cannot set up) are different types;
//! [`ReadError`] is any of them. Locations are those of the PGN reader:
//! 0-based byte offset, 1-based line and column (column in bytes of the
//! decoded UTF-8 text; offsets are exact in the input for UTF-8 files).

use alloc::string::String;
use core::fmt;

use board_core::shogi::{IllegalReason, PieceKind, SetupError};

pub use super::encoding::DecodeError;
pub use crate::pgn::Location;

/// What is syntactically wrong (see [`SyntaxError`]). Caps are those of
/// [`Limits`](super::Limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SyntaxProblem {
    /// A destination square (`７六`, `同`, in KI2 also `７６`/`76`) was
    /// expected (§1.6, §2).
    ExpectedSquare,
    /// A piece name (`歩`, `成銀`, `龍`, ... §0) was expected.
    ExpectedPiece,
    /// A KIF move needs its origin `(77)` or `打` (§1.6).
    ExpectedOrigin,
    /// A numbered line whose text is neither a move nor a known ending
    /// word (§1.7).
    UnknownMoveText,
    /// A time column `( m:ss/h:mm:ss)` that does not read (§1.6).
    BadTime,
    /// Text after a move line's time column other than `+`.
    TrailingText,
    /// A board row (`|…|一`) that is not nine cells (§1.5).
    BadBoardRow,
    /// A hand line item that is not a piece with an optional kanji count.
    BadHand,
    /// `変化：N手` without a ply number.
    BadVariation,
    /// A KI2 move without its `▲`/`△` mark (§2).
    ExpectedMark,
    /// A KI2 modifier (`右左直上寄引打`, `成`/`不成`) in a place or
    /// combination that means nothing.
    BadModifier,
    /// A move numbered differently from its place in its line.
    PlyMismatch {
        /// The number the move should have.
        expected: u32,
        /// The number written.
        found: u32,
    },
    /// A move after its line's ending (`投了`, ...).
    MoveAfterEnd,
    /// A position line (`手合割`, hand, board row, turn) after the first
    /// move (tsshogi refuses them too, §1.2).
    PositionAfterMoves,
    /// A line longer than the limit (bytes).
    LineTooLong {
        /// The limit.
        max: usize,
    },
    /// More header lines than the limit.
    TooManyHeaders {
        /// The limit.
        max: usize,
    },
    /// More moves (every variation counted) than the limit.
    TooManyMoves {
        /// The limit.
        max: usize,
    },
    /// More comment lines on one move than the limit.
    TooManyComments {
        /// The limit.
        max: usize,
    },
    /// More variations than the limit.
    TooManyVariations {
        /// The limit.
        max: usize,
    },
}

impl fmt::Display for SyntaxProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SyntaxProblem::ExpectedSquare => f.write_str("expected a destination square"),
            SyntaxProblem::ExpectedPiece => f.write_str("expected a piece name"),
            SyntaxProblem::ExpectedOrigin => f.write_str("expected the origin '(77)' or '打'"),
            SyntaxProblem::UnknownMoveText => f.write_str("neither a move nor an ending word"),
            SyntaxProblem::BadTime => f.write_str("time column does not read"),
            SyntaxProblem::TrailingText => f.write_str("text after the move"),
            SyntaxProblem::BadBoardRow => f.write_str("board row is not nine cells"),
            SyntaxProblem::BadHand => f.write_str("hand item is not a piece and a count"),
            SyntaxProblem::BadVariation => f.write_str("variation header without a ply"),
            SyntaxProblem::ExpectedMark => f.write_str("KI2 move without its ▲/△ mark"),
            SyntaxProblem::BadModifier => f.write_str("misplaced move modifier"),
            SyntaxProblem::PlyMismatch { expected, found } => {
                write!(f, "move numbered {found}, expected {expected}")
            }
            SyntaxProblem::MoveAfterEnd => f.write_str("move after the line's ending"),
            SyntaxProblem::PositionAfterMoves => f.write_str("position line after the first move"),
            SyntaxProblem::LineTooLong { max } => write!(f, "line longer than {max} bytes"),
            SyntaxProblem::TooManyHeaders { max } => write!(f, "more than {max} header lines"),
            SyntaxProblem::TooManyMoves { max } => write!(f, "more than {max} moves"),
            SyntaxProblem::TooManyComments { max } => {
                write!(f, "more than {max} comment lines on one move")
            }
            SyntaxProblem::TooManyVariations { max } => write!(f, "more than {max} variations"),
        }
    }
}

/// A syntax error: where and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("KIF syntax error at {location}: {problem}")]
pub struct SyntaxError {
    /// Where: the first byte that does not read.
    pub location: Location,
    /// What.
    pub problem: SyntaxProblem,
}

/// Why a well-formed move is not the move of its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MoveProblem {
    /// board-core refuses it.
    Illegal(IllegalReason),
    /// A KIF move names a piece other than the one on its origin square.
    WrongPiece {
        /// The piece named.
        named: PieceKind,
        /// What stands on the origin (`None`: nothing).
        on_board: Option<PieceKind>,
    },
    /// `同` on the first move of the game, where there is no previous
    /// destination.
    SameWithoutPrevious,
    /// A KI2 move that no legal move fits.
    NoSuchMove,
    /// A KI2 move that several legal moves fit (its words do not tell
    /// them apart, §2.1).
    Ambiguous {
        /// How many fit.
        candidates: u8,
    },
}

impl fmt::Display for MoveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveProblem::Illegal(r) => write!(f, "{r}"),
            MoveProblem::WrongPiece {
                named,
                on_board: Some(k),
            } => {
                write!(f, "names {named} but {k} stands on the origin")
            }
            MoveProblem::WrongPiece {
                named,
                on_board: None,
            } => {
                write!(f, "names {named} but the origin is empty")
            }
            MoveProblem::SameWithoutPrevious => f.write_str("同 without a previous move"),
            MoveProblem::NoSuchMove => f.write_str("no legal move fits"),
            MoveProblem::Ambiguous { candidates } => {
                write!(f, "{candidates} legal moves fit (ambiguous)")
            }
        }
    }
}

/// What is wrong with a game that reads (see [`GameError`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameProblem {
    /// The first move that is not a move of its position: `ply` is its
    /// 1-based number counted from the game's start, `depth` its variation
    /// depth (0 = main line), `text` the move as written.
    IllegalMove {
        /// 1-based ply.
        ply: u32,
        /// Variation depth, 0 for the main line.
        depth: u32,
        /// The move as written.
        text: String,
        /// Why.
        problem: MoveProblem,
    },
    /// A `手合割` that names no handicap board-core can set up (§1.4), with
    /// no board diagram to give the position.
    UnsupportedHandicap(String),
    /// A board diagram with other than nine rows.
    IncompleteDiagram {
        /// Rows read.
        rows: u8,
    },
    /// A board diagram that is no legal position.
    Diagram(SetupError),
    /// `変化：N手` where no line written so far has a move N to replace.
    VariationWithoutMove {
        /// The N.
        ply: u32,
    },
}

impl fmt::Display for GameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameProblem::IllegalMove {
                ply,
                depth,
                text,
                problem,
            } => {
                write!(f, "ply {ply}")?;
                if *depth > 0 {
                    write!(f, " (variation depth {depth})")?;
                }
                write!(f, ": {text}: {problem}")
            }
            GameProblem::UnsupportedHandicap(h) => write!(f, "unsupported handicap {h:?}"),
            GameProblem::IncompleteDiagram { rows } => {
                write!(f, "board diagram has {rows} rows, not 9")
            }
            GameProblem::Diagram(e) => write!(f, "board diagram: {e}"),
            GameProblem::VariationWithoutMove { ply } => {
                write!(f, "variation at move {ply}, which no line has")
            }
        }
    }
}

/// A game that reads but means nothing playable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("KIF game error at {location}: {problem}")]
pub struct GameError {
    /// Where the line at fault starts (for a move: the move).
    pub location: Location,
    /// What.
    pub problem: GameProblem,
}

/// Reading a file into a [`Game`](super::Game) failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The bytes are not text in the chosen encoding.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// Syntax.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// Meaning.
    #[error(transparent)]
    Game(#[from] GameError),
}

impl ReadError {
    /// Where the error is (for a decoding error: line and column 0, the
    /// byte offset in the input).
    pub fn location(&self) -> Location {
        match self {
            ReadError::Decode(e) => Location {
                offset: e.offset,
                line: 0,
                column: 0,
            },
            ReadError::Syntax(e) => e.location,
            ReadError::Game(e) => e.location,
        }
    }
}
