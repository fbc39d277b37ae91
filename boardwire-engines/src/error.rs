//! Decode errors of the engine-side codecs ([`crate::usi`],
//! [`crate::uci`], [`crate::hub`]): the message kind, the field, the 0-based byte offset in
//! the line and what is wrong, as in the protocol crates.

use core::fmt;

/// A line from an engine that does not decode.
///
/// `Display`: `"<message> <field> at byte <offset>: <problem>"`; `offset`
/// is the first bad byte (0-based, line end excluded), or the line's
/// length for a field that is missing or cut off.
pub type DecodeError = boardwire_proto::DecodeError<MessageKind, Field>;

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

/// What is wrong with a field, and what a field takes: the family's one
/// vocabulary (`boardwire_proto`), shared with the protocol crates.
pub use boardwire_proto::{Expected, Problem};

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
