//! `boardwire`: the command-line tool of the boardwire family.
//!
//! Layout: `main.rs` only parses the command line and dispatches; `perft`
//! and `moves` are written once (`game.rs`), each game says how to read its
//! positions and write its moves in its own module (`draughts.rs`,
//! `chess.rs`, `shogi.rs`); each protocol has its own module (`dxp`, `csa`
//! with `csa_decode`, `citrine`); `demo` runs the three protocols on
//! loopback with their code, `transcript` is the wire transcript format
//! they all print, and `capture` reads the recorded-capture format of the
//! reference transcripts for `dxp decode` and `csa decode` (see README.md).
//! Adding a game is one [`Game`] variant, one module implementing
//! `game::GameCli` for the game's `board_core::Game` position and one arm
//! per game command; adding a protocol is one
//! [`Command`] variant and one module.
//!
//! Exit codes: 0 success, 2 bad input (one-line message on stderr), 1 an
//! I/O error writing the output or a failed run (`demo`, `citrine --auto`).

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod batch;

mod chess;
mod citrine;
mod convert;
mod convert_shogi;
mod csa;
mod csa_decode;
mod csa_engine;
mod demo;
mod draughts;
mod dxp;
mod engine_args;
mod game;
mod kif_save;
mod listen;
mod record;
mod shogi;
mod transcript;

/// The games' positions, which implement `game::GameCli`.
type Draughts = board_core::draughts::Position;
type Chess = board_core::chess::Position;
type Shogi = board_core::shogi::Position;

/// Board-game protocols and rules from the command line.
///
/// Without a command, runs `demo` (its options apply: `boardwire --quiet`).
#[derive(Debug, Parser)]
#[command(
    name = "boardwire",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The demo's options, for `boardwire` without a command.
    #[command(flatten)]
    demo: demo::DemoArgs,
}

/// The games `perft`, `moves`, `show` and `play` know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Game {
    /// International draughts (10x10); positions in PDN FEN (or `startpos`), moves in PDN.
    Draughts,
    /// Chess; positions in FEN (`startpos`, `kiwipete` also accepted).
    Chess,
    /// Shogi; positions in SFEN (or `startpos`), moves in USI or CSA.
    Shogi,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a DXP game, a CSA game and a Citrine session on loopback and
    /// print their wire transcripts, each game's final position as a
    /// diagram, and a summary (the default command).
    ///
    /// No hardware and no network beyond 127.0.0.1. Exit code 0 when all
    /// parts passed, 1 (with one `error:` line per failed part) otherwise.
    Demo(demo::DemoArgs),
    /// Count the leaf nodes of the legal move tree (perft).
    ///
    /// Stdout: the node count alone on the first line; with --divide, then
    /// one `<move> <count>` line per legal root move. Timing goes to stderr
    /// (`nodes N time T s speed S nodes/s`); when stderr is a terminal and
    /// the run lasts over a second, a progress bar there first (root moves
    /// done, nodes, nodes/s, ETA), cleared at the end.
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
    /// Draughts moves are written in PDN: `32-28`, `28x19`, or with every
    /// landing square (`11x18x25`) when the short form would be ambiguous.
    /// Chess moves are UCI (`e2e4`, `e7e8q`, castling `e1g1`) or, with
    /// `--notation san`, SAN (`e4`, `Nf3`, `O-O`, `e8=Q+`); with --json one
    /// `{"uci":"e2e4","san":"e4"}` object per move. Shogi moves are USI
    /// (`7g7f`, `8h2b+`, `P*5e`) or, with `--notation csa`, CSA
    /// (`+7776FU`); with --json one `{"usi":"7g7f","csa":"+7776FU"}`
    /// object per move, and batch lines say `"sfen"` instead of `"fen"`.
    /// With `-` as the position, positions are read from stdin, one per line
    /// (batch mode, for differential tests): each is answered with one line,
    /// `{"fen":...,"moves":[...]}` with --json, else the moves separated by
    /// spaces; a bad position gets `{"fen":...,"error":...}` (or `error: ...`)
    /// and the exit code becomes 2. Draughts moves are sorted by from
    /// square, then to square, then captured set.
    Moves {
        /// The game.
        game: Game,
        /// The position (quote it), `startpos`, or `-` for stdin.
        position: String,
        /// The move notation: chess `uci` (default) or `san`, shogi `usi`
        /// (default) or `csa`, draughts `pdn`. With --json every notation
        /// of the game is in each object anyway.
        #[arg(long, value_enum)]
        notation: Option<game::Notation>,
        /// One JSON object per move, with every notation of the game:
        /// `{"from":32,"to":28,"captures":[...],"notation":"32-28"}`.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position as a plain-ASCII board diagram.
    ///
    /// Chess: 8x8, FEN piece letters (upper case White), ranks 8..1 and
    /// files a..h. Draughts: 10x10 as White sees it, `w`/`b` men, `W`/`B`
    /// kings, with the square numbers 1..50 beside it. Shogi: 9x9, SFEN
    /// letters (upper case sente, `+` promoted), files 9..1 and ranks a..i
    /// as USI writes them, both sides' pieces in hand. The side to move on
    /// the last line.
    ///
    /// With --record FILE instead of a game and position: the position
    /// reached in a game record (PGN for chess, PDN for draughts, CSA, KIF
    /// or KI2 for shogi, by the extension or --from), at the end of its
    /// main line or after --ply N plies, then a line `after ply N of M,
    /// game K of FILE`. Examples: `boardwire show --record game.pgn --ply
    /// 10`, `boardwire show --record game.kif`.
    Show {
        /// The game.
        #[arg(required_unless_present = "record")]
        game: Option<Game>,
        /// The position (quote it), or `startpos`.
        #[arg(required_unless_present = "record")]
        position: Option<String>,
        /// A game record to draw a position of (`-`: standard input).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "position"])]
        record: Option<String>,
        /// With --record: the position after this many plies (default: the end).
        #[arg(long, value_name = "N", requires = "record")]
        ply: Option<usize>,
        /// With --record: which game of the file, from 1.
        #[arg(
            long = "game",
            value_name = "K",
            default_value_t = 1,
            requires = "record"
        )]
        game_number: usize,
        /// With --record: the record's format (default: from the extension).
        #[arg(long, value_enum, requires = "record")]
        from: Option<convert::InputFormat>,
    },
    /// Convert a game record: PGN to PGN and PDN to PDN (normalised to the
    /// export format: Seven Tag Roster first, 80-column lines), shogi
    /// between CSA, KIF and KI2, or any to one engine line per game (--to
    /// moves).
    ///
    /// Formats by extension (`.pgn`, `.pdn`, `.csa`, `.kif`/`.kifu`,
    /// `.ki2`/`.ki2u`) or --from/--to; `-` is standard input or output.
    /// Shogi: start, moves with their seconds, names, game id (CSA
    /// `$EVENT`, KIF `棋戦`) and ending are carried over (comments and KIF
    /// variations are not); `.kif`/`.ki2` are written in Shift_JIS, other
    /// names and standard output in UTF-8; KIF and KI2 hold one game. `--to
    /// moves` prints per game `startpos moves e2e4 e7e5` or `fen <FEN>
    /// moves ...` (UCI) for chess, `<PDN FEN> moves 32-28 28x19x10` (PDN
    /// numeric, captures in the long form) for draughts, `startpos moves
    /// 7g7f 3c3d` or `sfen <SFEN> moves ...` (USI) for shogi. Chess,
    /// draughts and shogi records into one another are refused. A game
    /// that does not read is reported on stderr (`error: FILE: PGN game error
    /// at line L, column C (byte B): ...`) and skipped; exit code 2 then.
    /// Examples: `boardwire convert lichess.pgn clean.pgn`, `boardwire
    /// convert match.pdn - --to moves`, `cat g.pgn | boardwire convert - -
    /// --from pgn`, `boardwire convert floodgate.csa game.kif`, `boardwire
    /// convert game.kif - --to moves`.
    Convert(convert::ConvertArgs),
    /// Play moves from a position and print the position reached.
    ///
    /// Moves in any notation of the game: chess UCI or SAN (`e2e4`, `e4`,
    /// `Nf3`, `O-O`), shogi USI or CSA (`7g7f`, `+7776FU`, `-3334FU`: no
    /// `--` needed, though one is accepted), draughts PDN
    /// (`32-28`, `28x19`). Stdout: the position (FEN, SFEN, PDN FEN) alone
    /// on the first line, then with --board its diagram (as `show`). The
    /// first illegal or malformed move: exit code 2, naming the move and why.
    /// With `-` as the position, batch mode: each stdin line is
    /// `<POSITION> moves <MOVE>...` and is answered by one line, the
    /// position reached or `error: ...` (exit code 2 at the end if any).
    Play {
        /// The game.
        game: Game,
        /// The starting position (quote it), `startpos`, or `-` for stdin.
        position: String,
        /// Also draw the position reached.
        #[arg(long)]
        board: bool,
        /// The moves, in order. Moves may start with `-` (CSA gote moves);
        /// --board, `--` and --help are recognised among them too.
        #[arg(allow_hyphen_values = true)]
        moves: Vec<String>,
    },
    /// CSA shogi server protocol (shogi-server x1 mode too): serve, connect, decode.
    Csa {
        #[command(subcommand)]
        command: csa::CsaCommand,
    },
    /// Novag Citrine over a serial port (or simulated on a pty): play a game.
    ///
    /// With --engine, a UCI engine plays the host's side, unattended like
    /// --auto (no stdin): `uci`, `isready`, `ucinewgame`, then per move
    /// `position startpos moves ...` and `go movetime MS`; its `bestmove`
    /// is sent as the `M` command. An engine that exits, stays silent
    /// (--movetime + 5 s) or plays an illegal move ends the run: reason
    /// printed, exit 1.
    Citrine(citrine::CitrineArgs),
    /// DamExchange (DXP) for draughts engines: serve, connect (the built-in
    /// player or a Hub engine, --engine), decode.
    Dxp {
        #[command(subcommand)]
        command: dxp::DxpCommand,
    },
}

/// A failed command: bad input (exit 2), failing output (exit 1), or a
/// run that went wrong (exit 1; the message is printed as is, one
/// `error: ...` line per problem).
#[derive(Debug)]
enum Failure {
    Input(String),
    Output(io::Error),
    Failed(String),
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
            // --help / --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let mut msg = one_line(&e.render().to_string());
            // `show chess rnbqkbnr/... w KQkq - 0 1` unquoted: the position
            // ends at its first space.
            let positional = ["show", "moves", "perft", "play"];
            let command = std::env::args().nth(1).unwrap_or_default();
            // Only for a stray word such as `w`, `KQkq` or `-` (a FEN field):
            // not for an unknown option (`--json`, `-1`).
            let stray_field = match e.get(clap::error::ContextKind::InvalidArg) {
                Some(clap::error::ContextValue::String(arg)) => arg == "-" || !arg.starts_with('-'),
                _ => false,
            };
            if e.kind() == clap::error::ErrorKind::UnknownArgument
                && positional.contains(&command.as_str())
                && stray_field
            {
                msg.push_str(" (a position with spaces is one argument: quote it)");
            }
            eprintln!("{msg}");
            return ExitCode::from(2);
        }
    };
    // Not locked for the whole run: transcript lines are written from other
    // threads too (see `transcript::Sink::Stdout`).
    let mut out = io::BufWriter::new(io::stdout());
    let command = cli.command.unwrap_or(Command::Demo(cli.demo));
    let result = run(command, &mut out).and_then(|()| out.flush().map_err(Failure::Output));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(msg)) => {
            let _ = out.flush();
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Failed(msg)) => {
            let _ = out.flush();
            eprintln!("{msg}");
            ExitCode::from(1)
        }
        // A closed pipe (`| head`) is not an error worth reporting.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("error: writing output: {e}");
            ExitCode::from(1)
        }
    }
}

/// `game::$f::<G>(args)` for the game `$game` names: the one place where
/// a [`Game`] becomes a board-core game type (an expression, no items).
macro_rules! for_game {
    ($game:expr, $f:ident($($arg:expr),*)) => {
        match $game {
            Game::Draughts => game::$f::<Draughts>($($arg),*),
            Game::Chess => game::$f::<Chess>($($arg),*),
            Game::Shogi => game::$f::<Shogi>($($arg),*),
        }
    };
}

fn run(command: Command, out: &mut impl Write) -> Result<(), Failure> {
    match command {
        Command::Perft {
            game,
            position,
            depth,
            divide,
        } => for_game!(game, perft(&position, depth, divide, out)),
        Command::Moves {
            game,
            position,
            notation,
            json,
        } => for_game!(game, moves(&position, notation, json, out)),
        Command::Show {
            game,
            position,
            record,
            ply,
            game_number,
            from,
        } => match (record, game, position) {
            (Some(file), _, _) => convert::show(&file, from, game_number, ply, out),
            (None, Some(game), Some(position)) => for_game!(game, show(&position, out)),
            _ => Err(Failure::Input(
                "show needs a game and a position, or --record FILE".into(),
            )),
        },
        Command::Convert(args) => convert::run(args, out),
        Command::Play {
            game,
            position,
            mut board,
            moves,
        } => {
            // Once the first move is read, clap takes every later argument
            // as a move (they may start with `-`), so a --board, a `--` or
            // a --help given after the moves arrives here. No move of any
            // notation starts with `--` (CSA moves start with one `-`).
            let mut dash_dash = false;
            let mut list = Vec::with_capacity(moves.len());
            for m in moves {
                match m.as_str() {
                    "--board" => board = true,
                    "--" if !dash_dash => dash_dash = true,
                    "--help" | "-h" => {
                        let mut cli = <Cli as clap::CommandFactory>::command();
                        // Built, so that the usage line names `boardwire play`.
                        cli.build();
                        if let Some(play) = cli.find_subcommand_mut("play") {
                            let help = if m == "-h" {
                                play.render_help()
                            } else {
                                play.render_long_help()
                            };
                            write!(out, "{help}")?;
                        }
                        return Ok(());
                    }
                    s if s.starts_with("--") => {
                        return Err(Failure::Input(format!(
                            "unexpected argument '{s}' (play takes --board and moves; \
                             no move starts with --)"
                        )));
                    }
                    _ => list.push(m),
                }
            }
            let moves = list;
            for_game!(game, play(&position, &moves, board, out))
        }
        Command::Csa { command } => csa::run(command, out),
        Command::Citrine(args) => citrine::run(args, out),
        Command::Dxp { command } => dxp::run(command, out),
        Command::Demo(args) => demo::run(args, out),
    }
}

/// Prints perft timing to stderr: nodes, seconds, nodes per second.
fn report_timing(nodes: u64, elapsed: std::time::Duration) {
    let secs = elapsed.as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    eprintln!("nodes {nodes} time {secs:.6} s speed {nps:.0} nodes/s");
}

/// Folds clap's multi-line error into one line: the message and its details
/// (missing argument names, possible values), without the usage and help
/// hints.
fn one_line(rendered: &str) -> String {
    let mut line = String::new();
    for part in rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:"))
        .filter(|l| {
            !l.is_empty() && !l.starts_with("tip:") && !l.starts_with("For more information")
        })
    {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(part);
    }
    if line.is_empty() {
        line.push_str("error: invalid arguments");
    }
    line
}
