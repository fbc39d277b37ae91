//! The follower: accepts a GAMEREQ, then plays ([`spec::damexchange`](crate::spec::damexchange),
//! *Roles and dialogue (layer 2)*, *GAMEACC*).

use alloc::string::ToString;
use core::time::Duration;

use board_core::draughts::Position;

use super::endpoint::{Endpoint, Role, sealed::RoleState};
use super::{Core, Event, Game, GameStarted, Timestamp, Unexpected};
use crate::convert::{color_to_board, setup_to_position};
use crate::decode::Leniency;
use crate::error::{Field, FrameError, MessageKind};
use crate::message::{AcceptanceCode, GameAcc, GameReq, Message, StartPosition, StopCode};
use crate::types::Name;

/// Follower settings.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct FollowerConfig {
    /// Our name in GAMEACC.
    pub name: Name<'static>,
    /// Accept games at all (otherwise every GAMEREQ is answered `3`).
    pub accept_games: bool,
    /// Highest thinking time accepted, minutes; above it GAMEREQ is answered
    /// `2` (not this game). `None`: any.
    pub max_minutes: Option<u16>,
    /// Pause between GAMEACC and our first MOVE when we play White. Some
    /// clients (pydraughts 0.6.7) read GAMEACC and a MOVE that arrive together
    /// as one message and lose the MOVE; Moby Dam pauses likewise.
    /// What we send during the pause is held back with the MOVE; at most
    /// 64 frames (8 KB): a peer flooding us with requests ends the pause
    /// early.
    pub first_move_delay: Duration,
    /// Grant the opponent's take-backs (otherwise `K1`).
    pub take_backs: bool,
    /// Stop code in our GAMEENDs: a follower normally serves further games.
    pub stop: StopCode,
    /// Decoding leniency for what the initiator sends (`handle_input`).
    pub leniency: Leniency,
    /// How long the initiator may take to answer our BACKREQ or GAMEEND
    /// before [`Event::PeerSilent`]; `None`: no bound.
    pub reply_timeout: Option<Duration>,
    /// The wait for the initiator's move is bounded by its clock: the
    /// GAMEREQ's thinking time minus what it used (as we measure it, per
    /// period of `moves` moves), plus this margin; then
    /// [`Event::PeerSilent`] with `awaiting` MOVE. No bound for thinking
    /// time `000` or `None`.
    pub clock_margin: Option<Duration>,
    /// The connection closes ([`Event::Closing`] with
    /// [`CloseReason::HandshakeTimeout`](super::CloseReason::HandshakeTimeout),
    /// nothing sent) when no GAMEACC was sent within this time of the
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
    /// then [`Event::GameEnded`] once answered); a MOVE of the initiator past it
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

impl FollowerConfig {
    /// Defaults: accept every game, 500 ms first-move pause, take-backs on,
    /// stop code `0`, strict decoding, 60 s reply timeout, 60 s clock
    /// margin, 20,000 plies a game.
    pub fn new(name: Name<'static>) -> FollowerConfig {
        FollowerConfig {
            name,
            accept_games: true,
            max_minutes: None,
            first_move_delay: Duration::from_millis(500),
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

/// The follower's own state, the role parameter of [`Follower`]: its
/// settings (GAMEREQ is answered from them).
#[derive(Debug)]
pub struct FollowerRole {
    config: FollowerConfig,
}

impl Role for FollowerRole {}

/// The follower side of a DXP connection (sans-IO; see the
/// [module docs](super) for the call order).
///
/// GAMEREQ is answered by itself: `1` for a protocol version other than
/// `01`; `3` when games are switched off; `2` for a thinking time above the
/// limit, a set-up that is not a valid position or has no legal move, or a
/// GAMEREQ while a game is in progress (as Moby Dam does; Scan 3.1 aborts
/// the connection instead) — a game whose side to move has no legal move
/// counts as over; otherwise `0` and [`Event::GameStarted`].
///
/// `T` is the application's clock type ([`Timestamp`]): `std::time::Instant`
/// with `std`, or a [`Duration`] since an origin of the application's choice
/// (as here).
///
/// ```
/// use core::time::Duration;
/// use damexchange::session::{Event, Follower, FollowerConfig};
/// use damexchange::Name;
/// let mut f = Follower::new(FollowerConfig::new(Name::new("Ours").unwrap()), Duration::ZERO);
/// let now = Duration::ZERO;
/// f.handle_input(b"R01PyTester                        Z005000A\0", now);
/// assert_eq!(f.poll_transmit().unwrap().as_bytes(), b"AOurs                            0\0");
/// assert!(matches!(f.poll_event(), Some(Event::GameStarted(_))));
/// f.handle_input(b"M0000322800\0", now);
/// assert!(matches!(f.poll_event(), Some(Event::MoveReceived { .. })));
/// assert!(f.is_our_turn());
/// ```
///
/// The methods of both roles are on [`Endpoint`] (this is
/// `Endpoint<FollowerRole, T>`): `handle_input`, `handle_message`,
/// `handle_frame_error`, `handle_close`, `handle_timeout`,
/// `poll_transmit`, `poll_event`, `poll_timeout`, `close_reason`,
/// `position`, `start_position`, `moves`, `our_color`, `is_our_turn`,
/// `move_number`, `time_control`, `send_move`, `send_move_with`,
/// `end_game`, `send_chat`, `request_take_back`, `set_take_backs`; the
/// follower's own ([`Follower::new`], [`Follower::config`]) are below.
pub type Follower<T> = Endpoint<FollowerRole, T>;

impl<T: Timestamp> Follower<T> {
    /// A follower waiting for a GAMEREQ.
    ///
    /// `now` is the time on the application's clock when the connection
    /// began (the same clock as every later call).
    pub fn new(config: FollowerConfig, now: T) -> Follower<T> {
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
            role: FollowerRole { config },
        }
    }

    /// The settings.
    pub fn config(&self) -> &FollowerConfig {
        &self.role.config
    }
}

impl RoleState for FollowerRole {
    fn on_message<T: Timestamp>(f: &mut Follower<T>, msg: &Message<'_>, now: T) {
        let core = &mut f.core;
        match msg {
            Message::GameReq(req) => on_gamereq(&f.role.config, core, req, now),
            Message::GameAcc(_) => core.event(Event::Unexpected {
                message: MessageKind::GameAcc,
                reason: Unexpected::GameAccToFollower,
            }),
            msg => core.on_common(msg, now),
        }
    }

    fn on_frame_error<T: Timestamp>(f: &mut Follower<T>, e: &FrameError) {
        let core = &mut f.core;
        if let Some(e) = core.on_frame_error(e) {
            // A GAMEREQ we cannot read: never silence (the initiator
            // waits for GAMEACC).
            core.chat_error(&e);
            let code = if e.field == Field::Version {
                AcceptanceCode::VersionMismatch
            } else {
                AcceptanceCode::NotThisGame
            };
            decline(&f.role.config, core, code);
        }
    }
}

/// When our first move of a game accepted at `accepted` may go out: after
/// the config's pause; a pause ending past the clock's range is no pause
/// (held output would never be released).
fn first_move_at<T: Timestamp>(config: &FollowerConfig, accepted: T) -> Option<T> {
    let delay = config.first_move_delay;
    let at = accepted.saturating_add(delay);
    (at.saturating_duration_since(accepted) >= delay).then_some(at)
}

fn on_gamereq<T: Timestamp>(
    config: &FollowerConfig,
    core: &mut Core<T>,
    req: &GameReq<'_>,
    now: T,
) {
    // A game whose side to move has no legal move is over even without the
    // GAMEEND exchange.
    if core
        .game
        .as_ref()
        .is_some_and(|g| g.ending.is_none() && !g.position.is_game_over())
    {
        core.event(Event::Unexpected {
            message: MessageKind::GameReq,
            reason: Unexpected::GameReqDuringGame,
        });
        return decline(config, core, AcceptanceCode::NotThisGame);
    }
    if req.version() != GameReq::VERSION {
        return decline(config, core, AcceptanceCode::VersionMismatch);
    }
    if !config.accept_games {
        return decline(config, core, AcceptanceCode::NoGames);
    }
    if config.max_minutes.is_some_and(|max| req.minutes() > max) {
        return decline(config, core, AcceptanceCode::NotThisGame);
    }
    let start = match req.position() {
        StartPosition::Initial => Position::startpos(),
        StartPosition::Setup(setup) => match setup_to_position(setup) {
            Ok(pos) if !pos.is_game_over() => pos,
            _ => return decline(config, core, AcceptanceCode::NotThisGame),
        },
    };
    let our_color = color_to_board(req.follower_color());
    core.start_game(Game::new(our_color, start, req.minutes(), req.moves()));
    core.send(&Message::GameAcc(GameAcc {
        follower: config.name.clone(),
        code: AcceptanceCode::Accepted,
    }));
    core.first_move_at = first_move_at(config, now);
    core.event(Event::GameStarted(GameStarted {
        our_color,
        opponent: req.initiator().as_str().to_string(),
        start,
        minutes: req.minutes(),
        moves: req.moves(),
    }));
}

fn decline<T: Timestamp>(config: &FollowerConfig, core: &mut Core<T>, code: AcceptanceCode) {
    core.send(&Message::GameAcc(GameAcc {
        follower: config.name.clone(),
        code,
    }));
    core.event(Event::GameRefused { code });
}
