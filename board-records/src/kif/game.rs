//! The owned game ([`Game`]): headers, start position (named handicap or
//! board diagram), a tree of checked moves with their times, comments,
//! bookmarks and variations, the ending and summary line; built from the
//! [`Reader`]'s items by [`read_str`] / [`read`].

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

use core::time::Duration;

use board_core::shogi::{Color, Hand, Move, Piece, Position, Setup, Square};

use crate::annotated::Annotated;

use super::encoding::{EncodingSource, TextEncoding, decode};
use super::error::{
    GameError, GameProblem, Location, MoveProblem, ReadError, RecordFormat, SyntaxError,
    SyntaxProblem,
};
use super::ki2;
use super::notation::Handicap;
use super::reader::{CommentKind, Ending, Item, Limits, MoveText, MoveTime, Origin, Reader};

/// The format a game was read from (or is written in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// KIF: numbered move lines with origins and times.
    Kif,
    /// KI2: moves without origins (`▲７六歩 △３四歩`).
    Ki2,
}

impl From<Format> for RecordFormat {
    fn from(f: Format) -> RecordFormat {
        match f {
            Format::Kif => RecordFormat::Kif,
            Format::Ki2 => RecordFormat::Ki2,
        }
    }
}

/// A comment line (§1.8).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Comment {
    /// `*`, `**` or `*#`.
    pub kind: CommentKind,
    /// The text after the marker (no line break).
    pub text: String,
}

/// Comments and bookmarks on a position (after a move, or the start).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Notes {
    /// The `*` lines, in order (several per move).
    pub comments: Vec<Comment>,
    /// The `&` bookmarks.
    pub bookmarks: Vec<String>,
}

impl Notes {
    /// No comment, no bookmark.
    pub fn is_empty(&self) -> bool {
        self.comments.is_empty() && self.bookmarks.is_empty()
    }

    /// The plain comments joined with line feeds (what a user reads as
    /// "the comment").
    pub fn text(&self) -> String {
        let mut s = String::new();
        for c in self
            .comments
            .iter()
            .filter(|c| c.kind == CommentKind::Plain)
        {
            if !s.is_empty() {
                s.push('\n');
            }
            s.push_str(&c.text);
        }
        s
    }
}

/// A move of the game (or of a variation) with what was written about it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Node {
    /// The move, legal in its position.
    pub mv: Move,
    /// The time column (KIF), in seconds.
    pub time: Option<MoveTime>,
    /// Comments and bookmarks after it.
    pub notes: Notes,
    /// Lines that replace this move (`変化：N手`, N = this move's ply).
    pub variations: Vec<Variation>,
}

impl Node {
    /// A move without time, notes or variations.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            time: None,
            notes: Notes::default(),
            variations: Vec::new(),
        }
    }

    /// The move with its annotations in the three games' one type: the
    /// plain `*` comments (not the `**` reading and `*#` analysis lines,
    /// which are KIF's own), the time column's time spent and time used
    /// (seconds, §1.6); no clock, evaluation or NAG (KIF has none). See
    /// [`annotated`](crate::annotated).
    pub fn annotated(&self) -> Annotated<Move> {
        let mut a = Annotated::new(self.mv);
        a.comments = self
            .notes
            .comments
            .iter()
            .filter(|c| c.kind == CommentKind::Plain)
            .map(|c| c.text.clone())
            .collect();
        if let Some(t) = self.time {
            a.spent = Some(Duration::from_secs(u64::from(t.spent)));
            a.used = t.total.map(|s| Duration::from_secs(u64::from(s)));
        }
        a
    }

    /// The node of an annotated move: its comments as `*` lines (a comment
    /// of several lines as several, as the writer writes them) and, when
    /// the time spent is known, the time column (whole seconds, fractions
    /// dropped; the time used when known, §1.6). The clock, evaluation
    /// and NAGs have no place in KIF and are dropped.
    pub fn from_annotated(a: &Annotated<Move>) -> Node {
        let secs = |d: Duration| u32::try_from(d.as_secs()).unwrap_or(u32::MAX);
        let mut node = Node::new(a.mv);
        node.time = a.spent.map(|spent| MoveTime {
            spent: secs(spent),
            total: a.used.map(secs),
        });
        node.notes.comments = a
            .comments
            .iter()
            .flat_map(|c| c.lines())
            .map(|text| Comment {
                kind: CommentKind::Plain,
                text: text.to_owned(),
            })
            .collect();
        node
    }
}

/// A line of moves: the main line or a variation.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Variation {
    /// Comments written after `変化：` before the line's first move.
    pub notes: Notes,
    /// The moves.
    pub moves: Vec<Node>,
    /// How the line ends, with its time column.
    pub end: Option<(Ending, Option<MoveTime>)>,
    /// The `まで…` line as written.
    pub summary: Option<String>,
}

/// A shogi game record. See the [module docs](super).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The format read ([`Format::Kif`] if any numbered move line was).
    pub format: Format,
    /// The encoding and why (set by [`read`]; [`read_str`] leaves UTF-8,
    /// [`EncodingSource::Detected`]).
    pub encoding: (TextEncoding, EncodingSource),
    /// `#` lines other than `#KIF …`, without the `#`.
    pub program_lines: Vec<String>,
    /// `key：value` header lines in order (手合割 excluded).
    pub headers: Vec<(String, String)>,
    /// The named handicap when the start position is one (from
    /// `手合割`, or a diagram equal to one).
    pub handicap: Option<Handicap>,
    /// The start position.
    pub start: Position,
    /// The ply number of the first move (1 unless a diagram's game
    /// numbered its moves on).
    pub first_ply: u32,
    /// Comments and bookmarks on the start position (also those before
    /// the headers, which lishogi refused, lishogi #433).
    pub start_notes: Notes,
    /// The main line, its ending and summary.
    pub main: Variation,
}

impl Game {
    /// An even game, no headers, no moves, KIF, UTF-8.
    pub fn new(start: Position) -> Game {
        Game {
            format: Format::Kif,
            encoding: (TextEncoding::Utf8, EncodingSource::Detected),
            program_lines: Vec::new(),
            headers: Vec::new(),
            handicap: Handicap::of_position(&start),
            start,
            first_ply: 1,
            start_notes: Notes::default(),
            main: Variation::default(),
        }
    }

    /// The value of header `key`.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Black's name (`先手` or `下手`).
    pub fn black(&self) -> Option<&str> {
        self.header("先手").or_else(|| self.header("下手"))
    }

    /// White's name (`後手` or `上手`).
    pub fn white(&self) -> Option<&str> {
        self.header("後手").or_else(|| self.header("上手"))
    }

    /// The main line's moves.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.main.moves.iter().map(|n| n.mv)
    }

    /// The position after the main line.
    pub fn end_position(&self) -> Position {
        let mut p = self.start;
        for m in self.moves() {
            p.play_unchecked(m);
        }
        p
    }
}

/// Reads a KIF or KI2 file: decodes it ([`decode`], `hint` from the
/// extension via [`TextEncoding::from_extension`]), then [`read_str`].
///
/// # Errors
/// [`ReadError::Decode`], or those of [`read_str`].
pub fn read(bytes: &[u8], hint: Option<TextEncoding>) -> Result<Game, ReadError> {
    read_with(bytes, hint, Limits::DEFAULT)
}

/// [`read`] with caps.
///
/// # Errors
/// As [`read`].
pub fn read_with(
    bytes: &[u8],
    hint: Option<TextEncoding>,
    limits: Limits,
) -> Result<Game, ReadError> {
    let decoded = decode(bytes, hint)?;
    let mut game = read_str_with(&decoded.text, limits).map_err(|e| shift(e, decoded.skipped))?;
    game.encoding = (decoded.encoding, decoded.source);
    Ok(game)
}

fn shift(e: ReadError, by: usize) -> ReadError {
    match e {
        ReadError::Syntax(mut s) => {
            s.location.offset += by;
            ReadError::Syntax(s)
        }
        ReadError::Game(mut g) => {
            g.location.offset += by;
            ReadError::Game(g)
        }
        other => other,
    }
}

/// Reads one game from decoded text (the whole input is one game: KIF
/// and KI2 have no game separator).
///
/// # Errors
/// The first [`SyntaxError`] or [`GameError`] (an illegal, ambiguous or
/// unresolvable move with its ply; a handicap we cannot set up; a bad
/// diagram); text with no KIF or KI2 item at all (empty, or every line
/// skipped: [`SyntaxProblem::NoItem`]), which is no record.
pub fn read_str(text: &str) -> Result<Game, ReadError> {
    read_str_with(text, Limits::DEFAULT)
}

/// [`read_str`] with caps.
///
/// # Errors
/// As [`read_str`].
pub fn read_str_with(text: &str, limits: Limits) -> Result<Game, ReadError> {
    let reader = Reader::with_limits(text, limits);
    let read_as: RecordFormat = reader.format().into();
    let mut b = Builder::new(limits, read_as);
    let mut items = 0usize;
    for item in reader {
        let (item, at) = item?;
        items += usize::from(!matches!(item, Item::Skipped(_)));
        b.item(item, at)?;
    }
    if items == 0 {
        // Every line skipped (or none): no record, not an empty game.
        let lines = text.lines().count();
        return Err(syntax(
            read_as,
            Location {
                offset: 0,
                line: 1,
                column: 1,
            },
            SyntaxProblem::NoItem {
                lines: u32::try_from(lines).unwrap_or(u32::MAX),
            },
        ));
    }
    b.finish()
}

/// A line being read: where it is in the tree and the positions along it.
struct Open {
    path: Vec<(usize, usize)>,
    start_ply: u32,
    /// Position and previous destination before each move, and after the
    /// last one (so `states.len() == moves + 1`).
    states: Vec<(Position, Option<Square>)>,
    depth: u32,
}

struct Builder {
    limits: Limits,
    /// The format errors name ([`Reader::format`]).
    read_as: RecordFormat,
    format: Format,
    program_lines: Vec<String>,
    headers: Vec<(String, String)>,
    handicap_name: Option<(String, Location)>,
    rows: Vec<[Option<Piece>; 9]>,
    diagram_at: Option<Location>,
    hands: [Hand; 2],
    turn: Option<Color>,
    start: Option<Position>,
    first_ply: u32,
    start_notes: Notes,
    root: Variation,
    stack: Vec<Open>,
    moves: usize,
    variations: usize,
}

fn syntax(format: RecordFormat, location: Location, problem: SyntaxProblem) -> ReadError {
    ReadError::Syntax(SyntaxError {
        format,
        location,
        problem,
    })
}

fn game_err(format: RecordFormat, location: Location, problem: GameProblem) -> ReadError {
    ReadError::Game(GameError {
        format,
        location,
        problem,
    })
}

fn line_mut<'v>(root: &'v mut Variation, path: &[(usize, usize)]) -> &'v mut Variation {
    let mut v = root;
    for &(i, k) in path {
        v = &mut v.moves[i].variations[k];
    }
    v
}

impl Builder {
    fn new(limits: Limits, read_as: RecordFormat) -> Builder {
        Builder {
            limits,
            read_as,
            format: Format::Ki2,
            program_lines: Vec::new(),
            headers: Vec::new(),
            handicap_name: None,
            rows: Vec::new(),
            diagram_at: None,
            hands: [Hand::EMPTY; 2],
            turn: None,
            start: None,
            first_ply: 1,
            start_notes: Notes::default(),
            root: Variation::default(),
            stack: Vec::new(),
            moves: 0,
            variations: 0,
        }
    }

    fn start_position(&mut self, at: Location) -> Result<Position, ReadError> {
        let read_as = self.read_as;
        if let Some(p) = self.start {
            return Ok(p);
        }
        let p = if !self.rows.is_empty() {
            let loc = self.diagram_at.unwrap_or(at);
            if self.rows.len() != 9 {
                return Err(game_err(
                    read_as,
                    loc,
                    GameProblem::IncompleteDiagram {
                        rows: self.rows.len().min(255) as u8,
                    },
                ));
            }
            let mut setup = Setup::empty();
            for (r, row) in self.rows.iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    if let Some(sq) = Square::new(9 - c as u8, r as u8 + 1) {
                        setup.board[sq.index()] = *cell;
                    }
                }
            }
            setup.hands = self.hands;
            setup.side_to_move = self.turn.unwrap_or(Color::Black);
            Position::from_setup(&setup)
                .map_err(|e| game_err(read_as, loc, GameProblem::Diagram(e)))?
        } else {
            match &self.handicap_name {
                Some((name, loc)) => match Handicap::from_name(name) {
                    Some(h) => h.position(),
                    None => {
                        return Err(game_err(
                            read_as,
                            *loc,
                            GameProblem::UnsupportedHandicap(name.clone()),
                        ));
                    }
                },
                None => Position::startpos(),
            }
        };
        self.start = Some(p);
        self.stack.push(Open {
            path: Vec::new(),
            start_ply: 0,
            states: alloc::vec![(p, None)],
            depth: 0,
        });
        Ok(p)
    }

    fn current_notes(&mut self) -> &mut Notes {
        match self.stack.last() {
            None => &mut self.start_notes,
            Some(open) => {
                let path = open.path.clone();
                let v = line_mut(&mut self.root, &path);
                match v.moves.last_mut() {
                    Some(n) => &mut n.notes,
                    None if path.is_empty() => &mut self.start_notes,
                    None => &mut v.notes,
                }
            }
        }
    }

    fn item(&mut self, item: Item<'_>, at: Location) -> Result<(), ReadError> {
        let read_as = self.read_as;
        let position_line = matches!(
            item,
            Item::Handicap(_) | Item::Hand { .. } | Item::BoardRow(_) | Item::Turn(_)
        );
        if position_line && self.start.is_some() {
            return Err(syntax(read_as, at, SyntaxProblem::PositionAfterMoves));
        }
        match item {
            Item::Program(text) => {
                if !(text.starts_with("KIF") || text.starts_with("KI2")) {
                    self.program_lines.push(text.to_owned());
                }
            }
            Item::Header { key, value } => {
                if self.headers.len() >= self.limits.max_headers {
                    return Err(syntax(
                        read_as,
                        at,
                        SyntaxProblem::TooManyHeaders {
                            max: self.limits.max_headers,
                        },
                    ));
                }
                self.headers.push((key.to_owned(), value.to_owned()));
            }
            Item::Handicap(name) => self.handicap_name = Some((name.to_owned(), at)),
            Item::Hand { color, hand } => self.hands[color.index()] = hand,
            Item::BoardRow(row) => {
                self.diagram_at.get_or_insert(at);
                if self.rows.len() >= 9 {
                    return Err(game_err(
                        read_as,
                        at,
                        GameProblem::IncompleteDiagram { rows: 10 },
                    ));
                }
                self.rows.push(row);
            }
            Item::Turn(c) => self.turn = Some(c),
            Item::Move { ply, text, time } => self.push_move(ply, text, time, at)?,
            Item::Ending {
                ply: _,
                ending,
                time,
            } => {
                self.start_position(at)?;
                let Some(open) = self.stack.last() else {
                    return Ok(());
                };
                let path = open.path.clone();
                let v = line_mut(&mut self.root, &path);
                if v.end.is_some() {
                    return Err(syntax(read_as, at, SyntaxProblem::MoveAfterEnd));
                }
                v.end = Some((ending, time));
            }
            Item::Variation(n) => {
                if self.start.is_none() {
                    // ShogiHome once wrote one into the header (§1.2).
                    return Ok(());
                }
                self.begin_variation(n, at)?;
            }
            Item::Comment { kind, text } => {
                let max = self.limits.max_comments;
                let notes = self.current_notes();
                if notes.comments.len() + notes.bookmarks.len() >= max {
                    return Err(syntax(read_as, at, SyntaxProblem::TooManyComments { max }));
                }
                notes.comments.push(Comment {
                    kind,
                    text: text.to_owned(),
                });
            }
            Item::Bookmark(name) => {
                let max = self.limits.max_comments;
                let notes = self.current_notes();
                if notes.comments.len() + notes.bookmarks.len() >= max {
                    return Err(syntax(read_as, at, SyntaxProblem::TooManyComments { max }));
                }
                notes.bookmarks.push(name.to_owned());
            }
            Item::Summary(text) => {
                // `まで0手で…` ends a game without moves.
                self.start_position(at)?;
                if let Some(open) = self.stack.last() {
                    let path = open.path.clone();
                    line_mut(&mut self.root, &path).summary = Some(text.to_owned());
                }
            }
            Item::Skipped(_) => {}
        }
        Ok(())
    }

    fn begin_variation(&mut self, n: u32, at: Location) -> Result<(), ReadError> {
        let read_as = self.read_as;
        if self.variations >= self.limits.max_variations {
            return Err(syntax(
                read_as,
                at,
                SyntaxProblem::TooManyVariations {
                    max: self.limits.max_variations,
                },
            ));
        }
        // Back up to the innermost line written so far that has move n.
        loop {
            let Some(top) = self.stack.last() else {
                return Err(game_err(
                    read_as,
                    at,
                    GameProblem::VariationWithoutMove { ply: n },
                ));
            };
            let moves = top.states.len() as u32 - 1;
            let has = n >= top.start_ply && n - top.start_ply < moves;
            // Replacing a variation's first move is a sibling of it.
            let first_of_variation = has && n == top.start_ply && !top.path.is_empty();
            if has && !first_of_variation {
                break;
            }
            self.stack.pop();
        }
        let top = self
            .stack
            .last()
            .ok_or_else(|| game_err(read_as, at, GameProblem::VariationWithoutMove { ply: n }))?;
        let i = (n - top.start_ply) as usize;
        let state = top.states[i];
        let mut path = top.path.clone();
        let depth = top.depth + 1;
        let parent = line_mut(&mut self.root, &path);
        let node = &mut parent.moves[i];
        node.variations.push(Variation::default());
        path.push((i, node.variations.len() - 1));
        self.variations += 1;
        self.stack.push(Open {
            path,
            start_ply: n,
            states: alloc::vec![state],
            depth,
        });
        Ok(())
    }

    fn push_move(
        &mut self,
        ply: Option<u32>,
        text: MoveText<'_>,
        time: Option<MoveTime>,
        at: Location,
    ) -> Result<(), ReadError> {
        let read_as = self.read_as;
        self.start_position(at)?;
        if self.moves >= self.limits.max_moves {
            return Err(syntax(
                read_as,
                at,
                SyntaxProblem::TooManyMoves {
                    max: self.limits.max_moves,
                },
            ));
        }
        if ply.is_some() {
            self.format = Format::Kif;
        }
        let first_ply = &mut self.first_ply;
        let Some(open) = self.stack.last_mut() else {
            return Ok(());
        };
        if open.start_ply == 0 {
            open.start_ply = ply.unwrap_or(1);
            *first_ply = open.start_ply;
        }
        let moves = open.states.len() as u32 - 1;
        let expected = open.start_ply + moves;
        if let Some(found) = ply
            && found != expected
        {
            return Err(syntax(
                read_as,
                at,
                SyntaxProblem::PlyMismatch { expected, found },
            ));
        }
        let v = line_mut(&mut self.root, &open.path);
        if v.end.is_some() {
            return Err(syntax(read_as, at, SyntaxProblem::MoveAfterEnd));
        }
        let (pos, last) = open.states[moves as usize];
        let illegal = |problem| {
            game_err(
                read_as,
                at,
                GameProblem::IllegalMove {
                    ply: expected - *first_ply + 1,
                    depth: open.depth,
                    text: text.text.to_owned(),
                    problem,
                },
            )
        };
        let Some(to) = ki2::dest_square(text.dest, last) else {
            return Err(illegal(MoveProblem::SameWithoutPrevious));
        };
        if let Some(color) = text.color
            && color != pos.side_to_move()
        {
            return Err(illegal(MoveProblem::Illegal(
                board_core::shogi::IllegalReason::WrongSide {
                    to_move: pos.side_to_move(),
                },
            )));
        }
        let mv = match text.origin {
            Some(Origin::Square(from)) => {
                let on = pos.piece_at(from).map(|p| p.kind);
                if on != Some(text.piece) {
                    return Err(illegal(MoveProblem::WrongPiece {
                        named: text.piece,
                        on_board: on,
                    }));
                }
                Move::normal(from, to, text.promote == Some(true))
            }
            Some(Origin::Drop) if text.color.is_none() => match Move::drop(text.piece, to) {
                Some(m) => m,
                None => {
                    return Err(illegal(MoveProblem::Illegal(
                        board_core::shogi::IllegalReason::NotInHand { kind: text.piece },
                    )));
                }
            },
            origin => ki2::resolve(
                &pos,
                to,
                text.piece,
                text.relative,
                text.promote,
                origin == Some(Origin::Drop),
            )
            .map_err(illegal)?,
        };
        let next = pos
            .play(mv)
            .map_err(|e| illegal(MoveProblem::Illegal(e.reason)))?;
        open.states.push((next, Some(to)));
        v.moves.push(Node {
            mv,
            time,
            notes: Notes::default(),
            variations: Vec::new(),
        });
        self.moves += 1;
        Ok(())
    }

    fn finish(mut self) -> Result<Game, ReadError> {
        let start = self.start_position(Location::default())?;
        let handicap = Handicap::of_position(&start);
        if self.format == Format::Ki2 {
            fill_ki2_endings(&mut self.root);
        }
        Ok(Game {
            format: self.format,
            encoding: (TextEncoding::Utf8, EncodingSource::Detected),
            program_lines: self.program_lines,
            headers: self.headers,
            handicap,
            start,
            first_ply: self.first_ply,
            start_notes: self.start_notes,
            main: self.root,
        })
    }
}

/// KI2 never writes 投了: the result comes from the `まで` line (§2).
fn fill_ki2_endings(v: &mut Variation) {
    if v.end.is_none()
        && let Some(s) = &v.summary
    {
        v.end = ending_from_summary(s).map(|e| (e, None));
    }
    for n in &mut v.moves {
        for sub in &mut n.variations {
            fill_ki2_endings(sub);
        }
    }
}

/// The ending a `まで…` summary line names (§1.7's KfW forms).
pub fn ending_from_summary(s: &str) -> Option<Ending> {
    let table = [
        ("中断", Ending::Interrupt),
        ("封じ手", Ending::Sealed),
        ("千日手", Ending::Repetition),
        ("持将棋", Ending::Impasse),
        ("時間切れ", Ending::TimeUp),
        ("反則勝ち", Ending::IllegalWin),
        ("反則負け", Ending::IllegalLoss),
        ("入玉勝ち", Ending::EnteringKingWin),
        ("入玉宣言", Ending::EnteringKingWin),
        ("不詰", Ending::NoMate),
        ("詰", Ending::Mate),
        ("の勝ち", Ending::Resign),
    ];
    table
        .into_iter()
        .find(|(w, _)| s.contains(w))
        .map(|(_, e)| e)
}
