//! USI move notation: `7g7f`, `8h2b+`, `P*5e`.

use core::str::FromStr;

use super::legality::IllegalReason;
use super::position::Position;
use super::types::{Move, PieceKind, Square};

/// Malformed USI move text (syntax only; legality is
/// [`IllegalReason`]). Positions are 0-based byte offsets in the text
/// ([`ParseUsiMoveError::offset`]); `Display` says "at byte N".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseUsiMoveError {
    /// Not 4 or 5 bytes long (`7g7f`, `8h2b+`, `P*5e`).
    #[error("USI move: {len} bytes, expected 4 (7g7f, P*5e) or 5 (8h2b+)")]
    Length {
        /// The length found.
        len: usize,
    },
    /// A byte that does not fit the position it is in.
    #[error("USI move at byte {offset}: unexpected {found:?}, expected {expected}")]
    UnexpectedChar {
        /// 0-based byte offset of the byte.
        offset: usize,
        /// What was there (a byte outside ASCII is shown as U+0080..=U+00FF,
        /// the byte's value).
        found: char,
        /// What fits there.
        expected: &'static str,
    },
}

impl ParseUsiMoveError {
    /// The 0-based byte offset of the offending byte; `None` for
    /// [`Length`](ParseUsiMoveError::Length) (the whole text is too short
    /// or too long: `len` says how long).
    pub fn offset(&self) -> Option<usize> {
        match *self {
            ParseUsiMoveError::Length { .. } => None,
            ParseUsiMoveError::UnexpectedChar { offset, .. } => Some(offset),
        }
    }
}

fn unexpected(bytes: &[u8], i: usize, expected: &'static str) -> ParseUsiMoveError {
    ParseUsiMoveError::UnexpectedChar {
        offset: i,
        found: bytes[i] as char,
        expected,
    }
}

fn usi_square(bytes: &[u8], i: usize) -> Result<Square, ParseUsiMoveError> {
    let f = bytes[i];
    if !(b'1'..=b'9').contains(&f) {
        return Err(unexpected(bytes, i, "a file digit 1-9"));
    }
    let r = bytes[i + 1];
    if !(b'a'..=b'i').contains(&r) {
        return Err(unexpected(bytes, i + 1, "a rank letter a-i"));
    }
    Ok(Square::new(f - b'0', r - b'a' + 1).unwrap_or_default())
}

impl Move {
    /// Parses USI move text (no position needed: the text says everything).
    /// Drops use an uppercase letter `P L N S G B R`, as the USI protocol
    /// specifies.
    ///
    /// # Errors
    ///
    /// [`ParseUsiMoveError::Length`] unless the text is 4 or 5 bytes (a
    /// drop 4); [`ParseUsiMoveError::UnexpectedChar`] with its 0-based byte
    /// for a file not 1-9, a rank not a-i, a drop letter not `P L N S G B
    /// R`, a piece letter without `*` after it, or a fifth byte other than
    /// `+`.
    ///
    /// ```
    /// use board_core::shogi::Move;
    /// assert_eq!(Move::from_usi("8h2b+")?.to_string(), "8h2b+");
    /// assert!(Move::from_usi("P*5e")?.is_drop());
    /// # Ok::<(), board_core::shogi::ParseUsiMoveError>(())
    /// ```
    pub fn from_usi(text: &str) -> Result<Move, ParseUsiMoveError> {
        Move::from_usi_bytes(text.as_bytes())
    }

    /// [`Move::from_usi`] on bytes.
    ///
    /// # Errors
    ///
    /// As [`Move::from_usi`].
    pub fn from_usi_bytes(bytes: &[u8]) -> Result<Move, ParseUsiMoveError> {
        if bytes.len() != 4 && bytes.len() != 5 {
            return Err(ParseUsiMoveError::Length { len: bytes.len() });
        }
        if bytes[1] == b'*' {
            let kind = match PieceKind::from_sfen_letter(bytes[0]) {
                Some(k) if k != PieceKind::King && bytes[0].is_ascii_uppercase() => k,
                _ => return Err(unexpected(bytes, 0, "a drop letter P L N S G B R")),
            };
            let to = usi_square(bytes, 2)?;
            if bytes.len() == 5 {
                return Err(ParseUsiMoveError::Length { len: 5 });
            }
            return Ok(Move::drop(kind, to).unwrap_or_default());
        }
        if !bytes[0].is_ascii_digit() && bytes[0].is_ascii_alphabetic() {
            // A letter in column 1 must be a drop: then column 2 must be '*'.
            if PieceKind::from_sfen_letter(bytes[0]).is_some() {
                return Err(unexpected(bytes, 1, "'*' after a drop letter"));
            }
        }
        let from = usi_square(bytes, 0)?;
        let to = usi_square(bytes, 2)?;
        let promote = match bytes.get(4) {
            None => false,
            Some(b'+') => true,
            Some(_) => return Err(unexpected(bytes, 4, "'+' or nothing")),
        };
        Ok(Move::normal(from, to, promote))
    }
}

impl FromStr for Move {
    type Err = ParseUsiMoveError;
    fn from_str(s: &str) -> Result<Move, ParseUsiMoveError> {
        Move::from_usi(s)
    }
}

/// Move text that is either malformed or illegal in the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError<E> {
    /// The text is malformed.
    #[error(transparent)]
    Syntax(E),
    /// The text is a move, but not a legal one here.
    #[error(transparent)]
    Illegal(IllegalReason),
}

impl Position {
    /// Parses a USI move and checks it against this position.
    ///
    /// # Errors
    ///
    /// [`MoveTextError::Syntax`] with the [`ParseUsiMoveError`] of
    /// [`Move::from_usi`], or [`MoveTextError::Illegal`] with the
    /// [`IllegalReason`] that says why the move is not legal here.
    pub fn parse_usi(&self, text: &str) -> Result<Move, MoveTextError<ParseUsiMoveError>> {
        let mv = Move::from_usi(text).map_err(MoveTextError::Syntax)?;
        self.check_move(mv).map_err(MoveTextError::Illegal)?;
        Ok(mv)
    }
}
