//! The initiator: proposes games with GAMEREQ, then plays
//! ([`spec::damexchange`](crate::spec::damexchange), *Roles and dialogue (layer 2)*, *GAMEREQ*).

use alloc::string::ToString;
use core::time::Duration;

use board_core::draughts::{self as board, Position};

use super::endpoint::{Endpoint, Role, sealed::RoleState};
use super::{CommandError, Core, Event, Game, GameStarted, Timestamp, Unexpected};
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
    /// The most plies (moves of either side, from the start position) a
    /// game holds; default [`DEFAULT_MAX_GAME_PLIES`](super::DEFAULT_MAX_GAME_PLIES)
    /// (20,000), 0 counts as 1. When the game reaches it the session ends
    /// the game at our turn with GAMEEND reason `0` ([`Event::PlyCapReached`],
    /// then [`Event::GameEnded`] once answered); a MOVE of the follower past it
    /// is not played. The game's memory is then at most 8 bytes a ply
    /// (one board-core draughts move), 160 KB at the default. The cap is
    /// also never more than the plies DXP can number, both sides' moves
    /// 1..=999 ([`spec::damexchange`](crate::spec::damexchange), *BACKREQ*:
    /// 3-digit move numbers): 1,998 plies from a start with White to move,
    /// 1,997 with Black to move (16 KB); the game ends there the same way,
    /// and [`CommandError::MoveLimit`](super::CommandError::MoveLimit)
    /// refuses a move past it.
    pub max_game_plies: u32,
}

impl InitiatorConfig {
    /// Defaults: take-backs on, stop code `0`, strict decoding, 60 s reply
    /// timeout, 60 s clock margin, 20,000 plies a game.
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
            max_game_plies: super::DEFAULT_MAX_GAME_PLIES,
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

/// The initiator's own state, the role parameter of [`Initiator`]: its
/// settings and the GAMEREQ awaiting its answer.
#[derive(Debug)]
pub struct InitiatorRole {
    config: InitiatorConfig,
    /// The GAMEREQ awaiting its GAMEACC.
    requested: Option<(GameOffer, Position)>,
    stopped: bool,
    /// We sent a GAMEEND with no game ([`Initiator::end_stale_game`]); its
    /// answer, if any, comes before the next GAMEACC.
    stale_end: bool,
}

impl Role for InitiatorRole {}

/// The initiator side of a DXP connection (sans-IO; see the
/// [module docs](super) for the call order).
///
/// GAMEACC codes are acted on as [`spec::damexchange`](crate::spec::damexchange), *GAMEACC*,
/// says: `0` the game starts; `2`
/// the application may send another GAMEREQ; `1` and `3` stop: further
/// [`Initiator::request_game`] calls fail with [`CommandError::Stopped`].
///
/// `T` is the application's clock type ([`Timestamp`]).
///
/// The methods of both roles are on [`Endpoint`] (this is
/// `Endpoint<InitiatorRole, T>`): `handle_input`, `handle_message`,
/// `handle_frame_error`, `handle_close`, `handle_timeout`,
/// `poll_transmit`, `poll_event`, `poll_timeout`, `close_reason`,
/// `position`, `start_position`, `moves`, `our_color`, `is_our_turn`,
/// `move_number`, `time_control`, `send_move`, `send_move_with`,
/// `end_game`, `send_chat`, `request_take_back`, `set_take_backs`; the
/// initiator's own ([`Initiator::new`], [`Initiator::config`],
/// [`Initiator::request_game`], [`Initiator::end_stale_game`],
/// [`Initiator::is_stopped`]) are below.
pub type Initiator<T> = Endpoint<InitiatorRole, T>;

impl<T: Timestamp> Initiator<T> {
    /// An initiator with no game yet.
    ///
    /// `now` is the time on the application's clock when the connection
    /// began (the same clock as every later call).
    pub fn new(config: InitiatorConfig, now: T) -> Initiator<T> {
        Endpoint {
            core: Core::new(
                config.take_backs,
                config.stop,
                config.leniency,
                super::Bounds {
                    reply_timeout: config.reply_timeout,
                    clock_margin: config.clock_margin,
                    handshake_timeout: config.handshake_timeout,
                    max_bad_frames: config.max_bad_frames,
                    max_game_plies: config.max_game_plies,
                },
                now,
            ),
            role: InitiatorRole {
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

impl RoleState for InitiatorRole {
    fn on_message<T: Timestamp>(i: &mut Initiator<T>, msg: &Message<'_>, now: T) {
        let (role, core) = (&mut i.role, &mut i.core);
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

    fn on_frame_error<T: Timestamp>(i: &mut Initiator<T>, e: &FrameError) {
        // A GAMEREQ sent to the initiator is not answered, decodable or not.
        let _ = i.core.on_frame_error(e);
    }

    fn on_close(&mut self) {
        self.requested = None;
    }
}

fn on_gameacc<T: Timestamp>(role: &mut InitiatorRole, core: &mut Core<T>, acc: &GameAcc<'_>) {
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
