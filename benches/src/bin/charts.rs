//! `charts`: how cost grows, as SVG charts in `docs/` (issue 28, item 6).
//!
//! ```text
//! cargo build --release -p boardwire -p benches --bin charts
//! target/release/charts --out docs --csa-server target/release/boardwire
//! ```
//!
//! Draws `perft-speed.svg` (board-core's perft, million leaves per second
//! against depth, for the positions of `compare`'s table, every count
//! checked against the published one) and, with `--csa-server`,
//! `csa-server-load.svg` (a `boardwire csa serve` started on 127.0.0.1 for
//! each number of games played at once: moves per second and the p50/p99
//! move round trip measured by the `csa_load` tool's core), with the data
//! in `charts.json`. Exit status 0 when every count and every game was
//! right, 1 otherwise, 2 on bad options.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use benches::charts::{self, LoadPoint, SERIES};
use benches::compare::{Machine, load_average};
use benches::csa_load::{self, Options};
use benches::server::{Spawned, raise_fd_limit};
use clap::Parser;

/// Perft speed against depth and the CSA server's throughput and latency
/// against games at once, drawn as SVG.
#[derive(Debug, Parser)]
#[command(name = "charts")]
struct Args {
    /// Directory the SVG files and charts.json are written to.
    #[arg(long, default_value = "docs")]
    out: PathBuf,
    /// Also the CSA server chart: start this boardwire binary as `csa
    /// serve` for each --games figure.
    #[arg(long, value_name = "PATH_TO_BOARDWIRE")]
    csa_server: Option<PathBuf>,
    /// Games played at once for the CSA server chart (comma-separated).
    /// Range 1..=5000 each.
    #[arg(long, value_delimiter = ',', default_value = "10,100,1000",
          value_parser = clap::value_parser!(u32).range(1..=5000))]
    games: Vec<u32>,
    /// Plies of each game of the CSA server chart. Range 1..=200.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=200))]
    moves: u32,
    /// Shallow depths only (a smoke run of seconds).
    #[arg(long)]
    quick: bool,
    /// Seconds of counting per depth at least (each depth is counted at
    /// least 3 times; the median is drawn).
    #[arg(long, default_value_t = 0.5)]
    min_secs: f64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut machine = Machine::probe();
    let today = std::process::Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_default();
    let mut perft = Vec::new();
    for s in SERIES {
        let depth = if args.quick { s.quick_depth } else { s.depth };
        eprint!("{} {} d1..d{depth} ...", s.game.name(), s.name);
        match charts::measure(s, depth, args.min_secs) {
            Ok(points) => {
                let last = points.last().map_or(0.0, |p| p.mnps());
                eprintln!(" {last:.0} M leaves/s at d{depth}");
                perft.push((*s, points));
            }
            Err(e) => {
                eprintln!(" error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    machine.load.1 = load_average();
    let note = charts::machine_note(&machine, &today);
    let mut failed = false;
    let write = |name: &str, text: &str| {
        let path = args.out.join(name);
        match std::fs::write(&path, text) {
            Ok(()) => {
                println!("wrote {}", path.display());
                true
            }
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                false
            }
        }
    };
    match charts::perft_svg(&perft, &note) {
        Ok(svg) => failed |= !write("perft-speed.svg", &svg),
        Err(e) => {
            eprintln!("{e}");
            failed = true;
        }
    }
    let mut load = Vec::new();
    if let Some(path) = &args.csa_server {
        if let Err(e) = raise_fd_limit() {
            eprintln!("cannot raise the fd limit: {e}");
        }
        let runtime = match benches::server::runtime() {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let before = load_average();
        for &games in &args.games {
            let games = games as usize;
            let server = match Spawned::csa_serve(path, 2 * games, &[]) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
            };
            let mut opts = Options::new(server.addr);
            opts.clients = 2 * games;
            opts.games = games;
            opts.moves = args.moves;
            opts.timeout = Duration::from_secs(60);
            opts.max_secs = 600;
            opts.prefix = format!("ch{games}");
            eprint!("csa serve, {games} games at once ...");
            let result = runtime.block_on(csa_load::run(opts));
            server.stop();
            match result {
                Ok(r) if r.error_count == 0 && r.games_ok == r.games && !r.timed_out => {
                    eprintln!(
                        " {:.0} moves/s, p50 {} µs, p99 {} µs",
                        r.moves_per_sec(),
                        r.latency_us[0],
                        r.latency_us[1]
                    );
                    load.push(LoadPoint {
                        games,
                        moves_per_sec: r.moves_per_sec(),
                        latency_us: r.latency_us,
                    });
                }
                Ok(r) => {
                    eprintln!(" failed:\n{r}");
                    failed = true;
                }
                Err(e) => {
                    eprintln!(" {e}");
                    failed = true;
                }
            }
        }
        let mut m = machine.clone();
        m.load = (before, load_average());
        let note = format!(
            "{}; {} plies per game",
            charts::machine_note(&m, &today),
            args.moves
        );
        match charts::load_svg(&load, &note) {
            Ok(svg) => failed |= !write("csa-server-load.svg", &svg),
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    let json = charts::json(&perft, &load, &machine);
    failed |= !write("charts.json", &format!("{json:#}\n"));
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
