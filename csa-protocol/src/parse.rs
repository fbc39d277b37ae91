//! The parsers of the grammar rules of [`spec::csa`](crate::spec::csa) (*Plain CSA
//! mode*, *Agreement -> game*, *Moves*, *Extended mode (x1)*), built from
//! [`nom`] combinators and public so that users can embed them.
//!
//! Every parser has the shape `fn(&[u8]) -> IResult<&[u8], T, ParseError>`
//! ([`PResult`]): it reads from the start of its input and returns the rest.
//! Field parsers take the [`Field`] they stand for, so that an error names
//! it. They borrow from the input and never allocate.
//!
//! A field that is present but malformed is a [`nom::Err::Failure`] (no
//! other alternative is tried); "not this rule" is a [`nom::Err::Error`].
//! [`ParseError::remaining`] is the length of the input from the failing
//! byte on, so the 0-based offset in the line is `line.len() - remaining`
//! ([`ParseError::into_decode_error`]).
//!
//! ```
//! use csa_protocol::error::Field;
//! use csa_protocol::parse::{end_of_line, user_name};
//!
//! let (rest, name) = user_name(Field::Name, b" alice pass").unwrap();
//! assert_eq!((name.as_str(), rest), ("alice", &b" pass"[..]));
//! assert!(end_of_line(b"").is_ok());
//! ```

use alloc::borrow::Cow;

use nom::IResult;
use nom::Parser as _;
use nom::bytes::complete::{tag, take_till};
use nom::error::ErrorKind;

use crate::error::{DecodeError, Expected, Field, MessageKind, Problem};
use crate::message::{
    ClientMessage, EndReason, GameRequest, GameResult, Raw, ServerMessage, ServerSpecial,
    SpecialMove, SummaryLine, WhoEntry, X1Command, X1Reply,
};
use crate::moves::{BuoyMoves, CsaMove, MOVE_LEN, move_error_offset, move_problem};
use crate::types::{
    Class, FromChecked, GameId, GameName, MoveComment, MoveTime, Password, RatingText, Side,
    SidePreference, Tag, Text, UserName, Word, check_token, is_comment_byte, is_text_byte,
};

/// Maximum length of a position line in bytes (a hand line listing all 38
/// pieces one by one is 2 + 38 * 4 = 154 bytes).
pub const MAX_POSITION_LINE: usize = 256;

/// A parser's failure: the field, the problem, and where (the length of
/// the input from the failing byte on). The line's kind is added by the
/// line parsers ([`MessageKind::Line`] until then).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseError {
    /// The kind of line.
    pub message: MessageKind,
    /// The field.
    pub field: Field,
    /// What is wrong.
    pub problem: Problem,
    /// Bytes of the input from the failing byte to its end.
    pub remaining: usize,
}

impl ParseError {
    /// The error as a [`DecodeError`] in `line` (the whole line the parser
    /// was given).
    pub fn into_decode_error(self, line: &[u8]) -> DecodeError {
        DecodeError::new(
            self.message,
            self.field,
            line.len().saturating_sub(self.remaining),
            self.problem,
        )
    }

    fn in_message(mut self, message: MessageKind) -> Self {
        self.message = message;
        self
    }
}

impl<'a> nom::error::ParseError<&'a [u8]> for ParseError {
    fn from_error_kind(input: &'a [u8], _kind: ErrorKind) -> Self {
        ParseError {
            message: MessageKind::Line,
            field: Field::Line,
            problem: Problem::Trailing { count: input.len() },
            remaining: input.len(),
        }
    }

    fn append(_input: &'a [u8], _kind: ErrorKind, other: Self) -> Self {
        other
    }
}

/// The result of every parser of this module.
pub type PResult<'a, T> = IResult<&'a [u8], T, ParseError>;

/// A malformed field at `at` (the input from the failing byte on), as the
/// error alone.
fn fail(at: usize, field: Field, problem: Problem) -> nom::Err<ParseError> {
    nom::Err::Failure(ParseError {
        message: MessageKind::Line,
        field,
        problem,
        remaining: at,
    })
}

/// A malformed field at `at` (the input from the failing byte on).
fn failure<T>(at: usize, field: Field, problem: Problem) -> PResult<'static, T> {
    Err(nom::Err::Failure(ParseError {
        message: MessageKind::Line,
        field,
        problem,
        remaining: at,
    }))
}

/// `i` should start with `want` (`want` may be empty: "something of the
/// form `what`"): [`Problem::Invalid`] at the first byte that differs, or
/// [`Problem::Missing`] when `i` ends first.
fn expected<T>(i: &[u8], want: &[u8], field: Field, what: Expected) -> PResult<'static, T> {
    Err(expected_e(i, want, field, what))
}

/// [`expected`], as the error alone.
fn expected_e(i: &[u8], want: &[u8], field: Field, what: Expected) -> nom::Err<ParseError> {
    let k = i
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(want.len());
    match i.get(k) {
        Some(&byte) => fail(
            i.len() - k,
            field,
            Problem::Invalid {
                byte,
                expected: what,
            },
        ),
        None => fail(0, field, Problem::Missing),
    }
}

/// Puts the line's kind into a failure.
#[inline(always)]
fn kind<T>(r: PResult<'_, T>, message: MessageKind) -> PResult<'_, T> {
    r.map_err(|e| e.map(|e| e.in_message(message)))
}

/// Runs a line parser over a whole line: a [`DecodeError`] on failure.
#[inline(always)]
fn whole<'a, T>(line: &'a [u8], r: PResult<'a, T>) -> Result<T, DecodeError> {
    match r {
        Ok((_, v)) => Ok(v),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(e.into_decode_error(line)),
        // Complete parsers never ask for more input.
        Err(nom::Err::Incomplete(_)) => Err(DecodeError::new(
            MessageKind::Line,
            Field::Line,
            line.len(),
            Problem::Missing,
        )),
    }
}

/// ` <field>`: one space, then the bytes up to the next space or the end
/// of the line ([`spec::csa`](crate::spec::csa), *Transport and lexical rules*: fields
/// are separated by single spaces).
///
/// # Errors
/// [`Problem::Missing`] at the end of the line, [`Problem::Invalid`] a
/// space, [`Problem::Empty`] for a second space.
pub fn field(name: Field, i: &[u8]) -> PResult<'_, &[u8]> {
    if i.is_empty() {
        return failure(0, name, Problem::Missing);
    }
    let Ok((rest, _)) = tag::<_, _, ParseError>(&b" "[..]).parse(i) else {
        return expected(i, b" ", name, Expected::Space);
    };
    let (after, f) = take_till(|b| b == b' ').parse(rest)?;
    if f.is_empty() {
        return failure(rest.len(), name, Problem::Empty);
    }
    Ok((after, f))
}

/// Like [`field`], but `None` at the end of the line.
///
/// # Errors
/// As [`field`] when something follows.
pub fn opt_field(name: Field, i: &[u8]) -> PResult<'_, Option<&[u8]>> {
    if i.is_empty() {
        return Ok((i, None));
    }
    field(name, i).map(|(r, f)| (r, Some(f)))
}

/// Checks a field's bytes against a class and a length; `after` is the
/// input after the field (for the error position).
fn checked<'a>(
    name: Field,
    f: &'a [u8],
    after: &[u8],
    max: usize,
    class: Class,
) -> Result<&'a str, nom::Err<ParseError>> {
    let at = |idx: usize| after.len() + f.len() - idx;
    if let Err((idx, problem)) = check_token(f, max, class) {
        return Err(nom::Err::Failure(ParseError {
            message: MessageKind::Line,
            field: name,
            problem,
            remaining: at(idx),
        }));
    }
    // The classes are ASCII subsets.
    core::str::from_utf8(f).map_err(|e| {
        nom::Err::Failure(ParseError {
            message: MessageKind::Line,
            field: name,
            problem: Problem::NotUtf8,
            remaining: at(e.valid_up_to()),
        })
    })
}

/// A ` <token>` field of a byte class and a maximum length.
fn token(name: Field, max: usize, class: Class, i: &[u8]) -> PResult<'_, &str> {
    let (rest, f) = field(name, i)?;
    Ok((rest, checked(name, f, rest, max, class)?))
}

/// ` <name>`: a login name ([`spec::csa`](crate::spec::csa), *Plain CSA mode*).
///
/// # Errors
/// As [`field`]; [`Problem::Invalid`], [`Problem::TooLong`].
pub fn user_name(name: Field, i: &[u8]) -> PResult<'_, UserName<'_>> {
    token(name, UserName::MAX_LEN, Class::Name, i).map(|(r, s)| (r, UserName::from_checked(s)))
}

/// ` <password>`: printable ASCII without space.
///
/// # Errors
/// As [`user_name`].
pub fn password(i: &[u8]) -> PResult<'_, Password<'_>> {
    token(Field::Password, Password::MAX_LEN, Class::Graphic, i)
        .map(|(r, s)| (r, Password::from_checked(s)))
}

/// ` <game id>` (as in `%%SHOW <id>`).
///
/// # Errors
/// As [`user_name`].
pub fn game_id(i: &[u8]) -> PResult<'_, GameId<'_>> {
    token(Field::GameId, GameId::MAX_LEN, Class::GameId, i)
        .map(|(r, s)| (r, GameId::from_checked(s)))
}

/// An optional ` <game id>` (as in `AGREE [<id>]`).
///
/// # Errors
/// As [`user_name`] when present.
pub fn opt_game_id(i: &[u8]) -> PResult<'_, Option<GameId<'_>>> {
    match opt_field(Field::GameId, i)? {
        (rest, None) => Ok((rest, None)),
        (rest, Some(f)) => {
            let s = checked(Field::GameId, f, rest, GameId::MAX_LEN, Class::GameId)?;
            Ok((rest, Some(GameId::from_checked(s))))
        }
    }
}

/// ` <game name>` (`%%GAME`, `%%CHALLENGE`, buoys).
///
/// # Errors
/// As [`user_name`].
pub fn game_name(name: Field, i: &[u8]) -> PResult<'_, GameName<'_>> {
    token(name, GameName::MAX_LEN, Class::Name, i).map(|(r, s)| (r, GameName::from_checked(s)))
}

/// ` +`, ` -` or ` *`: the side asked for.
///
/// # Errors
/// As [`field`]; [`Problem::Invalid`] `+`, `-` or `*`.
pub fn side_preference(i: &[u8]) -> PResult<'_, SidePreference> {
    let (rest, f) = field(Field::Side, i)?;
    match f {
        b"+" => Ok((rest, SidePreference::Black)),
        b"-" => Ok((rest, SidePreference::White)),
        b"*" => Ok((rest, SidePreference::Any)),
        _ => expected(&i[1..], b"", Field::Side, Expected::SidePreference),
    }
}

/// An unsigned decimal field of at most `max_digits` digits.
///
/// # Errors
/// As [`field`]; [`Problem::Invalid`], [`Problem::OutOfRange`].
pub fn number(name: Field, max_digits: usize, i: &[u8]) -> PResult<'_, u64> {
    let (rest, f) = field(name, i)?;
    digits(name, max_digits, f, rest).map(|v| (rest, v))
}

fn digits(
    name: Field,
    max_digits: usize,
    f: &[u8],
    after: &[u8],
) -> Result<u64, nom::Err<ParseError>> {
    let at = |idx: usize| after.len() + f.len() - idx;
    let mut v: u64 = 0;
    for (idx, &b) in f.iter().enumerate() {
        if !b.is_ascii_digit() {
            return Err(fail(
                at(idx),
                name,
                Problem::Invalid {
                    byte: b,
                    expected: Expected::Digit,
                },
            ));
        }
        v = v.saturating_mul(10).saturating_add(u64::from(b - b'0'));
    }
    if f.len() > max_digits {
        let sat = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
        let max = 10u64.saturating_pow(max_digits as u32) - 1;
        return Err(fail(
            at(0),
            name,
            Problem::OutOfRange {
                value: sat(v),
                min: 0,
                max: sat(max),
            },
        ));
    }
    Ok(v)
}
/// Free text to the end of the line: UTF-8 without control bytes, at most
/// `Text::MAX_LEN` bytes.
///
/// # Errors
/// [`Problem::Invalid`], [`Problem::TooLong`], [`Problem::NotUtf8`].
pub fn text(name: Field, i: &[u8]) -> PResult<'_, Text<'_>> {
    text_str(name, i).map(|s| (&i[i.len()..], Text::from_checked(s)))
}

/// [`text`]'s check, the text as a `&str`.
fn text_str(name: Field, i: &[u8]) -> Result<&str, nom::Err<ParseError>> {
    text_str_of(name, i, is_text_byte)
}

/// [`text_str`] with the bytes `allowed` decides (a `##[RATING]` line's
/// TAB, [`crate::types::RatingText`]).
fn text_str_of(
    name: Field,
    i: &[u8],
    allowed: fn(u8) -> bool,
) -> Result<&str, nom::Err<ParseError>> {
    // Printable ASCII, which every text allows, eight bytes at a time; the
    // rest byte by byte.
    let skip = printable_prefix(i);
    if let Some(idx) = i[skip..]
        .iter()
        .position(|&b| !allowed(b))
        .map(|k| skip + k)
    {
        return Err(fail(
            i.len() - idx,
            name,
            Problem::Invalid {
                byte: i[idx],
                expected: Expected::Text,
            },
        ));
    }
    if i.len() > Text::MAX_LEN {
        return Err(fail(
            i.len() - Text::MAX_LEN,
            name,
            Problem::TooLong {
                len: i.len(),
                max: Text::MAX_LEN,
            },
        ));
    }
    core::str::from_utf8(i).map_err(|e| fail(i.len() - e.valid_up_to(), name, Problem::NotUtf8))
}

/// The length of the longest prefix of `i` made of whole 8-byte blocks of
/// printable ASCII (0x20..=0x7E): bytes every text rule allows, checked as
/// one `u64` each.
#[inline(always)]
fn printable_prefix(i: &[u8]) -> usize {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = LOW << 7;
    let mut rest = i;
    while let Some((chunk, tail)) = rest.split_first_chunk::<8>() {
        let x = u64::from_le_bytes(*chunk);
        // A byte below 0x20 (exact when none is: no borrow crosses bytes),
        // or one above 0x7E (0x7F + 1 or a high bit).
        let below = x.wrapping_sub(LOW * 0x20) & !x & HIGH;
        let above = (x.wrapping_add(LOW) | x) & HIGH;
        if below | above != 0 {
            break;
        }
        rest = tail;
    }
    i.len() - rest.len()
}

/// ` <text>` to the end of the line; the space may be missing at the end
/// of the line (`%%CHAT` with no text).
///
/// # Errors
/// [`Problem::Invalid`] a space; as [`text`].
pub fn rest_text(name: Field, i: &[u8]) -> PResult<'_, Text<'_>> {
    rest_text_str(name, i).map(|s| (&i[i.len()..], Text::from_checked(s)))
}

/// [`rest_text`]'s check, the text as a `&str`.
fn rest_text_str(name: Field, i: &[u8]) -> Result<&str, nom::Err<ParseError>> {
    let t = match i.first() {
        None => i,
        Some(b' ') => &i[1..],
        Some(_) => return Err(expected_e(i, b" ", name, Expected::Space)),
    };
    text_str(name, t)
}

/// The end of the line.
///
/// # Errors
/// [`Problem::Trailing`] when bytes follow.
pub fn end_of_line(i: &[u8]) -> PResult<'_, ()> {
    if i.is_empty() {
        Ok((i, ()))
    } else {
        failure(
            i.len(),
            Field::Trailing,
            Problem::Trailing { count: i.len() },
        )
    }
}

/// A CSA move token, `+7776FU` (the notation is board-core's).
///
/// # Errors
/// [`Problem::Missing`] (cut off), [`Problem::Invalid`] (sign or square),
/// [`Problem::UnknownPiece`] / [`Problem::NotDroppable`] (piece code) at the first bad byte.
pub fn csa_move(name: Field, i: &[u8]) -> PResult<'_, CsaMove> {
    let n = i.len().min(MOVE_LEN);
    let (tok, rest) = i.split_at(n);
    match CsaMove::parse(tok) {
        Ok(mv) => Ok((rest, mv)),
        Err(e) => failure(
            i.len() - move_error_offset(&e).min(n),
            name,
            move_problem(e, tok),
        ),
    }
}

/// ` <moves>` of `%%SETBUOY`: CSA moves one after another.
///
/// # Errors
/// As [`field`]; [`Problem::TooLong`]; [`Problem::UnknownPiece`] / [`Problem::NotDroppable`] at the move.
pub fn buoy_moves(i: &[u8]) -> PResult<'_, BuoyMoves<'_>> {
    buoy_moves_str(i).map(|(r, s)| (r, BuoyMoves::from_checked(s)))
}

/// [`buoy_moves`]'s check, the moves as a `&str`.
fn buoy_moves_str(i: &[u8]) -> PResult<'_, &str> {
    let (rest, f) = field(Field::Moves, i)?;
    let at = |idx: usize| rest.len() + f.len() - idx;
    let max = BuoyMoves::MAX_MOVES * MOVE_LEN;
    if f.len() > max {
        return failure(
            at(max),
            Field::Moves,
            Problem::TooLong { len: f.len(), max },
        );
    }
    for (k, chunk) in f.chunks(MOVE_LEN).enumerate() {
        if let Err(e) = CsaMove::parse(chunk) {
            let idx = k * MOVE_LEN + move_error_offset(&e);
            return failure(at(idx), Field::Moves, move_problem(e, chunk));
        }
    }
    let s = core::str::from_utf8(f).map_err(|_| fail(at(0), Field::Moves, Problem::NotUtf8))?;
    Ok((rest, s))
}

// ------------------------------------------------------------ client lines
//
// Every line kind has a parts function: it checks the line's fields and
// returns them as small values (`&str`s, numbers), never a finished
// message. The decoders build the message once, in their own result, from
// those parts; the public nom parsers below are built on the same parts.
// (Moving a finished message out through parser layers by value cost up to
// 70% more time per line at the same instruction count: the copies' wide
// loads stall on the narrow stores just made.)

/// The error of a failed part of `line`, with the line's kind.
#[cold]
#[inline(never)]
fn part_error(e: nom::Err<ParseError>, message: MessageKind, line: &[u8]) -> DecodeError {
    nom_error(e).in_message(message).into_decode_error(line)
}

/// A decoder's result as a nom result over the whole `line` (the public
/// parsers built on the decoders).
fn as_nom<'a, T>(line: &'a [u8], r: Result<T, DecodeError>) -> PResult<'a, T> {
    match r {
        Ok(v) => Ok((&line[line.len()..], v)),
        Err(e) => Err(nom::Err::Failure(ParseError {
            message: e.message,
            field: e.field,
            problem: e.problem,
            remaining: line.len().saturating_sub(e.offset),
        })),
    }
}

/// Takes the value of a part, or returns its error as a [`DecodeError`]
/// in `$line` with kind `$kind`.
macro_rules! part {
    ($line:expr, $kind:expr, $r:expr) => {
        match $r {
            Ok(v) => v,
            Err(e) => return Err(part_error(e, $kind, $line)),
        }
    };
}

/// `<name> <password> [x1]` of `LOGIN`: name, password, x1.
#[inline]
fn login_parts(i: &[u8]) -> Result<(&str, &str, bool), nom::Err<ParseError>> {
    let (i, name) = token(Field::Name, UserName::MAX_LEN, Class::Name, i)?;
    let (i, password) = token(Field::Password, Password::MAX_LEN, Class::Graphic, i)?;
    let (i, x1) = match opt_field(Field::Mode, i)? {
        (r, None) => (r, false),
        (r, Some(b"x1")) => (r, true),
        (r, Some(f)) => {
            let k = f.iter().zip(b"x1").position(|(a, b)| a != b).unwrap_or(2);
            return Err(match f.get(k) {
                Some(&byte) => fail(
                    r.len() + f.len() - k,
                    Field::Mode,
                    Problem::Invalid {
                        byte,
                        expected: Expected::X1,
                    },
                ),
                // `x`, cut off: at the end of the line, or at what follows.
                None => match r.first() {
                    None => fail(0, Field::Mode, Problem::Missing),
                    Some(&byte) => fail(
                        r.len(),
                        Field::Mode,
                        Problem::Invalid {
                            byte,
                            expected: Expected::X1,
                        },
                    ),
                },
            });
        }
    };
    end_of_line(i)?;
    Ok((name, password, x1))
}

/// `LOGIN <name> <password> [x1]` after the keyword.
///
/// # Errors
/// As the fields; [`Problem::Invalid`] `x1` for another mode word.
pub fn login(i: &[u8]) -> PResult<'_, ClientMessage<'_>> {
    let (name, password, x1) = login_parts(i)?;
    Ok((
        &i[i.len()..],
        ClientMessage::Login {
            name: UserName::from_checked(name),
            password: Password::from_checked(password),
            x1,
        },
    ))
}

/// A client move line's move and comment.
#[inline]
fn client_move_parts(i: &[u8]) -> Result<(CsaMove, Option<&[u8]>), nom::Err<ParseError>> {
    let (rest, mv) = csa_move(Field::Move, i)?;
    if rest.is_empty() {
        return Ok((mv, None));
    }
    let Some(c) = rest.strip_prefix(b",'") else {
        return Err(expected_e(rest, b",'", Field::Comment, Expected::Comment));
    };
    Ok((mv, Some(move_comment_bytes(c)?)))
}

/// The bytes of a move comment: any but NUL, CR and LF (not necessarily
/// UTF-8), at most [`MoveComment::MAX_LEN`].
#[inline]
fn move_comment_bytes(i: &[u8]) -> Result<&[u8], nom::Err<ParseError>> {
    if let Some(idx) = i.iter().position(|&b| !is_comment_byte(b)) {
        return Err(fail(
            i.len() - idx,
            Field::Comment,
            Problem::Invalid {
                byte: i[idx],
                expected: Expected::Text,
            },
        ));
    }
    if i.len() > MoveComment::MAX_LEN {
        return Err(fail(
            i.len() - MoveComment::MAX_LEN,
            Field::Comment,
            Problem::TooLong {
                len: i.len(),
                max: MoveComment::MAX_LEN,
            },
        ));
    }
    Ok(i)
}

/// A client move line: `+7776FU` or `+7776FU,'<comment>`
/// ([`spec::csa`](crate::spec::csa), *Moves*).
///
/// # Errors
/// [`Problem::UnknownPiece`] / [`Problem::NotDroppable`]; [`Problem::Invalid`] `,'` and a comment.
pub fn client_move(i: &[u8]) -> PResult<'_, ClientMessage<'_>> {
    let (mv, comment) = client_move_parts(i)?;
    Ok((
        &i[i.len()..],
        ClientMessage::Move {
            mv,
            comment: comment.map(MoveComment::from_checked),
        },
    ))
}

/// `[ <game id>]` and the end of the line (`AGREE`, `REJECT`).
#[inline]
fn opt_game_id_parts(i: &[u8]) -> Result<Option<&str>, nom::Err<ParseError>> {
    let id = match opt_field(Field::GameId, i)? {
        (_, None) => None,
        (rest, Some(f)) => {
            let s = checked(Field::GameId, f, rest, GameId::MAX_LEN, Class::GameId)?;
            end_of_line(rest)?;
            Some(s)
        }
    };
    Ok(id)
}

/// ` <game name> <side>` and the end of the line.
#[inline]
fn game_request_parts(i: &[u8]) -> Result<(&str, SidePreference), nom::Err<ParseError>> {
    let (i, name) = token(Field::GameName, GameName::MAX_LEN, Class::Name, i)?;
    let (i, side) = side_preference(i)?;
    end_of_line(i)?;
    Ok((name, side))
}

/// ` <token>` and the end of the line.
#[inline]
fn single_token(
    name: Field,
    max: usize,
    class: Class,
    i: &[u8],
) -> Result<&str, nom::Err<ParseError>> {
    let (i, s) = token(name, max, class, i)?;
    end_of_line(i)?;
    Ok(s)
}

fn game_id_part(i: &[u8]) -> Result<&str, nom::Err<ParseError>> {
    single_token(Field::GameId, GameId::MAX_LEN, Class::GameId, i)
}

fn buoy_name_part(i: &[u8]) -> Result<&str, nom::Err<ParseError>> {
    single_token(Field::BuoyName, GameName::MAX_LEN, Class::Name, i)
}

/// ` <buoy name> <moves> [<count>]` of `%%SETBUOY`.
fn set_buoy_parts(i: &[u8]) -> Result<(&str, &str, Option<u32>), nom::Err<ParseError>> {
    let (i, name) = token(Field::BuoyName, GameName::MAX_LEN, Class::Name, i)?;
    let (i, moves) = buoy_moves_str(i)?;
    let (i, count) = match opt_field(Field::Count, i)? {
        (r, None) => (r, None),
        (r, Some(f)) => (r, Some(digits(Field::Count, 9, f, r)? as u32)),
    };
    end_of_line(i)?;
    Ok((name, moves, count))
}

/// ` <game id> [<buoy name>] [<nth>]` of `%%FORK`.
#[allow(clippy::type_complexity)]
fn fork_parts(i: &[u8]) -> Result<(&str, Option<&str>, Option<u32>), nom::Err<ParseError>> {
    let (mut i, game_id) = token(Field::GameId, GameId::MAX_LEN, Class::GameId, i)?;
    let mut buoy = None;
    let mut nth = None;
    if let (r, Some(f)) = opt_field(Field::BuoyName, i)? {
        i = r;
        if f.iter().all(u8::is_ascii_digit) {
            nth = Some(digits(Field::Nth, 9, f, r)? as u32);
        } else {
            buoy = Some(checked(
                Field::BuoyName,
                f,
                r,
                GameName::MAX_LEN,
                Class::Name,
            )?);
            if let (r, Some(f)) = opt_field(Field::Nth, i)? {
                i = r;
                nth = Some(digits(Field::Nth, 9, f, r)? as u32);
            }
        }
    }
    end_of_line(i)?;
    Ok((game_id, buoy, nth))
}

/// An x1 command line (`line` starts with `%%`; `kw` is its keyword, `i`
/// what follows it), built in the result; a keyword that is no x1 command
/// is [`ClientMessage::Unrecognised`].
#[inline]
fn x1_command_message<'a>(
    line: &'a [u8],
    kw: &[u8],
    i: &'a [u8],
) -> Result<ClientMessage<'a>, DecodeError> {
    use ClientMessage::X1;
    use MessageKind as K;
    let eol = |k: MessageKind, cmd: X1Command<'static>| match end_of_line(i) {
        Ok(_) => Ok(X1(cmd)),
        Err(e) => Err(part_error(e, k, line)),
    };
    match kw {
        b"%%GAME" if i.is_empty() => Ok(X1(X1Command::Game(None))),
        b"%%GAME" => {
            let (name, side) = part!(line, K::Game, game_request_parts(i));
            Ok(X1(X1Command::Game(Some(GameRequest {
                name: GameName::from_checked(name),
                side,
            }))))
        }
        b"%%CHALLENGE" => {
            let (name, side) = part!(line, K::Challenge, game_request_parts(i));
            Ok(X1(X1Command::Challenge(GameRequest {
                name: GameName::from_checked(name),
                side,
            })))
        }
        b"%%WHO" => eol(K::Who, X1Command::Who),
        b"%%LIST" => eol(K::List, X1Command::List),
        b"%%RATING" => eol(K::Rating, X1Command::Rating),
        b"%%VERSION" => eol(K::Version, X1Command::Version),
        b"%%HELP" => eol(K::Help, X1Command::Help),
        b"%%CHAT" => {
            let t = part!(line, K::Chat, rest_text_str(Field::Text, i));
            Ok(X1(X1Command::Chat(Text::from_checked(t))))
        }
        b"%%SHOW" => {
            let id = part!(line, K::Show, game_id_part(i));
            Ok(X1(X1Command::Show(GameId::from_checked(id))))
        }
        b"%%MONITORON" => {
            let id = part!(line, K::MonitorOn, game_id_part(i));
            Ok(X1(X1Command::MonitorOn(GameId::from_checked(id))))
        }
        b"%%MONITOROFF" => {
            let id = part!(line, K::MonitorOff, game_id_part(i));
            Ok(X1(X1Command::MonitorOff(GameId::from_checked(id))))
        }
        b"%%MONITOR2ON" => {
            let id = part!(line, K::Monitor2On, game_id_part(i));
            Ok(X1(X1Command::Monitor2On(GameId::from_checked(id))))
        }
        b"%%MONITOR2OFF" => {
            let id = part!(line, K::Monitor2Off, game_id_part(i));
            Ok(X1(X1Command::Monitor2Off(GameId::from_checked(id))))
        }
        b"%%SETBUOY" => {
            let (name, moves, count) = part!(line, K::SetBuoy, set_buoy_parts(i));
            Ok(X1(X1Command::SetBuoy {
                name: GameName::from_checked(name),
                moves: BuoyMoves::from_checked(moves),
                count,
            }))
        }
        b"%%DELETEBUOY" => {
            let name = part!(line, K::DeleteBuoy, buoy_name_part(i));
            Ok(X1(X1Command::DeleteBuoy(GameName::from_checked(name))))
        }
        b"%%GETBUOYCOUNT" => {
            let name = part!(line, K::GetBuoyCount, buoy_name_part(i));
            Ok(X1(X1Command::GetBuoyCount(GameName::from_checked(name))))
        }
        b"%%FORK" => {
            let (game_id, buoy, nth) = part!(line, K::Fork, fork_parts(i));
            Ok(X1(X1Command::Fork {
                game_id: GameId::from_checked(game_id),
                buoy: buoy.map(GameName::from_checked),
                nth,
            }))
        }
        _ => Ok(ClientMessage::Unrecognised(Cow::Borrowed(line))),
    }
}

/// An x1 command (`%%...`, [`spec::csa`](crate::spec::csa), *Extended mode (x1)*):
/// `kw` is its keyword, `i` what follows it. `Error` (not `Failure`) for a
/// keyword that is no x1 command.
///
/// # Errors
/// As the fields of the command.
pub fn x1_command<'a>(kw: &[u8], i: &'a [u8]) -> PResult<'a, X1Command<'a>> {
    match as_nom(i, x1_command_message(i, kw, i))? {
        (r, ClientMessage::X1(cmd)) => Ok((r, cmd)),
        _ => Err(nom::Err::Error(ParseError {
            message: MessageKind::Line,
            field: Field::Line,
            problem: Problem::Trailing { count: i.len() },
            remaining: i.len(),
        })),
    }
}

/// ` <game name> <side>` of `%%GAME` and `%%CHALLENGE`.
///
/// # Errors
/// As the fields.
pub fn game_request(i: &[u8]) -> PResult<'_, GameRequest<'_>> {
    let (name, side) = game_request_parts(i)?;
    Ok((
        &i[i.len()..],
        GameRequest {
            name: GameName::from_checked(name),
            side,
        },
    ))
}

/// ` <buoy name> <moves> [<count>]` of `%%SETBUOY`.
///
/// # Errors
/// As the fields.
pub fn set_buoy(i: &[u8]) -> PResult<'_, X1Command<'_>> {
    let (name, moves, count) = set_buoy_parts(i)?;
    Ok((
        &i[i.len()..],
        X1Command::SetBuoy {
            name: GameName::from_checked(name),
            moves: BuoyMoves::from_checked(moves),
            count,
        },
    ))
}

/// ` <game id> [<buoy name>] [<nth>]` of `%%FORK`.
///
/// # Errors
/// As the fields.
pub fn fork(i: &[u8]) -> PResult<'_, X1Command<'_>> {
    let (game_id, buoy, nth) = fork_parts(i)?;
    Ok((
        &i[i.len()..],
        X1Command::Fork {
            game_id: GameId::from_checked(game_id),
            buoy: buoy.map(GameName::from_checked),
            nth,
        },
    ))
}

/// One client line (terminator removed): the whole grammar of client
/// lines. A line that is no client command is
/// [`ClientMessage::Unrecognised`].
///
/// # Errors
/// A failure naming the kind of line, the field and where.
pub fn client_line(line: &[u8]) -> PResult<'_, ClientMessage<'_>> {
    as_nom(line, decode_client_line(line))
}

/// Decodes one client line: the line's parts, then the message built once,
/// here, in the result.
pub(crate) fn decode_client_line(line: &[u8]) -> Result<ClientMessage<'_>, DecodeError> {
    use MessageKind as K;
    let Some(&first) = line.first() else {
        return Ok(ClientMessage::KeepAlive);
    };
    if first == b'+' || first == b'-' {
        let (mv, comment) = part!(line, K::Move, client_move_parts(line));
        return Ok(ClientMessage::Move {
            mv,
            comment: comment.map(MoveComment::from_checked),
        });
    }
    let sp = line.iter().position(|&b| b == b' ').unwrap_or(line.len());
    let (kw, rest) = line.split_at(sp);
    let simple = |k: MessageKind, msg: ClientMessage<'static>| match end_of_line(rest) {
        Ok(_) => Ok(msg),
        Err(e) => Err(part_error(e, k, line)),
    };
    match kw {
        b"LOGIN" => {
            let (name, password, x1) = part!(line, K::Login, login_parts(rest));
            Ok(ClientMessage::Login {
                name: UserName::from_checked(name),
                password: Password::from_checked(password),
                x1,
            })
        }
        b"AGREE" => {
            let id = part!(line, K::Agree, opt_game_id_parts(rest));
            Ok(ClientMessage::Agree(id.map(GameId::from_checked)))
        }
        b"REJECT" => {
            let id = part!(line, K::Reject, opt_game_id_parts(rest));
            Ok(ClientMessage::Reject(id.map(GameId::from_checked)))
        }
        b"LOGOUT" => simple(K::Logout, ClientMessage::Logout),
        b"%TORYO" => simple(K::Toryo, ClientMessage::Special(SpecialMove::Toryo)),
        b"%KACHI" => simple(K::Kachi, ClientMessage::Special(SpecialMove::Kachi)),
        b"%CHUDAN" => simple(K::Chudan, ClientMessage::Special(SpecialMove::Chudan)),
        _ if kw.starts_with(b"%%") => x1_command_message(line, kw, rest),
        _ => Ok(ClientMessage::Unrecognised(Cow::Borrowed(line))),
    }
}

// ---------------------------------------------------------------- server lines

/// `Key` of a `Key:Value` line: starts with a letter, then letters, digits,
/// `_`, and may end with `+` or `-` (`Name+`, `Remaining_Time-`).
fn is_summary_key(key: &[u8]) -> bool {
    let Some((&first, rest)) = key.split_first() else {
        return false;
    };
    if !first.is_ascii_alphabetic() {
        return false;
    }
    let body = match rest.last() {
        Some(b'+' | b'-') => &rest[..rest.len() - 1],
        _ => rest,
    };
    body.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A whole-input token checked against a class and a length (`i` is the
/// token; nothing follows).
fn all_checked<'a>(name: Field, i: &'a [u8], max: usize, class: Class) -> PResult<'a, &'a str> {
    let s = checked(name, i, &i[i.len()..], max, class)?;
    Ok((&i[i.len()..], s))
}

/// `,T<seconds>` after a move or a special, or nothing at the end of the
/// line ([`spec::csa`](crate::spec::csa), *Moves*).
///
/// # Errors
/// [`Problem::Trailing`] ([`Field::Trailing`]) when the rest does not
/// start with `,`;
/// [`Problem::Invalid`] `,T<seconds>`; the seconds' problem.
pub fn time_suffix(i: &[u8]) -> PResult<'_, Option<MoveTime>> {
    if i.is_empty() {
        return Ok((i, None));
    }
    if i[0] != b',' {
        return end_of_line(i).map(|(r, ())| (r, None));
    }
    let Ok((t, _)) = tag::<_, _, ParseError>(&b",T"[..]).parse(i) else {
        return expected(i, b",T", Field::Time, Expected::TimeSuffix);
    };
    move_time(t).map(|(r, v)| (r, Some(v)))
}

/// `2.` as `2`: a V3 time with a trailing dot and no decimals (ShogiHome
/// writes `T3.`) means its whole seconds; anything else is returned as is.
#[inline]
pub(crate) fn without_trailing_dot(t: &[u8]) -> &[u8] {
    match t.split_last() {
        Some((b'.', int)) if !int.is_empty() && int.iter().all(u8::is_ascii_digit) => int,
        _ => t,
    }
}

/// The seconds of a `T` time, the whole input: whole seconds (`12`), a
/// V3.0 decimal with up to three decimals (`1.5`, `0.125`: milliseconds),
/// or whole seconds with a dot and no decimals (`2.`, as ShogiHome
/// accepts `T3.`); at most 10 digits before the dot
/// ([`spec::csa`](crate::spec::csa), *Moves*: "V3-style decimals such as `T1.5`").
///
/// ```
/// use csa_protocol::parse::move_time;
/// use csa_protocol::types::MoveTime;
///
/// assert_eq!(move_time(b"2.").unwrap().1, MoveTime::from_secs(2));
/// assert_eq!(move_time(b"1.5").unwrap().1, MoveTime::from_millis(1500));
/// assert!(move_time(b"1.5.").is_err());
/// ```
///
/// # Errors
/// ([`Field::Time`]) [`Problem::Missing`] for an empty input,
/// [`Problem::Invalid`] at a byte that is no digit (a second dot, a fourth
/// decimal), [`Problem::OutOfRange`] for more than 10 digits.
#[inline]
pub fn move_time(i: &[u8]) -> PResult<'_, MoveTime> {
    match MoveTime::parse(without_trailing_dot(i)) {
        Ok(v) => Ok((&i[i.len()..], v)),
        Err((idx, p)) => failure(i.len() - idx, Field::Time, p),
    }
}

/// A position line: `P1`..`P9`, `PI`, `P+`, `P-`, then printable ASCII or
/// spaces (the position itself is read by `board_core::shogi`).
///
/// # Errors
/// [`Problem::Invalid`] a row name; [`Problem::Invalid`],
/// [`Problem::TooLong`].
pub fn position_line(i: &[u8]) -> PResult<'_, &str> {
    let row_ok = |b: u8| matches!(b, b'1'..=b'9' | b'I' | b'+' | b'-');
    match i {
        [b'P', r, ..] if row_ok(*r) => {}
        [b'P', r, ..] => {
            return failure(
                i.len() - 1,
                Field::Row,
                Problem::Invalid {
                    byte: *r,
                    expected: Expected::PositionRow,
                },
            );
        }
        _ => return expected(i, b"P", Field::Row, Expected::PositionRow),
    }
    kind(
        all_checked(Field::Row, i, MAX_POSITION_LINE, Class::PositionLine),
        MessageKind::Position,
    )
}

fn summary_block(i: &[u8]) -> PResult<'_, &str> {
    all_checked(Field::Block, i, 64, Class::Block)
}

/// `##[<tag>]`: the tag and what follows `]`.
#[inline]
fn x1_tag(line: &[u8]) -> Result<(&str, &[u8]), nom::Err<ParseError>> {
    let Some(after) = line.strip_prefix(b"##[") else {
        return Err(expected_e(line, b"##[", Field::Tag, Expected::OpenBracket));
    };
    let Some(close) = after.iter().position(|&b| b == b']') else {
        return Err(fail(0, Field::Tag, Problem::Missing));
    };
    let (tag_bytes, rest) = after.split_at(close);
    let tag_s = checked(Field::Tag, tag_bytes, rest, Tag::MAX_LEN, Class::Tag)?;
    Ok((tag_s, &rest[1..]))
}

/// The kind of an x1 reply by its tag.
fn x1_kind(tag_s: &str) -> MessageKind {
    match tag_s {
        "LOGIN" => MessageKind::X1Login,
        "WHO" => MessageKind::X1Who,
        "CHAT" => MessageKind::X1Chat,
        "LIST" => MessageKind::X1List,
        "SHOW" => MessageKind::X1Show,
        "MONITOR" => MessageKind::X1Monitor,
        "MONITOR2" => MessageKind::X1Monitor2,
        "RATING" => MessageKind::X1Rating,
        "GETBUOYCOUNT" => MessageKind::X1GetBuoyCount,
        "ERROR" => MessageKind::X1Error,
        _ => MessageKind::X1Other,
    }
}

/// `[<sub>]` after the tag of `CHAT` and the monitors (`name` is the field
/// of the bracket): the bracket's bytes and what follows `]`.
#[inline]
fn x1_sub(name: Field, i: &[u8]) -> Result<(&[u8], &[u8]), nom::Err<ParseError>> {
    let Some(inner) = i.strip_prefix(b"[") else {
        return Err(expected_e(i, b"[", name, Expected::OpenBracket));
    };
    let Some(close) = inner.iter().position(|&b| b == b']') else {
        return Err(fail(0, Field::GameId, Problem::Missing));
    };
    Ok((&inner[..close], &inner[close + 1..]))
}

/// The bracket's text checked as a whole token ending at `]`; `after` is
/// what follows `]`.
#[inline]
fn x1_sub_token<'a>(
    name: Field,
    max: usize,
    class: Class,
    s: &'a [u8],
    after: &[u8],
) -> Result<&'a str, nom::Err<ParseError>> {
    checked(name, s, &[], max, class).map_err(|e| {
        e.map(|mut e| {
            e.remaining += after.len() + 1;
            e
        })
    })
}

/// A `##[WHO]` entry: name, protocol, status and the optional game and
/// side.
#[allow(clippy::type_complexity)]
fn who_parts(
    payload: &[u8],
) -> Result<(&str, &str, &str, Option<(&str, &str)>), nom::Err<ParseError>> {
    let s = text_str(Field::Entry, payload)?;
    let word = |b: &str| -> bool {
        !b.is_empty() && b.len() <= Word::MAX_LEN && b.bytes().all(|x| x.is_ascii_graphic())
    };
    let mut it = s.split(' ');
    let parts = [
        it.next(),
        it.next(),
        it.next(),
        it.next(),
        it.next(),
        it.next(),
    ];
    match parts {
        [Some(n), Some(p), Some(st), g, sd, None]
            if word(n)
                && word(p)
                && word(st)
                && g.is_some() == sd.is_some()
                && g.is_none_or(word)
                && sd.is_none_or(word) =>
        {
            Ok((n, p, st, g.zip(sd)))
        }
        _ => Err(expected_e(payload, b"", Field::Entry, Expected::WhoEntry)),
    }
}

/// `##[GETBUOYCOUNT] <n>`: the count.
fn buoy_count_part(payload: &[u8]) -> Result<i64, nom::Err<ParseError>> {
    let (neg, d) = match payload.strip_prefix(b"-") {
        Some(d) => (true, d),
        None => (false, payload),
    };
    if d.is_empty() {
        return Err(fail(0, Field::Count, Problem::Empty));
    }
    let n = digits(Field::Count, 18, d, &[])? as i64;
    Ok(if neg { -n } else { n })
}

/// An x1 reply line, built in the result as [`ServerMessage::X1`].
#[inline]
fn x1_reply_message(line: &[u8]) -> Result<ServerMessage<'_>, DecodeError> {
    use ServerMessage::X1;
    let (tag_s, mut i) = part!(line, MessageKind::X1Reply, x1_tag(line));
    let k = x1_kind(tag_s);
    // Sub-bracket for CHAT / MONITOR / MONITOR2.
    let mut sub: Option<&[u8]> = None;
    let sub_field = match tag_s {
        "CHAT" => Some(Field::Sender),
        "MONITOR" | "MONITOR2" => Some(Field::GameId),
        _ => None,
    };
    if let Some(f) = sub_field {
        let (s, after) = part!(line, k, x1_sub(f, i));
        sub = Some(s);
        i = after;
    }
    let Some(payload) = i.strip_prefix(b" ") else {
        return Err(part_error(
            expected_e(i, b" ", Field::Payload, Expected::Space),
            k,
            line,
        ));
    };
    if payload == b"+OK" && sub.is_none() {
        return Ok(X1(X1Reply::Ok(Tag::from_checked(tag_s))));
    }
    macro_rules! payload_text {
        () => {
            Text::from_checked(part!(line, k, text_str(Field::Payload, payload)))
        };
    }
    let sub = sub.unwrap_or(b"");
    match tag_s {
        "SHOW" => Ok(X1(X1Reply::Show(payload_text!()))),
        "MONITOR2" => {
            let id = part!(
                line,
                k,
                x1_sub_token(Field::GameId, GameId::MAX_LEN, Class::GameId, sub, i)
            );
            Ok(X1(X1Reply::Monitor2 {
                game_id: GameId::from_checked(id),
                line: payload_text!(),
            }))
        }
        "MONITOR" => {
            let id = part!(
                line,
                k,
                x1_sub_token(Field::GameId, GameId::MAX_LEN, Class::GameId, sub, i)
            );
            Ok(X1(X1Reply::Monitor {
                game_id: GameId::from_checked(id),
                line: payload_text!(),
            }))
        }
        "LOGIN" if payload == b"+OK x1" => Ok(X1(X1Reply::LoginOk)),
        "CHAT" => {
            let sender = part!(
                line,
                k,
                x1_sub_token(Field::Sender, UserName::MAX_LEN, Class::Name, sub, i)
            );
            Ok(X1(X1Reply::Chat {
                sender: UserName::from_checked(sender),
                text: payload_text!(),
            }))
        }
        "WHO" => {
            let (n, p, st, game) = part!(line, k, who_parts(payload));
            Ok(X1(X1Reply::Who(WhoEntry {
                name: Word::from_checked(n),
                protocol: Word::from_checked(p),
                status: Word::from_checked(st),
                game: game.map(|(g, sd)| (Word::from_checked(g), Word::from_checked(sd))),
            })))
        }
        "LIST" => {
            let (_, id) = part!(
                line,
                k,
                all_checked(Field::GameId, payload, GameId::MAX_LEN, Class::GameId)
            );
            Ok(X1(X1Reply::List(GameId::from_checked(id))))
        }
        // shogi-server's `##[RATING] <name> \t <rate> @<date>`: a TAB is
        // read here, and nowhere else.
        "RATING" => Ok(X1(X1Reply::Rating(RatingText::from_checked(part!(
            line,
            k,
            text_str_of(Field::Payload, payload, crate::types::is_rating_byte)
        ))))),
        "GETBUOYCOUNT" => Ok(X1(X1Reply::BuoyCount(part!(
            line,
            k,
            buoy_count_part(payload)
        )))),
        "VERSION" => Ok(X1(X1Reply::Version(payload_text!()))),
        "HELP" => Ok(X1(X1Reply::Help(payload_text!()))),
        "ERROR" => Ok(X1(X1Reply::Error(payload_text!()))),
        _ => Ok(X1(X1Reply::Other {
            tag: Tag::from_checked(tag_s),
            text: payload_text!(),
        })),
    }
}

/// An x1 reply line, `##[TAG]...` ([`spec::csa`](crate::spec::csa), *Extended mode
/// (x1)*).
///
/// # Errors
/// A failure naming the reply's tag and field.
pub fn x1_reply(line: &[u8]) -> PResult<'_, X1Reply<'_>> {
    match as_nom(line, x1_reply_message(line))? {
        (r, ServerMessage::X1(x)) => Ok((r, x)),
        // x1_reply_message builds nothing else.
        (r, _) => failure(r.len(), Field::Tag, Problem::Missing),
    }
}

/// `LOGIN:<name> OK` / `LOGIN:incorrect` after `LOGIN:`: the name, or
/// `None` for `incorrect`.
#[inline]
fn login_reply_parts(rest: &[u8]) -> Result<Option<&str>, nom::Err<ParseError>> {
    if rest == b"incorrect" {
        return Ok(None);
    }
    let Some(name) = rest.strip_suffix(b" OK") else {
        // `LOGIN:<name> <word>`: the word is wrong; no space: cut off.
        return Err(match rest.iter().rposition(|&b| b == b' ') {
            Some(sp) => expected_e(&rest[sp + 1..], b"", Field::Result, Expected::OkOrIncorrect),
            None => fail(0, Field::Result, Problem::Missing),
        });
    };
    checked(
        Field::Name,
        name,
        &rest[name.len()..],
        UserName::MAX_LEN,
        Class::Name,
    )
    .map(Some)
}

/// `REJECT:<game id> by <name>` after `REJECT:`.
fn reject_reply_parts(rest: &[u8]) -> Result<(&str, &str), nom::Err<ParseError>> {
    let Some(sp) = rest.windows(4).position(|w| w == b" by ") else {
        return Err(fail(0, Field::By, Problem::Missing));
    };
    let id = checked(
        Field::GameId,
        &rest[..sp],
        &rest[sp..],
        GameId::MAX_LEN,
        Class::GameId,
    )?;
    Ok((id, text_str(Field::By, &rest[sp + 4..])?))
}

/// A `Key:Value` line of a `Game_Summary` block: `None` when the line is
/// none.
#[inline]
fn summary_field_parts(line: &[u8]) -> Option<Result<(&str, &str), nom::Err<ParseError>>> {
    let colon = line.iter().position(|&b| b == b':')?;
    let key = &line[..colon];
    if !is_summary_key(key) {
        return None;
    }
    // A summary key is graphic ASCII: only its length is left to check
    // (`checked` names the fault of a longer one).
    let key = match core::str::from_utf8(key) {
        Ok(k) if key.len() <= 64 => Ok(k),
        _ => checked(Field::Key, key, &line[colon..], 64, Class::Graphic),
    };
    Some(key.and_then(|key| Ok((key, text_str(Field::Value, &line[colon + 1..])?))))
}

/// One server line (terminator removed): the whole grammar of server
/// lines, `Game_Summary` lines included (context-free: a move inside the
/// Position block is a [`ServerMessage::Move`]). A line that is no server
/// line is [`ServerMessage::Unrecognised`].
///
/// # Errors
/// A failure naming the kind of line, the field and where.
pub fn server_line(line: &[u8]) -> PResult<'_, ServerMessage<'_>> {
    as_nom(line, decode_server_line(line))
}

/// The free-text hint shogi-server sends after some malformed `LOGIN`
/// lines (the recorded transcript, §4).
pub(crate) const LOGIN_USAGE: &[u8] = b"type 'LOGIN name password' or 'LOGIN name password x1'";

/// Decodes one server line: the line's parts, then the message built once,
/// here, in the result.
pub(crate) fn decode_server_line(line: &[u8]) -> Result<ServerMessage<'_>, DecodeError> {
    use MessageKind as K;
    let Some(&first) = line.first() else {
        return Ok(ServerMessage::KeepAlive);
    };
    match first {
        b'+' | b'-' if line.len() == 1 => {
            let side = if first == b'+' {
                Side::Black
            } else {
                Side::White
            };
            return Ok(ServerMessage::Summary(SummaryLine::SideToMove(side)));
        }
        b'+' | b'-' => {
            return match server_move(line) {
                Ok((mv, time)) => Ok(ServerMessage::Move { mv, time }),
                Err(e) => Err(e.in_message(K::Move).into_decode_error(line)),
            };
        }
        b'#' if line.starts_with(b"##[") => return x1_reply_message(line),
        b'#' => {
            // A known word with bytes after it (`#WIN x`) is that kind of
            // line, malformed: the bytes after it are trailing.
            let word = |w: &str| line.starts_with(w.as_bytes()).then_some(w.len());
            if let Some((r, n)) = EndReason::ALL
                .iter()
                .find_map(|r| word(r.as_str()).map(|n| (*r, n)))
            {
                part!(line, K::Reason, end_of_line(&line[n..]));
                return Ok(ServerMessage::Reason(r));
            }
            if let Some((o, n)) = GameResult::ALL
                .iter()
                .find_map(|o| word(o.as_str()).map(|n| (*o, n)))
            {
                part!(line, K::GameResult, end_of_line(&line[n..]));
                return Ok(ServerMessage::GameResult(o));
            }
            return Ok(ServerMessage::Unrecognised(Cow::Borrowed(line)));
        }
        b'%' => {
            let (special, k) = if line.starts_with(b"%TORYO") {
                (ServerSpecial::Toryo, K::Toryo)
            } else if line.starts_with(b"%KACHI") {
                (ServerSpecial::Kachi, K::Kachi)
            } else {
                return Ok(ServerMessage::Unrecognised(Cow::Borrowed(line)));
            };
            let (_, time) = part!(line, k, time_suffix(&line[6..]));
            return Ok(ServerMessage::Special { special, time });
        }
        b'P' if line.len() >= 2 && matches!(line[1], b'1'..=b'9' | b'I' | b'+' | b'-') => {
            let (_, s) = part!(line, K::Position, position_line(line));
            return Ok(ServerMessage::Summary(SummaryLine::Position(Raw(
                Cow::Borrowed(s),
            ))));
        }
        _ => {}
    }
    // The fixed-text lines start with distinct bytes: one test of the first
    // byte picks the one candidate (a `Key:Value` line of a `Game_Summary`,
    // most of a server's lines, passes over them in one step).
    match first {
        b'L' => {
            if let Some(rest) = line.strip_prefix(b"LOGIN:") {
                return match part!(line, K::LoginReply, login_reply_parts(rest)) {
                    Some(name) => Ok(ServerMessage::LoginOk(UserName::from_checked(name))),
                    None => Ok(ServerMessage::LoginIncorrect),
                };
            }
            if line == b"LOGOUT:completed" {
                return Ok(ServerMessage::LogoutCompleted);
            }
        }
        b'S' => {
            if let Some(rest) = line.strip_prefix(b"START:") {
                let (_, id) = part!(
                    line,
                    K::Start,
                    all_checked(Field::GameId, rest, GameId::MAX_LEN, Class::GameId)
                );
                return Ok(ServerMessage::Start(GameId::from_checked(id)));
            }
        }
        b'R' => {
            if let Some(rest) = line.strip_prefix(b"REJECT:") {
                let (id, by) = part!(line, K::RejectReply, reject_reply_parts(rest));
                return Ok(ServerMessage::Reject {
                    game_id: GameId::from_checked(id),
                    by: Text::from_checked(by),
                });
            }
        }
        b't' if line == LOGIN_USAGE => return Ok(ServerMessage::LoginUsage),
        b'u' => {
            if let Some(name) = line
                .strip_prefix(b"username ")
                .and_then(|rest| rest.strip_suffix(b" is already connected"))
            {
                let after = &line[9 + name.len()..];
                let s = part!(
                    line,
                    K::AlreadyConnected,
                    checked(Field::Name, name, after, UserName::MAX_LEN, Class::Name)
                );
                return Ok(ServerMessage::AlreadyConnected(UserName::from_checked(s)));
            }
        }
        b'B' => {
            if let Some(rest) = line.strip_prefix(b"BEGIN ") {
                let (_, b) = part!(line, K::Begin, summary_block(rest));
                return Ok(ServerMessage::Summary(SummaryLine::Begin(Raw(
                    Cow::Borrowed(b),
                ))));
            }
        }
        b'E' => {
            if let Some(rest) = line.strip_prefix(b"END ") {
                let (_, b) = part!(line, K::End, summary_block(rest));
                return Ok(ServerMessage::Summary(SummaryLine::End(Raw(
                    Cow::Borrowed(b),
                ))));
            }
        }
        _ => {}
    }
    if let Some(r) = summary_field_parts(line) {
        let (key, value) = part!(line, K::SummaryField, r);
        return Ok(ServerMessage::Summary(SummaryLine::Field {
            key: Raw(Cow::Borrowed(key)),
            value: Text::from_checked(value),
        }));
    }
    Ok(ServerMessage::Unrecognised(Cow::Borrowed(line)))
}

/// A move confirmation's move and time (`line` starts with a sign and is
/// longer than one byte).
#[inline]
fn server_move(line: &[u8]) -> Result<(CsaMove, Option<MoveTime>), ParseError> {
    let (rest, mv) = csa_move(Field::Move, line).map_err(nom_error)?;
    let (_, time) = time_suffix(rest).map_err(nom_error)?;
    Ok((mv, time))
}

/// The error of a complete parser's failure.
#[inline]
fn nom_error(e: nom::Err<ParseError>) -> ParseError {
    match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => e,
        // Complete parsers never ask for more input.
        nom::Err::Incomplete(_) => ParseError {
            message: MessageKind::Line,
            field: Field::Line,
            problem: Problem::Missing,
            remaining: 0,
        },
    }
}

/// Checks a position line as a whole (the `Game_Summary` and kifu readers).
pub(crate) fn check_position_line(line: &[u8]) -> Result<&str, DecodeError> {
    whole(line, kind(position_line(line), MessageKind::Position))
}

#[cfg(test)]
mod tests {
    use super::printable_prefix;

    /// Printable ASCII is 0x20 (space) to 0x7E (`~`): every byte value at
    /// every place of a block of eight, and blocks after the first.
    #[test]
    fn printable_prefix_takes_whole_blocks_of_printable_ascii() {
        for at in 0..8 {
            for v in 0..=255u8 {
                let mut block = *b"abcdefgh";
                block[at] = v;
                let printable = (0x20..=0x7e).contains(&v);
                assert_eq!(
                    printable_prefix(&block),
                    if printable { 8 } else { 0 },
                    "{v:#x} at {at}"
                );
                let mut two = [b' '; 19];
                two[8 + at] = v;
                assert_eq!(
                    printable_prefix(&two),
                    if printable { 16 } else { 8 },
                    "{v:#x} at {}",
                    8 + at
                );
            }
        }
        assert_eq!(printable_prefix(b""), 0);
        assert_eq!(printable_prefix(b"~ ~ ~ ~"), 0); // shorter than a block
    }
}
