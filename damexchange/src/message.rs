//! The seven DXP messages as validated values, and their encoding.
//!
//! [`spec::damexchange`](crate::spec::damexchange), *Messages* (layer 2). Every constructor
//! validates, so every value that exists encodes to a valid message of at
//! most 127 bytes, and decoding those bytes gives the same value back.

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::fmt;

use crate::error::{Field, MessageKind, ValueError};
use crate::types::{ChatText, Color, Name, Piece, Square, board_letter};

/// Longest message in bytes, without the terminating NUL
/// ([`spec::damexchange`](crate::spec::damexchange), *Transport (layer 1)*: 1..=127).
pub const MAX_MESSAGE_LEN: usize = 127;

/// Default TCP port of DXP ([`spec::damexchange`](crate::spec::damexchange), *Transport (layer 1)*).
pub const DEFAULT_PORT: u16 = 27531;

/// A DXP message, borrowing its text (names, chat) from the decoded bytes.
///
/// Use [`Message::into_owned`] for a `Message<'static>`. `Display` is the
/// wire form without the NUL (`M001205250422122320`, what
/// [`Message::encoded`] holds); [`Message::describe`] is what a person reads
/// in a transcript: the kind and its fields in the spec's terms (`MOVE 5x25
/// taking 22,12,23,20, 12 s`).
///
/// ```
/// use damexchange::{decode, Message};
/// let msg: Message = decode(b"M001205250422122320").unwrap();
/// let Message::Move(mv) = &msg else { panic!() };
/// assert_eq!((mv.from().number(), mv.to().number()), (5, 25));
/// assert_eq!(msg.encoded().as_bytes(), b"M001205250422122320");
/// assert_eq!(msg.to_bytes(), b"M001205250422122320\0");
/// assert_eq!(msg.to_string(), "M001205250422122320");
/// assert_eq!(msg.describe().to_string(), "MOVE 5x25 taking 22,12,23,20, 12 s");
/// ```
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Message<'a> {
    /// `R` GAMEREQ.
    GameReq(GameReq<'a>),
    /// `A` GAMEACC.
    GameAcc(GameAcc<'a>),
    /// `M` MOVE.
    Move(Move),
    /// `E` GAMEEND.
    GameEnd(GameEnd),
    /// `C` CHAT.
    Chat(Chat<'a>),
    /// `B` BACKREQ.
    BackReq(BackReq),
    /// `K` BACKACC.
    BackAcc(BackAcc),
    /// A frame whose header byte is none of the seven (kept as received).
    Unrecognised(Unrecognised<'a>),
}

impl<'a> Message<'a> {
    /// Which of the seven messages this is.
    pub const fn kind(&self) -> MessageKind {
        match self {
            Message::GameReq(_) => MessageKind::GameReq,
            Message::GameAcc(_) => MessageKind::GameAcc,
            Message::Move(_) => MessageKind::Move,
            Message::GameEnd(_) => MessageKind::GameEnd,
            Message::Chat(_) => MessageKind::Chat,
            Message::BackReq(_) => MessageKind::BackReq,
            Message::BackAcc(_) => MessageKind::BackAcc,
            Message::Unrecognised(_) => MessageKind::Unrecognised,
        }
    }

    /// The same message owning its text.
    pub fn into_owned(self) -> Message<'static> {
        match self {
            Message::GameReq(m) => Message::GameReq(m.into_owned()),
            Message::GameAcc(m) => Message::GameAcc(m.into_owned()),
            Message::Move(m) => Message::Move(m),
            Message::GameEnd(m) => Message::GameEnd(m),
            Message::Chat(m) => Message::Chat(m.into_owned()),
            Message::BackReq(m) => Message::BackReq(m),
            Message::BackAcc(m) => Message::BackAcc(m),
            Message::Unrecognised(m) => Message::Unrecognised(m.into_owned()),
        }
    }

    /// Appends the frame (message and its terminating NUL) to `out`.
    /// Never fails: the value was validated when it was built.
    pub fn encode(&self, out: &mut Vec<u8>) {
        // Straight into `out` (no stack frame to fill and copy).
        out.reserve(self.encoded_len() + 1);
        self.encode_to(out);
        out.push(0);
    }

    /// The frame (message and its NUL) as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.encoded().as_frame().to_vec()
    }

    /// Encodes the message into a stack buffer (no heap allocation), the
    /// allocation-free form of [`Message::encode`].
    #[inline]
    pub fn encoded(&self) -> Encoded {
        let mut out = Encoded::new();
        self.encode_to(&mut out);
        out
    }

    /// Writes the message (without its NUL) into `out`: the one encoder
    /// behind [`encode`](Self::encode) and [`encoded`](Self::encoded).
    #[inline]
    fn encode_to(&self, out: &mut impl Out) {
        match self {
            Message::GameReq(m) => m.encode_into(out),
            Message::GameAcc(m) => m.encode_into(out),
            Message::Move(m) => m.encode_into(out),
            Message::GameEnd(m) => m.encode_into(out),
            Message::Chat(m) => m.encode_into(out),
            Message::BackReq(m) => m.encode_into(out),
            Message::BackAcc(m) => m.encode_into(out),
            Message::Unrecognised(m) => out.extend(m.as_bytes()),
        }
    }

    /// Length of the encoded message in bytes (1..=127, without the NUL).
    pub fn encoded_len(&self) -> usize {
        match self {
            Message::GameReq(m) => match m.position {
                StartPosition::Initial => GameReq::LEN_INITIAL,
                StartPosition::Setup(_) => GameReq::LEN_SETUP,
            },
            Message::GameAcc(_) => GameAcc::LEN,
            Message::Move(m) => Move::MIN_LEN + 2 * m.captured.len(),
            Message::GameEnd(_) => GameEnd::LEN,
            Message::Chat(m) => 1 + m.text.as_str().len(),
            Message::BackReq(_) => BackReq::LEN,
            Message::BackAcc(_) => BackAcc::LEN,
            Message::Unrecognised(m) => m.as_bytes().len(),
        }
    }
}

/// The wire form, without the terminating NUL: `M0000322800`, `E10`
/// (the family's `Display` contract: decoding `to_string()` gives the
/// message back). The words a person reads are [`Message::describe`].
impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let encoded = self.encoded();
        // Every byte of a message is 7-bit (1..=127): one char each.
        for &b in encoded.as_bytes() {
            fmt::Write::write_char(f, char::from(b))?;
        }
        Ok(())
    }
}

impl<'a> Message<'a> {
    /// The message in words, as a transcript shows it: the kind (the
    /// spec's name) and its fields in the spec's terms, e.g. `MOVE 32-28, 0
    /// s`, `GAMEACC: follower "Scan", accepted`, `GAMEEND: sender loses,
    /// will play another game`; an unknown kind says so (`unrecognised
    /// message: header 'X', 5 bytes`). `Display` is the wire form.
    ///
    /// ```
    /// use damexchange::{decode, Message};
    /// let msg: Message = decode(b"M0000322800").unwrap();
    /// assert_eq!(msg.describe().to_string(), "MOVE 32-28, 0 s");
    /// assert_eq!(msg.to_string(), "M0000322800");
    /// ```
    pub fn describe(&self) -> Describe<'_, 'a> {
        Describe(self)
    }
}

/// A [`Message`] in words ([`Message::describe`]).
#[derive(Clone, Copy, Debug)]
pub struct Describe<'m, 'a>(&'m Message<'a>);

impl fmt::Display for Describe<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Message::GameReq(r) => {
                write!(
                    f,
                    "GAMEREQ: version {:02}, initiator \"{}\", follower plays {}, {} min for ",
                    r.version, r.initiator, r.follower_color, r.minutes
                )?;
                match r.moves {
                    0 => f.write_str("the whole game")?,
                    n => write!(f, "{n} moves")?,
                }
                match &r.position {
                    StartPosition::Initial => f.write_str(", standard start"),
                    StartPosition::Setup(s) => match crate::convert::setup_to_position(s) {
                        Ok(p) => write!(f, ", set-up position {p}"),
                        Err(e) => write!(f, ", set-up position (invalid: {e})"),
                    },
                }
            }
            Message::GameAcc(a) => write!(f, "GAMEACC: follower \"{}\", {}", a.follower, a.code),
            Message::Move(mv) => {
                let sep = if mv.captured.is_empty() { '-' } else { 'x' };
                write!(f, "MOVE {}{sep}{}", mv.from, mv.to)?;
                for (k, sq) in mv.captured.as_slice().iter().enumerate() {
                    f.write_str(if k == 0 { " taking " } else { "," })?;
                    write!(f, "{sq}")?;
                }
                write!(f, ", {} s", mv.time)
            }
            Message::GameEnd(e) => write!(f, "GAMEEND: {}, {}", e.reason, e.stop),
            Message::Chat(c) => write!(f, "CHAT: {}", c.text),
            Message::BackReq(b) => write!(
                f,
                "BACKREQ: back to move {}, {} to move",
                b.move_number, b.color
            ),
            Message::BackAcc(k) => write!(f, "BACKACC: {}", k.code),
            Message::Unrecognised(u) => {
                write!(f, "unrecognised message: header ")?;
                match u.as_bytes().first() {
                    Some(&h) => write!(f, "{}", crate::error::ShowByte(h))?,
                    None => f.write_str("none")?,
                }
                write!(f, ", {} bytes", u.as_bytes().len())
            }
        }
    }
}

/// A frame whose header byte is none of the seven messages, as received:
/// 1..=127 bytes without NUL, the first not one of `R A M E C B K`
/// ([`spec::damexchange`](crate::spec::damexchange), *Messages*). Encodes back to the same bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unrecognised<'a>(pub(crate) Cow<'a, [u8]>);

impl<'a> Unrecognised<'a> {
    /// Validates an unrecognised frame.
    ///
    /// # Errors
    /// [`ValueError::Length`] outside 1..=127 bytes, [`ValueError::InvalidByte`]
    /// for a NUL or for a first byte that is a known header.
    pub fn new(bytes: impl Into<Cow<'a, [u8]>>) -> Result<Unrecognised<'a>, ValueError> {
        let bytes = bytes.into();
        if bytes.is_empty() || bytes.len() > MAX_MESSAGE_LEN {
            return Err(ValueError::Length {
                field: Field::Trailing,
                len: bytes.len(),
                min: 1,
                max: MAX_MESSAGE_LEN,
            });
        }
        if MessageKind::from_header(bytes[0]).is_some() {
            return Err(ValueError::InvalidByte {
                field: Field::Header,
                index: 0,
                byte: bytes[0],
            });
        }
        if let Some(index) = bytes.iter().position(|&b| b == 0) {
            return Err(ValueError::InvalidByte {
                field: Field::Trailing,
                index,
                byte: 0,
            });
        }
        Ok(Unrecognised(bytes))
    }

    pub(crate) fn from_checked(bytes: &'a [u8]) -> Unrecognised<'a> {
        Unrecognised(Cow::Borrowed(bytes))
    }

    /// The frame's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The same frame owning its bytes.
    pub fn into_owned(self) -> Unrecognised<'static> {
        Unrecognised(Cow::Owned(self.0.into_owned()))
    }
}

macro_rules! from_variant {
    ($($t:ident $(<$l:lifetime>)?),*) => {$(
        impl<'a> From<$t $(<$l>)?> for Message<'a> {
            fn from(m: $t $(<$l>)?) -> Message<'a> {
                Message::$t(m)
            }
        }
    )*};
}
from_variant!(
    GameReq<'a>,
    GameAcc<'a>,
    Move,
    GameEnd,
    Chat<'a>,
    BackReq,
    BackAcc,
    Unrecognised<'a>
);

/// An encoded message in a fixed buffer: up to 127 message bytes plus the
/// terminating NUL.
#[derive(Clone, Copy)]
pub struct Encoded {
    buf: [u8; MAX_MESSAGE_LEN + 1],
    len: u8,
}

impl Encoded {
    const fn new() -> Encoded {
        Encoded {
            buf: [0; MAX_MESSAGE_LEN + 1],
            len: 0,
        }
    }

    /// The message bytes, without the terminating NUL.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }

    /// The message bytes followed by the NUL that ends it on the wire.
    #[inline]
    pub fn as_frame(&self) -> &[u8] {
        &self.buf[..usize::from(self.len) + 1]
    }

    /// The message as text (every byte is 7-bit ASCII).
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(self.as_bytes()).unwrap_or("")
    }
}

impl PartialEq for Encoded {
    fn eq(&self, other: &Encoded) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}
impl Eq for Encoded {}

impl AsRef<[u8]> for Encoded {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl fmt::Debug for Encoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// Where an encoder writes a message: the caller's `Vec` ([`Message::encode`])
/// or a stack buffer ([`Encoded`]). Lengths are bounded by construction (the
/// longest message, a set-up GAMEREQ, has 94 bytes; CHAT and Unrecognised
/// at most 127).
trait Out {
    fn extend(&mut self, bytes: &[u8]);

    #[inline(always)]
    fn push(&mut self, byte: u8) {
        self.extend(&[byte]);
    }

    /// `value` as exactly `W` decimal digits (value < 10^W).
    #[inline(always)]
    fn digits<const W: usize>(&mut self, value: u16) {
        let mut d = [b'0'; W];
        let mut v = value;
        for b in d.iter_mut().rev() {
            *b = b'0' + (v % 10) as u8;
            v /= 10;
        }
        self.extend(&d);
    }

    #[inline(always)]
    fn two_digits(&mut self, value: u8) {
        self.extend(&[b'0' + value / 10, b'0' + value % 10]);
    }
}

impl Out for Encoded {
    #[inline]
    fn extend(&mut self, bytes: &[u8]) {
        let start = usize::from(self.len);
        self.buf[start..start + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len() as u8;
    }
}

impl Out for Vec<u8> {
    #[inline(always)]
    fn extend(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// The game's starting position, GAMEREQ field "starting position".
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartPosition {
    /// `A`: the standard start position, White to move.
    Initial,
    /// `B`: a set-up position with side to move and 50 squares.
    Setup(Setup),
}

/// A set-up position as GAMEREQ carries it (`B`): side to move and the
/// content of squares 1..=50.
///
/// This is the wire form only: whether the position is playable is for the
/// session (with `board-core`) to judge.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Side to move.
    pub side_to_move: Color,
    /// Content of squares 1..=50 (`board[0]` is square 1).
    pub board: [Option<Piece>; 50],
}

impl Setup {
    /// The standard start position (Black men on 1..=20, White men on
    /// 31..=50, White to move) written out as a set-up — what pydraughts sends.
    pub const fn initial() -> Setup {
        let mut board = [None; 50];
        let mut i = 0;
        while i < 50 {
            board[i] = if i < 20 {
                Some(Piece::BLACK_MAN)
            } else if i >= 30 {
                Some(Piece::WHITE_MAN)
            } else {
                None
            };
            i += 1;
        }
        Setup {
            side_to_move: Color::White,
            board,
        }
    }

    /// Content of a square.
    pub const fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board[square.number() as usize - 1]
    }
}

/// GAMEREQ `R`: the initiator proposes a game (43 bytes, or 94 with a
/// set-up position).
///
/// ```
/// use damexchange::wire::{Color, GameReq, Name, StartPosition};
/// let req = GameReq::new(
///     Name::new("Tornado voor Windows 4.0").unwrap(),
///     Color::White,
///     60,
///     65,
///     StartPosition::Initial,
/// )
/// .unwrap();
/// assert_eq!(
///     damexchange::Message::from(req).encoded().as_str(),
///     "R01Tornado voor Windows 4.0        W060065A"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameReq<'a> {
    pub(crate) version: u8,
    pub(crate) initiator: Name<'a>,
    pub(crate) follower_color: Color,
    pub(crate) minutes: u16,
    pub(crate) moves: u16,
    pub(crate) position: StartPosition,
}

impl<'a> GameReq<'a> {
    /// The protocol version this crate speaks, `01`.
    pub const VERSION: u8 = 1;
    /// Length with the standard start position (`A`).
    pub const LEN_INITIAL: usize = 43;
    /// Length with a set-up position (`B`).
    pub const LEN_SETUP: usize = 94;

    /// A GAMEREQ for protocol version `01`.
    ///
    /// `follower_color` is the colour the *follower* will play; `minutes` is
    /// the thinking time per player in minutes (0..=999) for `moves` moves
    /// (0..=999, 0 = no limit: all moves of the game).
    ///
    /// # Errors
    /// [`ValueError::OutOfRange`] for `minutes` or `moves` above 999.
    pub fn new(
        initiator: Name<'a>,
        follower_color: Color,
        minutes: u16,
        moves: u16,
        position: StartPosition,
    ) -> Result<GameReq<'a>, ValueError> {
        range(Field::ThinkingTime, minutes, 0, 999)?;
        range(Field::MovesLimit, moves, 0, 999)?;
        Ok(GameReq {
            version: Self::VERSION,
            initiator,
            follower_color,
            minutes,
            moves,
            position,
        })
    }

    /// The same request with another protocol version number (0..=99), e.g.
    /// to test a follower's answer `1` (version not as expected).
    ///
    /// # Errors
    /// [`ValueError::OutOfRange`] above 99.
    pub fn with_version(mut self, version: u8) -> Result<GameReq<'a>, ValueError> {
        range(Field::Version, version.into(), 0, 99)?;
        self.version = version;
        Ok(self)
    }

    /// Protocol version, 0..=99 (`01` today).
    pub fn version(&self) -> u8 {
        self.version
    }
    /// The initiator's name.
    pub fn initiator(&self) -> &Name<'a> {
        &self.initiator
    }
    /// The colour the follower plays.
    pub fn follower_color(&self) -> Color {
        self.follower_color
    }
    /// Thinking time per player in minutes, 0..=999.
    pub fn minutes(&self) -> u16 {
        self.minutes
    }
    /// Number of moves to play in that time, 0..=999 (0: the whole game).
    pub fn moves(&self) -> u16 {
        self.moves
    }
    /// The starting position.
    pub fn position(&self) -> &StartPosition {
        &self.position
    }

    /// The same request owning its text.
    pub fn into_owned(self) -> GameReq<'static> {
        GameReq {
            initiator: self.initiator.into_owned(),
            version: self.version,
            follower_color: self.follower_color,
            minutes: self.minutes,
            moves: self.moves,
            position: self.position,
        }
    }

    fn encode_into(&self, out: &mut impl Out) {
        out.push(b'R');
        out.two_digits(self.version);
        encode_name(out, &self.initiator);
        out.push(self.follower_color.letter());
        out.digits::<3>(self.minutes);
        out.digits::<3>(self.moves);
        match &self.position {
            StartPosition::Initial => out.push(b'A'),
            StartPosition::Setup(setup) => {
                out.push(b'B');
                out.push(setup.side_to_move.letter());
                for &content in &setup.board {
                    out.push(board_letter(content));
                }
            }
        }
    }
}

fn encode_name(out: &mut impl Out, name: &Name<'_>) {
    // `Name::MAX_LEN` (32) spaces.
    const PADDING: [u8; 32] = [b' '; 32];
    let bytes = name.as_str().as_bytes();
    out.extend(bytes);
    out.extend(&PADDING[..Name::MAX_LEN.saturating_sub(bytes.len())]);
}

fn range(field: Field, value: u16, min: u16, max: u16) -> Result<(), ValueError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(ValueError::OutOfRange {
            field,
            value: value.into(),
            min: min.into(),
            max: max.into(),
        })
    }
}

/// GAMEACC acceptance code ([`spec::damexchange`](crate::spec::damexchange), *GAMEACC*).
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AcceptanceCode {
    /// `0`: game accepted.
    Accepted,
    /// `1`: protocol version not as expected; the initiator stops (it may
    /// later fall back to an older version).
    VersionMismatch,
    /// `2`: not this game (time too high, no legal move in the set-up...), but
    /// willing to play another: the initiator sends another GAMEREQ.
    NotThisGame,
    /// `3`: no games at all: the initiator stops.
    NoGames,
}

impl AcceptanceCode {
    /// The wire digit, 0..=3.
    pub const fn code(self) -> u8 {
        self as u8
    }
    /// From the wire digit value 0..=3.
    pub const fn from_code(code: u8) -> Option<AcceptanceCode> {
        Some(match code {
            0 => AcceptanceCode::Accepted,
            1 => AcceptanceCode::VersionMismatch,
            2 => AcceptanceCode::NotThisGame,
            3 => AcceptanceCode::NoGames,
            _ => return None,
        })
    }
}

/// The code's meaning ([`spec::damexchange`](crate::spec::damexchange), *GAMEACC*), e.g.
/// `accepted`, `refused: no games at all`.
impl fmt::Display for AcceptanceCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AcceptanceCode::Accepted => "accepted",
            AcceptanceCode::VersionMismatch => "refused: protocol version not as expected",
            AcceptanceCode::NotThisGame => "refused: not this game, another one may be asked",
            AcceptanceCode::NoGames => "refused: no games at all",
        })
    }
}

/// GAMEACC `A`: the follower's answer to GAMEREQ (34 bytes).
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameAcc<'a> {
    /// The follower's name.
    pub follower: Name<'a>,
    /// Accepted, or why not.
    pub code: AcceptanceCode,
}

impl GameAcc<'_> {
    /// Encoded length.
    pub const LEN: usize = 34;

    /// The same answer owning its text.
    pub fn into_owned(self) -> GameAcc<'static> {
        GameAcc {
            follower: self.follower.into_owned(),
            code: self.code,
        }
    }

    fn encode_into(&self, out: &mut impl Out) {
        out.push(b'A');
        encode_name(out, &self.follower);
        out.push(b'0' + self.code.code());
    }
}

/// The captured squares of a MOVE, in the order they were sent (0..=20
/// distinct squares). The order carries no meaning ([`spec::damexchange`](crate::spec::damexchange), *MOVE*: "in any order") but
/// is kept so that a decoded message re-encodes byte-identical; compare as a
/// set with [`Captures::mask`].
#[derive(Clone, Copy)]
pub struct Captures {
    squares: [Square; Captures::MAX],
    len: u8,
}

impl Captures {
    /// Most pieces one move can capture ([`spec::damexchange`](crate::spec::damexchange), *MOVE*: `00`..=`20`; a side has 20).
    pub const MAX: usize = 20;

    /// No captures.
    pub const EMPTY: Captures = Captures {
        squares: [Square::MIN_SQUARE; Captures::MAX],
        len: 0,
    };

    /// Validates a list of captured squares.
    ///
    /// # Errors
    /// [`ValueError::TooManyCaptures`] above 20, [`ValueError::DuplicateCapture`].
    pub fn new(squares: &[Square]) -> Result<Captures, ValueError> {
        if squares.len() > Self::MAX {
            return Err(ValueError::TooManyCaptures {
                count: squares.len(),
            });
        }
        let mut out = Captures::EMPTY;
        let mut mask = 0u64;
        for &sq in squares {
            let bit = 1u64 << sq.number();
            if mask & bit != 0 {
                return Err(ValueError::DuplicateCapture {
                    square: sq.number(),
                });
            }
            mask |= bit;
            out.push_unchecked(sq);
        }
        Ok(out)
    }

    #[inline]
    pub(crate) fn push_unchecked(&mut self, sq: Square) {
        self.squares[usize::from(self.len)] = sq;
        self.len += 1;
    }

    /// The squares in wire order.
    #[inline]
    pub fn as_slice(&self) -> &[Square] {
        &self.squares[..usize::from(self.len)]
    }

    /// Number of captured pieces, 0..=20.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// `true` for a move that captures nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The set as a bit mask: bit `n` set when square `n` (1..=50) is captured.
    pub fn mask(&self) -> u64 {
        self.as_slice()
            .iter()
            .fold(0, |m, sq| m | 1u64 << sq.number())
    }
}

impl Square {
    pub(crate) const MIN_SQUARE: Square = match Square::new(1) {
        Some(s) => s,
        None => unreachable!(),
    };
}

impl PartialEq for Captures {
    fn eq(&self, other: &Captures) -> bool {
        self.as_slice() == other.as_slice()
    }
}
impl Eq for Captures {}

impl core::hash::Hash for Captures {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl fmt::Debug for Captures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// MOVE `M` (11 + 2n bytes): the sender's time for the move, from, to, and
/// the captured squares. Intermediate landing squares are not sent.
///
/// ```
/// use damexchange::wire::{Move, Square};
/// let sq = |n| Square::new(n).unwrap();
/// // The spec's example: 5x25 taking four pieces, 12 seconds.
/// let mv = Move::new(12, sq(5), sq(25), &[sq(22), sq(12), sq(23), sq(20)]).unwrap();
/// assert_eq!(damexchange::Message::from(mv).encoded().as_str(), "M001205250422122320");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) time: u16,
    pub(crate) from: Square,
    pub(crate) to: Square,
    pub(crate) captured: Captures,
}

impl Move {
    /// Length of a move without captures.
    pub const MIN_LEN: usize = 11;
    /// Length of a move capturing 20 pieces.
    pub const MAX_LEN: usize = 51;
    /// Highest time value, seconds.
    pub const MAX_TIME: u16 = 9999;

    /// A move that took `time` seconds (0..=9999; informational), from `from`
    /// to `to` (equal for a king capturing round in a circle), capturing the
    /// pieces on `captured` (0..=20 distinct squares, any order).
    ///
    /// # Errors
    /// [`ValueError::OutOfRange`] for `time` > 9999, and the errors of
    /// [`Captures::new`].
    pub fn new(
        time: u16,
        from: Square,
        to: Square,
        captured: &[Square],
    ) -> Result<Move, ValueError> {
        Self::with_captures(time, from, to, Captures::new(captured)?)
    }

    /// Like [`Move::new`] with an already validated capture list.
    ///
    /// # Errors
    /// [`ValueError::OutOfRange`] for `time` > 9999.
    pub fn with_captures(
        time: u16,
        from: Square,
        to: Square,
        captured: Captures,
    ) -> Result<Move, ValueError> {
        range(Field::Time, time, 0, Self::MAX_TIME)?;
        Ok(Move {
            time,
            from,
            to,
            captured,
        })
    }

    /// Seconds the sender used for this move, 0..=9999.
    pub fn time(&self) -> u16 {
        self.time
    }
    /// Square the piece left.
    pub fn from(&self) -> Square {
        self.from
    }
    /// Square the piece landed on.
    pub fn to(&self) -> Square {
        self.to
    }
    /// Captured squares, in wire order.
    pub fn captured(&self) -> &Captures {
        &self.captured
    }

    fn encode_into(&self, out: &mut impl Out) {
        // The fixed head in one piece: `M`, time, from, to, count.
        let t = self.time;
        let d = |v: u16| b'0' + (v % 10) as u8;
        let two = |v: u8| [b'0' + v / 10 % 10, b'0' + v % 10];
        let (f, to, n) = (
            two(self.from.number()),
            two(self.to.number()),
            two(self.captured.len),
        );
        out.extend(&[
            b'M',
            d(t / 1000),
            d(t / 100),
            d(t / 10),
            d(t),
            f[0],
            f[1],
            to[0],
            to[1],
            n[0],
            n[1],
        ]);
        for sq in self.captured.as_slice() {
            out.two_digits(sq.number());
        }
    }
}

/// GAMEEND reason.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEndReason {
    /// `0`: no reason given / unknown (also the answer to a GAMEEND).
    Unknown,
    /// `1`: the sender loses.
    SenderLoses,
    /// `2`: draw.
    Draw,
    /// `3`: the sender wins.
    SenderWins,
}

impl GameEndReason {
    /// The wire digit value, 0..=3.
    pub const fn code(self) -> u8 {
        self as u8
    }
    /// From the wire digit value 0..=3.
    pub const fn from_code(code: u8) -> Option<GameEndReason> {
        Some(match code {
            0 => GameEndReason::Unknown,
            1 => GameEndReason::SenderLoses,
            2 => GameEndReason::Draw,
            3 => GameEndReason::SenderWins,
            _ => return None,
        })
    }
}

/// The reason's meaning from its sender's side ([`spec::damexchange`](crate::spec::damexchange),
/// *GAMEEND*): `no reason`, `sender loses`, `draw`, `sender wins`.
impl fmt::Display for GameEndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameEndReason::Unknown => "no reason",
            GameEndReason::SenderLoses => "sender loses",
            GameEndReason::Draw => "draw",
            GameEndReason::SenderWins => "sender wins",
        })
    }
}

/// GAMEEND stop code.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopCode {
    /// `0`: the sender will play a next game.
    PlayOn,
    /// `1`: the sender wants no further games.
    NoMoreGames,
}

impl StopCode {
    /// The wire digit value, 0..=1.
    pub const fn code(self) -> u8 {
        self as u8
    }
    /// From the wire digit value 0..=1.
    pub const fn from_code(code: u8) -> Option<StopCode> {
        match code {
            0 => Some(StopCode::PlayOn),
            1 => Some(StopCode::NoMoreGames),
            _ => None,
        }
    }
}

/// `will play another game` / `wants no more games`.
impl fmt::Display for StopCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopCode::PlayOn => "will play another game",
            StopCode::NoMoreGames => "wants no more games",
        })
    }
}

/// GAMEEND `E` (3 bytes): the game ends. Example `E00`.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// Why, from the sender's point of view.
    pub reason: GameEndReason,
    /// Whether the sender plays further games.
    pub stop: StopCode,
}

impl GameEnd {
    /// Encoded length.
    pub const LEN: usize = 3;

    fn encode_into(&self, out: &mut impl Out) {
        out.push(b'E');
        out.push(b'0' + self.reason.code());
        out.push(b'0' + self.stop.code());
    }
}

/// CHAT `C` (2..=127 bytes): free text, allowed at any time.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chat<'a> {
    /// The text (1..=126 bytes of 7-bit ASCII).
    pub text: ChatText<'a>,
}

impl Chat<'_> {
    /// The same message owning its text.
    pub fn into_owned(self) -> Chat<'static> {
        Chat {
            text: self.text.into_owned(),
        }
    }

    fn encode_into(&self, out: &mut impl Out) {
        out.push(b'C');
        out.extend(self.text.as_str().as_bytes());
    }
}

/// BACKREQ `B` (5 bytes): go back to move `move_number` (1..=999, the
/// game's first move is 1) with `color` to move. Example `B005Z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BackReq {
    pub(crate) move_number: u16,
    pub(crate) color: Color,
}

impl BackReq {
    /// Encoded length.
    pub const LEN: usize = 5;

    /// A take-back request to move `move_number` (1..=999), `color` to move.
    ///
    /// # Errors
    /// [`ValueError::OutOfRange`] outside 1..=999.
    pub fn new(move_number: u16, color: Color) -> Result<BackReq, ValueError> {
        range(Field::MoveNumber, move_number, 1, 999)?;
        Ok(BackReq { move_number, color })
    }

    /// Move number, 1..=999.
    pub fn move_number(&self) -> u16 {
        self.move_number
    }
    /// Colour to move at that move.
    pub fn color(&self) -> Color {
        self.color
    }

    fn encode_into(&self, out: &mut impl Out) {
        out.push(b'B');
        out.digits::<3>(self.move_number);
        out.push(self.color.letter());
    }
}

/// BACKACC code.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackAccCode {
    /// `0`: the board was taken back as asked.
    Accepted,
    /// `1`: take-back not supported or refused.
    NotSupported,
    /// `2`: continue the game as it was.
    Continue,
}

impl BackAccCode {
    /// The wire digit value, 0..=2.
    pub const fn code(self) -> u8 {
        self as u8
    }
    /// From the wire digit value 0..=2.
    pub const fn from_code(code: u8) -> Option<BackAccCode> {
        Some(match code {
            0 => BackAccCode::Accepted,
            1 => BackAccCode::NotSupported,
            2 => BackAccCode::Continue,
            _ => return None,
        })
    }
}

/// `board taken back` / `refused` / `continue the game as it was`.
impl fmt::Display for BackAccCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BackAccCode::Accepted => "board taken back",
            BackAccCode::NotSupported => "refused",
            BackAccCode::Continue => "continue the game as it was",
        })
    }
}

/// BACKACC `K` (2 bytes): the answer to BACKREQ. Example `K1`.
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BackAcc {
    /// Accepted, refused, or continue unchanged.
    pub code: BackAccCode,
}

impl BackAcc {
    /// Encoded length.
    pub const LEN: usize = 2;

    fn encode_into(&self, out: &mut impl Out) {
        out.push(b'K');
        out.push(b'0' + self.code.code());
    }
}
