//! The initiator: proposes games with GAMEREQ, then plays.

use alloc::string::ToString;

use board_core::draughts::{self as board, Position};

use super::{
    CommandError, Core, Event, Game, Timestamp, color_to_wire, position_to_setup, session_accessors,
};
use crate::MessageKind;
use crate::decode::Leniency;
use crate::framer::Framer;
use crate::message::{AcceptanceCode, GameAcc, GameReq, Message, StartPosition, StopCode};
use crate::types::Name;

/// Initiator settings.
#[derive(Clone, Debug)]
pub struct InitiatorConfig {
    /// Our name in GAMEREQ.
    pub name: Name<'static>,
    /// Grant the opponent's take-backs (otherwise `K1`).
    pub take_backs: bool,
    /// Stop code in our GAMEENDs (`1`: no further games after this one).
    pub stop: StopCode,
    /// Decoding leniency for what the follower sends.
    pub leniency: Leniency,
}

impl InitiatorConfig {
    /// Defaults: take-backs on, stop code `0`, strict decoding.
    pub fn new(name: Name<'static>) -> InitiatorConfig {
        InitiatorConfig {
            name,
            take_backs: true,
            stop: StopCode::PlayOn,
            leniency: Leniency::STRICT,
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

/// The initiator side of a DXP connection (sans-IO; see the
/// [module docs](super) for the call order).
///
/// GAMEACC codes are acted on as the spec says: `0` the game starts; `2`
/// the application may send another GAMEREQ; `1` and `3` stop: further
/// [`Initiator::request_game`] calls fail with [`CommandError::Stopped`].
///
/// `T` is the application's clock type ([`Timestamp`]).
#[derive(Debug)]
pub struct Initiator<T> {
    config: InitiatorConfig,
    framer: Framer,
    core: Core<T>,
    /// The GAMEREQ awaiting its GAMEACC.
    requested: Option<(GameRequest, Position)>,
    stopped: bool,
}

impl<T: Timestamp> Initiator<T> {
    /// An initiator with no game yet.
    pub fn new(config: InitiatorConfig) -> Initiator<T> {
        Initiator {
            framer: Framer::with_leniency(config.leniency),
            core: Core::new(config.take_backs, config.stop),
            config,
            requested: None,
            stopped: false,
        }
    }

    /// The settings.
    pub fn config(&self) -> &InitiatorConfig {
        &self.config
    }

    /// Sends GAMEREQ for `request`.
    ///
    /// # Errors
    /// [`CommandError::GameInProgress`] while a game is in progress or a
    /// GAMEREQ awaits its answer; [`CommandError::Stopped`] after GAMEACC
    /// `1` or `3`; [`CommandError::Value`] for minutes or moves above 999.
    pub fn request_game(&mut self, request: GameRequest) -> Result<(), CommandError> {
        if self.stopped {
            return Err(CommandError::Stopped);
        }
        if self.core.game.is_some() || self.requested.is_some() {
            return Err(CommandError::GameInProgress);
        }
        let (position, start) = match request.start {
            None => (StartPosition::Initial, Position::startpos()),
            Some(pos) => (StartPosition::Setup(position_to_setup(&pos)), pos),
        };
        let req = GameReq::new(
            self.config.name.clone(),
            color_to_wire(request.our_color.opposite()),
            request.minutes,
            request.moves,
            position,
        )?;
        self.core.send(&Message::GameReq(req));
        self.requested = Some((request, start));
        Ok(())
    }

    /// `true` after GAMEACC `1` or `3`: no more games on this connection.
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Feeds bytes received from the follower.
    pub fn handle_input(&mut self, mut bytes: &[u8], _now: T) {
        let Initiator {
            framer,
            core,
            requested,
            stopped,
            ..
        } = self;
        while let Some(item) = framer.next_message(&mut bytes) {
            match item {
                Ok(Message::GameAcc(acc)) => on_gameacc(core, requested, stopped, &acc),
                Ok(Message::GameReq(_)) => core.event(Event::Unexpected {
                    message: MessageKind::GameReq,
                    reason: "GAMEREQ sent to the initiator",
                }),
                Ok(msg) => core.on_common(msg),
                Err(e) => core.event(Event::Malformed(e)),
            }
        }
    }

    fn first_move_not_before(&mut self) -> Option<T> {
        None
    }

    session_accessors!();
}

fn on_gameacc<T: Timestamp>(
    core: &mut Core<T>,
    requested: &mut Option<(GameRequest, Position)>,
    stopped: &mut bool,
    acc: &GameAcc<'_>,
) {
    let Some((request, start)) = requested.take() else {
        return core.event(Event::Unexpected {
            message: MessageKind::GameAcc,
            reason: "GAMEACC without a GAMEREQ of ours",
        });
    };
    match acc.code {
        AcceptanceCode::Accepted => {
            core.game = Some(Game::new(
                request.our_color,
                start,
                request.minutes,
                request.moves,
            ));
            core.event(Event::GameStarted {
                our_color: request.our_color,
                opponent: acc.follower.as_str().to_string(),
                start,
                minutes: request.minutes,
                moves: request.moves,
            });
        }
        code => {
            if matches!(
                code,
                AcceptanceCode::VersionMismatch | AcceptanceCode::NoGames
            ) {
                *stopped = true;
            }
            core.event(Event::GameRefused { code });
        }
    }
}
