//! [`X1Block`]: the lines of one multi-line x1 reply, collected.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::X1Reply;

/// The lines of one multi-line x1 reply (`%%WHO`, `%%LIST`, `%%SHOW`, the
/// monitors, ...: the lines share a `##[TAG]` (and a monitor's
/// `[<game id>]`) and end with `##[TAG] +OK`;
/// [`spec::csa`](crate::spec::csa), *Extended mode (x1)*), collected so
/// that a log or transcript can show the reply as one line.
///
/// ```
/// use csa_protocol::decode;
/// use csa_protocol::message::{ServerMessage, X1Block, X1Push};
///
/// let reply = |line: &'static [u8]| match decode::<ServerMessage>(line).unwrap() {
///     ServerMessage::X1(r) => r,
///     other => panic!("{other:?}"),
/// };
/// let mut block = X1Block::start(&reply(b"##[WHO] alice x1 connected")).unwrap();
/// assert_eq!(block.push(&reply(b"##[WHO] bob x1 connected")), X1Push::More);
/// assert_eq!(block.push(&reply(b"##[WHO] +OK")), X1Push::Ended);
/// assert_eq!(
///     block.summary().to_string(),
///     "##[WHO] alice x1 connected | bob x1 connected | +OK  (3 lines)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct X1Block {
    prefix: String,
    lines: Vec<String>,
}

/// What [`X1Block::push`] did with a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum X1Push {
    /// Added; more lines are to come.
    More,
    /// Added; it was the reply's last line.
    Ended,
    /// Not part of this reply (another tag or game): the block is
    /// unfinished and the reply stands alone or starts another block.
    NotPart,
}

fn prefix_of(r: &X1Reply<'_>) -> String {
    match r.game_id() {
        Some(id) => alloc::format!("##[{}][{id}] ", r.tag()),
        None => alloc::format!("##[{}] ", r.tag()),
    }
}

impl X1Block {
    /// A block starting with `reply`, when it is a line of a multi-line
    /// reply and not its last ([`X1Reply::is_multi_line`],
    /// [`X1Reply::is_end`]); `None` for a reply of one line.
    pub fn start(reply: &X1Reply<'_>) -> Option<X1Block> {
        (reply.is_multi_line() && !reply.is_end()).then(|| X1Block {
            prefix: prefix_of(reply),
            lines: alloc::vec![reply.body()],
        })
    }

    /// Adds `reply` when it belongs to this reply (the same tag and game).
    pub fn push(&mut self, reply: &X1Reply<'_>) -> X1Push {
        if prefix_of(reply) != self.prefix {
            return X1Push::NotPart;
        }
        self.lines.push(reply.body());
        if reply.is_end() {
            X1Push::Ended
        } else {
            X1Push::More
        }
    }

    /// What the lines share: `##[TAG] ` or `##[TAG][<game id>] `.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The text of each line after the prefix ([`X1Reply::body`]).
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// One line for a person: the prefix, the lines joined by ` | ` (the
    /// first three, `...` and the last two when there are more than six),
    /// and the count: `##[WHO] a | b | +OK  (3 lines)`.
    pub fn summary(&self) -> impl fmt::Display + '_ {
        struct Summary<'b>(&'b X1Block);
        impl fmt::Display for Summary<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let lines = &self.0.lines;
                f.write_str(&self.0.prefix)?;
                let n = lines.len();
                let shown: Vec<&str> = if n <= 6 {
                    lines.iter().map(String::as_str).collect()
                } else {
                    let mut v: Vec<&str> = lines[..3].iter().map(String::as_str).collect();
                    v.push("...");
                    v.extend(lines[n - 2..].iter().map(String::as_str));
                    v
                };
                for (i, l) in shown.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" | ")?;
                    }
                    f.write_str(l)?;
                }
                let plural = if n == 1 { "" } else { "s" };
                write!(f, "  ({n} line{plural})")
            }
        }
        Summary(self)
    }
}
