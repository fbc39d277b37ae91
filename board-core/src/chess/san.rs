//! Standard algebraic notation (SAN): `Nf3`, `exd5`, `O-O`, `e8=Q+`
//! (FIDE Laws of Chess, Appendix C, "Algebraic notation").
//!
//! Reading ([`Position::parse_san`]) and writing ([`Position::san`]) work
//! against a position, with no heap allocation.
//!
//! ## Writing
//!
//! Canonical, as python-chess's `Board.san` writes it: the piece letter
//! (`K Q R B N`, none for pawns), then the least disambiguation that names
//! one piece (the file of the departure square when that is enough, else
//! its rank, else the whole square), `x` for a capture (en passant too;
//! a pawn capture starts with the pawn's file), the destination square,
//! `=Q`/`=R`/`=B`/`=N` for a promotion, `O-O`/`O-O-O` for castling, and
//! `#` when the move mates or `+` when it checks. At most 7 bytes, suffix
//! included (`Qa1xb2+`, `exd8=Q#`).
//!
//! ## Reading
//!
//! The grammar python-chess 1.11's `Board.parse_san` accepts, plus
//! annotation marks:
//!
//! ```text
//! san      = ( castle | piece-move ) [ "+" | "#" ] [ annotation ]
//! castle   = "O-O" | "O-O-O" | "0-0" | "0-0-0"
//! piece-move = [ K|Q|R|B|N ] [ file ] [ rank ] [ "x" | "-" ] file rank [ [ "=" ] promo ]
//! promo    = Q|R|B|N|K|q|r|b|n|k
//! annotation = "!" | "?" | "!!" | "??" | "!?" | "?!"
//! ```
//!
//! Lenient forms accepted (as python-chess does; annotations are our
//! addition): the `+`/`#` suffix is not checked against the position
//! (`Nf3+` when it gives no check), needless disambiguation (`Ngf3`,
//! `Ng1f3`), a missing or extra `x` (`Nf3` for `Nxf3`, `Nxf3` onto an
//! empty square), `-` instead of `x` (`Ng1-f3`), a promotion without `=`
//! or in lower case (`e8Q`, `e8=q`), the digit zero in castling (`0-0`),
//! and a pawn move or any move written with its whole departure square and
//! no piece letter (long algebraic or UCI-like: `e2e4`, `g1f3`, `e1g1`;
//! `e1h1` too, the king taking its own rook, read as castling when a king
//! stands on e1/e8). A piece letter never denotes castling (`Kg1` is not
//! `O-O`), and a pawn capture needs its file (`xd5` names a pawn on the d
//! file). Piece letters are upper case only (`b` is a file), `P` for a
//! pawn and the null move (`--`) are not accepted.
//!
//! Errors ([`SanError`]) give a 0-based byte offset: the offending byte for
//! a syntax problem, 0 (the whole move) for a legality problem.

use core::fmt;

use super::bitboard::Bitboard;
use super::legality::{CastlingProblem, kind_name};
use super::position::Position;
use super::types::{CastlingSide, File, Move, MoveKind, PieceKind, Rank, Square};

/// A move written in SAN (see the [module docs](self)): a small `Copy`
/// value of at most 7 ASCII bytes, printed by `Display`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct San {
    buf: [u8; 8],
    len: u8,
}

impl San {
    const fn new() -> San {
        San {
            buf: [0; 8],
            len: 0,
        }
    }

    fn push(&mut self, b: u8) {
        // At most 7 bytes are ever pushed (see `Position::san`); guard anyway.
        if let Some(slot) = self.buf.get_mut(self.len as usize) {
            *slot = b;
            self.len += 1;
        }
    }

    fn push_str(&mut self, s: &str) {
        for &b in s.as_bytes() {
            self.push(b);
        }
    }

    /// The text, ASCII, 2..=7 bytes.
    pub fn as_str(&self) -> &str {
        // Only ASCII bytes are ever pushed.
        core::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "San({})", self.as_str())
    }
}

impl PartialEq<str> for San {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for San {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// What is wrong with a SAN move (see [`SanError`]). The first five are
/// syntax problems, the others legality problems in the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SanProblem {
    /// The text is empty (or only a suffix or annotation).
    Empty,
    /// A destination square (file `a`..=`h` then rank `1`..=`8`) was
    /// expected here.
    ExpectedSquare,
    /// A byte that fits nowhere in the grammar.
    UnexpectedCharacter,
    /// A promotion piece (`Q R B N`, also lower case; `K` is read but
    /// never legal) was expected after `=`.
    ExpectedPromotion,
    /// Characters after a complete move (and its suffix and annotation).
    Trailing,
    /// No legal move matches; printed `no legal move matches: {reason}`.
    Illegal {
        /// Why no piece of the side to move can make the move.
        reason: SanIllegal,
    },
    /// More than one legal move matches; more disambiguation is needed.
    /// Printed `ambiguous: knights on b8 and f6 can reach d7`.
    Ambiguous {
        /// The kind of the pieces that can move (never a pawn).
        kind: PieceKind,
        /// The destination.
        to: Square,
        /// The squares of the pieces that can make the move (two or more).
        from: Bitboard,
    },
    /// A pawn move to the last rank written without its promotion piece.
    MissingPromotion,
    /// `O-O`/`O-O-O` when that castling is not legal here; printed
    /// `castling is not legal here ({side}): {problem}`.
    IllegalCastling {
        /// Which castling.
        side: CastlingSide,
        /// Why not.
        problem: CastlingProblem,
    },
}

/// Why a SAN move that parses names no legal move
/// ([`SanProblem::Illegal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SanIllegal {
    /// No piece of this kind (on the departure file or rank given, a pawn
    /// on its file) moves to `to` by the movement rules, whatever the
    /// king's safety: `no knight can reach f3`.
    Unreachable {
        /// The kind named (a pawn when no letter).
        kind: PieceKind,
        /// The destination.
        to: Square,
    },
    /// The whole departure square was given and no piece of the side to
    /// move stands there: `no piece of the side to move on e3`.
    NoPiece {
        /// The departure square given.
        square: Square,
    },
    /// A piece of this kind on `from` moves to `to` by the movement rules
    /// but it is pinned to its king: `the pinned knight on d2 cannot move
    /// to f3`.
    Pinned {
        /// The kind.
        kind: PieceKind,
        /// The pinned piece's square (the first such piece, a1..h8 order).
        from: Square,
        /// The destination.
        to: Square,
    },
    /// A piece of this kind on `from` moves to `to` by the movement rules
    /// but the king would be in check after it (the king moving into
    /// check, or a move that does not answer a check).
    KingInCheck {
        /// The kind.
        kind: PieceKind,
        /// The piece's square (the first such piece, a1..h8 order).
        from: Square,
        /// The destination.
        to: Square,
    },
    /// A promotion piece on a move that does not promote (`e4=Q`, `Nf3=Q`).
    NotAPromotion,
    /// A promotion to a king (`e8=K`), which the rules do not allow.
    PromotionToKing,
}

impl fmt::Display for SanIllegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SanIllegal::Unreachable { kind, to } => {
                write!(f, "no {} can reach {to}", kind_name(kind))
            }
            SanIllegal::NoPiece { square } => {
                write!(f, "no piece of the side to move on {square}")
            }
            SanIllegal::Pinned { kind, from, to } => {
                write!(
                    f,
                    "the pinned {} on {from} cannot move to {to}",
                    kind_name(kind)
                )
            }
            SanIllegal::KingInCheck {
                kind: PieceKind::King,
                from,
                to,
            } => write!(f, "the king on {from} would be in check on {to}"),
            SanIllegal::KingInCheck { kind, from, to } => write!(
                f,
                "the {} on {from} cannot move to {to}: the king would be in check",
                kind_name(kind)
            ),
            SanIllegal::NotAPromotion => {
                f.write_str("a promotion piece on a move that does not promote")
            }
            SanIllegal::PromotionToKing => f.write_str("a pawn cannot promote to a king"),
        }
    }
}

impl fmt::Display for SanProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SanProblem::Empty => f.write_str("empty move"),
            SanProblem::ExpectedSquare => f.write_str("expected a square"),
            SanProblem::UnexpectedCharacter => f.write_str("unexpected character"),
            SanProblem::ExpectedPromotion => f.write_str("expected a promotion piece Q, R, B or N"),
            SanProblem::Trailing => f.write_str("trailing characters"),
            SanProblem::Illegal { reason } => write!(f, "no legal move matches: {reason}"),
            SanProblem::Ambiguous { kind, to, from } => {
                write!(f, "ambiguous: {}s on ", kind_name(kind))?;
                let n = from.count();
                for (i, sq) in from.into_iter().enumerate() {
                    let sep = match i {
                        0 => "",
                        _ if i + 1 == n as usize => " and ",
                        _ => ", ",
                    };
                    write!(f, "{sep}{sq}")?;
                }
                write!(f, " can reach {to}")
            }
            SanProblem::MissingPromotion => f.write_str("missing promotion piece"),
            SanProblem::IllegalCastling { side, problem } => {
                write!(f, "castling is not legal here ({side}): {problem}")
            }
        }
    }
}

impl core::error::Error for SanProblem {}

impl SanProblem {
    /// `true` for the syntax problems (the text is not SAN at all), `false`
    /// when the text is SAN but denotes no single legal move here.
    pub const fn is_syntax(self) -> bool {
        matches!(
            self,
            SanProblem::Empty
                | SanProblem::ExpectedSquare
                | SanProblem::UnexpectedCharacter
                | SanProblem::ExpectedPromotion
                | SanProblem::Trailing
        )
    }
}

/// [`Position::parse_san`] failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid SAN move at byte {offset}: {problem}")]
pub struct SanError {
    /// 0-based byte offset of the offending byte for syntax problems (the
    /// text's length when it ends too early); 0 for legality problems.
    pub offset: usize,
    /// What is wrong.
    pub problem: SanProblem,
}

/// A parsed, not yet resolved, piece move.
struct Parsed {
    kind: Option<PieceKind>,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<PieceKind>,
}

fn err(offset: usize, problem: SanProblem) -> SanError {
    SanError { offset, problem }
}

fn file_at(b: &[u8], i: usize) -> Option<File> {
    b.get(i).and_then(|&c| File::from_char(c as char))
}

fn rank_at(b: &[u8], i: usize) -> Option<Rank> {
    b.get(i).and_then(|&c| Rank::from_char(c as char))
}

/// Length of the body once a trailing annotation and then one `+`/`#` are
/// removed.
fn body_len(b: &[u8]) -> usize {
    let mut end = b.len();
    let mut marks = 0;
    while marks < 2 && end > 0 && matches!(b[end - 1], b'!' | b'?') {
        end -= 1;
        marks += 1;
    }
    if end > 0 && matches!(b[end - 1], b'+' | b'#') {
        end -= 1;
    }
    end
}

/// Parses the piece-move grammar of the module docs on `b` (the body
/// without suffix and annotation).
fn parse_piece_move(b: &[u8]) -> Result<Parsed, SanError> {
    let mut i = 0;
    let kind = match b.first() {
        Some(b'K') => Some(PieceKind::King),
        Some(b'Q') => Some(PieceKind::Queen),
        Some(b'R') => Some(PieceKind::Rook),
        Some(b'B') => Some(PieceKind::Bishop),
        Some(b'N') => Some(PieceKind::Knight),
        _ => None,
    };
    if kind.is_some() {
        i += 1;
    }
    let mut file = file_at(b, i);
    if file.is_some() {
        i += 1;
    }
    let mut rank = rank_at(b, i);
    if rank.is_some() {
        i += 1;
    }
    let sep = matches!(b.get(i), Some(b'x' | b'-'));
    if sep {
        i += 1;
    }
    let to = match (file_at(b, i), rank_at(b, i + 1)) {
        (Some(f), Some(r)) => {
            i += 2;
            Square::from_coords(f, r)
        }
        // What was read as disambiguation was the destination.
        _ if !sep && file.is_some() && rank.is_some() => {
            let (Some(f), Some(r)) = (file.take(), rank.take()) else {
                return Err(err(i, SanProblem::ExpectedSquare));
            };
            Square::from_coords(f, r)
        }
        (Some(_), None) => {
            let problem = if b.len() <= i + 1 {
                SanProblem::ExpectedSquare
            } else {
                SanProblem::UnexpectedCharacter
            };
            return Err(err(i + 1, problem));
        }
        (None, _) => {
            let problem = if i >= b.len() || b[i].is_ascii_digit() || b[i].is_ascii_lowercase() {
                SanProblem::ExpectedSquare
            } else {
                SanProblem::UnexpectedCharacter
            };
            return Err(err(i, problem));
        }
    };
    let eq = b.get(i) == Some(&b'=');
    if eq {
        i += 1;
    }
    let promotion = match b.get(i) {
        Some(b'Q' | b'q') => Some(PieceKind::Queen),
        Some(b'R' | b'r') => Some(PieceKind::Rook),
        Some(b'B' | b'b') => Some(PieceKind::Bishop),
        Some(b'N' | b'n') => Some(PieceKind::Knight),
        Some(b'K' | b'k') => Some(PieceKind::King),
        _ if eq => return Err(err(i, SanProblem::ExpectedPromotion)),
        Some(_) => return Err(err(i, SanProblem::Trailing)),
        None => None,
    };
    if promotion.is_some() {
        i += 1;
    }
    if i < b.len() {
        return Err(err(i, SanProblem::Trailing));
    }
    Ok(Parsed {
        kind,
        file,
        rank,
        to,
        promotion,
    })
}

impl Position {
    /// Reads a move in SAN (grammar and lenient forms in the
    /// [module docs](super::san)) and finds the one legal move it denotes.
    ///
    /// No heap allocation.
    ///
    /// # Errors
    /// [`SanError`] with a syntax problem and the byte offset, or a
    /// legality problem at offset 0: [`SanProblem::Illegal`] with the
    /// [`SanIllegal`] reason, [`SanProblem::Ambiguous`] with the squares of
    /// the pieces that can move, [`SanProblem::MissingPromotion`],
    /// [`SanProblem::IllegalCastling`] with the [`CastlingProblem`].
    ///
    /// ```
    /// use board_core::chess::{Position, SanProblem};
    /// let pos = Position::startpos();
    /// assert_eq!(pos.parse_san("Nf3").unwrap().to_string(), "g1f3");
    /// assert_eq!(pos.parse_san("e4!?").unwrap().to_string(), "e2e4");
    /// assert_eq!(
    ///     pos.parse_san("Nd2").unwrap_err().to_string(),
    ///     "invalid SAN move at byte 0: no legal move matches: no knight can reach d2"
    /// );
    /// assert!(matches!(pos.parse_san("Nd2").unwrap_err().problem, SanProblem::Illegal { .. }));
    /// assert_eq!(pos.parse_san("Nf9").unwrap_err().offset, 2);
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let all = text.as_bytes();
        let b = &all[..body_len(all)];
        if b.is_empty() {
            return Err(err(0, SanProblem::Empty));
        }
        let castle = match b {
            b"O-O" | b"0-0" => Some(CastlingSide::KingSide),
            b"O-O-O" | b"0-0-0" => Some(CastlingSide::QueenSide),
            _ => None,
        };
        let legal = self.legal_moves();
        if let Some(side) = castle {
            if let Some(&mv) = legal.iter().find(|mv| mv.kind() == MoveKind::Castle(side)) {
                return Ok(mv);
            }
            // Castling is legal exactly when no problem is found (tested),
            // so the fallback is never used.
            let problem = self
                .castling_problem(side)
                .unwrap_or(CastlingProblem::NoRight);
            return Err(err(0, SanProblem::IllegalCastling { side, problem }));
        }
        let p = parse_piece_move(b)?;
        let mut found: Option<Move> = None;
        let mut found_from = Bitboard::EMPTY;
        let mut promotes_there = false;
        let mut whole_square = None;
        if let (None, Some(file), Some(rank)) = (p.kind, p.file, p.rank) {
            // The whole departure square and no piece letter: any piece,
            // castling included (also as the king taking its own rook).
            let from = Square::from_coords(file, rank);
            let mut to = p.to;
            let king_home = (from == Square::E1 || from == Square::E8)
                && self
                    .piece_at(from)
                    .is_some_and(|pc| pc.kind == PieceKind::King);
            if p.promotion.is_none() && king_home && to.rank() == from.rank() {
                if to.file() == File::H {
                    to = Square::from_coords(File::G, to.rank());
                } else if to.file() == File::A {
                    to = Square::from_coords(File::C, to.rank());
                }
            }
            for &mv in legal.iter() {
                if mv.from() == from && mv.to() == to {
                    if mv.promotion() == p.promotion {
                        return Ok(mv);
                    }
                    promotes_there |= mv.promotion().is_some();
                }
            }
            whole_square = Some((from, to));
        } else {
            let kind = p.kind.unwrap_or(PieceKind::Pawn);
            for &mv in legal.iter() {
                let from = mv.from();
                if mv.to() != p.to
                    || mv.is_castle()
                    || self.piece_at(from).map(|pc| pc.kind) != Some(kind)
                    || p.file.is_some_and(|f| f != from.file())
                    || p.rank.is_some_and(|r| r != from.rank())
                    || (p.kind.is_none() && p.file.is_none() && from.file() != p.to.file())
                {
                    continue;
                }
                if mv.promotion() != p.promotion {
                    promotes_there |= mv.promotion().is_some();
                    continue;
                }
                found = Some(mv);
                found_from = found_from.with(from);
            }
            if found_from.more_than_one() {
                return Err(err(
                    0,
                    SanProblem::Ambiguous {
                        kind,
                        to: p.to,
                        from: found_from,
                    },
                ));
            }
        }
        match found {
            Some(mv) => Ok(mv),
            None if promotes_there && p.promotion.is_none() => {
                Err(err(0, SanProblem::MissingPromotion))
            }
            None => {
                let reason = self.san_illegal(&p, whole_square);
                Err(err(0, SanProblem::Illegal { reason }))
            }
        }
    }

    /// Why the parsed piece move `p` matches no legal move (only called
    /// when none does); `whole_square`: the departure and (castling
    /// adjusted) destination of the whole-square form.
    #[cold]
    fn san_illegal(&self, p: &Parsed, whole_square: Option<(Square, Square)>) -> SanIllegal {
        let us = self.side_to_move();
        let (candidates, kind, to) = match whole_square {
            Some((from, to)) => {
                let Some(piece) = self.piece_at(from).filter(|pc| pc.color == us) else {
                    return SanIllegal::NoPiece { square: from };
                };
                (Bitboard::from_square(from), piece.kind, to)
            }
            None => {
                let kind = p.kind.unwrap_or(PieceKind::Pawn);
                let mut set = self.by_piece(super::types::Piece { color: us, kind });
                if let Some(f) = p.file {
                    set &= Bitboard::from_file(f);
                }
                if let Some(r) = p.rank {
                    set &= Bitboard::from_rank(r);
                }
                if p.kind.is_none() && p.file.is_none() {
                    set &= Bitboard::from_file(p.to.file());
                }
                (set, kind, p.to)
            }
        };
        let en_passant = kind == PieceKind::Pawn && self.ep_square() == Some(to);
        let Some(from) = candidates
            .into_iter()
            .find(|&from| self.pseudo_reaches(kind, from, to, en_passant))
        else {
            return SanIllegal::Unreachable { kind, to };
        };
        let last = to.rank() == Rank::Eighth.relative_to(us);
        match p.promotion {
            Some(_) if kind != PieceKind::Pawn || !last => return SanIllegal::NotAPromotion,
            Some(PieceKind::King) => return SanIllegal::PromotionToKing,
            _ => {}
        }
        if self.pinned.contains(from) {
            SanIllegal::Pinned { kind, from, to }
        } else {
            SanIllegal::KingInCheck { kind, from, to }
        }
    }

    /// `mv` in canonical SAN, with `+` or `#` (see the
    /// [module docs](super::san)). `mv` must be legal in this position
    /// (from [`Position::legal_moves`] or a parser); any other move is
    /// written as if it were legal, without a check mark (it is never
    /// played). No heap allocation.
    ///
    /// ```
    /// use board_core::chess::Position;
    /// let pos = Position::startpos();
    /// let mv = pos.parse_uci("g1f3").unwrap();
    /// assert_eq!(pos.san(mv).to_string(), "Nf3");
    /// ```
    pub fn san(&self, mv: Move) -> San {
        let legal = self.legal_moves();
        let mut san = San::new();
        match mv.kind() {
            MoveKind::Castle(CastlingSide::KingSide) => san.push_str("O-O"),
            MoveKind::Castle(CastlingSide::QueenSide) => san.push_str("O-O-O"),
            _ => {
                let from = mv.from();
                let to = mv.to();
                let kind = self.piece_at(from).map_or(PieceKind::Pawn, |pc| pc.kind);
                let capture = mv.is_en_passant() || self.piece_at(to).is_some();
                if kind == PieceKind::Pawn {
                    if capture {
                        san.push(from.file().char() as u8);
                    }
                } else {
                    san.push(kind.char().to_ascii_uppercase() as u8);
                    let (mut same_rank, mut same_file, mut others) = (false, false, false);
                    for &other in legal.iter() {
                        let o = other.from();
                        if o != from
                            && other.to() == to
                            && !other.is_castle()
                            && self.piece_at(o).map(|pc| pc.kind) == Some(kind)
                        {
                            others = true;
                            same_rank |= o.rank() == from.rank();
                            same_file |= o.file() == from.file();
                        }
                    }
                    if others {
                        if same_rank || !same_file {
                            san.push(from.file().char() as u8);
                        }
                        if same_file {
                            san.push(from.rank().char() as u8);
                        }
                    }
                }
                if capture {
                    san.push(b'x');
                }
                san.push(to.file().char() as u8);
                san.push(to.rank().char() as u8);
                if let Some(kind) = mv.promotion() {
                    san.push(b'=');
                    san.push(kind.char().to_ascii_uppercase() as u8);
                }
            }
        }
        if !legal.contains(&mv) {
            return san;
        }
        let mut after = *self;
        after.play_unchecked(mv);
        if after.is_check() {
            san.push(if after.has_legal_move() { b'+' } else { b'#' });
        }
        san
    }
}
