//! [`Game`]: the one shape of the three games' positions, so that code
//! over positions — [`Game::perft`], the built-in
//! [`Player`](crate::player::Player), a command-line tool — is written
//! once.
//!
//! Implemented by the three games' `Position`s (see the trait).

use core::fmt;
use core::ops::{ControlFlow, Deref};
use core::str::FromStr;

use crate::{chess, draughts, shogi};

/// A validated position of one of the games: its moves, how to play them,
/// its unchecked [`Game::Setup`], and its main text notations (`FromStr` /
/// `Display`: PDN FEN, FEN, SFEN; moves: PDN, UCI, USI).
///
/// `{:#}` (the alternate `Display`) draws the position as a plain-ASCII
/// diagram.
///
/// Implemented by [`draughts::Position`], [`chess::Position`] and
/// [`shogi::Position`]. The rules methods (`startpos` to `play_unchecked`)
/// are also inherent methods of each position with the same names, types
/// and meaning (no import is needed to call them on one game); `is_lost`,
/// `material_gain`, `move_text` and `parse_move` (the main notation; each
/// game has inherent methods for all its notations) are the trait's. It
/// adds the algorithms written
/// once: [`Game::perft`] (generic; the three games override it with
/// their specialised counters) and [`Game::perft_divide_with`], and the
/// built-in [`Player::choose`](crate::player::Player::choose) is written
/// over it.
///
/// ```
/// use board_core::{Game, chess, draughts, shogi};
///
/// /// Leaf counts at depth 3 from the start position, for any game.
/// fn perft3<G: Game>() -> u64 {
///     G::startpos().perft(3)
/// }
/// assert_eq!(perft3::<draughts::Position>(), 658);
/// assert_eq!(perft3::<chess::Position>(), 8_902);
/// assert_eq!(perft3::<shogi::Position>(), 25_470);
/// assert_eq!(<chess::Position as Game>::NAME, "chess");
/// ```
pub trait Game:
    Copy + Eq + fmt::Debug + fmt::Display + FromStr<Err = Self::ParseError> + Sized
{
    /// A move of the game (a small `Copy` value).
    type Move: Copy + Eq + fmt::Debug + Default;
    /// The two sides (draughts and chess: White, Black; shogi: Black =
    /// sente, White = gote).
    type Color: Copy + Eq + fmt::Debug + fmt::Display;
    /// The kinds of piece, independent of colour.
    type PieceKind: Copy + Eq + fmt::Debug;
    /// The game's fixed-capacity list of legal moves
    /// (`crate::MoveList<Self::Move, MAX_MOVES>`): a slice by `Deref`, and
    /// iterable by value (`for mv in pos.legal_moves()`).
    type MoveList: Deref<Target = [Self::Move]> + IntoIterator<Item = Self::Move>;
    /// The unchecked position ([`Game::from_setup`] validates it).
    type Setup: Clone + fmt::Debug;
    /// Why a [`Game::Setup`] is not a valid position.
    type SetupError: fmt::Debug + fmt::Display;
    /// Why the position text (PDN FEN, FEN, SFEN) did not parse.
    type ParseError: fmt::Debug + fmt::Display;
    /// Why a move is illegal here ([`Game::check_move`]; also the `reason`
    /// field of each game's `PlayError`): `IllegalReason` in every game.
    type IllegalReason: Copy + Eq + fmt::Debug + fmt::Display;
    /// Why [`Game::play`] refused a move: `PlayError { position, mv,
    /// reason }` in every game (the unchanged position, the move, an
    /// [`Game::IllegalReason`]), printed `illegal move <mv>: <reason>`.
    type PlayError: fmt::Debug + fmt::Display;
    /// A move in the game's main notation (PDN, UCI, USI), for `Display`.
    type MoveText: fmt::Display;
    /// Why [`Game::parse_move`] refused a text (syntax or legality):
    /// draughts' and shogi's `MoveTextError`, chess's `UciError`. (Each
    /// game's `Parse…Error` types are syntax alone.)
    type MoveTextError: fmt::Debug + fmt::Display;

    /// The game's name, lower case: `"draughts"`, `"chess"`, `"shogi"`.
    const NAME: &'static str;
    /// The capacity of [`Game::MoveList`].
    const MAX_MOVES: usize;

    /// The start position of an even game.
    fn startpos() -> Self;
    /// Validates an unchecked set-up.
    ///
    /// # Errors
    /// The game's [`Game::SetupError`]: what rule the set-up breaks.
    fn from_setup(setup: &Self::Setup) -> Result<Self, Self::SetupError>;
    /// The position as an unchecked set-up (`from_setup` gives it back).
    fn to_setup(&self) -> Self::Setup;
    /// The side to move.
    fn side_to_move(&self) -> Self::Color;
    /// Every legal move, in the game's generation order (no heap
    /// allocation).
    fn legal_moves(&self) -> Self::MoveList;
    /// The number of legal moves, counted without listing them where the
    /// game can.
    fn count_legal_moves(&self) -> u64;
    /// Calls `f` with every legal move (in [`Game::legal_moves`] order)
    /// until it returns [`ControlFlow::Break`], which is returned at once.
    fn for_each_legal_move<B>(&self, f: impl FnMut(Self::Move) -> ControlFlow<B>)
    -> ControlFlow<B>;
    /// Whether the side to move has at least one legal move (stops at the
    /// first one found; nothing is listed).
    fn has_legal_move(&self) -> bool;
    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool;
    /// `Ok` exactly when `mv` is legal here ([`Game::is_legal`]), else why
    /// not.
    ///
    /// # Errors
    /// [`Game::IllegalReason`]: the rule `mv` breaks in this position.
    fn check_move(&self, mv: Self::Move) -> Result<(), Self::IllegalReason>;
    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// [`Game::PlayError`] (with the unchanged position) for an illegal
    /// move.
    fn play(self, mv: Self::Move) -> Result<Self, Self::PlayError>;
    /// Plays `mv`, which must be legal (taken from [`Game::legal_moves`]);
    /// an illegal move leaves an unspecified (but memory-safe) position.
    fn play_unchecked(&mut self, mv: Self::Move);
    /// Whether the side to move has lost: it has no legal move (draughts,
    /// shogi) or is checkmated (chess). A chess stalemate is not lost.
    fn is_lost(&self) -> bool;
    /// The material `mv` wins, in the game's usual points: the captured
    /// pieces (draughts man 1, king 3; chess pawn 1, knight and bishop 3,
    /// rook 5, queen 9; shogi pawn 1 up to rook 10, promoted pieces more)
    /// plus what a promotion adds. 0 for a quiet move.
    fn material_gain(&self, mv: Self::Move) -> u32;
    /// `mv` in the game's main notation: PDN (`32-28`, `28x19`), UCI
    /// (`e2e4`), USI (`7g7f`).
    fn move_text(&self, mv: Self::Move) -> Self::MoveText;
    /// Reads a legal move in the game's main notation (as
    /// [`Game::move_text`] writes it).
    ///
    /// # Errors
    /// [`Game::MoveTextError`]: the text is not the notation, or the move
    /// is not legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveTextError>;

    /// The number of leaf nodes of the legal move tree `depth` plies deep
    /// (`perft(0) == 1`); the last ply is counted, not played (bulk
    /// counting). No heap allocation.
    ///
    /// The default is generic (list the moves, play each on a copy,
    /// recurse); the three games override it with their specialised
    /// counters (the same numbers).
    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ => {
                let mut nodes = 0;
                for &mv in self.legal_moves().iter() {
                    let mut child = *self;
                    child.play_unchecked(mv);
                    nodes += child.perft(depth - 1);
                }
                nodes
            }
        }
    }

    /// `perft` split by root move: calls `f(move, count)` for each legal
    /// move (in [`Game::legal_moves`] order) with the leaf count of its
    /// subtree (`perft` of the position after it at `depth - 1`: the leaves
    /// `depth` plies below the root), as each is done (a caller can show
    /// progress), and returns the total, the sum of the counts (1 at depth
    /// 0, with no call).
    fn perft_divide_with(&self, depth: u32, mut f: impl FnMut(Self::Move, u64)) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        let _ = self.for_each_legal_move(|mv| {
            let mut child = *self;
            child.play_unchecked(mv);
            let n = child.perft(depth - 1);
            total += n;
            f(mv, n);
            ControlFlow::<()>::Continue(())
        });
        total
    }
}

/// The [`Game`] methods that are the position's own inherent methods of the
/// same name (each game has them, with the same signatures).
macro_rules! delegate_rules {
    () => {
        #[inline]
        fn startpos() -> Self {
            Self::startpos()
        }
        #[inline]
        fn from_setup(setup: &Self::Setup) -> Result<Self, Self::SetupError> {
            Self::from_setup(setup)
        }
        #[inline]
        fn to_setup(&self) -> Self::Setup {
            Self::to_setup(self)
        }
        #[inline]
        fn side_to_move(&self) -> Self::Color {
            Self::side_to_move(self)
        }
        #[inline]
        fn legal_moves(&self) -> Self::MoveList {
            Self::legal_moves(self)
        }
        #[inline]
        fn count_legal_moves(&self) -> u64 {
            Self::count_legal_moves(self)
        }
        #[inline]
        fn for_each_legal_move<B>(
            &self,
            f: impl FnMut(Self::Move) -> ControlFlow<B>,
        ) -> ControlFlow<B> {
            Self::for_each_legal_move(self, f)
        }
        #[inline]
        fn has_legal_move(&self) -> bool {
            Self::has_legal_move(self)
        }
        #[inline]
        fn is_legal(&self, mv: Self::Move) -> bool {
            Self::is_legal(self, mv)
        }
        #[inline]
        fn check_move(&self, mv: Self::Move) -> Result<(), Self::IllegalReason> {
            Self::check_move(self, mv)
        }
        #[inline]
        fn play(self, mv: Self::Move) -> Result<Self, Self::PlayError> {
            Self::play(self, mv)
        }
        #[inline]
        fn play_unchecked(&mut self, mv: Self::Move) {
            Self::play_unchecked(self, mv)
        }
    };
}

impl Game for draughts::Position {
    type Move = draughts::Move;
    type Color = draughts::Color;
    type PieceKind = draughts::PieceKind;
    type MoveList = draughts::MoveList;
    type Setup = draughts::Setup;
    type SetupError = draughts::SetupError;
    type ParseError = draughts::ParseFenError;
    type IllegalReason = draughts::IllegalReason;
    type PlayError = draughts::PlayError;
    type MoveText = draughts::MoveText;
    type MoveTextError = draughts::MoveTextError;
    const NAME: &'static str = "draughts";
    const MAX_MOVES: usize = draughts::MAX_MOVES;

    delegate_rules!();
    fn is_lost(&self) -> bool {
        Self::is_game_over(self)
    }
    fn material_gain(&self, mv: Self::Move) -> u32 {
        use draughts::PieceKind as K;
        let value = |kind| if kind == K::King { 3 } else { 1 };
        let captured: u32 = mv
            .captures()
            .iter()
            .filter_map(|sq| self.piece_at(sq))
            .map(|p| value(p.kind))
            .sum();
        let promotes = self.piece_at(mv.from()).is_some_and(|p| p.kind == K::Man)
            && match self.side_to_move() {
                draughts::Color::White => mv.to().number() <= 5,
                draughts::Color::Black => mv.to().number() >= 46,
            };
        captured + if promotes { 2 } else { 0 }
    }
    fn move_text(&self, mv: Self::Move) -> Self::MoveText {
        Self::move_text(self, mv)
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveTextError> {
        Self::parse_move(self, text)
    }
    fn perft(&self, depth: u32) -> u64 {
        draughts::perft(self, depth)
    }
}

/// Chess piece values for [`Game::material_gain`].
fn chess_value(kind: chess::PieceKind) -> u32 {
    use chess::PieceKind as K;
    match kind {
        K::Pawn => 1,
        K::Knight | K::Bishop => 3,
        K::Rook => 5,
        K::Queen => 9,
        K::King => 0,
    }
}

impl Game for chess::Position {
    type Move = chess::Move;
    type Color = chess::Color;
    type PieceKind = chess::PieceKind;
    type MoveList = chess::MoveList;
    type Setup = chess::Setup;
    type SetupError = chess::SetupError;
    type ParseError = chess::ParseFenError;
    type IllegalReason = chess::IllegalReason;
    type PlayError = chess::PlayError;
    type MoveText = chess::UciMove;
    type MoveTextError = chess::UciError;
    const NAME: &'static str = "chess";
    const MAX_MOVES: usize = chess::MAX_MOVES;

    delegate_rules!();
    fn is_lost(&self) -> bool {
        Self::is_checkmate(self)
    }
    fn material_gain(&self, mv: Self::Move) -> u32 {
        let captured = if mv.is_en_passant() {
            1
        } else {
            self.piece_at(mv.to()).map_or(0, |p| chess_value(p.kind))
        };
        captured + mv.promotion().map_or(0, |k| chess_value(k) - 1)
    }
    fn move_text(&self, mv: Self::Move) -> Self::MoveText {
        mv.to_uci()
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveTextError> {
        Self::parse_uci(self, text)
    }
    fn perft(&self, depth: u32) -> u64 {
        chess::perft(self, depth)
    }
}

/// Shogi piece values for [`Game::material_gain`].
fn shogi_value(kind: shogi::PieceKind) -> u32 {
    use shogi::PieceKind as K;
    match kind {
        K::Pawn => 1,
        K::Lance | K::Knight => 3,
        K::Silver | K::Gold => 5,
        K::ProPawn | K::ProLance | K::ProKnight | K::ProSilver => 6,
        K::Bishop => 8,
        K::Rook => 10,
        K::Horse => 11,
        K::Dragon => 13,
        K::King => 0,
    }
}

impl Game for shogi::Position {
    type Move = shogi::Move;
    type Color = shogi::Color;
    type PieceKind = shogi::PieceKind;
    type MoveList = shogi::MoveList;
    type Setup = shogi::Setup;
    type SetupError = shogi::SetupError;
    type ParseError = shogi::ParseSfenError;
    type IllegalReason = shogi::IllegalReason;
    type PlayError = shogi::PlayError;
    type MoveText = shogi::Move;
    type MoveTextError = shogi::MoveTextError<shogi::ParseUsiMoveError>;
    const NAME: &'static str = "shogi";
    const MAX_MOVES: usize = shogi::MAX_MOVES;

    delegate_rules!();
    fn is_lost(&self) -> bool {
        !Self::has_legal_move(self)
    }
    fn material_gain(&self, mv: Self::Move) -> u32 {
        let Some(from) = mv.from() else {
            return 0; // a drop
        };
        let captured = self.piece_at(mv.to()).map_or(0, |p| shogi_value(p.kind));
        let promotion = match self.piece_at(from).map(|p| p.kind) {
            Some(k) if mv.is_promotion() => k
                .promoted()
                .map_or(0, |p| shogi_value(p).saturating_sub(shogi_value(k))),
            _ => 0,
        };
        captured + promotion
    }
    fn move_text(&self, mv: Self::Move) -> Self::MoveText {
        mv
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveTextError> {
        Self::parse_usi(self, text)
    }
    fn perft(&self, depth: u32) -> u64 {
        shogi::perft(self, depth)
    }
}
