//! The grammar as nom parsers, one public function per rule, composable by
//! users (docs/specs/citrine.md, *Commands (host -> device) and replies
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
//! letters in the case shown in the spec note, `sd`/`tr`, `on`/`off`,
//! `x`, `ep`, `O-O`); fields are separated by any run of spaces or tabs
//! (docs/specs/citrine.md, *Link*: "fields are padded with runs of spaces or tabs").
//! Commands are case-insensitive (docs/specs/citrine.md, *Link*).
//!
//! ```
//! use novag_citrine::parse::{move_text, square};
//! let (rest, from) = square(b"e2-e4").unwrap();
//! assert_eq!((from.to_string().as_str(), rest), ("e2", &b"-e4"[..]));
//! let (_, mv) = move_text(b"e5xd6ep").unwrap();
//! assert_eq!(mv.to_string(), "e5xd6ep");
//! ```

use nom::bytes::complete::{tag, tag_no_case, take_while1};
use nom::character::complete::{space0, space1};
use nom::{IResult, Parser};

use crate::decode::Leniency;
use crate::error::{DecodeError, Field, MessageKind, Problem};
use crate::message::{Command, DiagramRow, HostMove, LevelTarget, MoveLine, RawLine, Reply};
use crate::types::{
    ClockTime, Level, LevelKind, MoveNumber, MoveText, NormalMove, Promotion, Token,
};
use crate::vocab::{CastlingSide, Color, Piece, Square, role_from_letter, square as square_at};

/// Input type: the bytes of one line.
type In<'a> = &'a [u8];

/// A parse failure: where (`input`, the input remaining at the failure),
/// in which kind of line, which field, and what was wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError<'a> {
    /// The input remaining where the failure happened (a suffix of the
    /// line).
    pub input: &'a [u8],
    /// The kind of line, when the failing parser knows it.
    pub message: Option<MessageKind>,
    /// The field, when the failing parser knows it.
    pub field: Option<Field>,
    /// What was wrong.
    pub problem: Problem,
}

impl ParseError<'_> {
    /// The error as a [`DecodeError`] of `line`, the whole line this parse
    /// started on (the offset is where [`input`](Self::input) starts in it,
    /// at most `line.len()`). Unknown kinds default to
    /// [`MessageKind::Reply`], unknown fields to [`Field::Keyword`].
    pub fn into_decode_error(self, line: &[u8]) -> DecodeError {
        // `input` is a sub-slice of `line`: its start address minus the
        // line's is the offset (plain address arithmetic, no unsafe).
        let offset = (self.input.as_ptr() as usize)
            .saturating_sub(line.as_ptr() as usize)
            .min(line.len());
        DecodeError::new(
            self.message.unwrap_or(MessageKind::Reply),
            self.field.unwrap_or(Field::Keyword),
            offset,
            self.problem,
        )
    }
}

impl<'a> nom::error::ParseError<In<'a>> for ParseError<'a> {
    fn from_error_kind(input: In<'a>, _kind: nom::error::ErrorKind) -> Self {
        ParseError {
            input,
            message: None,
            field: None,
            problem: if input.is_empty() {
                Problem::Missing
            } else {
                Problem::Invalid
            },
        }
    }
    fn append(_input: In<'a>, _kind: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

/// The result of every parser here.
pub type ParseResult<'a, T> = IResult<&'a [u8], T, ParseError<'a>>;

/// A failure at `at` (`Missing` when the line ended there).
fn fail<'a, T>(at: In<'a>, field: Field, problem: Problem) -> ParseResult<'a, T> {
    let problem = if at.is_empty() && problem == Problem::Invalid {
        Problem::Missing
    } else {
        problem
    };
    Err(nom::Err::Error(ParseError {
        input: at,
        message: None,
        field: Some(field),
        problem,
    }))
}

/// Names `f` as the failing field when `r` did not name one.
fn in_field<T>(f: Field, r: ParseResult<'_, T>) -> ParseResult<'_, T> {
    r.map_err(|e| {
        e.map(|mut pe| {
            pe.field.get_or_insert(f);
            pe
        })
    })
}

/// Names `m` as the kind of line when `r` did not name one.
fn in_message<T>(m: MessageKind, r: ParseResult<'_, T>) -> ParseResult<'_, T> {
    r.map_err(|e| {
        e.map(|mut pe| {
            pe.message.get_or_insert(m);
            pe
        })
    })
}

/// One or more spaces or tabs (the field separator).
pub fn blanks(i: &[u8]) -> ParseResult<'_, &[u8]> {
    space1(i)
}

/// Optional trailing spaces or tabs, then the end of the line.
pub fn end_of_line(i: &[u8]) -> ParseResult<'_, ()> {
    let (i, _) = space0(i)?;
    if i.is_empty() {
        Ok((i, ()))
    } else {
        fail(i, Field::Trailing, Problem::Invalid)
    }
}

/// A keyword exactly as printed, followed by a blank or the end of the
/// line (so `Clock` does not match `Clockwork`).
fn word<'a>(w: &'static str, i: In<'a>) -> ParseResult<'a, In<'a>> {
    let (rest, k) = tag(w).parse(i)?;
    match rest.first() {
        None | Some(b' ' | b'\t') => Ok((rest, k)),
        Some(_) => fail(i, Field::Keyword, Problem::Invalid),
    }
}

/// A command word in either case, followed by a blank or the end.
fn word_no_case<'a>(w: &'static str, i: In<'a>) -> ParseResult<'a, In<'a>> {
    let (rest, k) = tag_no_case(w).parse(i)?;
    match rest.first() {
        None | Some(b' ' | b'\t') => Ok((rest, k)),
        Some(_) => fail(i, Field::Keyword, Problem::Invalid),
    }
}

/// An unsigned decimal number of at most `max_digits` digits.
fn decimal(f: Field, max_digits: usize, i: In<'_>) -> ParseResult<'_, u32> {
    let (rest, digits) =
        match take_while1::<_, _, ParseError<'_>>(|b: u8| b.is_ascii_digit()).parse(i) {
            Ok(ok) => ok,
            Err(_) => return fail(i, f, Problem::Invalid),
        };
    if digits.len() > max_digits {
        return fail(i, f, Problem::OutOfRange);
    }
    let n = digits
        .iter()
        .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    Ok((rest, n))
}

/// A move number `1..=9999`.
pub fn move_number(i: &[u8]) -> ParseResult<'_, MoveNumber> {
    let (rest, n) = decimal(Field::MoveNumber, 4, i)?;
    match u16::try_from(n).ok().and_then(|n| MoveNumber::new(n).ok()) {
        Some(n) => Ok((rest, n)),
        None => fail(i, Field::MoveNumber, Problem::OutOfRange),
    }
}

/// A square `a1..=h8` as the Citrine prints it (lower-case file).
pub fn square(i: &[u8]) -> ParseResult<'_, Square> {
    match i {
        [f @ b'a'..=b'h', r @ b'1'..=b'8', rest @ ..] => Ok((
            rest,
            square_at(f - b'a', r - b'1').expect("file and rank checked"),
        )),
        _ => fail(i, Field::Square, Problem::Invalid),
    }
}

/// A square in a command: file letter in either case (`ME2E4`).
pub fn command_square(i: &[u8]) -> ParseResult<'_, Square> {
    match i {
        [f @ (b'a'..=b'h' | b'A'..=b'H'), r @ b'1'..=b'8', rest @ ..] => {
            let sq =
                square_at(f.to_ascii_lowercase() - b'a', r - b'1').expect("file and rank checked");
            Ok((rest, sq))
        }
        _ => fail(i, Field::Square, Problem::Invalid),
    }
}

/// `O-O-O` / `O-O` (capital letter O).
pub fn castling(i: &[u8]) -> ParseResult<'_, CastlingSide> {
    match i {
        [b'O', b'-', b'O', b'-', b'O', rest @ ..] => Ok((rest, CastlingSide::QueenSide)),
        [b'O', b'-', b'O', rest @ ..] => Ok((rest, CastlingSide::KingSide)),
        _ => fail(i, Field::Move, Problem::Invalid),
    }
}

/// A promotion suffix `/Q /R /B /N`.
pub fn promotion(i: &[u8]) -> ParseResult<'_, Promotion> {
    match i {
        [b'/', p @ (b'Q' | b'R' | b'B' | b'N'), rest @ ..] => {
            Ok((rest, Promotion::from_letter(*p).expect("checked")))
        }
        [b'/', rest @ ..] => fail(rest, Field::Promotion, Problem::Invalid),
        _ => fail(i, Field::Promotion, Problem::Invalid),
    }
}

/// A move as the Citrine prints it: `O-O`, `O-O-O`, or
/// `[NBRQKP]from(-|x)to[ep][/QRBN]`; it must end at a blank, a `|` or the
/// end of the line.
pub fn move_text(i: &[u8]) -> ParseResult<'_, MoveText> {
    if i.is_empty() {
        return fail(i, Field::Move, Problem::Missing);
    }
    let ends = |rest: In<'_>| {
        rest.first()
            .is_none_or(|b| matches!(b, b' ' | b'\t' | b'|'))
    };
    if let Ok((rest, side)) = castling(i)
        && ends(rest)
    {
        return Ok((rest, MoveText::Castle(side)));
    }
    // Piece letter: upper case, followed by a file letter.
    let (i2, piece) = match i {
        [
            p @ (b'N' | b'B' | b'R' | b'Q' | b'K' | b'P'),
            b'a'..=b'h',
            ..,
        ] => (&i[1..], role_from_letter(*p)),
        _ => (i, None),
    };
    let (i3, from) = in_field(Field::Square, square(i2))?;
    let (i4, capture) = match i3.first() {
        Some(b'-') => (&i3[1..], false),
        Some(b'x') => (&i3[1..], true),
        _ => return fail(i3, Field::Move, Problem::Invalid),
    };
    let (i5, to) = in_field(Field::Square, square(i4))?;
    let (i6, en_passant) = match i5 {
        [b'e', b'p', rest @ ..] => (rest, true),
        _ => (i5, false),
    };
    let (i7, promotion) = match i6 {
        [b'/', ..] => {
            let (r, p) = promotion(i6)?;
            (r, Some(p))
        }
        _ => (i6, None),
    };
    if !ends(i7) {
        return fail(i7, Field::Move, Problem::Invalid);
    }
    Ok((
        i7,
        MoveText::Normal(NormalMove {
            piece,
            from,
            to,
            capture,
            en_passant,
            promotion,
        }),
    ))
}

/// `on` / `off`, as the replies print them.
pub fn switch(i: &[u8]) -> ParseResult<'_, bool> {
    if let Ok((rest, _)) = word("on", i) {
        return Ok((rest, true));
    }
    if let Ok((rest, _)) = word("off", i) {
        return Ok((rest, false));
    }
    fail(i, Field::Switch, Problem::Invalid)
}

/// A clock reading `hh:mm:ss`.
pub fn clock_time(i: &[u8]) -> ParseResult<'_, ClockTime> {
    let start = i;
    let (i, h) = decimal(Field::Clock, 2, i)?;
    let (i, _) = in_field(Field::Clock, tag(&b":"[..]).parse(i))?;
    let (i, m) = decimal(Field::Clock, 2, i)?;
    let (i, _) = in_field(Field::Clock, tag(&b":"[..]).parse(i))?;
    let (i, s) = decimal(Field::Clock, 2, i)?;
    match ClockTime::new(h as u8, m as u8, s as u8) {
        Ok(t) => Ok((i, t)),
        Err(_) => fail(start, Field::Clock, Problem::OutOfRange),
    }
}

/// A level as replies print it: `tr 1`, `sd 5`, `at 3`, `be 2`.
pub fn level(i: &[u8]) -> ParseResult<'_, Level> {
    let kind = match i {
        [b't', b'r', ..] => LevelKind::Tournament,
        [b's', b'd', ..] => LevelKind::Citrine,
        [b'a', b't', ..] => LevelKind::AverageTime,
        [b'b', b'e', ..] => LevelKind::Beginner,
        _ => return fail(i, Field::Level, Problem::Invalid),
    };
    let (i, _) = space0(&i[2..])?;
    let start = i;
    let (i, n) = decimal(Field::Level, 2, i)?;
    match Level::new(kind, n as u8) {
        Ok(level) => Ok((i, level)),
        Err(_) => fail(start, Field::Level, Problem::OutOfRange),
    }
}

/// A token: 1..=64 printable ASCII bytes (`UCBII`, `V1.09`).
pub fn token(i: &[u8]) -> ParseResult<'_, Token<'_>> {
    token_of(Field::Identity, "identity", i)
}

fn token_of<'a>(f: Field, what: &'static str, i: In<'a>) -> ParseResult<'a, Token<'a>> {
    let len = i.iter().take_while(|b| b.is_ascii_graphic()).count();
    if len == 0 || len > Token::MAX_LEN {
        let problem = if len == 0 {
            Problem::Invalid
        } else {
            Problem::OutOfRange
        };
        return fail(i, f, problem);
    }
    let text = core::str::from_utf8(&i[..len]).expect("ASCII");
    Ok((&i[len..], Token::new(what, text).expect("checked")))
}

/// After the `M`/`T` letter: `number[,] move [|]` to the end of the line.
fn move_line_body(i: In<'_>) -> ParseResult<'_, MoveLine> {
    let (i, _) = space0(i)?;
    let (i, number) = move_number(i)?;
    let (i, _) = space0(i)?;
    let (i, comma) = match i {
        [b',', rest @ ..] => (rest, true),
        _ => (i, false),
    };
    let (i, _) = space0(i)?;
    let (i, text) = in_field(Field::Move, move_text(i))?;
    let (i, _) = space0(i)?;
    let (i, bar) = match i {
        [b'|', rest @ ..] => (rest, true),
        _ => (i, false),
    };
    let (i, ()) = end_of_line(i)?;
    Ok((
        i,
        MoveLine {
            number,
            black: comma,
            text,
            bar,
        },
    ))
}

/// A move line: `M   7,  c5xd4 |` (comma = black, ` |` optional; docs/specs/citrine.md,
/// *Move text the Citrine prints*).
pub fn move_line(i: &[u8]) -> ParseResult<'_, MoveLine> {
    let r = match i {
        [b'M', rest @ ..] => move_line_body(rest),
        _ => fail(i, Field::Keyword, Problem::Invalid),
    };
    in_message(MessageKind::MoveLine, r)
}

/// A take-back line: `T   1,  e7-e5` as devices print it; with
/// [`Leniency::document_take_back`] also the protocol document's
/// `t 2 g8-f6`.
pub fn take_back_line<'a>(i: &'a [u8], leniency: &Leniency) -> ParseResult<'a, MoveLine> {
    let r = match i {
        [b'T', rest @ ..] => move_line_body(rest),
        [b't', rest @ ..] if leniency.document_take_back => move_line_body(rest),
        _ => fail(i, Field::Keyword, Problem::Invalid),
    };
    in_message(MessageKind::TakeBackLine, r)
}

/// `Clock hh:mm:ss hh:mm:ss`: white's, then black's clock.
pub fn clock(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = word("Clock", i)?;
        let (i, _) = space0(i)?;
        let (i, white) = clock_time(i)?;
        let (i, _) = in_field(Field::Clock, space1(i))?;
        let (i, black) = clock_time(i)?;
        let (i, ()) = end_of_line(i)?;
        Ok((i, Reply::Clock { white, black }))
    })();
    in_message(MessageKind::Clock, r)
}

/// `Flip` or `Flip --> Black` / `Flip --> White`.
pub fn flip(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = word("Flip", i)?;
        let (i, _) = space0(i)?;
        if i.is_empty() {
            return Ok((i, Reply::Flip { to_move: None }));
        }
        let (i, _) = in_field(Field::Flip, tag(&b"-->"[..]).parse(i))?;
        let (i, _) = space0(i)?;
        let (i, to_move) = if let Ok((i, _)) = word("Black", i) {
            (i, Color::Black)
        } else if let Ok((i, _)) = word("White", i) {
            (i, Color::White)
        } else {
            return fail(i, Field::Flip, Problem::Invalid);
        };
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
        let (i, _) = word("Game", i)?;
        let (start, _) = space0(i)?;
        let (i, n) = decimal(Field::GameCount, 5, start)?;
        let (i, ()) = end_of_line(i)?;
        match u16::try_from(n) {
            Ok(moves) => Ok((i, Reply::Game { moves })),
            Err(_) => fail(start, Field::GameCount, Problem::OutOfRange),
        }
    })();
    in_message(MessageKind::Game, r)
}

/// A game-list line after `G`: `. white black` or `. n move [move]`.
pub fn game_row(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = tag(&b"."[..]).parse(i)?;
        let (i, _) = space0(i)?;
        if let Ok((j, _)) = word("white", i) {
            let (j, _) = space0(j)?;
            let (j, _) = in_field(Field::Keyword, word("black", j))?;
            let (j, ()) = end_of_line(j)?;
            return Ok((j, Reply::GameColumns));
        }
        let (i, number) = move_number(i)?;
        let (i, _) = in_field(Field::Move, space1(i))?;
        let (i, white) = in_field(Field::Move, move_text(i))?;
        let (i, _) = space0(i)?;
        if i.is_empty() {
            let black = None;
            return Ok((
                i,
                Reply::GameRow {
                    number,
                    white,
                    black,
                },
            ));
        }
        let (i, black) = in_field(Field::Move, move_text(i))?;
        let (i, ()) = end_of_line(i)?;
        Ok((
            i,
            Reply::GameRow {
                number,
                white,
                black: Some(black),
            },
        ))
    })();
    in_message(MessageKind::GameRow, r)
}

/// `ID. UCBII V1.09` as devices print it; with
/// [`Leniency::document_identity`] also the protocol document's
/// `ID.UCBII VI.09` (no blank after the dot).
pub fn identity<'a>(i: &'a [u8], leniency: &Leniency) -> ParseResult<'a, Reply<'a>> {
    let r = (|| {
        let (i, _) = tag(&b"ID."[..]).parse(i)?;
        let (i, _) = if leniency.document_identity {
            space0(i)?
        } else {
            in_field(Field::Identity, space1(i))?
        };
        let (i, model) = token(i)?;
        let (i, _) = in_field(Field::Identity, space1(i))?;
        let (i, version) = token(i)?;
        let (i, ()) = end_of_line(i)?;
        Ok((i, Reply::Identity { model, version }))
    })();
    in_message(MessageKind::Identity, r)
}

/// `Level tr 1`: one colour's level.
pub fn level_line(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = word("Level", i)?;
        let (i, _) = space0(i)?;
        let (i, l) = level(i)?;
        let (i, ()) = end_of_line(i)?;
        Ok((i, Reply::Level(l)))
    })();
    in_message(MessageKind::Level, r)
}

/// Two keywords separated by blanks, then the end of the line.
fn phrase<'a>(
    a: &'static str,
    b: &'static str,
    r: Reply<'a>,
    i: In<'a>,
) -> ParseResult<'a, Reply<'a>> {
    let (i, _) = word(a, i)?;
    let (i, _) = space1(i)?;
    let (i, _) = word(b, i)?;
    let (i, ()) = end_of_line(i)?;
    Ok((i, r))
}

/// Whether `l` starts with the two keywords `a` `b` separated by blanks.
fn starts_phrase(a: &'static str, b: &'static str, l: In<'_>) -> bool {
    word(a, l)
        .and_then(|(i, _)| space1(i))
        .and_then(|(i, _)| word(b, i))
        .is_ok()
}

/// `New Game`.
pub fn new_game(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    in_message(
        MessageKind::NewGame,
        phrase("New", "Game", Reply::NewGame, i),
    )
}

/// `Position Board`: the head of a position diagram.
pub fn position_board(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    in_message(
        MessageKind::PositionBoard,
        phrase("Position", "Board", Reply::PositionBoard, i),
    )
}

/// `Xmit on` / `Xmit off`.
pub fn xmit(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = word("Xmit", i)?;
        let (i, _) = space0(i)?;
        let (i, on) = switch(i)?;
        let (i, ()) = end_of_line(i)?;
        Ok((i, Reply::Xmit(on)))
    })();
    in_message(MessageKind::Xmit, r)
}

/// `.Referee on` / `.Referee off`.
pub fn referee(i: &[u8]) -> ParseResult<'_, Reply<'_>> {
    let r = (|| {
        let (i, _) = tag(&b".Referee"[..]).parse(i)?;
        let (i, _) = space0(i)?;
        let (i, on) = switch(i)?;
        let (i, ()) = end_of_line(i)?;
        Ok((i, Reply::Referee(on)))
    })();
    in_message(MessageKind::Referee, r)
}

/// A diagram cell token: a piece code or `::`.
fn cell(tok: &[u8]) -> Option<Option<Piece>> {
    match tok {
        b"::" => Some(None),
        [c, p] => {
            let color = match c {
                b'W' | b'w' => Color::White,
                b'B' | b'b' => Color::Black,
                _ => return None,
            };
            Some(Some(Piece {
                color,
                role: role_from_letter(*p)?,
            }))
        }
        _ => None,
    }
}

/// One rank of a `Position Board` diagram (layout *(unconfirmed)*; see
/// [`DiagramRow`]): an optional rank label `1..=8` and a separator, then 8
/// cells; the whole line is consumed.
pub fn diagram_row(line: &[u8]) -> ParseResult<'_, DiagramRow> {
    match diagram_cells(line) {
        Some(row) => Ok((&line[line.len()..], row)),
        None => fail(line, Field::Keyword, Problem::Invalid),
    }
}

fn diagram_cells(line: In<'_>) -> Option<DiagramRow> {
    let lead = line
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let (rank, body) = match &line[lead..] {
        [d @ b'1'..=b'8'] => return DiagramRow::new(Some(d - b'0'), [None; 8]).ok(),
        [d @ b'1'..=b'8', b' ' | b'\t' | b'|', body @ ..] => (Some(d - b'0'), body),
        _ => (None, line),
    };
    let mut body = body;
    while let [rest @ .., b' ' | b'\t'] = body {
        body = rest;
    }
    if let [rest @ .., b'|'] = body {
        body = rest;
        while let [rest @ .., b' ' | b'\t'] = body {
            body = rest;
        }
    }
    let mut tokens = [(0usize, &b""[..]); 8];
    let mut count = 0;
    let mut pos = 0;
    while pos < body.len() {
        if matches!(body[pos], b' ' | b'\t') {
            pos += 1;
            continue;
        }
        let start = pos;
        while pos < body.len() && !matches!(body[pos], b' ' | b'\t') {
            pos += 1;
        }
        if count == 8 {
            return None;
        }
        tokens[count] = (start, &body[start..pos]);
        count += 1;
    }
    if count == 0 {
        return rank.and_then(|r| DiagramRow::new(Some(r), [None; 8]).ok());
    }
    let mut cells = [None; 8];
    for (k, &(start, tok)) in tokens[..count].iter().enumerate() {
        let piece = cell(tok)?;
        let file = if count == 8 {
            k
        } else if start % 3 == 0 && start / 3 < 8 {
            start / 3
        } else {
            return None;
        };
        cells[file] = piece;
    }
    DiagramRow::new(rank, cells).ok()
}

/// One reply line, strictly as devices print it (trailing CRs, leading and
/// trailing blanks tolerated). See [`reply_with`].
pub fn reply(line: &[u8]) -> ParseResult<'_, Reply<'_>> {
    reply_with(line, &Leniency::STRICT)
}

/// One reply line: the keyword picks the rule; a line that starts like no
/// known reply is [`Reply::DiagramRow`] when it reads as one, else
/// [`Reply::Unrecognised`] (never an error). Consumes the whole line.
pub fn reply_with<'a>(line: &'a [u8], leniency: &Leniency) -> ParseResult<'a, Reply<'a>> {
    let mut raw = line;
    while let [rest @ .., b'\r'] = raw {
        raw = rest;
    }
    let mut l = raw;
    while let [rest @ .., b' ' | b'\t'] = l {
        l = rest;
    }
    while let [b' ' | b'\t', rest @ ..] = l {
        l = rest;
    }
    let end = &line[line.len()..];
    let next = |b: Option<&u8>| b.is_some_and(|b| matches!(b, b' ' | b'\t' | b'0'..=b'9'));
    let known =
        |w: &[u8]| l.starts_with(w) && l.get(w.len()).is_none_or(|b| matches!(b, b' ' | b'\t'));
    let r = match l.first() {
        Some(b'M') if next(l.get(1)) => move_line(l)?.1.into_move(),
        Some(b'T') if next(l.get(1)) => take_back_line(l, leniency)?.1.into_take_back(),
        Some(b't') if leniency.document_take_back && next(l.get(1)) => {
            take_back_line(l, leniency)?.1.into_take_back()
        }
        Some(b'C') if known(b"Clock") => clock(l)?.1,
        Some(b'F') if known(b"Flip") => flip(l)?.1,
        Some(b'G') if known(b"Game") => game(l)?.1,
        Some(b'.') if known(b".Referee") => referee(l)?.1,
        Some(b'.') => game_row(l)?.1,
        Some(b'I') if l.starts_with(b"ID.") => identity(l, leniency)?.1,
        Some(b'L') if known(b"Level") => level_line(l)?.1,
        Some(b'N') if starts_phrase("New", "Game", l) => new_game(l)?.1,
        Some(b'P') if starts_phrase("Position", "Board", l) => position_board(l)?.1,
        Some(b'X') if known(b"Xmit") => xmit(l)?.1,
        _ => match diagram_cells(raw) {
            Some(row) => Reply::DiagramRow(row),
            None => Reply::Unrecognised(RawLine::borrowed(raw)),
        },
    };
    Ok((end, r))
}

impl MoveLine {
    fn into_move<'a>(self) -> Reply<'a> {
        Reply::Move(self)
    }
    fn into_take_back<'a>(self) -> Reply<'a> {
        Reply::TakeBack(self)
    }
}

/// After `M` in a command: `from[-|x]to[/P | P]`, squares in either case.
pub fn host_move(i: &[u8]) -> ParseResult<'_, HostMove> {
    let (i, _) = space0(i)?;
    let (i, from) = in_field(Field::Square, command_square(i))?;
    let i = match i.first() {
        Some(b'-' | b'x' | b'X') => &i[1..],
        _ => i,
    };
    let (i, to) = in_field(Field::Square, command_square(i))?;
    let (i, promotion) = match i {
        [b'/', rest @ ..] => match rest.first().and_then(|b| Promotion::from_letter(*b)) {
            Some(p) => (&rest[1..], Some(p)),
            None => return fail(rest, Field::Promotion, Problem::Invalid),
        },
        [b, rest @ ..] if Promotion::from_letter(*b).is_some() => {
            (rest, Promotion::from_letter(*b))
        }
        _ => (i, None),
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
/// `+CITRINE5`, `-TR1`), either case.
pub fn level_setting(i: &[u8]) -> ParseResult<'_, (LevelTarget, Level)> {
    let (i, target) = match i.first() {
        Some(b'-') => (&i[1..], LevelTarget::BlackOnly),
        Some(b'+') => (&i[1..], LevelTarget::Both),
        _ => (i, LevelTarget::Both),
    };
    let (i, _) = space0(i)?;
    let kinds = [
        LevelKind::Citrine,
        LevelKind::Tournament,
        LevelKind::AverageTime,
        LevelKind::Beginner,
    ];
    let Some((i, kind)) = kinds.iter().find_map(|k| {
        let n = k.command_name().as_bytes();
        (i.len() >= n.len() && i[..n.len()].eq_ignore_ascii_case(n)).then(|| (&i[n.len()..], *k))
    }) else {
        return fail(i, Field::Level, Problem::Invalid);
    };
    let (i, _) = space0(i)?;
    let start = i;
    let (i, n) = decimal(Field::Level, 2, i)?;
    match Level::new(kind, n as u8) {
        Ok(level) => Ok((i, (target, level))),
        Err(_) => fail(start, Field::Level, Problem::OutOfRange),
    }
}

/// A command without arguments.
fn bare<'a>(i: In<'a>, c: Command<'a>) -> ParseResult<'a, Command<'a>> {
    let (i, ()) = end_of_line(i)?;
    Ok((i, c))
}

/// Nothing (query), `ON` or `OFF`, either case.
fn command_switch(i: In<'_>) -> ParseResult<'_, Option<bool>> {
    let (i, _) = space0(i)?;
    if i.is_empty() {
        return Ok((i, None));
    }
    let (i, on) = if let Ok((i, _)) = word_no_case("on", i) {
        (i, true)
    } else if let Ok((i, _)) = word_no_case("off", i) {
        (i, false)
    } else {
        return fail(i, Field::Switch, Problem::Invalid);
    };
    let (i, ()) = end_of_line(i)?;
    Ok((i, Some(on)))
}

/// One command line (docs/specs/citrine.md, *Commands (host -> device) and
/// replies (device -> host)*): case-insensitive, blanks after the letter
/// optional (`ME2E4`, `M e2e4`, `M e2-e4`, `L +CITRINE5`). An unknown
/// letter or an empty line is [`Command::Unrecognised`] (the device ignores
/// it). Consumes the whole line.
pub fn command(line: &[u8]) -> ParseResult<'_, Command<'_>> {
    let mut raw = line;
    while let [rest @ .., b'\r'] = raw {
        raw = rest;
    }
    let mut l = raw;
    while let [rest @ .., b' ' | b'\t'] = l {
        l = rest;
    }
    while let [b' ' | b'\t', rest @ ..] = l {
        l = rest;
    }
    let end = &line[line.len()..];
    let Some((&letter, rest)) = l.split_first() else {
        return Ok((end, Command::Unrecognised(RawLine::borrowed(raw))));
    };
    let r = (|| match letter.to_ascii_uppercase() {
        b'C' => bare(rest, Command::Clock),
        b'F' => bare(rest, Command::Flip),
        b'G' => bare(rest, Command::Game),
        b'I' => bare(rest, Command::Identity),
        b'N' => bare(rest, Command::NewGame),
        b'O' => bare(rest, Command::Origin),
        b'T' => bare(rest, Command::TakeBack),
        b'J' => bare(rest, Command::EngineMove),
        b'U' => command_switch(rest).map(|(i, s)| (i, Command::Referee(s))),
        b'X' => command_switch(rest).map(|(i, s)| (i, Command::Xmit(s))),
        b'L' => {
            let (i, _) = space0(rest)?;
            if i.is_empty() {
                Ok((i, Command::ShowLevel))
            } else {
                let (i, (target, level)) = level_setting(i)?;
                let (i, ()) = end_of_line(i)?;
                Ok((i, Command::SetLevel { target, level }))
            }
        }
        b'M' => {
            let (i, m) = host_move(rest)?;
            let (i, ()) = end_of_line(i)?;
            Ok((i, Command::Move(m)))
        }
        b'P' => {
            let (i, _) = space0(rest)?;
            if i.is_empty() {
                Ok((i, Command::ShowPosition))
            } else {
                let (i, t) = token_of(Field::SetUp, "set-up", i)?;
                let (i, ()) = end_of_line(i)?;
                Ok((i, Command::SetUp(t)))
            }
        }
        _ => Ok((end, Command::Unrecognised(RawLine::borrowed(raw)))),
    })();
    let (_, c) = in_message(MessageKind::Command, r)?;
    Ok((end, c))
}
