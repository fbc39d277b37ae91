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
//! The serial loop is the library's (`novag_citrine::serial::run`), and so
//! is the game (`boardwire_engines::citrine_host::Host`: the typed lines,
//! the built-in player, the engine, the lines to print); this module is
//! the command line, stdin and the printing.
//!
//! Output: one line per event (`ack e2e4`, `device e7e5`, `duplicate
//! e2e4`, `takeback e7e5`, ...) and `result ...` at the end. Lines from the
//! device are printed with control bytes escaped (`\x07`); of a run of
//! bad lines (undecodable, overlong or unrecognised) the first
//! `BAD_LINES_SHOWN` (`boardwire_engines::citrine_host`) are printed, then one line `(N more bad lines not
//! shown)` when a good line comes or the run ends.

use std::io::{self, BufRead, Write};
use std::ops::ControlFlow;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use board_core::chess::{Color, Position};
use board_core::player::Player;
use boardwire_engines::citrine_bridge::BridgePlan;
use boardwire_engines::citrine_host::{Engine, Host, HostConfig};
use clap::{ArgGroup, Args, ValueEnum};
use novag_citrine::serial::{self, Activity, Config, Ended, Simulator};
use novag_citrine::session::{DeviceConfig, DriverConfig, Misbehaviour};

use crate::Failure;
use crate::engine_args::{EngineArgs, skipped_line_log};
use crate::record::{CitrineSaver, RecordFile};

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
#[command(mut_arg("engine", |a| a.help(crate::engine_args::engine_help("A UCI engine (Stockfish: `--engine stockfish`)"))))]
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
    /// Save the games in PGN to FILE as they go: after every move FILE is
    /// a complete record of the moves so far (result `*` until the game
    /// ends; a finished game is written once, a move writes only what
    /// changed), so a lost device or a killed run leaves a readable file.
    /// A game is recorded up to 1000 plies (then its record ends with a
    /// comment saying so and `*`, and a note goes to stderr). Tags: Event,
    /// Site, Date (today), Round, White, Black (`Novag Citrine` and the
    /// host: the engine's name, `boardwire` with --auto, else `?`),
    /// Result; moves in SAN. Example: `--pgn game.pgn`.
    #[arg(long, value_name = "FILE")]
    pgn: Option<std::path::PathBuf>,
}

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

/// Prints the host's lines.
fn print(host: &mut Host, out: &mut impl Write) -> io::Result<()> {
    while let Some(line) = host.poll_line() {
        writeln!(out, "{line}")?;
    }
    out.flush()
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
    let mut engine_name = None;
    let engine = match args.engine.spec() {
        Some(spec) => {
            let mut plan = BridgePlan::new(spec, args.engine.options.clone());
            plan.timeouts.handshake = args.engine.start_timeout();
            plan.timeouts.ready = args.engine.start_timeout();
            plan.movetime_ms = args.movetime;
            let (engine, name) = rt
                .block_on(Engine::start(plan, skipped_line_log(String::new())))
                .map_err(|why| Failure::Failed(format!("error: engine: {why}")))?;
            engine_name = Some(name.clone().unwrap_or_else(|| "engine".to_string()));
            let name = name.as_deref().unwrap_or("the engine");
            writeln!(out, "engine {name} plays {host}")?;
            Some(engine)
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
    let mut saver = match &args.pgn {
        Some(file) => {
            let file = RecordFile::create(file)
                .map_err(|e| Failure::Input(format!("--pgn {}: {e}", file.display())))?;
            let name = match (&engine_name, args.auto) {
                (Some(n), _) => n.clone(),
                (None, true) => "boardwire".to_string(),
                (None, false) => "?".to_string(),
            };
            Some(CitrineSaver::new(file, host, &name))
        }
        None => None,
    };
    let port = serial::open(&path, &config.limits).map_err(|e| Failure::Input(e.to_string()))?;
    writeln!(out, "connected to {path} at 57600 8N1")?;
    let auto = args.auto || engine.is_some();
    let host_config = HostConfig {
        typed: !auto,
        max_plies: args.max_plies,
        identify: !args.simulate,
    };
    let mut ui = Host::new(host_config, Player::new(args.seed), engine);
    let stdin = (!auto).then(spawn_stdin);
    let run = serial::run(port, config, |driver, activity| {
        // `quit` and the end of input are obeyed at the next idle moment,
        // also while the device thinks; other lines wait for our turn.
        if let (Some(stdin), Activity::Idle) = (&stdin, &activity) {
            loop {
                match stdin.try_recv() {
                    Ok(UserInput::Line(line)) => ui.typed(line),
                    Ok(UserInput::Closed) | Err(TryRecvError::Disconnected) => {
                        ui.input_closed();
                        break;
                    }
                    Err(TryRecvError::Empty) => break,
                }
            }
        }
        if let (Some(s), Activity::Event(ev)) = (&mut saver, &activity) {
            s.event(ev);
        }
        let flow = ui.on(driver, activity, Instant::now());
        if let Some(s) = &mut saver {
            s.game(driver.start_position(), driver.moves());
        }
        match print(&mut ui, out) {
            Ok(()) => flow.map_break(Ok),
            Err(e) => ControlFlow::Break(Err(e)),
        }
    });
    ui.end_bad_run();
    if let Some(s) = &mut saver {
        s.end(ui.position().is_some_and(Position::is_fifty_moves));
    }
    print(&mut ui, out)?;
    let result = match run {
        Ok(Ended::Break(result)) => result?,
        Ok(Ended::Closed(why)) => exit_failure(out, format!("serial device lost: {why}")),
        Err(e) => exit_failure(out, e),
    };
    if let Some(engine) = ui.take_engine() {
        rt.block_on(engine.close());
    }
    writeln!(out, "result {result} after {} plies", ui.plies())?;
    let mut final_differs = false;
    if let Some(sim) = sim {
        let device = sim.stop().unwrap_or_else(|e| exit_failure(out, e));
        if device.position() != ui.position() {
            let show = |p: Option<&Position>| p.map_or_else(|| "none".into(), Position::to_string);
            writeln!(
                out,
                "device position {} differs from ours {}",
                show(device.position()),
                show(ui.position())
            )?;
            final_differs = true;
        }
    }
    out.flush()?;
    ui.verdict(final_differs)
        .unwrap_or_else(|why| exit_failure(out, why));
    Ok(())
}
