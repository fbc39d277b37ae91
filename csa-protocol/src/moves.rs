//! CSA moves on the wire. The move notation itself (`+7776FU`: sign, from or
//! `00` for a drop, to, piece after the move) belongs to `board-core`
//! (board-core owns the games' notations): this module only cuts the 7-byte token out of a
//! line and maps the notation error to a [`DecodeError`].

use alloc::borrow::Cow;
use core::fmt;

pub use board_core::shogi::{CsaMove, ParseCsaMoveError};

/// 0-based byte offset within the 7-byte token of a notation error.
pub(crate) fn move_error_offset(e: &ParseCsaMoveError) -> usize {
    match e {
        ParseCsaMoveError::Length { len } => (*len).min(MOVE_LEN),
        ParseCsaMoveError::UnexpectedChar { offset, .. } => *offset,
        ParseCsaMoveError::UnknownPiece | ParseCsaMoveError::NotDroppable { .. } => 5,
        _ => 0,
    }
}

use crate::error::{Expected, Problem};

/// The shared [`Problem`] for a notation error in `tok` (the move token,
/// at most 7 bytes): a cut-off token is [`Problem::Missing`], a wrong byte
/// [`Problem::Invalid`] as everywhere else, a longer one
/// [`Problem::Trailing`]; an unknown piece code is
/// [`Problem::UnknownPiece`], a drop of a promoted piece or a king
/// [`Problem::NotDroppable`].
pub(crate) fn move_problem(e: ParseCsaMoveError, tok: &[u8]) -> Problem {
    match e {
        ParseCsaMoveError::Length { len } if len < MOVE_LEN => Problem::Missing,
        ParseCsaMoveError::UnexpectedChar { offset, .. } if offset < tok.len() => {
            Problem::Invalid {
                byte: tok[offset],
                expected: match offset {
                    0 => Expected::MoveSign,
                    1 | 2 => Expected::MoveOrigin,
                    _ => Expected::MoveDestination,
                },
            }
        }
        ParseCsaMoveError::Length { len } => Problem::Trailing {
            count: len.saturating_sub(MOVE_LEN),
        },
        ParseCsaMoveError::UnknownPiece if tok.len() >= MOVE_LEN => Problem::UnknownPiece {
            code: [tok[5], tok[6]],
        },
        ParseCsaMoveError::NotDroppable { .. } if tok.len() >= MOVE_LEN => Problem::NotDroppable {
            code: [tok[5], tok[6]],
        },
        ParseCsaMoveError::UnexpectedChar { offset, .. } => Problem::Invalid {
            byte: tok.get(offset).copied().unwrap_or(0),
            expected: Expected::PieceCode,
        },
        _ => Problem::Invalid {
            byte: tok.get(5).copied().unwrap_or(0),
            expected: Expected::PieceCode,
        },
    }
}
use crate::types::Side;

/// Length in bytes of a CSA move token such as `+7776FU`.
pub const MOVE_LEN: usize = 7;

/// The side (sign) of a CSA move.
pub fn move_side(mv: &CsaMove) -> Side {
    Side::from(mv.color())
}

/// The set-up moves of `%%SETBUOY`: CSA moves written one after another
/// without separator (`+7776FU-3334FU`), each checked as notation (not yet
/// against a board). At least one, at most [`BuoyMoves::MAX_MOVES`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BuoyMoves<'a>(Cow<'a, str>);

impl<'a> BuoyMoves<'a> {
    /// Maximum number of moves.
    pub const MAX_MOVES: usize = 1024;

    /// Wraps already-checked text (the parser's use only).
    pub(crate) fn from_checked(s: &'a str) -> Self {
        Self(Cow::Borrowed(s))
    }

    /// Builds the field from moves.
    ///
    /// # Errors
    /// [`crate::error::ValueError`] when `moves` is empty or longer than
    /// [`Self::MAX_MOVES`].
    pub fn new(moves: &[CsaMove]) -> Result<BuoyMoves<'static>, crate::error::ValueError> {
        if moves.is_empty() || moves.len() > Self::MAX_MOVES {
            return Err(crate::error::ValueError::new(
                crate::error::ValueKind::BuoyMoves,
                0,
                if moves.is_empty() {
                    Problem::Empty
                } else {
                    Problem::TooLong {
                        len: moves.len(),
                        max: Self::MAX_MOVES,
                    }
                },
            ));
        }
        let mut s = alloc::string::String::with_capacity(moves.len() * MOVE_LEN);
        for m in moves {
            use fmt::Write as _;
            let _ = write!(s, "{m}");
        }
        Ok(BuoyMoves(Cow::Owned(s)))
    }

    /// The moves, in order.
    pub fn iter(&self) -> impl Iterator<Item = CsaMove> + '_ {
        // Validated at construction: every chunk parses.
        self.0
            .as_bytes()
            .chunks(MOVE_LEN)
            .filter_map(|c| CsaMove::parse(c).ok())
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.0.len() / MOVE_LEN
    }

    /// Always `false` (at least one move); present for API symmetry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The field text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The same value with owned text.
    pub fn into_owned(self) -> BuoyMoves<'static> {
        BuoyMoves(Cow::Owned(self.0.into_owned()))
    }
}

impl fmt::Display for BuoyMoves<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for BuoyMoves<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}
