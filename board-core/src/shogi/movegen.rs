//! Legal move generation (no heap allocation) and perft.
//!
//! The generator produces only legal moves: it computes the checkers and the
//! pinned pieces of the side to move first, restricts every piece to the
//! squares that resolve a check and to its pin line, tests each king step
//! against the opponent's attacks with the king removed from the board, and
//! tests the one pawn drop that could be a pawn-drop mate (the square in
//! front of the enemy king) explicitly. Moves are handed to a sink as sets
//! (one origin, a bitboard of destinations split into "no promotion",
//! "both", "promotion only"), so perft's last ply counts with popcounts.

use core::convert::Infallible;
use core::ops::ControlFlow;

use super::bitboard::{self as bb, BOARD, GOLD, KING, KNIGHT, LAST1, LAST2, PAWN, SILVER, ZONE};
use super::position::Position;
use super::types::{Color, Move, PieceKind, Square};

/// Capacity of a shogi [`MoveList`]: an upper bound on the number of legal moves
/// in any position [`Position`] accepts.
///
/// The largest number known for a position is 593 (the position in the
/// perft vectors, tested in `tests/shogi.rs`), but that maximum is
/// established for positions with both kings, and [`Position`] also accepts
/// king-less set-ups. This elementary bound covers every accepted position:
/// board moves — each rook or bishop at most 16 destinations x 2 (promote or
/// not; dragon/horse at most 20), each lance 8 x 2, each knight 2 x 2, each
/// silver 5 x 2, gold-movers (golds and up to 18 + 12 promoted minor pieces)
/// 6, the king 8, a pawn 1 x 2 — at most 2*32 + 2*32 + 4*16 + 4*6 + 4*10 +
/// 4*6 + 18*6 + 8 = 396; drops — at most 7 kinds x 81 squares = 567. Total
/// 963 < 1024.
pub const MAX_MOVES: usize = 1024;

/// A list of shogi moves with capacity [`MAX_MOVES`] (stored inline, no
/// heap allocation).
pub type MoveList = crate::MoveList<Move, MAX_MOVES>;

/// Receives generated moves as destination sets, and can stop the
/// generator: every method returns [`ControlFlow`], and the generator
/// returns at once (nothing more is generated) on the first
/// [`ControlFlow::Break`]. Sinks that never stop use
/// [`Infallible`](core::convert::Infallible) as [`Sink::Break`], so the
/// checks compile away.
pub(crate) trait Sink {
    /// What the sink stops with.
    type Break;
    /// Board moves of the piece on `from`: `non` without promotion, `both`
    /// with and without, `promo` only with promotion.
    fn piece(
        &mut self,
        from: usize,
        non: u128,
        both: u128,
        promo: u128,
    ) -> ControlFlow<Self::Break>;
    /// Pawn pushes, each from `to + delta`.
    fn pawns(
        &mut self,
        delta: isize,
        non: u128,
        both: u128,
        promo: u128,
    ) -> ControlFlow<Self::Break>;
    /// Drops of hand kind `hand_index` on each square of `targets`.
    fn drops(&mut self, hand_index: usize, targets: u128) -> ControlFlow<Self::Break>;
}

/// Counts moves (perft's last ply).
pub(crate) struct Counter(pub u64);

impl Counter {
    #[inline(always)]
    fn add(&mut self, single: u128, both: u128) {
        // Most sets have no double-counted (optional promotion) part: skip
        // its popcount (software popcount on baseline x86-64 is not free).
        self.0 += single.count_ones() as u64;
        if both != 0 {
            self.0 += 2 * both.count_ones() as u64;
        }
    }
}

impl Sink for Counter {
    type Break = Infallible;
    #[inline(always)]
    fn piece(
        &mut self,
        _from: usize,
        non: u128,
        both: u128,
        promo: u128,
    ) -> ControlFlow<Infallible> {
        self.add(non | promo, both);
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn pawns(
        &mut self,
        _delta: isize,
        non: u128,
        both: u128,
        promo: u128,
    ) -> ControlFlow<Infallible> {
        self.add(non | promo, both);
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn drops(&mut self, _hand_index: usize, targets: u128) -> ControlFlow<Infallible> {
        self.0 += targets.count_ones() as u64;
        ControlFlow::Continue(())
    }
}

/// Stops at the first legal move (without looking at the moves one by
/// one): "is there a legal move?".
struct AnyMove;

impl Sink for AnyMove {
    type Break = ();
    #[inline(always)]
    fn piece(&mut self, _from: usize, non: u128, both: u128, promo: u128) -> ControlFlow<()> {
        if non | both | promo != 0 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
    #[inline(always)]
    fn pawns(&mut self, _delta: isize, non: u128, both: u128, promo: u128) -> ControlFlow<()> {
        self.piece(0, non, both, promo)
    }
    #[inline(always)]
    fn drops(&mut self, _hand_index: usize, targets: u128) -> ControlFlow<()> {
        self.piece(0, targets, 0, 0)
    }
}

#[inline(always)]
fn sq(i: usize) -> Square {
    Square::from_index_unchecked(i as u8)
}

/// Hands every move of a set to `f`, one by one, in generation order (the
/// order of [`Position::legal_moves`]); stops at `f`'s first
/// [`ControlFlow::Break`]. One sink per move visitor: the list and the
/// callback share it, so their orders cannot differ.
struct EachMove<F>(F);

impl<B, F: FnMut(Move) -> ControlFlow<B>> Sink for EachMove<F> {
    type Break = B;
    #[inline(always)]
    fn piece(&mut self, from: usize, non: u128, both: u128, promo: u128) -> ControlFlow<B> {
        let f = sq(from);
        for t in super::Bitboard(non) {
            (self.0)(Move::normal(f, t, false))?;
        }
        for t in super::Bitboard(both) {
            (self.0)(Move::normal(f, t, true))?;
            (self.0)(Move::normal(f, t, false))?;
        }
        for t in super::Bitboard(promo) {
            (self.0)(Move::normal(f, t, true))?;
        }
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn pawns(&mut self, delta: isize, non: u128, both: u128, promo: u128) -> ControlFlow<B> {
        let from = |t: Square| sq((t.index() as isize + delta) as usize);
        for t in super::Bitboard(non) {
            (self.0)(Move::normal(from(t), t, false))?;
        }
        for t in super::Bitboard(both) {
            (self.0)(Move::normal(from(t), t, true))?;
            (self.0)(Move::normal(from(t), t, false))?;
        }
        for t in super::Bitboard(promo) {
            (self.0)(Move::normal(from(t), t, true))?;
        }
        ControlFlow::Continue(())
    }
    #[inline(always)]
    fn drops(&mut self, hand_index: usize, targets: u128) -> ControlFlow<B> {
        for t in super::Bitboard(targets) {
            (self.0)(Move::drop_index(hand_index, t))?;
        }
        ControlFlow::Continue(())
    }
}

/// Files (as full 9-square file masks) that hold at least one square of `b`.
#[inline(always)]
fn files_of(b: u128) -> u128 {
    let mut m = 0u128;
    let mut f = 0;
    while f < 9 {
        if b & bb::FILE_MASK[f] != 0 {
            m |= bb::FILE_MASK[f];
        }
        f += 1;
    }
    m
}

impl Position {
    /// Every legal move of the side to move (board moves and drops, both
    /// the promoting and the non-promoting move where promotion is optional).
    /// No heap allocation.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let _ = self.generate(&mut EachMove(|m| {
            // Cannot fail: MAX_MOVES bounds the number of legal moves (see its docs).
            let pushed = list.try_push(m);
            debug_assert!(pushed.is_ok(), "MAX_MOVES bound violated");
            ControlFlow::<Infallible>::Continue(())
        }));
        list
    }

    /// The number of legal moves (as `legal_moves().len()`, faster).
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter(0);
        let _ = self.generate(&mut c);
        c.0
    }

    /// Calls `f` with every legal move, in [`Position::legal_moves`] order,
    /// until `f` returns [`ControlFlow::Break`], which is returned at once:
    /// the generator itself stops there (the remaining moves are neither
    /// generated nor passed). No move list is built and nothing is
    /// allocated on the heap. Returns [`ControlFlow::Continue`] when `f`
    /// never broke (also when there is no legal move).
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use board_core::shogi::Position;
    /// let drop = Position::startpos().for_each_legal_move(|mv| {
    ///     if mv.is_drop() { ControlFlow::Break(mv) } else { ControlFlow::Continue(()) }
    /// });
    /// assert_eq!(drop, ControlFlow::Continue(())); // nothing in hand
    /// ```
    pub fn for_each_legal_move<B>(&self, f: impl FnMut(Move) -> ControlFlow<B>) -> ControlFlow<B> {
        self.generate(&mut EachMove(f))
    }

    /// `true` if the side to move is in check and has no legal move.
    /// Stops at the first legal move found (see
    /// [`Position::has_legal_move`]).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// `true` if the side to move has at least one legal move (without one
    /// it loses in shogi, whether in check or not). The generator stops at
    /// the first non-empty set of legal moves: nothing is counted or listed.
    /// The same method as draughts' and chess's `has_legal_move`.
    pub fn has_legal_move(&self) -> bool {
        self.generate(&mut AnyMove).is_break()
    }

    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) -> ControlFlow<S::Break> {
        let us = self.side;
        let u = us.index();
        let them = us.opposite();
        let own = self.by_color[u];
        let occ = own | self.by_color[u ^ 1];
        let empty = !occ & BOARD;
        let king = self.kind_bb(PieceKind::King) & own;
        if king == 0 {
            return self.gen_pieces(sink, !own & BOARD, empty, 0, 0);
        }
        let k = king.trailing_zeros() as usize;
        let checkers = self.attackers(them, k, occ);

        // King steps: destination not attacked with the king removed.
        let mut steps = KING[0][k] & !own;
        let mut safe = 0u128;
        if steps != 0 {
            let threats = Threats::new(self, them);
            let occ_k = occ ^ king;
            while steps != 0 {
                let t = steps.trailing_zeros() as usize;
                steps &= steps - 1;
                if !threats.attacks(t, occ_k) {
                    safe |= 1u128 << t;
                }
            }
        }
        sink.piece(k, safe, 0, 0)?;

        if checkers == 0 {
            let pinned = self.pinned(us, k, occ);
            self.gen_pieces(sink, !own & BOARD, empty, pinned, k)
        } else if checkers & (checkers - 1) == 0 {
            let c = checkers.trailing_zeros() as usize;
            let b = bb::between(k, c);
            let pinned = self.pinned(us, k, occ);
            self.gen_pieces(sink, b | checkers, b, pinned, k)
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Non-king moves and drops. `target`: allowed destinations of board
    /// moves; `drop_target`: allowed drop squares; `k`: own king square
    /// (only used for pinned pieces).
    #[inline(always)]
    fn gen_pieces<S: Sink>(
        &self,
        sink: &mut S,
        target: u128,
        drop_target: u128,
        pinned: u128,
        k: usize,
    ) -> ControlFlow<S::Break> {
        use PieceKind::*;
        let us = self.side;
        let u = us.index();
        let own = self.by_color[u];
        let occ = own | self.by_color[u ^ 1];
        let zone = ZONE[u];
        let last1 = LAST1[u];
        let last2 = LAST2[u];

        // Pawns, unpinned: all at once.
        let pawns = self.kind_bb(Pawn) & own;
        let free = pawns & !pinned;
        let (pt, delta) = match us {
            Color::Black => ((free >> 1) & target, 1isize),
            Color::White => ((free << 1) & target, -1isize),
        };
        if pt != 0 {
            sink.pawns(delta, pt & !zone, pt & zone & !last1, pt & last1)?;
        }
        let mut pp = pawns & pinned;
        while pp != 0 {
            let f = pp.trailing_zeros() as usize;
            pp &= pp - 1;
            let t = PAWN[u][f] & target & bb::line(k, f);
            emit_promotable(sink, f, t, zone, last1)?;
        }

        let mut ls = self.kind_bb(Lance) & own;
        while ls != 0 {
            let f = ls.trailing_zeros() as usize;
            ls &= ls - 1;
            let mut t = bb::lance_attacks(us, f, occ) & target;
            if pinned != 0 && pinned >> f & 1 != 0 {
                t &= bb::line(k, f);
            }
            emit_promotable(sink, f, t, zone, last1)?;
        }

        // A pinned knight can never move (its jump leaves every line).
        let mut ns = self.kind_bb(Knight) & own & !pinned;
        while ns != 0 {
            let f = ns.trailing_zeros() as usize;
            ns &= ns - 1;
            let t = KNIGHT[u][f] & target;
            emit_promotable(sink, f, t, zone, last2)?;
        }

        let mut ss = self.kind_bb(Silver) & own;
        while ss != 0 {
            let f = ss.trailing_zeros() as usize;
            ss &= ss - 1;
            let mut t = SILVER[u][f] & target;
            if pinned != 0 && pinned >> f & 1 != 0 {
                t &= bb::line(k, f);
            }
            emit_promotable(sink, f, t, zone, 0)?;
        }

        let mut gs = self.golds_bb() & own;
        while gs != 0 {
            let f = gs.trailing_zeros() as usize;
            gs &= gs - 1;
            let mut t = GOLD[u][f] & target;
            if pinned != 0 && pinned >> f & 1 != 0 {
                t &= bb::line(k, f);
            }
            sink.piece(f, t, 0, 0)?;
        }

        let mut bs = self.kind_bb(Bishop) & own;
        while bs != 0 {
            let f = bs.trailing_zeros() as usize;
            bs &= bs - 1;
            let mut t = bb::bishop_attacks(f, occ) & target;
            if pinned != 0 && pinned >> f & 1 != 0 {
                t &= bb::line(k, f);
            }
            emit_promotable(sink, f, t, zone, 0)?;
        }

        let mut rs = self.kind_bb(Rook) & own;
        while rs != 0 {
            let f = rs.trailing_zeros() as usize;
            rs &= rs - 1;
            let mut t = bb::rook_attacks(f, occ) & target;
            if pinned != 0 && pinned >> f & 1 != 0 {
                t &= bb::line(k, f);
            }
            emit_promotable(sink, f, t, zone, 0)?;
        }

        let mut hs = self.kind_bb(Horse) & own;
        while hs != 0 {
            let f = hs.trailing_zeros() as usize;
            hs &= hs - 1;
            let mut t = (bb::bishop_attacks(f, occ) | KING[0][f]) & target;
            if pinned != 0 && pinned >> f & 1 != 0 {
                t &= bb::line(k, f);
            }
            sink.piece(f, t, 0, 0)?;
        }

        let mut ds = self.kind_bb(Dragon) & own;
        while ds != 0 {
            let f = ds.trailing_zeros() as usize;
            ds &= ds - 1;
            let mut t = (bb::rook_attacks(f, occ) | KING[0][f]) & target;
            if pinned != 0 && pinned >> f & 1 != 0 {
                t &= bb::line(k, f);
            }
            sink.piece(f, t, 0, 0)?;
        }

        // Drops.
        if drop_target == 0 {
            return ControlFlow::Continue(());
        }
        let hand = &self.hands[u];
        if hand.raw(0) != 0 {
            let mut t = drop_target & !last1 & !files_of(pawns);
            if t != 0 {
                // The only pawn drop that can be a pawn-drop mate is the one
                // giving check: on the square in front of the enemy king.
                let tk = self.kind_bb(King) & self.by_color[u ^ 1];
                if tk != 0 {
                    let tk = tk.trailing_zeros() as usize;
                    let front = PAWN[u ^ 1][tk];
                    if t & front != 0
                        && self.is_pawn_drop_mate(us, front.trailing_zeros() as usize, tk)
                    {
                        t &= !front;
                    }
                }
                sink.drops(0, t)?;
            }
        }
        if hand.raw(1) != 0 {
            sink.drops(1, drop_target & !last1)?;
        }
        if hand.raw(2) != 0 {
            sink.drops(2, drop_target & !last2)?;
        }
        for hi in 3..7 {
            if hand.raw(hi) != 0 {
                sink.drops(hi, drop_target)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// `true` if `us` dropping a pawn on `s` (the square in front of
    /// `them`'s king on `tk`) checkmates: uchifuzume.
    pub(crate) fn is_pawn_drop_mate(&self, us: Color, s: usize, tk: usize) -> bool {
        let them = us.opposite();
        let sbit = 1u128 << s;
        let occ = self.occupied_bits() | sbit;
        // Capture by a piece other than the king, not pinned. (A pinned
        // piece could only capture along its pin line, but the pawn sits
        // between the king and anything beyond it on that line.)
        let defenders = self.attackers(them, s, occ) & !(1u128 << tk);
        if defenders != 0 && defenders & !self.pinned(them, tk, occ) != 0 {
            return false;
        }
        // King escapes, including taking the pawn: one free square ends
        // the test (each square's test stops at its first attacker).
        let mut esc = KING[0][tk] & !self.by_color[them.index()];
        if esc == 0 {
            return true;
        }
        let occ_k = occ ^ (1u128 << tk);
        let threats = Threats::new(self, us);
        while esc != 0 {
            let e = esc.trailing_zeros() as usize;
            esc &= esc - 1;
            if !threats.attacks(e, occ_k) {
                return false;
            }
        }
        true
    }
}

/// One side's pieces grouped by how they attack, for repeated
/// "is this square attacked" questions (king steps).
struct Threats {
    /// Index of the attacked side (tables are looked up from its view).
    victim: usize,
    pawn: u128,
    knight: u128,
    silver: u128,
    gold: u128,
    /// King, horse and dragon: one step in every direction.
    king_like: u128,
    rook_like: u128,
    bishop_like: u128,
    lance: u128,
    /// The ray direction (from the target) along which the lances attack.
    lance_dir: usize,
}

impl Threats {
    #[inline(always)]
    fn new(pos: &Position, by: Color) -> Threats {
        use PieceKind::*;
        let c = pos.by_color[by.index()];
        Threats {
            victim: by.opposite().index(),
            pawn: pos.kind_bb(Pawn) & c,
            knight: pos.kind_bb(Knight) & c,
            silver: pos.kind_bb(Silver) & c,
            gold: pos.golds_bb() & c,
            king_like: (pos.kind_bb(King) | pos.kind_bb(Horse) | pos.kind_bb(Dragon)) & c,
            rook_like: (pos.kind_bb(Rook) | pos.kind_bb(Dragon)) & c,
            bishop_like: (pos.kind_bb(Bishop) | pos.kind_bb(Horse)) & c,
            lance: pos.kind_bb(Lance) & c,
            lance_dir: match by {
                Color::Black => 1,
                Color::White => 0,
            },
        }
    }

    /// `true` if square index `s` is attacked with occupancy `occ`.
    #[inline(always)]
    fn attacks(&self, s: usize, occ: u128) -> bool {
        let v = self.victim;
        if (PAWN[v][s] & self.pawn)
            | (KNIGHT[v][s] & self.knight)
            | (SILVER[v][s] & self.silver)
            | (GOLD[v][s] & self.gold)
            | (KING[0][s] & self.king_like)
            != 0
        {
            return true;
        }
        if (self.rook_like | self.lance) & bb::rook_pseudo(s) != 0 {
            for d in 0..4 {
                let sl = if d == self.lance_dir {
                    self.rook_like | self.lance
                } else {
                    self.rook_like
                };
                if bb::RAYS[d][s] & sl != 0 && bb::first_blocker(d, s, occ) & sl != 0 {
                    return true;
                }
            }
        }
        if self.bishop_like & bb::bishop_pseudo(s) != 0 {
            for d in 4..8 {
                if bb::RAYS[d][s] & self.bishop_like != 0
                    && bb::first_blocker(d, s, occ) & self.bishop_like != 0
                {
                    return true;
                }
            }
        }
        false
    }
}

#[inline(always)]
fn emit_promotable<S: Sink>(
    sink: &mut S,
    from: usize,
    t: u128,
    zone: u128,
    forced: u128,
) -> ControlFlow<S::Break> {
    if t == 0 {
        return ControlFlow::Continue(());
    }
    let p = if zone >> from & 1 != 0 { t } else { t & zone };
    sink.piece(from, t & !p, p & !forced, p & forced)
}

/// The number of leaf nodes of the legal-move tree of depth `depth`
/// (`perft(p, 0) == 1`). The last ply is counted without playing the moves
/// ("bulk counting"). No heap allocation, and no move list either: each
/// interior node recurses from inside the generator's callback
/// ([`Position::for_each_legal_move`]'s sink). The same counts as the
/// generic [`Game::perft`](crate::Game::perft) default, which lists the
/// moves first.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_legal_moves(),
        _ => perft_interior(position, depth),
    }
}

/// Perft at `depth >= 2`.
fn perft_interior(position: &Position, depth: u32) -> u64 {
    let mut nodes = 0;
    let _ = position.generate(&mut EachMove(|mv| {
        let mut child = *position;
        child.play_unchecked(mv);
        nodes += if depth == 2 {
            child.count_legal_moves()
        } else {
            perft_interior(&child, depth - 1)
        };
        ControlFlow::<Infallible>::Continue(())
    }));
    nodes
}

/// `perft` split by root move: the total (`perft(position, depth)`) and,
/// per legal move in [`Position::legal_moves`] order, the leaf count of its
/// subtree: `perft` of the position after it at `depth - 1` (the leaves
/// `depth` plies below the root); the counts add up to the total. At depth 0
/// the total is 1 and the list is empty.
pub fn perft_divide(
    position: &Position,
    depth: u32,
) -> (u64, crate::MoveList<(Move, u64), MAX_MOVES>) {
    let mut out = crate::MoveList::new();
    let total = crate::Game::perft_divide_with(position, depth, |m, n| {
        // Cannot fail: same bound as the legal move list.
        let _ = out.try_push((m, n));
    });
    (total, out)
}
