//! `boardwire`: the command-line tool of the boardwire family.
//!
//! Exit codes: 0 success, 2 bad input (one-line message on stderr), 1 an
//! I/O error.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod dxp;
mod shogi;

/// Board-game protocols and rules from the command line.
#[derive(Debug, Parser)]
#[command(name = "boardwire", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The games `perft` and `moves` know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Game {
    /// Shogi; positions in SFEN (or `startpos`), moves in USI.
    Shogi,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// DamExchange (DXP) for draughts engines: serve, connect, decode.
    Dxp {
        #[command(subcommand)]
        command: dxp::DxpCommand,
    },
    /// Count the leaf nodes of the legal move tree (perft).
    ///
    /// Stdout: the node count alone on the first line; with --divide, then
    /// one `<move> <count>` line per legal root move. Timing goes to stderr.
    Perft {
        /// The game.
        game: Game,
        /// The position (quote it), or `startpos`.
        position: String,
        /// Depth in plies.
        depth: u32,
        /// Also print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// List every legal move of a position, one per line.
    ///
    /// Shogi moves are written in USI (`7g7f`, `8h2b+`, `P*5e`). With `-`
    /// as the position, positions are read from stdin, one per line (batch
    /// mode, for differential tests): each is answered with one line,
    /// `{"sfen":...,"moves":[...]}` with --json, else the moves separated by
    /// spaces; a bad position gets `{"sfen":...,"error":...}` (or
    /// `error: ...`) and the exit code becomes 2.
    Moves {
        /// The game.
        game: Game,
        /// The position (quote it), `startpos`, or `-` for stdin.
        position: String,
        /// One JSON object per move: `{"usi":"7g7f","csa":"+7776FU"}`.
        #[arg(long)]
        json: bool,
    },
}

/// A failed command: bad input (exit 2) or failing output (exit 1).
#[derive(Debug)]
enum Failure {
    Input(String),
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Output(e)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let rendered = e.render().to_string();
            let line = rendered
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("error: invalid arguments");
            eprintln!("{line}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = run(cli.command, &mut out).and_then(|()| out.flush().map_err(Failure::Output));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(msg)) => {
            let _ = out.flush();
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(command: Command, out: &mut impl Write) -> Result<(), Failure> {
    match command {
        Command::Dxp { command } => dxp::run(command, out),
        Command::Perft {
            game,
            position,
            depth,
            divide,
        } => match game {
            Game::Shogi => shogi::perft(&position, depth, divide, out),
        },
        Command::Moves {
            game,
            position,
            json,
        } => match game {
            Game::Shogi => shogi::moves(&position, json, out),
        },
    }
}

/// Prints perft timing to stderr: nodes, seconds, nodes per second.
fn report_timing(nodes: u64, elapsed: std::time::Duration) {
    let secs = elapsed.as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    eprintln!("nodes {nodes} time {secs:.3} s speed {nps:.0} nodes/s");
}
