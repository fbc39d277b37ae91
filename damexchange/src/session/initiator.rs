//! The initiator: proposes games with GAMEREQ, then plays
//! ([`spec::damexchange`](crate::spec::damexchange), *Roles and dialogue (layer 2)*, *GAMEREQ*).

use alloc::string::ToString;
use core::time::Duration;

use board_core::draughts::{self as board, Position};

use super::{
    CommandError, Core, Event, Game, GameStarted, MAX_MOVE_NUMBER, Timestamp, Transmit, Unexpected,
    session_accessors,
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
        }
    }
}

/// A game to propose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRequest {
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
    requested: Option<(GameRequest, Position)>,
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
    pub fn new(config: InitiatorConfig, _now: T) -> Initiator<T> {
        Initiator {
            core: Core::new(
                config.take_backs,
                config.stop,
                config.leniency,
                config.reply_timeout,
                config.clock_margin,
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
    pub fn request_game(&mut self, request: GameRequest, now: T) -> Result<(), CommandError> {
        self.core.settle();
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
        self.core.settle();
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

    fn on_message(role: &mut Role, core: &mut Core<T>, msg: &Message<'_>, now: T) {
        match msg {
            Message::GameAcc(acc) => {
                role.stale_end = false;
                on_gameacc(role, core, acc)
            }
            // The answer to our GAMEEND of `end_stale_game`.
            Message::GameEnd(_) if role.stale_end && core.game.is_none() => {
                role.stale_end = false;
            }
            Message::GameReq(_) => core.event(Event::Unexpected {
                message: MessageKind::GameReq,
                reason: Unexpected::GameReqToInitiator,
            }),
            msg => core.on_common(msg, now),
        }
    }

    fn on_frame_error(_role: &mut Role, core: &mut Core<T>, e: &FrameError, _now: T) {
        // A GAMEREQ sent to the initiator is not answered, decodable or not.
        let _ = core.on_frame_error(e);
    }

    fn on_close(&mut self) {
        self.role.requested = None;
    }

    fn first_move_not_before(&mut self) -> Option<T> {
        None
    }

    session_accessors!();
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
