//! nom building blocks shared by the reply and command decoders.
//!
//! Every parser works on one line (terminator removed) and reports failures
//! as [`PErr`], which remembers the remaining input (hence the column) and
//! the field; [`PErr::into_decode_error`] turns it into a [`DecodeError`].

use nom::IResult;
use nom::Parser;
use nom::bytes::complete::{tag, tag_no_case, take_while1};
use nom::character::complete::{space0, space1};
use nom::combinator::opt;
use nom::error::ParseError;

use crate::error::{DecodeError, ErrorKind, Field};
use crate::types::{MoveNumber, MoveText, NormalMove, Promotion};
use crate::vocab::CastlingSide;
use crate::vocab::{Square, role_from_letter, square};

/// Input type: the bytes of one line.
pub(crate) type In<'a> = &'a [u8];

/// A parse failure: where (`at`, the remaining input) and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PErr<'a> {
    pub(crate) at: In<'a>,
    pub(crate) field: Option<Field>,
    pub(crate) kind: ErrorKind,
}

impl<'a> PErr<'a> {
    /// The error as seen from the whole `line`.
    pub(crate) fn into_decode_error(self, line: In<'_>, default_field: Field) -> DecodeError {
        DecodeError {
            field: self.field.unwrap_or(default_field),
            column: line.len().saturating_sub(self.at.len()) + 1,
            kind: self.kind,
        }
    }
}

impl<'a> ParseError<In<'a>> for PErr<'a> {
    fn from_error_kind(input: In<'a>, _kind: nom::error::ErrorKind) -> Self {
        PErr {
            at: input,
            field: None,
            kind: if input.is_empty() {
                ErrorKind::Missing
            } else {
                ErrorKind::Invalid
            },
        }
    }
    fn append(_input: In<'a>, _kind: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

/// Parser result.
pub(crate) type Res<'a, T> = IResult<In<'a>, T, PErr<'a>>;

/// A failure at `at`.
pub(crate) fn fail<'a, T>(at: In<'a>, field: Field, kind: ErrorKind) -> Res<'a, T> {
    let kind = if at.is_empty() && kind == ErrorKind::Invalid {
        ErrorKind::Missing
    } else {
        kind
    };
    Err(nom::Err::Error(PErr {
        at,
        field: Some(field),
        kind,
    }))
}

/// Runs `p`, naming `f` as the failing field when `p` did not name one.
pub(crate) fn field<'a, T>(
    f: Field,
    mut p: impl FnMut(In<'a>) -> Res<'a, T>,
) -> impl FnMut(In<'a>) -> Res<'a, T> {
    move |i| {
        p(i).map_err(|e| {
            e.map(|mut pe| {
                pe.field.get_or_insert(f);
                pe
            })
        })
    }
}

/// One or more spaces or tabs.
pub(crate) fn ws1(i: In<'_>) -> Res<'_, In<'_>> {
    space1(i)
}

/// Zero or more spaces or tabs.
pub(crate) fn ws0(i: In<'_>) -> Res<'_, In<'_>> {
    space0(i)
}

/// Optional trailing spaces/tabs, then the end of the line.
pub(crate) fn end(i: In<'_>) -> Res<'_, ()> {
    let (i, _) = ws0(i)?;
    if i.is_empty() {
        Ok((i, ()))
    } else {
        fail(i, Field::Trailing, ErrorKind::Invalid)
    }
}

/// A case-insensitive keyword that must be followed by whitespace or the end
/// of the line (so `Clock` does not match `Clockwork`).
pub(crate) fn word<'a>(w: &'static str) -> impl FnMut(In<'a>) -> Res<'a, In<'a>> {
    move |i: In<'a>| {
        let (rest, k) = tag_no_case(w).parse(i)?;
        match rest.first() {
            None | Some(b' ' | b'\t') => Ok((rest, k)),
            Some(_) => fail(i, Field::Keyword, ErrorKind::Invalid),
        }
    }
}

/// An unsigned decimal number of at most `max_digits` digits, as `u32`.
pub(crate) fn decimal(f: Field, max_digits: usize) -> impl FnMut(In<'_>) -> Res<'_, u32> {
    move |i| {
        let (rest, digits) =
            match take_while1::<_, _, PErr<'_>>(|b: u8| b.is_ascii_digit()).parse(i) {
                Ok(ok) => ok,
                Err(_) => return fail(i, f, ErrorKind::Invalid),
            };
        if digits.len() > max_digits {
            return fail(i, f, ErrorKind::OutOfRange);
        }
        let n = digits
            .iter()
            .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        Ok((rest, n))
    }
}

/// A move number `1..=9999`.
pub(crate) fn move_number(i: In<'_>) -> Res<'_, MoveNumber> {
    let (rest, n) = decimal(Field::MoveNumber, 4)(i)?;
    match u16::try_from(n).ok().and_then(|n| MoveNumber::new(n).ok()) {
        Some(n) => Ok((rest, n)),
        None => fail(i, Field::MoveNumber, ErrorKind::OutOfRange),
    }
}

/// A square `a1..=h8`, file letter either case.
pub(crate) fn square_p(i: In<'_>) -> Res<'_, Square> {
    match i {
        [f @ (b'a'..=b'h' | b'A'..=b'H'), r @ b'1'..=b'8', rest @ ..] => {
            let sq =
                square(f.to_ascii_lowercase() - b'a', r - b'1').expect("file and rank checked");
            Ok((rest, sq))
        }
        _ => fail(i, Field::Square, ErrorKind::Invalid),
    }
}

/// `O-O-O` / `O-O` (letter O, either case, or digit zero), not followed by
/// more move text.
fn castle(i: In<'_>) -> Res<'_, CastlingSide> {
    let o = |b: &u8| matches!(b, b'O' | b'o' | b'0');
    match i {
        [a, b'-', b, b'-', c, rest @ ..] if o(a) && o(b) && o(c) => {
            Ok((rest, CastlingSide::QueenSide))
        }
        [a, b'-', b, rest @ ..] if o(a) && o(b) => Ok((rest, CastlingSide::KingSide)),
        _ => fail(i, Field::Move, ErrorKind::Invalid),
    }
}

/// A move as the Citrine prints it: `O-O`, `O-O-O`, or
/// `[NBRQKP]from(-|x)to[ep][/QRBN]`.
pub(crate) fn move_text(i: In<'_>) -> Res<'_, MoveText> {
    if i.is_empty() {
        return fail(i, Field::Move, ErrorKind::Missing);
    }
    if let Ok((rest, side)) = castle(i)
        && rest
            .first()
            .is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'-')
    {
        return Ok((rest, MoveText::Castle(side)));
    }
    // Piece letter: upper case, followed by a file letter.
    let (i2, piece) = match i {
        [
            p @ (b'N' | b'B' | b'R' | b'Q' | b'K' | b'P'),
            b'a'..=b'h' | b'A'..=b'H',
            ..,
        ] => (&i[1..], role_from_letter(*p)),
        _ => (i, None),
    };
    let (i3, from) = field(Field::Square, square_p)(i2)?;
    let (i4, capture) = match i3.first() {
        Some(b'-') => (&i3[1..], false),
        Some(b'x' | b'X') => (&i3[1..], true),
        _ => return fail(i3, Field::Move, ErrorKind::Invalid),
    };
    let (i5, to) = field(Field::Square, square_p)(i4)?;
    let (i6, ep) = opt(tag_no_case("ep")).parse(i5)?;
    let (i7, promotion) = match i6 {
        [b'/', rest @ ..] => match rest.first().and_then(|b| Promotion::from_letter(*b)) {
            Some(p) => (&rest[1..], Some(p)),
            None => return fail(rest, Field::Promotion, ErrorKind::Invalid),
        },
        _ => (i6, None),
    };
    // The move must end here (whitespace, end of line or a `|`).
    if let Some(b) = i7.first()
        && !matches!(b, b' ' | b'\t' | b'|')
    {
        return fail(i7, Field::Move, ErrorKind::Invalid);
    }
    Ok((
        i7,
        MoveText::Normal(NormalMove {
            piece,
            from,
            to,
            capture,
            en_passant: ep.is_some(),
            promotion,
        }),
    ))
}

/// A `on`/`off` switch word, either case.
pub(crate) fn on_off(i: In<'_>) -> Res<'_, bool> {
    if let Ok((rest, _)) = word("on")(i) {
        return Ok((rest, true));
    }
    if let Ok((rest, _)) = word("off")(i) {
        return Ok((rest, false));
    }
    fail(i, Field::Switch, ErrorKind::Invalid)
}

/// A literal byte.
pub(crate) fn byte(b: u8) -> impl FnMut(In<'_>) -> Res<'_, In<'_>> {
    move |i| tag(&[b][..]).parse(i)
}
