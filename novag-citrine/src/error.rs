//! Error types: syntax errors of lines ([`DecodeError`]), invalid values
//! ([`ValueError`]).

use core::fmt;

/// Which field of a line failed to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// The leading keyword (`M`, `Clock`, `Level`, ...) or the command letter.
    Keyword,
    /// A move number (`1..=9999`).
    MoveNumber,
    /// A move (`e2-e4`, `Ng1-f3`, `f4xe5`, `O-O`, `d7-d8/N`, `e5xd6ep`).
    Move,
    /// A square `a1..=h8`.
    Square,
    /// The promotion suffix `/Q /R /B /N`.
    Promotion,
    /// A clock reading `hh:mm:ss`.
    Clock,
    /// The move count after `Game`.
    GameCount,
    /// The model/version after `ID`.
    Identity,
    /// A level (`tr 1`, `sd 5`, `CITRINE 5`, `TR1`, ...).
    Level,
    /// The side after `Flip -->`.
    Flip,
    /// `on`/`off` after `Xmit`, `.Referee`, `X`, `U`.
    Switch,
    /// A cell of a `Position Board` diagram rank.
    DiagramCell,
    /// The set-up text after `P`.
    SetUp,
    /// Input after the last field.
    Trailing,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Keyword => "keyword",
            Field::MoveNumber => "move number",
            Field::Move => "move",
            Field::Square => "square",
            Field::Promotion => "promotion piece",
            Field::Clock => "clock",
            Field::GameCount => "game move count",
            Field::Identity => "identity",
            Field::Level => "level",
            Field::Flip => "flip side",
            Field::Switch => "on/off switch",
            Field::DiagramCell => "diagram cell",
            Field::SetUp => "set-up text",
            Field::Trailing => "end of line",
        })
    }
}

/// What was wrong with the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The line ended where the field was expected.
    Missing,
    /// An unexpected byte.
    Invalid,
    /// A number outside its range.
    OutOfRange,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::Missing => "missing",
            ErrorKind::Invalid => "invalid",
            ErrorKind::OutOfRange => "out of range",
        })
    }
}

/// A line that starts like a known reply or command but does not decode.
///
/// `column` is the 1-based byte column in the line (terminator excluded)
/// where the failing field starts or the unexpected byte is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{kind} {field} at column {column}")]
pub struct DecodeError {
    /// The field that failed.
    pub field: Field,
    /// 1-based byte column in the line.
    pub column: usize,
    /// What was wrong.
    pub kind: ErrorKind,
}

/// A value rejected by a validated constructor (`MoveNumber::new`,
/// `ClockTime::new`, `Level::new`, `Text::new`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// A number outside `min..=max`.
    #[error("{what} {value} outside {min}..={max}")]
    OutOfRange {
        /// Which value.
        what: &'static str,
        /// The rejected value.
        value: u32,
        /// Smallest allowed.
        min: u32,
        /// Largest allowed.
        max: u32,
    },
    /// A text with a byte that cannot appear there (CR, LF, control bytes,
    /// whitespace inside a token, non-ASCII), at byte `offset`.
    #[error("{what}: byte {byte:#04x} not allowed at offset {offset}")]
    BadByte {
        /// Which value.
        what: &'static str,
        /// The rejected byte.
        byte: u8,
        /// 0-based offset in the text.
        offset: usize,
    },
    /// An empty text where at least one byte is needed.
    #[error("{what}: empty")]
    Empty {
        /// Which value.
        what: &'static str,
    },
    /// A text longer than the cap.
    #[error("{what}: {len} bytes, at most {max}")]
    TooLong {
        /// Which value.
        what: &'static str,
        /// Its length in bytes.
        len: usize,
        /// The cap in bytes.
        max: usize,
    },
}
