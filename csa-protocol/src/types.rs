//! Validated wire vocabulary: names, passwords, game ids, sides, move times.
//!
//! Every type here checks its text when constructed (`new`), so every value
//! that exists encodes to a valid line and decodes back to itself. The
//! decoders build them without copying (`Cow::Borrowed`); `into_owned` gives a
//! `'static` value.

use alloc::borrow::Cow;
use core::fmt;

pub use boardwire_proto::text::{CheckedText, TextRule};

use crate::error::{Expected, Problem, ValueError, ValueKind};
pub use crate::moves::{BuoyMoves, CsaMove, MOVE_LEN, move_side};

/// A byte class of the wire vocabulary: what a token takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// [`is_name_byte`].
    Name,
    /// [`is_graphic`].
    Graphic,
    /// [`is_game_id_byte`].
    GameId,
    /// [`is_tag_byte`].
    Tag,
    /// Printable ASCII or space (position lines).
    PositionLine,
    /// `[0-9A-Za-z_+-]` (`BEGIN`/`END` block names).
    Block,
}

impl Class {
    /// Whether the class takes `b`: one look-up in [`CLASSES`].
    #[inline(always)]
    pub(crate) fn accepts(self, b: u8) -> bool {
        CLASSES[b as usize] & (1 << self as u8) != 0
    }

    /// Whether the class takes `b`, by its rule (what [`CLASSES`] holds).
    const fn rule(self, b: u8) -> bool {
        match self {
            Class::Name => is_name_byte(b),
            Class::Graphic => is_graphic(b),
            Class::GameId => is_game_id_byte(b),
            Class::Tag => is_tag_byte(b),
            Class::PositionLine => b == b' ' || b.is_ascii_graphic(),
            Class::Block => b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-'),
        }
    }

    /// What the class takes, for [`Problem::Invalid`].
    pub(crate) fn expected(self) -> Expected {
        match self {
            Class::Name => Expected::NameByte,
            Class::Graphic => Expected::Graphic,
            Class::GameId => Expected::GameIdByte,
            Class::Tag => Expected::TagByte,
            Class::PositionLine => Expected::PositionByte,
            Class::Block => Expected::BlockByte,
        }
    }
}

/// For each byte, bit `c` set when [`Class`] `c` takes it (so that a
/// token's check is one look-up per byte).
const CLASSES: [u8; 256] = {
    const ALL: [Class; 6] = [
        Class::Name,
        Class::Graphic,
        Class::GameId,
        Class::Tag,
        Class::PositionLine,
        Class::Block,
    ];
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let mut c = 0;
        while c < ALL.len() {
            if ALL[c].rule(b as u8) {
                table[b] |= 1 << ALL[c] as u8;
            }
            c += 1;
        }
        b += 1;
    }
    table
};

/// Checks `s` against a byte class and a length range; returns the problem and
/// its byte offset.
#[inline]
pub(crate) fn check_token(s: &[u8], max: usize, class: Class) -> Result<(), (usize, Problem)> {
    if s.is_empty() {
        return Err((0, Problem::Empty));
    }
    if let Some(i) = s.iter().position(|&b| !class.accepts(b)) {
        return Err((
            i,
            Problem::Invalid {
                byte: s[i],
                expected: class.expected(),
            },
        ));
    }
    if s.len() > max {
        return Err((max, Problem::TooLong { len: s.len(), max }));
    }
    Ok(())
}

/// Bytes allowed in a login name: `[0-9A-Za-z_@.-]` ([`spec::csa`](crate::spec::csa), *Plain CSA
/// mode*: the 1.1 spec allows `[0-9A-Za-z_-]`; shogi-server also `@` and `.`).
pub(crate) const fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'@' | b'.')
}

/// Printable ASCII without space (0x21..=0x7E).
pub(crate) const fn is_graphic(b: u8) -> bool {
    b.is_ascii_graphic()
}

/// Bytes allowed in a game id: printable ASCII without space, `[`, `]`.
pub(crate) const fn is_game_id_byte(b: u8) -> bool {
    b.is_ascii_graphic() && b != b'[' && b != b']'
}

/// Bytes allowed in free text: anything but ASCII control characters
/// (CR, LF, TAB, NUL... and DEL). Non-ASCII bytes are checked as UTF-8 apart.
pub(crate) fn is_text_byte(b: u8) -> bool {
    !(b < 0x20 || b == 0x7f)
}

/// The token types' rules, one row each: the [`ValueKind`] an error names,
/// the longest length in bytes and the byte class. [`Token<K>`](Token) is
/// row `K`.
const TOKENS: [(ValueKind, usize, Class); 6] = [
    (ValueKind::UserName, 32, Class::Name),
    (ValueKind::GameId, 256, Class::GameId),
    (ValueKind::GameName, 128, Class::Name),
    (ValueKind::Word, 256, Class::Graphic),
    (ValueKind::Tag, 32, Class::Tag),
    (ValueKind::Password, 256, Class::Graphic),
];
pub(crate) const USER_NAME: usize = 0;
pub(crate) const GAME_ID: usize = 1;
pub(crate) const GAME_NAME: usize = 2;
pub(crate) const WORD: usize = 3;
pub(crate) const TAG: usize = 4;
pub(crate) const PASSWORD: usize = 5;

/// The rule of the token types ([`UserName`], [`GameId`], [`GameName`],
/// [`Word`], [`Tag`], and the text of a [`Password`]): 1..=`MAX_LEN`
/// bytes of one byte class, each type's documented; `K` is the type's row
/// in the crate's table of token rules. `new` returns a [`ValueError`]
/// naming the first byte outside the class ([`Problem::Invalid`]), an
/// empty value ([`Problem::Empty`]) or one longer than `MAX_LEN`
/// ([`Problem::TooLong`]).
#[derive(Debug)]
pub struct Token<const K: usize>(());

impl<const K: usize> TextRule for Token<K> {
    type Error = ValueError;
    const MAX_LEN: usize = TOKENS[K].1;

    #[inline]
    fn check(text: &str) -> Result<(), ValueError> {
        let (kind, max, class) = TOKENS[K];
        check_token(text.as_bytes(), max, class)
            .map_err(|(offset, problem)| ValueError::new(kind, offset, problem))
    }
}

/// Wraps text the crate's parsers have already checked (decoder use
/// only): the rules' proofs are made here.
pub(crate) trait FromChecked<'a> {
    /// `text`, not checked again.
    fn from_checked(text: &'a str) -> Self;
}

impl<'a, const K: usize> FromChecked<'a> for CheckedText<'a, Token<K>> {
    #[inline]
    fn from_checked(text: &'a str) -> Self {
        CheckedText::checked_by(text, Token(()))
    }
}

impl<'a> FromChecked<'a> for Text<'a> {
    #[inline]
    fn from_checked(text: &'a str) -> Self {
        CheckedText::checked_by(text, FreeText(()))
    }
}

/// A login name: 1..=32 bytes of `[0-9A-Za-z_@.-]` ([`spec::csa`](crate::spec::csa), *Plain CSA
/// mode*; the 1.1 spec allows `[0-9A-Za-z_-]`, shogi-server adds `@.`).
/// `new`, `as_str`, `into_owned`, `MAX_LEN` (32) and `Display` are the
/// family's [`CheckedText`]; `Debug` shows the text as a string literal.
pub type UserName<'a> = CheckedText<'a, Token<USER_NAME>>;

/// A game id as in `START:<id>`, `AGREE <id>`, `%%SHOW <id>`: 1..=256
/// printable ASCII bytes without space, e.g.
/// `testevent+testgame-300-0+alice+bob+20261129145635`; `[` and `]` are
/// excluded (they delimit the id in `##[MONITOR][<id>]`). A
/// [`CheckedText`], as [`UserName`].
pub type GameId<'a> = CheckedText<'a, Token<GAME_ID>>;

/// A game name as in `%%GAME <name> +` or the CSA-mode password:
/// 1..=128 bytes of `[0-9A-Za-z_@.-]`, conventionally
/// `<name>-<total_sec>-<byoyomi_sec>` with an optional `F` suffix
/// (Fischer increment), e.g. `floodgate-300-10F`
/// ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*). A
/// [`CheckedText`], as [`UserName`]; [`GameNameExt`] reads the time
/// control.
pub type GameName<'a> = CheckedText<'a, Token<GAME_NAME>>;

/// A word of a reply: 1..=256 printable ASCII bytes without space (e.g.
/// the fields of a `##[WHO]` entry). A [`CheckedText`], as [`UserName`].
pub type Word<'a> = CheckedText<'a, Token<WORD>>;

/// An x1 reply tag, the `WHO` of `##[WHO]`: 1..=32 bytes of
/// `[0-9A-Za-z_]`. A [`CheckedText`], as [`UserName`].
pub type Tag<'a> = CheckedText<'a, Token<TAG>>;

/// Bytes allowed in an x1 reply tag.
pub(crate) const fn is_tag_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The time control a game name encodes ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameNameTime {
    /// Total time in seconds (0 = unlimited).
    pub total_sec: u32,
    /// Byoyomi in seconds, or the Fischer increment when `fischer` is set.
    pub byoyomi_sec: u32,
    /// `true` when the name ends in `F`: the last number is an increment.
    pub fischer: bool,
}

/// A Floodgate game name: `floodgate-<total>-<byoyomi>` with an optional
/// `F` (Fischer) suffix, the whole name (shogi-server's rule; a longer name
/// such as `floodgate-600-10-x` is an ordinary game). In a Floodgate game
/// the server assigns the sides: a `%%GAME` with side `+` or `-` is
/// refused ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*).
///
/// ```
/// use csa_protocol::types::is_floodgate_game;
/// assert!(is_floodgate_game("floodgate-300-10F"));
/// assert!(!is_floodgate_game("floodgate-600-10-x"));
/// ```
pub fn is_floodgate_game(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("floodgate-") else {
        return false;
    };
    let rest = rest.strip_suffix('F').unwrap_or(rest);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut parts = rest.split('-');
    matches!(
        (parts.next(), parts.next(), parts.next()),
        (Some(total), Some(byoyomi), None) if digits(total) && digits(byoyomi)
    )
}

/// What a [`GameName`] says of its game. A trait because `GameName` is the
/// family's [`CheckedText`] (a type of another crate takes no inherent
/// methods here): `use csa_protocol::types::GameNameExt` to call them.
pub trait GameNameExt {
    /// Whether this is a Floodgate game ([`is_floodgate_game`]): the
    /// server assigns the sides.
    fn is_floodgate(&self) -> bool;

    /// Splits `<base>-<total>-<byoyomi>[F]`; `None` when the name has no such
    /// suffix (shogi-server then refuses the game).
    ///
    /// ```
    /// use csa_protocol::types::{GameName, GameNameExt, GameNameTime};
    /// let g = GameName::new("floodgate-300-10F").unwrap();
    /// assert_eq!(
    ///     g.time_control(),
    ///     Some(("floodgate", GameNameTime { total_sec: 300, byoyomi_sec: 10, fischer: true }))
    /// );
    /// assert_eq!(GameName::new("badname").unwrap().time_control(), None);
    /// ```
    fn time_control(&self) -> Option<(&str, GameNameTime)>;
}

impl GameNameExt for GameName<'_> {
    fn is_floodgate(&self) -> bool {
        is_floodgate_game(self.as_str())
    }

    fn time_control(&self) -> Option<(&str, GameNameTime)> {
        let s = self.as_str();
        let (rest, fischer) = match s.strip_suffix('F') {
            Some(r) => (r, true),
            None => (s, false),
        };
        let (rest, byo) = rest.rsplit_once('-')?;
        let (base, total) = rest.rsplit_once('-')?;
        let num = |t: &str| -> Option<u32> {
            if t.is_empty() || t.len() > 9 || !t.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            t.parse().ok()
        };
        if base.is_empty() {
            return None;
        }
        Some((
            base,
            GameNameTime {
                total_sec: num(total)?,
                byoyomi_sec: num(byo)?,
                fischer,
            },
        ))
    }
}

/// A password, never shown by `Debug` and without `Display`.
///
/// 1..=256 printable ASCII bytes without space. The 1.1 spec says at most 32,
/// but Floodgate passwords `<gamename>,<secret>` are often longer; we accept
/// up to 256 (deliberately lenient, documented). Its text is a
/// [`CheckedText`] kept private: [`expose`](Self::expose) is the one way to
/// it.
///
/// ```
/// use csa_protocol::types::Password;
/// let p = Password::new("s3cret").unwrap();
/// assert_eq!(format!("{p:?}"), "Password(<redacted>)");
/// assert_eq!(p.expose(), "s3cret");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Password<'a>(CheckedText<'a, Token<PASSWORD>>);

impl<'a> Password<'a> {
    /// Maximum length in bytes (256).
    pub const MAX_LEN: usize = TOKENS[PASSWORD].1;

    /// Validates `s`.
    ///
    /// # Errors
    /// [`ValueError`] ([`ValueKind::Password`]) for an empty password, a
    /// space or control byte, or one longer than [`Self::MAX_LEN`].
    pub fn new(s: impl Into<Cow<'a, str>>) -> Result<Self, ValueError> {
        CheckedText::new(s).map(Password)
    }

    pub(crate) fn from_checked(s: &'a str) -> Self {
        Password(CheckedText::from_checked(s))
    }

    /// The secret text. Named so that every use is visible in review.
    pub fn expose(&self) -> &str {
        self.0.as_str()
    }

    /// The same value with owned text.
    pub fn into_owned(self) -> Password<'static> {
        Password(self.0.into_owned())
    }
}

impl fmt::Debug for Password<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(<redacted>)")
    }
}

/// Free text (chat, error and information replies): valid UTF-8 with no ASCII
/// control characters (no CR, LF, TAB, DEL), at most 65 536 bytes. May be
/// empty. A [`CheckedText`]: `new` returns a [`ValueError`]
/// ([`ValueKind::Text`]) naming the first control byte
/// ([`Problem::Invalid`]), or a text longer than `MAX_LEN`
/// ([`Problem::TooLong`]); `Debug` shows it as a string literal.
pub type Text<'a> = CheckedText<'a, FreeText>;

/// The rule of [`Text`].
#[derive(Debug)]
pub struct FreeText(());

impl TextRule for FreeText {
    type Error = ValueError;
    const MAX_LEN: usize = 65_536;

    fn check(s: &str) -> Result<(), ValueError> {
        check_text(s.as_bytes(), is_text_byte, Self::MAX_LEN)
    }
}

/// The text of a `##[RATING]` line ([`X1Reply::Rating`](crate::X1Reply::Rating)):
/// as [`Text`] (valid UTF-8, at most 65 536 bytes), and TAB is allowed.
/// shogi-server writes `##[RATING] <name> \t <rate> @YYYY-MM-DD`, a
/// space, a TAB and a space between name and rate (its `RatingCommand`):
/// the one TAB the spec note allows on the wire
/// ([`spec::csa`](crate::spec::csa), *Transport and lexical rules*), and
/// the one place the decoder reads a TAB. A [`CheckedText`]: `new` returns a
/// [`ValueError`] ([`ValueKind::Text`]) naming the first control byte
/// other than TAB ([`Problem::Invalid`]), or a text longer than `MAX_LEN`
/// ([`Problem::TooLong`]).
pub type RatingText<'a> = CheckedText<'a, RatingLine>;

/// The rule of [`RatingText`].
#[derive(Debug)]
pub struct RatingLine(());

impl TextRule for RatingLine {
    type Error = ValueError;
    const MAX_LEN: usize = FreeText::MAX_LEN;

    fn check(s: &str) -> Result<(), ValueError> {
        check_text(s.as_bytes(), is_rating_byte, Self::MAX_LEN)
    }
}

impl<'a> FromChecked<'a> for RatingText<'a> {
    #[inline]
    fn from_checked(text: &'a str) -> Self {
        CheckedText::checked_by(text, RatingLine(()))
    }
}

/// Bytes allowed in a [`RatingText`]: those of free text, and TAB.
pub(crate) fn is_rating_byte(b: u8) -> bool {
    is_text_byte(b) || b == b'\t'
}

/// The check of [`Text`], [`RatingText`] and [`MoveComment`] ([`ValueKind::Text`]): the
/// first byte `allowed` refuses is [`Problem::Invalid`]
/// ([`Expected::Text`]), more than `max` bytes [`Problem::TooLong`].
fn check_text(b: &[u8], allowed: fn(u8) -> bool, max: usize) -> Result<(), ValueError> {
    if let Some(i) = b.iter().position(|&c| !allowed(c)) {
        return Err(ValueError::new(
            ValueKind::Text,
            i,
            Problem::Invalid {
                byte: b[i],
                expected: Expected::Text,
            },
        ));
    }
    if b.len() > max {
        return Err(ValueError::new(
            ValueKind::Text,
            max,
            Problem::TooLong { len: b.len(), max },
        ));
    }
    Ok(())
}

/// The comment of a client's move line (`+7776FU,'<comment>`, the bytes
/// after `,'`): any bytes but NUL, CR and LF, at most [`Self::MAX_LEN`]
/// bytes; may be empty. Not necessarily UTF-8: Floodgate clients send
/// EUC-JP, Shift_JIS and ISO-2022-JP (with its ESC bytes), and shogi-server
/// keeps them byte for byte ([`spec::csa`](crate::spec::csa), *Moves*). The bytes are
/// kept as sent and encode back unchanged; [`MoveComment::as_str`] gives
/// the text when it is UTF-8. `Display` shows UTF-8 as is and escapes
/// other bytes and control characters as `\xNN`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MoveComment<'a>(Cow<'a, [u8]>);

impl<'a> MoveComment<'a> {
    /// Maximum length in bytes (as `Text::MAX_LEN`, 65 536).
    pub const MAX_LEN: usize = Text::MAX_LEN;

    /// Validates `bytes`.
    ///
    /// # Errors
    /// [`ValueError`] ([`ValueKind::Text`]) naming the first NUL, CR or LF,
    /// or a comment longer than [`Self::MAX_LEN`].
    pub fn new(bytes: impl Into<Cow<'a, [u8]>>) -> Result<Self, ValueError> {
        let b = bytes.into();
        check_text(&b, is_comment_byte, Self::MAX_LEN)?;
        Ok(Self(b))
    }

    pub(crate) fn from_checked(b: &'a [u8]) -> Self {
        Self(Cow::Borrowed(b))
    }

    /// The bytes, as sent.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The text, when the bytes are UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        core::str::from_utf8(&self.0).ok()
    }

    /// The same value with owned bytes.
    pub fn into_owned(self) -> MoveComment<'static> {
        MoveComment(Cow::Owned(self.0.into_owned()))
    }
}

/// A comment byte: anything but NUL, CR and LF.
#[inline]
pub(crate) fn is_comment_byte(b: u8) -> bool {
    !matches!(b, 0 | b'\r' | b'\n')
}

/// Every [`Text`] is a valid comment.
impl<'a> From<Text<'a>> for MoveComment<'a> {
    fn from(t: Text<'a>) -> Self {
        MoveComment(match t.into_cow() {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        })
    }
}

impl fmt::Display for MoveComment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped(f, &self.0)
    }
}

impl fmt::Debug for MoveComment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        write_escaped(f, &self.0)?;
        f.write_str("\"")
    }
}

/// A player's side: `+` (Black, sente, moves first) or `-` (White, gote).
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// `+`: Black (sente).
    Black,
    /// `-`: White (gote).
    White,
}

impl Side {
    /// The sign character, `+` or `-`.
    pub fn sign(self) -> char {
        match self {
            Side::Black => '+',
            Side::White => '-',
        }
    }

    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }
}

impl From<Side> for board_core::shogi::Color {
    fn from(s: Side) -> Self {
        match s {
            Side::Black => board_core::shogi::Color::Black,
            Side::White => board_core::shogi::Color::White,
        }
    }
}

impl From<board_core::shogi::Color> for Side {
    fn from(c: board_core::shogi::Color) -> Self {
        match c {
            board_core::shogi::Color::Black => Side::Black,
            board_core::shogi::Color::White => Side::White,
        }
    }
}

/// The side a player asks for in `%%GAME`/`%%CHALLENGE`: `+`, `-` or `*`
/// (either; [`spec::csa`](crate::spec::csa), *Extended mode (x1)*).
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SidePreference {
    /// `+`.
    Black,
    /// `-`.
    White,
    /// `*`: let the server choose.
    Any,
}

impl SidePreference {
    /// The wire character.
    pub fn as_char(self) -> char {
        match self {
            SidePreference::Black => '+',
            SidePreference::White => '-',
            SidePreference::Any => '*',
        }
    }

    /// `Some(side)` for `+`/`-`, `None` for `*`.
    pub fn side(self) -> Option<Side> {
        match self {
            SidePreference::Black => Some(Side::Black),
            SidePreference::White => Some(Side::White),
            SidePreference::Any => None,
        }
    }
}

/// The time charged for a move, the `T` of `+7776FU,T12` or a kifu `T12`
/// line: whole seconds, or seconds with up to 3 decimals (`T1.5`, V3.0 kifu
/// style). Stored in milliseconds; encodes without decimals when whole.
///
/// ```
/// use csa_protocol::types::MoveTime;
/// assert_eq!(MoveTime::from_secs(12).to_string(), "12");
/// assert_eq!(MoveTime::from_millis(1500).to_string(), "1.5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct MoveTime {
    millis: u64,
}

impl MoveTime {
    /// Largest accepted value in seconds (the field is at most 10 digits).
    pub const MAX_SECS: u64 = 9_999_999_999;

    /// Whole seconds (clamped to [`Self::MAX_SECS`]).
    pub const fn from_secs(secs: u64) -> Self {
        let s = if secs > Self::MAX_SECS {
            Self::MAX_SECS
        } else {
            secs
        };
        Self { millis: s * 1000 }
    }

    /// Milliseconds (clamped to [`Self::MAX_SECS`] seconds).
    pub const fn from_millis(millis: u64) -> Self {
        let m = if millis > Self::MAX_SECS * 1000 {
            Self::MAX_SECS * 1000
        } else {
            millis
        };
        Self { millis: m }
    }

    /// Milliseconds.
    pub const fn as_millis(self) -> u64 {
        self.millis
    }

    /// Whole seconds (rounded down).
    pub const fn as_secs(self) -> u64 {
        self.millis / 1000
    }

    /// Appends the wire text (what `Display` writes: `12`, `1.5`, `0.25`,
    /// `0.125`) to `out`.
    pub(crate) fn put_to(self, out: &mut alloc::vec::Vec<u8>) {
        use crate::sink::Sink as _;
        let secs = self.millis / 1000;
        let ms = (self.millis % 1000) as u16;
        out.put_u64(secs);
        if ms == 0 {
            return;
        }
        let d = [
            b'0' + (ms / 100) as u8,
            b'0' + (ms / 10 % 10) as u8,
            b'0' + (ms % 10) as u8,
        ];
        let n = if ms.is_multiple_of(100) {
            1
        } else if ms.is_multiple_of(10) {
            2
        } else {
            3
        };
        out.push(b'.');
        out.extend_from_slice(&d[..n]);
    }

    /// Parses `12`, `1.5`, `0.125` (digits, optional `.` and 1..=3 digits).
    /// On error returns the byte offset and problem.
    pub(crate) fn parse(s: &[u8]) -> Result<Self, (usize, Problem)> {
        let digit = |i: usize, b: u8| {
            (
                i,
                Problem::Invalid {
                    byte: b,
                    expected: Expected::Digit,
                },
            )
        };
        let (int, frac) = match s.iter().position(|&b| b == b'.') {
            Some(i) => (&s[..i], Some((i + 1, &s[i + 1..]))),
            None => (s, None),
        };
        match int.first() {
            None if s.is_empty() => return Err((0, Problem::Missing)),
            None => return Err(digit(0, s[0])),
            Some(_) => {}
        }
        let mut secs: u64 = 0;
        for (i, &b) in int.iter().enumerate() {
            if !b.is_ascii_digit() {
                return Err(digit(i, b));
            }
            secs = secs * 10 + u64::from(b - b'0');
            if i >= 10 {
                return Err((
                    0,
                    Problem::OutOfRange {
                        value: u32::try_from(secs).unwrap_or(u32::MAX),
                        min: 0,
                        max: u32::MAX,
                    },
                ));
            }
        }
        let mut millis = 0u64;
        if let Some((off, frac)) = frac {
            if frac.is_empty() {
                return Err((off, Problem::Missing));
            }
            for (i, &b) in frac.iter().enumerate() {
                if !b.is_ascii_digit() || i >= 3 {
                    return Err(digit(off + i, b));
                }
                millis = millis * 10 + u64::from(b - b'0');
            }
            for _ in frac.len()..3 {
                millis *= 10;
            }
        }
        Ok(Self {
            millis: secs * 1000 + millis,
        })
    }
}

impl fmt::Display for MoveTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.millis / 1000;
        let ms = self.millis % 1000;
        if ms == 0 {
            write!(f, "{secs}")
        } else if ms.is_multiple_of(100) {
            write!(f, "{secs}.{}", ms / 100)
        } else if ms.is_multiple_of(10) {
            write!(f, "{secs}.{:02}", ms / 10)
        } else {
            write!(f, "{secs}.{ms:03}")
        }
    }
}

/// Writes bytes as text: valid UTF-8 as is (control characters escaped),
/// other bytes as `\xNN`.
/// Bytes for a person, on one line: UTF-8 text as it is, control
/// characters (C0, DEL, C1) and bytes that are not UTF-8 as `\xNN`, so
/// that text from a peer cannot drive a terminal. The workspace's one
/// escaper of peer text.
///
/// ```
/// use csa_protocol::types::Escaped;
/// assert_eq!(Escaped(b"a\x1b[2J\xff").to_string(), "a\\x1b[2J\\xff");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Escaped<'b>(pub &'b [u8]);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped(f, self.0)
    }
}

/// `bytes` as text: UTF-8 as it is, other bytes as U+FFFD.
pub(crate) fn write_lossy(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    for chunk in bytes.utf8_chunks() {
        f.write_str(chunk.valid())?;
        if !chunk.invalid().is_empty() {
            f.write_str("\u{FFFD}")?;
        }
    }
    Ok(())
}

pub(crate) fn write_escaped(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    use fmt::Write as _;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                write!(f, "\\x{:02x}", c as u32)?;
            } else {
                f.write_char(c)?;
            }
        }
        for b in chunk.invalid() {
            write!(f, "\\x{b:02x}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// The byte classes as spec/csa.md draws them, byte by byte: names
    /// `[0-9A-Za-z_@.-]` (66 bytes, *Plain CSA mode*), printable ASCII
    /// without space (94), game ids without `[` `]` (92), tags
    /// `[0-9A-Za-z_]` (63), position lines printable ASCII with space
    /// (95), block names `[0-9A-Za-z_+-]` (65).
    #[test]
    fn the_class_table_holds_the_spec_classes() {
        let count = |c: Class| (0..=255u8).filter(|&b| c.accepts(b)).count();
        assert_eq!(count(Class::Name), 66);
        assert_eq!(count(Class::Graphic), 94);
        assert_eq!(count(Class::GameId), 92);
        assert_eq!(count(Class::Tag), 63);
        assert_eq!(count(Class::PositionLine), 95);
        assert_eq!(count(Class::Block), 65);
        for b in 0..=255u8 {
            let alnum = b.is_ascii_alphanumeric();
            assert_eq!(Class::Name.accepts(b), alnum || b"_@.-".contains(&b), "{b}");
            assert_eq!(Class::Graphic.accepts(b), (0x21..=0x7e).contains(&b), "{b}");
            assert_eq!(
                Class::GameId.accepts(b),
                (0x21..=0x7e).contains(&b) && b != b'[' && b != b']',
                "{b}"
            );
            assert_eq!(Class::Tag.accepts(b), alnum || b == b'_', "{b}");
            assert_eq!(
                Class::PositionLine.accepts(b),
                (0x20..=0x7e).contains(&b),
                "{b}"
            );
            assert_eq!(Class::Block.accepts(b), alnum || b"_+-".contains(&b), "{b}");
        }
    }

    /// The wire text of a move time (spec/csa.md, *Moves*: whole seconds
    /// `T12`, V3-style decimals `T1.5`, at most three of them) as the
    /// encoders write it, byte by byte.
    #[test]
    fn move_time_bytes() {
        for (millis, text) in [
            (0, "0"),
            (12_000, "12"),
            (1_500, "1.5"),
            (125, "0.125"),
            (50, "0.05"),
            (1_010, "1.01"),
            (100, "0.1"),
            (600_001, "600.001"),
            (9_999_999_999_000, "9999999999"),
        ] {
            let mut out = alloc::vec::Vec::new();
            MoveTime::from_millis(millis).put_to(&mut out);
            assert_eq!(out, text.as_bytes(), "{millis}");
            assert_eq!(
                MoveTime::parse(text.as_bytes()),
                Ok(MoveTime::from_millis(millis))
            );
        }
    }

    #[test]
    fn move_time_parse() {
        assert_eq!(MoveTime::parse(b"12"), Ok(MoveTime::from_secs(12)));
        assert_eq!(MoveTime::parse(b"1.5"), Ok(MoveTime::from_millis(1500)));
        assert_eq!(MoveTime::parse(b"0.125"), Ok(MoveTime::from_millis(125)));
        assert_eq!(MoveTime::parse(b"0.05"), Ok(MoveTime::from_millis(50)));
        assert_eq!(MoveTime::from_millis(50).to_string(), "0.05");
        assert!(MoveTime::parse(b"").is_err());
        assert!(MoveTime::parse(b"1.").is_err());
        assert!(MoveTime::parse(b"1.2345").is_err());
        assert_eq!(
            MoveTime::parse(b"1x"),
            Err((
                1,
                Problem::Invalid {
                    byte: b'x',
                    expected: Expected::Digit
                }
            ))
        );
        assert!(MoveTime::parse(b"12345678901").is_err());
    }

    #[test]
    fn name_rules() {
        assert!(UserName::new("gps_normal").is_ok());
        assert!(UserName::new("a@b.c-d").is_ok());
        let e = UserName::new("bad/name").unwrap_err();
        assert_eq!(
            (e.offset, e.problem),
            (
                3,
                Problem::Invalid {
                    byte: b'/',
                    expected: Expected::NameByte
                }
            )
        );
        assert_eq!(
            UserName::new("n".repeat(33)).unwrap_err().problem,
            Problem::TooLong { len: 33, max: 32 }
        );
        assert!(UserName::new("n".repeat(32)).is_ok());
    }
}
