//! Position lines of a `Game_Summary` block or a kifu file: only the line
//! shape is checked here (`P1`..`P9`, `PI`, `P+`, `P-`, then printable ASCII
//! or spaces). The position itself is read by `board_core::shogi`, which owns
//! the CSA position notation (STYLE.md convention 1).

use crate::cursor::Cursor;
use crate::error::{DecodeError, Expected, Field, MessageKind, Problem};

/// Maximum length of a position line in bytes (a hand line listing all 38
/// pieces one by one is 2 + 38 * 4 = 154 bytes).
pub const MAX_POSITION_LINE: usize = 256;

/// Checks the shape of a position line; returns it as `&str`.
pub(crate) fn check_line(line: &[u8]) -> Result<&str, DecodeError> {
    let c = Cursor::new(line, 0, MessageKind::Position);
    if line.len() < 2 || line[0] != b'P' || !matches!(line[1], b'1'..=b'9' | b'I' | b'+' | b'-') {
        return Err(c.err(Field::Row, 0, Problem::Expected(Expected::PositionRow)));
    }
    c.check(Field::Row, line, 0, MAX_POSITION_LINE, |b| {
        b == b' ' || b.is_ascii_graphic()
    })
}
