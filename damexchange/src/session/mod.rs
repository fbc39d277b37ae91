//! Sans-IO DXP sessions: the [`Initiator`] (connects, proposes games) and the
//! [`Follower`] (accepts). [`spec::damexchange`](crate::spec::damexchange), *Roles and dialogue
//! (layer 2)*.
//!
//! Both are one type, [`Endpoint`], in a [`Role`]: `Initiator<T>` is
//! `Endpoint<InitiatorRole, T>` and `Follower<T>` is
//! `Endpoint<FollowerRole, T>`. The methods the roles share are written
//! and documented once on [`Endpoint`]; each role's own (`new`, `config`,
//! the initiator's `request_game`, ...) are on [`Initiator`] and
//! [`Follower`].
//!
//! A session never touches a socket or the clock. The application
//!
//! 1. feeds what it received, either as raw bytes with
//!    `handle_input(bytes, now)` or, when a codec (e.g.
//!    `codec::DxpCodec`, feature `tokio`) already decoded it, as a message
//!    with `handle_message(&msg, now)` (and what the codec could not decode
//!    with `handle_frame_error(&err, now)`); tells it that the peer closed
//!    the stream with `handle_close(now)`; gives its own decisions with
//!    commands (`send_move`, `send_move_with`, `end_game`, `send_chat`,
//!    `request_take_back`, and the initiator's `request_game`), each taking
//!    `now` last and returning `Result<(), CommandError>`; and calls
//!    `handle_timeout(now)` once `poll_timeout()` has passed;
//! 2. then drains, in this order, `poll_transmit()` (a [`Transmit`]: the
//!    bytes of a frame to write, NUL included), `poll_event()` (what
//!    happened) and reads `poll_timeout()` (when to wake up).
//!
//! `now` is any [`Timestamp`] the application reads from its own clock:
//! `std::time::Instant` (feature `std`), or, without `std`, a
//! [`Duration`] since an origin of the application's
//! choice (boot, start of the connection). One session uses one kind
//! throughout; the type parameter of [`Follower`] and [`Initiator`] is
//! inferred from the first call.
//!
//! The sessions keep the game: the board (via `board-core`), whose move it
//! is, the move history (for take-backs) and the time/move settings of the
//! GAMEREQ. A received MOVE is matched against the legal moves by (from, to,
//! captured set); an illegal or out-of-turn MOVE is reported as
//! [`Event::MoveRejected`] and never changes the game. When a game ends,
//! [`Event::GameEnded`] carries the outcome from our side, the reason, the
//! start position and the moves; `position()`, `start_position()` and
//! `moves()` (and `our_color()`, `move_number()`, `time_control()`) still
//! show the finished game after that event, until the next game starts (a
//! GAMEACC `0` sent or received). A stream closed during a game (`handle_close`) ends it the
//! same way, with [`Outcome::Unknown`].
//!
//! Every [`Event`] has a `Display`: one line for a person (a transcript
//! note), e.g. `opponent played 32-28 (3 s)`.
//!
//! A peer that does not answer a request it must answer (GAMEREQ →
//! GAMEACC, BACKREQ → BACKACC, GAMEEND → GAMEEND) within
//! `reply_timeout` of the config is reported once as [`Event::PeerSilent`].
//! Waiting for the opponent's move is not silence: there the bound is the
//! game clock of the GAMEREQ ([`spec::damexchange`](crate::spec::damexchange), *GAMEREQ*,
//! *MOVE*): the opponent's thinking time minus what it used so far (as we
//! measure it, from the input after which it was its turn to the one with
//! its move; per period of `moves` moves, or the whole game), plus the
//! config's `clock_margin`; then [`Event::PeerSilent`] with `awaiting`
//! [`MessageKind::Move`], once per turn. A game with thinking time `000`
//! has no clock and no bound.
//!
//! A game never holds more than the config's `max_game_plies` plies
//! (default [`DEFAULT_MAX_GAME_PLIES`], 20,000): DXP has no draw rule, so
//! without it a peer shuffling kings would grow the game's move list for
//! as long as it liked. Nor does it hold a move DXP cannot number: move
//! numbers have 3 digits ([`spec::damexchange`](crate::spec::damexchange),
//! *BACKREQ*), so the cap is at most both sides' moves 1..=999 (1,998
//! plies from a start with White to move). At the cap the session ends
//! the game itself, at our turn as the spec lets only the side to move do
//! ([`spec::damexchange`](crate::spec::damexchange), *Roles and dialogue
//! (layer 2)*): GAMEEND reason `0`, after [`Event::PlyCapReached`]; see
//! the configs' `max_game_plies`.
//!
//! A frame that does not decode but is a request the peer waits on
//! (GAMEREQ, BACKREQ, GAMEEND) is still answered, with a CHAT naming the
//! field; see `handle_frame_error`.

mod endpoint;
mod follower;
mod initiator;
mod plan;

use alloc::collections::VecDeque;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::time::Duration;

use board_core::draughts::{self as board, Position};

use crate::convert::{color_to_board, color_to_wire, find_move, move_to_wire};
use crate::decode::Leniency;
use crate::error::{DecodeError, FrameError, MessageKind, ValueError};
use crate::framer::{FrameBuffer, Framer};
use crate::message::{
    AcceptanceCode, BackAcc, BackAccCode, BackReq, Chat, Encoded, GameEnd, GameEndReason, Message,
    Move as WireMove, StopCode, Unrecognised,
};
use crate::types::ChatText;

pub use endpoint::{Endpoint, Role};
pub use follower::{Follower, FollowerConfig, FollowerRole};
pub use initiator::{GameOffer, Initiator, InitiatorConfig, InitiatorRole};
pub use plan::{Match, MatchPlan, MatchStep, MatchStop, Score};

/// A point in time on the application's monotonic clock, as the sessions
/// take it in `handle_*` and give it back from `poll_timeout` (shared by the
/// whole crate family; see [`board_core::time`]).
pub use board_core::time::Timestamp;

/// The bytes of one frame to write to the peer (message and its NUL), from
/// `poll_transmit()`: the family's one `Transmit`, re-exported from
/// `boardwire-proto`. A DXP frame (at most 128 bytes with its NUL) is held
/// inline: queuing it does not allocate beyond the queue itself. The
/// message without its NUL is `t.as_bytes().strip_suffix(b"\0")`; decode it
/// for the message.
pub use boardwire_proto::Transmit;

/// The family's sans-IO session contract, re-exported from
/// `boardwire-proto`: [`Initiator`] and [`Follower`] implement it (`Conn =
/// ()`), so code written over it (a driver, a logger, a test harness) runs
/// them as it runs the other protocols' sessions.
pub use boardwire_proto::Session;
/// Two one-peer sessions wired together in memory (tests, examples,
/// simulations): `pump`, `next_deadline`, `handle_timeouts`, and the loop
/// that works for every session of the family (the shared core's).
pub use boardwire_proto::memory;

/// The default of the configs' `max_game_plies` (20,000 plies): the
/// family's one default, `boardwire_proto`'s, whose documentation gives
/// the published facts it is chosen from.
pub use boardwire_proto::DEFAULT_MAX_GAME_PLIES;

/// Bytes of a session's input buffer: one whole frame of the spec's cap
/// and its NUL.
const INPUT_LEN: usize = crate::message::MAX_MESSAGE_LEN + 1;

/// The session's input: a capped buffer on the stack with the NUL framer.
pub(crate) type Input = FrameBuffer<Framer, [u8; INPUT_LEN]>;

pub(crate) fn new_input() -> Input {
    FrameBuffer::new(Framer::default(), [0u8; INPUT_LEN])
}

/// A game has started ([`spec::damexchange`](crate::spec::damexchange), *GAMEREQ*, *GAMEACC*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStarted {
    /// The colour we play.
    pub our_color: board::Color,
    /// The other program's name.
    pub opponent: String,
    /// The starting position.
    pub start: Position,
    /// Thinking time per player, minutes (GAMEREQ).
    pub minutes: u16,
    /// Moves to play in that time, 0 = the whole game (GAMEREQ).
    pub moves: u16,
}

/// How a game ended, from our side (the family's, `boardwire_proto`'s).
/// Here [`Outcome::Unknown`] means no result: the first GAMEEND gave
/// reason `0`, or the stream closed during the game.
#[doc(inline)]
pub use boardwire_proto::session::Outcome;

/// The outcome for us of a GAMEEND exchange that `by` started with
/// `reason` ([`spec::damexchange`](crate::spec::damexchange), *GAMEEND*: the
/// reason is from its sender's side).
pub const fn outcome_of(by: Side, reason: GameEndReason) -> Outcome {
    match (by, reason) {
        (_, GameEndReason::Unknown) => Outcome::Unknown,
        (_, GameEndReason::Draw) => Outcome::Drawn,
        (Side::Us, GameEndReason::SenderWins) | (Side::Opponent, GameEndReason::SenderLoses) => {
            Outcome::Won
        }
        (Side::Us, GameEndReason::SenderLoses) | (Side::Opponent, GameEndReason::SenderWins) => {
            Outcome::Lost
        }
    }
}

/// The game is over (a GAMEEND was answered with a GAMEEND,
/// [`spec::damexchange`](crate::spec::damexchange), *Roles and dialogue (layer 2)*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnded {
    /// The result for us.
    pub outcome: Outcome,
    /// The reason of the first GAMEEND, from its sender's side.
    pub reason: GameEndReason,
    /// Who sent the first GAMEEND.
    pub by: Side,
    /// The opponent's stop code (whether it plays further games).
    pub opponent_stop: StopCode,
    /// The colour we played.
    pub our_color: board::Color,
    /// The game's start position.
    pub start: Position,
    /// The moves played, from `start` (after take-backs).
    pub moves: Vec<board::Move>,
    /// The stream closed during the game (`handle_close`): there was no
    /// GAMEEND exchange; `outcome` is [`Outcome::Unknown`], `reason`
    /// [`GameEndReason::Unknown`], `by` [`Side::Opponent`].
    pub closed: bool,
}

impl GameEnded {
    /// The winner's colour, if the game was won by one side.
    pub fn winner(&self) -> Option<board::Color> {
        match self.outcome {
            Outcome::Won => Some(self.our_color),
            Outcome::Lost => Some(self.our_color.opposite()),
            Outcome::Drawn | Outcome::Unknown => None,
        }
    }
}

/// Something the session wants the application to know, from
/// `poll_event()`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A game started: GAMEACC `0` sent (follower) or received (initiator).
    GameStarted(GameStarted),
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
    /// The game is over. The session's `position()`, `moves()`, ... still
    /// show it until the next game starts.
    GameEnded(GameEnded),
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
        reason: Unexpected,
    },
    /// A frame that is over-long or does not decode; the next frames are
    /// unaffected.
    Malformed(FrameError),
    /// A frame of an unknown kind (not acted upon).
    Unrecognised(Unrecognised<'static>),
    /// The peer did not answer our request within the configured
    /// `reply_timeout` (reported once per request).
    PeerSilent {
        /// The answer we wait for: GAMEACC, BACKACC or GAMEEND; MOVE when
        /// the opponent's clock (plus the margin) ran out.
        awaiting: MessageKind,
    },
    /// The game reached its cap of plies (`plies`, the moves it holds):
    /// the config's `max_game_plies`, or, when that is more, the plies DXP
    /// can number (both sides' moves 1..=999, [`spec::damexchange`](crate::spec::damexchange),
    /// *BACKREQ*: 3-digit move numbers; 1,998 plies from a start with
    /// White to move, 1,997 with Black to move). The session ends the
    /// game with GAMEEND reason `0` (no result) at our turn, sent with
    /// this event; [`Event::GameEnded`]
    /// (`by` [`Side::Us`], [`Outcome::Unknown`]) follows when the peer
    /// answers. When the opponent's MOVE reached the cap it is our turn
    /// at once; when ours did, the opponent's next (legal) MOVE is not
    /// played (this event says so: it is no misbehaviour of the peer, so
    /// not an [`Event::MoveRejected`]) and the GAMEEND takes our turn
    /// instead of a MOVE.
    PlyCapReached {
        /// The moves of the game: the cap.
        plies: usize,
    },
    /// The session closes the connection: what it still had to say (a
    /// CHAT saying why) is queued, then a [`Transmit`] that closes
    /// ([`Transmit::closes`]); further input is ignored. A driver ends
    /// the run then (`net`: `Closed::BySession`).
    Closing(CloseReason),
}

/// Why a session closes the connection by itself ([`Event::Closing`]):
/// the bounds a DXP driver used to keep, now kept by the session so that
/// any driver (the family's one loop, or the application's) applies them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CloseReason {
    /// No game was agreed (GAMEACC sent or received, any code) within the
    /// config's `handshake_timeout` of the session's creation. Nothing is
    /// sent before the close.
    HandshakeTimeout,
    /// The config's `max_bad_frames` malformed or unrecognised frames came
    /// in a row; a CHAT `error: N malformed or unrecognised frames in a
    /// row; closing` is sent before the close.
    TooManyBadFrames,
}

impl core::fmt::Display for CloseReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            CloseReason::HandshakeTimeout => "no GAMEREQ/GAMEACC in time",
            CloseReason::TooManyBadFrames => "too many malformed or unrecognised frames in a row",
        })
    }
}

fn color_name(c: board::Color) -> &'static str {
    match c {
        board::Color::White => "White",
        board::Color::Black => "Black",
    }
}

/// One line for a person, as a transcript note shows it (e.g. `game
/// started against "Scan": we play White, 5 min for the whole game, from
/// the standard start`, `opponent played 32x23 (0 s)`, `game over: White
/// wins (GAMEEND from the opponent: sender loses; ...); moves: 32-28 ...`).
impl core::fmt::Display for Event {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Event::GameStarted(g) => {
                write!(
                    f,
                    "game started against \"{}\": we play {}, {} min for ",
                    g.opponent,
                    color_name(g.our_color),
                    g.minutes
                )?;
                match g.moves {
                    0 => f.write_str("the whole game")?,
                    n => write!(f, "{n} moves")?,
                }
                if g.start == Position::startpos() {
                    f.write_str(", from the standard start")
                } else {
                    write!(f, ", from set-up position {}", g.start)
                }
            }
            Event::GameRefused { code } => write!(f, "no game: {code}"),
            Event::MoveReceived { mv, time } => {
                let sep = if mv.is_capture() { 'x' } else { '-' };
                write!(
                    f,
                    "opponent played {}{sep}{} ({time} s)",
                    mv.from(),
                    mv.to()
                )
            }
            Event::MoveRejected { mv, reason } => write!(
                f,
                "rejected the opponent's MOVE {}-{}: {reason}",
                mv.from(),
                mv.to()
            ),
            Event::GameEnded(g) => {
                f.write_str("game over: ")?;
                match (g.outcome, g.winner()) {
                    (_, Some(c)) => write!(f, "{} wins", color_name(c))?,
                    (Outcome::Drawn, None) => f.write_str("draw")?,
                    _ => f.write_str("no result")?,
                }
                if g.closed {
                    f.write_str(" (the connection closed during the game)")?;
                } else {
                    write!(
                        f,
                        " (GAMEEND from {}: {}; the opponent {})",
                        g.by, g.reason, g.opponent_stop
                    )?;
                }
                f.write_str("; moves:")?;
                if g.moves.is_empty() {
                    f.write_str(" none")?;
                }
                let mut pos = g.start;
                for &m in &g.moves {
                    write!(f, " {}", pos.move_text(m))?;
                    pos.play_unchecked(m);
                }
                Ok(())
            }
            Event::Chat(text) => write!(f, "chat from the opponent: {text}"),
            Event::TakenBack {
                by,
                move_number,
                color,
            } => write!(
                f,
                "take-back asked by {by} done: back to move {move_number}, {} to move",
                color_name(*color)
            ),
            Event::TakeBackDeclined { by, code } => {
                write!(f, "take-back asked by {by} not done: {code}")
            }
            Event::Unexpected { message, reason } => write!(f, "unexpected {message}: {reason}"),
            Event::Malformed(e) => write!(f, "{e}"),
            Event::Unrecognised(u) => write!(f, "{}", Message::Unrecognised(u.clone()).describe()),
            Event::PeerSilent { awaiting } => write!(f, "no {awaiting} from the peer in time"),
            Event::PlyCapReached { plies } => write!(
                f,
                "the game reached {plies} plies, the session's cap: ending it (GAMEEND, no result)"
            ),
            Event::Closing(why) => write!(f, "closing the connection: {why}"),
        }
    }
}

/// Why a valid message was not acted upon, for [`Event::Unexpected`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unexpected {
    /// GAMEREQ sent to the initiator.
    GameReqToInitiator,
    /// GAMEACC sent to the follower.
    GameAccToFollower,
    /// GAMEACC without a GAMEREQ of ours.
    GameAccUnasked,
    /// GAMEREQ during a game: answered `2`, the game goes on.
    GameReqDuringGame,
    /// GAMEEND with no game in progress (not answered).
    GameEndWithoutGame,
    /// BACKACC without a BACKREQ of ours.
    BackAccUnasked,
}

impl core::fmt::Display for Unexpected {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Unexpected::GameReqToInitiator => "GAMEREQ sent to the initiator",
            Unexpected::GameAccToFollower => "GAMEACC sent to the follower",
            Unexpected::GameAccUnasked => "GAMEACC without a GAMEREQ of ours",
            Unexpected::GameReqDuringGame => "GAMEREQ during a game (answered 2, game goes on)",
            Unexpected::GameEndWithoutGame => "GAMEEND with no game in progress (not answered)",
            Unexpected::BackAccUnasked => "BACKACC without a BACKREQ of ours",
        })
    }
}

/// Which side did something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// This session's application.
    Us,
    /// The peer.
    Opponent,
}

impl core::fmt::Display for Side {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Side::Us => "us",
            Side::Opponent => "the opponent",
        })
    }
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

impl core::fmt::Display for MoveRejection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            MoveRejection::NoGame => "no game in progress",
            MoveRejection::NotYourTurn => "not the sender's turn",
            MoveRejection::Illegal => "no legal move has that from, to and captured set",
            MoveRejection::GameEnding => "it crossed our GAMEEND",
        })
    }
}

/// Why a command was refused; nothing was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// There is no game in progress.
    #[error("no game in progress")]
    NoGame,
    /// It is not our turn (also: our move of this turn was already sent).
    #[error("not our turn")]
    NotYourTurn,
    /// The game holds its cap of plies ([`Event::PlyCapReached`]): the
    /// config's `max_game_plies`, or move 999 of both sides (move numbers
    /// have 3 digits, [`spec::damexchange`](crate::spec::damexchange),
    /// *BACKREQ*). The session's GAMEEND reason `0` ends the game.
    #[error("the game's move limit (its ply cap or move 999) is reached")]
    MoveLimit,
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
pub(crate) struct Game<T> {
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
    /// The opponent's clock, as we measure it.
    pub(crate) clock: Clock<T>,
}

/// The opponent's clock as we measure it: the time from the input after
/// which it was its turn to the input that brought its move.
#[derive(Clone, Debug)]
pub(crate) struct Clock<T> {
    /// When the opponent's current turn began.
    began: Option<T>,
    /// Time it used in the current period (of `moves` moves, or the game).
    used: Duration,
    /// Its moves in the current period.
    moves: u16,
    /// The end of this turn's wait was reported (`PeerSilent`).
    reported: bool,
}

impl<T: Timestamp> Clock<T> {
    fn new() -> Clock<T> {
        Clock {
            began: None,
            used: Duration::ZERO,
            moves: 0,
            reported: false,
        }
    }

    /// Called after every input and our move: starts or stops the turn.
    fn mark(&mut self, their_turn: bool, now: T) {
        if !their_turn {
            self.began = None;
            self.reported = false;
        } else if self.began.is_none() {
            self.began = Some(now);
        }
    }

    /// The opponent's move arrived at `now`; `per_period` moves per period
    /// (0: the whole game).
    fn moved(&mut self, now: T, per_period: u16) {
        if let Some(at) = self.began.take() {
            self.used = self.used.saturating_add(now.saturating_duration_since(at));
        }
        self.reported = false;
        self.moves = self.moves.saturating_add(1);
        if per_period > 0 && self.moves >= per_period {
            self.moves = 0;
            self.used = Duration::ZERO;
        }
    }
}

impl<T: Timestamp> Game<T> {
    pub(crate) fn new(
        our_color: board::Color,
        start: Position,
        minutes: u16,
        moves: u16,
    ) -> Game<T> {
        Game {
            clock: Clock::new(),
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

    /// The plies DXP can number: both sides' moves 1..=999
    /// ([`spec::damexchange`](crate::spec::damexchange), *BACKREQ*: 3-digit
    /// move numbers, the game's first move is 1; White's move `k` is ply
    /// `2k - 1`), so 1,998 from a start with White to move and 1,997 from
    /// one with Black to move (its move 1 is Black's alone).
    pub(crate) fn numbered_plies(&self) -> usize {
        let first_black = usize::from(self.start.side_to_move() == board::Color::Black);
        2 * usize::from(MAX_MOVE_NUMBER) - first_black
    }

    /// The most plies this game holds: the config's `max_game_plies` (at
    /// least 1) or [`Self::numbered_plies`], whichever is smaller.
    pub(crate) fn ply_cap(&self, max_game_plies: usize) -> usize {
        max_game_plies.min(self.numbered_plies())
    }
}

/// Highest move number a game can reach: BACKREQ's 3 digits
/// ([`spec::damexchange`](crate::spec::damexchange), *BACKREQ*).
pub const MAX_MOVE_NUMBER: u16 = 999;

/// Most frames held back during the follower's first-move pause (each
/// at most 128 bytes; see `FollowerConfig::first_move_delay`): past it
/// the pause ends early.
pub(crate) const MAX_HELD: usize = 64;

/// Highest MOVE time, seconds: 4 digits ([`spec::damexchange`](crate::spec::damexchange), *MOVE*).
pub const MAX_MOVE_TIME: u16 = 9999;

/// What both roles share: framing of raw input, output queues, the game,
/// the reply timer, and the handling of MOVE, GAMEEND, CHAT, BACKREQ and
/// BACKACC.
#[derive(Debug)]
pub(crate) struct Core<T> {
    pub(crate) game: Option<Game<T>>,
    /// The game that ended, kept until its GameEnded event was delivered.
    finished: Option<Game<T>>,
    pub(crate) take_backs: bool,
    pub(crate) stop: StopCode,
    pub(crate) leniency: Leniency,
    /// Raw input not yet framed (at most the framer's cap + 1 bytes);
    /// `None` only while `Endpoint::handle_input` runs.
    input: Option<Input>,
    transmit: VecDeque<Encoded>,
    /// Frames held back until `release_at` (the follower's first-move pause).
    held: VecDeque<(MessageKind, Encoded)>,
    release_at: Option<T>,
    events: VecDeque<Event>,
    reply_timeout: Option<Duration>,
    /// The answer we wait for and when the wait ends.
    awaiting: Option<(MessageKind, T)>,
    /// When our turn began (for the seconds of `send_move`).
    turn_began: Option<T>,
    /// The earliest our first move of the game may go out (the follower's
    /// pause after its GAMEACC); taken by our next `send_move`.
    pub(crate) first_move_at: Option<T>,
    /// Added to the opponent's remaining clock time to bound the wait for
    /// its move; `None`: no bound.
    clock_margin: Option<Duration>,
    /// When the handshake (a GAMEACC either way) must be done; `None`:
    /// done, or no bound.
    handshake_by: Option<T>,
    /// Bad frames in a row that close the connection; `None`: no bound.
    max_bad_frames: Option<u32>,
    /// Malformed or unrecognised frames in a row so far.
    bad_frames: u32,
    /// The most moves a game holds (at least 1).
    max_game_plies: usize,
    /// The session closes: `Some` once decided; the bool is whether the
    /// closing transmit went out.
    closing: Option<(CloseReason, bool)>,
}

/// The bounds a session keeps on its connection (both roles' configs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    pub(crate) reply_timeout: Option<Duration>,
    pub(crate) clock_margin: Option<Duration>,
    pub(crate) handshake_timeout: Option<Duration>,
    pub(crate) max_bad_frames: Option<u32>,
    pub(crate) max_game_plies: u32,
}

impl<T: Timestamp> Core<T> {
    pub(crate) fn new(
        take_backs: bool,
        stop: StopCode,
        leniency: Leniency,
        bounds: Bounds,
        now: T,
    ) -> Core<T> {
        let Bounds {
            reply_timeout,
            clock_margin,
            handshake_timeout,
            max_bad_frames,
            max_game_plies,
        } = bounds;
        Core {
            handshake_by: handshake_timeout.map(|d| now.saturating_add(d)),
            max_bad_frames: max_bad_frames.map(|n| n.max(1)),
            bad_frames: 0,
            max_game_plies: usize::try_from(max_game_plies).unwrap_or(usize::MAX).max(1),
            closing: None,
            game: None,
            finished: None,
            take_backs,
            stop,
            leniency,
            input: Some(new_input()),
            transmit: VecDeque::new(),
            held: VecDeque::new(),
            release_at: None,
            events: VecDeque::new(),
            reply_timeout,
            awaiting: None,
            turn_began: None,
            first_move_at: None,
            clock_margin,
        }
    }

    /// Notes when our turn began: called after every input.
    pub(crate) fn mark_turn(&mut self, now: T) {
        let ours = self
            .game
            .as_ref()
            .is_some_and(|g| g.our_turn() && g.ending.is_none());
        if !ours {
            self.turn_began = None;
        } else if self.turn_began.is_none() {
            self.turn_began = Some(now);
        }
        if let Some(g) = self.game.as_mut() {
            g.clock.mark(!g.our_turn() && g.ending.is_none(), now);
        }
    }

    /// When the wait for the opponent's move ends: its turn began, plus
    /// its remaining clock time, plus the margin; `None` without a clock
    /// (thinking time `000`), without a margin, or when already reported.
    fn clock_deadline(&self) -> Option<T> {
        let margin = self.clock_margin?;
        let g = self.game.as_ref()?;
        if g.ending.is_some() || g.our_turn() || g.clock.reported || g.minutes == 0 {
            return None;
        }
        let began = g.clock.began?;
        let period = Duration::from_secs(u64::from(g.minutes) * 60);
        Some(
            began
                .saturating_add(period.saturating_sub(g.clock.used))
                .saturating_add(margin),
        )
    }

    /// Whole seconds since our turn began, clamped to 0..=9999 (MOVE time).
    pub(crate) fn seconds_used(&self, now: T) -> u16 {
        self.turn_began.map_or(0, |at| {
            now.saturating_duration_since(at)
                .as_secs()
                .min(u64::from(MAX_MOVE_TIME)) as u16
        })
    }

    /// The peer closed the stream: a game in progress ends without result;
    /// nothing is awaited or held any more.
    pub(crate) fn handle_close(&mut self) {
        self.awaiting = None;
        self.first_move_at = None;
        self.release_at = None;
        self.held.clear();
        self.turn_began = None;
        if self.game.is_some() {
            self.end_closed();
        }
    }

    /// The game in progress, or the one that just ended (until its event
    /// was handled).
    pub(crate) fn shown_game(&self) -> Option<&Game<T>> {
        self.game.as_ref().or(self.finished.as_ref())
    }

    pub(crate) fn start_game(&mut self, game: Game<T>) {
        self.finished = None;
        self.turn_began = None;
        self.game = Some(game);
    }

    /// Queues `msg`, or holds it back during the follower's first-move
    /// pause. At most `MAX_HELD` frames are held: a peer that makes us
    /// answer more during the pause (a BACKREQ flood) ends the pause
    /// early, so that what it makes us write goes to the transmit queue,
    /// which the application drains and its driver caps.
    pub(crate) fn send(&mut self, msg: &Message<'_>) {
        let enc = msg.encoded();
        if self.release_at.is_none() {
            return self.transmit.push_back(enc);
        }
        if self.held.len() >= MAX_HELD {
            self.release_at = None;
            self.transmit.extend(self.held.drain(..).map(|(_, e)| e));
            return self.transmit.push_back(enc);
        }
        self.held.push_back((msg.kind(), enc));
    }

    /// Sends a request that the peer must answer with `answer` within the
    /// reply timeout.
    pub(crate) fn send_request(&mut self, msg: &Message<'_>, answer: MessageKind, now: T) {
        self.send(msg);
        self.awaiting = self.reply_timeout.map(|d| (answer, now.saturating_add(d)));
    }

    /// The awaited answer `kind` arrived.
    pub(crate) fn answered(&mut self, kind: MessageKind) {
        if self.awaiting.is_some_and(|(k, _)| k == kind) {
            self.awaiting = None;
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
        if matches!(e, Event::GameStarted(_) | Event::GameRefused { .. }) {
            self.handshake_by = None;
        }
        self.events.push_back(e);
    }

    /// The session closes the connection: `chat` first (if any), then the
    /// closing transmit; nothing else is sent, awaited or read after it.
    fn close_for(&mut self, why: CloseReason, chat: Option<&str>) {
        if self.closing.is_some() {
            return;
        }
        if let Some(text) = chat {
            let _ = self.send_chat(text);
        }
        self.closing = Some((why, false));
        self.release_at = None;
        self.held.clear();
        self.awaiting = None;
        self.handshake_by = None;
        self.event(Event::Closing(why));
    }

    /// Why the session closes the connection, once it does.
    pub(crate) fn close_reason(&self) -> Option<CloseReason> {
        self.closing.map(|(why, _)| why)
    }

    /// Counts a bad frame (`true`) or a good one; closes at the limit.
    fn count_frame(&mut self, bad: bool) {
        if !bad {
            self.bad_frames = 0;
            return;
        }
        self.bad_frames = self.bad_frames.saturating_add(1);
        if self
            .max_bad_frames
            .is_some_and(|max| self.bad_frames >= max)
        {
            let text = alloc::format!(
                "error: {} malformed or unrecognised frames in a row; closing",
                self.bad_frames
            );
            self.close_for(CloseReason::TooManyBadFrames, Some(&text));
        }
    }

    pub(crate) fn poll_transmit(&mut self) -> Option<Transmit> {
        if let Some(e) = self.transmit.pop_front() {
            return Some(Transmit::new(e.as_frame()));
        }
        match &mut self.closing {
            Some((_, sent @ false)) => {
                *sent = true;
                Some(Transmit::close())
            }
            _ => None,
        }
    }

    pub(crate) fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    pub(crate) fn poll_timeout(&self) -> Option<T> {
        if self.closing.is_some() {
            return None;
        }
        [
            self.handshake_by,
            self.release_at,
            self.awaiting.map(|(_, at)| at),
            self.clock_deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    pub(crate) fn handle_timeout(&mut self, now: T) {
        if self.closing.is_some() {
            return;
        }
        if self.handshake_by.is_some_and(|at| now >= at) {
            return self.close_for(CloseReason::HandshakeTimeout, None);
        }
        if self.release_at.is_some_and(|at| now >= at) {
            self.release_at = None;
            self.transmit.extend(self.held.drain(..).map(|(_, e)| e));
        }
        if let Some((awaiting, at)) = self.awaiting
            && now >= at
        {
            self.awaiting = None;
            self.event(Event::PeerSilent { awaiting });
        }
        if self.clock_deadline().is_some_and(|at| now >= at)
            && let Some(g) = self.game.as_mut()
        {
            g.clock.reported = true;
            self.event(Event::PeerSilent {
                awaiting: MessageKind::Move,
            });
        }
    }

    /// Ends the game: GameEnded is queued, the game stays visible until it
    /// was delivered; held MOVEs are dropped (the game they belong to is
    /// over).
    fn finish_game(&mut self, by: Side, reason: GameEndReason, opponent_stop: StopCode) {
        self.finish(by, reason, opponent_stop, false);
    }

    /// The game in progress ends because the stream closed.
    fn end_closed(&mut self) {
        self.finish(
            Side::Opponent,
            GameEndReason::Unknown,
            StopCode::NoMoreGames,
            true,
        );
    }

    fn finish(&mut self, by: Side, reason: GameEndReason, opponent_stop: StopCode, closed: bool) {
        let Some(game) = self.game.take() else {
            return;
        };
        self.held.retain(|(k, _)| *k != MessageKind::Move);
        if self.held.is_empty() {
            self.release_at = None;
        }
        self.turn_began = None;
        self.event(Event::GameEnded(GameEnded {
            closed,
            outcome: outcome_of(by, reason),
            reason,
            by,
            opponent_stop,
            our_color: game.our_color,
            start: game.start,
            moves: game.history.clone(),
        }));
        self.finished = Some(game);
    }

    /// Plays our move and queues its MOVE (saying `time` seconds), no
    /// earlier than [`Core::first_move_at`] for the game's first move.
    pub(crate) fn send_move(
        &mut self,
        mv: board::Move,
        time: u16,
        now: T,
    ) -> Result<(), CommandError> {
        let first_move_at = self.first_move_at.take();
        let game = self.game.as_mut().ok_or(CommandError::NoGame)?;
        // Before the GAMEEND check: at the cap our GAMEEND is on its way.
        if game.history.len() >= game.ply_cap(self.max_game_plies) {
            return Err(CommandError::MoveLimit);
        }
        if game.ending.is_some() {
            return Err(CommandError::NoGame);
        }
        if game.take_back_pending.is_some() {
            return Err(CommandError::TakeBackPending);
        }
        if !game.our_turn() {
            return Err(CommandError::NotYourTurn);
        }
        let next = game
            .position
            .play(mv)
            .map_err(|_| CommandError::IllegalMove)?;
        let not_before = first_move_at.filter(|_| game.history.is_empty());
        game.position = next;
        game.history.push(mv);
        game.clock.mark(true, now);
        self.turn_began = None;
        let msg = Message::Move(move_to_wire(mv, time.min(MAX_MOVE_TIME)));
        match not_before {
            Some(at) => self.send_not_before(&msg, at, now),
            None => self.send(&msg),
        }
        Ok(())
    }

    pub(crate) fn end_game(&mut self, reason: GameEndReason, now: T) -> Result<(), CommandError> {
        let stop = self.stop;
        let game = self.game.as_mut().ok_or(CommandError::NoGame)?;
        if game.ending.is_some() {
            return Err(CommandError::NoGame);
        }
        game.ending = Some((reason, stop));
        self.send_request(
            &Message::GameEnd(GameEnd { reason, stop }),
            MessageKind::GameEnd,
            now,
        );
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
        now: T,
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
        self.send_request(&Message::BackReq(req), MessageKind::BackAcc, now);
        Ok(())
    }

    /// MOVE, GAMEEND, CHAT, BACKREQ, BACKACC, unrecognised frames: the same
    /// for both roles.
    pub(crate) fn on_common(&mut self, msg: &Message<'_>, now: T) {
        match msg {
            Message::Move(mv) => self.on_move(*mv, now),
            Message::GameEnd(end) => self.on_gameend(*end),
            Message::Chat(chat) => self.event(Event::Chat(chat.text.as_str().to_string())),
            Message::BackReq(req) => self.on_backreq(*req),
            Message::BackAcc(acc) => self.on_backacc(*acc),
            Message::Unrecognised(u) => self.event(Event::Unrecognised(u.clone().into_owned())),
            // Role-specific: handled by the role before it calls this.
            Message::GameReq(_) | Message::GameAcc(_) => {}
        }
    }

    /// What the framer or decoder could not turn into a message: reported
    /// as [`Event::Malformed`]; a request the peer waits on is answered
    /// ([`spec::damexchange`](crate::spec::damexchange), *BACKREQ*, *GAMEEND*), with a CHAT
    /// naming the field: a BACKREQ that does not decode gets `K1` (refused;
    /// the game goes on), a GAMEEND that does not decode during a game is
    /// taken as reason `0` with stop code `1` (no result, the sender plays
    /// no further game) and answered as any GAMEEND. Other frames have no
    /// answer. Returns the decode error of a GAMEREQ for the follower.
    pub(crate) fn on_frame_error(&mut self, error: &FrameError) -> Option<DecodeError> {
        self.event(Event::Malformed(*error));
        let FrameError::Malformed(e) = error else {
            return None;
        };
        match e.message {
            MessageKind::BackReq => {
                self.chat_error(e);
                self.send(&Message::BackAcc(BackAcc {
                    code: BackAccCode::NotSupported,
                }));
                self.event(Event::TakeBackDeclined {
                    by: Side::Opponent,
                    code: BackAccCode::NotSupported,
                });
                None
            }
            MessageKind::GameEnd if self.game.is_some() => {
                self.chat_error(e);
                self.on_gameend(GameEnd {
                    reason: GameEndReason::Unknown,
                    stop: StopCode::NoMoreGames,
                });
                None
            }
            MessageKind::GameReq => Some(*e),
            _ => None,
        }
    }

    /// Sends `error: <what and where>` as a CHAT (cut to the 126 bytes a
    /// CHAT carries; a decode error's text is 7-bit ASCII).
    pub(crate) fn chat_error(&mut self, e: &DecodeError) {
        let mut text = alloc::format!("error: {e}");
        text.truncate(ChatText::MAX_LEN);
        if let Ok(text) = ChatText::new(text) {
            self.send(&Message::Chat(Chat { text }));
        }
    }

    fn on_move(&mut self, wire: WireMove, now: T) {
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
        let cap = game.ply_cap(self.max_game_plies);
        if game.history.len() >= cap {
            // Our MOVE reached the cap: the opponent's is not played
            // (`PlyCapReached` says so), and the GAMEEND takes our turn.
            // Past move 999 this is the opponent's move 1000, which DXP
            // cannot number: no misbehaviour either (the spec does not
            // forbid it), so not a `MoveRejected`.
            return self.end_at_cap(cap, now);
        }
        match game.position.play(mv) {
            Ok(next) => {
                game.position = next;
                game.history.push(mv);
                game.clock.moved(now, game.moves);
                let at_cap = game.history.len() >= cap;
                self.event(Event::MoveReceived {
                    mv,
                    time: wire.time(),
                });
                if at_cap {
                    self.end_at_cap(cap, now);
                }
            }
            Err(_) => reject(self, MoveRejection::Illegal),
        }
    }

    /// The game holds its cap of `plies` moves ([`Game::ply_cap`]) and it
    /// is our turn: GAMEEND reason `0` ([`Event::PlyCapReached`]). No CHAT
    /// goes with it: pydraughts reads two frames that arrive together as
    /// one and would lose the GAMEEND.
    fn end_at_cap(&mut self, plies: usize, now: T) {
        self.event(Event::PlyCapReached { plies });
        let _ = self.end_game(GameEndReason::Unknown, now);
    }

    fn on_gameend(&mut self, end: GameEnd) {
        let Some(game) = self.game.as_mut() else {
            return self.event(Event::Unexpected {
                message: MessageKind::GameEnd,
                reason: Unexpected::GameEndWithoutGame,
            });
        };
        match game.ending {
            // The answer to ours: the game is over.
            Some((reason, _)) => {
                self.answered(MessageKind::GameEnd);
                self.finish_game(Side::Us, reason, end.stop);
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
                self.finish_game(Side::Opponent, end.reason, end.stop);
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
                    if game.take_back_pending.take().is_some() {
                        self.answered(MessageKind::BackAcc);
                    }
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
                reason: Unexpected::BackAccUnasked,
            });
        };
        self.answered(MessageKind::BackAcc);
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
