//! The nom parsers' error, shared by the family's codecs (feature `nom`):
//! [`ParseError`], the field at fault, what is wrong and where, which a
//! line or frame decoder turns into the crate's [`DecodeError`] once it
//! knows the message kind and the input's length.
//!
//! A crate names its field type's catch-all for nom's own failures (input
//! left over, or a combinator that fails without saying which field) with
//! [`ParseField::TRAILING`], and uses `ParseError<Field>` under its own
//! name (`damexchange::parse::ParseError`,
//! `boardwire_engines::parse::ParseError`).
//!
//! ```
//! use boardwire_proto::parse::{ParseError, ParseField};
//! use boardwire_proto::Problem;
//!
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! enum Field { Number, Trailing }
//! impl ParseField for Field {
//!     const TRAILING: Field = Field::Trailing;
//! }
//!
//! // A fault with 3 bytes left in a 10-byte frame is at offset 7.
//! let e = ParseError { field: Field::Number, problem: Problem::Missing, remaining: 3 };
//! let d = e.into_decode_error("MOVE", 10);
//! assert_eq!((d.offset, d.field), (7, Field::Number));
//! ```

use nom::IResult;
use nom::error::ErrorKind;

use crate::error::{DecodeError, Problem};

/// A crate's field type, as the nom parsers' errors name it.
pub trait ParseField: Copy {
    /// The field a failure of nom's own combinators names (the parsers
    /// name every field they read; what fails outside them is input that
    /// should not be there, or is missing at the end).
    const TRAILING: Self;
}

/// A parse failure: the field at fault, what is wrong, and `remaining`, the
/// length of the input left at the fault (the offset in a frame or line of
/// `n` bytes is `n - remaining`: the first bad byte, or for a field that is
/// missing or cut off, [`Problem::Missing`], the end of the input,
/// `remaining == 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError<F> {
    /// The field at fault.
    pub field: F,
    /// What is wrong.
    pub problem: Problem,
    /// Bytes of input remaining where the fault is.
    pub remaining: usize,
}

impl<F> ParseError<F> {
    /// The error of a parser that ran on a frame or line of `len` bytes, a
    /// message of kind `message`: at offset `len - remaining` (0 if the
    /// parser was given more than `len` bytes).
    #[inline]
    pub fn into_decode_error<M>(self, message: M, len: usize) -> DecodeError<M, F> {
        DecodeError::new(
            message,
            self.field,
            len.saturating_sub(self.remaining),
            self.problem,
        )
    }
}

/// The result of parsers with this error.
pub type PResult<'a, T, F> = IResult<&'a [u8], T, ParseError<F>>;

/// Fails with `problem` in `field` at the start of `at` (the input from
/// the bad byte on).
///
/// # Errors
/// Always: `nom::Err::Error` with that [`ParseError`].
#[inline]
pub fn fail<T, F>(at: &[u8], field: F, problem: Problem) -> PResult<'_, T, F> {
    Err(nom::Err::Error(ParseError {
        field,
        problem,
        remaining: at.len(),
    }))
}

impl<'a, F: ParseField> nom::error::ParseError<&'a [u8]> for ParseError<F> {
    /// nom's own failure: [`Problem::Missing`] in [`ParseField::TRAILING`].
    fn from_error_kind(input: &'a [u8], _kind: ErrorKind) -> Self {
        ParseError {
            field: F::TRAILING,
            problem: Problem::Missing,
            remaining: input.len(),
        }
    }

    /// The first error wins: it names the field.
    fn append(_input: &'a [u8], _kind: ErrorKind, other: Self) -> Self {
        other
    }
}
