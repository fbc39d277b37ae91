//! The streaming reader: [`Reader`] over `&[u8]`, one game at a time,
//! delivered to a [`Visitor`] (zero copy) or built into a
//! [`Game`](super::Game) ([`Reader::next_game`], [`Reader::games`]).
//!
//! Tokens (standard §7) are read by `nom` parsers over `&[u8]`; the game
//! loop around them knows the sections (tag pairs, movetext) and the game
//! boundaries.
//!
//! ## Game boundaries
//! The standard says nothing about them ([`spec::pgn_pdn`](crate::spec::pgn_pdn),
//! §1.7); this reader takes what python-chess and rust-pgn-reader do:
//! - Between games, whitespace, blank lines and `%` escape lines are
//!   skipped. A UTF-8 BOM at the start of the input is skipped.
//! - The tag section is every tag pair before the first movetext token;
//!   blank lines inside it are allowed (ChessBase writes one), except that
//!   a blank line followed by a tag whose name this game already has starts
//!   a new game (a game without movetext before it).
//! - The movetext ends at a blank line after its first token, at a line
//!   whose first non-blank byte is `[` (outside a comment; `[%` excepted),
//!   or at the end of the input. After the termination marker only
//!   comments may follow on its line; a token first on a later line
//!   starts the next game (games without tags written one per line).
//!
//! ## Import format accepted
//! Tag pairs with any whitespace between their tokens and over several
//! lines; `\"` and `\\` escapes; move numbers (`1.`, `1...`, `1. ...`,
//! `1.e4`), which are not checked; `{}` comments over several lines and
//! `;` comments; `%` escape lines (column 1); NAGs `$0`..=`$255` and the
//! suffixes `!` `?` `!!` `??` `!?` `?!` (as NAGs 1..=6); nested
//! variations; the four results; `0-0`, `0-0-0` (passed as SAN, which
//! board-core reads); null moves `--` (and python-chess's `Z0`, a symbol);
//! LF and CR LF lines.
//!
//! ## Errors and resynchronisation
//! A [`SyntaxError`] names the line, column and byte offset. After one,
//! the reader skips to the next line that starts with `[` (not `[%`) and
//! follows a line that is not a tag pair (so the rest of a bad tag
//! section is skipped too): a bad game never makes the next one misread.

use core::cell::Cell;
use core::ops::ControlFlow;

use nom::bytes::complete::{take_till, take_while, take_while1};
use nom::character::complete::multispace0;
use nom::error::{ErrorKind, ParseError};
use nom::{IResult, Parser};

use super::error::{Location, RecordFormat, SyntaxError, SyntaxProblem};
use super::types::{CommentKind, GameResult, Nag, RawComment, RawValue};

/// Caps on what a hostile file can grow. Every cap passed is a
/// [`SyntaxError`] naming it; the game is skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Tag pairs per game. Default 256.
    pub max_tags: usize,
    /// Bytes of a tag name or of a tag value as written. Default 4096 (the
    /// standard's strings hold 255 characters; real Link and FEN tags are
    /// longer than 80, none near 4096).
    pub max_string_len: usize,
    /// Bytes of one comment between its delimiters. Default 65536.
    pub max_comment_len: usize,
    /// Nesting depth of variations. Default 64.
    pub max_depth: usize,
    /// Moves in one game, every variation counted. Default 65536.
    pub max_moves: usize,
    /// Bytes of one game. Default 16 MiB.
    pub max_game_len: usize,
}

impl Limits {
    /// The defaults named on each field.
    pub const DEFAULT: Limits = Limits {
        max_tags: 256,
        max_string_len: 4096,
        max_comment_len: 65536,
        max_depth: 64,
        max_moves: 65536,
        max_game_len: 16 << 20,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// The longest symbol, 255 bytes (standard §7).
pub const MAX_SYMBOL_LEN: usize = 255;

/// What [`Visitor::begin_variation`] answers: `Skip(true)` skips the
/// variation (its tokens are still checked, but the visitor sees none of
/// them, not even its [`Visitor::end_variation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Skip(pub bool);

/// Receives one game's tokens in order, zero copy (pgn-reader's shape).
/// Every `offset` is the 0-based byte offset of the token in the whole
/// input ([`Reader::location`] gives its line and column).
///
/// Each method may return `ControlFlow::Break(output)`: the reader then
/// reads the rest of the game without calling the visitor and returns
/// `output` (how [`Reader::next_game`] stops at the first illegal move).
/// After a syntax error the game is abandoned without `end_game`; the next
/// game starts with `begin_game` again.
pub trait Visitor<'a> {
    /// What a game gives.
    type Output;

    /// A game starts at `offset`.
    fn begin_game(&mut self, offset: usize) -> ControlFlow<Self::Output> {
        let _ = offset;
        ControlFlow::Continue(())
    }

    /// A tag pair: the name (a symbol, ASCII) and the value as written.
    fn tag(
        &mut self,
        name: &'a str,
        value: RawValue<'a>,
        offset: usize,
    ) -> ControlFlow<Self::Output> {
        let _ = (name, value, offset);
        ControlFlow::Continue(())
    }

    /// The tag section is over; the movetext starts at `offset`.
    fn end_tags(&mut self, offset: usize) -> ControlFlow<Self::Output> {
        let _ = offset;
        ControlFlow::Continue(())
    }

    /// A move as written: SAN (with its `+`/`#`, without suffix
    /// annotations), `0-0`/`0-0-0`, or a null move `--`/`Z0`. ASCII.
    fn san(&mut self, san: &'a str, offset: usize) -> ControlFlow<Self::Output> {
        let _ = (san, offset);
        ControlFlow::Continue(())
    }

    /// A NAG, from `$n` or a suffix annotation (`!` is `$1` ... `?!` `$6`).
    fn nag(&mut self, nag: Nag, offset: usize) -> ControlFlow<Self::Output> {
        let _ = (nag, offset);
        ControlFlow::Continue(())
    }

    /// A comment (`{}` or `;`), in the tag section or the movetext.
    fn comment(&mut self, comment: RawComment<'a>, offset: usize) -> ControlFlow<Self::Output> {
        let _ = (comment, offset);
        ControlFlow::Continue(())
    }

    /// `(`: a variation replacing the last move starts.
    fn begin_variation(&mut self, offset: usize) -> ControlFlow<Self::Output, Skip> {
        let _ = offset;
        ControlFlow::Continue(Skip(false))
    }

    /// `)`: the variation ends.
    fn end_variation(&mut self, offset: usize) -> ControlFlow<Self::Output> {
        let _ = offset;
        ControlFlow::Continue(())
    }

    /// The game termination marker.
    fn outcome(&mut self, result: GameResult, offset: usize) -> ControlFlow<Self::Output> {
        let _ = (result, offset);
        ControlFlow::Continue(())
    }

    /// The game ends at `offset` (the boundary); gives the output.
    fn end_game(&mut self, offset: usize) -> Self::Output;
}

/// A streaming PGN reader over a whole input in memory (zero copy: the
/// visitor's slices borrow it). See the [module docs](self).
///
/// ```
/// use board_records::pgn::{Reader, Visitor};
/// use core::ops::ControlFlow;
///
/// struct CountMoves(usize);
/// impl<'a> Visitor<'a> for CountMoves {
///     type Output = usize;
///     fn begin_game(&mut self, _: usize) -> ControlFlow<usize> { self.0 = 0; ControlFlow::Continue(()) }
///     fn san(&mut self, _: &'a str, _: usize) -> ControlFlow<usize> { self.0 += 1; ControlFlow::Continue(()) }
///     fn end_game(&mut self, _: usize) -> usize { self.0 }
/// }
///
/// let mut reader = Reader::new(b"1. e4 e5 2. Nf3 *\n\n1. d4 (1. c4) d5 *\n");
/// let mut v = CountMoves(0);
/// assert_eq!(reader.read_game(&mut v), Some(Ok(3)));
/// assert_eq!(reader.read_game(&mut v), Some(Ok(3)));
/// assert_eq!(reader.read_game(&mut v), None);
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    limits: Limits,
    /// (offset scanned to, its line, the start of that line): the cache
    /// of [`Reader::location`].
    lines: Cell<(usize, u32, usize)>,
}

/// A parse failure inside a game: the remaining input length at the fault
/// and the problem (nom's error type of the token parsers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fault {
    pub(crate) rest: usize,
    pub(crate) problem: SyntaxProblem,
}

impl<'a> ParseError<&'a [u8]> for Fault {
    fn from_error_kind(input: &'a [u8], _: ErrorKind) -> Fault {
        Fault {
            rest: input.len(),
            problem: match input.first() {
                Some(&byte) => SyntaxProblem::UnexpectedByte { byte },
                None => SyntaxProblem::BadToken,
            },
        }
    }

    fn append(_: &'a [u8], _: ErrorKind, other: Fault) -> Fault {
        other
    }
}

type PResult<'a, T> = IResult<&'a [u8], T, Fault>;

fn fail<T>(at: &[u8], problem: SyntaxProblem) -> PResult<'_, T> {
    Err(nom::Err::Error(Fault {
        rest: at.len(),
        problem,
    }))
}

/// Symbol characters after the first (standard §7).
const fn is_symbol(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-')
}

/// A symbol: `[A-Za-z0-9][A-Za-z0-9_+#=:-]*`, at most 255 bytes.
pub(crate) fn symbol(i: &[u8]) -> PResult<'_, &[u8]> {
    if !i.first().is_some_and(u8::is_ascii_alphanumeric) {
        return fail(i, SyntaxProblem::BadToken);
    }
    let (rest, s) = take_while1(is_symbol).parse(i)?;
    if s.len() > MAX_SYMBOL_LEN {
        return fail(
            i,
            SyntaxProblem::SymbolTooLong {
                max: MAX_SYMBOL_LEN,
            },
        );
    }
    Ok((rest, s))
}

/// A string `"…"` (standard §7): the raw bytes between the quotes.
pub(crate) fn string(i: &[u8], max: usize) -> PResult<'_, &[u8]> {
    let Some(body) = i.strip_prefix(b"\"") else {
        return fail(i, SyntaxProblem::ExpectedTagValue);
    };
    let mut k = 0;
    loop {
        let (_, run) = take_till(|b: u8| b == b'"' || b == b'\\' || b < 0x20).parse(&body[k..])?;
        k += run.len();
        match body.get(k) {
            None => return fail(i, SyntaxProblem::UnterminatedString),
            Some(b'"') => break,
            Some(b'\\') => match body.get(k + 1) {
                None => return fail(i, SyntaxProblem::UnterminatedString),
                Some(&c) if c < 0x20 => {
                    return fail(&body[k + 1..], SyntaxProblem::ControlInString);
                }
                Some(_) => k += 2,
            },
            Some(b'\n' | b'\r' | b'\t') => return fail(&body[k..], SyntaxProblem::ControlInString),
            Some(&byte) => return fail(&body[k..], SyntaxProblem::UnexpectedByte { byte }),
        }
        if k > max {
            return fail(i, SyntaxProblem::StringTooLong { max });
        }
    }
    if k > max {
        return fail(i, SyntaxProblem::StringTooLong { max });
    }
    Ok((&body[k + 1..], &body[..k]))
}

/// A tag pair `[Name "value"]` with any whitespace between its tokens
/// (import format, standard §8.1): the name and the raw value.
pub(crate) fn tag_pair(i: &[u8], max: usize) -> PResult<'_, (&[u8], &[u8])> {
    let Some(r) = i.strip_prefix(b"[") else {
        return fail(i, SyntaxProblem::BadToken);
    };
    let (r, _) = multispace0(r)?;
    if !r.first().is_some_and(u8::is_ascii_alphanumeric) {
        return fail(r, SyntaxProblem::ExpectedTagName);
    }
    let (after, name) = take_while1(is_symbol).parse(r)?;
    if name.len() > max {
        return fail(r, SyntaxProblem::StringTooLong { max });
    }
    let (r, _) = multispace0(after)?;
    let (r, value) = string(r, max)?;
    let (r, _) = multispace0(r)?;
    match r.strip_prefix(b"]") {
        Some(r) => Ok((r, (name, value))),
        None => fail(r, SyntaxProblem::ExpectedTagClose),
    }
}

/// A brace comment `{…}` (no nesting): the bytes between the braces.
pub(crate) fn brace_comment(i: &[u8], max: usize) -> PResult<'_, &[u8]> {
    let body = &i[1..];
    let Some(end) = body.iter().position(|&b| b == b'}') else {
        if body.len() > max {
            return fail(i, SyntaxProblem::CommentTooLong { max });
        }
        return fail(i, SyntaxProblem::UnterminatedComment);
    };
    if end > max {
        return fail(i, SyntaxProblem::CommentTooLong { max });
    }
    Ok((&body[end + 1..], &body[..end]))
}

/// A `;` comment: the bytes after `;` up to the line end (LF not included,
/// a CR before it dropped).
pub(crate) fn line_comment(i: &[u8], max: usize) -> PResult<'_, &[u8]> {
    let (rest, text) = take_till(|b| b == b'\n').parse(&i[1..])?;
    if text.len() > max {
        return fail(i, SyntaxProblem::CommentTooLong { max });
    }
    Ok((rest, text.strip_suffix(b"\r").unwrap_or(text)))
}

/// A NAG `$n`, n in 0..=255.
pub(crate) fn nag(i: &[u8]) -> PResult<'_, Nag> {
    let (rest, d) = take_while(|b: u8| b.is_ascii_digit()).parse(&i[1..])?;
    if d.is_empty() || d.len() > 3 {
        return fail(i, SyntaxProblem::BadNag);
    }
    let n = d.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0'));
    match u8::try_from(n) {
        Ok(n) => Ok((rest, Nag(n))),
        Err(_) => fail(i, SyntaxProblem::BadNag),
    }
}

/// A suffix annotation `!` `?` `!!` `??` `!?` `?!` as its NAG.
pub(crate) fn suffix(i: &[u8]) -> PResult<'_, Nag> {
    let (rest, s) = take_while1(|b| b == b'!' || b == b'?').parse(i)?;
    match Nag::from_suffix(s) {
        Some(n) => Ok((rest, n)),
        None => fail(i, SyntaxProblem::BadSuffix),
    }
}

/// A token that starts with a digit: a move number (digits), a result, or
/// castling with zeros.
enum DigitToken<'a> {
    MoveNumber,
    Result(GameResult),
    San(&'a [u8]),
}

fn digit_token(i: &[u8]) -> PResult<'_, DigitToken<'_>> {
    let (rest, s) = take_while1(|b| is_symbol(b) || b == b'/').parse(i)?;
    if s.len() > MAX_SYMBOL_LEN {
        return fail(
            i,
            SyntaxProblem::SymbolTooLong {
                max: MAX_SYMBOL_LEN,
            },
        );
    }
    if s.iter().all(u8::is_ascii_digit) {
        return Ok((rest, DigitToken::MoveNumber));
    }
    if let Some(r) = GameResult::from_bytes(s) {
        return Ok((rest, DigitToken::Result(r)));
    }
    let body = s.strip_suffix(b"+").or(s.strip_suffix(b"#")).unwrap_or(s);
    if body == b"0-0" || body == b"0-0-0" {
        return Ok((rest, DigitToken::San(s)));
    }
    fail(i, SyntaxProblem::BadToken)
}

/// Whether only blanks stand before `at` on its line.
fn first_on_line(input: &[u8], at: usize) -> bool {
    input[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|&b| matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c))
}

/// What stopped [`Reader::skip_space`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Eof,
    Token,
    /// A blank line (only when asked to stop there).
    Blank,
    /// A line whose first non-blank byte is `[` (only when asked).
    TagLine,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl<'a> Reader<'a> {
    /// A reader over `input` with [`Limits::DEFAULT`]. A UTF-8 BOM at the
    /// start is skipped.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_limits(input, Limits::DEFAULT)
    }

    /// A reader with the given limits.
    pub fn with_limits(input: &'a [u8], limits: Limits) -> Reader<'a> {
        let pos = if input.starts_with(BOM) { BOM.len() } else { 0 };
        Reader {
            input,
            pos,
            limits,
            lines: Cell::new((0, 1, 0)),
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The byte offset where the next game is looked for.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The line and column (in characters, [`Location`]) of a byte offset
    /// in the input (offsets past the end are taken as the end). Fast for
    /// increasing offsets (the reader remembers how far it counted).
    pub fn location(&self, offset: usize) -> Location {
        let offset = offset.min(self.input.len());
        let (mut at, mut line, mut start) = self.lines.get();
        if offset < at {
            (at, line, start) = (0, 1, 0);
        }
        for (k, &b) in self.input[at..offset].iter().enumerate() {
            if b == b'\n' {
                line += 1;
                start = at + k + 1;
            }
        }
        self.lines.set((offset, line, start));
        Location::in_line(self.input, line, start, offset)
    }

    /// Reads the next game into `visitor`. `None` at the end of the input;
    /// `Some(Err(_))` for a syntax error, after which the reader has
    /// skipped to the next game (see the [module docs](self)).
    pub fn read_game<V: Visitor<'a>>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, SyntaxError>> {
        self.skip_space(false, false);
        if self.pos >= self.input.len() {
            return None;
        }
        let start = self.pos;
        let mut in_tags = true;
        match self.game(visitor, start, &mut in_tags) {
            Ok(out) => Some(Ok(out)),
            Err((offset, problem, output)) => {
                self.resync(offset, in_tags);
                match output {
                    Some(out) => Some(Ok(out)),
                    None => Some(Err(SyntaxError {
                        format: RecordFormat::Pgn,
                        location: self.location(offset),
                        problem,
                    })),
                }
            }
        }
    }

    /// Skips whitespace and `%` escape lines from `self.pos`. Returns the
    /// stop and whether a blank line was crossed.
    fn skip_space(&mut self, blank_ends: bool, tagline_ends: bool) -> (Stop, bool) {
        let s = self.input;
        let mut i = self.pos;
        let mut col0 = i == 0 || s[i - 1] == b'\n' || (i == BOM.len() && s.starts_with(BOM));
        let mut first = col0;
        let mut newlines = 0u32;
        let mut blank = false;
        loop {
            let Some(&b) = s.get(i) else {
                self.pos = i;
                return (Stop::Eof, blank);
            };
            match b {
                b'\n' => {
                    newlines += 1;
                    i += 1;
                    col0 = true;
                    first = true;
                    if newlines >= 2 {
                        blank = true;
                        if blank_ends {
                            self.pos = i;
                            return (Stop::Blank, true);
                        }
                    }
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    i += 1;
                    col0 = false;
                }
                b'%' if col0 => {
                    i += s[i..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .unwrap_or(s.len() - i);
                    newlines = 0;
                    col0 = false;
                    first = false;
                }
                b'[' if first && tagline_ends && s.get(i + 1) != Some(&b'%') => {
                    self.pos = i;
                    return (Stop::TagLine, blank);
                }
                _ => {
                    self.pos = i;
                    return (Stop::Token, blank);
                }
            }
        }
    }

    /// Whether the tag about to be read at `self.pos` (a `[`) repeats a
    /// tag name already in this game's tag section `[start, self.pos)`.
    fn repeats_tag(&self, start: usize) -> bool {
        let Ok((_, (name, _))) = tag_pair(&self.input[self.pos..], self.limits.max_string_len)
        else {
            return false;
        };
        let mut r = &self.input[start..self.pos];
        while let Some(k) = r.iter().position(|&b| b == b'[') {
            r = &r[k..];
            match tag_pair(r, self.limits.max_string_len) {
                Ok((rest, (n, _))) => {
                    if n == name {
                        return true;
                    }
                    r = rest;
                }
                Err(_) => r = &r[1..],
            }
        }
        false
    }

    /// After an error at `offset`: to the next game (see [`resync_point`]).
    fn resync(&mut self, offset: usize, in_tags: bool) {
        self.pos = resync_point(self.input, offset, in_tags);
    }

    /// Reads one game. On a syntax error: its offset, the problem, and the
    /// visitor's output if it had already broken off (then the error is
    /// not reported).
    #[allow(clippy::type_complexity)]
    fn game<V: Visitor<'a>>(
        &mut self,
        v: &mut V,
        start: usize,
        in_tags: &mut bool,
    ) -> Result<V::Output, (usize, SyntaxProblem, Option<V::Output>)> {
        let lim = self.limits;
        let input = self.input;
        let mut out: Option<V::Output> = None;
        macro_rules! call {
            ($e:expr) => {
                if out.is_none() {
                    if let ControlFlow::Break(o) = $e {
                        out = Some(o);
                    }
                }
            };
        }
        macro_rules! fault {
            ($at:expr, $p:expr) => {
                return Err(($at, $p, out.take()))
            };
        }
        macro_rules! parse {
            ($e:expr) => {
                match $e {
                    Ok((rest, v)) => {
                        self.pos = input.len() - rest.len();
                        v
                    }
                    Err(nom::Err::Error(f) | nom::Err::Failure(f)) => {
                        fault!(input.len() - f.rest, f.problem)
                    }
                    Err(nom::Err::Incomplete(_)) => fault!(self.pos, SyntaxProblem::BadToken),
                }
            };
        }

        call!(v.begin_game(start));
        // Tag section.
        let mut ntags = 0usize;
        let mut new_game_follows = false;
        loop {
            let (stop, blank) = self.skip_space(false, false);
            if stop != Stop::Token || input[self.pos] != b'[' {
                break;
            }
            if blank && ntags > 0 && self.repeats_tag(start) {
                new_game_follows = true;
                break;
            }
            let at = self.pos;
            if at - start > lim.max_game_len {
                fault!(
                    at,
                    SyntaxProblem::GameTooLong {
                        max: lim.max_game_len
                    }
                );
            }
            let (name, value) = parse!(tag_pair(&input[at..], lim.max_string_len));
            ntags += 1;
            if ntags > lim.max_tags {
                fault!(at, SyntaxProblem::TooManyTags { max: lim.max_tags });
            }
            // A symbol is ASCII.
            let name = core::str::from_utf8(name).unwrap_or_default();
            call!(v.tag(name, RawValue(value), at));
        }
        *in_tags = false;
        call!(v.end_tags(self.pos));

        // Movetext.
        let mut depth = 0usize;
        let mut skip_depth = 0usize;
        let mut seen = false;
        let mut after_result = false;
        let mut moves = 0usize;
        loop {
            if new_game_follows {
                break;
            }
            let (stop, _) = self.skip_space(seen, true);
            if stop != Stop::Token {
                break;
            }
            let at = self.pos;
            if at - start > lim.max_game_len {
                fault!(
                    at,
                    SyntaxProblem::GameTooLong {
                        max: lim.max_game_len
                    }
                );
            }
            let rest = &input[at..];
            let b = rest[0];
            seen = true;
            let quiet = skip_depth > 0;
            match b {
                b'{' => {
                    let text = parse!(brace_comment(rest, lim.max_comment_len));
                    if !quiet {
                        let c = RawComment {
                            bytes: text,
                            kind: CommentKind::Brace,
                        };
                        call!(v.comment(c, at));
                    }
                    continue;
                }
                b';' => {
                    let text = parse!(line_comment(rest, lim.max_comment_len));
                    if !quiet {
                        let c = RawComment {
                            bytes: text,
                            kind: CommentKind::Line,
                        };
                        call!(v.comment(c, at));
                    }
                    continue;
                }
                // A token first on its line after the result starts the
                // next game (games without tags, one after the other).
                _ if after_result && first_on_line(input, at) => break,
                _ if after_result => fault!(at, SyntaxProblem::TokenAfterResult),
                b'(' => {
                    self.pos += 1;
                    depth += 1;
                    if depth > lim.max_depth {
                        fault!(at, SyntaxProblem::TooDeep { max: lim.max_depth });
                    }
                    if quiet {
                        skip_depth += 1;
                    } else if out.is_none() {
                        match v.begin_variation(at) {
                            ControlFlow::Break(o) => out = Some(o),
                            ControlFlow::Continue(Skip(true)) => skip_depth = 1,
                            ControlFlow::Continue(Skip(false)) => {}
                        }
                    }
                }
                b')' => {
                    self.pos += 1;
                    if depth == 0 {
                        fault!(at, SyntaxProblem::UnmatchedClose);
                    }
                    depth -= 1;
                    if quiet {
                        skip_depth -= 1;
                    } else {
                        call!(v.end_variation(at));
                    }
                }
                b'$' => {
                    let n = parse!(nag(rest));
                    if !quiet {
                        call!(v.nag(n, at));
                    }
                }
                b'!' | b'?' => {
                    let n = parse!(suffix(rest));
                    if !quiet {
                        call!(v.nag(n, at));
                    }
                }
                b'.' => {
                    let _ = parse!(take_while1::<_, &[u8], Fault>(|c| c == b'.').parse(rest));
                }
                b'*' => {
                    self.pos += 1;
                    if depth > 0 {
                        fault!(at, SyntaxProblem::ResultInVariation);
                    }
                    after_result = true;
                    call!(v.outcome(GameResult::Unknown, at));
                }
                b'0'..=b'9' => match parse!(digit_token(rest)) {
                    DigitToken::MoveNumber => {}
                    DigitToken::Result(r) => {
                        if depth > 0 {
                            fault!(at, SyntaxProblem::ResultInVariation);
                        }
                        after_result = true;
                        call!(v.outcome(r, at));
                    }
                    DigitToken::San(s) => {
                        moves += 1;
                        if moves > lim.max_moves {
                            fault!(at, SyntaxProblem::TooManyMoves { max: lim.max_moves });
                        }
                        if !quiet {
                            call!(v.san(core::str::from_utf8(s).unwrap_or_default(), at));
                        }
                    }
                },
                b'-' if rest.get(1) == Some(&b'-')
                    && !rest.get(2).is_some_and(|&c| is_symbol(c)) =>
                {
                    self.pos += 2;
                    moves += 1;
                    if moves > lim.max_moves {
                        fault!(at, SyntaxProblem::TooManyMoves { max: lim.max_moves });
                    }
                    if !quiet {
                        call!(v.san("--", at));
                    }
                }
                b'A'..=b'Z' | b'a'..=b'z' => {
                    let s = parse!(symbol(rest));
                    moves += 1;
                    if moves > lim.max_moves {
                        fault!(at, SyntaxProblem::TooManyMoves { max: lim.max_moves });
                    }
                    if !quiet {
                        call!(v.san(core::str::from_utf8(s).unwrap_or_default(), at));
                    }
                }
                byte => fault!(at, SyntaxProblem::UnexpectedByte { byte }),
            }
        }
        if depth > 0 {
            fault!(self.pos, SyntaxProblem::UnclosedVariation { depth });
        }
        match out {
            Some(o) => Ok(o),
            None => Ok(v.end_game(self.pos)),
        }
    }
}

/// Where reading goes on after an error at `offset` of `s` (shared by the
/// PGN and PDN readers): the next line starting with `[` (not `[%`) that
/// follows a line that is not a tag pair line (`in_tags`: the error was in
/// the tag section, whose remaining tag lines are skipped too); the end of
/// `s` when there is none.
pub(crate) fn resync_point(s: &[u8], offset: usize, in_tags: bool) -> usize {
    let mut i = match s[offset.min(s.len())..].iter().position(|&b| b == b'\n') {
        Some(k) => offset + k + 1,
        None => s.len(),
    };
    let mut seen_break = !in_tags;
    while i < s.len() {
        let end = s[i..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(s.len(), |k| i + k);
        let line = &s[i..end];
        if line.first() == Some(&b'[') && line.get(1) != Some(&b'%') {
            if seen_break {
                return i;
            }
        } else {
            seen_break = true;
        }
        i = end + 1;
    }
    s.len()
}
