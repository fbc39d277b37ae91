//! The sans-IO state machines ([`spec::citrine`](crate::spec::citrine), *Move text the
//! Citrine prints*, *Pacing*, *Known field problems*): the host
//! [`Driver`] that keeps a game in sync with a Citrine, and the simulated
//! Citrine [`Device`].
//!
//! Both have the family's session shape, generic over `T:`
//! [`Timestamp`] (the caller's clock; they never read one, sleep or do
//! I/O):
//!
//! ```text
//! session.handle_input(bytes, now);      // raw bytes from the wire
//! session.handle_message(&msg, now);     // or an already-decoded line (codec users)
//! session.handle_timeout(now);           // when poll_timeout() has passed
//! session.some_command(..., now)?;       // send_move, take_back, ... -> Result<_, CommandError>
//! while let Some(t) = session.poll_transmit() { write(t) }   // 1. bytes to write
//! while let Some(e) = session.poll_event() { react(e) }      // 2. what happened
//! let next = session.poll_timeout();                         // 3. when to wake
//! ```
//!
//! Every command takes `now` last (like the inputs, it advances the
//! session's clock); `poll_transmit` releases what is due at the latest
//! time given, so a command goes out on the next `poll_transmit` when the
//! pacing allows, else after the next `handle_timeout`. The end of the
//! stream is `handle_close(now)`: a game in progress ends with
//! [`Outcome::Unknown`] ([`EndReason::Closed`]) and is cleared after its
//! [`GameEnded`] event.
//!
//! Accessors, the same in both: `position()` and `start_position()`
//! (`Option<&Position>`, `None` once closed), `moves()` (a slice of
//! board-core moves, in order) and `is_our_turn()`.

use alloc::vec::Vec;

pub use board_core::time::Timestamp;

use crate::vocab::{Color, Move, Piece, Position, Square};

pub mod device;
pub mod driver;

pub use device::{Device, DeviceConfig, Event as DeviceEvent, GARBAGE_LINE, Misbehaviour};
pub use driver::{Disagreement, Driver, DriverConfig, Event, Resync};

/// The default of [`DriverConfig::max_game_plies`] (20,000 plies): the
/// family's one default, `boardwire_proto`'s, whose documentation gives
/// the published facts it is chosen from.
pub use boardwire_proto::DEFAULT_MAX_GAME_PLIES;

/// The bytes of one line to write (a command for the driver, a reply for
/// the device), terminator included: the family's `Transmit`
/// (`boardwire_proto::Transmit`; a Citrine line fits inline, no
/// allocation). A Citrine session never asks to close the port.
pub use boardwire_proto::Transmit;

/// The family's session contract (`boardwire_proto::Session`), which
/// [`Driver`] and [`Device`] implement (`Conn = ()`): for code generic over
/// the sessions of damexchange, csa-protocol and this crate. Concrete code
/// calls the inherent methods.
pub use boardwire_proto::Session;
/// Two one-peer sessions wired together in memory (tests, examples,
/// simulations): `pump`, `next_deadline`, `handle_timeouts`, and the loop
/// that works for every session of the family (the shared core's).
pub use boardwire_proto::memory;

/// How a game ended, from our side (the host's colour for the
/// [`Driver`], the engine's colour for the [`Device`]; the family's,
/// `boardwire_proto`'s). Here [`Outcome::Unknown`] means no result: the
/// game was abandoned (a new game started, the stream closed), or we play
/// no fixed side.
#[doc(inline)]
pub use boardwire_proto::session::Outcome;

/// The outcome of `position` (a finished game) for `us`, and why.
pub(crate) fn outcome_of(position: &Position, us: Option<Color>) -> (Outcome, EndReason) {
    use board_core::chess::Outcome as Rules;
    match position.outcome() {
        Some(Rules::Checkmate { winner }) => (
            match us {
                Some(c) if c == winner => Outcome::Won,
                Some(_) => Outcome::Lost,
                None => Outcome::Unknown,
            },
            EndReason::Checkmate { winner },
        ),
        Some(Rules::Stalemate) => (Outcome::Drawn, EndReason::Stalemate),
        Some(Rules::InsufficientMaterial) => (Outcome::Drawn, EndReason::InsufficientMaterial),
        None => (Outcome::Unknown, EndReason::NewGame),
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// Checkmate.
    Checkmate {
        /// The side that mated.
        winner: Color,
    },
    /// Stalemate.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A new game started before the game reached a result (`New Game`
    /// from the device, prompted by `N` or unprompted).
    NewGame,
    /// The peer closed the stream (`handle_close`) during the game.
    Closed,
    /// The game reached the session's `max_game_plies` (the host
    /// [`Driver`]'s [`DriverConfig::max_game_plies`]).
    PlyCap,
}

impl core::fmt::Display for EndReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EndReason::Checkmate { winner } => write!(f, "checkmate, {winner} wins"),
            EndReason::Stalemate => f.write_str("stalemate"),
            EndReason::InsufficientMaterial => f.write_str("draw by insufficient material"),
            EndReason::NewGame => f.write_str("abandoned: a new game started"),
            EndReason::Closed => f.write_str("abandoned: the stream was closed"),
            EndReason::PlyCap => f.write_str("abandoned: the game reached the ply cap"),
        }
    }
}

/// A game has started (after `New Game`, or at the session's start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameStarted {
    /// The start position.
    pub start: Position,
}

/// A game has ended. Delivered before the session forgets the game; the
/// event carries it whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnded {
    /// From our side.
    pub outcome: Outcome,
    /// Why.
    pub reason: EndReason,
    /// The start position.
    pub start: Position,
    /// The moves played from `start`, in order.
    pub moves: Vec<Move>,
}

impl GameEnded {
    /// The line of both sessions' `Event::GameEnded`: `game over after <n>
    /// plies: <reason> (<who> won)`, `(<who> lost)`, `(drawn)` or `(no
    /// result)`, `who` naming our side (`we`, `the engine`).
    pub(crate) fn write_line(
        &self,
        f: &mut core::fmt::Formatter<'_>,
        who: &str,
    ) -> core::fmt::Result {
        write!(
            f,
            "game over after {} plies: {} (",
            self.moves.len(),
            self.reason
        )?;
        match self.outcome {
            Outcome::Won | Outcome::Lost => write!(f, "{who} {})", self.outcome),
            Outcome::Drawn | Outcome::Unknown => write!(f, "{})", self.outcome),
        }
    }
}

/// Why a command was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandError {
    /// Not our side to move, or our move of this turn is already sent and
    /// awaits its acknowledgement.
    #[error("not our turn")]
    NotYourTurn,
    /// The game is over (see [`GameEnded`]); start a new one first.
    #[error("no game in progress")]
    NoGame,
    /// The move is not legal in the tracked position.
    #[error("illegal move {0}")]
    IllegalMove(Move),
    /// The driver is out of sync with the device (or resynchronising).
    #[error("out of sync with the device")]
    OutOfSync,
    /// Nothing to take back.
    #[error("no move to take back")]
    NothingToTakeBack,
    /// Past move 9999, the largest move number the Citrine prints.
    #[error("past move 9999, the largest move number the Citrine prints")]
    MoveLimit,
    /// The stream is closed (after `handle_close`): nothing can be sent.
    #[error("the stream is closed")]
    Closed,
}

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
