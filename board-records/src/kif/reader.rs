//! The streaming reader: [`Reader`] over decoded text, one line at a time,
//! giving zero-copy [`Item`]s (every `&str` borrows the text), classified
//! in the order of [`spec::shogi_records`](crate::spec::shogi_records) §1.2.
//! KIF and KI2 share it: a numbered line is a KIF move, a line starting
//! with `▲`/`△` (`▼▽☗☖` too) holds KI2 moves, one [`Item`] each.
//!
//! The numeric grammar (ply numbers, origins `(77)`, time columns) is
//! read by `nom` parsers over the line's bytes; kanji tokens by the
//! KIF vocabulary (piece names, digits, [`Handicap`](super::Handicap)).

use nom::bytes::complete::{tag, take_while, take_while_m_n, take_while1};
use nom::{IResult, Parser};

use board_core::shogi::{Color, Hand, Piece, PieceKind, Square};

use super::error::{Location, SyntaxError, SyntaxProblem};
use super::game::Format;
use super::notation::{file_digit, parse_kanji_count, piece_from_char, piece_prefix, rank_digit};

/// Caps on what a hostile file can grow; passing one is a
/// [`SyntaxError`] naming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Bytes of one line (decoded text). Default 65,536.
    pub max_line_len: usize,
    /// Header lines (`key：value`). Default 256.
    pub max_headers: usize,
    /// Moves, every variation counted. Default 65,536.
    pub max_moves: usize,
    /// Comment and bookmark lines on one move (or the start). Default 4,096.
    pub max_comments: usize,
    /// Variations (`変化：`). Default 4,096.
    pub max_variations: usize,
}

impl Limits {
    /// The defaults named on each field.
    pub const DEFAULT: Limits = Limits {
        max_line_len: 65_536,
        max_headers: 256,
        max_moves: 65_536,
        max_comments: 4_096,
        max_variations: 4_096,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// A move's time column (§1.6), in **seconds**: the time spent on this
/// move and, when written, the cumulative time of that side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveTime {
    /// Seconds spent on this move.
    pub spent: u32,
    /// Seconds used by this side so far, this move included (`None` for
    /// the `( 0:12/)` shape).
    pub total: Option<u32>,
}

/// A move's destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dest {
    /// A square (`７六`).
    Square(Square),
    /// `同`: the previous move's destination.
    Same,
}

/// Where a KIF move comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// `(77)`.
    Square(Square),
    /// `打`: a drop.
    Drop,
}

/// KI2's relative words (§2.1): at most one of 右/左/直 and one of
/// 上/寄/引 (`行` reads as 上).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Relative {
    /// 右 (`Some(true)`) or 左 (`Some(false)`).
    pub right: Option<bool>,
    /// 直.
    pub straight: bool,
    /// 上 / 寄 / 引.
    pub movement: Option<Movement>,
}

/// A KI2 movement word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Movement {
    /// 上 (or 行): towards the enemy.
    Up,
    /// 寄: sideways.
    Sideways,
    /// 引: back.
    Back,
}

/// A move as written (KIF or KI2), before the position gives it meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveText<'a> {
    /// The move text as written (from the destination or mark to the
    /// origin), for errors.
    pub text: &'a str,
    /// KI2's mark (`▲` Black, `△` White); `None` in KIF.
    pub color: Option<Color>,
    /// The destination.
    pub dest: Dest,
    /// The piece named (before the move: `成銀` is a promoted silver).
    pub piece: PieceKind,
    /// KI2's relative words.
    pub relative: Relative,
    /// `成` (`Some(true)`), `不成` (`Some(false)`) or neither.
    pub promote: Option<bool>,
    /// KIF's `(77)` / `打`; in KI2 `打` only, or `(77)` in old files.
    pub origin: Option<Origin>,
}

/// How a game ended (§1.7): the words of KIF's last numbered line.
/// "STM" = the side to move at the ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ending {
    /// 投了: STM resigns.
    Resign,
    /// 中断: the game was stopped.
    Interrupt,
    /// 千日手: repetition, a draw.
    Repetition,
    /// 詰み (also 詰): STM is mated.
    Mate,
    /// 持将棋: impasse, a draw.
    Impasse,
    /// 切れ負け: STM lost on time.
    TimeUp,
    /// 反則勝ち: the previous move was illegal, STM wins.
    IllegalWin,
    /// 反則負け: STM fouled and loses.
    IllegalLoss,
    /// 入玉勝ち (read also from 入玉宣言, 勝ち宣言): STM declares the
    /// entering-king win.
    EnteringKingWin,
    /// 封じ手: sealed move (the game goes on later).
    Sealed,
    /// 不詰: no mate (tsume).
    NoMate,
}

impl Ending {
    /// Every ending.
    pub const ALL: [Ending; 11] = [
        Ending::Resign,
        Ending::Interrupt,
        Ending::Repetition,
        Ending::Mate,
        Ending::Impasse,
        Ending::TimeUp,
        Ending::IllegalWin,
        Ending::IllegalLoss,
        Ending::EnteringKingWin,
        Ending::Sealed,
        Ending::NoMate,
    ];

    /// The word KIF writes.
    pub const fn word(self) -> &'static str {
        match self {
            Ending::Resign => "投了",
            Ending::Interrupt => "中断",
            Ending::Repetition => "千日手",
            Ending::Mate => "詰み",
            Ending::Impasse => "持将棋",
            Ending::TimeUp => "切れ負け",
            Ending::IllegalWin => "反則勝ち",
            Ending::IllegalLoss => "反則負け",
            Ending::EnteringKingWin => "入玉勝ち",
            Ending::Sealed => "封じ手",
            Ending::NoMate => "不詰",
        }
    }

    /// The ending a word names, and its length in bytes.
    pub(crate) fn prefix(s: &str) -> Option<(Ending, usize)> {
        for e in Ending::ALL {
            if s.starts_with(e.word()) {
                return Some((e, e.word().len()));
            }
        }
        for (w, e) in [
            ("入玉宣言", Ending::EnteringKingWin),
            ("勝ち宣言", Ending::EnteringKingWin),
            ("詰", Ending::Mate),
        ] {
            if s.starts_with(w) {
                return Some((e, w.len()));
            }
        }
        None
    }
}

/// What kind of `*` comment line (§1.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `*text`.
    Plain,
    /// `**text`: an engine reading (ShogiGUI's `**対局 …`, `**解析 …`,
    /// ShogiHome's `**評価値=…`); the text is after `**`.
    Reading,
    /// `*#text`: ShogiHome's analysis keys, ぴよ将棋's `#指し手…`; the text
    /// is after `*#`.
    Analysis,
}

/// One line's meaning (or one KI2 move of a line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Item<'a> {
    /// `#` line (also `#KIF version=…`): text after `#`.
    Program(&'a str),
    /// `key：value` (or `key:value`), the value without trailing spaces.
    Header {
        /// The key.
        key: &'a str,
        /// The value.
        value: &'a str,
    },
    /// `手合割：name`, name trimmed.
    Handicap(&'a str),
    /// `先手の持駒：…` (also 下手) / `後手の持駒：…` (also 上手).
    Hand {
        /// Whose hand.
        color: Color,
        /// The pieces.
        hand: Hand,
    },
    /// A board row `| ・v香 …|一`: file 9 first.
    BoardRow([Option<Piece>; 9]),
    /// `先手番` / `後手番` (下手番 / 上手番).
    Turn(Color),
    /// A move: KIF's numbered line (with `ply`, its time and whether it
    /// carries the `+` branch mark) or one KI2 move.
    Move {
        /// The line's number (KIF).
        ply: Option<u32>,
        /// The move.
        text: MoveText<'a>,
        /// The time column.
        time: Option<MoveTime>,
    },
    /// An ending: a KIF numbered line with an ending word, or a KI2 one
    /// (`△投了`, shogidb2).
    Ending {
        /// The line's number (KIF).
        ply: Option<u32>,
        /// Which.
        ending: Ending,
        /// The time column.
        time: Option<MoveTime>,
    },
    /// `変化：N手`.
    Variation(u32),
    /// A `*` line.
    Comment {
        /// Which kind.
        kind: CommentKind,
        /// Its text (see [`CommentKind`]).
        text: &'a str,
    },
    /// `&name`: a bookmark.
    Bookmark(&'a str),
    /// `まで…`: the summary line, as written.
    Summary(&'a str),
    /// Anything else (the `手数----指手--` line, the board frame, blank
    /// lines): skipped.
    Skipped(&'a str),
}

/// Zero-copy streaming reader over decoded KIF/KI2 text (see the
/// [module docs](self)). An iterator of `(Item, Location)`; a
/// [`SyntaxError`] ends the line it is in, and the reader goes on with the
/// next line.
///
/// ```
/// use board_records::kif::reader::{Item, Reader};
/// let mut r = Reader::new("先手：A\n   1 ７六歩(77)   ( 0:01/00:00:01)\n");
/// assert!(matches!(r.next(), Some(Ok((Item::Header { key: "先手", value: "A" }, _)))));
/// let Some(Ok((Item::Move { ply, time, .. }, at))) = r.next() else { panic!() };
/// assert_eq!((ply, time.unwrap().spent, at.line), (Some(1), 1, 2));
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
    limits: Limits,
    format: Format,
    /// Rest of a KI2 move line and its offset.
    pending: Option<(&'a str, usize, usize)>,
}

/// The format `text` is read as, for naming it in errors: [`Format::Ki2`]
/// when its first move line is a KI2 one (starting with `▲`, `△`, `▼`,
/// `▽`, `☗` or `☖`, §2) or a `#KI2` line comes first, [`Format::Kif`]
/// when it is numbered (§1.6) and when the text has no move line (a
/// header-only file is read by KIF's rules). Reads lines up to the first
/// move line.
///
/// ```
/// use board_records::kif::{Format, reader::sniff_format};
/// assert_eq!(sniff_format("先手：A\n▲７六歩 △３四歩\n"), Format::Ki2);
/// assert_eq!(sniff_format("先手：A\n   1 ７六歩(77)\n"), Format::Kif);
/// assert_eq!(sniff_format("先手：A\n"), Format::Kif);
/// ```
pub fn sniff_format(text: &str) -> Format {
    for line in text.split(['\n', '\r']) {
        if line.starts_with("#KI2") {
            return Format::Ki2;
        }
        if ply_number(line.as_bytes()).is_ok() {
            return Format::Kif;
        }
        if let Some(c) = trim_start(line).chars().next()
            && MARKS.iter().any(|&(m, _)| m == c)
        {
            return Format::Ki2;
        }
    }
    Format::Kif
}

impl<'a> Reader<'a> {
    /// A reader with [`Limits::DEFAULT`].
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader::with_limits(text, Limits::DEFAULT)
    }

    /// A reader with caps.
    pub fn with_limits(text: &'a str, limits: Limits) -> Reader<'a> {
        Reader {
            text,
            pos: 0,
            line: 0,
            limits,
            format: sniff_format(text),
            pending: None,
        }
    }

    /// The caps.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The format the text is read as ([`sniff_format`]), which its
    /// errors name.
    pub fn format(&self) -> Format {
        self.format
    }

    fn location(&self, line_start: usize, offset: usize) -> Location {
        Location::in_line(self.text.as_bytes(), self.line, line_start, offset)
    }

    fn err(&self, line_start: usize, offset: usize, problem: SyntaxProblem) -> SyntaxError {
        SyntaxError {
            format: self.format.into(),
            location: self.location(line_start, offset),
            problem,
        }
    }

    fn next_line(&mut self) -> Option<(&'a str, usize)> {
        if self.pos >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.pos..];
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        let line = &rest[..end];
        let start = self.pos;
        let mut next = start + end;
        let bytes = self.text.as_bytes();
        if bytes.get(next) == Some(&b'\r') {
            next += 1;
        }
        if bytes.get(next) == Some(&b'\n') && (next == start + end || bytes[next - 1] == b'\r') {
            next += 1;
        }
        self.pos = next;
        self.line += 1;
        Some((line, start))
    }

    fn ki2_item(
        &mut self,
        rest: &'a str,
        at: usize,
        line_start: usize,
    ) -> Option<Result<(Item<'a>, Location), SyntaxError>> {
        let skipped = rest.len() - trim_start(rest).len();
        let rest = &rest[skipped..];
        let at = at + skipped;
        if rest.is_empty() {
            self.pending = None;
            return self.next();
        }
        match ki2_move(rest) {
            Ok((item, used)) => {
                self.pending = Some((&rest[used..], at + used, line_start));
                Some(Ok((item, self.location(line_start, at))))
            }
            Err((off, problem)) => {
                self.pending = None;
                Some(Err(self.err(line_start, at + off, problem)))
            }
        }
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Result<(Item<'a>, Location), SyntaxError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some((rest, at, line_start)) = self.pending {
            return self.ki2_item(rest, at, line_start);
        }
        let (line, start) = self.next_line()?;
        if line.len() > self.limits.max_line_len {
            return Some(Err(self.err(
                start,
                start,
                SyntaxProblem::LineTooLong {
                    max: self.limits.max_line_len,
                },
            )));
        }
        let at = self.location(start, start);
        let item = match classify(line) {
            Ok(Line::Item(item)) => item,
            Ok(Line::Ki2) => return self.ki2_item(line, start, start),
            Err((off, problem)) => return Some(Err(self.err(start, start + off, problem))),
        };
        Some(Ok((item, at)))
    }
}

enum Line<'a> {
    Item(Item<'a>),
    Ki2,
}

type LineResult<T> = Result<T, (usize, SyntaxProblem)>;

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t' || c == '　'
}

fn trim_start(s: &str) -> &str {
    s.trim_start_matches(is_space)
}

fn trim_end(s: &str) -> &str {
    s.trim_end_matches(is_space)
}

const MARKS: [(char, Color); 6] = [
    ('▲', Color::Black),
    ('△', Color::White),
    ('▼', Color::Black),
    ('▽', Color::White),
    ('☗', Color::Black),
    ('☖', Color::White),
];

fn header_split(line: &str) -> Option<(&str, &str)> {
    let (i, sep) = line.char_indices().find(|&(_, c)| c == '：' || c == ':')?;
    let key = &line[..i];
    if key.is_empty() || key.chars().any(|c| is_space(c) || c == '：' || c == ':') {
        return None;
    }
    Some((key, &line[i + sep.len_utf8()..]))
}

fn classify(line: &str) -> LineResult<Line<'_>> {
    if let Some(rest) = line.strip_prefix('#') {
        return Ok(Line::Item(Item::Program(rest)));
    }
    if let Some(rest) = line
        .strip_prefix("手合割：")
        .or_else(|| line.strip_prefix("手合割:"))
    {
        return Ok(Line::Item(Item::Handicap(trim_end(trim_start(rest)))));
    }
    for (prefix, color) in [
        ("先手の持駒", Color::Black),
        ("下手の持駒", Color::Black),
        ("後手の持駒", Color::White),
        ("上手の持駒", Color::White),
    ] {
        if let Some(rest) = line.strip_prefix(prefix) {
            let Some(rest) = rest.strip_prefix('：').or_else(|| rest.strip_prefix(':')) else {
                continue;
            };
            let off = line.len() - rest.len();
            let hand = parse_hand(rest).map_err(|o| (off + o, SyntaxProblem::BadHand))?;
            return Ok(Line::Item(Item::Hand { color, hand }));
        }
    }
    if line.starts_with('|') {
        return parse_row(line).map(|r| Line::Item(Item::BoardRow(r)));
    }
    match trim_end(line) {
        "先手番" | "下手番" => return Ok(Line::Item(Item::Turn(Color::Black))),
        "後手番" | "上手番" => return Ok(Line::Item(Item::Turn(Color::White))),
        _ => {}
    }
    if let Some(item) = kif_move_line(line)? {
        return Ok(Line::Item(item));
    }
    if let Some(rest) = line
        .strip_prefix("変化：")
        .or_else(|| line.strip_prefix("変化:"))
    {
        let off = line.len() - rest.len();
        let rest = trim_start(rest);
        let digits: IResult<&[u8], &[u8]> =
            take_while1(|b: u8| b.is_ascii_digit()).parse(rest.as_bytes());
        let n = match digits {
            Ok((_, d)) => core::str::from_utf8(d)
                .ok()
                .and_then(|d| d.parse::<u32>().ok()),
            Err(_) => None,
        };
        return match n {
            Some(n) if n >= 1 => Ok(Line::Item(Item::Variation(n))),
            _ => Err((off, SyntaxProblem::BadVariation)),
        };
    }
    if let Some(rest) = line.strip_prefix('*') {
        let (kind, text) = if let Some(t) = rest.strip_prefix('*') {
            (CommentKind::Reading, t)
        } else if let Some(t) = rest.strip_prefix('#') {
            (CommentKind::Analysis, t)
        } else {
            (CommentKind::Plain, rest)
        };
        return Ok(Line::Item(Item::Comment { kind, text }));
    }
    if let Some(rest) = line.strip_prefix('&') {
        return Ok(Line::Item(Item::Bookmark(rest)));
    }
    if line.starts_with("まで") {
        return Ok(Line::Item(Item::Summary(trim_end(line))));
    }
    let t = trim_start(line);
    if let Some(c) = t.chars().next()
        && MARKS.iter().any(|&(m, _)| m == c)
    {
        return Ok(Line::Ki2);
    }
    if let Some((key, value)) = header_split(line) {
        return Ok(Line::Item(Item::Header {
            key,
            value: trim_end(value),
        }));
    }
    Ok(Line::Item(Item::Skipped(line)))
}

fn parse_hand(s: &str) -> Result<Hand, usize> {
    let mut hand = Hand::EMPTY;
    let mut i = 0;
    let trimmed = trim_end(trim_start(s));
    if trimmed == "なし" || trimmed.is_empty() {
        return Ok(hand);
    }
    while i < s.len() {
        let rest = &s[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if is_space(c) {
            i += c.len_utf8();
            continue;
        }
        let Some(kind) = piece_from_char(c) else {
            return Err(i);
        };
        i += c.len_utf8();
        let n = match parse_kanji_count(&s[i..]) {
            Some((n, used)) => {
                i += used;
                n
            }
            None => 1,
        };
        if n == 0 || !hand.add(kind, n) {
            return Err(i);
        }
    }
    Ok(hand)
}

fn parse_row(line: &str) -> LineResult<[Option<Piece>; 9]> {
    let mut cells = [None; 9];
    let mut chars = line.char_indices().skip(1).peekable();
    for cell in cells.iter_mut() {
        let Some((i, c)) = chars.next() else {
            return Err((line.len(), SyntaxProblem::BadBoardRow));
        };
        let (color, piece_char, at) = match c {
            ' ' | '+' | '^' => match chars.next() {
                Some((j, p)) => (Color::Black, p, j),
                None => return Err((i, SyntaxProblem::BadBoardRow)),
            },
            'v' | 'V' => match chars.next() {
                Some((j, p)) => (Color::White, p, j),
                None => return Err((i, SyntaxProblem::BadBoardRow)),
            },
            _ => (Color::Black, c, i),
        };
        if piece_char == '・' {
            continue;
        }
        match piece_from_char(piece_char) {
            Some(kind) => *cell = Some(Piece::new(color, kind)),
            None => return Err((at, SyntaxProblem::BadBoardRow)),
        }
    }
    match chars.next() {
        Some((_, '|')) => Ok(cells),
        Some((i, _)) => Err((i, SyntaxProblem::BadBoardRow)),
        None => Err((line.len(), SyntaxProblem::BadBoardRow)),
    }
}

fn ply_number(i: &[u8]) -> IResult<&[u8], u32> {
    let (i, _) = take_while(|b| b == b' ' || b == b'\t').parse(i)?;
    let (i, digits) = take_while_m_n(1, 9, |b: u8| b.is_ascii_digit()).parse(i)?;
    let (i, _) = take_while1(|b| b == b' ' || b == b'\t').parse(i)?;
    let n = digits
        .iter()
        .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
    Ok((i, n))
}

/// `(77)`.
fn origin_square(i: &[u8]) -> IResult<&[u8], Square> {
    let (i, _) = tag(&b"("[..]).parse(i)?;
    let (i, d) = take_while_m_n(2, 2, |b: u8| b.is_ascii_digit()).parse(i)?;
    let (i, _) = tag(&b")"[..]).parse(i)?;
    match Square::new(d[0] - b'0', d[1] - b'0') {
        Some(sq) => Ok((i, sq)),
        None => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Verify,
        ))),
    }
}

fn number(i: &[u8]) -> IResult<&[u8], u32> {
    let (i, _) = take_while(|b| b == b' ').parse(i)?;
    let (i, d) = take_while_m_n(1, 6, |b: u8| b.is_ascii_digit()).parse(i)?;
    let (i, _) = take_while(|b| b == b' ').parse(i)?;
    Ok((i, d.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))))
}

/// `m:ss`, `h:mm:ss` (fields may be space-padded), in seconds.
fn clock(i: &[u8]) -> IResult<&[u8], u32> {
    let (mut i, first) = number(i)?;
    let mut fields = [first, 0, 0];
    let mut n = 1;
    while n < 3 {
        match tag::<_, _, nom::error::Error<&[u8]>>(&b":"[..]).parse(i) {
            Ok((rest, _)) => {
                let (rest, v) = number(rest)?;
                fields[n] = v;
                n += 1;
                i = rest;
            }
            Err(_) => break,
        }
    }
    let secs = match n {
        2 => fields[0] * 60 + fields[1],
        3 => fields[0] * 3600 + fields[1] * 60 + fields[2],
        _ => {
            return Err(nom::Err::Error(nom::error::Error::new(
                i,
                nom::error::ErrorKind::Verify,
            )));
        }
    };
    Ok((i, secs))
}

/// `( 0:01/00:00:01)`, `( 0:12/)`, `(00:01 / 00:00:01)`.
fn time_column(i: &[u8]) -> IResult<&[u8], MoveTime> {
    let (i, _) = tag(&b"("[..]).parse(i)?;
    let (i, spent) = clock(i)?;
    let (i, _) = tag(&b"/"[..]).parse(i)?;
    let (i, _) = take_while(|b| b == b' ').parse(i)?;
    let (i, total) = match clock(i) {
        Ok((i, t)) => (i, Some(t)),
        Err(_) => (i, None),
    };
    let (i, _) = take_while(|b| b == b' ').parse(i)?;
    let (i, _) = tag(&b")"[..]).parse(i)?;
    Ok((i, MoveTime { spent, total }))
}

/// A destination at the start of `s`: `７六`, `同`/`同　`, and in KI2
/// `７６`/`76`. Returns it and bytes used.
fn dest(s: &str) -> Option<(Dest, usize)> {
    if let Some(rest) = s.strip_prefix('同') {
        let spaces = rest.len() - trim_start(rest).len();
        return Some((Dest::Same, '同'.len_utf8() + spaces));
    }
    let mut chars = s.chars();
    let f = chars.next()?;
    let r = chars.next()?;
    let file = file_digit(f)?;
    let rank = rank_digit(r)?;
    Some((
        Dest::Square(Square::new(file, rank)?),
        f.len_utf8() + r.len_utf8(),
    ))
}

/// The KIF time column and `+` mark after a move or ending (`rest` starts
/// after the move text; `off` is its offset in the line).
fn tail(rest: &str, off: usize) -> LineResult<Option<MoveTime>> {
    let t = trim_start(rest);
    let mut off = off + rest.len() - t.len();
    let mut time = None;
    let mut t = t;
    if t.starts_with('(') {
        match time_column(t.as_bytes()) {
            Ok((after, mt)) => {
                time = Some(mt);
                let used = t.len() - after.len();
                off += used;
                t = &t[used..];
            }
            Err(_) => return Err((off, SyntaxProblem::BadTime)),
        }
    }
    let t2 = trim_start(t);
    off += t.len() - t2.len();
    let t2 = t2.strip_prefix('+').unwrap_or(t2);
    if !trim_end(t2).is_empty() {
        return Err((off, SyntaxProblem::TrailingText));
    }
    Ok(time)
}

/// A numbered KIF line, or `None` when the line is not one.
fn kif_move_line(line: &str) -> LineResult<Option<Item<'_>>> {
    let Ok((rest, ply)) = ply_number(line.as_bytes()) else {
        return Ok(None);
    };
    let off = line.len() - rest.len();
    // The rest starts after ASCII spaces/tabs, so it is a char boundary.
    let body = trim_start(&line[off..]);
    let off = line.len() - body.len();
    if let Some((ending, used)) = Ending::prefix(body) {
        let time = tail(&body[used..], off + used)?;
        return Ok(Some(Item::Ending {
            ply: Some(ply),
            ending,
            time,
        }));
    }
    let (mv, used) = move_body(body, None).map_err(|(o, p)| match (o, p) {
        (0, SyntaxProblem::ExpectedSquare) => (off, SyntaxProblem::UnknownMoveText),
        (o, p) => (off + o, p),
    })?;
    if mv.origin.is_none() {
        return Err((off + used, SyntaxProblem::ExpectedOrigin));
    }
    let time = tail(&body[used..], off + used)?;
    Ok(Some(Item::Move {
        ply: Some(ply),
        text: mv,
        time,
    }))
}

/// `dest piece [右左直][上寄引行][成|不成|打] [(77)]` at the start of `s`.
fn move_body(s: &str, color: Option<Color>) -> LineResult<(MoveText<'_>, usize)> {
    let Some((dest, mut i)) = dest(s) else {
        return Err((0, SyntaxProblem::ExpectedSquare));
    };
    let Some((piece, used)) = piece_prefix(&s[i..]) else {
        return Err((i, SyntaxProblem::ExpectedPiece));
    };
    i += used;
    let mut relative = Relative::default();
    let mut promote = None;
    let mut origin = None;
    loop {
        let rest = &s[i..];
        let Some(c) = rest.chars().next() else { break };
        let bad = (i, SyntaxProblem::BadModifier);
        match c {
            '右' | '左'
                if relative.right.is_none()
                    && !relative.straight
                    && relative.movement.is_none() =>
            {
                relative.right = Some(c == '右');
            }
            '直' if relative.right.is_none()
                && !relative.straight
                && relative.movement.is_none() =>
            {
                relative.straight = true;
            }
            '上' | '行' | '寄' | '引' if relative.movement.is_none() && !relative.straight => {
                relative.movement = Some(match c {
                    '寄' => Movement::Sideways,
                    '引' => Movement::Back,
                    _ => Movement::Up,
                });
            }
            '成' if promote.is_none() && origin.is_none() => promote = Some(true),
            '不' if promote.is_none() && origin.is_none() => {
                if !rest.starts_with("不成") {
                    return Err(bad);
                }
                promote = Some(false);
                i += '不'.len_utf8();
            }
            '打' if promote.is_none() && origin.is_none() => origin = Some(Origin::Drop),
            '(' if origin.is_none() => match origin_square(rest.as_bytes()) {
                Ok((after, sq)) => {
                    origin = Some(Origin::Square(sq));
                    i += rest.len() - after.len();
                    continue;
                }
                Err(_) => return Err((i, SyntaxProblem::ExpectedOrigin)),
            },
            '右' | '左' | '直' | '上' | '行' | '寄' | '引' | '成' | '不' | '打' => {
                return Err(bad);
            }
            _ => break,
        }
        i += c.len_utf8();
    }
    Ok((
        MoveText {
            text: &s[..i],
            color,
            dest,
            piece,
            relative,
            promote,
            origin,
        },
        i,
    ))
}

/// One KI2 move (or ending word) at the start of `s` (mark first).
fn ki2_move(s: &str) -> LineResult<(Item<'_>, usize)> {
    let Some(c) = s.chars().next() else {
        return Err((0, SyntaxProblem::ExpectedMark));
    };
    let Some(&(_, color)) = MARKS.iter().find(|&&(m, _)| m == c) else {
        return Err((0, SyntaxProblem::ExpectedMark));
    };
    let m = c.len_utf8();
    let body = &s[m..];
    if let Some((ending, used)) = Ending::prefix(body) {
        return Ok((
            Item::Ending {
                ply: None,
                ending,
                time: None,
            },
            m + used,
        ));
    }
    let (mut mv, used) = move_body(body, Some(color)).map_err(|(o, p)| (m + o, p))?;
    mv.text = &s[..m + used];
    Ok((
        Item::Move {
            ply: None,
            text: mv,
            time: None,
        },
        m + used,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(line: &str) -> Item<'_> {
        match classify(line).unwrap() {
            Line::Item(i) => i,
            Line::Ki2 => panic!("ki2"),
        }
    }

    #[test]
    fn every_time_column_shape() {
        // §1.6 examples and variants.
        for (line, spent, total) in [
            ("   1 ７六歩(77)   ( 0:16/00:00:16)", 16, Some(16)),
            ("1 ７六歩(77) ( 0:16/00:00:16)", 16, Some(16)),
            ("  13 同　歩(87)   ( 0:02/00:00:50)", 2, Some(50)),
            ("   7 １一桂成(23) ( 0:00/00:00:00)+", 0, Some(0)),
            ("   2 ３四歩(33) (00:01 / 00:00:01)", 1, Some(1)),
            ("   2 ３四歩(33) ( 0:12/)", 12, None),
            ("   2 ３四歩(33) (16:00/ 0:00:19)", 960, Some(19)),
        ] {
            let Item::Move { time, .. } = item(line) else {
                panic!("{line}")
            };
            assert_eq!(time, Some(MoveTime { spent, total }), "{line}");
        }
        let Item::Move { time, text, .. } = item("  18 ２三歩打") else {
            panic!()
        };
        assert_eq!((time, text.origin), (None, Some(Origin::Drop)));
        let Item::Move { text, .. } = item("  13 同歩(87)") else {
            panic!()
        };
        assert_eq!(text.dest, Dest::Same);
    }

    #[test]
    fn hands_and_rows() {
        let Item::Hand { hand, color } = item("後手の持駒：飛二 金四 歩十七") else {
            panic!()
        };
        assert_eq!(color, Color::White);
        assert_eq!(hand.count(PieceKind::Pawn), 17);
        assert_eq!(hand.count(PieceKind::Gold), 4);
        assert_eq!(hand.count(PieceKind::Rook), 2);
        let Item::Hand { hand, .. } = item("先手の持駒：角二　桂　") else {
            panic!()
        };
        assert_eq!(
            (hand.count(PieceKind::Bishop), hand.count(PieceKind::Knight)),
            (2, 1)
        );
        let Item::Hand { hand, .. } = item("先手の持駒：なし") else {
            panic!()
        };
        assert!(hand.is_empty());
        let Item::BoardRow(r) = item("| ・ ・ ・ ・ ・ ・v香 ・ ・|一") else {
            panic!()
        };
        assert_eq!(r[6], Some(Piece::new(Color::White, PieceKind::Lance)));
        assert_eq!(r.iter().flatten().count(), 1);
    }
}
