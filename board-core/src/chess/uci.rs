//! UCI move notation: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
//!
//! Two steps with separate errors: [`UciMove::from_str`](core::str::FromStr)
//! checks the syntax only ([`ParseUciError`]); [`UciMove::to_move`] finds
//! the legal move it denotes in a position ([`IllegalMoveError`]).
//! [`Position::parse_uci`] does both ([`UciError`]).
//!
//! The null move `0000` is not a move of any position and is reported as a
//! syntax error ([`ParseUciErrorKind::NullMove`]). Chess960-style castling
//! (`e1h1`, king takes own rook) is not standard UCI and is not accepted.

use core::fmt;
use core::str::FromStr;

use super::legality::{CastlingProblem, castling_squares, kind_name};
use super::position::Position;
use super::types::{CastlingSide, File, Move, MoveKind, PieceKind, Rank, Square};

/// A move as written in UCI: from, to, optional promotion. Syntax only; it
/// may not be legal (or even possible) in any position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece reaches.
    pub to: Square,
    /// The promotion kind (`n`, `b`, `r`, `q` in the text).
    pub promotion: Option<PieceKind>,
}

/// What is wrong with a UCI move's text (see [`ParseUciError`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseUciErrorKind {
    /// Fewer than 4 characters.
    #[error("too short (expected 4 or 5 characters)")]
    TooShort,
    /// More than 5 characters.
    #[error("too long (expected 4 or 5 characters)")]
    TooLong,
    /// Not a file letter `a`..=`h`.
    #[error("expected a file a-h")]
    InvalidFile,
    /// Not a rank digit `1`..=`8`.
    #[error("expected a rank 1-8")]
    InvalidRank,
    /// The fifth character is not `n`, `b`, `r` or `q`.
    #[error("expected a promotion piece n, b, r or q")]
    InvalidPromotion,
    /// `0000`, the UCI null move, which no position accepts.
    #[error("the null move 0000 is not supported")]
    NullMove,
}

/// A UCI move's text is malformed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid UCI move at byte {offset}: {kind}")]
pub struct ParseUciError {
    /// Byte offset of the offending character (the length for `TooShort`).
    pub offset: usize,
    /// What is wrong.
    pub kind: ParseUciErrorKind,
}

/// A well-formed UCI move that is not legal in the position, and why: the
/// text as read and the [`IllegalReason`].
///
/// `IllegalMoveError` means this in every game that has one (draughts:
/// PDN text, [`draughts::IllegalMoveError`](crate::draughts::IllegalMoveError));
/// why a [`Move`] value is illegal is [`IllegalReason`] alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("illegal move {uci}: {reason}")]
pub struct IllegalMoveError {
    /// The move as given.
    pub uci: UciMove,
    /// Why it is not legal.
    pub reason: IllegalReason,
}

/// Why a move is not legal in a position: of UCI text ([`IllegalMoveError`],
/// the first five variants and [`IllegalReason::Castling`]) or of a [`Move`]
/// value ([`Position::check_move`], [`PlayError`](super::PlayError), all).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalReason {
    /// No piece stands on the origin square.
    NoPiece,
    /// The piece on the origin square is the opponent's.
    OpponentPiece,
    /// The move promotes a pawn and needs the piece letter (`e7e8q`).
    PromotionMissing,
    /// A promotion letter on a move that does not promote.
    NotAPromotion,
    /// The piece on the origin square (of this kind) has no legal move to
    /// the target square: it does not move so, something is in the way,
    /// or (UCI text only; [`Position::check_move`] reports
    /// [`IllegalReason::LeavesKingInCheck`]) the move would leave or keep
    /// its king in check (`in_check`: the king is in check now).
    NoSuchMove {
        /// The piece that would move.
        kind: PieceKind,
        /// The side to move is in check.
        in_check: bool,
    },
    /// The move's flag does not fit the piece: en passant or promotion on
    /// a piece that is not a pawn, castling on a piece that is not the
    /// king (only from a [`Move`] value: [`Position::check_move`]).
    WrongKind {
        /// The piece on the origin square.
        kind: PieceKind,
        /// The move's flag.
        move_kind: MoveKind,
    },
    /// A legal move joins the same two squares but with another flag (a
    /// king's `e1g1` not flagged as castling, a capture onto the en passant
    /// square not flagged as en passant, or the reverse; only from a
    /// [`Move`] value: [`Position::check_move`]).
    KindMismatch {
        /// The flag of the move given.
        given: MoveKind,
        /// The flag of the legal move between these squares.
        legal: MoveKind,
    },
    /// Castling on `side` is not allowed now, and why.
    Castling {
        /// Which castling.
        side: CastlingSide,
        /// Why not.
        problem: CastlingProblem,
    },
    /// The piece moves so, but the move would leave (or put) its own king
    /// in check (only from a [`Move`] value: [`Position::check_move`]; UCI
    /// text reports [`IllegalReason::NoSuchMove`]).
    LeavesKingInCheck {
        /// The piece that would move.
        kind: PieceKind,
        /// The piece is pinned to its king.
        pinned: bool,
        /// The side to move is in check now.
        in_check: bool,
    },
}

/// `"an en passant capture"`, `"king side castling"`, ...
fn describe(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Normal => "a plain move",
        MoveKind::EnPassant => "an en passant capture",
        MoveKind::Castle(CastlingSide::KingSide) => "king side castling",
        MoveKind::Castle(CastlingSide::QueenSide) => "queen side castling",
        MoveKind::Promotion(_) => "a promotion",
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::NoPiece => f.write_str("no piece on the origin square"),
            IllegalReason::OpponentPiece => {
                f.write_str("the piece on the origin square is the opponent's")
            }
            IllegalReason::PromotionMissing => {
                f.write_str("a promotion needs its piece letter (e7e8q)")
            }
            IllegalReason::NotAPromotion => {
                f.write_str("a promotion letter on a move that does not promote")
            }
            IllegalReason::NoSuchMove { kind, in_check } => {
                let name = kind_name(*kind);
                write!(f, "the {name} has no legal move to that square")?;
                if *in_check {
                    f.write_str(" (the king is in check)")?;
                }
                Ok(())
            }
            IllegalReason::WrongKind { kind, move_kind } => {
                let name = kind_name(*kind);
                match move_kind {
                    MoveKind::Castle(_) => write!(f, "a {name} cannot castle (only the king)"),
                    MoveKind::Promotion(_) => write!(f, "a {name} cannot promote (only a pawn)"),
                    _ => write!(f, "a {name} cannot capture en passant (only a pawn)"),
                }
            }
            IllegalReason::KindMismatch { given, legal } => write!(
                f,
                "the legal move between these squares is {}, not {}",
                describe(*legal),
                describe(*given)
            ),
            IllegalReason::Castling { side, problem } => {
                write!(f, "{side} castling is not legal: {problem}")
            }
            IllegalReason::LeavesKingInCheck {
                kind,
                pinned,
                in_check,
            } => {
                let name = kind_name(*kind);
                if *kind == PieceKind::King {
                    f.write_str("the king would be in check there")
                } else if *pinned {
                    write!(f, "the {name} is pinned to its king")
                } else if *in_check {
                    write!(f, "the {name}'s move leaves the king in check")
                } else {
                    f.write_str("the move would leave the king in check")
                }
            }
        }
    }
}

/// [`Position::parse_uci`] failed: bad syntax or illegal here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum UciError {
    /// The text is not a UCI move.
    #[error(transparent)]
    Syntax(#[from] ParseUciError),
    /// The move is well formed but not legal in the position.
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
}

impl FromStr for UciMove {
    type Err = ParseUciError;

    fn from_str(s: &str) -> Result<UciMove, ParseUciError> {
        let b = s.as_bytes();
        let e = |offset, kind| ParseUciError { offset, kind };
        if s == "0000" {
            return Err(e(0, ParseUciErrorKind::NullMove));
        }
        let square = |i: usize| -> Result<Square, ParseUciError> {
            let file = match b.get(i) {
                Some(&c) => {
                    File::from_char(c as char).ok_or(e(i, ParseUciErrorKind::InvalidFile))?
                }
                None => return Err(e(b.len(), ParseUciErrorKind::TooShort)),
            };
            let rank = match b.get(i + 1) {
                Some(&c) => {
                    Rank::from_char(c as char).ok_or(e(i + 1, ParseUciErrorKind::InvalidRank))?
                }
                None => return Err(e(b.len(), ParseUciErrorKind::TooShort)),
            };
            Ok(Square::from_coords(file, rank))
        };
        let from = square(0)?;
        let to = square(2)?;
        let promotion = match b.get(4) {
            None => None,
            Some(b'n') => Some(PieceKind::Knight),
            Some(b'b') => Some(PieceKind::Bishop),
            Some(b'r') => Some(PieceKind::Rook),
            Some(b'q') => Some(PieceKind::Queen),
            Some(_) => return Err(e(4, ParseUciErrorKind::InvalidPromotion)),
        };
        if b.len() > 5 {
            return Err(e(5, ParseUciErrorKind::TooLong));
        }
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(kind) = self.promotion {
            use fmt::Write;
            f.write_char(kind.char())?;
        }
        Ok(())
    }
}

impl UciMove {
    /// The legal move of `position` this text denotes (castling is the
    /// king's two-square move, promotions need their letter).
    ///
    /// # Errors
    /// [`IllegalMoveError`] with the [`IllegalReason`]: `NoPiece`,
    /// `OpponentPiece`, `PromotionMissing`, `NotAPromotion`, `Castling`
    /// (the king's `e1g1`/`e1c1`/`e8g8`/`e8c8` when that castling is not
    /// allowed now) or `NoSuchMove`.
    pub fn to_move(&self, position: &Position) -> Result<Move, IllegalMoveError> {
        let legal = position.legal_moves();
        let same_squares = || {
            legal
                .iter()
                .filter(|mv| mv.from() == self.from && mv.to() == self.to)
        };
        if let Some(mv) = same_squares().find(|mv| mv.promotion() == self.promotion) {
            return Ok(*mv);
        }
        let reason = match position.piece_at(self.from) {
            None => IllegalReason::NoPiece,
            Some(p) if p.color != position.side_to_move() => IllegalReason::OpponentPiece,
            // Moves between these squares exist: all promotions (a pawn
            // reaching the last rank, any letter q/r/b/n would have
            // matched) or none.
            Some(_) if same_squares().next().is_some() => match self.promotion {
                None => IllegalReason::PromotionMissing,
                Some(_) => IllegalReason::NotAPromotion,
            },
            Some(p) => {
                let us = position.side_to_move();
                let castling = [CastlingSide::KingSide, CastlingSide::QueenSide]
                    .into_iter()
                    .find(|&side| castling_squares(us, side) == (self.from, self.to));
                match castling.filter(|_| p.kind == PieceKind::King) {
                    Some(side) => match position.castling_problem(side) {
                        Some(problem) => IllegalReason::Castling { side, problem },
                        None => IllegalReason::NoSuchMove {
                            kind: p.kind,
                            in_check: position.is_check(),
                        },
                    },
                    None => IllegalReason::NoSuchMove {
                        kind: p.kind,
                        in_check: position.is_check(),
                    },
                }
            }
        };
        Err(IllegalMoveError { uci: *self, reason })
    }
}

impl Position {
    /// Parses a UCI move (`e2e4`, `e7e8q`, `e1g1`) and finds it among the
    /// legal moves of this position.
    ///
    /// ```
    /// use board_core::chess::{Position, UciError};
    /// let pos = Position::startpos();
    /// let mv = pos.parse_uci("e2e4").unwrap();
    /// assert_eq!(mv.to_string(), "e2e4");
    /// assert!(matches!(pos.parse_uci("e2e5"), Err(UciError::Illegal(_))));
    /// assert!(matches!(pos.parse_uci("e2e9"), Err(UciError::Syntax(_))));
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        let uci: UciMove = text.parse()?;
        Ok(uci.to_move(self)?)
    }
}
