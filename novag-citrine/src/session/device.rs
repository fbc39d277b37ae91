//! A simulated Citrine: a sans-IO state machine that answers commands the
//! way the spec note's examples and the captured device output show
//! ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and replies (device
//! -> host)*), plays legal replies with the family's built-in
//! [`Player`], and can be told to misbehave like
//! real devices do ([`spec::citrine`](crate::spec::citrine), *Known field problems*).
//!
//! # Call order
//! The session shape of the [module](super): feed every byte the host
//! writes to [`Device::handle_input`] (or decoded commands to
//! [`Device::handle_message`]); call [`Device::handle_timeout`] when
//! [`Device::poll_timeout`] has passed (the engine's reply is due); then
//! write what [`Device::poll_transmit`] returns, drain
//! [`Device::poll_event`], and wait for input or until
//! [`Device::poll_timeout`]. Frame errors a codec reports go to
//! [`Device::handle_frame_error`], the end of the stream to
//! [`Device::handle_close`]. Inputs from the physical board are
//! [`Device::handle_board_move`] and [`Device::handle_start_position_set_up`].
//!
//! # Our side
//! The device's side is the engine's colour ([`DeviceConfig::engine_color`]
//! at every new game; `F` and `J` change it): [`GameEnded`]'s outcome is
//! the engine's, [`Device::is_our_turn`] is true when the engine is to
//! move, and [`Device::send_move`] plays the engine's move instead of the
//! built-in [`Player`]'s choice. Moves the person at the board makes come
//! in through [`Device::handle_board_move`] (an input from the physical
//! board).
//!
//! # Silence
//! The simulated device has no silence rule: no command of the protocol
//! asks the host to answer, and the Citrine waits for the user's move
//! without a bound.
//!
//! # Behaviour (where [`spec::citrine`](crate::spec::citrine) is silent, the simulation's choice)
//! - `M`: a legal move for the side to move is played and acknowledged
//!   (`M   1   e2-e4 |`); if it is then the engine's side to move (and
//!   referee mode is off), the engine answers after
//!   [`DeviceConfig::think_time`] (`M   1,  e7-e5 |`). The same move sent
//!   again while it is the last move played is acknowledged again (a
//!   duplicate acknowledgement); other illegal moves are ignored.
//! - `T` takes back the last move (`T   1,  e7-e5`); the engine then waits.
//! - `N` answers `New Game`; like the real device, the simulation forgets
//!   Xmit and referee settings at every new game.
//! - `O` resets to the start position without a reply *(reply
//!   unconfirmed)*; `P <text>` (set-up) is ignored *(semantics
//!   unconfirmed)*.
//! - `F` at the start position makes the engine take White and move
//!   (`Flip`); mid-game the engine takes the side to move and moves; the
//!   reply names the user's new side (`Flip --> Black`).
//! - `J` makes the engine move for the side to move.
//! - `P` prints `Position Board` and 8 ranks (`8 br bn ...`, `::` on empty
//!   dark squares, blanks on empty light squares — layout unconfirmed).
//! - `G` prints the game list of the last 112 plies in the captured
//!   device's columns, without piece letters.
//! - After an out-of-turn move (misbehaviour switch) the engine waits until
//!   a command that changes the game (`M`, `T`, `N`, `O`, `F`, `J`); queries
//!   (`P`, `G`, `C`, `I`, `L`, `X`, `U`) do not wake it.
//! - Unknown commands are ignored.

use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::time::Duration;

use board_core::player::Player;

use super::{
    CommandError, EndReason, GameEnded, GameStarted, Outcome, Timestamp, Transmit, outcome_of,
};
use crate::convert::{host_move_to_move, to_text};
use crate::decode::decode;
use crate::error::FrameError;
use crate::framer::{Frame, FrameBuffer, Framer, line_buffer};
use crate::message::{Command, DiagramRow, HostMove, LevelTarget, MoveLine, RawLine, Reply};
use crate::types::{ClockTime, Level, MoveNumber, Token};
use crate::vocab::{Color, Move, Position, square};

/// Something the simulated device saw or did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// A game started (`N`, `O`, or the pieces set up in the start
    /// position).
    GameStarted(GameStarted),
    /// The game ended (outcome from the engine's side); delivered before
    /// the device forgets it.
    GameEnded(GameEnded),
    /// A command line that did not decode (ignored, as the device ignores
    /// what it does not understand).
    Malformed(FrameError),
    /// A line with an unknown command letter (ignored).
    Unrecognised(RawLine<'static>),
    /// The output queue was full ([`DeviceConfig::max_queued_lines`]): the
    /// answer to this command was not queued.
    Overloaded(Command<'static>),
}

impl core::fmt::Display for Event {
    /// The event in words, for logs and transcripts (moves in UCI).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Event::GameStarted(_) => f.write_str("new game"),
            Event::GameEnded(e) => e.write_line(f, "the engine"),
            Event::Malformed(e) => write!(f, "bad command line: {e}"),
            Event::Unrecognised(raw) => write!(f, "unrecognised command {}", raw.describe()),
            Event::Overloaded(cmd) => {
                write!(f, "output queue full, not answered: {}", cmd.describe())
            }
        }
    }
}

/// Ways the simulated device can misbehave (all off by default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Misbehaviour {
    /// Every n-th acknowledgement of a host move is sent twice (0: never);
    /// odd occurrences repeat it at once, even ones after the engine's
    /// reply.
    pub duplicate_ack_every: u32,
    /// Once, when the game has this many plies, the device sends an
    /// unprompted `New Game` and resets (as when the pieces are set up in
    /// the start position).
    pub new_game_at_ply: Option<usize>,
    /// Once, when it is the host's turn at this many plies, the device plays
    /// a move for the host's side (as when the engine's king is lifted); the
    /// engine then waits for the host's next command.
    pub out_of_turn_at_ply: Option<usize>,
    /// Every n-th move line the device sends is cut to its first half (0:
    /// never).
    pub truncate_every: u32,
    /// The device receives and plays but never sends (a Bluetooth adapter
    /// that receives but cannot send; [`spec::citrine`](crate::spec::citrine), *Known field
    /// problems*).
    pub mute: bool,
    /// Every line the device sends is replaced by [`GARBAGE_LINE`]: line
    /// noise, a wrong baud rate or not a Citrine at all.
    pub garbage: bool,
}

/// The line [`Misbehaviour::garbage`] sends instead of each reply.
///
/// A move line whose move is control bytes, an escape sequence and a byte
/// that is not UTF-8: it does not decode.
pub const GARBAGE_LINE: &[u8] = b"M   1, \x1b[2J\x07\xff\x00 garbage\r\n";

/// Simulation settings.
#[derive(Debug, Clone)]
pub struct DeviceConfig {
    /// The side the device's engine plays (default Black).
    pub engine_color: Color,
    /// Delay before the engine's reply (default 50 ms).
    pub think_time: Duration,
    /// Seed of the engine's move choice.
    pub seed: u64,
    /// Misbehaviour switches.
    pub misbehaviour: Misbehaviour,
    /// Most lines queued for the host at a time (default 1024); a command
    /// whose answer does not fit is dropped with [`Event::Overloaded`].
    pub max_queued_lines: usize,
}

impl Default for DeviceConfig {
    fn default() -> Self {
        DeviceConfig {
            engine_color: Color::Black,
            think_time: Duration::from_millis(50),
            seed: 1,
            misbehaviour: Misbehaviour::default(),
            max_queued_lines: 1024,
        }
    }
}

/// The simulated Citrine. See the [module docs](self); `T` is the caller's
/// clock type ([`Timestamp`]).
#[derive(Debug)]
pub struct Device<T> {
    config: DeviceConfig,
    player: Player,
    /// The input lines (taken out while they are handled).
    input: Option<FrameBuffer<Framer, alloc::boxed::Box<[u8]>>>,
    now: T,
    start: Position,
    ended: bool,
    events: VecDeque<Event>,
    position: Position,
    history: Vec<(Position, Move)>,
    /// The moves of `history`, for [`Device::moves`] (a slice).
    moves: Vec<Move>,
    /// The host closed the stream ([`Device::handle_close`]).
    closed: bool,
    engine_color: Color,
    xmit: bool,
    referee: bool,
    levels: [Level; 2],
    clocks: [u32; 2],
    clock_since: Option<T>,
    out: VecDeque<(T, Vec<u8>)>,
    engine_due: Option<T>,
    engine_paused: bool,
    oot_due: Option<T>,
    acks: u32,
    move_lines: u32,
    new_game_done: bool,
    oot_done: bool,
    pending_dup: Option<Vec<u8>>,
    commands: u64,
}

impl<T: Timestamp> Device<T> {
    /// A device at the start position at time `now`, settings at power-on
    /// values (Xmit off, referee off, levels TR1).
    pub fn new(config: DeviceConfig, now: T) -> Self {
        Device {
            player: Player::new(config.seed),
            engine_color: config.engine_color,
            config,
            input: Some(line_buffer(crate::framer::DEFAULT_MAX_LEN)),
            now,
            start: Position::startpos(),
            ended: false,
            events: VecDeque::new(),
            position: Position::startpos(),
            history: Vec::new(),
            moves: Vec::new(),
            closed: false,
            xmit: false,
            referee: false,
            levels: [Level::DEFAULT; 2],
            clocks: [0; 2],
            clock_since: Some(now),
            out: VecDeque::new(),
            engine_due: None,
            engine_paused: false,
            oot_due: None,
            acks: 0,
            move_lines: 0,
            new_game_done: false,
            oot_done: false,
            pending_dup: None,
            commands: 0,
        }
    }

    /// The device's position; `None` once the stream is closed
    /// ([`handle_close`](Self::handle_close)). A finished game's final
    /// position stays until the next new game.
    pub fn position(&self) -> Option<&Position> {
        (!self.closed).then_some(&self.position)
    }

    /// The position the current game started from; `None` once closed.
    pub fn start_position(&self) -> Option<&Position> {
        (!self.closed).then_some(&self.start)
    }

    /// The moves played from [`start_position`](Self::start_position), in
    /// order (empty once closed).
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// `true` when the engine's side (the device's "our side", see the
    /// [module docs](self#our-side)) is to move in a game in progress and
    /// referee mode is off: the built-in player's reply is due, or the
    /// caller may give one with [`send_move`](Self::send_move). False again
    /// as soon as the engine's move is played.
    pub fn is_our_turn(&self) -> bool {
        !self.closed
            && !self.referee
            && self.position.outcome().is_none()
            && self.position.side_to_move() == self.engine_color
    }

    /// The engine's colour now (`DeviceConfig::engine_color` at every new
    /// game; `F` and `J` change it).
    pub fn engine_color(&self) -> Color {
        self.engine_color
    }

    /// Xmit setting.
    pub fn xmit(&self) -> bool {
        self.xmit
    }

    /// Referee setting.
    pub fn referee(&self) -> bool {
        self.referee
    }

    /// Number of command lines received (decoded or not).
    pub fn commands_received(&self) -> u64 {
        self.commands
    }

    /// The pieces are set up in the start position on the board at `now`:
    /// the device starts a new game and sends `New Game` unprompted.
    pub fn handle_start_position_set_up(&mut self, now: T) {
        self.handle_timeout(now);
        if self.closed {
            return;
        }
        self.reset(self.now);
        self.push_line(self.now, &Reply::NewGame);
    }

    /// The engine's move at `now`, chosen by the caller instead of the
    /// built-in [`Player`]: played, and sent to the host as the engine's
    /// `M` line (`M   1,  e7-e5 |`); a reply the built-in player had
    /// scheduled is cancelled.
    ///
    /// # Errors
    /// [`CommandError::NoGame`] when the game is over or the stream closed,
    /// [`CommandError::NotYourTurn`] unless
    /// [`is_our_turn`](Self::is_our_turn), [`CommandError::MoveLimit`] past
    /// move 9999 (the largest number the Citrine prints),
    /// [`CommandError::IllegalMove`] for a move not legal in the position.
    pub fn send_move(&mut self, mv: Move, now: T) -> Result<(), CommandError> {
        self.handle_timeout(now);
        if !self.closed && self.position.outcome().is_none() && !self.is_our_turn() {
            return Err(CommandError::NotYourTurn);
        }
        self.check_move(mv)?;
        let now = self.now;
        self.engine_due = None;
        let line = self.play(mv, now);
        self.push_move_line(now, Reply::Move(line));
        self.schedule_engine(now);
        Ok(())
    }

    /// A move made by hand on the board at `now` (by the person at the
    /// board, for either side): played, and sent to the host when Xmit is
    /// on. An input from the physical board, not
    /// [`send_move`](Self::send_move): the device's own moves are the
    /// engine's.
    ///
    /// # Errors
    /// [`CommandError::NoGame`] when the game is over or the stream closed,
    /// [`CommandError::MoveLimit`] past move 9999,
    /// [`CommandError::IllegalMove`] for a move not legal in the position.
    pub fn handle_board_move(&mut self, mv: Move, now: T) -> Result<(), CommandError> {
        self.handle_timeout(now);
        self.check_move(mv)?;
        let now = self.now;
        let line = self.play(mv, now);
        if self.xmit {
            self.push_move_line(now, Reply::Move(line));
        }
        self.schedule_engine(now);
        Ok(())
    }

    fn check_move(&self, mv: Move) -> Result<(), CommandError> {
        if self.closed || self.position.outcome().is_some() {
            return Err(CommandError::NoGame);
        }
        if self.position.fullmove_number() > u32::from(MoveNumber::MAX) {
            return Err(CommandError::MoveLimit);
        }
        if !self.position.is_legal(mv) {
            return Err(CommandError::IllegalMove(mv));
        }
        Ok(())
    }

    /// The host closed the stream at `now`: a game in progress (a move
    /// played, no result) ends with [`Outcome::Unknown`] and
    /// [`EndReason::Closed`] ([`Event::GameEnded`] is queued before the
    /// game is cleared). From then on there is no game
    /// ([`position`](Self::position) is `None`), inputs are ignored and
    /// nothing is transmitted or scheduled.
    pub fn handle_close(&mut self, now: T) {
        self.handle_timeout(now);
        if self.closed {
            return;
        }
        if !self.ended && !self.history.is_empty() {
            self.events.push_back(Event::GameEnded(GameEnded {
                outcome: Outcome::Unknown,
                reason: EndReason::Closed,
                start: self.start,
                moves: core::mem::take(&mut self.moves),
            }));
        }
        self.closed = true;
        self.history.clear();
        self.moves.clear();
        self.out.clear();
        self.engine_due = None;
        self.oot_due = None;
        self.pending_dup = None;
        if let Some(input) = &mut self.input {
            input.clear();
        }
    }

    /// Feeds bytes the host wrote at `now`: frames them into lines (CR, LF
    /// or CR LF) and handles each command.
    pub fn handle_input(&mut self, bytes: &[u8], now: T) {
        self.handle_timeout(now);
        if self.closed {
            return;
        }
        let Some(mut input) = self.input.take() else {
            return;
        };
        input.feed(bytes, |frame| {
            self.commands += 1;
            match frame {
                Frame::Complete(line) => match decode::<Command<'_>>(line) {
                    Ok(cmd) => self.on_command(cmd),
                    Err(e) => self
                        .events
                        .push_back(Event::Malformed(FrameError::Malformed(e))),
                },
                Frame::Overlong { len, max } => {
                    self.events
                        .push_back(Event::Malformed(FrameError::Overlong { len, max }));
                }
            }
        });
        self.input = Some(input);
    }

    /// Handles one command already decoded (by a codec) at `now`.
    pub fn handle_message(&mut self, cmd: &Command<'_>, now: T) {
        self.handle_timeout(now);
        if self.closed {
            return;
        }
        self.commands += 1;
        self.on_command(cmd.clone());
    }

    /// Handles a line that could not be framed or decoded (a codec's item
    /// error) at `now`: ignored, reported as [`Event::Malformed`].
    pub fn handle_frame_error(&mut self, error: &FrameError, now: T) {
        self.handle_timeout(now);
        if self.closed {
            return;
        }
        self.commands += 1;
        self.events.push_back(Event::Malformed(*error));
    }

    /// Advances the device's clock to `now` and runs its timers (the
    /// engine's reply, the misbehaviour switches).
    pub fn handle_timeout(&mut self, now: T) {
        if now > self.now {
            self.now = now;
        }
        if !self.closed {
            self.run_timers(self.now);
        }
    }

    /// The next line to write (with CR LF), if one is due at the time of
    /// the latest `handle_*` call.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        match self.out.front() {
            Some((at, _)) if *at <= self.now => {
                self.out.pop_front().map(|(_, l)| Transmit::from_vec(l))
            }
            _ => None,
        }
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// When to call [`handle_timeout`](Self::handle_timeout) next (a line
    /// or the engine's move is due); `None` when nothing is scheduled.
    pub fn poll_timeout(&self) -> Option<T> {
        [
            self.out.front().map(|(t, _)| *t),
            self.engine_due,
            self.oot_due,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    fn on_command(&mut self, cmd: Command<'_>) {
        if let Command::Unrecognised(raw) = &cmd {
            self.events
                .push_back(Event::Unrecognised(raw.clone().into_owned()));
            return;
        }
        if self.out.len() >= self.config.max_queued_lines {
            self.events.push_back(Event::Overloaded(cmd.into_owned()));
            return;
        }
        self.command(cmd, self.now);
    }

    fn run_timers(&mut self, now: T) {
        if let Some(t) = self.engine_due
            && t <= now
        {
            self.engine_due = None;
            if let Some(k) = self.config.misbehaviour.new_game_at_ply
                && !self.new_game_done
                && self.history.len() >= k
            {
                self.new_game_done = true;
                self.reset(now);
                self.push_line(now, &Reply::NewGame);
                return;
            }
            self.engine_move(now);
        }
        if let Some(t) = self.oot_due
            && t <= now
        {
            self.oot_due = None;
            if self.position.side_to_move() != self.engine_color
                && let Some(mv) = self.player.choose_chess(&self.position)
            {
                let line = self.play(mv, now);
                self.push_move_line(now, Reply::Move(line));
                self.engine_paused = true;
            }
        }
    }

    fn reset(&mut self, now: T) {
        if !self.ended && !self.history.is_empty() {
            self.events.push_back(Event::GameEnded(GameEnded {
                outcome: Outcome::Unknown,
                reason: EndReason::NewGame,
                start: self.start,
                moves: self.moves.clone(),
            }));
        }
        self.ended = false;
        self.start = Position::startpos();
        self.events
            .push_back(Event::GameStarted(GameStarted { start: self.start }));
        self.position = Position::startpos();
        self.history.clear();
        self.moves.clear();
        self.engine_color = self.config.engine_color;
        self.xmit = false;
        self.referee = false;
        self.clocks = [0; 2];
        self.clock_since = Some(now);
        self.engine_due = None;
        self.oot_due = None;
        self.engine_paused = false;
        self.pending_dup = None;
        self.out.retain(|(_, l)| !l.starts_with(b"M"));
        self.schedule_engine(now);
    }

    fn tick_clock(&mut self, now: T) {
        if let Some(since) = self.clock_since {
            let side = usize::from(self.position.side_to_move() == Color::Black);
            let secs =
                u32::try_from(now.saturating_duration_since(since).as_secs()).unwrap_or(u32::MAX);
            self.clocks[side] = self.clocks[side].saturating_add(secs);
        }
        self.clock_since = Some(now);
    }

    fn play(&mut self, mv: Move, now: T) -> MoveLine {
        self.tick_clock(now);
        let before = self.position;
        self.position = before.play(mv).expect("checked legal");
        self.history.push((before, mv));
        self.moves.push(mv);
        if !self.ended && self.position.outcome().is_some() {
            self.ended = true;
            let (outcome, reason) = outcome_of(&self.position, Some(self.engine_color));
            self.events.push_back(Event::GameEnded(GameEnded {
                outcome,
                reason,
                start: self.start,
                moves: self.moves.clone(),
            }));
        }
        move_line(&before, mv, true)
    }

    fn push_line(&mut self, at: T, r: &Reply<'_>) {
        self.push_raw(at, r.to_bytes());
    }

    /// Queues a line; lines leave in order.
    fn push_raw(&mut self, at: T, bytes: Vec<u8>) {
        if self.config.misbehaviour.mute {
            return;
        }
        let bytes = if self.config.misbehaviour.garbage {
            GARBAGE_LINE.to_vec()
        } else {
            bytes
        };
        let at = self.out.back().map_or(at, |(t, _)| (*t).max(at));
        self.out.push_back((at, bytes));
    }

    fn push_move_line(&mut self, at: T, r: Reply<'_>) {
        self.move_lines += 1;
        let every = self.config.misbehaviour.truncate_every;
        if every > 0 && self.move_lines.is_multiple_of(every) {
            let full = r.to_bytes();
            let mut cut = full[..(full.len() - 2) / 2].to_vec();
            cut.extend_from_slice(b"\r\n");
            self.push_raw(at, cut);
        } else {
            self.push_line(at, &r);
        }
    }

    fn schedule_engine(&mut self, now: T) {
        let over = self.position.outcome().is_some();
        if !self.referee
            && !self.engine_paused
            && !over
            && self.position.side_to_move() == self.engine_color
        {
            self.engine_due = Some(now.saturating_add(self.config.think_time));
        } else if let Some(k) = self.config.misbehaviour.out_of_turn_at_ply
            && !self.oot_done
            && !over
            && !self.referee
            && self.history.len() >= k
            && self.position.side_to_move() != self.engine_color
        {
            self.oot_done = true;
            // At once, before the host can answer the engine's move.
            self.oot_due = Some(now);
        } else if let Some(k) = self.config.misbehaviour.new_game_at_ply
            && !self.new_game_done
            && self.history.len() >= k
        {
            self.engine_due = Some(now.saturating_add(self.config.think_time));
        }
    }

    fn engine_move(&mut self, now: T) {
        if self.position.side_to_move() != self.engine_color {
            return;
        }
        if let Some(mv) = self.player.choose_chess(&self.position) {
            let line = self.play(mv, now);
            self.push_move_line(now, Reply::Move(line));
            if let Some(dup) = self.pending_dup.take() {
                self.push_raw(now, dup);
            }
            self.schedule_engine(now);
        }
    }

    fn command(&mut self, cmd: Command<'_>, now: T) {
        // A command that changes the game wakes an engine paused after an
        // out-of-turn move; queries do not.
        let wakes = matches!(
            cmd,
            Command::Move(_)
                | Command::TakeBack
                | Command::NewGame
                | Command::Origin
                | Command::EngineMove
                | Command::Flip
        );
        let was_paused = wakes && core::mem::take(&mut self.engine_paused);
        match cmd {
            Command::Clock => {
                self.tick_clock(now);
                let t = |s| ClockTime::from_total_seconds(s);
                self.push_line(
                    now,
                    &Reply::Clock {
                        white: t(self.clocks[0]),
                        black: t(self.clocks[1]),
                    },
                );
            }
            Command::Flip => {
                let to_move = self.position.side_to_move();
                self.engine_color = to_move;
                let user = match to_move {
                    Color::White => Color::Black,
                    Color::Black => Color::White,
                };
                let at_start = self.history.is_empty();
                self.push_line(
                    now,
                    &Reply::Flip {
                        to_move: (!at_start).then_some(user),
                    },
                );
                self.schedule_engine(now);
            }
            Command::Game => self.game_list(now),
            Command::Identity => {
                let r = Reply::Identity {
                    model: Token::new("UCBII").expect("valid"),
                    version: Token::new("V1.09").expect("valid"),
                };
                self.push_line(now, &r);
            }
            Command::ShowLevel => self.levels_reply(now),
            Command::SetLevel { target, level } => {
                match target {
                    LevelTarget::Both => self.levels = [level; 2],
                    LevelTarget::BlackOnly => self.levels[1] = level,
                }
                self.levels_reply(now);
            }
            Command::Move(hm) => self.host_move(&hm, now),
            Command::NewGame => {
                self.reset(now);
                self.push_line(now, &Reply::NewGame);
            }
            Command::Origin => self.reset(now),
            Command::ShowPosition => {
                self.push_line(now, &Reply::PositionBoard);
                for rank in (0..8u8).rev() {
                    let mut cells = [None; 8];
                    for (file, c) in cells.iter_mut().enumerate() {
                        *c = square(file as u8, rank).and_then(|sq| self.position.piece_at(sq));
                    }
                    let row = DiagramRow::new(Some(rank + 1), cells).expect("rank in range");
                    self.push_line(now, &Reply::DiagramRow(row));
                }
            }
            Command::TakeBack => {
                if let Some((before, mv)) = self.history.pop() {
                    self.moves.pop();
                    self.tick_clock(now);
                    self.position = before;
                    self.ended = self.position.outcome().is_some();
                    self.engine_due = None;
                    self.pending_dup = None;
                    self.push_line(now, &Reply::TakeBack(move_line(&before, mv, false)));
                }
            }
            Command::Referee(s) => {
                if let Some(on) = s {
                    self.referee = on;
                }
                self.push_line(now, &Reply::Referee(self.referee));
                self.schedule_engine(now);
            }
            Command::Xmit(s) => {
                if let Some(on) = s {
                    self.xmit = on;
                }
                self.push_line(now, &Reply::Xmit(self.xmit));
            }
            Command::EngineMove => {
                if self.position.side_to_move() != self.engine_color {
                    self.engine_color = self.position.side_to_move();
                }
                self.engine_due = Some(now.saturating_add(self.config.think_time));
            }
            Command::SetUp(_) | Command::Unrecognised(_) => {}
        }
        if was_paused && self.engine_due.is_none() {
            self.schedule_engine(now);
        }
    }

    fn host_move(&mut self, hm: &HostMove, now: T) {
        match host_move_to_move(&self.position, hm) {
            Ok(mv) => {
                let line = self.play(mv, now);
                self.acks += 1;
                self.push_move_line(now, Reply::Move(line));
                let every = self.config.misbehaviour.duplicate_ack_every;
                if every > 0 && self.acks.is_multiple_of(every) {
                    let dup = Reply::Move(line).to_bytes();
                    if (self.acks / every) % 2 == 1 {
                        self.push_raw(now, dup);
                    } else {
                        self.pending_dup = Some(dup);
                    }
                }
                self.schedule_engine(now);
            }
            Err(_) => {
                // The same move again while it is the last one: acknowledge
                // it again (the host sends moves twice).
                if let Some(&(before, last)) = self.history.last()
                    && host_move_to_move(&before, hm) == Ok(last)
                {
                    self.push_line(now, &Reply::Move(move_line(&before, last, true)));
                }
            }
        }
    }

    fn levels_reply(&mut self, now: T) {
        let [w, b] = self.levels;
        self.push_line(now, &Reply::Level(w));
        self.push_line(now, &Reply::Level(b));
    }

    fn game_list(&mut self, now: T) {
        // At most the last 112 plies, starting with a white move.
        let mut start = self.history.len().saturating_sub(112);
        while start < self.history.len() && self.history[start].0.side_to_move() != Color::White {
            start += 1;
        }
        let plies = &self.history[start..];
        let last = plies.last().map_or(0, |(b, _)| b.fullmove_number());
        let mut lines = Vec::with_capacity(plies.len().div_ceil(2) + 2);
        lines.push(Reply::Game {
            moves: last.min(u32::from(u16::MAX)) as u16,
        });
        lines.push(Reply::GameColumns);
        for pair in plies.chunks(2) {
            let (b0, m0) = pair[0];
            let white = to_text(&b0, m0, false);
            let black = pair.get(1).map(|&(b1, m1)| to_text(&b1, m1, false));
            lines.push(Reply::GameRow {
                number: move_number(&b0),
                white,
                black,
            });
        }
        for l in lines {
            self.push_line(now, &l);
        }
    }
}

/// The number the device prints for the move played from `position`
/// (capped at 9999).
fn move_number(position: &Position) -> MoveNumber {
    MoveNumber::new(position.fullmove_number().min(9999) as u16).unwrap_or(MoveNumber::ONE)
}

/// The device's line for `mv` played from `before` (`bar`: with the `|`
/// of an acknowledgement or of the engine's move).
fn move_line(before: &Position, mv: Move, bar: bool) -> MoveLine {
    MoveLine {
        number: move_number(before),
        black: before.side_to_move() == Color::Black,
        text: to_text(before, mv, false),
        bar,
    }
}

boardwire_proto::forward_session! {
    impl<T: Timestamp> Session for Device<T> {
        type Incoming<'a> = Command<'a>;
        type Outgoing<'a> = Reply<'a>;
        type Event = Event;

        fn decode_incoming<'a>(
            &self,
            frame: &'a [u8],
        ) -> Result<Command<'a>, crate::error::DecodeError> {
            decode(frame)
        }
        fn decode_outgoing<'a>(&self, frame: &'a [u8]) -> Result<Reply<'a>, crate::error::DecodeError> {
            crate::decode::decode_with(frame, &crate::decode::Leniency::DOCUMENT)
        }
        fn is_unrecognised(msg: &Command<'_>) -> bool {
            matches!(msg, Command::Unrecognised(_))
        }
    }
}
