//! The decode error vocabulary shared by the family's protocol crates.
//!
//! Each protocol crate has its own `DecodeError { message, field, offset,
//! problem }`: which message, which field, the 0-based byte offset in the
//! frame (terminator excluded), and what is wrong, a [`Problem`] from this
//! module. The message and field kinds are the protocol's; the problem is
//! the same type in every crate, so one logger or one test helper reads the
//! problems of all three.

use core::fmt;

/// What is wrong with a field (the `problem` of a protocol crate's
/// `DecodeError`).
///
/// The first six variants are produced by every protocol; the rest name
/// which protocol produces them. `#[non_exhaustive]`: a new protocol may
/// add its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Problem {
    /// The frame is empty (DXP, Citrine), or a field or value is empty (CSA,
    /// where an empty line is a keep-alive, not an error).
    Empty,
    /// The field is absent or cut off: the frame ends before it is complete
    /// (the error's offset is then the frame's length).
    Missing,
    /// A byte that the field cannot hold, at the error's offset.
    Invalid {
        /// The bad byte.
        byte: u8,
        /// What the field takes there.
        expected: Expected,
    },
    /// A number outside the field's range (e.g. DXP square `51`); the offset
    /// is the field's first byte.
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
    /// A frame or field longer than it can be.
    TooLong {
        /// Its length, bytes.
        len: usize,
        /// The most it can have, bytes.
        max: usize,
    },
    /// DXP: a name field (GAMEREQ, GAMEACC) that starts with a space or is
    /// blank.
    LeadingSpace,
    /// DXP MOVE: the number captured does not match the squares that follow.
    /// The offset is the first byte after the announced squares when more
    /// follow, the frame's length when fewer do.
    CaptureCount {
        /// The number captured as sent.
        count: u8,
        /// Bytes after the count field (2 per square).
        following_bytes: usize,
    },
    /// DXP MOVE: a square appears twice in the captured list (the offset is
    /// its second appearance).
    DuplicateCapture {
        /// The repeated square number.
        square: u8,
    },
    /// CSA: text that is not valid UTF-8 where the protocol requires it.
    NotUtf8,
    /// CSA move: the two-letter piece code is not one of `FU KY KE GI KI KA
    /// HI OU TO NY NK NG UM RY` (the offset is its first letter).
    UnknownPiece {
        /// The two bytes found.
        code: [u8; 2],
    },
    /// CSA move: a drop (`00` origin) of a promoted piece or a king (the
    /// offset is the piece code).
    NotDroppable {
        /// The piece code (`TO`, `OU`, ...).
        code: [u8; 2],
    },
}

/// Shows a byte readably: `'x'` for printable ASCII, `0xNN` otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShowByte(pub u8);

impl fmt::Display for ShowByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if (0x20..=0x7e).contains(&self.0) {
            write!(f, "'{}'", self.0 as char)
        } else {
            write!(f, "0x{:02X}", self.0)
        }
    }
}

struct Code([u8; 2]);

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in &self.0 {
            if (0x20..=0x7e).contains(&b) {
                write!(f, "{}", b as char)?;
            } else {
                write!(f, "\\x{b:02X}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::Empty => f.write_str("empty"),
            Problem::Missing => f.write_str("missing"),
            Problem::Invalid { byte, expected } => {
                write!(f, "expected {expected}, found {}", ShowByte(byte))
            }
            Problem::OutOfRange { value, min, max } => {
                write!(f, "{value} out of range {min}..={max}")
            }
            Problem::Trailing { count } => {
                let s = if count == 1 { "" } else { "s" };
                write!(f, "{count} unexpected byte{s} at the end")
            }
            Problem::TooLong { len, max } => write!(f, "{len} bytes, at most {max}"),
            Problem::LeadingSpace => f.write_str("starts with a space"),
            Problem::CaptureCount {
                count,
                following_bytes,
            } => {
                write!(f, "{count:02} captured but ")?;
                match following_bytes {
                    1 => f.write_str("1 byte (an odd number) follows"),
                    n if n % 2 == 1 => write!(f, "{n} bytes (an odd number) follow"),
                    2 => f.write_str("1 square follows"),
                    n => write!(f, "{} squares follow", n / 2),
                }
            }
            Problem::DuplicateCapture { square } => write!(f, "square {square:02} listed twice"),
            Problem::NotUtf8 => f.write_str("not valid UTF-8"),
            Problem::UnknownPiece { code } => write!(f, "unknown piece code {}", Code(code)),
            Problem::NotDroppable { code } => write!(f, "{} cannot be dropped", Code(code)),
        }
    }
}

impl core::error::Error for Problem {}

/// What a field takes, for [`Problem::Invalid`]: one vocabulary for the
/// three protocols. Each variant's doc names the protocols that use it;
/// `Display` is the phrase after "expected" in an error message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    // ---- shared ----
    /// A decimal digit `0`..=`9` (all).
    Digit,
    /// One space (CSA).
    Space,
    /// A blank, a space or a tab, between two fields (Citrine).
    Blank,
    /// Printable ASCII, `0x20..=0x7E`, space included (DXP).
    Printable,
    /// Printable ASCII without space, `0x21..=0x7E` (CSA, Citrine).
    Graphic,
    /// Text without control bytes (CSA).
    Text,
    /// 7-bit text without NUL, `1..=127` (DXP: checked before any other
    /// fault of the frame).
    SevenBit,
    /// A message's header byte, the one given (DXP: `R`, `A`, `M`, ...).
    Header(u8),
    /// The keyword of the line (Citrine: `Clock`, `Flip`, `Game`, ...).
    Keyword,
    // ---- DXP ----
    /// A colour letter `W` or `Z` (DXP).
    ColorLetter,
    /// `A` (the standard start) or `B` (a set-up position) (DXP GAMEREQ).
    PositionLetter,
    /// A board letter: `e`, `w`, `z`, `W` or `Z` (DXP).
    BoardLetter,
    /// A code digit `0..=max` (DXP GAMEACC, GAMEEND, BACKACC).
    Code {
        /// Highest valid code.
        max: u8,
    },
    // ---- CSA ----
    /// A login or game name byte, `[0-9A-Za-z_@.-]` (CSA).
    NameByte,
    /// A game id byte: printable ASCII without space, `[` or `]` (CSA).
    GameIdByte,
    /// An x1 tag byte, `[0-9A-Za-z_]` (CSA).
    TagByte,
    /// A position line byte: printable ASCII or space (CSA).
    PositionByte,
    /// A block name byte, `[0-9A-Za-z_+-]` (CSA).
    BlockByte,
    /// The word `x1` (CSA LOGIN).
    X1,
    /// `,'` and a comment (CSA move with a Floodgate comment).
    Comment,
    /// `+`, `-` or `*` (CSA `%%GAME`).
    SidePreference,
    /// ` OK` or `incorrect` (CSA LOGIN reply).
    OkOrIncorrect,
    /// `,T<seconds>` (CSA move confirmation).
    TimeSuffix,
    /// `[` (CSA).
    OpenBracket,
    /// `]` (CSA).
    CloseBracket,
    /// `<name> <protocol> <status> [<game> <side>]` (CSA `##[WHO]`).
    WhoEntry,
    /// `P1`..`P9`, `PI`, `P+` or `P-` (CSA position).
    PositionRow,
    /// Seconds: digits with up to 3 decimals (CSA).
    Seconds,
    /// The sign of a move, `+` or `-` (CSA).
    MoveSign,
    /// A move's origin: a square `11`..`99`, or `00` for a drop (CSA).
    MoveOrigin,
    /// A move's destination: a square `11`..`99` (CSA).
    MoveDestination,
    /// A piece code, two capital letters (CSA).
    PieceCode,
    /// A `Game_Summary` field key: a letter, then `[A-Za-z0-9_]`, optionally
    /// ending in `+` or `-` (CSA).
    FieldKey,
    // ---- Citrine ----
    /// A file letter `a`..=`h` (`A`..=`H` too in commands) (Citrine).
    File,
    /// A rank digit `1`..=`8` (Citrine).
    Rank,
    /// The separator of a printed move: `-` (a move) or `x` (a capture)
    /// (Citrine).
    MoveSeparator,
    /// A promotion piece `Q`, `R`, `B` or `N` (Citrine).
    PromotionPiece,
    /// What may follow a printed move: a blank, `|` or the end of the line
    /// (Citrine).
    MoveEnd,
    /// The `:` between the parts of a clock reading `hh:mm:ss` (Citrine).
    Colon,
    /// `on` or `off` (Citrine).
    Switch,
    /// `White` or `Black` after `Flip -->` (Citrine).
    Side,
    /// The arrow `-->` after `Flip` (Citrine).
    Arrow,
    /// A level as replies print it: `tr`, `sd`, `at` or `be` (Citrine).
    LevelKind,
    /// A level as commands name it: `CITRINE`, `TR`, `AT` or `BE` (Citrine).
    LevelName,
    /// A diagram cell: a colour `W`/`B` (either case) and a piece letter, or
    /// `::` (Citrine).
    DiagramCell,
    // ---- engine lines (boardwire-engines: USI, UCI, Hub) ----
    /// A USI move (`7g7f`, `8h2b+`, `P*5e`), `resign` or `win`.
    UsiMove,
    /// A UCI move (`e2e4`, `e7e8q`) or `(none)`.
    UciMove,
    /// A Hub move (`32-28`, `28x19`, `28x37x19`).
    HubMove,
    /// A score kind, `cp` or `mate` (USI, UCI `info score`).
    ScoreKind,
    /// `=` (Hub `key=value`).
    Equals,
    /// A closing `"` of a quoted Hub value.
    Quote,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match *self {
            Expected::Digit => "a digit 0-9",
            Expected::Space => "a space",
            Expected::Blank => "a blank",
            Expected::Printable => "printable ASCII",
            Expected::Graphic => "printable ASCII without space",
            Expected::Text => "text without control bytes",
            Expected::SevenBit => "a 7-bit byte 1..=127",
            Expected::Header(h) => return write!(f, "the header {}", ShowByte(h)),
            Expected::Keyword => "the keyword of the line",
            Expected::ColorLetter => "W or Z",
            Expected::PositionLetter => "A or B",
            Expected::BoardLetter => "one of e w z W Z",
            Expected::Code { max } => return write!(f, "a code 0-{max}"),
            Expected::NameByte => "[0-9A-Za-z_@.-]",
            Expected::GameIdByte => "printable ASCII without space, `[` or `]`",
            Expected::TagByte => "[0-9A-Za-z_]",
            Expected::PositionByte => "printable ASCII or space",
            Expected::BlockByte => "[0-9A-Za-z_+-]",
            Expected::X1 => "`x1`",
            Expected::Comment => "`,'` and a comment",
            Expected::SidePreference => "`+`, `-` or `*`",
            Expected::OkOrIncorrect => "` OK` or `incorrect`",
            Expected::TimeSuffix => "`,T<seconds>`",
            Expected::OpenBracket => "`[`",
            Expected::CloseBracket => "`]`",
            Expected::WhoEntry => "`<name> <protocol> <status> [<game> <side>]`",
            Expected::PositionRow => "P1..P9, PI, P+ or P-",
            Expected::Seconds => "seconds: digits with up to 3 decimals",
            Expected::MoveSign => "`+` or `-`",
            Expected::MoveOrigin => "a square 11-99 or 00 (a drop)",
            Expected::MoveDestination => "a square 11-99",
            Expected::PieceCode => "a piece code (FU, KY, ..., RY)",
            Expected::FieldKey => "a letter, then [A-Za-z0-9_], optionally ending in + or -",
            Expected::File => "a file a-h",
            Expected::Rank => "a rank 1-8",
            Expected::MoveSeparator => "- or x",
            Expected::PromotionPiece => "Q, R, B or N",
            Expected::MoveEnd => "a blank, | or the end of the line",
            Expected::Colon => ":",
            Expected::Switch => "on or off",
            Expected::Side => "White or Black",
            Expected::Arrow => "-->",
            Expected::LevelKind => "tr, sd, at or be",
            Expected::LevelName => "CITRINE, TR, AT or BE",
            Expected::DiagramCell => "a piece code (WP, bk, ...) or ::",
            Expected::UsiMove => "a USI move (7g7f, 8h2b+, P*5e), resign or win",
            Expected::UciMove => "a UCI move (e2e4, e7e8q) or (none)",
            Expected::HubMove => "a Hub move (32-28, 28x19, 28x37x19)",
            Expected::ScoreKind => "cp or mate",
            Expected::Equals => "'='",
            Expected::Quote => "a closing '\"'",
        };
        f.write_str(s)
    }
}

/// A frame that does not decode: which message (`M`, the protocol's
/// `MessageKind`), which field (`F`, its `Field`), where (`offset`, the
/// 0-based byte in the frame, terminator excluded: the first bad byte, or
/// the frame's length for a field that is missing or cut off), and what is
/// wrong. Each protocol crate names it `error::DecodeError` =
/// `DecodeError<MessageKind, Field>`.
///
/// `Display`: `"<message> <field> at byte <offset>: <problem>"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct DecodeError<M, F> {
    /// The kind of message.
    pub message: M,
    /// The field at fault.
    pub field: F,
    /// 0-based byte offset in the frame.
    pub offset: usize,
    /// What is wrong.
    pub problem: Problem,
}

impl<M, F> DecodeError<M, F> {
    /// An error naming `message`, `field`, `offset` and `problem`.
    pub const fn new(message: M, field: F, offset: usize, problem: Problem) -> Self {
        DecodeError {
            message,
            field,
            offset,
            problem,
        }
    }
}

impl<M: fmt::Display, F: fmt::Display> fmt::Display for DecodeError<M, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} at byte {}: {}",
            self.message, self.field, self.offset, self.problem
        )
    }
}

impl<M: fmt::Debug + fmt::Display, F: fmt::Debug + fmt::Display> core::error::Error
    for DecodeError<M, F>
{
}

/// What a stream of frames reports beside the messages: the item error of
/// each crate's tokio codec and what a session's `handle_frame_error`
/// takes. `E` is the protocol's `DecodeError`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameError<E> {
    /// More than `max` bytes without a terminator: reported once, when more
    /// than the cap had arrived; the rest up to the next terminator is
    /// skipped and the stream goes on.
    Overlong {
        /// Bytes of the frame seen when it was reported (more than `max`).
        len: usize,
        /// The cap, bytes without the terminator.
        max: usize,
    },
    /// A complete frame that is not a valid message.
    Malformed(E),
    /// The stream ended inside a frame (`len` bytes without a terminator).
    /// DXP reports it (a DXP message always ends with NUL); the line
    /// protocols decode such a last line as a line instead.
    Unterminated {
        /// Bytes received of it.
        len: usize,
    },
}

impl<E> From<E> for FrameError<E> {
    fn from(e: E) -> FrameError<E> {
        FrameError::Malformed(e)
    }
}

impl<E: fmt::Display> fmt::Display for FrameError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Overlong { len, max } => write!(
                f,
                "frame longer than {max} bytes ({len} bytes seen): skipped up to the next terminator"
            ),
            FrameError::Malformed(e) => write!(f, "malformed frame: {e}"),
            FrameError::Unterminated { len } => write!(
                f,
                "stream ended after {len} bytes of a frame without its terminator"
            ),
        }
    }
}

impl<E: fmt::Debug + fmt::Display + core::error::Error + 'static> core::error::Error
    for FrameError<E>
{
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            FrameError::Malformed(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::string::ToString;

    #[test]
    fn problems_read_as_sentences() {
        let p = Problem::Invalid {
            byte: b'9',
            expected: Expected::Rank,
        };
        assert_eq!(p.to_string(), "expected a rank 1-8, found '9'");
        let p = Problem::Invalid {
            byte: 0,
            expected: Expected::SevenBit,
        };
        assert_eq!(p.to_string(), "expected a 7-bit byte 1..=127, found 0x00");
        assert_eq!(
            Problem::CaptureCount {
                count: 2,
                following_bytes: 2
            }
            .to_string(),
            "02 captured but 1 square follows"
        );
        assert_eq!(
            Problem::NotDroppable { code: *b"OU" }.to_string(),
            "OU cannot be dropped"
        );
        assert_eq!(
            Problem::Trailing { count: 1 }.to_string(),
            "1 unexpected byte at the end"
        );
    }

    /// DXP MOVE: the bytes after the count come in pairs (2 digits per
    /// square); an odd count is named as bytes, an even one as squares.
    #[test]
    fn capture_counts_name_bytes_or_squares() {
        let p = |following_bytes| {
            Problem::CaptureCount {
                count: 1,
                following_bytes,
            }
            .to_string()
        };
        assert_eq!(p(1), "01 captured but 1 byte (an odd number) follows");
        assert_eq!(p(3), "01 captured but 3 bytes (an odd number) follow");
        assert_eq!(p(4), "01 captured but 2 squares follow");
        assert_eq!(p(0), "01 captured but 0 squares follow");
    }

    /// `DecodeError`'s documented `Display`: `"<message> <field> at byte
    /// <offset>: <problem>"`.
    #[test]
    fn a_decode_error_names_message_field_and_offset() {
        let e = DecodeError::new("MOVE", "square", 7, Problem::Missing);
        assert_eq!(e.to_string(), "MOVE square at byte 7: missing");
    }

    /// A frame error says what happened with its numbers; a malformed
    /// frame's source is the decode error, the others have none.
    #[test]
    fn frame_errors_read_and_chain() {
        use core::error::Error;
        let e: FrameError<Problem> = FrameError::Overlong {
            len: 9000,
            max: 8192,
        };
        let s = e.to_string();
        assert!(s.contains("8192") && s.contains("9000"), "{s}");
        assert!(e.source().is_none());
        let e: FrameError<Problem> = FrameError::Unterminated { len: 5 };
        assert!(e.to_string().contains('5'), "{e}");
        assert!(e.source().is_none());
        let e = FrameError::Malformed(Problem::NotUtf8);
        assert_eq!(e.to_string(), "malformed frame: not valid UTF-8");
        let source = e.source().expect("the decode error");
        assert_eq!(source.to_string(), "not valid UTF-8");
    }
}
