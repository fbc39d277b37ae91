//! CSA notation: the move token (`+7776FU`) and the position block
//! (`P1`..`P9`, `PI`, `P+`/`P-`, side line), as used by the CSA server
//! protocol's `Game_Summary` and by CSA kifu files (format V2.2 / V3.0,
//! section "局面" / position).
//!
//! Both are position-free *syntax* here; turning a [`CsaMove`] into a
//! [`Move`] needs a [`Position`] ([`Position::move_from_csa`]), because CSA
//! names the piece *after* the move (`+8822UM` is a bishop promoting) where
//! USI writes a `+`.

use core::fmt;
use core::str::FromStr;

use super::legality::IllegalReason;
use super::position::{Position, Setup, SetupError};
use super::types::{Color, Move, Piece, PieceKind, Square};
use super::usi::MoveTextError;

/// A CSA move token such as `+7776FU`, `-0034KA` (drop), `+8822UM`
/// (bishop promotes): sign, origin (`00` for a drop), destination, and the
/// piece code *after* the move. Exactly 7 ASCII bytes; comma-separated
/// suffixes like `,T12` belong to the protocol and are not part of it.
///
/// Always valid syntax: the origin is a square or a drop, and a drop names
/// an unpromoted non-king piece. Legality needs a position.
///
/// ```
/// use board_core::shogi::{Color, CsaMove, PieceKind};
/// let m: CsaMove = "+8822UM".parse()?;
/// assert_eq!(m.color(), Color::Black);
/// assert_eq!(m.piece(), PieceKind::Horse);
/// assert_eq!(m.to_string(), "+8822UM");
/// # Ok::<(), board_core::shogi::ParseCsaMoveError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CsaMove {
    color: Color,
    from: Option<Square>,
    to: Square,
    piece: PieceKind,
}

/// Malformed CSA move text. Positions are 0-based byte offsets within the
/// 7-byte token ([`ParseCsaMoveError::offset`]); `Display` says "at byte
/// N".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseCsaMoveError {
    /// Not exactly 7 bytes.
    #[error("CSA move: {len} bytes, expected 7 (+7776FU)")]
    Length {
        /// The length found.
        len: usize,
    },
    /// A byte that does not fit its place in the token.
    #[error("CSA move: unexpected {found:?} at byte {offset}, expected {expected}")]
    UnexpectedChar {
        /// 0-based byte offset in the token.
        offset: usize,
        /// What was there.
        found: char,
        /// What fits there.
        expected: &'static str,
    },
    /// The two-letter piece code is not one of `FU KY KE GI KI KA HI OU TO
    /// NY NK NG UM RY`.
    #[error("CSA move: unknown piece code at byte 5")]
    UnknownPiece,
    /// A drop (`00` origin) of a promoted piece or a king.
    #[error("CSA move: {kind} cannot be dropped")]
    NotDroppable {
        /// The named piece.
        kind: PieceKind,
    },
}

impl ParseCsaMoveError {
    /// The 0-based byte offset of the problem in the token: the offending
    /// byte, 5 (the piece code) for [`UnknownPiece`](Self::UnknownPiece)
    /// and [`NotDroppable`](Self::NotDroppable); `None` for
    /// [`Length`](Self::Length) (`len` says how long the text was).
    pub fn offset(&self) -> Option<usize> {
        match *self {
            ParseCsaMoveError::Length { .. } => None,
            ParseCsaMoveError::UnexpectedChar { offset, .. } => Some(offset),
            ParseCsaMoveError::UnknownPiece | ParseCsaMoveError::NotDroppable { .. } => Some(5),
        }
    }
}

impl CsaMove {
    /// Builds a move token; `from: None` is a drop, which must name an
    /// unpromoted non-king piece ([`ParseCsaMoveError::NotDroppable`]).
    pub fn new(
        color: Color,
        from: Option<Square>,
        to: Square,
        piece: PieceKind,
    ) -> Result<CsaMove, ParseCsaMoveError> {
        if from.is_none() && piece.hand_index().is_none() {
            return Err(ParseCsaMoveError::NotDroppable { kind: piece });
        }
        Ok(CsaMove {
            color,
            from,
            to,
            piece,
        })
    }

    /// The mover (`+` Black/sente, `-` White/gote).
    pub fn color(&self) -> Color {
        self.color
    }

    /// The origin square, `None` for a drop (`00`).
    pub fn from(&self) -> Option<Square> {
        self.from
    }

    /// The destination square.
    pub fn to(&self) -> Square {
        self.to
    }

    /// The piece after the move (`UM` for a bishop that promotes).
    pub fn piece(&self) -> PieceKind {
        self.piece
    }

    /// Parses exactly the 7 bytes of a token (`+7776FU`). No allocation.
    ///
    /// # Errors
    ///
    /// [`ParseCsaMoveError::Length`] unless the token is exactly 7 bytes;
    /// [`ParseCsaMoveError::UnexpectedChar`] with its 0-based byte (byte 0 a
    /// sign `+`/`-`, bytes 1-4 digits 1-9 or an origin `00`);
    /// [`ParseCsaMoveError::UnknownPiece`] for a code that is no piece (bytes
    /// 5-6); [`ParseCsaMoveError::NotDroppable`] for a drop of a promoted piece
    /// or a king.
    pub fn parse(bytes: &[u8]) -> Result<CsaMove, ParseCsaMoveError> {
        if bytes.len() != 7 {
            return Err(ParseCsaMoveError::Length { len: bytes.len() });
        }
        let bad = |i: usize, expected| ParseCsaMoveError::UnexpectedChar {
            offset: i,
            found: bytes[i] as char,
            expected,
        };
        let color = match bytes[0] {
            b'+' => Color::Black,
            b'-' => Color::White,
            _ => return Err(bad(0, "'+' or '-'")),
        };
        let from = match (bytes[1], bytes[2]) {
            (b'0', b'0') => None,
            (f @ b'1'..=b'9', r @ b'1'..=b'9') => Square::new(f - b'0', r - b'0'),
            (b'1'..=b'9' | b'0', _) => return Err(bad(2, "a rank digit 1-9 (or 00 for a drop)")),
            _ => return Err(bad(1, "a file digit 1-9 (or 00 for a drop)")),
        };
        let to = match (bytes[3], bytes[4]) {
            (f @ b'1'..=b'9', r @ b'1'..=b'9') => {
                Square::new(f - b'0', r - b'0').unwrap_or_default()
            }
            (b'1'..=b'9', _) => return Err(bad(4, "a rank digit 1-9")),
            _ => return Err(bad(3, "a file digit 1-9")),
        };
        let piece =
            PieceKind::from_csa([bytes[5], bytes[6]]).ok_or(ParseCsaMoveError::UnknownPiece)?;
        CsaMove::new(color, from, to, piece)
    }

    /// The 7 ASCII bytes of the token.
    pub fn to_bytes(&self) -> [u8; 7] {
        let mut out = [0u8; 7];
        out[0] = self.color.csa_sign() as u8;
        let from = self.from.map_or([b'0', b'0'], Square::csa_bytes);
        out[1..3].copy_from_slice(&from);
        out[3..5].copy_from_slice(&self.to.csa_bytes());
        out[5..7].copy_from_slice(self.piece.csa().as_bytes());
        out
    }
}

impl fmt::Display for CsaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.to_bytes();
        f.write_str(core::str::from_utf8(&b).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for CsaMove {
    type Err = ParseCsaMoveError;
    fn from_str(s: &str) -> Result<CsaMove, ParseCsaMoveError> {
        CsaMove::parse(s.as_bytes())
    }
}

impl Position {
    /// The board move or drop a CSA token stands for in this position,
    /// checked for legality (sign = side to move, piece named = the piece on
    /// the origin or its promotion, then the rules).
    ///
    /// # Errors
    ///
    /// [`IllegalReason`]: the sign is not the side to move's
    /// ([`IllegalReason::WrongSide`]), no piece or the opponent's on the
    /// origin, a piece named that is neither the one on the origin nor its
    /// promotion, a drop of a piece not in hand, or a move the rules refuse
    /// (see [`Position::check_move`]).
    pub fn move_from_csa(&self, csa: &CsaMove) -> Result<Move, IllegalReason> {
        if csa.color != self.side {
            return Err(IllegalReason::WrongSide { to_move: self.side });
        }
        let mv = match csa.from {
            None => {
                Move::drop(csa.piece, csa.to).ok_or(IllegalReason::NotInHand { kind: csa.piece })?
            }
            Some(from) => {
                let piece = self
                    .piece_at(from)
                    .ok_or(IllegalReason::NoPiece { square: from })?;
                if piece.color != self.side {
                    return Err(IllegalReason::OpponentPiece { square: from });
                }
                let promote = if piece.kind == csa.piece {
                    false
                } else if piece.kind.promoted() == Some(csa.piece) {
                    true
                } else if csa.piece.promoted() == Some(piece.kind) {
                    return Err(IllegalReason::Unpromotion { square: from });
                } else {
                    return Err(IllegalReason::PieceMismatch {
                        square: from,
                        on_board: piece.kind,
                        named: csa.piece,
                    });
                };
                Move::normal(from, csa.to, promote)
            }
        };
        self.check_move(mv)?;
        Ok(mv)
    }

    /// The CSA token of a legal move in this position.
    ///
    /// # Errors
    ///
    /// [`IllegalReason`] when `mv` is not legal here (see
    /// [`Position::check_move`]).
    pub fn move_to_csa(&self, mv: Move) -> Result<CsaMove, IllegalReason> {
        self.check_move(mv)?;
        let piece = match (mv.drop_kind(), mv.from()) {
            (Some(k), _) => k,
            (None, Some(from)) => {
                let k = self
                    .piece_at(from)
                    .ok_or(IllegalReason::NoPiece { square: from })?
                    .kind;
                if mv.is_promotion() {
                    k.promoted()
                        .ok_or(IllegalReason::CannotPromote { kind: k })?
                } else {
                    k
                }
            }
            (None, None) => return Err(IllegalReason::NoPiece { square: mv.to() }),
        };
        Ok(CsaMove {
            color: self.side,
            from: mv.from(),
            to: mv.to(),
            piece,
        })
    }

    /// Parses a 7-byte CSA move token and checks it against this position.
    ///
    /// # Errors
    ///
    /// [`MoveTextError::Syntax`] with the [`ParseCsaMoveError`] of
    /// [`CsaMove::parse`] (a 0-based byte in the token), or
    /// [`MoveTextError::Illegal`] with the reason of
    /// [`Position::move_from_csa`].
    pub fn parse_csa_move(&self, token: &[u8]) -> Result<Move, MoveTextError<ParseCsaMoveError>> {
        let csa = CsaMove::parse(token).map_err(MoveTextError::Syntax)?;
        self.move_from_csa(&csa).map_err(MoveTextError::Illegal)
    }

    /// Converts a USI move to CSA in this position (the move must be legal).
    ///
    /// # Errors
    ///
    /// As [`Position::parse_usi`]: [`MoveTextError::Syntax`] for text that is
    /// no USI move, [`MoveTextError::Illegal`] for a move not legal here.
    pub fn usi_to_csa(
        &self,
        usi: &str,
    ) -> Result<CsaMove, MoveTextError<super::ParseUsiMoveError>> {
        let mv = self.parse_usi(usi)?;
        self.move_to_csa(mv).map_err(MoveTextError::Illegal)
    }

    /// Converts a CSA token to the USI move in this position (the move must
    /// be legal). `Display` of the result prints USI.
    ///
    /// # Errors
    ///
    /// As [`Position::parse_csa_move`].
    pub fn csa_to_usi(&self, csa: &[u8]) -> Result<Move, MoveTextError<ParseCsaMoveError>> {
        self.parse_csa_move(csa)
    }

    /// The position in CSA position format: `P1`..`P9` rows (9 cells of
    /// 3 bytes, ` * ` for empty), `P+`/`P-` hand lines (omitted when empty;
    /// pieces in the alphabetical code order shogi-server writes), then the
    /// side line `+`/`-`. Every line ends with `\n`.
    ///
    /// ```
    /// use board_core::shogi::Position;
    /// let text = Position::startpos().csa().to_string();
    /// assert!(text.starts_with("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n"));
    /// assert!(text.ends_with("P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n"));
    /// ```
    pub fn csa(&self) -> CsaPosition<'_> {
        CsaPosition(self)
    }
}

/// Displays a [`Position`] in CSA position format (see [`Position::csa`]).
#[derive(Debug, Clone, Copy)]
pub struct CsaPosition<'a>(&'a Position);

/// Hand pieces in the order shogi-server writes them (alphabetical by code).
const HAND_WRITE_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,   // FU
    PieceKind::Silver, // GI
    PieceKind::Rook,   // HI
    PieceKind::Bishop, // KA
    PieceKind::Knight, // KE
    PieceKind::Gold,   // KI
    PieceKind::Lance,  // KY
];

impl fmt::Display for CsaPosition<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0;
        for rank in 1..=9u8 {
            write!(f, "P{rank}")?;
            for file in (1..=9u8).rev() {
                match Square::new(file, rank).and_then(|s| p.piece_at(s)) {
                    None => f.write_str(" * ")?,
                    Some(pc) => write!(f, "{}{}", pc.color.csa_sign(), pc.kind.csa())?,
                }
            }
            f.write_str("\n")?;
        }
        for color in Color::ALL {
            let hand = p.hand(color);
            if hand.is_empty() {
                continue;
            }
            write!(f, "P{}", color.csa_sign())?;
            for kind in HAND_WRITE_ORDER {
                for _ in 0..hand.count(kind) {
                    write!(f, "00{}", kind.csa())?;
                }
            }
            f.write_str("\n")?;
        }
        writeln!(f, "{}", p.side_to_move().csa_sign())
    }
}

// ---------------------------------------------------------------------------
// Position block reader.

/// What went wrong in a CSA position block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CsaPositionErrorKind {
    /// The line is not a position line (`P1`..`P9`, `PI`, `P+`, `P-`, `+`,
    /// `-`, or a `'` comment).
    #[error("not a position line")]
    UnknownLine,
    /// The same row `Pn` given twice.
    #[error("row given twice")]
    RowTwice,
    /// `PI` after rows or pieces were already placed, or rows after `PI`.
    #[error("PI and P1..P9 cannot be mixed, and PI must come first")]
    PiConflict,
    /// A row with more or fewer than 9 cells.
    #[error("row has {cells} cells, not 9")]
    CellCount {
        /// Cells found.
        cells: u8,
    },
    /// A byte that does not fit here.
    #[error("unexpected {found:?}, expected {expected}")]
    UnexpectedChar {
        /// What was there.
        found: char,
        /// What fits.
        expected: &'static str,
    },
    /// An unknown two-letter piece code.
    #[error("unknown piece code")]
    UnknownPiece,
    /// `PI` removal of a piece that is not on that square in the start position.
    #[error("no {kind} on {square} to remove")]
    PiMismatch {
        /// The square named.
        square: Square,
        /// The piece named.
        kind: PieceKind,
    },
    /// A piece placed on a square that is already occupied.
    #[error("{square} is already occupied")]
    SquareOccupied {
        /// The square.
        square: Square,
    },
    /// A promoted piece or a king put in hand (`00TO`, `00OU`).
    #[error("{kind} cannot be held in hand")]
    NotHandPiece {
        /// The piece.
        kind: PieceKind,
    },
    /// More pieces of a kind than a set has.
    #[error("too many pieces of kind {kind}")]
    TooManyPieces {
        /// The (unpromoted) kind.
        kind: PieceKind,
    },
    /// `AL` with a board square instead of `00`, or `AL` given twice.
    #[error("AL must be written 00AL, once")]
    BadAl,
    /// The text ended before the side line (`+`/`-`).
    #[error("missing side line (+ or -)")]
    MissingSideLine,
    /// A line after the side line completed the position.
    #[error("position already complete")]
    AfterSideLine,
    /// The position read is impossible (checked at the side line).
    #[error("impossible position: {0}")]
    Setup(SetupError),
}

/// An error in a CSA position block: which line (1-based count of lines
/// fed to the parser), which byte of that line (0-based offset), and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("CSA position line {line}, byte {offset}: {kind}")]
pub struct CsaPositionError {
    /// 1-based line number within what was fed.
    pub line: usize,
    /// 0-based byte offset within the line.
    pub offset: usize,
    /// What went wrong.
    pub kind: CsaPositionErrorKind,
}

/// Outcome of feeding one line to a [`CsaPositionParser`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)]
pub enum CsaPositionStatus {
    /// The line was taken; the block is not complete yet.
    NeedMore,
    /// The side line arrived: the validated position.
    Complete(Position),
}

/// An incremental, allocation-free reader for a CSA position block, fed
/// one line at a time (without or with its `\n`/`\r\n`).
///
/// Accepts (CSA kifu format V2.2 "局面", as used in `Game_Summary`):
/// - `PI` optionally followed by pieces to remove from the even-game start
///   (`PI82HI22KA`), or
/// - rows `P1`..`P9` (cells ` * ` or `+FU`/`-KY`...; runs of spaces between
///   cells are tolerated, as some server copies collapse them), then
/// - `P+`/`P-` lines of 4-byte items: `00FU` puts a piece in hand, `55KA`
///   places a piece on the board, `00AL` puts every remaining piece (not
///   on the board or in a hand, kings excluded) in that side's hand;
/// - the side line `+` or `-`, which completes the position.
///
/// Lines starting with `'` are comments and skipped. Anything else is an
/// error naming line and byte; after an error the parser may be fed on
/// (the bad line had no effect) or dropped.
///
/// ```
/// use board_core::shogi::{CsaPositionParser, CsaPositionStatus, Position};
/// let mut parser = CsaPositionParser::new();
/// assert_eq!(parser.feed_line(b"PI"), Ok(CsaPositionStatus::NeedMore));
/// assert_eq!(parser.feed_line(b"+\n"), Ok(CsaPositionStatus::Complete(Position::startpos())));
/// ```
#[derive(Debug, Clone)]
pub struct CsaPositionParser {
    setup: Setup,
    line: usize,
    rows_seen: u16,
    pi_seen: bool,
    placed: bool,
    al_seen: bool,
    done: bool,
}

impl Default for CsaPositionParser {
    fn default() -> Self {
        Self::new()
    }
}

/// `column` counts bytes from 1 (as the parser's arithmetic does); the
/// error holds the 0-based offset.
fn err(line: usize, column: usize, kind: CsaPositionErrorKind) -> CsaPositionError {
    CsaPositionError {
        line,
        offset: column.saturating_sub(1),
        kind,
    }
}

impl CsaPositionParser {
    /// A parser expecting the first line of a block (empty board, empty
    /// hands).
    pub fn new() -> Self {
        CsaPositionParser {
            setup: Setup::empty(),
            line: 0,
            rows_seen: 0,
            pi_seen: false,
            placed: false,
            al_seen: false,
            done: false,
        }
    }

    /// The number of lines fed so far.
    pub fn lines_fed(&self) -> usize {
        self.line
    }

    /// Feeds one line. Returns [`CsaPositionStatus::Complete`] with the
    /// validated position when the side line arrives.
    ///
    /// # Errors
    ///
    /// [`CsaPositionError`]: the 1-based line number (counting the lines fed),
    /// the 0-based byte in the line and a [`CsaPositionErrorKind`] — a line that
    /// is no position line, a row given twice or without 9 cells, an unknown
    /// piece, `PI` mixed with rows, a square placed twice, more pieces than a
    /// set has, a line after the side line, or an impossible position
    /// ([`CsaPositionErrorKind::Setup`]).
    pub fn feed_line(&mut self, line: &[u8]) -> Result<CsaPositionStatus, CsaPositionError> {
        self.line += 1;
        let n = self.line;
        let line = strip_eol(line);
        if self.done {
            return Err(err(n, 1, CsaPositionErrorKind::AfterSideLine));
        }
        match line {
            [b'\'', ..] => Ok(CsaPositionStatus::NeedMore),
            [b'+' | b'-', rest @ ..] => {
                if let Some(i) = rest.iter().position(|&b| b != b' ') {
                    return Err(err(
                        n,
                        i + 2,
                        CsaPositionErrorKind::UnexpectedChar {
                            found: rest[i] as char,
                            expected: "end of line after the side sign",
                        },
                    ));
                }
                let mut setup = self.setup;
                setup.side_to_move = if line[0] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                let pos = Position::from_setup(&setup)
                    .map_err(|e| err(n, 1, CsaPositionErrorKind::Setup(e)))?;
                self.done = true;
                Ok(CsaPositionStatus::Complete(pos))
            }
            [b'P', b'I', ..] => {
                if self.pi_seen || self.rows_seen != 0 || self.placed {
                    return Err(err(n, 1, CsaPositionErrorKind::PiConflict));
                }
                let mut setup = Setup::startpos();
                for (i, item) in line[2..].chunks(4).enumerate() {
                    let col = 3 + 4 * i;
                    if item.iter().all(|&b| b == b' ') {
                        break;
                    }
                    let (sq, kind) = item4(item, n, col)?;
                    let Some(sq) = sq else {
                        return Err(err(
                            n,
                            col,
                            CsaPositionErrorKind::UnexpectedChar {
                                found: '0',
                                expected: "a square 11-99",
                            },
                        ));
                    };
                    match setup.board[sq.index()] {
                        Some(p) if p.kind == kind => setup.board[sq.index()] = None,
                        _ => {
                            return Err(err(
                                n,
                                col,
                                CsaPositionErrorKind::PiMismatch { square: sq, kind },
                            ));
                        }
                    }
                }
                self.setup.board = setup.board;
                self.pi_seen = true;
                Ok(CsaPositionStatus::NeedMore)
            }
            [b'P', d @ b'1'..=b'9', rest @ ..] => {
                let rank = d - b'0';
                if self.pi_seen {
                    return Err(err(n, 1, CsaPositionErrorKind::PiConflict));
                }
                if self.rows_seen & 1 << rank != 0 {
                    return Err(err(n, 2, CsaPositionErrorKind::RowTwice));
                }
                let row = parse_row(rest, n)?;
                for (i, cell) in row.iter().enumerate() {
                    if let Some(sq) = Square::new(9 - i as u8, rank) {
                        self.setup.board[sq.index()] = *cell;
                    }
                }
                self.rows_seen |= 1 << rank;
                self.check_counts(n, 1)?;
                Ok(CsaPositionStatus::NeedMore)
            }
            [b'P', s @ (b'+' | b'-'), ..] => {
                let color = if *s == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                // Work on a copy: a bad line has no effect.
                let mut setup = self.setup;
                let mut al = self.al_seen;
                let mut placed = self.placed;
                for (i, item) in line[2..].chunks(4).enumerate() {
                    let col = 3 + 4 * i;
                    if item.iter().all(|&b| b == b' ') {
                        if line[2 + 4 * i..].iter().all(|&b| b == b' ') {
                            break;
                        }
                        return Err(err(
                            n,
                            col,
                            CsaPositionErrorKind::UnexpectedChar {
                                found: ' ',
                                expected: "a 4-byte item like 00FU",
                            },
                        ));
                    }
                    if item.len() == 4 && &item[2..] == b"AL" {
                        if al || &item[..2] != b"00" {
                            return Err(err(n, col, CsaPositionErrorKind::BadAl));
                        }
                        al = true;
                        for kind in PieceKind::HAND {
                            let used = setup.count(kind);
                            let rest = (kind.total_count() as u32).saturating_sub(used) as u8;
                            setup.hands[color.index()].add(kind, rest);
                        }
                        continue;
                    }
                    let (sq, kind) = item4(item, n, col)?;
                    match sq {
                        None => {
                            if kind.hand_index().is_none() {
                                return Err(err(
                                    n,
                                    col + 2,
                                    CsaPositionErrorKind::NotHandPiece { kind },
                                ));
                            }
                            if !setup.hands[color.index()].add(kind, 1) {
                                return Err(err(
                                    n,
                                    col,
                                    CsaPositionErrorKind::TooManyPieces { kind },
                                ));
                            }
                        }
                        Some(sq) => {
                            if setup.board[sq.index()].is_some() {
                                return Err(err(
                                    n,
                                    col,
                                    CsaPositionErrorKind::SquareOccupied { square: sq },
                                ));
                            }
                            setup.board[sq.index()] = Some(Piece::new(color, kind));
                            placed = true;
                        }
                    }
                    if let Some(kind) = over_count(&setup) {
                        return Err(err(n, col, CsaPositionErrorKind::TooManyPieces { kind }));
                    }
                }
                self.setup = setup;
                self.al_seen = al;
                self.placed = placed;
                Ok(CsaPositionStatus::NeedMore)
            }
            _ => Err(err(n, 1, CsaPositionErrorKind::UnknownLine)),
        }
    }

    fn check_counts(&self, line: usize, column: usize) -> Result<(), CsaPositionError> {
        match over_count(&self.setup) {
            Some(kind) => Err(err(
                line,
                column,
                CsaPositionErrorKind::TooManyPieces { kind },
            )),
            None => Ok(()),
        }
    }
}

fn over_count(setup: &Setup) -> Option<PieceKind> {
    for kind in PieceKind::HAND {
        if setup.count(kind) > kind.total_count() as u32 {
            return Some(kind);
        }
    }
    let kings = setup.count(PieceKind::King);
    if kings > 2 {
        return Some(PieceKind::King);
    }
    None
}

fn strip_eol(mut line: &[u8]) -> &[u8] {
    if let [rest @ .., b'\n'] = line {
        line = rest;
    }
    if let [rest @ .., b'\r'] = line {
        line = rest;
    }
    line
}

/// A 4-byte item `SSPP`: square (`00` = hand -> `None`) and piece code.
fn item4(
    item: &[u8],
    line: usize,
    col: usize,
) -> Result<(Option<Square>, PieceKind), CsaPositionError> {
    if item.len() != 4 {
        return Err(err(
            line,
            col + item.len(),
            CsaPositionErrorKind::UnexpectedChar {
                found: ' ',
                expected: "a 4-byte item like 00FU",
            },
        ));
    }
    let bad = |i: usize, expected| {
        err(
            line,
            col + i,
            CsaPositionErrorKind::UnexpectedChar {
                found: item[i] as char,
                expected,
            },
        )
    };
    let sq = match (item[0], item[1]) {
        (b'0', b'0') => None,
        (f @ b'1'..=b'9', r @ b'1'..=b'9') => Square::new(f - b'0', r - b'0'),
        (b'0'..=b'9', _) => return Err(bad(1, "a rank digit")),
        _ => return Err(bad(0, "a file digit (00 for the hand)")),
    };
    let kind = PieceKind::from_csa([item[2], item[3]]).ok_or(err(
        line,
        col + 2,
        CsaPositionErrorKind::UnknownPiece,
    ))?;
    Ok((sq, kind))
}

/// The 9 cells of a row (file 9 first), from the bytes after `Pn`.
fn parse_row(rest: &[u8], line: usize) -> Result<[Option<Piece>; 9], CsaPositionError> {
    let mut cells = [None; 9];
    let mut count = 0u8;
    let mut i = 0;
    while i < rest.len() {
        let col = i + 3;
        match rest[i] {
            b' ' => i += 1,
            b'*' => {
                if count == 9 {
                    return Err(err(
                        line,
                        col,
                        CsaPositionErrorKind::CellCount { cells: 10 },
                    ));
                }
                count += 1;
                i += 1;
            }
            s @ (b'+' | b'-') => {
                if count == 9 {
                    return Err(err(
                        line,
                        col,
                        CsaPositionErrorKind::CellCount { cells: 10 },
                    ));
                }
                let code = rest.get(i + 1..i + 3).ok_or(err(
                    line,
                    col + 1,
                    CsaPositionErrorKind::UnknownPiece,
                ))?;
                let kind = PieceKind::from_csa([code[0], code[1]]).ok_or(err(
                    line,
                    col + 1,
                    CsaPositionErrorKind::UnknownPiece,
                ))?;
                let color = if s == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                cells[count as usize] = Some(Piece::new(color, kind));
                count += 1;
                i += 3;
            }
            b => {
                return Err(err(
                    line,
                    col,
                    CsaPositionErrorKind::UnexpectedChar {
                        found: b as char,
                        expected: "' * ' or a signed piece like +FU",
                    },
                ));
            }
        }
    }
    if count != 9 {
        return Err(err(
            line,
            rest.len() + 3,
            CsaPositionErrorKind::CellCount { cells: count },
        ));
    }
    Ok(cells)
}

impl Position {
    /// Reads a whole CSA position block from text (lines separated by
    /// `\n`, optionally `\r\n`) with [`CsaPositionParser`]. Empty lines are
    /// skipped; the text must end with the side line (and optional empty
    /// lines); anything after it is [`CsaPositionErrorKind::AfterSideLine`].
    ///
    /// # Errors
    ///
    /// As [`CsaPositionParser::feed_line`], and
    /// [`CsaPositionErrorKind::MissingSideLine`] when the text ends before the
    /// side line.
    ///
    /// ```
    /// use board_core::shogi::Position;
    /// let p = Position::from_csa(b"PI82HI22KA\n-\n")?;
    /// assert_eq!(p.to_string(), "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
    /// # Ok::<(), board_core::shogi::CsaPositionError>(())
    /// ```
    pub fn from_csa(text: &[u8]) -> Result<Position, CsaPositionError> {
        let mut parser = CsaPositionParser::new();
        let mut result = None;
        for line in text.split(|&b| b == b'\n') {
            if strip_eol(line).is_empty() {
                parser.line += 1;
                continue;
            }
            if let CsaPositionStatus::Complete(p) = parser.feed_line(line)? {
                result = Some(p);
            }
        }
        result.ok_or(err(parser.line, 1, CsaPositionErrorKind::MissingSideLine))
    }
}
