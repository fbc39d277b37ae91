//! Legal move generation: quiet moves from shifts, captures by a depth-first
//! search that keeps only the sequences taking the most pieces.
//!
//! Rules implemented ([`spec::damexchange`](crate::spec::damexchange), *Board conventions users
//! expect*; FMJD rules art. 3-4):
//! men move one square diagonally forward and capture forward and backward;
//! kings fly along diagonals and capture at any distance, landing on any
//! empty square beyond; capturing is compulsory and the sequence taking the
//! most pieces must be played (men and kings count the same); captured
//! pieces stay on the board until the sequence ends, so they block and can
//! not be jumped twice (Turkish strike); a man that passes over the far row
//! during a capture does not promote; the moving piece's own square counts
//! as empty during its capture (it may end where it started).

use super::Position;
use super::bitboard::{BOARD, RAYS, nearest, seers, step};
use super::types::{Color, Move};
use core::ops::ControlFlow;

use crate::movelist::{CapacityError, MoveList};

/// Captured-piece count from which two capture paths can give the same
/// (from, to, captured set), for men and kings alike: below it every path
/// the search reports is a distinct move, so it is counted without being
/// compared with the others.
///
/// Why 4: remove every piece that is neither the moving piece nor one of
/// the captured set `S` from a position. Every path capturing exactly `S`
/// stays a complete path (its squares were empty and still are; nothing is
/// left to capture after `S`) and the search reports it in the same
/// canonical form (a king continuing along a line is searched once from the
/// last landing square before the next piece, which is a piece of `S`, so
/// the same square), so a duplicate in any position is a duplicate in the
/// position holding only the moving piece and `S`. The test
/// `no_duplicate_below_dedup_min` runs the search for a man and for a king
/// on every square with every set of 1, 2 and 3 opponent pieces on an
/// otherwise empty board (50 x 19,649 set-ups each) and finds no
/// duplicate; `duplicates_at_dedup_min` shows both a man and a king with
/// two paths round a loop of 4 pieces (the same move), so the bound is
/// exact. By hand for 2 captures: the king's landing square between the two
/// is on one line through the first piece and the second piece is on a
/// perpendicular line through it, so it is fixed (or both are on one line,
/// which is searched once), and taking the second piece first would need
/// the first piece on two lines through the end square that meet only at
/// the (empty) landing square.
pub(crate) const DEDUP_MIN: u32 = 4;

/// Receives complete capture sequences and keeps those of maximal length.
/// Recording never fails: a sink that runs out of room remembers it.
pub(crate) trait CaptureSink {
    /// A complete sequence from `from` to `to` taking the `n` pieces on
    /// `captured` (bit sets in the board layout).
    fn record(&mut self, from: u32, to: u32, captured: u64, n: u32);

    /// Whether the sink wants no more sequences: the search then stops as
    /// soon as it can (early exit of [`for_each_capture`]).
    #[inline(always)]
    fn stopped(&self) -> bool {
        false
    }

    /// [`CaptureSink::record`] for every square of `tos` (a bit set), in
    /// increasing bit order.
    #[inline(always)]
    fn record_each(&mut self, from: u32, mut tos: u64, captured: u64, n: u32) {
        while tos != 0 {
            let to = tos.trailing_zeros();
            tos &= tos - 1;
            self.record(from, to, captured, n);
        }
    }
}

/// Collects maximal captures into a move list, dropping duplicate triples.
pub(crate) struct ListSink<'a, const N: usize> {
    pub(crate) list: &'a mut MoveList<Move, N>,
    pub(crate) best: u32,
    /// A maximal capture did not fit in the list.
    pub(crate) overflow: bool,
}

impl<'a, const N: usize> ListSink<'a, N> {
    #[inline(always)]
    pub(crate) fn new(list: &'a mut MoveList<Move, N>) -> Self {
        list.clear();
        ListSink {
            list,
            best: 0,
            overflow: false,
        }
    }
}

impl<const N: usize> CaptureSink for ListSink<'_, N> {
    #[inline]
    fn record(&mut self, from: u32, to: u32, captured: u64, n: u32) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.list.clear();
            self.overflow = false;
        }
        let mv = Move::from_bits(from, to, captured);
        if n >= DEDUP_MIN && self.list.contains(&mv) {
            return;
        }
        if self.list.try_push(mv).is_err() {
            self.overflow = true;
        }
    }
}

/// Counts maximal captures; only the sequences that may have a duplicate
/// path (at least [`DEDUP_MIN`] captures) are stored (in a small stash,
/// created on first use) to be compared.
pub(crate) struct CountSink {
    best: u32,
    plain: u32,
    stash: Option<MoveList<Move, 32>>,
    overflow: bool,
}

impl CountSink {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        CountSink {
            best: 0,
            plain: 0,
            stash: None,
            overflow: false,
        }
    }

    /// The number of distinct maximal captures, or `None` if the stash
    /// overflowed.
    #[inline(always)]
    pub(crate) fn count(&self) -> Option<u64> {
        if self.overflow {
            None
        } else {
            Some(self.plain as u64 + self.stash.as_ref().map_or(0, |s| s.len() as u64))
        }
    }
}

impl CaptureSink for CountSink {
    #[inline(always)]
    fn record(&mut self, from: u32, to: u32, captured: u64, n: u32) {
        if n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.plain = 0;
            if let Some(stash) = &mut self.stash {
                stash.clear();
            }
            self.overflow = false;
        }
        if n < DEDUP_MIN {
            self.plain += 1;
        } else {
            self.stash_record(Move::from_bits(from, to, captured));
        }
    }

    #[inline(always)]
    fn record_each(&mut self, from: u32, mut tos: u64, captured: u64, n: u32) {
        if n < DEDUP_MIN && n >= self.best {
            if n > self.best {
                self.best = n;
                self.plain = 0;
                if let Some(stash) = &mut self.stash {
                    stash.clear();
                }
                self.overflow = false;
            }
            self.plain += tos.count_ones();
            return;
        }
        while tos != 0 {
            let to = tos.trailing_zeros();
            tos &= tos - 1;
            self.record(from, to, captured, n);
        }
    }
}

impl CountSink {
    #[cold]
    #[inline(never)]
    fn stash_record(&mut self, mv: Move) {
        let stash = self.stash.get_or_insert_with(MoveList::new);
        if !stash.contains(&mv) && stash.try_push(mv).is_err() {
            self.overflow = true;
        }
    }
}

/// The capture search for one moving piece.
struct Search<'s, S> {
    /// Opponent pieces (captured ones included: they stay until the end).
    opp: u64,
    /// Empty squares, the moving piece's origin included.
    empty: u64,
    from: u32,
    sink: &'s mut S,
}

/// `[f(0), f(1), f(2), f(3)]`, always inlined (`array::map` may not be).
#[inline(always)]
pub(crate) fn each_dir(f: impl Fn(usize) -> u64) -> [u64; 4] {
    [f(0), f(1), f(2), f(3)]
}

/// `lands[d]`: the square (one bit, or 0) a man on `b` (one bit) lands on
/// by jumping one of `alive` in direction `d`.
#[inline(always)]
fn man_landings(b: u64, alive: u64, empty: u64) -> [u64; 4] {
    each_dir(|d| step(d, step(d, b) & alive) & empty)
}

impl<S: CaptureSink> Search<'_, S> {
    /// A man having captured `captured` (`n` pieces), with `lands` its
    /// possible next landing squares (see [`man_landings`], at least one
    /// non-empty): searches every continuation. Each child's landing
    /// squares are computed here, once, to decide between recording and
    /// recursing.
    fn man(&mut self, lands: [u64; 4], captured: u64, n: u32) {
        for (d, &land) in lands.iter().enumerate() {
            if self.sink.stopped() {
                return;
            }
            if land != 0 {
                let captured = captured | step(d ^ 2, land);
                let next = man_landings(land, self.opp & !captured, self.empty);
                if next[0] | next[1] | next[2] | next[3] != 0 {
                    self.man(next, captured, n + 1);
                } else {
                    self.sink
                        .record(self.from, land.trailing_zeros(), captured, n + 1);
                }
            }
        }
    }

    /// [`Search::king_dir`] with the direction known only at run time:
    /// dispatches to the four specialised searches (callers pass
    /// directions derived from a constant, so the `match` folds away).
    #[inline(always)]
    fn king_dir_any(&mut self, cur: u32, d: usize, captured: u64, n: u32) {
        match d & 3 {
            0 => self.king_dir::<0>(cur, captured, n),
            1 => self.king_dir::<1>(cur, captured, n),
            2 => self.king_dir::<2>(cur, captured, n),
            _ => self.king_dir::<3>(cur, captured, n),
        }
    }

    /// A king on `cur` (having captured `captured`, `n` pieces) trying to
    /// capture in direction `D`: one copy per direction, so that every
    /// step is one shift and every ray table row is known.
    fn king_dir<const D: usize>(&mut self, cur: u32, captured: u64, n: u32) {
        let d = D;
        let occ = RAYS[d][cur as usize & 63] & !self.empty;
        if occ == 0 || self.sink.stopped() {
            return;
        }
        let p = nearest(d, occ);
        let pb = 1u64 << p;
        if pb & self.opp & !captured == 0 {
            return;
        }
        // The landing run beyond `p`, and the first piece after it.
        let beyond = RAYS[d][p as usize & 63];
        let blockers = beyond & !self.empty;
        let (landings, next) = if blockers == 0 {
            (beyond, 0)
        } else {
            let q = nearest(d, blockers);
            (
                beyond & !(RAYS[d][q as usize & 63] | (1u64 << q)),
                1u64 << q,
            )
        };
        if landings == 0 {
            return;
        }
        let captured = captured | pb;
        let n = n + 1;
        let alive = self.opp & !captured;
        // If the piece after the landing run can be taken too, the
        // continuation along `d` is the same from every landing square, so
        // it is searched once (from the last landing square).
        let cont = next & alive & step(d ^ 2, self.empty) != 0;
        if cont {
            let last = nearest(d ^ 2, landings);
            self.king_dir::<D>(last, captured, n);
        }
        // Pieces that can be taken sideways (an empty square behind them):
        // tested here so that the search only recurses into real captures.
        let (e1, e3) = (d ^ 1, d ^ 3);
        let take1 = alive & step(e1 ^ 2, self.empty);
        let take3 = alive & step(e3 ^ 2, self.empty);
        let (side1, side3) = if landings & (landings - 1) == 0 {
            // One landing square: look along its two sideways diagonals.
            let l = landings.trailing_zeros() as usize;
            (
                sees(e1, l, take1, self.empty) & landings,
                sees(e3, l, take3, self.empty) & landings,
            )
        } else {
            (
                seers(e1, take1, self.empty, landings),
                seers(e3, take3, self.empty, landings),
            )
        };
        let goes_on = cont | (side1 | side3 != 0);
        // Landing square by landing square, as the list order expects.
        let mut rest = side1 | side3;
        while rest != 0 {
            let l = rest.trailing_zeros();
            rest &= rest - 1;
            if side1 >> l & 1 != 0 {
                self.king_dir_any(l, e1, captured, n);
            }
            if side3 >> l & 1 != 0 {
                self.king_dir_any(l, e3, captured, n);
            }
        }
        // A continuation from any landing square is a real capture (its
        // first piece can be taken), so it records a longer sequence and
        // the sequences ending here are not maximal: they are recorded
        // only when nothing goes on, all at once.
        if !goes_on {
            self.sink.record_each(self.from, landings, captured, n);
        }
    }
}

/// All ones if a king on bit `l` looking in direction `e` over `empty`
/// squares first meets a piece of `targets`, else 0.
#[inline(always)]
fn sees(e: usize, l: usize, targets: u64, empty: u64) -> u64 {
    let occ = RAYS[e][l & 63] & !empty;
    if occ == 0 {
        return 0;
    }
    0u64.wrapping_sub(targets >> nearest(e, occ) & 1)
}

/// Pieces of the side to move seen from that side.
#[derive(Clone, Copy)]
pub(crate) struct Sides {
    pub(crate) men: u64,
    pub(crate) kings: u64,
    pub(crate) opp: u64,
    pub(crate) empty: u64,
}

impl Position {
    /// [`Position::sides`] when the side to move is known (`WHITE`).
    #[inline(always)]
    pub(crate) fn sides_of<const WHITE: bool>(&self) -> Sides {
        let (own, opp) = if WHITE {
            (self.white, self.black)
        } else {
            (self.black, self.white)
        };
        Sides {
            men: own & !self.kings,
            kings: own & self.kings,
            opp,
            empty: BOARD & !(self.white | self.black),
        }
    }

    #[inline(always)]
    pub(crate) fn sides(&self) -> Sides {
        match self.side {
            Color::White => self.sides_of::<true>(),
            Color::Black => self.sides_of::<false>(),
        }
    }
}

/// `jumps[d]`: the squares from which a man can capture in direction `d`
/// (an opponent piece next to it, an empty square beyond), whoever stands
/// there.
#[inline(always)]
pub(crate) fn jump_sources(s: &Sides) -> [u64; 4] {
    // Walk back from the landing square: empty <- opp <- source.
    each_dir(|d| step(d ^ 2, step(d ^ 2, s.empty) & s.opp))
}

/// Men of `s` that have at least one capture.
#[inline(always)]
pub(crate) fn men_capturers(s: &Sides) -> u64 {
    let j = jump_sources(s);
    (j[0] | j[1] | j[2] | j[3]) & s.men
}

/// The number of maximal captures and the number of pieces they take (1 or
/// 2) when only men can capture and none can take more than 2 pieces, counted for all men at once from the jump
/// sources `j` (see [`jump_sources`]); `None` when some man can take 3 or
/// more (a full search is needed).
///
/// The jump sources are computed on the board before the move: the moving
/// man's origin counts as occupied and the pieces it has taken as still
/// capturable. Neither matters for the second and third jumps: jump `k`
/// lands on the origin only if the `k` unit diagonal steps sum to zero
/// (impossible for odd `k`, and for `k = 2` it is the reverse jump, which
/// is excluded here), and jump 2 or 3 can only pass over an earlier
/// captured piece by reversing the previous jump (excluded). Each (man,
/// first direction, second direction) is one path and, with fewer than
/// [`DEDUP_MIN`] captures, one distinct move.
#[inline(always)]
pub(crate) fn short_man_captures(s: &Sides, j: &[u64; 4]) -> Option<(u32, u32)> {
    let mut n1 = 0;
    let mut n2 = 0;
    for d in 0..4 {
        let jumpers = s.men & j[d];
        if jumpers != 0 {
            n1 += sparse_len(jumpers);
            let land1 = step(d, step(d, jumpers));
            for e in [d, d ^ 1, d ^ 3] {
                let again = land1 & j[e];
                if again != 0 {
                    n2 += sparse_len(again);
                    let land2 = step(e, step(e, again));
                    if land2 & (j[e] | j[e ^ 1] | j[e ^ 3]) != 0 {
                        return None;
                    }
                }
            }
        }
    }
    Some(if n2 > 0 { (n2, 2) } else { (n1, 1) })
}

/// The number of maximal captures when only men can capture and none can
/// take more than 3 pieces (`None`: a full search is needed), computed with
/// few branches for the leaves of `perft`.
///
/// The jump sources `j` are those of the board before the move (the
/// moving man's origin occupied, the pieces it takes still there), and
/// they give exactly the jumps 2 and 3 of a sequence except the reverse of
/// the previous jump: jump `k` lands on the origin only if `k` unit
/// diagonal steps sum to zero (never for odd `k`; for `k = 2` only by the
/// reverse jump, which `j` does not list since the origin is occupied),
/// and jump 2, 3 or 4 passes over an earlier captured piece only by
/// reversing the previous jump (for the piece taken two or three jumps
/// earlier the steps would have to sum to a vector with a coordinate of
/// 3 or 4). So the 4th jump differs from `j` only by possibly landing on
/// the origin, and it is looked for with the moving side's pieces counted
/// as empty landing squares (a superset: any hit means a full search).
///
/// Each landing square stands for one sequence as long as no two
/// sequences of the same length land on the same square (checked; if they
/// do, [`short_man_captures`] or the full search counts). With fewer than
/// [`DEDUP_MIN`] captures every sequence is a distinct move.
#[inline(always)]
fn short_man_count(s: &Sides, j: &[u64; 4]) -> Option<u32> {
    let land1 = each_dir(|d| step(d, step(d, s.men & j[d])));
    let all1 = land1[0] | land1[1] | land1[2] | land1[3];
    let again = each_dir(|e| all1 & j[e]);
    if again[0] | again[1] | again[2] | again[3] == 0 {
        // One jump each: one landing square per capture unless two meet.
        return if overlaps(&land1) == 0 {
            Some(all1.count_ones())
        } else {
            short_man_captures(s, j).map(|(n, _)| n)
        };
    }
    let land2 = each_dir(|e| step(e, step(e, again[e])));
    // Third jumps, leaving out the reverse of the second.
    let third = each_dir(|f| (land2[f] | land2[f ^ 1] | land2[f ^ 3]) & j[f]);
    if overlaps(&land1) | overlaps(&land2) != 0 {
        return short_man_captures(s, j).map(|(n, _)| n);
    }
    if third[0] | third[1] | third[2] | third[3] != 0 {
        return three_jump_count(s, &third);
    }
    Some(if again[0] | again[1] | again[2] | again[3] != 0 {
        count_sum(&again)
    } else {
        all1.count_ones()
    })
}

/// The number of men's captures when each is a single jump (`None` if
/// one may go on), for the leaves of `perft`: `targets[d]` holds the
/// pieces of the opponent with an empty square beyond them in direction
/// `d`, `taken[d]` those of them next to a man in direction `d` (taken by
/// it). Each (taken piece, direction) is one jump and a distinct move; a
/// jump goes on if its landing square is next to a target in some
/// direction. As in [`short_man_count`], the jumping man's origin counts
/// as occupied and its captured piece as present, which only hides the
/// forbidden reverse jump.
#[inline(always)]
fn single_jumps(taken: &[u64; 4], targets: &[u64; 4]) -> Option<u32> {
    let lands = step(0, taken[0]) | step(1, taken[1]) | step(2, taken[2]) | step(3, taken[3]);
    let more = (step(0, lands) & targets[0])
        | (step(1, lands) & targets[1])
        | (step(2, lands) & targets[2])
        | (step(3, lands) & targets[3]);
    if more != 0 {
        return None;
    }
    Some(taken.iter().map(|&t| sparse_len(t)).sum())
}

/// The count of 3-jump sequences (`third[f]`: the squares where a third
/// jump in direction `f` starts, one per sequence), or `None` if one of
/// them may go on.
#[inline(never)]
fn three_jump_count(s: &Sides, third: &[u64; 4]) -> Option<u32> {
    // Jump sources with every non-opponent square as a landing square.
    let jo = each_dir(|g| step(g ^ 2, step(g ^ 2, BOARD & !s.opp) & s.opp));
    let mut fourth = 0;
    for f in 0..4 {
        fourth |= step(f, step(f, third[f])) & (jo[f] | jo[f ^ 1] | jo[f ^ 3]);
    }
    if fourth != 0 {
        return None;
    }
    Some(count_sum(third))
}

/// The sum of the sizes of four sets.
#[inline(always)]
fn count_sum(sets: &[u64; 4]) -> u32 {
    if overlaps(sets) == 0 {
        (sets[0] | sets[1] | sets[2] | sets[3]).count_ones()
    } else {
        sets.iter().map(|s| sparse_len(*s)).sum()
    }
}

/// The squares in at least two of the four sets.
#[inline(always)]
pub(crate) fn overlaps(sets: &[u64; 4]) -> u64 {
    (sets[0] & sets[1]) | ((sets[0] | sets[1]) & (sets[2] | sets[3])) | (sets[2] & sets[3])
}

/// The number of squares in `set`, for sets that usually hold 1 or 2: a
/// loop per square is cheaper there than `count_ones` on targets without
/// a population-count instruction (baseline x86-64); `count_ones` where
/// there is one.
#[inline(always)]
fn sparse_len(mut set: u64) -> u32 {
    if cfg!(target_feature = "popcnt") {
        return set.count_ones();
    }
    let mut n = 0;
    while set != 0 {
        set &= set - 1;
        n += 1;
    }
    n
}

/// Whether the king on `k` has a capture.
#[inline(always)]
fn king_can_capture(k: u32, s: &Sides) -> bool {
    (0..4).any(|d| king_captures_towards(k, d, s.opp, s.empty))
}

/// Whether a king on `k` can capture in direction `d`: the first piece on
/// that diagonal is one of `opp` with an `empty` square behind it.
#[inline(always)]
fn king_captures_towards(k: u32, d: usize, opp: u64, empty: u64) -> bool {
    let occ = RAYS[d][k as usize & 63] & !empty;
    if occ == 0 {
        return false;
    }
    let p = 1u64 << nearest(d, occ);
    p & opp != 0 && step(d, p) & empty != 0
}

/// Whether the side to move must capture.
#[inline(always)]
pub(crate) fn has_capture(s: &Sides) -> bool {
    men_capturers(s) != 0 || kings_capture(s)
}

/// Runs the capture search for every piece of the side to move.
#[inline]
pub(crate) fn captures<S: CaptureSink>(s: &Sides, sink: &mut S) {
    captures_by(s, men_capturers(s), s.kings, sink);
}

/// [`captures`] in an order of its own (a man's sequences in the bit order
/// of their landing squares, not in direction order), for counting, where
/// the order does not matter: the men's search is a loop over an explicit
/// stack ([`man_sequences`]) instead of a recursion.
#[inline]
pub(crate) fn captures_unordered<S: CaptureSink>(s: &Sides, sink: &mut S) {
    let mut men = men_capturers(s);
    while men != 0 {
        if sink.stopped() {
            return;
        }
        let b = men & men.wrapping_neg();
        men &= men - 1;
        if s.opp.count_ones() <= 20 {
            man_sequences(s.opp, s.empty | b, b, sink);
        } else {
            // More pieces than the stack has room for.
            captures_by(s, b, 0, sink);
        }
    }
    captures_by(s, 0, s.kings, sink);
}

/// The squares a man on `b` (one bit) lands on by jumping one of `alive`,
/// over `empty` squares, in any direction (one square per direction).
#[inline(always)]
fn man_lands(b: u64, alive: u64, empty: u64) -> u64 {
    (step(0, step(0, b) & alive)
        | step(1, step(1, b) & alive)
        | step(2, step(2, b) & alive)
        | step(3, step(3, b) & alive))
        & empty
}

/// Every complete capture sequence of the man on `b` (one bit; `empty`
/// includes its square), depth first, into `sink`. The stack holds, per
/// piece taken so far, the square reached, the landing squares still to
/// try from it and the pieces taken; a jump's piece is the square midway
/// (in bits) between its two ends. A sequence takes each piece of `opp`
/// at most once: with at most 20 pieces in `opp` (the caller checks), it
/// is at most 20 deep, the size of the stack.
#[inline(never)]
fn man_sequences<S: CaptureSink>(opp: u64, empty: u64, b: u64, sink: &mut S) {
    let from = b.trailing_zeros();
    let mut stack = [(0u64, 0u64, 0u64); 20];
    stack[0] = (b, man_lands(b, opp, empty), 0);
    let mut sp = 0;
    while let Some(top) = stack.get_mut(sp) {
        let (cur, left, captured) = *top;
        if left == 0 {
            if sp == 0 || sink.stopped() {
                return;
            }
            sp -= 1;
            continue;
        }
        let l = left & left.wrapping_neg();
        top.1 = left ^ l;
        let to = l.trailing_zeros();
        let captured = captured | 1u64 << ((cur.trailing_zeros() + to) / 2);
        let next = man_lands(l, opp & !captured, empty);
        sp += 1;
        if next == 0 {
            sink.record(from, to, captured, sp as u32);
            sp -= 1;
        } else if let Some(e) = stack.get_mut(sp) {
            *e = (l, next, captured);
        }
    }
}

/// [`captures`] for the men of `men` and the kings of `kings` only.
#[inline(always)]
fn captures_by<S: CaptureSink>(s: &Sides, mut men: u64, kings: u64, sink: &mut S) {
    while men != 0 {
        if sink.stopped() {
            return;
        }
        let b = men & men.wrapping_neg();
        men &= men - 1;
        let empty = s.empty | b;
        let mut search = Search {
            opp: s.opp,
            empty,
            from: b.trailing_zeros(),
            sink: &mut *sink,
        };
        search.man(man_landings(b, s.opp, empty), 0, 0);
    }
    let mut ks = kings;
    while ks != 0 {
        let from = ks.trailing_zeros();
        ks &= ks - 1;
        let mut search = Search {
            opp: s.opp,
            empty: s.empty | (1u64 << from),
            from,
            sink: &mut *sink,
        };
        for d in 0..4 {
            if search.sink.stopped() {
                return;
            }
            // Most directions have no capture: test before the call.
            if king_captures_towards(from, d, s.opp, search.empty) {
                search.king_dir_any(from, d, 0, 0);
            }
        }
    }
}

/// Forward directions of the men of `side`.
#[inline(always)]
pub(crate) const fn forward(side: Color) -> [usize; 2] {
    match side {
        Color::White => [2, 3],
        Color::Black => [0, 1],
    }
}

/// Number of quiet moves (no capture available is assumed).
#[inline(always)]
pub(crate) fn count_quiet(s: &Sides, side: Color) -> u64 {
    let mut n = count_men_quiet(s, side);
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks.trailing_zeros();
        ks &= ks - 1;
        n += super::bitboard::king_moves(k, s.empty).count_ones();
    }
    n as u64
}

/// Number of quiet moves of the men (no capture available is assumed).
#[inline(always)]
fn count_men_quiet(s: &Sides, side: Color) -> u32 {
    let [d1, d2] = forward(side);
    count_pair(step(d1, s.men) & s.empty, step(d2, s.men) & s.empty)
}

/// Looks along the four diagonals of every king of `s` at once: whether
/// one of them can capture, and their number of quiet moves (meaningful
/// only when none can capture). One pass with few branches, for the leaves
/// of `perft`.
#[inline(always)]
fn kings_look(s: &Sides) -> (bool, u32) {
    let mut capture = 0;
    let mut quiet = 0;
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        // The four diagonals of one king are disjoint: one count per king
        // (a software population count on baseline x86-64).
        let mut reach = 0;
        for (d, rays) in RAYS.iter().enumerate() {
            let ray = rays[k];
            let occ = ray & !s.empty;
            // The first piece met (0 if none) and the squares before it.
            let (first, before) = if occ == 0 {
                (0, ray)
            } else {
                let b = nearest(d, occ);
                (1u64 << b, ray & !(rays[b as usize & 63] | (1u64 << b)))
            };
            reach |= before;
            // A capture: the first piece is the opponent's with an empty
            // square behind it.
            capture |= step(d, first & s.opp) & s.empty;
        }
        quiet += reach.count_ones();
    }
    (capture != 0, quiet)
}

/// `a.count_ones() + b.count_ones()`; without a population-count
/// instruction (baseline x86-64) with one final multiply (the byte-wise
/// partial sums of both are added first; each byte stays below 17).
#[inline(always)]
pub(crate) fn count_pair(a: u64, b: u64) -> u32 {
    if cfg!(target_feature = "popcnt") {
        return a.count_ones() + b.count_ones();
    }
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    const H01: u64 = 0x0101_0101_0101_0101;
    let bytes = |x: u64| {
        let x = x - ((x >> 1) & M1);
        let x = (x & M2) + ((x >> 2) & M2);
        (x + (x >> 4)) & M4
    };
    ((bytes(a) + bytes(b)).wrapping_mul(H01) >> 56) as u32
}

/// Calls `f` with every quiet move (no capture available is assumed), men
/// first, until it returns [`ControlFlow::Break`].
#[inline]
pub(crate) fn for_each_quiet<B>(
    s: &Sides,
    side: Color,
    mut f: impl FnMut(Move) -> ControlFlow<B>,
) -> ControlFlow<B> {
    for d in forward(side) {
        let mut to = step(d, s.men) & s.empty;
        while to != 0 {
            let t = to.trailing_zeros();
            to &= to - 1;
            let from = step(d ^ 2, 1u64 << t).trailing_zeros();
            f(Move::from_bits(from, t, 0))?;
        }
    }
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks.trailing_zeros();
        ks &= ks - 1;
        let mut to = super::bitboard::king_moves(k, s.empty);
        while to != 0 {
            let t = to.trailing_zeros();
            to &= to - 1;
            f(Move::from_bits(k, t, 0))?;
        }
    }
    ControlFlow::Continue(())
}

/// Pushes every quiet move (no capture available is assumed).
pub(crate) fn quiet_moves<const N: usize>(
    s: &Sides,
    side: Color,
    list: &mut MoveList<Move, N>,
) -> Result<(), CapacityError> {
    match for_each_quiet(s, side, |mv| match list.try_push(mv) {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => ControlFlow::Break(e),
    }) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(e) => Err(e),
    }
}

/// Fills `list` with every legal move of `pos`.
pub(crate) fn legal_moves_into<const N: usize>(
    pos: &Position,
    list: &mut MoveList<Move, N>,
) -> Result<(), CapacityError> {
    list.clear();
    let s = pos.sides();
    if has_capture(&s) {
        let mut sink = ListSink::new(list);
        captures(&s, &mut sink);
        if sink.overflow {
            return Err(CapacityError { capacity: N });
        }
        Ok(())
    } else {
        quiet_moves(&s, pos.side, list)
    }
}

/// The number of legal moves of `pos` (captures deduplicated), without
/// building a full move list. Exact for any number of moves.
#[inline]
pub(crate) fn count_legal(pos: &Position) -> u64 {
    match pos.side {
        Color::White => count_legal_of::<true>(pos),
        Color::Black => count_legal_of::<false>(pos),
    }
}

/// [`count_legal`] with the side to move known (`WHITE`).
#[inline(always)]
pub(crate) fn count_legal_of<const WHITE: bool>(pos: &Position) -> u64 {
    count_sides::<WHITE>(&pos.sides_of::<WHITE>())
}

/// [`count_legal_of`] from the pieces seen from the side to move
/// (`WHITE`): the leaves of `perft` derive them from the parent's without
/// building the child position.
#[inline(always)]
pub(crate) fn count_sides<const WHITE: bool>(s: &Sides) -> u64 {
    let s = *s;
    let mut kings_quiet = 0;
    if s.kings != 0 {
        let (capture, quiet) = kings_look(&s);
        if capture {
            return count_king_captures(&s);
        }
        kings_quiet = quiet;
    }
    let targets = each_dir(|d| s.opp & step(d ^ 2, s.empty));
    let taken = each_dir(|d| step(d, s.men) & targets[d]);
    if taken[0] | taken[1] | taken[2] | taken[3] == 0 {
        let side = if WHITE { Color::White } else { Color::Black };
        return (count_men_quiet(&s, side) + kings_quiet) as u64;
    }
    if let Some(n) = single_jumps(&taken, &targets) {
        return n as u64;
    }
    let j = each_dir(|d| step(d ^ 2, targets[d]));
    match short_man_count(&s, &j) {
        Some(n) => n as u64,
        None => count_captures(&s),
    }
}

/// What the children of a `perft` leaf parent share when its side to move
/// has only quiet moves: the opponent's pieces (`o`, seen from the
/// opponent, who moves in every child), its men shifted one step in each
/// direction (`m[d]`, the squares next to them), and what its kings see
/// (`look`, see [`kings_look`]) along their diagonals (`rays`). A quiet
/// move changes only the opponent's opponent pieces and the empty
/// squares, and the kings see the same unless it touches their diagonals.
#[derive(Clone, Copy)]
pub(crate) struct QuietParent {
    o: Sides,
    m: [u64; 4],
    rays: u64,
    look: (bool, u32),
}

impl QuietParent {
    /// Whether the opponent has kings.
    #[inline(always)]
    pub(crate) fn kings(&self) -> bool {
        self.o.kings != 0
    }
}

impl QuietParent {
    #[inline(always)]
    pub(crate) fn new(o: Sides) -> Self {
        let mut rays = 0;
        let mut look = (false, 0);
        if o.kings != 0 {
            look = kings_look(&o);
            let mut ks = o.kings;
            while ks != 0 {
                let k = ks.trailing_zeros() as usize;
                ks &= ks - 1;
                rays |= RAYS[0][k] | RAYS[1][k] | RAYS[2][k] | RAYS[3][k];
            }
        }
        QuietParent {
            o,
            m: each_dir(|d| step(d, o.men)),
            rays,
            look,
        }
    }

    /// The number of legal moves of the opponent (`WHITE`: the opponent
    /// is White) after the quiet move between the two squares of `ft`
    /// (from | to), as [`count_sides`] counts them. A man captures in
    /// direction `d` when the square next to it (`m[d]`) holds an opponent
    /// piece with an empty square behind it (`step(d ^ 2, empty)`);
    /// without a capture the men's quiet moves are the empty squares of
    /// `m` forward.
    ///
    /// `KINGS`: whether the opponent has kings (a copy without them skips
    /// their look).
    #[inline(always)]
    pub(crate) fn count<const WHITE: bool, const KINGS: bool>(&self, ft: u64) -> u64 {
        let opp = self.o.opp ^ ft;
        let empty = self.o.empty ^ ft;
        let s = Sides {
            opp,
            empty,
            ..self.o
        };
        let (capture, kings_quiet) = if !KINGS || ft & self.rays == 0 {
            self.look
        } else {
            kings_look(&s)
        };
        if capture {
            return count_king_captures(&s);
        }
        let m = &self.m;
        let targets = each_dir(|d| opp & step(d ^ 2, empty));
        let taken = each_dir(|d| m[d] & targets[d]);
        if taken[0] | taken[1] | taken[2] | taken[3] == 0 {
            let side = if WHITE { Color::White } else { Color::Black };
            let [d1, d2] = forward(side);
            return (count_pair(m[d1] & empty, m[d2] & empty) + kings_quiet) as u64;
        }
        if let Some(n) = single_jumps(&taken, &targets) {
            return n as u64;
        }
        let j = each_dir(|d| step(d ^ 2, targets[d]));
        match short_man_count(&s, &j) {
            Some(n) => n as u64,
            None => count_captures(&s),
        }
    }

    /// The sum of [`QuietParent::count`] over every quiet move of `s`
    /// (the side to move at the leaf parent, the opponent of `WHITE`, with
    /// no capture), or `None` when the opponent can already capture before
    /// the move (every child is then counted on its own).
    ///
    /// Counted for whole sets of moves at once: when the opponent cannot
    /// capture before the move, a capture after the move between `f` and
    /// `t` must take the moved piece on `t` or land on the emptied `f`
    /// (every other jump was there before), and the kings see the same
    /// unless `f` or `t` is on their diagonals. The moves doing neither
    /// ("good") leave the opponent only quiet moves, and a man's move
    /// changes their number by `[f next to a man forward] - [t next to a
    /// man forward]` (two directions): a sum of population counts over the
    /// good moves' `to` and `from` sets. The others are counted one by one.
    #[inline(always)]
    pub(crate) fn sum_children<const WHITE: bool, const KINGS: bool>(
        &self,
        s: &Sides,
    ) -> Option<u64> {
        let o = &self.o;
        let m = &self.m;
        let empty = o.empty;
        // The squares where a piece would be taken by a man of the
        // opponent (next to the man, an empty square beyond).
        let hit = (m[0] & step(2, empty))
            | (m[1] & step(3, empty))
            | (m[2] & step(0, empty))
            | (m[3] & step(1, empty));
        if hit & o.opp != 0 || (KINGS && self.look.0) {
            return None;
        }
        // The squares a man of the opponent would land on, jumping a piece
        // of `s`, if they were empty.
        let lands = step(0, m[0] & o.opp)
            | step(1, m[1] & o.opp)
            | step(2, m[2] & o.opp)
            | step(3, m[3] & o.opp);
        let side = if WHITE { Color::White } else { Color::Black };
        let [od1, od2] = forward(side);
        let (m1, m2) = (m[od1], m[od2]);
        let rays = if KINGS { self.rays } else { 0 };
        let base = count_pair(m1 & empty, m2 & empty) + if KINGS { self.look.1 } else { 0 };
        // The men of `s` move against the opponent's forward directions.
        let mut nodes = self.men_sum::<WHITE, KINGS>(od1 ^ 2, s.men, hit, lands, rays, base);
        nodes += self.men_sum::<WHITE, KINGS>(od2 ^ 2, s.men, hit, lands, rays, base);
        let mut ks = s.kings;
        while ks != 0 {
            let k = ks.trailing_zeros();
            let kb = 1u64 << k;
            ks &= ks - 1;
            let to = super::bitboard::king_moves(k, empty);
            // A man of the opponent next to `t` jumping it back onto `k`.
            let back = (step(0, kb) & m[2])
                | (step(1, kb) & m[3])
                | (step(2, kb) & m[0])
                | (step(3, kb) & m[1]);
            let bad = if kb & (lands | rays) != 0 {
                to
            } else {
                to & (hit | rays | back)
            };
            let good = to & !bad;
            let kbase = base + count_pair(kb & m1, kb & m2);
            nodes += (good.count_ones() * kbase - count_pair(good & m1, good & m2)) as u64;
            let mut b = bad;
            while b != 0 {
                let t = b & b.wrapping_neg();
                b &= b - 1;
                nodes += self.count::<WHITE, KINGS>(kb | t);
            }
        }
        Some(nodes)
    }

    /// [`QuietParent::sum_children`] for the men's moves in direction `d`.
    #[inline(always)]
    fn men_sum<const WHITE: bool, const KINGS: bool>(
        &self,
        d: usize,
        men: u64,
        hit: u64,
        lands: u64,
        rays: u64,
        base: u32,
    ) -> u64 {
        let m = &self.m;
        let side = if WHITE { Color::White } else { Color::Black };
        let [od1, od2] = forward(side);
        let (m1, m2) = (m[od1], m[od2]);
        let to = step(d, men) & self.o.empty;
        // Taken on `t` (also by a man jumping back onto `f`), a man landing
        // on `f`, or on a king's diagonal.
        let bad = to & (hit | m[d ^ 2] | step(d, lands) | rays | step(d, rays));
        let good = to & !bad;
        let from = step(d ^ 2, good);
        let mut nodes = (good.count_ones() * base + count_pair(from & m1, from & m2)
            - count_pair(good & m1, good & m2)) as u64;
        let mut b = bad;
        while b != 0 {
            let t = b & b.wrapping_neg();
            b &= b - 1;
            nodes += self.count::<WHITE, KINGS>(t | step(d ^ 2, t));
        }
        nodes
    }
}

#[inline(never)]
fn count_captures(s: &Sides) -> u64 {
    let mut sink = CountSink::new();
    captures_unordered(s, &mut sink);
    count_of(s, &sink)
}

/// [`count_captures`] when a king can capture: if the men's captures are
/// short (see [`short_man_captures`]), their number and length start the
/// count and the kings are counted by [`KingCount`] (no move is built);
/// otherwise, or when a king can take [`DEDUP_MIN`] pieces or more (its
/// paths may then give the same move twice), the full search counts.
#[inline(never)]
fn count_king_captures(s: &Sides) -> u64 {
    let j = jump_sources(s);
    let men = (j[0] | j[1] | j[2] | j[3]) & s.men;
    let mut acc = 0;
    if men != 0 {
        match short_man_captures(s, &j) {
            // Fewer than DEDUP_MIN captures: distinct moves, and none is
            // a king's (another origin).
            Some((n, len)) => acc = tally(len, n),
            None => return count_captures(s),
        }
    }
    let mut long = CountSink::new();
    let mut ks = s.kings;
    while ks != 0 {
        let from = ks.trailing_zeros();
        ks &= ks - 1;
        let mut kc = KingCount {
            opp: s.opp,
            empty: s.empty | (1u64 << from),
            from,
            long: &mut long,
        };
        acc = merge(acc, kc.all_directions());
    }
    if long.best == 0 {
        acc & 0xffff_ffff
    } else {
        // Longer than any tally: the men take at most 2 pieces.
        count_of(s, &long)
    }
}

/// The number of squares of `run`, a non-empty run of consecutive squares
/// along a diagonal in direction `D`: one step is always 5 or 6 bits in
/// the board layout, so it is the distance between its ends over the step
/// plus one (cheaper than a population count without the instruction).
#[inline(always)]
fn run_len<const D: usize>(run: u64) -> u32 {
    let span = 63 - run.leading_zeros() - run.trailing_zeros();
    span / super::bitboard::DIR_SHIFT[D].unsigned_abs() + 1
}

/// A number of capture sequences and their length, packed as
/// `len << 32 | count` so that [`merge`] keeps the longest.
#[inline(always)]
const fn tally(len: u32, count: u32) -> u64 {
    (len as u64) << 32 | count as u64
}

/// The maximal sequences of two [`tally`]s: the longer ones, or both
/// counts if they are as long.
#[inline(always)]
fn merge(a: u64, b: u64) -> u64 {
    if a >> 32 == b >> 32 {
        a + (b & 0xffff_ffff)
    } else {
        a.max(b)
    }
}

/// Counts a king's maximal capture sequences the way [`Search::king_dir`]
/// searches them (the same canonical paths), returning a [`tally`]
/// instead of recording each: for the leaves of `perft`, where only the
/// number of moves is needed. From the capture that takes [`DEDUP_MIN`]
/// pieces on, two paths may be one move: the search goes on as
/// [`Search::king_dir`] into `long`, which compares them.
struct KingCount<'a> {
    /// Opponent pieces (captured ones included: they stay until the end).
    opp: u64,
    /// Empty squares, the king's origin included.
    empty: u64,
    /// The king's origin.
    from: u32,
    /// The sequences of [`DEDUP_MIN`] pieces or more.
    long: &'a mut CountSink,
}

impl KingCount<'_> {
    /// The tally of the king: its four directions.
    #[inline(always)]
    fn all_directions(&mut self) -> u64 {
        let from = self.from;
        let mut acc = 0;
        // Most directions have no capture: test before the call.
        if king_captures_towards(from, 0, self.opp, self.empty) {
            acc = self.dir::<0>(from, 0, 0);
        }
        if king_captures_towards(from, 1, self.opp, self.empty) {
            acc = merge(acc, self.dir::<1>(from, 0, 0));
        }
        if king_captures_towards(from, 2, self.opp, self.empty) {
            acc = merge(acc, self.dir::<2>(from, 0, 0));
        }
        if king_captures_towards(from, 3, self.opp, self.empty) {
            acc = merge(acc, self.dir::<3>(from, 0, 0));
        }
        acc
    }

    /// [`KingCount::dir`] with the direction known at run time.
    #[inline(always)]
    fn dir_any(&mut self, cur: u32, d: usize, captured: u64, n: u32) -> u64 {
        match d & 3 {
            0 => self.dir::<0>(cur, captured, n),
            1 => self.dir::<1>(cur, captured, n),
            2 => self.dir::<2>(cur, captured, n),
            _ => self.dir::<3>(cur, captured, n),
        }
    }

    /// [`Search::king_dir`], counting: the tally of the sequences of the
    /// king on `cur` (having taken `captured`, `n` pieces) that go on in
    /// direction `D` (0 if none).
    fn dir<const D: usize>(&mut self, cur: u32, captured: u64, n: u32) -> u64 {
        if n + 1 >= DEDUP_MIN {
            return self.long_dir::<D>(cur, captured, n);
        }
        let d = D;
        let occ = RAYS[d][cur as usize & 63] & !self.empty;
        if occ == 0 {
            return 0;
        }
        let p = nearest(d, occ);
        let pb = 1u64 << p;
        if pb & self.opp & !captured == 0 {
            return 0;
        }
        let beyond = RAYS[d][p as usize & 63];
        let blockers = beyond & !self.empty;
        let (landings, next) = if blockers == 0 {
            (beyond, 0)
        } else {
            let q = nearest(d, blockers);
            (
                beyond & !(RAYS[d][q as usize & 63] | (1u64 << q)),
                1u64 << q,
            )
        };
        if landings == 0 {
            return 0;
        }
        let captured = captured | pb;
        let n = n + 1;
        let alive = self.opp & !captured;
        let mut acc = 0;
        // Along `d`: the same from every landing square, searched once.
        let cont = next & alive & step(d ^ 2, self.empty) != 0;
        if cont {
            acc = self.dir::<D>(nearest(d ^ 2, landings), captured, n);
        }
        let (e1, e3) = (d ^ 1, d ^ 3);
        let take1 = alive & step(e1 ^ 2, self.empty);
        let take3 = alive & step(e3 ^ 2, self.empty);
        let (side1, side3) = if landings & (landings - 1) == 0 {
            let l = landings.trailing_zeros() as usize;
            (
                sees(e1, l, take1, self.empty) & landings,
                sees(e3, l, take3, self.empty) & landings,
            )
        } else {
            (
                seers(e1, take1, self.empty, landings),
                seers(e3, take3, self.empty, landings),
            )
        };
        if !cont && side1 | side3 == 0 {
            // Nothing goes on: one sequence per landing square.
            return tally(n, run_len::<D>(landings));
        }
        let mut rest = side1;
        while rest != 0 {
            let l = rest.trailing_zeros();
            rest &= rest - 1;
            acc = merge(acc, self.dir_any(l, e1, captured, n));
        }
        let mut rest = side3;
        while rest != 0 {
            let l = rest.trailing_zeros();
            rest &= rest - 1;
            acc = merge(acc, self.dir_any(l, e3, captured, n));
        }
        acc
    }
}

impl KingCount<'_> {
    /// The search from the capture taking [`DEDUP_MIN`] pieces on, into
    /// `long` (its tally is 0).
    #[cold]
    #[inline(never)]
    fn long_dir<const D: usize>(&mut self, cur: u32, captured: u64, n: u32) -> u64 {
        let mut search = Search {
            opp: self.opp,
            empty: self.empty,
            from: self.from,
            sink: &mut *self.long,
        };
        search.king_dir::<D>(cur, captured, n);
        0
    }
}

/// The count of `sink` after a search of `s`, or (if its stash overflowed)
/// the count of [`for_each_capture`].
#[inline(always)]
fn count_of(s: &Sides, sink: &CountSink) -> u64 {
    match sink.count() {
        Some(n) => n,
        None => {
            let mut n = 0;
            let _ = for_each_capture(s, |_| {
                n += 1;
                ControlFlow::<()>::Continue(())
            });
            n
        }
    }
}

/// Calls `f` once for every legal capture (maximal, deduplicated) of `s`,
/// in search order (the order of [`legal_moves_into`]), however many there
/// are, with no heap allocation, until `f` returns [`ControlFlow::Break`].
///
/// A first search finds the maximal number of pieces. Below [`DEDUP_MIN`]
/// every sequence is a distinct move, so a second search hands the
/// maximal ones to `f` as it finds them and stops at the first `Break`.
/// From [`DEDUP_MIN`] on, duplicates must be dropped, so the moves are
/// collected first ([`for_each_listed_capture`]).
pub(crate) fn for_each_capture<B>(
    s: &Sides,
    f: impl FnMut(Move) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mut most = BestSink(0);
    captures(s, &mut most);
    if most.0 >= DEDUP_MIN {
        return for_each_listed_capture(s, f);
    }
    let mut stream = StreamSink {
        best: most.0,
        f,
        flow: ControlFlow::Continue(()),
    };
    captures(s, &mut stream);
    stream.flow
}

/// The maximal number of pieces a capture takes.
struct BestSink(u32);

impl CaptureSink for BestSink {
    #[inline(always)]
    fn record(&mut self, _from: u32, _to: u32, _captured: u64, n: u32) {
        self.0 = self.0.max(n);
    }

    #[inline(always)]
    fn record_each(&mut self, _from: u32, _tos: u64, _captured: u64, n: u32) {
        self.0 = self.0.max(n);
    }
}

/// Hands the sequences taking `best` pieces to `f` until it breaks.
struct StreamSink<B, F> {
    best: u32,
    f: F,
    flow: ControlFlow<B>,
}

impl<B, F: FnMut(Move) -> ControlFlow<B>> CaptureSink for StreamSink<B, F> {
    #[inline(always)]
    fn stopped(&self) -> bool {
        self.flow.is_break()
    }

    #[inline(always)]
    fn record(&mut self, from: u32, to: u32, captured: u64, n: u32) {
        if n == self.best && self.flow.is_continue() {
            self.flow = (self.f)(Move::from_bits(from, to, captured));
        }
    }
}

/// [`for_each_capture`] through a list: usually one search into a list of
/// [`MAX_MOVES`](super::MAX_MOVES). If they do not fit (no such position
/// is known), the sequences of maximal length are numbered in search order
/// and handled in chunks of `MAX_MOVES`: one search collects the distinct
/// moves of the chunk, a second drops those already met in earlier chunks.
/// Slow, but it never fails.
#[cold]
#[inline(never)]
pub(crate) fn for_each_listed_capture<B>(
    s: &Sides,
    f: impl FnMut(Move) -> ControlFlow<B>,
) -> ControlFlow<B> {
    for_each_capture_in::<B, { super::MAX_MOVES }>(s, f)
}

/// [`for_each_capture`] with lists of `N` moves.
#[inline(always)]
fn for_each_capture_in<B, const N: usize>(
    s: &Sides,
    mut f: impl FnMut(Move) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let mut list = MoveList::<Move, N>::new();
    let mut sink = ListSink::new(&mut list);
    captures(s, &mut sink);
    let best = sink.best;
    if !sink.overflow {
        return list.iter().try_for_each(|&mv| f(mv));
    }
    let mut start = 0;
    loop {
        let mut chunk = ChunkSink::<N> {
            best,
            index: 0,
            start,
            list: MoveList::new(),
        };
        captures(s, &mut chunk);
        let mut earlier = EarlierSink {
            best,
            index: 0,
            end: start,
            list: &mut chunk.list,
        };
        if start > 0 {
            captures(s, &mut earlier);
        }
        chunk.list.iter().try_for_each(|&mv| f(mv))?;
        if chunk.index <= start + N {
            return ControlFlow::Continue(());
        }
        start += N;
    }
}

/// Collects the distinct moves among the maximal sequences numbered
/// `start..start + N` in search order (`best`: the maximal count).
struct ChunkSink<const N: usize> {
    best: u32,
    index: usize,
    start: usize,
    list: MoveList<Move, N>,
}

impl<const N: usize> CaptureSink for ChunkSink<N> {
    fn record(&mut self, from: u32, to: u32, captured: u64, n: u32) {
        if n != self.best {
            return;
        }
        let i = self.index;
        self.index += 1;
        if i >= self.start && i - self.start < N {
            let mv = Move::from_bits(from, to, captured);
            if !self.list.contains(&mv) {
                // At most MAX_MOVES sequences are numbered in this range.
                let _ = self.list.try_push(mv);
            }
        }
    }
}

/// Drops from `list` the moves of the maximal sequences numbered before
/// `end`.
struct EarlierSink<'a, const N: usize> {
    best: u32,
    index: usize,
    end: usize,
    list: &'a mut MoveList<Move, N>,
}

impl<const N: usize> CaptureSink for EarlierSink<'_, N> {
    fn record(&mut self, from: u32, to: u32, captured: u64, n: u32) {
        if n != self.best || self.index >= self.end {
            return;
        }
        self.index += 1;
        let mv = Move::from_bits(from, to, captured);
        if let Some(i) = self.list.iter().position(|&m| m == mv) {
            self.list.swap_remove(i);
        }
    }
}

/// Whether `mv` is one of the legal captures of `s` (exact for any number
/// of them).
pub(crate) fn is_legal_capture(s: &Sides, mv: Move) -> bool {
    struct FindSink {
        target: Move,
        best: u32,
        found: bool,
    }
    impl CaptureSink for FindSink {
        fn record(&mut self, from: u32, to: u32, captured: u64, n: u32) {
            if n > self.best {
                self.best = n;
                self.found = false;
            }
            if n == self.best && Move::from_bits(from, to, captured) == self.target {
                self.found = true;
            }
        }
    }
    let mut sink = FindSink {
        target: mv,
        best: 0,
        found: false,
    };
    captures(s, &mut sink);
    sink.found
}

/// Whether some king of the side to move can capture.
#[inline(always)]
pub(crate) fn kings_capture(s: &Sides) -> bool {
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks.trailing_zeros();
        ks &= ks - 1;
        if king_can_capture(k, s) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::bitboard::bit_of;
    use std::vec::Vec;

    /// Records every complete sequence the search reports, maximal or not.
    struct AllSink(Vec<(u32, u64, u32)>);

    impl CaptureSink for AllSink {
        fn record(&mut self, _from: u32, to: u32, captured: u64, n: u32) {
            self.0.push((to, captured, n));
        }
    }

    /// The sequences reported for a lone man (`king == false`) or king on
    /// bit `a` with opponent pieces on `opp` and every other square empty.
    fn sequences(a: u32, king: bool, opp: u64) -> Vec<(u32, u64, u32)> {
        let b = 1u64 << a;
        let s = Sides {
            men: if king { 0 } else { b },
            kings: if king { b } else { 0 },
            opp,
            empty: BOARD & !(opp | b),
        };
        let mut sink = AllSink(Vec::new());
        captures(&s, &mut sink);
        sink.0
    }

    fn has_duplicate(mut seqs: Vec<(u32, u64, u32)>) -> bool {
        let n = seqs.len();
        seqs.sort_unstable();
        seqs.dedup();
        seqs.len() != n
    }

    /// The exhaustive half of the argument at [`DEDUP_MIN`]: with 1, 2 or 3
    /// opponent pieces (every set of them, on every square for the moving
    /// man or king) no sequence is reported twice.
    #[test]
    fn no_duplicate_below_dedup_min() {
        let bits: Vec<u32> = (1..=50u8).map(bit_of).collect();
        let mut searched = 0u64;
        for &a in &bits {
            let others: Vec<u64> = bits
                .iter()
                .filter(|&&o| o != a)
                .map(|&o| 1u64 << o)
                .collect();
            let m = others.len();
            let mut check = |opp: u64| {
                for king in [false, true] {
                    let seqs = sequences(a, king, opp);
                    assert!(seqs.iter().all(|s| s.2 < DEDUP_MIN));
                    assert!(!has_duplicate(seqs), "bit {a} king {king} opp {opp:#x}");
                    searched += 1;
                }
            };
            for i in 0..m {
                check(others[i]);
                for j in i + 1..m {
                    check(others[i] | others[j]);
                    for k in j + 1..m {
                        check(others[i] | others[j] | others[k]);
                    }
                }
            }
        }
        // 2 kinds x 50 squares x (C(49,1) + C(49,2) + C(49,3)) set-ups.
        assert_eq!(searched, 2 * 50 * (49 + 1176 + 18424));
    }

    /// `captures_unordered` reports the same sequences as `captures`
    /// (every complete sequence, maximal or not, as a multiset), on
    /// pseudo-random set-ups crowded with men of both sides (long men's
    /// captures) and on one with 21 opponent pieces (the men's explicit
    /// stack holds 20: the recursive search is used there).
    #[test]
    fn unordered_captures_match_the_ordered_search() {
        let all = |s: &Sides, unordered: bool| {
            let mut sink = AllSink(Vec::new());
            if unordered {
                captures_unordered(s, &mut sink);
            } else {
                captures(s, &mut sink);
            }
            sink.0.sort_unstable();
            sink.0
        };
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut with_captures = 0;
        for _ in 0..3000 {
            let mut pick = |n: u64| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % n
            };
            let (mut own, mut opp, mut kings) = (0u64, 0u64, 0u64);
            for s in 1..=50u8 {
                let b = 1u64 << bit_of(s);
                match pick(10) {
                    0 | 1 => own |= b,
                    2..=5 => opp |= b,
                    _ => {}
                }
                if pick(12) == 0 {
                    kings |= b;
                }
            }
            let s = Sides {
                men: own & !kings,
                kings: own & kings,
                opp,
                empty: BOARD & !(own | opp),
            };
            let ordered = all(&s, false);
            with_captures += usize::from(!ordered.is_empty());
            assert_eq!(
                all(&s, true),
                ordered,
                "{:#x} {:#x} {:#x}",
                s.men,
                s.kings,
                s.opp
            );
        }
        assert!(with_captures > 1000, "{with_captures}");
        // 21 opponent men, and the man on 28 can capture.
        let pos: Position = "W:W28:B6,7,8,9,10,11,12,13,14,15,17,19,22,23,24,32,33,34,42,43,44"
            .parse()
            .unwrap();
        let s = pos.sides();
        assert_eq!(s.opp.count_ones(), 21);
        assert!(!all(&s, false).is_empty());
        assert_eq!(all(&s, true), all(&s, false));
    }

    /// The chunked fallback of `for_each_capture` gives the same moves as
    /// one list, here with chunks of 16 and 50 on positions with hundreds
    /// of captures (and duplicate paths).
    #[test]
    fn chunked_captures_match_the_list() {
        for fen in [
            "W:WK5,K15,K46,K47,K48,K49:BK8,K9,18,K19,K22,24,K27,30,K31,K40,41,K42,K43,44",
            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
            "W:W28:B17,19,22,23,32,33",
        ] {
            let pos: Position = fen.parse().unwrap();
            let s = pos.sides();
            let mut all: Vec<Move> = pos.legal_moves().to_vec();
            all.sort_unstable();
            for chunks in [
                {
                    let mut v = Vec::new();
                    let _ = for_each_capture_in::<(), 16>(&s, |m| {
                        v.push(m);
                        ControlFlow::Continue(())
                    });
                    v
                },
                {
                    let mut v = Vec::new();
                    let _ = for_each_capture_in::<(), 50>(&s, |m| {
                        v.push(m);
                        ControlFlow::Continue(())
                    });
                    v
                },
            ] {
                let mut chunks = chunks;
                chunks.sort_unstable();
                assert_eq!(chunks, all, "{fen}");
            }
        }
    }

    /// The search itself stops once the sink says so (the early exit of
    /// `for_each_capture` happens inside the generator): on positions with
    /// many captures, the search ends within the first landing run.
    #[test]
    fn capture_search_stops_when_the_sink_does() {
        struct FirstOnly(usize);
        impl CaptureSink for FirstOnly {
            fn stopped(&self) -> bool {
                self.0 > 0
            }
            fn record(&mut self, _from: u32, _to: u32, _captured: u64, _n: u32) {
                self.0 += 1;
            }
        }
        for (fen, most) in [
            // 14 captures by two kings, 14 pieces each.
            (
                "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
                1,
            ),
            // Four men, each with one capture.
            ("W:W27,28,32,33:B21,22,23,24", 1),
            // Many captures of one piece by a king: one landing run of 4.
            ("W:WK46,K5:B37,14,23", 4),
        ] {
            let pos: Position = fen.parse().unwrap();
            let s = pos.sides();
            let mut all = AllSink(Vec::new());
            captures(&s, &mut all);
            let mut first = FirstOnly(0);
            captures(&s, &mut first);
            assert!(first.0 >= 1 && first.0 <= most, "{fen}: {}", first.0);
            assert!(all.0.len() > first.0, "{fen}: {} sequences", all.0.len());
        }
    }

    /// The bound is exact: round a diamond of 4 pieces both ways.
    #[test]
    fn duplicates_at_dedup_min() {
        let x = 1u64 << bit_of(28);
        // Up-left (direction 3) then up-right (direction 2), back down-right
        // (1) and down-left (0): pieces next to 28, 17, 8 and 19's corners.
        let p1 = step(3, x);
        let l1 = step(3, p1);
        let p2 = step(2, l1);
        let l2 = step(2, p2);
        let p3 = step(1, l2);
        let l3 = step(1, p3);
        let p4 = step(0, l3);
        assert_eq!(step(0, p4), x);
        let opp = p1 | p2 | p3 | p4;
        for king in [false, true] {
            let seqs = sequences(x.trailing_zeros(), king, opp);
            assert!(has_duplicate(seqs), "king {king}");
        }
    }
}
