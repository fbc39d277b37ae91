//! The export-format writer (standard §8, [`spec::pgn_pdn`](crate::spec::pgn_pdn)
//! §1.6): infallible.
//!
//! - Tags: the Seven Tag Roster first, in its order (Event, Site, Date,
//!   Round, White, Black, Result; a missing one is written with the
//!   standard's "unknown" value: `?`, `????.??.??` for Date, and for Result
//!   the movetext's marker or `*`), then the other tags in ASCII order of
//!   their names (standard §8.1.1). A game whose start is not the normal
//!   position and has no FEN tag gets `SetUp "1"` and `FEN`. Values are
//!   written with `\\` and `\"` escapes. One empty line follows.
//! - Movetext: `N.` before every White move; `N...` before a Black move
//!   only at the start of a line or variation or after a comment, NAG or
//!   variation (standard §8.2.2.2). NAGs as `$n` (`$0` is not written),
//!   comments as `{ text }`, variations as `( … )`, then the result and an
//!   empty line.
//! - Lines: tokens separated by one space, a line break instead of the
//!   space when the next token would make the line longer than 79
//!   characters — "shorter than 80 printing characters" (spec note §1.6;
//!   python-chess's `columns=80` gives the same). A comment is one token
//!   and is never broken, so a comment longer than 79 characters makes its
//!   line longer; no other line is.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write};

use board_core::chess::{Color, Move, Position};

use super::game::{Comment, Game, Node};

/// The longest movetext line the writer makes (a single comment longer
/// than this excepted): 79 characters.
pub const MAX_LINE_LEN: usize = 79;

/// The Seven Tag Roster in export order, with the value written when the
/// tag is missing (Result: see the [module docs](self)).
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Movetext written token by token, wrapped before [`MAX_LINE_LEN`]
/// columns (shared by the PGN and PDN writers).
pub(crate) struct Wrap<'w, W: Write> {
    pub(crate) w: &'w mut W,
    len: usize,
}

impl<'w, W: Write> Wrap<'w, W> {
    /// A wrapper at the start of a line.
    pub(crate) fn new(w: &'w mut W) -> Self {
        Wrap { w, len: 0 }
    }

    /// Writes `t` after a space, or on a new line when it would pass
    /// [`MAX_LINE_LEN`] (a token with line breaks is measured by its first
    /// line, and the next one by its last).
    pub(crate) fn token(&mut self, t: &str) -> fmt::Result {
        let first = t.find('\n').unwrap_or(t.len());
        if self.len > 0 {
            if self.len + 1 + first > MAX_LINE_LEN {
                self.w.write_char('\n')?;
                self.len = 0;
            } else {
                self.w.write_char(' ')?;
                self.len += 1;
            }
        }
        self.w.write_str(t)?;
        match t.rfind('\n') {
            Some(k) => self.len = t.len() - k - 1,
            None => self.len += t.len(),
        }
        Ok(())
    }

    /// Writes `c` as `{ text }` (`{ }` when empty), never broken.
    pub(crate) fn comment(&mut self, c: &Comment) -> fmt::Result {
        let mut s = String::with_capacity(c.text().len() + 4);
        if c.text().is_empty() {
            s.push_str("{ }");
        } else {
            s.push_str("{ ");
            s.push_str(c.text());
            s.push_str(" }");
        }
        self.token(&s)
    }

    fn number(&mut self, n: u32, dots: &str) -> fmt::Result {
        let mut buf = [0u8; 16];
        let mut k = buf.len();
        let mut n = n;
        loop {
            k -= 1;
            buf[k] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let mut s = [0u8; 20];
        let digits = &buf[k..];
        s[..digits.len()].copy_from_slice(digits);
        s[digits.len()..digits.len() + dots.len()].copy_from_slice(dots.as_bytes());
        self.token(core::str::from_utf8(&s[..digits.len() + dots.len()]).unwrap_or("?"))
    }

    fn line(&mut self, nodes: &[Node], mut num: u32, mut color: Color) -> fmt::Result {
        let mut force = true;
        for node in nodes {
            for c in &node.starting_comments {
                self.comment(c)?;
                force = true;
            }
            if color == Color::White {
                self.number(num, ".")?;
            } else if force {
                self.number(num, "...")?;
            }
            self.token(node.san())?;
            force = false;
            for nag in node.nags.iter().filter(|n| n.0 != 0) {
                let mut buf = [0u8; 4];
                buf[0] = b'$';
                let d = nag.0;
                let len = if d >= 100 {
                    buf[1] = b'0' + d / 100;
                    buf[2] = b'0' + d / 10 % 10;
                    buf[3] = b'0' + d % 10;
                    4
                } else if d >= 10 {
                    buf[1] = b'0' + d / 10;
                    buf[2] = b'0' + d % 10;
                    3
                } else {
                    buf[1] = b'0' + d;
                    2
                };
                self.token(core::str::from_utf8(&buf[..len]).unwrap_or("$0"))?;
                force = true;
            }
            for c in &node.comments {
                self.comment(c)?;
                force = true;
            }
            for var in node.variations.iter().filter(|v| !v.is_empty()) {
                self.token("(")?;
                self.line(var, num, color)?;
                self.token(")")?;
                force = true;
            }
            if color == Color::Black {
                num += 1;
            }
            color = color.opposite();
        }
        Ok(())
    }
}

/// `[Name "value"]` and a line feed, `"` and `\\` escaped (shared by the
/// PGN and PDN writers).
pub(crate) fn write_tag<W: Write>(w: &mut W, name: &str, value: &str) -> fmt::Result {
    w.write_char('[')?;
    w.write_str(name)?;
    w.write_str(" \"")?;
    for c in value.chars() {
        if c == '"' || c == '\\' {
            w.write_char('\\')?;
        }
        w.write_char(c)?;
    }
    w.write_str("\"]\n")
}

impl Game {
    /// Writes the game in export format (see the [module docs](self)) to
    /// `w`; fails only when `w` does.
    ///
    /// # Errors
    /// Only those of `w`.
    pub fn write_to<W: Write>(&self, w: &mut W) -> fmt::Result {
        let result = self
            .result
            .or_else(|| {
                self.tags
                    .get("Result")
                    .and_then(|r| super::types::GameResult::from_bytes(r.as_bytes()))
            })
            .unwrap_or(super::types::GameResult::Unknown);
        for (name, unknown) in SEVEN_TAG_ROSTER {
            let value = match self.tags.get(name) {
                Some(v) => v,
                None if name == "Result" => result.as_str(),
                None => unknown,
            };
            write_tag(w, name, value)?;
        }
        let mut others: Vec<(&str, &str)> = self
            .tags
            .iter()
            .filter(|t| !SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == t.name()))
            .map(|t| (t.name(), t.value()))
            .collect();
        let fen;
        if *self.start() != Position::startpos() && self.tags.get("FEN").is_none() {
            fen = self.start().to_string();
            others.push(("FEN", &fen));
            if self.tags.get("SetUp").is_none() {
                others.push(("SetUp", "1"));
            }
        }
        others.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        for (name, value) in others {
            write_tag(w, name, value)?;
        }
        w.write_char('\n')?;
        let mut wrap = Wrap::new(w);
        for c in &self.comments {
            wrap.comment(c)?;
        }
        let start = self.start();
        wrap.line(
            &self.moves,
            start.fullmove_number().max(1),
            start.side_to_move(),
        )?;
        wrap.token(result.as_str())?;
        wrap.w.write_str("\n\n")
    }

    /// The game in export format.
    ///
    /// ```
    /// use board_records::pgn::Reader;
    /// let game = Reader::new(b"1. e4 e5 2. Nf3 {best} Nc6 *").next_game().unwrap()?;
    /// assert_eq!(
    ///     game.to_pgn(),
    ///     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
    ///      [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n\
    ///      1. e4 e5 2. Nf3 { best } 2... Nc6 *\n\n"
    /// );
    /// # Ok::<(), board_records::pgn::ReadError>(())
    /// ```
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_to(&mut s);
        s
    }
}

impl fmt::Display for Game {
    /// The export format ([`Game::to_pgn`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// A move of a [`Recorder`]'s line that is not legal where it is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {reason}")]
pub struct IllegalMove {
    /// 1-based half-move number of the move in the line given.
    pub ply: u32,
    /// board-core's reason.
    pub reason: board_core::chess::IllegalReason,
}

/// A game being played, kept as a PGN record that is complete after
/// every move: its tags, its start position and its main line so far,
/// written (infallibly) with the export-format writer ([`Game::write_to`])
/// at any moment, with `*` as the result until [`Recorder::finish`].
///
/// Made for programs that save a game as it goes (`boardwire citrine
/// --pgn`): give it the line of moves the game has reached after each
/// event ([`Recorder::sync`], which also follows take-backs) and write
/// [`Recorder::to_pgn`] out.
///
/// ```
/// use board_core::chess::Position;
/// use board_records::pgn::GameResult;
/// use board_records::pgn::writer::Recorder;
///
/// let start = Position::startpos();
/// let mut rec = Recorder::new(start);
/// rec.set_tag("White", "Citrine")?;
/// let e4 = start.parse_uci("e2e4").unwrap();
/// let after = start.play(e4).unwrap();
/// let e5 = after.parse_uci("e7e5").unwrap();
/// assert!(rec.sync(&[e4, e5]).unwrap());
/// assert!(rec.to_pgn().ends_with("\n\n1. e4 e5 *\n\n"));
/// rec.sync(&[e4]).unwrap(); // e5 taken back
/// rec.finish(GameResult::WhiteWins);
/// assert!(rec.to_pgn().contains("[Result \"1-0\"]"));
/// assert!(rec.to_pgn().ends_with("\n\n1. e4 1-0\n\n"));
/// # Ok::<(), board_records::pgn::ValueError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorder {
    game: Game,
    /// The position after each move of the main line (`ends[k]` after
    /// `k + 1` moves).
    ends: Vec<Position>,
}

impl Recorder {
    /// A record of a game from `start` with no moves yet (result `*`).
    pub fn new(start: Position) -> Recorder {
        let mut game = Game::new(start);
        game.result = Some(super::types::GameResult::Unknown);
        Recorder {
            game,
            ends: Vec::new(),
        }
    }

    /// Sets a tag (the writer puts the Seven Tag Roster first).
    ///
    /// # Errors
    /// As [`super::Tag::new`]: a name that is not a symbol, a value with a
    /// control character.
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), super::ValueError> {
        self.game.tags.set(super::Tag::new(name, value)?);
        Ok(())
    }

    /// The position reached.
    pub fn position(&self) -> Position {
        self.ends.last().copied().unwrap_or(*self.game.start())
    }

    /// Appends a move to the main line.
    ///
    /// # Errors
    /// [`IllegalMove`] (nothing changes) when `mv` is not legal in
    /// [`Recorder::position`].
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let pos = self.position();
        let ply = self.ends.len() as u32 + 1;
        let node = Node::new(&pos, mv).map_err(|reason| IllegalMove { ply, reason })?;
        let next = pos.play(mv).map_err(|e| IllegalMove {
            ply,
            reason: e.reason,
        })?;
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
            .take_while(|(n, m)| n.mv() == Some(**m))
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

    /// The game is over: its result, in the movetext and the Result tag.
    pub fn finish(&mut self, result: super::types::GameResult) {
        self.game.result = Some(result);
        let tag = super::Tag::new("Result", result.as_str()).unwrap_or_else(|_| unreachable!());
        self.game.tags.set(tag);
    }

    /// The record so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The record in export format ([`Game::to_pgn`]).
    pub fn to_pgn(&self) -> String {
        self.game.to_pgn()
    }
}
