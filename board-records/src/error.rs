//! What the three record formats' errors share: where an error is
//! ([`Location`]), which format the input was read as ([`RecordFormat`]),
//! and the located error itself ([`Located`]), whose problem type is each
//! format's own (`pgn::SyntaxProblem`, `kif::GameProblem`, ...). Each
//! format module names its errors with aliases of [`Located`]
//! ([`pgn::SyntaxError`](crate::pgn::SyntaxError),
//! [`kif::GameError`](crate::kif::GameError), ...) and keeps its own
//! `ReadError` enum; a user of one format need not know this module.

use core::fmt;

/// Where something is in a record: the 0-based byte `offset` and the
/// 1-based `line` and `column`.
///
/// - `column` counts **characters** (Unicode scalar values) from the
///   start of the line, as an editor shows them: in `先手：A` the `A` is
///   column 4 (byte 9 of the line). In input that is not UTF-8 (a Latin-1
///   PGN file), every byte that is not a UTF-8 continuation byte
///   (`0x80..=0xBF`) counts as one character.
/// - `offset` counts **bytes**: for PGN and PDN in the input as given;
///   for KIF/KI2 in the input for UTF-8 files (a BOM counted) and in the
///   decoded UTF-8 text for Shift_JIS files (see
///   [`kif::read`](crate::kif::read)).
/// - Lines end at LF (KIF/KI2 also at a lone CR). A location of line 0
///   and column 0 means only the offset is known (a KIF decoding error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Location {
    /// 0-based byte offset.
    pub offset: usize,
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in characters from the start of the line.
    pub column: u32,
}

impl Location {
    /// The location of byte `offset` of `text` on line `line`, whose first
    /// byte is `text[line_start]` (`line_start <= offset <= text.len()`;
    /// both are clamped to the text).
    pub fn in_line(text: &[u8], line: u32, line_start: usize, offset: usize) -> Location {
        let end = offset.min(text.len());
        let start = line_start.min(end);
        let chars = text[start..end]
            .iter()
            .filter(|&&b| !(0x80..=0xBF).contains(&b))
            .count();
        Location {
            offset,
            line,
            column: u32::try_from(chars).unwrap_or(u32::MAX - 1) + 1,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {} (byte {})",
            self.line, self.column, self.offset
        )
    }
}

/// The record format an input was read as, as errors name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordFormat {
    /// PGN (chess).
    Pgn,
    /// PDN (international draughts).
    Pdn,
    /// KIF (shogi, numbered moves with origins).
    Kif,
    /// KI2 (shogi, moves without origins).
    Ki2,
}

impl RecordFormat {
    /// The name in messages: `PGN`, `PDN`, `KIF`, `KI2`.
    pub const fn name(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "PGN",
            RecordFormat::Pdn => "PDN",
            RecordFormat::Kif => "KIF",
            RecordFormat::Ki2 => "KI2",
        }
    }
}

impl fmt::Display for RecordFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format's problem type: what a [`Located`] error of it says.
pub trait Problem: fmt::Display + fmt::Debug {
    /// The kind of error in messages: `"syntax"` or `"game"`.
    const KIND: &'static str;
}

/// An error of a record: the format the input was read as, where, and
/// what. Displayed as `{format} {kind} error at {location}: {problem}`,
/// e.g. `PGN syntax error at line 4, column 8 (byte 29): unexpected '<'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Located<P> {
    /// The format the input was read as.
    pub format: RecordFormat,
    /// Where.
    pub location: Location,
    /// What.
    pub problem: P,
}

impl<P: Problem> fmt::Display for Located<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} error at {}: {}",
            self.format,
            P::KIND,
            self.location,
            self.problem
        )
    }
}

impl<P: Problem> core::error::Error for Located<P> {}

/// `ply N` or `ply N (variation depth D)`: where a move is in a game's
/// tree (1-based ply along its line, depth 0 for the main line), the
/// start of every format's illegal-move message.
pub(crate) struct Ply {
    pub(crate) ply: u32,
    pub(crate) depth: u32,
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {}", self.ply)?;
        if self.depth > 0 {
            write!(f, " (variation depth {})", self.depth)?;
        }
        Ok(())
    }
}

/// The message of a Result tag that differs from the movetext's result
/// (PGN's and PDN's `Warning::ResultMismatch`).
pub(crate) fn result_mismatch(
    f: &mut fmt::Formatter<'_>,
    tag: &str,
    movetext: &str,
) -> fmt::Result {
    write!(
        f,
        "Result tag {tag:?} differs from the movetext's {movetext}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn columns_count_characters() {
        let text = "先手：A\n後手：B".as_bytes();
        // `A` is byte 9, the 4th character of line 1.
        assert_eq!(Location::in_line(text, 1, 0, 9).column, 4);
        // `B` on line 2 (starts at byte 11).
        assert_eq!(Location::in_line(text, 2, 11, 20).column, 4);
        assert_eq!(Location::in_line(b"1. e4 <", 1, 0, 6).column, 7);
        // Latin-1 bytes count one each.
        assert_eq!(Location::in_line(b"{\xe9t\xe9} <", 1, 0, 6).column, 7);
    }

    #[test]
    fn ply_names_the_depth_of_a_variation_only() {
        assert_eq!(Ply { ply: 3, depth: 0 }.to_string(), "ply 3");
        assert_eq!(
            Ply { ply: 3, depth: 2 }.to_string(),
            "ply 3 (variation depth 2)"
        );
    }
}
