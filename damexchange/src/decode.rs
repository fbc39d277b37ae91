//! Zero-copy decoding of one DXP message (one frame, without its NUL).
//!
//! Built from small `nom` parsers over `&[u8]`, one per field of the spec's
//! tables; each failure names its field and the byte offset inside the
//! message. Decoding never allocates: names and chat text borrow the input.

use nom::bytes::complete::take;
use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Parser};

use crate::error::{DecodeError, Expected, Field, MessageKind};
use crate::message::{
    AcceptanceCode, BackAcc, BackAccCode, BackReq, Captures, Chat, GameAcc, GameEnd, GameEndReason,
    GameReq, MAX_MESSAGE_LEN, Message, Move, Setup, StartPosition, StopCode,
};
use crate::types::{ChatText, Color, Name, Square, parse_board_letter};

/// Runtime leniency for what real peers send (spec, "How real
/// implementations differ"). The default, [`Leniency::STRICT`], accepts only
/// what the spec allows; each option relaxes one documented rule.
///
/// ```
/// use damexchange::{decode, decode_with, Leniency};
/// let msg = b"E00  ";
/// assert!(decode(msg).is_err());
/// let mut lenient = Leniency::STRICT;
/// lenient.trailing_blanks = true;
/// assert!(decode_with(msg, &lenient).is_ok());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Leniency {
    /// Accept `w`/`z` for the colour letters `W`/`Z` (GAMEREQ follower's
    /// colour and side to move, BACKREQ colour). Board letters are unaffected:
    /// there the case tells men from kings.
    pub lowercase_colors: bool,
    /// Accept `B` (English "black") for black in colour fields, as some
    /// clients send (Scan 3.1 aborts on it).
    pub b_for_black: bool,
    /// Ignore spaces, tabs, CR and LF at the end of a message (not CHAT,
    /// whose text is kept as sent).
    pub trailing_blanks: bool,
    /// Accept names (GAMEREQ, GAMEACC) shorter than 32 bytes without the
    /// padding, and names whose field is longer than the remaining layout
    /// allows to detect otherwise; the layout is then read from the end.
    pub short_names: bool,
    /// Ignore bytes after a complete valid message (including captured
    /// squares beyond the number captured, and CHAT text beyond 126 bytes).
    pub extra_bytes: bool,
}

impl Leniency {
    /// Only what the spec allows (the default).
    pub const STRICT: Leniency = Leniency {
        lowercase_colors: false,
        b_for_black: false,
        trailing_blanks: false,
        short_names: false,
        extra_bytes: false,
    };

    /// Every leniency option on: accept what any recorded real peer sends.
    pub const ALL: Leniency = Leniency {
        lowercase_colors: true,
        b_for_black: true,
        trailing_blanks: true,
        short_names: true,
        extra_bytes: true,
    };
}

/// Decodes one message strictly (see [`decode_with`]).
///
/// `frame` is exactly one message without its terminating NUL, as the
/// [`Framer`](crate::Framer) yields it.
///
/// # Errors
/// A [`DecodeError`] naming the field and byte offset at fault.
///
/// ```
/// use damexchange::{decode, Message};
/// assert!(matches!(decode(b"K1"), Ok(Message::BackAcc(_))));
/// assert_eq!(decode(b"B000W").unwrap_err().offset(), 1);
/// ```
#[inline]
pub fn decode(frame: &[u8]) -> Result<Message<'_>, DecodeError> {
    decode_with(frame, &Leniency::STRICT)
}

/// Decodes one message with the given leniency.
///
/// The result borrows names and chat text from `frame`; nothing is
/// allocated. A frame longer than 127 bytes is rejected (trailing bytes)
/// unless `extra_bytes` is on.
///
/// # Errors
/// A [`DecodeError`] naming the field and byte offset at fault.
#[inline]
pub fn decode_with<'a>(frame: &'a [u8], leniency: &Leniency) -> Result<Message<'a>, DecodeError> {
    let Some(&header) = frame.first() else {
        return Err(DecodeError::Empty);
    };
    let Some(kind) = MessageKind::from_header(header) else {
        return Err(DecodeError::UnknownHeader { byte: header });
    };
    let mut msg = frame;
    if leniency.trailing_blanks && kind != MessageKind::Chat {
        while let [rest @ .., b' ' | b'\t' | b'\r' | b'\n'] = msg {
            msg = rest;
        }
    }
    // MOVE is most of the traffic: a branch-light check of the canonical
    // form first; anything it does not accept goes through the nom parser,
    // which also names the fault. Both accept exactly the same messages
    // (tested: `fast_move_agrees_with_the_parser`).
    if kind == MessageKind::Move
        && let Some(mv) = move_fast(msg)
    {
        return Ok(Message::Move(mv));
    }
    let cx = Cx {
        kind,
        len: msg.len(),
        leniency,
    };
    let body = &msg[1..];
    let parsed = match kind {
        MessageKind::Move => parse_move(&cx, body).map(|(r, m)| (r, Message::Move(m))),
        MessageKind::GameReq => parse_gamereq(&cx, body).map(|(r, m)| (r, Message::GameReq(m))),
        MessageKind::GameAcc => parse_gameacc(&cx, body).map(|(r, m)| (r, Message::GameAcc(m))),
        MessageKind::GameEnd => parse_gameend(&cx, body).map(|(r, m)| (r, Message::GameEnd(m))),
        MessageKind::Chat => parse_chat(&cx, body).map(|(r, m)| (r, Message::Chat(m))),
        MessageKind::BackReq => parse_backreq(&cx, body).map(|(r, m)| (r, Message::BackReq(m))),
        MessageKind::BackAcc => parse_backacc(&cx, body).map(|(r, m)| (r, Message::BackAcc(m))),
    };
    match parsed {
        Ok((rest, message)) => {
            if rest.is_empty() || leniency.extra_bytes {
                Ok(message)
            } else {
                Err(DecodeError::TrailingBytes {
                    message: kind,
                    offset: cx.len - rest.len(),
                    count: rest.len(),
                })
            }
        }
        Err(nom::Err::Error(fail) | nom::Err::Failure(fail)) => Err(cx.error(fail)),
        // Complete parsers never report Incomplete; keep the decoder total anyway.
        Err(nom::Err::Incomplete(_)) => Err(DecodeError::Truncated {
            message: kind,
            field: Field::End,
            offset: cx.len,
            len: cx.len,
        }),
    }
}

/// A MOVE in canonical form (`M`, 4 + 2 + 2 + 2 digits, 2 digits per
/// captured square, nothing else), or `None` for anything else, valid or not.
#[inline(always)]
fn move_fast(msg: &[u8]) -> Option<Move> {
    let (head, caps) = msg.split_first_chunk::<{ Move::MIN_LEN }>()?;
    if caps.len() % 2 != 0 || caps.len() > 2 * Captures::MAX {
        return None;
    }
    let digits = u64::from_le_bytes([
        head[1], head[2], head[3], head[4], head[5], head[6], head[7], head[8],
    ]);
    if !all_digits(digits)
        || !all_digits(u64::from(u16::from_le_bytes([head[9], head[10]])) | DIGITS_PAD)
    {
        return None;
    }
    let d = |b: u8| b - b'0';
    let time = u16::from(d(head[1])) * 1000
        + u16::from(d(head[2])) * 100
        + u16::from(d(head[3])) * 10
        + u16::from(d(head[4]));
    let from = d(head[5]) * 10 + d(head[6]);
    let to = d(head[7]) * 10 + d(head[8]);
    let count = d(head[9]) * 10 + d(head[10]);
    if usize::from(count) * 2 != caps.len() {
        return None;
    }
    let (from, to) = (Square::new(from)?, Square::new(to)?);
    let mut captured = Captures::EMPTY;
    let mut mask = 0u64;
    for pair in caps.chunks_exact(2) {
        let (hi, lo) = (pair[0].wrapping_sub(b'0'), pair[1].wrapping_sub(b'0'));
        if hi > 9 || lo > 9 {
            return None;
        }
        let sq = Square::new(hi * 10 + lo)?;
        let bit = 1u64 << sq.number();
        if mask & bit != 0 {
            return None;
        }
        mask |= bit;
        captured.push_unchecked(sq);
    }
    Some(Move {
        time,
        from,
        to,
        captured,
    })
}

/// `0` bytes for the unused high bytes of a short [`all_digits`] check.
const DIGITS_PAD: u64 = 0x3030_3030_3030_0000;

/// Whether all 8 bytes of `x` are ASCII digits (SWAR: high nibble 3, and
/// still 3 after adding 6; no carries cross bytes once the first holds).
#[inline(always)]
const fn all_digits(x: u64) -> bool {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const THREES: u64 = 0x3030_3030_3030_3030;
    (x & HIGH) == THREES && (x.wrapping_add(0x0606_0606_0606_0606) & HIGH) == THREES
}

/// The nom parser alone, for the agreement test of [`move_fast`].
#[cfg(test)]
fn decode_without_fast_path(frame: &[u8]) -> Result<Message<'_>, DecodeError> {
    let cx = Cx {
        kind: MessageKind::Move,
        len: frame.len(),
        leniency: &Leniency::STRICT,
    };
    match parse_move(&cx, &frame[1..]) {
        Ok((&[], m)) => Ok(Message::Move(m)),
        Ok((rest, _)) => Err(DecodeError::TrailingBytes {
            message: MessageKind::Move,
            offset: frame.len() - rest.len(),
            count: rest.len(),
        }),
        Err(nom::Err::Error(f) | nom::Err::Failure(f)) => Err(cx.error(f)),
        Err(nom::Err::Incomplete(_)) => Err(DecodeError::Empty),
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;
    use alloc::{format, vec};

    use super::*;
    use proptest::prelude::*;

    fn agree(frame: &[u8]) -> Result<(), TestCaseError> {
        let fast = move_fast(frame);
        let slow = decode_without_fast_path(frame);
        match (fast, &slow) {
            (Some(m), Ok(Message::Move(s))) => prop_assert_eq!(&m, s),
            (None, Err(_)) => {}
            _ => prop_assert!(false, "fast {:?} vs parser {:?}", fast, slow),
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Random MOVE-shaped messages: digits with occasional junk.
        #[test]
        fn fast_move_agrees_with_the_parser(
            body in proptest::collection::vec(
                prop_oneof![8 => b'0'..=b'9', 1 => any::<u8>()], 0..60),
            count in 0u8..=22,
            fix_count in any::<bool>(),
        ) {
            let mut frame = vec![b'M'];
            frame.extend(&body);
            if fix_count && frame.len() >= 11 {
                frame[9] = b'0' + count / 10;
                frame[10] = b'0' + count % 10;
            }
            agree(&frame)?;
        }

        /// Valid moves, with one byte changed.
        #[test]
        fn fast_move_agrees_on_near_valid(
            time in 0u16..=9999, from in 1u8..=50, to in 1u8..=50,
            caps in proptest::sample::subsequence((1u8..=50).collect::<Vec<_>>(), 0..=20),
            at in any::<prop::sample::Index>(), byte in any::<u8>(), mutate in any::<bool>(),
        ) {
            let mut frame = format!("M{time:04}{from:02}{to:02}{:02}", caps.len()).into_bytes();
            for c in &caps {
                frame.extend(format!("{c:02}").bytes());
            }
            if mutate {
                let i = at.index(frame.len());
                frame[i] = byte;
            }
            agree(&frame)?;
        }
    }
}

/// Decoding context: message type, message length, options.
struct Cx<'l> {
    kind: MessageKind,
    len: usize,
    leniency: &'l Leniency,
}

/// A parse failure: what went wrong, and `rest`, the length of the input
/// remaining at the fault (so the offset is `len - rest`).
#[derive(Debug)]
struct Fail {
    rest: usize,
    what: What,
}

#[derive(Debug)]
enum What {
    Truncated(Field),
    Invalid {
        field: Field,
        byte: u8,
        expected: Expected,
    },
    OutOfRange {
        field: Field,
        value: u16,
        min: u16,
        max: u16,
    },
    LeadingSpace(Field),
    CaptureCount {
        count: u8,
        following: usize,
    },
    Duplicate(u8),
}

impl<'a> ParseError<&'a [u8]> for Fail {
    fn from_error_kind(input: &'a [u8], _kind: ErrorKind) -> Fail {
        Fail {
            rest: input.len(),
            what: What::Truncated(Field::End),
        }
    }
    fn append(_input: &'a [u8], _kind: ErrorKind, other: Fail) -> Fail {
        other
    }
}

type PResult<'a, T> = IResult<&'a [u8], T, Fail>;

#[inline]
fn fail<T>(rest: &[u8], what: What) -> PResult<'_, T> {
    Err(nom::Err::Error(Fail {
        rest: rest.len(),
        what,
    }))
}

impl Cx<'_> {
    fn error(&self, fail: Fail) -> DecodeError {
        let message = self.kind;
        let offset = self.len.saturating_sub(fail.rest);
        match fail.what {
            What::Truncated(field) => DecodeError::Truncated {
                message,
                field,
                offset,
                len: self.len,
            },
            What::Invalid {
                field,
                byte,
                expected,
            } => DecodeError::Invalid {
                message,
                field,
                offset,
                byte,
                expected,
            },
            What::OutOfRange {
                field,
                value,
                min,
                max,
            } => DecodeError::OutOfRange {
                message,
                field,
                offset,
                value,
                min,
                max,
            },
            What::LeadingSpace(field) => DecodeError::LeadingSpace {
                message,
                field,
                offset,
            },
            What::CaptureCount { count, following } => DecodeError::CaptureCount {
                count,
                following_bytes: following,
                offset,
            },
            What::Duplicate(square) => DecodeError::DuplicateCapture { square, offset },
        }
    }

    /// A colour letter, with the colour leniencies.
    #[inline]
    fn color<'a>(&self, field: Field, i: &'a [u8]) -> PResult<'a, Color> {
        let (rest, b) = byte(field, i)?;
        let color = match b {
            b'W' => Color::White,
            b'Z' => Color::Black,
            b'w' if self.leniency.lowercase_colors => Color::White,
            b'z' if self.leniency.lowercase_colors => Color::Black,
            b'B' if self.leniency.b_for_black => Color::Black,
            b'b' if self.leniency.b_for_black && self.leniency.lowercase_colors => Color::Black,
            _ => {
                return fail(
                    i,
                    What::Invalid {
                        field,
                        byte: b,
                        expected: Expected::ColorLetter,
                    },
                );
            }
        };
        Ok((rest, color))
    }
}

/// Exactly `n` bytes of `field`, or "truncated at the field's start".
#[inline]
fn field(field: Field, n: usize) -> impl Fn(&[u8]) -> PResult<'_, &[u8]> {
    move |i: &[u8]| {
        take::<_, _, Fail>(n).parse(i).map_err(|_| {
            nom::Err::Error(Fail {
                rest: i.len(),
                what: What::Truncated(field),
            })
        })
    }
}

#[inline]
fn byte(f: Field, i: &[u8]) -> PResult<'_, u8> {
    match i.split_first() {
        Some((&b, rest)) => Ok((rest, b)),
        None => fail(i, What::Truncated(f)),
    }
}

/// `N` decimal digits as a number. The digits are checked together (one
/// branch); the offending byte is looked for only on failure.
#[inline(always)]
fn digits<const N: usize>(f: Field, i: &[u8]) -> PResult<'_, u16> {
    let Some((ds, rest)) = i.split_first_chunk::<N>() else {
        return fail(i, What::Truncated(f));
    };
    let mut value = 0u16;
    let mut bad = false;
    for &d in ds {
        let v = d.wrapping_sub(b'0');
        bad |= v > 9;
        value = value.wrapping_mul(10).wrapping_add(u16::from(v));
    }
    if bad {
        return not_digit(f, i, ds);
    }
    Ok((rest, value))
}

#[cold]
#[inline(never)]
fn not_digit<'a, T>(f: Field, i: &'a [u8], ds: &[u8]) -> PResult<'a, T> {
    let k = ds.iter().position(|d| !d.is_ascii_digit()).unwrap_or(0);
    fail(
        &i[k..],
        What::Invalid {
            field: f,
            byte: ds[k],
            expected: Expected::Digit,
        },
    )
}

/// A number of `N` digits in `min..=max`.
#[inline(always)]
fn number<const N: usize>(f: Field, min: u16, max: u16, i: &[u8]) -> PResult<'_, u16> {
    let (rest, value) = digits::<N>(f, i)?;
    if value < min || value > max {
        return fail(
            i,
            What::OutOfRange {
                field: f,
                value,
                min,
                max,
            },
        );
    }
    Ok((rest, value))
}

/// A square, two digits `01`..=`50`.
#[inline(always)]
fn square(f: Field, i: &[u8]) -> PResult<'_, Square> {
    let (rest, value) = digits::<2>(f, i)?;
    match Square::new(value as u8) {
        Some(sq) if value <= 50 => Ok((rest, sq)),
        _ => fail(
            i,
            What::OutOfRange {
                field: f,
                value,
                min: 1,
                max: 50,
            },
        ),
    }
}

/// A one-digit code `0..=max`.
#[inline]
fn code(f: Field, max: u8, i: &[u8]) -> PResult<'_, u8> {
    let (rest, b) = byte(f, i)?;
    let v = b.wrapping_sub(b'0');
    if v > max {
        return fail(
            i,
            What::Invalid {
                field: f,
                byte: b,
                expected: Expected::Code { max },
            },
        );
    }
    Ok((rest, v))
}

/// A name field's content (padding included): printable ASCII, not starting
/// with a space; trailing padding removed.
fn name(f: Field, raw: &[u8]) -> Result<Name<'_>, nom::Err<Fail>> {
    if let Some(k) = raw.iter().position(|b| !(0x20..=0x7e).contains(b)) {
        return Err(nom::Err::Error(Fail {
            rest: raw.len() - k,
            what: What::Invalid {
                field: f,
                byte: raw[k],
                expected: Expected::Printable,
            },
        }));
    }
    // Also catches an all-blank (empty) name.
    if raw.first().is_none_or(|&b| b == b' ') {
        return Err(nom::Err::Error(Fail {
            rest: raw.len(),
            what: What::LeadingSpace(f),
        }));
    }
    let mut end = raw.len();
    while end > 0 && raw[end - 1] == b' ' {
        end -= 1;
    }
    Ok(Name::from_checked(&raw[..end]))
}

fn parse_move<'a>(cx: &Cx<'_>, i: &'a [u8]) -> PResult<'a, Move> {
    let (i, time) = digits::<4>(Field::Time, i)?;
    let (i, from) = square(Field::From, i)?;
    let (i, to) = square(Field::To, i)?;
    let (i, count) = number::<2>(Field::CaptureCount, 0, Captures::MAX as u16, i)?;
    let count = count as u8;
    let need = 2 * usize::from(count);
    if i.len() < need || (i.len() > need && !cx.leniency.extra_bytes) {
        return fail(
            i,
            What::CaptureCount {
                count,
                following: i.len(),
            },
        );
    }
    let mut captured = Captures::EMPTY;
    let mut mask = 0u64;
    let mut i = i;
    for _ in 0..count {
        let (rest, sq) = square(Field::Captured, i)?;
        let bit = 1u64 << sq.number();
        if mask & bit != 0 {
            return fail(i, What::Duplicate(sq.number()));
        }
        mask |= bit;
        captured.push_unchecked(sq);
        i = rest;
    }
    Ok((
        i,
        Move {
            time,
            from,
            to,
            captured,
        },
    ))
}

fn parse_gamereq<'a>(cx: &Cx<'_>, body: &'a [u8]) -> PResult<'a, GameReq<'a>> {
    let (i, version) = digits::<2>(Field::Version, body)?;
    let msg_len = body.len() + 1;
    // Strict layout: a 32-byte name, the position letter at offset 42.
    let strict_layout = !cx.leniency.short_names
        || match body.get(41) {
            Some(b'A') => true,
            Some(b'B') => msg_len >= GameReq::LEN_SETUP,
            _ => false,
        };
    let name_len = if strict_layout {
        Name::WIRE_LEN
    } else {
        // Short name: read the layout from the end. Everything from the
        // follower's colour on is 8 bytes (`A`) or 59 bytes (`B`); a set-up
        // position ends in a board letter, never `A`.
        let tail = if body.last() == Some(&b'A') { 8 } else { 59 };
        // A longer name than 32 bytes does not fit either: fall back to the
        // strict layout (and its error).
        match (msg_len - 3).saturating_sub(tail) {
            n @ 1..=32 => n,
            _ => Name::WIRE_LEN,
        }
    };
    let (i, raw_name) = field(Field::InitiatorName, name_len)(i)?;
    let initiator = name(Field::InitiatorName, raw_name).map_err(|e| adjust_rest(e, i.len()))?;
    let (i, follower_color) = cx.color(Field::FollowerColor, i)?;
    let (i, minutes) = digits::<3>(Field::ThinkingTime, i)?;
    let (i, moves) = digits::<3>(Field::MovesLimit, i)?;
    let (after, letter) = byte(Field::StartingPosition, i)?;
    let (i, position) = match letter {
        b'A' => (after, StartPosition::Initial),
        b'B' => {
            let (j, side_to_move) = cx.color(Field::SideToMove, after)?;
            let (j, letters) = field(Field::Board, 50)(j)?;
            let mut board = [None; 50];
            for (k, (&l, slot)) in letters.iter().zip(board.iter_mut()).enumerate() {
                match parse_board_letter(l) {
                    Ok(content) => *slot = content,
                    Err(()) => {
                        return fail(
                            &letters[k..],
                            What::Invalid {
                                field: Field::Board,
                                byte: l,
                                expected: Expected::BoardLetter,
                            },
                        )
                        .map_err(|e| adjust_rest(e, j.len()));
                    }
                }
            }
            (
                j,
                StartPosition::Setup(Setup {
                    side_to_move,
                    board,
                }),
            )
        }
        other => {
            return fail(
                i,
                What::Invalid {
                    field: Field::StartingPosition,
                    byte: other,
                    expected: Expected::PositionLetter,
                },
            );
        }
    };
    Ok((
        i,
        GameReq {
            version: version as u8,
            initiator,
            follower_color,
            minutes,
            moves,
            position,
        },
    ))
}

/// Converts a "rest" measured inside a sub-slice to one measured in the
/// message: `outer_after` is what follows the sub-slice in the message.
fn adjust_rest(e: nom::Err<Fail>, outer_after: usize) -> nom::Err<Fail> {
    e.map(|mut f| {
        f.rest += outer_after;
        f
    })
}

fn parse_gameacc<'a>(cx: &Cx<'_>, body: &'a [u8]) -> PResult<'a, GameAcc<'a>> {
    let name_len = if body.len() < GameAcc::LEN - 1 && cx.leniency.short_names && body.len() >= 2 {
        body.len() - 1
    } else {
        Name::WIRE_LEN
    };
    let (i, raw) = field(Field::FollowerName, name_len)(body)?;
    let follower = name(Field::FollowerName, raw).map_err(|e| adjust_rest(e, i.len()))?;
    let (i, c) = code(Field::AcceptanceCode, 3, i)?;
    let code = AcceptanceCode::from_code(c).unwrap_or(AcceptanceCode::NoGames);
    Ok((i, GameAcc { follower, code }))
}

fn parse_gameend<'a>(_cx: &Cx<'_>, i: &'a [u8]) -> PResult<'a, GameEnd> {
    let (i, r) = code(Field::Reason, 3, i)?;
    let (i, s) = code(Field::StopCode, 1, i)?;
    Ok((
        i,
        GameEnd {
            reason: GameEndReason::from_code(r).unwrap_or(GameEndReason::Unknown),
            stop: StopCode::from_code(s).unwrap_or(StopCode::NoMoreGames),
        },
    ))
}

fn parse_chat<'a>(cx: &Cx<'_>, i: &'a [u8]) -> PResult<'a, Chat<'a>> {
    if i.is_empty() {
        return fail(i, What::Truncated(Field::Text));
    }
    let n = i.len().min(MAX_MESSAGE_LEN - 1);
    let (rest, text) = field(Field::Text, n)(i)?;
    if let Some(k) = text.iter().position(|&b| b == 0 || b > 0x7f) {
        return fail(
            &i[k..],
            What::Invalid {
                field: Field::Text,
                byte: text[k],
                expected: Expected::SevenBit,
            },
        );
    }
    let _ = cx;
    Ok((
        rest,
        Chat {
            text: ChatText::from_checked(text),
        },
    ))
}

fn parse_backreq<'a>(cx: &Cx<'_>, i: &'a [u8]) -> PResult<'a, BackReq> {
    let (i, move_number) = number::<3>(Field::MoveNumber, 1, 999, i)?;
    let (i, color) = cx.color(Field::Color, i)?;
    Ok((i, BackReq { move_number, color }))
}

fn parse_backacc<'a>(_cx: &Cx<'_>, i: &'a [u8]) -> PResult<'a, BackAcc> {
    let (i, c) = code(Field::BackAccCode, 2, i)?;
    Ok((
        i,
        BackAcc {
            code: BackAccCode::from_code(c).unwrap_or(BackAccCode::NotSupported),
        },
    ))
}
