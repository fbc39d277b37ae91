//! One annotated move for the three games (issue 32, item 5): the move
//! and what a record says about it — comments, NAGs, the time spent on
//! it, the mover's time used so far, the clock left after it, an engine
//! evaluation — in one type, [`Annotated`], whatever the format read.
//!
//! | field | PGN / PDN ([`spec::pgn_pdn`](crate::spec::pgn_pdn) §1.9, §2.9) | KIF ([`spec::shogi_records`](crate::spec::shogi_records) §1.6, §1.8) |
//! |---|---|---|
//! | `comments` | `{…}` texts after the move, the typed commands removed | `*` lines after the move |
//! | `nags` | `$n` and `!`/`?` suffixes | — |
//! | `spent` | `[%emt H:MM:SS]` | the time column's first figure `( 0:12/…)` |
//! | `used` | — | the time column's second figure `(…/00:01:05)` |
//! | `clock` | `[%clk H:MM:SS]` | — |
//! | `eval` | `[%eval 0.31]`, `[%eval #-3]` | — |
//!
//! Read with [`pgn::Node::annotated`](crate::pgn::Node::annotated),
//! [`pdn::Node::annotated`](crate::pdn::Node::annotated) and
//! [`kif::Node::annotated`](crate::kif::Node::annotated); written back
//! with [`pgn::Node::from_annotated`](crate::pgn::Node::from_annotated)
//! and [`kif::Node::from_annotated`](crate::kif::Node::from_annotated),
//! which keep what the target format can hold: a KIF move read into a
//! PGN one carries its time spent as `[%emt]`, a PGN move's `[%emt]`
//! becomes a KIF time column (whole seconds), and its clock and
//! evaluation, which KIF cannot hold, are dropped.
//!
//! ```
//! use board_records::{kif, pgn};
//! use core::time::Duration;
//!
//! let kif = kif::read_str("   1 ７六歩(77)   ( 0:12/00:00:12)\n*a comment\n")?;
//! let a = kif.main.moves[0].annotated();
//! assert_eq!(a.spent, Some(Duration::from_secs(12)));
//! assert_eq!(a.comments, ["a comment"]);
//!
//! let pgn = b"1. e4 { [%eval 0.17] [%clk 0:03:00] good } *";
//! let game = pgn::Reader::new(pgn).next_game().unwrap()?;
//! let a = game.moves[0].annotated();
//! assert_eq!(a.clock, Some(Duration::from_secs(180)));
//! assert_eq!(a.comments, ["good"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

pub use crate::pgn::{Eval, Nag, Score};

/// A move with its annotations, in any of the three games (`M` is
/// board-core's move of the game: `Option<chess::Move>` for PGN, where
/// `None` is a null move; `draughts::Move`; `shogi::Move`). See the
/// [module docs](self) for where each field comes from in each format.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Annotated<M> {
    /// The move.
    pub mv: M,
    /// Comments after the move, in order, as plain text (PGN/PDN embedded
    /// commands that have a field of their own removed; other commands,
    /// `[%csl …]` say, kept as written). Never empty strings.
    pub comments: Vec<String>,
    /// Numeric annotation glyphs (`!` is `$1`, ...).
    pub nags: Vec<Nag>,
    /// Time spent on this move.
    pub spent: Option<Duration>,
    /// Time the mover has used in the game so far, this move included.
    pub used: Option<Duration>,
    /// Time left on the mover's clock after the move.
    pub clock: Option<Duration>,
    /// An engine's evaluation after the move, from the first player's
    /// point of view (White in chess and draughts; in pawns or mate
    /// distance, [`Score`]).
    pub eval: Option<Eval>,
}

impl<M> Annotated<M> {
    /// `mv` with no annotation.
    pub fn new(mv: M) -> Annotated<M> {
        Annotated {
            mv,
            comments: Vec::new(),
            nags: Vec::new(),
            spent: None,
            used: None,
            clock: None,
            eval: None,
        }
    }
}

/// The annotated move of a PGN or PDN node: its NAGs (`$0` left out)
/// and its comments ([`read_comments`]).
pub(crate) fn from_pgn_parts<M>(
    mv: M,
    nags: &[Nag],
    comments: &[crate::pgn::Comment],
) -> Annotated<M> {
    let mut a = Annotated::new(mv);
    a.nags = nags.iter().copied().filter(|&n| n != Nag::NULL).collect();
    read_comments(comments, &mut a);
    a
}

/// Reads PGN/PDN comments into `a`: `[%clk]`, `[%emt]`, `[%egt]` and
/// `[%eval]` into their fields (the first of each, as
/// [`pgn::Node::clock`](crate::pgn::Node::clock) reads them; a later one
/// that differs stays in the text), the rest of each comment's text into
/// `comments` (the pieces around a removed
/// command joined with one space; a comment left empty dropped).
fn read_comments<M>(comments: &[crate::pgn::Comment], a: &mut Annotated<M>) {
    use crate::pgn::{Command, Commands};
    for c in comments {
        let text = c.text();
        let mut kept = String::new();
        let mut from = 0;
        let mut cmds = Commands::new(text.as_bytes());
        while let Some((span, cmd)) = cmds.next_spanned() {
            let field = match cmd {
                Ok(Command::Clock(d)) => a.clock.get_or_insert(d) == &d,
                Ok(Command::ElapsedMoveTime(d)) => a.spent.get_or_insert(d) == &d,
                Ok(Command::Eval(e)) => a.eval.get_or_insert(e) == &e,
                Ok(Command::Other {
                    name: b"egt",
                    operands,
                }) => match crate::pgn::command::duration(operands) {
                    Some(d) => a.used.get_or_insert(d) == &d,
                    None => false,
                },
                _ => false,
            };
            if field {
                push_piece(&mut kept, &text[from..span.start]);
                from = span.end;
            }
        }
        push_piece(&mut kept, &text[from..]);
        if !kept.is_empty() {
            a.comments.push(kept);
        }
    }
}

fn push_piece(out: &mut String, piece: &str) {
    let piece = piece.trim();
    if !piece.is_empty() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(piece);
    }
}

/// The PGN/PDN comments that say `a`'s annotations: the commands
/// (`[%eval …] [%clk …] [%emt …] [%egt …]`, python-chess's forms, spec
/// note §1.9) followed by the first comment's text in one comment, then
/// the other comments; `{` and `}` removed from texts (a `}` would end
/// the comment; python-chess deletes both, §1.3).
pub(crate) fn write_comments<M>(a: &Annotated<M>) -> Vec<crate::pgn::Comment> {
    use crate::pgn::command::Hms;
    use core::fmt::Write;
    let mut first = String::new();
    if let Some(e) = a.eval {
        let _ = write!(first, "[%eval {e}] ");
    }
    for (name, d) in [("clk", a.clock), ("emt", a.spent), ("egt", a.used)] {
        if let Some(d) = d {
            let _ = write!(first, "[%{name} {}] ", Hms(d));
        }
    }
    let mut texts = a.comments.iter().map(|c| c.replace(['{', '}'], ""));
    if let Some(t) = texts.next() {
        first.push_str(&t);
    }
    let mut out = Vec::new();
    let mut push = |t: &str| {
        if let Ok(c) = crate::pgn::Comment::new(t)
            && !c.text().is_empty()
        {
            out.push(c);
        }
    };
    push(&first);
    for t in texts {
        push(&t);
    }
    out
}
