//! Decode errors of the engine-side codecs ([`crate::usi`],
//! [`crate::uci`], [`crate::hub`]): the message kind, the field, the 0-based byte offset in
//! the line and what is wrong, as in the protocol crates.

use core::fmt;

/// A line from an engine that does not decode.
///
/// `Display`: `"<message> <field> at byte <offset>: <problem>"`; `offset`
/// is the first bad byte (0-based, line end excluded), or the line's
/// length for a field that is missing or cut off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{message} {field} at byte {offset}: {problem}")]
#[non_exhaustive]
pub struct DecodeError {
    /// The kind of line (from its first word).
    pub message: MessageKind,
    /// The field at fault.
    pub field: Field,
    /// 0-based byte offset in the line.
    pub offset: usize,
    /// What is wrong.
    pub problem: Problem,
}

impl DecodeError {
    /// An error at `offset`.
    pub fn new(message: MessageKind, field: Field, offset: usize, problem: Problem) -> Self {
        Self {
            message,
            field,
            offset,
            problem,
        }
    }
}

/// The kinds of engine output lines the codecs read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MessageKind {
    /// USI `usiok`.
    UsiOk,
    /// UCI `uciok`.
    UciOk,
    /// USI and UCI `readyok`.
    ReadyOk,
    /// USI and UCI `id name ...` / `id author ...`.
    Id,
    /// USI and UCI `option name ...`.
    Option,
    /// USI and UCI `bestmove ...`.
    BestMove,
    /// USI and UCI `info ...`.
    Info,
    /// Hub `id ...`.
    HubId,
    /// Hub `param ...`.
    HubParam,
    /// Hub `wait`.
    HubWait,
    /// Hub `ready`.
    HubReady,
    /// Hub `done move=... [ponder=...]`.
    HubDone,
    /// Hub `info ...`.
    HubInfo,
    /// Hub `error ...`.
    HubError,
    /// A line whose first word is not read (an empty line).
    Line,
}

impl fmt::Display for MessageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MessageKind::UsiOk => "usiok",
            MessageKind::UciOk => "uciok",
            MessageKind::ReadyOk => "readyok",
            MessageKind::Id => "id",
            MessageKind::Option => "option",
            MessageKind::BestMove => "bestmove",
            MessageKind::Info => "info",
            MessageKind::HubId => "hub id",
            MessageKind::HubParam => "hub param",
            MessageKind::HubWait => "hub wait",
            MessageKind::HubReady => "hub ready",
            MessageKind::HubDone => "hub done",
            MessageKind::HubInfo => "hub info",
            MessageKind::HubError => "hub error",
            MessageKind::Line => "line",
        })
    }
}

/// The fields of engine lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// The first word.
    Keyword,
    /// A move (`bestmove`'s, `done move=`).
    Move,
    /// The `ponder` move.
    Ponder,
    /// A number after an `info` keyword (`depth 12`).
    Number,
    /// `score cp N` / `score mate N`.
    Score,
    /// A move of the principal variation.
    Pv,
    /// A `key=value` pair of a Hub line.
    Pair,
    /// Bytes after the last field.
    Trailing,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Keyword => "keyword",
            Field::Move => "move",
            Field::Ponder => "ponder move",
            Field::Number => "number",
            Field::Score => "score",
            Field::Pv => "pv move",
            Field::Pair => "key=value pair",
            Field::Trailing => "end",
        })
    }
}

/// What a field takes (in [`Problem::Invalid`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// A decimal digit (or a sign first).
    Digit,
    /// A space between fields.
    Space,
    /// A USI move (`7g7f`, `8h2b+`, `P*5e`), `resign` or `win`.
    UsiMove,
    /// A UCI move (`e2e4`, `e7e8q`) or `(none)` / `0000`.
    UciMove,
    /// A Hub move (`32-28`, `28x19`, `28x37x19`, squares 1..=50).
    HubMove,
    /// `cp`, `mate` (USI also `mate +`, `mate -`).
    ScoreKind,
    /// `=` between a Hub key and its value.
    Equals,
    /// A closing `"` of a quoted Hub value.
    Quote,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Digit => "a digit",
            Expected::Space => "a space",
            Expected::UsiMove => "a USI move (7g7f, 8h2b+, P*5e), resign or win",
            Expected::UciMove => "a UCI move (e2e4, e7e8q) or (none)",
            Expected::HubMove => "a Hub move (32-28, 28x19, 28x37x19)",
            Expected::ScoreKind => "cp or mate",
            Expected::Equals => "'='",
            Expected::Quote => "a closing '\"'",
        })
    }
}

/// What is wrong with a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Problem {
    /// The line is empty.
    Empty,
    /// The field is absent or cut off.
    Missing,
    /// A byte the field does not take.
    Invalid {
        /// The byte.
        byte: u8,
        /// What the field takes.
        expected: Expected,
    },
    /// A number out of range (saturated at `u32::MAX`; negative numbers
    /// are shown as 0).
    OutOfRange {
        /// The value.
        value: u32,
        /// Smallest allowed.
        min: u32,
        /// Largest allowed.
        max: u32,
    },
    /// Bytes after the last field.
    Trailing {
        /// How many.
        count: usize,
    },
    /// The line is longer than the cap.
    TooLong {
        /// Its length.
        len: usize,
        /// The cap.
        max: usize,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::Empty => f.write_str("empty"),
            Problem::Missing => f.write_str("missing"),
            Problem::Invalid { byte, expected } => {
                write!(f, "expected {expected}, found ")?;
                if byte.is_ascii_graphic() || byte == b' ' {
                    write!(f, "'{}'", byte as char)
                } else {
                    write!(f, "0x{byte:02x}")
                }
            }
            Problem::OutOfRange { value, min, max } => {
                write!(f, "{value} out of range ({min}..={max})")
            }
            Problem::Trailing { count } => write!(f, "{count} unexpected bytes at the end"),
            Problem::TooLong { len, max } => write!(f, "{len} bytes, at most {max}"),
        }
    }
}

/// A value that cannot be sent to an engine (an option name or value
/// with a line end in it, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// Empty.
    #[error("empty")]
    Empty,
    /// A byte the value may not hold (a line end, a NUL; a space in a
    /// USI/UCI option name is allowed, in a Hub key it is not).
    #[error("byte 0x{byte:02x} at {offset} is not allowed here")]
    Byte {
        /// The byte.
        byte: u8,
        /// Its 0-based offset.
        offset: usize,
    },
}
