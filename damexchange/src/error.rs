//! Error types of the codec: [`DecodeError`] (bytes that are not a valid
//! message), [`ValueError`] (a value that cannot be constructed).
//!
//! Both are small `Copy` enums that name the message, the field and (for
//! decoding) the byte offset inside the message, counting the header byte as
//! offset 0 like the spec's tables.

use core::fmt;

/// The seven DXP message types, named as in the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
}

impl MessageKind {
    /// The header byte that starts the message (`R`, `A`, `M`, `E`, `C`, `B`, `K`).
    pub const fn header(self) -> u8 {
        match self {
            MessageKind::GameReq => b'R',
            MessageKind::GameAcc => b'A',
            MessageKind::Move => b'M',
            MessageKind::GameEnd => b'E',
            MessageKind::Chat => b'C',
            MessageKind::BackReq => b'B',
            MessageKind::BackAcc => b'K',
        }
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
    /// `BACKREQ`, `BACKACC`.
    pub const fn name(self) -> &'static str {
        match self {
            MessageKind::GameReq => "GAMEREQ",
            MessageKind::GameAcc => "GAMEACC",
            MessageKind::Move => "MOVE",
            MessageKind::GameEnd => "GAMEEND",
            MessageKind::Chat => "CHAT",
            MessageKind::BackReq => "BACKREQ",
            MessageKind::BackAcc => "BACKACC",
        }
    }
}

impl fmt::Display for MessageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A field of a message, named as in the spec's tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// The end of the message (bytes after the last field).
    End,
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
            Field::End => "end of message",
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

/// What a field should have held, for [`DecodeError::Invalid`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// A decimal digit `0`..=`9`.
    Digit,
    /// A colour letter `W` or `Z`.
    ColorLetter,
    /// `A` (standard start) or `B` (set-up position).
    PositionLetter,
    /// A board letter: `e`, `w`, `z`, `W` or `Z`.
    BoardLetter,
    /// A code digit `0..=max`.
    Code {
        /// Highest valid code.
        max: u8,
    },
    /// Printable ASCII (`0x20..=0x7E`).
    Printable,
    /// 7-bit text without NUL (`1..=127`).
    SevenBit,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Digit => f.write_str("a digit 0-9"),
            Expected::ColorLetter => f.write_str("W or Z"),
            Expected::PositionLetter => f.write_str("A or B"),
            Expected::BoardLetter => f.write_str("one of e w z W Z"),
            Expected::Code { max } => write!(f, "a code 0-{max}"),
            Expected::Printable => f.write_str("printable ASCII"),
            Expected::SevenBit => f.write_str("7-bit text without NUL"),
        }
    }
}

/// Shows a byte readably in messages: `'x'` for printable ASCII, `0xNN` otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShowByte(pub u8);

impl fmt::Display for ShowByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if (0x20..=0x7e).contains(&self.0) {
            write!(f, "'{}'", self.0 as char)
        } else {
            write!(f, "0x{:02X}", self.0)
        }
    }
}

/// Why a frame is not a valid DXP message.
///
/// Every variant says where: the message type (once the header is known),
/// the [`Field`], and `offset`, the 0-based byte offset inside the message
/// (header = 0), matching the spec's tables.
///
/// ```
/// let err = damexchange::decode(b"M001205250322").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "MOVE: number captured 03 but 1 square follows at offset 11"
/// );
/// assert_eq!(err.offset(), 11);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The frame is empty (a message has 1..=127 bytes).
    #[error("empty message at offset 0")]
    Empty,
    /// The first byte is not one of `R A M E C B K`.
    #[error("unknown message header {} at offset 0", ShowByte(*byte))]
    UnknownHeader {
        /// The byte found.
        byte: u8,
    },
    /// The message ends inside (or before) a field.
    #[error(
        "{message}: truncated: {field} at offset {offset} is cut off (message has {len} bytes)"
    )]
    Truncated {
        /// Message type.
        message: MessageKind,
        /// The first field that does not fit.
        field: Field,
        /// Where that field starts.
        offset: usize,
        /// Length of the message.
        len: usize,
    },
    /// Bytes follow the last field.
    #[error("{message}: {count} unexpected byte(s) after the message at offset {offset}")]
    TrailingBytes {
        /// Message type.
        message: MessageKind,
        /// Where the extra bytes start.
        offset: usize,
        /// How many there are.
        count: usize,
    },
    /// A byte that the field cannot hold.
    #[error("{message}: {field}: expected {expected}, found {} at offset {offset}", ShowByte(*byte))]
    Invalid {
        /// Message type.
        message: MessageKind,
        /// The field.
        field: Field,
        /// Offset of the bad byte.
        offset: usize,
        /// The bad byte.
        byte: u8,
        /// What was expected there.
        expected: Expected,
    },
    /// A number outside the field's range (e.g. square `51`, move number `000`).
    #[error("{message}: {field} {value} out of range {min}..={max} at offset {offset}")]
    OutOfRange {
        /// Message type.
        message: MessageKind,
        /// The field.
        field: Field,
        /// Where the field starts.
        offset: usize,
        /// The decoded number.
        value: u16,
        /// Lowest valid value.
        min: u16,
        /// Highest valid value.
        max: u16,
    },
    /// A name field that starts with a space (GAMEREQ, GAMEACC), or is blank.
    #[error("{message}: {field} starts with a space at offset {offset}")]
    LeadingSpace {
        /// Message type.
        message: MessageKind,
        /// The name field.
        field: Field,
        /// Where the field starts.
        offset: usize,
    },
    /// MOVE: the number captured does not match the squares that follow.
    #[error(
        "MOVE: number captured {count:02} but {} follow{} at offset {offset}",
        Following(*following_bytes),
        if *following_bytes == 2 { "s" } else { "" }
    )]
    CaptureCount {
        /// The number captured as sent.
        count: u8,
        /// Bytes after the count field (2 per square).
        following_bytes: usize,
        /// Offset of the first captured square (11).
        offset: usize,
    },
    /// MOVE: a square appears twice in the captured list.
    #[error("MOVE: captured square {square:02} listed twice at offset {offset}")]
    DuplicateCapture {
        /// The repeated square number.
        square: u8,
        /// Offset of the second occurrence.
        offset: usize,
    },
}

struct Following(usize);

impl fmt::Display for Following {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            n if n % 2 == 1 => write!(f, "{n} bytes (an odd number)"),
            2 => f.write_str("1 square"),
            n => write!(f, "{} squares", n / 2),
        }
    }
}

impl DecodeError {
    /// Byte offset inside the message where the fault is (header = 0).
    pub const fn offset(&self) -> usize {
        match *self {
            DecodeError::Empty | DecodeError::UnknownHeader { .. } => 0,
            DecodeError::Truncated { offset, .. }
            | DecodeError::TrailingBytes { offset, .. }
            | DecodeError::Invalid { offset, .. }
            | DecodeError::OutOfRange { offset, .. }
            | DecodeError::LeadingSpace { offset, .. }
            | DecodeError::CaptureCount { offset, .. }
            | DecodeError::DuplicateCapture { offset, .. } => offset,
        }
    }

    /// The field at fault.
    pub const fn field(&self) -> Field {
        match *self {
            DecodeError::Empty | DecodeError::UnknownHeader { .. } => Field::Header,
            DecodeError::Truncated { field, .. }
            | DecodeError::Invalid { field, .. }
            | DecodeError::OutOfRange { field, .. }
            | DecodeError::LeadingSpace { field, .. } => field,
            DecodeError::TrailingBytes { .. } => Field::End,
            DecodeError::CaptureCount { .. } | DecodeError::DuplicateCapture { .. } => {
                Field::Captured
            }
        }
    }

    /// The message type, once the header byte was recognised.
    pub const fn message(&self) -> Option<MessageKind> {
        match *self {
            DecodeError::Empty | DecodeError::UnknownHeader { .. } => None,
            DecodeError::Truncated { message, .. }
            | DecodeError::TrailingBytes { message, .. }
            | DecodeError::Invalid { message, .. }
            | DecodeError::OutOfRange { message, .. }
            | DecodeError::LeadingSpace { message, .. } => Some(message),
            DecodeError::CaptureCount { .. } | DecodeError::DuplicateCapture { .. } => {
                Some(MessageKind::Move)
            }
        }
    }
}

/// Why a message value cannot be constructed (validation happens at
/// construction, so encoders cannot fail).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
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
