//! The client session: a sans-IO CSA client (plain CSA mode and x1 mode).
//!
//! States (spec note; shogi-server's origin document):
//! - CSA mode: `login` → `game_waiting` → `agree_waiting` → `game` →
//!   `disconnected` (the server closes the connection after the game);
//! - x1 mode: `login` → `connected` → `game_waiting` → `agree_waiting` →
//!   `game` → `connected`.
//!
//! The game is tracked on a board-core position ([`Client::board`]); clocks
//! are computed from the `Game_Summary` Time block (Fischer increment added
//! before each turn, byoyomi, least time per move, `Time_Unit`) and the `T`
//! of each confirmation. Call order: [`Client::new`] (queues `LOGIN`), then
//! feed received bytes with [`Client::handle_data`], drain
//! [`Client::poll_transmit`] and [`Client::poll_event`] after every call,
//! and call [`Client::handle_timeout`] at [`Client::poll_timeout`]
//! (keep-alive empty lines).

use alloc::collections::VecDeque;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::time::Duration;

use super::Timestamp;
use crate::board::GameBoard;
use crate::client::{ClientMessage, GameRequest, SpecialMove, X1Command};
use crate::clock::{Clock, TimeControl};
use crate::error::DecodeError;
use crate::frame::{Frame, LineBuffer};
use crate::moves::{CsaMove, move_side};
use crate::server::{EndReason, Outcome, ServerMessage, SummaryLine, X1Reply, decode_server_line};
use crate::summary::{GameSummary, GameSummaryReader, SummaryError, TimeSection};
use crate::types::{GameId, GameName, MoveTime, Password, Side, SidePreference, UserName};

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
    /// Line length cap in bytes.
    pub max_line_len: usize,
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
            max_line_len: crate::frame::DEFAULT_MAX_LINE_LEN,
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
    /// Waiting for an opponent.
    GameWaiting,
    /// `Game_Summary` received: answer with [`Client::agree`] or [`Client::reject`].
    AgreeWaiting,
    /// `AGREE` sent, waiting for `START`.
    StartWaiting,
    /// Playing.
    Game,
    /// Logged out, refused, or (CSA mode) the game is over.
    Disconnected,
}

/// Something the application should know.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ClientEvent {
    /// `LOGIN:<name> OK` (in x1 mode after `##[LOGIN] +OK x1`).
    LoggedIn,
    /// `LOGIN:incorrect`.
    LoginFailed,
    /// A `Game_Summary` arrived; the session is in `AgreeWaiting`.
    Summary(alloc::boxed::Box<GameSummary>),
    /// `START:<id>`: the game began.
    Started {
        /// Game_ID.
        game_id: String,
    },
    /// `REJECT:<id> by <name>`.
    Rejected {
        /// Game_ID.
        game_id: String,
        /// Who rejected.
        by: String,
    },
    /// It is our turn.
    OurTurn {
        /// Our remaining time (byoyomi excluded; `None` = unlimited).
        remaining: Option<Duration>,
        /// Byoyomi per move.
        byoyomi: Duration,
    },
    /// A move was confirmed (ours or the opponent's).
    Move {
        /// The move.
        mv: CsaMove,
        /// Whose it is.
        side: Side,
        /// Time charged.
        time: Option<MoveTime>,
    },
    /// The game ended: reason and outcome.
    GameOver {
        /// `#RESIGN`, `#TIME_UP`, ...
        reason: EndReason,
        /// `#WIN`, `#LOSE`, `#DRAW`, `#CENSORED`.
        outcome: Outcome,
    },
    /// `LOGOUT:completed`.
    LoggedOut,
    /// An x1 reply (`##[...]`) not consumed by the session.
    X1(X1Reply<'static>),
    /// A line the session could not decode.
    Malformed(DecodeError),
    /// A `Game_Summary` block that could not be read.
    BadSummary(SummaryError),
    /// A move from the server that is illegal on our board (the board is
    /// out of sync; the game goes on as the server says only if the
    /// application chooses to).
    BoardMismatch {
        /// The move.
        mv: CsaMove,
    },
    /// A line that is no CSA server line.
    Unrecognised(Vec<u8>),
}

/// A call that is not allowed now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The call needs another state.
    #[error("not allowed in state {0:?}")]
    WrongState(ClientState),
    /// It is not our turn.
    #[error("not our turn")]
    NotOurTurn,
    /// The move is illegal on the board.
    #[error(transparent)]
    Illegal(#[from] crate::board::IllegalMove),
}

/// The sans-IO CSA client. See the module documentation.
#[derive(Debug)]
pub struct Client<I> {
    config: ClientConfig,
    state: ClientState,
    lines: LineBuffer,
    reader: GameSummaryReader,
    summary: Option<GameSummary>,
    board: Option<GameBoard>,
    me: Option<Side>,
    clocks: [Clock; 2],
    /// `Time_Unit` of each side's Time block in milliseconds: the unit of the
    /// `T` of its confirmations.
    time_units_ms: [u64; 2],
    game_id: Option<String>,
    pending_reason: Option<EndReason>,
    tx: VecDeque<Vec<u8>>,
    events: VecDeque<ClientEvent>,
    last_send: I,
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
            lines: LineBuffer::new(config.max_line_len),
            config,
            state: ClientState::Login,
            reader: GameSummaryReader::new(),
            summary: None,
            board: None,
            me: None,
            clocks: [Clock::new(TimeControl::default()); 2],
            time_units_ms: [1000; 2],
            game_id: None,
            pending_reason: None,
            tx: VecDeque::new(),
            events: VecDeque::new(),
            last_send: now,
        };
        let login = ClientMessage::Login {
            name: c.config.name.clone(),
            password: c.config.password.clone(),
            x1: c.config.x1,
        };
        c.send(&login, now);
        c
    }

    /// The state.
    pub fn state(&self) -> ClientState {
        self.state
    }

    /// The board of the current (or last) game.
    pub fn board(&self) -> Option<&GameBoard> {
        self.board.as_ref()
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

    /// `true` when it is our move.
    pub fn is_our_turn(&self) -> bool {
        self.state == ClientState::Game
            && self.board.as_ref().map(GameBoard::side_to_move) == self.me
    }

    fn send(&mut self, m: &ClientMessage<'_>, now: I) {
        let mut v = Vec::new();
        m.encode(&mut v);
        self.tx.push_back(v);
        self.last_send = now;
    }

    /// The next bytes to send.
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.tx.pop_front()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<ClientEvent> {
        self.events.pop_front()
    }

    /// When [`Client::handle_timeout`] must be called (keep-alive).
    pub fn poll_timeout(&self) -> Option<I> {
        if self.state == ClientState::Disconnected {
            return None;
        }
        self.config
            .keep_alive
            .map(|k| self.last_send.saturating_add(k))
    }

    /// Time passed: sends a keep-alive empty line when due.
    pub fn handle_timeout(&mut self, now: I) {
        if self.poll_timeout().is_some_and(|t| now >= t) {
            self.send(&ClientMessage::KeepAlive, now);
        }
    }

    /// Accepts the offered game (`AGREE <id>`).
    ///
    /// # Errors
    /// [`ClientError::WrongState`] outside `AgreeWaiting`.
    pub fn agree(&mut self, now: I) -> Result<(), ClientError> {
        self.expect(ClientState::AgreeWaiting)?;
        let id = self.game_id.clone().and_then(|i| GameId::new(i).ok());
        self.send(&ClientMessage::Agree(id), now);
        self.state = ClientState::StartWaiting;
        Ok(())
    }

    /// Refuses the offered game (`REJECT <id>`).
    ///
    /// # Errors
    /// [`ClientError::WrongState`] outside `AgreeWaiting`.
    pub fn reject(&mut self, now: I) -> Result<(), ClientError> {
        self.expect(ClientState::AgreeWaiting)?;
        let id = self.game_id.clone().and_then(|i| GameId::new(i).ok());
        self.send(&ClientMessage::Reject(id), now);
        Ok(())
    }

    /// Sends our move after checking it on the board (it is applied when the
    /// server confirms it).
    ///
    /// # Errors
    /// [`ClientError::NotOurTurn`], [`ClientError::Illegal`] or
    /// [`ClientError::WrongState`].
    pub fn play(
        &mut self,
        mv: CsaMove,
        comment: Option<crate::Text<'_>>,
        now: I,
    ) -> Result<(), ClientError> {
        self.expect(ClientState::Game)?;
        if !self.is_our_turn() {
            return Err(ClientError::NotOurTurn);
        }
        if let Some(b) = &self.board {
            b.check(&mv)?;
        }
        self.send(&ClientMessage::Move { mv, comment }, now);
        Ok(())
    }

    /// Sends `%TORYO`, `%KACHI` or `%CHUDAN`.
    ///
    /// # Errors
    /// [`ClientError::WrongState`] outside a game.
    pub fn special(&mut self, s: SpecialMove, now: I) -> Result<(), ClientError> {
        self.expect(ClientState::Game)?;
        self.send(&ClientMessage::Special(s), now);
        Ok(())
    }

    /// x1: asks for a game (`%%GAME <name> <side>`), or for another game
    /// while waiting (shogi-server accepts `%%GAME` in both states; a
    /// request the server refused with `##[ERROR]`, which arrives as
    /// [`ClientEvent::X1`], can so be replaced).
    ///
    /// # Errors
    /// [`ClientError::WrongState`] unless connected in x1 mode or waiting.
    pub fn request_game(
        &mut self,
        name: GameName<'static>,
        side: SidePreference,
        now: I,
    ) -> Result<(), ClientError> {
        if self.state != ClientState::GameWaiting {
            self.expect(ClientState::Connected)?;
        }
        self.send(
            &ClientMessage::X1(X1Command::Game(Some(GameRequest { name, side }))),
            now,
        );
        self.state = ClientState::GameWaiting;
        Ok(())
    }

    /// Sends any x1 command (replies arrive as [`ClientEvent::X1`]).
    pub fn x1_command(&mut self, cmd: X1Command<'_>, now: I) {
        self.send(&ClientMessage::X1(cmd), now);
    }

    /// Sends a raw line (tests, tools). No check at all.
    pub fn send_raw_line(&mut self, line: &[u8], now: I) {
        let mut v = line.to_vec();
        v.push(b'\n');
        self.tx.push_back(v);
        self.last_send = now;
    }

    /// Sends `LOGOUT`.
    pub fn logout(&mut self, now: I) {
        self.send(&ClientMessage::Logout, now);
    }

    /// The server closed the connection.
    pub fn handle_close(&mut self) {
        self.state = ClientState::Disconnected;
    }

    fn expect(&self, s: ClientState) -> Result<(), ClientError> {
        if self.state == s {
            Ok(())
        } else {
            Err(ClientError::WrongState(self.state))
        }
    }

    /// Bytes received from the server.
    pub fn handle_data(&mut self, data: &[u8], now: I) {
        self.lines.push(data);
        loop {
            let frame = self.lines.with_next_frame(|f| match f {
                Frame::Line(l) => Some(l.to_vec()),
                Frame::Overlong { .. } => None,
            });
            match frame {
                None => return,
                Some(None) => self.events.push_back(ClientEvent::Malformed(
                    // An overlong server line: report it as malformed.
                    crate::error::DecodeError::new(
                        "line",
                        "length",
                        self.config.max_line_len,
                        crate::Problem::TooLong {
                            max: self.config.max_line_len,
                        },
                    ),
                )),
                Some(Some(line)) => self.handle_line(&line, now),
            }
        }
    }

    fn handle_line(&mut self, line: &[u8], now: I) {
        if self.reader.in_block() || line == b"BEGIN Game_Summary" {
            match self.reader.push_line(line) {
                Ok(None) => {}
                Ok(Some(s)) => self.on_summary(s),
                Err(e) => self.events.push_back(ClientEvent::BadSummary(e)),
            }
            return;
        }
        let msg = match decode_server_line(line) {
            Ok(m) => m,
            Err(e) => return self.events.push_back(ClientEvent::Malformed(e)),
        };
        match msg {
            ServerMessage::KeepAlive => {}
            ServerMessage::LoginOk(_) => {
                if !self.config.x1 {
                    self.state = ClientState::GameWaiting;
                    self.events.push_back(ClientEvent::LoggedIn);
                }
            }
            ServerMessage::X1(X1Reply::LoginOk) => {
                self.state = ClientState::Connected;
                self.events.push_back(ClientEvent::LoggedIn);
                if let Some((name, side)) = self.config.game.clone() {
                    let _ = self.request_game(name, side, now);
                }
            }
            ServerMessage::LoginIncorrect => {
                if self.state == ClientState::Login {
                    self.state = ClientState::Disconnected;
                }
                self.events.push_back(ClientEvent::LoginFailed);
            }
            ServerMessage::LogoutCompleted => {
                self.state = ClientState::Disconnected;
                self.events.push_back(ClientEvent::LoggedOut);
            }
            ServerMessage::Start(id) => {
                self.state = ClientState::Game;
                self.game_id = Some(id.as_str().to_string());
                self.events.push_back(ClientEvent::Started {
                    game_id: id.as_str().to_string(),
                });
                self.begin_turn();
            }
            ServerMessage::Reject { game_id, by } => {
                self.state = if self.config.x1 {
                    ClientState::Connected
                } else {
                    ClientState::Disconnected
                };
                self.events.push_back(ClientEvent::Rejected {
                    game_id: game_id.as_str().to_string(),
                    by: by.as_str().to_string(),
                });
            }
            ServerMessage::Move { mv, time } => self.on_move(mv, time),
            ServerMessage::Special { .. } => {}
            ServerMessage::Reason(r) => self.pending_reason = Some(r),
            ServerMessage::Outcome(o) => {
                let reason = self.pending_reason.take().unwrap_or(EndReason::Chudan);
                self.state = if self.config.x1 {
                    ClientState::Connected
                } else {
                    ClientState::Disconnected
                };
                self.events
                    .push_back(ClientEvent::GameOver { reason, outcome: o });
            }
            ServerMessage::X1(r) => self.events.push_back(ClientEvent::X1(x1_owned(r))),
            ServerMessage::Summary(SummaryLine::Begin(_)) | ServerMessage::Summary(_) => {
                self.events
                    .push_back(ClientEvent::Unrecognised(line.to_vec()));
            }
            ServerMessage::Unrecognised(b) => self
                .events
                .push_back(ClientEvent::Unrecognised(b.into_owned())),
            _ => self
                .events
                .push_back(ClientEvent::Unrecognised(line.to_vec())),
        }
    }

    fn on_summary(&mut self, s: GameSummary) {
        self.game_id = s.game_id.as_ref().map(|g| g.as_str().to_string());
        self.me = s.your_turn;
        let common = s.time.as_ref();
        let (black, white) = (
            s.time_black.as_ref().or(common),
            s.time_white.as_ref().or(common),
        );
        self.clocks = [Clock::new(control(black)), Clock::new(control(white))];
        self.time_units_ms = [black, white].map(|t| t.map_or(1000, |t| t.unit().millis()));
        let mut board = s
            .position
            .as_ref()
            .and_then(|p| GameBoard::from_csa(&p.position_text()).ok())
            .unwrap_or_else(GameBoard::startpos);
        if let Some(p) = &s.position {
            for (mv, _) in &p.moves {
                if board.play(mv).is_err() {
                    self.events
                        .push_back(ClientEvent::BoardMismatch { mv: *mv });
                    break;
                }
            }
        }
        self.board = Some(board);
        self.state = ClientState::AgreeWaiting;
        self.events
            .push_back(ClientEvent::Summary(alloc::boxed::Box::new(s.clone())));
        self.summary = Some(s);
    }

    fn begin_turn(&mut self) {
        let Some(b) = &self.board else { return };
        let side = b.side_to_move();
        self.clocks[idx(side)].start_turn();
        if Some(side) == self.me {
            let c = &self.clocks[idx(side)];
            self.events.push_back(ClientEvent::OurTurn {
                remaining: (!c.control.is_unlimited())
                    .then(|| Duration::from_millis(c.remaining_ms)),
                byoyomi: Duration::from_millis(c.control.byoyomi_ms),
            });
        }
    }

    fn on_move(&mut self, mv: CsaMove, time: Option<MoveTime>) {
        let side = move_side(&mv);
        if let Some(t) = time {
            // `T` counts `Time_Unit`s (`T3` is 3 minutes under `Time_Unit:1min`);
            // `MoveTime` keeps it as thousandths.
            let charged = t.as_millis().saturating_mul(self.time_units_ms[idx(side)]) / 1000;
            let c = &mut self.clocks[idx(side)];
            c.remaining_ms = c.remaining_ms.saturating_sub(charged);
        }
        let ok = self.board.as_mut().is_some_and(|b| b.play(&mv).is_ok());
        self.events.push_back(ClientEvent::Move { mv, side, time });
        if !ok {
            self.events.push_back(ClientEvent::BoardMismatch { mv });
            return;
        }
        if self.state == ClientState::Game {
            self.begin_turn();
        }
    }
}

fn x1_owned(r: X1Reply<'_>) -> X1Reply<'static> {
    match r {
        X1Reply::LoginOk => X1Reply::LoginOk,
        X1Reply::Ok(t) => X1Reply::Ok(t.into_owned()),
        X1Reply::Who(w) => X1Reply::Who(w.into_owned()),
        X1Reply::Chat { sender, text } => X1Reply::Chat {
            sender: sender.into_owned(),
            text: text.into_owned(),
        },
        X1Reply::List(g) => X1Reply::List(g.into_owned()),
        X1Reply::Show(t) => X1Reply::Show(t.into_owned()),
        X1Reply::Monitor { game_id, line } => X1Reply::Monitor {
            game_id: game_id.into_owned(),
            line: line.into_owned(),
        },
        X1Reply::Monitor2 { game_id, line } => X1Reply::Monitor2 {
            game_id: game_id.into_owned(),
            line: line.into_owned(),
        },
        X1Reply::Rating(t) => X1Reply::Rating(t.into_owned()),
        X1Reply::BuoyCount(n) => X1Reply::BuoyCount(n),
        X1Reply::Version(t) => X1Reply::Version(t.into_owned()),
        X1Reply::Help(t) => X1Reply::Help(t.into_owned()),
        X1Reply::Error(t) => X1Reply::Error(t.into_owned()),
        X1Reply::Other { tag, text } => X1Reply::Other {
            tag: tag.into_owned(),
            text: text.into_owned(),
        },
    }
}

impl X1Reply<'_> {
    /// The same value with owned text.
    pub fn into_owned(self) -> X1Reply<'static> {
        x1_owned(self)
    }
}
