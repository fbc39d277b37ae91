//! A tiny field cursor over one line: single-space separated fields with
//! exact byte offsets for errors. Never allocates.

use crate::error::{DecodeError, Expected, Field, MessageKind, Problem};
use crate::types::check_token;

pub(crate) struct Cursor<'a> {
    pub(crate) s: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) kind: MessageKind,
}

impl<'a> Cursor<'a> {
    /// A cursor positioned at `pos` (just after the keyword).
    pub(crate) fn new(s: &'a [u8], pos: usize, kind: MessageKind) -> Self {
        Self { s, pos, kind }
    }

    pub(crate) fn err(&self, field: Field, offset: usize, problem: Problem) -> DecodeError {
        DecodeError::new(self.kind, field, offset, problem)
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }

    /// The next field: expects one space, then bytes up to the next space or
    /// the end of the line. Returns the field and its offset.
    pub(crate) fn field(&mut self, name: Field) -> Result<(&'a [u8], usize), DecodeError> {
        if self.at_end() {
            return Err(self.err(name, self.s.len(), Problem::Missing));
        }
        if self.s[self.pos] != b' ' {
            return Err(self.err(name, self.pos, Problem::Expected(Expected::Space)));
        }
        let start = self.pos + 1;
        let end = self.s[start..]
            .iter()
            .position(|&b| b == b' ')
            .map_or(self.s.len(), |i| start + i);
        if end == start {
            return Err(self.err(name, start, Problem::Empty));
        }
        self.pos = end;
        Ok((&self.s[start..end], start))
    }

    /// Like [`Cursor::field`] but `None` at the end of the line.
    pub(crate) fn opt_field(
        &mut self,
        name: Field,
    ) -> Result<Option<(&'a [u8], usize)>, DecodeError> {
        if self.at_end() {
            Ok(None)
        } else {
            self.field(name).map(Some)
        }
    }

    /// A field checked as a token of a byte class and maximum length; returns
    /// it as `&str` (the classes are ASCII).
    pub(crate) fn token(
        &mut self,
        name: Field,
        max: usize,
        class: impl Fn(u8) -> bool,
    ) -> Result<&'a str, DecodeError> {
        let (f, off) = self.field(name)?;
        self.check(name, f, off, max, class)
    }

    pub(crate) fn check(
        &self,
        name: Field,
        f: &'a [u8],
        off: usize,
        max: usize,
        class: impl Fn(u8) -> bool,
    ) -> Result<&'a str, DecodeError> {
        check_token(f, max, class).map_err(|(i, p)| self.err(name, off + i, p))?;
        // The classes used are ASCII subsets, so this cannot fail; stay total.
        core::str::from_utf8(f).map_err(|e| self.err(name, off + e.valid_up_to(), Problem::NotUtf8))
    }

    /// Everything after one space (may be empty when the line ends right
    /// after the keyword, or holds only the space).
    pub(crate) fn rest_text(&mut self, name: Field) -> Result<&'a str, DecodeError> {
        let start = if self.at_end() {
            self.s.len()
        } else if self.s[self.pos] == b' ' {
            self.pos + 1
        } else {
            return Err(self.err(name, self.pos, Problem::Expected(Expected::Space)));
        };
        self.pos = self.s.len();
        text(self, name, &self.s[start..], start)
    }

    pub(crate) fn end(&self) -> Result<(), DecodeError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.err(Field::EndOfLine, self.pos, Problem::Trailing))
        }
    }
}

/// Checks free text: UTF-8 without control bytes.
pub(crate) fn text<'a>(
    c: &Cursor<'_>,
    name: Field,
    t: &'a [u8],
    off: usize,
) -> Result<&'a str, DecodeError> {
    if let Some(i) = t.iter().position(|&b| !crate::types::is_text_byte(b)) {
        return Err(c.err(name, off + i, Problem::InvalidByte(t[i])));
    }
    if t.len() > crate::types::Text::MAX_LEN {
        return Err(c.err(
            name,
            off,
            Problem::TooLong {
                max: crate::types::Text::MAX_LEN,
            },
        ));
    }
    core::str::from_utf8(t).map_err(|e| c.err(name, off + e.valid_up_to(), Problem::NotUtf8))
}

/// Parses an unsigned decimal of at most `max_digits` digits.
pub(crate) fn parse_u64(
    c: &Cursor<'_>,
    name: Field,
    f: &[u8],
    off: usize,
    max_digits: usize,
) -> Result<u64, DecodeError> {
    if f.is_empty() {
        return Err(c.err(name, off, Problem::Empty));
    }
    let mut v: u64 = 0;
    for (i, &b) in f.iter().enumerate() {
        if !b.is_ascii_digit() {
            return Err(c.err(name, off + i, Problem::InvalidByte(b)));
        }
        if i >= max_digits {
            return Err(c.err(name, off, Problem::OutOfRange));
        }
        v = v * 10 + u64::from(b - b'0');
    }
    Ok(v)
}
