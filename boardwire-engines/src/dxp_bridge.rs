//! A Hub engine ([`spec::hub`](crate::spec::hub)) playing one side of DXP games
//! ([`damexchange::spec::damexchange`]): the part of `boardwire dxp connect
//! --engine` and `dxp serve --engine` that is not the socket.
//!
//! [`HubBridge::spawn`] starts the engine in a task of its own
//! ([`HubEngine`]: `hub` → `id`/`param`... `wait`, `set-param` per option,
//! `init` → `ready`); its answers come on a channel ([`Answer`]), which the
//! DXP driver waits on beside the socket
//! (`damexchange::net::connect_with`, `serve_with`). The caller passes
//! the session's events on:
//!
//! - [`HubBridge::game_started`] (DXP `GameStarted`): `new-game`, and the
//!   clock of the GAMEREQ ([`Clock`]);
//! - [`HubBridge::our_turn`] whenever the session is idle: on our turn,
//!   `pos pos=<start> moves="<moves>"`, `level ...` from the clock, `go
//!   think`;
//! - [`HubBridge::answer`] for each [`Answer`]: `done move=...` is checked
//!   in the position and sent as a DXP MOVE (from, to, captured set, the
//!   seconds we used);
//! - [`HubBridge::taken_back`] (DXP `TakenBack`, either side asked): a
//!   search under way is told `stop` (its answer dropped), and the next
//!   `pos` gives the engine the position taken back to;
//!   [`HubBridge::game_ended`] (a search under way is stopped too).
//!
//! An engine that cannot start, exits, stays silent past its time or plays
//! an illegal move fails the bridge ([`HubBridge::failed`]): at our turn
//! (at once, or the next one: only the side to move may send GAMEEND) we
//! resign, GAMEEND reason `1` (sender loses).

use std::time::Duration;

use board_core::draughts::{Move, Position};
use board_core::player::Player;
use damexchange::GameEndReason;
use damexchange::play::MoveSource;
use damexchange::session::{CommandError, Endpoint, Event, GameStarted, Role};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use crate::bridge::{self, Link, TaskEngine};
use crate::hub::{HubMove, Level};
use crate::hub_engine::HubEngine;
use crate::line_engine::{Skipped, Timeouts};
use crate::process::{EngineError, EngineSpec, Limits};
use crate::types::EngineOption;

/// One side's clock of a DXP game, as the GAMEREQ sets it
/// ([`damexchange::spec::damexchange`], *GAMEREQ*: thinking time in minutes per
/// player, for `moves` moves or, `000`, the whole game), turned into Hub's
/// `level [moves=N] time=S` ([`spec::hub`](crate::spec::hub), *A search*, step 2:
/// remaining moves and seconds).
///
/// With `moves` > 0 the time is given again for each period of `moves`
/// moves (as the `damexchange` session counts the opponent's clock). A
/// take-back does not give time or moves back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    minutes: u16,
    moves: u16,
    used: Duration,
    played: u16,
}

impl Clock {
    /// The clock at the start of a game: `minutes` (0..=999; 0 = no clock)
    /// for `moves` moves (0 = the whole game).
    pub fn new(minutes: u16, moves: u16) -> Clock {
        Clock {
            minutes,
            moves,
            used: Duration::ZERO,
            played: 0,
        }
    }

    /// The time left in this period; `None` without a clock.
    pub fn remaining(&self) -> Option<Duration> {
        (self.minutes > 0)
            .then(|| Duration::from_secs(u64::from(self.minutes) * 60).saturating_sub(self.used))
    }

    /// Moves left in this period (1..=`moves`); `None` for the whole game.
    pub fn moves_left(&self) -> Option<u32> {
        (self.moves > 0).then(|| u32::from(self.moves - self.played))
    }

    /// Our move took `took`.
    pub fn moved(&mut self, took: Duration) {
        self.used = self.used.saturating_add(took);
        self.played += 1;
        if self.moves > 0 && self.played >= self.moves {
            self.played = 0;
            self.used = Duration::ZERO;
        }
    }

    /// The `level` of our next search: `[moves=<left>] time=<seconds left,
    /// rounded to ms, at least 0.1>`; without a clock `move-time=
    /// <no_clock>` (seconds).
    pub fn level(&self, no_clock: f64) -> Level {
        match self.remaining() {
            None => Level::MoveTime(no_clock),
            Some(left) => Level::Time {
                moves: self.moves_left(),
                time: ((left.as_secs_f64() * 1000.0).round() / 1000.0).max(0.1),
                inc: None,
            },
        }
    }
}

/// The session calls of a DXP game the bridge makes; implemented for
/// both roles ([`Initiator`](damexchange::session::Initiator),
/// [`Follower`](damexchange::session::Follower)).
pub trait DxpGame {
    /// `is_our_turn()`.
    fn is_our_turn(&self) -> bool;
    /// `start_position()`.
    fn start_position(&self) -> Option<&Position>;
    /// `position()`.
    fn position(&self) -> Option<&Position>;
    /// `moves()`.
    fn moves(&self) -> &[Move];
    /// `send_move(mv, now)`.
    ///
    /// # Errors
    /// The session's [`CommandError`].
    fn send_move(&mut self, mv: Move, now: std::time::Instant) -> Result<(), CommandError>;
    /// `end_game(reason, now)`.
    ///
    /// # Errors
    /// The session's [`CommandError`].
    fn end_game(
        &mut self,
        reason: GameEndReason,
        now: std::time::Instant,
    ) -> Result<(), CommandError>;
    /// `send_chat(text, now)`.
    ///
    /// # Errors
    /// The session's [`CommandError`].
    fn send_chat(&mut self, text: &str, now: std::time::Instant) -> Result<(), CommandError>;
}

/// Both roles: `Endpoint<R, Instant>` is `Initiator<Instant>` and
/// `Follower<Instant>`.
impl<R: Role> DxpGame for Endpoint<R, std::time::Instant> {
    fn is_our_turn(&self) -> bool {
        Endpoint::is_our_turn(self)
    }
    fn start_position(&self) -> Option<&Position> {
        Endpoint::start_position(self)
    }
    fn position(&self) -> Option<&Position> {
        Endpoint::position(self)
    }
    fn moves(&self) -> &[Move] {
        Endpoint::moves(self)
    }
    fn send_move(&mut self, mv: Move, now: std::time::Instant) -> Result<(), CommandError> {
        Endpoint::send_move(self, mv, now)
    }
    fn end_game(
        &mut self,
        reason: GameEndReason,
        now: std::time::Instant,
    ) -> Result<(), CommandError> {
        Endpoint::end_game(self, reason, now)
    }
    fn send_chat(&mut self, text: &str, now: std::time::Instant) -> Result<(), CommandError> {
        Endpoint::send_chat(self, text, now)
    }
}

/// How the engine is run.
#[derive(Debug, Clone)]
pub struct BridgePlan {
    /// `--engine PROGRAM`, `--engine-arg ARG`.
    pub spec: EngineSpec,
    /// `--option NAME=VALUE`, sent as `set-param` (`NAME=`: `value=""`).
    pub options: Vec<EngineOption>,
    /// The process bounds.
    pub limits: Limits,
    /// `wait` ([`Timeouts::handshake`]) and `ready` ([`Timeouts::ready`])
    /// bounds; a search may take our remaining time plus
    /// [`Timeouts::think_margin`].
    pub timeouts: Timeouts,
    /// Seconds per move (`level move-time=S`) in a game without a clock
    /// (thinking time `000`); default 1.
    pub no_clock_move_time: f64,
}

impl BridgePlan {
    /// The plan with the default limits and timeouts (`wait` 10 s, `ready`
    /// 60 s, 5 s past our clock for a search) and 1 s per move without a
    /// clock.
    pub fn new(spec: EngineSpec, options: Vec<EngineOption>) -> BridgePlan {
        BridgePlan {
            spec,
            options,
            limits: Limits::default(),
            timeouts: Timeouts::default(),
            no_clock_move_time: 1.0,
        }
    }
}

/// What one search is asked with.
struct Search {
    start: Position,
    moves: Vec<Move>,
    level: Level,
    allowed: Duration,
}

/// The engine task's side: the engine, the search that counts (0: none;
/// a search that no longer does is stopped, a job that no longer does is
/// skipped) and the `--option` names it does not list.
struct Task {
    engine: HubEngine,
    current: watch::Receiver<u64>,
    unknown: Vec<String>,
}

impl TaskEngine for Task {
    type Search = Search;
    type Found = (Move, Duration);
    type Notice = core::convert::Infallible;
    type Answer = Answer;

    fn started(&mut self) -> Answer {
        Answer::Started {
            name: self.engine.name().map(str::to_owned),
            unknown: core::mem::take(&mut self.unknown),
        }
    }

    fn failed(why: String) -> Answer {
        Answer::Failed(why)
    }

    fn answered(id: u64, result: Result<Self::Found, String>) -> Answer {
        Answer::Moved { id, result }
    }

    async fn new_game(&mut self) -> Result<(), EngineError> {
        self.engine.new_game().await
    }

    async fn search(&mut self, id: u64, s: Search) -> Option<Result<Self::Found, EngineError>> {
        if *self.current.borrow_and_update() != id {
            return None;
        }
        let t0 = Instant::now();
        let r = self
            .engine
            .think_while_current(
                &s.start,
                &s.moves,
                s.level,
                s.allowed,
                &mut self.current,
                id,
            )
            .await;
        Some(r.map(|m| (m, t0.elapsed())))
    }

    async fn quit(self) {
        self.engine.quit().await;
    }
}

/// What the engine task sends back.
#[derive(Debug)]
#[non_exhaustive]
pub enum Answer {
    /// The start-up is done.
    Started {
        /// The `name=` of its `id`.
        name: Option<String>,
        /// `--option` names that are not among its `param`s (they were
        /// sent all the same: Hub engines ignore what they do not know).
        unknown: Vec<String>,
    },
    /// The answer to search `id`: the move (legal in the position asked
    /// about) and the time it took, or why there is none.
    Moved {
        /// Which search.
        id: u64,
        /// The move and the time, or the engine's failure.
        result: Result<(Move, Duration), String>,
    },
    /// The engine cannot be used (start-up failed, `new-game` not
    /// written).
    Failed(String),
}

/// What a bridge call did, for the transcript (`Display`: one line).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Report {
    /// The engine is ready.
    Started {
        /// Its name.
        name: Option<String>,
        /// `--option` names it does not list.
        unknown: Vec<String>,
    },
    /// We asked for a search with this level.
    Asked(Level),
    /// The engine's move was sent (Hub text, e.g. `28x19x23`; seconds).
    Played {
        /// The move in Hub notation.
        hub: String,
        /// How long the engine took.
        took: Duration,
    },
    /// We have no legal move: GAMEEND, we lose (Hub asks no search there).
    NoMove,
    /// The engine failed; `resigned` when our GAMEEND went out now (else
    /// it goes at our next turn).
    Failed {
        /// Why.
        why: String,
        /// GAMEEND sent.
        resigned: bool,
    },
    /// An answer to a search that no longer matters (a take-back or the
    /// game's end came first): dropped.
    Stale,
}

impl core::fmt::Display for Report {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Report::Started { name, unknown } => {
                bridge::write_started(f, name.as_deref())?;
                if !unknown.is_empty() {
                    write!(
                        f,
                        "; warning: it has no parameter {} (sent anyway)",
                        unknown.join(", ")
                    )?;
                }
                Ok(())
            }
            Report::Asked(l) => {
                let mut b = Vec::new();
                crate::hub::Command::Level(*l).encode(&mut b);
                write!(
                    f,
                    "engine asked: {}",
                    String::from_utf8_lossy(&b[..b.len() - 1])
                )
            }
            Report::Played { hub, took } => {
                write!(f, "engine: done move={hub} in {:.3} s", took.as_secs_f64())
            }
            Report::NoMove => f.write_str("we have no legal move: we lose (GAMEEND 1)"),
            Report::Failed { why, resigned } => {
                bridge::write_failed(f, why, *resigned, "GAMEEND 1")
            }
            Report::Stale => f.write_str("engine answer to an old position dropped"),
        }
    }
}

/// The engine's side of a DXP connection. See the module documentation.
#[derive(Debug)]
pub struct HubBridge {
    link: Link<Task>,
    current: watch::Sender<u64>,
    /// The search we wait for, when it was asked.
    thinking: Option<(u64, Instant)>,
    clock: Clock,
    no_clock: f64,
}

impl HubBridge {
    /// Starts the engine in a task of its own (needs a tokio runtime);
    /// its answers come on the receiver, the first one [`Answer::Started`]
    /// or [`Answer::Failed`]. `log` sees the engine lines that were
    /// skipped. The engine is told `quit` (and killed after 2 s) when the
    /// bridge is dropped and its last search is over.
    pub fn spawn(
        plan: BridgePlan,
        log: Box<dyn FnMut(Skipped) + Send>,
    ) -> (HubBridge, mpsc::Receiver<Answer>) {
        // The search that counts (0: none); a search that no longer does
        // is stopped, a job that no longer does is skipped.
        let (current_tx, current) = watch::channel(0u64);
        let no_clock = plan.no_clock_move_time;
        let (link, answers) = bridge::spawn(4, async move {
            let engine =
                HubEngine::start(&plan.spec, &plan.options, plan.limits, plan.timeouts, log)
                    .await?;
            let unknown = plan
                .options
                .iter()
                .filter(|o| !engine.params().iter().any(|p| p == o.name.as_str()))
                .map(|o| o.name.as_str().to_owned())
                .collect();
            Ok(Task {
                engine,
                current,
                unknown,
            })
        });
        (
            HubBridge {
                link,
                current: current_tx,
                thinking: None,
                clock: Clock::new(0, 0),
                no_clock,
            },
            answers,
        )
    }

    /// [`HubBridge::spawn`], then the engine's start-up awaited (bounded
    /// by the plan's timeouts): the bridge, its answers and the
    /// [`Report::Started`] to show, before a connection is opened.
    ///
    /// # Errors
    /// Why the engine did not start ([`Answer::Failed`]), or `the engine
    /// task ended`.
    pub async fn start(
        plan: BridgePlan,
        log: Box<dyn FnMut(Skipped) + Send>,
    ) -> Result<(HubBridge, mpsc::Receiver<Answer>, Report), String> {
        let (bridge, mut answers) = HubBridge::spawn(plan, log);
        match answers.recv().await {
            Some(Answer::Started { name, unknown }) => {
                Ok((bridge, answers, Report::Started { name, unknown }))
            }
            Some(Answer::Failed(why)) => Err(why),
            _ => Err("the engine task ended".into()),
        }
    }

    /// Why the engine failed, once it has.
    pub fn failed(&self) -> Option<&str> {
        self.link.failed()
    }

    /// Our clock in the current game.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// A game started: `new-game`; our clock from the GAMEREQ.
    pub fn game_started(&mut self, g: &GameStarted) {
        self.drop_search();
        self.clock = Clock::new(g.minutes, g.moves);
        if self.link.failed().is_none()
            && let Err(why) = self.link.new_game()
        {
            self.link.set_failed(why);
        }
    }

    /// The game was taken back: the search under way (if any) no longer
    /// counts; the next [`HubBridge::our_turn`] sends the position taken
    /// back to.
    pub fn taken_back(&mut self) {
        self.drop_search();
    }

    /// The game ended: a search under way no longer counts.
    pub fn game_ended(&mut self) {
        self.drop_search();
    }

    /// The search under way (if any) no longer counts: the engine is told
    /// `stop` (or the job is skipped) and its answer will be stale.
    fn drop_search(&mut self) {
        if self.thinking.take().is_some() {
            self.current.send_replace(0);
        }
    }

    /// Call whenever the session is idle. On our turn with no search under
    /// way: our GAMEEND when the engine failed or we have no legal move,
    /// else a search (`pos`, `level`, `go think`). `None` when there is
    /// nothing to do.
    pub fn our_turn<S: DxpGame>(&mut self, s: &mut S, now: std::time::Instant) -> Option<Report> {
        if !s.is_our_turn() || self.thinking.is_some() {
            return None;
        }
        if let Some(why) = self.link.failed() {
            let _ = s.end_game(GameEndReason::SenderLoses, now);
            return Some(Report::Failed {
                why: why.to_owned(),
                resigned: true,
            });
        }
        let (start, pos) = (*s.start_position()?, *s.position()?);
        if pos.legal_moves().is_empty() {
            let _ = s.end_game(GameEndReason::SenderLoses, now);
            return Some(Report::NoMove);
        }
        let level = self.clock.level(self.no_clock);
        let allowed = match self.clock.remaining() {
            Some(left) => left.max(Duration::from_millis(100)),
            None => Duration::from_secs_f64(self.no_clock.max(0.0)),
        };
        self.current.send_replace(self.link.next_id());
        let search = Search {
            start,
            moves: s.moves().to_vec(),
            level,
            allowed,
        };
        let id = match self.link.think(search) {
            Ok(id) => id,
            Err(why) => return Some(self.fail(s, why.into(), now)),
        };
        self.thinking = Some((id, Instant::now()));
        Some(Report::Asked(level))
    }

    /// An answer of the engine task: a move is played (MOVE), a failure
    /// ends the game at our turn.
    pub fn answer<S: DxpGame>(&mut self, s: &mut S, a: Answer, now: std::time::Instant) -> Report {
        match a {
            Answer::Started { name, unknown } => Report::Started { name, unknown },
            Answer::Failed(why) => self.fail(s, why, now),
            Answer::Moved {
                result: Err(why), ..
            } => {
                self.thinking = None;
                self.fail(s, why, now)
            }
            Answer::Moved {
                id,
                result: Ok((mv, took)),
            } => {
                let Some((asked, began)) = self.thinking else {
                    return Report::Stale;
                };
                if asked != id || !s.is_our_turn() {
                    return Report::Stale;
                }
                self.thinking = None;
                self.clock.moved(began.elapsed());
                match s.send_move(mv, now) {
                    Ok(()) => Report::Played {
                        hub: HubMove::from_move(mv).to_string(),
                        took,
                    },
                    Err(e) => {
                        self.fail(s, format!("its move {}: {e}", HubMove::from_move(mv)), now)
                    }
                }
            }
        }
    }

    /// The engine cannot go on: resign now on our turn, else at the next.
    fn fail<S: DxpGame>(&mut self, s: &mut S, why: String, now: std::time::Instant) -> Report {
        self.drop_search();
        self.link.set_failed(&why);
        let resigned = s.is_our_turn() && s.end_game(GameEndReason::SenderLoses, now).is_ok();
        Report::Failed { why, resigned }
    }
}

/// Who chooses one side's moves in DXP games, the same calls for both
/// roles: the built-in player (`board_core::player::Player`) or a Hub
/// engine ([`HubBridge`]). The caller passes every session event
/// ([`Mover::event`]), every engine answer ([`Mover::answer`]) and each
/// idle moment ([`Mover::our_turn`]); what it returns is for the
/// transcript.
#[derive(Debug)]
pub enum Mover {
    /// The built-in player: moves at once.
    Builtin(Player),
    /// A Hub engine.
    Engine(HubBridge),
}

impl Mover {
    /// A session event: the engine is told of a new game
    /// ([`HubBridge::game_started`]), a take-back and the game's end.
    pub fn event(&mut self, e: &Event) {
        if let Mover::Engine(b) = self {
            match e {
                Event::GameStarted(g) => b.game_started(g),
                Event::TakenBack { .. } => b.taken_back(),
                Event::GameEnded(_) => b.game_ended(),
                _ => {}
            }
        }
    }

    /// An answer of the engine task ([`HubBridge::answer`]); `None` for
    /// the built-in player (it has no task).
    pub fn answer<S: DxpGame>(
        &mut self,
        s: &mut S,
        a: Answer,
        now: std::time::Instant,
    ) -> Option<Report> {
        match self {
            Mover::Engine(b) => Some(b.answer(s, a, now)),
            Mover::Builtin(_) => None,
        }
    }

    /// The session is idle: on our turn the built-in player moves (or,
    /// with no legal move, resigns: [`Report::NoMove`]), the engine is
    /// asked ([`HubBridge::our_turn`]).
    pub fn our_turn<S: DxpGame>(&mut self, s: &mut S, now: std::time::Instant) -> Option<Report> {
        match self {
            Mover::Engine(b) => b.our_turn(s, now),
            Mover::Builtin(_) if !s.is_our_turn() => None,
            Mover::Builtin(p) => match s.position().and_then(|pos| p.choose_draughts(pos)) {
                // Legal, on our turn: the session takes it.
                Some(mv) => s.send_move(mv, now).err().map(|e| Report::Failed {
                    why: format!("its move: {e}"),
                    resigned: false,
                }),
                None => {
                    let _ = s.end_game(GameEndReason::SenderLoses, now);
                    Some(Report::NoMove)
                }
            },
        }
    }

    /// Why the engine failed, once it has (never for the built-in player).
    pub fn failed(&self) -> Option<&str> {
        match self {
            Mover::Engine(b) => b.failed(),
            Mover::Builtin(_) => None,
        }
    }
}

/// The move source of `damexchange::play`'s runs (`dxp serve|connect`):
/// [`Mover::event`], [`Mover::answer`] for the channel's values,
/// [`Mover::our_turn`]; a [`Report::Failed`] is a failure.
impl MoveSource for Mover {
    type External = Answer;
    type Report = Report;

    fn event(&mut self, event: &Event) {
        Mover::event(self, event);
    }

    fn external<R: Role>(
        &mut self,
        session: &mut Endpoint<R, std::time::Instant>,
        value: Answer,
        now: std::time::Instant,
    ) -> Option<Report> {
        self.answer(session, value, now)
    }

    fn our_turn<R: Role>(
        &mut self,
        session: &mut Endpoint<R, std::time::Instant>,
        now: std::time::Instant,
    ) -> Option<Report> {
        Mover::our_turn(self, session, now)
    }

    fn failure(report: &Report) -> Option<&str> {
        match report {
            Report::Failed { why, .. } => Some(why),
            _ => None,
        }
    }
}

/// A channel of answers without a sender: closed at once, so the driver
/// no longer waits on it (for [`Mover::Builtin`], which has no task).
pub fn no_answers() -> mpsc::Receiver<Answer> {
    mpsc::channel::<Answer>(1).1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level_text(l: Level) -> String {
        let mut b = Vec::new();
        crate::hub::Command::Level(l).encode(&mut b);
        String::from_utf8(b).unwrap()
    }

    /// [`damexchange::spec::damexchange`], *GAMEREQ*: the example
    /// `R01Tornado voor Windows 4.0        W060065A` is 60 minutes for 65
    /// moves; [`spec::hub`](crate::spec::hub), *A search*: `level [moves=N] time=S`,
    /// remaining moves and seconds.
    #[test]
    fn the_gamereq_clock_as_hub_levels() {
        let mut c = Clock::new(60, 65);
        assert_eq!(level_text(c.level(1.0)), "level moves=65 time=3600\n");
        for _ in 0..10 {
            c.moved(Duration::from_millis(30_500));
        }
        assert_eq!(level_text(c.level(1.0)), "level moves=55 time=3295\n");
        c.moved(Duration::from_millis(1234));
        assert_eq!(level_text(c.level(1.0)), "level moves=54 time=3293.766\n");
        // After 65 moves a new period: 60 minutes again for 65 moves.
        for _ in 11..65 {
            c.moved(Duration::from_secs(1));
        }
        assert_eq!(level_text(c.level(1.0)), "level moves=65 time=3600\n");
        // `000` moves: the whole game, no `moves=`; the 5 minutes of the
        // recorded Scan follower session (`R01PyTester ... Z005000A`).
        let mut c = Clock::new(5, 0);
        assert_eq!(level_text(c.level(1.0)), "level time=300\n");
        c.moved(Duration::from_secs(299));
        assert_eq!(level_text(c.level(1.0)), "level time=1\n");
        c.moved(Duration::from_secs(5));
        // Out of time: still a little, never zero or negative.
        assert_eq!(level_text(c.level(1.0)), "level time=0.1\n");
        // Thinking time `000`: no clock; a fixed time per move.
        assert_eq!(
            level_text(Clock::new(0, 0).level(0.5)),
            "level move-time=0.5\n"
        );
    }

    /// The recorded Scan sessions: Hub `done move=28x19x23` (hub-scan31)
    /// and Scan's DXP MOVE `M0000182903223233` (18x29 taking 22, 32, 33;
    /// dxp-scan-follower, test 2) and `M00001939022434`: the same
    /// (from, to, captured set) both ways.
    #[test]
    fn hub_moves_are_dxp_moves() {
        use damexchange::convert::{find_move, move_to_wire};
        use damexchange::{Message, decode};
        let play = |pos: &mut Position, text: &str| -> Move {
            let m = HubMove::parse(text.as_bytes(), 0)
                .unwrap()
                .to_move(pos)
                .unwrap_or_else(|| panic!("{text} illegal"));
            pos.play_unchecked(m);
            m
        };
        // hub-scan31: after 32-28 19-23, Scan's 28x19x23.
        let mut pos = Position::startpos();
        play(&mut pos, "32-28");
        play(&mut pos, "19-23");
        let m = HubMove::parse(b"28x19x23", 0)
            .unwrap()
            .to_move(&pos)
            .unwrap();
        assert_eq!(
            Message::Move(move_to_wire(m, 0)).encoded().as_str(),
            "M000028190123"
        );
        // dxp-scan-follower test 2: 32-27 19-23 38-32 14-19 27-22, then
        // Scan's 18x29 capturing three.
        let mut pos = Position::startpos();
        for t in ["32-27", "19-23", "38-32", "14-19", "27-22"] {
            play(&mut pos, t);
        }
        let Ok(Message::Move(wire)) = decode::<Message>(b"M0000182903223233") else {
            panic!()
        };
        let m = find_move(&pos, &wire).expect("Scan's move is legal");
        assert_eq!(HubMove::from_move(m).to_string(), "18x29x22x32x33");
        // Captured squares in any order (spec/hub.md, *Moves*).
        let h = HubMove::parse(b"18x29x33x22x32", 0).unwrap();
        assert_eq!(h.to_move(&pos), Some(m));
        assert_eq!(
            Message::Move(move_to_wire(m, 0)).encoded().as_str(),
            "M0000182903223233"
        );
        pos.play_unchecked(m);
        // ... 37-32 10-14 31-27 5-10 41-37 17-21 42-38 12-17 39-33 8-12
        // 33x24, then Scan's 19x39 taking 24 and 34.
        for t in [
            "37-32", "10-14", "31-27", "5-10", "41-37", "17-21", "42-38", "12-17", "39-33", "8-12",
            "33x24x29",
        ] {
            play(&mut pos, t);
        }
        let Ok(Message::Move(wire)) = decode::<Message>(b"M00001939022434") else {
            panic!()
        };
        let m = find_move(&pos, &wire).expect("legal");
        assert_eq!(HubMove::from_move(m).to_string(), "19x39x24x34");
    }
}
