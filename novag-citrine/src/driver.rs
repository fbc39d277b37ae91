//! The host-side driver session: a sans-IO state machine that keeps the
//! game in sync with the Citrine (spec note, "Move text the Citrine
//! prints", "Pacing" and "Known field problems").
//!
//! # Call order
//! 1. [`Driver::new`] queues the configured settings (`X ON`, `U ...`).
//! 2. Feed every byte read from the device to [`Driver::handle_input`];
//!    call the host actions ([`Driver::play`], [`Driver::take_back`],
//!    [`Driver::new_game`], [`Driver::request_position`]) when the user or
//!    engine decides.
//! 3. After each of those calls, drain [`Driver::poll_event`], then write
//!    everything [`Driver::poll_transmit`] returns (in order, one command
//!    line each) until it returns `None`.
//! 4. Wait for input or until [`Driver::poll_timeout`], then call
//!    [`Driver::poll_transmit`] again.
//!
//! Time is passed in as a [`Timestamp`] of the caller's clock:
//! `std::time::Instant`, or, without `std`, a [`Duration`] since an origin
//! of the caller's choice (a hardware timer's count, simulated time). The
//! type parameter of [`Driver`] is inferred from the first call that passes
//! a time. The driver never reads the clock, sleeps or does I/O.
//!
//! # Field problems handled
//! - **Pacing**: commands are at least [`DriverConfig::min_gap`] apart
//!   (default 100 ms; users found that commands sent back to back get lost).
//! - **Moves sent twice**: with [`DriverConfig::resend`], each move is sent a
//!   second time 200 ms later (3 s after a capture), as drivers do because the
//!   LEDs sometimes only flash. Unlike those drivers, the resend is dropped
//!   once the device has answered with its own move, so a late copy can never
//!   be read as a move in the new position.
//! - **Duplicate acknowledgements**: a move line for a ply already played,
//!   with the same move, is reported as [`Event::Duplicate`] and ignored.
//! - **Out-of-turn moves** (lifting the engine's king makes the Citrine move
//!   for the host's side): reported as [`Event::OutOfTurn`]; the move is
//!   applied (the device played it) and, with
//!   [`DriverConfig::take_back_out_of_turn`], taken back with `T`.
//! - **Forgotten settings**: after every `New Game` the configured Xmit and
//!   referee settings are sent again.
//! - **Disagreement**: an illegal, unexpected or undecodable line makes the
//!   driver send `P` (with [`DriverConfig::auto_resync`]) and compare the
//!   device's diagram with its own position: equal → back in sync; one legal
//!   move apart → the move is applied; one move back → the last move is
//!   undone; otherwise [`Event::OutOfSync`] until a new game or
//!   [`Driver::adopt`].

use alloc::borrow::ToOwned;
use alloc::boxed::Box;
use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use crate::command::Command;
use crate::convert::{IllegalMoveError, to_host_move, to_move};
use crate::error::DecodeError;
use crate::framer::{Frame, LineFramer};
use crate::reply::{MoveLine, Reply};
use crate::time::Timestamp;
use crate::types::{ClockTime, Level};
use crate::vocab::{Color, Move, Piece, Position, Square};

/// A board as 64 squares (`a1` = 0 … `h8` = 63), e.g. from a `Position
/// Board` diagram.
pub type Board = [Option<Piece>; 64];

/// The pieces of a position as a [`Board`].
pub fn board_of(position: &Position) -> Board {
    let mut b = [None; 64];
    for (i, cell) in b.iter_mut().enumerate() {
        *cell = Square::new(i as u32).and_then(|sq| position.piece_at(sq));
    }
    b
}

/// Driver settings.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    /// The side the host plays (its moves go out with [`Driver::play`]);
    /// `None` lets the host play either side. A device move for the host's
    /// side is out of turn.
    pub host_color: Option<Color>,
    /// Xmit setting to send at start and after every `New Game` (`X ON`).
    pub xmit: Option<bool>,
    /// Referee setting to send at start and after every `New Game`.
    pub referee: Option<bool>,
    /// Minimum time between two command lines (default 100 ms).
    pub min_gap: Duration,
    /// Send each move a second time after this delay (default 200 ms);
    /// `None` sends it once.
    pub resend: Option<Duration>,
    /// The resend delay after a capture (default 3 s, as a published driver
    /// uses so that the player can see both squares).
    pub resend_after_capture: Duration,
    /// Send `P` and compare positions when the device and the driver
    /// disagree (default true).
    pub auto_resync: bool,
    /// Take back (`T`) a move the device makes for the host's side (default
    /// true).
    pub take_back_out_of_turn: bool,
    /// Line length cap for the input framer, in bytes.
    pub max_line_len: usize,
}

impl Default for DriverConfig {
    fn default() -> Self {
        DriverConfig {
            host_color: Some(Color::White),
            xmit: Some(true),
            referee: None,
            min_gap: Duration::from_millis(100),
            resend: Some(Duration::from_millis(200)),
            resend_after_capture: Duration::from_secs(3),
            auto_resync: true,
            take_back_out_of_turn: true,
            max_line_len: LineFramer::DEFAULT_MAX_LEN,
        }
    }
}

/// Why the driver thinks it disagrees with the device.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Disagreement {
    /// A move line that is not legal in the tracked position.
    IllegalMove {
        /// The line's move number and colour marker.
        line: MoveLine,
        /// Why it does not fit.
        error: IllegalMoveError,
    },
    /// A move line for a ply other than the next one or a played one.
    UnexpectedPly {
        /// The line.
        line: MoveLine,
    },
    /// The device acknowledged another move than the one the host sent.
    AckMismatch {
        /// The move the host sent.
        sent: Move,
        /// The move the device reported.
        got: Move,
    },
    /// A take-back line that does not match the last move.
    TakeBackMismatch {
        /// The line.
        line: MoveLine,
    },
    /// An undecodable line (bytes may have been lost).
    BadLine,
    /// An overlong line (bytes may have been lost).
    Overlong,
    /// A mid-game `Flip --> …`: the device changed the side to move.
    Flipped,
}

/// How a resynchronisation through `P` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resync {
    /// The device's position equals the driver's.
    InSync,
    /// The device was one move ahead; the move was applied.
    Applied(Move),
    /// The device was one move behind; the driver's last move was undone.
    Undone(Move),
}

/// Something the driver saw or did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// The device acknowledged the host's move; it is now played.
    Acknowledged(Move),
    /// The device reported a move (its engine's reply, or a move made on the
    /// board with Xmit on); it is now played.
    DeviceMove(Move),
    /// A repeated acknowledgement of a move already played; ignored.
    Duplicate(Move),
    /// The device moved for the host's side without being asked; the move is
    /// played (and a `T` queued when so configured).
    OutOfTurn(Move),
    /// A move was taken back (the device sent a `T` line).
    TakenBack(Move),
    /// The device started a new game (unprompted or after `N`); the driver
    /// reset its position and re-sent its settings.
    NewGame,
    /// The driver noticed a disagreement (and sent `P` when configured).
    Disagreement(Disagreement),
    /// A `P` diagram was compared with the driver's position.
    Resynced(Resync),
    /// A `P` diagram matched neither the driver's position nor one move
    /// from it: the driver refuses moves until [`Driver::adopt`] or a new
    /// game.
    OutOfSync {
        /// The device's board.
        device: Box<Board>,
    },
    /// `ID. UCBII V1.09`.
    Identity {
        /// Model.
        model: String,
        /// Version.
        version: String,
    },
    /// `Xmit on/off`.
    Xmit(bool),
    /// `.Referee on/off`.
    Referee(bool),
    /// A `Level` line.
    Level(Level),
    /// A `Clock` line.
    Clock {
        /// White's clock.
        white: ClockTime,
        /// Black's clock.
        black: ClockTime,
    },
    /// A line that does not decode (column and field in the error).
    BadLine {
        /// The error.
        error: DecodeError,
        /// The line.
        line: Vec<u8>,
    },
    /// A line longer than the framer's cap was skipped.
    Overlong,
    /// Any other line (game list lines, unknown text), verbatim.
    Other(Vec<u8>),
}

/// Why a host action was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DriverError {
    /// Not the host's side to move.
    #[error("not the host's turn")]
    NotHostTurn,
    /// The previous host move has not been acknowledged yet.
    #[error("a move is awaiting acknowledgement")]
    MovePending,
    /// The move is not legal in the tracked position.
    #[error("illegal move {0}")]
    Illegal(Move),
    /// The driver is out of sync with the device.
    #[error("out of sync with the device")]
    OutOfSync,
    /// Nothing to take back.
    #[error("no move to take back")]
    NothingToTakeBack,
}

#[derive(Debug, Clone, Copy)]
struct Ply {
    before: Position,
    mv: Move,
}

#[derive(Debug, Clone)]
struct Queued {
    bytes: Vec<u8>,
    /// For move commands: the ply index the move will occupy.
    move_ply: Option<(usize, bool)>,
}

#[derive(Debug, Clone)]
struct Resend<T> {
    bytes: Vec<u8>,
    at: T,
    ply: usize,
    generation: u64,
}

/// The host-side Citrine driver. See the [module docs](self); `T` is the
/// caller's clock type ([`Timestamp`]).
#[derive(Debug)]
pub struct Driver<T> {
    config: DriverConfig,
    framer: LineFramer,
    inbuf: Vec<u8>,
    position: Position,
    history: Vec<Ply>,
    pending: Option<Move>,
    queue: VecDeque<Queued>,
    resend: Option<Resend<T>>,
    last_write: Option<T>,
    events: VecDeque<Event>,
    diagram: Option<(Board, usize)>,
    resync_requested: bool,
    out_of_sync: bool,
    generation: u64,
    disagreements: u64,
    /// `T` commands sent or queued whose `T` line has not arrived.
    take_backs: usize,
}

impl<T: Timestamp> Driver<T> {
    /// A driver at the start position; queues the configured settings.
    pub fn new(config: DriverConfig) -> Self {
        let mut d = Driver {
            framer: LineFramer::new(config.max_line_len),
            config,
            inbuf: Vec::new(),
            position: Position::startpos(),
            history: Vec::new(),
            pending: None,
            queue: VecDeque::new(),
            resend: None,
            last_write: None,
            events: VecDeque::new(),
            diagram: None,
            resync_requested: false,
            out_of_sync: false,
            generation: 0,
            disagreements: 0,
            take_backs: 0,
        };
        d.queue_settings();
        d
    }

    /// The tracked position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played since the start position (or the adopted one).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|p| p.mv)
    }

    /// The host move awaiting acknowledgement, if any.
    pub fn pending(&self) -> Option<Move> {
        self.pending
    }

    /// `true` after a `P` diagram matched nothing (see [`Event::OutOfSync`]).
    pub fn is_out_of_sync(&self) -> bool {
        self.out_of_sync
    }

    /// `true` while a `P` resynchronisation is pending.
    pub fn is_resyncing(&self) -> bool {
        self.resync_requested
    }

    /// Number of disagreements seen so far.
    pub fn disagreements(&self) -> u64 {
        self.disagreements
    }

    /// `true` when nothing is queued or awaited: no command to send, no
    /// pending acknowledgement, no resync, no take-back in flight.
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty()
            && self.pending.is_none()
            && !self.resync_requested
            && self.take_backs == 0
    }

    /// `true` when the host may move now: its side to move, nothing pending,
    /// in sync, and the game not over.
    pub fn is_host_turn(&self) -> bool {
        self.pending.is_none()
            && !self.out_of_sync
            && !self.resync_requested
            && self
                .config
                .host_color
                .is_none_or(|c| c == self.position.turn())
            && self.position.outcome().is_none()
            && self.take_backs == 0
    }

    /// Plays the host's move: checks it, queues `M from to`, and waits for
    /// the device's acknowledgement ([`Event::Acknowledged`]).
    ///
    /// # Errors
    /// [`DriverError`] when it is not the host's turn, a move is pending,
    /// the driver is out of sync, or the move is illegal.
    pub fn play(&mut self, mv: Move) -> Result<(), DriverError> {
        if self.out_of_sync || self.resync_requested {
            return Err(DriverError::OutOfSync);
        }
        if self.pending.is_some() {
            return Err(DriverError::MovePending);
        }
        if self
            .config
            .host_color
            .is_some_and(|c| c != self.position.turn())
        {
            return Err(DriverError::NotHostTurn);
        }
        if !self.position.is_legal(mv) {
            return Err(DriverError::Illegal(mv));
        }
        self.pending = Some(mv);
        let capture = mv.is_en_passant() || self.position.piece_at(mv.to()).is_some();
        self.queue.push_back(Queued {
            bytes: Command::Move(to_host_move(mv)).to_bytes(),
            move_ply: Some((self.history.len(), capture)),
        });
        Ok(())
    }

    /// Queues `T` (take back one move); the position changes when the
    /// device's `T` line arrives ([`Event::TakenBack`]).
    ///
    /// # Errors
    /// [`DriverError::NothingToTakeBack`] at the start position,
    /// [`DriverError::MovePending`] while a move awaits acknowledgement.
    pub fn take_back(&mut self) -> Result<(), DriverError> {
        if self.pending.is_some() {
            return Err(DriverError::MovePending);
        }
        if self.history.len() <= self.take_backs {
            return Err(DriverError::NothingToTakeBack);
        }
        self.send(Command::TakeBack);
        Ok(())
    }

    /// Queues `N` (new game); the position resets when `New Game` arrives.
    pub fn new_game(&mut self) {
        self.send(Command::NewGame);
    }

    /// Queues `P` and compares the device's diagram with the tracked
    /// position when it arrives ([`Event::Resynced`] or
    /// [`Event::OutOfSync`]).
    pub fn request_position(&mut self) {
        if !self.resync_requested {
            self.resync_requested = true;
            self.send(Command::ShowPosition);
        }
    }

    /// Replaces the tracked position (e.g. after the user fixed the board)
    /// and clears the out-of-sync state.
    pub fn adopt(&mut self, position: Position) {
        self.position = position;
        self.history.clear();
        self.pending = None;
        self.out_of_sync = false;
        self.generation += 1;
    }

    /// Queues any command line (paced like the others).
    /// A `T` sent this way is awaited like one from [`take_back`](Self::take_back).
    pub fn send(&mut self, cmd: Command<'_>) {
        if cmd == Command::TakeBack {
            self.take_backs += 1;
        }
        self.queue.push_back(Queued {
            bytes: cmd.to_bytes(),
            move_ply: None,
        });
    }

    /// The next command line to write (with CR LF), if one is due at `now`.
    pub fn poll_transmit(&mut self, now: T) -> Option<Vec<u8>> {
        if let Some(last) = self.last_write
            && now < last.saturating_add(self.config.min_gap)
        {
            return None;
        }
        // A due resend goes first, unless it became stale.
        if let Some(r) = &self.resend
            && r.at <= now
        {
            let r = self.resend.take().expect("checked");
            let stale = r.generation != self.generation || self.history.len() > r.ply + 1;
            if !stale {
                self.last_write = Some(now);
                return Some(r.bytes);
            }
        }
        let q = self.queue.pop_front()?;
        self.last_write = Some(now);
        if let (Some((ply, capture)), Some(delay)) = (q.move_ply, self.config.resend) {
            let delay = if capture {
                self.config.resend_after_capture
            } else {
                delay
            };
            self.resend = Some(Resend {
                bytes: q.bytes.clone(),
                at: now.saturating_add(delay),
                ply,
                generation: self.generation,
            });
        }
        Some(q.bytes)
    }

    /// When [`poll_transmit`](Self::poll_transmit) may next return a line
    /// (`now` or later); `None` when nothing is queued.
    pub fn poll_timeout(&self, now: T) -> Option<T> {
        let paced = self
            .last_write
            .map_or(now, |t| t.saturating_add(self.config.min_gap).max(now));
        if !self.queue.is_empty() {
            return Some(paced);
        }
        self.resend.as_ref().map(|r| r.at.max(paced))
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// Feeds bytes read from the device.
    pub fn handle_input(&mut self, bytes: &[u8]) {
        self.inbuf.extend_from_slice(bytes);
        let mut buf = core::mem::take(&mut self.inbuf);
        let mut start = 0;
        loop {
            let step = self.framer.next(&buf[start..]);
            match step.frame {
                Some(Frame::Line(l)) => {
                    let line = l.to_vec();
                    self.handle_line(&line);
                }
                Some(Frame::Overlong { .. }) => {
                    self.events.push_back(Event::Overlong);
                    self.disagree(Disagreement::Overlong);
                }
                None => {}
            }
            start += step.consumed;
            if step.frame.is_none() {
                break;
            }
        }
        buf.drain(..start);
        self.inbuf = buf;
    }

    fn queue_settings(&mut self) {
        if let Some(x) = self.config.xmit {
            self.send(Command::Xmit(Some(x)));
        }
        if let Some(u) = self.config.referee {
            self.send(Command::Referee(Some(u)));
        }
    }

    fn disagree(&mut self, d: Disagreement) {
        self.disagreements += 1;
        self.events.push_back(Event::Disagreement(d));
        if self.config.auto_resync {
            self.request_position();
        }
    }

    fn apply(&mut self, mv: Move) {
        let before = self.position;
        self.position = before.play(mv).expect("checked legal");
        self.history.push(Ply { before, mv });
    }

    /// The (move number, colour) of the next ply.
    fn next_ply_id(&self) -> (u32, Color) {
        (self.position.fullmove_number(), self.position.turn())
    }

    fn handle_line(&mut self, line: &[u8]) {
        let reply = match Reply::decode(line) {
            Ok(r) => r,
            Err(error) => {
                self.events.push_back(Event::BadLine {
                    error,
                    line: line.to_vec(),
                });
                self.disagree(Disagreement::BadLine);
                return;
            }
        };
        match reply {
            Reply::Move(m) => self.on_move_line(m),
            Reply::TakeBack(m) => self.on_take_back(m),
            Reply::NewGame => {
                self.position = Position::startpos();
                self.history.clear();
                self.pending = None;
                self.resend = None;
                self.out_of_sync = false;
                self.generation += 1;
                // Drop queued moves and take-backs of the old game.
                self.queue
                    .retain(|q| q.move_ply.is_none() && !q.bytes.starts_with(b"T"));
                self.take_backs = 0;
                self.events.push_back(Event::NewGame);
                self.queue_settings();
            }
            Reply::PositionBoard => self.diagram = Some(([None; 64], 0)),
            Reply::DiagramRow(row) => {
                if let Some((board, n)) = &mut self.diagram {
                    let rank = row.rank().map_or(7 - *n, |r| usize::from(r) - 1);
                    for (file, cell) in row.cells().iter().enumerate() {
                        board[rank * 8 + file] = *cell;
                    }
                    *n += 1;
                    if *n == 8 {
                        let board = *board;
                        self.diagram = None;
                        self.on_diagram(&board);
                    }
                } else {
                    self.events.push_back(Event::Other(line.to_vec()));
                }
            }
            Reply::Identity { model, version } => self.events.push_back(Event::Identity {
                model: model.as_str().to_owned(),
                version: version.as_str().to_owned(),
            }),
            Reply::Xmit(on) => self.events.push_back(Event::Xmit(on)),
            Reply::Referee(on) => self.events.push_back(Event::Referee(on)),
            Reply::Level(l) => self.events.push_back(Event::Level(l)),
            Reply::Clock { white, black } => self.events.push_back(Event::Clock { white, black }),
            Reply::Flip { to_move: Some(_) } => self.disagree(Disagreement::Flipped),
            _ => self.events.push_back(Event::Other(line.to_vec())),
        }
    }

    fn on_move_line(&mut self, line: MoveLine) {
        let color = if line.black {
            Color::Black
        } else {
            Color::White
        };
        let id = (u32::from(line.number.get()), color);
        if id == self.next_ply_id() {
            let mv = match to_move(&self.position, &line.text) {
                Ok(mv) => mv,
                Err(error) => return self.disagree(Disagreement::IllegalMove { line, error }),
            };
            match self.pending {
                Some(sent) if sent == mv => {
                    self.pending = None;
                    self.apply(mv);
                    self.events.push_back(Event::Acknowledged(mv));
                }
                _ if self.config.host_color == Some(color) => {
                    // The device moved for the host's side. A host move not
                    // yet acknowledged is void: the device will not play it.
                    if self.pending.take().is_some() {
                        self.queue.retain(|q| q.move_ply.is_none());
                        self.resend = None;
                    }
                    self.apply(mv);
                    self.events.push_back(Event::OutOfTurn(mv));
                    if self.config.take_back_out_of_turn {
                        self.send(Command::TakeBack);
                    }
                }
                Some(sent) => {
                    self.pending = None;
                    self.apply(mv);
                    self.disagree(Disagreement::AckMismatch { sent, got: mv });
                }
                None => {
                    self.apply(mv);
                    self.events.push_back(Event::DeviceMove(mv));
                }
            }
            return;
        }
        // The acknowledgement of our move was lost and the device's reply
        // arrived: the reply proves the device played our move.
        if let Some(sent) = self.pending
            && let Ok(after) = self.position.play(sent)
            && id == (after.fullmove_number(), after.turn())
            && let Ok(reply) = to_move(&after, &line.text)
        {
            self.pending = None;
            self.apply(sent);
            self.events.push_back(Event::Acknowledged(sent));
            self.apply(reply);
            self.events.push_back(Event::DeviceMove(reply));
            return;
        }
        // A ply already played: a duplicate when it is the same move.
        let played = self
            .history
            .iter()
            .rev()
            .find(|p| (p.before.fullmove_number(), p.before.turn()) == id);
        if let Some(p) = played
            && to_move(&p.before, &line.text) == Ok(p.mv)
        {
            let mv = p.mv;
            self.events.push_back(Event::Duplicate(mv));
            return;
        }
        self.disagree(Disagreement::UnexpectedPly { line });
    }

    fn on_take_back(&mut self, line: MoveLine) {
        let Some(last) = self.history.last().copied() else {
            return self.disagree(Disagreement::TakeBackMismatch { line });
        };
        let number_ok = u32::from(line.number.get()) == last.before.fullmove_number();
        // A comma marks Black; without it the colour follows from the game.
        let color_ok = !line.black || last.before.turn() == Color::Black;
        if number_ok && color_ok && to_move(&last.before, &line.text) == Ok(last.mv) {
            self.history.pop();
            self.position = last.before;
            self.pending = None;
            self.generation += 1;
            self.take_backs = self.take_backs.saturating_sub(1);
            self.events.push_back(Event::TakenBack(last.mv));
        } else {
            self.disagree(Disagreement::TakeBackMismatch { line });
        }
    }

    fn on_diagram(&mut self, device: &Board) {
        self.resync_requested = false;
        if board_of(&self.position) == *device {
            self.out_of_sync = false;
            self.events.push_back(Event::Resynced(Resync::InSync));
            return;
        }
        let ahead: Vec<Move> = self
            .position
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| self.position.play(m).is_ok_and(|p| board_of(&p) == *device))
            .collect();
        if let [mv] = ahead[..] {
            self.pending = None;
            self.apply(mv);
            self.out_of_sync = false;
            self.events.push_back(Event::Resynced(Resync::Applied(mv)));
            return;
        }
        if let Some(last) = self.history.last().copied()
            && board_of(&last.before) == *device
        {
            self.history.pop();
            self.position = last.before;
            self.pending = None;
            self.generation += 1;
            self.out_of_sync = false;
            self.events
                .push_back(Event::Resynced(Resync::Undone(last.mv)));
            return;
        }
        self.out_of_sync = true;
        self.events.push_back(Event::OutOfSync {
            device: Box::new(*device),
        });
    }
}
