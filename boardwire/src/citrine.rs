//! `boardwire citrine`: play a game against a Novag Citrine over a serial
//! port (`--port /dev/ttyUSB0`) or against the simulated Citrine on a
//! pseudo-terminal (`--simulate`), through the sans-IO driver of the
//! `novag-citrine` crate.
//!
//! The user types moves in UCI (`e2e4`, `e7e8q`, castling `e1g1`) or SAN
//! (`Nf3`, `exd5`, `O-O`, `e8=Q`) when it is the host's turn, or `auto` to
//! let the built-in player move, `takeback` (the host's last move and the
//! device's reply), `position` (resynchronise through `P`), `new`, `help`
//! (the list of commands) or `quit`.
//! With `--auto` the built-in player moves for the host too and the game
//! runs unattended; the command exits 0 at the end of the game, 1 if the
//! driver and the device ever disagreed (or, with `--simulate`, if their
//! final positions differ) — even when every disagreement was repaired
//! through `P`, because a lost or cut line means the link is unreliable.
//! `quit` and the end of stdin are obeyed at any time, also while the
//! device thinks; other input typed then waits for the host's turn.
//!
//! With `--side black` the driver sends `F` (flip) at the new-game
//! position, after start-up and after every `New Game`
//! (`DriverConfig::flip`): the Citrine plays Black after a new game and
//! takes White only when flipped (spec note [`novag_citrine::spec::citrine`],
//! *Commands (host -> device) and replies (device -> host)*, command `F`).
//!
//! Exit codes: 0 at the end of the game, 2 when the port cannot be opened,
//! 1 when the device is lost, does not answer within `--ack-timeout-ms`
//! (or sends only undecodable lines for that long, or more than 16 in a
//! row), or (with `--auto`) disagreed with the driver.
//!
//! With `--engine PROGRAM` a UCI engine plays the host's side, unattended
//! as with `--auto`: `position ... moves ...` and `go movetime MS` on
//! each host turn (`boardwire_engines::citrine_bridge::UciBridge`: the
//! engine in a task on a runtime of its own, its answers polled whenever
//! the serial driver is idle); an engine that fails ends the run with
//! exit 1. A new game (also one the device starts) is `ucinewgame`.
//!
//! The serial loop is the library's (`novag_citrine::serial::run`); this
//! module is the command line and what it prints.
//!
//! Output: one line per event (`ack e2e4`, `device e7e5`, `duplicate
//! e2e4`, `takeback e7e5`, ...) and `result ...` at the end. Lines from the
//! device are printed with control bytes escaped (`\x07`); of a run of
//! bad lines (undecodable, overlong or unrecognised) the first
//! [`BAD_LINES_SHOWN`] are printed, then one line `(N more bad lines not
//! shown)` when a good line comes or the run ends.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use board_core::chess::{Color, Position};
use board_core::player::Player;
use boardwire_engines::citrine_bridge::{Answer, BridgePlan, Report, UciBridge};
use clap::{ArgGroup, Args, ValueEnum};
use novag_citrine::convert::parse_typed_move;
use novag_citrine::message::{Command, Escaped, Reply};
use novag_citrine::serial::{self, Activity, Config, Ended, Simulator};
use novag_citrine::session::{
    DeviceConfig, Disagreement, Driver, DriverConfig, Event, Misbehaviour,
};
use novag_citrine::types::LevelKind;

use crate::Failure;
use crate::engine_args::{EngineArgs, skipped_line_log};

/// The side the host plays.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Side {
    /// White (the Citrine plays Black).
    White,
    /// Black (the Citrine plays White).
    Black,
}

/// `boardwire citrine ...`
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("device").required(true).args(["port", "simulate"])))]
pub struct CitrineArgs {
    /// Serial port of the Citrine (e.g. /dev/ttyUSB0); opened at 57600 8N1,
    /// no flow control. One of --port and --simulate is required.
    #[arg(long)]
    port: Option<String>,
    /// Play against the simulated Citrine on a pseudo-terminal.
    #[arg(long)]
    simulate: bool,
    /// The built-in player moves for the host too: a whole game unattended.
    /// Exits 1 after any disagreement with the device, even one repaired
    /// by resynchronising through `P`. Without --auto, `quit` (or the end
    /// of stdin) stops at any time.
    #[arg(long)]
    auto: bool,
    /// The side the host plays. With black the driver sends `F` (flip) at
    /// start and after every new game so that the Citrine takes White and
    /// moves first (assumed: the device forgets a flip at a new game).
    #[arg(long, value_enum, default_value_t = Side::White)]
    side: Side,
    /// Seed of the built-in player (and of the simulated device's engine).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many plies (the game is then unfinished; exit 0).
    /// Default 600, more than `dxp connect`'s 400: chess games also end by
    /// the fifty-move rule (applied here), so the limit only bounds an
    /// unattended run and is rarely reached.
    #[arg(long, default_value_t = 600, value_name = "PLIES")]
    max_plies: usize,
    /// Minimum time between commands, milliseconds (users found that
    /// commands closer than about 100 ms get lost). Range 0..=10000 ms.
    #[arg(long, default_value_t = 100, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(0..=10000))]
    gap_ms: u64,
    /// Do not send each move a second time (drivers send it twice, 200 ms
    /// apart, because the LEDs sometimes only flash).
    #[arg(long)]
    no_resend: bool,
    /// Simulated device: engine thinking time, milliseconds. Range 0..=60000 ms.
    #[arg(long, default_value_t = 50, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(0..=60000))]
    sim_think_ms: u64,
    /// Simulated device: acknowledge every n-th move twice.
    #[arg(long, default_value_t = 0)]
    sim_duplicate_acks: u32,
    /// Simulated device: send an unprompted `New Game` at this ply.
    #[arg(long)]
    sim_new_game_at: Option<usize>,
    /// Simulated device: play a move for the host's side at this ply.
    #[arg(long)]
    sim_out_of_turn_at: Option<usize>,
    /// Simulated device: cut every n-th move line in half.
    #[arg(long, default_value_t = 0)]
    sim_truncate: u32,
    /// Simulated device: receive but never answer (an adapter that cannot
    /// send).
    #[arg(long)]
    sim_mute: bool,
    /// Simulated device: send one line of garbage (control bytes, not
    /// UTF-8) instead of every reply.
    #[arg(long)]
    sim_garbage: bool,
    /// How long the device may take to answer a command, and how long it
    /// may send only undecodable lines, milliseconds; past it the run stops
    /// with exit 1. The device's own thinking is not bounded.
    /// Range 1..=600000 ms.
    #[arg(long, default_value_t = 10_000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..=600000))]
    ack_timeout_ms: u64,
    #[command(flatten)]
    engine: EngineArgs,
    /// The engine's time per move, milliseconds (`go movetime MS`).
    /// Range 1..=3600000 ms.
    #[arg(long, default_value_t = 1000, value_name = "MS", requires = "engine",
          value_parser = clap::value_parser!(u64).range(1..=3600000))]
    movetime: u64,
}

/// Bad lines in a row printed before the rest are only counted.
pub const BAD_LINES_SHOWN: u32 = 3;

/// The commands at the prompt, for `help`.
const HELP: &str = "commands: a move in UCI (e2e4, e7e8q, castling e1g1) or SAN (Nf3, exd5, O-O, e8=Q); \
auto (the built-in player moves); takeback (your last move and the device's reply); \
position (compare boards through P); new (new game); help; quit";

/// A line typed by the user.
enum UserInput {
    Line(String),
    Closed,
}

fn spawn_stdin() -> Receiver<UserInput> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(UserInput::Line(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(UserInput::Closed);
    });
    rx
}

/// A failure while playing (device lost, disagreement): exit code 1 with a
/// one-line message (main's `Failure::Output` would call it an output error).
fn exit_failure(out: &mut impl Write, msg: impl std::fmt::Display) -> ! {
    let _ = out.flush();
    eprintln!("error: {msg}");
    std::process::exit(1)
}

/// What the user interface keeps between rounds of the serial driver.
struct Ui<'o, W: Write> {
    out: &'o mut W,
    auto: bool,
    max_plies: usize,
    stdin: Option<Receiver<UserInput>>,
    typed: VecDeque<String>,
    player: Player,
    disagreed: bool,
    out_of_sync: bool,
    prompted: bool,
    /// Bad lines in the current run of them (see [`BAD_LINES_SHOWN`]).
    bad_run: u32,
    /// Why the game ended, from the driver's `GameEnded`.
    ended: Option<String>,
    /// The plies of the game that ended (the driver may already hold the
    /// next game when the run stops).
    ended_plies: Option<usize>,
    /// `--engine`: the bridge and its task's answers.
    engine: Option<(UciBridge, tokio::sync::mpsc::Receiver<Answer>)>,
    /// The engine failed: why.
    engine_failed: Option<String>,
    /// Send `I` (identity) at the first chance (a real device).
    identify: bool,
    /// The driver's state at the latest callback (the serial driver owns
    /// the driver): its position, plies and disagreements.
    last: (Option<Position>, usize, u64),
}

impl<W: Write> Ui<'_, W> {
    /// One input from the serial driver; `Break` with the result text (or
    /// an output error) stops the game.
    fn on(
        &mut self,
        driver: &mut Driver<Instant>,
        activity: Activity<'_, '_, Driver<Instant>>,
    ) -> ControlFlow<io::Result<String>> {
        if std::mem::take(&mut self.identify) {
            // A fresh driver is open: this cannot be refused.
            let _ = driver.send(Command::Identity, Instant::now());
        }
        let step = self.step(activity, driver);
        self.last = (
            driver.position().copied(),
            driver.moves().len(),
            driver.disagreements(),
        );
        match step {
            Ok(None) => ControlFlow::Continue(()),
            Ok(Some(result)) => ControlFlow::Break(Ok(result)),
            Err(e) => ControlFlow::Break(Err(e)),
        }
    }

    fn step(
        &mut self,
        activity: Activity<'_, '_, Driver<Instant>>,
        driver: &mut Driver<Instant>,
    ) -> io::Result<Option<String>> {
        match activity {
            Activity::Event(ev) => {
                let ev = &ev;
                let bad = matches!(
                    ev,
                    Event::Malformed(_)
                        | Event::Unrecognised(_)
                        | Event::Disagreement(Disagreement::BadLine(_))
                );
                let (text, disagreement) = describe(ev);
                self.disagreed |= disagreement;
                // A bad line is printed once, by `Activity::Malformed` (with
                // its text); an unrecognised one here.
                let shown = match ev {
                    Event::Malformed(_) => false,
                    Event::Unrecognised(_) => self.bad_line(),
                    _ => !bad || self.bad_run <= BAD_LINES_SHOWN,
                };
                if matches!(ev, Event::PeerSilent { .. }) {
                    self.end_bad_run()?;
                }
                if shown {
                    writeln!(self.out, "{text}")?;
                    self.out.flush()?;
                }
                if let Some((b, _)) = &mut self.engine {
                    b.event(ev);
                }
                match ev {
                    Event::GameEnded(end) => {
                        self.ended = Some(end.reason.to_string());
                        self.ended_plies = Some(end.moves.len());
                    }
                    Event::OutOfSync { .. } => self.out_of_sync = true,
                    _ => {}
                }
                Ok(None)
            }
            Activity::Malformed { frame, error } => {
                if self.bad_line() {
                    writeln!(self.out, "bad line {}: {error}", Escaped(frame))?;
                }
                Ok(None)
            }
            Activity::Received { message, .. } if !matches!(message, Reply::Unrecognised(_)) => {
                self.end_bad_run()?;
                Ok(None)
            }
            Activity::Idle => self.tick(driver),
            _ => Ok(None),
        }
    }

    /// Counts a bad line; `true` when it is to be printed.
    fn bad_line(&mut self) -> bool {
        self.bad_run = self.bad_run.saturating_add(1);
        self.bad_run <= BAD_LINES_SHOWN
    }

    /// A good line (or the end): the summary of the bad lines not shown.
    fn end_bad_run(&mut self) -> io::Result<()> {
        if self.bad_run > BAD_LINES_SHOWN {
            writeln!(
                self.out,
                "({} more bad lines not shown)",
                self.bad_run - BAD_LINES_SHOWN
            )?;
        }
        self.bad_run = 0;
        Ok(())
    }

    /// The user's turn: stdin, the built-in player, the end of the game.
    fn tick(&mut self, driver: &mut Driver<Instant>) -> io::Result<Option<String>> {
        // `quit` and the end of input work at any time, also while the
        // device thinks; other lines wait for the host's turn.
        if let Some(stdin) = &self.stdin {
            loop {
                match stdin.try_recv() {
                    Ok(UserInput::Line(line)) if line.trim() == "quit" => {
                        return Ok(Some("quit".into()));
                    }
                    Ok(UserInput::Line(line)) => self.typed.push_back(line),
                    Ok(UserInput::Closed) | Err(TryRecvError::Disconnected) => {
                        return Ok(Some("input closed".into()));
                    }
                    Err(TryRecvError::Empty) => break,
                }
            }
        }
        if let Some(why) = self.poll_engine(driver)? {
            return Ok(Some(why));
        }
        if driver.is_out_of_sync() && self.auto {
            return Ok(Some("out of sync with the device".into()));
        }
        let Some(position) = driver.position().copied() else {
            return Ok(Some("the device closed the stream".into()));
        };
        let plies = driver.moves().len();
        if let Some(end) = game_end(self.ended.as_deref(), &position, plies, self.max_plies)
            && driver.is_idle()
        {
            return Ok(Some(end));
        }
        if !(driver.is_our_turn() && driver.is_idle()) {
            self.prompted = false;
            return Ok(None);
        }
        if self.stdin.is_none() {
            return self.play(driver, &position);
        }
        if !self.prompted {
            writeln!(
                self.out,
                "your move ({position}): a move (UCI or SAN), auto, takeback, position, new, help, quit"
            )?;
            self.out.flush()?;
            self.prompted = true;
        }
        if let Some(line) = self.typed.pop_front() {
            self.prompted = false;
            let now = Instant::now();
            let refused = match line.trim() {
                "" => None,
                "auto" => {
                    if let Some(why) = self.play(driver, &position)? {
                        return Ok(Some(why));
                    }
                    None
                }
                "help" => Some(HELP.to_owned()),
                // At the host's turn: its last move and the device's reply,
                // so that it is the host's turn again. Both or neither.
                "takeback" if driver.moves().len() < 2 => {
                    Some("cannot take back: no move of yours to take back".to_owned())
                }
                "takeback" => driver
                    .take_back_plies(2, now)
                    .err()
                    .map(|e| format!("cannot take back: {e}")),
                "position" => driver
                    .request_position(now)
                    .err()
                    .map(|e| format!("cannot send P: {e}")),
                "new" => driver
                    .new_game(now)
                    .err()
                    .map(|e| format!("cannot send N: {e}")),
                text => match parse_move(&position, text) {
                    Ok(mv) => driver
                        .send_move(mv, now)
                        .err()
                        .map(|e| format!("cannot play {mv}: {e}")),
                    Err(e) => Some(e),
                },
            };
            if let Some(refused) = refused {
                writeln!(self.out, "{refused}")?;
            }
        }
        Ok(None)
    }

    /// The engine's answers that came: a move is played (through the
    /// bridge); a failure ends the run (`Some(why)`).
    fn poll_engine(&mut self, driver: &mut Driver<Instant>) -> io::Result<Option<String>> {
        let Some((bridge, answers)) = &mut self.engine else {
            return Ok(None);
        };
        let report = match answers.try_recv() {
            Ok(a) => bridge.answer(driver, a, Instant::now()),
            Err(tokio::sync::mpsc::error::TryRecvError::Empty) => return Ok(None),
            Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => Report::Failed {
                why: "the engine task ended".into(),
            },
        };
        self.engine_report(report)
    }

    /// A bridge's report: a move played or refused is printed; a failure
    /// is printed and ends the run (`Some(why)`); the rest is silent.
    fn engine_report(&mut self, report: Report) -> io::Result<Option<String>> {
        match report {
            Report::Failed { why } => {
                let text = format!("engine failed: {why}");
                writeln!(self.out, "{text}")?;
                self.engine_failed = Some(why);
                Ok(Some(text))
            }
            r @ (Report::Played { .. } | Report::Refused { .. }) => {
                writeln!(self.out, "{r}")?;
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    /// The built-in player's move, or the engine asked for one (`Some(why)`:
    /// the engine failed).
    fn play(
        &mut self,
        driver: &mut Driver<Instant>,
        position: &Position,
    ) -> io::Result<Option<String>> {
        if let Some((bridge, _)) = &mut self.engine {
            return match bridge.our_turn(driver, Instant::now()) {
                Some(report) => self.engine_report(report),
                None => Ok(None),
            };
        }
        if let Some(mv) = self.player.choose_chess(position)
            && let Err(e) = driver.send_move(mv, Instant::now())
        {
            writeln!(self.out, "cannot play {mv}: {e}")?;
        }
        Ok(None)
    }
}

/// A typed move: UCI first, then SAN (the library's
/// `convert::parse_typed_move`); the error names both notations (and
/// `help`).
fn parse_move(position: &Position, text: &str) -> Result<board_core::chess::Move, String> {
    parse_typed_move(position, text).map_err(|e| {
        format!(
            "not a move here: {:?} is {e}; type help for the commands",
            text.escape_default().to_string()
        )
    })
}

/// Runs `boardwire citrine`.
pub fn run(args: CitrineArgs, out: &mut impl Write) -> Result<(), Failure> {
    let host = match args.side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    };
    let sim = if args.simulate {
        let config = DeviceConfig {
            // After a new game the Citrine plays Black, as the real device
            // does; with `--side black` the host flips it to White (`F`).
            engine_color: Color::Black,
            think_time: Duration::from_millis(args.sim_think_ms),
            seed: args.seed.wrapping_add(1000),
            misbehaviour: Misbehaviour {
                duplicate_ack_every: args.sim_duplicate_acks,
                new_game_at_ply: args.sim_new_game_at,
                out_of_turn_at_ply: args.sim_out_of_turn_at,
                truncate_every: args.sim_truncate,
                mute: args.sim_mute,
                garbage: args.sim_garbage,
            },
            ..DeviceConfig::default()
        };
        Some(Simulator::spawn(config).map_err(|e| Failure::Input(e.to_string()))?)
    } else {
        None
    };
    let path = match (&sim, &args.port) {
        (Some(s), _) => s.path().to_owned(),
        (None, Some(p)) => p.clone(),
        (None, None) => return Err(Failure::Input("give --port PATH or --simulate".into())),
    };
    let ack_timeout = Duration::from_millis(args.ack_timeout_ms);
    // The engine first (its handshake), then the port: an engine that
    // does not start never touches the device.
    // The engine's task runs on a runtime of its own (one worker) while
    // the serial driver blocks this thread.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| Failure::Failed(format!("error: cannot start the async runtime: {e}")))?;
    let _guard = rt.enter();
    let engine = match args.engine.spec() {
        Some(spec) => {
            let mut plan = BridgePlan::new(spec, args.engine.options.clone());
            plan.timeouts.handshake = args.engine.start_timeout();
            plan.timeouts.ready = args.engine.start_timeout();
            plan.movetime_ms = args.movetime;
            let (bridge, mut answers) = UciBridge::spawn(plan, skipped_line_log(String::new()));
            // The handshake is bounded by the engine driver's own timeouts
            // (`--engine-start-timeout`); this is a backstop.
            let started = rt.block_on(tokio::time::timeout(
                Duration::from_secs(80),
                answers.recv(),
            ));
            let name = match started {
                Ok(Some(Answer::Started { name })) => name,
                other => {
                    let why = match other {
                        Ok(Some(Answer::Failed(why))) => why,
                        Ok(Some(_)) => "an answer before the handshake".into(),
                        Ok(None) => "the engine task ended".into(),
                        Err(_) => "the engine did not start in time".into(),
                    };
                    return Err(Failure::Failed(format!("error: engine: {why}")));
                }
            };
            writeln!(
                out,
                "engine {} plays {host}",
                name.as_deref().unwrap_or("the engine"),
            )?;
            Some((bridge, answers))
        }
        None => None,
    };
    let mut config = Config::new(DriverConfig {
        host_color: Some(host),
        min_gap: Duration::from_millis(args.gap_ms),
        resend: (!args.no_resend).then_some(Duration::from_millis(200)),
        // The Citrine plays Black after every new game: flip it.
        flip: host == Color::Black,
        ack_timeout,
        ..DriverConfig::default()
    });
    config.limits.ack_timeout = ack_timeout;
    let port = serial::open(&path, &config.limits).map_err(|e| Failure::Input(e.to_string()))?;
    writeln!(out, "connected to {path} at 57600 8N1")?;
    let auto = args.auto || engine.is_some();
    let mut ui = Ui {
        out,
        auto,
        max_plies: args.max_plies,
        stdin: (!auto).then(spawn_stdin),
        typed: VecDeque::new(),
        player: Player::new(args.seed),
        disagreed: false,
        out_of_sync: false,
        prompted: false,
        bad_run: 0,
        ended: None,
        ended_plies: None,
        engine,
        engine_failed: None,
        identify: !args.simulate,
        last: (None, 0, 0),
    };
    let result = match serial::run(port, config, |driver, activity| ui.on(driver, activity)) {
        Ok(Ended::Break(result)) => result?,
        Ok(Ended::Closed(why)) => {
            ui.end_bad_run()?;
            exit_failure(ui.out, format!("serial device lost: {why}"))
        }
        Err(e) => {
            ui.end_bad_run()?;
            exit_failure(ui.out, e)
        }
    };
    ui.end_bad_run()?;
    let (position, driver_plies, disagreements) = ui.last;
    let plies = ui.ended_plies.unwrap_or(driver_plies);
    let engine_failed = ui.engine_failed.take();
    if let Some((bridge, mut answers)) = ui.engine.take() {
        // The engine is told `quit` once its last search is over: wait
        // (bounded) for its task to end.
        rt.block_on(async {
            drop(bridge);
            let drain = async { while answers.recv().await.is_some() {} };
            let _ = tokio::time::timeout(Duration::from_secs(5), drain).await;
        });
    }
    let (disagreed, out_of_sync, out) = (ui.disagreed, ui.out_of_sync, ui.out);
    writeln!(out, "result {result} after {plies} plies")?;
    let mut final_differs = false;
    if let Some(sim) = sim {
        let device = sim.stop().unwrap_or_else(|e| exit_failure(out, e));
        if device.position() != position.as_ref() {
            let show = |p: Option<&Position>| p.map_or_else(|| "none".into(), Position::to_string);
            writeln!(
                out,
                "device position {} differs from ours {}",
                show(device.position()),
                show(position.as_ref())
            )?;
            final_differs = true;
        }
    }
    out.flush()?;
    if let Some(why) = engine_failed {
        exit_failure(out, format!("engine: {why}"));
    }
    if (disagreed || final_differs) && auto {
        exit_failure(
            out,
            disagreement_summary(disagreements, out_of_sync, final_differs),
        );
    }
    Ok(())
}

/// The `--auto` failure message: how many disagreements there were and
/// whether resynchronising through `P` repaired them all. Repaired ones
/// still fail the run (exit 1, as documented): a lost or cut line means
/// the link or the device is unreliable.
fn disagreement_summary(count: u64, out_of_sync: bool, final_differs: bool) -> String {
    let times = if count == 1 { "time" } else { "times" };
    if final_differs {
        format!(
            "the device's final position differs from ours ({count} disagreement(s) seen during the game)"
        )
    } else if out_of_sync {
        format!(
            "the driver and the device disagreed {count} {times}; resynchronising through P failed (out of sync)"
        )
    } else {
        format!(
            "the driver and the device disagreed {count} {times}; all were repaired by resynchronising through P, but --auto exits 1 on any disagreement"
        )
    }
}

/// The game's end, if it is over: the driver's reason, the fifty-move
/// rule (the Citrine plays on; we stop), or our ply limit.
fn game_end(
    ended: Option<&str>,
    position: &Position,
    plies: usize,
    max_plies: usize,
) -> Option<String> {
    match ended {
        Some(reason) => Some(reason.to_owned()),
        None if position.is_fifty_moves() => Some("draw by the fifty-move rule".into()),
        None if plies >= max_plies => Some(format!("unfinished at the {max_plies}-ply limit")),
        None => None,
    }
}

/// An event in words (the library's `Display`: `ack e2e4`, `duplicate
/// e2e4`, `takeback e7e5`, ...; levels spelled out), and `true` when it is
/// a disagreement with the device.
pub(crate) fn describe(ev: &Event) -> (String, bool) {
    let text = match ev {
        Event::OutOfTurn(m) => format!("out-of-turn {m} (taking it back)"),
        Event::GameStarted(_) => "new game (settings re-sent)".to_string(),
        Event::Disagreement(d) => {
            return (format!("disagreement: {d} (resynchronising with P)"), true);
        }
        Event::OutOfSync { .. } => return (ev.to_string(), true),
        Event::Level(l) => {
            let kind = match l.kind() {
                LevelKind::Tournament => "tournament",
                LevelKind::Citrine => "citrine",
                LevelKind::AverageTime => "average time",
                LevelKind::Beginner => "beginner",
            };
            format!(
                "level {kind} {} ({} {})",
                l.number(),
                l.kind().reply_name(),
                l.number()
            )
        }
        _ => ev.to_string(),
    };
    (text, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use novag_citrine::types::Level;

    #[test]
    fn levels_in_words() {
        // Spec note novag-citrine's spec/citrine.md, *Commands (host -> device) and
        // replies (device -> host)*: `L CITRINE 5` is answered `Level sd 5`;
        // the default is `Level tr 1` (tournament level 1).
        let sd5 = Level::new(LevelKind::Citrine, 5).unwrap();
        assert_eq!(
            describe(&Event::Level(sd5)),
            ("level citrine 5 (sd 5)".to_string(), false)
        );
        assert_eq!(
            describe(&Event::Level(Level::DEFAULT)).0,
            "level tournament 1 (tr 1)"
        );
    }
}
