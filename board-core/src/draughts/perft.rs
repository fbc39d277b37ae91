//! `perft`: the number of leaf nodes of the legal move tree, the oracle for
//! move generation. Counts follow the "duplicates removed" convention of the
//! published tables: capture paths with the same (from, to, captured set)
//! are one move.

use core::ops::ControlFlow;

use super::bitboard::{BLACK_PROMOTION, WHITE_PROMOTION, king_moves, step};
use super::movegen::{
    self, ListSink, QuietParent, Sides, count_legal, count_legal_of, count_sides, each_dir,
    forward, jump_sources, kings_capture, overlaps,
};
use super::types::{Color, Move};
use super::{MAX_MOVES, Position};
use crate::MoveList;

/// The number of leaf nodes `depth` plies below `position` (1 at depth 0).
/// The last ply is bulk-counted (moves are counted, not played). No heap
/// allocation; single thread; no limit on the number of moves in a
/// position (see [`MAX_MOVES`] for the rare fallback), so it never fails
/// or panics.
///
/// ```
/// use board_core::draughts::{Position, perft};
/// assert_eq!(perft(&Position::startpos(), 3), 658);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(position),
        _ => match position.side {
            Color::White => inner::<true>(position, depth),
            Color::Black => inner::<false>(position, depth),
        },
    }
}

/// `perft` split by root move: the total (`perft(position, depth)`) and,
/// per legal move in [`Position::legal_moves`] order, the leaf count of its
/// subtree: `perft` of the position after it at `depth - 1` (the leaves
/// `depth` plies below the root); the counts add up to the total. At depth
/// 0 the total is 1 and the list is empty.
///
/// The total counts every move. The per-move list holds at most
/// [`MAX_MOVES`] entries: a full list means the position has more moves
/// than that (none is known; see [`Position::legal_moves`]) and only the
/// first [`MAX_MOVES`] are listed.
pub fn perft_divide(position: &Position, depth: u32) -> (u64, MoveList<(Move, u64), MAX_MOVES>) {
    let mut out = MoveList::new();
    if depth == 0 {
        return (1, out);
    }
    let mut total = 0;
    let _ = position.for_each_legal_move(|mv| {
        let mut child = *position;
        child.play_unchecked(mv);
        let n = perft(&child, depth - 1);
        total += n;
        // A full list is reported by its length (see above).
        let _ = out.try_push((mv, n));
        ControlFlow::<()>::Continue(())
    });
    (total, out)
}

/// The subtree count of `child` at `depth` (>= 1) plies.
#[inline(always)]
fn sub<const WHITE: bool>(child: &Position, depth: u32) -> u64 {
    if depth == 1 {
        count_legal_of::<WHITE>(child)
    } else {
        // The child has the other side to move.
        inner::<WHITE>(child, depth)
    }
}

/// The pieces of the opponent of the side to move (`WHITE`) in `pos`, seen
/// from that opponent (`s`: those of the side to move).
#[inline(always)]
fn opponent<const WHITE: bool>(pos: &Position, s: &Sides) -> Sides {
    Sides {
        men: s.opp & !pos.kings,
        kings: s.opp & pos.kings,
        opp: s.men | s.kings,
        empty: s.empty,
    }
}

/// The number of moves of the child reached when the side to move
/// (`WHITE`) moves a piece between the squares of `ft` (from ^ to) and
/// takes `caps`, counted from `o` (see [`opponent`]) without building the
/// child: the opponent's own pieces lose `caps`, its opponent's change by
/// `ft`. Whether the moving piece is a king (or promotes) does not change
/// the opponent's moves.
#[inline(always)]
fn leaf<const WHITE: bool>(o: &Sides, ft: u64, caps: u64) -> u64 {
    let c = Sides {
        men: o.men & !caps,
        kings: o.kings & !caps,
        opp: o.opp ^ ft,
        empty: (o.empty | caps) ^ ft,
    };
    if WHITE {
        count_sides::<false>(&c)
    } else {
        count_sides::<true>(&c)
    }
}

/// Calls `f(ft, kx)` for every quiet move of `s` (no capture available),
/// `WHITE` to move: `ft` the from and to squares, `kx` the change of the
/// kings (a promotion, or the king moving).
#[inline(always)]
fn each_quiet<const WHITE: bool>(s: &Sides, mut f: impl FnMut(u64, u64)) {
    let side = if WHITE { Color::White } else { Color::Black };
    let promotion = if WHITE {
        WHITE_PROMOTION
    } else {
        BLACK_PROMOTION
    };
    // Two calls, so that each direction is a constant.
    let [d1, d2] = forward(side);
    men_quiet(d1, s, promotion, &mut f);
    men_quiet(d2, s, promotion, &mut f);
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks.trailing_zeros();
        let kb = 1u64 << k;
        ks &= ks - 1;
        let mut to = king_moves(k, s.empty);
        while to != 0 {
            let t = to & to.wrapping_neg();
            to &= to - 1;
            f(kb | t, kb | t);
        }
    }
}

/// The men's quiet moves of `s` in direction `d` (see [`each_quiet`]).
#[inline(always)]
fn men_quiet(d: usize, s: &Sides, promotion: u64, f: &mut impl FnMut(u64, u64)) {
    let mut to = step(d, s.men) & s.empty;
    while to != 0 {
        let t = to & to.wrapping_neg();
        to &= to - 1;
        f(step(d ^ 2, t) | t, t & promotion);
    }
}

/// `depth >= 2`; `WHITE` is the side to move in `pos`.
fn inner<const WHITE: bool>(pos: &Position, depth: u32) -> u64 {
    let s = pos.sides_of::<WHITE>();
    // The men's jump sources and the kings' capture test are made once,
    // here, and handed to `captures`.
    let j = jump_sources(&s);
    let kings = kings_capture(&s);
    if kings || (j[0] | j[1] | j[2] | j[3]) & s.men != 0 {
        return captures::<WHITE>(pos, &s, &j, kings, depth);
    }
    if depth == 2 {
        let q = QuietParent::new(opponent::<WHITE>(pos, &s));
        return if q.kings() {
            quiet_leaves::<WHITE, true>(&s, &q)
        } else {
            quiet_leaves::<WHITE, false>(&s, &q)
        };
    }
    let mut nodes = 0;
    let side = if WHITE { Color::White } else { Color::Black };
    each_quiet::<WHITE>(&s, |ft, kx| {
        let mut child = *pos;
        if WHITE {
            child.white ^= ft;
        } else {
            child.black ^= ft;
        }
        child.kings ^= kx;
        child.side = side.opposite();
        nodes += if WHITE {
            inner::<false>(&child, depth - 1)
        } else {
            inner::<true>(&child, depth - 1)
        };
    });
    nodes
}

/// The leaves two plies below a position without a capture, `WHITE` to
/// move: the replies to each quiet move, counted by `q` (`KINGS`: the
/// opponent has kings).
#[inline(always)]
fn quiet_leaves<const WHITE: bool, const KINGS: bool>(s: &Sides, q: &QuietParent) -> u64 {
    let sum = if WHITE {
        q.sum_children::<false, KINGS>(s)
    } else {
        q.sum_children::<true, KINGS>(s)
    };
    if let Some(n) = sum {
        return n;
    }
    let mut nodes = 0;
    each_quiet::<WHITE>(
        s,
        #[inline(always)]
        |ft, _| {
            nodes += if WHITE {
                q.count::<false, KINGS>(ft)
            } else {
                q.count::<true, KINGS>(ft)
            }
        },
    );
    nodes
}

#[inline(never)]
fn captures<const WHITE: bool>(
    pos: &Position,
    s: &Sides,
    j: &[u64; 4],
    kings: bool,
    depth: u32,
) -> u64 {
    // Most often every capture is one or two jumps by a man: play them
    // straight from the bitboards (see `short_man_count` for why the jump
    // sources of this position give the second and third jumps).
    if !kings {
        let land1 = each_dir(|d| step(d, step(d, s.men & j[d])));
        let all1 = land1[0] | land1[1] | land1[2] | land1[3];
        let again = each_dir(|e| all1 & j[e]);
        let mut third = 0;
        for e in 0..4 {
            third |= step(e, step(e, again[e])) & (j[e] | j[e ^ 1] | j[e ^ 3]);
        }
        // Each first landing square must stand for one first jump.
        if third | overlaps(&land1) == 0 {
            let mut nodes = 0;
            if again[0] | again[1] | again[2] | again[3] != 0 {
                for (e, &a) in again.iter().enumerate() {
                    let mut a = a;
                    while a != 0 {
                        let l1 = a & a.wrapping_neg();
                        a &= a - 1;
                        // The first jump landing on `l1` (one direction
                        // matches): its origin and captured piece.
                        let (mut f, mut over1) = (0, 0);
                        for (d, &l) in land1.iter().enumerate() {
                            let over = step(d ^ 2, l1 & l);
                            over1 |= over;
                            f |= step(d ^ 2, over);
                        }
                        let over2 = step(e, l1);
                        let t = step(e, over2);
                        nodes += play_man::<WHITE>(pos, f, t, over1 | over2, depth);
                    }
                }
            } else {
                for (d, &jd) in j.iter().enumerate() {
                    let mut jumpers = s.men & jd;
                    while jumpers != 0 {
                        let f = jumpers & jumpers.wrapping_neg();
                        jumpers &= jumpers - 1;
                        let over = step(d, f);
                        nodes += play_man::<WHITE>(pos, f, step(d, over), over, depth);
                    }
                }
            }
            return nodes;
        }
    }
    // Most capture lists are short: try a small list before the full one.
    let mut small = MoveList::<Move, 16>::new();
    let mut sink = ListSink::new(&mut small);
    movegen::captures_unordered(s, &mut sink);
    if !sink.overflow {
        return play_all::<WHITE>(pos, &small, depth);
    }
    many_captures::<WHITE>(pos, s, depth)
}

/// Plays the capture of the man on `f` to `t` taking `caps` (bit sets)
/// and counts the subtree below.
#[inline(always)]
fn play_man<const WHITE: bool>(pos: &Position, f: u64, t: u64, caps: u64, depth: u32) -> u64 {
    if depth == 2 {
        return leaf::<WHITE>(
            &opponent::<WHITE>(pos, &pos.sides_of::<WHITE>()),
            f | t,
            caps,
        );
    }
    let promotion = if WHITE {
        WHITE_PROMOTION
    } else {
        BLACK_PROMOTION
    };
    let mut child = *pos;
    if WHITE {
        child.white ^= f | t;
        child.black &= !caps;
    } else {
        child.black ^= f | t;
        child.white &= !caps;
    }
    child.kings = (child.kings & !caps) | (t & promotion);
    child.side = if WHITE { Color::Black } else { Color::White };
    if WHITE {
        sub::<false>(&child, depth - 1)
    } else {
        sub::<true>(&child, depth - 1)
    }
}

/// Kept out of line so that the common path's stack frame stays small.
#[cold]
#[inline(never)]
fn many_captures<const WHITE: bool>(pos: &Position, s: &Sides, depth: u32) -> u64 {
    let mut nodes = 0;
    let _ = movegen::for_each_capture(s, |mv| {
        let mut child = *pos;
        child.play_unchecked(mv);
        nodes += if WHITE {
            sub::<false>(&child, depth - 1)
        } else {
            sub::<true>(&child, depth - 1)
        };
        ControlFlow::<()>::Continue(())
    });
    nodes
}

#[inline(always)]
fn play_all<const WHITE: bool>(pos: &Position, moves: &[Move], depth: u32) -> u64 {
    let mut nodes = 0;
    for &mv in moves {
        let mut child = *pos;
        child.play_unchecked(mv);
        nodes += if WHITE {
            sub::<false>(&child, depth - 1)
        } else {
            sub::<true>(&child, depth - 1)
        };
    }
    nodes
}
