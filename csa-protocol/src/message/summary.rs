//! The `Game_Summary` block ([`spec::csa`](crate::spec::csa), *Game_Summary*): a typed value, an
//! incremental line-by-line reader, and an encoder.
//!
//! ```text
//! BEGIN Game_Summary
//! Protocol_Version:1.2
//! ...
//! BEGIN Time            (or BEGIN Time+ ... END Time+ and BEGIN Time- ... END Time-)
//! ...
//! END Time
//! BEGIN Position
//! P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
//! ...
//! +
//! +7776FU,T1            (moves already played)
//! END Position
//! END Game_Summary
//! ```
//!
//! Unknown `Key:Value` lines are kept (in [`GameSummary::extra`] or
//! [`TimeSection::extra`]), never fatal: real servers add fields.

use crate::sink::Sink as _;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::error::{DecodeError, SummaryKey, SummarySection, ValueForm};
use crate::message::server_line::{ServerMessage, SummaryLine, decode_server_line};
use crate::moves::CsaMove;
use crate::types::{FromChecked, GameId, MoveTime, Side, Text};

/// The unit of the Time block's numbers: `Time_Unit:<n>(sec|min|msec)`
/// (default `1sec`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TimeUnit {
    /// The multiplier `n` (at least 1).
    pub count: u32,
    /// The base unit.
    pub base: TimeBase,
}

/// Base unit of [`TimeUnit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeBase {
    /// `sec`.
    Sec,
    /// `min`.
    Min,
    /// `msec`.
    Msec,
}

impl TimeUnit {
    /// `1sec`, the default.
    pub const SECOND: TimeUnit = TimeUnit {
        count: 1,
        base: TimeBase::Sec,
    };

    /// Length of one unit in milliseconds.
    pub fn millis(self) -> u64 {
        u64::from(self.count)
            * match self.base {
                TimeBase::Sec => 1000,
                TimeBase::Min => 60_000,
                TimeBase::Msec => 1,
            }
    }

    fn parse(v: &str) -> Option<TimeUnit> {
        let digits = v.bytes().take_while(u8::is_ascii_digit).count();
        let (n, unit) = v.split_at(digits);
        let count: u32 = if n.is_empty() {
            return None;
        } else {
            n.parse().ok().filter(|&c| c >= 1)?
        };
        let base = match unit {
            "sec" => TimeBase::Sec,
            "min" => TimeBase::Min,
            "msec" => TimeBase::Msec,
            _ => return None,
        };
        Some(TimeUnit { count, base })
    }
}

impl fmt::Display for TimeUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = match self.base {
            TimeBase::Sec => "sec",
            TimeBase::Min => "min",
            TimeBase::Msec => "msec",
        };
        write!(f, "{}{b}", self.count)
    }
}

impl Default for TimeUnit {
    fn default() -> Self {
        Self::SECOND
    }
}

/// A field key kept verbatim: a letter, then letters, digits and `_`,
/// optionally ending in `+` or `-`, at most 64 bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldKey(String);

impl FieldKey {
    /// Validates a key.
    ///
    /// # Errors
    /// [`crate::error::ValueError`] when the key does not have the form above.
    pub fn new(key: &str) -> Result<Self, crate::error::ValueError> {
        use crate::error::{Expected, Problem, ValueError, ValueKind};
        let b = key.as_bytes();
        let last = b.len().saturating_sub(1);
        let bad = b.iter().enumerate().position(|(i, &c)| match i {
            0 => !c.is_ascii_alphabetic(),
            _ if i == last => !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'-')),
            _ => !(c.is_ascii_alphanumeric() || c == b'_'),
        });
        let problem = match bad {
            _ if b.is_empty() => Problem::Empty,
            Some(i) => {
                return Err(ValueError::new(
                    ValueKind::FieldKey,
                    i,
                    Problem::Invalid {
                        byte: b[i],
                        expected: Expected::FieldKey,
                    },
                ));
            }
            None if b.len() > 64 => Problem::TooLong {
                len: b.len(),
                max: 64,
            },
            None => return Ok(Self(key.into())),
        };
        let offset = if b.is_empty() { 0 } else { 64 };
        Err(ValueError::new(ValueKind::FieldKey, offset, problem))
    }

    /// The key.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A `BEGIN Time` (or `Time+` / `Time-`) section. Numbers are in
/// [`TimeSection::time_unit`] units. `None` means the line was absent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TimeSection {
    /// `Time_Unit` (absent means `1sec`).
    pub time_unit: Option<TimeUnit>,
    /// `Total_Time` (0 = unlimited on shogi-server).
    pub total_time: Option<u64>,
    /// `Byoyomi`.
    pub byoyomi: Option<u64>,
    /// `Increment` (1.2, Fischer; added before each of the side's turns).
    pub increment: Option<u64>,
    /// `Delay` (1.2).
    pub delay: Option<u64>,
    /// `Least_Time_Per_Move`.
    pub least_time_per_move: Option<u64>,
    /// `Time_Roundup` (`YES`/`NO`).
    pub time_roundup: Option<bool>,
    /// `Remaining_Time+` (`%%SHOW`/monitor output).
    pub remaining_time_black: Option<u64>,
    /// `Remaining_Time-` (`%%SHOW`/monitor output).
    pub remaining_time_white: Option<u64>,
    /// `Last_Move` (`%%SHOW` output), e.g. `-1213FU,T1`.
    pub last_move: Option<Text<'static>>,
    /// `Current_Turn` (`%%SHOW` output; shogi-server writes the number of
    /// moves played).
    pub current_turn: Option<u64>,
    /// Unknown `Key:Value` lines of this section, in order.
    pub extra: Vec<(FieldKey, Text<'static>)>,
}

impl TimeSection {
    /// The unit (default `1sec`).
    pub fn unit(&self) -> TimeUnit {
        self.time_unit.unwrap_or_default()
    }

    /// `value` units in milliseconds.
    pub fn to_millis(&self, value: u64) -> u64 {
        value.saturating_mul(self.unit().millis())
    }
}

/// The `BEGIN Position` section: the set-up lines, the side to move, and the
/// moves already played (resumed or buoy games).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PositionSection {
    /// The position lines, each followed by LF (one buffer: one allocation
    /// for the whole section instead of one per line).
    text: String,
    /// The side-to-move line (`+`/`-`); `None` if absent.
    pub side_to_move: Option<Side>,
    /// Moves already played, each with its `,T` time if given.
    pub moves: Vec<(CsaMove, Option<MoveTime>)>,
}

impl PositionSection {
    /// The `P1`..`P9`, `PI...`, `P+`/`P-` lines, in order, as sent.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        // Checked position lines hold no LF.
        self.text.split_terminator('\n')
    }

    /// Appends a position line.
    ///
    /// # Errors
    /// [`DecodeError`] when `line` is not a CSA position line
    /// (`P1`..`P9`, `PI`, `P+`, `P-` followed by printable ASCII or spaces,
    /// at most 256 bytes).
    pub fn push_line(&mut self, line: &str) -> Result<(), DecodeError> {
        crate::position::check_line(line.as_bytes())?;
        self.push_checked(line);
        Ok(())
    }

    /// [`push_line`](Self::push_line) of a line already checked.
    pub(crate) fn push_checked(&mut self, line: &str) {
        if self.text.is_empty() {
            // Room for a whole board of lines like this one (`P1`..`P9`
            // and a hand line), so a section costs one allocation.
            self.text.reserve(10 * (line.len() + 1));
        }
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// The whole position text (lines and side to move, LF-separated), the
    /// form `board_core::shogi` reads.
    pub fn position_text(&self) -> String {
        let mut s = String::with_capacity(self.text.len() + 2);
        s.push_str(&self.text);
        if let Some(side) = self.side_to_move {
            s.push(side.sign());
            s.push('\n');
        }
        s
    }
}

/// A `Game_Summary` block as a typed value ([`spec::csa`](crate::spec::csa), *Game_Summary*).
///
/// Build one, [`GameSummary::encode`] it, and [`GameSummary::parse`] gives it
/// back equal. Fields absent from the block are `None`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameSummary {
    /// `Protocol_Version`, e.g. `1.2`.
    pub protocol_version: Option<Text<'static>>,
    /// `Protocol_Mode`, e.g. `Server`.
    pub protocol_mode: Option<Text<'static>>,
    /// `Format`, e.g. `Shogi 1.0`.
    pub format: Option<Text<'static>>,
    /// `Declaration`, e.g. `Jishogi 1.1`.
    pub declaration: Option<Text<'static>>,
    /// `Game_ID`.
    pub game_id: Option<GameId<'static>>,
    /// `Name+`: the Black (sente) player.
    pub name_black: Option<Text<'static>>,
    /// `Name-`: the White (gote) player.
    pub name_white: Option<Text<'static>>,
    /// `Your_Turn`: the receiver's side (absent in `%%SHOW` output).
    pub your_turn: Option<Side>,
    /// `Rematch_On_Draw` (`YES`/`NO`).
    pub rematch_on_draw: Option<bool>,
    /// `To_Move`: side to move at the start position.
    pub to_move: Option<Side>,
    /// `Max_Moves` (1.2; 0 = no limit).
    pub max_moves: Option<u64>,
    /// Unknown `Key:Value` lines of the summary body, in order.
    pub extra: Vec<(FieldKey, Text<'static>)>,
    /// `BEGIN Time` (both sides).
    pub time: Option<TimeSection>,
    /// `BEGIN Time+` (1.2.1 per-side clock, Black).
    pub time_black: Option<TimeSection>,
    /// `BEGIN Time-` (1.2.1 per-side clock, White).
    pub time_white: Option<TimeSection>,
    /// `BEGIN Position`.
    pub position: Option<PositionSection>,
}

/// An error while reading a `Game_Summary` block.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SummaryError {
    /// A line of the block is malformed.
    #[error("Game_Summary line {line_no}: {source}")]
    Line {
        /// 1-based line number within the block (`BEGIN Game_Summary` = 1).
        line_no: usize,
        /// The line error.
        source: DecodeError,
    },
    /// A line is valid but not allowed at this place of the block.
    #[error("Game_Summary line {line_no}: unexpected line in {section}")]
    Unexpected {
        /// 1-based line number within the block.
        line_no: usize,
        /// The section being read.
        section: SummarySection,
    },
    /// A known field has a malformed value.
    #[error("Game_Summary line {line_no}: field `{key}`: expected {expected}")]
    BadValue {
        /// 1-based line number within the block.
        line_no: usize,
        /// The key.
        key: SummaryKey,
        /// What the value should look like.
        expected: ValueForm,
    },
    /// A field appears twice in one section.
    #[error("Game_Summary line {line_no}: duplicate field `{key}`")]
    Duplicate {
        /// 1-based line number within the block.
        line_no: usize,
        /// The key.
        key: SummaryKey,
    },
    /// A section appears twice.
    #[error("Game_Summary line {line_no}: duplicate section `{section}`")]
    DuplicateSection {
        /// 1-based line number within the block.
        line_no: usize,
        /// The section.
        section: SummarySection,
    },
    /// The text ended inside the block.
    #[error("Game_Summary: input ended inside the block")]
    Unterminated,
    /// The block goes past one of the reader's caps
    /// ([`GameSummaryReader::MAX_LINES`],
    /// [`GameSummaryReader::MAX_POSITION_LINES`],
    /// [`GameSummaryReader::MAX_UNKNOWN_FIELDS`]): a server that sends
    /// without end cannot grow the reader's memory.
    #[error("Game_Summary line {line_no}: {limit}")]
    Limit {
        /// 1-based line number within the block (the first line past the cap).
        line_no: usize,
        /// The cap reached.
        limit: SummaryLimit,
    },
}

/// Which cap of [`GameSummaryReader`] a block went past
/// ([`SummaryError::Limit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SummaryLimit {
    /// More than [`GameSummaryReader::MAX_LINES`] lines in the block.
    Lines,
    /// More than [`GameSummaryReader::MAX_POSITION_LINES`] `P…` lines in
    /// the `Position` section.
    PositionLines,
    /// More than [`GameSummaryReader::MAX_UNKNOWN_FIELDS`] unknown
    /// `Key:Value` lines in one section.
    UnknownFields,
}

impl fmt::Display for SummaryLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SummaryLimit::Lines => write!(
                f,
                "a block has at most {} lines",
                GameSummaryReader::MAX_LINES
            ),
            SummaryLimit::PositionLines => write!(
                f,
                "a Position section has at most {} position lines",
                GameSummaryReader::MAX_POSITION_LINES
            ),
            SummaryLimit::UnknownFields => write!(
                f,
                "a section has at most {} unknown fields",
                GameSummaryReader::MAX_UNKNOWN_FIELDS
            ),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Before,
    Body,
    Time(u8), // 0 common, 1 black, 2 white
    Position,
    Done,
}

/// Reads a `Game_Summary` block one line at a time (the client session feeds
/// it the lines between `BEGIN Game_Summary` and `END Game_Summary`).
///
/// ```
/// use csa_protocol::message::GameSummaryReader;
/// use csa_protocol::types::Side;
///
/// let mut r = GameSummaryReader::new();
/// let text = "BEGIN Game_Summary\nName+:alice\nName-:bob\nYour_Turn:-\nTo_Move:+\nEND Game_Summary";
/// let mut done = None;
/// for line in text.lines() {
///     done = r.push_line(line.as_bytes()).unwrap();
/// }
/// let s = done.unwrap();
/// assert_eq!(s.your_turn, Some(Side::White));
/// assert_eq!(s.name_black.unwrap().as_str(), "alice");
/// ```
#[derive(Debug, Clone)]
pub struct GameSummaryReader {
    summary: GameSummary,
    section: Section,
    line_no: usize,
    cur_time: TimeSection,
    /// Lines in the `Position` section so far.
    position_lines: usize,
}

impl Default for GameSummaryReader {
    fn default() -> Self {
        Self::new()
    }
}

/// `value` as an owned [`Text`]; the values every shogi-server and
/// Floodgate summary carries (`Protocol_Version:1.2`,
/// `Protocol_Mode:Server`, `Format:Shogi 1.0`, `Declaration:Jishogi 1.1`;
/// [`spec::csa`](crate::spec::csa), *Game_Summary*) are taken from static
/// text instead of a new allocation.
fn owned_text(value: &Text<'_>) -> Text<'static> {
    const COMMON: [&str; 6] = ["1.1", "1.2", "1.2.1", "Server", "Shogi 1.0", "Jishogi 1.1"];
    match COMMON.iter().find(|c| **c == value.as_str()) {
        Some(c) => Text::from_checked(c),
        None => value.clone().into_owned(),
    }
}

fn yes_no(v: &str) -> Option<bool> {
    match v {
        "YES" => Some(true),
        "NO" => Some(false),
        _ => None,
    }
}

fn number(v: &str) -> Option<u64> {
    if v.is_empty() || v.len() > 18 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse().ok()
}

fn side(v: &str) -> Option<Side> {
    match v {
        "+" => Some(Side::Black),
        "-" => Some(Side::White),
        _ => None,
    }
}

impl GameSummaryReader {
    /// Most lines in one block, `BEGIN`/`END` lines included: room for a
    /// `Position` section of 20,000 moves already played (the sessions'
    /// default `max_game_plies`) and every field. With the line cap of the
    /// framer (8 KiB by default) and the two caps below, a block holds at
    /// most about 2.5 MiB while it is read.
    pub const MAX_LINES: usize = 25_000;
    /// Most `P1`…`P9`, `PI`, `P+`, `P-` lines in a `Position` section (a
    /// board takes 9 rows and two hand lines; at most 256 bytes each).
    pub const MAX_POSITION_LINES: usize = 64;
    /// Most unknown `Key:Value` lines kept per section
    /// ([`GameSummary::extra`], [`TimeSection::extra`]).
    pub const MAX_UNKNOWN_FIELDS: usize = 64;

    /// A reader expecting `BEGIN Game_Summary` first.
    pub fn new() -> Self {
        Self {
            summary: GameSummary::default(),
            section: Section::Before,
            line_no: 0,
            cur_time: TimeSection::default(),
            position_lines: 0,
        }
    }

    /// `true` once `BEGIN Game_Summary` was read and the block is not closed.
    pub fn in_block(&self) -> bool {
        !matches!(self.section, Section::Before | Section::Done)
    }

    /// Feeds one line (terminator removed). Returns the summary after
    /// `END Game_Summary`; afterwards the reader is reset for another block.
    ///
    /// # Errors
    /// [`SummaryError`] naming the line number (within the block) and the
    /// field. After an error, the reader is reset.
    pub fn push_line(&mut self, line: &[u8]) -> Result<Option<GameSummary>, SummaryError> {
        Ok(self.step_line(line)?.then(|| self.finish()))
    }

    /// Feeds one decoded line (as [`GameSummaryReader::push_line`]).
    ///
    /// # Errors
    /// As [`GameSummaryReader::push_line`].
    pub fn push_message(
        &mut self,
        msg: &ServerMessage<'_>,
    ) -> Result<Option<GameSummary>, SummaryError> {
        Ok(self.step(msg, false)?.then(|| self.finish()))
    }

    /// [`push_line`](Self::push_line) without moving the summary: `true`
    /// when the block is complete ([`finish`](Self::finish) takes it). The
    /// summary is a large value: moved out once per block, not once per
    /// line.
    fn step_line(&mut self, line: &[u8]) -> Result<bool, SummaryError> {
        match decode_server_line(line) {
            Ok(msg) => self.step(&msg, true),
            Err(source) => {
                let line_no = self.line_no + 1;
                *self = Self::new();
                Err(SummaryError::Line { line_no, source })
            }
        }
    }

    /// [`push_message`](Self::push_message) without moving the summary
    /// (see [`step_line`](Self::step_line)).
    fn step(&mut self, msg: &ServerMessage<'_>, decoded: bool) -> Result<bool, SummaryError> {
        self.line_no += 1;
        let r = if self.line_no > Self::MAX_LINES {
            Err(SummaryError::Limit {
                line_no: self.line_no,
                limit: SummaryLimit::Lines,
            })
        } else {
            self.push_inner(msg, decoded)
        };
        if r.is_err() {
            *self = Self::new();
        }
        r
    }

    /// The summary of the block just completed; the reader starts afresh.
    fn finish(&mut self) -> GameSummary {
        core::mem::take(self).summary
    }

    /// One line of the block; `decoded`: `msg` is what this reader's
    /// decoder just made of a line (its position lines are checked).
    fn push_inner(&mut self, msg: &ServerMessage<'_>, decoded: bool) -> Result<bool, SummaryError> {
        let line_no = self.line_no;
        let unexpected = |section| SummaryError::Unexpected { line_no, section };
        let limit = |limit| SummaryError::Limit { line_no, limit };
        let bad = |key, expected| SummaryError::BadValue {
            line_no,
            key,
            expected,
        };
        // A field's value, given once per block: twice is an error.
        macro_rules! set {
            ($slot:expr, $k:expr, $val:expr) => {{
                if $slot.is_some() {
                    return Err(SummaryError::Duplicate { line_no, key: $k });
                }
                $slot = Some($val);
            }};
        }
        match self.section {
            Section::Before => match msg {
                ServerMessage::Summary(SummaryLine::Begin(b)) if b.as_str() == "Game_Summary" => {
                    self.section = Section::Body;
                    Ok(false)
                }
                _ => Err(unexpected(SummarySection::Before)),
            },
            Section::Done => Err(unexpected(SummarySection::After)),
            Section::Body => match msg {
                ServerMessage::Summary(SummaryLine::Begin(b)) => {
                    let (sec, slot_full) = match b.as_str() {
                        "Time" => (Section::Time(0), self.summary.time.is_some()),
                        "Time+" => (Section::Time(1), self.summary.time_black.is_some()),
                        "Time-" => (Section::Time(2), self.summary.time_white.is_some()),
                        "Position" => (Section::Position, self.summary.position.is_some()),
                        _ => return Err(unexpected(SummarySection::GameSummary)),
                    };
                    if slot_full {
                        return Err(SummaryError::DuplicateSection {
                            line_no,
                            section: section_name(sec),
                        });
                    }
                    if sec == Section::Position {
                        self.summary.position = Some(PositionSection::default());
                    }
                    self.cur_time = TimeSection::default();
                    self.section = sec;
                    Ok(false)
                }
                ServerMessage::Summary(SummaryLine::End(b)) if b.as_str() == "Game_Summary" => {
                    self.section = Section::Done;
                    Ok(true)
                }
                ServerMessage::Summary(SummaryLine::Field { key, value }) => {
                    let s = &mut self.summary;
                    let v = value.as_str();
                    match key.as_str() {
                        "Protocol_Version" => {
                            set!(
                                s.protocol_version,
                                SummaryKey::ProtocolVersion,
                                owned_text(value)
                            )
                        }
                        "Protocol_Mode" => {
                            set!(s.protocol_mode, SummaryKey::ProtocolMode, owned_text(value))
                        }
                        "Format" => set!(s.format, SummaryKey::Format, owned_text(value)),
                        "Declaration" => {
                            set!(s.declaration, SummaryKey::Declaration, owned_text(value))
                        }
                        "Game_ID" => {
                            let id = GameId::new(v)
                                .map_err(|_| bad(SummaryKey::GameId, ValueForm::GameId))?;
                            set!(s.game_id, SummaryKey::GameId, id.into_owned())
                        }
                        "Name+" => set!(
                            s.name_black,
                            SummaryKey::NameBlack,
                            value.clone().into_owned()
                        ),
                        "Name-" => set!(
                            s.name_white,
                            SummaryKey::NameWhite,
                            value.clone().into_owned()
                        ),
                        "Your_Turn" => set!(
                            s.your_turn,
                            SummaryKey::YourTurn,
                            side(v).ok_or_else(|| bad(SummaryKey::YourTurn, ValueForm::Sign))?
                        ),
                        "To_Move" => set!(
                            s.to_move,
                            SummaryKey::ToMove,
                            side(v).ok_or_else(|| bad(SummaryKey::ToMove, ValueForm::Sign))?
                        ),
                        "Rematch_On_Draw" => set!(
                            s.rematch_on_draw,
                            SummaryKey::RematchOnDraw,
                            yes_no(v)
                                .ok_or_else(|| bad(SummaryKey::RematchOnDraw, ValueForm::YesNo))?
                        ),
                        "Max_Moves" => set!(
                            s.max_moves,
                            SummaryKey::MaxMoves,
                            number(v)
                                .ok_or_else(|| bad(SummaryKey::MaxMoves, ValueForm::Number))?
                        ),
                        k => {
                            let key = FieldKey::new(k)
                                .map_err(|_| unexpected(SummarySection::GameSummary))?;
                            if s.extra.len() >= Self::MAX_UNKNOWN_FIELDS {
                                return Err(limit(SummaryLimit::UnknownFields));
                            }
                            s.extra.push((key, value.clone().into_owned()));
                        }
                    }
                    Ok(false)
                }
                _ => Err(unexpected(SummarySection::GameSummary)),
            },
            Section::Time(which) => match msg {
                ServerMessage::Summary(SummaryLine::End(b))
                    if b.as_str() == section_name(self.section).as_str() =>
                {
                    let t = core::mem::take(&mut self.cur_time);
                    match which {
                        0 => self.summary.time = Some(t),
                        1 => self.summary.time_black = Some(t),
                        _ => self.summary.time_white = Some(t),
                    }
                    self.section = Section::Body;
                    Ok(false)
                }
                ServerMessage::Summary(SummaryLine::Field { key, value }) => {
                    let t = &mut self.cur_time;
                    let v = value.as_str();
                    macro_rules! num {
                        ($k:expr) => {
                            number(v).ok_or_else(|| bad($k, ValueForm::Number))?
                        };
                    }
                    match key.as_str() {
                        "Time_Unit" => set!(
                            t.time_unit,
                            SummaryKey::TimeUnit,
                            TimeUnit::parse(v)
                                .ok_or_else(|| bad(SummaryKey::TimeUnit, ValueForm::TimeUnit))?
                        ),
                        "Total_Time" => set!(
                            t.total_time,
                            SummaryKey::TotalTime,
                            num!(SummaryKey::TotalTime)
                        ),
                        "Byoyomi" => {
                            set!(t.byoyomi, SummaryKey::Byoyomi, num!(SummaryKey::Byoyomi))
                        }
                        "Increment" => set!(
                            t.increment,
                            SummaryKey::Increment,
                            num!(SummaryKey::Increment)
                        ),
                        "Delay" => set!(t.delay, SummaryKey::Delay, num!(SummaryKey::Delay)),
                        "Least_Time_Per_Move" => set!(
                            t.least_time_per_move,
                            SummaryKey::LeastTimePerMove,
                            num!(SummaryKey::LeastTimePerMove)
                        ),
                        "Time_Roundup" => set!(
                            t.time_roundup,
                            SummaryKey::TimeRoundup,
                            yes_no(v)
                                .ok_or_else(|| bad(SummaryKey::TimeRoundup, ValueForm::YesNo))?
                        ),
                        "Remaining_Time+" => set!(
                            t.remaining_time_black,
                            SummaryKey::RemainingTimeBlack,
                            num!(SummaryKey::RemainingTimeBlack)
                        ),
                        "Remaining_Time-" => set!(
                            t.remaining_time_white,
                            SummaryKey::RemainingTimeWhite,
                            num!(SummaryKey::RemainingTimeWhite)
                        ),
                        "Last_Move" => set!(
                            t.last_move,
                            SummaryKey::LastMove,
                            value.clone().into_owned()
                        ),
                        "Current_Turn" => {
                            set!(
                                t.current_turn,
                                SummaryKey::CurrentTurn,
                                num!(SummaryKey::CurrentTurn)
                            )
                        }
                        k => {
                            let key =
                                FieldKey::new(k).map_err(|_| unexpected(SummarySection::Time))?;
                            if t.extra.len() >= Self::MAX_UNKNOWN_FIELDS {
                                return Err(limit(SummaryLimit::UnknownFields));
                            }
                            t.extra.push((key, value.clone().into_owned()));
                        }
                    }
                    Ok(false)
                }
                _ => Err(unexpected(section_name(self.section))),
            },
            Section::Position => {
                let p = self
                    .summary
                    .position
                    .get_or_insert_with(PositionSection::default);
                match msg {
                    ServerMessage::Summary(SummaryLine::End(b)) if b.as_str() == "Position" => {
                        self.section = Section::Body;
                        Ok(false)
                    }
                    ServerMessage::Summary(SummaryLine::Position(row))
                        if p.side_to_move.is_none() =>
                    {
                        if self.position_lines >= Self::MAX_POSITION_LINES {
                            return Err(limit(SummaryLimit::PositionLines));
                        }
                        if decoded {
                            // The decoder checked the line.
                            p.push_checked(row.as_str());
                        } else {
                            p.push_line(row.as_str())
                                .map_err(|source| SummaryError::Line { line_no, source })?;
                        }
                        self.position_lines += 1;
                        Ok(false)
                    }
                    ServerMessage::Summary(SummaryLine::SideToMove(s))
                        if p.side_to_move.is_none() =>
                    {
                        p.side_to_move = Some(*s);
                        Ok(false)
                    }
                    ServerMessage::Move { mv, time } if p.side_to_move.is_some() => {
                        p.moves.push((*mv, *time));
                        Ok(false)
                    }
                    _ => Err(unexpected(SummarySection::Position)),
                }
            }
        }
    }
}

fn section_name(s: Section) -> SummarySection {
    match s {
        Section::Before | Section::Done | Section::Body => SummarySection::GameSummary,
        Section::Time(0) => SummarySection::Time,
        Section::Time(1) => SummarySection::TimeBlack,
        Section::Time(_) => SummarySection::TimeWhite,
        Section::Position => SummarySection::Position,
    }
}

impl GameSummary {
    /// Parses a whole block from text (lines separated by LF or CRLF).
    ///
    /// # Errors
    /// [`SummaryError`] as for [`GameSummaryReader::push_line`], or
    /// [`SummaryError::Unterminated`] when the text ends inside the block.
    pub fn parse(text: &[u8]) -> Result<GameSummary, SummaryError> {
        use crate::framer::{Framer, Status};
        let mut r = GameSummaryReader::new();
        // The family's framer cuts the lines (no cap: the reader's caps
        // bound the block); what is left without an LF is the last line.
        let mut framer = Framer::new(usize::MAX);
        let mut rest = text;
        while !rest.is_empty() {
            let line = match framer.decode(rest) {
                Status::Complete { frame, consumed } => {
                    rest = &rest[consumed..];
                    frame
                }
                _ => {
                    let last = core::mem::take(&mut rest);
                    last.strip_suffix(b"\r").unwrap_or(last)
                }
            };
            if line.is_empty() && !r.in_block() {
                continue;
            }
            if r.step_line(line)? {
                return Ok(r.finish());
            }
        }
        Err(SummaryError::Unterminated)
    }

    /// Appends the whole block, each line LF-terminated, in shogi-server's
    /// order (see the module documentation). Never fails.
    pub fn encode(&self, out: &mut Vec<u8>) {
        self.encode_with_prefix(b"", out);
    }

    /// Like [`GameSummary::encode`] but with `prefix` before every line
    /// (e.g. `##[SHOW] ` for `%%SHOW` replies).
    pub fn encode_with_prefix(&self, prefix: &[u8], out: &mut Vec<u8>) {
        // One line: the prefix, the parts, LF.
        let line = |out: &mut Vec<u8>, parts: &[&[u8]]| {
            out.put(prefix);
            for p in parts {
                out.put(p);
            }
            out.push(b'\n');
        };
        // `Key:<number>`.
        let num = |out: &mut Vec<u8>, key: &[u8], v: Option<u64>| {
            if let Some(v) = v {
                out.put(prefix);
                out.put(key);
                out.push(b':');
                out.put_u64(v);
                out.push(b'\n');
            }
        };
        let opt = |out: &mut Vec<u8>, key: &[u8], v: &Option<Text<'static>>| {
            if let Some(v) = v {
                line(out, &[key, b":", v.as_str().as_bytes()]);
            }
        };
        let yes_no = |b: bool| -> &'static [u8] { if b { b"YES" } else { b"NO" } };
        line(out, &[b"BEGIN Game_Summary"]);
        opt(out, b"Protocol_Version", &self.protocol_version);
        opt(out, b"Protocol_Mode", &self.protocol_mode);
        opt(out, b"Format", &self.format);
        opt(out, b"Declaration", &self.declaration);
        if let Some(id) = &self.game_id {
            line(out, &[b"Game_ID:", id.as_str().as_bytes()]);
        }
        opt(out, b"Name+", &self.name_black);
        opt(out, b"Name-", &self.name_white);
        if let Some(s) = self.your_turn {
            line(out, &[b"Your_Turn:", &[s.sign() as u8]]);
        }
        if let Some(b) = self.rematch_on_draw {
            line(out, &[b"Rematch_On_Draw:", yes_no(b)]);
        }
        if let Some(s) = self.to_move {
            line(out, &[b"To_Move:", &[s.sign() as u8]]);
        }
        num(out, b"Max_Moves", self.max_moves);
        for (k, v) in &self.extra {
            line(out, &[k.as_str().as_bytes(), b":", v.as_str().as_bytes()]);
        }
        for (name, t) in [
            (&b"Time"[..], &self.time),
            (b"Time+", &self.time_black),
            (b"Time-", &self.time_white),
        ] {
            let Some(t) = t else { continue };
            line(out, &[b"BEGIN ", name]);
            if let Some(u) = t.time_unit {
                out.put(prefix);
                out.put(b"Time_Unit:");
                out.put_u64(u64::from(u.count));
                out.put(match u.base {
                    TimeBase::Sec => b"sec",
                    TimeBase::Min => b"min",
                    TimeBase::Msec => b"msec",
                });
                out.push(b'\n');
            }
            num(out, b"Total_Time", t.total_time);
            num(out, b"Byoyomi", t.byoyomi);
            num(out, b"Increment", t.increment);
            num(out, b"Delay", t.delay);
            num(out, b"Least_Time_Per_Move", t.least_time_per_move);
            if let Some(b) = t.time_roundup {
                line(out, &[b"Time_Roundup:", yes_no(b)]);
            }
            num(out, b"Remaining_Time+", t.remaining_time_black);
            num(out, b"Remaining_Time-", t.remaining_time_white);
            if let Some(m) = &t.last_move {
                line(out, &[b"Last_Move:", m.as_str().as_bytes()]);
            }
            num(out, b"Current_Turn", t.current_turn);
            for (k, v) in &t.extra {
                line(out, &[k.as_str().as_bytes(), b":", v.as_str().as_bytes()]);
            }
            line(out, &[b"END ", name]);
        }
        if let Some(p) = &self.position {
            line(out, &[b"BEGIN Position"]);
            if prefix.is_empty() {
                // The lines as held, in one piece (each ends with LF).
                out.put(p.text.as_bytes());
            } else {
                for l in p.lines() {
                    line(out, &[l.as_bytes()]);
                }
            }
            if let Some(s) = p.side_to_move {
                line(out, &[&[s.sign() as u8]]);
            }
            for (mv, t) in &p.moves {
                out.put(prefix);
                out.put(&mv.to_bytes());
                if let Some(t) = t {
                    out.put(b",T");
                    t.put_to(out);
                }
                out.push(b'\n');
            }
            line(out, &[b"END Position"]);
        }
        line(out, &[b"END Game_Summary"]);
    }

    /// The encoded block as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode(&mut v);
        v
    }
}

/// The wire block, its lines separated by LF, without the last LF (as a
/// message's `Display` is its line without the terminator):
/// `GameSummary::parse(s.to_string().as_bytes()) == Ok(s)`.
impl fmt::Display for GameSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.to_bytes();
        let body = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        crate::types::write_lossy(f, body)
    }
}
