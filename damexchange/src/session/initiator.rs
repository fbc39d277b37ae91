//! The initiator: proposes games with GAMEREQ, then plays
//! ([`spec::damexchange`](crate::spec::damexchange), *Roles and dialogue (layer 2)*, *GAMEREQ*).

use alloc::string::ToString;
use core::time::Duration;

use board_core::draughts::{self as board, Position};

use super::{
    CommandError, Core, Event, Game, GameStarted, RoleState, Timestamp, Transmit, Unexpected,
};
use crate::convert::{color_to_wire, position_to_setup};
use crate::decode::Leniency;
use crate::error::{FrameError, MessageKind};
use crate::message::{
    AcceptanceCode, GameAcc, GameEnd, GameEndReason, GameReq, Message, StartPosition, StopCode,
};
use crate::types::Name;

/// Initiator settings.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct InitiatorConfig {
    /// Our name in GAMEREQ.
    pub name: Name<'static>,
    /// Grant the opponent's take-backs (otherwise `K1`).
    pub take_backs: bool,
    /// Stop code in our GAMEENDs (`1`: no further games after this one).
    pub stop: StopCode,
    /// Decoding leniency for what the follower sends (`handle_input`).
    pub leniency: Leniency,
    /// How long the follower may take to answer our GAMEREQ, BACKREQ or
    /// GAMEEND before [`Event::PeerSilent`]; `None`: no bound.
    pub reply_timeout: Option<Duration>,
    /// The wait for the follower's move is bounded by its clock: the
    /// GAMEREQ's thinking time minus what it used (as we measure it, per
    /// period of `moves` moves), plus this margin; then
    /// [`Event::PeerSilent`] with `awaiting` MOVE. No bound for thinking
    /// time `000` or `None`.
    pub clock_margin: Option<Duration>,
    /// The connection closes ([`Event::Closing`] with
    /// [`CloseReason::HandshakeTimeout`](super::CloseReason::HandshakeTimeout),
    /// nothing sent) when no GAMEACC was received within this time of the
    /// session's creation; `None` (the default): no bound. `net` sets it
    /// from its `Limits::handshake_timeout` when `None`.
    pub handshake_timeout: Option<Duration>,
    /// This many malformed or unrecognised frames in a row close the
    /// connection, after a CHAT saying why ([`Event::Closing`] with
    /// [`CloseReason::TooManyBadFrames`](super::CloseReason::TooManyBadFrames));
    /// `None` (the default): no bound. `net` sets it from its driver
    /// limits' `max_bad_frames` when `None`.
    pub max_bad_frames: Option<u32>,
}

impl InitiatorConfig {
    /// Defaults: take-backs on, stop code `0`, strict decoding, 60 s reply
    /// timeout, 60 s clock margin.
    pub fn new(name: Name<'static>) -> InitiatorConfig {
        InitiatorConfig {
            name,
            take_backs: true,
            stop: StopCode::PlayOn,
            leniency: Leniency::STRICT,
            reply_timeout: Some(Duration::from_secs(60)),
            clock_margin: Some(Duration::from_secs(60)),
            handshake_timeout: None,
            max_bad_frames: None,
        }
    }
}

/// A game to propose, the initiator's GAMEREQ parameters in board-core
/// terms (for [`Initiator::request_game`]). Not a message: the GAMEREQ itself
/// is [`GameReq`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOffer {
    /// The colour *we* play (the GAMEREQ carries the follower's, the other).
    pub our_color: board::Color,
    /// Thinking time per player, minutes (0..=999).
    pub minutes: u16,
    /// Moves in that time (0..=999; 0 = the whole game).
    pub moves: u16,
    /// `None`: the standard start (`A`); `Some`: a set-up position (`B`).
    pub start: Option<Position>,
}

/// The initiator's own state.
#[derive(Debug)]
struct Role {
    config: InitiatorConfig,
    /// The GAMEREQ awaiting its GAMEACC.
    requested: Option<(GameOffer, Position)>,
    stopped: bool,
    /// We sent a GAMEEND with no game ([`Initiator::end_stale_game`]); its
    /// answer, if any, comes before the next GAMEACC.
    stale_end: bool,
}

/// The initiator side of a DXP connection (sans-IO; see the
/// [module docs](super) for the call order).
///
/// GAMEACC codes are acted on as [`spec::damexchange`](crate::spec::damexchange), *GAMEACC*,
/// says: `0` the game starts; `2`
/// the application may send another GAMEREQ; `1` and `3` stop: further
/// [`Initiator::request_game`] calls fail with [`CommandError::Stopped`].
///
/// `T` is the application's clock type ([`Timestamp`]).
#[derive(Debug)]
pub struct Initiator<T> {
    role: Role,
    core: Core<T>,
}

impl<T: Timestamp> Initiator<T> {
    /// An initiator with no game yet.
    ///
    /// `now` is the time on the application's clock when the connection
    /// began (the same clock as every later call).
    pub fn new(config: InitiatorConfig, now: T) -> Initiator<T> {
        Initiator {
            core: Core::new(
                config.take_backs,
                config.stop,
                config.leniency,
                super::Bounds {
                    reply_timeout: config.reply_timeout,
                    clock_margin: config.clock_margin,
                    handshake_timeout: config.handshake_timeout,
                    max_bad_frames: config.max_bad_frames,
                },
                now,
            ),
            role: Role {
                config,
                requested: None,
                stopped: false,
                stale_end: false,
            },
        }
    }

    /// The settings.
    pub fn config(&self) -> &InitiatorConfig {
        &self.role.config
    }

    /// Sends GAMEREQ for `request`; no GAMEACC within the reply timeout is
    /// [`Event::PeerSilent`].
    ///
    /// # Errors
    /// [`CommandError::GameInProgress`] while a game is in progress or a
    /// GAMEREQ awaits its answer; [`CommandError::Stopped`] after GAMEACC
    /// `1` or `3`; [`CommandError::Value`] for minutes or moves above 999.
    pub fn request_game(&mut self, request: GameOffer, now: T) -> Result<(), CommandError> {
        if self.role.stopped {
            return Err(CommandError::Stopped);
        }
        if self.core.game.is_some() || self.role.requested.is_some() {
            return Err(CommandError::GameInProgress);
        }
        let (position, start) = match request.start {
            None => (StartPosition::Initial, Position::startpos()),
            Some(pos) => (StartPosition::Setup(position_to_setup(&pos)), pos),
        };
        let req = GameReq::new(
            self.role.config.name.clone(),
            color_to_wire(request.our_color.opposite()),
            request.minutes,
            request.moves,
            position,
        )?;
        self.core
            .send_request(&Message::GameReq(req), MessageKind::GameAcc, now);
        self.role.requested = Some((request, start));
        Ok(())
    }

    /// Sends GAMEEND (reason `0`, our stop code) with no game of ours, for a
    /// follower that kept a game open from an earlier connection (Moby Dam
    /// refuses new games with GAMEACC `2` until it gets one). Its answer,
    /// a GAMEEND before the next GAMEACC, is taken as that answer and not
    /// reported as unexpected; a follower with no open game may not answer
    /// at all, so nothing is awaited.
    ///
    /// # Errors
    /// [`CommandError::GameInProgress`] while a game is in progress or a
    /// GAMEREQ awaits its answer.
    pub fn end_stale_game(&mut self, _now: T) -> Result<(), CommandError> {
        if self.core.game.is_some() || self.role.requested.is_some() {
            return Err(CommandError::GameInProgress);
        }
        self.core.send(&Message::GameEnd(GameEnd {
            reason: GameEndReason::Unknown,
            stop: self.core.stop,
        }));
        self.role.stale_end = true;
        Ok(())
    }

    /// `true` after GAMEACC `1` or `3`: no more games on this connection.
    pub fn is_stopped(&self) -> bool {
        self.role.stopped
    }
}

impl<T: Timestamp> RoleState<T> for Role {
    fn on_message(&mut self, core: &mut Core<T>, msg: &Message<'_>, now: T) {
        match msg {
            Message::GameAcc(acc) => {
                self.stale_end = false;
                on_gameacc(self, core, acc)
            }
            // The answer to our GAMEEND of `end_stale_game`.
            Message::GameEnd(_) if self.stale_end && core.game.is_none() => {
                self.stale_end = false;
            }
            Message::GameReq(_) => core.event(Event::Unexpected {
                message: MessageKind::GameReq,
                reason: Unexpected::GameReqToInitiator,
            }),
            msg => core.on_common(msg, now),
        }
    }

    fn on_frame_error(&mut self, core: &mut Core<T>, e: &FrameError, _now: T) {
        // A GAMEREQ sent to the initiator is not answered, decodable or not.
        let _ = core.on_frame_error(e);
    }

    fn on_close(&mut self) {
        self.requested = None;
    }

    fn first_move_not_before(&mut self, _core: &Core<T>) -> Option<T> {
        None
    }
}

fn on_gameacc<T: Timestamp>(role: &mut Role, core: &mut Core<T>, acc: &GameAcc<'_>) {
    let Some((request, start)) = role.requested.take() else {
        return core.event(Event::Unexpected {
            message: MessageKind::GameAcc,
            reason: Unexpected::GameAccUnasked,
        });
    };
    core.answered(MessageKind::GameAcc);
    match acc.code {
        AcceptanceCode::Accepted => {
            core.start_game(Game::new(
                request.our_color,
                start,
                request.minutes,
                request.moves,
            ));
            core.event(Event::GameStarted(GameStarted {
                our_color: request.our_color,
                opponent: acc.follower.as_str().to_string(),
                start,
                minutes: request.minutes,
                moves: request.moves,
            }));
        }
        code => {
            if matches!(
                code,
                AcceptanceCode::VersionMismatch | AcceptanceCode::NoGames
            ) {
                role.stopped = true;
            }
            core.event(Event::GameRefused { code });
        }
    }
}

/// Inputs, outputs and the game (the same methods as [`Follower`](super::Follower)'s; the call
/// order is in the [module docs](super)).
impl<T: Timestamp> Initiator<T> {
    /// Feeds bytes received from the peer (any amount: part of a message,
    /// several messages). Frames are cut with the
    /// [`Framer`](crate::framer::Framer) (cap 127 bytes) in a
    /// [`FrameBuffer`](crate::framer::FrameBuffer) and decoded with the
    /// config's leniency; a bad frame is reported as [`Event::Malformed`]
    /// and the next one still decodes.
    pub fn handle_input(&mut self, bytes: &[u8], now: T) {
        self.core.input(&mut self.role, bytes, now);
    }

    /// Feeds one message already decoded (e.g. by
    /// [`DxpCodec`](crate::codec::DxpCodec)).
    pub fn handle_message(&mut self, msg: &Message<'_>, now: T) {
        self.core.message(&mut self.role, msg, now);
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
        self.core.frame_error(&mut self.role, error, now);
    }

    /// The peer closed the stream. A game in progress ends:
    /// [`Event::GameEnded`] with [`Outcome::Unknown`](super::Outcome::Unknown)
    /// and `closed` set; nothing is awaited any more (no
    /// [`Event::PeerSilent`]).
    pub fn handle_close(&mut self, _now: T) {
        self.core.close(&mut self.role);
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
    pub fn close_reason(&self) -> Option<super::CloseReason> {
        self.core.close_reason()
    }

    /// The current position: of the game in progress, or of the game that
    /// ended last, until the next game starts.
    pub fn position(&self) -> Option<&Position> {
        self.core.position()
    }

    /// The start position of the game (as [`Self::position`]).
    pub fn start_position(&self) -> Option<&Position> {
        self.core.start_position()
    }

    /// The moves played so far in the game (board-core moves, in order,
    /// from its start position; as [`Self::position`]: the finished game's
    /// stay readable after [`Event::GameEnded`] until the next game starts).
    pub fn moves(&self) -> &[board::Move] {
        self.core.moves()
    }

    /// The colour we play (as [`Self::position`]).
    pub fn our_color(&self) -> Option<board::Color> {
        self.core.our_color()
    }

    /// `true` when a game is in progress, it is our move, our move of this
    /// turn has not been sent, and nothing (a GAMEEND or take-back of ours)
    /// is pending.
    pub fn is_our_turn(&self) -> bool {
        self.core.is_our_turn()
    }

    /// Move number (1..) and colour to move of the current position (as
    /// [`Self::position`]).
    pub fn move_number(&self) -> Option<(u16, board::Color)> {
        self.core.move_number()
    }

    /// The GAMEREQ settings of the game: (minutes per player, moves in that
    /// time; 0 = all) (as [`Self::position`]).
    pub fn time_control(&self) -> Option<(u16, u16)> {
        self.core.time_control()
    }

    /// Plays our move `mv` (checked against the legal moves) and queues its
    /// MOVE; the MOVE's time is the whole seconds since our turn began (the
    /// input after which it was our move), clamped to 0..=9999
    /// ([`spec::damexchange`](crate::spec::damexchange), *MOVE*).
    ///
    /// # Errors
    /// [`CommandError::NoGame`], [`CommandError::NotYourTurn`] (also for a
    /// second move in one turn), [`CommandError::IllegalMove`],
    /// [`CommandError::TakeBackPending`], [`CommandError::MoveLimit`] after
    /// move 999; nothing is sent then.
    pub fn send_move(&mut self, mv: board::Move, now: T) -> Result<(), CommandError> {
        self.core.our_move(&mut self.role, mv, None, now)
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
        self.core.our_move(&mut self.role, mv, Some(seconds), now)
    }

    /// Ends the game: sends GAMEEND with `reason` (from our side) and our
    /// stop code; the game is over when the answer arrives
    /// ([`Event::GameEnded`]); no answer within the reply timeout is
    /// [`Event::PeerSilent`].
    ///
    /// # Errors
    /// [`CommandError::NoGame`] with no game (or one already ending).
    pub fn end_game(&mut self, reason: GameEndReason, now: T) -> Result<(), CommandError> {
        let stop = self.core.stop;
        self.core.end_game(reason, stop, now)
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

/// The family's session contract ([`Session`](super::Session)): one peer
/// (`Conn = ()`); every method forwards to the inherent one of the same
/// name.
impl<T: Timestamp> super::Session for Initiator<T> {
    type Conn = ();
    type Time = T;
    type Incoming<'a> = Message<'a>;
    type Outgoing<'a> = Message<'a>;
    type Event = Event;
    type DecodeError = crate::error::DecodeError;
    type Framer = crate::framer::Framer;

    fn handle_input(&mut self, (): (), bytes: &[u8], now: T) {
        Initiator::handle_input(self, bytes, now);
    }

    fn handle_message(&mut self, (): (), msg: &Message<'_>, now: T) {
        Initiator::handle_message(self, msg, now);
    }

    fn handle_frame_error(&mut self, (): (), error: &FrameError, now: T) {
        Initiator::handle_frame_error(self, error, now);
    }

    fn handle_timeout(&mut self, now: T) {
        Initiator::handle_timeout(self, now);
    }

    fn handle_close(&mut self, (): (), now: T) {
        Initiator::handle_close(self, now);
    }

    fn poll_transmit(&mut self) -> Option<((), Transmit)> {
        Initiator::poll_transmit(self).map(|t| ((), t))
    }

    fn poll_event(&mut self) -> Option<Event> {
        Initiator::poll_event(self)
    }

    fn poll_timeout(&self) -> Option<T> {
        Initiator::poll_timeout(self)
    }

    fn max_frame_len(&self) -> usize {
        crate::framer::DEFAULT_MAX_LEN
    }

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
