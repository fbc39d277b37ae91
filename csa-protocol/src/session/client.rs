//! The client session: a sans-IO CSA client (plain CSA mode and x1 mode).
//!
//! States ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*; shogi-server's origin
//! document):
//! - CSA mode: `login` → `game_waiting` → `agree_waiting` → `game` →
//!   `game_waiting` (the CSA protocol's state after a game or a
//!   rejection; shogi-server closes the connection then: `disconnected`
//!   by [`Client::handle_close`], or call [`Client::logout`]);
//! - x1 mode: `login` → `connected` → `game_waiting` → `agree_waiting` →
//!   `game` → `connected`.
//!
//! The game is tracked on a board-core position ([`Client::position`],
//! [`Client::start_position`], [`Client::moves`]); clocks
//! are computed from the `Game_Summary` Time block (Fischer increment added
//! before each turn, byoyomi, least time per move, `Time_Unit`) and the `T`
//! of each confirmation. Call order: [`Client::new`] (queues `LOGIN`), then
//! received bytes with [`Client::handle_input`] (or decoded lines with
//! [`Client::handle_message`]), commands, then drain
//! [`Client::poll_transmit`] and [`Client::poll_event`] after every call,
//! and call [`Client::handle_timeout`] at [`Client::poll_timeout`]
//! (keep-alive empty lines, [`Event::PeerSilent`]).
//!
//! A `Game_Summary` whose Position block board-core refuses (an impossible
//! position, or a move of the block that is illegal) cannot be played: the
//! session answers it with `REJECT` itself and reports
//! [`Event::BadStartPosition`] or [`Event::BadPositionMove`] after
//! [`Event::GameSummary`] ([`Client::agree`] is then refused). The times of
//! the block's moves (`+7776FU,T20`) are charged to the clocks.
//!
//! One move per turn: after [`Client::send_move`] (or a special move)
//! [`Client::is_our_turn`] is `false` until the server confirms the move,
//! and a second move is [`CommandError::NotYourTurn`]; no move is accepted
//! once the game's `Max_Moves` is reached ([`CommandError::MoveLimit`]).
//!
//! A game never holds more than [`ClientConfig::max_game_plies`] moves
//! (default [`DEFAULT_MAX_GAME_PLIES`](super::DEFAULT_MAX_GAME_PLIES),
//! 20,000): a server without `Max_Moves` could otherwise grow
//! [`Client::moves`] for as long as it liked. The client cannot end a
//! server's game but by `%TORYO` (a resignation, which would score a
//! loss the rules did not give) or by closing the connection: at the cap
//! it closes ([`Event::PlyCapReached`]; see the field).

use alloc::boxed::Box;
use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::fmt;
use core::time::Duration;

use super::{Timestamp, Transmit};
use crate::clock::{Clock, TimeControl};
use crate::convert::{GameBoard, IllegalMove};
use crate::decode::decode;
use crate::error::{DecodeError, FrameError};
use crate::framer::{Frame, LineInput};
use crate::message::{
    ClientMessage, EndReason, GameRequest, GameResult, GameSummary, GameSummaryReader,
    ServerMessage, SpecialMove, SummaryError, SummaryLine, TimeSection, X1Command, X1Reply,
};
use crate::types::{
    CsaMove, GameId, GameName, MoveTime, Password, Side, SidePreference, Text, UserName, move_side,
};
use board_core::shogi::{CsaPositionError, Move, Position};

/// Client settings.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Login name.
    pub name: UserName<'static>,
    /// Password (in CSA mode shogi-server reads the game name from it).
    pub password: Password<'static>,
    /// Log in in x1 mode.
    pub x1: bool,
    /// x1 mode: the game to ask for with `%%GAME` right after login.
    pub game: Option<(GameName<'static>, SidePreference)>,
    /// Send an empty line when nothing was sent for this long (`None`: never).
    pub keep_alive: Option<Duration>,
    /// How long the server may take to answer a line it must answer (the
    /// `LOGIN` reply, the confirmation of our move, the `LOGOUT` reply)
    /// before [`Event::PeerSilent`]; default 30 s.
    pub reply_timeout: Duration,
    /// How long `START` may take after our `AGREE` before
    /// [`Event::PeerSilent`] (the opponent's agree phase included; the
    /// server's own agree timeout is 120 s); default 150 s.
    pub start_timeout: Duration,
    /// In a game, while the opponent is on move: added to the opponent's
    /// allowance (remaining time + byoyomi/increment + `Delay`, see
    /// [`Client::allowance`]) to bound the wait for its move, counted from
    /// the last complete line received (keep-alive lines count); then
    /// [`Event::PeerSilent`] with [`Awaited::OpponentMove`]. No bound when
    /// the game has no clock. Default 30 s.
    pub clock_margin: Duration,
    /// Line length cap in bytes.
    pub max_line_len: usize,
    /// The most moves (plies, both sides', the `Game_Summary`'s Position
    /// block moves included, as [`Client::moves`] counts them) a game
    /// holds; default [`DEFAULT_MAX_GAME_PLIES`](super::DEFAULT_MAX_GAME_PLIES)
    /// (20,000), 0 counts as 1. The game's memory is then at most
    /// 2 bytes a ply for [`Client::moves`] (one board-core shogi move),
    /// 40 KB at the default, beside the board's repetition history,
    /// capped at [`MAX_HISTORY`](crate::convert::MAX_HISTORY) positions.
    ///
    /// At the cap the session closes the connection, once it is sure the
    /// server will not end the game itself ([`spec::csa`](crate::spec::csa),
    /// *Results*: `#MAX_MOVES` follows the last move a `Max_Moves` allows):
    /// when our turn comes with the game at the cap and the `Game_Summary`
    /// gave no `Max_Moves` of the cap or fewer, or when the server sends a
    /// move past the cap (not played). It reports [`Event::PlyCapReached`],
    /// then (in a game) [`Event::GameEnded`] with [`Outcome::Unknown`] and
    /// no reason, and queues a [`Transmit`] that closes
    /// ([`Transmit::closes`]); what arrives after it is ignored. A
    /// `Game_Summary` whose Position block holds more moves than the cap
    /// is refused with `REJECT` ([`Event::PlyCapReached`] after
    /// [`Event::GameSummary`]). shogi-server scores a disconnection on
    /// move as a resignation ([`spec::csa`](crate::spec::csa), *Results*).
    pub max_game_plies: u32,
}

impl ClientConfig {
    /// Plain CSA mode with `name`/`password`, keep-alive every 30 s.
    pub fn new(name: UserName<'static>, password: Password<'static>) -> Self {
        Self {
            name,
            password,
            x1: false,
            game: None,
            keep_alive: Some(Duration::from_secs(30)),
            reply_timeout: Duration::from_secs(30),
            start_timeout: Duration::from_secs(150),
            clock_margin: Duration::from_secs(30),
            max_line_len: crate::framer::DEFAULT_MAX_LEN,
            max_game_plies: super::DEFAULT_MAX_GAME_PLIES,
        }
    }
}

/// The client's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientState {
    /// `LOGIN` sent, no answer yet.
    Login,
    /// x1: logged in, no game requested.
    Connected,
    /// Waiting for an opponent (CSA mode: also after a game or a rejected
    /// offer, until the server closes the connection).
    GameWaiting,
    /// `Game_Summary` received: answer with [`Client::agree`] or [`Client::reject`].
    AgreeWaiting,
    /// `AGREE` sent, waiting for `START`.
    StartWaiting,
    /// Playing.
    Game,
    /// Logged out, login refused, or the connection closed.
    Disconnected,
}

/// The state's name as [`spec::csa`](crate::spec::csa), *Extended mode (x1),
/// shogi-server* (`connected -> game_waiting -> agree_waiting ->
/// start_waiting -> game`), writes it; `login` and `disconnected` before
/// and after those.
impl fmt::Display for ClientState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClientState::Login => "login",
            ClientState::Connected => "connected",
            ClientState::GameWaiting => "game_waiting",
            ClientState::AgreeWaiting => "agree_waiting",
            ClientState::StartWaiting => "start_waiting",
            ClientState::Game => "game",
            ClientState::Disconnected => "disconnected",
        })
    }
}

/// What the client waits for when the server stays silent
/// ([`Event::PeerSilent`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Awaited {
    /// `LOGIN:<name> OK` or `LOGIN:incorrect`.
    LoginReply,
    /// `START:<game id>` after our `AGREE`.
    Start,
    /// The confirmation of our move (`+7776FU,T3`) or the result after our
    /// special move.
    MoveConfirmation,
    /// `LOGOUT:completed`.
    LogoutReply,
    /// The opponent's move (or the result): nothing arrived for longer
    /// than the opponent's clock allows plus [`ClientConfig::clock_margin`].
    OpponentMove,
}

/// The outcome of a game, from our side (the family's, `boardwire_proto`'s):
/// `#WIN` is [`Outcome::Won`], `#LOSE` [`Outcome::Lost`], `#DRAW`
/// [`Outcome::Drawn`]; [`Outcome::Unknown`] is `#CENSORED` (the move limit:
/// the server gives no result), or the connection ended before a result.
#[doc(inline)]
pub use boardwire_proto::session::Outcome;

impl From<GameResult> for Outcome {
    fn from(r: GameResult) -> Self {
        match r {
            GameResult::Win => Outcome::Won,
            GameResult::Lose => Outcome::Lost,
            GameResult::Draw => Outcome::Drawn,
            GameResult::Censored => Outcome::Unknown,
        }
    }
}

/// A finished game, delivered in [`Event::GameEnded`] before the session
/// clears it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnded {
    /// From our side.
    pub outcome: Outcome,
    /// The reason line (`#RESIGN`, `#TIME_UP`, ...); `None` when the
    /// connection ended without one.
    pub reason: Option<EndReason>,
    /// The start position (the `Game_Summary` Position block; boxed: a
    /// position is some 400 bytes).
    pub start: Box<Position>,
    /// Every move from `start` (board-core moves; [`crate::convert`] gives
    /// the wire form): the moves of the Position block, then the moves
    /// confirmed during the game.
    pub moves: Vec<Move>,
    /// The game's id.
    pub game_id: Option<GameId<'static>>,
    /// Our side.
    pub side: Option<Side>,
}

/// `START:<id>`: the game began ([`Event::GameStarted`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameStarted {
    /// Game_ID.
    pub game_id: GameId<'static>,
    /// Our side (`Your_Turn` of the `Game_Summary`).
    pub side: Option<Side>,
}

/// Something the application should know.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// `LOGIN:<name> OK` (in x1 mode after `##[LOGIN] +OK x1`).
    LoggedIn,
    /// `LOGIN:incorrect`.
    LoginFailed,
    /// A `Game_Summary` arrived; the session is in `AgreeWaiting`.
    GameSummary(Box<GameSummary>),
    /// `START:<id>`: the game began.
    GameStarted(GameStarted),
    /// `REJECT:<id> by <name>`.
    Rejected {
        /// Game_ID.
        game_id: GameId<'static>,
        /// Who rejected.
        by: Text<'static>,
    },
    /// It is our turn.
    OurTurn {
        /// Our remaining time (byoyomi excluded; `None` = unlimited).
        remaining: Option<Duration>,
        /// Byoyomi per move.
        byoyomi: Duration,
    },
    /// A move was confirmed (ours or the opponent's) and played on the
    /// board. A confirmed move that is illegal on our board is
    /// [`Event::BoardMismatch`] instead.
    Move {
        /// The move, as played on the board (what [`Client::moves`] ends
        /// with).
        mv: Move,
        /// The move as the server confirmed it (`+7776FU`: with the piece
        /// that moved, which a board move does not carry).
        csa: CsaMove,
        /// Whose it is.
        side: Side,
        /// Time charged.
        time: Option<MoveTime>,
    },
    /// The game ended (reason and outcome lines arrived, or the connection
    /// closed during the game).
    GameEnded(GameEnded),
    /// `LOGOUT:completed`.
    LoggedOut,
    /// An x1 reply (`##[...]`) not consumed by the session.
    X1(X1Reply<'static>),
    /// A line the session could not decode (it is skipped).
    Malformed(DecodeError),
    /// A line longer than [`ClientConfig::max_line_len`] (skipped): `len`
    /// bytes of it were seen.
    Overlong {
        /// Bytes seen.
        len: usize,
    },
    /// A `Game_Summary` block that could not be read.
    BadSummary(SummaryError),
    /// The Position block of a `Game_Summary` is no position board-core
    /// accepts (a line it cannot read, or an impossible position: nifu, a
    /// dead piece, too many pieces, the side not to move in check): the
    /// game cannot be played, and the session has sent `REJECT` (no board;
    /// [`Client::position`] is `None`). After [`Event::GameSummary`].
    BadStartPosition(CsaPositionError),
    /// A move of the `Game_Summary` Position block (the moves already
    /// played) is illegal on the block's position: the session has sent
    /// `REJECT` (no board). After [`Event::GameSummary`].
    BadPositionMove {
        /// 1-based number of the move among the block's moves.
        number: usize,
        /// The move.
        mv: CsaMove,
        /// board-core's reason.
        reason: IllegalMove,
    },
    /// A move from the server that is illegal on our board (the board is
    /// out of sync).
    BoardMismatch {
        /// The move.
        mv: CsaMove,
    },
    /// A line that is no CSA server line.
    Unrecognised(Vec<u8>),
    /// The server did not answer in time ([`ClientConfig::reply_timeout`],
    /// [`ClientConfig::start_timeout`]). Reported once per request.
    PeerSilent {
        /// What we waited for.
        awaiting: Awaited,
    },
    /// The game reached [`ClientConfig::max_game_plies`] (`plies`): the
    /// session closes the connection (see the field), or refuses a
    /// `Game_Summary` whose Position block is longer.
    PlyCapReached {
        /// The cap.
        plies: usize,
    },
}

impl fmt::Display for Awaited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Awaited::LoginReply => "the LOGIN reply",
            Awaited::Start => "START after our AGREE",
            Awaited::MoveConfirmation => "the confirmation of our move",
            Awaited::LogoutReply => "the LOGOUT reply",
            Awaited::OpponentMove => "the opponent's move within its clock",
        })
    }
}

/// One line for a person (wire lines in CSA notation, times in seconds).
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::LoggedIn => f.write_str("logged in"),
            Event::LoginFailed => f.write_str("login refused (LOGIN:incorrect)"),
            Event::GameSummary(s) => match &s.game_id {
                Some(id) => write!(f, "game offered: {id}"),
                None => f.write_str("game offered"),
            },
            Event::GameStarted(g) => match g.side {
                Some(side) => write!(f, "game {} started, we play {}", g.game_id, side.sign()),
                None => write!(f, "game {} started", g.game_id),
            },
            Event::Rejected { game_id, by } => write!(f, "game {game_id} rejected by {by}"),
            Event::OurTurn { remaining, byoyomi } => {
                f.write_str("our turn")?;
                if let Some(r) = remaining {
                    write!(f, ", {:.1} s left", r.as_secs_f64())?;
                }
                if !byoyomi.is_zero() {
                    write!(f, ", byoyomi {:.1} s", byoyomi.as_secs_f64())?;
                }
                Ok(())
            }
            Event::Move { csa, time, .. } => match time {
                Some(t) => write!(f, "move {csa},T{t}"),
                None => write!(f, "move {csa}"),
            },
            Event::GameEnded(g) => {
                write!(f, "game over after {} moves: {}", g.moves.len(), g.outcome)?;
                match g.reason {
                    Some(r) => write!(f, " ({})", r.as_str()),
                    None => f.write_str(" (the connection ended)"),
                }
            }
            Event::LoggedOut => f.write_str("logged out"),
            Event::X1(r) => write!(f, "{}", ServerMessage::X1(r.clone())),
            Event::Malformed(e) => write!(f, "malformed line skipped: {e}"),
            Event::Overlong { len } => write!(f, "over-long line skipped ({len} bytes seen)"),
            Event::BadSummary(e) => write!(f, "bad Game_Summary: {e}"),
            Event::BadStartPosition(e) => {
                write!(f, "Game_Summary position refused ({e}): game rejected")
            }
            Event::BadPositionMove { number, mv, reason } => write!(
                f,
                "Game_Summary position move {number} ({mv}) refused ({reason}): game rejected"
            ),
            Event::BoardMismatch { mv } => write!(f, "server move {mv} is illegal on our board"),
            Event::Unrecognised(b) => {
                f.write_str("unrecognised line: ")?;
                crate::types::write_escaped(f, b)
            }
            Event::PeerSilent { awaiting } => {
                write!(f, "the server did not send {awaiting} in time")
            }
            Event::PlyCapReached { plies } => write!(
                f,
                "the game reached {plies} moves, the session's cap: closing the connection"
            ),
        }
    }
}

/// A command that is not allowed now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// Not our turn, or our move for this turn was already sent.
    #[error("not our turn")]
    NotYourTurn,
    /// No game is being played (or offered, for agree/reject).
    #[error("no game")]
    NoGame,
    /// The game's `Max_Moves` is reached: no more moves.
    #[error("the move limit of the game is reached")]
    MoveLimit,
    /// The call needs another state.
    #[error("not allowed in state {0}")]
    WrongState(ClientState),
    /// The move is illegal on the board (board-core's reason).
    #[error(transparent)]
    IllegalMove(#[from] IllegalMove),
}

/// The sans-IO CSA client. See the module documentation.
#[derive(Debug)]
pub struct Client<I> {
    config: ClientConfig,
    state: ClientState,
    lines: LineInput,
    reader: GameSummaryReader,
    summary: Option<GameSummary>,
    board: Option<GameBoard>,
    start: Option<Position>,
    moves: Vec<Move>,
    me: Option<Side>,
    move_sent: bool,
    clocks: [Clock; 2],
    /// `Time_Unit` of each side's Time block in milliseconds: the unit of the
    /// `T` of its confirmations.
    time_units_ms: [u64; 2],
    game_id: Option<GameId<'static>>,
    pending_reason: Option<EndReason>,
    tx: VecDeque<Transmit>,
    events: VecDeque<Event>,
    last_send: I,
    awaiting: Option<(Awaited, I)>,
    /// When the last complete line arrived.
    heard: I,
    /// [`Awaited::OpponentMove`] was reported for the current turn.
    opponent_silence_reported: bool,
    /// The session closed the connection at the ply cap: input is ignored.
    capped: bool,
}

fn idx(s: Side) -> usize {
    match s {
        Side::Black => 0,
        Side::White => 1,
    }
}

fn control(t: Option<&TimeSection>) -> TimeControl {
    let Some(t) = t else {
        return TimeControl::default();
    };
    TimeControl {
        total_ms: t.to_millis(t.total_time.unwrap_or(0)),
        byoyomi_ms: t.to_millis(t.byoyomi.unwrap_or(0)),
        increment_ms: t.to_millis(t.increment.unwrap_or(0)),
        least_time_per_move_ms: t.to_millis(t.least_time_per_move.unwrap_or(0)),
        delay_ms: t.to_millis(t.delay.unwrap_or(0)),
        round_up: t.time_roundup.unwrap_or(false),
    }
}

impl<I: Timestamp> Client<I> {
    /// A session; queues the `LOGIN` line.
    pub fn new(config: ClientConfig, now: I) -> Self {
        let mut c = Self {
            lines: LineInput::new(config.max_line_len),
            config,
            state: ClientState::Login,
            reader: GameSummaryReader::new(),
            summary: None,
            board: None,
            start: None,
            moves: Vec::new(),
            me: None,
            move_sent: false,
            clocks: [Clock::new(TimeControl::default()); 2],
            time_units_ms: [1000; 2],
            game_id: None,
            pending_reason: None,
            tx: VecDeque::new(),
            events: VecDeque::new(),
            last_send: now,
            awaiting: None,
            heard: now,
            opponent_silence_reported: false,
            capped: false,
        };
        let login = ClientMessage::Login {
            name: c.config.name.clone(),
            password: c.config.password.clone(),
            x1: c.config.x1,
        };
        c.send(&login, now);
        c.awaiting = Some((
            Awaited::LoginReply,
            now.saturating_add(c.config.reply_timeout),
        ));
        c
    }

    /// The state.
    pub fn state(&self) -> ClientState {
        self.state
    }

    /// The current board-core position of the game (`None` with no game
    /// offered or played, or when its start position could not be read).
    pub fn position(&self) -> Option<&Position> {
        self.board.as_ref().map(GameBoard::position)
    }

    /// The start position of the game (its `Game_Summary` Position block).
    pub fn start_position(&self) -> Option<&Position> {
        self.start.as_ref()
    }

    /// The board-core moves of the current game from its start position
    /// (the `Game_Summary`'s moves included), in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Our side in the current game.
    pub fn side(&self) -> Option<Side> {
        self.me
    }

    /// The current game's summary.
    pub fn summary(&self) -> Option<&GameSummary> {
        self.summary.as_ref()
    }

    /// Remaining time of `side` (byoyomi excluded), as tracked from the
    /// confirmations; `None` when unlimited.
    pub fn remaining(&self, side: Side) -> Option<Duration> {
        let c = &self.clocks[idx(side)];
        (!c.control.is_unlimited()).then(|| Duration::from_millis(c.remaining_ms))
    }

    /// The longest `side`'s current turn may take before it loses on time:
    /// `Delay` + remaining + byoyomi; `None` when unlimited.
    pub fn allowance(&self, side: Side) -> Option<Duration> {
        self.clocks[idx(side)].allowance()
    }

    /// `true` when it is our move and we have not sent it yet (and the
    /// move limit is not reached).
    pub fn is_our_turn(&self) -> bool {
        self.state == ClientState::Game
            && !self.move_sent
            && !self.at_move_limit()
            && self.board.as_ref().map(GameBoard::side_to_move) == self.me
    }

    fn at_move_limit(&self) -> bool {
        let max = self.summary.as_ref().and_then(|s| s.max_moves).unwrap_or(0);
        max > 0 && self.moves.len() as u64 >= max
    }

    fn send(&mut self, m: &ClientMessage<'_>, now: I) {
        let mut v = Vec::new();
        m.encode(&mut v);
        self.tx.push_back(Transmit::from_vec(v));
        self.last_send = now;
    }

    fn wait_for(&mut self, what: Awaited, timeout: Duration, now: I) {
        self.awaiting = Some((what, now.saturating_add(timeout)));
    }

    /// The next bytes to send.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.tx.pop_front()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// When [`Client::handle_timeout`] must be called (keep-alive, a reply
    /// that is due).
    pub fn poll_timeout(&self) -> Option<I> {
        if self.state == ClientState::Disconnected {
            return None;
        }
        let keep = self
            .config
            .keep_alive
            .map(|k| self.last_send.saturating_add(k));
        let reply = self.awaiting.map(|(_, t)| t);
        [keep, reply, self.opponent_deadline()]
            .into_iter()
            .flatten()
            .min()
    }

    /// While the opponent is on move in a game with a clock: the last line
    /// heard + the opponent's allowance + [`ClientConfig::clock_margin`].
    fn opponent_deadline(&self) -> Option<I> {
        if self.state != ClientState::Game || self.opponent_silence_reported {
            return None;
        }
        let me = self.me?;
        let to_move = self.board.as_ref()?.side_to_move();
        if to_move == me {
            return None;
        }
        let allowance = self.clocks[idx(to_move)].allowance()?;
        Some(
            self.heard
                .saturating_add(allowance.saturating_add(self.config.clock_margin)),
        )
    }

    /// Time passed: sends a keep-alive empty line when due; reports
    /// [`Event::PeerSilent`] when a reply is overdue.
    pub fn handle_timeout(&mut self, now: I) {
        if self.state == ClientState::Disconnected {
            return;
        }
        if let Some((what, deadline)) = self.awaiting
            && now >= deadline
        {
            self.awaiting = None;
            self.events.push_back(Event::PeerSilent { awaiting: what });
        }
        if self.opponent_deadline().is_some_and(|d| now >= d) {
            self.opponent_silence_reported = true;
            self.events.push_back(Event::PeerSilent {
                awaiting: Awaited::OpponentMove,
            });
        }
        if self
            .config
            .keep_alive
            .is_some_and(|k| now >= self.last_send.saturating_add(k))
        {
            self.send(&ClientMessage::KeepAlive, now);
        }
    }

    /// Accepts the offered game (`AGREE <id>`).
    ///
    /// # Errors
    /// [`CommandError::NoGame`] when no game is offered.
    pub fn agree(&mut self, now: I) -> Result<(), CommandError> {
        if self.state != ClientState::AgreeWaiting {
            return Err(CommandError::NoGame);
        }
        self.send(&ClientMessage::Agree(self.game_id.clone()), now);
        self.state = ClientState::StartWaiting;
        self.wait_for(Awaited::Start, self.config.start_timeout, now);
        Ok(())
    }

    /// Refuses the offered game (`REJECT <id>`): the session goes back to
    /// waiting (x1: connected), where `REJECT:<id> by <name>` arrives as
    /// [`Event::Rejected`].
    ///
    /// # Errors
    /// [`CommandError::NoGame`] when no game is offered.
    pub fn reject(&mut self, now: I) -> Result<(), CommandError> {
        if self.state != ClientState::AgreeWaiting {
            return Err(CommandError::NoGame);
        }
        self.send(&ClientMessage::Reject(self.game_id.clone()), now);
        self.state = self.after_game_state();
        Ok(())
    }

    /// Where the session goes after a game or a rejected offer: x1
    /// `connected`; CSA mode `game_waiting` (the CSA protocol's state;
    /// shogi-server closes the connection).
    fn after_game_state(&self) -> ClientState {
        if self.config.x1 {
            ClientState::Connected
        } else {
            ClientState::GameWaiting
        }
    }

    fn check_turn(&self) -> Result<(), CommandError> {
        if self.state != ClientState::Game {
            return Err(CommandError::NoGame);
        }
        if self.at_move_limit() {
            return Err(CommandError::MoveLimit);
        }
        if !self.is_our_turn() {
            return Err(CommandError::NotYourTurn);
        }
        Ok(())
    }

    /// Sends our move (a board-core move, checked on the board and written
    /// in CSA notation by [`crate::convert`]); it is applied when the
    /// server confirms it. Until then [`Client::is_our_turn`] is `false`.
    ///
    /// # Errors
    /// [`CommandError::NoGame`], [`CommandError::MoveLimit`],
    /// [`CommandError::NotYourTurn`] (also for a second move in one turn),
    /// [`CommandError::IllegalMove`].
    pub fn send_move(&mut self, mv: Move, now: I) -> Result<(), CommandError> {
        self.send_move_with(mv, None, now)
    }

    /// [`Client::send_move`] with a Floodgate comment (`+7776FU,'* 30 -3334FU`,
    /// [`spec::csa`](crate::spec::csa), *Moves*).
    ///
    /// # Errors
    /// As [`Client::send_move`].
    pub fn send_move_with(
        &mut self,
        mv: Move,
        comment: Option<Text<'_>>,
        now: I,
    ) -> Result<(), CommandError> {
        self.check_turn()?;
        let Some(b) = &self.board else {
            return Err(CommandError::NoGame);
        };
        let mv = crate::convert::to_csa_move(b.position(), mv)?;
        self.send(
            &ClientMessage::Move {
                mv,
                comment: comment.map(Into::into),
            },
            now,
        );
        self.move_sent = true;
        self.wait_for(Awaited::MoveConfirmation, self.config.reply_timeout, now);
        Ok(())
    }

    /// Resigns: sends `%TORYO` on our turn. The server ends the game
    /// (`#RESIGN` `#LOSE`) and [`Event::GameEnded`] follows.
    ///
    /// ```
    /// # use core::time::Duration;
    /// # use csa_protocol::session::{Client, ClientConfig, CommandError};
    /// # use csa_protocol::types::{Password, UserName};
    /// # let config = ClientConfig::new(UserName::new("a").unwrap(), Password::new("p").unwrap());
    /// let mut client: Client<Duration> = Client::new(config, Duration::ZERO);
    /// assert_eq!(client.resign(Duration::ZERO), Err(CommandError::NoGame));
    /// ```
    ///
    /// # Errors
    /// As [`Client::special`].
    pub fn resign(&mut self, now: I) -> Result<(), CommandError> {
        self.special(SpecialMove::Toryo, now)
    }

    /// Declares a win by the entering-king rule: sends `%KACHI` on our
    /// turn. The server answers `#JISHOGI` with `#WIN` when the
    /// declaration holds (`#ILLEGAL_MOVE` `#LOSE` when it does not).
    ///
    /// # Errors
    /// As [`Client::special`].
    pub fn declare_win(&mut self, now: I) -> Result<(), CommandError> {
        self.special(SpecialMove::Kachi, now)
    }

    /// Sends `%TORYO`, `%KACHI` or `%CHUDAN` instead of a move.
    ///
    /// # Errors
    /// [`CommandError::NoGame`] outside a game; [`CommandError::NotYourTurn`]
    /// when our move for this turn was already sent or it is not our turn.
    pub fn special(&mut self, s: SpecialMove, now: I) -> Result<(), CommandError> {
        if self.state != ClientState::Game {
            return Err(CommandError::NoGame);
        }
        if self.move_sent || self.board.as_ref().map(GameBoard::side_to_move) != self.me {
            return Err(CommandError::NotYourTurn);
        }
        self.send(&ClientMessage::Special(s), now);
        self.move_sent = true;
        self.wait_for(Awaited::MoveConfirmation, self.config.reply_timeout, now);
        Ok(())
    }

    /// x1: asks for a game (`%%GAME <name> <side>`), or for another game
    /// while waiting (shogi-server accepts `%%GAME` in both states; a
    /// request the server refused with `##[ERROR]`, which arrives as
    /// [`Event::X1`], can so be replaced).
    ///
    /// # Errors
    /// [`CommandError::WrongState`] unless connected in x1 mode or waiting.
    pub fn request_game(
        &mut self,
        name: GameName<'static>,
        side: SidePreference,
        now: I,
    ) -> Result<(), CommandError> {
        if !matches!(
            self.state,
            ClientState::GameWaiting | ClientState::Connected
        ) || !self.config.x1
        {
            return Err(CommandError::WrongState(self.state));
        }
        self.send(
            &ClientMessage::X1(X1Command::Game(Some(GameRequest { name, side }))),
            now,
        );
        self.state = ClientState::GameWaiting;
        Ok(())
    }

    /// Sends any x1 command (replies arrive as [`Event::X1`]).
    ///
    /// # Errors
    /// [`CommandError::WrongState`] before login or after the connection
    /// ended.
    pub fn x1_command(&mut self, cmd: X1Command<'_>, now: I) -> Result<(), CommandError> {
        if matches!(self.state, ClientState::Login | ClientState::Disconnected) {
            return Err(CommandError::WrongState(self.state));
        }
        self.send(&ClientMessage::X1(cmd), now);
        Ok(())
    }

    /// Sends a raw line (tests, tools): no check of its content; the LF is
    /// added.
    ///
    /// # Errors
    /// [`CommandError::WrongState`] after the connection ended.
    pub fn send_raw_line(&mut self, line: &[u8], now: I) -> Result<(), CommandError> {
        if self.state == ClientState::Disconnected {
            return Err(CommandError::WrongState(self.state));
        }
        let mut v = line.to_vec();
        v.push(b'\n');
        self.tx.push_back(Transmit::from_vec(v));
        self.last_send = now;
        Ok(())
    }

    /// Sends `LOGOUT` (once: while its reply is awaited, a second call
    /// sends nothing).
    ///
    /// # Errors
    /// [`CommandError::WrongState`] after the connection ended.
    pub fn logout(&mut self, now: I) -> Result<(), CommandError> {
        if self.state == ClientState::Disconnected {
            return Err(CommandError::WrongState(self.state));
        }
        if matches!(self.awaiting, Some((Awaited::LogoutReply, _))) {
            // Already sent, its reply pending: one LOGOUT on the wire.
            return Ok(());
        }
        self.send(&ClientMessage::Logout, now);
        self.wait_for(Awaited::LogoutReply, self.config.reply_timeout, now);
        Ok(())
    }

    /// The server closed the connection. A game in progress ends with
    /// [`Outcome::Unknown`] and no reason.
    pub fn handle_close(&mut self, _now: I) {
        if self.state == ClientState::Game {
            self.end_game(Outcome::Unknown, None);
        }
        self.state = ClientState::Disconnected;
        self.awaiting = None;
    }

    /// What the tokio codec reported instead of a line (codec users; the
    /// line was skipped): [`Event::Overlong`] or [`Event::Malformed`], and
    /// a `Game_Summary` block being read is dropped (it cannot be
    /// completed).
    pub fn handle_frame_error(&mut self, e: &FrameError, _now: I) {
        if self.reader.in_block() {
            self.reader = GameSummaryReader::new();
        }
        self.events.push_back(match *e {
            FrameError::Overlong { len, .. } => Event::Overlong { len },
            FrameError::Malformed(d) => Event::Malformed(d),
            // Not a CSA report (a line protocol decodes the last line
            // without its LF instead); reported with the line's length.
            _ => return,
        });
    }

    /// Bytes received from the server: every complete line is decoded and
    /// handled as [`Client::handle_message`] does; malformed and over-long
    /// lines are reported ([`Event::Malformed`], [`Event::Overlong`]) and
    /// skipped.
    pub fn handle_input(&mut self, bytes: &[u8], now: I) {
        if self.capped {
            return;
        }
        let mut input = self.lines.take();
        input.feed(bytes, |frame| match frame {
            Frame::Complete(line) => match decode::<ServerMessage>(line) {
                Ok(msg) => self.handle_message(&msg, now),
                Err(e) => {
                    // A complete line: the server is alive.
                    self.heard = now;
                    if self.reader.in_block() {
                        // The block cannot be completed: drop it.
                        self.reader = GameSummaryReader::new();
                    }
                    self.events.push_back(Event::Malformed(e));
                }
            },
            Frame::Overlong { len, .. } => self.events.push_back(Event::Overlong { len }),
        });
        self.lines.put(input);
    }

    /// A line from the server, already decoded (codec users). A
    /// `Game_Summary` block is read from its lines as they come.
    pub fn handle_message(&mut self, msg: &ServerMessage<'_>, now: I) {
        if self.capped {
            return;
        }
        self.heard = now;
        self.opponent_silence_reported = false;
        let summary_begin = matches!(
            msg,
            ServerMessage::Summary(SummaryLine::Begin(b)) if b.as_str() == "Game_Summary"
        );
        if self.reader.in_block() || summary_begin {
            match self.reader.push_message(msg) {
                Ok(None) => {}
                Ok(Some(s)) => self.on_summary(s, now),
                Err(e) => self.events.push_back(Event::BadSummary(e)),
            }
            return;
        }
        match msg {
            ServerMessage::KeepAlive => {}
            ServerMessage::LoginOk(_) => {
                if !self.config.x1 {
                    self.awaiting = None;
                    self.state = ClientState::GameWaiting;
                    self.events.push_back(Event::LoggedIn);
                }
            }
            ServerMessage::X1(X1Reply::LoginOk) => {
                self.awaiting = None;
                self.state = ClientState::Connected;
                self.events.push_back(Event::LoggedIn);
                if let Some((name, side)) = self.config.game.clone() {
                    let _ = self.request_game(name, side, now);
                }
            }
            ServerMessage::LoginIncorrect => {
                self.awaiting = None;
                if self.state == ClientState::Login {
                    self.state = ClientState::Disconnected;
                }
                self.events.push_back(Event::LoginFailed);
            }
            ServerMessage::LogoutCompleted => {
                self.awaiting = None;
                self.state = ClientState::Disconnected;
                self.events.push_back(Event::LoggedOut);
            }
            // `START` answers the Game_Summary we read (spec: after
            // `AGREE`; also taken while our `AGREE` is still to be sent).
            // Without one there is no board and no side to play: the line
            // is reported and the state stays.
            ServerMessage::Start(_)
                if !matches!(
                    self.state,
                    ClientState::AgreeWaiting | ClientState::StartWaiting
                ) =>
            {
                self.events.push_back(Event::Unrecognised(msg.to_line()));
            }
            ServerMessage::Start(id) => {
                self.awaiting = None;
                self.state = ClientState::Game;
                self.game_id = Some(id.clone().into_owned());
                self.events.push_back(Event::GameStarted(GameStarted {
                    game_id: id.clone().into_owned(),
                    side: self.me,
                }));
                self.begin_turn();
            }
            ServerMessage::Reject { game_id, by } => {
                self.awaiting = None;
                self.state = self.after_game_state();
                self.events.push_back(Event::Rejected {
                    game_id: game_id.clone().into_owned(),
                    by: by.clone().into_owned(),
                });
            }
            ServerMessage::Move { mv, time } => self.on_move(*mv, *time),
            ServerMessage::Special { .. } => {}
            ServerMessage::Reason(r) => self.pending_reason = Some(*r),
            ServerMessage::GameResult(o) => {
                let reason = self.pending_reason.take();
                self.end_game(Outcome::from(*o), reason);
            }
            ServerMessage::X1(r) => self.events.push_back(Event::X1(r.clone().into_owned())),
            ServerMessage::Unrecognised(b) => self
                .events
                .push_back(Event::Unrecognised(b.clone().into_owned())),
            other => self.events.push_back(Event::Unrecognised(other.to_line())),
        }
    }

    fn end_game(&mut self, outcome: Outcome, reason: Option<EndReason>) {
        self.awaiting = None;
        self.move_sent = false;
        let start = Box::new(self.start.take().unwrap_or_else(Position::startpos));
        self.events.push_back(Event::GameEnded(GameEnded {
            outcome,
            reason,
            start,
            moves: core::mem::take(&mut self.moves),
            game_id: self.game_id.take(),
            side: self.me,
        }));
        self.state = self.after_game_state();
    }

    fn on_summary(&mut self, s: GameSummary, now: I) {
        self.game_id = s.game_id.clone();
        self.me = s.your_turn;
        self.move_sent = false;
        let common = s.time.as_ref();
        let (black, white) = (
            s.time_black.as_ref().or(common),
            s.time_white.as_ref().or(common),
        );
        self.clocks = [Clock::new(control(black)), Clock::new(control(white))];
        self.time_units_ms = [black, white].map(|t| t.map_or(1000, |t| t.unit().millis()));
        self.moves.clear();
        self.board = None;
        self.start = None;
        let start = match s.position.as_ref().map(crate::convert::start_position) {
            None => Ok(Position::startpos()),
            Some(r) => r,
        };
        let refused = match start {
            Ok(pos) => {
                let mut board = GameBoard::new(pos);
                let moves = s.position.as_ref().map_or(&[][..], |p| &p.moves[..]);
                let mut bad = None;
                for (i, (mv, time)) in moves.iter().enumerate() {
                    if i >= self.max_plies() {
                        bad = Some(Event::PlyCapReached {
                            plies: self.max_plies(),
                        });
                        break;
                    }
                    match board.check(mv).and_then(|m| board.play_move(m).map(|_| m)) {
                        Ok(m) => {
                            self.moves.push(m);
                            // The moves already played are charged their
                            // times (no increment: a server may not have
                            // granted one; shogi-server charges nothing for
                            // a buoy game's moves) — the lower estimate.
                            if let Some(t) = time {
                                self.charge(move_side(mv), *t);
                            }
                        }
                        Err(reason) => {
                            bad = Some(Event::BadPositionMove {
                                number: i + 1,
                                mv: *mv,
                                reason,
                            });
                            break;
                        }
                    }
                }
                if bad.is_none() {
                    self.start = Some(pos);
                    self.board = Some(board);
                }
                bad
            }
            Err(e) => Some(Event::BadStartPosition(e)),
        };
        self.state = ClientState::AgreeWaiting;
        self.events
            .push_back(Event::GameSummary(Box::new(s.clone())));
        self.summary = Some(s);
        if let Some(problem) = refused {
            // The game cannot be played on a board we cannot keep: refuse
            // it (spec/csa.md, *Agreement -> game*).
            self.moves.clear();
            self.events.push_back(problem);
            let _ = self.reject(now);
        }
    }

    fn begin_turn(&mut self) {
        let Some(b) = &self.board else { return };
        let side = b.side_to_move();
        if Some(side) == self.me && self.cap_binds() && self.moves.len() >= self.max_plies() {
            // Our turn with the game at the cap, and no `Max_Moves` of the
            // server will end it.
            return self.close_at_cap();
        }
        self.clocks[idx(side)].start_turn();
        if Some(side) == self.me && !self.at_move_limit() {
            let c = &self.clocks[idx(side)];
            self.events.push_back(Event::OurTurn {
                remaining: (!c.control.is_unlimited())
                    .then(|| Duration::from_millis(c.remaining_ms)),
                byoyomi: Duration::from_millis(c.control.byoyomi_ms),
            });
        }
    }

    /// Charges `side`'s clock the `T` of one of its moves.
    fn charge(&mut self, side: Side, t: MoveTime) {
        // `T` counts `Time_Unit`s (`T3` is 3 minutes under `Time_Unit:1min`);
        // `MoveTime` keeps it as thousandths.
        let charged = t.as_millis().saturating_mul(self.time_units_ms[idx(side)]) / 1000;
        let c = &mut self.clocks[idx(side)];
        c.remaining_ms = c.remaining_ms.saturating_sub(charged);
    }

    /// [`ClientConfig::max_game_plies`], at least 1.
    fn max_plies(&self) -> usize {
        usize::try_from(self.config.max_game_plies)
            .unwrap_or(usize::MAX)
            .max(1)
    }

    /// Whether our cap, not the server's `Max_Moves`, ends the game: the
    /// summary gave no `Max_Moves` (or 0), or one above the cap.
    fn cap_binds(&self) -> bool {
        match self.summary.as_ref().and_then(|s| s.max_moves) {
            None | Some(0) => true,
            Some(max) => max > self.max_plies() as u64,
        }
    }

    /// The game is at the cap and the server will not end it: report,
    /// end the game for us, close.
    fn close_at_cap(&mut self) {
        self.events.push_back(Event::PlyCapReached {
            plies: self.max_plies(),
        });
        if self.state == ClientState::Game {
            self.end_game(Outcome::Unknown, None);
        }
        self.tx.push_back(Transmit::close());
        self.state = ClientState::Disconnected;
        self.awaiting = None;
        self.capped = true;
    }

    fn on_move(&mut self, mv: CsaMove, time: Option<MoveTime>) {
        if self.moves.len() >= self.max_plies() {
            // A move past the cap: not played.
            return self.close_at_cap();
        }
        let side = move_side(&mv);
        if let Some(t) = time {
            self.charge(side, t);
        }
        if Some(side) == self.me {
            self.move_sent = false;
            self.awaiting = None;
        }
        let played = self
            .board
            .as_mut()
            .and_then(|b| b.check(&mv).and_then(|m| b.play_move(m).map(|_| m)).ok());
        let Some(m) = played else {
            self.events.push_back(Event::BoardMismatch { mv });
            return;
        };
        self.events.push_back(Event::Move {
            mv: m,
            csa: mv,
            side,
            time,
        });
        self.moves.push(m);
        if self.state == ClientState::Game {
            self.begin_turn();
        }
    }
}

boardwire_proto::forward_session! {
    impl<I: Timestamp> Session for Client<I> {
        type Incoming<'a> = ServerMessage<'a>;
        type Outgoing<'a> = ClientMessage<'a>;
        type Event = Event;

        fn max_frame_len(&self) -> usize {
            self.config.max_line_len
        }
        fn decode_incoming<'a>(
            &self,
            frame: &'a [u8],
        ) -> Result<ServerMessage<'a>, crate::error::DecodeError> {
            decode(frame)
        }
        fn decode_outgoing<'a>(
            &self,
            frame: &'a [u8],
        ) -> Result<ClientMessage<'a>, crate::error::DecodeError> {
            decode(frame)
        }
        fn is_unrecognised(msg: &ServerMessage<'_>) -> bool {
            matches!(msg, ServerMessage::Unrecognised(_))
        }
    }
}
