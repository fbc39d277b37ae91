//! Validated wire vocabulary shared by commands and replies: move numbers,
//! clock readings, levels, promotion pieces, move text, tokens.
//!
//! Every value here is checked when it is constructed, so every value that
//! exists encodes ([`spec::citrine`](crate::spec::citrine), *Move text the Citrine prints*).
//! The chess vocabulary (squares, colours, pieces) is board-core's,
//! re-exported in [`vocab`](crate::vocab).

use core::fmt;

pub use boardwire_proto::text::{CheckedText, TextRule};

use crate::error::ValueError;
use crate::vocab::{CastlingSide, PieceKind, Square, role_letter};

/// A move number as the Citrine prints it, `1..=9999` (full moves, starting
/// at 1; a black move carries the number of the full move it completes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveNumber(u16);

impl MoveNumber {
    /// Largest accepted move number.
    pub const MAX: u16 = 9999;
    /// Move number 1.
    pub const ONE: MoveNumber = MoveNumber(1);

    /// A move number `1..=9999`.
    ///
    /// # Errors
    /// [`ValueError::OutOfRange`] outside `1..=9999`.
    pub const fn new(n: u16) -> Result<Self, ValueError> {
        if n >= 1 && n <= Self::MAX {
            Ok(MoveNumber(n))
        } else {
            Err(ValueError::OutOfRange {
                what: "move number",
                value: n as u32,
                min: 1,
                max: Self::MAX as u32,
            })
        }
    }

    /// The number, `1..=9999`.
    pub const fn get(self) -> u16 {
        self.0
    }

    /// The move number of ply `ply` (0-based half-move index from the start
    /// position with White to move): ply 0 and 1 are move 1. `None` past 9999.
    pub fn of_ply(ply: usize) -> Option<Self> {
        u16::try_from(ply / 2 + 1)
            .ok()
            .and_then(|n| MoveNumber::new(n).ok())
    }
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A clock reading `hh:mm:ss` (`Clock 00:06:27 00:00:01`): hours `0..=99`,
/// minutes and seconds `0..=59`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClockTime {
    hours: u8,
    minutes: u8,
    seconds: u8,
}

impl ClockTime {
    /// A clock reading.
    ///
    /// # Errors
    /// [`ValueError::OutOfRange`] for hours > 99, minutes or seconds > 59.
    pub const fn new(hours: u8, minutes: u8, seconds: u8) -> Result<Self, ValueError> {
        if hours > 99 {
            return Err(ValueError::OutOfRange {
                what: "clock hours",
                value: hours as u32,
                min: 0,
                max: 99,
            });
        }
        if minutes > 59 {
            return Err(ValueError::OutOfRange {
                what: "clock minutes",
                value: minutes as u32,
                min: 0,
                max: 59,
            });
        }
        if seconds > 59 {
            return Err(ValueError::OutOfRange {
                what: "clock seconds",
                value: seconds as u32,
                min: 0,
                max: 59,
            });
        }
        Ok(ClockTime {
            hours,
            minutes,
            seconds,
        })
    }

    /// Hours, `0..=99`.
    pub const fn hours(self) -> u8 {
        self.hours
    }
    /// Minutes, `0..=59`.
    pub const fn minutes(self) -> u8 {
        self.minutes
    }
    /// Seconds, `0..=59`.
    pub const fn seconds(self) -> u8 {
        self.seconds
    }
    /// The reading in seconds, `0..=359_999`.
    pub const fn total_seconds(self) -> u32 {
        self.hours as u32 * 3600 + self.minutes as u32 * 60 + self.seconds as u32
    }
    /// The reading for a number of seconds, saturating at `99:59:59`.
    pub const fn from_total_seconds(s: u32) -> Self {
        if s >= 100 * 3600 {
            return ClockTime {
                hours: 99,
                minutes: 59,
                seconds: 59,
            };
        }
        ClockTime {
            hours: (s / 3600) as u8,
            minutes: (s / 60 % 60) as u8,
            seconds: (s % 60) as u8,
        }
    }
}

impl ClockTime {
    /// Appends `hh:mm:ss`: what `Display` prints and the encoders write.
    #[inline]
    pub(crate) fn put(&self, s: &mut impl Sink) {
        let d = |n: u8| [b'0' + n / 10, b'0' + n % 10];
        let (h, m, sec) = (d(self.hours), d(self.minutes), d(self.seconds));
        s.put(&[h[0], h[1], b':', m[0], m[1], b':', sec[0], sec[1]]);
    }
}

impl fmt::Display for ClockTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_with(f, |s| self.put(s))
    }
}

/// The kind of a playing level ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and replies (device -> host)*, "Levels").
///
/// Replies print the lower-case abbreviation (`Level tr 1`), commands the
/// upper-case name (`L TR1`, `L CITRINE 5`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum LevelKind {
    /// Tournament level: reply `tr n`, command `TRn`. TR1 = 40 moves in 5
    /// minutes, the default.
    Tournament,
    /// The "CITRINE n" levels: reply `sd n`, command `CITRINE n`.
    Citrine,
    /// Average time per move: reply `at n` *(unconfirmed)*, command `ATn`.
    AverageTime,
    /// Beginner levels: reply `be n` *(unconfirmed)*, command `BEn`.
    Beginner,
}

impl LevelKind {
    /// The abbreviation in `Level` replies: `tr`, `sd`, `at`, `be`.
    pub const fn reply_name(self) -> &'static str {
        match self {
            LevelKind::Tournament => "tr",
            LevelKind::Citrine => "sd",
            LevelKind::AverageTime => "at",
            LevelKind::Beginner => "be",
        }
    }
    /// The name in `L` commands: `TR`, `CITRINE`, `AT`, `BE`.
    pub const fn command_name(self) -> &'static str {
        match self {
            LevelKind::Tournament => "TR",
            LevelKind::Citrine => "CITRINE",
            LevelKind::AverageTime => "AT",
            LevelKind::Beginner => "BE",
        }
    }
}

/// A playing level: a kind and a number `1..=99` (the device's ranges are not
/// published; the menu offers AT1..AT8 and BE1..BE8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Level {
    kind: LevelKind,
    number: u8,
}

impl Level {
    /// The device's default level, TR1.
    pub const DEFAULT: Level = Level {
        kind: LevelKind::Tournament,
        number: 1,
    };

    /// A level.
    ///
    /// # Errors
    /// [`ValueError::OutOfRange`] when `number` is outside `1..=99`.
    pub const fn new(kind: LevelKind, number: u8) -> Result<Self, ValueError> {
        if number >= 1 && number <= 99 {
            Ok(Level { kind, number })
        } else {
            Err(ValueError::OutOfRange {
                what: "level number",
                value: number as u32,
                min: 1,
                max: 99,
            })
        }
    }
    /// The kind.
    pub const fn kind(self) -> LevelKind {
        self.kind
    }
    /// The number, `1..=99`.
    pub const fn number(self) -> u8 {
        self.number
    }
}

/// A promotion piece, `/Q /R /B /N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Promotion {
    /// `/Q`
    Queen,
    /// `/R`
    Rook,
    /// `/B`
    Bishop,
    /// `/N`
    Knight,
}

impl Promotion {
    /// The board-core role.
    pub const fn role(self) -> PieceKind {
        match self {
            Promotion::Queen => PieceKind::Queen,
            Promotion::Rook => PieceKind::Rook,
            Promotion::Bishop => PieceKind::Bishop,
            Promotion::Knight => PieceKind::Knight,
        }
    }
    /// The promotion for a role; `None` for pawn and king.
    pub const fn from_role(r: PieceKind) -> Option<Self> {
        match r {
            PieceKind::Queen => Some(Promotion::Queen),
            PieceKind::Rook => Some(Promotion::Rook),
            PieceKind::Bishop => Some(Promotion::Bishop),
            PieceKind::Knight => Some(Promotion::Knight),
            _ => None,
        }
    }
    /// The upper-case letter `Q R B N`.
    pub const fn letter(self) -> u8 {
        match self {
            Promotion::Queen => b'Q',
            Promotion::Rook => b'R',
            Promotion::Bishop => b'B',
            Promotion::Knight => b'N',
        }
    }
    /// The promotion for a letter, either case.
    pub const fn from_letter(b: u8) -> Option<Self> {
        match b.to_ascii_uppercase() {
            b'Q' => Some(Promotion::Queen),
            b'R' => Some(Promotion::Rook),
            b'B' => Some(Promotion::Bishop),
            b'N' => Some(Promotion::Knight),
            _ => None,
        }
    }
}

/// A move as the Citrine prints it ([`spec::citrine`](crate::spec::citrine), *Move text the
/// Citrine prints*; `G` game lists): syntactic only, checked against a position by
/// the `convert` module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// `O-O` or `O-O-O` (never printed as a king move).
    Castle(CastlingSide),
    /// A from-to move.
    Normal(NormalMove),
}

/// A from-to move: `[piece]from(-|x)to[ep][/promotion]`, e.g. `e2-e4`,
/// `Ng1-f3` (game lists), `c5xd4`, `e5xd6ep`, `d7-d8/N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NormalMove {
    /// The piece letter printed before the move (`N B R Q K`), if any. Game
    /// lists print it for pieces; move lines never do. `Some(PieceKind::Pawn)` is
    /// printed as `P`.
    pub piece: Option<PieceKind>,
    /// Origin square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
    /// `x` between the squares (capture) instead of `-`.
    pub capture: bool,
    /// The `ep` suffix (en passant capture).
    pub en_passant: bool,
    /// The `/Q /R /B /N` suffix.
    pub promotion: Option<Promotion>,
}

impl NormalMove {
    /// A plain `from-to` move without piece letter, capture mark or suffix.
    pub const fn new(from: Square, to: Square) -> Self {
        NormalMove {
            piece: None,
            from,
            to,
            capture: false,
            en_passant: false,
            promotion: None,
        }
    }
}

impl MoveText {
    /// Bytes of the text (`O-O` 3, `e2-e4` 5, at most 11: `Pe5xd6ep/Q`
    /// is never printed, but the fields allow it).
    pub(crate) const fn len(&self) -> usize {
        match self {
            MoveText::Castle(CastlingSide::KingSide) => 3,
            MoveText::Castle(CastlingSide::QueenSide) => 5,
            MoveText::Normal(m) => {
                5 + m.piece.is_some() as usize
                    + 2 * m.en_passant as usize
                    + 2 * m.promotion.is_some() as usize
            }
        }
    }

    /// Appends the text: what `Display` prints and the encoders write.
    #[inline]
    pub(crate) fn put(&self, s: &mut impl Sink) {
        match self {
            MoveText::Castle(CastlingSide::KingSide) => s.put(b"O-O"),
            MoveText::Castle(CastlingSide::QueenSide) => s.put(b"O-O-O"),
            MoveText::Normal(m) => {
                if let Some(p) = m.piece {
                    s.put(&[role_letter(p)]);
                }
                let (f, t) = (square_bytes(m.from), square_bytes(m.to));
                s.put(&[f[0], f[1], if m.capture { b'x' } else { b'-' }, t[0], t[1]]);
                if m.en_passant {
                    s.put(b"ep");
                }
                if let Some(p) = m.promotion {
                    s.put(&[b'/', p.letter()]);
                }
            }
        }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_with(f, |s| self.put(s))
    }
}

/// A text token: `1..=64` printable ASCII bytes without whitespace
/// (`0x21..=0x7E`: ID model and version, `P` set-up text). Borrows the line
/// it was decoded from; `into_owned` for `'static`.
///
/// `Token::new(text)` returns [`ValueError::Empty`], [`ValueError::TooLong`]
/// past 64 bytes or [`ValueError::BadByte`] for a byte outside
/// `0x21..=0x7e` (each with `what: "token"`); `new`, `as_str`,
/// `into_owned`, `MAX_LEN` and `Display` are the family's [`CheckedText`];
/// `Debug` shows `Token("UCBII")`.
///
/// ```
/// use novag_citrine::types::Token;
/// assert_eq!(Token::new("V1.09").unwrap().as_str(), "V1.09");
/// assert!(Token::new("two words").is_err());
/// assert_eq!(Token::MAX_LEN, 64);
/// assert_eq!(format!("{:?}", Token::new("UCBII").unwrap()), r#"Token("UCBII")"#);
/// ```
pub type Token<'a> = CheckedText<'a, Printable>;

/// The rule of [`Token`].
#[derive(Debug)]
pub struct Printable(());

impl TextRule for Printable {
    type Error = ValueError;
    const MAX_LEN: usize = 64;
    const DEBUG_NAME: Option<&'static str> = Some("Token");

    fn check(text: &str) -> Result<(), ValueError> {
        let what = "token";
        if text.is_empty() {
            return Err(ValueError::Empty { what });
        }
        if text.len() > Self::MAX_LEN {
            return Err(ValueError::TooLong {
                what,
                len: text.len(),
                max: Self::MAX_LEN,
            });
        }
        match text.bytes().position(|b| !b.is_ascii_graphic()) {
            Some(offset) => Err(ValueError::BadByte {
                what,
                byte: text.as_bytes()[offset],
                offset,
            }),
            None => Ok(()),
        }
    }
}

/// Where a message's wire text goes: the family's byte writer (the
/// caller's `Vec<u8>`, or a formatter for `Display` through [`fmt_with`]),
/// so that one function per message writes its text for both.
pub(crate) use boardwire_proto::sink::{Sink, fmt_with};

/// `e4` of a square, two ASCII bytes.
#[inline(always)]
pub(crate) fn square_bytes(sq: Square) -> [u8; 2] {
    let i = sq.index() as u8;
    [b'a' + (i & 7), b'1' + (i >> 3)]
}

/// Appends `n` in decimal, right-aligned in `width` columns with spaces
/// (what `{n:>width$}` writes; `width` at most 5).
#[inline]
pub(crate) fn put_padded(s: &mut impl Sink, mut n: u16, width: usize) {
    let mut buf = [b' '; 5];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    s.put(&buf[i.min(buf.len() - width.min(buf.len()))..]);
}

/// Up to `N` bytes of ASCII text on the stack: what a `Display` impl
/// builds before padding or trimming it, without a heap allocation. Text
/// beyond `N` bytes is a `fmt::Error` (the callers' texts are bounded: a
/// move text has at most 11 bytes, a diagram row 25).
pub(crate) struct StackText<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> StackText<N> {
    pub(crate) fn new() -> Self {
        StackText {
            buf: [0; N],
            len: 0,
        }
    }

    /// The text written so far.
    pub(crate) fn as_str(&self) -> &str {
        // Only whole `&str`s are ever copied in, so this cannot fail.
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }

    pub(crate) fn push(&mut self, c: char) {
        let _ = fmt::Write::write_char(self, c);
    }

    pub(crate) fn push_str(&mut self, s: &str) {
        let _ = fmt::Write::write_str(self, s);
    }
}

impl<const N: usize> fmt::Write for StackText<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let room = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        room.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
