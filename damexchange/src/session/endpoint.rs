//! The one session type of both roles: [`Endpoint`], with the inputs,
//! outputs, accessors and commands that the [`Initiator`](super::Initiator)
//! and the [`Follower`](super::Follower) share, written once. What differs
//! (GAMEREQ and GAMEACC, the constructors and settings) is in the roles'
//! modules.

use board_core::draughts::{self as board, Position};

use super::{CloseReason, CommandError, Core, Event, Timestamp, Transmit};
use crate::decode::decode_with;
use crate::error::FrameError;
use crate::framer::Frame;
use crate::message::{GameEndReason, Message};

/// One end of a DXP connection in role `R`, sans-IO (see the
/// [module docs](super) for the call order): the one type behind
/// [`Initiator<T>`](super::Initiator) (`Endpoint<InitiatorRole, T>`) and
/// [`Follower<T>`](super::Follower) (`Endpoint<FollowerRole, T>`).
///
/// Use the role's name; this one is for code written over both roles. The
/// methods below are those of both roles; each role adds its own
/// (`new`, `config`, and the initiator's `request_game`, `end_stale_game`,
/// `is_stopped`). `T` is the application's clock type ([`Timestamp`]).
#[derive(Debug)]
pub struct Endpoint<R, T> {
    pub(super) role: R,
    pub(super) core: Core<T>,
}

/// A role of a DXP session: [`InitiatorRole`](super::InitiatorRole) or
/// [`FollowerRole`](super::FollowerRole), the type parameter of
/// [`Endpoint`]. Sealed: the crate's two roles are the only ones.
pub trait Role: sealed::RoleState {}

/// The sealed part of [`Role`]: a trait no code outside the crate can name
/// or implement.
pub(super) mod sealed {
    use super::super::Timestamp;
    use super::Endpoint;
    use crate::error::FrameError;
    use crate::message::Message;

    /// What differs between the two roles, for the shared input handling
    /// of [`Endpoint`]: each role's own state implements it.
    pub trait RoleState: Sized {
        /// A decoded message from the peer.
        fn on_message<T: Timestamp>(s: &mut Endpoint<Self, T>, msg: &Message<'_>, now: T);
        /// What the framer or decoder reported instead of a message.
        fn on_frame_error<T: Timestamp>(s: &mut Endpoint<Self, T>, error: &FrameError);
        /// The peer closed the stream.
        fn on_close(&mut self) {}
    }
}

/// Inputs, outputs, the game and the commands: the same for both roles
/// (the call order is in the [module docs](super)).
impl<R: Role, T: Timestamp> Endpoint<R, T> {
    /// Feeds bytes received from the peer (any amount: part of a message,
    /// several messages). Frames are cut with the
    /// [`Framer`](crate::framer::Framer) (cap 127 bytes) in a
    /// [`FrameBuffer`](crate::framer::FrameBuffer) and decoded with the
    /// config's leniency; a bad frame is reported as [`Event::Malformed`]
    /// and the next one still decodes.
    pub fn handle_input(&mut self, bytes: &[u8], now: T) {
        let Some(mut input) = self.core.input.take() else {
            return;
        };
        input.feed(bytes, |frame| match frame {
            Frame::Complete(frame) => match decode_with::<Message>(frame, &self.core.leniency) {
                Ok(msg) => self.one_message(&msg, now),
                Err(e) => self.one_frame_error(&FrameError::Malformed(e)),
            },
            Frame::Overlong { len, max } => {
                self.one_frame_error(&FrameError::Overlong { len, max })
            }
        });
        self.core.input = Some(input);
        self.core.mark_turn(now);
    }

    /// Feeds one message already decoded (e.g. by
    /// `codec::DxpCodec`, feature `tokio`).
    pub fn handle_message(&mut self, msg: &Message<'_>, now: T) {
        self.one_message(msg, now);
        self.core.mark_turn(now);
    }

    /// Feeds what the codec reported instead of a message (an over-long or
    /// malformed frame): reported as [`Event::Malformed`], which the
    /// drivers count towards their misbehaviour limit. A request the peer
    /// waits on is answered all the same, with a CHAT naming the field: a
    /// GAMEREQ (follower) with GAMEACC `1` when its version field is bad,
    /// else `2`; a BACKREQ with `K1`; a GAMEEND during a game as reason
    /// `0`, stop code `1` (answered with our GAMEEND, the game ends without
    /// result). Other bad frames have no answer; the game is unchanged.
    pub fn handle_frame_error(&mut self, error: &FrameError, now: T) {
        self.one_frame_error(error);
        self.core.mark_turn(now);
    }

    /// The peer closed the stream. A game in progress ends:
    /// [`Event::GameEnded`] with [`Outcome::Unknown`](super::Outcome::Unknown)
    /// and `closed` set; nothing is awaited any more (no
    /// [`Event::PeerSilent`]).
    pub fn handle_close(&mut self, _now: T) {
        self.role.on_close();
        self.core.handle_close();
    }

    /// Tells the session the time: releases held-back output that is due
    /// and reports a silent peer ([`Event::PeerSilent`]).
    pub fn handle_timeout(&mut self, now: T) {
        self.core.handle_timeout(now);
    }

    /// Next frame to write to the peer (call 1 of 3 after an input).
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.core.poll_transmit()
    }

    /// Next event for the application (call 2 of 3).
    pub fn poll_event(&mut self) -> Option<Event> {
        self.core.poll_event()
    }

    /// When to call `handle_timeout` next (call 3 of 3): held-back output,
    /// or the end of the wait for an answer.
    pub fn poll_timeout(&self) -> Option<T> {
        self.core.poll_timeout()
    }

    /// Why the session closes the connection, once it does
    /// ([`Event::Closing`]).
    pub fn close_reason(&self) -> Option<CloseReason> {
        self.core.close_reason()
    }

    /// The current position: of the game in progress, or of the game that
    /// ended last, until the next game starts.
    pub fn position(&self) -> Option<&Position> {
        self.core.shown_game().map(|g| &g.position)
    }

    /// The start position of the game (as [`Self::position`]).
    pub fn start_position(&self) -> Option<&Position> {
        self.core.shown_game().map(|g| &g.start)
    }

    /// The moves played so far in the game (board-core moves, in order,
    /// from its start position; as [`Self::position`]: the finished game's
    /// stay readable after [`Event::GameEnded`] until the next game starts).
    pub fn moves(&self) -> &[board::Move] {
        self.core.shown_game().map_or(&[], |g| &g.history)
    }

    /// The colour we play (as [`Self::position`]).
    pub fn our_color(&self) -> Option<board::Color> {
        self.core.shown_game().map(|g| g.our_color)
    }

    /// `true` when a game is in progress, it is our move, our move of this
    /// turn has not been sent, and nothing (a GAMEEND or take-back of ours)
    /// is pending. At the game's cap of plies (the config's
    /// `max_game_plies`, or move 999 of both sides) it is false: the
    /// session's own GAMEEND is pending then ([`Event::PlyCapReached`]).
    pub fn is_our_turn(&self) -> bool {
        self.core
            .game
            .as_ref()
            .is_some_and(|g| g.our_turn() && g.ending.is_none() && g.take_back_pending.is_none())
    }

    /// Move number (1..) and colour to move of the current position (as
    /// [`Self::position`]).
    pub fn move_number(&self) -> Option<(u16, board::Color)> {
        self.core
            .shown_game()
            .map(|g| g.move_number_at(g.history.len()))
    }

    /// The GAMEREQ settings of the game: (minutes per player, moves in that
    /// time; 0 = all) (as [`Self::position`]).
    pub fn time_control(&self) -> Option<(u16, u16)> {
        self.core.shown_game().map(|g| (g.minutes, g.moves))
    }

    /// Plays our move `mv` (checked against the legal moves) and queues its
    /// MOVE; the MOVE's time is the whole seconds since our turn began (the
    /// input after which it was our move), clamped to 0..=9999
    /// ([`spec::damexchange`](crate::spec::damexchange), *MOVE*).
    /// The follower's first move of a game it plays White goes out no
    /// earlier than its config's `first_move_delay` after its GAMEACC.
    ///
    /// # Errors
    /// [`CommandError::NoGame`], [`CommandError::NotYourTurn`] (also for a
    /// second move in one turn), [`CommandError::IllegalMove`],
    /// [`CommandError::TakeBackPending`], [`CommandError::MoveLimit`] once
    /// the game holds its cap of plies (the config's `max_game_plies`,
    /// or move 999 of both sides: [`Event::PlyCapReached`]); nothing is
    /// sent then.
    pub fn send_move(&mut self, mv: board::Move, now: T) -> Result<(), CommandError> {
        let seconds = self.core.seconds_used(now);
        self.core.send_move(mv, seconds, now)
    }

    /// [`Self::send_move`] with the seconds we say we used (0..=9999,
    /// clamped) instead of the time since our turn began.
    ///
    /// # Errors
    /// As [`Self::send_move`].
    pub fn send_move_with(
        &mut self,
        mv: board::Move,
        seconds: u16,
        now: T,
    ) -> Result<(), CommandError> {
        self.core.send_move(mv, seconds, now)
    }

    /// Ends the game: sends GAMEEND with `reason` (from our side) and our
    /// stop code; the game is over when the answer arrives
    /// ([`Event::GameEnded`]); no answer within the reply timeout is
    /// [`Event::PeerSilent`].
    ///
    /// # Errors
    /// [`CommandError::NoGame`] with no game (or one already ending).
    pub fn end_game(&mut self, reason: GameEndReason, now: T) -> Result<(), CommandError> {
        self.core.end_game(reason, now)
    }

    /// Sends CHAT (1..=126 bytes of 7-bit text), allowed at any time.
    ///
    /// # Errors
    /// [`CommandError::Value`] for text the message cannot carry.
    pub fn send_chat(&mut self, text: &str, _now: T) -> Result<(), CommandError> {
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
        color: board::Color,
        now: T,
    ) -> Result<(), CommandError> {
        self.core.request_take_back(move_number, color, now)
    }

    /// Allows or refuses (answer `K1`) the opponent's take-backs.
    pub fn set_take_backs(&mut self, allowed: bool) {
        self.core.take_backs = allowed;
    }
}

impl<R: Role, T: Timestamp> Endpoint<R, T> {
    /// One decoded message, unless the session is closing; counted towards
    /// the bad-frame limit when unrecognised.
    fn one_message(&mut self, msg: &Message<'_>, now: T) {
        if self.core.closing.is_some() {
            return;
        }
        R::on_message(self, msg, now);
        self.core
            .count_frame(matches!(msg, Message::Unrecognised(_)));
    }

    /// One frame error, unless the session is closing; counted towards the
    /// bad-frame limit.
    fn one_frame_error(&mut self, error: &FrameError) {
        if self.core.closing.is_some() {
            return;
        }
        R::on_frame_error(self, error);
        self.core.count_frame(true);
    }
}

boardwire_proto::forward_session! {
    impl<R: Role, T: Timestamp> Session for Endpoint<R, T> {
        type Time = T;
        type Incoming<'a> = Message<'a>;
        type Outgoing<'a> = Message<'a>;
        type Event = Event;

        fn decode_incoming<'a>(
            &self,
            frame: &'a [u8],
        ) -> Result<Message<'a>, crate::error::DecodeError> {
            crate::decode::decode_with(frame, &self.core.leniency)
        }

        fn decode_outgoing<'a>(
            &self,
            frame: &'a [u8],
        ) -> Result<Message<'a>, crate::error::DecodeError> {
            crate::decode::decode(frame)
        }

        fn is_unrecognised(msg: &Message<'_>) -> bool {
            matches!(msg, Message::Unrecognised(_))
        }
    }
}
