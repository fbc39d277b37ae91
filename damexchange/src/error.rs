//! Error types: [`DecodeError`] (bytes that are not a valid message),
//! [`ValueError`] (a value that cannot be constructed), [`FrameError`] (a
//! frame the tokio codec could not turn into a message).
//!
//! [`Problem`] (what is wrong with a field) and [`Expected`] (what the
//! field takes) are the family's shared vocabulary, re-exported from
//! `boardwire-proto`: DXP produces the core variants and its own
//! `LeadingSpace`, `CaptureCount`, `DuplicateCapture`; a wrong header byte
//! is `Expected::Header(b'M')`.
//!
//! All are small `Copy` values that name the message, the field and (for
//! decoding) the 0-based byte offset inside the frame, counting the header
//! byte as offset 0 like the tables of [`spec::damexchange`](crate::spec::damexchange), *Messages*.

use core::fmt;

/// The seven DXP message types, named as in [`spec::damexchange`](crate::spec::damexchange),
/// *Messages*, and [`MessageKind::Unrecognised`] for a frame whose header
/// byte is none of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[non_exhaustive]
pub enum MessageKind {
    /// `R`: the initiator proposes a game.
    GameReq,
    /// `A`: the follower's answer to GAMEREQ.
    GameAcc,
    /// `M`: a move.
    Move,
    /// `E`: end of game.
    GameEnd,
    /// `C`: free text.
    Chat,
    /// `B`: take-back request.
    BackReq,
    /// `K`: answer to BACKREQ.
    BackAcc,
    /// A frame that is none of the seven (empty, or another header byte).
    Unrecognised,
}

impl MessageKind {
    /// The header byte that starts the message (`R`, `A`, `M`, `E`, `C`,
    /// `B`, `K`); `None` for [`MessageKind::Unrecognised`].
    pub const fn header(self) -> Option<u8> {
        Some(match self {
            MessageKind::GameReq => b'R',
            MessageKind::GameAcc => b'A',
            MessageKind::Move => b'M',
            MessageKind::GameEnd => b'E',
            MessageKind::Chat => b'C',
            MessageKind::BackReq => b'B',
            MessageKind::BackAcc => b'K',
            MessageKind::Unrecognised => return None,
        })
    }

    /// The message type for a header byte, if there is one.
    pub const fn from_header(header: u8) -> Option<MessageKind> {
        Some(match header {
            b'R' => MessageKind::GameReq,
            b'A' => MessageKind::GameAcc,
            b'M' => MessageKind::Move,
            b'E' => MessageKind::GameEnd,
            b'C' => MessageKind::Chat,
            b'B' => MessageKind::BackReq,
            b'K' => MessageKind::BackAcc,
            _ => return None,
        })
    }

    /// The spec's name: `GAMEREQ`, `GAMEACC`, `MOVE`, `GAMEEND`, `CHAT`,
    /// `BACKREQ`, `BACKACC` (`unrecognised message` for the others).
    pub const fn name(self) -> &'static str {
        match self {
            MessageKind::GameReq => "GAMEREQ",
            MessageKind::GameAcc => "GAMEACC",
            MessageKind::Move => "MOVE",
            MessageKind::GameEnd => "GAMEEND",
            MessageKind::Chat => "CHAT",
            MessageKind::BackReq => "BACKREQ",
            MessageKind::BackAcc => "BACKACC",
            MessageKind::Unrecognised => "unrecognised message",
        }
    }
}

impl fmt::Display for MessageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A field of a message, named as in the tables of
/// [`spec::damexchange`](crate::spec::damexchange), *Messages*.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[non_exhaustive]
pub enum Field {
    /// The header byte (offset 0 of every message).
    Header,
    /// GAMEREQ protocol version (offset 1, 2 digits).
    Version,
    /// GAMEREQ initiator name (offset 3, 32 bytes).
    InitiatorName,
    /// GAMEREQ follower's colour (offset 35).
    FollowerColor,
    /// GAMEREQ thinking time, minutes (offset 36, 3 digits).
    ThinkingTime,
    /// GAMEREQ number of moves in that time (offset 39, 3 digits).
    MovesLimit,
    /// GAMEREQ starting position indicator `A`/`B` (offset 42).
    StartingPosition,
    /// GAMEREQ side to move of a set-up position (offset 43).
    SideToMove,
    /// GAMEREQ board of a set-up position (offsets 44..=93).
    Board,
    /// GAMEACC follower name (offset 1, 32 bytes).
    FollowerName,
    /// GAMEACC acceptance code (offset 33).
    AcceptanceCode,
    /// MOVE time in seconds (offset 1, 4 digits).
    Time,
    /// MOVE from square (offset 5).
    From,
    /// MOVE to square (offset 7).
    To,
    /// MOVE number captured (offset 9).
    CaptureCount,
    /// MOVE captured squares (offset 11, 2 digits each).
    Captured,
    /// GAMEEND reason (offset 1).
    Reason,
    /// GAMEEND stop code (offset 2).
    StopCode,
    /// CHAT text (offset 1).
    Text,
    /// BACKREQ move number (offset 1, 3 digits).
    MoveNumber,
    /// BACKREQ colour to move (offset 4).
    Color,
    /// BACKACC acceptance code (offset 1).
    BackAccCode,
    /// Bytes after the last field.
    Trailing,
    /// A program name given to a constructor (not a wire field).
    Name,
    /// A square number given to a constructor (not a wire field).
    Square,
}

impl Field {
    /// The field's name as the spec's tables write it.
    pub const fn name(self) -> &'static str {
        match self {
            Field::Header => "header",
            Field::Version => "protocol version",
            Field::InitiatorName => "initiator name",
            Field::FollowerColor => "follower's colour",
            Field::ThinkingTime => "thinking time",
            Field::MovesLimit => "number of moves",
            Field::StartingPosition => "starting position",
            Field::SideToMove => "side to move",
            Field::Board => "board",
            Field::FollowerName => "follower name",
            Field::AcceptanceCode => "acceptance code",
            Field::Time => "time",
            Field::From => "from square",
            Field::To => "to square",
            Field::CaptureCount => "number captured",
            Field::Captured => "captured square",
            Field::Reason => "reason",
            Field::StopCode => "stop code",
            Field::Text => "text",
            Field::MoveNumber => "move number",
            Field::Color => "colour",
            Field::BackAccCode => "acceptance code",
            Field::Trailing => "end of message",
            Field::Name => "name",
            Field::Square => "square",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

pub(crate) use boardwire_proto::error::ShowByte;
pub use boardwire_proto::{Expected, Problem};

/// Why a frame is not a valid DXP message: which message, which field,
/// where (`offset`, the 0-based byte offset in the frame, header = 0,
/// terminating NUL excluded, matching the tables of
/// [`spec::damexchange`](crate::spec::damexchange), *Messages*), and what is wrong.
///
/// `Display` names all four: `"<message> <field> at byte <offset>: <problem>"`.
///
/// ```
/// use damexchange::error::{Field, MessageKind, Problem};
/// // Three captured squares announced, one sent: the second would start
/// // at byte 13, where the frame ends.
/// let err = damexchange::decode::<damexchange::Message>(b"M001205250322").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "MOVE captured square at byte 13: 03 captured but 1 square follows"
/// );
/// assert_eq!((err.message, err.field, err.offset), (MessageKind::Move, Field::Captured, 13));
/// assert_eq!(err.problem, Problem::CaptureCount { count: 3, following_bytes: 2 });
/// ```
pub type DecodeError = boardwire_proto::DecodeError<MessageKind, Field>;

/// A frame the tokio codec (`codec::DxpCodec`, feature `tokio`) or a
/// session's framer could not turn into a message: over-long (more than the
/// cap without a NUL; [`spec::damexchange`](crate::spec::damexchange),
/// *Transport (layer 1)*: 1..=127 bytes), malformed (a [`DecodeError`]), or
/// unterminated (the stream ended inside a frame). It is an *item* of the
/// stream (the stream goes on with the next frame), never the decoder's
/// error. The family's one type, with DXP's [`DecodeError`].
pub type FrameError = boardwire_proto::FrameError<DecodeError>;

/// Why a message value cannot be constructed (validation happens at
/// construction, so encoders cannot fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// A number outside its field's range.
    #[error("{field} {value} out of range {min}..={max}")]
    OutOfRange {
        /// The field.
        field: Field,
        /// The value given.
        value: u32,
        /// Lowest valid value.
        min: u32,
        /// Highest valid value.
        max: u32,
    },
    /// Text of the wrong length (bytes).
    #[error("{field} has {len} bytes, expected {min}..={max}")]
    Length {
        /// The field.
        field: Field,
        /// Its length in bytes.
        len: usize,
        /// Shortest valid length.
        min: usize,
        /// Longest valid length.
        max: usize,
    },
    /// A byte the field cannot hold (index into the value given).
    #[error("{field}: byte {} at index {index} not allowed", ShowByte(*byte))]
    InvalidByte {
        /// The field.
        field: Field,
        /// Index of the byte in the value.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// A name that starts or ends with a space.
    #[error("{field}: space at index {index} (names neither start nor end with a space)")]
    EdgeSpace {
        /// The field.
        field: Field,
        /// Index of the space.
        index: usize,
    },
    /// More than 20 captured squares.
    #[error("{count} captured squares, at most 20")]
    TooManyCaptures {
        /// How many were given.
        count: usize,
    },
    /// A captured square given twice.
    #[error("captured square {square} given twice")]
    DuplicateCapture {
        /// The square number.
        square: u8,
    },
}
