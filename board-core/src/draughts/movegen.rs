//! Legal move generation: quiet moves from shifts, captures by a depth-first
//! search that keeps only the sequences taking the most pieces.
//!
//! Rules implemented (spec note "Board conventions"; FMJD rules art. 3-4):
//! men move one square diagonally forward and capture forward and backward;
//! kings fly along diagonals and capture at any distance, landing on any
//! empty square beyond; capturing is compulsory and the sequence taking the
//! most pieces must be played (men and kings count the same); captured
//! pieces stay on the board until the sequence ends, so they block and can
//! not be jumped twice (Turkish strike); a man that passes over the far row
//! during a capture does not promote; the moving piece's own square counts
//! as empty during its capture (it may end where it started).

use super::Position;
use super::bitboard::{BOARD, RAYS, nearest, step};
use super::types::{Color, Move};
use crate::movelist::{CapacityError, MoveList};

/// Receives complete capture sequences and keeps those of maximal length.
pub(crate) trait CaptureSink {
    /// `n` pieces captured, `dedup`: another path may give the same triple.
    fn record(
        &mut self,
        from: u32,
        to: u32,
        captured: u64,
        n: u32,
        dedup: bool,
    ) -> Result<(), CapacityError>;
}

/// Collects maximal captures into a move list, dropping duplicate triples.
pub(crate) struct ListSink<'a, const N: usize> {
    pub(crate) list: &'a mut MoveList<Move, N>,
    pub(crate) best: u32,
}

impl<const N: usize> CaptureSink for ListSink<'_, N> {
    #[inline]
    fn record(
        &mut self,
        from: u32,
        to: u32,
        captured: u64,
        n: u32,
        dedup: bool,
    ) -> Result<(), CapacityError> {
        if n < self.best {
            return Ok(());
        }
        if n > self.best {
            self.best = n;
            self.list.clear();
        }
        let mv = Move::from_bits(from, to, captured);
        if dedup && self.list.contains(&mv) {
            return Ok(());
        }
        self.list.try_push(mv)
    }
}

/// Counts maximal captures; only the sequences that may have a duplicate
/// path are stored (in a small stash, created on first use) to be compared.
pub(crate) struct CountSink {
    best: u32,
    plain: u32,
    stash: Option<MoveList<Move, 24>>,
}

impl CountSink {
    #[inline]
    pub(crate) fn new() -> Self {
        CountSink {
            best: 0,
            plain: 0,
            stash: None,
        }
    }
    #[inline]
    pub(crate) fn count(&self) -> u64 {
        self.plain as u64 + self.stash.as_ref().map_or(0, |s| s.len() as u64)
    }
}

impl CaptureSink for CountSink {
    #[inline]
    fn record(
        &mut self,
        from: u32,
        to: u32,
        captured: u64,
        n: u32,
        dedup: bool,
    ) -> Result<(), CapacityError> {
        if n < self.best {
            return Ok(());
        }
        if n > self.best {
            self.best = n;
            self.plain = 0;
            if let Some(stash) = &mut self.stash {
                stash.clear();
            }
        }
        if !dedup {
            self.plain += 1;
            return Ok(());
        }
        let mv = Move::from_bits(from, to, captured);
        let stash = self.stash.get_or_insert_with(MoveList::new);
        if stash.contains(&mv) {
            return Ok(());
        }
        stash.try_push(mv)
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

impl<S: CaptureSink> Search<'_, S> {
    /// A man on `cur` having captured `captured` (`n` pieces), `cur` known
    /// to have at least one more jump: searches every continuation.
    fn man(&mut self, cur: u32, captured: u64, n: u32) -> Result<(), CapacityError> {
        let b = 1u64 << cur;
        let alive = self.opp & !captured;
        for d in 0..4 {
            let over = step(d, b) & alive;
            if over != 0 {
                let land = step(d, over) & self.empty;
                if land != 0 {
                    let captured = captured | over;
                    // Test for a further jump here rather than in a call:
                    // most landings end the sequence.
                    if man_jumps(land, self.opp & !captured, self.empty) {
                        self.man(land.trailing_zeros(), captured, n + 1)?;
                    } else {
                        // Men: two different paths with the same captured
                        // set and end need at least 4 captures (a closed
                        // loop); see `men_dedup`.
                        let n = n + 1;
                        self.sink
                            .record(self.from, land.trailing_zeros(), captured, n, n >= 4)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// A king on `cur` (having captured `captured`, `n` pieces) trying to
    /// capture in direction `d`. Returns whether such a capture exists.
    fn king_dir(
        &mut self,
        cur: u32,
        d: usize,
        captured: u64,
        n: u32,
    ) -> Result<bool, CapacityError> {
        let occ = RAYS[d][cur as usize] & !self.empty;
        if occ == 0 {
            return Ok(false);
        }
        let p = nearest(d, occ);
        let pb = 1u64 << p;
        if pb & self.opp & !captured == 0 {
            return Ok(false);
        }
        // The landing run beyond `p`, and the first piece after it.
        let beyond = RAYS[d][p as usize];
        let blockers = beyond & !self.empty;
        let (landings, next) = if blockers == 0 {
            (beyond, 0)
        } else {
            let q = nearest(d, blockers);
            (beyond & !(RAYS[d][q as usize] | (1u64 << q)), 1u64 << q)
        };
        if landings == 0 {
            return Ok(false);
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
            self.king_dir(last, d, captured, n)?;
        }
        // Pieces that can be taken sideways (an empty square behind them):
        // tested here so that the search only recurses into real captures.
        let (e1, e3) = (d ^ 1, d ^ 3);
        let take1 = alive & step(e1 ^ 2, self.empty);
        let take3 = alive & step(e3 ^ 2, self.empty);
        let mut rest = landings;
        while rest != 0 {
            let l = rest.trailing_zeros();
            rest &= rest - 1;
            let f1 = sees(e1, l, self.empty, take1);
            let f3 = sees(e3, l, self.empty, take3);
            if f1 {
                self.king_dir(l, e1, captured, n)?;
            }
            if f3 {
                self.king_dir(l, e3, captured, n)?;
            }
            if !(cont || f1 || f3) {
                self.sink.record(self.from, l, captured, n, n >= 2)?;
            }
        }
        Ok(true)
    }
}

/// Whether the first piece a king on `bit` meets in direction `d` (over
/// `empty` squares) is in `targets`.
#[inline(always)]
fn sees(d: usize, bit: u32, empty: u64, targets: u64) -> bool {
    let occ = RAYS[d][bit as usize] & !empty;
    occ != 0 && (1u64 << nearest(d, occ)) & targets != 0
}

/// Whether a man on `b` (a one-bit set) can jump one of `alive` to an
/// `empty` square.
#[inline(always)]
fn man_jumps(b: u64, alive: u64, empty: u64) -> bool {
    (step(0, step(0, b) & alive)
        | step(1, step(1, b) & alive)
        | step(2, step(2, b) & alive)
        | step(3, step(3, b) & alive))
        & empty
        != 0
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
    #[inline(always)]
    pub(crate) fn sides(&self) -> Sides {
        let (own, opp) = match self.side {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        };
        Sides {
            men: own & !self.kings,
            kings: own & self.kings,
            opp,
            empty: BOARD & !(self.white | self.black),
        }
    }
}

/// `jumps[d]`: the squares from which a man can capture in direction `d`
/// (an opponent piece next to it, an empty square beyond), whoever stands
/// there.
#[inline(always)]
pub(crate) fn jump_sources(s: &Sides) -> [u64; 4] {
    // Walk back from the landing square: empty <- opp <- source.
    [0, 1, 2, 3].map(|d| step(d ^ 2, step(d ^ 2, s.empty) & s.opp))
}

/// Men of `s` that have at least one capture.
#[inline(always)]
pub(crate) fn men_capturers(s: &Sides) -> u64 {
    let j = jump_sources(s);
    (j[0] | j[1] | j[2] | j[3]) & s.men
}

/// The men's captures when none can go on after its first jump: their
/// number, or `None` when some man can capture again (a full search is
/// needed). The moving man's origin square is irrelevant here: getting
/// back to it takes the reverse jump over the captured piece.
#[inline(always)]
pub(crate) fn single_man_captures(s: &Sides, j: &[u64; 4]) -> Option<u32> {
    let mut n = 0;
    for d in 0..4 {
        let jumpers = s.men & j[d];
        if jumpers != 0 {
            n += jumpers.count_ones();
            let landing = step(d, step(d, jumpers));
            if landing & (j[d] | j[d ^ 1] | j[d ^ 3]) != 0 {
                return None;
            }
        }
    }
    Some(n)
}

/// Whether the king on `k` has a capture.
#[inline(always)]
fn king_can_capture(k: u32, s: &Sides) -> bool {
    for (d, rays) in RAYS.iter().enumerate() {
        let occ = rays[k as usize] & !s.empty;
        if occ != 0 {
            let p = nearest(d, occ);
            if (1u64 << p) & s.opp != 0 && step(d, 1u64 << p) & s.empty != 0 {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move must capture.
#[inline(always)]
pub(crate) fn has_capture(s: &Sides) -> bool {
    men_capturers(s) != 0 || kings_capture(s)
}

/// Runs the capture search for every piece of the side to move.
#[inline]
pub(crate) fn captures<S: CaptureSink>(s: &Sides, sink: &mut S) -> Result<(), CapacityError> {
    let mut men = men_capturers(s);
    while men != 0 {
        let from = men.trailing_zeros();
        men &= men - 1;
        let mut search = Search {
            opp: s.opp,
            empty: s.empty | (1u64 << from),
            from,
            sink: &mut *sink,
        };
        search.man(from, 0, 0)?;
    }
    let mut ks = s.kings;
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
            search.king_dir(from, d, 0, 0)?;
        }
    }
    Ok(())
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
    let [d1, d2] = forward(side);
    let mut n = (step(d1, s.men) & s.empty).count_ones() + (step(d2, s.men) & s.empty).count_ones();
    let mut ks = s.kings;
    while ks != 0 {
        let k = ks.trailing_zeros();
        ks &= ks - 1;
        n += super::bitboard::king_moves(k, s.empty).count_ones();
    }
    n as u64
}

/// Pushes every quiet move (no capture available is assumed).
pub(crate) fn quiet_moves<const N: usize>(
    s: &Sides,
    side: Color,
    list: &mut MoveList<Move, N>,
) -> Result<(), CapacityError> {
    for d in forward(side) {
        let mut to = step(d, s.men) & s.empty;
        while to != 0 {
            let t = to.trailing_zeros();
            to &= to - 1;
            let f = step(d ^ 2, 1u64 << t).trailing_zeros();
            list.try_push(Move::from_bits(f, t, 0))?;
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
            list.try_push(Move::from_bits(k, t, 0))?;
        }
    }
    Ok(())
}

/// Fills `list` with every legal move of `pos`.
pub(crate) fn legal_moves_into<const N: usize>(
    pos: &Position,
    list: &mut MoveList<Move, N>,
) -> Result<(), CapacityError> {
    list.clear();
    let s = pos.sides();
    if has_capture(&s) {
        let mut sink = ListSink { list, best: 0 };
        captures(&s, &mut sink)
    } else {
        quiet_moves(&s, pos.side, list)
    }
}

/// The number of legal moves of `pos` (captures deduplicated), without
/// building a full move list.
#[inline]
pub(crate) fn count_legal(pos: &Position) -> Result<u64, CapacityError> {
    let s = pos.sides();
    let j = jump_sources(&s);
    let king_caps = kings_capture(&s);
    if (j[0] | j[1] | j[2] | j[3]) & s.men == 0 && !king_caps {
        return Ok(count_quiet(&s, pos.side));
    }
    if !king_caps && let Some(n) = single_man_captures(&s, &j) {
        return Ok(n as u64);
    }
    count_captures(&s)
}

#[inline(never)]
fn count_captures(s: &Sides) -> Result<u64, CapacityError> {
    let mut sink = CountSink::new();
    if captures(s, &mut sink).is_ok() {
        return Ok(sink.count());
    }
    count_many_captures(s)
}

/// Many duplicate-prone sequences: count with a full list instead (out of
/// line so that the common path's stack frame stays small).
#[cold]
#[inline(never)]
fn count_many_captures(s: &Sides) -> Result<u64, CapacityError> {
    let mut list = MoveList::<Move, { super::MAX_MOVES }>::new();
    let mut sink = ListSink {
        list: &mut list,
        best: 0,
    };
    captures(s, &mut sink)?;
    Ok(list.len() as u64)
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
