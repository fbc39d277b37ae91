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

use crate::line_engine::{Skipped, Timeouts};
use crate::process::{EngineSpec, Limits};
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

enum Job {
    NewGame,
    Think {
        id: u64,
        start: Position,
        moves: Vec<Move>,
    },
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
            Report::Started { name } => {
                write!(f, "engine {} ready", name.as_deref().unwrap_or("(no name)"))
            }
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
    jobs: mpsc::Sender<Job>,
    /// The search we wait for, and the position it is about.
    thinking: Option<(u64, Position)>,
    next_id: u64,
    movetime_ms: u64,
    failed: Option<String>,
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
        let (job_tx, mut job_rx) = mpsc::channel::<Job>(8);
        let (ans_tx, ans_rx) = mpsc::channel::<Answer>(8);
        let movetime_ms = plan.movetime_ms;
        tokio::spawn(async move {
            let started = async {
                let mut e =
                    UciEngine::start(&plan.spec, &plan.options, plan.limits, plan.timeouts, log)
                        .await?;
                e.new_game().await?;
                Ok::<_, crate::process::EngineError>(e)
            };
            let mut engine = match started.await {
                Ok(e) => e,
                Err(e) => {
                    let _ = ans_tx.send(Answer::Failed(e.to_string())).await;
                    return;
                }
            };
            let name = engine.name().map(str::to_owned);
            if ans_tx.send(Answer::Started { name }).await.is_err() {
                engine.quit().await;
                return;
            }
            while let Some(job) = job_rx.recv().await {
                match job {
                    Job::NewGame => {
                        if let Err(e) = engine.new_game().await {
                            let _ = ans_tx.send(Answer::Failed(e.to_string())).await;
                            break;
                        }
                    }
                    Job::Think { id, start, moves } => {
                        let t0 = Instant::now();
                        let result = engine
                            .think(&start, &moves, movetime_ms)
                            .await
                            .map(|m| (m, t0.elapsed()))
                            .map_err(|e| e.to_string());
                        let failed = result.is_err();
                        if ans_tx.send(Answer::Moved { id, result }).await.is_err() || failed {
                            break;
                        }
                    }
                }
            }
            engine.quit().await;
        });
        (
            UciBridge {
                jobs: job_tx,
                thinking: None,
                next_id: 1,
                movetime_ms,
                failed: None,
            },
            ans_rx,
        )
    }

    /// Why the engine failed, once it has.
    pub fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// A game started (the device said `New Game`): `ucinewgame`; a search
    /// under way no longer counts.
    pub fn game_started(&mut self, _g: &GameStarted) {
        self.thinking = None;
        if self.failed.is_none() && self.jobs.try_send(Job::NewGame).is_err() {
            self.failed = Some("the engine task is gone".into());
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
        if self.failed.is_some() || !(driver.is_our_turn() && driver.is_idle()) {
            return None;
        }
        let position = *driver.position()?;
        if self.thinking.is_some_and(|(_, asked)| asked == position) {
            return None;
        }
        let start = *driver.start_position()?;
        let id = self.next_id;
        self.next_id += 1;
        let job = Job::Think {
            id,
            start,
            moves: driver.moves().to_vec(),
        };
        if self.jobs.try_send(job).is_err() {
            return Some(self.fail("the engine task is gone".into()));
        }
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
        if self.failed.is_none() {
            self.failed = Some(why.clone());
        }
        Report::Failed { why }
    }
}
