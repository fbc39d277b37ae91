//! The owned game ([`Game`]): tags, start position, a tree of checked
//! moves with their comments, NAGs and variations, the result; built by
//! [`GameBuilder`], the visitor behind [`Reader::next_game`].

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::ops::ControlFlow;
use core::time::Duration;

use board_core::chess::{Move, Position, San};

use super::command::{Command, Commands, Eval};
use super::error::{GameError, GameProblem, Location, ReadError, RecordFormat};
use super::reader::{Reader, Visitor};
use super::types::{GameResult, Nag, RawComment, RawValue};

/// A value that cannot be a [`Tag`] or a [`Comment`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// A tag name that is not a symbol (`[A-Za-z0-9][A-Za-z0-9_+#=:-]*`,
    /// at most 255 bytes; standard §7).
    #[error("tag name is not a symbol")]
    TagName,
    /// A tag value with a control character (line feed, tab...), which no
    /// string may hold (standard §7).
    #[error("tag value holds a control character")]
    TagValue,
    /// A comment holding `}`, which would end it.
    #[error("comment holds '}}'")]
    Comment,
}

/// A tag pair: name and value (escapes resolved).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tag {
    name: String,
    value: String,
}

impl Tag {
    /// A tag pair.
    ///
    /// # Errors
    /// [`ValueError::TagName`] unless the name is a symbol;
    /// [`ValueError::TagValue`] when the value holds a control character.
    pub fn new(name: &str, value: &str) -> Result<Tag, ValueError> {
        let b = name.as_bytes();
        let symbol = !b.is_empty()
            && b.len() <= super::reader::MAX_SYMBOL_LEN
            && b[0].is_ascii_alphanumeric()
            && b.iter()
                .all(|&c| c.is_ascii_alphanumeric() || b"_+#=:-".contains(&c));
        if !symbol {
            return Err(ValueError::TagName);
        }
        if value.chars().any(char::is_control) {
            return Err(ValueError::TagValue);
        }
        Ok(Tag {
            name: name.to_owned(),
            value: value.to_owned(),
        })
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value.
    pub fn value(&self) -> &str {
        &self.value
    }
}

/// The tag pairs of a game, in the order read; names are unique (setting
/// a name again replaces its value in place).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Tags(Vec<Tag>);

impl Tags {
    /// No tags.
    pub const fn new() -> Tags {
        Tags(Vec::new())
    }

    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|t| t.name == name).map(|t| t.value())
    }

    /// Sets a tag; returns `true` when it replaced a value.
    pub fn set(&mut self, tag: Tag) -> bool {
        match self.0.iter_mut().find(|t| t.name == tag.name) {
            Some(t) => {
                t.value = tag.value;
                true
            }
            None => {
                self.0.push(tag);
                false
            }
        }
    }

    /// Removes `name`; its value if it was there.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let k = self.0.iter().position(|t| t.name == name)?;
        Some(self.0.remove(k).value)
    }

    /// The tags in order.
    pub fn iter(&self) -> core::slice::Iter<'_, Tag> {
        self.0.iter()
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No tags.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A comment's text (surrounding whitespace removed; never holds `}`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Comment(String);

impl Comment {
    /// A comment; surrounding whitespace is removed.
    ///
    /// # Errors
    /// [`ValueError::Comment`] when the text holds `}`.
    pub fn new(text: &str) -> Result<Comment, ValueError> {
        if text.contains('}') {
            return Err(ValueError::Comment);
        }
        Ok(Comment(text.trim().to_owned()))
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.0
    }

    /// Its embedded commands ([`Commands`]).
    pub fn commands(&self) -> Commands<'_> {
        Commands::new(self.0.as_bytes())
    }
}

/// One move of a line with what annotates it. The move and its SAN come
/// together from [`Node::new`] (checked against a position) or
/// [`Node::null`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Node {
    mv: Option<Move>,
    /// `None` for a null move.
    san: Option<San>,
    /// Comments before the move (written before its move number; what
    /// python-chess calls the starting comment of a variation's first
    /// move).
    pub starting_comments: Vec<Comment>,
    /// NAGs after the move (`$0` is never written).
    pub nags: Vec<Nag>,
    /// Comments after the move (and its NAGs).
    pub comments: Vec<Comment>,
    /// Variations: each a line that replaces this move (its first node is
    /// played from the position before this move).
    pub variations: Vec<Vec<Node>>,
}

impl Node {
    /// The legal move `mv` in `position`, with its canonical SAN.
    ///
    /// # Errors
    /// board-core's reason when `mv` is not legal there.
    pub fn new(position: &Position, mv: Move) -> Result<Node, board_core::chess::IllegalReason> {
        position.check_move(mv)?;
        Ok(Node::bare(Some(mv), Some(position.san(mv))))
    }

    /// A null move (`--`): the side to move passes. Not legal in check
    /// (see [`GameProblem::NullMoveInCheck`]); the reader and
    /// [`Game::push_san`] check it, a node built by hand is the caller's to check.
    pub fn null() -> Node {
        Node::bare(None, None)
    }

    fn bare(mv: Option<Move>, san: Option<San>) -> Node {
        Node {
            mv,
            san,
            starting_comments: Vec::new(),
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }

    /// The move; `None` for a null move.
    pub fn mv(&self) -> Option<Move> {
        self.mv
    }

    /// Canonical SAN with `+`/`#` (`--` for a null move).
    pub fn san(&self) -> &str {
        self.san.as_ref().map_or("--", San::as_str)
    }

    fn commands(&self) -> impl Iterator<Item = Command<'_>> {
        self.comments.iter().flat_map(|c| c.commands().flatten())
    }

    /// The move with its annotations in the three games' one type: the
    /// comments after it (commands with a field removed), NAGs (`$0`
    /// left out), `[%emt]`, `[%egt]`, `[%clk]`, `[%eval]` (see
    /// [`annotated`](crate::annotated)).
    pub fn annotated(&self) -> crate::annotated::Annotated<Option<Move>> {
        crate::annotated::from_pgn_parts(self.mv, &self.nags, &self.comments)
    }

    /// The node of an annotated move legal in `position` (`None`: a null
    /// move, which is the caller's to check): its NAGs, and its comments
    /// with the time and evaluation fields as commands in the first one
    /// (`{ [%eval 0.31] [%clk 0:03:00] [%emt 0:00:12] [%egt 0:05:00]
    /// text }`, spec note §1.9), which [`Node::annotated`] reads back to
    /// the same fields (durations to the millisecond).
    ///
    /// # Errors
    /// board-core's reason when the move is not legal there.
    pub fn from_annotated(
        position: &Position,
        a: &crate::annotated::Annotated<Option<Move>>,
    ) -> Result<Node, board_core::chess::IllegalReason> {
        let mut node = match a.mv {
            Some(mv) => Node::new(position, mv)?,
            None => Node::null(),
        };
        node.nags = a.nags.clone();
        node.comments = crate::annotated::write_comments(a);
        Ok(node)
    }

    /// The first `[%clk]` of the comments after the move: the mover's clock
    /// after it.
    pub fn clock(&self) -> Option<Duration> {
        self.commands().find_map(|c| match c {
            Command::Clock(d) => Some(d),
            _ => None,
        })
    }

    /// The first `[%emt]`: the time spent on the move.
    pub fn elapsed(&self) -> Option<Duration> {
        self.commands().find_map(|c| match c {
            Command::ElapsedMoveTime(d) => Some(d),
            _ => None,
        })
    }

    /// The first `[%eval]`.
    pub fn eval(&self) -> Option<Eval> {
        self.commands().find_map(|c| match c {
            Command::Eval(e) => Some(e),
            _ => None,
        })
    }
}

/// Something odd in a game that was read all the same.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Warning {
    /// The Result tag and the movetext's termination marker differ (both
    /// are kept: [`Game::tags`] and [`Game::result`]).
    ResultMismatch {
        /// The Result tag's value.
        tag: String,
        /// The termination marker.
        movetext: GameResult,
    },
    /// A tag name given twice; the last value is kept.
    DuplicateTag(String),
    /// A NAG before any move of its line (dropped).
    NagWithoutMove(Location),
    /// `SetUp "1"` without a FEN tag (the normal start is used).
    SetUpWithoutFen,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::ResultMismatch { tag, movetext } => {
                crate::error::result_mismatch(f, tag, movetext.as_str())
            }
            Warning::DuplicateTag(n) => write!(f, "tag {n} given twice; the last value is kept"),
            Warning::NagWithoutMove(at) => write!(f, "NAG before any move at {at} dropped"),
            Warning::SetUpWithoutFen => f.write_str("SetUp \"1\" without a FEN tag"),
        }
    }
}

/// A game: tags, start position, moves (a tree), result.
///
/// A game read by [`Reader`] holds legal moves only, and so does one
/// built with [`Game::push_san`]. A [`Node`] is always a legal move of the
/// position it was made for ([`Node::new`]); `moves` and `variations` are
/// open vectors, so a tree assembled by hand from nodes of other positions
/// is the caller's to keep in order (the writer writes each node's SAN as
/// stored). The writer ([`Game::write_to`], [`Game::to_pgn`], `Display`)
/// cannot fail.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Game {
    /// The tag pairs in the order read.
    pub tags: Tags,
    start: Position,
    /// Comments before the first move.
    pub comments: Vec<Comment>,
    /// The main line.
    pub moves: Vec<Node>,
    /// The movetext's termination marker (`None` when it had none).
    pub result: Option<GameResult>,
    /// What was odd but read.
    pub warnings: Vec<Warning>,
}

impl Game {
    /// A game from `start` with no tags and no moves. A start other than
    /// the normal one is written with `SetUp "1"` and its FEN.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Tags::new(),
            start,
            comments: Vec::new(),
            moves: Vec::new(),
            result: None,
            warnings: Vec::new(),
        }
    }

    /// The start position (from the FEN tag, or the normal start).
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position after the main line.
    pub fn end_position(&self) -> Position {
        self.position_after(self.moves.len()).unwrap_or(self.start)
    }

    /// The position after the first `ply` moves of the main line (0: the
    /// start; a null move `--` passes the turn); `None` when the main line
    /// is shorter.
    ///
    /// ```
    /// let game = board_records::pgn::Reader::new(b"1. e4 -- 2. d4 *").next_game().unwrap()?;
    /// assert_eq!(
    ///     game.position_after(2).unwrap().to_string(),
    ///     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
    /// );
    /// assert!(game.position_after(4).is_none());
    /// # Ok::<(), board_records::pgn::ReadError>(())
    /// ```
    pub fn position_after(&self, ply: usize) -> Option<Position> {
        let mut pos = self.start;
        for n in self.moves.get(..ply)? {
            pos = play_node(&pos, n).unwrap_or(pos);
        }
        Some(pos)
    }

    /// The game as the argument of a UCI `position` command: `startpos` or
    /// `fen <FEN>`, then ` moves` and the main line's moves in UCI notation
    /// (castling as the king's two-square move, a null move `0000`); no
    /// ` moves` for a game without moves.
    ///
    /// ```
    /// let game = board_records::pgn::Reader::new(b"1. e4 e5 2. Nf3 *").next_game().unwrap()?;
    /// assert_eq!(game.uci_line(), "startpos moves e2e4 e7e5 g1f3");
    /// # Ok::<(), board_records::pgn::ReadError>(())
    /// ```
    pub fn uci_line(&self) -> String {
        use core::fmt::Write as _;
        let mut line = if self.start == Position::startpos() {
            String::from("startpos")
        } else {
            alloc::format!("fen {}", self.start)
        };
        if !self.moves.is_empty() {
            line.push_str(" moves");
        }
        for node in &self.moves {
            let _ = match node.mv() {
                Some(mv) => write!(line, " {mv}"),
                None => write!(line, " 0000"),
            };
        }
        line
    }

    /// Appends a move given as SAN (any form board-core reads, or `--`) to
    /// the main line.
    ///
    /// # Errors
    /// [`GameProblem::IllegalMove`] / [`GameProblem::NullMoveInCheck`] with
    /// the ply (location 0).
    pub fn push_san(&mut self, san: &str) -> Result<&mut Node, GameError> {
        let pos = self.end_position();
        let ply = self.moves.len() as u32 + 1;
        let node = node_from_san(&pos, san, ply, 0).map_err(|problem| GameError {
            format: RecordFormat::Pgn,
            location: Location::default(),
            problem,
        })?;
        self.moves.push(node);
        Ok(self.moves.last_mut().unwrap_or_else(|| unreachable!()))
    }
}

/// Plays a node's move (or null move) on `pos`.
pub(crate) fn play_node(pos: &Position, node: &Node) -> Option<Position> {
    match node.mv {
        Some(mv) => pos.play(mv).ok(),
        None => null_move(pos),
    }
}

/// The position after a null move: the other side to move, no en passant
/// square, the counters advanced; `None` in check.
pub(crate) fn null_move(pos: &Position) -> Option<Position> {
    if pos.is_check() {
        return None;
    }
    let mut s = pos.to_setup();
    s.side_to_move = s.side_to_move.opposite();
    s.ep_square = None;
    s.halfmove_clock += 1;
    if s.side_to_move == board_core::chess::Color::White {
        s.fullmove_number += 1;
    }
    Position::from_setup(&s).ok()
}

fn is_null(san: &str) -> bool {
    matches!(san, "--" | "Z0")
}

fn node_from_san(pos: &Position, san: &str, ply: u32, depth: u32) -> Result<Node, GameProblem> {
    if is_null(san) {
        if pos.is_check() {
            return Err(GameProblem::NullMoveInCheck { ply });
        }
        return Ok(Node::null());
    }
    match pos.parse_san(san) {
        Ok(mv) => Ok(Node::bare(Some(mv), Some(pos.san(mv)))),
        Err(reason) => Err(GameProblem::IllegalMove {
            ply,
            depth,
            san: san.to_owned(),
            reason,
        }),
    }
}

/// One open line while building: its nodes, the position before its last
/// move and after it, the comments waiting for its first move, and the
/// ply of its next move.
#[derive(Debug, Clone)]
struct Line {
    nodes: Vec<Node>,
    before: Position,
    pos: Position,
    pending: Vec<Comment>,
    next_ply: u32,
}

/// The [`Visitor`] that builds a [`Game`], checking every move against
/// board-core's chess rules and stopping at the first illegal one (see
/// [`GameProblem`]). [`Reader::next_game`] uses it; its output carries byte
/// offsets only (location line/column 0) — `next_game` fills them in.
#[derive(Debug, Clone, Default)]
pub struct GameBuilder {
    game: Option<Game>,
    stack: Vec<Line>,
}

type Out = Result<Game, GameError>;

fn at(offset: usize) -> Location {
    Location {
        offset,
        line: 0,
        column: 0,
    }
}

impl GameBuilder {
    /// A builder.
    pub fn new() -> GameBuilder {
        GameBuilder::default()
    }

    fn game(&mut self) -> &mut Game {
        self.game
            .get_or_insert_with(|| Game::new(Position::startpos()))
    }

    fn stop(&mut self, offset: usize, problem: GameProblem) -> ControlFlow<Out> {
        self.game = None;
        self.stack.clear();
        ControlFlow::Break(Err(GameError {
            format: RecordFormat::Pgn,
            location: at(offset),
            problem,
        }))
    }

    fn top(&mut self) -> &mut Line {
        if self.stack.is_empty() {
            let start = *self.game().start();
            self.stack.push(Line {
                nodes: Vec::new(),
                before: start,
                pos: start,
                pending: Vec::new(),
                next_ply: 1,
            });
        }
        let k = self.stack.len() - 1;
        &mut self.stack[k]
    }
}

/// `Variant` values that mean standard chess (spec note §1.8).
fn standard_variant(v: &str) -> bool {
    let v = v.trim();
    [
        "",
        "standard",
        "normal",
        "from position",
        "illegal",
        "chess",
    ]
    .iter()
    .any(|s| v.eq_ignore_ascii_case(s))
}

impl<'a> Visitor<'a> for GameBuilder {
    type Output = Out;

    fn begin_game(&mut self, _: usize) -> ControlFlow<Out> {
        self.game = Some(Game::new(Position::startpos()));
        self.stack.clear();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, name: &'a str, value: RawValue<'a>, offset: usize) -> ControlFlow<Out> {
        let value = value.decode();
        // The reader's strings hold no control byte below 0x20; DEL and
        // C1 controls (Latin-1) are replaced rather than refused.
        let clean: String = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if name == "Variant" && !standard_variant(&clean) {
            return self.stop(offset, GameProblem::UnsupportedVariant(clean));
        }
        if name == "FEN" {
            match clean.trim().parse::<Position>() {
                Ok(p) => self.game().start = p,
                Err(e) => return self.stop(offset, GameProblem::Fen(e)),
            }
        }
        let Ok(tag) = Tag::new(name, &clean) else {
            // The reader gives symbols only.
            return ControlFlow::Continue(());
        };
        let game = self.game();
        if game.tags.set(tag) {
            game.warnings.push(Warning::DuplicateTag(name.to_owned()));
        }
        ControlFlow::Continue(())
    }

    fn end_tags(&mut self, _: usize) -> ControlFlow<Out> {
        let game = self.game();
        if game.tags.get("SetUp") == Some("1") && game.tags.get("FEN").is_none() {
            game.warnings.push(Warning::SetUpWithoutFen);
        }
        ControlFlow::Continue(())
    }

    fn san(&mut self, san: &'a str, offset: usize) -> ControlFlow<Out> {
        let depth = self.stack.len().saturating_sub(1) as u32;
        let line = self.top();
        let pos = line.pos;
        let ply = line.next_ply;
        let mut node = match node_from_san(&pos, san, ply, depth) {
            Ok(n) => n,
            Err(p) => return self.stop(offset, p),
        };
        let line = self.top();
        let next = match node.mv {
            // parse_san gave a legal move.
            Some(mv) => {
                let mut next = pos;
                next.play_unchecked(mv);
                next
            }
            None => match null_move(&pos) {
                Some(next) => next,
                // node_from_san refused a null move in check.
                None => return ControlFlow::Continue(()),
            },
        };
        node.starting_comments = core::mem::take(&mut line.pending);
        line.before = pos;
        line.pos = next;
        line.next_ply += 1;
        line.nodes.push(node);
        ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: Nag, offset: usize) -> ControlFlow<Out> {
        let line = self.top();
        match line.nodes.last_mut() {
            Some(n) if nag != Nag::NULL => n.nags.push(nag),
            Some(_) => {}
            None => self
                .game()
                .warnings
                .push(Warning::NagWithoutMove(at(offset))),
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, comment: RawComment<'a>, _: usize) -> ControlFlow<Out> {
        let text = comment.text();
        // `}` cannot be in a brace comment; a `;` comment may hold one,
        // dropped (and the text trimmed again, as `Comment::new` would: a
        // `}` at either end leaves a space there).
        let c = if text.contains('}') {
            Comment(text.replace('}', "").trim().to_owned())
        } else {
            Comment(text.into_owned())
        };
        let depth = self.stack.len();
        let line = self.top();
        match line.nodes.last_mut() {
            Some(n) => n.comments.push(c),
            None if depth <= 1 => self.game().comments.push(c),
            None => line.pending.push(c),
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, offset: usize) -> ControlFlow<Out, super::reader::Skip> {
        let line = self.top();
        if line.nodes.is_empty() {
            return match self.stop(offset, GameProblem::VariationWithoutMove) {
                ControlFlow::Break(b) => ControlFlow::Break(b),
                ControlFlow::Continue(()) => ControlFlow::Continue(super::reader::Skip(false)),
            };
        }
        let (before, ply) = (line.before, line.next_ply - 1);
        self.stack.push(Line {
            nodes: Vec::new(),
            before,
            pos: before,
            pending: Vec::new(),
            next_ply: ply,
        });
        ControlFlow::Continue(super::reader::Skip(false))
    }

    fn end_variation(&mut self, _: usize) -> ControlFlow<Out> {
        if self.stack.len() > 1 {
            let Some(var) = self.stack.pop() else {
                return ControlFlow::Continue(());
            };
            let mut nodes = var.nodes;
            // Comments in a variation with no move: kept before nothing
            // would be lost; attach them to the variation's parent move.
            let parent = self.top();
            if let Some(p) = parent.nodes.last_mut() {
                if nodes.is_empty() {
                    p.comments.extend(var.pending);
                } else {
                    p.variations.push(core::mem::take(&mut nodes));
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, result: GameResult, _: usize) -> ControlFlow<Out> {
        self.game().result = Some(result);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: usize) -> Out {
        let mut game = self
            .game
            .take()
            .unwrap_or_else(|| Game::new(Position::startpos()));
        self.top_into(&mut game);
        if let (Some(tag), Some(r)) = (game.tags.get("Result"), game.result)
            && tag != r.as_str()
        {
            let tag = tag.to_owned();
            game.warnings
                .push(Warning::ResultMismatch { tag, movetext: r });
        }
        Ok(game)
    }
}

impl GameBuilder {
    fn top_into(&mut self, game: &mut Game) {
        let main = self.stack.drain(..).next();
        if let Some(line) = main {
            game.moves = line.nodes;
            game.comments.extend(line.pending);
        }
    }
}

impl<'a> Reader<'a> {
    /// The next game, built and checked ([`GameBuilder`]): `None` at the
    /// end of the input. A syntax error or the first illegal move is an
    /// `Err` with its line, column and byte offset; the reader then goes
    /// on with the next game.
    pub fn next_game(&mut self) -> Option<Result<Game, ReadError>> {
        let mut b = GameBuilder::new();
        Some(match self.read_game(&mut b)? {
            Ok(Ok(mut game)) => {
                for w in &mut game.warnings {
                    if let Warning::NagWithoutMove(at) = w {
                        *at = self.location(at.offset);
                    }
                }
                Ok(game)
            }
            Ok(Err(mut e)) => {
                e.location = self.location(e.location.offset);
                Err(ReadError::Game(e))
            }
            Err(e) => Err(ReadError::Syntax(e)),
        })
    }

    /// An iterator of [`Reader::next_game`].
    pub fn games(self) -> Games<'a> {
        Games(self)
    }
}

/// The games of a [`Reader`] ([`Reader::games`]).
#[derive(Debug, Clone)]
pub struct Games<'a>(Reader<'a>);

impl Iterator for Games<'_> {
    type Item = Result<Game, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_game()
    }
}
