//! What the encoders of the engine-side protocols ([`crate::usi`],
//! [`crate::uci`], [`crate::hub`]) share: one command line is built as
//! text, then appended with its LF.

use std::fmt::{Display, Write as _};

use crate::types::Text;

/// Appends the line `write` builds and its LF to `out`.
pub(crate) fn encode(out: &mut Vec<u8>, write: impl FnOnce(&mut String)) {
    let mut s = String::new();
    write(&mut s);
    out.extend_from_slice(s.as_bytes());
    out.push(b'\n');
}

/// The line `encode` appends, with its LF.
pub(crate) fn to_bytes(encode: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut v = Vec::new();
    encode(&mut v);
    v
}

/// USI's and UCI's `setoption name <name> [value <value>]`.
pub(crate) fn set_option(s: &mut String, name: &Text<'_>, value: Option<&Text<'_>>) {
    let _ = write!(s, "setoption name {name}");
    if let Some(v) = value {
        let _ = write!(s, " value {v}");
    }
}

/// `items`, one space between two.
pub(crate) fn join<T: Display>(s: &mut String, items: impl IntoIterator<Item = T>) {
    for (i, m) in items.into_iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{m}");
    }
}

/// USI's and UCI's ` moves <move>...` after a `position` (nothing for no
/// moves).
pub(crate) fn moves<T: Display>(s: &mut String, moves: &[T]) {
    if !moves.is_empty() {
        s.push_str(" moves ");
        join(s, moves);
    }
}
