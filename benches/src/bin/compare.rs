//! `compare`: board-core's perft side by side with its peers, in one run,
//! printed as one markdown table (and written as JSON).
//!
//! ```sh
//! cargo run --release -p benches --bin compare -- --quick
//! cargo run --release -p benches --bin compare -- --rounds 7 --reps 5 \
//!     --mobydam ~/mobydam/test/perft --gigantua ~/Gigantua/gigantua \
//!     --yaneuraou ~/YaneuraOu/source/YaneuraOu-by-gcc
//! ```
//!
//! See `benches/src/compare.rs` for how each peer is run and timed, and
//! `benches/README.md` for building the external peers.

use std::path::PathBuf;

use benches::compare::{
    self, CASES, Case, CaseResult, External, Game, InProcess, Machine, QUICK_CASES, Runner,
};
use benches::peers;
use clap::Parser;

/// Times board-core's perft against its peers, interleaved, and prints one
/// markdown table.
#[derive(Debug, Parser)]
#[command(name = "compare")]
struct Args {
    /// Rounds; each runner is timed --reps times per round, the runners'
    /// order rotated from round to round. At least 1.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    rounds: u32,
    /// Counts per runner per round. At least 1.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1000))]
    reps: u32,
    /// Shallow depths (milliseconds per count): a smoke run.
    #[arg(long)]
    quick: bool,
    /// Only these games (repeatable): draughts, chess, shogi.
    #[arg(long = "game", value_enum)]
    games: Vec<GameArg>,
    /// Only the positions of this name (repeatable): startpos, woldouby,
    /// kings, kiwipete, max593.
    #[arg(long = "position")]
    positions: Vec<String>,
    /// Leave out the Rust peers linked into this binary (cozy-chess,
    /// shakmaty, haitaka, shogi_legality_lite).
    #[arg(long)]
    no_rust_peers: bool,
    /// Leave out the runners whose name starts with this (repeatable), e.g.
    /// `--skip shogi_legality_lite` (minutes at full depth).
    #[arg(long, value_name = "NAME")]
    skip: Vec<String>,
    /// Gigantua's binary (chess): run as `PATH <FEN> <depth> <leaves>`.
    #[arg(long, value_name = "PATH")]
    gigantua: Option<String>,
    /// Moby Dam's `test/perft` (draughts): run as `PATH -b -c <depth> <FEN>`.
    #[arg(long, value_name = "PATH")]
    mobydam: Option<String>,
    /// YaneuraOu (shogi), a USI engine: `go perft <depth>`.
    #[arg(long, value_name = "PATH")]
    yaneuraou: Option<String>,
    /// Where the JSON goes.
    #[arg(long, value_name = "FILE", default_value = "target/compare.json")]
    json: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum GameArg {
    Draughts,
    Chess,
    Shogi,
}

impl GameArg {
    fn game(self) -> Game {
        match self {
            GameArg::Draughts => Game::Draughts,
            GameArg::Chess => Game::Chess,
            GameArg::Shogi => Game::Shogi,
        }
    }
}

/// The Rust peers of `case`'s game, each having read the position.
fn rust_peers(case: &Case) -> Result<Vec<Box<dyn Runner>>, String> {
    let depth = case.depth;
    let mut v: Vec<Box<dyn Runner>> = Vec::new();
    match case.game {
        Game::Draughts => {}
        Game::Chess => {
            let cozy: cozy_chess::Board = case
                .position
                .parse()
                .map_err(|e| format!("cozy-chess: {e:?}"))?;
            v.push(Box::new(InProcess::new(
                "cozy-chess 0.3",
                Box::new(move || peers::cozy_perft(std::hint::black_box(&cozy), depth)),
            )));
            let shak = peers::shakmaty_position(case.position)?;
            v.push(Box::new(InProcess::new(
                "shakmaty 0.30.1",
                Box::new(move || shakmaty::perft(std::hint::black_box(&shak), depth)),
            )));
        }
        Game::Shogi => {
            let board = peers::haitaka_board(case.position)?;
            let d = u8::try_from(depth).map_err(|_| "depth over 255")?;
            v.push(Box::new(InProcess::new(
                "haitaka 0.3.2",
                Box::new(move || peers::haitaka_perft(std::hint::black_box(&board), d)),
            )));
            let p = peers::lite_position(case.position)?;
            v.push(Box::new(InProcess::new(
                "shogi_legality_lite 0.1.3",
                Box::new(move || peers::lite_perft(std::hint::black_box(&p), depth as usize)),
            )));
        }
    }
    Ok(v)
}

fn main() {
    let args = Args::parse();
    let cases: Vec<&Case> = if args.quick { QUICK_CASES } else { CASES }
        .iter()
        .filter(|c| args.games.is_empty() || args.games.iter().any(|g| g.game() == c.game))
        .filter(|c| args.positions.is_empty() || args.positions.iter().any(|p| p == c.name))
        .collect();
    if cases.is_empty() {
        eprintln!("error: no position matches --game / --position");
        std::process::exit(2);
    }
    let externals = [
        (External::Gigantua, &args.gigantua),
        (External::MobyDam, &args.mobydam),
        (External::YaneuraOu, &args.yaneuraou),
    ];
    let mut machine = Machine::probe();
    let (rounds, reps) = (args.rounds as usize, args.reps as usize);
    let mut results = Vec::new();
    let mut failed = false;
    for case in cases {
        eprintln!("{} {} d{} ...", case.game.name(), case.name, case.depth);
        let mut runners: Vec<Box<dyn Runner>> = match compare::ours(case) {
            Ok(r) => vec![Box::new(r)],
            Err(e) => {
                eprintln!("error: board-core cannot read {}: {e}", case.position);
                std::process::exit(1);
            }
        };
        if !args.no_rust_peers {
            match rust_peers(case) {
                Ok(v) => runners.extend(v),
                Err(e) => eprintln!("warning: a Rust peer cannot read {}: {e}", case.position),
            }
        }
        for (peer, path) in externals {
            if let Some(path) = path.as_deref().filter(|_| peer.game() == case.game) {
                match compare::external(peer, path, case) {
                    Ok(r) => runners.push(r),
                    Err(e) => {
                        eprintln!("error: {e}");
                        failed = true;
                    }
                }
            }
        }
        runners.retain(|r| {
            r.name() == "board-core" || !args.skip.iter().any(|s| r.name().starts_with(s.as_str()))
        });
        let timings = compare::measure(case, &mut runners, rounds, reps);
        for t in &timings {
            if let Some(e) = &t.error {
                eprintln!("error: {}: {}", t.name, e);
                failed = true;
            }
        }
        drop(runners);
        results.push(CaseResult {
            case: *case,
            runners: timings,
        });
    }
    machine.load.1 = compare::load_average();
    print!("{}", compare::markdown(&results, &machine, rounds, reps));
    let json = compare::json(&results, &machine, rounds, reps);
    if let Some(dir) = args.json.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = std::fs::create_dir_all(dir);
    }
    match std::fs::write(&args.json, format!("{json:#}\n")) {
        Ok(()) => eprintln!("wrote {}", args.json.display()),
        Err(e) => {
            eprintln!("error: {}: {e}", args.json.display());
            failed = true;
        }
    }
    if failed {
        std::process::exit(1);
    }
}
