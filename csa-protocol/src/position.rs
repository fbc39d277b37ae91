//! Position lines of a `Game_Summary` block or a kifu file: only the line
//! shape is checked here ([`crate::parse::position_line`]). The position
//! itself is read by `board_core::shogi`, which owns the CSA position
//! notation.

use crate::error::DecodeError;

/// Checks the shape of a position line; returns it as `&str`.
pub(crate) fn check_line(line: &[u8]) -> Result<&str, DecodeError> {
    crate::parse::check_position_line(line)
}
