//! `arbitrary::Arbitrary` for the games' vocabulary (feature `arbitrary`),
//! for fuzzing code that builds on `board-core`.
//!
//! Every generated value is a valid value of its type: squares in range,
//! promotion roles that can be written, drops of pieces that can be held.
//! Move values (chess `Move` and `UciMove`, shogi `Move` and `CsaMove`,
//! draughts `PdnMove`) are raw: well-formed moves, not necessarily legal
//! in a given position. The draughts `Move` (from, to, captured set) has
//! no public constructor (it comes from a position's legal moves or
//! `Position::find_move`), so it has no `Arbitrary`: take one from an
//! arbitrary position's legal moves, or an arbitrary `PdnMove` resolved
//! against it.
//! Positions are only ever built by playing legal moves from the start
//! position (the fuzzer's bytes choose the moves and how many), so every
//! generated position is reachable and passes the games' own validation.
//! A [`Player`](crate::player::Player) gets an arbitrary seed.

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::{chess, draughts, shogi};

/// Most plies of a generated position (the fuzzer's bytes usually end
/// earlier: the playout stops when they run out).
const MAX_PLIES: u32 = 300;

/// Plays legal moves chosen by `u` from `start` until `u` is exhausted, the
/// chosen ply count is reached or the side to move has no move.
fn playout<P: Copy, M: Copy>(
    u: &mut Unstructured<'_>,
    start: P,
    legal: impl Fn(&P, &mut Unstructured<'_>) -> Result<Option<M>>,
    play: impl Fn(P, M) -> P,
) -> Result<P> {
    let plies = u.int_in_range(0..=MAX_PLIES)?;
    let mut pos = start;
    for _ in 0..plies {
        if u.is_empty() {
            break;
        }
        match legal(&pos, u)? {
            Some(mv) => pos = play(pos, mv),
            None => break,
        }
    }
    Ok(pos)
}

/// One of the `len` items, by index; `None` when there is none.
fn pick(u: &mut Unstructured<'_>, len: usize) -> Result<Option<usize>> {
    if len == 0 {
        return Ok(None);
    }
    Ok(Some(u.choose_index(len)?))
}

// ---------------------------------------------------------------------------
// Draughts.

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for draughts::Color {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(if bool::arbitrary(u)? {
            draughts::Color::White
        } else {
            draughts::Color::Black
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for draughts::Square {
    /// A square 1..=50.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        draughts::Square::new(u.int_in_range(1..=50)?).ok_or(arbitrary::Error::IncorrectFormat)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for draughts::PieceKind {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(if bool::arbitrary(u)? {
            draughts::PieceKind::Man
        } else {
            draughts::PieceKind::King
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for draughts::Piece {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(draughts::Piece::new(
            draughts::Color::arbitrary(u)?,
            draughts::PieceKind::arbitrary(u)?,
        ))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for draughts::SquareSet {
    /// Any set of the 50 squares.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let bits = u64::arbitrary(u)?;
        Ok(draughts::Square::all()
            .enumerate()
            .filter(|&(i, _)| bits >> i & 1 == 1)
            .map(|(_, sq)| sq)
            .collect())
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for draughts::PdnMove {
    /// Well-formed PDN move text: a quiet move of two squares or a capture
    /// of 2..=[`MAX_PATH`](draughts::MAX_PATH) squares.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let capture = bool::arbitrary(u)?;
        let len = if capture {
            u.int_in_range(2..=draughts::MAX_PATH)?
        } else {
            2
        };
        let mut squares = [draughts::Square::arbitrary(u)?; draughts::MAX_PATH];
        for sq in &mut squares[1..len] {
            *sq = draughts::Square::arbitrary(u)?;
        }
        draughts::PdnMove::from_squares(&squares[..len], capture)
            .ok_or(arbitrary::Error::IncorrectFormat)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for draughts::Position {
    /// A position reached by legal moves from the start position.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        playout(
            u,
            draughts::Position::startpos(),
            |pos, u| {
                let moves = pos.legal_moves();
                Ok(pick(u, moves.len())?.map(|i| moves[i]))
            },
            |pos, mv| pos.play(mv).unwrap_or(pos),
        )
    }
}

// ---------------------------------------------------------------------------
// Chess.

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::Color {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(*u.choose(&chess::Color::ALL)?)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::File {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(*u.choose(&chess::File::ALL)?)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::Rank {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(*u.choose(&chess::Rank::ALL)?)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::Square {
    /// Any of the 64 squares.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(chess::Square::from_coords(
            chess::File::arbitrary(u)?,
            chess::Rank::arbitrary(u)?,
        ))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::PieceKind {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(*u.choose(&chess::PieceKind::ALL)?)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::Piece {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(chess::Piece {
            color: chess::Color::arbitrary(u)?,
            kind: chess::PieceKind::arbitrary(u)?,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::CastlingSide {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(if bool::arbitrary(u)? {
            chess::CastlingSide::KingSide
        } else {
            chess::CastlingSide::QueenSide
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::MoveKind {
    /// A kind a [`Move`](chess::Move) stores as given: promotions only to
    /// [`PieceKind::PROMOTIONS`](chess::PieceKind::PROMOTIONS).
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0..=3u8)? {
            0 => chess::MoveKind::Normal,
            1 => chess::MoveKind::EnPassant,
            2 => chess::MoveKind::Castle(chess::CastlingSide::arbitrary(u)?),
            _ => chess::MoveKind::Promotion(*u.choose(&chess::PieceKind::PROMOTIONS)?),
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::Move {
    /// Any (from, to, kind): a move value, legal or not.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(chess::Move::new(
            chess::Square::arbitrary(u)?,
            chess::Square::arbitrary(u)?,
            chess::MoveKind::arbitrary(u)?,
        ))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::UciMove {
    /// Well-formed UCI text (`e2e4`, `e7e8q`; not the null move `0000`,
    /// which [`UciMove`](chess::UciMove) cannot hold).
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let from = chess::Square::arbitrary(u)?;
        let to = chess::Square::arbitrary(u)?;
        let promotion = if bool::arbitrary(u)? {
            Some(*u.choose(&chess::PieceKind::PROMOTIONS)?)
        } else {
            None
        };
        Ok(chess::UciMove {
            from,
            to,
            promotion,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::CastlingRights {
    /// Any subset of `KQkq`.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut rights = chess::CastlingRights::NONE;
        for color in chess::Color::ALL {
            for side in [
                chess::CastlingSide::KingSide,
                chess::CastlingSide::QueenSide,
            ] {
                if bool::arbitrary(u)? {
                    rights = rights.with(color, side);
                }
            }
        }
        Ok(rights)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for chess::Position {
    /// A position reached by legal moves from the start position.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        playout(
            u,
            chess::Position::startpos(),
            |pos, u| {
                let moves = pos.legal_moves();
                Ok(pick(u, moves.len())?.map(|i| moves[i]))
            },
            |pos, mv| pos.play(mv).unwrap_or(pos),
        )
    }
}

// ---------------------------------------------------------------------------
// Shogi.

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for shogi::Color {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(*u.choose(&shogi::Color::ALL)?)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for shogi::Square {
    /// Any of the 81 squares (file and rank 1..=9).
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        shogi::Square::new(u.int_in_range(1..=9)?, u.int_in_range(1..=9)?)
            .ok_or(arbitrary::Error::IncorrectFormat)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for shogi::PieceKind {
    /// Any of the 14 kinds, promoted ones included.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(*u.choose(&shogi::PieceKind::ALL)?)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for shogi::Piece {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(shogi::Piece::new(
            shogi::Color::arbitrary(u)?,
            shogi::PieceKind::arbitrary(u)?,
        ))
    }
}

/// A kind that can be held in hand (and dropped).
fn hand_kind(u: &mut Unstructured<'_>) -> Result<shogi::PieceKind> {
    Ok(*u.choose(&shogi::PieceKind::HAND)?)
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for shogi::Hand {
    /// Counts within the full set (pawn 0..=18, lance to gold 0..=4,
    /// bishop and rook 0..=2).
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut hand = shogi::Hand::EMPTY;
        for kind in shogi::PieceKind::HAND {
            let n = u.int_in_range(0..=kind.total_count())?;
            hand.add(kind, n);
        }
        Ok(hand)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for shogi::Move {
    /// A board move (any from, to, promotion flag) or a drop of a piece
    /// that can be held: a move value, legal or not.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        if bool::arbitrary(u)? {
            let kind = hand_kind(u)?;
            shogi::Move::drop(kind, shogi::Square::arbitrary(u)?)
                .ok_or(arbitrary::Error::IncorrectFormat)
        } else {
            Ok(shogi::Move::normal(
                shogi::Square::arbitrary(u)?,
                shogi::Square::arbitrary(u)?,
                bool::arbitrary(u)?,
            ))
        }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for shogi::CsaMove {
    /// A well-formed CSA move token: any board move, or a drop (`00`) of a
    /// piece that can be held.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let color = shogi::Color::arbitrary(u)?;
        let (from, piece) = if bool::arbitrary(u)? {
            (None, hand_kind(u)?)
        } else {
            (
                Some(shogi::Square::arbitrary(u)?),
                shogi::PieceKind::arbitrary(u)?,
            )
        };
        shogi::CsaMove::new(color, from, shogi::Square::arbitrary(u)?, piece)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for shogi::Position {
    /// A position reached by legal moves from the start position.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        playout(
            u,
            shogi::Position::startpos(),
            |pos, u| {
                let moves = pos.legal_moves();
                Ok(pick(u, moves.len())?.map(|i| moves[i]))
            },
            |pos, mv| pos.play(mv).unwrap_or(pos),
        )
    }
}

// ---------------------------------------------------------------------------
// The built-in player.

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for crate::player::Player {
    /// [`Player::new`](crate::player::Player::new) with an arbitrary seed.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(crate::player::Player::new(u64::arbitrary(u)?))
    }
}
