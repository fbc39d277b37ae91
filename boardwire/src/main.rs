//! `boardwire`: the command-line tool of the boardwire family.
//!
//! Exit codes: 0 success, 2 bad input (one-line message on stderr), 1 an
//! I/O error.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod citrine;
mod dxp;

/// Board-game protocols and rules from the command line.
#[derive(Debug, Parser)]
#[command(name = "boardwire", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Novag Citrine over a serial port (or simulated on a pty): play a game.
    Citrine(citrine::CitrineArgs),
    /// DamExchange (DXP) for draughts engines: serve, connect, decode.
    Dxp {
        #[command(subcommand)]
        command: dxp::DxpCommand,
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
        Command::Citrine(args) => citrine::run(args, out),
        Command::Dxp { command } => dxp::run(command, out),
    }
}
