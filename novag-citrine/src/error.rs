//! Error types: a line that does not decode ([`DecodeError`]), a value a
//! validated constructor rejects ([`ValueError`]), and the item error of
//! framed streams ([`FrameError`]).
//!
//! Positions are 0-based byte offsets in the line, the terminator excluded
//! ([`spec::citrine`](crate::spec::citrine), *Link*: commands and replies are text lines).

use core::fmt;

/// The kind of line a [`DecodeError`] is about: a device reply
/// ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and replies (device ->
/// host)*) or a host command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[non_exhaustive]
pub enum MessageKind {
    /// A reply line whose keyword is known but not yet decided (an empty
    /// line, a line cut short).
    Reply,
    /// `M   7,  c5xd4 |`: a move line.
    MoveLine,
    /// `T   1,  e7-e5` / `t 2 g8-f6`: a take-back line.
    TakeBackLine,
    /// `Clock 00:06:27 00:00:01`.
    Clock,
    /// `Flip` / `Flip --> Black`.
    Flip,
    /// `Game 2`: the head of a game list.
    Game,
    /// `. white black` / `. 1 e2-e4 c7-c5`: a game-list line.
    GameRow,
    /// `ID. UCBII V1.09`.
    Identity,
    /// `Level tr 1`.
    Level,
    /// `New Game`.
    NewGame,
    /// `Position Board`.
    PositionBoard,
    /// `Xmit on`.
    Xmit,
    /// `.Referee on`.
    Referee,
    /// A host command line whose letter is not read yet (an empty line or
    /// one of blanks).
    Command,
    /// The `M` command (`M e2e4`).
    MoveCommand,
    /// The `L` command (`L`, `L CITRINE 5`).
    LevelCommand,
    /// The `P` command (`P`, `P <set-up>`).
    PositionCommand,
    /// The `X` command (`X`, `X ON`, `X OFF`).
    XmitCommand,
    /// The `U` command (`U`, `U ON`, `U OFF`).
    RefereeCommand,
    /// A command without arguments (`C`, `F`, `G`, `I`, `N`, `O`, `T`,
    /// `J`) followed by something.
    BareCommand,
}

impl fmt::Display for MessageKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MessageKind::Reply => "reply line",
            MessageKind::MoveLine => "move line",
            MessageKind::TakeBackLine => "take-back line",
            MessageKind::Clock => "Clock line",
            MessageKind::Flip => "Flip line",
            MessageKind::Game => "Game line",
            MessageKind::GameRow => "game-list line",
            MessageKind::Identity => "ID line",
            MessageKind::Level => "Level line",
            MessageKind::NewGame => "New Game line",
            MessageKind::PositionBoard => "Position Board line",
            MessageKind::Xmit => "Xmit line",
            MessageKind::Referee => ".Referee line",
            MessageKind::Command => "command",
            MessageKind::MoveCommand => "M command",
            MessageKind::LevelCommand => "L command",
            MessageKind::PositionCommand => "P command",
            MessageKind::XmitCommand => "X command",
            MessageKind::RefereeCommand => "U command",
            MessageKind::BareCommand => "command without arguments",
        })
    }
}

/// Which field of a line failed to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
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
            Field::SetUp => "set-up text",
            Field::Trailing => "end of line",
        })
    }
}

/// What a field takes, for [`Problem::Invalid`], and what is wrong with a
/// field: the family's one vocabulary (`boardwire_proto`), the same types
/// as `damexchange::error` and `csa_protocol::error` re-export. The
/// variants Citrine produces ([`spec::citrine`](crate::spec::citrine),
/// *Commands (host -> device) and replies (device -> host)* and *Move text
/// the Citrine prints*): [`Problem::Empty`], [`Problem::Missing`],
/// [`Problem::Invalid`] (with [`Expected::Digit`], `File`, `Rank`,
/// `MoveSeparator`, `PromotionPiece`, `MoveEnd`, `Colon`, `Blank`,
/// `Switch`, `Side`, `Arrow`, `LevelKind`, `LevelName`, `Graphic`,
/// `Keyword`, `DiagramCell`), [`Problem::OutOfRange`],
/// [`Problem::Trailing`] and [`Problem::TooLong`].
pub use boardwire_proto::{Expected, Problem};

/// A line that starts like a known reply or command but does not decode.
///
/// `offset` is the 0-based byte offset in the line (terminator excluded)
/// of the first bad byte; for a field that is missing or cut off
/// ([`Problem::Missing`]), the line's length.
///
/// ```
/// use novag_citrine::decode::decode;
/// use novag_citrine::error::{Expected, Problem};
/// use novag_citrine::message::Reply;
/// let e = decode::<Reply>(b"M 1 e9-e4").unwrap_err();
/// assert_eq!(e.offset, 5); // the rank `9`
/// assert_eq!(e.problem, Problem::Invalid { byte: b'9', expected: Expected::Rank });
/// assert_eq!(
///     e.to_string(),
///     "move line square at byte 5: expected a rank 1-8, found '9'"
/// );
/// assert_eq!(decode::<Reply>(b"M 1").unwrap_err().offset, 3); // the move is missing
/// ```
pub type DecodeError = boardwire_proto::DecodeError<MessageKind, Field>;

/// The item error of a framed stream ([`Framer`](crate::framer::Framer)
/// users, the tokio `codec` module, the sessions' `handle_frame_error`):
/// an over-long line (`Overlong { len, max }`) or a line that does not
/// decode (`Malformed(DecodeError)`); the line was skipped and the stream
/// goes on with the next one. The family's `FrameError` over this crate's
/// [`DecodeError`]. (`Unterminated` is never produced here: a last line
/// without its terminator is decoded as a line.)
pub type FrameError = boardwire_proto::FrameError<DecodeError>;

/// A value rejected by a validated constructor (`MoveNumber::new`,
/// `ClockTime::new`, `Level::new`, `Token::new`, ...).
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
    /// whitespace inside a token, non-ASCII), at 0-based byte `offset`.
    #[error("{what}: byte {byte:#04x} not allowed at byte {offset}")]
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
