//! The host-side driver session: a sans-IO state machine that keeps the
//! game in sync with the Citrine ([`spec::citrine`](crate::spec::citrine), *Move text the
//! Citrine prints*, *Pacing* and *Known field problems*).
//!
//! # Call order
//! The session shape of the [module](super): [`Driver::new`] queues the
//! configured settings (`X ON`, `U ...`); feed every byte read from the
//! device to [`Driver::handle_input`] (or decoded lines to
//! [`Driver::handle_message`], frame errors to
//! [`Driver::handle_frame_error`], the end of the stream to
//! [`Driver::handle_close`]); call [`Driver::handle_timeout`] when
//! [`Driver::poll_timeout`] has passed; call the host actions
//! ([`Driver::send_move`], [`Driver::take_back`], [`Driver::new_game`],
//! [`Driver::request_position`], [`Driver::adopt`], [`Driver::send`], each
//! with `now` last, each `-> Result<(), CommandError>`) when the user or engine
//! decides; then write everything [`Driver::poll_transmit`] returns (one
//! command line each), drain [`Driver::poll_event`], and wait for input or
//! until [`Driver::poll_timeout`].
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
//!   referee settings, and `F` (flip) with [`DriverConfig::flip`], are sent
//!   again. That the Citrine forgets them at a new game (and plays Black
//!   after it) is assumed from users' drivers, not confirmed on a device.
//! - **Disagreement**: an illegal, unexpected or undecodable line makes the
//!   driver send `P` (with [`DriverConfig::auto_resync`]) and compare the
//!   device's diagram with its own position: equal → back in sync; one legal
//!   move apart → the move is applied; one move back → the last move is
//!   undone; otherwise [`Event::OutOfSync`] until a new game or
//!   [`Driver::adopt`].
//! - **Silence** (an adapter that receives but cannot send): every command
//!   with a known reply (all but `O` and `P <set-up>`) must be answered
//!   within [`DriverConfig::ack_timeout`]; otherwise [`Event::PeerSilent`].
//!   An undecodable line is not an answer (it starts a resync, and the
//!   answer to `P`, its header and eight rows, is awaited the same way),
//!   and only undecodable lines for [`DriverConfig::ack_timeout`] are
//!   silence too (lines of an unknown kind neither start nor stop that
//!   clock: a device may print lines this crate does not know; they are
//!   not an answer either, and the serial driver limits them in a row). Waiting for the
//!   Citrine's own move is not silence (it may think for as long as its
//!   level allows). Every state that waits for the device (a move awaiting
//!   its acknowledgement, a take-back, a resync) has such a deadline, and
//!   a completed `P` diagram settles all of them.
//!
//! # Games
//! [`Event::GameEnded`] is delivered when a move ends the game (checkmate,
//! stalemate, insufficient material; the position stays until the next
//! `New Game`) or when `New Game` arrives in an unfinished game (outcome
//! [`Outcome::Unknown`]); it carries the start position and the moves, so
//! the game can be logged after the driver has moved on.
//!
//! A game never holds more than [`DriverConfig::max_game_plies`] moves
//! (default [`DEFAULT_MAX_GAME_PLIES`](super::DEFAULT_MAX_GAME_PLIES),
//! 20,000): at the cap the game ends ([`Event::PlyCapReached`], then
//! [`Event::GameEnded`] with [`EndReason::PlyCap`]) and the driver sends
//! `N`, the protocol's one way to end a game (it has no resignation).

use alloc::borrow::ToOwned;
use alloc::boxed::Box;
use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use super::{
    Board, CommandError, EndReason, GameEnded, GameStarted, Outcome, Timestamp, Transmit, board_of,
    outcome_of,
};
use crate::convert::{IllegalMoveError, to_host_move, to_move};
use crate::decode::{Leniency, decode_with};
use crate::error::{FrameError, MessageKind};
use crate::framer::{Frame, FrameBuffer, Framer, line_buffer};
use crate::message::{Command, MoveLine, RawLine, Reply};
use crate::types::{ClockTime, Level, MoveNumber};
use crate::vocab::{Color, Move, Position};

/// Driver settings.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    /// The side the host plays (its moves go out with [`Driver::send_move`]);
    /// `None` lets the host play either side. A device move for the host's
    /// side is out of turn.
    pub host_color: Option<Color>,
    /// Xmit setting to send at start and after every `New Game` (`X ON`).
    pub xmit: Option<bool>,
    /// Referee setting to send at start and after every `New Game`.
    pub referee: Option<bool>,
    /// Send `F` (flip) at start and after every `New Game`, after the Xmit
    /// and referee settings, so that the Citrine takes White and moves
    /// first (default false). For a host playing Black: after a new game
    /// the Citrine plays Black ([`spec::citrine`](crate::spec::citrine), *Commands (host ->
    /// device) and replies (device -> host)*, `F`); that it forgets a flip
    /// at a new game is assumed, not confirmed on a device.
    pub flip: bool,
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
    /// Line length cap of [`Driver::handle_input`]'s framer, in bytes
    /// (default [`framer::DEFAULT_MAX_LEN`](crate::framer::DEFAULT_MAX_LEN)).
    pub max_line_len: usize,
    /// How long the device may take to answer a command with a known reply
    /// before [`Event::PeerSilent`], and how long it may send only
    /// undecodable lines (default 10 s: above the 3 s
    /// resend delay after a capture).
    pub ack_timeout: Duration,
    /// What the decoder of [`Driver::handle_input`] accepts (default
    /// [`Leniency::DOCUMENT`]: also the protocol document's spellings).
    pub leniency: Leniency,
    /// The most moves (plies, both sides', from
    /// [`start_position`](Driver::start_position)) a game holds; default
    /// [`DEFAULT_MAX_GAME_PLIES`](super::DEFAULT_MAX_GAME_PLIES) (20,000,
    /// above the 19,998 plies the Citrine's 4-digit move numbers can
    /// name), 0 counts as 1. The game's memory is then at most 106 bytes
    /// a ply (the 96-byte position before the move, kept to take it back,
    /// with the move, and the 2-byte move of [`Driver::moves`]), 2.1 MB
    /// at the default.
    ///
    /// The move that reaches the cap is played; then the game ends:
    /// [`Event::PlyCapReached`], [`Event::GameEnded`] with
    /// [`Outcome::Unknown`] and [`EndReason::PlyCap`], and `N` is queued,
    /// the protocol's one way to end a game ([`spec::citrine`](crate::spec::citrine),
    /// *Commands (host -> device) and replies (device -> host)*: `N`, new
    /// game). Until the device's `New Game`, a move line for the next ply
    /// is not played ([`Event::Line`]) and a `P` diagram one move ahead is
    /// not applied ([`Event::OutOfSync`]); a take-back (`T` line) still
    /// is.
    pub max_game_plies: u32,
}

impl Default for DriverConfig {
    fn default() -> Self {
        DriverConfig {
            host_color: Some(Color::White),
            xmit: Some(true),
            referee: None,
            flip: false,
            min_gap: Duration::from_millis(100),
            resend: Some(Duration::from_millis(200)),
            resend_after_capture: Duration::from_secs(3),
            auto_resync: true,
            take_back_out_of_turn: true,
            max_line_len: crate::framer::DEFAULT_MAX_LEN,
            ack_timeout: Duration::from_secs(10),
            leniency: Leniency::DOCUMENT,
            max_game_plies: super::DEFAULT_MAX_GAME_PLIES,
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
    /// An undecodable or overlong line (bytes may have been lost).
    BadLine(FrameError),
    /// A mid-game `Flip --> …`: the device changed the side to move.
    Flipped,
}

impl core::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Disagreement::IllegalMove { error, .. } => write!(f, "illegal move line: {error}"),
            Disagreement::UnexpectedPly { line } => {
                write!(f, "move line for an unexpected ply (move {})", line.number)
            }
            Disagreement::AckMismatch { sent, got } => {
                write!(f, "we sent {sent}, the device acknowledged {got}")
            }
            Disagreement::TakeBackMismatch { .. } => {
                f.write_str("take-back line does not match the last move")
            }
            Disagreement::BadLine(FrameError::Overlong { .. }) => {
                f.write_str("overlong line (bytes may be lost)")
            }
            Disagreement::BadLine(_) => f.write_str("undecodable line (bytes may be lost)"),
            Disagreement::Flipped => f.write_str("the device changed the side to move"),
        }
    }
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
    /// A game started: the device sent `New Game` (unprompted or after `N`);
    /// the driver reset its position and re-sent its settings.
    GameStarted(GameStarted),
    /// The game ended (see the [module docs](self#games)).
    GameEnded(GameEnded),
    /// The device did not answer a command within
    /// [`DriverConfig::ack_timeout`], or sent only undecodable lines for
    /// that long (reported once per silence; the
    /// driver keeps going).
    PeerSilent {
        /// The reply that did not come ([`MessageKind::Reply`] when no
        /// command was awaiting an answer and only bad lines came).
        awaiting: MessageKind,
        /// How long the driver waited.
        waited: Duration,
    },
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
    /// A line that did not decode, or an overlong one (skipped).
    Malformed(FrameError),
    /// A line of an unknown kind, verbatim.
    Unrecognised(RawLine<'static>),
    /// Any other reply the driver does not act on (a bare `Flip`, game-list
    /// lines, a diagram row outside a diagram, a move line past
    /// [`DriverConfig::max_game_plies`]).
    Line(Reply<'static>),
    /// The game reached [`DriverConfig::max_game_plies`] (`plies`): it
    /// ends ([`Event::GameEnded`] with [`EndReason::PlyCap`] follows) and
    /// `N` is queued.
    PlyCapReached {
        /// The cap.
        plies: usize,
    },
}

impl core::fmt::Display for Event {
    /// The event in words, for logs and transcripts (`ack e2e4`, `device
    /// e7e5`, `duplicate e2e4`, `takeback e7e5`, ...; moves in UCI).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Event::GameStarted(_) => f.write_str("new game"),
            Event::GameEnded(e) => e.write_line(f, "we"),
            Event::PeerSilent { awaiting, waited } => write!(
                f,
                "device silent: no {awaiting} within {} ms",
                waited.as_millis()
            ),
            Event::Acknowledged(m) => write!(f, "ack {m}"),
            Event::DeviceMove(m) => write!(f, "device {m}"),
            Event::Duplicate(m) => write!(f, "duplicate {m}"),
            Event::OutOfTurn(m) => write!(f, "out-of-turn {m}"),
            Event::TakenBack(m) => write!(f, "takeback {m}"),
            Event::Disagreement(d) => write!(f, "disagreement: {d}"),
            Event::Resynced(Resync::InSync) => {
                f.write_str("resync in sync (the device's board equals ours)")
            }
            Event::Resynced(Resync::Applied(m)) => {
                write!(f, "resync applied {m} (the device was one move ahead)")
            }
            Event::Resynced(Resync::Undone(m)) => {
                write!(f, "resync undid {m} (the device was one move behind)")
            }
            Event::OutOfSync { .. } => f.write_str(
                "out of sync: the device's board matches neither our position nor one move from it",
            ),
            Event::Identity { model, version } => write!(f, "identity {model} {version}"),
            Event::Xmit(on) => write!(f, "xmit {}", if *on { "on" } else { "off" }),
            Event::Referee(on) => write!(f, "referee {}", if *on { "on" } else { "off" }),
            Event::Level(l) => write!(f, "level {} {}", l.kind().reply_name(), l.number()),
            Event::Clock { white, black } => write!(f, "clock {white} {black}"),
            Event::Malformed(e) => write!(f, "{e}"),
            Event::Unrecognised(raw) => write!(f, "unrecognised line {}", raw.describe()),
            Event::Line(r) => write!(f, "line {r}"),
            Event::PlyCapReached { plies } => {
                write!(
                    f,
                    "the game reached {plies} plies, the driver's cap: sending N"
                )
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Ply {
    before: Position,
    mv: Move,
}

#[derive(Debug, Clone)]
struct Queued {
    bytes: Vec<u8>,
    /// The reply this command must get.
    expect: Option<MessageKind>,
    /// A `T` command.
    take_back: bool,
    /// An Xmit/referee/flip setting (re-sent after every `New Game`).
    setting: bool,
    /// For move commands: the ply index the move will occupy, and whether
    /// it captures.
    move_ply: Option<(usize, bool)>,
}

#[derive(Debug, Clone)]
struct Resend<T> {
    bytes: Vec<u8>,
    at: T,
    ply: usize,
    generation: u64,
}

/// The reply a command must get ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and replies (device -> host)*);
/// `None` for `O` and `P <set-up>` (replies unconfirmed) and unknown lines.
fn expected_reply(cmd: &Command<'_>) -> Option<MessageKind> {
    Some(match cmd {
        Command::Clock => MessageKind::Clock,
        Command::Flip => MessageKind::Flip,
        Command::Game => MessageKind::Game,
        Command::Identity => MessageKind::Identity,
        Command::ShowLevel | Command::SetLevel { .. } => MessageKind::Level,
        Command::Move(_) | Command::EngineMove => MessageKind::MoveLine,
        Command::NewGame => MessageKind::NewGame,
        Command::ShowPosition => MessageKind::PositionBoard,
        Command::TakeBack => MessageKind::TakeBackLine,
        Command::Referee(_) => MessageKind::Referee,
        Command::Xmit(_) => MessageKind::Xmit,
        _ => return None,
    })
}

/// The kind of a reply, for matching it with an awaited acknowledgement.
fn reply_kind(r: &Reply<'_>) -> Option<MessageKind> {
    Some(match r {
        Reply::Clock { .. } => MessageKind::Clock,
        Reply::Flip { .. } => MessageKind::Flip,
        Reply::Game { .. } => MessageKind::Game,
        Reply::Identity { .. } => MessageKind::Identity,
        Reply::Level(_) => MessageKind::Level,
        Reply::Move(_) => MessageKind::MoveLine,
        Reply::TakeBack(_) => MessageKind::TakeBackLine,
        Reply::NewGame => MessageKind::NewGame,
        Reply::PositionBoard => MessageKind::PositionBoard,
        Reply::Xmit(_) => MessageKind::Xmit,
        Reply::Referee(_) => MessageKind::Referee,
        _ => return None,
    })
}

/// The host-side Citrine driver. See the [module docs](self); `T` is the
/// caller's clock type ([`Timestamp`]).
#[derive(Debug)]
pub struct Driver<T> {
    config: DriverConfig,
    /// The input lines (taken out while they are handled).
    input: Option<FrameBuffer<Framer, Box<[u8]>>>,
    now: T,
    start: Position,
    position: Position,
    history: Vec<Ply>,
    /// The moves of `history`, for [`Driver::moves`] (a slice).
    moves: Vec<Move>,
    pending: Option<Move>,
    queue: VecDeque<Queued>,
    resend: Option<Resend<T>>,
    last_write: Option<T>,
    events: VecDeque<Event>,
    /// Acknowledgements awaited: the reply kind and its deadline, oldest
    /// first (at most one per command written, and commands are paced).
    awaiting: VecDeque<(MessageKind, T, T)>,
    diagram: Option<(Board, usize)>,
    resync_requested: bool,
    out_of_sync: bool,
    ended: bool,
    generation: u64,
    disagreements: u64,
    /// `T` commands sent or queued whose `T` line has not arrived.
    take_backs: usize,
    /// The peer closed the stream ([`Driver::handle_close`]): no game.
    closed: bool,
    /// Since when only undecodable lines have come (lines of an unknown
    /// kind do not count either way).
    bad_since: Option<T>,
}

impl<T: Timestamp> Driver<T> {
    /// A driver at the start position at time `now`; queues the configured
    /// settings.
    pub fn new(config: DriverConfig, now: T) -> Self {
        let mut d = Driver {
            input: Some(line_buffer(config.max_line_len)),
            config,
            now,
            start: Position::startpos(),
            position: Position::startpos(),
            history: Vec::new(),
            moves: Vec::new(),
            pending: None,
            queue: VecDeque::new(),
            resend: None,
            last_write: None,
            events: VecDeque::new(),
            awaiting: VecDeque::new(),
            diagram: None,
            resync_requested: false,
            out_of_sync: false,
            ended: false,
            generation: 0,
            disagreements: 0,
            take_backs: 0,
            closed: false,
            bad_since: None,
        };
        d.queue_settings();
        d
    }

    /// The configuration.
    pub fn config(&self) -> &DriverConfig {
        &self.config
    }

    /// Sets the silence bound ([`DriverConfig::ack_timeout`]).
    pub fn set_ack_timeout(&mut self, timeout: Duration) {
        self.config.ack_timeout = timeout;
    }

    /// The tracked position; `None` once the stream is closed
    /// ([`handle_close`](Self::handle_close)). A finished game's final
    /// position stays until the next `New Game` (the Citrine still shows
    /// it, and `T` takes moves back from it).
    pub fn position(&self) -> Option<&Position> {
        (!self.closed).then_some(&self.position)
    }

    /// The position the current game started from (the start position, or
    /// the one given to [`adopt`](Self::adopt)); `None` once the stream is
    /// closed.
    pub fn start_position(&self) -> Option<&Position> {
        (!self.closed).then_some(&self.start)
    }

    /// The moves played from [`start_position`](Self::start_position), in
    /// order (empty once the stream is closed).
    pub fn moves(&self) -> &[Move] {
        &self.moves
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

    /// `true` once the game has ended ([`Event::GameEnded`]), until the
    /// next `New Game`.
    pub fn is_game_over(&self) -> bool {
        self.ended
    }

    /// Number of disagreements seen so far.
    pub fn disagreements(&self) -> u64 {
        self.disagreements
    }

    /// Number of command lines queued and not yet written.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// `true` when nothing is queued or awaited: no command to send, no
    /// pending acknowledgement, no resync, no take-back in flight.
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty()
            && self.awaiting.is_empty()
            && self.pending.is_none()
            && !self.resync_requested
            && self.take_backs == 0
    }

    /// `true` when the host may move now: its side to move, no move of ours
    /// sent in this turn, in sync, and the game not over.
    pub fn is_our_turn(&self) -> bool {
        !self.closed
            && self.pending.is_none()
            && !self.out_of_sync
            && !self.resync_requested
            && !self.ended
            && self
                .config
                .host_color
                .is_none_or(|c| c == self.position.side_to_move())
            && self.position.outcome().is_none()
            && self.take_backs == 0
    }

    /// Sends the host's move at `now`: checks it, queues `M from to` (the
    /// wire form made by [`convert::to_host_move`](crate::convert::to_host_move)),
    /// and waits for the device's acknowledgement ([`Event::Acknowledged`]).
    /// [`is_our_turn`](Self::is_our_turn) is false from now on until the
    /// device has answered.
    ///
    /// # Errors
    /// [`CommandError::NoGame`] once the game is over or the stream closed,
    /// [`CommandError::OutOfSync`] while out of sync or resynchronising,
    /// [`CommandError::NotYourTurn`] when it is not the host's side or our
    /// move of this turn is already sent, [`CommandError::MoveLimit`] past
    /// move 9999 (the largest move number the Citrine prints),
    /// [`CommandError::IllegalMove`] for a move not legal in
    /// [`position`](Self::position).
    pub fn send_move(&mut self, mv: Move, now: T) -> Result<(), CommandError> {
        self.advance(now);
        if self.closed || self.ended || self.position.outcome().is_some() {
            return Err(CommandError::NoGame);
        }
        if self.out_of_sync || self.resync_requested {
            return Err(CommandError::OutOfSync);
        }
        if self.pending.is_some()
            || self
                .config
                .host_color
                .is_some_and(|c| c != self.position.side_to_move())
        {
            return Err(CommandError::NotYourTurn);
        }
        if u16::try_from(self.position.fullmove_number())
            .ok()
            .and_then(|n| MoveNumber::new(n).ok())
            .is_none()
        {
            return Err(CommandError::MoveLimit);
        }
        if !self.position.is_legal(mv) {
            return Err(CommandError::IllegalMove(mv));
        }
        self.pending = Some(mv);
        let capture = mv.is_en_passant() || self.position.piece_at(mv.to()).is_some();
        let cmd = Command::Move(to_host_move(mv));
        self.queue.push_back(Queued {
            bytes: cmd.to_bytes(),
            expect: expected_reply(&cmd),
            take_back: false,
            setting: false,
            move_ply: Some((self.history.len(), capture)),
        });
        Ok(())
    }

    /// Queues `T` (take back one move) at `now`; the position changes when
    /// the device's `T` line arrives ([`Event::TakenBack`]). Allowed after
    /// the game ended (the Citrine takes moves back from a final position).
    ///
    /// # Errors
    /// [`CommandError::NoGame`] once the stream is closed,
    /// [`CommandError::NotYourTurn`] while a move awaits acknowledgement,
    /// [`CommandError::NothingToTakeBack`] when every move played is
    /// already being taken back (or none was played).
    pub fn take_back(&mut self, now: T) -> Result<(), CommandError> {
        self.take_back_plies(1, now)
    }

    /// Queues `plies` `T` commands at `now`, all or none: e.g. 2 to take
    /// back the host's last move and the device's reply to it. Errors as
    /// [`take_back`](Self::take_back); [`CommandError::NothingToTakeBack`]
    /// when fewer than `plies` moves are played and not already being
    /// taken back (then nothing is queued). `plies` 0 queues nothing.
    ///
    /// # Errors
    /// As [`take_back`](Self::take_back).
    pub fn take_back_plies(&mut self, plies: usize, now: T) -> Result<(), CommandError> {
        self.advance(now);
        if self.closed {
            return Err(CommandError::NoGame);
        }
        if self.pending.is_some() {
            return Err(CommandError::NotYourTurn);
        }
        if self.history.len() < self.take_backs.saturating_add(plies) {
            return Err(CommandError::NothingToTakeBack);
        }
        for _ in 0..plies {
            self.queue_command(Command::TakeBack);
        }
        Ok(())
    }

    /// Queues `N` (new game) at `now`; the position resets when `New Game`
    /// arrives ([`Event::GameStarted`], after [`Event::GameEnded`] for an
    /// unfinished game).
    ///
    /// # Errors
    /// [`CommandError::Closed`] once the stream is closed.
    pub fn new_game(&mut self, now: T) -> Result<(), CommandError> {
        self.send(Command::NewGame, now)
    }

    /// Queues `P` at `now` and compares the device's diagram with the
    /// tracked position when it arrives ([`Event::Resynced`] or
    /// [`Event::OutOfSync`]); a second request while one is pending is not
    /// sent again.
    ///
    /// # Errors
    /// [`CommandError::Closed`] once the stream is closed.
    pub fn request_position(&mut self, now: T) -> Result<(), CommandError> {
        self.advance(now);
        if self.closed {
            return Err(CommandError::Closed);
        }
        self.resync();
        Ok(())
    }

    fn resync(&mut self) {
        if !self.resync_requested {
            self.resync_requested = true;
            self.queue_command(Command::ShowPosition);
        }
    }

    /// Replaces the tracked position at `now` (e.g. after the user fixed
    /// the board) and clears the out-of-sync state; the game goes on from
    /// it with no moves ([`start_position`](Self::start_position) is
    /// `position`).
    ///
    /// # Errors
    /// [`CommandError::Closed`] once the stream is closed.
    pub fn adopt(&mut self, position: Position, now: T) -> Result<(), CommandError> {
        self.advance(now);
        if self.closed {
            return Err(CommandError::Closed);
        }
        self.start = position;
        self.position = position;
        self.history.clear();
        self.moves.clear();
        self.pending = None;
        self.out_of_sync = false;
        self.ended = false;
        self.generation += 1;
        Ok(())
    }

    /// Queues any command line at `now` (paced like the others). A `T`
    /// sent this way is awaited like one from
    /// [`take_back`](Self::take_back); an `M` is sent as it is, not
    /// tracked as our move (use [`send_move`](Self::send_move)).
    ///
    /// # Errors
    /// [`CommandError::Closed`] once the stream is closed.
    pub fn send(&mut self, cmd: Command<'_>, now: T) -> Result<(), CommandError> {
        self.advance(now);
        if self.closed {
            return Err(CommandError::Closed);
        }
        self.queue_command(cmd);
        Ok(())
    }

    fn queue_command(&mut self, cmd: Command<'_>) {
        let take_back = cmd == Command::TakeBack;
        if take_back {
            self.take_backs += 1;
        }
        self.queue.push_back(Queued {
            bytes: cmd.to_bytes(),
            expect: expected_reply(&cmd),
            take_back,
            setting: false,
            move_ply: None,
        });
    }

    /// The next command line to write (with CR LF), if one is due at the
    /// time of the latest `handle_*` call.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        if self.closed {
            return None;
        }
        let now = self.now;
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
                return Some(Transmit::from_vec(r.bytes));
            }
        }
        let q = self.queue.pop_front()?;
        self.last_write = Some(now);
        if let Some(kind) = q.expect {
            self.awaiting
                .push_back((kind, now, now.saturating_add(self.config.ack_timeout)));
        }
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
        Some(Transmit::from_vec(q.bytes))
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// When to call [`handle_timeout`](Self::handle_timeout) next: the
    /// earliest of the next paced write, a due resend and the deadline of
    /// an awaited acknowledgement; `None` when nothing is queued or awaited.
    /// A time not after the latest `handle_*` time means "now".
    pub fn poll_timeout(&self) -> Option<T> {
        if self.closed {
            return None;
        }
        let paced = self.last_write.map_or(self.now, |t| {
            t.saturating_add(self.config.min_gap).max(self.now)
        });
        let send = if self.queue.is_empty() {
            self.resend.as_ref().map(|r| r.at.max(paced))
        } else {
            Some(paced)
        };
        let ack = self.awaiting.iter().map(|a| a.2).min();
        let bad = self
            .bad_since
            .map(|t| t.saturating_add(self.config.ack_timeout));
        [send, ack, bad].into_iter().flatten().min()
    }

    /// Advances the driver's clock to `now`: releases paced writes and
    /// resends, and reports [`Event::PeerSilent`] when an acknowledgement
    /// is overdue.
    pub fn handle_timeout(&mut self, now: T) {
        self.advance(now);
        self.check_silence();
    }

    /// Reports an overdue acknowledgement, or bad lines only for too long
    /// (once per silence).
    fn check_silence(&mut self) {
        let ack = self.awaiting.iter().min_by_key(|a| a.2).copied();
        let bad = self.bad_since.map(|t| {
            let awaited = self.awaiting.front().map_or(MessageKind::Reply, |a| a.0);
            (awaited, t, t.saturating_add(self.config.ack_timeout))
        });
        if let Some((awaited, sent, deadline)) =
            [ack, bad].into_iter().flatten().min_by_key(|a| a.2)
            && deadline <= self.now
        {
            self.awaiting.clear();
            self.bad_since = None;
            self.events.push_back(Event::PeerSilent {
                awaiting: awaited,
                waited: self.now.saturating_duration_since(sent),
            });
        }
    }

    /// Feeds bytes read from the device at `now`: frames them into lines
    /// (CR, LF or CR LF; cap [`DriverConfig::max_line_len`]), decodes each
    /// with [`DriverConfig::leniency`] and handles it.
    pub fn handle_input(&mut self, bytes: &[u8], now: T) {
        self.advance(now);
        if self.closed {
            return;
        }
        let Some(mut input) = self.input.take() else {
            return;
        };
        input.feed(bytes, |frame| match frame {
            Frame::Complete(line) => match decode_with::<Reply<'_>>(line, &self.config.leniency) {
                Ok(reply) => self.on_reply(&reply),
                Err(e) => self.on_frame_error(FrameError::Malformed(e)),
            },
            Frame::Overlong { len, max } => self.on_frame_error(FrameError::Overlong { len, max }),
        });
        self.input = Some(input);
        self.check_silence();
    }

    /// Handles one line already decoded (by a codec) at `now`.
    pub fn handle_message(&mut self, reply: &Reply<'_>, now: T) {
        self.advance(now);
        if self.closed {
            return;
        }
        self.on_reply(reply);
        self.check_silence();
    }

    /// Handles a line that could not be framed or decoded (a codec's item
    /// error) at `now`: a disagreement (bytes may have been lost).
    pub fn handle_frame_error(&mut self, error: &FrameError, now: T) {
        self.advance(now);
        if self.closed {
            return;
        }
        self.on_frame_error(*error);
        self.check_silence();
    }

    /// The device closed the stream at `now` (end of input on the port or
    /// the codec's stream): a game in progress (a move played, no result)
    /// ends with [`Outcome::Unknown`] and [`EndReason::Closed`]
    /// ([`Event::GameEnded`] is queued before the game is cleared). From
    /// then on there is no game ([`position`](Self::position) is `None`),
    /// inputs are ignored, nothing is transmitted or awaited, and commands
    /// return [`CommandError::NoGame`] or [`CommandError::Closed`].
    pub fn handle_close(&mut self, now: T) {
        self.advance(now);
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
        self.pending = None;
        self.queue.clear();
        self.resend = None;
        self.awaiting.clear();
        self.diagram = None;
        self.resync_requested = false;
        if let Some(input) = &mut self.input {
            input.clear();
        }
        self.bad_since = None;
    }

    fn advance(&mut self, now: T) {
        if now > self.now {
            self.now = now;
        }
    }

    fn on_frame_error(&mut self, error: FrameError) {
        // Not an answer: the awaited answers stay awaited (the resync's
        // diagram settles them), and bad lines alone are silence.
        self.bad_since.get_or_insert(self.now);
        self.events.push_back(Event::Malformed(error));
        self.disagree(Disagreement::BadLine(error));
    }

    /// Queues the configured settings, replacing any still queued (a
    /// device repeating `New Game` does not grow the queue).
    fn queue_settings(&mut self) {
        self.queue.retain(|q| !q.setting);
        let settings = [
            self.config.xmit.map(|x| Command::Xmit(Some(x))),
            self.config.referee.map(|u| Command::Referee(Some(u))),
            self.config.flip.then_some(Command::Flip),
        ];
        for cmd in settings.into_iter().flatten() {
            self.queue.push_back(Queued {
                bytes: cmd.to_bytes(),
                expect: expected_reply(&cmd),
                take_back: false,
                setting: true,
                move_ply: None,
            });
        }
    }

    fn disagree(&mut self, d: Disagreement) {
        self.disagreements += 1;
        self.events.push_back(Event::Disagreement(d));
        if self.config.auto_resync {
            self.resync();
        }
    }

    /// The device played `mv` for the host's side: reported, applied, and
    /// taken back if so configured. `voided`: our move in flight is void
    /// (the device will not play it), its queued commands and resend too.
    fn out_of_turn(&mut self, mv: Move, voided: bool) {
        if voided {
            self.queue.retain(|q| q.move_ply.is_none());
            self.resend = None;
        }
        self.events.push_back(Event::OutOfTurn(mv));
        self.apply(mv);
        if self.config.take_back_out_of_turn {
            self.queue_command(Command::TakeBack);
        }
    }

    fn apply(&mut self, mv: Move) {
        let before = self.position;
        self.position = before.play(mv).expect("checked legal");
        self.history.push(Ply { before, mv });
        self.moves.push(mv);
        if !self.ended && self.position.outcome().is_some() {
            self.ended = true;
            let (outcome, reason) = outcome_of(&self.position, self.config.host_color);
            self.events.push_back(Event::GameEnded(GameEnded {
                outcome,
                reason,
                start: self.start,
                moves: self.moves.clone(),
            }));
        }
        if !self.ended && self.at_cap() {
            self.ended = true;
            self.events.push_back(Event::PlyCapReached {
                plies: self.max_plies(),
            });
            self.events.push_back(Event::GameEnded(GameEnded {
                outcome: Outcome::Unknown,
                reason: EndReason::PlyCap,
                start: self.start,
                moves: self.moves.clone(),
            }));
            self.queue_command(Command::NewGame);
        }
    }

    /// [`DriverConfig::max_game_plies`], at least 1.
    fn max_plies(&self) -> usize {
        usize::try_from(self.config.max_game_plies)
            .unwrap_or(usize::MAX)
            .max(1)
    }

    /// The game holds [`DriverConfig::max_game_plies`] moves.
    fn at_cap(&self) -> bool {
        self.history.len() >= self.max_plies()
    }

    fn undo(&mut self, last: Ply) {
        self.history.pop();
        self.moves.pop();
        self.position = last.before;
        self.ended = self.position.outcome().is_some();
    }

    /// The (move number, colour) of the next ply.
    fn next_ply_id(&self) -> (u32, Color) {
        (
            self.position.fullmove_number(),
            self.position.side_to_move(),
        )
    }

    /// Stops awaiting one answer of `kind` (the oldest).
    fn answered(&mut self, kind: MessageKind) {
        if let Some(i) = self.awaiting.iter().position(|a| a.0 == kind) {
            self.awaiting.remove(i);
        }
    }

    fn on_reply(&mut self, reply: &Reply<'_>) {
        if !matches!(reply, Reply::Unrecognised(_)) {
            self.bad_since = None;
        }
        // Move and take-back lines answer a command only when they fit it
        // (a duplicate acknowledgement answers nothing): see on_move_line
        // and on_take_back.
        if let Some(kind) = reply_kind(reply)
            && !matches!(
                kind,
                MessageKind::MoveLine | MessageKind::TakeBackLine | MessageKind::PositionBoard
            )
        {
            self.answered(kind);
        }
        match reply {
            Reply::Move(m) => self.on_move_line(*m),
            Reply::TakeBack(m) => self.on_take_back(*m),
            Reply::NewGame => self.on_new_game(),
            Reply::PositionBoard => {
                // The device answers in order: what was awaited before this
                // `P` is lost or was a garbled line; the diagram settles
                // it. The eight rows are awaited like an answer.
                if let Some(i) = self
                    .awaiting
                    .iter()
                    .position(|a| a.0 == MessageKind::PositionBoard)
                {
                    self.awaiting.drain(..=i);
                }
                self.awaiting.push_front((
                    MessageKind::PositionBoard,
                    self.now,
                    self.now.saturating_add(self.config.ack_timeout),
                ));
                self.diagram = Some(([None; 64], 0));
            }
            Reply::DiagramRow(row) if self.diagram.is_some() => {
                let Some((board, n)) = &mut self.diagram else {
                    return;
                };
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
            }
            Reply::Identity { model, version } => self.events.push_back(Event::Identity {
                model: model.as_str().to_owned(),
                version: version.as_str().to_owned(),
            }),
            Reply::Xmit(on) => self.events.push_back(Event::Xmit(*on)),
            Reply::Referee(on) => self.events.push_back(Event::Referee(*on)),
            Reply::Level(l) => self.events.push_back(Event::Level(*l)),
            Reply::Clock { white, black } => self.events.push_back(Event::Clock {
                white: *white,
                black: *black,
            }),
            Reply::Flip { to_move: Some(_) } => self.disagree(Disagreement::Flipped),
            Reply::Unrecognised(raw) => self
                .events
                .push_back(Event::Unrecognised(raw.clone().into_owned())),
            other => self
                .events
                .push_back(Event::Line(other.clone().into_owned())),
        }
    }

    fn on_new_game(&mut self) {
        if !self.ended && !self.history.is_empty() {
            self.events.push_back(Event::GameEnded(GameEnded {
                outcome: Outcome::Unknown,
                reason: EndReason::NewGame,
                start: self.start,
                moves: self.moves.clone(),
            }));
        }
        self.start = Position::startpos();
        self.position = Position::startpos();
        self.history.clear();
        self.moves.clear();
        self.pending = None;
        self.resend = None;
        self.out_of_sync = false;
        self.ended = false;
        self.generation += 1;
        // Drop queued moves and take-backs of the old game, and the
        // acknowledgements they awaited.
        self.queue.retain(|q| q.move_ply.is_none() && !q.take_back);
        self.awaiting
            .retain(|a| !matches!(a.0, MessageKind::MoveLine | MessageKind::TakeBackLine));
        self.take_backs = 0;
        self.events
            .push_back(Event::GameStarted(GameStarted { start: self.start }));
        self.queue_settings();
    }

    fn on_move_line(&mut self, line: MoveLine) {
        let color = if line.black {
            Color::Black
        } else {
            Color::White
        };
        let id = (u32::from(line.number.get()), color);
        if id == self.next_ply_id() {
            if self.at_cap() {
                // Past the cap: not played (`N` is on its way).
                return self.events.push_back(Event::Line(Reply::Move(line)));
            }
            let mv = match to_move(&self.position, &line.text) {
                Ok(mv) => mv,
                Err(error) => return self.disagree(Disagreement::IllegalMove { line, error }),
            };
            match self.pending {
                Some(sent) if sent == mv => {
                    self.answered(MessageKind::MoveLine);
                    self.pending = None;
                    self.events.push_back(Event::Acknowledged(mv));
                    self.apply(mv);
                }
                _ if self.config.host_color == Some(color) => {
                    // The device moved for the host's side. A host move not
                    // yet acknowledged is void: the device will not play it.
                    let voided = self.pending.take().is_some();
                    if voided {
                        self.answered(MessageKind::MoveLine);
                    }
                    self.out_of_turn(mv, voided);
                }
                Some(sent) => {
                    self.answered(MessageKind::MoveLine);
                    self.pending = None;
                    self.apply(mv);
                    self.disagree(Disagreement::AckMismatch { sent, got: mv });
                }
                None => {
                    // Answers an `M` without a move (the engine's move).
                    self.answered(MessageKind::MoveLine);
                    self.events.push_back(Event::DeviceMove(mv));
                    self.apply(mv);
                }
            }
            return;
        }
        // The acknowledgement of our move was lost and the device's reply
        // arrived: the reply proves the device played our move.
        if let Some(sent) = self.pending
            && let Ok(after) = self.position.play(sent)
            && id == (after.fullmove_number(), after.side_to_move())
            && let Ok(reply) = to_move(&after, &line.text)
        {
            self.answered(MessageKind::MoveLine);
            self.pending = None;
            self.events.push_back(Event::Acknowledged(sent));
            self.apply(sent);
            self.events.push_back(Event::DeviceMove(reply));
            self.apply(reply);
            return;
        }
        // A ply already played: a duplicate when it is the same move.
        let played = self
            .history
            .iter()
            .rev()
            .find(|p| (p.before.fullmove_number(), p.before.side_to_move()) == id);
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
        // A comma marks Black; without it the colour follows from the game
        // (the protocol document's `t 2 g8-f6` takes back a black move).
        let color_ok = !line.black || last.before.side_to_move() == Color::Black;
        if number_ok && color_ok && to_move(&last.before, &line.text) == Ok(last.mv) {
            self.answered(MessageKind::TakeBackLine);
            self.undo(last);
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
        self.answered(MessageKind::PositionBoard);
        // The diagram settles what was written before the `P` (the device
        // answers in order): a move it has not played is void, and
        // take-backs before it are in the diagram or lost. Commands queued
        // or written after the `P` (still awaited) stay in flight.
        let after =
            |kind: MessageKind, this: &Self| this.awaiting.iter().filter(|a| a.0 == kind).count();
        self.take_backs = self.queue.iter().filter(|q| q.take_back).count()
            + after(MessageKind::TakeBackLine, self);
        let move_in_flight = self.queue.iter().any(|q| q.move_ply.is_some())
            || after(MessageKind::MoveLine, self) > 0;
        if self.pending.is_some() && !move_in_flight && board_of(&self.position) == *device {
            self.pending = None;
            self.resend = None;
            self.generation += 1;
        }
        if board_of(&self.position) == *device {
            self.out_of_sync = false;
            self.events.push_back(Event::Resynced(Resync::InSync));
            return;
        }
        let legal = self.position.legal_moves();
        let mut ahead = legal
            .iter()
            .copied()
            .filter(|&m| self.position.play(m).is_ok_and(|p| board_of(&p) == *device));
        if let (Some(mv), None, false) = (ahead.next(), ahead.next(), self.at_cap()) {
            let sent = self.pending.take();
            let out_of_turn =
                self.config.host_color == Some(self.position.side_to_move()) && sent != Some(mv);
            self.out_of_sync = false;
            self.events.push_back(Event::Resynced(Resync::Applied(mv)));
            if out_of_turn {
                // The device moved for the host's side and its line was
                // lost: handled as an out-of-turn line would be (else the
                // device waits for its `T` and the driver for its move).
                self.out_of_turn(mv, sent.is_some());
            } else {
                self.apply(mv);
            }
            return;
        }
        if let Some(last) = self.history.last().copied()
            && board_of(&last.before) == *device
        {
            self.undo(last);
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

boardwire_proto::forward_session! {
    impl<T: Timestamp> Session for Driver<T> {
        type Incoming<'a> = Reply<'a>;
        type Outgoing<'a> = Command<'a>;
        type Event = Event;

        fn max_frame_len(&self) -> usize {
            self.config.max_line_len.max(1)
        }
        fn decode_incoming<'a>(&self, frame: &'a [u8]) -> Result<Reply<'a>, crate::error::DecodeError> {
            decode_with(frame, &self.config.leniency)
        }
        fn decode_outgoing<'a>(
            &self,
            frame: &'a [u8],
        ) -> Result<Command<'a>, crate::error::DecodeError> {
            crate::decode::decode(frame)
        }
        fn is_unrecognised(msg: &Reply<'_>) -> bool {
            matches!(msg, Reply::Unrecognised(_))
        }
    }
}
