//! PDN, Portable Draughts Notation, for international draughts (GameType
//! 20, 10x10): a first slice of PDN 3.0 as [`spec::pgn_pdn`](crate::spec::pgn_pdn)
//! part 2 describes it, on the PGN module's structure: a reader over
//! `&[u8]` that builds checked games ([`Reader::next_game`]), the same
//! [`Limits`], [`SyntaxError`]s with line, column and byte offset and
//! resynchronisation as [`pgn`](crate::pgn), and an infallible writer.
//!
//! Read: tag pairs (as PGN, §2.5); `GameType` `20` or its long form
//! (`20,W,10,10,N2,0`, PlayOK's `20,W,10,10,N1,0`: the leading number is
//! what counts, §2.6), any other type refused by name; `FEN` as board-core
//! reads it (with a trailing `.` accepted, §2.7); moves `32-28`, `28x19`
//! and the long form `28x19x10` (§2.8), checked with board-core (a long
//! form is accepted even when not needed); move numbers `12.`, `12...`;
//! `{}` comments and `;` comments; `%` comments to the end of the line
//! anywhere (§2.3); NAGs and strength marks `!` `?` `!!` `??` `!?` `?!`,
//! also in parentheses `(?)` (§2.3); variations; results `2-0`, `0-2`,
//! `1-1`, `0-0`, `1-0`, `0-1`, `1/2-1/2`, `*`, matched only as a whole
//! token (`1-10` is a move, §2.8).
//!
//! Errors name the format (`PDN syntax error at …`, `PDN game error at
//! …`), the line, the column (characters) and the byte offset
//! ([`Location`]); an illegal move its ply, board-core's reason and, when
//! a capture is compulsory and the move is none of the legal captures,
//! those captures (`ply 3: 31-27: a capture is compulsory: 28x19`). A
//! Result tag whose meaning differs from the movetext's result is kept,
//! and so is the result: [`Game::warnings`] says so
//! ([`Warning::ResultMismatch`]).
//!
//! Not yet: the `/FEN "…"/` setup command (a syntax error), other game
//! types, algebraic squares, `:` as capture separator.
//!
//! ```
//! use board_records::pdn::Reader;
//! let pdn = b"[GameType \"20\"]\n[Result \"2-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n";
//! let game = Reader::new(pdn).next_game().unwrap()?;
//! assert_eq!(game.moves.len(), 4);
//! assert_eq!(game.moves[3].text(), "14x23");
//! assert_eq!(game.result, Some("2-0"));
//! # Ok::<(), board_records::pdn::ReadError>(())
//! ```

use alloc::borrow::ToOwned;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write};

use board_core::draughts::{
    Color, IllegalMoveError, IllegalReason, Move, MoveText, MoveTextError, ParseFenError, Position,
};

use crate::error::{Ply, Problem};
use crate::pgn::reader::{brace_comment, nag, suffix, tag_pair};
use crate::pgn::writer::{SEVEN_TAG_ROSTER, Wrap, write_tag};
use crate::pgn::{Comment, Nag, Tag, Tags, decode_text};

pub use crate::error::{Located, Location, RecordFormat};
pub use crate::pgn::{SyntaxError, SyntaxProblem};

pub use crate::pgn::Limits;

/// The results a PDN movetext may end with (§2.8): the international set,
/// then the default set, then `*`.
pub const RESULTS: [&str; 8] = ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"];

/// What is wrong with a PDN game that reads (see [`GameError`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum GameProblem {
    /// The first move that is not a legal move here: its 1-based half-move
    /// number from the start along its line, the variation depth, the text,
    /// board-core's reason and, when capturing is compulsory here and the
    /// text names none of the captures allowed, those captures.
    IllegalMove {
        /// 1-based half-move number.
        ply: u32,
        /// Variation depth, 0 for the main line.
        depth: u32,
        /// The move as written.
        text: String,
        /// board-core's reason.
        reason: MoveTextError,
        /// The legal moves, all captures of the most pieces (the majority
        /// rule), when a capture is compulsory and the text is a quiet
        /// move or a capture that is not legal; in board-core's
        /// legal-move order, written as the writer writes them (short
        /// unless ambiguous, §2.8). Empty otherwise (no capture possible,
        /// a syntax error, or an ambiguous short capture, whose reason
        /// lists its candidates).
        compulsory: Vec<MoveText>,
    },
    /// The FEN tag is not a position.
    Fen(ParseFenError),
    /// A `GameType` other than 20 (international draughts), as written.
    UnsupportedGameType(String),
    /// A variation `(` before any move of its line.
    VariationWithoutMove,
}

/// How many compulsory captures an illegal-move message names before
/// `and N more`.
const COMPULSORY_SHOWN: usize = 8;

impl fmt::Display for GameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameProblem::IllegalMove {
                ply,
                depth,
                text,
                reason,
                compulsory,
            } => {
                let place = Ply {
                    ply: *ply,
                    depth: *depth,
                };
                // An illegal move's reason names the move itself
                // (`28-22: a capture is compulsory`); a syntax error's does
                // not.
                match reason {
                    MoveTextError::Illegal(IllegalMoveError::CaptureRequired {
                        from, to, ..
                    }) if !compulsory.is_empty() => {
                        write!(f, "{place}: {from}-{to}: a capture is compulsory:")?;
                    }
                    MoveTextError::Illegal(_) if !compulsory.is_empty() => {
                        write!(
                            f,
                            "{place}: {reason}; a capture of the most pieces is compulsory:"
                        )?;
                    }
                    MoveTextError::Illegal(_) => return write!(f, "{place}: {reason}"),
                    MoveTextError::Syntax(_) => return write!(f, "{place}: {text}: {reason}"),
                }
                for (i, m) in compulsory.iter().take(COMPULSORY_SHOWN).enumerate() {
                    f.write_str(if i == 0 { " " } else { ", " })?;
                    write!(f, "{m}")?;
                }
                if compulsory.len() > COMPULSORY_SHOWN {
                    write!(f, " and {} more", compulsory.len() - COMPULSORY_SHOWN)?;
                }
                Ok(())
            }
            GameProblem::Fen(e) => write!(f, "FEN tag: {e}"),
            GameProblem::UnsupportedGameType(t) => write!(f, "unsupported GameType {t:?}"),
            GameProblem::VariationWithoutMove => f.write_str("variation before any move"),
        }
    }
}

impl Problem for GameProblem {
    const KIND: &'static str = "game";
}

/// A PDN game that reads but is not playable (format
/// [`RecordFormat::Pdn`], the location of the token at fault, the
/// problem); the reader has skipped it. Displayed as `PDN game error at
/// line 4, column 4 (byte 30): ply 3: ...`.
pub type GameError = Located<GameProblem>;

/// Reading one PDN game failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Syntax (a [`SyntaxError`] whose format is [`RecordFormat::Pdn`]).
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// Meaning.
    #[error(transparent)]
    Game(#[from] GameError),
}

impl ReadError {
    /// Where the error is.
    pub fn location(&self) -> Location {
        match self {
            ReadError::Syntax(e) => e.location,
            ReadError::Game(e) => e.location,
        }
    }
}

/// What a game's result means (§2.8, international set; `1-0`/`0-1`/
/// `1/2-1/2` read as lidraughts' `Color.fromResult` does), `None` when it
/// says nothing (`*`, `?`, empty).
fn outcome(result: &str) -> Option<&'static str> {
    Some(match result.trim() {
        "2-0" | "1-0" => "white wins",
        "0-2" | "0-1" => "black wins",
        "1-1" | "1/2-1/2" => "draw",
        "0-0" => "both lose",
        "*" | "?" | "" => return None,
        _ => "other",
    })
}

/// Something odd in a game that was read all the same (the PGN module's
/// [`Warning`](crate::pgn::Warning) for draughts).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Warning {
    /// The Result tag and the movetext's result say different things
    /// (both are kept: [`Game::tags`] and [`Game::result`]). Results of
    /// the same meaning do not differ (`1-0` in the tag and `2-0` in the
    /// movetext, §2.8), and `*` in the movetext, PDN 3.0's terminator
    /// whatever the result (§2.4), or a tag of `*`, `?` or `""` (unknown,
    /// §2.5) differs from nothing.
    ResultMismatch {
        /// The Result tag's value.
        tag: String,
        /// The movetext's result.
        movetext: &'static str,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::ResultMismatch { tag, movetext } => {
                crate::error::result_mismatch(f, tag, movetext)
            }
        }
    }
}

/// One move with its annotations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    mv: Move,
    text: MoveText,
    /// Comments before the move (kept for a variation's first move).
    pub starting_comments: Vec<Comment>,
    /// NAGs (strength marks as NAGs 1..=6).
    pub nags: Vec<Nag>,
    /// Comments after the move.
    pub comments: Vec<Comment>,
    /// Lines replacing this move.
    pub variations: Vec<Vec<Node>>,
}

impl Node {
    /// The legal move `mv` in `position` with its PDN text (short form
    /// unless ambiguous).
    ///
    /// # Errors
    /// board-core's reason when `mv` is not legal there.
    pub fn new(position: &Position, mv: Move) -> Result<Node, IllegalReason> {
        position.play(mv).map_err(|e| e.reason)?;
        Ok(Node {
            mv,
            text: position.move_text(mv),
            starting_comments: Vec::new(),
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        })
    }

    /// The move.
    pub fn mv(&self) -> Move {
        self.mv
    }
    /// The move with its annotations in the three games' one type (as
    /// [`pgn::Node::annotated`](crate::pgn::Node::annotated): comments,
    /// NAGs, `[%emt]`, `[%egt]`, `[%clk]`, `[%eval]`).
    pub fn annotated(&self) -> crate::annotated::Annotated<Move> {
        crate::annotated::from_pgn_parts(self.mv, &self.nags, &self.comments)
    }

    /// The node of an annotated move legal in `position` (as
    /// [`pgn::Node::from_annotated`](crate::pgn::Node::from_annotated)).
    ///
    /// # Errors
    /// board-core's reason when the move is not legal there.
    pub fn from_annotated(
        position: &Position,
        a: &crate::annotated::Annotated<Move>,
    ) -> Result<Node, IllegalReason> {
        let mut node = Node::new(position, a.mv)?;
        node.nags = a.nags.clone();
        node.comments = crate::annotated::write_comments(a);
        Ok(node)
    }

    /// Its PDN text as the writer writes it.
    pub fn text(&self) -> String {
        self.text.to_string()
    }
}

/// A PDN game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Tag pairs in the order read.
    pub tags: Tags,
    start: Position,
    /// Comments before the first move.
    pub comments: Vec<Comment>,
    /// The main line.
    pub moves: Vec<Node>,
    /// The movetext's result token (one of [`RESULTS`]), if any.
    pub result: Option<&'static str>,
    /// What was odd but read.
    pub warnings: Vec<Warning>,
}

impl Game {
    /// A game from `start`.
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

    /// The start position (FEN tag or the normal start).
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position after the first `ply` moves of the main line (0: the
    /// start); `None` when the main line is shorter.
    pub fn position_after(&self, ply: usize) -> Option<Position> {
        let mut pos = self.start;
        for node in self.moves.get(..ply)? {
            pos.play_unchecked(node.mv());
        }
        Some(pos)
    }

    /// The game as an engine takes it: the start's PDN FEN, then ` moves`
    /// and the main line's moves in PDN numeric notation, quiet moves
    /// `32-28` and every capture in the long form, the origin then each
    /// landing square (`28x19x10`, PDN 3.0 §2.8); no ` moves` for a game
    /// without moves.
    ///
    /// ```
    /// let pdn = b"1. 32-28 19-23 2. 28x19 14x23 *";
    /// let game = board_records::pdn::Reader::new(pdn).next_game().unwrap()?;
    /// assert_eq!(
    ///     game.engine_line(),
    ///     "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:\
    ///      B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 moves 32-28 19-23 28x19 14x23"
    /// );
    /// # Ok::<(), board_records::pdn::ReadError>(())
    /// ```
    pub fn engine_line(&self) -> String {
        let mut pos = self.start;
        let mut line = pos.to_string();
        if !self.moves.is_empty() {
            line.push_str(" moves");
        }
        for node in &self.moves {
            let mv = node.mv();
            line.push(' ');
            match pos.capture_path(mv) {
                Some(path) if mv.is_capture() => {
                    for (i, sq) in path.squares().enumerate() {
                        if i > 0 {
                            line.push('x');
                        }
                        let _ = write!(line, "{}", sq.number());
                    }
                }
                _ => {
                    let _ = write!(line, "{}", pos.move_text(mv));
                }
            }
            pos.play_unchecked(mv);
        }
        line
    }
}

struct Line {
    nodes: Vec<Node>,
    before: Position,
    pos: Position,
    pending: Vec<Comment>,
    next_ply: u32,
}

/// A streaming PDN reader over a whole input (see the [module docs](self)).
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    limits: Limits,
    lines: crate::pgn::Reader<'a>,
}

enum Fault {
    Syntax(usize, SyntaxProblem),
    Game(usize, GameProblem),
}

fn is_move_byte(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'x' | b'-' | b'/' | b':')
}

impl<'a> Reader<'a> {
    /// A reader with [`Limits::DEFAULT`]; a UTF-8 BOM is skipped.
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        Reader::with_limits(input, Limits::DEFAULT)
    }

    /// A reader with the given limits.
    pub fn with_limits(input: &'a [u8], limits: Limits) -> Reader<'a> {
        let pos = if input.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        Reader {
            input,
            pos,
            limits,
            lines: crate::pgn::Reader::new(input),
        }
    }

    /// Line and column of a byte offset.
    pub fn location(&self, offset: usize) -> Location {
        self.lines.location(offset)
    }

    /// An iterator of [`Reader::next_game`].
    pub fn games(self) -> impl Iterator<Item = Result<Game, ReadError>> + 'a {
        let mut r = self;
        core::iter::from_fn(move || r.next_game())
    }

    /// Skips whitespace and `%` comments. Returns (stopped at a token,
    /// crossed a blank line, the token is first on its line).
    fn skip(&mut self) -> (bool, bool, bool) {
        let s = self.input;
        let mut i = self.pos;
        let mut newlines = 0;
        let mut blank = false;
        let mut first = i == 0 || s[i - 1] == b'\n';
        while i < s.len() {
            match s[i] {
                b'\n' => {
                    newlines += 1;
                    blank |= newlines >= 2;
                    first = true;
                    i += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
                b'%' => {
                    i += s[i..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .unwrap_or(s.len() - i);
                    newlines = 0;
                }
                _ => {
                    self.pos = i;
                    return (true, blank, first);
                }
            }
        }
        self.pos = i;
        (false, blank, first)
    }

    /// The next game, checked; `None` at the end of the input. After an
    /// error the reader skips to the next line starting with `[` that
    /// follows a line that is not a tag line.
    pub fn next_game(&mut self) -> Option<Result<Game, ReadError>> {
        if !self.skip().0 {
            return None;
        }
        let mut in_tags = true;
        match self.game(&mut in_tags) {
            Ok(g) => Some(Ok(g)),
            Err(f) => {
                let (offset, e) = match f {
                    Fault::Syntax(o, problem) => (
                        o,
                        ReadError::Syntax(SyntaxError {
                            format: RecordFormat::Pdn,
                            location: self.location(o),
                            problem,
                        }),
                    ),
                    Fault::Game(o, problem) => (
                        o,
                        ReadError::Game(GameError {
                            format: RecordFormat::Pdn,
                            location: self.location(o),
                            problem,
                        }),
                    ),
                };
                self.resync(offset, in_tags);
                Some(Err(e))
            }
        }
    }

    fn resync(&mut self, offset: usize, in_tags: bool) {
        self.pos = crate::pgn::reader::resync_point(self.input, offset, in_tags);
    }

    fn game(&mut self, in_tags: &mut bool) -> Result<Game, Fault> {
        let lim = self.limits;
        let input = self.input;
        let start = self.pos;
        let syn = |at: usize, p| Fault::Syntax(at, p);
        let nom_fault = |e: nom::Err<crate::pgn::reader::Fault>| match e {
            nom::Err::Error(f) | nom::Err::Failure(f) => {
                Fault::Syntax(input.len() - f.rest, f.problem)
            }
            nom::Err::Incomplete(_) => Fault::Syntax(input.len(), SyntaxProblem::BadToken),
        };
        let mut game = Game::new(Position::startpos());
        // Tags.
        let mut ntags = 0;
        loop {
            let (token, _, _) = self.skip();
            if !token || input[self.pos] != b'[' {
                break;
            }
            let at = self.pos;
            let (rest, (name, value)) =
                tag_pair(&input[at..], lim.max_string_len).map_err(nom_fault)?;
            self.pos = input.len() - rest.len();
            ntags += 1;
            if ntags > lim.max_tags {
                return Err(syn(at, SyntaxProblem::TooManyTags { max: lim.max_tags }));
            }
            let name = core::str::from_utf8(name).unwrap_or_default();
            let value = crate::pgn::RawValue(value).decode();
            let value: String = value
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            if name == "GameType" {
                let number = value.split(',').next().unwrap_or("").trim();
                if number != "20" {
                    return Err(Fault::Game(at, GameProblem::UnsupportedGameType(value)));
                }
            }
            if name == "FEN" {
                let fen = value.trim();
                let fen = fen.strip_suffix('.').unwrap_or(fen);
                game.start = fen
                    .parse()
                    .map_err(|e| Fault::Game(at, GameProblem::Fen(e)))?;
            }
            if let Ok(tag) = Tag::new(name, &value) {
                game.tags.set(tag);
            }
        }
        *in_tags = false;
        // Movetext.
        let mut stack = alloc::vec![Line {
            nodes: Vec::new(),
            before: game.start,
            pos: game.start,
            pending: Vec::new(),
            next_ply: 1,
        }];
        let mut seen = false;
        let mut moves = 0;
        loop {
            let (token, blank, first) = self.skip();
            if !token
                || (seen && blank)
                || (first && input[self.pos] == b'[' && input.get(self.pos + 1) != Some(&b'%'))
            {
                break;
            }
            let at = self.pos;
            if at - start > lim.max_game_len {
                return Err(syn(
                    at,
                    SyntaxProblem::GameTooLong {
                        max: lim.max_game_len,
                    },
                ));
            }
            seen = true;
            let rest = &input[at..];
            let depth = stack.len() - 1;
            let top = stack.len() - 1;
            match rest[0] {
                b'{' | b';' => {
                    let text = if rest[0] == b'{' {
                        let (r, t) = brace_comment(rest, lim.max_comment_len).map_err(nom_fault)?;
                        self.pos = input.len() - r.len();
                        t
                    } else {
                        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                        self.pos = at + end;
                        if end > lim.max_comment_len {
                            return Err(syn(
                                at,
                                SyntaxProblem::CommentTooLong {
                                    max: lim.max_comment_len,
                                },
                            ));
                        }
                        &rest[1..end]
                    };
                    let c = decode_text(text);
                    let c = Comment::new(&c.replace('}', "")).unwrap_or_else(|_| unreachable!());
                    let line = &mut stack[top];
                    match line.nodes.last_mut() {
                        Some(n) => n.comments.push(c),
                        None if depth == 0 => game.comments.push(c),
                        None => line.pending.push(c),
                    }
                    continue;
                }
                _ if game.result.is_some() && first => break,
                _ if game.result.is_some() => return Err(syn(at, SyntaxProblem::TokenAfterResult)),
                b'(' => {
                    // A strength mark in parentheses: `(?)`, `(!?)`.
                    let marks = rest[1..]
                        .iter()
                        .take_while(|&&b| b == b'!' || b == b'?')
                        .count();
                    if marks > 0 && rest.get(1 + marks) == Some(&b')') {
                        self.pos = at + marks + 2;
                        match (
                            Nag::from_suffix(&rest[1..1 + marks]),
                            stack[top].nodes.last_mut(),
                        ) {
                            (Some(n), Some(node)) => node.nags.push(n),
                            (None, _) => return Err(syn(at, SyntaxProblem::BadSuffix)),
                            (Some(_), None) => {}
                        }
                        continue;
                    }
                    self.pos = at + 1;
                    if stack.len() > lim.max_depth {
                        return Err(syn(at, SyntaxProblem::TooDeep { max: lim.max_depth }));
                    }
                    let line = &stack[top];
                    if line.nodes.is_empty() {
                        return Err(Fault::Game(at, GameProblem::VariationWithoutMove));
                    }
                    let (before, ply) = (line.before, line.next_ply - 1);
                    stack.push(Line {
                        nodes: Vec::new(),
                        before,
                        pos: before,
                        pending: Vec::new(),
                        next_ply: ply,
                    });
                }
                b')' => {
                    self.pos = at + 1;
                    if stack.len() == 1 {
                        return Err(syn(at, SyntaxProblem::UnmatchedClose));
                    }
                    let var = stack.pop().unwrap_or_else(|| unreachable!());
                    let parent = stack.len() - 1;
                    if let Some(p) = stack[parent].nodes.last_mut() {
                        if var.nodes.is_empty() {
                            p.comments.extend(var.pending);
                        } else {
                            p.variations.push(var.nodes);
                        }
                    }
                }
                b'$' | b'!' | b'?' => {
                    let (r, n) = if rest[0] == b'$' {
                        nag(rest)
                    } else {
                        suffix(rest)
                    }
                    .map_err(nom_fault)?;
                    self.pos = input.len() - r.len();
                    if let Some(node) = stack[top].nodes.last_mut()
                        && n != Nag::NULL
                    {
                        node.nags.push(n);
                    }
                }
                b'*' => {
                    self.pos = at + 1;
                    if depth > 0 {
                        return Err(syn(at, SyntaxProblem::ResultInVariation));
                    }
                    game.result = Some("*");
                }
                b'0'..=b'9' => {
                    let len = rest.iter().take_while(|&&b| is_move_byte(b)).count();
                    let tok = &rest[..len];
                    self.pos = at + len;
                    if let Some(r) = RESULTS.iter().find(|r| r.as_bytes() == tok) {
                        if depth > 0 {
                            return Err(syn(at, SyntaxProblem::ResultInVariation));
                        }
                        game.result = Some(r);
                        continue;
                    }
                    if tok.iter().all(u8::is_ascii_digit) && rest.get(len) == Some(&b'.') {
                        self.pos += rest[len..].iter().take_while(|&&b| b == b'.').count();
                        continue;
                    }
                    if len > crate::pgn::MAX_SYMBOL_LEN {
                        return Err(syn(
                            at,
                            SyntaxProblem::SymbolTooLong {
                                max: crate::pgn::MAX_SYMBOL_LEN,
                            },
                        ));
                    }
                    moves += 1;
                    if moves > lim.max_moves {
                        return Err(syn(at, SyntaxProblem::TooManyMoves { max: lim.max_moves }));
                    }
                    let text = core::str::from_utf8(tok).unwrap_or_default();
                    let line = &mut stack[top];
                    let pos = line.pos;
                    let mv = pos.parse_move(text).map_err(|reason| {
                        Fault::Game(
                            at,
                            GameProblem::IllegalMove {
                                ply: line.next_ply,
                                depth: depth as u32,
                                text: text.to_owned(),
                                reason,
                                compulsory: compulsory_captures(&pos, &reason),
                            },
                        )
                    })?;
                    let node = Node {
                        mv,
                        text: pos.move_text(mv),
                        starting_comments: core::mem::take(&mut line.pending),
                        nags: Vec::new(),
                        comments: Vec::new(),
                        variations: Vec::new(),
                    };
                    let mut next = pos;
                    next.play_unchecked(mv);
                    line.before = pos;
                    line.pos = next;
                    line.next_ply += 1;
                    line.nodes.push(node);
                }
                b'.' => {
                    self.pos = at + rest.iter().take_while(|&&b| b == b'.').count();
                }
                byte => return Err(syn(at, SyntaxProblem::UnexpectedByte { byte })),
            }
        }
        if stack.len() > 1 {
            return Err(syn(
                self.pos,
                SyntaxProblem::UnclosedVariation {
                    depth: stack.len() - 1,
                },
            ));
        }
        let main = stack.pop().unwrap_or_else(|| unreachable!());
        game.moves = main.nodes;
        game.comments.extend(main.pending);
        if let (Some(tag), Some(r)) = (game.tags.get("Result"), game.result)
            && let (Some(a), Some(b)) = (outcome(tag), outcome(r))
            && a != b
        {
            let tag = tag.to_owned();
            game.warnings
                .push(Warning::ResultMismatch { tag, movetext: r });
        }
        Ok(game)
    }
}

/// The legal captures when capturing is compulsory in `pos` and `reason`
/// refuses a text that names none of them (see
/// [`GameProblem::IllegalMove`]).
fn compulsory_captures(pos: &Position, reason: &MoveTextError) -> Vec<MoveText> {
    let names_none = matches!(
        reason,
        MoveTextError::Illegal(
            IllegalMoveError::CaptureRequired { .. }
                | IllegalMoveError::NoSuchMove { .. }
                | IllegalMoveError::NoSuchPath { .. }
        )
    );
    if !names_none || !pos.must_capture() {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| pos.move_text(m))
        .collect()
}

impl<W: Write> Wrap<'_, W> {
    /// The PDN movetext of `nodes` (the PGN writer's numbering).
    fn pdn_line(&mut self, nodes: &[Node], mut num: u32, mut color: Color) -> fmt::Result {
        let mut force = true;
        for node in nodes {
            for c in &node.starting_comments {
                self.comment(c)?;
                force = true;
            }
            if color == Color::White {
                self.token(&alloc::format!("{num}."))?;
            } else if force {
                self.token(&alloc::format!("{num}..."))?;
            }
            self.token(&node.text())?;
            force = false;
            for n in node.nags.iter().filter(|n| n.0 != 0) {
                self.token(&n.to_string())?;
                force = true;
            }
            for c in &node.comments {
                self.comment(c)?;
                force = true;
            }
            for v in node.variations.iter().filter(|v| !v.is_empty()) {
                self.token("(")?;
                self.pdn_line(v, num, color)?;
                self.token(")")?;
                force = true;
            }
            if color == Color::Black {
                num += 1;
            }
            color = match color {
                Color::White => Color::Black,
                Color::Black => Color::White,
            };
        }
        Ok(())
    }
}

impl Game {
    /// Writes the game: the Seven Tag Roster first, in its order (Event,
    /// Site, Date, Round, White, Black, Result), a missing one written
    /// with PGN's "unknown" value (`?`, `????.??.??` for Date; for Result
    /// the movetext's result or `*`) as the PGN writer does (PDN 3.0 takes
    /// the roster from PGN, §2.5: it may leave unknown tags out and reads
    /// `"?"` as unknown); then the other tags in their order, with
    /// `GameType "20"` and `FEN` added when missing (FEN only when the
    /// start is not the normal one); `\"` and `\\` escaped; an empty line;
    /// the movetext (numbers `N.` / `N...` as in PGN, NAGs as `$n`, `{ }`
    /// comments, `( )` variations, moves in board-core's form: short
    /// unless ambiguous, §2.8) wrapped before 80 columns, the result (or
    /// `*`), an empty line.
    ///
    /// # Errors
    /// Only those of `w`.
    pub fn write_to<W: Write>(&self, w: &mut W) -> fmt::Result {
        for (name, unknown) in SEVEN_TAG_ROSTER {
            let value = match self.tags.get(name) {
                Some(v) => v,
                None if name == "Result" => self.result.unwrap_or("*"),
                None => unknown,
            };
            write_tag(w, name, value)?;
        }
        for t in self
            .tags
            .iter()
            .filter(|t| !SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == t.name()))
        {
            write_tag(w, t.name(), t.value())?;
        }
        if self.tags.get("GameType").is_none() {
            write_tag(w, "GameType", "20")?;
        }
        if self.tags.get("FEN").is_none() && self.start != Position::startpos() {
            write_tag(w, "FEN", &self.start.to_string())?;
        }
        w.write_char('\n')?;
        let mut wrap = Wrap::new(w);
        for c in &self.comments {
            wrap.comment(c)?;
        }
        wrap.pdn_line(&self.moves, 1, self.start.side_to_move())?;
        wrap.token(self.result.unwrap_or("*"))?;
        wrap.w.write_str("\n\n")
    }

    /// The game as PDN text ([`Game::write_to`]).
    pub fn to_pdn(&self) -> String {
        let mut s = String::new();
        let _ = self.write_to(&mut s);
        s
    }
}

/// A move of a [`Recorder`]'s line that is not legal where it is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {reason}")]
pub struct IllegalMove {
    /// 1-based half-move number of the move in the line given.
    pub ply: u32,
    /// board-core's reason.
    pub reason: IllegalReason,
}

/// A result that is none of [`RESULTS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a PDN result: {0:?}")]
pub struct NotAResult(pub String);

/// A game being played, kept as a PDN record that is complete after every
/// move: its tags, its start position and its main line so far, written
/// (infallibly) with [`Game::write_to`] at any moment, with `*` as the
/// result until [`Recorder::finish`]. The PGN module's
/// [`Recorder`](crate::pgn::writer::Recorder) for draughts.
///
/// ```
/// use board_core::draughts::Position;
/// use board_records::pdn::Recorder;
///
/// let start = Position::startpos();
/// let mut rec = Recorder::new(start);
/// rec.set_tag("White", "boardwire")?;
/// let m = start.parse_move("32-28").unwrap();
/// assert!(rec.sync(&[m]).unwrap());
/// assert!(rec.to_pdn().ends_with("\n\n1. 32-28 *\n\n"));
/// rec.finish("2-0").unwrap();
/// assert!(rec.to_pdn().contains("[Result \"2-0\"]"));
/// assert!(rec.to_pdn().ends_with("\n\n1. 32-28 2-0\n\n"));
/// # Ok::<(), board_records::pgn::ValueError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorder {
    game: Game,
    /// The position after each move of the main line.
    ends: Vec<Position>,
}

impl Recorder {
    /// A record of a game from `start` with no moves yet (result `*`).
    pub fn new(start: Position) -> Recorder {
        let mut game = Game::new(start);
        game.result = Some("*");
        Recorder {
            game,
            ends: Vec::new(),
        }
    }

    /// Sets a tag; tags are written in the order first set (PDN has no
    /// required order, §2.5).
    ///
    /// # Errors
    /// As [`Tag::new`].
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), crate::pgn::ValueError> {
        self.game.tags.set(Tag::new(name, value)?);
        Ok(())
    }

    /// The position reached.
    pub fn position(&self) -> Position {
        self.ends.last().copied().unwrap_or(self.game.start)
    }

    /// Appends a move to the main line.
    ///
    /// # Errors
    /// [`IllegalMove`] (nothing changes) when `mv` is not legal in
    /// [`Recorder::position`].
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let pos = self.position();
        let ply = self.ends.len() as u32 + 1;
        let next = pos.play(mv).map_err(|e| IllegalMove {
            ply,
            reason: e.reason,
        })?;
        let node = Node::new(&pos, mv).map_err(|reason| IllegalMove { ply, reason })?;
        self.game.moves.push(node);
        self.ends.push(next);
        Ok(())
    }

    /// Makes the main line equal `moves` (from the start position): keeps
    /// the moves it shares with it, drops the rest (take-backs), appends
    /// the new ones. Returns whether anything changed.
    ///
    /// # Errors
    /// [`IllegalMove`] for the first move of `moves` that is not legal;
    /// the moves before it are kept.
    pub fn sync(&mut self, moves: &[Move]) -> Result<bool, IllegalMove> {
        let same = self
            .game
            .moves
            .iter()
            .zip(moves)
            .take_while(|(n, m)| n.mv() == **m)
            .count();
        if same == moves.len() && same == self.game.moves.len() {
            return Ok(false);
        }
        self.game.moves.truncate(same);
        self.ends.truncate(same);
        for &mv in &moves[same..] {
            self.push(mv)?;
        }
        Ok(true)
    }

    /// The game is over: `result` (one of [`RESULTS`]; for international
    /// draughts `2-0`, `0-2`, `1-1`, §2.8) as the movetext's last token and
    /// in the Result tag.
    ///
    /// # Errors
    /// [`NotAResult`] (nothing changes) for any other text.
    pub fn finish(&mut self, result: &str) -> Result<(), NotAResult> {
        let r = RESULTS
            .iter()
            .find(|r| **r == result)
            .ok_or_else(|| NotAResult(result.to_owned()))?;
        self.game.result = Some(r);
        self.game
            .tags
            .set(Tag::new("Result", r).unwrap_or_else(|_| unreachable!()));
        Ok(())
    }

    /// The record so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The record as PDN text ([`Game::to_pdn`]).
    pub fn to_pdn(&self) -> String {
        self.game.to_pdn()
    }
}
