//! `csa_load`: many CSA clients against one server on 127.0.0.1 — most
//! logged in and waiting for a game, some pairs playing complete games —
//! with every line checked, the server's memory sampled and a summary
//! printed (see `benches/README.md`). Exit status 0 when every client saw
//! what it should, 1 otherwise, 2 on bad options or setup failures.
//!
//! ```text
//! cargo build --release -p boardwire -p benches --bin csa_load
//! target/release/csa_load --spawn target/release/boardwire --clients 10000 --games 1000
//! ```

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use benches::csa_load::{self, Options, WaitGame};
use benches::server::{Spawned, raise_fd_limit};
use clap::Parser;

/// Load test of a CSA server: N logged-in x1 clients, most waiting for a
/// game, while G pairs play complete games.
#[derive(Debug, Parser)]
#[command(name = "csa_load")]
struct Args {
    /// Connect to this server (a 127.0.0.1 address).
    #[arg(
        long,
        value_name = "ADDR",
        conflicts_with = "spawn",
        required_unless_present = "spawn"
    )]
    server: Option<SocketAddr>,
    /// Start this boardwire binary as `boardwire csa serve --listen
    /// 127.0.0.1:<free port> --max-connections <clients + 64>` (with this
    /// tool's raised fd limit) and stop it at the end.
    #[arg(long, value_name = "PATH_TO_BOARDWIRE")]
    spawn: Option<std::path::PathBuf>,
    /// Clients in all, the players included (at least two per game).
    #[arg(long, default_value_t = 1000)]
    clients: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Plies of each game before the side on move resigns. Range 1..=200.
    #[arg(long, default_value_t = 40,
          value_parser = clap::value_parser!(u32).range(1..=200))]
    moves: u32,
    /// The game the other clients wait for: `unique` (`%%GAME
    /// <prefix>i<k>-600-10 +`, one name per client: nobody is paired) or
    /// a game name asked for with `*` by all (e.g. `floodgate-900-0`, for
    /// a league that pairs at scheduled times).
    #[arg(long, default_value = "unique", value_name = "unique|GAME")]
    wait_game: String,
    /// Connections being opened and logged in at once.
    #[arg(long, default_value_t = 200)]
    connect_concurrency: usize,
    /// Seconds any single wait may take (connect, a reply, a move).
    /// Range 1..=3600.
    #[arg(long, default_value_t = 30, value_name = "SECONDS", value_parser = seconds(3600))]
    timeout: u64,
    /// Seconds the whole run may take. Range 1..=86400.
    #[arg(long, default_value_t = 600, value_name = "SECONDS", value_parser = seconds(86_400))]
    max_secs: u64,
    /// Login names start with this (change it to run again against a
    /// server that still holds the last run's names).
    #[arg(long, default_value = "ld")]
    prefix: String,
    /// After the games, one more client sends `%%WHO` and counts the
    /// `game_waiting` lines.
    #[arg(long)]
    who: bool,
    /// A PID whose memory to sample instead (with --server).
    #[arg(long, value_name = "PID", conflicts_with = "spawn")]
    server_pid: Option<u32>,
    /// Extra arguments for `boardwire csa serve` (with --spawn), e.g.
    /// `--serve-arg=--output-budget=100000000`.
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    serve_arg: Vec<String>,
}

/// A number of seconds from 1 to `max`.
fn seconds(max: u64) -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=max)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match raise_fd_limit() {
        Ok((before, after)) => println!("fd limit (RLIMIT_NOFILE soft): {before} -> {after}"),
        Err(e) => eprintln!("cannot raise the fd limit: {e}"),
    }
    let needed = args.clients as u64 + 64;
    let mut spawned = None;
    let addr = match (&args.server, &args.spawn) {
        (Some(a), _) => *a,
        (None, Some(path)) => match Spawned::csa_serve(path, args.clients, &args.serve_arg) {
            Ok(s) => {
                let a = s.addr;
                println!("server: {} (pid {}) on {a}", path.display(), s.child.id());
                spawned = Some(s);
                a
            }
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        },
        (None, None) => unreachable!("clap requires one"),
    };
    println!("clients need about {needed} descriptors in this process (and as many in the server)");
    let mut opts = Options::new(addr);
    opts.clients = args.clients;
    opts.games = args.games;
    opts.moves = args.moves;
    opts.wait = if args.wait_game == "unique" {
        WaitGame::Unique
    } else {
        WaitGame::Named(args.wait_game.clone())
    };
    opts.connect_concurrency = args.connect_concurrency;
    opts.timeout = Duration::from_secs(args.timeout);
    opts.max_secs = args.max_secs;
    opts.prefix = args.prefix.clone();
    opts.who = args.who;
    opts.server_pid = spawned.as_ref().map(|s| s.child.id()).or(args.server_pid);
    println!("load average before: {}", load_average());
    let runtime = match benches::server::runtime() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let result = runtime.block_on(csa_load::run(opts));
    println!("load average after: {}", load_average());
    let code = match result {
        Ok(report) => {
            print!("{report}");
            if report.error_count == 0 && report.games_ok == report.games && !report.timed_out {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    };
    if let Some(s) = spawned {
        // Its log needs a moment to reach us.
        std::thread::sleep(Duration::from_millis(300));
        let (started, ended) = s.games_logged();
        println!("server log: {started} games started, {ended} ended");
        let (count, first) = s.stderr();
        println!("server stderr: {count} lines");
        for l in &first {
            println!("  {l}");
        }
        s.stop();
    }
    code
}
