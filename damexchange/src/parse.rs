//! `nom` parsers of the DXP grammar, one per field and one per message, as
//! the tables of [`spec::damexchange`](crate::spec::damexchange), *Messages*, lay them out.
//!
//! Every parser is a `nom` parser over `&[u8]`
//! (`fn(&[u8]) -> IResult<&[u8], T, ParseError>`, or a function returning
//! one where the parser takes an argument), so users can embed them in their
//! own grammars. They are zero-copy (names and chat text borrow the input)
//! and never allocate. A failure is a [`ParseError`]: the field, the
//! [`Problem`] and the length of the input that remained at the fault;
//! [`ParseError::into_decode_error`] turns that into a [`DecodeError`](crate::error::DecodeError) with
//! the 0-based byte offset in the frame. The message parsers take the whole
//! frame, header byte included, and return what follows the last field
//! (trailing bytes are for the caller to judge, as [`decode()`](crate::decode())
//! does).
//!
//! ```
//! use damexchange::parse::{from_square, move_time, to_square};
//! use nom::Parser;
//! // MOVE fields after the header: time, from, to.
//! let (rest, (time, from, to)) = (move_time, from_square, to_square).parse(&b"0012061100"[..]).unwrap();
//! assert_eq!((time, from.number(), to.number(), rest), (12, 6, 11, &b"00"[..]));
//! ```

use nom::bytes::complete::take;
use nom::{IResult, Parser};

use crate::decode::Leniency;
use crate::error::{Expected, Field, MessageKind, Problem};
use crate::message::{
    AcceptanceCode, BackAcc, BackAccCode, BackReq, Captures, Chat, GameAcc, GameEnd, GameEndReason,
    GameReq, MAX_MESSAGE_LEN, Message, Move, Setup, StartPosition, StopCode, Unrecognised,
};
use crate::types::{ChatText, Color, FromChecked, Name, Piece, Square, parse_board_letter};
use boardwire_proto::parse::fail;

/// A parse failure: the field, what is wrong, and `remaining`, the length
/// of the input left at the fault (the offset in a frame of `n` bytes is `n - remaining`: the first bad
/// byte, or for a field that is missing or cut off, [`Problem::Missing`],
/// the end of the input, `remaining == 0`). The family's one
/// [`boardwire_proto::parse::ParseError`] over this crate's [`Field`];
/// [`ParseError::into_decode_error`] gives the [`DecodeError`](crate::error::DecodeError).
pub type ParseError = boardwire_proto::parse::ParseError<Field>;

impl boardwire_proto::parse::ParseField for Field {
    const TRAILING: Field = Field::Trailing;
}

/// The result of the parsers in this module.
pub type PResult<'a, T> = IResult<&'a [u8], T, ParseError>;

/// A field that is missing or cut off: [`Problem::Missing`] at the end of
/// the input.
#[cold]
#[inline(never)]
fn missing<'a, T>(i: &'a [u8], f: Field) -> PResult<'a, T> {
    fail(&i[i.len()..], f, Problem::Missing)
}

/// Exactly `n` bytes of `field`, or [`Problem::Missing`] at the end of the
/// input.
#[inline]
pub fn field<'a>(
    f: Field,
    n: usize,
) -> impl Parser<&'a [u8], Output = &'a [u8], Error = ParseError> {
    move |i: &'a [u8]| {
        take::<_, _, ParseError>(n)
            .parse(i)
            .or_else(|_| missing(i, f))
    }
}

/// `N` decimal digits of `f` as a number. The digits are checked together
/// (one branch); the offending byte is looked for only on failure.
#[inline(always)]
pub fn digits<'a, const N: usize>(
    f: Field,
) -> impl Parser<&'a [u8], Output = u16, Error = ParseError> {
    move |i: &'a [u8]| {
        let Some((ds, rest)) = i.split_first_chunk::<N>() else {
            // Cut off: a bad byte among those present first, else missing.
            return not_digit(f, i, i);
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
}

#[cold]
#[inline(never)]
fn not_digit<'a, T>(f: Field, i: &'a [u8], ds: &[u8]) -> PResult<'a, T> {
    let Some(k) = ds.iter().position(|d| !d.is_ascii_digit()) else {
        return missing(i, f);
    };
    fail(
        &i[k..],
        f,
        Problem::Invalid {
            byte: ds[k],
            expected: Expected::Digit,
        },
    )
}

/// An `N`-digit number of `f` in `min..=max`.
#[inline(always)]
pub fn number<'a, const N: usize>(
    f: Field,
    min: u16,
    max: u16,
) -> impl Parser<&'a [u8], Output = u16, Error = ParseError> {
    move |i: &'a [u8]| {
        let (rest, value) = digits::<N>(f).parse(i)?;
        if value < min || value > max {
            return fail(
                i,
                f,
                Problem::OutOfRange {
                    value: value.into(),
                    min: min.into(),
                    max: max.into(),
                },
            );
        }
        Ok((rest, value))
    }
}

/// A square of `f`: two digits `01`..=`50`.
#[inline(always)]
pub fn square<'a>(f: Field) -> impl Parser<&'a [u8], Output = Square, Error = ParseError> {
    move |i: &'a [u8]| {
        let (rest, value) = digits::<2>(f).parse(i)?;
        match Square::new(value as u8) {
            Some(sq) if value <= 50 => Ok((rest, sq)),
            _ => fail(
                i,
                f,
                Problem::OutOfRange {
                    value: value.into(),
                    min: 1,
                    max: 50,
                },
            ),
        }
    }
}

/// A one-digit code `0..=max` of `f`.
#[inline]
pub fn code<'a>(f: Field, max: u8) -> impl Parser<&'a [u8], Output = u8, Error = ParseError> {
    move |i: &'a [u8]| {
        let (rest, b) = field(f, 1).parse(i)?;
        let v = b[0].wrapping_sub(b'0');
        if v > max {
            return fail(
                i,
                f,
                Problem::Invalid {
                    byte: b[0],
                    expected: Expected::Code { max },
                },
            );
        }
        Ok((rest, v))
    }
}

/// A colour letter of `f`: `W` or `Z`, and with `leniency` `w`/`z`
/// (`lowercase_colors`) and `B` (`b_for_black`).
#[inline]
pub fn color<'a>(
    f: Field,
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = Color, Error = ParseError> {
    let l = *leniency;
    move |i: &'a [u8]| {
        let (rest, b) = field(f, 1).parse(i)?;
        let color = match b[0] {
            b'W' => Color::White,
            b'Z' => Color::Black,
            b'w' if l.lowercase_colors => Color::White,
            b'z' if l.lowercase_colors => Color::Black,
            b'B' if l.b_for_black => Color::Black,
            b'b' if l.b_for_black && l.lowercase_colors => Color::Black,
            byte => {
                return fail(
                    i,
                    f,
                    Problem::Invalid {
                        byte,
                        expected: Expected::ColorLetter,
                    },
                );
            }
        };
        Ok((rest, color))
    }
}

/// A name field of `len` bytes (32 on the wire, fewer with the
/// `short_names` leniency): printable ASCII, not starting with a space;
/// the padding is removed.
#[inline]
pub fn name_field<'a>(
    f: Field,
    len: usize,
) -> impl Parser<&'a [u8], Output = Name<'a>, Error = ParseError> {
    name_bytes(f, len).map(Name::from_checked)
}

/// [`name_field`] as checked bytes, padding removed.
#[inline]
fn name_bytes<'a>(
    f: Field,
    len: usize,
) -> impl Parser<&'a [u8], Output = &'a [u8], Error = ParseError> {
    move |i: &'a [u8]| {
        // The bytes present are checked even when the field is cut off.
        let (raw, rest) = i.split_at(len.min(i.len()));
        let bad = raw
            .iter()
            .fold(false, |bad, b| bad | !(0x20..=0x7e).contains(b));
        if bad {
            let k = raw
                .iter()
                .position(|b| !(0x20..=0x7e).contains(b))
                .unwrap_or(0);
            return fail(
                &i[k..],
                f,
                Problem::Invalid {
                    byte: raw[k],
                    expected: Expected::Printable,
                },
            );
        }
        // Also catches an all-blank (empty) name.
        if raw.first() == Some(&b' ') {
            return fail(i, f, Problem::LeadingSpace);
        }
        if raw.len() < len {
            return missing(i, f);
        }
        if raw.iter().all(|&b| b == b' ') {
            return fail(i, f, Problem::LeadingSpace);
        }
        // The padding: eight blanks at a time, then one by one.
        let mut end = raw.len();
        while end >= 8 && raw[end - 8..end] == [b' '; 8] {
            end -= 8;
        }
        while end > 0 && raw[end - 1] == b' ' {
            end -= 1;
        }
        Ok((rest, &raw[..end]))
    }
}

/// The header byte: the kind of message, [`MessageKind::Unrecognised`] for
/// any other byte.
#[inline]
pub fn header(i: &[u8]) -> PResult<'_, MessageKind> {
    let (rest, b) = field(Field::Header, 1).parse(i)?;
    let kind = MessageKind::from_header(b[0]).unwrap_or(MessageKind::Unrecognised);
    Ok((rest, kind))
}

/// The header byte `kind` itself.
#[inline]
fn tag_kind<'a>(kind: MessageKind) -> impl Parser<&'a [u8], Output = (), Error = ParseError> {
    move |i: &'a [u8]| match i.split_first() {
        Some((&b, rest)) if Some(b) == kind.header() => Ok((rest, ())),
        Some((&byte, _)) => fail(
            i,
            Field::Header,
            Problem::Invalid {
                byte,
                expected: Expected::Header(kind.header().unwrap_or(0)),
            },
        ),
        None => fail(i, Field::Header, Problem::Empty),
    }
}

// ------------------------------------------------------------- GAMEREQ

/// GAMEREQ protocol version (offset 1, 2 digits).
#[inline]
pub fn version(i: &[u8]) -> PResult<'_, u8> {
    digits::<2>(Field::Version).map(|v| v as u8).parse(i)
}

/// GAMEREQ initiator name (offset 3, 32 bytes, padding removed).
#[inline]
pub fn initiator_name(i: &[u8]) -> PResult<'_, Name<'_>> {
    name_field(Field::InitiatorName, Name::MAX_LEN).parse(i)
}

/// GAMEREQ follower's colour (offset 35, `W`/`Z`).
#[inline]
pub fn follower_color(i: &[u8]) -> PResult<'_, Color> {
    color(Field::FollowerColor, &Leniency::STRICT).parse(i)
}

/// GAMEREQ thinking time, minutes (offset 36, 3 digits).
#[inline]
pub fn thinking_time(i: &[u8]) -> PResult<'_, u16> {
    digits::<3>(Field::ThinkingTime).parse(i)
}

/// GAMEREQ thinking time with `leniency` (`decimal_time`: three bytes of
/// digits with one `.`, e.g. `0.5`, rounded up to whole minutes).
#[inline]
pub fn thinking_time_with<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = u16, Error = ParseError> {
    let decimal = leniency.decimal_time;
    move |i: &'a [u8]| {
        if decimal
            && let Some((ds, rest)) = i.split_first_chunk::<3>()
            && let Some(dot) = ds.iter().position(|&b| b == b'.')
        {
            let (int, frac) = (&ds[..dot], &ds[dot + 1..]);
            let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
            if digits(int) && digits(frac) && int.len() + frac.len() > 0 {
                let whole = int.iter().fold(0u16, |v, &d| v * 10 + u16::from(d - b'0'));
                let up = u16::from(frac.iter().any(|&d| d != b'0'));
                return Ok((rest, whole + up));
            }
        }
        thinking_time(i)
    }
}

/// GAMEREQ number of moves (offset 39, 3 digits, `000` = no limit).
#[inline]
pub fn moves_limit(i: &[u8]) -> PResult<'_, u16> {
    digits::<3>(Field::MovesLimit).parse(i)
}

/// GAMEREQ board of a set-up position (offsets 44..=93): 50 letters
/// `e w z W Z`, square 1 first.
#[inline]
pub fn board(i: &[u8]) -> PResult<'_, [Option<Piece>; 50]> {
    board_letters.map(board_from_letters).parse(i)
}

/// The 50 board letters, checked but not converted: decoding builds the
/// board once, in its final place (a 100-byte value moved through the
/// parser layers costs more than parsing it).
#[inline]
fn board_letters(i: &[u8]) -> PResult<'_, &[u8; 50]> {
    let present = &i[..i.len().min(50)];
    if let Some(k) = present.iter().position(|&l| parse_board_letter(l).is_err()) {
        return fail(
            &i[k..],
            Field::Board,
            Problem::Invalid {
                byte: present[k],
                expected: Expected::BoardLetter,
            },
        );
    }
    match i.split_first_chunk::<50>() {
        Some((letters, rest)) => Ok((rest, letters)),
        None => missing(i, Field::Board),
    }
}

/// The board of letters that [`board_letters`] accepted.
#[inline(always)]
fn board_from_letters(letters: &[u8; 50]) -> [Option<Piece>; 50] {
    letters.map(|l| parse_board_letter(l).unwrap_or(None))
}

/// GAMEREQ starting position (offset 42): `A`, or `B` + side to move +
/// board.
#[inline]
pub fn start_position<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = StartPosition, Error = ParseError> {
    start_letters(leniency).map(position_from_letters)
}

/// The starting position unconverted: `None` for `A`, the side to move and
/// the checked board letters for `B`.
#[inline]
fn start_letters<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = Option<(Color, &'a [u8; 50])>, Error = ParseError> {
    let l = *leniency;
    move |i: &'a [u8]| {
        let (after, letter) = field(Field::StartingPosition, 1).parse(i)?;
        match letter[0] {
            b'A' => Ok((after, None)),
            b'B' => (color(Field::SideToMove, &l), board_letters)
                .map(Some)
                .parse(after),
            byte => fail(
                i,
                Field::StartingPosition,
                Problem::Invalid {
                    byte,
                    expected: Expected::PositionLetter,
                },
            ),
        }
    }
}

#[inline(always)]
fn position_from_letters(setup: Option<(Color, &[u8; 50])>) -> StartPosition {
    match setup {
        None => StartPosition::Initial,
        Some((side_to_move, letters)) => StartPosition::Setup(Setup {
            side_to_move,
            board: board_from_letters(letters),
        }),
    }
}

/// The fields of a GAMEREQ, checked, with the name and the board still
/// borrowed as bytes: small enough to pass through the parser layers, and
/// turned into the [`GameReq`] in the caller's place
/// ([`GameReqParts::into_game_req`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GameReqParts<'a> {
    version: u8,
    initiator: &'a [u8],
    follower_color: Color,
    minutes: u16,
    moves: u16,
    setup: Option<(Color, &'a [u8; 50])>,
}

impl<'a> GameReqParts<'a> {
    #[inline(always)]
    pub(crate) fn into_game_req(self) -> GameReq<'a> {
        GameReq {
            version: self.version,
            initiator: Name::from_checked(self.initiator),
            follower_color: self.follower_color,
            minutes: self.minutes,
            moves: self.moves,
            position: position_from_letters(self.setup),
        }
    }
}

/// GAMEREQ `R` ([`spec::damexchange`](crate::spec::damexchange), *GAMEREQ*), strict.
#[inline]
pub fn game_req(i: &[u8]) -> PResult<'_, GameReq<'_>> {
    game_req_with(&Leniency::STRICT).parse(i)
}

/// GAMEREQ with `leniency` (`short_names`: a name shorter than 32 bytes
/// without padding, the layout then read from the end of the frame; colour
/// letters).
#[inline]
pub fn game_req_with<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = GameReq<'a>, Error = ParseError> {
    game_req_parts(leniency).map(GameReqParts::into_game_req)
}

/// GAMEREQ as [`GameReqParts`] (what [`game_req_with`] and the decoder
/// build the message from).
#[inline]
pub(crate) fn game_req_parts<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = GameReqParts<'a>, Error = ParseError> {
    let l = *leniency;
    move |i: &'a [u8]| {
        let (body, ()) = tag_kind(MessageKind::GameReq).parse(i)?;
        let msg_len = i.len();
        // Strict layout: a 32-byte name, the position letter at offset 42.
        let strict_layout = !l.short_names
            || match i.get(42) {
                Some(b'A') => true,
                Some(b'B') => msg_len >= GameReq::LEN_SETUP,
                _ => false,
            };
        let name_len = if strict_layout {
            Name::MAX_LEN
        } else {
            // Short name: read the layout from the end. Everything from the
            // follower's colour on is 8 bytes (`A`) or 59 bytes (`B`); a
            // set-up position ends in a board letter, never `A`.
            let tail = if i.last() == Some(&b'A') { 8 } else { 59 };
            // A name longer than 32 bytes does not fit either: fall back to
            // the strict layout (and its error).
            match msg_len.saturating_sub(3).saturating_sub(tail) {
                n @ 1..=32 => n,
                _ => Name::MAX_LEN,
            }
        };
        let (i, version) = version(body)?;
        let (i, initiator) = name_bytes(Field::InitiatorName, name_len).parse(i)?;
        let (i, follower_color) = color(Field::FollowerColor, &l).parse(i)?;
        let (i, minutes) = thinking_time_with(&l).parse(i)?;
        let (i, moves) = moves_limit(i)?;
        let (i, setup) = start_letters(&l).parse(i)?;
        Ok((
            i,
            GameReqParts {
                version,
                initiator,
                follower_color,
                minutes,
                moves,
                setup,
            },
        ))
    }
}

// ------------------------------------------------------------- GAMEACC

/// GAMEACC follower name (offset 1, 32 bytes, padding removed).
#[inline]
pub fn follower_name(i: &[u8]) -> PResult<'_, Name<'_>> {
    name_field(Field::FollowerName, Name::MAX_LEN).parse(i)
}

/// GAMEACC acceptance code (offset 33, `0`..=`3`).
#[inline]
pub fn acceptance_code(i: &[u8]) -> PResult<'_, AcceptanceCode> {
    code(Field::AcceptanceCode, 3)
        .map(|c| AcceptanceCode::from_code(c).unwrap_or(AcceptanceCode::NoGames))
        .parse(i)
}

/// GAMEACC `A` ([`spec::damexchange`](crate::spec::damexchange), *GAMEACC*), strict.
#[inline]
pub fn game_acc(i: &[u8]) -> PResult<'_, GameAcc<'_>> {
    game_acc_with(&Leniency::STRICT).parse(i)
}

/// GAMEACC with `leniency` (`short_names`: a name without its padding).
#[inline]
pub fn game_acc_with<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = GameAcc<'a>, Error = ParseError> {
    game_acc_parts(leniency).map(|(follower, code)| GameAcc {
        follower: Name::from_checked(follower),
        code,
    })
}

/// GAMEACC with the name as checked bytes (see [`chat_parts`]).
#[inline]
pub(crate) fn game_acc_parts<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = (&'a [u8], AcceptanceCode), Error = ParseError> {
    let l = *leniency;
    move |i: &'a [u8]| {
        let (body, ()) = tag_kind(MessageKind::GameAcc).parse(i)?;
        let name_len = if body.len() < GameAcc::LEN - 1 && l.short_names && body.len() >= 2 {
            body.len() - 1
        } else {
            Name::MAX_LEN
        };
        (name_bytes(Field::FollowerName, name_len), acceptance_code).parse(body)
    }
}

// ---------------------------------------------------------------- MOVE

/// MOVE time, seconds (offset 1, 4 digits).
#[inline]
pub fn move_time(i: &[u8]) -> PResult<'_, u16> {
    digits::<4>(Field::Time).parse(i)
}

/// MOVE from square (offset 5).
#[inline]
pub fn from_square(i: &[u8]) -> PResult<'_, Square> {
    square(Field::From).parse(i)
}

/// MOVE to square (offset 7).
#[inline]
pub fn to_square(i: &[u8]) -> PResult<'_, Square> {
    square(Field::To).parse(i)
}

/// MOVE number captured (offset 9, `00`..=`20`).
#[inline]
pub fn capture_count(i: &[u8]) -> PResult<'_, u8> {
    number::<2>(Field::CaptureCount, 0, Captures::MAX as u16)
        .map(|n| n as u8)
        .parse(i)
}

/// One MOVE captured square (offset 11 + 2k).
#[inline]
pub fn captured_square(i: &[u8]) -> PResult<'_, Square> {
    square(Field::Captured).parse(i)
}

/// The `count` (0..=20) captured squares of a MOVE, distinct, in wire
/// order; with `extra_bytes` more bytes may follow, otherwise the input
/// must hold exactly `2 * count` bytes.
///
/// Errors, first bad byte first: a byte that is no digit
/// ([`Problem::Invalid`], also among bytes beyond the announced squares), a
/// square out of 1..=50, a square listed twice
/// ([`Problem::DuplicateCapture`] at its second appearance), then
/// [`Problem::CaptureCount`] for digits that do not make `count` squares
/// (at the end of the input when fewer follow, at the first extra byte
/// when more do).
#[inline]
pub fn captures<'a>(
    count: u8,
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = Captures, Error = ParseError> {
    let extra = leniency.extra_bytes;
    move |i: &'a [u8]| {
        let n = usize::from(count).min(Captures::MAX);
        let need = 2 * n;
        let mut mask = 0u64;
        let mut captured = Captures::EMPTY;
        let mut at = i;
        while captured.len() < n && at.len() >= 2 {
            let (rest, sq) = captured_square(at)?;
            let bit = 1u64 << sq.number();
            if mask & bit != 0 {
                return fail(
                    at,
                    Field::Captured,
                    Problem::DuplicateCapture {
                        square: sq.number(),
                    },
                );
            }
            mask |= bit;
            captured.push_unchecked(sq);
            at = rest;
        }
        let wrong_count = |at: &'a [u8], from: &'a [u8]| {
            // Bytes that are no square at all are named as such.
            match from.iter().position(|b| !b.is_ascii_digit()) {
                Some(k) => fail(
                    &from[k..],
                    Field::Captured,
                    Problem::Invalid {
                        byte: from[k],
                        expected: Expected::Digit,
                    },
                ),
                None => fail(
                    at,
                    Field::Captured,
                    Problem::CaptureCount {
                        count,
                        following_bytes: i.len(),
                    },
                ),
            }
        };
        if captured.len() < n {
            // Fewer squares than announced (perhaps half of one).
            return wrong_count(&at[at.len()..], at);
        }
        if i.len() > need && !extra {
            return wrong_count(at, at);
        }
        Ok((at, captured))
    }
}

/// MOVE `M` ([`spec::damexchange`](crate::spec::damexchange), *MOVE*), strict.
#[inline]
pub fn move_message(i: &[u8]) -> PResult<'_, Move> {
    move_message_with(&Leniency::STRICT).parse(i)
}

/// MOVE with `leniency` (`extra_bytes`: bytes after the captured squares).
#[inline]
pub fn move_message_with<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = Move, Error = ParseError> {
    let l = *leniency;
    move |i: &'a [u8]| {
        let (i, ((), time, from, to, count)) = (
            tag_kind(MessageKind::Move),
            move_time,
            from_square,
            to_square,
            capture_count,
        )
            .parse(i)?;
        let (i, captured) = captures(count, &l).parse(i)?;
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
}

// -------------------------------------------------------------- GAMEEND

/// GAMEEND reason (offset 1, `0`..=`3`).
#[inline]
pub fn reason(i: &[u8]) -> PResult<'_, GameEndReason> {
    code(Field::Reason, 3)
        .map(|c| GameEndReason::from_code(c).unwrap_or(GameEndReason::Unknown))
        .parse(i)
}

/// GAMEEND stop code (offset 2, `0`/`1`).
#[inline]
pub fn stop_code(i: &[u8]) -> PResult<'_, StopCode> {
    code(Field::StopCode, 1)
        .map(|c| StopCode::from_code(c).unwrap_or(StopCode::NoMoreGames))
        .parse(i)
}

/// GAMEEND `E` ([`spec::damexchange`](crate::spec::damexchange), *GAMEEND*).
#[inline]
pub fn game_end(i: &[u8]) -> PResult<'_, GameEnd> {
    let (i, ()) = tag_kind(MessageKind::GameEnd).parse(i)?;
    let (i, reason) = reason(i)?;
    let (i, stop) = stop_code(i)?;
    Ok((i, GameEnd { reason, stop }))
}

// ----------------------------------------------------------------- CHAT

/// CHAT text (offset 1): 1..=126 bytes of 7-bit text without NUL, the rest
/// of the input (up to 126 bytes).
#[inline]
pub fn chat_text(i: &[u8]) -> PResult<'_, ChatText<'_>> {
    chat_text_bytes.map(ChatText::from_checked).parse(i)
}

/// [`chat_text`] as checked bytes.
#[inline]
fn chat_text_bytes(i: &[u8]) -> PResult<'_, &[u8]> {
    if i.is_empty() {
        return missing(i, Field::Text);
    }
    let n = i.len().min(MAX_MESSAGE_LEN - 1);
    let (rest, text) = field(Field::Text, n).parse(i)?;
    // All bytes at once (no early exit: vectorised); the bad one is looked
    // for only when there is one.
    let bad = text
        .iter()
        .fold(false, |bad, &b| bad | (b == 0) | (b > 0x7f));
    if bad {
        let k = text.iter().position(|&b| b == 0 || b > 0x7f).unwrap_or(0);
        return fail(
            &i[k..],
            Field::Text,
            Problem::Invalid {
                byte: text[k],
                expected: Expected::SevenBit,
            },
        );
    }
    Ok((rest, text))
}

/// CHAT `C` ([`spec::damexchange`](crate::spec::damexchange), *CHAT*).
#[inline]
pub fn chat(i: &[u8]) -> PResult<'_, Chat<'_>> {
    chat_parts
        .map(|text| Chat {
            text: ChatText::from_checked(text),
        })
        .parse(i)
}

/// CHAT with its text as checked bytes: the decoder builds the message
/// once, in its final place (a text value moved through the parser layers
/// costs more than parsing it).
#[inline]
pub(crate) fn chat_parts(i: &[u8]) -> PResult<'_, &[u8]> {
    let (body, ()) = tag_kind(MessageKind::Chat).parse(i)?;
    chat_text_bytes(body)
}

// -------------------------------------------------------------- BACKREQ

/// BACKREQ move number (offset 1, `001`..=`999`).
#[inline]
pub fn move_number(i: &[u8]) -> PResult<'_, u16> {
    number::<3>(Field::MoveNumber, 1, 999).parse(i)
}

/// BACKREQ `B` ([`spec::damexchange`](crate::spec::damexchange), *BACKREQ*), strict.
#[inline]
pub fn back_req(i: &[u8]) -> PResult<'_, BackReq> {
    back_req_with(&Leniency::STRICT).parse(i)
}

/// BACKREQ with `leniency` (colour letters).
#[inline]
pub fn back_req_with<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = BackReq, Error = ParseError> {
    let l = *leniency;
    move |i: &'a [u8]| {
        let (i, ()) = tag_kind(MessageKind::BackReq).parse(i)?;
        let (i, move_number) = move_number(i)?;
        let (i, color) = color(Field::Color, &l).parse(i)?;
        Ok((i, BackReq { move_number, color }))
    }
}

// -------------------------------------------------------------- BACKACC

/// BACKACC code (offset 1, `0`..=`2`).
#[inline]
pub fn back_acc_code(i: &[u8]) -> PResult<'_, BackAccCode> {
    code(Field::BackAccCode, 2)
        .map(|c| BackAccCode::from_code(c).unwrap_or(BackAccCode::NotSupported))
        .parse(i)
}

/// BACKACC `K` ([`spec::damexchange`](crate::spec::damexchange), *BACKACC*).
#[inline]
pub fn back_acc(i: &[u8]) -> PResult<'_, BackAcc> {
    let (i, ()) = tag_kind(MessageKind::BackAcc).parse(i)?;
    let (i, code) = back_acc_code(i)?;
    Ok((i, BackAcc { code }))
}

// -------------------------------------------------------------- message

/// A frame of an unrecognised kind: 1..=127 bytes without NUL, all of the
/// input.
#[inline]
pub fn unrecognised(i: &[u8]) -> PResult<'_, Unrecognised<'_>> {
    if i.is_empty() {
        return fail(i, Field::Header, Problem::Empty);
    }
    if i.len() > MAX_MESSAGE_LEN {
        // At the first byte past the cap, as CSA and Citrine name a field
        // too long.
        return fail(
            &i[MAX_MESSAGE_LEN..],
            Field::Trailing,
            Problem::TooLong {
                len: i.len(),
                max: MAX_MESSAGE_LEN,
            },
        );
    }
    if let Some(k) = i.iter().position(|&b| b == 0) {
        return fail(
            &i[k..],
            Field::Trailing,
            Problem::Invalid {
                byte: 0,
                expected: Expected::SevenBit,
            },
        );
    }
    Ok((&i[i.len()..], Unrecognised::from_checked(i)))
}

/// Any message, strict: dispatches on the header byte.
#[inline]
pub fn message(i: &[u8]) -> PResult<'_, Message<'_>> {
    message_with(&Leniency::STRICT).parse(i)
}

/// Any message with `leniency`.
#[inline]
pub fn message_with<'a>(
    leniency: &Leniency,
) -> impl Parser<&'a [u8], Output = Message<'a>, Error = ParseError> {
    let l = *leniency;
    move |i: &'a [u8]| {
        let (_, kind) = header(i).or_else(|_| fail(i, Field::Header, Problem::Empty))?;
        match kind {
            MessageKind::Move => move_message_with(&l).map(Message::Move).parse(i),
            MessageKind::GameReq => game_req_with(&l).map(Message::GameReq).parse(i),
            MessageKind::GameAcc => game_acc_with(&l).map(Message::GameAcc).parse(i),
            MessageKind::GameEnd => game_end.map(Message::GameEnd).parse(i),
            MessageKind::Chat => chat.map(Message::Chat).parse(i),
            MessageKind::BackReq => back_req_with(&l).map(Message::BackReq).parse(i),
            MessageKind::BackAcc => back_acc.map(Message::BackAcc).parse(i),
            MessageKind::Unrecognised => unrecognised.map(Message::Unrecognised).parse(i),
        }
    }
}
