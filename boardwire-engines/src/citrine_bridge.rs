//! A UCI engine ([`uci_engine`](crate::uci_engine)) playing the host's
//! side against a Novag Citrine ([`novag_citrine::spec::citrine`]) through
//! the host [`Driver`] session: the part of `boardwire citrine --engine`
//! that is not the serial port or the transcript.
//!
//! [`UciBridge::spawn`] starts the engine in a task of its own
//! ([`UciEngine`]: `uci` → `uciok`, `setoption` per option, `isready` →
//! `readyok`, then `ucinewgame` for the game the driver starts in); its
//! answers come on a channel ([`Answer`]). The Citrine's driver is
//! blocking (a serial port): the caller polls the channel
//! (`try_recv`) whenever the driver is idle, with the bridge's task on a
//! runtime of its own (see [`UciBridge::spawn`]). The first answer is
//! [`Answer::Started`] or [`Answer::Failed`]: a caller that wants the
//! engine ready before it opens the port awaits it first. The caller
//! passes the driver's events on:
//!
//! - [`UciBridge::game_started`] (`Event::GameStarted`: the device said
//!   `New Game`, prompted by `N` or not): `ucinewgame` (and `isready`);
//! - [`UciBridge::our_turn`] whenever the driver is idle: when the host
//!   may move ([`Driver::is_our_turn`] and [`Driver::is_idle`]),
//!   `position startpos moves ...` (or `position fen ...`) and `go
//!   movetime` ([`BridgePlan::movetime_ms`]);
//! - [`UciBridge::answer`] for each [`Answer`]: `bestmove <move>` is checked
//!   in the position and sent with [`Driver::send_move`] (`M e2e4`; spec note
//!   *Commands (host -> device) and replies (device -> host)*), when the
//!   position is still the one the engine was asked about;
//! - [`UciBridge::taken_back`] (`Event::TakenBack`, and a resync that
//!   undid a move) and [`UciBridge::game_ended`] (`Event::GameEnded`): a
//!   search under way no longer counts (its answer is dropped as
//!   [`Report::Stale`]; the UCI engine finishes its `movetime` first).
//!   A search is also dropped when the position changed under it in any
//!   other way (a resync, an out-of-turn move): the bridge remembers the
//!   position it asked about.
//!
//! The Citrine has no resignation: an engine that cannot start, exits,
//! stays silent past its `movetime` plus [`Timeouts::think_margin`] or
//! plays an illegal move fails the bridge ([`UciBridge::failed`]) and the
//! caller ends the run. An engine with no move (`bestmove (none)`) is
//! [`Report::NoMove`]: the game's end is seen from the position.
//!
//! The same shape as the Hub ⇄ DXP bridge ([`crate::dxp_bridge`]) and the
//! USI ⇄ CSA bridge ([`crate::csa_bridge`]).

use std::time::Duration;

use board_core::chess::{Move, Position};
use board_core::time::Timestamp;
use novag_citrine::session::{Driver, GameStarted};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::bridge::{self, Link, TaskEngine};
use crate::line_engine::{Skipped, Timeouts};
use crate::process::{EngineError, EngineSpec, Limits};
use crate::types::EngineOption;
use crate::uci_engine::UciEngine;

/// How the engine is run.
#[derive(Debug, Clone)]
pub struct BridgePlan {
    /// `--engine PROGRAM`, `--engine-arg ARG`.
    pub spec: EngineSpec,
    /// `--option NAME=VALUE`, sent as `setoption`.
    pub options: Vec<EngineOption>,
    /// The process bounds.
    pub limits: Limits,
    /// `uciok` ([`Timeouts::handshake`]) and `readyok` ([`Timeouts::ready`])
    /// bounds; a search may take its `movetime` plus
    /// [`Timeouts::think_margin`].
    pub timeouts: Timeouts,
    /// The engine's time per move (`go movetime MS`); default 1000.
    pub movetime_ms: u64,
}

impl BridgePlan {
    /// The plan with the default limits and timeouts (`uciok` 10 s,
    /// `readyok` 60 s, 5 s past the `movetime` for a search) and 1 s per
    /// move.
    pub fn new(spec: EngineSpec, options: Vec<EngineOption>) -> BridgePlan {
        BridgePlan {
            spec,
            options,
            limits: Limits::default(),
            timeouts: Timeouts::default(),
            movetime_ms: 1000,
        }
    }
}

impl TaskEngine for UciEngine {
    /// The start position, the moves since and the `movetime`.
    type Search = (Position, Vec<Move>, u64);
    type Found = (Option<Move>, Duration);
    type Notice = core::convert::Infallible;
    type Answer = Answer;

    fn started(&mut self) -> Answer {
        Answer::Started {
            name: self.name().map(str::to_owned),
        }
    }

    fn failed(why: String) -> Answer {
        Answer::Failed(why)
    }

    fn answered(id: u64, result: Result<Self::Found, String>) -> Answer {
        Answer::Moved { id, result }
    }

    async fn new_game(&mut self) -> Result<(), EngineError> {
        UciEngine::new_game(self).await
    }

    async fn search(
        &mut self,
        _id: u64,
        (start, moves, movetime_ms): Self::Search,
    ) -> Option<Result<Self::Found, EngineError>> {
        let t0 = Instant::now();
        let result = self.think(&start, &moves, movetime_ms).await;
        Some(result.map(|m| (m, t0.elapsed())))
    }

    async fn quit(self) {
        UciEngine::quit(self).await;
    }
}

/// What the engine task sends back.
#[derive(Debug)]
#[non_exhaustive]
pub enum Answer {
    /// The handshake and the first `ucinewgame` are done.
    Started {
        /// Its `id name`.
        name: Option<String>,
    },
    /// The answer to search `id`: the move (legal in the position asked
    /// about; `None`: `bestmove (none)`) and the time it took, or why there
    /// is none.
    Moved {
        /// Which search.
        id: u64,
        /// The move and the time, or the engine's failure.
        result: Result<(Option<Move>, Duration), String>,
    },
    /// The engine cannot be used (the handshake failed, `ucinewgame` not
    /// answered).
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
    },
    /// We asked for a search (`go movetime MS`).
    Asked {
        /// The `movetime`, milliseconds.
        movetime_ms: u64,
    },
    /// The engine's move was sent (`M ...`).
    Played {
        /// The move.
        mv: Move,
        /// How long the engine took.
        took: Duration,
    },
    /// The driver refused the engine's move (the device or the game moved
    /// on in a way the bridge was not told of): the next
    /// [`UciBridge::our_turn`] asks again.
    Refused {
        /// The move.
        mv: Move,
        /// The driver's reason.
        why: String,
    },
    /// The engine has no move (`bestmove (none)`): the game is over.
    NoMove,
    /// The engine failed: the caller ends the run (the Citrine cannot be
    /// resigned to).
    Failed {
        /// Why.
        why: String,
    },
    /// An answer to a search that no longer matters (a take-back, a new
    /// game or another position came first): dropped.
    Stale,
}

impl core::fmt::Display for Report {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Report::Started { name } => bridge::write_started(f, name.as_deref()),
            Report::Asked { movetime_ms } => write!(f, "engine asked: go movetime {movetime_ms}"),
            Report::Played { mv, took } => write!(f, "engine {mv} in {:.3} s", took.as_secs_f64()),
            Report::Refused { mv, why } => write!(f, "cannot play {mv}: {why}"),
            Report::NoMove => f.write_str("engine has no move"),
            Report::Failed { why } => write!(f, "engine failed: {why}"),
            Report::Stale => f.write_str("engine answer to an old position dropped"),
        }
    }
}

/// The engine's side of a Citrine game. See the module documentation.
#[derive(Debug)]
pub struct UciBridge {
    link: Link<UciEngine>,
    /// The search we wait for, and the position it is about.
    thinking: Option<(u64, Position)>,
    movetime_ms: u64,
}

impl UciBridge {
    /// Starts the engine in a task of its own (needs a tokio runtime that
    /// runs while the caller is busy elsewhere: a multi-thread runtime
    /// entered with `Runtime::enter`, when the caller is the blocking
    /// serial driver); its answers come on the receiver, the first one
    /// [`Answer::Started`] or [`Answer::Failed`]. `log` sees the engine
    /// lines that were skipped. The engine is told `quit` (and killed
    /// after 2 s) when the bridge is dropped and its last search is over.
    pub fn spawn(
        plan: BridgePlan,
        log: Box<dyn FnMut(Skipped) + Send>,
    ) -> (UciBridge, mpsc::Receiver<Answer>) {
        let movetime_ms = plan.movetime_ms;
        let (link, answers) = bridge::spawn(8, async move {
            let mut engine =
                UciEngine::start(&plan.spec, &plan.options, plan.limits, plan.timeouts, log)
                    .await?;
            engine.new_game().await?;
            Ok(engine)
        });
        (
            UciBridge {
                link,
                thinking: None,
                movetime_ms,
            },
            answers,
        )
    }

    /// Why the engine failed, once it has.
    pub fn failed(&self) -> Option<&str> {
        self.link.failed()
    }

    /// A game started (the device said `New Game`): `ucinewgame`; a search
    /// under way no longer counts.
    pub fn game_started(&mut self, _g: &GameStarted) {
        self.thinking = None;
        if self.link.failed().is_none()
            && let Err(why) = self.link.new_game()
        {
            self.link.set_failed(why);
        }
    }

    /// Moves were taken back: the search under way (if any) no longer
    /// counts; the next [`UciBridge::our_turn`] asks about the position
    /// taken back to.
    pub fn taken_back(&mut self) {
        self.thinking = None;
    }

    /// The game ended: a search under way no longer counts.
    pub fn game_ended(&mut self) {
        self.thinking = None;
    }

    /// Call whenever the driver is idle. When the host may move and the
    /// engine is not already thinking about this position: a search
    /// (`position`, `go movetime`). `None` when there is nothing to do (or
    /// the engine has failed). `now` is not used: the Citrine has no
    /// resignation to send; it is there so that the three bridges are
    /// called alike.
    pub fn our_turn<T: Timestamp>(&mut self, driver: &mut Driver<T>, now: T) -> Option<Report> {
        let _ = now;
        if self.link.failed().is_some() || !(driver.is_our_turn() && driver.is_idle()) {
            return None;
        }
        let position = *driver.position()?;
        if self.thinking.is_some_and(|(_, asked)| asked == position) {
            return None;
        }
        let start = *driver.start_position()?;
        let id = match self
            .link
            .think((start, driver.moves().to_vec(), self.movetime_ms))
        {
            Ok(id) => id,
            Err(why) => return Some(self.fail(why.into())),
        };
        self.thinking = Some((id, position));
        Some(Report::Asked {
            movetime_ms: self.movetime_ms,
        })
    }

    /// An answer of the engine task: a move is sent with
    /// [`Driver::send_move`]; a failure fails the bridge.
    pub fn answer<T: Timestamp>(&mut self, driver: &mut Driver<T>, a: Answer, now: T) -> Report {
        match a {
            Answer::Started { name } => Report::Started { name },
            Answer::Failed(why) => self.fail(why),
            Answer::Moved {
                result: Err(why), ..
            } => self.fail(why),
            Answer::Moved {
                id,
                result: Ok((best, took)),
            } => {
                let Some((asked, position)) = self.thinking else {
                    return Report::Stale;
                };
                if asked != id {
                    return Report::Stale;
                }
                self.thinking = None;
                if driver.position() != Some(&position) || !driver.is_our_turn() {
                    return Report::Stale;
                }
                let Some(mv) = best else {
                    return Report::NoMove;
                };
                match driver.send_move(mv, now) {
                    Ok(()) => Report::Played { mv, took },
                    Err(e) => Report::Refused {
                        mv,
                        why: e.to_string(),
                    },
                }
            }
        }
    }

    fn fail(&mut self, why: String) -> Report {
        self.thinking = None;
        self.link.set_failed(&why);
        Report::Failed { why }
    }
}
