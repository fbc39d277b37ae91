//! The follower: accepts a GAMEREQ, then plays ([`spec::damexchange`](crate::spec::damexchange),
//! *Roles and dialogue (layer 2)*, *GAMEACC*).

use alloc::string::ToString;
use core::time::Duration;

use board_core::draughts::{self as board, Position};

use super::{
    CommandError, Core, Event, Game, GameStarted, RoleState, Timestamp, Transmit, Unexpected,
};
use crate::convert::{color_to_board, setup_to_position};
use crate::decode::Leniency;
use crate::error::{Field, FrameError, MessageKind};
use crate::message::{
    AcceptanceCode, GameAcc, GameEndReason, GameReq, Message, StartPosition, StopCode,
};
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
}

impl FollowerConfig {
    /// Defaults: accept every game, 500 ms first-move pause, take-backs on,
    /// stop code `0`, strict decoding, 60 s reply timeout, 60 s clock
    /// margin.
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
        }
    }
}

/// The follower's own state.
#[derive(Debug)]
struct Role<T> {
    config: FollowerConfig,
    /// When GAMEACC `0` went out and our first move has not been sent yet.
    accepted_at: Option<T>,
}

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
#[derive(Debug)]
pub struct Follower<T> {
    role: Role<T>,
    core: Core<T>,
}

impl<T: Timestamp> Follower<T> {
    /// A follower waiting for a GAMEREQ.
    ///
    /// `now` is the time on the application's clock when the connection
    /// began (the same clock as every later call).
    pub fn new(config: FollowerConfig, now: T) -> Follower<T> {
        Follower {
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
                accepted_at: None,
            },
        }
    }

    /// The settings.
    pub fn config(&self) -> &FollowerConfig {
        &self.role.config
    }
}

impl<T: Timestamp> RoleState<T> for Role<T> {
    fn on_message(&mut self, core: &mut Core<T>, msg: &Message<'_>, now: T) {
        match msg {
            Message::GameReq(req) => on_gamereq(self, core, req, now),
            Message::GameAcc(_) => core.event(Event::Unexpected {
                message: MessageKind::GameAcc,
                reason: Unexpected::GameAccToFollower,
            }),
            msg => core.on_common(msg, now),
        }
    }

    fn on_frame_error(&mut self, core: &mut Core<T>, e: &FrameError, _now: T) {
        if let Some(e) = core.on_frame_error(e) {
            // A GAMEREQ we cannot read: never silence (the initiator
            // waits for GAMEACC).
            core.chat_error(&e);
            let code = if e.field == Field::Version {
                AcceptanceCode::VersionMismatch
            } else {
                AcceptanceCode::NotThisGame
            };
            decline(&self.config, core, code);
        }
    }

    fn on_close(&mut self) {
        self.accepted_at = None;
    }

    fn first_move_not_before(&mut self, core: &Core<T>) -> Option<T> {
        // Only the first move of a game, and only if it comes right after
        // our GAMEACC. A pause ending past the clock's range is no pause
        // (held output would never be released).
        let accepted = self.accepted_at.take()?;
        let delay = self.config.first_move_delay;
        let at = accepted.saturating_add(delay);
        if at.saturating_duration_since(accepted) < delay {
            return None;
        }
        (core.game.as_ref()?.history.is_empty()).then_some(at)
    }
}

fn on_gamereq<T: Timestamp>(role: &mut Role<T>, core: &mut Core<T>, req: &GameReq<'_>, now: T) {
    let config = &role.config;
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
    role.accepted_at = Some(now);
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

/// Inputs, outputs and the game (the same methods as [`Initiator`](super::Initiator)'s; the call
/// order is in the [module docs](super)).
impl<T: Timestamp> Follower<T> {
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
    /// The first move of a game we play White goes out no earlier than
    /// the config's `first_move_delay` after our GAMEACC.
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
impl<T: Timestamp> super::Session for Follower<T> {
    type Conn = ();
    type Time = T;
    type Incoming<'a> = Message<'a>;
    type Outgoing<'a> = Message<'a>;
    type Event = Event;
    type DecodeError = crate::error::DecodeError;
    type Framer = crate::framer::Framer;

    fn handle_input(&mut self, (): (), bytes: &[u8], now: T) {
        Follower::handle_input(self, bytes, now);
    }

    fn handle_message(&mut self, (): (), msg: &Message<'_>, now: T) {
        Follower::handle_message(self, msg, now);
    }

    fn handle_frame_error(&mut self, (): (), error: &FrameError, now: T) {
        Follower::handle_frame_error(self, error, now);
    }

    fn handle_timeout(&mut self, now: T) {
        Follower::handle_timeout(self, now);
    }

    fn handle_close(&mut self, (): (), now: T) {
        Follower::handle_close(self, now);
    }

    fn poll_transmit(&mut self) -> Option<((), Transmit)> {
        Follower::poll_transmit(self).map(|t| ((), t))
    }

    fn poll_event(&mut self) -> Option<Event> {
        Follower::poll_event(self)
    }

    fn poll_timeout(&self) -> Option<T> {
        Follower::poll_timeout(self)
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
