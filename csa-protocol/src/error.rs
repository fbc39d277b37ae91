//! Errors: [`DecodeError`] (a line could not be decoded), [`ValueError`] (a
//! value could not be constructed) and [`FrameError`] (the tokio codec's
//! item error).
//!
//! Every decoding error names the kind of line ([`MessageKind`]), the field
//! ([`Field`]), the 0-based byte offset in the line (terminator excluded)
//! and what is wrong ([`Problem`]). The stream is not affected: the next
//! line decodes independently.

use core::fmt;

macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident => $text:literal, )* }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name { $( $(#[$vmeta])* $variant, )* }

        impl $name {
            /// The name as [`spec::csa`](crate::spec::csa) writes it.
            pub const fn as_str(self) -> &'static str {
                match self { $( $name::$variant => $text, )* }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

named_enum! {
    /// The kind of line that failed: its keyword as [`spec::csa`](crate::spec::csa)
    /// writes it.
    pub enum MessageKind {
        /// Client `LOGIN <name> <password> [x1]`.
        Login => "LOGIN",
        /// Client `LOGOUT`.
        Logout => "LOGOUT",
        /// Client `AGREE [<game id>]`.
        Agree => "AGREE",
        /// Client `REJECT [<game id>]`.
        Reject => "REJECT",
        /// A move line (`+7776FU`, client or server).
        Move => "move line",
        /// `%TORYO`.
        Toryo => "%TORYO",
        /// `%KACHI`.
        Kachi => "%KACHI",
        /// `%CHUDAN`.
        Chudan => "%CHUDAN",
        /// `%%WHO`.
        Who => "%%WHO",
        /// `%%CHAT`.
        Chat => "%%CHAT",
        /// `%%GAME`.
        Game => "%%GAME",
        /// `%%CHALLENGE`.
        Challenge => "%%CHALLENGE",
        /// `%%LIST`.
        List => "%%LIST",
        /// `%%SHOW`.
        Show => "%%SHOW",
        /// `%%MONITORON`.
        MonitorOn => "%%MONITORON",
        /// `%%MONITOROFF`.
        MonitorOff => "%%MONITOROFF",
        /// `%%MONITOR2ON`.
        Monitor2On => "%%MONITOR2ON",
        /// `%%MONITOR2OFF`.
        Monitor2Off => "%%MONITOR2OFF",
        /// `%%RATING`.
        Rating => "%%RATING",
        /// `%%SETBUOY`.
        SetBuoy => "%%SETBUOY",
        /// `%%DELETEBUOY`.
        DeleteBuoy => "%%DELETEBUOY",
        /// `%%GETBUOYCOUNT`.
        GetBuoyCount => "%%GETBUOYCOUNT",
        /// `%%VERSION`.
        Version => "%%VERSION",
        /// `%%HELP`.
        Help => "%%HELP",
        /// `%%FORK`.
        Fork => "%%FORK",
        /// A reason line (`#RESIGN`, `#TIME_UP`, ...).
        Reason => "reason line",
        /// A result line (`#WIN`, `#LOSE`, `#DRAW`, `#CENSORED`).
        GameResult => "result line",
        /// Server `LOGIN:<name> OK` / `LOGIN:incorrect`.
        LoginReply => "LOGIN:",
        /// Server `START:<game id>`.
        Start => "START:",
        /// Server `REJECT:<game id> by <name>`.
        RejectReply => "REJECT:",
        /// Server `username <name> is already connected`.
        AlreadyConnected => "username",
        /// `BEGIN <block>` of a `Game_Summary`.
        Begin => "BEGIN",
        /// `END <block>` of a `Game_Summary`.
        End => "END",
        /// A position line (`P1`..`P9`, `PI`, `P+`, `P-`).
        Position => "Position",
        /// A `Key:Value` line of a `Game_Summary`.
        SummaryField => "Game_Summary field",
        /// An x1 reply whose tag could not be read (`##[`).
        X1Reply => "##[",
        /// `##[LOGIN]`.
        X1Login => "##[LOGIN]",
        /// `##[WHO]`.
        X1Who => "##[WHO]",
        /// `##[CHAT]`.
        X1Chat => "##[CHAT]",
        /// `##[LIST]`.
        X1List => "##[LIST]",
        /// `##[SHOW]`.
        X1Show => "##[SHOW]",
        /// `##[MONITOR]`.
        X1Monitor => "##[MONITOR]",
        /// `##[MONITOR2]`.
        X1Monitor2 => "##[MONITOR2]",
        /// `##[RATING]`.
        X1Rating => "##[RATING]",
        /// `##[GETBUOYCOUNT]`.
        X1GetBuoyCount => "##[GETBUOYCOUNT]",
        /// `##[ERROR]`.
        X1Error => "##[ERROR]",
        /// Any other `##[TAG]` reply.
        X1Other => "##[...]",
        /// A line whose kind is not known yet (only inside [`crate::parse`]).
        Line => "line",
    }
}

named_enum! {
    /// The field of a line that failed.
    pub enum Field {
        /// A login name.
        Name => "name",
        /// A password.
        Password => "password",
        /// The `x1` mode word of `LOGIN`.
        Mode => "mode",
        /// A game id.
        GameId => "game_id",
        /// A game name (`%%GAME`, `%%CHALLENGE`).
        GameName => "game_name",
        /// A buoy game name.
        BuoyName => "buoy_name",
        /// A side (`+`, `-`, `*`).
        Side => "side",
        /// The moves of `%%SETBUOY`.
        Moves => "moves",
        /// A count.
        Count => "count",
        /// The `nth` of `%%FORK`.
        Nth => "nth",
        /// Free text.
        Text => "text",
        /// The comment after a move (`,'...`).
        Comment => "comment",
        /// A move token.
        Move => "notation",
        /// The time of a move (`,T<seconds>`).
        Time => "time",
        /// The result word of `LOGIN:` (` OK` or `incorrect`).
        Result => "result",
        /// Who rejected (`REJECT:<id> by <name>`).
        By => "by",
        /// A block name (`BEGIN <block>`).
        Block => "block",
        /// The key of a `Key:Value` line.
        Key => "key",
        /// The value of a `Key:Value` line.
        Value => "value",
        /// A position row.
        Row => "row",
        /// An x1 reply tag.
        Tag => "tag",
        /// The sender of `##[CHAT][<sender>]`.
        Sender => "sender",
        /// The text after an x1 reply tag.
        Payload => "payload",
        /// A `##[WHO]` entry.
        Entry => "entry",
        /// Bytes after the last field (something follows where the line
        /// should end).
        Trailing => "trailing bytes",
        /// The line as a whole (its length).
        Line => "line",
    }
}

named_enum! {
    /// What a field takes (see [`Problem::Invalid`]).
    pub enum Expected {
        /// A login or game name byte, `[0-9A-Za-z_@.-]`.
        NameByte => "[0-9A-Za-z_@.-]",
        /// Printable ASCII without space.
        Graphic => "printable ASCII without space",
        /// A game id byte: printable ASCII without space, `[` or `]`.
        GameIdByte => "printable ASCII without space, `[` or `]`",
        /// An x1 tag byte, `[0-9A-Za-z_]`.
        TagByte => "[0-9A-Za-z_]",
        /// A position line byte: printable ASCII or space.
        PositionByte => "printable ASCII or space",
        /// A block name byte, `[0-9A-Za-z_+-]`.
        BlockByte => "[0-9A-Za-z_+-]",
        /// Text: no control byte.
        Text => "text without control bytes",
        /// A decimal digit.
        Digit => "a digit",
        /// One space.
        Space => "a space",
        /// The word `x1`.
        X1 => "`x1`",
        /// `,'` and a comment.
        Comment => "`,'` and a comment",
        /// `+`, `-` or `*`.
        SidePreference => "`+`, `-` or `*`",
        /// ` OK` or `incorrect`.
        OkOrIncorrect => "` OK` or `incorrect`",
        /// `,T<seconds>`.
        TimeSuffix => "`,T<seconds>`",
        /// `[`.
        OpenBracket => "`[`",
        /// `]`.
        CloseBracket => "`]`",
        /// `<name> <protocol> <status> [<game> <side>]`.
        WhoEntry => "`<name> <protocol> <status> [<game> <side>]`",
        /// `P1`..`P9`, `PI`, `P+` or `P-`.
        PositionRow => "P1..P9, PI, P+ or P-",
        /// Seconds: digits with up to 3 decimals.
        Seconds => "seconds: digits with up to 3 decimals",
        /// The sign of a move, `+` or `-`.
        MoveSign => "`+` or `-`",
        /// A move's origin: a square `11`..`99`, or `00` for a drop.
        MoveOrigin => "a square 11-99 or 00 (a drop)",
        /// A move's destination: a square `11`..`99`.
        MoveDestination => "a square 11-99",
        /// A `Game_Summary` field key.
        FieldKey => "a letter, then [A-Za-z0-9_], optionally ending in + or -",
    }
}

/// What is wrong with a field. See [`DecodeError`]. The core variants
/// (`Empty` to `TooLong`) are the same in every protocol crate of the
/// family; `NotUtf8` and `CsaMove` are CSA's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Problem {
    /// The field (or value) is present but empty.
    Empty,
    /// The field is absent or cut off (the offset is the line's length).
    Missing,
    /// A byte the field does not take at this place.
    Invalid {
        /// The byte found.
        byte: u8,
        /// What the field takes there.
        expected: Expected,
    },
    /// A number outside `min..=max` (`value` saturated at `u32::MAX`).
    OutOfRange {
        /// The number read.
        value: u32,
        /// Smallest allowed.
        min: u32,
        /// Largest allowed.
        max: u32,
    },
    /// `count` bytes follow the last field.
    Trailing {
        /// Bytes after the last field.
        count: usize,
    },
    /// The field is `len` bytes long, more than `max`.
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// Maximum length in bytes.
        max: usize,
    },
    /// The field is not valid UTF-8 where text is required.
    NotUtf8,
    /// A CSA move with an unknown piece code or a drop of a piece that
    /// cannot be dropped (board-core's reason). A cut-off move is
    /// [`Problem::Missing`], a wrong sign or square byte [`Problem::Invalid`].
    CsaMove(board_core::shogi::ParseCsaMoveError),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Missing => f.write_str("missing"),
            Problem::Empty => f.write_str("empty"),
            Problem::TooLong { len, max } => write!(f, "{len} bytes, at most {max}"),
            Problem::Invalid { byte, expected } if (0x20..=0x7e).contains(byte) => {
                write!(f, "expected {expected}, found '{}'", *byte as char)
            }
            Problem::Invalid { byte, expected } => {
                write!(f, "expected {expected}, found 0x{byte:02X}")
            }
            Problem::Trailing { count } => {
                let s = if *count == 1 { "" } else { "s" };
                write!(f, "{count} unexpected byte{s} at the end")
            }
            Problem::NotUtf8 => f.write_str("not valid UTF-8"),
            Problem::OutOfRange { value, min, max } => {
                write!(f, "{value} out of range {min}..={max}")
            }
            Problem::CsaMove(e) => write!(f, "{e}"),
        }
    }
}

/// A line could not be decoded.
///
/// Names the kind of line, the field that failed, the 0-based byte offset
/// in the line (terminator excluded) where the problem starts (the line's
/// length for a missing field), and the problem.
///
/// ```
/// use csa_protocol::decode::decode;
/// use csa_protocol::error::{Expected, Field, MessageKind, Problem};
/// use csa_protocol::message::ClientMessage;
///
/// let err = decode::<ClientMessage>(b"LOGIN bad/name pass").unwrap_err();
/// assert_eq!((err.message, err.field, err.offset), (MessageKind::Login, Field::Name, 9));
/// assert_eq!(err.problem, Problem::Invalid { byte: b'/', expected: Expected::NameByte });
/// assert_eq!(
///     err.to_string(),
///     "LOGIN name at byte 9: expected [0-9A-Za-z_@.-], found '/'"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{message} {field} at byte {offset}: {problem}")]
#[non_exhaustive]
pub struct DecodeError {
    /// The kind of line.
    pub message: MessageKind,
    /// The field that failed.
    pub field: Field,
    /// 0-based byte offset in the line where the failing field (or the
    /// offending byte) starts; the line's length for a missing field.
    pub offset: usize,
    /// What is wrong.
    pub problem: Problem,
}

impl DecodeError {
    /// An error (for decoders built on [`crate::parse`]).
    pub const fn new(message: MessageKind, field: Field, offset: usize, problem: Problem) -> Self {
        Self {
            message,
            field,
            offset,
            problem,
        }
    }
}

named_enum! {
    /// A section of a `Game_Summary` block ([`crate::message::SummaryError`]).
    pub enum SummarySection {
        /// Before `BEGIN Game_Summary`.
        Before => "(before Game_Summary)",
        /// After `END Game_Summary`.
        After => "(after Game_Summary)",
        /// The block's own fields.
        GameSummary => "Game_Summary",
        /// `BEGIN Time`.
        Time => "Time",
        /// `BEGIN Time+`.
        TimeBlack => "Time+",
        /// `BEGIN Time-`.
        TimeWhite => "Time-",
        /// `BEGIN Position`.
        Position => "Position",
    }
}

named_enum! {
    /// A known `Game_Summary` field ([`spec::csa`](crate::spec::csa), *Game_Summary*).
    pub enum SummaryKey {
        /// `Protocol_Version`.
        ProtocolVersion => "Protocol_Version",
        /// `Protocol_Mode`.
        ProtocolMode => "Protocol_Mode",
        /// `Format`.
        Format => "Format",
        /// `Declaration`.
        Declaration => "Declaration",
        /// `Game_ID`.
        GameId => "Game_ID",
        /// `Name+`.
        NameBlack => "Name+",
        /// `Name-`.
        NameWhite => "Name-",
        /// `Your_Turn`.
        YourTurn => "Your_Turn",
        /// `To_Move`.
        ToMove => "To_Move",
        /// `Rematch_On_Draw`.
        RematchOnDraw => "Rematch_On_Draw",
        /// `Max_Moves`.
        MaxMoves => "Max_Moves",
        /// `Time_Unit`.
        TimeUnit => "Time_Unit",
        /// `Total_Time`.
        TotalTime => "Total_Time",
        /// `Byoyomi`.
        Byoyomi => "Byoyomi",
        /// `Increment`.
        Increment => "Increment",
        /// `Delay`.
        Delay => "Delay",
        /// `Least_Time_Per_Move`.
        LeastTimePerMove => "Least_Time_Per_Move",
        /// `Time_Roundup`.
        TimeRoundup => "Time_Roundup",
        /// `Remaining_Time+`.
        RemainingTimeBlack => "Remaining_Time+",
        /// `Remaining_Time-`.
        RemainingTimeWhite => "Remaining_Time-",
        /// `Last_Move`.
        LastMove => "Last_Move",
        /// `Current_Turn`.
        CurrentTurn => "Current_Turn",
    }
}

named_enum! {
    /// The form a `Game_Summary` value must have.
    pub enum ValueForm {
        /// A game id.
        GameId => "a game id (printable ASCII, no space)",
        /// `+` or `-`.
        Sign => "`+` or `-`",
        /// `YES` or `NO`.
        YesNo => "`YES` or `NO`",
        /// A decimal number.
        Number => "a number",
        /// `<n>sec`, `<n>min` or `<n>msec`.
        TimeUnit => "<n>sec, <n>min or <n>msec",
    }
}

named_enum! {
    /// The kind of value a [`ValueError`] is about.
    pub enum ValueKind {
        /// [`crate::types::UserName`].
        UserName => "user name",
        /// [`crate::types::GameId`].
        GameId => "game id",
        /// [`crate::types::GameName`].
        GameName => "game name",
        /// [`crate::types::Word`].
        Word => "word",
        /// [`crate::types::Tag`].
        Tag => "tag",
        /// [`crate::types::Password`].
        Password => "password",
        /// [`crate::types::Text`].
        Text => "text",
        /// [`crate::types::BuoyMoves`].
        BuoyMoves => "buoy moves",
        /// [`crate::message::FieldKey`].
        FieldKey => "field key",
    }
}

/// A value could not be constructed because it would not encode to a valid
/// line (see the constructor that returned it for the rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid {value}: {problem} at byte {offset}")]
#[non_exhaustive]
pub struct ValueError {
    /// The kind of value.
    pub value: ValueKind,
    /// 0-based byte offset of the problem in the given text.
    pub offset: usize,
    /// What is wrong.
    pub problem: Problem,
}

impl ValueError {
    pub(crate) const fn new(value: ValueKind, offset: usize, problem: Problem) -> Self {
        Self {
            value,
            offset,
            problem,
        }
    }
}

/// The item error of the tokio codecs (the `codec` module, feature `tokio`): the line was
/// skipped and the stream goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// A line longer than the cap (`len`: its bytes seen so far, terminator
    /// excluded; `max`: the cap).
    #[error("line longer than {max} bytes ({len} bytes seen): skipped up to the next line end")]
    Overlong {
        /// Bytes of the line seen when it was reported.
        len: usize,
        /// The cap in bytes.
        max: usize,
    },
    /// A complete line that is malformed.
    #[error("malformed line: {0}")]
    Malformed(#[from] DecodeError),
}
