//! [`Setup`] (unchecked) and [`Position`] (validated), play, and queries.

use super::bitboard::{self as bb, Bitboard, GOLD, KING, KNIGHT, PAWN, SILVER, dead_squares};
use super::types::{Color, Hand, Move, Piece, PieceKind, Square};
use super::zobrist;

/// An unchecked position: what a position text says, before the rules are
/// applied. [`Position::from_setup`] validates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The board, indexed by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Pieces in hand, indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// The side to move.
    pub side_to_move: Color,
    /// The SFEN move number (1 = first move of the game), at least 1.
    pub move_number: u32,
}

impl Setup {
    /// An empty board, empty hands, Black to move, move number 1.
    pub const fn empty() -> Setup {
        Setup {
            board: [None; 81],
            hands: [Hand::EMPTY; 2],
            side_to_move: Color::Black,
            move_number: 1,
        }
    }

    /// The even-game start position (hirate).
    pub fn startpos() -> Setup {
        use PieceKind::*;
        let mut s = Setup::empty();
        let back = [
            Lance, Knight, Silver, Gold, King, Gold, Silver, Knight, Lance,
        ];
        for (i, &k) in back.iter().enumerate() {
            let file = i as u8 + 1;
            s.put(file, 1, Color::White, k);
            s.put(file, 9, Color::Black, k);
            s.put(file, 3, Color::White, Pawn);
            s.put(file, 7, Color::Black, Pawn);
        }
        s.put(8, 2, Color::White, Rook);
        s.put(2, 2, Color::White, Bishop);
        s.put(2, 8, Color::Black, Rook);
        s.put(8, 8, Color::Black, Bishop);
        s
    }

    fn put(&mut self, file: u8, rank: u8, color: Color, kind: PieceKind) {
        if let Some(sq) = Square::new(file, rank) {
            self.board[sq.index()] = Some(Piece::new(color, kind));
        }
    }

    /// How many pieces of the unpromoted kind `kind` (promoted forms
    /// included) are on the board and in both hands.
    pub fn count(&self, kind: PieceKind) -> u32 {
        let kind = kind.unpromoted();
        let on_board = self
            .board
            .iter()
            .flatten()
            .filter(|p| p.kind.unpromoted() == kind)
            .count() as u32;
        on_board + self.hands[0].count(kind) as u32 + self.hands[1].count(kind) as u32
    }
}

impl Default for Setup {
    fn default() -> Self {
        Setup::empty()
    }
}

/// Why a [`Setup`] is not a position that can occur under the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// More pieces of one kind (promoted forms and hands included) than a
    /// set has: 18 pawns, 4 lances/knights/silvers/golds, 2 bishops/rooks.
    #[error("too many pieces of kind {kind} ({count}, at most {max})")]
    TooManyPieces {
        /// The unpromoted kind.
        kind: PieceKind,
        /// How many were found.
        count: u32,
        /// The maximum.
        max: u8,
    },
    /// A side has two or more kings.
    #[error("{color} has more than one king")]
    TooManyKings {
        /// The side.
        color: Color,
    },
    /// A piece that could never move again: pawn or lance on its last rank,
    /// knight on its last two ranks.
    #[error("dead piece on {square}: it could never move")]
    DeadPiece {
        /// Where.
        square: Square,
    },
    /// Two unpromoted pawns of one side on one file (nifu).
    #[error("two {color} pawns on file {file} (nifu)")]
    Nifu {
        /// The side.
        color: Color,
        /// The file 1..=9.
        file: u8,
    },
    /// The side not to move is in check (its opponent could take the king).
    #[error("the side not to move is in check")]
    OpponentInCheck,
    /// Move number 0 (numbering starts at 1).
    #[error("move number must be at least 1")]
    MoveNumberZero,
}

/// How a game ended, as far as the position alone tells: the side to move
/// has no legal move, and in shogi that loses whether it is in check or not
/// ([`Position::outcome`]). A pawn drop that would mate is not a legal move
/// (uchifuzume), so no game ends by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// The side to move is in check and has no legal move (tsumi); `winner`
    /// is the other side.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move is not in check (or has no king) and has no legal
    /// move: a stalemate, which in shogi loses too; `winner` is the other
    /// side.
    Stalemate {
        /// The side that wins.
        winner: Color,
    },
}

/// A validated shogi position: board, hands, side to move and move number.
///
/// Invariants (checked by [`Position::from_setup`]): no more pieces than a
/// set has, at most one king per side (a side may have none: tsume
/// problems), no dead pieces, no nifu, the side not to move is not in check.
///
/// `FromStr`/`Display` use SFEN (see [`Position::from_sfen`]); the CSA
/// position format is in [`CsaPositionParser`](super::CsaPositionParser) and
/// [`Position::csa`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Piece codes per square (0 = empty, see `Piece::code`).
    pub(crate) board: [u8; 81],
    pub(crate) by_color: [u128; 2],
    pub(crate) by_kind: [u128; 14],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    pub(crate) move_number: u32,
    pub(crate) hash: u64,
}

impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl core::fmt::Debug for Position {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Position({self})")
    }
}

default_is_startpos!(Position);

impl Position {
    /// The even-game start position, Black (sente) to move.
    pub fn startpos() -> Position {
        Position::build(&Setup::startpos())
    }

    /// Validates a [`Setup`]; see [`SetupError`] for what is rejected.
    ///
    /// # Errors
    ///
    /// [`SetupError`]: more pieces of a kind than a set has, two kings on a
    /// side, a piece that could never move again, two unpromoted pawns of a
    /// side on one file (nifu), the side not to move in check, or move number 0.
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        if setup.move_number == 0 {
            return Err(SetupError::MoveNumberZero);
        }
        for kind in PieceKind::HAND {
            let count = setup.count(kind);
            if count > kind.total_count() as u32 {
                return Err(SetupError::TooManyPieces {
                    kind,
                    count,
                    max: kind.total_count(),
                });
            }
        }
        let mut kings = [0u8; 2];
        let mut pawn_files = [[false; 9]; 2];
        for sq in Square::all() {
            let Some(p) = setup.board[sq.index()] else {
                continue;
            };
            let bit = 1u128 << sq.index();
            let c = p.color.index();
            match p.kind {
                PieceKind::King => {
                    kings[c] += 1;
                    if kings[c] > 1 {
                        return Err(SetupError::TooManyKings { color: p.color });
                    }
                }
                kind if dead_squares(kind, c) & bit != 0 => {
                    return Err(SetupError::DeadPiece { square: sq });
                }
                _ => {}
            }
            if p.kind == PieceKind::Pawn {
                let f = sq.file() as usize - 1;
                if pawn_files[c][f] {
                    return Err(SetupError::Nifu {
                        color: p.color,
                        file: sq.file(),
                    });
                }
                pawn_files[c][f] = true;
            }
        }
        let pos = Position::build(setup);
        let them = setup.side_to_move.opposite();
        if let Some(k) = pos.king(them)
            && pos.attackers(setup.side_to_move, k.index(), pos.occupied_bits()) != 0
        {
            return Err(SetupError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// Builds without validation (callers guarantee the invariants).
    fn build(setup: &Setup) -> Position {
        let mut pos = Position {
            board: [0; 81],
            by_color: [0; 2],
            by_kind: [0; 14],
            hands: setup.hands,
            side: setup.side_to_move,
            move_number: setup.move_number,
            hash: 0,
        };
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.board[sq.index()] = p.code();
                pos.by_color[p.color.index()] |= 1u128 << sq.index();
                pos.by_kind[p.kind.index()] |= 1u128 << sq.index();
            }
        }
        pos.hash = pos.compute_hash();
        pos
    }

    /// The position as an unchecked [`Setup`].
    pub fn to_setup(&self) -> Setup {
        let mut s = Setup::empty();
        for sq in Square::all() {
            s.board[sq.index()] = self.piece_at(sq);
        }
        s.hands = self.hands;
        s.side_to_move = self.side;
        s.move_number = self.move_number;
        s
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0u64;
        for (i, &code) in self.board.iter().enumerate() {
            if code != 0 {
                h ^= zobrist::PIECE[code as usize][i];
            }
        }
        for c in 0..2 {
            for k in 0..7 {
                h ^= zobrist::HAND[c][k][self.hands[c].raw(k) as usize];
            }
        }
        if self.side == Color::White {
            h ^= zobrist::SIDE;
        }
        h
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The SFEN move number (1 for the first move; counts plies).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// The pieces `color` holds in hand.
    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// The square of `color`'s king, `None` if it has none (tsume-style
    /// set-ups).
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        Bitboard(self.by_kind[PieceKind::King.index()] & self.by_color[color.index()]).first()
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.occupied_bits())
    }

    #[inline]
    pub(crate) fn occupied_bits(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares holding `color`'s pieces.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        Bitboard(self.by_color[color.index()])
    }

    /// The squares holding pieces of `color` and `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        Bitboard(self.by_color[color.index()] & self.by_kind[kind.index()])
    }

    /// A 64-bit Zobrist key of (board, hands, side to move); the move number
    /// is not included. Equal positions have equal keys.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// `true` if both positions have the same board, hands and side to move
    /// (move numbers may differ): the identity used for repetition.
    pub fn same_position(&self, other: &Position) -> bool {
        self.hash == other.hash
            && self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
    }

    #[inline(always)]
    pub(crate) fn kind_bb(&self, k: PieceKind) -> u128 {
        self.by_kind[k as usize]
    }

    /// Gold-movers: gold and the four promoted minor pieces.
    #[inline(always)]
    pub(crate) fn golds_bb(&self) -> u128 {
        use PieceKind::*;
        self.kind_bb(Gold)
            | self.kind_bb(ProPawn)
            | self.kind_bb(ProLance)
            | self.kind_bb(ProKnight)
            | self.kind_bb(ProSilver)
    }

    /// `by`'s pieces that attack square index `s` with occupancy `occ`.
    #[inline]
    pub(crate) fn attackers(&self, by: Color, s: usize, occ: u128) -> u128 {
        use PieceKind::*;
        let c = self.by_color[by.index()];
        let o = by.opposite().index();
        let hd = self.kind_bb(Horse) | self.kind_bb(Dragon);
        let mut a = ((PAWN[o][s] & self.kind_bb(Pawn))
            | (KNIGHT[o][s] & self.kind_bb(Knight))
            | (SILVER[o][s] & self.kind_bb(Silver))
            | (GOLD[o][s] & self.golds_bb())
            | (KING[0][s] & (self.kind_bb(King) | hd)))
            & c;
        // Sliders: only look along rays that hold a slider of `by`.
        let rooks = (self.kind_bb(Rook) | self.kind_bb(Dragon)) & c;
        let bishops = (self.kind_bb(Bishop) | self.kind_bb(Horse)) & c;
        let lances = self.kind_bb(Lance) & c;
        // A lance of `by` attacks `s` from the ray opposite to its own move.
        let lance_dir = match by {
            Color::Black => 1,
            Color::White => 0,
        };
        if (rooks | lances) & bb::rook_pseudo(s) != 0 {
            for d in 0..4 {
                let mut sl = rooks;
                if d == lance_dir {
                    sl |= lances;
                }
                if bb::RAYS[d][s] & sl != 0 {
                    a |= bb::first_blocker(d, s, occ) & sl;
                }
            }
        }
        if bishops & bb::bishop_pseudo(s) != 0 {
            for d in 4..8 {
                if bb::RAYS[d][s] & bishops != 0 {
                    a |= bb::first_blocker(d, s, occ) & bishops;
                }
            }
        }
        a
    }

    /// `true` if `by` attacks `sq` in the current position.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers(by, sq.index(), self.occupied_bits()) != 0
    }

    /// The opponent's pieces giving check to the side to move (empty if
    /// not in check or if the side to move has no king).
    pub fn checkers(&self) -> Bitboard {
        match self.king(self.side) {
            Some(k) => {
                Bitboard(self.attackers(self.side.opposite(), k.index(), self.occupied_bits()))
            }
            None => Bitboard::EMPTY,
        }
    }

    /// `true` if the side to move is in check.
    pub fn is_check(&self) -> bool {
        !self.checkers().is_empty()
    }

    /// The outcome if the side to move has no legal move (it loses:
    /// [`Outcome::Checkmate`] in check, [`Outcome::Stalemate`] otherwise),
    /// else `None`. Stops at the first legal move found.
    ///
    /// Decided from the position alone: repetition (sennichite, perpetual
    /// check) needs the game's positions ([`GameHistory`](super::GameHistory)),
    /// an impasse win needs the side to move's declaration
    /// ([`Position::impasse_declaration`]), and time, resignation and
    /// illegal moves are the referee's; none of them is an outcome here.
    ///
    /// ```
    /// use board_core::shogi::{Color, Outcome, Position};
    /// // Head-gold mate: the gold on 5b, guarded by the pawn on 5c.
    /// let mate: Position = "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1".parse()?;
    /// assert_eq!(mate.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
    /// assert_eq!(Position::startpos().outcome(), None);
    /// # Ok::<(), board_core::shogi::ParseSfenError>(())
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            return None;
        }
        let winner = self.side.opposite();
        Some(if self.is_check() {
            Outcome::Checkmate { winner }
        } else {
            Outcome::Stalemate { winner }
        })
    }

    /// `us`'s pieces pinned against `us`'s king at `k` (their only move
    /// options lie on the line through the king and the pinner).
    #[inline]
    pub(crate) fn pinned(&self, us: Color, k: usize, occ: u128) -> u128 {
        use PieceKind::*;
        let them = self.by_color[us.opposite().index()];
        let snipers = them
            & ((bb::rook_pseudo(k) & (self.kind_bb(Rook) | self.kind_bb(Dragon)))
                | (bb::bishop_pseudo(k) & (self.kind_bb(Bishop) | self.kind_bb(Horse)))
                | (bb::lance_attacks(us, k, 0) & self.kind_bb(Lance)));
        let mut pinned = 0u128;
        let mut s = snipers;
        while s != 0 {
            let sn = s.trailing_zeros() as usize;
            s &= s - 1;
            let b = bb::between(k, sn) & occ;
            if b != 0 && b & (b - 1) == 0 {
                pinned |= b;
            }
        }
        pinned & self.by_color[us.index()]
    }

    /// Plays `mv` without any legality check. `mv` must be legal in this
    /// position (e.g. taken from [`Position::legal_moves`]); otherwise the
    /// position may become inconsistent (but memory-safe: no undefined
    /// behaviour, possibly a panic on a nonsensical move).
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let u = us.index();
        let to = mv.to().index();
        let tbit = 1u128 << to;
        let f = mv.raw_from();
        if f >= 81 {
            let hi = f - 81;
            let old = self.hands[u].raw(hi) as usize;
            self.hash ^= zobrist::HAND[u][hi][old] ^ zobrist::HAND[u][hi][old.wrapping_sub(1) & 31];
            self.hands[u].dec(hi);
            let code = 1 + hi as u8 + 14 * u as u8;
            self.board[to] = code;
            self.by_color[u] |= tbit;
            self.by_kind[hi] |= tbit;
            self.hash ^= zobrist::PIECE[code as usize][to];
        } else {
            let fbit = 1u128 << f;
            let code = self.board[f];
            let kind = ((code - 1) % 14) as usize;
            let cap = self.board[to];
            if cap != 0 {
                let ck = ((cap - 1) % 14) as usize;
                self.by_color[u ^ 1] ^= tbit;
                self.by_kind[ck] ^= tbit;
                self.hash ^= zobrist::PIECE[cap as usize][to];
                let hi = UNPROMOTED_HAND[ck];
                let old = self.hands[u].raw(hi) as usize;
                self.hash ^= zobrist::HAND[u][hi][old] ^ zobrist::HAND[u][hi][old + 1];
                self.hands[u].inc(hi);
            }
            let (nkind, ncode) = if mv.is_promotion() {
                (PROMOTED[kind], code + (PROMOTED[kind] - kind) as u8)
            } else {
                (kind, code)
            };
            self.board[f] = 0;
            self.board[to] = ncode;
            self.by_color[u] ^= fbit | tbit;
            self.by_kind[kind] ^= fbit;
            self.by_kind[nkind] |= tbit;
            self.hash ^= zobrist::PIECE[code as usize][f] ^ zobrist::PIECE[ncode as usize][to];
        }
        self.side = us.opposite();
        self.hash ^= zobrist::SIDE;
        self.move_number = self.move_number.saturating_add(1);
    }

    /// The position with the side to move passed to the other side (no
    /// move played). Useful for threat analysis; fails with
    /// [`SetupError::OpponentInCheck`] if the side to move is in check.
    ///
    /// # Errors
    ///
    /// [`SetupError::OpponentInCheck`] when the side to move is in check.
    pub fn null_move(&self) -> Result<Position, SetupError> {
        let mut s = self.to_setup();
        s.side_to_move = self.side.opposite();
        Position::from_setup(&s)
    }
}

/// Hand index of the unpromoted form, per piece-kind discriminant (king: unused).
pub(crate) const UNPROMOTED_HAND: [usize; 14] = [0, 1, 2, 3, 4, 5, 6, 0, 0, 1, 2, 3, 5, 6];
/// Promoted kind discriminant per kind (identity where no promotion).
pub(crate) const PROMOTED: [usize; 14] = [8, 9, 10, 11, 4, 12, 13, 7, 8, 9, 10, 11, 12, 13];
