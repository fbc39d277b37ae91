//! Sans-IO DXP sessions: the [`Initiator`] (connects, proposes games) and the
//! [`Follower`] (accepts). Spec: "Roles and dialogue (layer 2)".
//!
//! A session never touches a socket or the clock. The application
//!
//! 1. feeds received bytes with `handle_input(bytes, now)` and its own
//!    decisions with commands (`send_move`, `end_game`, `send_chat`,
//!    `request_take_back`, and the initiator's `request_game`);
//! 2. then drains, in this order, [`poll_transmit`](Follower::poll_transmit)
//!    (frames to write, NUL included) and `poll_event` (what happened);
//! 3. sleeps until more bytes arrive or until `poll_timeout()`, and then
//!    calls `handle_timeout(now)` (step 2 again).
//!
//! `now` is any [`Timestamp`] the application reads from its own clock:
//! `std::time::Instant` (feature `std`), or, without `std`, a
//! [`Duration`](core::time::Duration) since an origin of the application's
//! choice (boot, start of the connection). One session uses one kind
//! throughout; the type parameter
//! of [`Follower`] and [`Initiator`] is inferred from the first call.
//!
//! The sessions keep the game: the board (via `board-core`), whose move it
//! is, the move history (for take-backs) and the time/move settings of the
//! GAMEREQ. A received MOVE is matched against the legal moves by (from, to,
//! captured set); an illegal or out-of-turn MOVE is reported as
//! [`Event::MoveRejected`] and never changes the game.

mod follower;
mod initiator;

use alloc::collections::VecDeque;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use board_core::draughts::{self as board, Position};

use crate::framer::FrameError;
use crate::message::{
    AcceptanceCode, BackAcc, BackAccCode, BackReq, Captures, Chat, Encoded, GameEnd, GameEndReason,
    Message, Move as WireMove, Setup, StopCode,
};
use crate::types::{ChatText, Color as WireColor, Piece as WirePiece, PieceKind as WireKind};
use crate::{MessageKind, Square as WireSquare, ValueError};

pub use follower::{Follower, FollowerConfig};
pub use initiator::{GameRequest, Initiator, InitiatorConfig};

/// A point in time on the application's monotonic clock, as the sessions
/// take it in `handle_*` and give it back from `poll_timeout` (shared by the
/// whole crate family; see [`board_core::time`]).
pub use board_core::time::Timestamp;

/// Something the session wants the application to know, from
/// `poll_event()`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A game started: GAMEACC `0` sent (follower) or received (initiator).
    GameStarted {
        /// The colour we play.
        our_color: board::Color,
        /// The other program's name.
        opponent: String,
        /// The starting position.
        start: Position,
        /// Thinking time per player, minutes (GAMEREQ).
        minutes: u16,
        /// Moves to play in that time, 0 = the whole game (GAMEREQ).
        moves: u16,
    },
    /// No game: GAMEACC with a code other than `0` was sent (follower) or
    /// received (initiator). For [`AcceptanceCode::NotThisGame`] the
    /// initiator may send another GAMEREQ; after the others it stops.
    GameRefused {
        /// Why.
        code: AcceptanceCode,
    },
    /// The opponent's MOVE was legal and is now played.
    MoveReceived {
        /// The move.
        mv: board::Move,
        /// Seconds the opponent says it used.
        time: u16,
    },
    /// The opponent's MOVE was not played; the game is unchanged.
    MoveRejected {
        /// The MOVE as received.
        mv: WireMove,
        /// Why.
        reason: MoveRejection,
    },
    /// The game is over (a GAMEEND was answered with a GAMEEND).
    GameEnded {
        /// Who sent the first GAMEEND.
        by: Side,
        /// The reason of the first GAMEEND, from its sender's point of view.
        reason: GameEndReason,
        /// The opponent's stop code (whether it plays further games).
        opponent_stop: StopCode,
    },
    /// CHAT from the opponent.
    Chat(String),
    /// The board was taken back (by our K0 to their BACKREQ, or their K0 to
    /// ours). The side to move at that point moves next.
    TakenBack {
        /// Who asked.
        by: Side,
        /// Move number (1..=999) and colour to move that the board went back to.
        move_number: u16,
        /// Colour to move there.
        color: board::Color,
    },
    /// A take-back was not done: our answer to their BACKREQ
    /// (`by == Side::Opponent`) or their answer to ours (`Side::Us`) was
    /// `K1` or `K2`.
    TakeBackDeclined {
        /// Who asked.
        by: Side,
        /// The answer.
        code: BackAccCode,
    },
    /// A message that is valid but not allowed now (e.g. GAMEACC sent to a
    /// follower, GAMEEND with no game). It was not acted upon (a GAMEREQ
    /// during a game is also answered; see [`Follower`]).
    Unexpected {
        /// The message type.
        message: MessageKind,
        /// What was wrong.
        reason: &'static str,
    },
    /// A frame that is over-long or does not decode; the next frames are
    /// unaffected.
    Malformed(FrameError),
}

/// Which side did something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// This session's application.
    Us,
    /// The peer.
    Opponent,
}

/// Why a received MOVE was not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MoveRejection {
    /// No game in progress.
    NoGame,
    /// It is our turn, not the opponent's.
    NotYourTurn,
    /// No legal move has that (from, to, captured set).
    Illegal,
    /// We already sent GAMEEND; moves that cross it are not played.
    GameEnding,
}

/// Why a command was refused; nothing was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// There is no game in progress.
    #[error("no game in progress")]
    NoGame,
    /// It is not our turn.
    #[error("not our turn")]
    NotOurTurn,
    /// The move is not legal in the current position.
    #[error("illegal move")]
    IllegalMove,
    /// A game is in progress or being requested.
    #[error("a game is in progress or requested")]
    GameInProgress,
    /// The follower refused with code 1 or 3: the initiator stops.
    #[error("the follower refused further games")]
    Stopped,
    /// Our take-back request awaits its answer.
    #[error("a take-back request awaits its answer")]
    TakeBackPending,
    /// The requested take-back point is not in the game (move number and
    /// colour before the start or after the current move).
    #[error("take-back point not in the game")]
    NotInHistory,
    /// A value out of its wire range.
    #[error(transparent)]
    Value(#[from] ValueError),
}

/// A game in progress, as both roles see it.
#[derive(Clone, Debug)]
pub(crate) struct Game {
    pub(crate) our_color: board::Color,
    pub(crate) start: Position,
    pub(crate) position: Position,
    pub(crate) history: Vec<board::Move>,
    pub(crate) minutes: u16,
    pub(crate) moves: u16,
    /// We sent GAMEEND and await the answer.
    pub(crate) ending: Option<(GameEndReason, StopCode)>,
    /// Our BACKREQ awaiting BACKACC: the ply to go back to.
    pub(crate) take_back_pending: Option<(usize, BackReq)>,
}

impl Game {
    pub(crate) fn new(our_color: board::Color, start: Position, minutes: u16, moves: u16) -> Game {
        Game {
            our_color,
            start,
            position: start,
            history: Vec::new(),
            minutes,
            moves,
            ending: None,
            take_back_pending: None,
        }
    }

    /// Ply index (0-based, from the start position) of move `number` with
    /// `color` to move, if that point is in the game so far.
    fn ply_of(&self, number: u16, color: board::Color) -> Option<usize> {
        let first_black = self.start.side_to_move() == board::Color::Black;
        let ply = 2 * (i64::from(number) - 1) + i64::from(color == board::Color::Black)
            - i64::from(first_black);
        (0..=self.history.len() as i64)
            .contains(&ply)
            .then_some(ply as usize)
    }

    /// Move number (1-based) and colour to move at ply `ply`.
    pub(crate) fn move_number_at(&self, ply: usize) -> (u16, board::Color) {
        let first_black = usize::from(self.start.side_to_move() == board::Color::Black);
        let p = ply + first_black;
        let color = if p.is_multiple_of(2) {
            board::Color::White
        } else {
            board::Color::Black
        };
        ((p / 2 + 1).min(999) as u16, color)
    }

    fn take_back_to(&mut self, ply: usize) {
        self.history.truncate(ply);
        let mut pos = self.start;
        for &mv in &self.history {
            pos.play_unchecked(mv);
        }
        self.position = pos;
    }

    pub(crate) fn our_turn(&self) -> bool {
        self.position.side_to_move() == self.our_color
    }
}

/// Converts a GAMEREQ set-up into a board position.
pub fn setup_to_position(setup: &Setup) -> Result<Position, board::SetupError> {
    let board = setup.board.map(|c| c.map(piece_to_board));
    Position::from_pieces(board, color_to_board(setup.side_to_move))
}

/// Converts a board position into a GAMEREQ set-up.
pub fn position_to_setup(position: &Position) -> Setup {
    Setup {
        side_to_move: color_to_wire(position.side_to_move()),
        board: position.to_pieces().map(|c| {
            c.map(|p| WirePiece {
                color: color_to_wire(p.color),
                kind: match p.kind {
                    board::PieceKind::Man => WireKind::Man,
                    board::PieceKind::King => WireKind::King,
                },
            })
        }),
    }
}

fn piece_to_board(p: WirePiece) -> board::Piece {
    board::Piece::new(
        color_to_board(p.color),
        match p.kind {
            WireKind::Man => board::PieceKind::Man,
            WireKind::King => board::PieceKind::King,
        },
    )
}

/// Wire colour to board colour.
pub const fn color_to_board(c: WireColor) -> board::Color {
    match c {
        WireColor::White => board::Color::White,
        WireColor::Black => board::Color::Black,
    }
}

/// Board colour to wire colour.
pub const fn color_to_wire(c: board::Color) -> WireColor {
    match c {
        board::Color::White => WireColor::White,
        board::Color::Black => WireColor::Black,
    }
}

/// The MOVE message for a board move: captured squares in increasing order
/// (the spec allows any order). `time` is clamped to 9999 seconds.
pub fn move_to_wire(mv: board::Move, time: u16) -> WireMove {
    let sq = |s: board::Square| WireSquare::new(s.number()).unwrap_or(WireSquare::MIN_SQUARE);
    let mut captured = Captures::EMPTY;
    for s in mv.captures().iter().take(Captures::MAX) {
        captured.push_unchecked(sq(s));
    }
    WireMove {
        time: time.min(WireMove::MAX_TIME),
        from: sq(mv.from()),
        to: sq(mv.to()),
        captured,
    }
}

/// The legal move of `position` that a MOVE names by (from, to, captured
/// set), if any.
pub fn find_move(position: &Position, mv: &WireMove) -> Option<board::Move> {
    let sq = |s: WireSquare| board::Square::new(s.number());
    let captures: board::SquareSet = mv
        .captured()
        .as_slice()
        .iter()
        .filter_map(|&s| sq(s))
        .collect();
    position.find_move(sq(mv.from())?, sq(mv.to())?, captures)
}

/// What both roles share: framing, output queues, the game, and the
/// handling of MOVE, GAMEEND, CHAT, BACKREQ and BACKACC.
#[derive(Debug)]
pub(crate) struct Core<T> {
    pub(crate) game: Option<Game>,
    pub(crate) take_backs: bool,
    pub(crate) stop: StopCode,
    transmit: VecDeque<Encoded>,
    /// Frames held back until `release_at` (the follower's first-move pause).
    held: VecDeque<(MessageKind, Encoded)>,
    release_at: Option<T>,
    events: VecDeque<Event>,
}

impl<T: Timestamp> Core<T> {
    pub(crate) fn new(take_backs: bool, stop: StopCode) -> Core<T> {
        Core {
            game: None,
            take_backs,
            stop,
            transmit: VecDeque::new(),
            held: VecDeque::new(),
            release_at: None,
            events: VecDeque::new(),
        }
    }

    pub(crate) fn send(&mut self, msg: &Message<'_>) {
        let enc = msg.encode();
        if self.release_at.is_some() {
            self.held.push_back((msg.kind(), enc));
        } else {
            self.transmit.push_back(enc);
        }
    }

    /// Sends `msg` no earlier than `at` (and everything after it too).
    pub(crate) fn send_not_before(&mut self, msg: &Message<'_>, at: T, now: T) {
        if now < at && self.release_at.is_none() {
            self.release_at = Some(at);
        }
        self.send(msg);
    }

    pub(crate) fn event(&mut self, e: Event) {
        self.events.push_back(e);
    }

    pub(crate) fn poll_transmit(&mut self) -> Option<Encoded> {
        self.transmit.pop_front()
    }

    pub(crate) fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    pub(crate) fn poll_timeout(&self) -> Option<T> {
        self.release_at
    }

    pub(crate) fn handle_timeout(&mut self, now: T) {
        if self.release_at.is_some_and(|at| now >= at) {
            self.release_at = None;
            self.transmit.extend(self.held.drain(..).map(|(_, e)| e));
        }
    }

    /// Ends the game locally; held MOVEs are dropped (the game they belong to
    /// is over).
    fn finish_game(&mut self) {
        self.game = None;
        self.held.retain(|(k, _)| *k != MessageKind::Move);
        if self.held.is_empty() {
            self.release_at = None;
        }
    }

    pub(crate) fn send_move(
        &mut self,
        mv: board::Move,
        time: u16,
        not_before: Option<T>,
        now: T,
    ) -> Result<(), CommandError> {
        let game = self.game.as_mut().ok_or(CommandError::NoGame)?;
        if game.ending.is_some() {
            return Err(CommandError::NoGame);
        }
        if game.take_back_pending.is_some() {
            return Err(CommandError::TakeBackPending);
        }
        if !game.our_turn() {
            return Err(CommandError::NotOurTurn);
        }
        let next = game
            .position
            .play(mv)
            .map_err(|_| CommandError::IllegalMove)?;
        game.position = next;
        game.history.push(mv);
        let msg = Message::Move(move_to_wire(mv, time));
        match not_before {
            Some(at) => self.send_not_before(&msg, at, now),
            None => self.send(&msg),
        }
        Ok(())
    }

    pub(crate) fn end_game(
        &mut self,
        reason: GameEndReason,
        stop: StopCode,
    ) -> Result<(), CommandError> {
        let game = self.game.as_mut().ok_or(CommandError::NoGame)?;
        if game.ending.is_some() {
            return Err(CommandError::NoGame);
        }
        game.ending = Some((reason, stop));
        self.send(&Message::GameEnd(GameEnd { reason, stop }));
        Ok(())
    }

    pub(crate) fn send_chat(&mut self, text: &str) -> Result<(), CommandError> {
        let text = ChatText::new(text)?;
        self.send(&Message::Chat(Chat { text }));
        Ok(())
    }

    pub(crate) fn request_take_back(
        &mut self,
        move_number: u16,
        color: board::Color,
    ) -> Result<(), CommandError> {
        let req = BackReq::new(move_number, color_to_wire(color))?;
        let game = self.game.as_mut().ok_or(CommandError::NoGame)?;
        if game.ending.is_some() {
            return Err(CommandError::NoGame);
        }
        if game.take_back_pending.is_some() {
            return Err(CommandError::TakeBackPending);
        }
        let ply = game
            .ply_of(move_number, color)
            .ok_or(CommandError::NotInHistory)?;
        game.take_back_pending = Some((ply, req));
        self.send(&Message::BackReq(req));
        Ok(())
    }

    /// MOVE, GAMEEND, CHAT, BACKREQ, BACKACC: the same for both roles.
    pub(crate) fn on_common(&mut self, msg: Message<'_>) {
        match msg {
            Message::Move(mv) => self.on_move(mv),
            Message::GameEnd(end) => self.on_gameend(end),
            Message::Chat(chat) => self.event(Event::Chat(chat.text.as_str().to_string())),
            Message::BackReq(req) => self.on_backreq(req),
            Message::BackAcc(acc) => self.on_backacc(acc),
            Message::GameReq(_) | Message::GameAcc(_) => {
                unreachable!("role-specific messages are handled by the role")
            }
        }
    }

    fn on_move(&mut self, wire: WireMove) {
        let reject = |core: &mut Core<T>, reason| {
            core.event(Event::MoveRejected { mv: wire, reason });
        };
        let Some(game) = self.game.as_mut() else {
            return reject(self, MoveRejection::NoGame);
        };
        if game.ending.is_some() {
            return reject(self, MoveRejection::GameEnding);
        }
        // While our BACKREQ awaits its answer the opponent may still move
        // (the messages can cross): the move is played, and a K0 then takes
        // the game back to the requested point on both sides alike.
        if game.our_turn() {
            return reject(self, MoveRejection::NotYourTurn);
        }
        let Some(mv) = find_move(&game.position, &wire) else {
            return reject(self, MoveRejection::Illegal);
        };
        match game.position.play(mv) {
            Ok(next) => {
                game.position = next;
                game.history.push(mv);
                self.event(Event::MoveReceived {
                    mv,
                    time: wire.time(),
                });
            }
            Err(_) => reject(self, MoveRejection::Illegal),
        }
    }

    fn on_gameend(&mut self, end: GameEnd) {
        let Some(game) = self.game.as_mut() else {
            return self.event(Event::Unexpected {
                message: MessageKind::GameEnd,
                reason: "GAMEEND with no game in progress (not answered)",
            });
        };
        match game.ending {
            // The answer to ours: the game is over.
            Some((reason, _)) => {
                self.finish_game();
                self.event(Event::GameEnded {
                    by: Side::Us,
                    reason,
                    opponent_stop: end.stop,
                });
            }
            // Theirs: answer with reason 0 and our stop code. The spec lets
            // only the side to move send it; real peers (Scan, pydraughts)
            // send it at any time, so it is accepted at any time.
            None => {
                let stop = self.stop;
                self.send(&Message::GameEnd(GameEnd {
                    reason: GameEndReason::Unknown,
                    stop,
                }));
                self.finish_game();
                self.event(Event::GameEnded {
                    by: Side::Opponent,
                    reason: end.reason,
                    opponent_stop: end.stop,
                });
            }
        }
    }

    fn on_backreq(&mut self, req: BackReq) {
        let color = color_to_board(req.color());
        let code = match self.game.as_mut() {
            _ if !self.take_backs => BackAccCode::NotSupported,
            None => BackAccCode::NotSupported,
            Some(game) if game.ending.is_some() => BackAccCode::NotSupported,
            Some(game) => match game.ply_of(req.move_number(), color) {
                Some(ply) => {
                    game.take_back_to(ply);
                    // A BACKREQ of ours that crossed theirs is void.
                    game.take_back_pending = None;
                    BackAccCode::Accepted
                }
                None => BackAccCode::Continue,
            },
        };
        self.send(&Message::BackAcc(BackAcc { code }));
        self.event(match code {
            BackAccCode::Accepted => Event::TakenBack {
                by: Side::Opponent,
                move_number: req.move_number(),
                color,
            },
            code => Event::TakeBackDeclined {
                by: Side::Opponent,
                code,
            },
        });
    }

    fn on_backacc(&mut self, acc: BackAcc) {
        let Some((ply, req)) = self.game.as_mut().and_then(|g| g.take_back_pending.take()) else {
            return self.event(Event::Unexpected {
                message: MessageKind::BackAcc,
                reason: "BACKACC without a BACKREQ of ours",
            });
        };
        if acc.code == BackAccCode::Accepted {
            if let Some(game) = self.game.as_mut() {
                game.take_back_to(ply.min(game.history.len()));
            }
            self.event(Event::TakenBack {
                by: Side::Us,
                move_number: req.move_number(),
                color: color_to_board(req.color()),
            });
        } else {
            self.event(Event::TakeBackDeclined {
                by: Side::Us,
                code: acc.code,
            });
        }
    }
}

/// Shared read-only accessors, implemented by both roles.
macro_rules! session_accessors {
    () => {
        /// Next frame to write to the peer (message + NUL: write
        /// [`Encoded::as_frame`](crate::Encoded::as_frame)).
        pub fn poll_transmit(&mut self) -> Option<crate::Encoded> {
            self.core.poll_transmit()
        }

        /// Next event for the application.
        pub fn poll_event(&mut self) -> Option<Event> {
            self.core.poll_event()
        }

        /// When to call `handle_timeout` next, if output is being held back.
        pub fn poll_timeout(&self) -> Option<T> {
            self.core.poll_timeout()
        }

        /// Tells the session the time: releases held-back output that is due.
        pub fn handle_timeout(&mut self, now: T) {
            self.core.handle_timeout(now);
        }

        /// The current position, if a game is in progress.
        pub fn position(&self) -> Option<&board_core::draughts::Position> {
            self.core.game.as_ref().map(|g| &g.position)
        }

        /// The start position of the game in progress.
        pub fn start_position(&self) -> Option<&board_core::draughts::Position> {
            self.core.game.as_ref().map(|g| &g.start)
        }

        /// The moves played so far in this game, from its start position.
        pub fn history(&self) -> &[board_core::draughts::Move] {
            self.core.game.as_ref().map_or(&[], |g| &g.history)
        }

        /// The colour we play, if a game is in progress.
        pub fn our_color(&self) -> Option<board_core::draughts::Color> {
            self.core.game.as_ref().map(|g| g.our_color)
        }

        /// `true` when a game is in progress, it is our move, and nothing
        /// (a GAMEEND or take-back of ours) is pending.
        pub fn is_our_turn(&self) -> bool {
            self.core.game.as_ref().is_some_and(|g| {
                g.our_turn() && g.ending.is_none() && g.take_back_pending.is_none()
            })
        }

        /// Move number (1..) and colour to move of the current position.
        pub fn move_number(&self) -> Option<(u16, board_core::draughts::Color)> {
            self.core
                .game
                .as_ref()
                .map(|g| g.move_number_at(g.history.len()))
        }

        /// The GAMEREQ settings of the game: (minutes per player, moves in
        /// that time; 0 = all).
        pub fn time_control(&self) -> Option<(u16, u16)> {
            self.core.game.as_ref().map(|g| (g.minutes, g.moves))
        }

        /// Plays our move `mv` (checked against the legal moves) and queues
        /// its MOVE; `time` is the seconds we used (0..=9999, clamped).
        ///
        /// # Errors
        /// [`CommandError::NoGame`], [`CommandError::NotOurTurn`],
        /// [`CommandError::IllegalMove`], [`CommandError::TakeBackPending`];
        /// nothing is sent then.
        pub fn send_move(
            &mut self,
            mv: board_core::draughts::Move,
            time: u16,
            now: T,
        ) -> Result<(), CommandError> {
            let not_before = self.first_move_not_before();
            self.core.send_move(mv, time, not_before, now)
        }

        /// Ends the game: sends GAMEEND with `reason` (from our point of
        /// view) and our stop code; the game is over when the answer arrives
        /// ([`Event::GameEnded`]).
        ///
        /// # Errors
        /// [`CommandError::NoGame`] with no game (or one already ending).
        pub fn end_game(&mut self, reason: crate::GameEndReason) -> Result<(), CommandError> {
            let stop = self.core.stop;
            self.core.end_game(reason, stop)
        }

        /// Sends CHAT (1..=126 bytes of 7-bit text), allowed at any time.
        ///
        /// # Errors
        /// [`CommandError::Value`] for text the message cannot carry.
        pub fn send_chat(&mut self, text: &str) -> Result<(), CommandError> {
            self.core.send_chat(text)
        }

        /// Asks to take the game back to move `move_number` (1..=999) with
        /// `color` to move (BACKREQ). We cannot move until the answer; the
        /// opponent's moves that cross the request are still played.
        ///
        /// # Errors
        /// [`CommandError::NotInHistory`] when that point is not in the game,
        /// [`CommandError::NoGame`], [`CommandError::TakeBackPending`].
        pub fn request_take_back(
            &mut self,
            move_number: u16,
            color: board_core::draughts::Color,
        ) -> Result<(), CommandError> {
            self.core.request_take_back(move_number, color)
        }

        /// Allows or refuses (answer `K1`) the opponent's take-backs.
        pub fn set_take_backs(&mut self, allowed: bool) {
            self.core.take_backs = allowed;
        }
    };
}
pub(crate) use session_accessors;
