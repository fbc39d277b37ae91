//! Zero-copy decoding of one DXP message (one frame, without its NUL):
//! [`decode`], [`decode_with`], the [`Decode`] trait and [`Leniency`].
//!
//! Built on the `nom` parsers of [`crate::parse`], one per field of the
//! tables of [`spec::damexchange`](crate::spec::damexchange), *Messages*; each failure names its
//! message, field and 0-based byte offset in the frame. Decoding never
//! allocates: names and chat text borrow the input.
//!
//! `frame` is exactly one message without its terminating NUL, as the
//! [`Framer`](crate::framer::Framer) yields it; the wanted type comes from
//! a turbofish or from the patterns:
//!
//! ```
//! use damexchange::{decode, Message};
//! assert!(matches!(decode(b"K1"), Ok(Message::BackAcc(_))));
//! assert_eq!(decode::<Message>(b"B000W").unwrap_err().offset, 1);
//! ```

use nom::Parser;

use crate::error::{DecodeError, Expected, Field, MessageKind, Problem};
use crate::message::{Captures, Chat, GameAcc, GameReq, MAX_MESSAGE_LEN, Message, Move};
use crate::parse::{self, GameReqParts, ParseError};
use crate::types::{ChatText, FromChecked, Name, Square};

/// Runtime leniency for what real peers send ([`spec::damexchange`](crate::spec::damexchange),
/// *How real implementations differ (interoperability)*). The default,
/// [`Leniency::STRICT`], accepts only what the spec allows; each option
/// relaxes one documented rule, named with the peer that needs it.
///
/// ```
/// use damexchange::{decode, decode_with, Leniency, Message};
/// let msg = b"E00  ";
/// assert!(decode::<Message>(msg).is_err());
/// let mut lenient = Leniency::STRICT;
/// lenient.trailing_blanks = true;
/// assert!(decode_with::<Message>(msg, &lenient).is_ok());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Leniency {
    /// Accept `w`/`z` for the colour letters `W`/`Z` (GAMEREQ follower's
    /// colour and side to move, BACKREQ colour), as hand-written test
    /// clients send. Board letters are unaffected: there the case tells men
    /// from kings.
    pub lowercase_colors: bool,
    /// Accept `B` (English "black") for black in colour fields, as some
    /// clients send (Scan 3.1 aborts on it).
    pub b_for_black: bool,
    /// Ignore spaces, tabs, CR and LF at the end of a message (not CHAT,
    /// whose text is kept as sent), as line-oriented test tools send.
    pub trailing_blanks: bool,
    /// Accept names (GAMEREQ, GAMEACC) shorter than 32 bytes without the
    /// padding (Moby Dam checks only minimum lengths and accepts them); the
    /// layout is then read from the end.
    pub short_names: bool,
    /// Ignore bytes after a complete valid message (including captured
    /// squares beyond the number captured, and CHAT text beyond 126 bytes),
    /// as Moby Dam does.
    pub extra_bytes: bool,
    /// Accept a decimal fraction in the GAMEREQ thinking time (`0.5`,
    /// `1.5`, `.25`: three bytes, digits and one `.`), as Scan 3.1 reads
    /// the field with a floating-point parse and hand-written initiators
    /// send it. The minutes are rounded up to a whole minute (`0.5` → 1,
    /// `1.5` → 2, `0.0` → 0), so a positive time never reads as `000`
    /// (no clock).
    pub decimal_time: bool,
}

impl Leniency {
    /// Only what the spec allows (the default).
    pub const STRICT: Leniency = Leniency {
        lowercase_colors: false,
        b_for_black: false,
        trailing_blanks: false,
        short_names: false,
        extra_bytes: false,
        decimal_time: false,
    };

    /// Every leniency option on: accept what any recorded real peer sends.
    pub const ALL: Leniency = Leniency {
        lowercase_colors: true,
        b_for_black: true,
        trailing_blanks: true,
        short_names: true,
        extra_bytes: true,
        decimal_time: true,
    };
}

/// A message type that decodes from one frame: the family's one trait,
/// implemented here by [`Message`] with [`Leniency`] and
/// [`DecodeError`].
pub use boardwire_proto::decode::Decode;
/// Decodes one frame: strictly ([`Leniency::STRICT`], `decode`) or with a
/// leniency (`decode_with`); [`DecodeError`] for a frame of a known kind
/// with a malformed field.
pub use boardwire_proto::decode::{decode, decode_with};

impl boardwire_proto::decode::Strict for Leniency {
    const STRICT: Leniency = Leniency::STRICT;
}

impl<'a> Decode<'a> for Message<'a> {
    type Leniency = Leniency;
    type Error = DecodeError;

    /// Decodes one message ([`spec::damexchange`](crate::spec::damexchange), *Messages*).
    ///
    /// The result borrows names and chat text from `frame`; nothing is
    /// allocated. A frame whose header byte is none of the seven is
    /// `Ok(Message::Unrecognised(..))` (1..=127 bytes without NUL); a known
    /// kind with a bad field, and bytes after the last field (unless
    /// `extra_bytes`), are an `Err`.
    #[inline(always)]
    fn decode_with(frame: &'a [u8], leniency: &Leniency) -> Result<Message<'a>, DecodeError> {
        decode_message(frame, leniency)
    }
}

#[inline(always)]
fn decode_message<'a>(frame: &'a [u8], leniency: &Leniency) -> Result<Message<'a>, DecodeError> {
    // MOVE is most of the traffic: a branch-light check of the canonical
    // form first; anything it does not accept goes through the nom parser,
    // which also names the fault. Both accept exactly the same messages
    // (tested: `fast_move_agrees_with_the_parser`).
    if frame.first() == Some(&b'M')
        && !leniency.trailing_blanks
        && let Some(mv) = move_fast(frame)
    {
        return Ok(Message::Move(mv));
    }
    decode_parsed(frame, leniency)
}

/// Everything but the canonical MOVE: the nom parsers of [`crate::parse`].
#[inline]
fn decode_parsed<'a>(frame: &'a [u8], leniency: &Leniency) -> Result<Message<'a>, DecodeError> {
    let Some(&head) = frame.first() else {
        return Err(DecodeError::new(
            MessageKind::Unrecognised,
            Field::Header,
            0,
            Problem::Empty,
        ));
    };
    let kind = MessageKind::from_header(head).unwrap_or(MessageKind::Unrecognised);
    let mut msg = frame;
    if leniency.trailing_blanks && !matches!(kind, MessageKind::Chat | MessageKind::Unrecognised) {
        while let [rest @ .., b' ' | b'\t' | b'\r' | b'\n'] = msg {
            msg = rest;
        }
        if kind == MessageKind::Move
            && let Some(mv) = move_fast(msg)
        {
            return Ok(Message::Move(mv));
        }
    }
    // Straight to the message's parser (the header is known); the message
    // is built once, in the result.
    macro_rules! done {
        ($parsed:expr, $build:expr) => {
            match $parsed {
                Ok((rest, m)) if rest.is_empty() || leniency.extra_bytes => Ok(($build)(m)),
                Ok((rest, _)) => Err(trailing(msg, kind, rest.len())),
                Err(e) => Err(parse_failure(msg, e, kind)),
            }
        };
    }
    match kind {
        MessageKind::Move => done!(parse::move_message_with(leniency).parse(msg), Message::Move),
        // The parts are small; the message (with its 100-byte board) is
        // built once, here, in the result.
        MessageKind::GameReq => done!(
            parse::game_req_parts(leniency).parse(msg),
            |m: GameReqParts<'a>| Message::GameReq(m.into_game_req())
        ),
        MessageKind::GameAcc => done!(parse::game_acc_parts(leniency).parse(msg), |(
            follower,
            code,
        )| {
            Message::GameAcc(GameAcc {
                follower: Name::from_checked(follower),
                code,
            })
        }),
        MessageKind::GameEnd => done!(parse::game_end(msg), Message::GameEnd),
        MessageKind::Chat => done!(parse::chat_parts(msg), |text| Message::Chat(Chat {
            text: ChatText::from_checked(text)
        })),
        MessageKind::BackReq => done!(parse::back_req_with(leniency).parse(msg), Message::BackReq),
        MessageKind::BackAcc => done!(parse::back_acc(msg), Message::BackAcc),
        MessageKind::Unrecognised => done!(parse::unrecognised(msg), Message::Unrecognised),
    }
}

/// Bytes after the last field (a byte outside 1..=127 named first).
#[cold]
fn trailing(msg: &[u8], kind: MessageKind, count: usize) -> DecodeError {
    let len = msg.len();
    not_seven_bit(msg, kind).unwrap_or(DecodeError::new(
        kind,
        Field::Trailing,
        len - count,
        Problem::Trailing { count },
    ))
}

/// A parser's failure as the frame's error (a byte outside 1..=127 named
/// first).
#[cold]
fn parse_failure(msg: &[u8], e: nom::Err<ParseError>, kind: MessageKind) -> DecodeError {
    let len = msg.len();
    if let Some(e) = not_seven_bit(msg, kind) {
        return e;
    }
    match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => e.into_decode_error(kind, len),
        // Complete parsers never report Incomplete; keep the decoder total anyway.
        nom::Err::Incomplete(_) => DecodeError::new(kind, Field::Trailing, len, Problem::Missing),
    }
}

/// The first byte outside 1..=127 of a frame of a known kind: no DXP
/// message holds one ([`spec::damexchange`](crate::spec::damexchange), *Transport (layer 1)*), so
/// it is the fault to name, whatever the field parsers found after it.
/// Only called on failure: a message that parsed holds none.
fn not_seven_bit(msg: &[u8], kind: MessageKind) -> Option<DecodeError> {
    if kind == MessageKind::Unrecognised {
        return None;
    }
    let k = msg.iter().position(|&b| b == 0 || b > 0x7f)?;
    Some(DecodeError::new(
        kind,
        field_at(kind, k),
        k,
        Problem::Invalid {
            byte: msg[k],
            expected: Expected::SevenBit,
        },
    ))
}

/// The field at `offset` in the strict layout of `kind`
/// ([`spec::damexchange`](crate::spec::damexchange), *Messages*).
fn field_at(kind: MessageKind, offset: usize) -> Field {
    use Field as F;
    if offset == 0 {
        return F::Header;
    }
    let layout: &[(usize, Field)] = match kind {
        MessageKind::GameReq => &[
            (3, F::Version),
            (35, F::InitiatorName),
            (36, F::FollowerColor),
            (39, F::ThinkingTime),
            (42, F::MovesLimit),
            (43, F::StartingPosition),
            (44, F::SideToMove),
            (GameReq::LEN_SETUP, F::Board),
        ],
        MessageKind::GameAcc => &[(33, F::FollowerName), (GameAcc::LEN, F::AcceptanceCode)],
        MessageKind::Move => &[
            (5, F::Time),
            (7, F::From),
            (9, F::To),
            (11, F::CaptureCount),
            (Move::MIN_LEN + 2 * Captures::MAX, F::Captured),
        ],
        MessageKind::GameEnd => &[(2, F::Reason), (3, F::StopCode)],
        MessageKind::Chat => &[(MAX_MESSAGE_LEN, F::Text)],
        MessageKind::BackReq => &[(4, F::MoveNumber), (5, F::Color)],
        MessageKind::BackAcc => &[(2, F::BackAccCode)],
        MessageKind::Unrecognised => &[],
    };
    layout
        .iter()
        .find(|&&(end, _)| offset < end)
        .map_or(F::Trailing, |&(_, f)| f)
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
    // Strict: `decode_parsed` runs the nom parsers only.
    decode_parsed(frame, &Leniency::STRICT)
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;
    use alloc::{format, vec};

    use super::*;
    use proptest::prelude::*;

    fn agree(frame: &[u8]) -> Result<(), TestCaseError> {
        // The fast path runs only on frames with the MOVE header.
        let fast = if frame.first() == Some(&b'M') {
            move_fast(frame)
        } else {
            None
        };
        let slow = decode_without_fast_path(frame);
        match (fast, &slow) {
            (Some(m), Ok(Message::Move(s))) => prop_assert_eq!(&m, s),
            (None, Err(_)) => {}
            (None, Ok(m)) if frame.first() != Some(&b'M') && !matches!(m, Message::Move(_)) => {}
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
