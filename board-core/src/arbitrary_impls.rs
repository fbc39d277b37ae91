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

use crate::{Game, chess, draughts, shogi};

/// Most plies of a generated position (the fuzzer's bytes usually end
/// earlier: the playout stops when they run out).
const MAX_PLIES: u32 = 300;

/// `impl Arbitrary for TYPE` whose `arbitrary(u)` is `FUNCTION(u)`, for
/// each `TYPE => FUNCTION;` (with its doc comments): trait impls that only
/// forward to the plain functions and closures written in the table; no
/// other item is generated.
macro_rules! arbitrary_by {
    ($($(#[doc = $doc:literal])* $ty:ty => $f:expr;)*) => {$(
        #[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
        impl<'a> Arbitrary<'a> for $ty {
            $(#[doc = $doc])*
            fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
                $f(u)
            }
        }
    )*};
}

/// A position reached by legal moves chosen by `u` from the start
/// position, until `u` is exhausted, the chosen ply count is reached or
/// the side to move has no move.
fn reached<G: Game>(u: &mut Unstructured<'_>) -> Result<G> {
    let plies = u.int_in_range(0..=MAX_PLIES)?;
    let mut pos = G::startpos();
    for _ in 0..plies {
        if u.is_empty() {
            break;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[u.choose_index(moves.len())?];
        pos = pos.play(mv).unwrap_or(pos);
    }
    Ok(pos)
}

/// One of `all`.
fn one_of<T: Copy>(u: &mut Unstructured<'_>, all: &[T]) -> Result<T> {
    Ok(*u.choose(all)?)
}

/// `yes` or `no`, by an arbitrary `bool`.
fn either<T>(u: &mut Unstructured<'_>, yes: T, no: T) -> Result<T> {
    Ok(if bool::arbitrary(u)? { yes } else { no })
}

/// An arbitrary value of an `Option` constructor's result.
fn some<T>(value: Option<T>) -> Result<T> {
    value.ok_or(arbitrary::Error::IncorrectFormat)
}

arbitrary_by! {
    // Draughts.
    draughts::Color => |u| either(u, draughts::Color::White, draughts::Color::Black);
    /// A square 1..=50.
    draughts::Square => |u: &mut Unstructured<'_>| some(draughts::Square::new(u.int_in_range(1..=50)?));
    draughts::PieceKind => |u| either(u, draughts::PieceKind::Man, draughts::PieceKind::King);
    draughts::Piece => |u: &mut Unstructured<'_>| Ok(draughts::Piece::new(Arbitrary::arbitrary(u)?, Arbitrary::arbitrary(u)?));
    /// Any set of the 50 squares.
    draughts::SquareSet => square_set;
    /// Well-formed PDN move text: a quiet move of two squares or a capture
    /// of 2..=[`MAX_PATH`](draughts::MAX_PATH) squares.
    draughts::PdnMove => pdn_move;
    /// A position reached by legal moves from the start position.
    draughts::Position => reached;

    // Chess.
    chess::Color => |u| one_of(u, &chess::Color::ALL);
    chess::File => |u| one_of(u, &chess::File::ALL);
    chess::Rank => |u| one_of(u, &chess::Rank::ALL);
    /// Any of the 64 squares.
    chess::Square => |u: &mut Unstructured<'_>| Ok(chess::Square::from_coords(Arbitrary::arbitrary(u)?, Arbitrary::arbitrary(u)?));
    chess::PieceKind => |u| one_of(u, &chess::PieceKind::ALL);
    chess::Piece => |u: &mut Unstructured<'_>| Ok(chess::Piece { color: Arbitrary::arbitrary(u)?, kind: Arbitrary::arbitrary(u)? });
    chess::CastlingSide => |u| either(u, chess::CastlingSide::KingSide, chess::CastlingSide::QueenSide);
    /// A kind a [`Move`](chess::Move) stores as given: promotions only to
    /// [`PieceKind::PROMOTIONS`](chess::PieceKind::PROMOTIONS).
    chess::MoveKind => chess_move_kind;
    /// Any (from, to, kind): a move value, legal or not.
    chess::Move => |u: &mut Unstructured<'_>| Ok(chess::Move::new(Arbitrary::arbitrary(u)?, Arbitrary::arbitrary(u)?, Arbitrary::arbitrary(u)?));
    /// Well-formed UCI text (`e2e4`, `e7e8q`; not the null move `0000`,
    /// which [`UciMove`](chess::UciMove) cannot hold).
    chess::UciMove => uci_move;
    /// Any subset of `KQkq`.
    chess::CastlingRights => castling_rights;
    /// A position reached by legal moves from the start position.
    chess::Position => reached;

    // Shogi.
    shogi::Color => |u| one_of(u, &shogi::Color::ALL);
    /// Any of the 81 squares (file and rank 1..=9).
    shogi::Square => |u: &mut Unstructured<'_>| some(shogi::Square::new(u.int_in_range(1..=9)?, u.int_in_range(1..=9)?));
    /// Any of the 14 kinds, promoted ones included.
    shogi::PieceKind => |u| one_of(u, &shogi::PieceKind::ALL);
    shogi::Piece => |u: &mut Unstructured<'_>| Ok(shogi::Piece::new(Arbitrary::arbitrary(u)?, Arbitrary::arbitrary(u)?));
    /// Counts within the full set (pawn 0..=18, lance to gold 0..=4,
    /// bishop and rook 0..=2).
    shogi::Hand => hand;
    /// A board move (any from, to, promotion flag) or a drop of a piece
    /// that can be held: a move value, legal or not.
    shogi::Move => shogi_move;
    /// A well-formed CSA move token: any board move, or a drop (`00`) of a
    /// piece that can be held.
    shogi::CsaMove => csa_move;
    /// A position reached by legal moves from the start position.
    shogi::Position => reached;

    // The built-in player.
    /// [`Player::new`](crate::player::Player::new) with an arbitrary seed.
    crate::player::Player => |u| Ok(crate::player::Player::new(Arbitrary::arbitrary(u)?));
}

fn square_set(u: &mut Unstructured<'_>) -> Result<draughts::SquareSet> {
    let bits = u64::arbitrary(u)?;
    Ok(draughts::Square::all()
        .enumerate()
        .filter(|&(i, _)| bits >> i & 1 == 1)
        .map(|(_, sq)| sq)
        .collect())
}

fn pdn_move(u: &mut Unstructured<'_>) -> Result<draughts::PdnMove> {
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
    some(draughts::PdnMove::from_squares(&squares[..len], capture))
}

fn chess_move_kind(u: &mut Unstructured<'_>) -> Result<chess::MoveKind> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => chess::MoveKind::Normal,
        1 => chess::MoveKind::EnPassant,
        2 => chess::MoveKind::Castle(chess::CastlingSide::arbitrary(u)?),
        _ => chess::MoveKind::Promotion(one_of(u, &chess::PieceKind::PROMOTIONS)?),
    })
}

fn uci_move(u: &mut Unstructured<'_>) -> Result<chess::UciMove> {
    let from = chess::Square::arbitrary(u)?;
    let to = chess::Square::arbitrary(u)?;
    let promotion = if bool::arbitrary(u)? {
        Some(one_of(u, &chess::PieceKind::PROMOTIONS)?)
    } else {
        None
    };
    Ok(chess::UciMove {
        from,
        to,
        promotion,
    })
}

fn castling_rights(u: &mut Unstructured<'_>) -> Result<chess::CastlingRights> {
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

fn hand(u: &mut Unstructured<'_>) -> Result<shogi::Hand> {
    let mut hand = shogi::Hand::EMPTY;
    for kind in shogi::PieceKind::HAND {
        let n = u.int_in_range(0..=kind.total_count())?;
        hand.add(kind, n);
    }
    Ok(hand)
}

fn shogi_move(u: &mut Unstructured<'_>) -> Result<shogi::Move> {
    if bool::arbitrary(u)? {
        let kind = one_of(u, &shogi::PieceKind::HAND)?;
        some(shogi::Move::drop(kind, shogi::Square::arbitrary(u)?))
    } else {
        Ok(shogi::Move::normal(
            shogi::Square::arbitrary(u)?,
            shogi::Square::arbitrary(u)?,
            bool::arbitrary(u)?,
        ))
    }
}

fn csa_move(u: &mut Unstructured<'_>) -> Result<shogi::CsaMove> {
    let color = shogi::Color::arbitrary(u)?;
    let (from, piece) = if bool::arbitrary(u)? {
        (None, one_of(u, &shogi::PieceKind::HAND)?)
    } else {
        (
            Some(shogi::Square::arbitrary(u)?),
            shogi::PieceKind::arbitrary(u)?,
        )
    };
    shogi::CsaMove::new(color, from, shogi::Square::arbitrary(u)?, piece)
        .map_err(|_| arbitrary::Error::IncorrectFormat)
}
