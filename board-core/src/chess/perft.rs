//! `perft`: leaf-node counts of the legal move tree.
//!
//! The last ply is counted, not played (bulk counting: the generator adds
//! popcounts of target sets, see `Position::count_with`). Above it the moves
//! are played straight out of the generator, never listed: the sink knows
//! the moving piece's kind, so a child is the parent's copy with a few
//! bitboards toggled (no piece lookup on the from square, no move list, no
//! half-move clock or move number kept, and the en passant square set on
//! every double push next to an enemy pawn: the generator tests en passant
//! captures in full anyway). Those children never leave this module. No
//! heap allocation.

use super::attacks::pawn_attacks;
use super::bitboard::Bitboard;
use super::movegen::Sink;
use super::position::{CASTLING_KEEP, CastlingRights, Position};
use super::simd;
use super::types::{
    Color, KIND_CASTLE_KING_BITS, KIND_CASTLE_QUEEN_BITS, KIND_EN_PASSANT_BITS, Move, PieceKind,
    Square,
};
use super::{MAX_MOVES, MoveList};

/// Number of leaf nodes of the legal move tree of `position` at `depth`
/// plies (`perft(p, 0) == 1`). Counts the last ply without playing it
/// (bulk counting). No heap allocation.
///
/// ```
/// use board_core::chess::{perft, Position};
///
/// assert_eq!(perft(&Position::startpos(), 4), 197_281);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_legal_moves(),
        _ => simd::perft(position, depth),
    }
}

/// `perft` split by root move: the total (`perft(position, depth)`) and,
/// per legal move in [`Position::legal_moves`] order, the leaf count of its
/// subtree: `perft` of the position after it at `depth - 1` (the leaves
/// `depth` plies below the root); the counts add up to the total. At depth
/// 0 the total is 1 and the list is empty. No heap allocation.
///
/// ```
/// use board_core::chess::{perft_divide, Position};
///
/// let (total, per_move) = perft_divide(&Position::startpos(), 2);
/// assert_eq!(total, 400);
/// assert_eq!(per_move.len(), 20);
/// assert!(per_move.iter().all(|&(_, n)| n == 20));
/// ```
pub fn perft_divide(
    position: &Position,
    depth: u32,
) -> (u64, crate::MoveList<(Move, u64), MAX_MOVES>) {
    let mut out = crate::MoveList::new();
    if depth == 0 {
        return (1, out);
    }
    let mut total = 0;
    let moves: MoveList = position.legal_moves();
    for &mv in moves.iter() {
        let mut child = *position;
        child.play_unchecked(mv);
        let n = perft(&child, depth - 1);
        total += n;
        // Cannot fail: at most MAX_MOVES root moves.
        let _ = out.try_push((mv, n));
    }
    (total, out)
}

/// The recursive call of `inner`: the `pext` one goes back through
/// `simd::perft_reenter`, so that the recursive function is compiled for
/// BMI2 too.
#[inline(always)]
fn inner_with<const P: bool>(position: &Position, depth: u32) -> u64 {
    if P {
        simd::perft_reenter(position, depth)
    } else {
        inner_plain::<false>(position, depth)
    }
}

/// [`inner`] as a function of its own (the recursion's call target).
pub(crate) fn inner_plain<const P: bool>(position: &Position, depth: u32) -> u64 {
    inner::<P>(position, depth)
}

/// `perft` for `depth >= 2`, slider lookups of layout `P` (see
/// `attacks::lookup`).
#[inline(always)]
pub(crate) fn inner<const P: bool>(position: &Position, depth: u32) -> u64 {
    match position.turn {
        Color::White => inner_for::<P, true>(position, depth),
        Color::Black => inner_for::<P, false>(position, depth),
    }
}

/// [`inner`] with the side to move known at compile time (`WHITE`), in
/// the generator and in the play sink (so each child is counted by the
/// one colour's counting generator, not by a test of its side to move).
#[inline(always)]
fn inner_for<const P: bool, const WHITE: bool>(position: &Position, depth: u32) -> u64 {
    if depth == 2 {
        let mut sink = PlaySink::<P, true, WHITE> {
            parent: position,
            depth: 1,
            nodes: 0,
        };
        position.generate_for::<_, WHITE, P>(&mut sink);
        sink.nodes
    } else {
        let mut sink = PlaySink::<P, false, WHITE> {
            parent: position,
            depth: depth - 1,
            nodes: 0,
        };
        position.generate_for::<_, WHITE, P>(&mut sink);
        sink.nodes
    }
}

/// [`PlaySink::pawn_move`]'s kinds of pawn move: a single push or a
/// capture, a double push, or either (tested).
const PUSH_SINGLE: u8 = 0;
const PUSH_DOUBLE: u8 = 1;
const PUSH_EITHER: u8 = 2;

/// Plays each generated move into a child and counts below it; `LEAF`:
/// the children are counted (depth left 1); `WHITE`: White moves in the
/// parent.
struct PlaySink<'a, const P: bool, const LEAF: bool, const WHITE: bool> {
    parent: &'a Position,
    /// Depth left below the children (at least 1).
    depth: u32,
    nodes: u64,
}

impl<const P: bool, const LEAF: bool, const WHITE: bool> PlaySink<'_, P, LEAF, WHITE> {
    /// The side to move in the parent, and its index.
    const COLOR: Color = if WHITE { Color::White } else { Color::Black };
    const US: usize = Self::COLOR.index();

    #[inline(always)]
    fn descend(&mut self, child: &mut Position) {
        child.turn = if WHITE { Color::Black } else { Color::White };
        // The counting generator computes the check information itself.
        self.nodes += if LEAF {
            if WHITE {
                child.count_for::<false, P>()
            } else {
                child.count_for::<true, P>()
            }
        } else {
            child.update_check_info();
            inner_with::<P>(child, self.depth)
        };
    }

    /// The parent with the enemy piece on `to` (if any) removed and the
    /// castling rights updated for a move `from` → `to`.
    #[inline(always)]
    fn base(&self, from: Square, to: Square) -> Position {
        let mut child = *self.parent;
        let to_bb = Bitboard::from_square(to);
        for bb in &mut child.by_kind {
            *bb &= !to_bb;
        }
        child.by_color[1 - Self::US] &= !to_bb;
        child.castling = CastlingRights::from_bits(
            child.castling.bits() & CASTLING_KEEP[from.index()] & CASTLING_KEEP[to.index()],
        );
        child.ep_square = None;
        child
    }

    /// The parent for a move to an empty square by a piece that does not
    /// leave a king or rook corner square (a pawn): nothing captured, the
    /// castling rights unchanged (a right implies its rook on its corner
    /// and its king on its square, so an empty target square takes no
    /// right away).
    #[inline(always)]
    fn base_quiet(&self) -> Position {
        let mut child = *self.parent;
        child.ep_square = None;
        child
    }

    /// [`Self::base`], or [`Self::base_quiet`] when `QUIET` (the target
    /// square is known to be empty).
    #[inline(always)]
    fn base_pawn<const QUIET: bool>(&self, from: Square, to: Square) -> Position {
        if QUIET {
            self.base_quiet()
        } else {
            self.base(from, to)
        }
    }

    /// A pawn move `from` → `to`; `QUIET`: `to` is known to be empty;
    /// `DOUBLE`: [`PUSH_SINGLE`] (or a capture: never a double push),
    /// [`PUSH_DOUBLE`], or [`PUSH_EITHER`] (tested).
    #[inline(always)]
    fn pawn_move<const QUIET: bool, const DOUBLE: u8>(&mut self, from: Square, to: Square) {
        let us = Self::US;
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        if DOUBLE != PUSH_DOUBLE && Bitboard::BACKRANKS.contains(to) {
            for kind in PieceKind::PROMOTIONS {
                let mut child = self.base_pawn::<QUIET>(from, to);
                child.by_kind[PieceKind::Pawn.index()] ^= from_bb;
                child.by_kind[kind.index()] ^= to_bb;
                child.by_color[us] ^= from_bb | to_bb;
                self.descend(&mut child);
            }
        } else {
            let mut child = self.base_pawn::<QUIET>(from, to);
            child.by_kind[PieceKind::Pawn.index()] ^= from_bb | to_bb;
            child.by_color[us] ^= from_bb | to_bb;
            if DOUBLE == PUSH_DOUBLE
                || DOUBLE == PUSH_EITHER && from.index().abs_diff(to.index()) == 16
            {
                let ep = Square::new_masked(((from.index() + to.index()) / 2) as u32);
                // Only worth keeping if an enemy pawn could take.
                if (pawn_attacks(Self::COLOR, ep)
                    & child.by_kind[PieceKind::Pawn.index()]
                    & child.by_color[1 - Self::US])
                    .any()
                {
                    child.ep_square = Some(ep);
                }
            }
            self.descend(&mut child);
        }
    }
}

impl<const P: bool, const LEAF: bool, const WHITE: bool> Sink for PlaySink<'_, P, LEAF, WHITE> {
    #[inline(always)]
    fn piece(&mut self, kind: PieceKind, from: Square, targets: Bitboard) {
        // A queen comes as a bishop or a rook: the moved squares go to the
        // queens' or to `kind`'s bitboard by mask, so that both indices
        // are constants (the child then stays in registers).
        let queen = if kind != PieceKind::King && kind != PieceKind::Knight {
            0u64.wrapping_sub(u64::from(
                self.parent.by_kind[PieceKind::Queen.index()].contains(from),
            ))
        } else {
            0
        };
        let us = Self::US;
        let from_bb = Bitboard::from_square(from);
        // Moves to empty squares first: nothing to capture, and only the
        // rights of the from square can go (see `base_quiet`).
        let theirs = self.parent.by_color[1 - Self::US];
        let castling =
            CastlingRights::from_bits(self.parent.castling.bits() & CASTLING_KEEP[from.index()]);
        for to in targets & !theirs {
            let mut child = self.base_quiet();
            child.castling = castling;
            let moved = from_bb | Bitboard::from_square(to);
            child.by_kind[kind.index()].0 ^= moved.0 & !queen;
            child.by_kind[PieceKind::Queen.index()].0 ^= moved.0 & queen;
            child.by_color[us] ^= moved;
            self.descend(&mut child);
        }
        for to in targets & theirs {
            let mut child = self.base(from, to);
            let moved = from_bb | Bitboard::from_square(to);
            child.by_kind[kind.index()].0 ^= moved.0 & !queen;
            child.by_kind[PieceKind::Queen.index()].0 ^= moved.0 & queen;
            child.by_color[us] ^= moved;
            self.descend(&mut child);
        }
    }

    #[inline(always)]
    fn pawn(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.pawn_move::<false, PUSH_EITHER>(from, to);
        }
    }

    /// (Only the captures of [`Self::pawn_sets`] come here: never a
    /// double push.)
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::new_masked((to.index() as i32 - delta) as u32);
            self.pawn_move::<false, PUSH_SINGLE>(from, to);
        }
    }

    #[inline(always)]
    fn pawn_sets(&mut self, [single, double, left, right]: [(Bitboard, i32); 4]) {
        // Pushes land on empty squares.
        for to in single.0 {
            let from = Square::new_masked((to.index() as i32 - single.1) as u32);
            self.pawn_move::<true, PUSH_SINGLE>(from, to);
        }
        for to in double.0 {
            let from = Square::new_masked((to.index() as i32 - double.1) as u32);
            self.pawn_move::<true, PUSH_DOUBLE>(from, to);
        }
        self.pawns(left.0, left.1);
        self.pawns(right.0, right.1);
    }

    #[inline(always)]
    fn special(&mut self, mv: Move) {
        let us = Self::US;
        let from = mv.from();
        let to = mv.to();
        let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
        let mut child = *self.parent;
        child.ep_square = None;
        if mv.kind_bits() == KIND_EN_PASSANT_BITS {
            let captured = Bitboard::from_square(Square::new_masked((to.index() ^ 8) as u32));
            child.by_kind[PieceKind::Pawn.index()] ^= moved | captured;
            child.by_color[us] ^= moved;
            child.by_color[1 - us] ^= captured;
        } else {
            // Castling (the generator's only other special move): the
            // king goes two squares, the rook from its corner to the
            // square the king crossed; the mover's rights are gone.
            debug_assert!(
                mv.kind_bits() == KIND_CASTLE_KING_BITS || mv.kind_bits() == KIND_CASTLE_QUEEN_BITS
            );
            let (corner, crossed) = if mv.kind_bits() == KIND_CASTLE_KING_BITS {
                (from.index() + 3, from.index() + 1)
            } else {
                (from.index().wrapping_sub(4), from.index().wrapping_sub(1))
            };
            let rook = Bitboard((1 << (corner & 63)) | (1 << (crossed & 63)));
            child.by_kind[PieceKind::King.index()] ^= moved;
            child.by_kind[PieceKind::Rook.index()] ^= rook;
            child.by_color[us] ^= moved | rook;
            child.castling =
                CastlingRights::from_bits(child.castling.bits() & CASTLING_KEEP[from.index()]);
        }
        self.descend(&mut child);
    }
}
