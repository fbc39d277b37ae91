//! [`Recorder`]: a shogi game being played, kept as a KIF record that is
//! complete after every move — the KIF twin of
//! [`pgn::writer::Recorder`](crate::pgn::writer::Recorder) and
//! [`pdn::Recorder`](crate::pdn::Recorder), with the ply cap programs
//! that save games need built in.

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

use board_core::shogi::{Color, IllegalReason, Move, Position};

use super::encoding::TextEncoding;
use super::game::{Comment, Format, Game, Node};
use super::reader::{CommentKind, Ending, MoveTime};

/// Plies a [`Recorder`] records by default (as boardwire's PGN and PDN
/// records: a game that goes on past it is closed with 中断 and a comment).
pub const MAX_RECORDED_PLIES: usize = 1000;

/// A move of a [`Recorder`]'s line that is not legal where it is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {reason}")]
pub struct IllegalMove {
    /// 1-based ply of the move in the line given.
    pub ply: u32,
    /// board-core's reason.
    pub reason: IllegalReason,
}

/// A shogi game being played, kept as a KIF record that is complete after
/// every move: its headers, its start position (`手合割：<name>` when it is
/// a named handicap, else a board diagram), its main line so far with the
/// time column of each move whose time is known (the total per side
/// summed here), written (infallibly) with [`Game::to_kif`] /
/// [`Game::to_bytes`] at any moment; no ending line until
/// [`Recorder::finish`].
///
/// **Ply cap.** A record holds at most [`Recorder::max_plies`] moves
/// ([`MAX_RECORDED_PLIES`] = 1,000 unless [`Recorder::with_max_plies`]):
/// a move past it closes the record where it stands — a `*` comment
/// after the last move says why, the ending is 中断 (§1.7: the game was
/// stopped, no result) — and it records nothing more
/// ([`Recorder::is_capped`] turns true; later pushes and
/// [`Recorder::finish`] change nothing).
///
/// Made for programs that save a game as it goes (`boardwire csa connect
/// --kif`): [`Recorder::push_timed`] each move confirmed (or
/// [`Recorder::sync`] the line reached, which also follows take-backs),
/// write [`Recorder::game`] out after each.
///
/// ```
/// use board_core::shogi::Position;
/// use board_records::kif::{Ending, Recorder, read_str};
///
/// let start = Position::startpos();
/// let mut rec = Recorder::new(start);
/// rec.set_header("先手", "erin");
/// let m = start.parse_usi("7g7f").unwrap();
/// rec.push_timed(m, Some(12))?;
/// let kif = rec.game().to_kif(None);
/// assert!(kif.contains("先手：erin\n"));
/// assert!(kif.ends_with("   1 ７六歩(77)   ( 0:12/00:00:12)\n"));
/// rec.finish(Ending::Resign);
/// let back = read_str(&rec.game().to_kif(None)).unwrap();
/// assert_eq!(back.main.end.map(|e| e.0), Some(Ending::Resign));
/// # Ok::<(), board_records::kif::IllegalMove>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorder {
    game: Game,
    /// The position after each move of the main line (`ends[k]` after
    /// `k + 1` moves).
    ends: Vec<Position>,
    /// Seconds used so far by Black and White (the time column's total).
    totals: [u32; 2],
    max_plies: usize,
    capped: bool,
}

impl Recorder {
    /// A record of a game from `start` with no moves yet, capped at
    /// [`MAX_RECORDED_PLIES`].
    pub fn new(start: Position) -> Recorder {
        Recorder::with_max_plies(start, MAX_RECORDED_PLIES)
    }

    /// [`Recorder::new`] with another ply cap (`max_plies`, at least 1).
    pub fn with_max_plies(start: Position, max_plies: usize) -> Recorder {
        Recorder {
            game: Game::new(start),
            ends: Vec::new(),
            totals: [0, 0],
            max_plies: max_plies.max(1),
            capped: false,
        }
    }

    /// The ply cap.
    pub fn max_plies(&self) -> usize {
        self.max_plies
    }

    /// Sets header `key` to `value` (the first line of that key is
    /// replaced; a new key is added after the others). Line breaks in
    /// `value` are written as `\n` (the writer's rule).
    pub fn set_header(&mut self, key: &str, value: &str) {
        match self.game.headers.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => value.clone_into(v),
            None => self.game.headers.push((key.to_owned(), value.to_owned())),
        }
    }

    /// The position reached.
    pub fn position(&self) -> Position {
        self.ends.last().copied().unwrap_or(self.game.start)
    }

    /// Whether the ply cap closed the record.
    pub fn is_capped(&self) -> bool {
        self.capped
    }

    /// Appends a move without time to the main line ([`Recorder::push_timed`]).
    ///
    /// # Errors
    /// As [`Recorder::push_timed`].
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.push_timed(mv, None)
    }

    /// Appends a move to the main line with the seconds it took (its
    /// time column: this move, and the mover's total so far, §1.6). A
    /// move past the ply cap closes the record instead (see the type's
    /// docs); after the cap or [`Recorder::finish`] nothing changes.
    ///
    /// # Errors
    /// [`IllegalMove`] (nothing changes) when `mv` is not legal in
    /// [`Recorder::position`].
    pub fn push_timed(&mut self, mv: Move, spent: Option<u32>) -> Result<(), IllegalMove> {
        if self.capped || self.game.main.end.is_some() {
            return Ok(());
        }
        let pos = self.position();
        let ply = self.ends.len() as u32 + 1;
        let next = pos.play(mv).map_err(|e| IllegalMove {
            ply,
            reason: e.reason,
        })?;
        if self.ends.len() >= self.max_plies {
            self.cap();
            return Ok(());
        }
        let mut node = Node::new(mv);
        if let Some(spent) = spent {
            let total = &mut self.totals[usize::from(pos.side_to_move() == Color::White)];
            *total = total.saturating_add(spent);
            node.time = Some(MoveTime {
                spent,
                total: Some(*total),
            });
        }
        self.game.main.moves.push(node);
        self.ends.push(next);
        Ok(())
    }

    /// Makes the main line equal `moves` (from the start position): keeps
    /// the moves it shares with it (and their times), drops the rest
    /// (take-backs), appends the new ones without time. Returns whether
    /// anything changed. Past the ply cap the record is closed as
    /// [`Recorder::push_timed`] says.
    ///
    /// # Errors
    /// [`IllegalMove`] for the first move of `moves` that is not legal;
    /// the moves before it are kept.
    pub fn sync(&mut self, moves: &[Move]) -> Result<bool, IllegalMove> {
        if self.capped || self.game.main.end.is_some() {
            return Ok(false);
        }
        let same = self
            .game
            .main
            .moves
            .iter()
            .zip(moves)
            .take_while(|(n, m)| n.mv == **m)
            .count();
        if same == moves.len() && same == self.game.main.moves.len() {
            return Ok(false);
        }
        self.game.main.moves.truncate(same);
        self.ends.truncate(same);
        self.recount_totals();
        for &mv in &moves[same..] {
            self.push(mv)?;
        }
        Ok(true)
    }

    fn recount_totals(&mut self) {
        self.totals = [0, 0];
        let mut stm = self.game.start.side_to_move();
        for n in &self.game.main.moves {
            if let Some(t) = n.time {
                let total = &mut self.totals[usize::from(stm == Color::White)];
                *total = total.saturating_add(t.spent);
            }
            stm = stm.opposite();
        }
    }

    /// Adds a `*` comment after the last move (on the start position
    /// before the first): a reason the ending word does not say, a note.
    /// A text of several lines is several `*` lines.
    pub fn comment(&mut self, text: &str) {
        let notes = match self.game.main.moves.last_mut() {
            Some(node) => &mut node.notes,
            None => &mut self.game.start_notes,
        };
        for line in text.lines() {
            notes.comments.push(Comment {
                kind: CommentKind::Plain,
                text: line.to_owned(),
            });
        }
    }

    /// The game is over: its ending line (and KfW's `まで…` summary)
    /// after the last move. Nothing changes once the record is closed
    /// (finished or capped).
    pub fn finish(&mut self, ending: Ending) {
        if !self.capped && self.game.main.end.is_none() {
            self.game.main.end = Some((ending, None));
        }
    }

    fn cap(&mut self) {
        let text = alloc::format!(
            "the record stops after ply {} (its limit of {} plies); the game went on",
            self.ends.len(),
            self.max_plies
        );
        self.comment(&text);
        self.game.main.end = Some((Ending::Interrupt, None));
        self.capped = true;
    }

    /// The record so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The record as KIF text ([`Game::to_kif`]).
    pub fn to_kif(&self, declare: Option<TextEncoding>) -> String {
        self.game.to_kif(declare)
    }

    /// The record as file bytes ([`Game::to_bytes`]).
    pub fn to_bytes(&self, format: Format, encoding: TextEncoding) -> Vec<u8> {
        self.game.to_bytes(format, encoding)
    }
}
