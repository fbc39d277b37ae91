//! Error types: [`DecodeError`] (bytes that are not a valid message),
//! [`ValueError`] (a value that cannot be constructed), [`FrameError`] (a
//! frame the tokio codec could not turn into a message).
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

/// What a field should have held, for [`Problem::Invalid`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
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
    /// The header byte of this message.
    Header(MessageKind),
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
            Expected::SevenBit => f.write_str("a 7-bit byte 1..=127"),
            Expected::Header(kind) => match kind.header() {
                Some(h) => write!(f, "the {kind} header {}", ShowByte(h)),
                None => f.write_str("a header byte"),
            },
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

/// What is wrong with a field, for [`DecodeError::problem`].
///
/// The core variants are the same in every protocol crate of the family
/// (`Empty`, `Missing`, `Invalid`, `OutOfRange`, `Trailing`, `TooLong`);
/// `LeadingSpace`, `CaptureCount` and `DuplicateCapture` are DXP's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Problem {
    /// The frame is empty (a message has 1..=127 bytes).
    Empty,
    /// The field is absent or cut off: the message ends before it is
    /// complete ([`DecodeError::offset`] is then the frame's length).
    Missing,
    /// A byte that the field cannot hold, at [`DecodeError::offset`]. A
    /// byte outside 1..=127 ([`spec::damexchange`](crate::spec::damexchange), *Transport (layer
    /// 1)*) is reported as such ([`Expected::SevenBit`]) before any other
    /// fault of the frame.
    Invalid {
        /// The bad byte.
        byte: u8,
        /// What was expected there.
        expected: Expected,
    },
    /// A number outside the field's range (e.g. square `51`, move number
    /// `000`); the offset is the field's first byte.
    OutOfRange {
        /// The decoded number (saturated at `u32::MAX`).
        value: u32,
        /// Lowest valid value.
        min: u32,
        /// Highest valid value.
        max: u32,
    },
    /// `count` bytes follow the last field (the offset is the first of them).
    Trailing {
        /// How many there are.
        count: usize,
    },
    /// A frame longer than a message can be.
    TooLong {
        /// Length of the frame, bytes.
        len: usize,
        /// The longest a message can be, bytes (127).
        max: usize,
    },
    /// A name field that starts with a space (GAMEREQ, GAMEACC), or is blank.
    LeadingSpace,
    /// MOVE: the number captured does not match the squares that follow
    /// (all digits). The offset is the first byte after the announced
    /// squares when more follow, the frame's length when fewer do.
    CaptureCount {
        /// The number captured as sent.
        count: u8,
        /// Bytes after the count field (2 per square).
        following_bytes: usize,
    },
    /// MOVE: a square appears twice in the captured list (the offset is
    /// its second appearance).
    DuplicateCapture {
        /// The repeated square number.
        square: u8,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::Empty => f.write_str("empty frame"),
            Problem::Missing => f.write_str("missing"),
            Problem::Trailing { count } => {
                let s = if count == 1 { "" } else { "s" };
                write!(f, "{count} unexpected byte{s} at the end")
            }
            Problem::Invalid { byte, expected } => {
                write!(f, "expected {expected}, found {}", ShowByte(byte))
            }
            Problem::OutOfRange { value, min, max } => {
                write!(f, "{value} out of range {min}..={max}")
            }
            Problem::LeadingSpace => f.write_str("starts with a space"),
            Problem::CaptureCount {
                count,
                following_bytes,
            } => write!(
                f,
                "{count:02} captured but {} follow{}",
                Following(following_bytes),
                if following_bytes == 2 { "s" } else { "" }
            ),
            Problem::DuplicateCapture { square } => write!(f, "square {square:02} listed twice"),
            Problem::TooLong { len, max } => write!(f, "{len} bytes, at most {max}"),
        }
    }
}

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{message} {field} at byte {offset}: {problem}")]
#[non_exhaustive]
pub struct DecodeError {
    /// The message type ([`MessageKind::Unrecognised`] for an empty frame).
    pub message: MessageKind,
    /// The field at fault.
    pub field: Field,
    /// 0-based byte offset in the frame (header = 0) of the first bad
    /// byte; for a field that is missing or cut off
    /// ([`Problem::Missing`], [`Problem::CaptureCount`] with too few
    /// squares), the frame's length.
    pub offset: usize,
    /// What is wrong.
    pub problem: Problem,
}

impl DecodeError {
    /// An error naming `message`, `field`, `offset` and `problem` (for
    /// parsers built on [`crate::parse`] and for tests).
    pub const fn new(message: MessageKind, field: Field, offset: usize, problem: Problem) -> Self {
        DecodeError {
            message,
            field,
            offset,
            problem,
        }
    }
}

struct Following(usize);

impl fmt::Display for Following {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("1 byte (an odd number)"),
            n if n % 2 == 1 => write!(f, "{n} bytes (an odd number)"),
            2 => f.write_str("1 square"),
            n => write!(f, "{} squares", n / 2),
        }
    }
}

/// A frame the tokio codec ([`DxpCodec`](crate::codec::DxpCodec)) could not
/// turn into a message. It is an *item* of the stream (the stream goes on
/// with the next frame), never the decoder's error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// More than `max` bytes without a NUL ([`spec::damexchange`](crate::spec::damexchange),
    /// *Transport (layer 1)*: 1..=127 bytes). `len` is the bytes of it seen
    /// when it was reported; the rest up to the next NUL is skipped.
    #[error("frame longer than {max} bytes ({len} bytes seen): skipped up to the next NUL")]
    Overlong {
        /// Bytes of the frame seen when it was reported (more than `max`).
        len: usize,
        /// The cap, bytes without the NUL.
        max: usize,
    },
    /// A complete frame that is not a valid message.
    #[error("malformed frame: {0}")]
    Malformed(DecodeError),
    /// The stream ended inside a frame (`len` bytes without their NUL).
    #[error("stream ended after {len} bytes of a frame without the terminating NUL")]
    Unterminated {
        /// Bytes received of it.
        len: usize,
    },
}

impl From<DecodeError> for FrameError {
    fn from(e: DecodeError) -> FrameError {
        FrameError::Malformed(e)
    }
}

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
