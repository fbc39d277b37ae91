//! Typed decoding errors: which line kind, which field, which column.

use core::fmt;

/// A line could not be decoded.
///
/// Names the line kind (the command or reply keyword, e.g. `"LOGIN"`,
/// `"%%SETBUOY"`, `"##[WHO]"`, `"Game_Summary Total_Time"`), the field that
/// failed, and the 1-based byte column where the problem starts. The stream is
/// not affected: the next line decodes independently.
///
/// ```
/// use csa_protocol::{decode_client_line, Problem};
///
/// let err = decode_client_line(b"LOGIN bad/name pass").unwrap_err();
/// assert_eq!((err.line, err.field, err.column), ("LOGIN", "name", 10));
/// assert_eq!(err.problem, Problem::InvalidByte(b'/'));
/// assert_eq!(
///     err.to_string(),
///     "LOGIN: field `name` at column 10: invalid byte '/' (0x2f)"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{line}: field `{field}` at column {column}: {problem}")]
#[non_exhaustive]
pub struct DecodeError {
    /// The kind of line (its keyword), e.g. `"LOGIN"` or `"##[GETBUOYCOUNT]"`.
    pub line: &'static str,
    /// The field that failed, e.g. `"name"`, `"password"`, `"count"`.
    pub field: &'static str,
    /// 1-based byte column in the line where the failing field (or the
    /// offending byte) starts; one past the end for a missing field.
    pub column: usize,
    /// What is wrong.
    pub problem: Problem,
}

impl DecodeError {
    pub(crate) const fn new(
        line: &'static str,
        field: &'static str,
        offset: usize,
        problem: Problem,
    ) -> Self {
        Self {
            line,
            field,
            column: offset + 1,
            problem,
        }
    }
}

/// What is wrong with a field. See [`DecodeError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The field is absent.
    Missing,
    /// The field is present but empty.
    Empty,
    /// The field is longer than `max` bytes.
    TooLong {
        /// Maximum length in bytes.
        max: usize,
    },
    /// A byte not allowed in this field.
    InvalidByte(u8),
    /// Bytes follow where the line should have ended.
    Trailing,
    /// The field does not have the required form; the text says which.
    Expected(&'static str),
    /// The field is not valid UTF-8 where text is required.
    NotUtf8,
    /// A number does not fit or is outside the allowed range.
    OutOfRange,
    /// Malformed CSA move notation (board-core's reason).
    CsaMove(board_core::shogi::ParseCsaMoveError),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Missing => f.write_str("missing"),
            Problem::Empty => f.write_str("empty"),
            Problem::TooLong { max } => write!(f, "longer than {max} bytes"),
            Problem::InvalidByte(b) if b.is_ascii_graphic() || *b == b' ' => {
                write!(f, "invalid byte '{}' (0x{b:02x})", *b as char)
            }
            Problem::InvalidByte(b) => write!(f, "invalid byte 0x{b:02x}"),
            Problem::Trailing => f.write_str("unexpected trailing bytes"),
            Problem::Expected(what) => write!(f, "expected {what}"),
            Problem::NotUtf8 => f.write_str("not valid UTF-8"),
            Problem::OutOfRange => f.write_str("number out of range"),
            Problem::CsaMove(e) => write!(f, "{e}"),
        }
    }
}

/// A value could not be constructed because it would not encode to a valid
/// line (see the constructor that returned it for the rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid {what}: {problem} at byte {offset}")]
#[non_exhaustive]
pub struct ValueError {
    /// The kind of value, e.g. `"user name"`.
    pub what: &'static str,
    /// 0-based byte offset of the problem in the given text.
    pub offset: usize,
    /// What is wrong.
    pub problem: Problem,
}
