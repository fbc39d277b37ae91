//! Wire moves ⇄ board-core chess moves, checked against a position
//! ([`spec::citrine`](crate::spec::citrine), *Move text the Citrine prints*).
//!
//! The Citrine prints castling as `O-O` / `O-O-O` where board-core (like
//! UCI) encodes it as the king's two-square move; en passant as
//! `e5xd6ep`; promotions as `d7-d8/N`; captures with `x`. The host sends
//! castling as the king's move (`M e1g1`) and may omit the promotion piece
//! (the device then promotes to a queen).
//!
//! [`parse_typed_move`] reads what a person types at a Citrine host's
//! prompt, UCI (`e2e4`) or SAN (`Nf3`), as a move against the position.

use crate::message::HostMove;
use crate::types::{MoveText, NormalMove, Promotion};
use crate::vocab::{Move, PieceKind, Position};
use board_core::chess::MoveKind;

/// Why a wire move does not fit the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalReason {
    /// No legal move has these squares (or this castling side).
    NotLegal,
    /// The piece letter names another piece than the one on the origin.
    WrongPiece,
    /// `x` on a non-capture, or `-` on a capture.
    CaptureMark,
    /// `ep` on a move that is not an en passant capture, or missing on one.
    EnPassantMark,
    /// A promotion suffix on a move that does not promote.
    Promotion,
}

impl core::fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            IllegalReason::NotLegal => "no legal move has these squares",
            IllegalReason::WrongPiece => {
                "the piece letter names another piece than the one on the origin square"
            }
            IllegalReason::CaptureMark => {
                "the capture mark does not match (x on a non-capture or - on a capture)"
            }
            IllegalReason::EnPassantMark => "the ep mark does not match the move",
            IllegalReason::Promotion => "a promotion suffix on a move that does not promote",
        })
    }
}

/// A syntactically valid wire move that is not legal (or not written
/// consistently) in the tracked position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("move {text} does not fit the position: {reason}")]
pub struct IllegalMoveError {
    /// The move as printed.
    pub text: MoveText,
    /// What does not fit.
    pub reason: IllegalReason,
}

/// The legal move a printed move denotes in `position`.
///
/// Castling `O-O`/`O-O-O` maps to the king's move; a king's two-square
/// move printed as `e1-g1` (the Universal Chess Board's style) is accepted
/// too. A missing promotion suffix means a queen. The capture mark, `ep`
/// suffix and piece letter (when printed) must agree with the position.
///
/// # Errors
/// [`IllegalMoveError`] with the reason.
///
/// ```
/// use novag_citrine::{convert::to_move, decode::decode, message::Reply};
/// use novag_citrine::vocab::Position;
/// let Reply::Move(line) = decode(b"M   1   e2-e4")? else { panic!() };
/// let mv = to_move(&Position::startpos(), &line.text)?;
/// assert_eq!(mv.to_string(), "e2e4");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_move(position: &Position, text: &MoveText) -> Result<Move, IllegalMoveError> {
    let err = |reason| IllegalMoveError {
        text: *text,
        reason,
    };
    let legal = position.legal_moves();
    match text {
        MoveText::Castle(side) => legal
            .iter()
            .copied()
            .find(|m| m.kind() == MoveKind::Castle(*side))
            .ok_or(err(IllegalReason::NotLegal)),
        MoveText::Normal(n) => {
            let wanted_promotion = n.promotion.map_or(PieceKind::Queen, Promotion::role);
            let mv = legal
                .iter()
                .copied()
                .find(|m| {
                    m.from() == n.from
                        && m.to() == n.to
                        && m.promotion().is_none_or(|r| r == wanted_promotion)
                })
                .ok_or(err(IllegalReason::NotLegal))?;
            let piece = position.piece_at(n.from).map(|p| p.kind);
            if let Some(letter) = n.piece
                && Some(letter) != piece
            {
                return Err(err(IllegalReason::WrongPiece));
            }
            if n.promotion.is_some() && mv.promotion().is_none() {
                return Err(err(IllegalReason::Promotion));
            }
            if n.en_passant != mv.is_en_passant() {
                return Err(err(IllegalReason::EnPassantMark));
            }
            let captures = mv.is_en_passant() || position.piece_at(n.to).is_some();
            if n.capture != captures {
                return Err(err(IllegalReason::CaptureMark));
            }
            Ok(mv)
        }
    }
}

/// The text the Citrine prints for a legal move `mv` of `position`, in
/// move lines (no piece letter): `O-O`, `e5xd6ep`, `d7-d8/N`, `c5xd4`.
///
/// `with_piece` adds the piece letter for non-pawn moves (`Ng1-f3`), as the
/// protocol document's game list does (captured `G` output does not).
pub fn to_text(position: &Position, mv: Move, with_piece: bool) -> MoveText {
    match mv.kind() {
        MoveKind::Castle(side) => MoveText::Castle(side),
        kind => {
            let role = position.piece_at(mv.from()).map(|p| p.kind);
            MoveText::Normal(NormalMove {
                piece: if with_piece {
                    role.filter(|r| *r != PieceKind::Pawn)
                } else {
                    None
                },
                from: mv.from(),
                to: mv.to(),
                capture: kind == MoveKind::EnPassant || position.piece_at(mv.to()).is_some(),
                en_passant: kind == MoveKind::EnPassant,
                promotion: mv.promotion().and_then(Promotion::from_role),
            })
        }
    }
}

/// The `M` command for a move: from + to (castling as the king's move),
/// the promotion piece always written.
pub fn to_host_move(mv: Move) -> HostMove {
    HostMove {
        from: mv.from(),
        to: mv.to(),
        promotion: mv.promotion().and_then(Promotion::from_role),
    }
}

/// The legal move an `M` command denotes in `position` (promotion piece
/// defaults to a queen).
///
/// # Errors
/// [`IllegalMoveError`] ([`IllegalReason::NotLegal`] or
/// [`IllegalReason::Promotion`]).
pub fn host_move_to_move(position: &Position, hm: &HostMove) -> Result<Move, IllegalMoveError> {
    let text = MoveText::Normal(NormalMove {
        promotion: hm.promotion,
        ..NormalMove::new(hm.from, hm.to)
    });
    let err = |reason| IllegalMoveError { text, reason };
    let wanted = hm.promotion.map_or(PieceKind::Queen, Promotion::role);
    let mv = position
        .legal_moves()
        .iter()
        .copied()
        .find(|m| {
            m.from() == hm.from && m.to() == hm.to && m.promotion().is_none_or(|r| r == wanted)
        })
        .ok_or(err(IllegalReason::NotLegal))?;
    if hm.promotion.is_some() && mv.promotion().is_none() {
        return Err(err(IllegalReason::Promotion));
    }
    Ok(mv)
}

/// A typed move that is neither UCI nor SAN here: both notations' reasons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("neither UCI (e2e4, e7e8q, castling e1g1: {uci}) nor SAN (Nf3, exd5, O-O, e8=Q: {san})")]
pub struct TypedMoveError {
    /// Why it is not a legal UCI move here.
    pub uci: board_core::chess::UciError,
    /// Why it is not a legal SAN move here.
    pub san: board_core::chess::SanError,
}

/// A move as a person types it at a host's prompt: UCI first (`e2e4`,
/// `e7e8q`, castling as the king's move `e1g1`), then SAN (`Nf3`, `exd5`,
/// `O-O`, `e8=Q`), legal in `position`.
///
/// ```
/// use novag_citrine::convert::parse_typed_move;
/// use novag_citrine::vocab::Position;
/// let start = Position::startpos();
/// assert_eq!(parse_typed_move(&start, "g1f3"), parse_typed_move(&start, "Nf3"));
/// assert!(parse_typed_move(&start, "Nf6").is_err());
/// ```
///
/// # Errors
/// [`TypedMoveError`] when the text is neither a legal UCI nor a legal SAN
/// move in `position`.
pub fn parse_typed_move(position: &Position, text: &str) -> Result<Move, TypedMoveError> {
    let uci = match position.parse_uci(text) {
        Ok(mv) => return Ok(mv),
        Err(e) => e,
    };
    position
        .parse_san(text)
        .map_err(|san| TypedMoveError { uci, san })
}
