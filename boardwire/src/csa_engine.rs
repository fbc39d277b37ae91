//! `boardwire csa connect --engine PROGRAM`: a USI engine plays on a CSA
//! server (plain and x1 mode; `--games N` in x1).
//!
//! The engine runs in its own task (`boardwire_engines::usi_engine`);
//! `csa_protocol::net::run_with` passes its answers to the session.
//! Per game: `isready`/`usinewgame` when the Game_Summary arrives (we
//! agree), then on each of our turns `position ... moves ...` and a `go`
//! converted from both clocks (`boardwire_engines::time`, with
//! `--time-margin`), `bestmove` → the CSA move with a Floodgate comment
//! (`,'* <score> <PV>`), `resign` → `%TORYO`, `win` → `%KACHI`;
//! `gameover` at the end. An engine that exits, stays silent past its
//! time, or plays an illegal move: `%TORYO`, the reason as a note and on
//! stderr, exit 1 (x1: no further game).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use board_core::shogi::{Color, Move, Position};
use boardwire_engines::convert::floodgate_comment;
use boardwire_engines::process::{EngineSpec, Limits as EngineLimits};
use boardwire_engines::time::{clocks, go};
use boardwire_engines::types::EngineOption;
use boardwire_engines::usi::{BestMove, GameOver, Go};
use boardwire_engines::usi_engine::{Thought, Timeouts, UsiEngine};
use csa_protocol::kifu::{GameMove, Kifu, end_statement};
use csa_protocol::message::{EndReason, SpecialMove, X1Reply};
use std::ops::ControlFlow;

use csa_protocol::net::{self, Activity, Config};
use csa_protocol::session::{Client, ClientConfig, ClientState, Event, Outcome};
use csa_protocol::types::{GameName, Side, SidePreference, Text};
use tokio::sync::mpsc;

use crate::csa::{ConnectError, CsaWire, ended, result_words};
use crate::transcript::Transcript;

/// The engine options of `csa connect`.
pub(crate) struct EnginePlan {
    /// `--engine`, `--engine-arg`.
    pub spec: EngineSpec,
    /// `--option NAME=VALUE`.
    pub options: Vec<EngineOption>,
    /// `--time-margin`, milliseconds.
    pub margin_ms: u64,
    /// x1: games to play (`--games`).
    pub games: u32,
    /// `--kifu FILE`.
    pub kifu: Option<PathBuf>,
    /// x1: the game asked for again after each game.
    pub rematch: Option<(GameName<'static>, SidePreference)>,
    /// Server silence bound (`--timeout`).
    pub timeout: Duration,
    /// `--engine-timeout`: `usiok`/`readyok`.
    pub ready_timeout: Duration,
}

/// What a game with the engine gave.
#[derive(Debug, Default)]
pub(crate) struct EngineReport {
    /// Results of the games: reason, outcome, moves.
    pub results: Vec<(Option<EndReason>, Outcome, usize)>,
    /// The engine failed: why.
    pub engine_failed: Option<String>,
    /// Other problems (login refused, board mismatch...).
    pub problems: Vec<String>,
}

/// How long before our clock runs out an engine that has not answered is
/// given up (and we resign).
const RESIGN_LEAD_MS: u64 = 100;

enum Job {
    NewGame,
    Think {
        id: usize,
        start: Box<Position>,
        moves: Vec<Move>,
        go: Go,
        allowed: Duration,
    },
    GameOver(GameOver),
}

enum Answer {
    Thought {
        id: usize,
        result: Result<Thought, String>,
    },
    Failed(String),
}

/// Starts the engine (the handshake) before the connection is opened.
pub(crate) async fn start_engine(plan: &EnginePlan) -> Result<UsiEngine, String> {
    let timeouts = {
        let mut t = Timeouts::default();
        t.handshake = plan.ready_timeout;
        t.ready = plan.ready_timeout;
        // The bridge gives the engine a deadline of its own (before our
        // clock runs out), nothing on top.
        t.think_margin = Duration::ZERO;
        t
    };
    UsiEngine::start(
        &plan.spec,
        &plan.options,
        EngineLimits::default(),
        timeouts,
        crate::engine_args::skipped_line_log(String::new()),
    )
    .await
    .map_err(|e| e.to_string())
}

/// Plays on `stream` with `engine` until the server closes the
/// connection (x1: until `plan.games` games are played, or the engine
/// failed, then LOGOUT).
pub(crate) async fn play_engine(
    stream: tokio::net::TcpStream,
    config: ClientConfig,
    plan: &EnginePlan,
    engine: UsiEngine,
    t: &mut Transcript,
) -> Result<EngineReport, ConnectError> {
    let x1 = config.x1;
    let (job_tx, mut job_rx) = mpsc::channel::<Job>(8);
    let (ans_tx, ans_rx) = mpsc::channel::<Answer>(8);
    let task = tokio::spawn(async move {
        let mut engine = engine;
        while let Some(job) = job_rx.recv().await {
            match job {
                Job::NewGame => {
                    if let Err(e) = engine.new_game().await {
                        let _ = ans_tx.send(Answer::Failed(e.to_string())).await;
                    }
                }
                Job::Think {
                    id,
                    start,
                    moves,
                    go,
                    allowed,
                } => {
                    let result = engine
                        .think(&start, &moves, go, allowed)
                        .await
                        .map_err(|e| e.to_string());
                    let _ = ans_tx.send(Answer::Thought { id, result }).await;
                }
                Job::GameOver(r) => {
                    let _ = engine.game_over(r).await;
                }
            }
        }
        engine.quit().await;
    });
    let mut wire = CsaWire::new();
    let mut st = State {
        report: EngineReport::default(),
        times: Vec::new(),
        comments: Vec::new(),
        kifu_text: String::new(),
        names: [None, None],
        game_id: None,
        games: 0,
        thinking: None,
    };
    let mut config = Config::new(config);
    config.session.reply_timeout = plan.timeout;
    let result = net::run_with(stream, config, ans_rx, |client, activity| {
        match activity {
            Activity::Event(e) => {
                if let Event::GameSummary(s) = &e {
                    wire.summary(t, s);
                }
                st.on_event(client, &e, plan, x1, &job_tx, t);
                if let Event::PeerSilent { awaiting } = e {
                    return ControlFlow::Break(awaiting);
                }
            }
            Activity::External(a) => st.on_answer(client, a, t),
            a => wire.activity(t, a),
        }
        ControlFlow::Continue(())
    })
    .await;
    wire.closed(t, b"");
    drop(job_tx);
    // The engine is told `quit` (killed after 2 s); wait a little more.
    let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
    ended(result)?;
    Ok(st.report)
}

struct State {
    report: EngineReport,
    /// `T` of every move of the current game, by ply.
    times: Vec<Option<u64>>,
    /// Our Floodgate comments, by ply.
    comments: Vec<Option<String>>,
    kifu_text: String,
    names: [Option<String>; 2],
    game_id: Option<String>,
    games: u32,
    /// The ply our engine is thinking about.
    thinking: Option<usize>,
}

impl State {
    fn on_event(
        &mut self,
        client: &mut Client<Instant>,
        e: &Event,
        plan: &EnginePlan,
        x1: bool,
        jobs: &mpsc::Sender<Job>,
        t: &mut Transcript,
    ) {
        let now = Instant::now();
        match e {
            Event::LoginFailed => self.report.problems.push("login refused".into()),
            Event::GameSummary(s) => {
                self.names = [
                    s.name_black.as_ref().map(|n| n.to_string()),
                    s.name_white.as_ref().map(|n| n.to_string()),
                ];
                self.game_id = s.game_id.as_ref().map(|g| g.to_string());
                self.times.clear();
                self.comments.clear();
                if self.report.engine_failed.is_some() {
                    let _ = client.reject(now);
                    return;
                }
                let _ = client.agree(now);
                if jobs.try_send(Job::NewGame).is_err() {
                    self.fail(client, "the engine task is gone".into(), t);
                }
            }
            Event::OurTurn { .. } if client.is_our_turn() => {
                if self.report.engine_failed.is_some() {
                    let _ = client.special(SpecialMove::Toryo, now);
                    return;
                }
                let (Some(start), Some(side)) = (client.start_position(), client.side()) else {
                    return;
                };
                let Some((b, w)) = clocks(client) else { return };
                let g = go(b, w, side, plan.margin_ms, 5000);
                let mine = if side == Side::Black { b } else { w };
                // The engine must answer before our clock runs out, 100 ms
                // early so that we can still resign cleanly; with no clock,
                // within the byoyomi it was given plus 10 s.
                let allowed = if b.remaining_ms + b.byoyomi_ms + b.increment_ms == 0
                    && w.remaining_ms + w.byoyomi_ms + w.increment_ms == 0
                {
                    Duration::from_millis(g.byoyomi.unwrap_or(0) + 10_000)
                } else {
                    Duration::from_millis(
                        mine.remaining_ms
                            .saturating_add(mine.byoyomi_ms)
                            .saturating_sub(RESIGN_LEAD_MS),
                    )
                };
                let id = client.moves().len();
                self.thinking = Some(id);
                let job = Job::Think {
                    id,
                    start: Box::new(*start),
                    moves: client.moves().to_vec(),
                    go: g,
                    allowed,
                };
                if jobs.try_send(job).is_err() {
                    self.fail(client, "the engine task is gone".into(), t);
                }
            }
            Event::Move { time, .. } => {
                let ply = client.moves().len().saturating_sub(1);
                if self.times.len() <= ply {
                    self.times.resize(ply + 1, None);
                }
                self.times[ply] = time.map(|t| t.as_secs());
            }
            Event::GameEnded(end) => {
                self.games += 1;
                self.report
                    .results
                    .push((end.reason, end.outcome, end.moves.len()));
                t.note(&format!(
                    "game over after {} moves: {}",
                    end.moves.len(),
                    result_words(end.reason, end.outcome)
                ));
                let r = match end.outcome {
                    Outcome::Won => GameOver::Win,
                    Outcome::Lost => GameOver::Lose,
                    Outcome::Drawn | Outcome::Unknown => GameOver::Draw,
                };
                let _ = jobs.try_send(Job::GameOver(r));
                self.thinking = None;
                if let Some(path) = &plan.kifu {
                    self.write_kifu(path, &end.start, &end.moves, end.reason, t);
                }
                {
                    let more = self.games < plan.games && self.report.engine_failed.is_none();
                    match (&plan.rematch, more && x1) {
                        (Some((name, side)), true) => {
                            t.note(&format!("game {} of {}", self.games + 1, plan.games));
                            if let Err(e) = client.request_game(name.clone(), *side, now) {
                                self.report.problems.push(format!("%%GAME: {e}"));
                                let _ = client.logout(now);
                            }
                        }
                        _ => {
                            let _ = client.logout(now);
                        }
                    }
                }
            }
            Event::Malformed(err) => self.report.problems.push(format!("malformed line: {err}")),
            Event::BadSummary(err) => self
                .report
                .problems
                .push(format!("bad Game_Summary: {err}")),
            Event::BoardMismatch { mv } => self
                .report
                .problems
                .push(format!("server move {mv} is illegal on our board")),
            Event::Rejected { game_id, by } => self
                .report
                .problems
                .push(format!("game {game_id} rejected by {by}")),
            // x1: the server refused our %%GAME: no game will come.
            Event::X1(X1Reply::Error(text)) if client.state() == ClientState::GameWaiting => {
                self.report
                    .problems
                    .push(format!("the server refused the game request: {text}"));
                let _ = client.logout(now);
            }
            Event::PeerSilent { .. } | Event::BadStartPosition(_) => {
                self.report.problems.push(e.to_string());
            }
            _ => {}
        }
    }

    fn on_answer(&mut self, client: &mut Client<Instant>, a: Answer, t: &mut Transcript) {
        let now = Instant::now();
        match a {
            Answer::Failed(why) => self.fail(client, why, t),
            Answer::Thought {
                result: Err(why), ..
            } => {
                // Also when the game ended meanwhile: the engine is gone.
                self.thinking = None;
                self.fail(client, why, t);
            }
            Answer::Thought { id, result } => {
                if self.thinking != Some(id) || !client.is_our_turn() {
                    // The game ended (or moved on) while the engine thought.
                    return;
                }
                self.thinking = None;
                let th = match result {
                    Ok(th) => th,
                    Err(why) => return self.fail(client, why, t),
                };
                let score = match th.score {
                    Some(boardwire_engines::parse::Score::Cp(cp)) => format!(", score cp {cp}"),
                    Some(boardwire_engines::parse::Score::Mate(n)) => format!(", score mate {n}"),
                    Some(_) => ", score mate".to_string(),
                    None => String::new(),
                };
                let best = match th.best {
                    BestMove::Move(m) => m.to_string(),
                    BestMove::Resign => "resign".into(),
                    BestMove::Win => "win".into(),
                };
                t.note(&format!(
                    "engine: bestmove {best} in {:.3} s{score}",
                    th.elapsed.as_secs_f64()
                ));
                match th.best {
                    BestMove::Move(m) => {
                        let comment = client.position().and_then(|pos| {
                            let text = th.info.as_deref()?;
                            match boardwire_engines::usi::decode(text) {
                                Ok(boardwire_engines::usi::EngineMessage::Info(i)) => {
                                    floodgate_comment(pos, m, &i)
                                }
                                _ => None,
                            }
                        });
                        let ply = client.moves().len();
                        if self.comments.len() <= ply {
                            self.comments.resize(ply + 1, None);
                        }
                        self.comments[ply] = comment.clone();
                        let text = comment.and_then(|c| Text::new(c).ok());
                        if let Err(e) = client.send_move_with(m, text, now) {
                            self.fail(client, format!("the engine's move {m}: {e}"), t);
                        }
                    }
                    BestMove::Resign => {
                        t.note("the engine resigns");
                        let _ = client.special(SpecialMove::Toryo, now);
                    }
                    BestMove::Win => {
                        t.note("the engine declares a win (%KACHI)");
                        let _ = client.special(SpecialMove::Kachi, now);
                    }
                }
            }
        }
    }

    /// The engine cannot go on: resign now when it is our turn (else at
    /// our next turn), say why.
    fn fail(&mut self, client: &mut Client<Instant>, why: String, t: &mut Transcript) {
        // The reason goes to stderr once, when the run ends (csa.rs).
        t.note(&format!("engine failed: {why}; we resign"));
        if self.report.engine_failed.is_none() {
            self.report.engine_failed = Some(why);
        }
        if client.is_our_turn() {
            let _ = client.special(SpecialMove::Toryo, Instant::now());
        }
    }

    fn write_kifu(
        &mut self,
        path: &std::path::Path,
        start: &Position,
        moves: &[Move],
        reason: Option<EndReason>,
        t: &mut Transcript,
    ) {
        let mut pos = *start;
        let mut km = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            let Ok(csa) = pos.move_to_csa(m) else { break };
            km.push(GameMove {
                csa,
                time: self.times.get(i).copied().flatten(),
                comment: self.comments.get(i).cloned().flatten(),
            });
            pos.play_unchecked(m);
        }
        let to_move: Color = pos.side_to_move();
        let k = Kifu {
            names: self.names.clone(),
            game_id: self.game_id.clone(),
            start,
            moves: km,
            end: reason.and_then(|r| end_statement(r, to_move)),
        };
        if !self.kifu_text.is_empty() {
            self.kifu_text.push_str("/\n");
        }
        self.kifu_text.push_str(&k.to_string());
        if let Err(e) = std::fs::write(path, &self.kifu_text) {
            self.report
                .problems
                .push(format!("cannot write {}: {e}", path.display()));
        } else {
            t.note(&format!("kifu written to {}", path.display()));
        }
    }
}
