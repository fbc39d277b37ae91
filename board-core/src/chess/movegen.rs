//! Legal move generation.
//!
//! Fully legal (no make/unmake test): the side to move's checkers and
//! pinned pieces are kept in the position, so
//! - in double check only the king moves;
//! - in single check other pieces must capture the checker or block
//!   (`between(king, checker) | checker`) and pinned pieces cannot move;
//! - a pinned piece moves only along the line through its king;
//! - king moves are tested against enemy attacks with the king removed
//!   from the board (so it cannot hide behind itself): square by square
//!   when the king has at most one candidate square, else against the map
//!   of every enemy attack computed once;
//! - en passant is tested by removing both pawns (pinned pawns, the
//!   horizontal discovered check along the fifth rank);
//! - castling needs the right, empty squares between king and rook, and no
//!   attack on the king's start, transit and target squares.
//!
//! One generic generator feeds a [`Sink`]: [`ListSink`] fills a
//! [`MoveList`](super::MoveList), `perft` plays the moves straight out of
//! it; a copy specialised for counting (`Position::count_with`, bulk
//! counting by popcount) serves the last ply of `perft`. Pawn moves of unpinned pawns are produced
//! a whole set at a time.

use super::MoveList;
use super::attacks::{
    CASTLING_ZONES, between, bishop_attacks_with, king_attacks, king_zones, knight_attacks, line,
    pawn_attacks, rook_attacks_with,
};
use super::bitboard::Bitboard;
use super::position::Position;
use super::simd;
use super::types::{
    Color, KIND_CASTLE_KING_BITS, KIND_CASTLE_QUEEN_BITS, KIND_EN_PASSANT_BITS,
    KIND_PROMOTION_BASE, Move, PieceKind, Square,
};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const FILE_B: u64 = FILE_A << 1;
const FILE_G: u64 = FILE_A << 6;
const RANK_3: u64 = 0xff << 16;
const RANK_6: u64 = 0xff << 40;
const RANK_2: u64 = 0xff << 8;
const RANK_7: u64 = 0xff << 48;

/// The eight knight jumps as shifts of a whole set: the index shift
/// (`+` = left) and the files a knight must not stand on (it would leave
/// the board sideways; leaving it up or down drops the bit in the shift).
const KNIGHT_JUMPS: [(i32, u64); 8] = [
    (17, FILE_H),
    (10, FILE_G | FILE_H),
    (-6, FILE_G | FILE_H),
    (-15, FILE_H),
    (15, FILE_A),
    (6, FILE_A | FILE_B),
    (-10, FILE_A | FILE_B),
    (-17, FILE_A),
];

/// The squares the knights `knights` jump to, one jump direction:
/// `(from set shifted by KNIGHT_JUMPS[i])`.
#[inline(always)]
fn knight_jump(knights: u64, (shift, off): (i32, u64)) -> u64 {
    let k = knights & !off;
    if shift > 0 { k << shift } else { k >> -shift }
}

/// Every square some knight of `knights` attacks (set-wise, no loop).
#[inline(always)]
fn knight_set_attacks(knights: Bitboard) -> Bitboard {
    let mut out = 0;
    for jump in KNIGHT_JUMPS {
        out |= knight_jump(knights.0, jump);
    }
    Bitboard(out)
}

/// Receives generated moves.
pub(crate) trait Sink {
    /// Moves of the (non-pawn) piece on `from` to each square of `targets`.
    /// `kind` is the piece's kind, except that a queen comes as
    /// [`PieceKind::Bishop`] with the diagonal sliders and as [`PieceKind::Rook`] with
    /// the straight ones (sinks that need the kind look the queen up).
    fn piece(&mut self, kind: PieceKind, from: Square, targets: Bitboard);
    /// Moves of the (unpinned) knights `knights` to the squares of
    /// `target` they attack.
    #[inline(always)]
    fn knights(&mut self, knights: Bitboard, target: Bitboard) {
        for from in knights {
            self.piece(PieceKind::Knight, from, knight_attacks(from) & target);
        }
    }
    /// Pawn moves of the pawn on `from` to each of `targets` (promotions on
    /// the last rank expand to four moves).
    fn pawn(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to each of `targets` from `to - delta` (index space).
    fn pawns(&mut self, targets: Bitboard, delta: i32);
    /// One special move (castling, en passant).
    fn special(&mut self, mv: Move);
    /// All moves of the unpinned pawns: single pushes, double pushes and
    /// the two capture directions, with their `to - from` deltas.
    #[inline(always)]
    fn pawn_sets(&mut self, sets: [(Bitboard, i32); 4]) {
        for (targets, delta) in sets {
            self.pawns(targets, delta);
        }
    }
}

/// Fills a move list.
pub(crate) struct ListSink {
    pub(crate) list: MoveList,
}

impl ListSink {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        // Capacity argument: see `MAX_MOVES`. Positions that could exceed it
        // are rejected when parsed; `debug_assert` guards the argument.
        let pushed = self.list.try_push(mv);
        debug_assert!(pushed.is_ok(), "move list capacity exceeded");
    }

    #[inline(always)]
    fn push_pawn(&mut self, from: Square, to: Square) {
        if Bitboard::BACKRANKS.contains(to) {
            for kind in PieceKind::PROMOTIONS {
                self.push(Move::with_kind_bits(
                    from,
                    to,
                    KIND_PROMOTION_BASE + kind as u16,
                ));
            }
        } else {
            self.push(Move::normal(from, to));
        }
    }
}

impl Sink for ListSink {
    #[inline(always)]
    fn piece(&mut self, _role: PieceKind, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawn(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push_pawn(from, to);
        }
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i32) {
        for to in targets {
            let from = Square::new_masked((to.index() as i32 - delta) as u32);
            self.push_pawn(from, to);
        }
    }
    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.push(mv);
    }
}

impl Position {
    /// Generates every legal move of the side to move into `sink`, on the
    /// `pext` path when the CPU has it (see `simd::dispatch`).
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        simd::generate(self, sink);
    }

    /// [`Position::generate`] with the slider lookups of layout `P` (see
    /// `attacks::lookup`).
    #[inline(always)]
    pub(crate) fn generate_with<S: Sink, const P: bool>(&self, sink: &mut S) {
        match self.turn {
            Color::White => self.generate_for::<S, true, P>(sink),
            Color::Black => self.generate_for::<S, false, P>(sink),
        }
    }

    #[inline(always)]
    pub(crate) fn generate_for<S: Sink, const WHITE: bool, const P: bool>(&self, sink: &mut S) {
        let (us, them) = if WHITE {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occupied = ours | theirs;
        let king = self.king(us);
        let checkers = self.checkers;

        // King moves: every target square is tested with the king removed
        // (so that the king cannot hide behind itself). One or no
        // candidate square is tested alone; with more, the squares all
        // enemy pieces attack are computed once (`danger`, also used for
        // castling).
        let without_king = occupied ^ Bitboard::from_square(king);
        let candidates = king_attacks(king) & !ours;
        let mut danger = None;
        let king_targets = if candidates.more_than_one() {
            let attacked = self.attacks_of::<WHITE, P>(without_king);
            danger = Some(attacked);
            candidates & !attacked
        } else {
            let mut targets = Bitboard::EMPTY;
            for to in candidates {
                if !self.attacked_by::<P>(them, to, without_king) {
                    targets = targets.with(to);
                }
            }
            targets
        };
        sink.piece(PieceKind::King, king, king_targets);

        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(checker) => between(king, checker) | checkers,
            None => !ours,
        };
        let pinned = self.pinned;
        let queens = self.by_kind[PieceKind::Queen.index()];
        let diagonal = (self.by_kind[PieceKind::Bishop.index()] | queens) & ours;
        let straight = (self.by_kind[PieceKind::Rook.index()] | queens) & ours;

        sink.knights(
            self.by_kind[PieceKind::Knight.index()] & ours & !pinned,
            target,
        );
        for from in diagonal & !pinned {
            sink.piece(
                PieceKind::Bishop,
                from,
                bishop_attacks_with::<P>(from, occupied) & target,
            );
        }
        for from in straight & !pinned {
            sink.piece(
                PieceKind::Rook,
                from,
                rook_attacks_with::<P>(from, occupied) & target,
            );
        }

        let pawns = self.by_kind[PieceKind::Pawn.index()] & ours;

        if checkers.is_empty() {
            // Pinned sliders move along the pin line (in check they cannot
            // move at all: the pin line and the check line meet only at
            // the king).
            // (One test for the three loops over pinned pieces: most
            // positions have none.)
            if pinned.any() {
                for from in diagonal & pinned {
                    sink.piece(
                        PieceKind::Bishop,
                        from,
                        bishop_attacks_with::<P>(from, occupied) & target & line(king, from),
                    );
                }
                for from in straight & pinned {
                    sink.piece(
                        PieceKind::Rook,
                        from,
                        rook_attacks_with::<P>(from, occupied) & target & line(king, from),
                    );
                }
            }
            self.castling_moves::<S, WHITE, P>(sink, occupied, king_targets, danger);
            // Pinned pawns, one at a time.
            for from in pawns & pinned {
                let pin_line = line(king, from);
                let mut targets = pawn_attacks(us, from) & theirs & pin_line;
                let push = Square::new_masked(if WHITE {
                    from.index() as u32 + 8
                } else {
                    (from.index() as u32).wrapping_sub(8)
                });
                if !occupied.contains(push) && pin_line.contains(push) {
                    targets = targets.with(push);
                    let start = if WHITE { RANK_3 } else { RANK_6 };
                    if start & Bitboard::from_square(push).0 != 0 {
                        let double = Square::new_masked(if WHITE {
                            push.index() as u32 + 8
                        } else {
                            (push.index() as u32).wrapping_sub(8)
                        });
                        if !occupied.contains(double) {
                            targets = targets.with(double);
                        }
                    }
                }
                sink.pawn(from, targets);
            }
        }

        // Unpinned pawns, set-wise.
        let free = (pawns & !pinned).0;
        let empty = !occupied.0;
        let enemies = theirs.0 & target.0;
        if WHITE {
            let single = (free << 8) & empty;
            let double = ((single & RANK_3) << 8) & empty & target.0;
            sink.pawn_sets([
                (Bitboard(single & target.0), 8),
                (Bitboard(double), 16),
                (Bitboard(((free & !FILE_A) << 7) & enemies), 7),
                (Bitboard(((free & !FILE_H) << 9) & enemies), 9),
            ]);
        } else {
            let single = (free >> 8) & empty;
            let double = ((single & RANK_6) >> 8) & empty & target.0;
            sink.pawn_sets([
                (Bitboard(single & target.0), -8),
                (Bitboard(double), -16),
                (Bitboard(((free & !FILE_A) >> 9) & enemies), -9),
                (Bitboard(((free & !FILE_H) >> 7) & enemies), -7),
            ]);
        }

        if let Some(ep) = self.ep_square {
            for from in pawn_attacks(them, ep) & pawns {
                if self.ep_is_legal::<P>(from, ep) {
                    sink.special(Move::with_kind_bits(from, ep, KIND_EN_PASSANT_BITS));
                }
            }
        }
    }

    /// The number of legal moves, with the slider lookups of layout `P`:
    /// the generator above specialised for counting (bulk counting, the
    /// last ply of `perft`). Computes the check and pin information itself
    /// (the stored `checkers`/`pinned` are not read, so a position fresh
    /// from a move needs no `update_check_info` first), always builds the
    /// enemy attack map (king moves and castling are then plain masks),
    /// and counts promotions and castlings without branches.
    #[inline(always)]
    pub(crate) fn count_with<const P: bool>(&self) -> u64 {
        match self.turn {
            Color::White => self.count_for::<true, P>(),
            Color::Black => self.count_for::<false, P>(),
        }
    }

    #[inline(always)]
    pub(crate) fn count_for<const WHITE: bool, const P: bool>(&self) -> u64 {
        let (us, them) = if WHITE {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occupied = ours | theirs;
        let king = self.king(us);
        let (checkers, pinned) = self.check_info(us);

        // Castling: the right, empty squares between king and rook, and no
        // attack on the king's start, transit and target squares (tested
        // below on `danger`). Consistency of the rights (king and rook on
        // their squares) is kept by FEN parsing and by every move.
        let (rights, empty_k, safe_k, empty_q, safe_q, g, c) = if WHITE {
            (
                self.castling.bits(),
                0x60u64,
                0x70u64,
                0x0eu64,
                0x1cu64,
                Square::G1,
                Square::C1,
            )
        } else {
            (
                self.castling.bits() >> 2,
                0x60 << 56,
                0x70 << 56,
                0x0e << 56,
                0x1c << 56,
                Square::G8,
                Square::C8,
            )
        };

        // King moves: every target not attacked with the king removed.
        // `danger` is the map of enemy attacks (with the king removed),
        // built whole when the king has two or more candidate squares;
        // otherwise it holds the squares that are read: the candidate (one
        // test), the king's square when in check, and a castling target
        // square when that castling is otherwise possible (then its
        // transit square is the one candidate).
        let king_bb = Bitboard::from_square(king);
        let without_king = occupied ^ king_bb;
        let candidates = king_attacks(king) & !ours;
        let danger = if candidates.more_than_one() {
            // Only the squares next to the king and, while castling is
            // allowed, those castling crosses are read: sliders that cannot
            // reach any of them are left out; the king's own square is
            // marked when in check.
            // (A right implies the king on its start square.)
            let zones = king_zones(if rights & 3 != 0 {
                CASTLING_ZONES[usize::from(!WHITE)]
            } else {
                king.index()
            });
            self.attacks_of_zone::<WHITE, P>(without_king, zones)
                | Bitboard(king_bb.0 & 0u64.wrapping_sub(u64::from(checkers.any())))
        } else {
            let mut danger = Bitboard(king_bb.0 & 0u64.wrapping_sub(u64::from(checkers.any())));
            for to in candidates {
                if self.attacked_by::<P>(them, to, without_king) {
                    danger = danger.with(to);
                }
            }
            if rights & 1 != 0
                && occupied.0 & empty_k == 0
                && self.attacked_by::<P>(them, g, occupied)
            {
                danger = danger.with(g);
            }
            if rights & 2 != 0
                && occupied.0 & empty_q == 0
                && self.attacked_by::<P>(them, c, occupied)
            {
                danger = danger.with(c);
            }
            danger
        };
        let mut count = u64::from((candidates & !danger).count());
        if checkers.more_than_one() {
            return count;
        }
        // (`new_masked` keeps the lookup in range when there is no
        // checker; its result is not used then.)
        let checker = Square::new_masked(checkers.0.trailing_zeros());
        let target = if checkers.is_empty() {
            !ours
        } else {
            between(king, checker) | checkers
        };
        let queens = self.by_kind[PieceKind::Queen.index()];
        let diagonal = (self.by_kind[PieceKind::Bishop.index()] | queens) & ours;
        let straight = (self.by_kind[PieceKind::Rook.index()] | queens) & ours;
        for from in self.by_kind[PieceKind::Knight.index()] & ours & !pinned {
            count += u64::from((knight_attacks(from) & target).count());
        }
        for from in diagonal & !pinned {
            count += u64::from((bishop_attacks_with::<P>(from, occupied) & target).count());
        }
        for from in straight & !pinned {
            count += u64::from((rook_attacks_with::<P>(from, occupied) & target).count());
        }
        let pawns = self.by_kind[PieceKind::Pawn.index()] & ours;
        if pinned.any() {
            // A pinned piece moves along its pin line only; in check that
            // leaves nothing (the pin line and the check line meet only at
            // the king, which is not in `target`).
            for from in diagonal & pinned {
                let targets = bishop_attacks_with::<P>(from, occupied) & target & line(king, from);
                count += u64::from(targets.count());
            }
            for from in straight & pinned {
                let targets = rook_attacks_with::<P>(from, occupied) & target & line(king, from);
                count += u64::from(targets.count());
            }
            for from in pawns & pinned {
                let pin_line = line(king, from) & target;
                let mut targets = pawn_attacks(us, from) & theirs;
                let push = Square::new_masked(if WHITE {
                    from.index() as u32 + 8
                } else {
                    (from.index() as u32).wrapping_sub(8)
                });
                if !occupied.contains(push) {
                    targets = targets.with(push);
                    let start = if WHITE { RANK_3 } else { RANK_6 };
                    if start & Bitboard::from_square(push).0 != 0 {
                        let double = Square::new_masked(if WHITE {
                            push.index() as u32 + 8
                        } else {
                            (push.index() as u32).wrapping_sub(8)
                        });
                        if !occupied.contains(double) {
                            targets = targets.with(double);
                        }
                    }
                }
                let targets = targets & pin_line;
                count += u64::from(targets.count() + 3 * (targets & Bitboard::BACKRANKS).count());
            }
        }

        // Unpinned pawns, set-wise. Pushes land on empty squares, captures
        // on enemy pieces, and a single and a double push never share a
        // target: single, double and left captures are disjoint.
        let free = (pawns & !pinned).0;
        let empty = !occupied.0;
        let enemies = theirs.0 & target.0;
        let (single, double, left, right) = if WHITE {
            let single = (free << 8) & empty;
            (
                single & target.0,
                ((single & RANK_3) << 8) & empty & target.0,
                ((free & !FILE_A) << 7) & enemies,
                ((free & !FILE_H) << 9) & enemies,
            )
        } else {
            let single = (free >> 8) & empty;
            (
                single & target.0,
                ((single & RANK_6) >> 8) & empty & target.0,
                ((free & !FILE_A) >> 9) & enemies,
                ((free & !FILE_H) >> 7) & enemies,
            )
        };
        count += u64::from((single | double | left).count_ones() + right.count_ones());
        // Promotions: three more moves each (most positions have no pawn
        // on its seventh rank: one test skips them).
        let seventh = if WHITE { RANK_7 } else { RANK_2 };
        if free & seventh != 0 {
            let promo = Bitboard::BACKRANKS.0;
            count += u64::from(
                3 * (((single | left) & promo).count_ones() + (right & promo).count_ones()),
            );
        }

        // Castling (see `rights` above).
        // `without_king | danger` has every square castling needs empty
        // or unattacked except b1/b8 (which need only be empty), and the
        // king's own square when in check: one test per side.
        let blocked = (without_king | danger).0;
        let castle_k = (rights & 1 != 0) & (blocked & safe_k == 0);
        let castle_q = (rights & 2 != 0) & ((blocked & safe_q) | (without_king.0 & empty_q) == 0);
        count += u64::from(castle_k) + u64::from(castle_q);

        if let Some(ep) = self.ep_square {
            for from in pawn_attacks(them, ep) & pawns {
                count += u64::from(self.ep_is_legal::<P>(from, ep));
            }
        }
        count
    }

    /// [`Self::attacks_of`] with the enemy rooks and queens outside
    /// `rook_zone`, and the bishops and queens outside `bishop_zone`, left
    /// out (exact on the squares those zones were built for).
    #[inline(always)]
    fn attacks_of_zone<const WHITE: bool, const P: bool>(
        &self,
        occupied: Bitboard,
        [rook_zone, bishop_zone, knight_zone]: [Bitboard; 3],
    ) -> Bitboard {
        let them = if WHITE { Color::Black } else { Color::White };
        let theirs = self.by_color[them.index()];
        let pawns = (self.by_kind[PieceKind::Pawn.index()] & theirs).0;
        let mut attacked = Bitboard(if WHITE {
            ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7)
        } else {
            ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9)
        });
        attacked |= king_attacks(self.king(them));
        for from in self.by_kind[PieceKind::Knight.index()] & theirs & knight_zone {
            attacked |= knight_attacks(from);
        }
        let queens = self.by_kind[PieceKind::Queen.index()];
        for from in (self.by_kind[PieceKind::Bishop.index()] | queens) & theirs & bishop_zone {
            attacked |= bishop_attacks_with::<P>(from, occupied);
        }
        for from in (self.by_kind[PieceKind::Rook.index()] | queens) & theirs & rook_zone {
            attacked |= rook_attacks_with::<P>(from, occupied);
        }
        attacked
    }

    /// Every square a piece of the side not to move attacks, with
    /// `occupied` as the blockers for sliders.
    #[inline(always)]
    fn attacks_of<const WHITE: bool, const P: bool>(&self, occupied: Bitboard) -> Bitboard {
        let them = if WHITE { Color::Black } else { Color::White };
        let theirs = self.by_color[them.index()];
        let pawns = (self.by_kind[PieceKind::Pawn.index()] & theirs).0;
        let mut attacked = Bitboard(if WHITE {
            ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7)
        } else {
            ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9)
        });
        attacked |= king_attacks(self.king(them));
        attacked |= knight_set_attacks(self.by_kind[PieceKind::Knight.index()] & theirs);
        let queens = self.by_kind[PieceKind::Queen.index()];
        for from in (self.by_kind[PieceKind::Bishop.index()] | queens) & theirs {
            attacked |= bishop_attacks_with::<P>(from, occupied);
        }
        for from in (self.by_kind[PieceKind::Rook.index()] | queens) & theirs {
            attacked |= rook_attacks_with::<P>(from, occupied);
        }
        attacked
    }

    #[inline(always)]
    fn castling_moves<S: Sink, const WHITE: bool, const P: bool>(
        &self,
        sink: &mut S,
        occupied: Bitboard,
        king_targets: Bitboard,
        danger: Option<Bitboard>,
    ) {
        // (rights, king-side bit, queen-side bit, squares that must be
        // empty king side / queen side, e, g, c, f, d)
        let (rights, king_side, queen_side, empty_k, empty_q, e, g, c, f, d) = if WHITE {
            (
                self.castling.bits() & 3,
                1,
                2,
                Bitboard(0x60),
                Bitboard(0x0e),
                Square::E1,
                Square::G1,
                Square::C1,
                Square::F1,
                Square::D1,
            )
        } else {
            (
                self.castling.bits() & 12,
                4,
                8,
                Bitboard(0x60 << 56),
                Bitboard(0x0e << 56),
                Square::E8,
                Square::G8,
                Square::C8,
                Square::F8,
                Square::D8,
            )
        };
        if rights == 0 {
            return;
        }
        // Consistency of rights (king on e1/e8, rook on its corner) is
        // enforced when a FEN is parsed and kept by `play_unchecked`.
        // Castling is generated only when not in check, and the king's
        // transit square (f or d) is next to it: it is safe exactly when
        // it is among the king's own targets (a slider reaching it through
        // the king's square would be giving check), so only the target
        // square (g or c) needs an attack test (`danger`, computed with
        // the king removed, is the same there for the same reason).
        let them = if WHITE { Color::Black } else { Color::White };
        let attacked = |sq: Square| match danger {
            Some(d) => d.contains(sq),
            None => self.attacked_by::<P>(them, sq, occupied),
        };
        if rights & king_side != 0
            && (empty_k & occupied).is_empty()
            && king_targets.contains(f)
            && !attacked(g)
        {
            sink.special(Move::with_kind_bits(e, g, KIND_CASTLE_KING_BITS));
        }
        if rights & queen_side != 0
            && (empty_q & occupied).is_empty()
            && king_targets.contains(d)
            && !attacked(c)
        {
            sink.special(Move::with_kind_bits(e, c, KIND_CASTLE_QUEEN_BITS));
        }
    }
}
