//! A USI engine ([`usi_engine`](crate::usi_engine)) playing CSA games
//! ([`csa_protocol::spec::csa`]) through the CSA [`Client`] session: the
//! part of `boardwire csa connect --engine` that is not the socket, the
//! kifu file or the transcript.
//!
//! [`UsiBridge::spawn`] starts the engine in a task of its own
//! ([`UsiEngine`]: `usi` → `usiok`, `setoption` per option, `isready` →
//! `readyok`); its answers come on a channel ([`Answer`]), which the CSA
//! driver waits on beside the socket (`csa_protocol::net::connect_with`).
//! The first answer is [`Answer::Started`] or [`Answer::Failed`]: a caller
//! that wants the engine ready before it connects awaits it first. The
//! caller passes the session's events on, in this order per game:
//!
//! - [`UsiBridge::game_offered`] (CSA `Event::GameSummary`, spec note
//!   *Game_Summary* and *Agreement -> game*): we `AGREE` (or `REJECT` once
//!   the engine has failed), and the engine is told `isready`/`usinewgame`;
//! - [`UsiBridge::our_turn`] whenever the session is idle (or at least on
//!   `Event::OurTurn`; a call off our turn does nothing): on our turn,
//!   `position ... moves ...` and a `go` made from both clocks
//!   ([`time::go`](crate::time::go), with [`BridgePlan::margin_ms`]);
//! - [`UsiBridge::answer`] for each [`Answer`]: `bestmove <move>` is checked
//!   in the position and sent as the CSA move with its Floodgate comment
//!   (`+7776FU,'* 30 -3334FU`, spec note *Moves*;
//!   [`convert::floodgate_comment`](crate::convert::floodgate_comment)),
//!   `bestmove resign` as `%TORYO`, `bestmove win` as `%KACHI` (the special
//!   moves of the same section);
//! - [`UsiBridge::game_ended`] (CSA `Event::GameEnded`): `gameover
//!   win|lose|draw` (spec note *Results*; a game the server ended without
//!   a result, `#CENSORED` or a closed connection, is a draw to the
//!   engine).
//!
//! An engine that cannot start, exits, stays silent past the time it was
//! given (our clock less 100 ms, so that we can still resign) or plays an
//! illegal move fails the bridge ([`UsiBridge::failed`]): at our turn (at
//! once, or the next one) we resign with `%TORYO`, and every later
//! `Game_Summary` is rejected. The engine is not asked to ponder.
//!
//! The same shape as the Hub ⇄ DXP bridge ([`crate::dxp_bridge`]) and the
//! UCI ⇄ Citrine bridge ([`crate::citrine_bridge`]).

use std::time::Duration;

use board_core::shogi::{Move, Position};
use board_core::time::Timestamp;
use csa_protocol::session::{Client, GameEnded, Outcome};
use csa_protocol::types::{Side, Text};
use tokio::sync::mpsc;

use crate::bridge::{self, Link, TaskEngine};
use crate::convert::floodgate_comment;
use crate::line_engine::{Skipped, Timeouts};
use crate::parse::Score;
use crate::process::{EngineError, EngineSpec, Limits};
use crate::time::{clocks, go};
use crate::types::EngineOption;
use crate::usi::{BestMove, EngineMessage, GameOver, Go};
use crate::usi_engine::{Thought, UsiEngine};

mod play;
pub use play::{Engine, EnginePlan, EngineReport, play_engine};

/// How long before our clock runs out an engine that has not answered is
/// given up (and we resign).
pub const RESIGN_LEAD: Duration = Duration::from_millis(100);

/// How the engine is run.
#[derive(Debug, Clone)]
pub struct BridgePlan {
    /// `--engine PROGRAM`, `--engine-arg ARG`.
    pub spec: EngineSpec,
    /// `--option NAME=VALUE`, sent as `setoption`.
    pub options: Vec<EngineOption>,
    /// The process bounds.
    pub limits: Limits,
    /// `usiok` ([`Timeouts::handshake`]) and `readyok` ([`Timeouts::ready`])
    /// bounds. A search is bounded by the bridge itself (our clock less
    /// [`RESIGN_LEAD`]), so [`Timeouts::think_margin`] is 0 here.
    pub timeouts: Timeouts,
    /// Milliseconds kept back from the engine's time for each move
    /// (latency, the server's whole seconds): see [`crate::time`].
    /// Default 500.
    pub margin_ms: u64,
    /// The `byoyomi` sent in a game without a clock (USI has no
    /// `movetime`), milliseconds; the engine may take 10 s more. Default
    /// 5000.
    pub no_clock_byoyomi_ms: u64,
}

impl BridgePlan {
    /// The plan with the default limits, `usiok` 10 s and `readyok` 60 s,
    /// no think margin, a 500 ms time margin and 5 s per move without a
    /// clock.
    pub fn new(spec: EngineSpec, options: Vec<EngineOption>) -> BridgePlan {
        let timeouts = Timeouts {
            think_margin: Duration::ZERO,
            ..Timeouts::default()
        };
        BridgePlan {
            spec,
            options,
            limits: Limits::default(),
            timeouts,
            margin_ms: 500,
            no_clock_byoyomi_ms: 5000,
        }
    }
}

/// What one search is asked with.
pub(crate) struct Search {
    start: Box<Position>,
    moves: Vec<Move>,
    go: Go,
    allowed: Duration,
}

impl TaskEngine for UsiEngine {
    type Search = Search;
    type Found = Thought;
    type Notice = GameOver;
    type Answer = Answer;

    fn started(&mut self) -> Answer {
        Answer::Started {
            name: self.name().map(str::to_owned),
        }
    }

    fn failed(why: String) -> Answer {
        Answer::Failed(why)
    }

    fn answered(id: u64, result: Result<Thought, String>) -> Answer {
        Answer::Thought { id, result }
    }

    async fn new_game(&mut self) -> Result<(), EngineError> {
        UsiEngine::new_game(self).await
    }

    async fn search(&mut self, _id: u64, s: Search) -> Option<Result<Thought, EngineError>> {
        Some(self.think(&s.start, &s.moves, s.go, s.allowed).await)
    }

    async fn notice(&mut self, r: GameOver) {
        // An engine that cannot be told is found out at the next
        // `isready`.
        let _ = self.game_over(r).await;
    }

    async fn quit(self) {
        UsiEngine::quit(self).await;
    }
}

/// What the engine task sends back.
#[derive(Debug)]
#[non_exhaustive]
pub enum Answer {
    /// The handshake is done.
    Started {
        /// Its `id name`.
        name: Option<String>,
    },
    /// The answer to search `id`: the engine's `bestmove` (a move legal in
    /// the position asked about, `resign` or `win`), or why there is none.
    Thought {
        /// Which search.
        id: u64,
        /// The engine's answer, or its failure.
        result: Result<Thought, String>,
    },
    /// The engine cannot be used (the handshake failed, `usinewgame` not
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
    },
    /// We agreed to the game offered.
    Agreed,
    /// We rejected the game offered (or the session could not agree).
    Rejected {
        /// Why.
        why: String,
    },
    /// We asked for a search with this `go`.
    Asked(Go),
    /// The engine's move was sent.
    Played {
        /// The move.
        mv: Move,
        /// Its ply: the number of moves before it ([`Client::moves`]'s
        /// length when it was sent, the moves of the Position block
        /// included).
        ply: usize,
        /// The Floodgate comment sent with it (without the `'`), when the
        /// engine gave a score.
        comment: Option<String>,
        /// The engine's score.
        score: Option<Score>,
        /// How long the engine took.
        took: Duration,
    },
    /// The engine resigned (`bestmove resign`): `%TORYO` sent.
    Resigned {
        /// How long the engine took.
        took: Duration,
    },
    /// The engine declared a win (`bestmove win`): `%KACHI` sent.
    DeclaredWin {
        /// How long the engine took.
        took: Duration,
    },
    /// The engine failed; `resigned` when our `%TORYO` went out now (else
    /// it goes at our next turn).
    Failed {
        /// Why.
        why: String,
        /// `%TORYO` sent.
        resigned: bool,
    },
    /// An answer to a search that no longer matters (the game ended
    /// first): dropped.
    Stale,
}

fn score_words(score: Option<Score>) -> String {
    match score {
        Some(Score::Cp(cp)) => format!(", score cp {cp}"),
        Some(Score::Mate(n)) => format!(", score mate {n}"),
        Some(_) => ", score mate".into(),
        None => String::new(),
    }
}

impl core::fmt::Display for Report {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Report::Started { name } => bridge::write_started(f, name.as_deref()),
            Report::Agreed => f.write_str("game agreed; engine told usinewgame"),
            Report::Rejected { why } => write!(f, "game rejected: {why}"),
            Report::Asked(g) => {
                let b = crate::usi::Command::Go(*g).to_bytes();
                write!(
                    f,
                    "engine asked: {}",
                    String::from_utf8_lossy(&b[..b.len() - 1])
                )
            }
            Report::Played {
                mv, score, took, ..
            } => write!(
                f,
                "engine: bestmove {mv} in {:.3} s{}",
                took.as_secs_f64(),
                score_words(*score)
            ),
            Report::Resigned { took } => write!(
                f,
                "engine: bestmove resign in {:.3} s; the engine resigns (%TORYO)",
                took.as_secs_f64()
            ),
            Report::DeclaredWin { took } => write!(
                f,
                "engine: bestmove win in {:.3} s; the engine declares a win (%KACHI)",
                took.as_secs_f64()
            ),
            Report::Failed { why, resigned } => bridge::write_failed(f, why, *resigned, "%TORYO"),
            Report::Stale => f.write_str("engine answer to an old position dropped"),
        }
    }
}

/// The engine's side of a CSA connection. See the module documentation.
#[derive(Debug)]
pub struct UsiBridge {
    link: Link<UsiEngine>,
    /// The search we wait for.
    thinking: Option<u64>,
    margin_ms: u64,
    no_clock_byoyomi_ms: u64,
}

impl UsiBridge {
    /// Starts the engine in a task of its own (needs a tokio runtime);
    /// its answers come on the receiver, the first one [`Answer::Started`]
    /// or [`Answer::Failed`]. `log` sees the engine lines that were
    /// skipped. The engine is told `quit` (and killed after 2 s) when the
    /// bridge is dropped and its last search is over.
    pub fn spawn(
        plan: BridgePlan,
        log: Box<dyn FnMut(Skipped) + Send>,
    ) -> (UsiBridge, mpsc::Receiver<Answer>) {
        let (margin_ms, no_clock_byoyomi_ms) = (plan.margin_ms, plan.no_clock_byoyomi_ms);
        let (link, answers) = bridge::spawn(8, async move {
            UsiEngine::start(&plan.spec, &plan.options, plan.limits, plan.timeouts, log).await
        });
        (
            UsiBridge {
                link,
                thinking: None,
                margin_ms,
                no_clock_byoyomi_ms,
            },
            answers,
        )
    }

    /// Why the engine failed, once it has.
    pub fn failed(&self) -> Option<&str> {
        self.link.failed()
    }

    /// A `Game_Summary` arrived (CSA `Event::GameSummary`): `AGREE` and
    /// `isready`/`usinewgame`; `REJECT` when the engine has failed. A
    /// summary the session could not accept (it has sent `REJECT` itself,
    /// `Event::BadStartPosition`) is [`Report::Rejected`] too.
    pub fn game_offered<I: Timestamp>(&mut self, client: &mut Client<I>, now: I) -> Report {
        self.thinking = None;
        if let Some(why) = self.link.failed() {
            let _ = client.reject(now);
            return Report::Rejected {
                why: format!("the engine failed: {why}"),
            };
        }
        if let Err(e) = client.agree(now) {
            return Report::Rejected {
                why: format!("cannot agree: {e}"),
            };
        }
        if let Err(why) = self.link.new_game() {
            return self.fail(client, why.into(), now);
        }
        Report::Agreed
    }

    /// The game ended (CSA `Event::GameEnded`): `gameover win|lose|draw`;
    /// a search under way no longer counts.
    pub fn game_ended(&mut self, end: &GameEnded) {
        self.thinking = None;
        let r = match end.outcome {
            Outcome::Won => GameOver::Win,
            Outcome::Lost => GameOver::Lose,
            Outcome::Drawn | Outcome::Unknown => GameOver::Draw,
        };
        let _ = self.link.notice(r);
    }

    /// Call whenever the session is idle. On our turn with no search under
    /// way: `%TORYO` when the engine failed, else a search (`position`,
    /// `go`). `None` when there is nothing to do.
    pub fn our_turn<I: Timestamp>(&mut self, client: &mut Client<I>, now: I) -> Option<Report> {
        if !client.is_our_turn() || self.thinking.is_some() {
            return None;
        }
        if let Some(why) = self.link.failed() {
            let why = why.to_owned();
            let resigned = client.resign(now).is_ok();
            return Some(Report::Failed { why, resigned });
        }
        let (Some(start), Some(side)) = (client.start_position(), client.side()) else {
            return None;
        };
        let start = Box::new(*start);
        let (b, w) = clocks(client)?;
        let g = go(b, w, side, self.margin_ms, self.no_clock_byoyomi_ms);
        let mine = if side == Side::Black { b } else { w };
        // The engine must answer before our clock runs out, a little early
        // so that we can still resign cleanly; with no clock, within the
        // byoyomi it was given plus 10 s.
        let unlimited =
            |c: crate::time::SideClock| c.remaining_ms + c.byoyomi_ms + c.increment_ms == 0;
        let allowed = if unlimited(b) && unlimited(w) {
            Duration::from_millis(g.byoyomi.unwrap_or(0) + 10_000)
        } else {
            Duration::from_millis(mine.remaining_ms.saturating_add(mine.byoyomi_ms))
                .saturating_sub(RESIGN_LEAD)
        };
        let search = Search {
            start,
            moves: client.moves().to_vec(),
            go: g,
            allowed,
        };
        let id = match self.link.think(search) {
            Ok(id) => id,
            Err(why) => return Some(self.fail(client, why.into(), now)),
        };
        self.thinking = Some(id);
        Some(Report::Asked(g))
    }

    /// An answer of the engine task: a move is played (with its Floodgate
    /// comment), `resign`/`win` sent as `%TORYO`/`%KACHI`, a failure
    /// resigns at our turn.
    pub fn answer<I: Timestamp>(&mut self, client: &mut Client<I>, a: Answer, now: I) -> Report {
        match a {
            Answer::Started { name } => Report::Started { name },
            Answer::Failed(why) => self.fail(client, why, now),
            Answer::Thought {
                result: Err(why), ..
            } => {
                // Also when the game ended meanwhile: the engine is gone.
                self.thinking = None;
                self.fail(client, why, now)
            }
            Answer::Thought { id, result: Ok(th) } => {
                if self.thinking != Some(id) || !client.is_our_turn() {
                    return Report::Stale;
                }
                self.thinking = None;
                let took = th.elapsed;
                match th.best {
                    BestMove::Move(mv) => {
                        let comment = client.position().and_then(|pos| {
                            let text = th.info.as_deref()?;
                            match crate::usi::decode(text) {
                                Ok(EngineMessage::Info(i)) => floodgate_comment(pos, mv, &i),
                                _ => None,
                            }
                        });
                        let ply = client.moves().len();
                        let text = comment.clone().and_then(|c| Text::new(c).ok());
                        match client.send_move_with(mv, text, now) {
                            Ok(()) => Report::Played {
                                mv,
                                ply,
                                comment,
                                score: th.score,
                                took,
                            },
                            Err(e) => self.fail(client, format!("its move {mv}: {e}"), now),
                        }
                    }
                    BestMove::Resign => {
                        let _ = client.resign(now);
                        Report::Resigned { took }
                    }
                    BestMove::Win => {
                        let _ = client.declare_win(now);
                        Report::DeclaredWin { took }
                    }
                }
            }
        }
    }

    /// The engine cannot go on: resign now on our turn, else at the next.
    fn fail<I: Timestamp>(&mut self, client: &mut Client<I>, why: String, now: I) -> Report {
        self.thinking = None;
        self.link.set_failed(&why);
        let resigned = client.is_our_turn() && client.resign(now).is_ok();
        Report::Failed { why, resigned }
    }
}
