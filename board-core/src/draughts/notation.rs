//! PDN move text: `32-28` (quiet), `28x19` (capture, short form) and
//! `11x18x25` (capture with every landing square).
//!
//! Parsing is two steps, so syntax and legality errors stay apart:
//! [`PdnMove::from_str`] checks the text alone ([`ParseMoveError`]);
//! [`Position::resolve_move`] finds the legal move it names
//! ([`IllegalMoveError`]). [`Position::parse_move`] does both.
//! [`Position::move_text`] writes a move back: the short form when no other
//! legal move has the same origin and destination, the landing-square form
//! otherwise (a [`Move`] stores only its captured set, so the path is
//! reconstructed with [`Position::capture_path`]).

use core::fmt;
use core::str::FromStr;

use super::Position;
use super::bitboard::{BOARD, RAYS, nearest, slide, step};
use super::types::{Color, Move, PieceKind, Square};

/// Most squares a move text or capture path holds: the origin and one
/// landing square per captured piece. With at most 50 pieces on the board a
/// piece captures at most 49, so 50 squares always suffice; 51 is the cap.
pub const MAX_PATH: usize = 51;

/// A move text that is not well-formed PDN.
///
/// Every variant but [`Empty`](ParseMoveError::Empty) carries `offset`, the
/// 0-based byte offset into the text given to [`PdnMove::from_str`]
/// (leading whitespace counted); [`ParseMoveError::offset`] reads it from
/// any variant, and `Display` says "at byte N".
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The text is empty.
    #[error("PDN move: empty text")]
    Empty,
    /// A square number was expected.
    #[error("PDN move at byte {offset}: expected a square number")]
    ExpectedSquare {
        /// Byte offset.
        offset: usize,
    },
    /// A square number outside 1..=50.
    #[error("PDN move at byte {offset}: square {number} out of range 1..=50")]
    SquareOutOfRange {
        /// The number as written (saturated at 65535).
        number: u16,
        /// Byte offset of the number.
        offset: usize,
    },
    /// Something other than `-` or `x` after a square, or a separator that
    /// differs from the first one (`32-28x19`).
    #[error("PDN move at byte {offset}: expected '-' or 'x'")]
    InvalidSeparator {
        /// Byte offset.
        offset: usize,
    },
    /// Only one square.
    #[error("PDN move at byte {offset}: only one square (expected '-' or 'x' and a destination)")]
    MissingDestination {
        /// Byte offset of the end of the text (trailing whitespace
        /// excluded), where a separator was expected.
        offset: usize,
    },
    /// A quiet move (`-`) with more than two squares.
    #[error("PDN move at byte {offset}: quiet move with more than two squares")]
    QuietMoveTooLong {
        /// Byte offset of the third square.
        offset: usize,
    },
    /// More than [`MAX_PATH`] squares.
    #[error("PDN move at byte {offset}: more than {} squares", MAX_PATH)]
    TooManySquares {
        /// Byte offset of the first square past the limit.
        offset: usize,
    },
}

impl ParseMoveError {
    /// The 0-based byte offset of the problem in the text, `None` for
    /// [`Empty`](ParseMoveError::Empty).
    pub fn offset(&self) -> Option<usize> {
        match *self {
            ParseMoveError::Empty => None,
            ParseMoveError::ExpectedSquare { offset }
            | ParseMoveError::SquareOutOfRange { offset, .. }
            | ParseMoveError::InvalidSeparator { offset }
            | ParseMoveError::MissingDestination { offset }
            | ParseMoveError::QuietMoveTooLong { offset }
            | ParseMoveError::TooManySquares { offset } => Some(offset),
        }
    }
}

/// A syntactically valid PDN move text: a quiet move or a capture with two
/// or more squares. Parse with [`FromStr`]; resolve against a position with
/// [`Position::resolve_move`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PdnMove {
    /// The listed squares.
    path: CapturePath,
    capture: bool,
}

impl PdnMove {
    /// The listed squares: origin, landing squares (long form), destination.
    pub fn squares(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.path.squares()
    }

    /// The origin square.
    pub fn from(&self) -> Square {
        Square::from_bit(self.path.squares[0] as u32)
    }

    /// The destination square.
    pub fn to(&self) -> Square {
        Square::from_bit(self.path.squares[(self.path.len as usize).saturating_sub(1)] as u32)
    }

    /// Whether the text is a capture (`x`).
    pub fn is_capture(&self) -> bool {
        self.capture
    }

    /// The move text of `squares` (2..=[`MAX_PATH`] of them; a quiet move
    /// exactly 2), a capture when `capture`; `None` for any other length.
    #[cfg(feature = "arbitrary")]
    pub(crate) fn from_squares(squares: &[Square], capture: bool) -> Option<PdnMove> {
        if squares.len() < 2 || squares.len() > MAX_PATH || (!capture && squares.len() != 2) {
            return None;
        }
        let mut mv = PdnMove {
            path: CapturePath::EMPTY,
            capture,
        };
        for sq in squares {
            mv.path.push(sq.bit());
        }
        Some(mv)
    }
}

impl fmt::Debug for PdnMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PdnMove(\"{self}\")")
    }
}

impl fmt::Display for PdnMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.path.write(f, self.capture)
    }
}

/// The span of `bytes` without leading and trailing ASCII whitespace, as
/// (start, end) byte offsets; `None` when nothing else is there. The PDN
/// move and FEN readers report offsets into the untrimmed text.
pub(super) fn trimmed(bytes: &[u8]) -> Option<(usize, usize)> {
    let start = bytes.iter().position(|c| !c.is_ascii_whitespace())?;
    let end = bytes.iter().rposition(|c| !c.is_ascii_whitespace())?;
    Some((start, end + 1))
}

impl FromStr for PdnMove {
    type Err = ParseMoveError;

    /// `32-28`, `28x19`, `11x18x25`. Surrounding ASCII whitespace is
    /// ignored.
    fn from_str(text: &str) -> Result<PdnMove, ParseMoveError> {
        let bytes = text.as_bytes();
        let (start, end) = trimmed(bytes).ok_or(ParseMoveError::Empty)?;
        let s = &bytes[..end];
        let mut i = start;
        let mut mv = PdnMove {
            path: CapturePath::EMPTY,
            capture: false,
        };
        let mut sep: Option<u8> = None;
        loop {
            let offset = i;
            let mut n: u16 = 0;
            while let Some(c @ b'0'..=b'9') = s.get(i).copied() {
                n = n.saturating_mul(10).saturating_add((c - b'0') as u16);
                i += 1;
            }
            if i == offset {
                return Err(ParseMoveError::ExpectedSquare { offset });
            }
            let square = u8::try_from(n)
                .ok()
                .and_then(Square::new)
                .ok_or(ParseMoveError::SquareOutOfRange { number: n, offset })?;
            if mv.path.len as usize == MAX_PATH {
                return Err(ParseMoveError::TooManySquares { offset });
            }
            if sep == Some(b'-') && mv.path.len == 2 {
                return Err(ParseMoveError::QuietMoveTooLong { offset });
            }
            mv.path.push(square.bit());
            match s.get(i).copied() {
                None => break,
                Some(c @ (b'-' | b'x' | b'X')) => {
                    let c = if c == b'X' { b'x' } else { c };
                    if sep.is_some_and(|s| s != c) {
                        return Err(ParseMoveError::InvalidSeparator { offset: i });
                    }
                    sep = Some(c);
                    i += 1;
                }
                Some(_) => return Err(ParseMoveError::InvalidSeparator { offset: i }),
            }
        }
        if mv.path.len < 2 {
            return Err(ParseMoveError::MissingDestination { offset: end });
        }
        mv.capture = sep == Some(b'x');
        Ok(mv)
    }
}

/// How many candidates an [`IllegalMoveError::Ambiguous`] error carries.
pub const AMBIGUOUS_SHOWN: usize = 4;

/// A well-formed PDN move text that is not a legal move here, and why: it
/// names no legal move, or (a short-form capture) more than one. Each
/// variant carries the squares as written.
///
/// `IllegalMoveError` means this in every game that has one (chess: UCI
/// text, [`chess::IllegalMoveError`](crate::chess::IllegalMoveError), a
/// struct of the text and its reason). Why a [`Move`] value is illegal is
/// [`IllegalReason`](super::IllegalReason); the reasons differ because
/// PDN text does not say everything a [`Move`] holds (a short capture
/// names no captured pieces), so one text can fit several moves or fail
/// along a written path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IllegalMoveError {
    /// No legal move goes from `from` to `to` (of the kind written: quiet
    /// or capture).
    #[error("no legal {} from {from} to {to}", if *.capture { "capture" } else { "move" })]
    NoSuchMove {
        /// Origin square as written.
        from: Square,
        /// Destination as written.
        to: Square,
        /// Whether the text was a capture.
        capture: bool,
    },
    /// A quiet move was written but capturing is compulsory here.
    /// `Display` adds `(write it 26x37)` when one legal capture goes from
    /// `from` to `to` (the text wrote it with `-`); when several do, the
    /// error is [`IllegalMoveError::Ambiguous`] instead, which lists them.
    #[error("{from}-{to}: a capture is compulsory{}", CaptureHint(*.from, *.to, *.capture_here))]
    CaptureRequired {
        /// Origin square as written.
        from: Square,
        /// Destination as written.
        to: Square,
        /// Whether a legal capture goes from `from` to `to`.
        capture_here: bool,
    },
    /// The landing squares of a long-form capture are not a capture path
    /// here, or the path takes fewer pieces than the majority rule demands.
    #[error("{from}x...x{to}: no legal capture along these landing squares (step {step})")]
    NoSuchPath {
        /// Origin square as written.
        from: Square,
        /// Destination as written.
        to: Square,
        /// Index (1-based) of the first jump that fails, or 0 if the path
        /// is valid but not a legal (maximal) capture.
        step: u8,
    },
    /// A short-form capture matching several legal moves (same origin and
    /// destination, different captured pieces).
    #[error("{}", Ambiguity(self))]
    Ambiguous {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// The number of candidate moves.
        count: usize,
        /// The first `min(count, AMBIGUOUS_SHOWN)` candidates.
        candidates: [Move; AMBIGUOUS_SHOWN],
    },
}

/// ` (write it 26x37)` after [`IllegalMoveError::CaptureRequired`] when
/// that capture is legal (also used by [`super::IllegalReason`]).
pub(super) struct CaptureHint(pub(super) Square, pub(super) Square, pub(super) bool);

impl fmt::Display for CaptureHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaptureHint(from, to, true) => write!(f, " (write it {from}x{to})"),
            _ => Ok(()),
        }
    }
}

struct Ambiguity<'a>(&'a IllegalMoveError);

impl fmt::Display for Ambiguity<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let IllegalMoveError::Ambiguous {
            from,
            to,
            count,
            candidates,
        } = self.0
        {
            write!(
                f,
                "ambiguous capture {from}x{to}: {count} legal moves, capturing"
            )?;
            for (i, c) in candidates.iter().take(*count).enumerate() {
                f.write_str(if i == 0 { " " } else { " or " })?;
                for (j, s) in c.captures().iter().enumerate() {
                    write!(f, "{}{s}", if j == 0 { "" } else { "," })?;
                }
            }
            if *count > AMBIGUOUS_SHOWN {
                write!(f, " and {} more", count - AMBIGUOUS_SHOWN)?;
            }
            f.write_str("; write every landing square")?;
        }
        Ok(())
    }
}

/// Either error of [`Position::parse_move`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// The text is not well-formed.
    #[error(transparent)]
    Syntax(#[from] ParseMoveError),
    /// The text names no legal move (or several).
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
}

/// A capture path: the origin, every landing square, the destination last.
/// A quiet move's path is its origin and destination.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CapturePath {
    squares: [u8; MAX_PATH],
    len: u8,
}

impl CapturePath {
    /// No square yet.
    const EMPTY: CapturePath = CapturePath {
        squares: [0; MAX_PATH],
        len: 0,
    };

    /// The squares in order: origin, landing squares, destination.
    pub fn squares(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.squares[..self.len as usize]
            .iter()
            .map(|&b| Square::from_bit(b as u32))
    }

    fn push(&mut self, bit: u32) {
        if let Some(slot) = self.squares.get_mut(self.len as usize) {
            *slot = bit as u8;
            self.len += 1;
        }
    }

    /// The squares as PDN writes them: separated by `x` for a capture, `-`
    /// for a quiet move.
    fn write(&self, f: &mut fmt::Formatter<'_>, capture: bool) -> fmt::Result {
        let sep = if capture { "x" } else { "-" };
        for (i, s) in self.squares().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CapturePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.squares().map(Square::number))
            .finish()
    }
}

/// A move written in PDN, as [`Position::move_text`] chooses: `32-28`,
/// `28x19`, or `11x18x25` when the short form would be ambiguous.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MoveText {
    path: CapturePath,
    capture: bool,
}

impl MoveText {
    /// Whether the long (landing-square) form is used.
    pub fn is_long_form(&self) -> bool {
        self.path.len > 2
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.path.write(f, self.capture)
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MoveText(\"{self}\")")
    }
}

struct PathSearch {
    target: Move,
    opp: u64,
    empty: u64,
    king: bool,
    path: CapturePath,
}

impl PathSearch {
    /// Depth-first search for a path from `cur` that captures exactly the
    /// target set and ends on the target square; `self.path` holds it.
    fn search(&mut self, cur: u32, captured: u64) -> bool {
        if captured == self.target.caps() {
            return cur == self.target.dest_bit();
        }
        let alive = self.opp & self.target.caps() & !captured;
        for (d, rays) in RAYS.iter().enumerate() {
            let (p, landings) = if self.king {
                let occ = rays[cur as usize] & !self.empty;
                if occ == 0 {
                    continue;
                }
                let p = nearest(d, occ);
                (p, slide(d, p, self.empty))
            } else {
                let over = step(d, 1u64 << cur);
                if over & BOARD == 0 {
                    continue;
                }
                let p = over.trailing_zeros();
                (p, step(d, over) & self.empty)
            };
            if (1u64 << p) & alive == 0 {
                continue;
            }
            let mut rest = landings;
            while rest != 0 {
                let l = rest.trailing_zeros();
                rest &= rest - 1;
                let len = self.path.len;
                self.path.push(l);
                if self.search(l, captured | 1u64 << p) {
                    return true;
                }
                self.path.len = len;
            }
        }
        false
    }
}

impl Position {
    /// One capture path of `mv` (origin, landing squares, destination), or
    /// `None` if the piece on `mv.from()` cannot capture exactly
    /// `mv.captures()` ending on `mv.to()` here. For a quiet move: origin
    /// and destination. When several paths exist, the first found in
    /// direction order is returned.
    pub fn capture_path(&self, mv: Move) -> Option<CapturePath> {
        let from = 1u64 << mv.origin_bit();
        let (own, opp) = match self.side {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        };
        if own & from == 0 {
            return None;
        }
        let mut path = CapturePath::EMPTY;
        path.push(mv.origin_bit());
        if !mv.is_capture() {
            path.push(mv.dest_bit());
            return Some(path);
        }
        if mv.caps() & !opp != 0 {
            return None;
        }
        let mut search = PathSearch {
            target: mv,
            opp,
            empty: (BOARD & !(self.white | self.black)) | from,
            king: self.kings & from != 0,
            path,
        };
        search.search(mv.origin_bit(), 0).then_some(search.path)
    }

    /// `mv` in PDN: `32-28`; `28x19` when no other legal move has the same
    /// origin and destination; otherwise every landing square, `11x18x25`.
    /// `mv` should be legal here; for a move that is not, the short form is
    /// written.
    pub fn move_text(&self, mv: Move) -> MoveText {
        let mut short = CapturePath::EMPTY;
        short.push(mv.origin_bit());
        short.push(mv.dest_bit());
        let capture = mv.is_capture();
        if capture {
            let ambiguous = match self.try_legal_moves() {
                Ok(list) => list.iter().any(|m| {
                    m.origin_bit() == mv.origin_bit()
                        && m.dest_bit() == mv.dest_bit()
                        && m.caps() != mv.caps()
                }),
                Err(_) => true,
            };
            if ambiguous && let Some(path) = self.capture_path(mv) {
                return MoveText { path, capture };
            }
        }
        MoveText {
            path: short,
            capture,
        }
    }

    /// Parses and resolves PDN move text against this position.
    ///
    /// ```
    /// use board_core::draughts::Position;
    /// let pos: Position = "W:W28:B23,14".parse().unwrap();
    /// assert_eq!(pos.parse_move("28x10").unwrap().captures().len(), 2);
    /// assert!(pos.parse_move("28-22").is_err()); // capture is compulsory
    /// ```
    ///
    /// # Errors
    /// [`MoveTextError::Syntax`] for malformed text,
    /// [`MoveTextError::Illegal`] when it names no legal move or several.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveTextError> {
        let pdn: PdnMove = text.parse()?;
        Ok(self.resolve_move(&pdn)?)
    }

    /// The legal move that `pdn` names here.
    ///
    /// # Errors
    /// See [`IllegalMoveError`]: no such move, a quiet move while a capture
    /// is compulsory, a long form whose landing squares are not a legal
    /// capture path, or an ambiguous short form (the candidates are listed).
    pub fn resolve_move(&self, pdn: &PdnMove) -> Result<Move, IllegalMoveError> {
        let from = pdn.from();
        let to = pdn.to();
        let no_such = IllegalMoveError::NoSuchMove {
            from,
            to,
            capture: pdn.capture,
        };
        let list = self.try_legal_moves().map_err(|_| no_such)?;
        if !pdn.capture {
            let mv = Move::from_bits(from.bit(), to.bit(), 0);
            if list.contains(&mv) {
                return Ok(mv);
            }
            if !self.must_capture() {
                return Err(no_such);
            }
            let here = list
                .iter()
                .filter(|m| m.origin_bit() == from.bit() && m.dest_bit() == to.bit())
                .count();
            // Two or more captures from `from` to `to`: `fromxto` would be
            // ambiguous too, so the error lists them (below) instead of
            // hinting at the short form.
            if here < 2 {
                return Err(IllegalMoveError::CaptureRequired {
                    from,
                    to,
                    capture_here: here == 1,
                });
            }
        } else if pdn.path.len > 2 {
            return self.resolve_path(pdn, &list);
        }
        let mut count = 0;
        let mut candidates = [Move::default(); AMBIGUOUS_SHOWN];
        for m in list
            .iter()
            .filter(|m| m.origin_bit() == from.bit() && m.dest_bit() == to.bit() && m.is_capture())
        {
            if let Some(slot) = candidates.get_mut(count) {
                *slot = *m;
            }
            count += 1;
        }
        match count {
            0 => Err(no_such),
            1 => Ok(candidates[0]),
            _ => Err(IllegalMoveError::Ambiguous {
                from,
                to,
                count,
                candidates,
            }),
        }
    }

    fn resolve_path(
        &self,
        pdn: &PdnMove,
        list: &super::MoveList,
    ) -> Result<Move, IllegalMoveError> {
        let from = pdn.from();
        let to = pdn.to();
        let fb = 1u64 << from.bit();
        let (own, opp) = match self.side {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        };
        let fail = |step: usize| IllegalMoveError::NoSuchPath {
            from,
            to,
            step: step as u8,
        };
        if own & fb == 0 {
            return Err(fail(1));
        }
        let king = self
            .piece_at(from)
            .is_some_and(|p| p.kind == PieceKind::King);
        let empty = (BOARD & !(self.white | self.black)) | fb;
        let mut captured = 0u64;
        let mut cur = from.bit();
        for (i, next) in pdn.squares().skip(1).enumerate() {
            let nb = next.bit();
            let Some(d) = (0..4).find(|&d| RAYS[d][cur as usize] >> nb & 1 == 1) else {
                return Err(fail(i + 1));
            };
            // Squares strictly between cur and next.
            let between = RAYS[d][cur as usize] & !RAYS[d][nb as usize] & !(1u64 << nb);
            let occupied = between & !empty;
            let ok = occupied.count_ones() == 1
                && occupied & opp & !captured != 0
                && (1u64 << nb) & empty != 0
                && (king || between.count_ones() == 1);
            if !ok {
                return Err(fail(i + 1));
            }
            captured |= occupied;
            cur = nb;
        }
        let mv = Move::from_bits(from.bit(), to.bit(), captured);
        if list.contains(&mv) {
            Ok(mv)
        } else {
            Err(fail(0))
        }
    }
}
