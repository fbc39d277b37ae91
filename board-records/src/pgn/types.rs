//! Small PGN vocabulary: [`Nag`], [`GameResult`], and the borrowed raw
//! forms the reader hands to a visitor ([`RawValue`], [`RawComment`]).

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

use super::command::Commands;

/// A Numeric Annotation Glyph, `$0`..=`$255` (standard §8.2.4, §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nag(pub u8);

impl Nag {
    /// `$0`, the null annotation (never exported).
    pub const NULL: Nag = Nag(0);
    /// `$1`, `!`: a good move.
    pub const GOOD: Nag = Nag(1);
    /// `$2`, `?`: a poor move (mistake).
    pub const MISTAKE: Nag = Nag(2);
    /// `$3`, `!!`: a very good (brilliant) move.
    pub const BRILLIANT: Nag = Nag(3);
    /// `$4`, `??`: a very poor move (blunder).
    pub const BLUNDER: Nag = Nag(4);
    /// `$5`, `!?`: a speculative (interesting) move.
    pub const SPECULATIVE: Nag = Nag(5);
    /// `$6`, `?!`: a questionable (dubious) move.
    pub const DUBIOUS: Nag = Nag(6);

    /// The NAG of an import-format suffix annotation (standard §8.2.3.8):
    /// `!` $1, `?` $2, `!!` $3, `??` $4, `!?` $5, `?!` $6; `None` for any
    /// other text.
    ///
    /// ```
    /// use board_records::pgn::Nag;
    /// assert_eq!(Nag::from_suffix(b"?!"), Some(Nag(6)));
    /// assert_eq!(Nag::from_suffix(b"!!!"), None);
    /// ```
    pub const fn from_suffix(s: &[u8]) -> Option<Nag> {
        match s {
            b"!" => Some(Nag(1)),
            b"?" => Some(Nag(2)),
            b"!!" => Some(Nag(3)),
            b"??" => Some(Nag(4)),
            b"!?" => Some(Nag(5)),
            b"?!" => Some(Nag(6)),
            _ => None,
        }
    }
}

impl fmt::Display for Nag {
    /// The export form, `$n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

/// A game termination marker / `Result` tag value (standard §8.2.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, or the game goes on.
    Unknown,
}

impl GameResult {
    /// The marker as written.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads one of the four markers exactly; `None` otherwise.
    pub fn from_bytes(s: &[u8]) -> Option<GameResult> {
        match s {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Bytes as text: UTF-8 when they are valid UTF-8 (what real files use),
/// otherwise ISO 8859-1, the standard's character set (§4.1), one
/// character per byte.
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    match core::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// A tag value as written between its quotes, escapes included (zero
/// copy). [`RawValue::decode`] resolves `\"` and `\\` (standard §7; a
/// backslash before any other byte is kept as written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawValue<'a>(pub &'a [u8]);

impl<'a> RawValue<'a> {
    /// The bytes as written.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The value with escapes resolved, as text ([`decode_text`]);
    /// borrowed when there is nothing to resolve.
    pub fn decode(&self) -> Cow<'a, str> {
        if !self.0.contains(&b'\\') {
            return decode_text(self.0);
        }
        let mut out = alloc::vec::Vec::with_capacity(self.0.len());
        let mut i = 0;
        while i < self.0.len() {
            let b = self.0[i];
            if b == b'\\' && matches!(self.0.get(i + 1), Some(b'"' | b'\\')) {
                out.push(self.0[i + 1]);
                i += 2;
            } else {
                out.push(b);
                i += 1;
            }
        }
        match String::from_utf8(out) {
            Ok(s) => Cow::Owned(s),
            Err(e) => Cow::Owned(e.as_bytes().iter().map(|&b| b as char).collect()),
        }
    }
}

/// How a comment was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{ … }`, possibly over several lines.
    Brace,
    /// `; …` to the end of the line.
    Line,
}

/// A comment as written between its delimiters (zero copy, whitespace
/// kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawComment<'a> {
    /// The bytes between `{` and `}` (or after `;` up to the line end, CR
    /// excluded).
    pub bytes: &'a [u8],
    /// Brace or line comment.
    pub kind: CommentKind,
}

impl<'a> RawComment<'a> {
    /// The text ([`decode_text`]), surrounding whitespace removed.
    pub fn text(&self) -> Cow<'a, str> {
        match decode_text(self.bytes) {
            Cow::Borrowed(s) => Cow::Borrowed(s.trim()),
            Cow::Owned(s) => Cow::Owned(String::from(s.trim())),
        }
    }

    /// The embedded commands (`[%clk 0:03:00]`, `[%eval 0.31]`, ...) in the
    /// comment, typed where known (see [`Commands`]).
    pub fn commands(&self) -> Commands<'a> {
        Commands::new(self.bytes)
    }
}
