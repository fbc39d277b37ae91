//! The parsers of the grammar rules of `docs/specs/csa.md` (*Plain CSA
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
use crate::moves::{BuoyMoves, CsaMove, MOVE_LEN, move_error_offset};
use crate::types::{
    Class, GameId, GameName, MoveTime, Password, Side, SidePreference, Tag, Text, UserName, Word,
    check_token, is_text_byte,
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
    let k = i
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(want.len());
    match i.get(k) {
        Some(&byte) => failure(
            i.len() - k,
            field,
            Problem::Invalid {
                byte,
                expected: what,
            },
        ),
        None => failure(0, field, Problem::Missing),
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
/// of the line (`docs/specs/csa.md`, *Transport and lexical rules*: fields
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

/// ` <name>`: a login name (`docs/specs/csa.md`, *Plain CSA mode*).
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
/// [`Text::MAX_LEN`] bytes.
///
/// # Errors
/// [`Problem::Invalid`], [`Problem::TooLong`], [`Problem::NotUtf8`].
pub fn text(name: Field, i: &[u8]) -> PResult<'_, Text<'_>> {
    if let Some(idx) = i.iter().position(|&b| !is_text_byte(b)) {
        return failure(
            i.len() - idx,
            name,
            Problem::Invalid {
                byte: i[idx],
                expected: Expected::Text,
            },
        );
    }
    if i.len() > Text::MAX_LEN {
        return failure(
            i.len() - Text::MAX_LEN,
            name,
            Problem::TooLong {
                len: i.len(),
                max: Text::MAX_LEN,
            },
        );
    }
    match core::str::from_utf8(i) {
        Ok(s) => Ok((&i[i.len()..], Text::from_checked(s))),
        Err(e) => failure(i.len() - e.valid_up_to(), name, Problem::NotUtf8),
    }
}

/// ` <text>` to the end of the line; the space may be missing at the end
/// of the line (`%%CHAT` with no text).
///
/// # Errors
/// [`Problem::Invalid`] a space; as [`text`].
pub fn rest_text(name: Field, i: &[u8]) -> PResult<'_, Text<'_>> {
    let t = match i.first() {
        None => i,
        Some(b' ') => &i[1..],
        Some(_) => return expected(i, b" ", name, Expected::Space),
    };
    text(name, t)
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
/// [`Problem::CsaMove`] with board-core's reason.
pub fn csa_move(name: Field, i: &[u8]) -> PResult<'_, CsaMove> {
    let n = i.len().min(MOVE_LEN);
    let (tok, rest) = i.split_at(n);
    match CsaMove::parse(tok) {
        Ok(mv) => Ok((rest, mv)),
        Err(e) => failure(
            i.len() - move_error_offset(&e).min(n),
            name,
            Problem::CsaMove(e),
        ),
    }
}

/// ` <moves>` of `%%SETBUOY`: CSA moves one after another.
///
/// # Errors
/// As [`field`]; [`Problem::TooLong`]; [`Problem::CsaMove`] at the move.
pub fn buoy_moves(i: &[u8]) -> PResult<'_, BuoyMoves<'_>> {
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
            return failure(at(idx), Field::Moves, Problem::CsaMove(e));
        }
    }
    let s = core::str::from_utf8(f)
        .map_err(|_| failure::<()>(at(0), Field::Moves, Problem::NotUtf8).unwrap_err())?;
    Ok((rest, BuoyMoves::from_checked(s)))
}

/// `LOGIN <name> <password> [x1]` after the keyword.
///
/// # Errors
/// As the fields; [`Problem::Invalid`] `x1` for another mode word.
pub fn login(i: &[u8]) -> PResult<'_, ClientMessage<'_>> {
    let (i, name) = user_name(Field::Name, i)?;
    let (i, password) = password(i)?;
    let (i, x1) = match opt_field(Field::Mode, i)? {
        (r, None) => (r, false),
        (r, Some(b"x1")) => (r, true),
        (r, Some(f)) => {
            let k = f.iter().zip(b"x1").position(|(a, b)| a != b).unwrap_or(2);
            return failure(
                r.len() + f.len() - k,
                Field::Mode,
                Problem::Invalid {
                    byte: f[k],
                    expected: Expected::X1,
                },
            );
        }
    };
    let (i, ()) = end_of_line(i)?;
    Ok((i, ClientMessage::Login { name, password, x1 }))
}

/// A client move line: `+7776FU` or `+7776FU,'<comment>`
/// (`docs/specs/csa.md`, *Moves*).
///
/// # Errors
/// [`Problem::CsaMove`]; [`Problem::Invalid`] `,'` and a comment.
pub fn client_move(i: &[u8]) -> PResult<'_, ClientMessage<'_>> {
    let (rest, mv) = csa_move(Field::Move, i)?;
    if rest.is_empty() {
        return Ok((rest, ClientMessage::Move { mv, comment: None }));
    }
    let Ok((c, _)) = tag::<_, _, ParseError>(&b",'"[..]).parse(rest) else {
        return expected(rest, b",'", Field::Comment, Expected::Comment);
    };
    let (rest, comment) = text(Field::Comment, c)?;
    Ok((
        rest,
        ClientMessage::Move {
            mv,
            comment: Some(comment),
        },
    ))
}

/// An x1 command (`%%...`, `docs/specs/csa.md`, *Extended mode (x1)*):
/// `kw` is its keyword, `i` what follows it. `Error` (not `Failure`) for a
/// keyword that is no x1 command.
///
/// # Errors
/// As the fields of the command.
pub fn x1_command<'a>(kw: &[u8], i: &'a [u8]) -> PResult<'a, X1Command<'a>> {
    let simple =
        |cmd: X1Command<'static>, k: MessageKind| kind(end_of_line(i).map(|(r, ())| (r, cmd)), k);
    match kw {
        b"%%WHO" => simple(X1Command::Who, MessageKind::Who),
        b"%%LIST" => simple(X1Command::List, MessageKind::List),
        b"%%RATING" => simple(X1Command::Rating, MessageKind::Rating),
        b"%%VERSION" => simple(X1Command::Version, MessageKind::Version),
        b"%%HELP" => simple(X1Command::Help, MessageKind::Help),
        b"%%CHAT" => kind(
            rest_text(Field::Text, i).map(|(r, t)| (r, X1Command::Chat(t))),
            MessageKind::Chat,
        ),
        b"%%GAME" if i.is_empty() => Ok((i, X1Command::Game(None))),
        b"%%GAME" => kind(
            game_request(i).map(|(r, g)| (r, X1Command::Game(Some(g)))),
            MessageKind::Game,
        ),
        b"%%CHALLENGE" => kind(
            game_request(i).map(|(r, g)| (r, X1Command::Challenge(g))),
            MessageKind::Challenge,
        ),
        b"%%SHOW" => kind(game_id_command(i, X1Command::Show), MessageKind::Show),
        b"%%MONITORON" => kind(
            game_id_command(i, X1Command::MonitorOn),
            MessageKind::MonitorOn,
        ),
        b"%%MONITOROFF" => kind(
            game_id_command(i, X1Command::MonitorOff),
            MessageKind::MonitorOff,
        ),
        b"%%MONITOR2ON" => kind(
            game_id_command(i, X1Command::Monitor2On),
            MessageKind::Monitor2On,
        ),
        b"%%MONITOR2OFF" => kind(
            game_id_command(i, X1Command::Monitor2Off),
            MessageKind::Monitor2Off,
        ),
        b"%%SETBUOY" => kind(set_buoy(i), MessageKind::SetBuoy),
        b"%%DELETEBUOY" => kind(
            buoy_command(i, X1Command::DeleteBuoy),
            MessageKind::DeleteBuoy,
        ),
        b"%%GETBUOYCOUNT" => kind(
            buoy_command(i, X1Command::GetBuoyCount),
            MessageKind::GetBuoyCount,
        ),
        b"%%FORK" => kind(fork(i), MessageKind::Fork),
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
    let (i, name) = game_name(Field::GameName, i)?;
    let (i, side) = side_preference(i)?;
    let (i, ()) = end_of_line(i)?;
    Ok((i, GameRequest { name, side }))
}

fn game_id_command<'a>(
    i: &'a [u8],
    f: fn(GameId<'a>) -> X1Command<'a>,
) -> PResult<'a, X1Command<'a>> {
    let (i, id) = game_id(i)?;
    let (i, ()) = end_of_line(i)?;
    Ok((i, f(id)))
}

fn buoy_command<'a>(
    i: &'a [u8],
    f: fn(GameName<'a>) -> X1Command<'a>,
) -> PResult<'a, X1Command<'a>> {
    let (i, name) = game_name(Field::BuoyName, i)?;
    let (i, ()) = end_of_line(i)?;
    Ok((i, f(name)))
}

/// ` <buoy name> <moves> [<count>]` of `%%SETBUOY`.
///
/// # Errors
/// As the fields.
pub fn set_buoy(i: &[u8]) -> PResult<'_, X1Command<'_>> {
    let (i, name) = game_name(Field::BuoyName, i)?;
    let (i, moves) = buoy_moves(i)?;
    let (i, count) = match opt_field(Field::Count, i)? {
        (r, None) => (r, None),
        (r, Some(f)) => (r, Some(digits(Field::Count, 9, f, r)? as u32)),
    };
    let (i, ()) = end_of_line(i)?;
    Ok((i, X1Command::SetBuoy { name, moves, count }))
}

/// ` <game id> [<buoy name>] [<nth>]` of `%%FORK`.
///
/// # Errors
/// As the fields.
pub fn fork(i: &[u8]) -> PResult<'_, X1Command<'_>> {
    let (mut i, game_id) = game_id(i)?;
    let mut buoy = None;
    let mut nth = None;
    if let (r, Some(f)) = opt_field(Field::BuoyName, i)? {
        i = r;
        if f.iter().all(u8::is_ascii_digit) {
            nth = Some(digits(Field::Nth, 9, f, r)? as u32);
        } else {
            let s = checked(Field::BuoyName, f, r, GameName::MAX_LEN, Class::Name)?;
            buoy = Some(GameName::from_checked(s));
            if let (r, Some(f)) = opt_field(Field::Nth, i)? {
                i = r;
                nth = Some(digits(Field::Nth, 9, f, r)? as u32);
            }
        }
    }
    let (i, ()) = end_of_line(i)?;
    Ok((i, X1Command::Fork { game_id, buoy, nth }))
}

/// One client line (terminator removed): the whole grammar of client
/// lines. A line that is no client command is
/// [`ClientMessage::Unrecognised`].
///
/// # Errors
/// A failure naming the kind of line, the field and where.
#[inline]
pub fn client_line(line: &[u8]) -> PResult<'_, ClientMessage<'_>> {
    let Some(&first) = line.first() else {
        return Ok((line, ClientMessage::KeepAlive));
    };
    if first == b'+' || first == b'-' {
        return kind(client_move(line), MessageKind::Move);
    }
    let (rest, kw) = take_till(|b| b == b' ').parse(line)?;
    let simple = |msg: ClientMessage<'static>, k: MessageKind| {
        kind(end_of_line(rest).map(|(r, ())| (r, msg)), k)
    };
    match kw {
        b"LOGIN" => kind(login(rest), MessageKind::Login),
        b"LOGOUT" => simple(ClientMessage::Logout, MessageKind::Logout),
        b"AGREE" => kind(
            opt_game_id(rest)
                .and_then(|(r, id)| end_of_line(r).map(|(r, ())| (r, ClientMessage::Agree(id)))),
            MessageKind::Agree,
        ),
        b"REJECT" => kind(
            opt_game_id(rest)
                .and_then(|(r, id)| end_of_line(r).map(|(r, ())| (r, ClientMessage::Reject(id)))),
            MessageKind::Reject,
        ),
        b"%TORYO" => simple(
            ClientMessage::Special(SpecialMove::Toryo),
            MessageKind::Toryo,
        ),
        b"%KACHI" => simple(
            ClientMessage::Special(SpecialMove::Kachi),
            MessageKind::Kachi,
        ),
        b"%CHUDAN" => simple(
            ClientMessage::Special(SpecialMove::Chudan),
            MessageKind::Chudan,
        ),
        _ if kw.starts_with(b"%%") => match x1_command(kw, rest) {
            Ok((r, cmd)) => Ok((r, ClientMessage::X1(cmd))),
            Err(nom::Err::Error(_)) => Ok((
                &line[line.len()..],
                ClientMessage::Unrecognised(Cow::Borrowed(line)),
            )),
            Err(e) => Err(e),
        },
        _ => Ok((
            &line[line.len()..],
            ClientMessage::Unrecognised(Cow::Borrowed(line)),
        )),
    }
}

/// Decodes one client line with [`client_line`].
pub(crate) fn decode_client_line(line: &[u8]) -> Result<ClientMessage<'_>, DecodeError> {
    whole(line, client_line(line))
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
/// line (`docs/specs/csa.md`, *Moves*).
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
    match MoveTime::parse(t) {
        Ok(v) => Ok((&t[t.len()..], Some(v))),
        Err((idx, p)) => failure(t.len() - idx, Field::Time, p),
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

/// An x1 reply line, `##[TAG]...` (`docs/specs/csa.md`, *Extended mode
/// (x1)*).
///
/// # Errors
/// A failure naming the reply's tag and field.
pub fn x1_reply(line: &[u8]) -> PResult<'_, X1Reply<'_>> {
    let Ok((after, _)) = tag::<_, _, ParseError>(&b"##["[..]).parse(line) else {
        return kind(
            expected(line, b"##[", Field::Tag, Expected::OpenBracket),
            MessageKind::X1Reply,
        );
    };
    let (rest, tag_bytes) = take_till(|b| b == b']').parse(after)?;
    if rest.is_empty() {
        return kind(
            failure(0, Field::Tag, Problem::Missing),
            MessageKind::X1Reply,
        );
    }
    let tag_s = kind(
        checked(Field::Tag, tag_bytes, rest, Tag::MAX_LEN, Class::Tag).map(|s| (rest, s)),
        MessageKind::X1Reply,
    )?
    .1;
    let k: MessageKind = match tag_s {
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
    };
    kind(x1_reply_body(tag_s, &rest[1..]), k)
}

fn x1_reply_body<'a>(tag_s: &'a str, mut i: &'a [u8]) -> PResult<'a, X1Reply<'a>> {
    // Sub-bracket for CHAT / MONITOR / MONITOR2.
    let mut sub: Option<(&[u8], &[u8])> = None;
    if matches!(tag_s, "CHAT" | "MONITOR" | "MONITOR2") {
        let f = if tag_s == "CHAT" {
            Field::Sender
        } else {
            Field::GameId
        };
        let Ok((inner, _)) = tag::<_, _, ParseError>(&b"["[..]).parse(i) else {
            return expected(i, b"[", f, Expected::OpenBracket);
        };
        let (rest, s) = take_till(|b| b == b']').parse(inner)?;
        if rest.is_empty() {
            return failure(0, Field::GameId, Problem::Missing);
        }
        sub = Some((s, &rest[1..]));
        i = &rest[1..];
    }
    let Ok((payload, _)) = tag::<_, _, ParseError>(&b" "[..]).parse(i) else {
        return expected(i, b" ", Field::Payload, Expected::Space);
    };
    let end = &payload[payload.len()..];
    let payload_text = || text(Field::Payload, payload).map(|(_, t)| t);
    let word = |b: &[u8]| -> bool {
        !b.is_empty() && b.len() <= Word::MAX_LEN && b.iter().all(|&x| x.is_ascii_graphic())
    };
    if payload == b"+OK" && sub.is_none() {
        return Ok((end, X1Reply::Ok(Tag::from_checked(tag_s))));
    }
    // The sub-bracket's text, checked as a whole token ending at `]`.
    let sub_token = |name: Field, max: usize, class: Class| {
        let (s, after) = sub.unwrap_or((b"", i));
        // After the token: `]` and what follows it.
        checked(name, s, &[], max, class).map_err(|e| {
            e.map(|mut e| {
                e.remaining += after.len() + 1;
                e
            })
        })
    };
    let reply = match tag_s {
        "LOGIN" if payload == b"+OK x1" => X1Reply::LoginOk,
        "CHAT" => {
            let sender = sub_token(Field::Sender, UserName::MAX_LEN, Class::Name)?;
            X1Reply::Chat {
                sender: UserName::from_checked(sender),
                text: payload_text()?,
            }
        }
        "MONITOR" | "MONITOR2" => {
            let id =
                GameId::from_checked(sub_token(Field::GameId, GameId::MAX_LEN, Class::GameId)?);
            let line = payload_text()?;
            if tag_s == "MONITOR" {
                X1Reply::Monitor { game_id: id, line }
            } else {
                X1Reply::Monitor2 { game_id: id, line }
            }
        }
        "WHO" => {
            text(Field::Entry, payload)?;
            let Ok(s) = core::str::from_utf8(payload) else {
                return failure(payload.len(), Field::Entry, Problem::NotUtf8);
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
            let w = |x: &'a str| Word::from_checked(x);
            match parts {
                [Some(n), Some(p), Some(st), g, sd, None]
                    if word(n.as_bytes())
                        && word(p.as_bytes())
                        && word(st.as_bytes())
                        && g.is_some() == sd.is_some()
                        && g.is_none_or(|g| word(g.as_bytes()))
                        && sd.is_none_or(|g| word(g.as_bytes())) =>
                {
                    X1Reply::Who(WhoEntry {
                        name: w(n),
                        protocol: w(p),
                        status: w(st),
                        game: g.zip(sd).map(|(g, sd)| (w(g), w(sd))),
                    })
                }
                _ => {
                    return expected(payload, b"", Field::Entry, Expected::WhoEntry);
                }
            }
        }
        "LIST" => X1Reply::List(GameId::from_checked(
            all_checked(Field::GameId, payload, GameId::MAX_LEN, Class::GameId)?.1,
        )),
        "SHOW" => X1Reply::Show(payload_text()?),
        "RATING" => X1Reply::Rating(payload_text()?),
        "GETBUOYCOUNT" => {
            let (neg, d) = match payload.strip_prefix(b"-") {
                Some(d) => (true, d),
                None => (false, payload),
            };
            if d.is_empty() {
                return failure(d.len(), Field::Count, Problem::Empty);
            }
            let n = digits(Field::Count, 18, d, end)? as i64;
            X1Reply::BuoyCount(if neg { -n } else { n })
        }
        "VERSION" => X1Reply::Version(payload_text()?),
        "HELP" => X1Reply::Help(payload_text()?),
        "ERROR" => X1Reply::Error(payload_text()?),
        _ => X1Reply::Other {
            tag: Tag::from_checked(tag_s),
            text: payload_text()?,
        },
    };
    Ok((end, reply))
}

/// One server line (terminator removed): the whole grammar of server
/// lines, `Game_Summary` lines included (context-free: a move inside the
/// Position block is a [`ServerMessage::Move`]). A line that is no server
/// line is [`ServerMessage::Unrecognised`].
///
/// # Errors
/// A failure naming the kind of line, the field and where.
#[inline]
pub fn server_line(line: &[u8]) -> PResult<'_, ServerMessage<'_>> {
    let end = &line[line.len()..];
    let unrecognised = || Ok((end, ServerMessage::Unrecognised(Cow::Borrowed(line))));
    let Some(&first) = line.first() else {
        return Ok((line, ServerMessage::KeepAlive));
    };
    match first {
        b'+' | b'-' if line.len() == 1 => {
            let side = if first == b'+' {
                Side::Black
            } else {
                Side::White
            };
            return Ok((end, ServerMessage::Summary(SummaryLine::SideToMove(side))));
        }
        b'+' | b'-' => {
            let r = csa_move(Field::Move, line).and_then(|(rest, mv)| {
                time_suffix(rest).map(|(r, time)| (r, ServerMessage::Move { mv, time }))
            });
            return kind(r, MessageKind::Move);
        }
        b'#' if line.starts_with(b"##[") => {
            return x1_reply(line).map(|(r, x)| (r, ServerMessage::X1(x)));
        }
        b'#' => {
            // A known word with bytes after it (`#WIN x`) is that kind of
            // line, malformed: the bytes after it are trailing.
            let word = |w: &str| line.starts_with(w.as_bytes()).then_some(w.len());
            if let Some((r, n)) = EndReason::ALL
                .iter()
                .find_map(|r| word(r.as_str()).map(|n| (*r, n)))
            {
                let k = MessageKind::Reason;
                return kind(end_of_line(&line[n..]), k)
                    .map(|(r2, ())| (r2, ServerMessage::Reason(r)));
            }
            if let Some((o, n)) = GameResult::ALL
                .iter()
                .find_map(|o| word(o.as_str()).map(|n| (*o, n)))
            {
                let k = MessageKind::GameResult;
                return kind(end_of_line(&line[n..]), k)
                    .map(|(r2, ())| (r2, ServerMessage::GameResult(o)));
            }
            return unrecognised();
        }
        b'%' => {
            let (special, k) = if line.starts_with(b"%TORYO") {
                (ServerSpecial::Toryo, MessageKind::Toryo)
            } else if line.starts_with(b"%KACHI") {
                (ServerSpecial::Kachi, MessageKind::Kachi)
            } else {
                return unrecognised();
            };
            let r = time_suffix(&line[6..])
                .map(|(r, time)| (r, ServerMessage::Special { special, time }));
            return kind(r, k);
        }
        _ => {}
    }
    if let Some(rest) = line.strip_prefix(b"LOGIN:") {
        if rest == b"incorrect" {
            return Ok((end, ServerMessage::LoginIncorrect));
        }
        let Some(name) = rest.strip_suffix(b" OK") else {
            // `LOGIN:<name> <word>`: the word is wrong; no space: cut off.
            let r = match rest.iter().rposition(|&b| b == b' ') {
                Some(sp) => expected(&rest[sp + 1..], b"", Field::Result, Expected::OkOrIncorrect),
                None => failure(0, Field::Result, Problem::Missing),
            };
            return kind(r, MessageKind::LoginReply);
        };
        let r = checked(
            Field::Name,
            name,
            &rest[name.len()..],
            UserName::MAX_LEN,
            Class::Name,
        )
        .map(|s| (end, ServerMessage::LoginOk(UserName::from_checked(s))));
        return kind(r, MessageKind::LoginReply);
    }
    if line == b"LOGOUT:completed" {
        return Ok((end, ServerMessage::LogoutCompleted));
    }
    if let Some(rest) = line.strip_prefix(b"START:") {
        let r = all_checked(Field::GameId, rest, GameId::MAX_LEN, Class::GameId)
            .map(|(r, s)| (r, ServerMessage::Start(GameId::from_checked(s))));
        return kind(r, MessageKind::Start);
    }
    if let Some(rest) = line.strip_prefix(b"REJECT:") {
        let Some(sp) = rest.windows(4).position(|w| w == b" by ") else {
            return kind(
                failure(0, Field::By, Problem::Missing),
                MessageKind::RejectReply,
            );
        };
        let by = &rest[sp + 4..];
        let r = checked(
            Field::GameId,
            &rest[..sp],
            &rest[sp..],
            GameId::MAX_LEN,
            Class::GameId,
        )
        .and_then(|id| {
            text(Field::By, by).map(|(r, by)| {
                (
                    r,
                    ServerMessage::Reject {
                        game_id: GameId::from_checked(id),
                        by,
                    },
                )
            })
        });
        return kind(r, MessageKind::RejectReply);
    }
    if line == LOGIN_USAGE {
        return Ok((end, ServerMessage::LoginUsage));
    }
    if let Some(name) = line
        .strip_prefix(b"username ")
        .and_then(|rest| rest.strip_suffix(b" is already connected"))
    {
        let after = &line[9 + name.len()..];
        let r = checked(Field::Name, name, after, UserName::MAX_LEN, Class::Name).map(|s| {
            (
                end,
                ServerMessage::AlreadyConnected(UserName::from_checked(s)),
            )
        });
        return kind(r, MessageKind::AlreadyConnected);
    }
    if let Some(rest) = line.strip_prefix(b"BEGIN ") {
        let r = summary_block(rest).map(|(r, b)| {
            (
                r,
                ServerMessage::Summary(SummaryLine::Begin(Raw(Cow::Borrowed(b)))),
            )
        });
        return kind(r, MessageKind::Begin);
    }
    if let Some(rest) = line.strip_prefix(b"END ") {
        let r = summary_block(rest).map(|(r, b)| {
            (
                r,
                ServerMessage::Summary(SummaryLine::End(Raw(Cow::Borrowed(b)))),
            )
        });
        return kind(r, MessageKind::End);
    }
    if first == b'P' && line.len() >= 2 && matches!(line[1], b'1'..=b'9' | b'I' | b'+' | b'-') {
        return position_line(line).map(|(r, s)| {
            (
                r,
                ServerMessage::Summary(SummaryLine::Position(Raw(Cow::Borrowed(s)))),
            )
        });
    }
    if let Some(colon) = line.iter().position(|&b| b == b':') {
        let key = &line[..colon];
        if is_summary_key(key) {
            let r = checked(Field::Key, key, &line[colon..], 64, Class::Graphic).and_then(|key| {
                text(Field::Value, &line[colon + 1..]).map(|(r, value)| {
                    (
                        r,
                        ServerMessage::Summary(SummaryLine::Field {
                            key: Raw(Cow::Borrowed(key)),
                            value,
                        }),
                    )
                })
            });
            return kind(r, MessageKind::SummaryField);
        }
    }
    unrecognised()
}

/// The free-text hint shogi-server sends after some malformed `LOGIN`
/// lines (the recorded transcript, §4).
pub(crate) const LOGIN_USAGE: &[u8] = b"type 'LOGIN name password' or 'LOGIN name password x1'";

/// Decodes one server line with [`server_line`].
///
/// Move confirmations, most of a game's lines, take a direct path: their
/// parts (a 5-byte move, an optional time) come back by value and the
/// message is built once, in the result. Moving a finished
/// [`ServerMessage`] out through the parser layers cost 70% more time per
/// move line at the same instruction count (the copies' loads stall on
/// the stores just made).
pub(crate) fn decode_server_line(line: &[u8]) -> Result<ServerMessage<'_>, DecodeError> {
    if let [b'+' | b'-', _, ..] = line {
        return match server_move(line) {
            Ok((mv, time)) => Ok(ServerMessage::Move { mv, time }),
            Err(e) => Err(e.in_message(MessageKind::Move).into_decode_error(line)),
        };
    }
    whole(line, server_line(line))
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
