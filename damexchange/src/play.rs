//! Playing DXP games on one connection (feature `std`): the policy that
//! `boardwire dxp serve` and `dxp connect` run over the drivers' callback
//! ([`Activity`], `net`, feature `tokio`), written once for both roles.
//!
//! - Both roles ([`FollowerRun`], [`InitiatorRun`]): who chooses our moves
//!   ([`MoveSource`]: a built-in player, or an engine in another task
//!   whose answers come over the driver's channel as
//!   [`Activity::External`]); a game stopped at our first turn after a ply
//!   limit (GAMEEND reason `0`: only the side to move may send GAMEEND,
//!   [`spec::damexchange`](crate::spec::damexchange), *GAMEEND*); a MOVE
//!   the session rejected answered with a CHAT naming it and GAMEEND `0`
//!   rather than a game that hangs; the problems seen ([`Problems`]:
//!   rejected moves, malformed frames, unexpected messages, silence).
//! - The follower ([`FollowerRun`]): the games counted ([`FollowStats`]);
//!   an opponent that goes silent is told so in a CHAT and the connection
//!   closes; once the move source failed, no further game.
//! - The initiator ([`InitiatorRun`]): a match of several games
//!   ([`Match`]: GAMEREQ after GAMEREQ, colours alternating, the stops of
//!   *GAMEACC*), a CHAT and a GAMEEND for a stale game before the first
//!   GAMEREQ, one take-back asked at a given ply (*BACKREQ*), and the
//!   [`InitiatorReport`] of the run ([`InitiatorRun::finish`]: silence or a
//!   misbehaving follower fail it, [`RunError`]).
//!
//! Each run takes every [`Activity`] of its connection (`handle`, which
//! returns the callback's `ControlFlow`) and gives its transcript in
//! [`Line`]s (`poll_line`): the frames sent and received (the message, for
//! its wire form and its reading, [`Message::describe`]; of the malformed
//! and unrecognised ones the first [`BAD_FRAMES_SHOWN`], the rest counted)
//! and [`Note`]s (events and what the run did, one line each by
//! `Display`). Writing them is the application's.
//!
//! ```
//! use std::ops::ControlFlow;
//! use std::time::Instant;
//! use board_core::draughts::Color;
//! use damexchange::play::{InitiatorPlan, InitiatorRun, MoveSource};
//! use damexchange::session::{Endpoint, Event, GameOffer, MatchPlan, Role};
//! # use damexchange::play::Activity;
//!
//! /// Always the first legal move; no channel.
//! struct First;
//! impl MoveSource for First {
//!     type External = core::convert::Infallible;
//!     type Report = &'static str;
//!     fn event(&mut self, _: &Event) {}
//!     fn external<R: Role>(
//!         &mut self, _: &mut Endpoint<R, Instant>, x: Self::External, _: Instant,
//!     ) -> Option<&'static str> {
//!         match x {}
//!     }
//!     fn our_turn<R: Role>(
//!         &mut self, s: &mut Endpoint<R, Instant>, now: Instant,
//!     ) -> Option<&'static str> {
//!         let mv = *s.position()?.legal_moves().as_slice().first()?;
//!         s.send_move(mv, now).ok().map(|()| "moved")
//!     }
//!     fn failure<'r>(_: &'r &'static str) -> Option<&'r str> {
//!         None
//!     }
//! }
//!
//! let offer = GameOffer { our_color: Color::White, minutes: 5, moves: 0, start: None };
//! let mut plan = InitiatorPlan::new(MatchPlan::new(2, offer));
//! plan.max_plies = Some(40);
//! let mut run = InitiatorRun::new(plan, First);
//! // In the callback of `net::run_with`:
//! // |i, activity| { let flow = run.handle(i, activity, Instant::now());
//! //                 while let Some(line) = run.poll_line() { show(line) } flow }
//! # let _ = &mut run;
//! ```

use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::{String, ToString};
use core::fmt;
use core::ops::ControlFlow;
use std::time::{Duration, Instant};

use board_core::draughts::Color;
pub use boardwire_proto::drive::{Activity, Closed, Ended};

use crate::error::FrameError;
use crate::message::{GameEndReason, Message};
use crate::session::{
    Endpoint, Event, Follower, GameEnded, Initiator, Match, MatchPlan, MatchStep, MatchStop, Role,
    Score,
};

/// Who chooses our moves in a [`FollowerRun`] or an [`InitiatorRun`]: a
/// built-in player, or an engine in a task of its own whose answers come
/// over the driver's channel ([`Activity::External`]).
pub trait MoveSource {
    /// The values of the driver's channel (an engine's answers).
    type External;
    /// What the source reports for a person (an engine ready, a search
    /// asked, a move played, a failure); shown as [`Note::Source`].
    type Report;
    /// Every event of the session, before the run acts on it (an engine is
    /// told of a new game, a take-back, the game's end).
    fn event(&mut self, event: &Event);
    /// A value of the driver's channel, with the session (an engine's move
    /// is played with `send_move`).
    fn external<R: Role>(
        &mut self,
        session: &mut Endpoint<R, Instant>,
        value: Self::External,
        now: Instant,
    ) -> Option<Self::Report>;
    /// The session is idle and it is our turn: play (`send_move`), give up
    /// (`end_game`) or ask an engine; `None` when there is nothing to say.
    fn our_turn<R: Role>(
        &mut self,
        session: &mut Endpoint<R, Instant>,
        now: Instant,
    ) -> Option<Self::Report>;
    /// Why `report` tells of the source's failure (it cannot choose moves
    /// any more: the run resigns its game and plays no other), or `None`.
    fn failure(report: &Self::Report) -> Option<&str>;
}

pub use boardwire_proto::drive::Problems;

/// `text` with every control character (C0, DEL, C1) written `\xNN`: what
/// a peer sent (a CHAT, a name) never reaches a terminal raw. The text
/// itself stays byte for byte in the session; only what is shown is
/// escaped.
///
/// ```
/// assert_eq!(damexchange::play::printable("a\u{1}b\u{7f}"), "a\\x01b\\x7f");
/// ```
pub fn printable(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            s.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else {
            s.push(c);
        }
    }
    s
}

/// How a game ended, in colours (board-core's names): `white wins`,
/// `black wins`, `draw`, `no result` (GAMEEND reason `0`, or the
/// connection closed).
///
/// ```
/// # use damexchange::session::{GameEnded, Outcome};
/// # fn f(game: &GameEnded) {
/// println!("{}", damexchange::play::result_text(game));
/// # }
/// ```
pub fn result_text(game: &GameEnded) -> String {
    match (game.outcome, game.winner()) {
        (_, Some(c)) => format!("{c} wins"),
        (crate::session::Outcome::Drawn, None) => "draw".into(),
        _ => "no result".into(),
    }
}

/// The CHAT telling the peer that its MOVE was not played:
/// `error: MOVE <wire form> rejected: <reason>`.
fn rejection_chat(mv: &crate::wire::Move, reason: &dyn fmt::Display) -> String {
    format!(
        "error: MOVE {} rejected: {reason}",
        Message::Move(*mv).encoded().as_str()
    )
}

/// What a run did, for a person: one line each (`Display`), in the order
/// it happened. `P` is the [`MoveSource::Report`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Note<P> {
    /// A game of this connection started, was refused or ended
    /// (`Event::GameStarted`, `GameRefused`, `GameEnded`); `number` is
    /// 1-based, per connection (`game 2: game started against ...`;
    /// `game 1 unfinished: ...` when the connection closed during it).
    Game {
        /// The game's number on this connection.
        number: u32,
        /// The event.
        event: Event,
    },
    /// `plies` were played and it is our turn: we stop the game (GAMEEND
    /// reason `0`, no result).
    PlyLimit {
        /// Plies played.
        plies: usize,
    },
    /// Before the first GAMEREQ, GAMEEND `E00` for a game the follower may
    /// have kept open from an earlier connection.
    EndingStaleGame,
    /// We asked to take back our last move (BACKREQ): back to this move
    /// number (1..=999) and colour to move.
    TakeBackAsked {
        /// The move number asked for.
        move_number: u16,
        /// The colour to move there.
        color: Color,
    },
    /// The follower closed the connection (the initiator's run is over).
    ClosedByFollower,
    /// An event shown as it is (`Display`): those the frames do not show
    /// already (a MOVE, a CHAT) and the run does not note with the game
    /// number; e.g. `take-back asked by us done: ...`.
    Event(Event),
    /// [`BAD_FRAMES_SHOWN`] bad frames were shown; further ones are
    /// counted.
    BadFramesCounted,
    /// This many bad frames were not shown (noted when a valid frame
    /// comes, the session closes or the connection ends).
    BadFramesHidden(u64),
    /// What the move source reported.
    Source(P),
}

impl<P: fmt::Display> fmt::Display for Note<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Game { number, event } => {
                let unfinished = match event {
                    Event::GameEnded(g) if g.closed => " unfinished",
                    _ => "",
                };
                write!(f, "game {number}{unfinished}: {event}")
            }
            Note::PlyLimit { plies } => write!(
                f,
                "{plies} plies played: we stop the game (GAMEEND reason 0, no result)"
            ),
            Note::EndingStaleGame => {
                f.write_str("we end any game left open (GAMEEND before the first GAMEREQ)")
            }
            Note::TakeBackAsked { move_number, color } => write!(
                f,
                "we ask to take back our last move: back to move {move_number}, {color} to move"
            ),
            Note::ClosedByFollower => f.write_str("connection closed by the follower"),
            Note::Event(e) => e.fmt(f),
            Note::BadFramesCounted => {
                f.write_str("further malformed or unrecognised frames are counted, not shown")
            }
            Note::BadFramesHidden(n) => {
                write!(f, "{n} more malformed or unrecognised frame(s), not shown")
            }
            Note::Source(p) => p.fmt(f),
        }
    }
}

/// Malformed and unrecognised frames of one connection shown as
/// [`Line`]s; the rest are counted ([`Note::BadFramesHidden`]), so a peer
/// sending garbage cannot grow a transcript beyond a few lines per
/// connection.
pub const BAD_FRAMES_SHOWN: u64 = 3;

/// One line of a connection's transcript, in order: the frames (with the
/// message, for its wire form and its reading, [`Message::describe`]) and
/// the [`Note`]s. `P` is the [`MoveSource::Report`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Line<P> {
    /// A message we sent; `wire_len`: its bytes on the wire, NUL counted.
    Sent {
        /// Bytes on the wire.
        wire_len: usize,
        /// The message.
        message: Message<'static>,
    },
    /// A message we received; `wire_len` 0 for an unrecognised one (it
    /// is shown among the bad frames, [`BAD_FRAMES_SHOWN`], and not
    /// counted as a message).
    Received {
        /// Bytes on the wire (0: a bad frame).
        wire_len: usize,
        /// The message.
        message: Message<'static>,
    },
    /// A frame that did not decode (among the bad frames shown).
    Malformed(FrameError),
    /// Something that happened, not a frame.
    Note(Note<P>),
}

/// What the part shared by both roles leaves to the role.
enum Step {
    Done,
    Close,
    Idle,
    Event(Event),
}

/// The part of a run both roles share: the move source, the ply limit,
/// the answer to a rejected MOVE, the problems, the transcript lines.
struct Side<M: MoveSource> {
    source: M,
    max_plies: Option<usize>,
    problems: Problems,
    source_failed: Option<String>,
    lines: VecDeque<Line<M::Report>>,
    /// Bad frames seen, and not shown since the last count noted.
    bad_seen: u64,
    bad_hidden: u64,
}

impl<M: MoveSource> Side<M> {
    fn new(source: M, max_plies: Option<usize>) -> Self {
        Side {
            source,
            max_plies,
            problems: Problems::default(),
            source_failed: None,
            lines: VecDeque::new(),
            bad_seen: 0,
            bad_hidden: 0,
        }
    }

    fn note(&mut self, note: Note<M::Report>) {
        self.lines.push_back(Line::Note(note));
    }

    /// The transcript lines of an activity, before the run acts on it.
    fn show<R: Role>(&mut self, a: &Activity<'_, '_, Endpoint<R, Instant>, M::External>) {
        let owned = |m: &Message<'_>| (m.encoded().as_bytes().len() + 1, m.clone().into_owned());
        match a {
            Activity::Sent {
                message: Some(m), ..
            } => {
                let (wire_len, message) = owned(m);
                self.lines.push_back(Line::Sent { wire_len, message });
            }
            Activity::Received { message, .. } => {
                let (wire_len, message) = owned(message);
                if let Message::Unrecognised(_) = message {
                    let wire_len = 0;
                    self.bad(Line::Received { wire_len, message });
                } else {
                    self.flush_bad();
                    self.lines.push_back(Line::Received { wire_len, message });
                }
            }
            Activity::Event(Event::Malformed(e)) => self.bad(Line::Malformed(*e)),
            // The MOVE, CHAT and unrecognised lines show these; the role
            // notes GameStarted and GameEnded with the game number.
            Activity::Event(
                Event::MoveReceived { .. }
                | Event::Chat(_)
                | Event::Unrecognised(_)
                | Event::GameStarted(_)
                | Event::GameEnded(_),
            ) => {}
            Activity::Event(e) => {
                self.note(Note::Event(e.clone()));
                if let Event::Closing(_) = e {
                    self.flush_bad();
                }
            }
            _ => {}
        }
    }

    /// A bad frame: shown while fewer than [`BAD_FRAMES_SHOWN`] were.
    fn bad(&mut self, line: Line<M::Report>) {
        self.bad_seen += 1;
        if self.bad_seen > BAD_FRAMES_SHOWN {
            self.bad_hidden += 1;
            return;
        }
        self.lines.push_back(line);
        if self.bad_seen == BAD_FRAMES_SHOWN {
            self.note(Note::BadFramesCounted);
        }
    }

    /// Notes the bad frames not shown, if any.
    fn flush_bad(&mut self) {
        if self.bad_hidden > 0 {
            let n = core::mem::take(&mut self.bad_hidden);
            self.note(Note::BadFramesHidden(n));
        }
    }

    fn common<R: Role>(
        &mut self,
        s: &mut Endpoint<R, Instant>,
        a: Activity<'_, '_, Endpoint<R, Instant>, M::External>,
        now: Instant,
    ) -> Step {
        match a {
            Activity::External(x) => {
                let r = self.source.external(s, x, now);
                if self.report(s, r) {
                    return Step::Close;
                }
                Step::Done
            }
            Activity::Idle => Step::Idle,
            Activity::Event(e) => self.event(s, e, now),
            _ => Step::Done,
        }
    }

    fn event<R: Role>(&mut self, s: &mut Endpoint<R, Instant>, e: Event, now: Instant) -> Step {
        self.source.event(&e);
        match &e {
            Event::MoveRejected { mv, reason } => {
                self.problems.push(printable(&e.to_string()));
                // Tell the peer, end the game rather than hang.
                let _ = s.send_chat(&rejection_chat(mv, reason), now);
                let _ = s.end_game(GameEndReason::Unknown, now);
            }
            Event::Malformed(_)
            | Event::Unexpected { .. }
            | Event::Unrecognised(_)
            | Event::PeerSilent { .. } => self.problems.push(printable(&e.to_string())),
            _ => {}
        }
        Step::Event(e)
    }

    /// Idle: on our turn, stop at the ply limit, else the source moves.
    /// `true`: close the connection.
    fn play<R: Role>(&mut self, s: &mut Endpoint<R, Instant>, now: Instant) -> bool {
        if !s.is_our_turn() {
            return false;
        }
        let plies = s.moves().len();
        if self.max_plies.is_some_and(|max| plies >= max) {
            self.note(Note::PlyLimit { plies });
            let _ = s.end_game(GameEndReason::Unknown, now);
            return false;
        }
        let r = self.source.our_turn(s, now);
        self.report(s, r)
    }

    /// A source report as a note. `true` when the connection should close
    /// now (the source failed and no game is left to resign).
    fn report<R: Role>(&mut self, s: &Endpoint<R, Instant>, r: Option<M::Report>) -> bool {
        let Some(r) = r else { return false };
        let close = match M::failure(&r) {
            Some(why) => {
                self.source_failed.get_or_insert_with(|| why.to_string());
                s.position().is_none()
            }
            None => false,
        };
        self.note(Note::Source(r));
        close
    }
}

fn flow(go_on: bool) -> ControlFlow<()> {
    if go_on {
        ControlFlow::Continue(())
    } else {
        ControlFlow::Break(())
    }
}

/// What one follower connection did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FollowStats {
    /// Games started.
    pub games: u32,
    /// Games ended by a GAMEEND exchange.
    pub ended: u32,
    /// Games cut by the connection closing (unfinished).
    pub unfinished: u32,
    /// Rejected moves, malformed frames, unexpected messages, silence.
    pub problems: Problems,
}

/// One follower connection of `net::serve_with` (feature `tokio`)
/// (see the [module docs](self)): give it every activity
/// ([`FollowerRun::handle`]).
pub struct FollowerRun<M: MoveSource> {
    side: Side<M>,
    games: u32,
    ended: u32,
    unfinished: u32,
}

impl<M: MoveSource> fmt::Debug for FollowerRun<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FollowerRun")
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

impl<M: MoveSource> FollowerRun<M> {
    /// A connection served with `source`, each game stopped (GAMEEND
    /// reason `0`) at our first turn after `max_plies` plies (`None`: no
    /// limit, the initiator bounds its games).
    pub fn new(source: M, max_plies: Option<usize>) -> Self {
        FollowerRun {
            side: Side::new(source, max_plies),
            games: 0,
            ended: 0,
            unfinished: 0,
        }
    }

    /// One activity of the connection; `Break` closes it (the opponent
    /// went silent, or the move source failed and its game is over).
    pub fn handle(
        &mut self,
        f: &mut Follower<Instant>,
        a: Activity<'_, '_, Follower<Instant>, M::External>,
        now: Instant,
    ) -> ControlFlow<()> {
        self.side.show(&a);
        let close = match self.side.common(f, a, now) {
            Step::Done => false,
            Step::Close => true,
            Step::Idle => self.side.play(f, now),
            Step::Event(e) => self.event(f, e, now),
        };
        flow(!close)
    }

    /// The follower's part of an event. `true`: close.
    fn event(&mut self, f: &mut Follower<Instant>, e: Event, now: Instant) -> bool {
        let mut close = false;
        match &e {
            Event::GameStarted(_) => self.games += 1,
            Event::GameEnded(g) => {
                if g.closed {
                    self.unfinished += 1;
                } else {
                    self.ended += 1;
                }
                // The source is gone: no further games here.
                close = self.side.source_failed.is_some();
            }
            Event::PeerSilent { awaiting } => {
                let _ = f.send_chat(&format!("error: no {awaiting} in time; closing"), now);
                return true;
            }
            _ => return false,
        }
        let number = self.games;
        self.side.note(Note::Game { number, event: e });
        close
    }

    /// The next transcript line, in order.
    pub fn poll_line(&mut self) -> Option<Line<M::Report>> {
        self.side.lines.pop_front()
    }

    /// The connection ended: the count of the bad frames not shown, if
    /// any, becomes the last line.
    pub fn end(&mut self) {
        self.side.flush_bad();
    }

    /// The counts so far.
    pub fn stats(&self) -> FollowStats {
        FollowStats {
            games: self.games,
            ended: self.ended,
            unfinished: self.unfinished,
            problems: self.side.problems.clone(),
        }
    }

    /// Why the move source failed, once it has.
    pub fn source_failed(&self) -> Option<&str> {
        self.side.source_failed.as_deref()
    }
}

/// What an [`InitiatorRun`] plays.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct InitiatorPlan {
    /// The games: how many, the first GAMEREQ, colours, refusals
    /// ([`MatchPlan`]).
    pub games: MatchPlan,
    /// A game is stopped (GAMEEND reason `0`, no result) at our first turn
    /// after this many plies: only the side to move may send GAMEEND, so
    /// the game has N or N+1 plies (default `None`: no limit).
    pub max_plies: Option<usize>,
    /// How long the follower may take to answer a request (GAMEACC,
    /// BACKACC, the GAMEEND reply) before the run fails (default 120 s;
    /// the session's `reply_timeout`, see `InitiatorPlan::configure` (feature `tokio`)).
    pub reply_timeout: Duration,
    /// Once, in the first game, when this many plies have been played and
    /// it is our turn, ask to take back our last move (BACKREQ; default
    /// `None`).
    pub take_back_at: Option<usize>,
    /// Send GAMEEND `E00` before the first GAMEREQ, for a follower that
    /// kept a game open from an earlier connection (Moby Dam refuses new
    /// games with GAMEACC `2` until it gets one; default `false`).
    pub end_first: bool,
    /// A CHAT sent right after connecting, before the first GAMEREQ
    /// (1..=126 bytes of 7-bit text; default `None`).
    pub chat: Option<String>,
}

impl InitiatorPlan {
    /// `games` with the defaults above.
    pub fn new(games: MatchPlan) -> InitiatorPlan {
        InitiatorPlan {
            games,
            max_plies: None,
            reply_timeout: Duration::from_secs(120),
            take_back_at: None,
            end_first: false,
            chat: None,
        }
    }

    /// The driver's config for `session`: its `reply_timeout` set to
    /// [`InitiatorPlan::reply_timeout`], and the handshake bound
    /// ([`net::Limits::handshake_timeout`](crate::net::Limits::handshake_timeout))
    /// no shorter than that plus 1 s, so that a late GAMEACC is reported as
    /// silence ([`RunError::Silent`]).
    #[cfg(feature = "tokio")]
    #[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
    pub fn configure(
        &self,
        mut session: crate::session::InitiatorConfig,
    ) -> crate::net::Config<crate::session::InitiatorConfig> {
        session.reply_timeout = Some(self.reply_timeout);
        let mut config = crate::net::Config::new(session);
        config.limits.handshake_timeout = config
            .limits
            .handshake_timeout
            .max(self.reply_timeout + Duration::from_secs(1));
        config
    }
}

/// What an [`InitiatorRun`] saw ([`InitiatorRun::finish`]).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct InitiatorReport {
    /// Games ended by a GAMEEND exchange.
    pub games_done: u32,
    /// Games we won, lost, drew, and ended without a result.
    pub score: Score,
    /// The last game's end.
    pub last: Option<GameEnded>,
    /// Take-backs done (ours or the follower's).
    pub take_backs: u32,
    /// Rejected moves, malformed frames, unexpected messages, refused games.
    pub problems: Problems,
    /// The follower misbehaved (an illegal or malformed frame, an
    /// unexpected message): the run fails.
    pub misbehaved: bool,
    /// The follower did not answer in time.
    pub silent: bool,
    /// Why the run stopped before all games were played.
    pub stopped: Option<String>,
    /// Why the move source failed (we resigned its game).
    pub source_failed: Option<String>,
}

/// The score line: `<N> games, <W> won, <L> lost, <D> drawn, <U> without
/// result` (games completed, by our outcome).
impl fmt::Display for InitiatorReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Score {
            won,
            lost,
            drawn,
            no_result,
        } = self.score;
        let games = self.games_done;
        write!(
            f,
            "{games} games, {won} won, {lost} lost, {drawn} drawn, {no_result} without result"
        )
    }
}

/// Why an initiator's run failed ([`InitiatorRun::finish`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunError {
    /// The follower did not answer a request within the plan's
    /// [`reply_timeout`](InitiatorPlan::reply_timeout) (whole seconds
    /// shown).
    Silent(Duration),
    /// The follower misbehaved: the first problem seen.
    Misbehaved(String),
    /// The connection ended otherwise than by the follower's close or
    /// ours.
    Closed(Closed),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Silent(d) => {
                write!(f, "no answer from the follower for {} s", d.as_secs())
            }
            RunError::Misbehaved(first) => write!(f, "the follower misbehaved: {first}"),
            RunError::Closed(c) => write!(f, "connection closed: {c}"),
        }
    }
}

impl std::error::Error for RunError {}

/// The initiator's connection (see the [module docs](self)): give it every
/// activity of `net::run_with` (feature `tokio`)
/// ([`InitiatorRun::handle`]), then how the run ended
/// ([`InitiatorRun::finish`]).
pub struct InitiatorRun<M: MoveSource> {
    side: Side<M>,
    plan: InitiatorPlan,
    games: Match,
    report: InitiatorReport,
    take_back_pending: Option<usize>,
    started: bool,
}

impl<M: MoveSource> fmt::Debug for InitiatorRun<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InitiatorRun")
            .field("plan", &self.plan)
            .field("games", &self.games)
            .finish_non_exhaustive()
    }
}

impl<M: MoveSource> InitiatorRun<M> {
    /// A run of `plan` with `source`; nothing is sent before the first
    /// [`Activity::Idle`].
    pub fn new(plan: InitiatorPlan, source: M) -> Self {
        InitiatorRun {
            side: Side::new(source, plan.max_plies),
            games: Match::new(plan.games),
            take_back_pending: plan.take_back_at,
            plan,
            report: InitiatorReport::default(),
            started: false,
        }
    }

    /// One activity of the connection: the first `Idle` sends the CHAT,
    /// the GAMEEND for a stale game and the first GAMEREQ; later ones our
    /// moves (or the BACKREQ of the plan). `Break` when the match is over
    /// or cannot go on.
    pub fn handle(
        &mut self,
        i: &mut Initiator<Instant>,
        a: Activity<'_, '_, Initiator<Instant>, M::External>,
        now: Instant,
    ) -> ControlFlow<()> {
        self.side.show(&a);
        flow(match self.side.common(i, a, now) {
            Step::Done => true,
            Step::Close => false,
            Step::Idle if !self.started => self.start(i, now),
            Step::Idle => self.idle(i, now),
            Step::Event(e) => self.event(i, e, now),
        })
    }

    /// The first `Idle`: CHAT, GAMEEND for a stale game, the first GAMEREQ.
    fn start(&mut self, i: &mut Initiator<Instant>, now: Instant) -> bool {
        self.started = true;
        if let Some(text) = &self.plan.chat
            && let Err(e) = i.send_chat(text, now)
        {
            self.side.problems.push(format!("CHAT: {e}"));
            self.report.stopped = Some(format!("--chat: {e}"));
            return false;
        }
        if self.plan.end_first {
            self.side.note(Note::EndingStaleGame);
            let _ = i.end_stale_game(now);
        }
        if self.games.start(i, now) == MatchStep::Over {
            return self.over();
        }
        true
    }

    /// The match is over: why, if games are left.
    fn over(&mut self) -> bool {
        if let Some(why) = self.games.stopped() {
            if matches!(why, MatchStop::Request(_)) {
                self.side.problems.push(why.to_string());
            }
            self.report.stopped.get_or_insert_with(|| why.to_string());
        }
        false
    }

    fn idle(&mut self, i: &mut Initiator<Instant>, now: Instant) -> bool {
        let plies = i.moves().len();
        if i.is_our_turn() && self.take_back_pending == Some(plies) && plies >= 2 {
            self.take_back_pending = None;
            let Some((number, color)) = i.move_number() else {
                return true;
            };
            // Our previous move: one move number earlier, same colour.
            self.side.note(Note::TakeBackAsked {
                move_number: number - 1,
                color,
            });
            if let Err(e) = i.request_take_back(number - 1, color, now) {
                self.side.problems.push(format!("BACKREQ: {e}"));
                self.report.stopped = Some(format!("BACKREQ: {e}"));
                return false;
            }
            return true;
        }
        !self.side.play(i, now)
    }

    fn event(&mut self, i: &mut Initiator<Instant>, e: Event, now: Instant) -> bool {
        let number = self.games.game_number();
        let game = |e: &Event| Note::Game {
            number,
            event: e.clone(),
        };
        match &e {
            Event::GameStarted(_) => self.side.note(game(&e)),
            Event::GameRefused { .. } => {
                self.side.note(game(&e));
                self.side.problems.push(printable(&e.to_string()));
            }
            Event::TakenBack { .. } => self.report.take_backs += 1,
            Event::GameEnded(g) if g.closed => {
                // The follower closed the stream during the game: not a
                // completed game; the run ends with the close.
                self.side.note(game(&e));
                self.games.handle_event(i, &e, now);
                let _ = self.over();
                return true;
            }
            Event::GameEnded(_) => {
                self.side.note(game(&e));
                if self.report.misbehaved || self.side.source_failed.is_some() {
                    self.games.stop();
                }
            }
            Event::PeerSilent { .. } => {
                self.report.silent = true;
                return false;
            }
            // Told and ended by the shared part; the run fails.
            Event::MoveRejected { .. } => self.report.misbehaved = true,
            Event::Malformed(_) | Event::Unexpected { .. } | Event::Unrecognised(_) => {
                self.report.misbehaved = true;
                let _ = i.end_game(GameEndReason::Unknown, now);
            }
            _ => {}
        }
        match self.games.handle_event(i, &e, now) {
            MatchStep::Continue => true,
            MatchStep::Over => self.over(),
        }
    }

    /// The next transcript line, in order.
    pub fn poll_line(&mut self) -> Option<Line<M::Report>> {
        self.side.lines.pop_front()
    }

    /// The run ended so: the report, or why the run failed (silence, a
    /// misbehaving follower, a connection closed otherwise than by either
    /// side). A close by the follower is a note ([`Note::ClosedByFollower`])
    /// and, with games left, the report's `stopped`.
    ///
    /// # Errors
    /// [`RunError`].
    pub fn finish(&mut self, ended: Ended<()>) -> Result<InitiatorReport, RunError> {
        self.side.flush_bad();
        let report = &mut self.report;
        report.games_done = self.games.games_done();
        report.score = self.games.score();
        report.last = self.games.last().cloned();
        report.problems = self.side.problems.clone();
        report.source_failed = self.side.source_failed.clone();
        if report.silent {
            return Err(RunError::Silent(self.plan.reply_timeout));
        }
        if report.misbehaved {
            let first = report.problems.first().unwrap_or("?");
            return Err(RunError::Misbehaved(first.to_string()));
        }
        match ended {
            Ended::Closed(Closed::ByPeer) => {
                self.side.note(Note::ClosedByFollower);
                if report.stopped.is_none() && report.games_done < self.plan.games.games {
                    report.stopped = Some("the follower closed the connection".into());
                }
            }
            Ended::Break(()) => {}
            Ended::Closed(c) => return Err(RunError::Closed(c)),
        }
        Ok(report.clone())
    }
}

#[cfg(test)]
mod tests;
