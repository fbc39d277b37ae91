//! CSA kifu (game record) files: `V2` as Floodgate writes it, `V2.1`, `V2.2`
//! and `V3.0` (`docs/specs/csa.md`, *Notation users expect*; CSA "standard file
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
//! number. Typed views ([`Record::moves`], [`Record::names`], ...) read the
//! items. Several records in one file are separated by a `/` line.
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

use crate::moves::{CsaMove, MOVE_LEN};
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

    /// `(N+, N-)` names as raw bytes.
    pub fn names(&self) -> (Option<&'a [u8]>, Option<&'a [u8]>) {
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

    /// The moves with their times and comments (one allocation: the list).
    pub fn moves(&self) -> Vec<KifuMove<'_, 'a>> {
        let items = &self.items[..];
        let mut out: Vec<KifuMove<'_, 'a>> = Vec::with_capacity(items.len() / 2);
        let mut i = 0;
        while i < items.len() {
            if let Item::Move(mv) = items[i] {
                let start = i + 1;
                let mut end = start;
                while end < items.len() && !matches!(items[end], Item::Move(_) | Item::Special(_)) {
                    end += 1;
                }
                let following = &items[start..end];
                let time = following.iter().find_map(|x| match x {
                    Item::Time(t) => Some(*t),
                    _ => None,
                });
                out.push(KifuMove {
                    mv,
                    time,
                    following,
                });
                i = end;
            } else {
                i += 1;
            }
        }
        out
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("kifu line {line}, byte {offset}: {what}")]
#[non_exhaustive]
pub struct KifuError {
    /// 1-based line number.
    pub line: usize,
    /// 0-based byte offset in the line.
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

/// Parses a kifu file (bytes, any text encoding) into its records.
///
/// Lines end with LF or CRLF. Statements may be written several to a line
/// separated by `,` (V2.2); a comment runs to the end of its line.
///
/// # Errors
/// [`KifuError`] with the line number and byte offset of the first statement that
/// is not valid CSA.
pub fn parse_kifu(input: &[u8]) -> Result<Vec<Record<'_>>, KifuError> {
    let mut records = Vec::new();
    // About one statement per 24 bytes in Floodgate records.
    let mut cur = Record {
        items: Vec::with_capacity(input.len() / 24 + 8),
    };
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    if input.is_empty() {
        return Ok(Vec::new());
    }
    for (n, line) in body.split(|&b| b == b'\n').enumerate() {
        let line_no = n + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line == b"/" {
            records.push(core::mem::take(&mut cur));
            continue;
        }
        if line.is_empty() {
            cur.items.push(Item::Blank);
            continue;
        }
        parse_line(line, line_no, &mut cur.items)?;
    }
    records.push(cur);
    Ok(records)
}

fn parse_line<'a>(
    line: &'a [u8],
    line_no: usize,
    items: &mut Vec<Item<'a>>,
) -> Result<(), KifuError> {
    let err = |col: usize, what| KifuError {
        line: line_no,
        offset: col,
        what,
    };
    // Comments, names, info and position lines take the whole line.
    match line[0] {
        b'\'' => {
            items.push(Item::Comment(Comment(&line[1..])));
            return Ok(());
        }
        b'V' => {
            let v = &line[1..];
            return match v {
                b"2" | b"2.1" | b"2.2" | b"3.0" => {
                    // ASCII by the match above.
                    items.push(Item::Version(core::str::from_utf8(v).unwrap_or("2")));
                    Ok(())
                }
                _ => Err(err(1, KifuProblem::Version)),
            };
        }
        b'N' => {
            let side = match line.get(1) {
                Some(b'+') => Side::Black,
                Some(b'-') => Side::White,
                _ => return Err(err(1, KifuProblem::NameSide)),
            };
            items.push(Item::Name {
                side,
                name: &line[2..],
            });
            return Ok(());
        }
        b'$' => {
            let Some(colon) = line.iter().position(|&b| b == b':') else {
                return Err(err(line.len(), KifuProblem::InfoColon));
            };
            let key = &line[1..colon];
            if key.is_empty()
                || !key
                    .iter()
                    .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            {
                return Err(err(1, KifuProblem::InfoKey));
            }
            items.push(Item::Info {
                key: core::str::from_utf8(key).unwrap_or(""),
                value: &line[colon + 1..],
            });
            return Ok(());
        }
        b'P' => {
            let s = crate::position::check_line(line)
                .map_err(|e| err(e.offset, KifuProblem::Position))?;
            items.push(Item::Position(s));
            return Ok(());
        }
        _ => {}
    }
    // Moves, times, specials, side to move: comma-separated statements.
    let mut start = 0;
    loop {
        let rest = &line[start..];
        let end = rest
            .iter()
            .position(|&b| b == b',')
            .map_or(line.len(), |i| start + i);
        let stmt = &line[start..end];
        parse_statement(stmt, start, line_no, items)?;
        if end == line.len() {
            return Ok(());
        }
        start = end + 1;
        if line.get(start) == Some(&b'\'') {
            items.push(Item::Comment(Comment(&line[start + 1..])));
            return Ok(());
        }
    }
}

fn parse_statement<'a>(
    stmt: &'a [u8],
    off: usize,
    line_no: usize,
    items: &mut Vec<Item<'a>>,
) -> Result<(), KifuError> {
    let err = |col: usize, what| KifuError {
        line: line_no,
        offset: off + col,
        what,
    };
    match stmt.first() {
        None => Err(err(0, KifuProblem::EmptyStatement)),
        Some(b'+' | b'-') if stmt.len() == 1 => {
            items.push(Item::SideToMove(if stmt[0] == b'+' {
                Side::Black
            } else {
                Side::White
            }));
            Ok(())
        }
        Some(b'+' | b'-') => {
            if stmt.len() != MOVE_LEN {
                return Err(err(stmt.len().min(MOVE_LEN), KifuProblem::MoveLength));
            }
            let mv = CsaMove::parse(stmt)
                .map_err(|e| err(crate::moves::move_error_offset(&e), KifuProblem::Move))?;
            items.push(Item::Move(mv));
            Ok(())
        }
        Some(b'T') => {
            let t = MoveTime::parse(&stmt[1..]).map_err(|(i, _)| err(1 + i, KifuProblem::Time))?;
            items.push(Item::Time(t));
            Ok(())
        }
        Some(b'%') => match KifuSpecial::ALL
            .iter()
            .find(|s| s.as_str().as_bytes() == stmt)
        {
            Some(s) => {
                items.push(Item::Special(*s));
                Ok(())
            }
            None => Err(err(0, KifuProblem::Special)),
        },
        Some(_) => Err(err(0, KifuProblem::NotAStatement)),
    }
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

/// Appends one record, one statement per line (LF).
pub fn write_record(r: &Record<'_>, out: &mut Vec<u8>) {
    use crate::sink::Sink as _;
    for item in &r.items {
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
}
