//! PDN FEN: `W:W31-50:B1-20`, `B:BK17,K24:W6,9,10`, optional `:H0:F1`.
//!
//! Grammar accepted (PDN 3.0 "FEN" tag, as draughts programs write it):
//! `side ':' section ':' section (':' counter)*` where `side` is `W` or
//! `B`; a section is a colour letter (`W`/`B`, each exactly once, in either
//! order) followed by a comma-separated list of items, possibly empty; an
//! item is an optional `K` (king) and a square number or a range `a-b`
//! (`a <= b`, every square of the range, all kings if `K` is given); a
//! counter is `H` (half-moves since the last capture or man move) or `F`
//! (move number) and a decimal number. Counters are checked and not kept.
//! Surrounding ASCII whitespace is ignored; offsets in errors count bytes
//! from the start of the original text.
//!
//! Canonical output ([`Display`](core::fmt::Display)): side to move, White's
//! section, Black's section, squares in increasing order without ranges,
//! kings prefixed with `K`: `W:W31,32,...,50:B1,2,...,20`.

use core::fmt;
use core::str::FromStr;

use super::Position;
use super::notation;
use super::position::{Setup, SetupError};
use super::types::{Color, Piece, PieceKind, Square};

/// A PDN FEN text that is not a valid position.
///
/// Every syntax error carries `offset`, the 0-based byte offset into the
/// text given to [`Position::from_str`] (leading whitespace counted) where
/// the problem was found ([`ParseFenError::offset`] reads it from any
/// variant); `Display` says "at byte N".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseFenError {
    /// The text is empty (or only whitespace).
    #[error("PDN FEN: empty text")]
    Empty,
    /// The side to move is not `W` or `B`.
    #[error("PDN FEN at byte {offset}: side to move must be W or B")]
    InvalidSide {
        /// Byte offset of the side field.
        offset: usize,
    },
    /// A `:` was expected.
    #[error("PDN FEN at byte {offset}: expected ':'")]
    ExpectedColon {
        /// Byte offset where `:` was expected.
        offset: usize,
    },
    /// A section does not start with `W`, `B`, `H` or `F`.
    #[error("PDN FEN at byte {offset}: unknown section (expected W, B, H or F)")]
    InvalidSection {
        /// Byte offset of the section.
        offset: usize,
    },
    /// A colour's section is given twice.
    #[error("PDN FEN at byte {offset}: {color}'s pieces listed twice")]
    DuplicateColor {
        /// The repeated colour.
        color: Color,
        /// Byte offset of the second section.
        offset: usize,
    },
    /// A colour's section is missing.
    #[error("PDN FEN at byte {offset}: missing section for {color}'s pieces")]
    MissingColor {
        /// The missing colour.
        color: Color,
        /// Byte offset of the end of the text (trailing whitespace
        /// excluded), where the section was expected.
        offset: usize,
    },
    /// A piece item is not `[K]n` or `[K]a-b` (garbage token, stray
    /// character, empty item).
    #[error("PDN FEN {section} pieces at byte {offset}: invalid piece item")]
    InvalidToken {
        /// The piece section (`W` or `B`) the item is in.
        section: Color,
        /// Byte offset of the offending character.
        offset: usize,
    },
    /// A square number outside 1..=50.
    #[error("PDN FEN {section} pieces at byte {offset}: square {number} out of range 1..=50")]
    SquareOutOfRange {
        /// The piece section (`W` or `B`) the number is in.
        section: Color,
        /// The number as written (saturated at 65535).
        number: u16,
        /// Byte offset of the number.
        offset: usize,
    },
    /// A range `a-b` with `a > b`.
    #[error("PDN FEN {section} pieces at byte {offset}: empty range {start}-{end}")]
    InvalidRange {
        /// The piece section (`W` or `B`) the range is in.
        section: Color,
        /// First square of the range.
        start: u8,
        /// Last square of the range.
        end: u8,
        /// Byte offset of the range.
        offset: usize,
    },
    /// A square listed twice (in one section or in both).
    #[error("PDN FEN {section} pieces at byte {offset}: square {square} listed twice")]
    DuplicateSquare {
        /// The piece section (`W` or `B`) of the second mention.
        section: Color,
        /// The square.
        square: Square,
        /// Byte offset of the second mention.
        offset: usize,
    },
    /// A man on its own promotion row (White on 1..=5, Black on 46..=50).
    #[error(
        "PDN FEN {color} pieces at byte {offset}: man on square {square}, its own promotion row"
    )]
    ManOnPromotionRow {
        /// The square.
        square: Square,
        /// The man's colour.
        color: Color,
        /// Byte offset of the item.
        offset: usize,
    },
    /// A counter (`H`/`F`) without a valid decimal number, or given twice.
    #[error("PDN FEN at byte {offset}: invalid move counter")]
    InvalidCounter {
        /// Byte offset of the counter section.
        offset: usize,
    },
    /// The position has more legal moves than a move list holds (no such
    /// position is known).
    #[error("PDN FEN: position has more legal moves than a move list holds")]
    TooManyMoves,
}

impl ParseFenError {
    /// The 0-based byte offset of the problem in the text, `None` for
    /// [`Empty`](ParseFenError::Empty) and
    /// [`TooManyMoves`](ParseFenError::TooManyMoves) (no place in the text).
    pub fn offset(&self) -> Option<usize> {
        match *self {
            ParseFenError::Empty | ParseFenError::TooManyMoves => None,
            ParseFenError::InvalidSide { offset }
            | ParseFenError::ExpectedColon { offset }
            | ParseFenError::InvalidSection { offset }
            | ParseFenError::DuplicateColor { offset, .. }
            | ParseFenError::MissingColor { offset, .. }
            | ParseFenError::SquareOutOfRange { offset, .. }
            | ParseFenError::InvalidRange { offset, .. }
            | ParseFenError::DuplicateSquare { offset, .. }
            | ParseFenError::ManOnPromotionRow { offset, .. }
            | ParseFenError::InvalidToken { offset, .. }
            | ParseFenError::InvalidCounter { offset } => Some(offset),
        }
    }

    /// The piece section (`W` or `B` list) the error is inside, for the
    /// item errors ([`InvalidToken`](ParseFenError::InvalidToken),
    /// [`SquareOutOfRange`](ParseFenError::SquareOutOfRange),
    /// [`InvalidRange`](ParseFenError::InvalidRange),
    /// [`DuplicateSquare`](ParseFenError::DuplicateSquare),
    /// [`ManOnPromotionRow`](ParseFenError::ManOnPromotionRow)); `None`
    /// otherwise. `Display` names it: `PDN FEN white pieces at byte 3: ...`.
    ///
    /// ```
    /// use board_core::draughts::{Color, Position};
    /// let e = "W:W51:B1".parse::<Position>().unwrap_err();
    /// assert_eq!(e.section(), Some(Color::White));
    /// assert_eq!(e.to_string(), "PDN FEN white pieces at byte 3: square 51 out of range 1..=50");
    /// ```
    pub fn section(&self) -> Option<Color> {
        match *self {
            ParseFenError::InvalidToken { section, .. }
            | ParseFenError::SquareOutOfRange { section, .. }
            | ParseFenError::InvalidRange { section, .. }
            | ParseFenError::DuplicateSquare { section, .. } => Some(section),
            ParseFenError::ManOnPromotionRow { color, .. } => Some(color),
            _ => None,
        }
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// A decimal number (at least one digit), saturated at `u16::MAX`.
    fn number(&mut self) -> Option<u16> {
        let start = self.i;
        let mut n: u16 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            n = n.saturating_mul(10).saturating_add((c - b'0') as u16);
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    fn square(&mut self, section: Color) -> Result<Square, ParseFenError> {
        let offset = self.i;
        let n = self
            .number()
            .ok_or(ParseFenError::InvalidToken { section, offset })?;
        u8::try_from(n)
            .ok()
            .and_then(Square::new)
            .ok_or(ParseFenError::SquareOutOfRange {
                number: n,
                section,
                offset,
            })
    }
}

impl FromStr for Position {
    type Err = ParseFenError;

    /// Parses PDN FEN: `side ':' section ':' section (':' counter)*`.
    ///
    /// `side` is `W` or `B`; a section is a colour letter (`W`/`B`, each
    /// exactly once, in either order) and a comma-separated, possibly empty
    /// list of items `[K]n` or `[K]a-b` (a range, `a <= b`; `K` marks kings);
    /// a counter is `H<n>` or `F<n>` (checked, not kept). Surrounding ASCII
    /// whitespace is ignored. `startpos` (surrounding ASCII whitespace
    /// ignored) is also accepted: [`Position::startpos`], as the SFEN parser
    /// accepts it. Errors name the problem and the byte offset: see
    /// [`ParseFenError`].
    ///
    /// ```
    /// use board_core::draughts::Position;
    /// assert_eq!(" startpos\n".parse::<Position>(), Ok(Position::startpos()));
    /// ```
    fn from_str(text: &str) -> Result<Position, ParseFenError> {
        if text.trim_matches(|c: char| c.is_ascii_whitespace()) == "startpos" {
            return Ok(Position::startpos());
        }
        let bytes = text.as_bytes();
        let (start, end) = notation::trimmed(bytes).ok_or(ParseFenError::Empty)?;
        let mut p = Parser {
            s: &bytes[..end],
            i: start,
        };

        let side = match p.peek() {
            Some(b'W') => Color::White,
            Some(b'B') => Color::Black,
            _ => return Err(ParseFenError::InvalidSide { offset: p.i }),
        };
        p.i += 1;

        let mut board: [Option<Piece>; 50] = [None; 50];
        let mut seen_color = [false; 2];
        let mut seen_h = false;
        let mut seen_f = false;
        while p.i < p.s.len() {
            if p.peek() != Some(b':') {
                return Err(ParseFenError::ExpectedColon { offset: p.i });
            }
            p.i += 1;
            let section = p.i;
            let color = match p.peek() {
                Some(b'W') => Color::White,
                Some(b'B') => Color::Black,
                Some(c @ (b'H' | b'F')) => {
                    p.i += 1;
                    let seen = if c == b'H' { &mut seen_h } else { &mut seen_f };
                    if *seen || p.number().is_none() {
                        return Err(ParseFenError::InvalidCounter { offset: section });
                    }
                    *seen = true;
                    if !matches!(p.peek(), None | Some(b':')) {
                        return Err(ParseFenError::InvalidCounter { offset: section });
                    }
                    continue;
                }
                _ => return Err(ParseFenError::InvalidSection { offset: section }),
            };
            if seen_color[color as usize] {
                return Err(ParseFenError::DuplicateColor {
                    color,
                    offset: section,
                });
            }
            seen_color[color as usize] = true;
            p.i += 1;
            if matches!(p.peek(), None | Some(b':')) {
                continue; // no pieces of this colour
            }
            loop {
                let item = p.i;
                let kind = if p.peek() == Some(b'K') {
                    p.i += 1;
                    PieceKind::King
                } else {
                    PieceKind::Man
                };
                let first = p.square(color)?;
                let last = if p.peek() == Some(b'-') {
                    p.i += 1;
                    let last = p.square(color)?;
                    if last < first {
                        return Err(ParseFenError::InvalidRange {
                            start: first.number(),
                            end: last.number(),
                            section: color,
                            offset: item,
                        });
                    }
                    last
                } else {
                    first
                };
                for n in first.number()..=last.number() {
                    let square = Square::new(n).ok_or(ParseFenError::InvalidToken {
                        section: color,
                        offset: item,
                    })?;
                    let slot = &mut board[n as usize - 1];
                    if slot.is_some() {
                        return Err(ParseFenError::DuplicateSquare {
                            square,
                            section: color,
                            offset: item,
                        });
                    }
                    let promotion_row = match color {
                        Color::White => n <= 5,
                        Color::Black => n >= 46,
                    };
                    if kind == PieceKind::Man && promotion_row {
                        return Err(ParseFenError::ManOnPromotionRow {
                            square,
                            color,
                            offset: item,
                        });
                    }
                    *slot = Some(Piece { color, kind });
                }
                match p.peek() {
                    Some(b',') => p.i += 1,
                    None | Some(b':') => break,
                    Some(_) => {
                        return Err(ParseFenError::InvalidToken {
                            section: color,
                            offset: p.i,
                        });
                    }
                }
            }
        }
        for color in [Color::White, Color::Black] {
            if !seen_color[color as usize] {
                return Err(ParseFenError::MissingColor { color, offset: end });
            }
        }
        Position::from_setup(&Setup {
            board,
            side_to_move: side,
        })
        .map_err(|e| match e {
            // Already rejected above with an offset.
            SetupError::ManOnPromotionRow { square, color } => ParseFenError::ManOnPromotionRow {
                square,
                color,
                offset: 0,
            },
            SetupError::TooManyMoves => ParseFenError::TooManyMoves,
        })
    }
}

/// The `{:#}` diagram of a draughts position (see its `Display` impl).
fn write_diagram(pos: &Position, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    const BORDER: &str = "+---------------------+   +-------------------------------+";
    f.write_str(BORDER)?;
    for row in 0..10u8 {
        f.write_str("\n|")?;
        for col in 0..10u8 {
            if (row + col) % 2 == 0 {
                f.write_str("  ")?;
                continue;
            }
            let c = Square::new(row * 5 + col / 2 + 1)
                .and_then(|sq| pos.piece_at(sq))
                .map_or('.', Piece::letter);
            write!(f, " {c}")?;
        }
        f.write_str(" |   |")?;
        for col in 0..10u8 {
            if (row + col) % 2 == 0 {
                f.write_str("   ")?;
            } else {
                write!(f, "{:>3}", row * 5 + col / 2 + 1)?;
            }
        }
        f.write_str(" |")?;
    }
    write!(f, "\n{BORDER}\n")?;
    f.write_str(match pos.side {
        Color::White => "white to move",
        Color::Black => "black to move",
    })
}

impl fmt::Display for Position {
    /// Canonical PDN FEN: `W:W31,...,50:B1,...,20`, kings as `K17`.
    ///
    /// The alternate form `{:#}` draws the board in plain ASCII instead:
    /// 13 lines separated by `\n` (no final newline). Each of the 10 rows
    /// shows, left, the board as White sees it (square 1 top left on the
    /// second column, 46 bottom left) with `w`/`b` for White's/Black's men,
    /// `W`/`B` for kings, `.` for an empty playable square and blanks for
    /// the unplayable light squares, and, right, the same row with the
    /// numbers 1..=50 of the playable squares (the legend). The last line
    /// is `white to move` or `black to move`.
    ///
    /// ```
    /// let diagram = format!("{:#}", board_core::draughts::Position::startpos());
    /// assert_eq!(
    ///     diagram.lines().nth(1),
    ///     Some("|   b   b   b   b   b |   |     1     2     3     4     5 |")
    /// );
    /// assert_eq!(diagram.lines().last(), Some("white to move"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return write_diagram(self, f);
        }
        f.write_str(match self.side {
            Color::White => "W",
            Color::Black => "B",
        })?;
        for color in [Color::White, Color::Black] {
            write!(f, ":{}", color.pdn_char())?;
            for (i, square) in self.pieces(color).iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                if self.kings().contains(square) {
                    f.write_str("K")?;
                }
                write!(f, "{square}")?;
            }
        }
        Ok(())
    }
}
