//! The grammar as nom parsers, one public function per rule, composable by
//! users ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and replies
//! (device -> host)* and *Move text the Citrine prints*).
//!
//! Every parser has the shape `fn(&[u8]) -> IResult<&[u8], T, ParseError>`
//! (the rules that depend on a [`Leniency`] take it as a second argument),
//! works on one line with its terminator removed, borrows the input and
//! never allocates. A failure is a [`ParseError`] that remembers where it
//! happened (the remaining input), the message kind and the field;
//! [`ParseError::into_decode_error`] turns it into a [`DecodeError`] with a
//! 0-based byte offset in the line.
//!
//! Replies are matched exactly as the Citrine prints them (keywords and
//! letters in the case shown in the spec note, [`spec::citrine`](crate::spec::citrine),
//! *Commands (host -> device) and replies (device -> host)* and *Move text
//! the Citrine prints*: `sd`/`tr`, `on`/`off`,
//! `x`, `ep`, `O-O`); fields are separated by any run of spaces or tabs
//! ([`spec::citrine`](crate::spec::citrine), *Link*: "fields are padded with runs of spaces or tabs").
//! Commands are case-insensitive ([`spec::citrine`](crate::spec::citrine), *Link*).
//!
//! ```
//! use novag_citrine::parse::{move_text, square};
//! let (rest, from) = square(b"e2-e4").unwrap();
//! assert_eq!((from.to_string().as_str(), rest), ("e2", &b"-e4"[..]));
//! let (_, mv) = move_text(b"e5xd6ep").unwrap();
//! assert_eq!(mv.to_string(), "e5xd6ep");
//! ```

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take, take_while_m_n, take_while1};
use nom::character::complete::{char, digit1, one_of, satisfy, space0, space1};
use nom::combinator::{cond, eof, map, map_opt, opt, peek, value};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use crate::decode::Leniency;
use crate::error::{DecodeError, Expected, Field, MessageKind, Problem};
use crate::message::{Command, DiagramRow, HostMove, LevelTarget, MoveLine, RawLine, Reply};
use crate::types::{
    ClockTime, Level, LevelKind, MoveNumber, MoveText, NormalMove, Promotion, Token,
};
use crate::vocab::{CastlingSide, Color, Piece, Square, role_from_letter, square as square_at};

/// Input type: the bytes of one line.
type In<'a> = &'a [u8];

/// A parse failure: where (`input`, the input remaining at the first bad
/// byte, or empty at the end of the line), in which kind of line, which
/// field, and what was wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError<'a> {
    /// The input remaining where the failure happened (a suffix of the
    /// line, starting at the first bad byte).
    pub input: &'a [u8],
    /// The kind of line, when the failing parser knows it.
    pub message: Option<MessageKind>,
    /// The field, when the failing parser knows it.
    pub field: Option<Field>,
    /// What was wrong, compactly ([`problem`](Self::problem) expands it):
    /// every parser returns this type, so it is kept small.
    fault: Fault,
}

/// A [`Problem`] in 8 bytes: the counts and ranges follow from the input
/// and the number's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    Empty,
    Missing,
    Invalid {
        byte: u8,
        expected: Expected,
    },
    OutOfRange {
        value: u32,
        range: Range,
    },
    /// `count` = the input's length (the rest of the line, blanks trimmed).
    Trailing,
    /// `len` = the cap plus the printable bytes from the input on.
    TooLong,
}

/// The range of a number, for [`Problem::OutOfRange`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Range {
    /// `1..=9999`.
    MoveNumber,
    /// `0..=65535`.
    GameCount,
    /// `1..=99`.
    Level,
    /// `0..=99`.
    Hours,
    /// `0..=59`.
    Sixty,
}

impl Range {
    const fn bounds(self) -> (u32, u32) {
        match self {
            Range::MoveNumber => (1, MoveNumber::MAX as u32),
            Range::GameCount => (0, u16::MAX as u32),
            Range::Level => (1, 99),
            Range::Hours => (0, 99),
            Range::Sixty => (0, 59),
        }
    }
}

impl ParseError<'_> {
    /// What was wrong.
    pub fn problem(&self) -> Problem {
        match self.fault {
            Fault::Empty => Problem::Empty,
            Fault::Missing => Problem::Missing,
            Fault::Invalid { byte, expected } => Problem::Invalid { byte, expected },
            Fault::OutOfRange { value, range } => {
                let (min, max) = range.bounds();
                Problem::OutOfRange { value, min, max }
            }
            Fault::Trailing => Problem::Trailing {
                count: self.input.len(),
            },
            Fault::TooLong => Problem::TooLong {
                len: Token::MAX_LEN
                    + self
                        .input
                        .iter()
                        .take_while(|b| b.is_ascii_graphic())
                        .count(),
                max: Token::MAX_LEN,
            },
        }
    }

    /// The error as a [`DecodeError`] of `line`, the whole line this parse
    /// started on: the offset is where [`input`](Self::input) starts in
    /// it, or `line.len()` for [`Problem::Missing`] (a field missing or cut
    /// off). Unknown kinds default to [`MessageKind::Reply`], unknown
    /// fields to [`Field::Keyword`].
    pub fn into_decode_error(self, line: &[u8]) -> DecodeError {
        let offset = if self.fault == Fault::Missing {
            line.len()
        } else {
            // `input` is a sub-slice of `line`: its start address minus the
            // line's is the offset (plain address arithmetic, no unsafe).
            (self.input.as_ptr() as usize)
                .saturating_sub(line.as_ptr() as usize)
                .min(line.len())
        };
        DecodeError::new(
            self.message.unwrap_or(MessageKind::Reply),
            self.field.unwrap_or(Field::Keyword),
            offset,
            self.problem(),
        )
    }

    /// `Missing` at the end of the line, else `Invalid` at the first byte
    /// of `input`.
    #[inline]
    fn at(input: In<'_>, expected: Expected) -> ParseError<'_> {
        ParseError {
            input,
            message: None,
            field: None,
            fault: match input.first() {
                None => Fault::Missing,
                Some(&byte) => Fault::Invalid { byte, expected },
            },
        }
    }
}

impl<'a> nom::error::ParseError<In<'a>> for ParseError<'a> {
    #[inline]
    fn from_error_kind(input: In<'a>, _kind: nom::error::ErrorKind) -> Self {
        ParseError::at(input, Expected::Keyword)
    }
    fn append(_input: In<'a>, _kind: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

/// The result of every parser here.
pub type ParseResult<'a, T> = IResult<&'a [u8], T, ParseError<'a>>;

#[cold]
fn error<T>(e: ParseError<'_>) -> ParseResult<'_, T> {
    Err(nom::Err::Error(e))
}

/// `p`, failing with `expected` at the input it started on (for parsers
/// that match one byte or one short word).
fn want<'a, O>(
    expected: Expected,
    mut p: impl Parser<In<'a>, Output = O, Error = ParseError<'a>>,
) -> impl Parser<In<'a>, Output = O, Error = ParseError<'a>> {
    move |i: In<'a>| {
        p.parse(i)
            .map_err(|e| e.map(|_| ParseError::at(i, expected)))
    }
}

/// The literal `t`, failing at its first bad byte (`Missing` when the line
/// ends inside it).
fn literal<'a>(
    t: &'static str,
    expected: Expected,
) -> impl Parser<In<'a>, Output = In<'a>, Error = ParseError<'a>> {
    move |i: In<'a>| match tag::<_, _, ParseError<'a>>(t).parse(i) {
        Ok(ok) => Ok(ok),
        Err(_) => {
            let same = i
                .iter()
                .zip(t.as_bytes())
                .take_while(|(a, b)| a == b)
                .count();
            error(ParseError::at(&i[same..], expected))
        }
    }
}

/// Names `f` as the failing field when `r` did not name one.
#[inline(always)]
fn in_field<T>(f: Field, r: ParseResult<'_, T>) -> ParseResult<'_, T> {
    r.map_err(|e| {
        e.map(|mut pe| {
            pe.field.get_or_insert(f);
            pe
        })
    })
}

/// Names `m` as the kind of line when `r` did not name one.
#[inline(always)]
fn in_message<T>(m: MessageKind, r: ParseResult<'_, T>) -> ParseResult<'_, T> {
    r.map_err(|e| {
        e.map(|mut pe| {
            pe.message.get_or_insert(m);
            pe
        })
    })
}

/// One byte for which `f` holds, if the input starts with one (never
/// fails: an optional single-byte field).
#[inline(always)]
fn optional_byte(f: impl Fn(u8) -> bool, i: In<'_>) -> ParseResult<'_, Option<u8>> {
    map(take_while_m_n(0, 1, f), |b: In<'_>| b.first().copied()).parse(i)
}

#[inline]
fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// One or more spaces or tabs (the field separator).
#[inline]
pub fn blanks(i: &[u8]) -> ParseResult<'_, &[u8]> {
    want(Expected::Blank, space1).parse(i)
}

/// A blank or the end of the line, not consumed (what ends a keyword).
#[inline]
fn word_end(i: In<'_>) -> ParseResult<'_, ()> {
    let (_, blank) = optional_byte(is_blank, i)?;
    if blank.is_some() || i.is_empty() {
        Ok((i, ()))
    } else {
        error(ParseError::at(i, Expected::Blank))
    }
}

/// Optional trailing spaces or tabs, then the end of the line; anything
/// else is [`Problem::Trailing`] in [`Field::Trailing`].
#[inline(always)]
pub fn end_of_line(i: &[u8]) -> ParseResult<'_, ()> {
    let (i, _) = space0(i)?;
    match eof::<_, ParseError<'_>>(i) {
        Ok((i, _)) => Ok((i, ())),
        Err(_) => error(ParseError {
            input: i,
            message: None,
            field: Some(Field::Trailing),
            fault: Fault::Trailing,
        }),
    }
}

/// A keyword exactly as printed, followed by a blank or the end of the
/// line (so `Clock` does not match `Clockwork`).
fn word<'a>(w: &'static str) -> impl Parser<In<'a>, Output = In<'a>, Error = ParseError<'a>> {
    terminated(literal(w, Expected::Keyword), word_end)
}

/// A keyword followed by a blank or the end, failing without locating
/// the bad byte (for telling line kinds apart).
fn keyword<'a>(w: &'static str) -> impl Parser<In<'a>, Output = In<'a>, Error = ParseError<'a>> {
    terminated(tag(w), word_end)
}

/// A command word in either case, followed by a blank or the end.
fn word_no_case<'a>(
    w: &'static str,
) -> impl Parser<In<'a>, Output = In<'a>, Error = ParseError<'a>> {
    terminated(tag_no_case(w), word_end)
}

/// An unsigned decimal number in `range` (saturated at `u32::MAX` when
/// reporting), failing in field `f`.
#[inline(always)]
fn number(f: Field, range: Range, i: In<'_>) -> ParseResult<'_, u32> {
    let (min, max) = range.bounds();
    let (rest, digits) = in_field(f, want(Expected::Digit, digit1).parse(i))?;
    let n = digits.iter().fold(0u32, |n, d| {
        n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    });
    if (min..=max).contains(&n) {
        Ok((rest, n))
    } else {
        error(ParseError {
            input: i,
            message: None,
            field: Some(f),
            fault: Fault::OutOfRange { value: n, range },
        })
    }
}

/// A move number `1..=9999`.
#[inline(always)]
pub fn move_number(i: &[u8]) -> ParseResult<'_, MoveNumber> {
    let (rest, n) = number(Field::MoveNumber, Range::MoveNumber, i)?;
    let n = MoveNumber::new(n as u16).expect("range checked");
    Ok((rest, n))
}

#[inline]
fn file_index(c: char) -> u8 {
    (c.to_ascii_lowercase() as u8).wrapping_sub(b'a')
}

#[inline]
fn rank_index(c: char) -> u8 {
    (c as u8).wrapping_sub(b'1')
}

/// A square `a1..=h8` as the Citrine prints it (lower-case file).
#[inline(always)]
pub fn square(i: &[u8]) -> ParseResult<'_, Square> {
    let r = map_opt(
        (
            want(
                Expected::File,
                satisfy(|c| c.is_ascii_lowercase() && c <= 'h'),
            ),
            want(Expected::Rank, satisfy(|c| ('1'..='8').contains(&c))),
        ),
        |(f, r)| square_at(file_index(f), rank_index(r)),
    )
    .parse(i);
    in_field(Field::Square, r)
}

/// A square in a command: file letter in either case (`ME2E4`).
#[inline]
pub fn command_square(i: &[u8]) -> ParseResult<'_, Square> {
    let r = map_opt(
        (
            want(
                Expected::File,
                satisfy(|c| c.is_ascii_alphabetic() && c.to_ascii_lowercase() <= 'h'),
            ),
            want(Expected::Rank, satisfy(|c| ('1'..='8').contains(&c))),
        ),
        |(f, r)| square_at(file_index(f), rank_index(r)),
    )
    .parse(i);
    in_field(Field::Square, r)
}

/// `O-O-O` / `O-O` (capital letter O).
pub fn castling(i: &[u8]) -> ParseResult<'_, CastlingSide> {
    let r = want(
        Expected::File,
        alt((
            value(CastlingSide::QueenSide, tag("O-O-O")),
            value(CastlingSide::KingSide, tag("O-O")),
        )),
    )
    .parse(i);
    in_field(Field::Move, r)
}

/// A promotion suffix `/Q /R /B /N`.
#[inline(always)]
pub fn promotion(i: &[u8]) -> ParseResult<'_, Promotion> {
    let r = preceded(
        want(Expected::PromotionPiece, char('/')),
        map_opt(want(Expected::PromotionPiece, one_of("QRBN")), |c| {
            Promotion::from_letter(c as u8)
        }),
    )
    .parse(i);
    in_field(Field::Promotion, r)
}

/// What ends a printed move: a blank, `|` or the end of the line (not
/// consumed).
#[inline(always)]
fn move_end(i: In<'_>) -> ParseResult<'_, ()> {
    let (_, end) = optional_byte(|b| is_blank(b) || b == b'|', i)?;
    if end.is_some() || i.is_empty() {
        Ok((i, ()))
    } else {
        in_field(Field::Move, error(ParseError::at(i, Expected::MoveEnd)))
    }
}

/// A move as the Citrine prints it: `O-O`, `O-O-O`, or
/// `[NBRQKP]from(-|x)to[ep][/QRBN]`; it must end at a blank, a `|` or the
/// end of the line.
#[inline(always)]
pub fn move_text(i: &[u8]) -> ParseResult<'_, MoveText> {
    if i.is_empty() {
        return in_field(Field::Move, error(ParseError::at(i, Expected::File)));
    }
    if i.starts_with(b"O-O") {
        let (rest, side) = castling(i)?;
        let (rest, ()) = move_end(rest)?;
        return Ok((rest, MoveText::Castle(side)));
    }
    // An optional piece letter (upper case, so never a file letter).
    let (i, piece) = optional_byte(|b| matches!(b, b'N' | b'B' | b'R' | b'Q' | b'K' | b'P'), i)?;
    let piece = piece.and_then(role_from_letter);
    let (i, from) = square(i)?;
    let (i, capture) = in_field(
        Field::Move,
        want(
            Expected::MoveSeparator,
            map(satisfy(|c| c == '-' || c == 'x'), |c| c == 'x'),
        )
        .parse(i),
    )?;
    let (i, to) = square(i)?;
    let (i, en_passant) = opt(tag("ep")).parse(i)?;
    let (_, slash) = peek(|i| optional_byte(|b| b == b'/', i)).parse(i)?;
    let (i, promotion) = cond(slash.is_some(), promotion).parse(i)?;
    let (i, ()) = move_end(i)?;
    Ok((
        i,
        MoveText::Normal(NormalMove {
            piece,
            from,
            to,
            capture,
            en_passant: en_passant.is_some(),
            promotion,
        }),
    ))
}

/// `on` / `off`, as the replies print them.
pub fn switch(i: &[u8]) -> ParseResult<'_, bool> {
    let r = want(
        Expected::Switch,
        alt((value(true, word("on")), value(false, word("off")))),
    )
    .parse(i);
    in_field(Field::Switch, r)
}

/// One or two digits in `0..=max` (a part of a clock reading).
#[inline]
fn clock_part(range: Range, i: In<'_>) -> ParseResult<'_, u8> {
    let (_, max) = range.bounds();
    let (rest, digits) = in_field(
        Field::Clock,
        want(
            Expected::Digit,
            take_while_m_n(1, 2, |b: u8| b.is_ascii_digit()),
        )
        .parse(i),
    )?;
    let n = digits
        .iter()
        .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    if n > max {
        return error(ParseError {
            input: i,
            message: None,
            field: Some(Field::Clock),
            fault: Fault::OutOfRange { value: n, range },
        });
    }
    Ok((rest, n as u8))
}

#[inline]
fn colon(i: In<'_>) -> ParseResult<'_, char> {
    in_field(Field::Clock, want(Expected::Colon, char(':')).parse(i))
}

/// A clock reading `hh:mm:ss` (hours `0..=99`, minutes and seconds
/// `0..=59`, one or two digits each).
#[inline]
pub fn clock_time(i: &[u8]) -> ParseResult<'_, ClockTime> {
    let (i, h) = clock_part(Range::Hours, i)?;
    let (i, _) = colon(i)?;
    let (i, m) = clock_part(Range::Sixty, i)?;
    let (i, _) = colon(i)?;
    let (i, s) = clock_part(Range::Sixty, i)?;
    Ok((i, ClockTime::new(h, m, s).expect("ranges checked")))
}

/// A level as replies print it: `tr 1`, `sd 5`, `at 3`, `be 2` (number
/// `1..=99`).
#[inline]
pub fn level(i: &[u8]) -> ParseResult<'_, Level> {
    let (i, kind) = in_field(
        Field::Level,
        want(
            Expected::LevelKind,
            alt((
                value(LevelKind::Tournament, tag("tr")),
                value(LevelKind::Citrine, tag("sd")),
                value(LevelKind::AverageTime, tag("at")),
                value(LevelKind::Beginner, tag("be")),
            )),
        )
        .parse(i),
    )?;
    let (i, _) = space0(i)?;
    let (i, n) = number(Field::Level, Range::Level, i)?;
    Ok((i, Level::new(kind, n as u8).expect("range checked")))
}

/// A token: 1..=64 printable ASCII bytes (`UCBII`, `V1.09`).
#[inline]
pub fn token(i: &[u8]) -> ParseResult<'_, Token<'_>> {
    token_of(Field::Identity, i)
}

#[inline]
fn token_of<'a>(f: Field, i: In<'a>) -> ParseResult<'a, Token<'a>> {
    let (rest, text) = in_field(
        f,
        want(Expected::Graphic, take_while1(|b: u8| b.is_ascii_graphic())).parse(i),
    )?;
    if text.len() > Token::MAX_LEN {
        return error(ParseError {
            input: &text[Token::MAX_LEN..],
            message: None,
            field: Some(f),
            fault: Fault::TooLong,
        });
    }
    let text = core::str::from_utf8(text).expect("ASCII");
    Ok((rest, Token::new(text).expect("checked")))
}

/// After the `M`/`T` letter: `number[,] move [|]` to the end of the line.
#[inline(always)]
fn move_line_body(i: In<'_>) -> ParseResult<'_, MoveLine> {
    let (i, _) = space0(i)?;
    let (i, number) = move_number(i)?;
    let (i, _) = space0(i)?;
    let (i, comma) = optional_byte(|b| b == b',', i)?;
    let (i, _) = space0(i)?;
    let (i, text) = in_field(Field::Move, move_text(i))?;
    let (i, _) = space0(i)?;
    let (i, bar) = optional_byte(|b| b == b'|', i)?;
    let (i, ()) = end_of_line(i)?;
    Ok((
        i,
        MoveLine {
            number,
            black: comma.is_some(),
            text,
            bar: bar.is_some(),
        },
    ))
}

/// A move line: `M   7,  c5xd4 |` (comma = black, ` |` optional; [`spec::citrine`](crate::spec::citrine),
/// *Move text the Citrine prints*).
#[inline(always)]
pub fn move_line(i: &[u8]) -> ParseResult<'_, MoveLine> {
    let r = preceded(want(Expected::Keyword, char('M')), move_line_body).parse(i);
    in_message(MessageKind::MoveLine, r)
}

/// A take-back line: `T   1,  e7-e5` as devices print it; with
/// [`Leniency::document_take_back`] also the protocol document's
/// `t 2 g8-f6`.
#[inline(always)]
pub fn take_back_line<'a>(i: &'a [u8], leniency: &Leniency) -> ParseResult<'a, MoveLine> {
    let doc = leniency.document_take_back;
    let r = preceded(
        want(
            Expected::Keyword,
            satisfy(|c| c == 'T' || (doc && c == 't')),
        ),
        move_line_body,
    )
    .parse(i);
    in_message(MessageKind::TakeBackLine, r)
}

/// `Clock hh:mm:ss hh:mm:ss`: white's, then black's clock.
#[inline]
pub fn clock(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = word("Clock").parse(i)?;
        let (i, _) = space0(i)?;
        let (i, white) = clock_time(i)?;
        let (i, _) = in_field(Field::Clock, blanks(i))?;
        let (i, black) = clock_time(i)?;
        let (i, ()) = end_of_line(i)?;
        Ok((i, Reply::Clock { white, black }))
    })();
    in_message(MessageKind::Clock, r)
}

/// `Flip` or `Flip --> Black` / `Flip --> White`.
#[inline]
pub fn flip(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = word("Flip").parse(i)?;
        let (i, _) = space0(i)?;
        if let Ok((i, _)) = eof::<_, ParseError<'_>>(i) {
            return Ok((i, Reply::Flip { to_move: None }));
        }
        let (i, _) = in_field(Field::Flip, literal("-->", Expected::Arrow).parse(i))?;
        let (i, _) = space0(i)?;
        let (i, to_move) = in_field(
            Field::Flip,
            want(
                Expected::Side,
                alt((
                    value(Color::Black, word("Black")),
                    value(Color::White, word("White")),
                )),
            )
            .parse(i),
        )?;
        let (i, ()) = end_of_line(i)?;
        Ok((
            i,
            Reply::Flip {
                to_move: Some(to_move),
            },
        ))
    })();
    in_message(MessageKind::Flip, r)
}

/// `Game 2`: the head of a game list, `0..=65535`.
pub fn game(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = word("Game").parse(i)?;
        let (i, _) = space0(i)?;
        let (i, n) = number(Field::GameCount, Range::GameCount, i)?;
        let (i, ()) = end_of_line(i)?;
        Ok((i, Reply::Game { moves: n as u16 }))
    })();
    in_message(MessageKind::Game, r)
}

/// A game-list line after `G`: `. white black` or `. n move [move]`.
#[inline]
pub fn game_row(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = want(Expected::Keyword, char('.')).parse(i)?;
        let (i, _) = space0(i)?;
        if let Ok((j, _)) = word("white").parse(i) {
            let (j, _) = space0(j)?;
            let (j, _) = in_field(Field::Keyword, word("black").parse(j))?;
            let (j, ()) = end_of_line(j)?;
            return Ok((j, Reply::GameColumns));
        }
        let (i, number) = move_number(i)?;
        let (i, _) = in_field(Field::Move, blanks(i))?;
        let (i, white) = in_field(Field::Move, move_text(i))?;
        let (i, _) = space0(i)?;
        let (i, black) = if eof::<_, ParseError<'_>>(i).is_ok() {
            (i, None)
        } else {
            let (i, black) = in_field(Field::Move, move_text(i))?;
            (i, Some(black))
        };
        let (i, ()) = end_of_line(i)?;
        Ok((
            i,
            Reply::GameRow {
                number,
                white,
                black,
            },
        ))
    })();
    in_message(MessageKind::GameRow, r)
}

/// `ID. UCBII V1.09` as devices print it; with
/// [`Leniency::document_identity`] also the protocol document's
/// `ID.UCBII VI.09` (no blank after the dot).
#[inline]
pub fn identity<'a>(i: &'a [u8], leniency: &Leniency) -> ParseResult<'a, Reply<'a>> {
    let r = (|| {
        let (i, _) = literal("ID.", Expected::Keyword).parse(i)?;
        let (i, _) = if leniency.document_identity {
            space0(i)?
        } else {
            in_field(Field::Identity, blanks(i))?
        };
        let (i, model) = token(i)?;
        let (i, _) = in_field(Field::Identity, blanks(i))?;
        let (i, version) = token(i)?;
        let (i, ()) = end_of_line(i)?;
        Ok((i, Reply::Identity { model, version }))
    })();
    in_message(MessageKind::Identity, r)
}

/// `Level tr 1`: one colour's level.
#[inline]
pub fn level_line(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = word("Level").parse(i)?;
        let (i, _) = space0(i)?;
        let (i, l) = level(i)?;
        let (i, ()) = end_of_line(i)?;
        Ok((i, Reply::Level(l)))
    })();
    in_message(MessageKind::Level, r)
}

/// Two keywords separated by blanks.
fn phrase<'a>(
    a: &'static str,
    b: &'static str,
) -> impl Parser<In<'a>, Output = (), Error = ParseError<'a>> {
    value((), (keyword(a), space1, keyword(b)))
}

/// `New Game`.
pub fn new_game(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = terminated(value(Reply::NewGame, phrase("New", "Game")), end_of_line).parse(i);
    in_message(MessageKind::NewGame, r)
}

/// `Position Board`: the head of a position diagram.
pub fn position_board(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = terminated(
        value(Reply::PositionBoard, phrase("Position", "Board")),
        end_of_line,
    )
    .parse(i);
    in_message(MessageKind::PositionBoard, r)
}

/// `Xmit on` / `Xmit off`.
pub fn xmit(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = map(
        terminated(preceded((word("Xmit"), space0), switch), end_of_line),
        Reply::Xmit,
    )
    .parse(i);
    in_message(MessageKind::Xmit, r)
}

/// `.Referee on` / `.Referee off`.
pub fn referee(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = map(
        terminated(preceded((word(".Referee"), space0), switch), end_of_line),
        Reply::Referee,
    )
    .parse(i);
    in_message(MessageKind::Referee, r)
}

/// A diagram cell: a piece code (`WP`, `bk`: colour, then piece letter,
/// either case) or `::` (an empty dark square).
#[inline]
pub fn diagram_cell(i: &[u8]) -> ParseResult<'_, Option<Piece>> {
    want(
        Expected::DiagramCell,
        map_opt(take(2usize), |c: In<'_>| match (c[0], c[1]) {
            (b':', b':') => Some(None),
            (b'W' | b'w', p) => Some(Some(Piece {
                color: Color::White,
                kind: role_from_letter(p)?,
            })),
            (b'B' | b'b', p) => Some(Some(Piece {
                color: Color::Black,
                kind: role_from_letter(p)?,
            })),
            _ => None,
        }),
    )
    .parse(i)
}

/// The line without trailing bytes for which `drop` holds.
#[inline]
fn trim_end(line: &[u8], drop: impl Fn(u8) -> bool) -> &[u8] {
    let keep = line.iter().rposition(|&b| !drop(b)).map_or(0, |p| p + 1);
    &line[..keep]
}

/// One rank of a `Position Board` diagram (layout *(unconfirmed)*; see
/// [`DiagramRow`]): an optional rank label `1..=8` and a separator (a
/// blank or `|`), then up to 8 cells separated by blanks, an optional
/// closing `|`; the whole line is consumed. With 8 cells they are the
/// files a..h; with fewer, each cell's column (3 bytes per file after the
/// label, from the line's start without one) gives its file, blanks being
/// empty light squares.
#[inline]
pub fn diagram_row(line: &[u8]) -> ParseResult<'_, DiagramRow> {
    let end = &line[line.len()..];
    let (after, rank) = opt(terminated(
        preceded(space0, satisfy(|c| ('1'..='8').contains(&c))),
        |i| {
            // The separator after the label is consumed (columns count
            // from the byte after it).
            let (rest, sep) = optional_byte(|b| is_blank(b) || b == b'|', i)?;
            if sep.is_some() || rest.is_empty() {
                Ok((rest, ()))
            } else {
                error(ParseError::at(i, Expected::Blank))
            }
        },
    ))
    .parse(line)?;
    let rank = rank.map(|r| r as u8 - b'0');
    // Without a label, columns count from the line's start.
    let body = if rank.is_some() { after } else { line };
    let mut body = trim_end(body, is_blank);
    if let Some(inner) = body.strip_suffix(b"|") {
        body = trim_end(inner, is_blank);
    }
    // One pass: each cell goes both to its index and to the file its
    // column names; which of the two applies is known at the end.
    let mut by_index = [None; 8];
    let mut by_column = [None; 8];
    let mut columns_ok = true;
    let mut bad_column = 0;
    let mut count = 0;
    let mut rest = body;
    loop {
        let (r, _) = space0(rest)?;
        if r.is_empty() {
            break;
        }
        let column = body.len() - r.len();
        if count == 8 {
            return error(ParseError::at(r, Expected::DiagramCell));
        }
        let (r, cell) = diagram_cell(r)?;
        let (r, ()) = word_end(r)?;
        by_index[count] = cell;
        if column % 3 == 0 && column / 3 < 8 {
            by_column[column / 3] = cell;
        } else if columns_ok {
            columns_ok = false;
            bad_column = column;
        }
        count += 1;
        rest = r;
    }
    if count == 0 && rank.is_none() {
        return error(ParseError::at(line, Expected::DiagramCell));
    }
    let files = if count == 8 {
        by_index
    } else if columns_ok {
        by_column
    } else {
        return error(ParseError::at(&body[bad_column..], Expected::DiagramCell));
    };
    match DiagramRow::new(rank, files) {
        Ok(row) => Ok((end, row)),
        Err(_) => error(ParseError::at(line, Expected::DiagramCell)),
    }
}

/// The kinds of reply line, told apart by their keyword.
#[derive(Clone, Copy)]
enum Kind {
    Move,
    TakeBack,
    DocumentTakeBack,
    Clock,
    Flip,
    Game,
    Referee,
    GameRow,
    Identity,
    Level,
    NewGame,
    PositionBoard,
    Xmit,
}

/// The keyword at the start of `l` (not consumed), if it names a reply:
/// the first byte picks the candidate, a parser confirms it.
#[inline]
fn reply_kind(l: In<'_>) -> Option<Kind> {
    fn is<'a, O>(
        l: In<'a>,
        kind: Kind,
        mut p: impl Parser<In<'a>, Output = O, Error = ParseError<'a>>,
    ) -> Option<Kind> {
        p.parse(l).ok().map(|_| kind)
    }
    let number_follows = || {
        peek(satisfy(|c: char| {
            c == ' ' || c == '\t' || c.is_ascii_digit()
        }))
    };
    let (rest, first) = nom::number::complete::u8::<_, ParseError<'_>>(l).ok()?;
    match first {
        b'M' => is(rest, Kind::Move, number_follows()),
        b'T' => is(rest, Kind::TakeBack, number_follows()),
        b't' => is(rest, Kind::DocumentTakeBack, number_follows()),
        b'C' => is(l, Kind::Clock, keyword("Clock")),
        b'F' => is(l, Kind::Flip, keyword("Flip")),
        b'G' => is(l, Kind::Game, keyword("Game")),
        b'.' => is(l, Kind::Referee, keyword(".Referee")).or(Some(Kind::GameRow)),
        b'I' => is(l, Kind::Identity, tag("ID.")),
        b'L' => is(l, Kind::Level, keyword("Level")),
        b'N' => is(l, Kind::NewGame, phrase("New", "Game")),
        b'P' => is(l, Kind::PositionBoard, phrase("Position", "Board")),
        b'X' => is(l, Kind::Xmit, keyword("Xmit")),
        _ => None,
    }
}

/// The line's content and its raw form: `raw` without trailing CRs, `l`
/// also without leading and trailing blanks; [`Problem::Empty`] when
/// nothing is left.
#[inline]
fn content(line: &[u8], message: MessageKind) -> Result<(In<'_>, In<'_>), ParseError<'_>> {
    let raw = trim_end(line, |b| b == b'\r');
    let l = trim_end(raw, is_blank);
    let l = match space0::<_, ParseError<'_>>(l) {
        Ok((l, _)) => l,
        Err(_) => l,
    };
    if l.is_empty() {
        return Err(ParseError {
            input: line,
            message: Some(message),
            field: Some(Field::Keyword),
            fault: Fault::Empty,
        });
    }
    Ok((raw, l))
}

/// One reply line, strictly as devices print it (trailing CRs, leading and
/// trailing blanks tolerated). See [`reply_with`].
pub fn reply(line: &[u8]) -> ParseResult<'_, Reply<'_>> {
    reply_with(line, &Leniency::STRICT)
}

/// One reply line: the keyword picks the rule; a line that starts like no
/// known reply is [`Reply::DiagramRow`] when it reads as one, else
/// [`Reply::Unrecognised`] (never an error). An empty line (or one of
/// blanks) is [`Problem::Empty`]. Consumes the whole line.
#[inline(always)]
pub fn reply_with<'a>(line: &'a [u8], leniency: &Leniency) -> ParseResult<'a, Reply<'a>> {
    let (raw, l) = content(line, MessageKind::Reply).map_err(nom::Err::Error)?;
    let end = &line[line.len()..];
    let r = match reply_kind(l) {
        Some(Kind::Move) => Reply::Move(move_line(l)?.1),
        Some(Kind::TakeBack) => Reply::TakeBack(take_back_line(l, leniency)?.1),
        Some(Kind::DocumentTakeBack) if leniency.document_take_back => {
            Reply::TakeBack(take_back_line(l, leniency)?.1)
        }
        Some(Kind::Clock) => clock(l)?.1,
        Some(Kind::Flip) => flip(l)?.1,
        Some(Kind::Game) => game(l)?.1,
        Some(Kind::Referee) => referee(l)?.1,
        Some(Kind::GameRow) => game_row(l)?.1,
        Some(Kind::Identity) => identity(l, leniency)?.1,
        Some(Kind::Level) => level_line(l)?.1,
        Some(Kind::NewGame) => new_game(l)?.1,
        Some(Kind::PositionBoard) => position_board(l)?.1,
        Some(Kind::Xmit) => xmit(l)?.1,
        Some(Kind::DocumentTakeBack) | None => match diagram_row(raw) {
            Ok((_, row)) => Reply::DiagramRow(row),
            Err(_) => Reply::Unrecognised(RawLine::borrowed(raw)),
        },
    };
    Ok((end, r))
}

/// A promotion letter in a command, either case.
fn command_promotion_letter(i: In<'_>) -> ParseResult<'_, Promotion> {
    in_field(
        Field::Promotion,
        map_opt(want(Expected::PromotionPiece, one_of("QRBNqrbn")), |c| {
            Promotion::from_letter(c as u8)
        })
        .parse(i),
    )
}

/// After `M` in a command: `from[-|x]to[/P | P]`, squares in either case.
pub fn host_move(i: &[u8]) -> ParseResult<'_, HostMove> {
    let (i, _) = space0(i)?;
    let (i, from) = command_square(i)?;
    let (i, _) = opt(one_of("-xX")).parse(i)?;
    let (i, to) = command_square(i)?;
    let (i, slash) = opt(char('/')).parse(i)?;
    let (i, promotion) = if slash.is_some() {
        map(command_promotion_letter, Some).parse(i)?
    } else {
        opt(command_promotion_letter).parse(i)?
    };
    Ok((
        i,
        HostMove {
            from,
            to,
            promotion,
        },
    ))
}

/// After `L` in a command: `[+|-] NAME [blanks] n` (`CITRINE 5`,
/// `+CITRINE5`, `-TR1`), either case; the number `1..=99`.
pub fn level_setting(i: &[u8]) -> ParseResult<'_, (LevelTarget, Level)> {
    let (i, target) = opt(alt((
        value(LevelTarget::BlackOnly, char('-')),
        value(LevelTarget::Both, char('+')),
    )))
    .parse(i)?;
    let (i, _) = space0(i)?;
    let (i, kind) = in_field(
        Field::Level,
        want(
            Expected::LevelName,
            alt((
                value(LevelKind::Citrine, tag_no_case("CITRINE")),
                value(LevelKind::Tournament, tag_no_case("TR")),
                value(LevelKind::AverageTime, tag_no_case("AT")),
                value(LevelKind::Beginner, tag_no_case("BE")),
            )),
        )
        .parse(i),
    )?;
    let (i, _) = space0(i)?;
    let (i, n) = number(Field::Level, Range::Level, i)?;
    let level = Level::new(kind, n as u8).expect("range checked");
    Ok((i, (target.unwrap_or(LevelTarget::Both), level)))
}

/// Nothing (query), `ON` or `OFF`, either case.
fn command_switch(i: In<'_>) -> ParseResult<'_, Option<bool>> {
    let (i, _) = space0(i)?;
    if let Ok((i, _)) = eof::<_, ParseError<'_>>(i) {
        return Ok((i, None));
    }
    let (i, on) = in_field(
        Field::Switch,
        want(
            Expected::Switch,
            alt((
                value(true, word_no_case("on")),
                value(false, word_no_case("off")),
            )),
        )
        .parse(i),
    )?;
    let (i, ()) = end_of_line(i)?;
    Ok((i, Some(on)))
}

/// `L` with nothing after it (show) or a level setting.
fn command_level(i: In<'_>) -> ParseResult<'_, Command<'_>> {
    let (i, _) = space0(i)?;
    if let Ok((i, _)) = eof::<_, ParseError<'_>>(i) {
        return Ok((i, Command::ShowLevel));
    }
    let (i, (target, level)) = level_setting(i)?;
    let (i, ()) = end_of_line(i)?;
    Ok((i, Command::SetLevel { target, level }))
}

/// `P` with nothing after it (show) or set-up text.
fn command_position(i: In<'_>) -> ParseResult<'_, Command<'_>> {
    let (i, _) = space0(i)?;
    if let Ok((i, _)) = eof::<_, ParseError<'_>>(i) {
        return Ok((i, Command::ShowPosition));
    }
    let (i, t) = token_of(Field::SetUp, i)?;
    let (i, ()) = end_of_line(i)?;
    Ok((i, Command::SetUp(t)))
}

/// One command line ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and
/// replies (device -> host)*): case-insensitive, blanks after the letter
/// optional (`ME2E4`, `M e2e4`, `M e2-e4`, `L +CITRINE5`). An unknown
/// letter is [`Command::Unrecognised`] (the device ignores it); an empty
/// line (or one of blanks) is [`Problem::Empty`]. Consumes the whole line.
pub fn command(line: &[u8]) -> ParseResult<'_, Command<'_>> {
    let (raw, l) = content(line, MessageKind::Command).map_err(nom::Err::Error)?;
    let end = &line[line.len()..];
    let (rest, letter) = nom::number::complete::u8(l)?;
    let bare = |c: Command<'static>| move |i| value(c.clone(), end_of_line).parse(i);
    let kind = match letter.to_ascii_uppercase() {
        b'M' => MessageKind::MoveCommand,
        b'L' => MessageKind::LevelCommand,
        b'P' => MessageKind::PositionCommand,
        b'X' => MessageKind::XmitCommand,
        b'U' => MessageKind::RefereeCommand,
        _ => MessageKind::BareCommand,
    };
    let r = match letter.to_ascii_uppercase() {
        b'C' => bare(Command::Clock)(rest),
        b'F' => bare(Command::Flip)(rest),
        b'G' => bare(Command::Game)(rest),
        b'I' => bare(Command::Identity)(rest),
        b'N' => bare(Command::NewGame)(rest),
        b'O' => bare(Command::Origin)(rest),
        b'T' => bare(Command::TakeBack)(rest),
        b'J' => bare(Command::EngineMove)(rest),
        b'U' => map(command_switch, Command::Referee).parse(rest),
        b'X' => map(command_switch, Command::Xmit).parse(rest),
        b'L' => command_level(rest),
        b'M' => map(terminated(host_move, end_of_line), Command::Move).parse(rest),
        b'P' => command_position(rest),
        _ => Ok((end, Command::Unrecognised(RawLine::borrowed(raw)))),
    };
    let (_, c) = in_message(kind, r)?;
    Ok((end, c))
}
