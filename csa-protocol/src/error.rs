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

/// What is wrong with a field, and what a field takes: the family's one
/// vocabulary, shared with `damexchange` and `novag-citrine` (defined in
/// `boardwire-proto`). A CSA move's own faults are [`Problem::UnknownPiece`]
/// and [`Problem::NotDroppable`]; a cut-off move is [`Problem::Missing`], a
/// wrong sign, square or piece byte [`Problem::Invalid`] with
/// [`Expected::MoveSign`], [`Expected::MoveOrigin`],
/// [`Expected::MoveDestination`] or [`Expected::PieceCode`].
pub use boardwire_proto::{Expected, Problem};

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
pub type DecodeError = boardwire_proto::DecodeError<MessageKind, Field>;

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

/// What a stream of lines reports beside the messages: the item error of
/// the tokio codecs (the `codec` module, feature `tokio`) and what
/// `handle_frame_error` takes. The line was skipped and the stream goes on.
pub type FrameError = boardwire_proto::FrameError<DecodeError>;
