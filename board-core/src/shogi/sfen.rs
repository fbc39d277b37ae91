//! SFEN (the USI protocol's position text) in and out.
//!
//! `<board> <side> <hand> [<move number>]`, e.g. the start position
//! `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`:
//! ranks a..i (CSA rows 1..9) separated by `/`, files 9..1 left to right,
//! digits for runs of empty squares, uppercase Black (sente), lowercase
//! White (gote), `+` before a promoted piece; side `b`/`w`; hand `-` or
//! counts before letters (canonical order `RBGSNLPrbgsnlp`); the move number
//! may be omitted (then 1).

use core::fmt;
use core::str::FromStr;

use super::position::{Position, Setup, SetupError};
use super::types::{Color, Piece, PieceKind, Square};

/// The four fields of an SFEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SfenField {
    /// The board (first field).
    Board,
    /// The side to move (`b`/`w`).
    Side,
    /// The pieces in hand (`-` or e.g. `2Pb`).
    Hand,
    /// The move number (optional fourth field).
    MoveNumber,
}

impl fmt::Display for SfenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SfenField::Board => "board",
            SfenField::Side => "side-to-move",
            SfenField::Hand => "hand",
            SfenField::MoveNumber => "move-number",
        })
    }
}

/// Why an SFEN could not be read.
///
/// Every syntax error carries `offset`, the 0-based byte offset in the
/// input text (leading spaces counted) where the problem was found
/// ([`ParseSfenError::offset`] reads it from any variant); `Display` says
/// "at byte N".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseSfenError {
    /// A mandatory field (board, side, hand) is missing.
    #[error("SFEN {field} field at byte {offset}: missing")]
    MissingField {
        /// The missing field.
        field: SfenField,
        /// Byte offset of the end of the text, where the field was
        /// expected.
        offset: usize,
    },
    /// A byte that does not belong in this field.
    #[error("SFEN {field} field at byte {offset}: unexpected character {found:?}")]
    UnexpectedChar {
        /// The field.
        field: SfenField,
        /// Byte offset of the character.
        offset: usize,
        /// The offending character.
        found: char,
    },
    /// A rank describes more or fewer than 9 squares.
    #[error("SFEN board field at byte {offset}: rank {rank} has {squares} squares, not 9")]
    RankLength {
        /// Rank 1..=9 (a..i).
        rank: u8,
        /// Squares counted.
        squares: u8,
        /// Byte offset where the problem was seen: the `/` or the end of
        /// the board ending a short rank, the character overfilling a rank.
        offset: usize,
    },
    /// The board has more or fewer than 9 ranks.
    #[error("SFEN board field at byte {offset}: {ranks} ranks, not 9")]
    RankCount {
        /// Ranks seen.
        ranks: u8,
        /// Byte offset of the tenth rank's `/`, or of the end of the
        /// board field when ranks are missing.
        offset: usize,
    },
    /// `+` before a piece that cannot promote (gold, king), or `+` with no
    /// piece after it.
    #[error("SFEN board field at byte {offset}: '+' cannot apply here")]
    BadPromotion {
        /// Byte offset of the `+`.
        offset: usize,
    },
    /// A hand count of 0, a count with no piece after it, a king in hand,
    /// or more pieces of a kind than a set has.
    #[error("SFEN hand field at byte {offset}: bad count or piece")]
    HandCount {
        /// Byte offset of the item (its count, or its letter for a king).
        offset: usize,
    },
    /// The move number is not a number from 1 to 2^32-1.
    #[error("SFEN move-number field at byte {offset}: not a number in 1..=4294967295")]
    MoveNumber {
        /// Byte offset of the field.
        offset: usize,
    },
    /// Text after the last field.
    #[error("SFEN at byte {offset}: unexpected text after the move number")]
    TrailingText {
        /// Byte offset of the text.
        offset: usize,
    },
    /// The text is well formed but the position is impossible.
    #[error("SFEN: impossible position: {0}")]
    Setup(#[from] SetupError),
}

impl ParseSfenError {
    /// The 0-based byte offset of the problem in the text; `None` for
    /// [`Setup`](ParseSfenError::Setup) (the whole position is impossible).
    pub fn offset(&self) -> Option<usize> {
        match *self {
            ParseSfenError::MissingField { offset, .. }
            | ParseSfenError::UnexpectedChar { offset, .. }
            | ParseSfenError::RankLength { offset, .. }
            | ParseSfenError::RankCount { offset, .. }
            | ParseSfenError::BadPromotion { offset }
            | ParseSfenError::HandCount { offset }
            | ParseSfenError::MoveNumber { offset }
            | ParseSfenError::TrailingText { offset } => Some(offset),
            ParseSfenError::Setup(_) => None,
        }
    }
}

/// Splits `s` on runs of ASCII spaces, yielding (0-based offset, token).
fn fields(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = s.as_bytes();
    let mut i = 0;
    core::iter::from_fn(move || {
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && bytes[i] != b' ' {
            i += 1;
        }
        Some((start, &s[start..i]))
    })
}

fn char_at(s: &str, i: usize) -> char {
    s[i..].chars().next().unwrap_or('\u{fffd}')
}

impl Setup {
    /// Reads an SFEN into an unchecked [`Setup`] (syntax only).
    ///
    /// # Errors
    ///
    /// [`ParseSfenError`] with the field and the 0-based byte offset: a missing
    /// field, a byte that does not belong in its field, a rank of more or fewer
    /// than 9 squares, not 9 ranks, `+` before a piece that cannot promote, a
    /// bad hand count, or a bad move number. Impossible positions are not
    /// checked here ([`Position::from_setup`] does).
    pub fn from_sfen(sfen: &str) -> Result<Setup, ParseSfenError> {
        let mut setup = Setup::empty();
        let mut it = fields(sfen);
        let missing = |field| ParseSfenError::MissingField {
            field,
            offset: sfen.len(),
        };
        let (boff, board) = it.next().ok_or(missing(SfenField::Board))?;
        parse_board(board, boff, &mut setup)?;

        let (soff, side) = it.next().ok_or(missing(SfenField::Side))?;
        setup.side_to_move = match side {
            "b" => Color::Black,
            "w" => Color::White,
            _ => {
                let bad = if side.len() == 1 {
                    0
                } else if matches!(side.as_bytes()[0], b'b' | b'w') {
                    1
                } else {
                    0
                };
                return Err(ParseSfenError::UnexpectedChar {
                    field: SfenField::Side,
                    offset: soff + bad,
                    found: char_at(side, bad),
                });
            }
        };

        let (hoff, hand) = it.next().ok_or(missing(SfenField::Hand))?;
        parse_hand(hand, hoff, &mut setup)?;

        if let Some((noff, num)) = it.next() {
            if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseSfenError::MoveNumber { offset: noff });
            }
            match num.parse::<u32>() {
                Ok(n) if n >= 1 => setup.move_number = n,
                _ => return Err(ParseSfenError::MoveNumber { offset: noff }),
            }
        }
        if let Some((off, _)) = it.next() {
            return Err(ParseSfenError::TrailingText { offset: off });
        }
        Ok(setup)
    }
}

fn parse_board(board: &str, off: usize, setup: &mut Setup) -> Result<(), ParseSfenError> {
    let bytes = board.as_bytes();
    let mut rank: u8 = 1;
    let mut file_count: u8 = 0; // squares filled in the current rank
    let mut promote_at: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let at = off + i;
        match b {
            b'/' => {
                end_rank(promote_at, rank, file_count, at)?;
                rank += 1;
                if rank > 9 {
                    return Err(ParseSfenError::RankCount {
                        ranks: 10,
                        offset: at,
                    });
                }
                file_count = 0;
            }
            b'1'..=b'9' => {
                if let Some(p) = promote_at {
                    return Err(ParseSfenError::BadPromotion { offset: p });
                }
                file_count += b - b'0';
                if file_count > 9 {
                    return Err(ParseSfenError::RankLength {
                        rank,
                        squares: file_count,
                        offset: at,
                    });
                }
            }
            b'+' => {
                if promote_at.is_some() {
                    return Err(ParseSfenError::BadPromotion { offset: at });
                }
                promote_at = Some(at);
            }
            _ => {
                let Some(kind) = PieceKind::from_sfen_letter(b) else {
                    return Err(ParseSfenError::UnexpectedChar {
                        field: SfenField::Board,
                        offset: at,
                        found: char_at(board, i),
                    });
                };
                let kind = match promote_at.take() {
                    Some(p) => kind
                        .promoted()
                        .ok_or(ParseSfenError::BadPromotion { offset: p })?,
                    None => kind,
                };
                if file_count >= 9 {
                    return Err(ParseSfenError::RankLength {
                        rank,
                        squares: 10,
                        offset: at,
                    });
                }
                let color = if b.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                let file = 9 - file_count;
                if let Some(sq) = Square::new(file, rank) {
                    setup.board[sq.index()] = Some(Piece::new(color, kind));
                }
                file_count += 1;
            }
        }
        i += 1;
    }
    let end = off + bytes.len();
    end_rank(promote_at, rank, file_count, end)?;
    if rank != 9 {
        return Err(ParseSfenError::RankCount {
            ranks: rank,
            offset: end,
        });
    }
    Ok(())
}

/// The end of a rank (a `/` or the end of the board field, at byte
/// `offset`): no `+` left without its piece, and exactly nine squares.
fn end_rank(
    promote_at: Option<usize>,
    rank: u8,
    file_count: u8,
    offset: usize,
) -> Result<(), ParseSfenError> {
    if let Some(p) = promote_at {
        return Err(ParseSfenError::BadPromotion { offset: p });
    }
    if file_count != 9 {
        return Err(ParseSfenError::RankLength {
            rank,
            squares: file_count,
            offset,
        });
    }
    Ok(())
}

fn parse_hand(hand: &str, off: usize, setup: &mut Setup) -> Result<(), ParseSfenError> {
    if hand == "-" {
        return Ok(());
    }
    let bytes = hand.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let mut count: u32 = 0;
        let mut digits = 0;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            count = count * 10 + (bytes[i] - b'0') as u32;
            digits += 1;
            i += 1;
            if digits > 2 {
                return Err(ParseSfenError::HandCount {
                    offset: off + start,
                });
            }
        }
        if digits == 0 {
            count = 1;
        } else if count == 0 {
            return Err(ParseSfenError::HandCount {
                offset: off + start,
            });
        }
        let Some(&b) = bytes.get(i) else {
            return Err(ParseSfenError::HandCount {
                offset: off + start,
            });
        };
        let kind = match PieceKind::from_sfen_letter(b) {
            Some(PieceKind::King) => {
                return Err(ParseSfenError::HandCount { offset: off + i });
            }
            Some(k) => k,
            None => {
                return Err(ParseSfenError::UnexpectedChar {
                    field: SfenField::Hand,
                    offset: off + i,
                    found: char_at(hand, i),
                });
            }
        };
        let color = if b.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        if count > u8::MAX as u32 || !setup.hands[color.index()].add(kind, count as u8) {
            return Err(ParseSfenError::HandCount {
                offset: off + start,
            });
        }
        i += 1;
    }
    Ok(())
}

impl Position {
    /// Reads and validates an SFEN (USI protocol position text):
    /// `<board> <side> <hand> [<move number>]`, e.g. the start position
    /// `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`:
    /// ranks a..i (CSA rows 1..9) separated by `/`, files 9..1 left to
    /// right, digits for runs of empty squares, uppercase Black (sente),
    /// lowercase White (gote), `+` before a promoted piece; side `b`/`w`;
    /// hand `-` or counts before letters (any order; printed as
    /// `RBGSNLPrbgsnlp`); the move number may be omitted (then 1).
    ///
    /// Errors: [`ParseSfenError`] names the field and the 0-based byte
    /// offset;
    /// impossible positions give [`ParseSfenError::Setup`] (see
    /// [`SetupError`]). Positions where a side has no king are accepted.
    ///
    /// ```
    /// use board_core::shogi::Position;
    /// let p = Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")?;
    /// assert_eq!(p, Position::startpos());
    /// # Ok::<(), board_core::shogi::ParseSfenError>(())
    /// ```
    pub fn from_sfen(sfen: &str) -> Result<Position, ParseSfenError> {
        let setup = Setup::from_sfen(sfen)?;
        Ok(Position::from_setup(&setup)?)
    }

    /// Writes the canonical SFEN (what `Display` prints).
    pub fn write_sfen<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        for rank in 1..=9u8 {
            if rank > 1 {
                w.write_char('/')?;
            }
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::new(file, rank).unwrap_or_default();
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            w.write_char((b'0' + empty) as char)?;
                            empty = 0;
                        }
                        write!(w, "{p}")?;
                    }
                }
            }
            if empty > 0 {
                w.write_char((b'0' + empty) as char)?;
            }
        }
        w.write_char(' ')?;
        w.write_char(self.side.sfen_char())?;
        w.write_char(' ')?;
        if self.hands[0].is_empty() && self.hands[1].is_empty() {
            w.write_char('-')?;
        } else {
            for color in Color::ALL {
                for kind in HAND_ORDER {
                    let n = self.hands[color.index()].count(kind);
                    if n == 0 {
                        continue;
                    }
                    if n > 1 {
                        write!(w, "{n}")?;
                    }
                    write!(w, "{}", Piece::new(color, kind))?;
                }
            }
        }
        write!(w, " {}", self.move_number)
    }
}

/// The hand kinds in SFEN order.
const HAND_ORDER: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

impl Position {
    /// One `<side> in hand: ...` line of the `{:#}` diagram.
    fn write_hand_line(&self, f: &mut fmt::Formatter<'_>, color: Color) -> fmt::Result {
        f.write_str(match color {
            Color::Black => "sente (b) in hand:",
            Color::White => "gote (w) in hand:",
        })?;
        let mut any = false;
        for kind in HAND_ORDER {
            let n = self.hands[color.index()].count(kind);
            if n == 0 {
                continue;
            }
            any = true;
            f.write_str(" ")?;
            if n > 1 {
                write!(f, "{n}")?;
            }
            write!(f, "{}", Piece::new(color, kind))?;
        }
        if !any {
            f.write_str(" -")?;
        }
        Ok(())
    }

    /// The `{:#}` diagram (see the `Display` impl).
    fn write_diagram(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const BORDER: &str = "  +----------------------------+";
        self.write_hand_line(f, Color::White)?;
        f.write_str("\n     9  8  7  6  5  4  3  2  1\n")?;
        f.write_str(BORDER)?;
        for rank in 1..=9u8 {
            f.write_str("\n  |")?;
            for file in (1..=9u8).rev() {
                match Square::new(file, rank).and_then(|sq| self.piece_at(sq)) {
                    None => f.write_str("  .")?,
                    Some(p) if p.kind.is_promoted() => write!(f, " {p}")?,
                    Some(p) => write!(f, "  {p}")?,
                }
            }
            write!(f, " | {}", (b'a' + rank - 1) as char)?;
        }
        write!(f, "\n{BORDER}\n")?;
        self.write_hand_line(f, Color::Black)?;
        f.write_str(match self.side {
            Color::Black => "\nsente (b) to move",
            Color::White => "\ngote (w) to move",
        })
    }
}

impl fmt::Display for Position {
    /// Canonical SFEN.
    ///
    /// The alternate form `{:#}` draws the board in plain ASCII instead:
    /// 15 lines separated by `\n` (no final newline): gote's pieces in hand,
    /// the files 9 to 1 as USI numbers them, a frame, ranks 1..=9 from top
    /// to bottom each ending with its USI letter `a`..`i`, the pieces in
    /// SFEN letters (upper case sente, lower case gote, `+` before a
    /// promoted piece, `.` an empty square) in three-character cells,
    /// sente's pieces in hand (SFEN letters in SFEN order, a count before
    /// any held more than once: `R 2P`; `-` for none), and
    /// `sente (b) to move` or `gote (w) to move`.
    ///
    /// ```
    /// let diagram = format!("{:#}", board_core::shogi::Position::startpos());
    /// assert_eq!(diagram.lines().nth(3), Some("  |  l  n  s  g  k  g  s  n  l | a"));
    /// assert_eq!(diagram.lines().last(), Some("sente (b) to move"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return self.write_diagram(f);
        }
        self.write_sfen(f)
    }
}

impl FromStr for Position {
    type Err = ParseSfenError;
    /// [`Position::from_sfen`]; also accepts `startpos`.
    fn from_str(s: &str) -> Result<Position, ParseSfenError> {
        if s.trim() == "startpos" {
            return Ok(Position::startpos());
        }
        Position::from_sfen(s)
    }
}
