//! Errors of the KIF/KI2 reader: text encoding ([`DecodeError`]), syntax
//! ([`SyntaxError`]) and meaning ([`GameError`]: an illegal or ambiguous
//! move, a handicap or diagram we cannot set up) are different types;
//! [`ReadError`] is any of them. Locations are those of every format of
//! this crate ([`Location`]): 0-based byte offset, 1-based line and
//! column, the column counted in **characters** (what an editor shows for
//! Japanese text: in `先手：A` the `A` is column 4), the offset in bytes
//! (exact in the input for UTF-8 files, a BOM counted; in the decoded
//! UTF-8 text for Shift_JIS files). Errors name the format the text is
//! read as (`KIF` or `KI2`, [`RecordFormat`]) and say pieces and squares
//! as KIF does (`歩`, `成銀`, `７六`), not in CSA's or USI's codes.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use board_core::shogi::{Color, IllegalReason, Move, PieceKind, SetupError, Square};

pub use super::encoding::DecodeError;
use super::notation::{FW_DIGITS, KANJI_DIGITS, move_name, side_name};
pub use crate::error::{Located, Location, RecordFormat};
use crate::error::{Ply, Problem};

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
    /// Text with no KIF or KI2 item at all (no header, `手合割`, board
    /// diagram, move, comment, bookmark, ending or `#` line): an empty
    /// input, or text of another kind (a CSA file, junk) whose every line
    /// the reader skips (§1.2). Reported at line 1, column 1.
    NoItem {
        /// The lines of the text (0: empty).
        lines: u32,
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
            SyntaxProblem::NoItem { lines: 0 } => {
                f.write_str("no KIF or KI2 item: the text is empty")
            }
            SyntaxProblem::NoItem { lines } => write!(
                f,
                "no KIF or KI2 item in {lines} line(s): no header, 手合割, board diagram, move, \
                 comment or ending line (not a KIF/KI2 record)"
            ),
        }
    }
}

impl Problem for SyntaxProblem {
    const KIND: &'static str = "syntax";
}

/// A syntax error: the format the text is read as ([`RecordFormat::Kif`]
/// or [`RecordFormat::Ki2`]), where (the first character that does not
/// read) and what; displayed as `KI2 syntax error at line 3, column 5
/// (byte 21): expected a piece name`.
pub type SyntaxError = Located<SyntaxProblem>;

/// A square as KIF writes it: full-width file, kanji rank (`７六`).
pub(crate) struct KifSquare(pub(crate) Square);

impl fmt::Display for KifSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = FW_DIGITS[usize::from(self.0.file().clamp(1, 9)) - 1];
        let rank = KANJI_DIGITS[usize::from(self.0.rank().clamp(1, 9)) - 1];
        write!(f, "{file}{rank}")
    }
}

/// A piece kind as KIF move text names it (`歩`, `成銀`, `龍`, §0).
struct KifPiece(PieceKind);

impl fmt::Display for KifPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(move_name(self.0))
    }
}

/// board-core's reason in KIF's words: pieces named as KIF names them,
/// squares as `７六`, sides as 先手/後手 with their ▲/△ marks.
pub(crate) struct KifReason<'r>(pub(crate) &'r IllegalReason);

impl fmt::Display for KifReason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use IllegalReason as R;
        let sq = KifSquare;
        let piece = KifPiece;
        match *self.0 {
            R::WrongSide { to_move } => {
                let mark = match to_move {
                    Color::Black => '▲',
                    Color::White => '△',
                };
                let side = side_name(to_move, false);
                write!(f, "it is {side}'s ({mark}) turn")
            }
            R::NoPiece { square } => write!(f, "no piece on {}", sq(square)),
            R::OpponentPiece { square } => {
                write!(f, "the piece on {} belongs to the opponent", sq(square))
            }
            R::PieceMismatch {
                square,
                on_board,
                named,
            } => write!(
                f,
                "names {} but {} stands on {}",
                piece(named),
                piece(on_board),
                sq(square)
            ),
            R::Unpromotion { square } => {
                write!(f, "a promoted piece cannot unpromote ({})", sq(square))
            }
            R::NotInHand { kind } => write!(f, "no {} in hand", piece(kind)),
            R::DropOnOccupied { square } => write!(f, "cannot drop on occupied {}", sq(square)),
            R::CaptureOwnPiece { square } => write!(f, "own piece on {}", sq(square)),
            R::Unreachable { kind, from, to } => write!(
                f,
                "the {} on {} cannot reach {}",
                piece(kind),
                sq(from),
                sq(to)
            ),
            R::CannotPromote { kind } => write!(f, "a {} cannot promote", piece(kind)),
            R::PromotionOutsideZone { from, to } => write!(
                f,
                "promotion outside the promotion zone ({} to {})",
                sq(from),
                sq(to)
            ),
            R::DeadPiece { square } => write!(
                f,
                "a piece on {} would have no move (promotion compulsory / drop impossible)",
                sq(square)
            ),
            R::Nifu { file } => {
                let file = FW_DIGITS[usize::from(file.clamp(1, 9)) - 1];
                write!(f, "two pawns on file {file} (二歩)")
            }
            R::PawnDropMate { square } => {
                write!(
                    f,
                    "pawn drop on {} would checkmate (打ち歩詰め)",
                    sq(square)
                )
            }
            ref other => write!(f, "{other}"),
        }
    }
}

/// board-core's diagram error in KIF's words (pieces `歩`, squares `７六`,
/// sides 先手/後手).
struct KifSetup<'e>(&'e SetupError);

impl fmt::Display for KifSetup<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self.0 {
            SetupError::TooManyPieces { kind, count, max } => {
                write!(f, "too many {} ({count}, at most {max})", KifPiece(kind))
            }
            SetupError::TooManyKings { color } => {
                write!(f, "{} has more than one king", side_name(color, false))
            }
            SetupError::DeadPiece { square } => {
                write!(
                    f,
                    "dead piece on {}: it could never move",
                    KifSquare(square)
                )
            }
            SetupError::Nifu { color, file } => {
                let file = FW_DIGITS[usize::from(file.clamp(1, 9)) - 1];
                let side = side_name(color, false);
                write!(f, "two {side} pawns on file {file} (二歩)")
            }
            ref other => write!(f, "{other}"),
        }
    }
}

/// One of the legal moves an ambiguous KI2 move fits
/// ([`MoveProblem::Ambiguous`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Its KI2 text with the words that single it out (`５八金右`,
    /// §2.1), as the KI2 writer writes it.
    pub ki2: String,
}

impl fmt::Display for Candidate {
    /// The KI2 text and the origin in KIF's form: `５八金右(49)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.ki2)?;
        if let Some(from) = self.mv.from() {
            write!(f, "({}{})", from.file(), from.rank())?;
        }
        Ok(())
    }
}

/// Why a well-formed move is not the move of its position.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// them apart, §2.1): every one of them, in board-core's legal-move
    /// order, each with the KI2 text that would name it alone.
    Ambiguous {
        /// The legal moves that fit (two or more).
        candidates: Vec<Candidate>,
    },
}

impl fmt::Display for MoveProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveProblem::Illegal(r) => write!(f, "{}", KifReason(r)),
            MoveProblem::WrongPiece {
                named,
                on_board: Some(k),
            } => {
                write!(
                    f,
                    "names {} but {} stands on the origin",
                    KifPiece(*named),
                    KifPiece(*k)
                )
            }
            MoveProblem::WrongPiece {
                named,
                on_board: None,
            } => {
                write!(f, "names {} but the origin is empty", KifPiece(*named))
            }
            MoveProblem::SameWithoutPrevious => f.write_str("同 without a previous move"),
            MoveProblem::NoSuchMove => f.write_str("no legal move fits"),
            MoveProblem::Ambiguous { candidates } => {
                write!(f, "ambiguous: {} legal moves fit:", candidates.len())?;
                for (i, c) in candidates.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { ", " })?;
                    write!(f, "{c}")?;
                }
                Ok(())
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
                let place = Ply {
                    ply: *ply,
                    depth: *depth,
                };
                write!(f, "{place}: {text}: {problem}")
            }
            GameProblem::UnsupportedHandicap(h) => write!(f, "unsupported handicap {h:?}"),
            GameProblem::IncompleteDiagram { rows } => {
                write!(f, "board diagram has {rows} rows, not 9")
            }
            GameProblem::Diagram(e) => write!(f, "board diagram: {}", KifSetup(e)),
            GameProblem::VariationWithoutMove { ply } => {
                write!(f, "variation at move {ply}, which no line has")
            }
        }
    }
}

impl Problem for GameProblem {
    const KIND: &'static str = "game";
}

/// A game that reads but means nothing playable: the format the text is
/// read as, where the line at fault starts (for a move: the move) and
/// what; displayed as `KIF game error at line 2, column 1 (byte 11): ply
/// 1: ７五歩(77): the 歩 on ７七 cannot reach ７五`.
pub type GameError = Located<GameProblem>;

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
    /// The format the text was read as (`None` for a decoding error: the
    /// text was not read).
    pub fn format(&self) -> Option<RecordFormat> {
        match self {
            ReadError::Decode(_) => None,
            ReadError::Syntax(e) => Some(e.format),
            ReadError::Game(e) => Some(e.format),
        }
    }

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
