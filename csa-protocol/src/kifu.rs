//! CSA kifu (game record) files: `V2` as Floodgate writes it, `V2.1`, `V2.2`
//! and `V3.0` ([`spec::csa`](crate::spec::csa), *Notation users expect*; CSA "standard file
//! format" pages).
//!
//! A file is bytes: V2 files are often Shift_JIS or EUC-JP, V3.0 declares its
//! encoding in a first comment line (`'CSA encoding=UTF-8`). The reader never
//! decodes text: names, `$` values and comments are kept as raw bytes (decode
//! them explicitly, e.g. [`Comment::text_utf8`]); no record fails because a
//! comment is not UTF-8.
//!
//! Nothing is silently dropped: a record is the ordered list of every
//! statement it holds ([`Item`]), so [`write_kifu`] gives back the input
//! (byte for byte for files written one statement per line with LF endings),
//! and a line that is no CSA statement is a [`KifuError`] with its line
//! number, column and 0-based byte offset in the file. Typed views
//! ([`Record::moves`], [`Record::iter_moves`], [`Record::names`], ...) read
//! the items. Several records in one file are separated by a `/` line.
//!
//! The grammar is [`parse`]: one [`nom`] parser per line kind. [`Records`]
//! reads a file one record at a time (its only allocation is the record's
//! item list) and [`Statements`] one statement at a time (no allocation);
//! [`parse_kifu`] collects the records.
//!
//! ```
//! use csa_protocol::kifu::{parse_kifu, write_kifu};
//!
//! let text = b"V2.2\nN+sente\nN-gote\nPI\n+\n+2726FU\nT12\n-3334FU\nT6\n%TORYO\n";
//! let records = parse_kifu(text).unwrap();
//! let moves = records[0].moves();
//! assert_eq!(moves.len(), 2);
//! assert_eq!(moves[0].mv.to_string(), "+2726FU");
//! assert_eq!(moves[0].time.unwrap().as_secs(), 12);
//! assert_eq!(write_kifu(&records), text);
//! ```

use alloc::vec::Vec;
use core::fmt;

use crate::moves::CsaMove;
use crate::types::{MoveTime, Side};

/// A special move (`%` statement) of a kifu file (CSA standard file format
/// V2.2 / V3.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KifuSpecial {
    /// `%TORYO` resignation.
    Toryo,
    /// `%CHUDAN` interruption.
    Chudan,
    /// `%SENNICHITE` repetition draw.
    Sennichite,
    /// `%TIME_UP` loss on time (by the side to move).
    TimeUp,
    /// `%ILLEGAL_MOVE` (the side to move made an illegal move).
    IllegalMove,
    /// `%+ILLEGAL_ACTION` Black acted illegally.
    IllegalActionBlack,
    /// `%-ILLEGAL_ACTION` White acted illegally.
    IllegalActionWhite,
    /// `%JISHOGI` impasse.
    Jishogi,
    /// `%KACHI` winning declaration.
    Kachi,
    /// `%HIKIWAKE` draw declaration.
    Hikiwake,
    /// `%MAX_MOVES` move limit reached.
    MaxMoves,
    /// `%TSUMI` checkmate.
    Tsumi,
    /// `%FUZUMI` no mate (tsume problems).
    Fuzumi,
    /// `%ERROR` error.
    Error,
    /// `%MATTA` take-back.
    Matta,
}

impl KifuSpecial {
    /// Every special, in the spec's order.
    pub const ALL: [KifuSpecial; 15] = [
        KifuSpecial::Toryo,
        KifuSpecial::Chudan,
        KifuSpecial::Sennichite,
        KifuSpecial::TimeUp,
        KifuSpecial::IllegalMove,
        KifuSpecial::IllegalActionBlack,
        KifuSpecial::IllegalActionWhite,
        KifuSpecial::Jishogi,
        KifuSpecial::Kachi,
        KifuSpecial::Hikiwake,
        KifuSpecial::MaxMoves,
        KifuSpecial::Tsumi,
        KifuSpecial::Fuzumi,
        KifuSpecial::Error,
        KifuSpecial::Matta,
    ];

    /// The statement text, e.g. `%TORYO`.
    pub fn as_str(self) -> &'static str {
        match self {
            KifuSpecial::Toryo => "%TORYO",
            KifuSpecial::Chudan => "%CHUDAN",
            KifuSpecial::Sennichite => "%SENNICHITE",
            KifuSpecial::TimeUp => "%TIME_UP",
            KifuSpecial::IllegalMove => "%ILLEGAL_MOVE",
            KifuSpecial::IllegalActionBlack => "%+ILLEGAL_ACTION",
            KifuSpecial::IllegalActionWhite => "%-ILLEGAL_ACTION",
            KifuSpecial::Jishogi => "%JISHOGI",
            KifuSpecial::Kachi => "%KACHI",
            KifuSpecial::Hikiwake => "%HIKIWAKE",
            KifuSpecial::MaxMoves => "%MAX_MOVES",
            KifuSpecial::Tsumi => "%TSUMI",
            KifuSpecial::Fuzumi => "%FUZUMI",
            KifuSpecial::Error => "%ERROR",
            KifuSpecial::Matta => "%MATTA",
        }
    }
}

/// A comment line (`'...`), kept as raw bytes without the leading `'`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Comment<'a>(&'a [u8]);

impl<'a> Comment<'a> {
    /// A comment of `bytes` (without the `'`; no line end inside).
    pub(crate) fn from_raw(bytes: &'a [u8]) -> Self {
        Self(bytes)
    }

    /// A comment for a kifu writer: `bytes` as they follow the `'` (any
    /// encoding; a Floodgate evaluation is `* 30 -3334FU`), `None` when
    /// they hold a CR or LF (which would end the line).
    ///
    /// ```
    /// use csa_protocol::kifu::Comment;
    /// assert_eq!(Comment::new(b"* 30 -3334FU").unwrap().as_bytes(), b"* 30 -3334FU");
    /// assert!(Comment::new(b"two\nlines").is_none());
    /// ```
    pub fn new(bytes: &'a [u8]) -> Option<Self> {
        (!bytes.iter().any(|&b| b == b'\r' || b == b'\n')).then_some(Self(bytes))
    }

    /// The bytes after `'` (undecoded: may be Shift_JIS, EUC-JP, UTF-8...).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The comment as UTF-8, if it is valid UTF-8 (explicit decode).
    pub fn text_utf8(&self) -> Option<&'a str> {
        core::str::from_utf8(self.0).ok()
    }

    /// A Floodgate evaluation comment `'** <eval> <pv...>` (also `'* `, as
    /// sent with moves): the text after the stars.
    pub fn floodgate_eval(&self) -> Option<&'a [u8]> {
        self.0
            .strip_prefix(b"**")
            .or_else(|| self.0.strip_prefix(b"*"))
    }

    /// `'CSA encoding=<name>` (V3.0 first line): the encoding name.
    pub fn encoding(&self) -> Option<&'a [u8]> {
        self.0.strip_prefix(b"CSA encoding=")
    }
}

impl fmt::Debug for Comment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.text_utf8() {
            Some(s) => write!(f, "Comment({s:?})"),
            None => write!(f, "Comment(bytes {:?})", self.0),
        }
    }
}

/// One statement of a record, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Item<'a> {
    /// `V2`, `V2.1`, `V2.2`, `V3.0`: the text after `V`.
    Version(&'a str),
    /// `N+<name>` / `N-<name>` (raw bytes).
    Name {
        /// Whose name.
        side: Side,
        /// The name bytes.
        name: &'a [u8],
    },
    /// `$<KEY>:<value>` (value raw bytes), e.g. `$EVENT:...`, `$TIME:600+10+0`.
    Info {
        /// The key, e.g. `EVENT`, `START_TIME`, `TIME`, `MAX_MOVES`.
        key: &'a str,
        /// The value bytes.
        value: &'a [u8],
    },
    /// A position line: `P1`..`P9`, `PI...`, `P+...`, `P-...`.
    Position(&'a str),
    /// The side to move (`+` or `-` alone) ending the position.
    SideToMove(Side),
    /// A move.
    Move(CsaMove),
    /// `T<seconds>` time of the preceding move (decimals allowed).
    Time(MoveTime),
    /// A `%` special move.
    Special(KifuSpecial),
    /// A `'` comment.
    Comment(Comment<'a>),
    /// An empty line (kept so that nothing is dropped).
    Blank,
}

impl Item<'_> {
    /// The statement in words (what `boardwire csa decode` prints for a
    /// kifu line): `move +7776FU: sente FU 7g to 7f`, `name of sente (+):
    /// alice`. Raw text that is not UTF-8 is shown with U+FFFD.
    pub fn describe(&self) -> impl fmt::Display + '_ {
        crate::describe::kifu_text(self).1
    }

    /// What kind of statement this is, as `boardwire csa decode` labels it:
    /// `comment`, `name`, `info` or `statement`.
    pub fn kind(&self) -> &'static str {
        crate::describe::kifu_text(self).0
    }
}

/// One game record of a kifu file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record<'a> {
    /// The statements, in file order.
    pub items: Vec<Item<'a>>,
}

/// A move of [`Record::moves`] with what follows it (no copy: the
/// comments are read from the record's items).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KifuMove<'r, 'a> {
    /// The move.
    pub mv: CsaMove,
    /// Its `T` time, if recorded.
    pub time: Option<MoveTime>,
    /// The items after the move, up to the next move or special.
    following: &'r [Item<'a>],
}

impl<'r, 'a> KifuMove<'r, 'a> {
    /// Comments between this move and the next move or special, in order.
    pub fn comments(&self) -> impl Iterator<Item = Comment<'a>> + 'r {
        self.following.iter().filter_map(|i| match i {
            Item::Comment(c) => Some(*c),
            _ => None,
        })
    }
}

/// The moves of a record one by one ([`Record::iter_moves`]).
#[derive(Debug, Clone)]
pub struct Moves<'r, 'a> {
    /// The items not read yet.
    items: &'r [Item<'a>],
}

impl<'r, 'a> Iterator for Moves<'r, 'a> {
    type Item = KifuMove<'r, 'a>;

    fn next(&mut self) -> Option<Self::Item> {
        let at = self.items.iter().position(|i| matches!(i, Item::Move(_)))?;
        let Item::Move(mv) = self.items[at] else {
            return None;
        };
        let after = &self.items[at + 1..];
        let len = after
            .iter()
            .position(|i| matches!(i, Item::Move(_) | Item::Special(_)))
            .unwrap_or(after.len());
        let (following, rest) = after.split_at(len);
        self.items = rest;
        let time = following.iter().find_map(|x| match x {
            Item::Time(t) => Some(*t),
            _ => None,
        });
        Some(KifuMove {
            mv,
            time,
            following,
        })
    }
}

impl core::iter::FusedIterator for Moves<'_, '_> {}

/// `$TIME:<total>+<byoyomi>+<increment>` (V3.0), in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KifuTime {
    /// Total time.
    pub total: MoveTime,
    /// Byoyomi.
    pub byoyomi: MoveTime,
    /// Fischer increment (absent means 0).
    pub increment: MoveTime,
}

impl<'a> Record<'a> {
    /// The version text (`2`, `2.1`, `2.2`, `3.0`), if a version line exists.
    pub fn version(&self) -> Option<&'a str> {
        self.items.iter().find_map(|i| match i {
            Item::Version(v) => Some(*v),
            _ => None,
        })
    }

    /// The declared encoding (V3.0 `'CSA encoding=...` comment), if any.
    pub fn encoding(&self) -> Option<&'a [u8]> {
        self.items.iter().find_map(|i| match i {
            Item::Comment(c) => c.encoding(),
            _ => None,
        })
    }

    /// `(N+, N-)` names as text: exactly the bytes of the file when they
    /// are valid UTF-8 (ASCII included). A name in another encoding (a
    /// Shift_JIS V2 file, see [`Record::encoding`]) is `None` here, as an
    /// absent one; its bytes are in [`Record::names_raw`].
    pub fn names(&self) -> (Option<&'a str>, Option<&'a str>) {
        let (b, w) = self.names_raw();
        let text = |n: Option<&'a [u8]>| n.and_then(|n| core::str::from_utf8(n).ok());
        (text(b), text(w))
    }

    /// `(N+, N-)` names as the file's bytes, whatever their encoding.
    pub fn names_raw(&self) -> (Option<&'a [u8]>, Option<&'a [u8]>) {
        let mut out = (None, None);
        for i in &self.items {
            if let Item::Name { side, name } = i {
                match side {
                    Side::Black => out.0 = Some(*name),
                    Side::White => out.1 = Some(*name),
                }
            }
        }
        out
    }

    /// The value of the first `$<key>:` line.
    pub fn info(&self, key: &str) -> Option<&'a [u8]> {
        self.items.iter().find_map(|i| match i {
            Item::Info { key: k, value } if *k == key => Some(*value),
            _ => None,
        })
    }

    /// `$TIME:<total>+<byoyomi>[+<increment>]` (V3.0) parsed; `None` if
    /// absent or malformed.
    pub fn time_control(&self) -> Option<KifuTime> {
        let v = self.info("TIME")?;
        let mut parts = v.split(|&b| b == b'+');
        let total = MoveTime::parse(parts.next()?).ok()?;
        let byoyomi = MoveTime::parse(parts.next()?).ok()?;
        let increment = match parts.next() {
            Some(p) => MoveTime::parse(p).ok()?,
            None => MoveTime::default(),
        };
        if parts.next().is_some() {
            return None;
        }
        Some(KifuTime {
            total,
            byoyomi,
            increment,
        })
    }

    /// The position text (position lines and side to move, LF-terminated),
    /// as `board_core::shogi`'s CSA position reader takes it.
    pub fn position_text(&self) -> alloc::string::String {
        let mut s = alloc::string::String::new();
        for i in &self.items {
            match i {
                Item::Position(p) => {
                    s.push_str(p);
                    s.push('\n');
                }
                Item::SideToMove(side) => {
                    s.push(side.sign());
                    s.push('\n');
                }
                _ => {}
            }
        }
        s
    }

    /// The moves with their times and comments (one allocation: the list;
    /// [`Record::iter_moves`] without it).
    pub fn moves(&self) -> Vec<KifuMove<'_, 'a>> {
        let mut out = Vec::with_capacity(self.items.len() / 2);
        out.extend(self.iter_moves());
        out
    }

    /// The moves with their times and comments, one by one, without
    /// allocating.
    pub fn iter_moves(&self) -> Moves<'_, 'a> {
        Moves { items: &self.items }
    }

    /// The final special move and its time, if the record has one.
    pub fn end(&self) -> Option<(KifuSpecial, Option<MoveTime>)> {
        let mut end = None;
        for i in &self.items {
            match i {
                Item::Special(s) => end = Some((*s, None)),
                Item::Time(t) => {
                    if let Some((_, time @ None)) = &mut end {
                        *time = Some(*t);
                    }
                }
                Item::Move(_) => end = None,
                _ => {}
            }
        }
        end
    }
}

/// A kifu line that is no CSA statement, or a malformed statement.
///
/// ```
/// use csa_protocol::kifu::{KifuProblem, parse_kifu};
///
/// let e = parse_kifu(b"V2.2\nPI\n+\n+7776F\n").unwrap_err();
/// assert_eq!((e.line, e.column, e.offset), (4, 6, 16)); // the line is cut off after `F`
/// assert_eq!(e.what, KifuProblem::MoveLength);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("kifu line {line}, column {column} (byte {offset}): {what}")]
#[non_exhaustive]
pub struct KifuError {
    /// 1-based line number.
    pub line: usize,
    /// 0-based byte offset in the line (the line's length for a statement
    /// cut off at the end of the line).
    pub column: usize,
    /// 0-based byte offset in the file (`column` plus the line's start).
    pub offset: usize,
    /// What is wrong.
    pub what: KifuProblem,
}

/// What is wrong with a kifu line ([`KifuError`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KifuProblem {
    /// `V...` that is not `V2`, `V2.1`, `V2.2` or `V3.0`.
    #[error("version must be V2, V2.1, V2.2 or V3.0")]
    Version,
    /// `N` not followed by `+` or `-`.
    #[error("name line must start with N+ or N-")]
    NameSide,
    /// A `$` line without `:`.
    #[error("`$` line needs `:`")]
    InfoColon,
    /// A `$` key outside `[A-Z0-9_]+`.
    #[error("`$` key must be [A-Z0-9_]+")]
    InfoKey,
    /// A malformed position line.
    #[error("malformed position line")]
    Position,
    /// An empty statement (`,,`).
    #[error("empty statement")]
    EmptyStatement,
    /// A malformed CSA move.
    #[error("malformed CSA move")]
    Move,
    /// A move that is not 7 bytes long.
    #[error("a move is 7 bytes like +7776FU")]
    MoveLength,
    /// A malformed `T` time.
    #[error("malformed time")]
    Time,
    /// A `%` statement that is no special move.
    #[error("unknown special move")]
    Special,
    /// A line that is no CSA kifu statement.
    #[error("not a CSA kifu statement")]
    NotAStatement,
}

pub mod parse {
    //! The [`nom`] parsers of the kifu statements, one per line kind
    //! ([`spec::csa`](crate::spec::csa), *Notation users expect*; CSA standard file
    //! format V2.2 / V3.0), public so that users can embed them.
    //!
    //! Every parser has the shape `fn(&[u8]) -> IResult<&[u8], T,
    //! KifuParseError>` ([`KResult`]) over one line without its terminator
    //! (or the rest of one): the whole-line kinds (comment, version, name,
    //! `$` info, position) take the line to its end; a statement (move,
    //! time, special, side to move) ends at `,` or the end of the line,
    //! and the rest (from the `,` on) is returned. They borrow from the
    //! input and never allocate.
    //!
    //! A malformed statement is a [`nom::Err::Failure`]; "not this kind"
    //! is a [`nom::Err::Error`]. [`KifuParseError::remaining`] is the
    //! length of the input from the failing byte on.
    //!
    //! ```
    //! use csa_protocol::kifu::Item;
    //! use csa_protocol::kifu::parse::{line, next_statement};
    //! use csa_protocol::types::CsaMove;
    //!
    //! let (rest, first) = line(b"+7776FU,T12,'** 30").unwrap();
    //! assert_eq!(first, Item::Move(CsaMove::parse(b"+7776FU").unwrap()));
    //! let (rest, time) = next_statement(rest).unwrap();
    //! assert_eq!(time, Item::Time(csa_protocol::types::MoveTime::from_secs(12)));
    //! let (rest, comment) = next_statement(rest).unwrap();
    //! assert!(matches!(comment, Item::Comment(c) if c.as_bytes() == b"** 30"));
    //! assert!(rest.is_empty());
    //! ```

    use nom::IResult;
    use nom::Parser as _;
    use nom::bytes::complete::{tag, take_till};
    use nom::combinator::rest;
    use nom::error::ErrorKind;

    use super::{Comment, Item, KifuProblem, KifuSpecial};
    use crate::moves::{CsaMove, MOVE_LEN, move_error_offset};
    use crate::types::{MoveTime, Side};

    /// A kifu parser's failure: what is wrong and where (the length of the
    /// input from the failing byte on; the column in the line is
    /// `line.len() - remaining`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct KifuParseError {
        /// What is wrong.
        pub problem: KifuProblem,
        /// Bytes of the input from the failing byte to its end.
        pub remaining: usize,
    }

    impl<'a> nom::error::ParseError<&'a [u8]> for KifuParseError {
        fn from_error_kind(input: &'a [u8], _kind: ErrorKind) -> Self {
            KifuParseError {
                problem: KifuProblem::NotAStatement,
                remaining: input.len(),
            }
        }

        fn append(_input: &'a [u8], _kind: ErrorKind, other: Self) -> Self {
            other
        }
    }

    /// The result of every parser of this module.
    pub type KResult<'a, T> = IResult<&'a [u8], T, KifuParseError>;

    fn failure<T>(remaining: usize, problem: KifuProblem) -> KResult<'static, T> {
        Err(nom::Err::Failure(KifuParseError { problem, remaining }))
    }

    fn not_this(i: &[u8]) -> nom::Err<KifuParseError> {
        nom::Err::Error(KifuParseError {
            problem: KifuProblem::NotAStatement,
            remaining: i.len(),
        })
    }

    /// `'<text>`: a comment, to the end of the line (raw bytes).
    ///
    /// # Errors
    /// `Error` when the input does not start with `'`.
    #[inline(always)]
    pub fn comment(i: &[u8]) -> KResult<'_, Comment<'_>> {
        let (i, _) = tag(&b"'"[..]).parse(i)?;
        rest.map(Comment).parse(i)
    }

    /// `V2`, `V2.1`, `V2.2`, `V3.0`: the text after `V`.
    ///
    /// # Errors
    /// [`KifuProblem::Version`] at the byte after `V`.
    pub fn version(i: &[u8]) -> KResult<'_, &str> {
        let (v, _) = tag(&b"V"[..]).parse(i)?;
        match v {
            b"2" | b"2.1" | b"2.2" | b"3.0" => {
                // ASCII by the match above.
                let s = core::str::from_utf8(v).unwrap_or("2");
                Ok((&v[v.len()..], s))
            }
            _ => failure(v.len(), KifuProblem::Version),
        }
    }

    /// `N+<name>` / `N-<name>`: the side and the name's raw bytes.
    ///
    /// # Errors
    /// [`KifuProblem::NameSide`] at the byte after `N`.
    pub fn name(i: &[u8]) -> KResult<'_, (Side, &[u8])> {
        let (r, _) = tag(&b"N"[..]).parse(i)?;
        let side = match r.first() {
            Some(b'+') => Side::Black,
            Some(b'-') => Side::White,
            _ => return failure(r.len(), KifuProblem::NameSide),
        };
        let n = &r[1..];
        Ok((&n[n.len()..], (side, n)))
    }

    /// `$<KEY>:<value>`: the key (`[A-Z0-9_]+`) and the value's raw bytes.
    ///
    /// # Errors
    /// [`KifuProblem::InfoColon`] at the end of the line,
    /// [`KifuProblem::InfoKey`] at the key.
    pub fn info(i: &[u8]) -> KResult<'_, (&str, &[u8])> {
        let (r, _) = tag(&b"$"[..]).parse(i)?;
        let (after, key) = take_till(|b| b == b':').parse(r)?;
        if after.is_empty() {
            return failure(0, KifuProblem::InfoColon);
        }
        if key.is_empty()
            || !key
                .iter()
                .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        {
            return failure(r.len(), KifuProblem::InfoKey);
        }
        let value = &after[1..];
        // ASCII by the check above.
        let key = core::str::from_utf8(key).unwrap_or("");
        Ok((&value[value.len()..], (key, value)))
    }

    /// A position line, `P1`..`P9`, `PI...`, `P+...`, `P-...` (the
    /// position itself is read by `board_core::shogi`).
    ///
    /// # Errors
    /// [`KifuProblem::Position`] at the first bad byte.
    pub fn position(i: &[u8]) -> KResult<'_, &str> {
        if i.first() != Some(&b'P') {
            return Err(not_this(i));
        }
        match crate::position::check_line(i) {
            Ok(s) => Ok((&i[i.len()..], s)),
            Err(e) => failure(i.len() - e.offset.min(i.len()), KifuProblem::Position),
        }
    }

    /// The statement: the bytes up to `,` or the end of the line.
    #[inline(always)]
    fn statement_bytes(i: &[u8]) -> KResult<'_, &[u8]> {
        take_till(|b| b == b',').parse(i)
    }

    /// `+` or `-` alone: the side to move ending a position.
    ///
    /// # Errors
    /// `Error` for anything else.
    #[inline(always)]
    pub fn side_to_move(i: &[u8]) -> KResult<'_, Side> {
        match statement_bytes(i)? {
            (r, b"+") => Ok((r, Side::Black)),
            (r, b"-") => Ok((r, Side::White)),
            _ => Err(not_this(i)),
        }
    }

    /// A move, `+7776FU` (the notation is board-core's).
    ///
    /// # Errors
    /// [`KifuProblem::MoveLength`] for a statement that is not 7 bytes,
    /// [`KifuProblem::Move`] at the bad byte.
    #[inline(always)]
    pub fn kifu_move(i: &[u8]) -> KResult<'_, CsaMove> {
        let (r, stmt) = statement_bytes(i)?;
        if stmt.len() != MOVE_LEN {
            return failure(i.len() - stmt.len().min(MOVE_LEN), KifuProblem::MoveLength);
        }
        match CsaMove::parse(stmt) {
            Ok(mv) => Ok((r, mv)),
            Err(e) => failure(i.len() - move_error_offset(&e), KifuProblem::Move),
        }
    }

    /// `T<seconds>`: the time of the preceding move (decimals allowed).
    ///
    /// # Errors
    /// [`KifuProblem::Time`] at the bad byte.
    #[inline(always)]
    pub fn time(i: &[u8]) -> KResult<'_, MoveTime> {
        let (r, stmt) = statement_bytes(i)?;
        let Some(t) = stmt.strip_prefix(b"T") else {
            return Err(not_this(i));
        };
        match MoveTime::parse(crate::parse::without_trailing_dot(t)) {
            Ok(v) => Ok((r, v)),
            Err((idx, _)) => failure(i.len() - 1 - idx, KifuProblem::Time),
        }
    }

    /// A `%` special move, e.g. `%TORYO`.
    ///
    /// # Errors
    /// [`KifuProblem::Special`] for a `%` statement that is none.
    pub fn special(i: &[u8]) -> KResult<'_, KifuSpecial> {
        let (r, stmt) = statement_bytes(i)?;
        if stmt.first() != Some(&b'%') {
            return Err(not_this(i));
        }
        match KifuSpecial::ALL
            .iter()
            .find(|s| s.as_str().as_bytes() == stmt)
        {
            Some(s) => Ok((r, *s)),
            None => failure(i.len(), KifuProblem::Special),
        }
    }

    /// One statement of a statement line: a move, a time, a special or
    /// the side to move, up to `,` or the end of the line.
    ///
    /// # Errors
    /// [`KifuProblem::EmptyStatement`], [`KifuProblem::NotAStatement`],
    /// or the statement's own problem.
    #[inline(always)]
    pub fn statement(i: &[u8]) -> KResult<'_, Item<'_>> {
        match i.first() {
            None | Some(b',') => failure(i.len(), KifuProblem::EmptyStatement),
            Some(b'+' | b'-') if matches!(i.get(1), None | Some(b',')) => {
                side_to_move.map(Item::SideToMove).parse(i)
            }
            Some(b'+' | b'-') => kifu_move.map(Item::Move).parse(i),
            Some(b'T') => time.map(Item::Time).parse(i),
            Some(b'%') => special.map(Item::Special).parse(i),
            Some(_) => failure(i.len(), KifuProblem::NotAStatement),
        }
    }

    /// What follows a statement on its line: `,` and the next statement,
    /// or `,'` and a comment to the end of the line.
    ///
    /// # Errors
    /// `Error` when the input does not start with `,`; as [`statement`].
    #[inline(always)]
    pub fn next_statement(i: &[u8]) -> KResult<'_, Item<'_>> {
        let (r, _) = tag(&b","[..]).parse(i)?;
        if r.first() == Some(&b'\'') {
            return comment.map(Item::Comment).parse(r);
        }
        statement(r)
    }

    /// The first item of a non-empty line that is not `/`: a comment,
    /// version, name, `$` info or position line (the whole line), or the
    /// line's first statement (the rest from `,` on is returned; read it
    /// with [`next_statement`]).
    ///
    /// # Errors
    /// The problem of the line's kind.
    #[inline(always)]
    pub fn line(i: &[u8]) -> KResult<'_, Item<'_>> {
        match i.first() {
            Some(b'\'') => comment.map(Item::Comment).parse(i),
            Some(b'V') => version.map(Item::Version).parse(i),
            Some(b'N') => name.map(|(side, name)| Item::Name { side, name }).parse(i),
            Some(b'$') => info.map(|(key, value)| Item::Info { key, value }).parse(i),
            Some(b'P') => position.map(Item::Position).parse(i),
            _ => statement(i),
        }
    }
}

/// One step of [`Statements`]: an item of the current record, or the end
/// of a record (a `/` line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statement<'a> {
    /// An item of the current record.
    Item(Item<'a>),
    /// A `/` line: the next items belong to a new record.
    RecordEnd,
}

/// The statements of a kifu file one by one, without allocating
/// ([`Statements::new`]).
///
/// Lines end with LF or CRLF. Statements may be written several to a line
/// separated by `,` (V2.2); a comment runs to the end of its line; an
/// empty line is [`Item::Blank`]. A malformed statement is an `Err` (its
/// line number, column and byte offset in the file); the rest of its line
/// is skipped and the iteration goes on with the next line.
#[derive(Debug, Clone)]
pub struct Statements<'a> {
    input: &'a [u8],
    /// The input without its final LF.
    body_len: usize,
    /// Start of the next line, `None` after the last one.
    next_line: Option<usize>,
    /// 1-based number of the current line.
    line_no: usize,
    /// The current line (terminator removed) and its start in the file.
    line: &'a [u8],
    line_start: usize,
    /// The rest of the current line after a statement (from its `,`).
    cont: &'a [u8],
    /// 0-based byte in the line where the last statement returned starts.
    start: usize,
}

impl<'a> Statements<'a> {
    /// The statements of `input` (bytes, any text encoding).
    pub fn new(input: &'a [u8]) -> Self {
        Statements {
            input,
            body_len: input.len() - usize::from(input.last() == Some(&b'\n')),
            next_line: (!input.is_empty()).then_some(0),
            line_no: 0,
            line: &[],
            line_start: 0,
            cont: &[],
            start: 0,
        }
    }

    /// The 1-based line number of the statement (or error) last returned,
    /// 0 before the first. Statements written several to a line (`,`)
    /// share their line's number.
    ///
    /// ```
    /// use csa_protocol::kifu::Statements;
    ///
    /// let mut s = Statements::new(b"V2.2\nPI\n+\n+7776FU,T1\n");
    /// let lines: Vec<usize> = core::iter::from_fn(|| s.next().map(|_| s.line())).collect();
    /// assert_eq!(lines, [1, 2, 3, 4, 4]);
    /// ```
    pub fn line(&self) -> usize {
        self.line_no
    }

    /// Bytes of the input not read yet.
    fn remaining(&self) -> usize {
        self.next_line.map_or(0, |n| self.input.len() - n)
    }

    fn error(&self, e: nom::Err<parse::KifuParseError>) -> KifuError {
        let (what, remaining) = match e {
            nom::Err::Error(e) | nom::Err::Failure(e) => (e.problem, e.remaining),
            // Complete parsers never ask for more input.
            nom::Err::Incomplete(_) => (KifuProblem::NotAStatement, 0),
        };
        let column = self.line.len().saturating_sub(remaining);
        KifuError {
            line: self.line_no,
            column,
            offset: self.line_start + column,
            what,
        }
    }

    #[inline(always)]
    fn item(&mut self, r: parse::KResult<'a, Item<'a>>) -> Result<Statement<'a>, KifuError> {
        match r {
            Ok((rest, item)) => {
                self.cont = rest;
                Ok(Statement::Item(item))
            }
            Err(e) => {
                self.cont = &[];
                Err(self.error(e))
            }
        }
    }
}

impl<'a> Iterator for Statements<'a> {
    type Item = Result<Statement<'a>, KifuError>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        if !self.cont.is_empty() {
            // After the `,` that `cont` starts with.
            self.start = self.line.len() - self.cont.len() + 1;
            let r = parse::next_statement(self.cont);
            return Some(self.item(r));
        }
        let start = self.next_line?;
        let body = &self.input[..self.body_len];
        let end = match find_lf(&body[start..]) {
            Some(k) => {
                self.next_line = Some(start + k + 1);
                start + k
            }
            None => {
                self.next_line = None;
                body.len()
            }
        };
        let line = &body[start..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        self.line_no += 1;
        self.line = line;
        self.line_start = start;
        self.start = 0;
        if line == b"/" {
            return Some(Ok(Statement::RecordEnd));
        }
        if line.is_empty() {
            return Some(Ok(Statement::Item(Item::Blank)));
        }
        Some(self.item(parse::line(line)))
    }
}

/// The index of the first LF in `bytes`, eight bytes at a time (lines of
/// a kifu are short: a byte loop's exit branch was most of the reading
/// time).
#[inline(always)]
fn find_lf(bytes: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const LF: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        let v = u64::from_le_bytes(w) ^ LF;
        // The lowest set high bit marks the first zero byte (exact for the
        // lowest one; borrows only run upwards).
        let zero = v.wrapping_sub(LO) & !v & HI;
        if zero != 0 {
            return Some(at + (zero.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|k| at + k)
}

/// The records of a kifu file one by one ([`Records::new`]): each record
/// is read when it is asked for, so a large file is not held twice.
///
/// A malformed statement ends the iteration with its `Err` (the record it
/// is in is not returned).
///
/// ```
/// use csa_protocol::kifu::Records;
///
/// let text = b"V2.2\nPI\n+\n+2726FU\nT12\n%TORYO\n/\nV2.2\nPI\n-\n-3334FU\n";
/// let mut records = Records::new(text);
/// let first = records.next().unwrap().unwrap();
/// let second = records.next().unwrap().unwrap();
/// assert!(records.next().is_none());
/// assert_eq!(first.iter_moves().map(|m| m.mv.to_string()).collect::<Vec<_>>(), ["+2726FU"]);
/// assert_eq!(second.iter_moves().count(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct Records<'a> {
    statements: Statements<'a>,
    done: bool,
}

impl<'a> Records<'a> {
    /// The records of `input` (bytes, any text encoding).
    pub fn new(input: &'a [u8]) -> Self {
        Records {
            statements: Statements::new(input),
            done: input.is_empty(),
        }
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = Result<Record<'a>, KifuError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        // About one statement per 24 bytes in Floodgate records.
        let mut items = Vec::with_capacity(self.statements.remaining() / 24 + 8);
        loop {
            match self.statements.next() {
                Some(Ok(Statement::Item(item))) => items.push(item),
                Some(Ok(Statement::RecordEnd)) => break,
                None => {
                    self.done = true;
                    break;
                }
                Some(Err(e)) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        // The guess is for the whole rest of the file: give back what a
        // short record did not use.
        if items.capacity() > 2 * items.len() + 16 {
            items.shrink_to_fit();
        }
        Some(Ok(Record { items }))
    }
}

impl core::iter::FusedIterator for Records<'_> {}

/// Parses a kifu file (bytes, any text encoding) into its records: the
/// [`Records`] collected.
///
/// Lines end with LF or CRLF. Statements may be written several to a line
/// separated by `,` (V2.2); a comment runs to the end of its line.
///
/// # Errors
/// [`KifuError`] with the line number, column and file offset of the first
/// statement that is not valid CSA.
pub fn parse_kifu(input: &[u8]) -> Result<Vec<Record<'_>>, KifuError> {
    Records::new(input).collect()
}

/// A statement of a kifu file that the rules refuse ([`check_file_rules`]):
/// which record, where, and why.
///
/// ```
/// use csa_protocol::kifu::{RuleViolation, check_file_rules};
///
/// // Sente holds no rook to drop.
/// let e = check_file_rules(b"V2.2\nPI\n+\n+7776FU,T1\n-3334FU\n+0055HI\n").unwrap_err();
/// assert_eq!((e.record, e.line, e.column, e.offset), (1, 6, 0, 29));
/// assert!(matches!(e.what, RuleViolation::IllegalMove { .. }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("kifu record {record}, line {line}, column {column} (byte {offset}): {what}")]
#[non_exhaustive]
pub struct IllegalStatement {
    /// 1-based number of the record in the file (records are separated by
    /// `/` lines).
    pub record: usize,
    /// 1-based line number in the file.
    pub line: usize,
    /// 0-based byte offset in the line.
    pub column: usize,
    /// 0-based byte offset in the file (`column` plus the line's start).
    pub offset: usize,
    /// What the rules refuse.
    pub what: RuleViolation,
}

/// An item of a [`Record`] that the rules refuse ([`check_rules`]): which
/// item, where in its text, and why.
///
/// ```
/// use csa_protocol::kifu::{RuleViolation, check_rules, parse_kifu};
///
/// let records = parse_kifu(b"V2.2\nPI\n+\n+7776FU,T1\n-3334FU\n+0055HI\n").unwrap();
/// let e = check_rules(&records[0]).unwrap_err();
/// assert_eq!(e.item, 6); // V2.2, PI, +, +7776FU, T1, -3334FU, +0055HI
/// assert!(matches!(e.what, RuleViolation::IllegalMove { .. }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("kifu item {item}, byte {column}: {what}")]
#[non_exhaustive]
pub struct IllegalItem {
    /// 0-based index of the item in [`Record::items`].
    pub item: usize,
    /// 0-based byte offset in the item's text (a position line's refused
    /// byte; 0 for a move).
    pub column: usize,
    /// What the rules refuse.
    pub what: RuleViolation,
}

/// Why [`check_rules`] refuses a statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleViolation {
    /// A position line that board-core's CSA position reader refuses
    /// (piece codes, piece counts, nifu, dead pieces, the side not to move
    /// in check); the column is that of the refused byte.
    #[error("position: {0}")]
    Position(board_core::shogi::CsaPositionErrorKind),
    /// A move before the side-to-move line that ends the position.
    #[error("move {0} before the position's side-to-move line")]
    MoveBeforePosition(CsaMove),
    /// A move the rules refuse in the position it is played in.
    #[error("illegal move {mv}: {reason}")]
    IllegalMove {
        /// The move as written.
        mv: CsaMove,
        /// Why it is illegal.
        reason: board_core::shogi::IllegalReason,
    },
}

/// The rules, fed one item at a time: the one implementation behind
/// [`check_rules`] and [`check_file_rules`].
struct Rules {
    parser: board_core::shogi::CsaPositionParser,
    pos: Option<board_core::shogi::Position>,
}

impl Rules {
    fn new() -> Self {
        Rules {
            parser: board_core::shogi::CsaPositionParser::new(),
            pos: None,
        }
    }

    /// Plays `item`; on refusal, the byte of the item's text and why.
    fn feed(&mut self, item: &Item<'_>) -> Result<(), (usize, RuleViolation)> {
        use board_core::shogi::CsaPositionStatus;
        let fed = match item {
            Item::Position(p) => Some(p.as_bytes()),
            Item::SideToMove(Side::Black) => Some(&b"+"[..]),
            Item::SideToMove(Side::White) => Some(&b"-"[..]),
            _ => None,
        };
        if let Some(text) = fed {
            match self.parser.feed_line(text) {
                Ok(CsaPositionStatus::Complete(p)) => self.pos = Some(p),
                Ok(CsaPositionStatus::NeedMore) => {}
                Err(e) => {
                    return Err((e.offset.min(text.len()), RuleViolation::Position(e.kind)));
                }
            }
        }
        if let Item::Move(mv) = *item {
            let Some(p) = self.pos else {
                return Err((0, RuleViolation::MoveBeforePosition(mv)));
            };
            let played = p
                .move_from_csa(&mv)
                .and_then(|m| p.play(m).map_err(|e| e.reason));
            match played {
                Ok(next) => self.pos = Some(next),
                Err(reason) => return Err((0, RuleViolation::IllegalMove { mv, reason })),
            }
        }
        Ok(())
    }
}

/// Plays a record on board-core's shogi rules ([`spec::csa`](crate::spec::csa),
/// *Server-side legality*): its position lines are read by board-core's
/// CSA position reader, then each move is checked and played from that
/// position. Returns the first item the rules refuse.
///
/// This is the rules check beside the grammar of [`parse_kifu`], on the
/// record it returned (nothing is read twice). For a whole file read one
/// statement at a time, with line numbers, see [`check_file_rules`].
///
/// # Errors
/// [`IllegalItem`]: the index of the first refused position line or move
/// in [`Record::items`], and why.
pub fn check_rules(record: &Record<'_>) -> Result<(), IllegalItem> {
    let mut rules = Rules::new();
    for (i, item) in record.items.iter().enumerate() {
        rules.feed(item).map_err(|(column, what)| IllegalItem {
            item: i,
            column,
            what,
        })?;
    }
    Ok(())
}

/// [`check_rules`] over every record of a kifu file, read one statement at
/// a time ([`Statements`]) without collecting records and without
/// allocating: the first refused statement with its record, line and
/// column. A statement that does not read is skipped here ([`parse_kifu`]
/// reports it), so check a file that [`parse_kifu`] accepts.
///
/// # Errors
/// [`IllegalStatement`]: the record, line, column and file offset of the
/// first refused position line or move, and why.
pub fn check_file_rules(input: &[u8]) -> Result<(), IllegalStatement> {
    let mut record = 1;
    let mut rules = Rules::new();
    let mut statements = Statements::new(input);
    while let Some(statement) = statements.next() {
        let item = match statement {
            Ok(Statement::Item(item)) => item,
            Ok(Statement::RecordEnd) => {
                record += 1;
                rules = Rules::new();
                continue;
            }
            Err(_) => continue,
        };
        if let Err((col, what)) = rules.feed(&item) {
            let column = statements.start + col;
            return Err(IllegalStatement {
                record,
                line: statements.line_no,
                column,
                offset: statements.line_start + column,
                what,
            });
        }
    }
    Ok(())
}

/// Writes records as a kifu file, one statement per line (LF), records
/// separated by `/`. Raw text that ends in CR gets one more CR, so that
/// reading the output gives the same records. Never fails.
pub fn write_kifu(records: &[Record<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b"/\n");
        }
        write_record(r, &mut out);
    }
    out
}

/// Appends one record, one statement per line (LF), each as
/// [`write_item`] writes it.
pub fn write_record(r: &Record<'_>, out: &mut Vec<u8>) {
    for item in &r.items {
        write_item(item, out);
    }
}

/// Appends one statement and its line end (LF): `V2`, `N+<name>`,
/// `$<KEY>:<value>`, a position line, `+`/`-`, a move (`+7776FU`), a time
/// (`T12`), a special (`%TORYO`), a comment (`'<bytes>`) or an empty line.
/// The game records of the server session are written with it.
pub fn write_item(item: &Item<'_>, out: &mut Vec<u8>) {
    use crate::sink::SinkFmt as _;
    let start = out.len();
    let _ = match item {
        Item::Version(v) => write!(out, "V{v}"),
        Item::Name { side, name } => {
            let _ = write!(out, "N{}", side.sign());
            out.write_all(name)
        }
        Item::Info { key, value } => {
            let _ = write!(out, "${key}:");
            out.write_all(value)
        }
        Item::Position(p) => out.write_all(p.as_bytes()),
        Item::SideToMove(s) => write!(out, "{}", s.sign()),
        Item::Move(m) => write!(out, "{m}"),
        Item::Time(t) => write!(out, "T{t}"),
        Item::Special(s) => out.write_all(s.as_str().as_bytes()),
        Item::Comment(c) => {
            out.push(b'\'');
            out.write_all(c.as_bytes())
        }
        Item::Blank => Ok(()),
    };
    // Raw text ending in CR (a comment, name or `$` value): the reader
    // takes one CR before LF as part of the line end, so write one more.
    if out.len() > start && out.last() == Some(&b'\r') {
        out.push(b'\r');
    }
    out.push(b'\n');
}

// ------------------------------------------------------------ game writer

/// One move of a [`Kifu`] to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameMove {
    /// The CSA move (`+7776FU`).
    pub csa: CsaMove,
    /// Seconds charged (`T` line).
    pub time: Option<u64>,
    /// A comment written after it (`'` added; a Floodgate evaluation is
    /// `* 30 -3334FU`). Line ends in it are written as spaces.
    pub comment: Option<alloc::string::String>,
}

/// A played game to write as a kifu file (the CSA standard file format
/// V2.2, as [`parse_kifu`] reads it): names, game id, start time, the
/// position (`PI` for the initial position, else `P1`..`P9` and hands),
/// every move with its `T` line and its comment, the end statement.
/// `Display` writes the file, with [`write_record`] (the one CSA writer),
/// so it reads back with [`parse_kifu`].
///
/// ```
/// use board_core::shogi::Position;
/// use csa_protocol::kifu::{GameMove, Kifu, KifuSpecial};
///
/// let start = Position::startpos();
/// let k = Kifu {
///     names: [Some("sente".into()), Some("gote".into())],
///     game_id: None,
///     start: &start,
///     moves: vec![GameMove { csa: "+7776FU".parse()?, time: Some(3), comment: Some("* 30".into()) }],
///     end: Some(KifuSpecial::Toryo),
/// };
/// assert_eq!(k.to_string(), "V2.2\nN+sente\nN-gote\nPI\n+\n+7776FU\nT3\n'* 30\n%TORYO\n");
/// # Ok::<(), board_core::shogi::ParseCsaMoveError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kifu<'a> {
    /// Sente's and gote's names (`N+`, `N-`).
    pub names: [Option<alloc::string::String>; 2],
    /// `$EVENT`: the game id.
    pub game_id: Option<alloc::string::String>,
    /// The start position.
    pub start: &'a board_core::shogi::Position,
    /// The moves from it.
    pub moves: Vec<GameMove>,
    /// The end statement.
    pub end: Option<KifuSpecial>,
}

/// The kifu end statement of a CSA server's end reason (`#RESIGN` →
/// `%TORYO`, `#TIME_UP` → `%TIME_UP`, `#SENNICHITE` → `%SENNICHITE`,
/// `#JISHOGI` → `%KACHI`, `#MAX_MOVES` → `%MAX_MOVES`, `#ILLEGAL_MOVE` →
/// `%ILLEGAL_MOVE`, `#OUTE_SENNICHITE` → `%±ILLEGAL_ACTION` of the side
/// that checked, here the side not to move, `#CHUDAN` → `%CHUDAN`).
pub fn end_statement(
    reason: crate::message::EndReason,
    to_move: board_core::shogi::Color,
) -> Option<KifuSpecial> {
    use crate::message::EndReason;
    use board_core::shogi::Color;
    Some(match reason {
        EndReason::Resign => KifuSpecial::Toryo,
        EndReason::TimeUp => KifuSpecial::TimeUp,
        EndReason::Sennichite => KifuSpecial::Sennichite,
        EndReason::Jishogi => KifuSpecial::Kachi,
        EndReason::MaxMoves => KifuSpecial::MaxMoves,
        EndReason::IllegalMove => KifuSpecial::IllegalMove,
        EndReason::Chudan => KifuSpecial::Chudan,
        EndReason::OuteSennichite => match to_move {
            Color::Black => KifuSpecial::IllegalActionWhite,
            Color::White => KifuSpecial::IllegalActionBlack,
        },
        _ => return None,
    })
}

fn one_line(s: &str) -> alloc::string::String {
    s.replace(['\r', '\n'], " ")
}

impl fmt::Display for Kifu<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use alloc::string::{String, ToString};
        use board_core::shogi::Position;
        let names = self.names.clone().map(|n| n.map(|n| one_line(&n)));
        let game_id = self.game_id.as_deref().map(one_line);
        let comments: Vec<Option<String>> = self
            .moves
            .iter()
            .map(|m| m.comment.as_deref().map(one_line))
            .collect();
        let position = (!self.start.same_position(&Position::startpos()))
            .then(|| self.start.csa().to_string());
        let mut items = alloc::vec![Item::Version("2.2")];
        for (side, name) in [Side::Black, Side::White].into_iter().zip(&names) {
            if let Some(name) = name {
                items.push(Item::Name {
                    side,
                    name: name.as_bytes(),
                });
            }
        }
        if let Some(id) = &game_id {
            items.push(Item::Info {
                key: "EVENT",
                value: id.as_bytes(),
            });
        }
        match &position {
            None => items.extend([Item::Position("PI"), Item::SideToMove(Side::Black)]),
            Some(text) => items.extend(text.lines().map(|line| match line {
                "+" => Item::SideToMove(Side::Black),
                "-" => Item::SideToMove(Side::White),
                line => Item::Position(line),
            })),
        }
        for (m, comment) in self.moves.iter().zip(&comments) {
            items.push(Item::Move(m.csa));
            if let Some(t) = m.time {
                items.push(Item::Time(MoveTime::from_secs(t)));
            }
            if let Some(c) = comment.as_deref().and_then(|c| Comment::new(c.as_bytes())) {
                items.push(Item::Comment(c));
            }
        }
        if let Some(e) = self.end {
            items.push(Item::Special(e));
        }
        let mut out = Vec::new();
        write_record(&Record { items }, &mut out);
        f.write_str(&String::from_utf8_lossy(&out))
    }
}
