//! The validated chess position: board, side to move, castling rights, en
//! passant square and move counters; making moves; game-end queries.

use core::fmt;
use core::ops::ControlFlow;

use super::attacks::{
    between, bishop_attacks_with, bishop_rays, king_attacks, knight_attacks, pawn_attacks,
    rook_attacks_with, rook_rays,
};
use super::bitboard::Bitboard;
use super::legality::PlayError;
use super::types::{CastlingSide, Color, Move, Piece, PieceKind, Square};
use super::{MoveList, movegen};

/// Castling rights: which of the four castlings (White/Black, king
/// side/queen side) are still allowed by the history of the game.
///
/// A right only says the king and that rook have not moved; whether
/// castling is legal now also depends on the squares between them and on
/// attacks (see [`Position::legal_moves`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No castling right.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights (`KQkq`).
    pub const ALL: CastlingRights = CastlingRights(15);

    #[inline]
    const fn bit(color: Color, side: CastlingSide) -> u8 {
        let b = match side {
            CastlingSide::KingSide => 1,
            CastlingSide::QueenSide => 2,
        };
        match color {
            Color::White => b,
            Color::Black => b << 2,
        }
    }

    /// `true` if `color` may still castle on `side`.
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// The rights with `color`/`side` added.
    #[inline]
    #[must_use]
    pub const fn with(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, side))
    }

    /// `true` if no right is left.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    #[inline]
    pub(crate) const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(bits & 15)
    }
}

impl fmt::Display for CastlingRights {
    /// The FEN castling field: `-` or a subset of `KQkq` in that order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (bit, c) in [(1, "K"), (2, "Q"), (4, "k"), (8, "q")] {
            if self.0 & bit != 0 {
                f.write_str(c)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Castling rights kept when a piece leaves or lands on each square: moving
/// a king or a rook from its original square, or capturing a rook on its
/// original square, removes the matching right.
pub(crate) const CASTLING_KEEP: [u8; 64] = {
    let mut keep = [15u8; 64];
    keep[Square::A1.index()] = 15 & !2;
    keep[Square::E1.index()] = 15 & !3;
    keep[Square::H1.index()] = 15 & !1;
    keep[Square::A8.index()] = 15 & !8;
    keep[Square::E8.index()] = 15 & !12;
    keep[Square::H8.index()] = 15 & !4;
    keep
};

/// How a game ended, as far as the position alone tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is checkmated; `winner` is the other side.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can checkmate by any sequence of legal moves (see
    /// [`Position::is_insufficient_material`]).
    InsufficientMaterial,
}

/// A legal chess position (standard chess, not Chess960).
///
/// Built from FEN ([`str::parse`], see [`ParseFenError`](super::ParseFenError)
/// for what is rejected), [`Position::startpos`], or by playing moves.
/// Printed as canonical FEN by `Display`.
///
/// The en passant square is kept only when an en passant capture is
/// legal (the convention of python-chess's default FEN output and of
/// X-FEN); two positions are equal exactly when their canonical FENs are.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) by_kind: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    /// Enemy pieces giving check to the side to move (derived).
    pub(crate) checkers: Bitboard,
    /// Pieces of the side to move pinned to their king (derived).
    pub(crate) pinned: Bitboard,
}

default_is_startpos!(Position);

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl Position {
    /// The standard start position,
    /// `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`.
    pub const fn startpos() -> Position {
        Position {
            by_kind: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
            turn: Color::White,
            castling: CastlingRights::ALL,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    /// An empty board (no pieces, White to move, no rights), used while
    /// parsing; not a legal position.
    pub(crate) const fn empty() -> Position {
        Position {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.turn
    }

    /// The castling rights.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en passant square (the square a pawn just skipped over), only
    /// when an en passant capture is legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves (plies) since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The full-move number: starts at 1, incremented after each Black move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of the pieces of kind `kind`, both colours.
    #[inline]
    pub fn by_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The squares of `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_kind(piece.kind) & self.by_color(piece.color)
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else if self.by_color[1].contains(sq) {
            Color::Black
        } else {
            return None;
        };
        self.kind_at(sq).map(|kind| Piece { color, kind })
    }

    #[inline]
    pub(crate) fn kind_at(&self, sq: Square) -> Option<PieceKind> {
        PieceKind::ALL
            .into_iter()
            .find(|&kind| self.by_kind[kind.index()].contains(sq))
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        let bb = self.by_kind[PieceKind::King.index()] & self.by_color[color.index()];
        Square::new_masked(bb.0.trailing_zeros())
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// `true` if the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// `true` if the side to move is in check and has no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// `true` if the side to move is not in check and has no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// `true` if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// `true` when neither side can checkmate by any sequence of legal
    /// moves because of the material alone: no pawns, rooks or queens, and
    /// either only one minor piece (knight or bishop) on the board besides
    /// the kings, or only bishops, all on squares of one colour. (Same
    /// verdict as python-chess's `is_insufficient_material`.)
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_kind(PieceKind::Pawn)
            | self.by_kind(PieceKind::Rook)
            | self.by_kind(PieceKind::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_kind(PieceKind::Knight);
        let bishops = self.by_kind(PieceKind::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty())
    }

    /// `true` when the half-move clock has reached 100 (fifty moves by each
    /// side without a capture or pawn move): a draw may be claimed (FIDE
    /// Laws 9.3). The position stays playable.
    #[inline]
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmove_clock >= 100
    }

    /// The outcome if the game is over by checkmate, stalemate or
    /// insufficient material; `None` otherwise (claimable draws such as the
    /// fifty-move rule are not outcomes, see [`Position::is_fifty_moves`]).
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            Some(if self.is_check() {
                Outcome::Checkmate { winner: !self.turn }
            } else {
                Outcome::Stalemate
            })
        } else if self.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else {
            None
        }
    }

    /// Every legal move of the side to move, in a fixed-capacity list (no
    /// heap allocation). Order (stable for a given position): king moves,
    /// knights, diagonal then straight moves of bishops, rooks and queens,
    /// pinned sliders, castling, pinned pawns, the other pawns (pushes,
    /// double pushes, captures; promotions as Q, R, B, N), en passant.
    pub fn legal_moves(&self) -> MoveList {
        let mut sink = movegen::ListSink {
            list: MoveList::new(),
        };
        self.generate(&mut sink);
        sink.list
    }

    /// The number of legal moves, counted without listing them (bulk
    /// counting; what `perft` uses at the last ply).
    pub fn count_legal_moves(&self) -> u64 {
        super::simd::count(self)
    }

    /// Calls `f` with every legal move, in [`Position::legal_moves`] order,
    /// until `f` returns [`ControlFlow::Break`] (returned at once; the
    /// remaining moves are not passed). No heap allocation.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use board_core::chess::Position;
    /// let first_knight = Position::startpos().for_each_legal_move(|mv| {
    ///     if mv.from().to_string() == "g1" { ControlFlow::Break(mv) } else { ControlFlow::Continue(()) }
    /// });
    /// assert!(matches!(first_knight, ControlFlow::Break(mv) if mv.to_string().starts_with("g1")));
    /// ```
    pub fn for_each_legal_move<B>(
        &self,
        mut f: impl FnMut(Move) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        self.legal_moves().iter().try_for_each(|&mv| f(mv))
    }

    /// `true` if `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Plays `mv` if it is legal, returning the new position; otherwise
    /// returns the unchanged position inside the error.
    ///
    /// # Errors
    /// [`PlayError`] with the position, `mv` and the reason
    /// ([`Position::check_move`]'s), worked out only when refusing.
    pub fn play(self, mv: Move) -> Result<Position, PlayError> {
        if self.is_legal(mv) {
            let mut next = self;
            next.play_unchecked(mv);
            Ok(next)
        } else {
            Err(PlayError {
                position: self,
                mv,
                reason: self.illegal_reason(mv),
            })
        }
    }

    /// Plays `mv` without checking that it is legal: the fast path for moves
    /// taken from [`Position::legal_moves`] of this same position.
    ///
    /// With any other move the resulting position is unspecified (it may
    /// break the invariants of a legal position) but this never panics and
    /// never causes undefined behaviour.
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.turn;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let from_bb = Bitboard::from_square(from);
        let to_bb = Bitboard::from_square(to);
        let Some(kind) = self.kind_at(from) else {
            return;
        };
        self.ep_square = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        let mut double_push = false;

        match mv.kind_bits() {
            super::types::KIND_NORMAL_BITS => {
                if self.by_color[them.index()].contains(to) {
                    self.capture(to, them);
                }
                self.by_kind[kind.index()] ^= from_bb | to_bb;
                self.by_color[us.index()] ^= from_bb | to_bb;
                if kind == PieceKind::Pawn {
                    self.halfmove_clock = 0;
                    double_push = from.index().abs_diff(to.index()) == 16;
                }
            }
            super::types::KIND_EN_PASSANT_BITS => {
                let captured = Square::new_masked((to.index() ^ 8) as u32);
                let cap_bb = Bitboard::from_square(captured);
                self.by_kind[PieceKind::Pawn.index()] ^= cap_bb | from_bb | to_bb;
                self.by_color[them.index()] ^= cap_bb;
                self.by_color[us.index()] ^= from_bb | to_bb;
                self.halfmove_clock = 0;
            }
            k @ (super::types::KIND_CASTLE_KING_BITS | super::types::KIND_CASTLE_QUEEN_BITS) => {
                // Masked so that a malformed move cannot overflow.
                let (rook_from, rook_to) = if k == super::types::KIND_CASTLE_KING_BITS {
                    ((from.index() + 3) & 63, (from.index() + 1) & 63)
                } else {
                    (
                        from.index().wrapping_sub(4) & 63,
                        from.index().wrapping_sub(1) & 63,
                    )
                };
                let rook_bb = Bitboard((1 << rook_from) | (1 << rook_to));
                self.by_kind[PieceKind::King.index()] ^= from_bb | to_bb;
                self.by_kind[PieceKind::Rook.index()] ^= rook_bb;
                self.by_color[us.index()] ^= from_bb | to_bb | rook_bb;
            }
            k => {
                // Promotion: 4 + kind index.
                let promoted = PieceKind::ALL[(k as usize).saturating_sub(4) % 6];
                if self.by_color[them.index()].contains(to) {
                    self.capture(to, them);
                }
                self.by_kind[kind.index()] ^= from_bb;
                self.by_kind[promoted.index()] ^= to_bb;
                self.by_color[us.index()] ^= from_bb | to_bb;
                self.halfmove_clock = 0;
            }
        }

        self.castling = CastlingRights(
            self.castling.0 & CASTLING_KEEP[from.index()] & CASTLING_KEEP[to.index()],
        );
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = them;
        self.update_check_info();
        if double_push {
            let ep = Square::new_masked(((from.index() + to.index()) / 2) as u32);
            if self.ep_capture_exists(ep) {
                self.ep_square = Some(ep);
            }
        }
    }

    #[inline]
    fn capture(&mut self, sq: Square, color: Color) {
        let bb = Bitboard::from_square(sq);
        self.halfmove_clock = 0;
        if let Some(kind) = self.kind_at(sq) {
            self.by_kind[kind.index()] ^= bb;
        }
        self.by_color[color.index()] ^= bb;
    }

    /// Recomputes `checkers` and `pinned` for the side to move.
    pub(crate) fn update_check_info(&mut self) {
        let (checkers, pinned) = self.check_info(self.turn);
        self.checkers = checkers;
        self.pinned = pinned;
    }

    /// The enemy pieces giving check to `us` (the side to move) and the
    /// pieces of `us` pinned to their king, computed from the board.
    #[inline(always)]
    pub(crate) fn check_info(&self, us: Color) -> (Bitboard, Bitboard) {
        let them = !us;
        let king = self.king(us);
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occupied = ours | theirs;
        let queens = self.by_kind[PieceKind::Queen.index()];
        let mut checkers = (knight_attacks(king) & self.by_kind[PieceKind::Knight.index()]
            | pawn_attacks(us, king) & self.by_kind[PieceKind::Pawn.index()])
            & theirs;
        let snipers = (rook_rays(king) & (self.by_kind[PieceKind::Rook.index()] | queens)
            | bishop_rays(king) & (self.by_kind[PieceKind::Bishop.index()] | queens))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            // Branch-free: no blocker makes a checker, one blocker of ours
            // is pinned (the selects compile to conditional moves).
            let blockers = between(king, sniper) & occupied;
            let none = blockers.is_empty();
            let one = !none & !blockers.more_than_one();
            checkers.0 |= u64::from(none) << sniper.index();
            pinned.0 |= blockers.0 & ours.0 & u64::from(one).wrapping_neg();
        }
        (checkers, pinned)
    }

    /// `true` if a piece of `by` attacks `sq`, with `occupied` as the
    /// blockers for sliders.
    #[inline(always)]
    pub(crate) fn attacked_by<const P: bool>(
        &self,
        by: Color,
        sq: Square,
        occupied: Bitboard,
    ) -> bool {
        let theirs = self.by_color[by.index()];
        let queens = self.by_kind[PieceKind::Queen.index()];
        ((knight_attacks(sq) & self.by_kind[PieceKind::Knight.index()]
            | king_attacks(sq) & self.by_kind[PieceKind::King.index()]
            | pawn_attacks(!by, sq) & self.by_kind[PieceKind::Pawn.index()])
            & theirs)
            .any()
            || (bishop_attacks_with::<P>(sq, occupied)
                & (self.by_kind[PieceKind::Bishop.index()] | queens)
                & theirs)
                .any()
            || (rook_attacks_with::<P>(sq, occupied)
                & (self.by_kind[PieceKind::Rook.index()] | queens)
                & theirs)
                .any()
    }

    /// `true` if the side to move can legally capture en passant on `ep`
    /// (the square just skipped by the opponent's double push).
    pub(crate) fn ep_capture_exists(&self, ep: Square) -> bool {
        let us = self.turn;
        let pawns = self.by_kind[PieceKind::Pawn.index()] & self.by_color[us.index()];
        if self.checkers.more_than_one() {
            return false;
        }
        for from in pawn_attacks(!us, ep) & pawns {
            if self.ep_is_legal::<false>(from, ep) {
                return true;
            }
        }
        false
    }

    /// Full legality test of the en passant capture `from` x `ep`: after
    /// removing both pawns and placing ours on `ep`, no enemy piece may
    /// attack our king (covers the pinned-pawn and the horizontal
    /// discovered-check cases).
    #[inline]
    pub(crate) fn ep_is_legal<const P: bool>(&self, from: Square, ep: Square) -> bool {
        let us = self.turn;
        let them = !us;
        let king = self.king(us);
        let captured = Bitboard::from_square(Square::new_masked((ep.index() ^ 8) as u32));
        let occupied =
            (self.occupied() ^ Bitboard::from_square(from) ^ captured) | Bitboard::from_square(ep);
        let theirs = self.by_color[them.index()] & !captured;
        let queens = self.by_kind[PieceKind::Queen.index()];
        ((rook_attacks_with::<P>(king, occupied)
            & (self.by_kind[PieceKind::Rook.index()] | queens)
            | bishop_attacks_with::<P>(king, occupied)
                & (self.by_kind[PieceKind::Bishop.index()] | queens)
            | knight_attacks(king) & self.by_kind[PieceKind::Knight.index()]
            | pawn_attacks(us, king) & self.by_kind[PieceKind::Pawn.index()])
            & theirs)
            .is_empty()
    }
}
