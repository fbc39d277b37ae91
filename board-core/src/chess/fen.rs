//! FEN (Forsyth–Edwards Notation) parsing and canonical output.
//!
//! Six fields separated by spaces: piece placement (rank 8 first, `/`
//! between ranks, digits for empty squares), side to move (`w`/`b`),
//! castling rights (`-` or a subset of `KQkq`), en passant square (`-` or
//! e.g. `e3`), half-move clock and full-move number. The two counters may
//! be omitted together (as in EPD; they default to `0 1`) and the full-move
//! number alone may be omitted (default 1). A full-move number of 0 (seen
//! in the wild) is accepted and read as 1, as python-chess does
//! (`max(n, 1)`). The text `startpos` is read as the start position.
//!
//! Besides syntax, parsing rejects set-ups that cannot arise in a game:
//! a missing or extra king, a pawn on rank 1 or 8, the side not to move in
//! check, more material than promotions allow, castling rights without the
//! king and rook on their original squares, and an en passant square with
//! no pawn that could just have made a double push. A legal en passant
//! square on which no capture is legal is dropped (canonical form).

use core::fmt;
use core::str::FromStr;

use super::bitboard::Bitboard;
use super::position::{CastlingRights, Position};
use super::setup::SetupError;
use super::types::{CastlingSide, Color, File, Piece, Rank, Square};

/// The FEN field an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenField {
    /// Field 1, piece placement.
    Board,
    /// Field 2, side to move.
    Turn,
    /// Field 3, castling rights.
    Castling,
    /// Field 4, en passant square.
    EnPassant,
    /// Field 5, half-move clock.
    HalfmoveClock,
    /// Field 6, full-move number.
    FullmoveNumber,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "board",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant square",
            FenField::HalfmoveClock => "half-move clock",
            FenField::FullmoveNumber => "full-move number",
        })
    }
}

/// What is wrong (see [`ParseFenError`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// The field is missing (the text ended early).
    #[error("missing")]
    Missing,
    /// A character that is not allowed here.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// A rank describes more than 8 squares.
    #[error("rank describes more than 8 squares")]
    RankTooLong,
    /// A rank describes fewer than 8 squares.
    #[error("rank describes fewer than 8 squares")]
    RankTooShort,
    /// Not exactly 8 ranks.
    #[error("expected 8 ranks separated by '/'")]
    WrongRankCount,
    /// The same castling letter twice.
    #[error("castling right {0:?} given twice")]
    DuplicateCastling(char),
    /// Not a square name (or not on rank 3 or 6).
    #[error("not an en passant square (expected '-' or a square on rank 3 or 6)")]
    InvalidSquare,
    /// Not a decimal number that fits in 32 bits.
    #[error("not a number in 0..=4294967295")]
    InvalidNumber,
    /// More than six fields.
    #[error("unexpected text after the six fields")]
    TrailingText,
    /// A side has no king.
    #[error("{0} has no king")]
    MissingKing(Color),
    /// A side has more than one king.
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    /// A pawn on rank 1 or 8.
    #[error("pawn on {0}, a back rank")]
    PawnOnBackRank(Square),
    /// More pieces than one side can have (16 pieces, 8 pawns, and no more
    /// promoted pieces than missing pawns).
    #[error("{0} has more material than promotions allow")]
    TooMuchMaterial(Color),
    /// The side not to move is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// A castling right without the king on e1/e8 and the rook on its
    /// corner.
    #[error("{color} {side} castling right without king and rook on their original squares")]
    CastlingWithoutPieces {
        /// Whose right.
        color: Color,
        /// Which right.
        side: CastlingSide,
    },
    /// An en passant square no double push can have produced.
    #[error("en passant square {0} without an enemy pawn just past it (or not empty)")]
    ImpossibleEnPassant(Square),
    /// More legal moves than [`MAX_MOVES`](super::MAX_MOVES) (only possible
    /// in positions no game can reach).
    #[error("more than 218 legal moves")]
    TooManyMoves,
}

/// A FEN could not be parsed or describes an impossible position.
///
/// Accepted: six fields separated by spaces — piece placement (rank 8
/// first, `/` between ranks, digits 1-8 for empty squares), side to move
/// (`w`/`b`), castling rights (`-` or a subset of `KQkq`, any order, no
/// repeats), en passant square (`-` or a square on rank 6 with White to
/// move, rank 3 with Black), half-move clock and full-move number (decimal,
/// 32 bits). The two counters may be omitted together (EPD style; they
/// default to `0 1`) and the full-move number alone (default 1); a
/// full-move number of 0 is accepted and read as 1, as python-chess does
/// (`max(n, 1)`). The text `startpos` alone (surrounding ASCII whitespace
/// ignored) is the start position.
///
/// Rejected besides syntax errors: a missing or extra king, a pawn on rank
/// 1 or 8, the side not to move in check, more material than promotions
/// allow, castling rights without king and rook on their original squares,
/// an en passant square with no enemy pawn just past it, and more than
/// [`MAX_MOVES`](super::MAX_MOVES) legal moves. An en passant square on
/// which no capture is legal is accepted and dropped (canonical form).
///
/// `offset` is the byte offset in the input where the problem was found
/// (the start of the field for whole-field problems and for position
/// problems, which concern the field named).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid FEN {field} at byte {offset}: {kind}")]
pub struct ParseFenError {
    /// The field concerned.
    pub field: FenField,
    /// Byte offset in the input.
    pub offset: usize,
    /// What is wrong.
    pub kind: FenErrorKind,
}

fn err(field: FenField, offset: usize, kind: FenErrorKind) -> ParseFenError {
    ParseFenError {
        field,
        offset,
        kind,
    }
}

/// Splits on ASCII spaces/tabs, yielding (offset, field).
fn fields(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = s.as_bytes();
    let mut i = 0;
    core::iter::from_fn(move || {
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && bytes[i] != b' ' && bytes[i] != b'\t' {
            i += 1;
        }
        Some((start, &s[start..i]))
    })
}

fn parse_number(field: FenField, offset: usize, text: &str) -> Result<u32, ParseFenError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(field, offset, FenErrorKind::InvalidNumber));
    }
    text.parse::<u32>()
        .map_err(|_| err(field, offset, FenErrorKind::InvalidNumber))
}

fn parse_board(pos: &mut Position, offset: usize, text: &str) -> Result<(), ParseFenError> {
    let field = FenField::Board;
    let mut rank: u32 = 7;
    let mut file: u32 = 0;
    for (i, c) in text.char_indices() {
        let at = offset + i;
        match c {
            '/' => {
                if file < 8 {
                    return Err(err(field, at, FenErrorKind::RankTooShort));
                }
                if rank == 0 {
                    return Err(err(field, at, FenErrorKind::WrongRankCount));
                }
                rank -= 1;
                file = 0;
            }
            '1'..='8' => {
                file += c as u32 - '0' as u32;
                if file > 8 {
                    return Err(err(field, at, FenErrorKind::RankTooLong));
                }
            }
            _ => {
                let Some(piece) = Piece::from_char(c) else {
                    return Err(err(field, at, FenErrorKind::UnexpectedChar(c)));
                };
                if file >= 8 {
                    return Err(err(field, at, FenErrorKind::RankTooLong));
                }
                let sq = Square::new_masked(rank * 8 + file);
                pos.by_kind[piece.kind.index()] |= Bitboard::from_square(sq);
                pos.by_color[piece.color.index()] |= Bitboard::from_square(sq);
                file += 1;
            }
        }
    }
    if file < 8 {
        return Err(err(field, offset + text.len(), FenErrorKind::RankTooShort));
    }
    if rank != 0 {
        return Err(err(
            field,
            offset + text.len(),
            FenErrorKind::WrongRankCount,
        ));
    }
    Ok(())
}

fn parse_castling(offset: usize, text: &str) -> Result<CastlingRights, ParseFenError> {
    let field = FenField::Castling;
    if text == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut rights = CastlingRights::NONE;
    for (i, c) in text.char_indices() {
        let (color, side) = match c {
            'K' => (Color::White, CastlingSide::KingSide),
            'Q' => (Color::White, CastlingSide::QueenSide),
            'k' => (Color::Black, CastlingSide::KingSide),
            'q' => (Color::Black, CastlingSide::QueenSide),
            _ => return Err(err(field, offset + i, FenErrorKind::UnexpectedChar(c))),
        };
        if rights.has(color, side) {
            return Err(err(field, offset + i, FenErrorKind::DuplicateCastling(c)));
        }
        rights = rights.with(color, side);
    }
    Ok(rights)
}

impl FromStr for Position {
    type Err = ParseFenError;

    /// Parses a FEN (see [`ParseFenError`] for the accepted forms and what
    /// is rejected), or the text `startpos` (surrounding ASCII whitespace
    /// ignored), as UCI's `position startpos` and the shogi SFEN parser
    /// accept: [`Position::startpos`].
    ///
    /// ```
    /// use board_core::chess::Position;
    /// assert_eq!(" startpos\n".parse::<Position>()?, Position::startpos());
    /// # Ok::<(), board_core::chess::ParseFenError>(())
    /// ```
    fn from_str(s: &str) -> Result<Position, ParseFenError> {
        if s.trim_ascii() == "startpos" {
            return Ok(Position::startpos());
        }
        let mut pos = Position::empty();
        let mut it = fields(s);
        let end = s.len();

        let (board_at, board) =
            it.next()
                .ok_or(err(FenField::Board, end, FenErrorKind::Missing))?;
        parse_board(&mut pos, board_at, board)?;

        let (turn_at, turn) = it
            .next()
            .ok_or(err(FenField::Turn, end, FenErrorKind::Missing))?;
        pos.turn = match turn {
            "w" => Color::White,
            "b" => Color::Black,
            _ => {
                // The first character that makes the field wrong.
                let skip = usize::from(turn.starts_with(['w', 'b']));
                let (i, c) = turn.char_indices().nth(skip).unwrap_or((0, ' '));
                return Err(err(
                    FenField::Turn,
                    turn_at + i,
                    FenErrorKind::UnexpectedChar(c),
                ));
            }
        };

        let (castling_at, castling) =
            it.next()
                .ok_or(err(FenField::Castling, end, FenErrorKind::Missing))?;
        pos.castling = parse_castling(castling_at, castling)?;

        let (ep_at, ep) = it
            .next()
            .ok_or(err(FenField::EnPassant, end, FenErrorKind::Missing))?;
        let ep_square = if ep == "-" {
            None
        } else {
            let sq: Square = ep
                .parse()
                .map_err(|_| err(FenField::EnPassant, ep_at, FenErrorKind::InvalidSquare))?;
            let expected = match pos.turn {
                Color::White => Rank::Sixth,
                Color::Black => Rank::Third,
            };
            if sq.rank() != expected {
                return Err(err(FenField::EnPassant, ep_at, FenErrorKind::InvalidSquare));
            }
            Some(sq)
        };

        if let Some((at, text)) = it.next() {
            pos.halfmove_clock = parse_number(FenField::HalfmoveClock, at, text)?;
            if let Some((at, text)) = it.next() {
                pos.fullmove_number = parse_number(FenField::FullmoveNumber, at, text)?.max(1);
            }
        }
        if let Some((at, _)) = it.next() {
            return Err(err(
                FenField::FullmoveNumber,
                at,
                FenErrorKind::TrailingText,
            ));
        }

        let mut setup = pos.to_setup();
        setup.ep_square = ep_square;
        Position::from_setup(&setup).map_err(|e| {
            let (field, offset, kind) = match e {
                SetupError::MissingKing(c) => {
                    (FenField::Board, board_at, FenErrorKind::MissingKing(c))
                }
                SetupError::TooManyKings(c) => {
                    (FenField::Board, board_at, FenErrorKind::TooManyKings(c))
                }
                SetupError::TooMuchMaterial(c) => {
                    (FenField::Board, board_at, FenErrorKind::TooMuchMaterial(c))
                }
                SetupError::PawnOnBackRank(sq) => {
                    (FenField::Board, board_at, FenErrorKind::PawnOnBackRank(sq))
                }
                SetupError::OppositeCheck => (FenField::Turn, turn_at, FenErrorKind::OppositeCheck),
                SetupError::CastlingWithoutPieces { color, side } => (
                    FenField::Castling,
                    castling_at,
                    FenErrorKind::CastlingWithoutPieces { color, side },
                ),
                SetupError::ImpossibleEnPassant(sq) => (
                    FenField::EnPassant,
                    ep_at,
                    FenErrorKind::ImpossibleEnPassant(sq),
                ),
                SetupError::TooManyMoves => (FenField::Board, board_at, FenErrorKind::TooManyMoves),
            };
            err(field, offset, kind)
        })
    }
}

impl Position {
    /// The `{:#}` diagram (see the `Display` impl).
    fn write_diagram(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("  +-----------------+\n")?;
        for rank in Rank::ALL.iter().rev() {
            write!(f, "{} |", rank.char())?;
            for file in File::ALL {
                let c = self
                    .piece_at(Square::from_coords(file, *rank))
                    .map_or('.', |p| p.char());
                write!(f, " {c}")?;
            }
            f.write_str(" |\n")?;
        }
        f.write_str("  +-----------------+\n")?;
        f.write_str("    a b c d e f g h\n")?;
        write!(f, "{} to move", self.turn)
    }
}

impl fmt::Display for Position {
    /// Canonical FEN: all six fields, castling in `KQkq` order, the en
    /// passant square only when an en passant capture is legal.
    ///
    /// The alternate form `{:#}` draws the board in plain ASCII instead:
    /// 12 lines separated by `\n` (no final newline): a frame, ranks 8 down
    /// to 1 each starting with its digit, the pieces as FEN letters (upper
    /// case White, lower case Black, `.` an empty square) separated by
    /// spaces, the files `a`..`h` under them, and `white to move` or
    /// `black to move`.
    ///
    /// ```
    /// let diagram = format!("{:#}", board_core::chess::Position::startpos());
    /// assert_eq!(diagram.lines().nth(1), Some("8 | r n b q k b n r |"));
    /// assert_eq!(diagram.lines().last(), Some("white to move"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        if f.alternate() {
            return self.write_diagram(f);
        }
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0u8;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            f.write_char((b'0' + empty) as char)?;
                            empty = 0;
                        }
                        f.write_char(piece.char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                f.write_char((b'0' + empty) as char)?;
            }
            if *rank != Rank::First {
                f.write_char('/')?;
            }
        }
        write!(f, " {} {} ", self.turn.char(), self.castling)?;
        match self.ep_square {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_char('-')?,
        }
        write!(f, " {} {}", self.halfmove_clock, self.fullmove_number)
    }
}
