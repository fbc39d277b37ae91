//! What the encoders of the engine-side protocols ([`crate::usi`],
//! [`crate::uci`], [`crate::hub`]) share: one command line is built as
//! text straight into the caller's buffer (no allocation of its own), then
//! its LF.

use std::fmt::{self, Display, Write as _};

use crate::types::Text;

/// A command line being written at the end of the caller's buffer: text
/// goes in as UTF-8, through `push_str`, `push` or `write!`.
pub(crate) struct Line<'a>(&'a mut Vec<u8>);

impl Line<'_> {
    /// Appends `text`.
    pub(crate) fn push_str(&mut self, text: &str) {
        self.0.extend_from_slice(text.as_bytes());
    }

    /// Appends `c`.
    pub(crate) fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }
}

impl fmt::Write for Line<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.push_str(text);
        Ok(())
    }
}

/// Appends the line `write` builds and its LF to `out`.
pub(crate) fn encode(out: &mut Vec<u8>, write: impl FnOnce(&mut Line<'_>)) {
    write(&mut Line(out));
    out.push(b'\n');
}

/// The line `encode` appends, with its LF.
pub(crate) fn to_bytes(encode: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut v = Vec::new();
    encode(&mut v);
    v
}

/// USI's and UCI's `setoption name <name> [value <value>]`.
pub(crate) fn set_option(s: &mut Line<'_>, name: &Text<'_>, value: Option<&Text<'_>>) {
    let _ = write!(s, "setoption name {name}");
    if let Some(v) = value {
        let _ = write!(s, " value {v}");
    }
}

/// `items`, one space between two.
pub(crate) fn join<T: Display>(s: &mut Line<'_>, items: impl IntoIterator<Item = T>) {
    for (i, m) in items.into_iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{m}");
    }
}

/// USI's and UCI's ` moves <move>...` after a `position` (nothing for no
/// moves).
pub(crate) fn moves<T: Display>(s: &mut Line<'_>, moves: &[T]) {
    if !moves.is_empty() {
        s.push_str(" moves ");
        join(s, moves);
    }
}
