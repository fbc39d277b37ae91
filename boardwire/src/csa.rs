//! `boardwire csa ...`: the CSA shogi server protocol on real sockets.
//!
//! - `csa serve [--listen 127.0.0.1:4081]`: a CSA server (shogi-server x1
//!   mode included) for many concurrent clients;
//! - `csa connect HOST:PORT --user NAME [--password PW] [--x1] [--game NAME-300-10F]`:
//!   a client playing with the built-in player (`board_core::player`),
//!   printing the wire transcript (format: `transcript.rs`) rendered from
//!   the messages `csa_protocol::net::connect` decoded;
//! - `csa decode [FILE | --message LINE]`: CSA lines, a recorded capture
//!   (`[t] who >> line`, `b'...'` literals) or a CSA kifu file, one message
//!   per line in words, `--json` for one JSON object per line
//!   (`csa_decode.rs`).

use std::io::Write;
use std::time::Duration;

use boardwire_engines::csa_bridge::BridgePlan;
use csa_protocol::join::{self, JoinError};
use csa_protocol::net::{self, Config, ServeEvent};
use csa_protocol::play::PlayError;
pub(crate) use csa_protocol::play::{ClientPlan, play_client, result_words};
use csa_protocol::server_log::ServerLog;
use csa_protocol::session::{Awaited, RatingIds, ServerConfig};
use csa_protocol::transcript::Log;
use csa_protocol::types::SidePreference;

use crate::Failure;
#[path = "csa_league.rs"]
mod csa_league;
#[path = "csa_rate.rs"]
mod csa_rate;
use crate::csa_decode::{self, CsaFormat, CsaFrom};
use crate::csa_engine::start_engine;
use crate::engine_args::EngineArgs;
use crate::transcript::{Sink, Transcript, show};
use boardwire_engines::csa_bridge::{EnginePlan, play_engine};

/// The `csa` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum CsaCommand {
    /// Run a CSA game server (plain CSA and shogi-server x1 mode).
    ///
    /// Prints `listening on ADDR` to stderr first (useful with port 0) and
    /// serves until killed. The operator's log goes to stdout, one line per
    /// game start, end and rejection:
    /// `<local time> start <game id> + <black> - <white>`,
    /// `<local time> end <game id> <reason> + <black> <win|lose|draw> -
    /// <white> <win|lose|draw> <moves> moves` (reason: `#RESIGN`,
    /// `#TIME_UP`, ...) and, for a game rejected before it started,
    /// `<local time> reject <game id> by <name>` (`by the Server (timed
    /// out)` when the agree phase ran out); with the league options,
    /// `<local time> league <line>` (the seed, each pairing with players,
    /// rates and score, the players left out, the next time, players.yaml
    /// loaded or refused).
    Serve {
        /// Address to listen on, HOST:PORT (a host name such as
        /// `localhost` is resolved at start; port 0: any free port).
        #[arg(long, default_value = "127.0.0.1:4081", value_name = "HOST:PORT")]
        listen: String,
        /// Event name, the first part of every Game_ID.
        #[arg(long, default_value = "boardwire")]
        event: String,
        /// Max_Moves (0 = no limit).
        #[arg(long, default_value_t = 256)]
        max_moves: u32,
        /// Least_Time_Per_Move in seconds. Range 0..=3600 seconds.
        #[arg(long, default_value_t = 0, value_name = "SECONDS",
              value_parser = clap::value_parser!(u64).range(0..=3600))]
        least_time_per_move: u64,
        #[command(flatten)]
        limits: ServeLimits,
        #[command(flatten)]
        records: ServeRecords,
        #[command(flatten)]
        league: csa_league::LeagueArgs,
    },
    /// Connect to a CSA server and play games, with the built-in player or a USI engine (--engine; exit 1 if it fails).
    ///
    /// Prints the wire transcript to stdout (one line per message; a
    /// Game_Summary block is one line; LOGIN passwords shown as `*****`).
    /// Plain CSA mode needs --game (the game name is the LOGIN password);
    /// x1 mode needs it too (`%%GAME`). The built-in player plays one game,
    /// an engine --games N. Exit code 2 for bad arguments or no
    /// connection, 1 when the server stays silent longer than --timeout,
    /// closes the connection before the game's result line, or the engine
    /// fails.
    Connect(ConnectArgs),
    /// Decode CSA lines, a recorded capture or a CSA kifu file: one line
    /// per message, in words.
    ///
    /// Output: `<line> [<party>] <client|server> <reading>`, e.g.
    /// `3  lena  client  LOGIN: name lena, password hidden, x1 mode`;
    /// unrecognised lines and errors (with their 0-based byte offset) are printed too,
    /// and the exit code is 2 when any line was malformed. Inputs: one wire
    /// line per line (LF or CRLF); the recorded-capture format
    /// (`[0.002] alice >> LOGIN ...`, `[49.0] lena >> b'LOGIN ...\r\n'`,
    /// `<<` for lines received); a CSA kifu (`V2...`), whose moves are also
    /// played on the shogi rules: the first illegal position or move is
    /// reported (`kifu record R, line L, column C (byte B): ...`) with exit
    /// code 2. The format is detected unless --format says it.
    Decode {
        /// File to read (standard input when absent).
        #[arg(conflicts_with = "message")]
        file: Option<std::path::PathBuf>,
        /// Decode this line instead of reading a file (repeatable; each is
        /// one wire line, without its line ending).
        #[arg(long, short = 'm', value_name = "LINE", allow_hyphen_values = true)]
        message: Vec<String>,
        /// The input format.
        #[arg(long, value_enum, default_value_t = CsaFormat::Auto)]
        format: CsaFormat,
        /// Which side sent the lines (`lines` format and `-m`): `guess`
        /// reads each line as a client line when it is one (`+7776FU` is
        /// then a client move), else as a server line.
        #[arg(long, value_enum, default_value_t = CsaFrom::Guess)]
        from: CsaFrom,
        /// One JSON object per line:
        /// `{"line":3,"party":"lena","direction":"client","kind":"message","value":"LOGIN: ...","wire":"LOGIN lena pass x1"}`.
        #[arg(long)]
        json: bool,
    },
    /// Rate the players of a record tree: `mk_game_results DIR... |
    /// mk_rate [options]` in one command.
    ///
    /// Prints players.yaml (shogi-server's format) to stdout; records that
    /// cannot be read and results not used go to stderr. Exit code 2 for
    /// bad arguments, 1 when the ratings come out of range (as mk_rate's
    /// "Aborted").
    Rate(csa_rate::RateArgs),
}

// `csa connect`'s options (the subcommand's help is the variant's).
#[derive(Debug, clap::Args)]
pub(crate) struct ConnectArgs {
    /// Server address, HOST:PORT.
    addr: String,
    /// Login name.
    #[arg(long)]
    user: String,
    /// Password (plain mode: combined with --game as `GAME,PW`).
    #[arg(long)]
    password: Option<String>,
    /// Use shogi-server's extended mode (x1).
    #[arg(long)]
    x1: bool,
    /// Game name, e.g. `testgame-300-10F`.
    #[arg(long)]
    game: Option<String>,
    /// Side to ask for: `+`, `-` or `*` (x1: in %%GAME; plain mode: as a
    /// `-B`/`-W` suffix of the game name in the password).
    #[arg(long, default_value = "*")]
    side: String,
    /// Seed of the built-in player's choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Give up when the server owes an answer (the LOGIN reply, the
    /// confirmation of our move, the LOGOUT reply) and sends no
    /// complete line with it for this long, seconds. Bytes without a
    /// line end do not count. Waiting to be paired is not bounded; the
    /// opponent's thinking is bounded by its clock plus --clock-margin.
    /// Exit code 1 when it runs out. Range 1..=86400 seconds.
    #[arg(long, default_value_t = 600, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=86400))]
    timeout: u64,
    /// Seconds added to the opponent's clock (remaining time +
    /// byoyomi/increment) before its silence ends the game for us.
    /// Range 0..=3600 seconds.
    #[arg(long, default_value_t = 30, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(0..=3600))]
    clock_margin: u64,
    /// Save each game in KIF to FILE as it goes (with the built-in player
    /// or --engine): after every move FILE is the whole game so far,
    /// written to a temporary file renamed over it, so a dropped
    /// connection or a killed run leaves a readable record of every move
    /// made. `.kif` is Shift_JIS, any other extension (`.kifu`) UTF-8,
    /// with the `#KIF version=2.0 encoding=…` line. KIF holds one game: game
    /// K of a run (x1 --games N) goes to `STEM-K.EXT`. Headers 開始日時,
    /// 棋戦 (the Game_ID), 先手, 後手, 手合割; each move with the time the
    /// server charged and the side's total; the ending (投了, 切れ負け,
    /// 千日手, 反則勝ち/反則負け, 入玉勝ち, 持将棋 (a draw) for #MAX_MOVES, 中断
    /// for #CHUDAN or a lost connection) and the `まで…` line. A game is recorded up to
    /// 1000 plies. Example: `--kif game.kif`.
    #[arg(long, value_name = "FILE")]
    kif: Option<std::path::PathBuf>,
    #[command(flatten)]
    engine: CsaEngineArgs,
}

/// The transcript plus `--kif`: the lines go to the transcript, the
/// session's events to the KIF saver.
struct Recording<'a, L: Log> {
    log: &'a mut L,
    kif: Option<crate::kif_save::KifSaver>,
}

impl<L: Log> Log for Recording<'_, L> {
    fn sent(&mut self, wire_len: usize, text: &str) {
        self.log.sent(wire_len, text);
    }
    fn received(&mut self, wire_len: usize, text: &str) {
        self.log.received(wire_len, text);
    }
    fn received_malformed(&mut self, wire_len: usize, line: &[u8], error: &str) {
        self.log.received_malformed(wire_len, line, error);
    }
    fn note(&mut self, text: &str) {
        self.log.note(text);
    }
    fn event(
        &mut self,
        client: &csa_protocol::session::Client<std::time::Instant>,
        event: &csa_protocol::session::Event,
    ) {
        if let Some(k) = &mut self.kif {
            k.event(client, event);
        }
    }
}

/// Runs a `csa` subcommand. Errors are one-line messages for the user.
pub(crate) fn run(cmd: CsaCommand, out: &mut dyn Write) -> Result<(), Failure> {
    let result = match cmd {
        CsaCommand::Serve {
            listen,
            event,
            max_moves,
            least_time_per_move,
            limits,
            records,
            league,
        } => {
            if let Some(dir) = &records.records {
                check_writable_dir(dir)
                    .map_err(|e| Failure::Input(format!("--records {}: {e}", dir.display())))?;
            }
            serve(
                &listen,
                event,
                max_moves,
                least_time_per_move,
                &limits,
                records,
                league,
            )
        }
        CsaCommand::Connect(args) => return connect(args),
        CsaCommand::Rate(args) => return csa_rate::rate(args, out),
        CsaCommand::Decode {
            file,
            message,
            format,
            from,
            json,
        } => return csa_decode::decode(file.as_deref(), &message, format, from, json, out),
    };
    result.map_err(Failure::Input)
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// `csa connect`'s engine options: a USI engine plays instead of the
/// built-in player (`csa_engine.rs`).
#[derive(Debug, clap::Args)]
#[command(mut_arg("engine", |a| a.help(crate::engine_args::engine_help("A USI engine (GPSShogi: `--engine /usr/games/gpsusi`)"))))]
pub(crate) struct CsaEngineArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Milliseconds kept back from the engine's time for each move
    /// (latency, the server's whole seconds): taken off our remaining
    /// time, then the increment, then the byoyomi. Range 0..=60000 ms.
    #[arg(long, default_value_t = 500, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(0..=60000))]
    time_margin: u64,
    /// x1 mode with --engine: games to play, one after another, with the
    /// same engine (the same --game asked for again). At least 1.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// With --engine: save the games as a CSA kifu (V2.2; several games
    /// as records separated by `/`), written after each game.
    #[arg(long, value_name = "FILE")]
    kifu: Option<std::path::PathBuf>,
}

/// `csa serve`'s resource limits (`csa_protocol::net::Limits`,
/// `ServerConfig`); the defaults are the library's.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeLimits {
    /// Open connections at most; further ones are refused.
    #[arg(long, default_value_t = 10_000)]
    max_connections: usize,
    /// Bytes of output that may wait for one connection; a connection
    /// past it (a peer that does not read) is closed at once.
    #[arg(long, default_value_t = 128 * 1024)]
    output_queue_cap: usize,
    /// Bytes of output that may wait for all connections together; past
    /// it the largest queues are closed first.
    #[arg(long, default_value_t = 48 * 1024 * 1024)]
    output_budget: usize,
    /// Seconds a write may make no progress before the connection is
    /// closed. Range 1..=3600 seconds.
    #[arg(long, default_value_t = 20, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    send_timeout: u64,
    /// Seconds from connecting to a successful LOGIN. Range 1..=86400 seconds.
    #[arg(long, default_value_t = 300, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=86400))]
    login_timeout: u64,
    /// Malformed or unrecognised lines in a row before a peer is
    /// disconnected (0: no limit).
    #[arg(long, default_value_t = 16)]
    max_bad_lines: u32,
    /// Buoy games one user may set at a time.
    #[arg(long, default_value_t = 16)]
    max_buoys_per_user: usize,
    /// Buoy games on the server at a time.
    #[arg(long, default_value_t = 1024)]
    max_buoys: usize,
}

/// `csa serve`'s game records.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeRecords {
    /// Write every game's record, shogi-server's CSA V2 file, to
    /// `DIR/YYYY/MM/DD/<game id>.csa` (local date and times, as
    /// shogi-server). Off without it.
    #[arg(long, value_name = "DIR")]
    records: Option<std::path::PathBuf>,
    /// The ids in a record's `'rating:` line: `names` (login names; no
    /// password hash leaves the server) or `md5` (shogi-server's
    /// `<name>+<MD5 hex of the password>`, for rating tools that need them;
    /// unsalted: keep such records private).
    #[arg(long, value_enum, default_value_t = RatingIdsArg::Names)]
    rating_ids: RatingIdsArg,
    /// The records' format with --records: `csa` (shogi-server's CSA V2
    /// file), `kif` (KIF only: `<game id>.kif` in Shift_JIS, written from
    /// the CSA record when the game ends, which is then removed; not with
    /// --rate-every, which rates the CSA records) or `both`. The KIF holds
    /// the names, the game id (棋戦), the start, the moves with their
    /// seconds and the ending (converted as `boardwire convert` does).
    /// Example: `--records games --records-format both`.
    #[arg(long, value_enum, default_value_t = RecordsFormat::Csa, requires = "records")]
    records_format: RecordsFormat,
}

/// `--records-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum RecordsFormat {
    /// CSA files only.
    Csa,
    /// KIF files only.
    Kif,
    /// Both.
    Both,
}

/// The KIF of the CSA record `csa` written beside it (`.kif`); with
/// `only`, the CSA record is removed once the KIF is there.
fn kif_beside(csa: &std::path::Path, only: bool) -> Result<std::path::PathBuf, String> {
    use crate::convert_shogi::{ShogiFormat, read_games, write_games};
    let data = std::fs::read(csa).map_err(|e| e.to_string())?;
    let name = csa.display().to_string();
    let (games, bad) = read_games(&data, ShogiFormat::Csa, &name);
    if bad > 0 || games.len() != 1 {
        return Err(format!("{name}: not one game that reads"));
    }
    let kif = csa.with_extension("kif");
    let bytes = write_games(&games, ShogiFormat::Kif, &kif.display().to_string())?;
    ::csa_league::operator::write_atomic(&kif, &bytes).map_err(|e| e.to_string())?;
    if only {
        std::fs::remove_file(csa).map_err(|e| e.to_string())?;
    }
    Ok(kif)
}

/// `--rating-ids`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum RatingIdsArg {
    /// Login names.
    Names,
    /// `<name>+<MD5 hex of the password>` (shogi-server).
    Md5,
}

/// The local time zone's offset from UTC now, seconds east (chrono reads
/// `TZ` and the system's zone files).
fn utc_offset_secs() -> i32 {
    chrono::Local::now().offset().local_minus_utc()
}

/// `YYYY-MM-DD HH:MM:SS` local time, for the operator's log.
fn log_time() -> String {
    chrono::Local::now().format("%Y-%m-%d %H:%M:%S").to_string()
}

/// `dir` exists (it is created if needed) and a file can be written in it:
/// checked before serving, so that no game's record is lost to a wrong path.
fn check_writable_dir(dir: &std::path::Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the directory: {e}"))?;
    let probe = dir.join(format!(".boardwire-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| format!("cannot write in the directory: {e}"))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

fn serve(
    listen: &str,
    event: String,
    max_moves: u32,
    least_time_per_move: u64,
    opts: &ServeLimits,
    records: ServeRecords,
    league: csa_league::LeagueArgs,
) -> Result<(), String> {
    let mut config = ServerConfig {
        event,
        max_moves,
        least_time_per_move,
        max_buoys_per_user: opts.max_buoys_per_user,
        max_buoys: opts.max_buoys,
        rating_ids: match records.rating_ids {
            RatingIdsArg::Names => RatingIds::Names,
            RatingIdsArg::Md5 => RatingIds::Md5,
        },
        utc_offset_secs: utc_offset_secs(),
        ..Default::default()
    };
    if records.records_format == RecordsFormat::Kif && league.rates() {
        return Err(
            "--records-format kif removes the CSA records --rate-every rates: use both".into(),
        );
    }
    let league = csa_league::setup(league, records.records.as_deref(), &mut config)?;
    let mut config = Config::new(config);
    let limits = &mut config.limits;
    limits.max_connections = opts.max_connections;
    limits.output_queue_cap = opts.output_queue_cap;
    limits.output_budget = opts.output_budget;
    limits.driver.send_timeout = Duration::from_secs(opts.send_timeout);
    limits.login_timeout = Duration::from_secs(opts.login_timeout);
    limits.driver.max_bad_frames = opts.max_bad_lines;
    runtime()?.block_on(async {
        let listener = crate::listen::listen(listen).await?;
        // Accept failures (once per burst), the connections the driver
        // closes and records that could not be written go to stderr; game
        // starts and ends to stdout (the operator's log).
        let mut log = ServerLog::new();
        let kif = records.records_format;
        let on_event = move |e: ServeEvent| {
            match e {
                ServeEvent::RecordWritten { path, game_id } if kif != RecordsFormat::Csa => {
                    if let Err(e) = kif_beside(&path, kif == RecordsFormat::Kif) {
                        eprintln!("error: the KIF record of game {game_id}: {e}");
                    }
                }
                ServeEvent::AcceptFailed(_)
                | ServeEvent::Dropped { .. }
                | ServeEvent::RecordFailed { .. } => eprintln!("{e}"),
                ServeEvent::Server(e) => {
                    if let Some(line) = log.line(&e) {
                        // A closed stdout does not stop the server.
                        let _ = writeln!(std::io::stdout(), "{} {line}", log_time());
                    }
                }
                _ => {}
            }
            std::ops::ControlFlow::Continue(())
        };
        // The league, and the players.yaml reloads, come in as controls.
        let (control, controls) = tokio::sync::mpsc::channel(16);
        if let Some(league) = league {
            league.start(control)?;
        }
        net::serve_controlled(listener, config, records.records, controls, on_event)
            .await
            .map_err(|e| format!("server stopped: {e}"))
    })
}

fn connect(args: ConnectArgs) -> Result<(), Failure> {
    let ConnectArgs {
        addr, user, engine, ..
    } = &args;
    let (x1, timeout, clock_margin) = (args.x1, args.timeout, args.clock_margin);
    let (timeout, clock_margin) = (
        Duration::from_secs(timeout),
        Duration::from_secs(clock_margin),
    );
    let input = |s: String| Failure::Input(s);
    if engine.engine.engine.is_none() && engine.kifu.is_some() {
        return Err(input(
            "--kifu needs --engine (the built-in player keeps no kifu)".into(),
        ));
    }
    if engine.engine.engine.is_none() && engine.games != 1 {
        return Err(input(
            "--games needs --engine (the built-in player plays one game)".into(),
        ));
    }
    if let Some(kifu) = &engine.kifu {
        // Found out now, not after the game: the file is created (or
        // opened for appending) before we connect.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(kifu)
            .map_err(|e| input(format!("--kifu {}: cannot write: {e}", kifu.display())))?;
    }
    if let Some(kif) = &args.kif {
        // Found out now, not after the first move.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(kif)
            .map_err(|e| input(format!("--kif {}: cannot write: {e}", kif.display())))?;
    }
    if !x1 && engine.games != 1 {
        return Err(input("--games N is for x1 mode (--x1)".into()));
    }
    // Both modes need the game: x1 asks for it by %%GAME, plain mode by the
    // password (csa_protocol::join; anything else means `default-1500-0`:
    // we ask for that one only when told so).
    let Some(game) = &args.game else {
        let mode = if x1 { "x1" } else { "plain CSA" };
        return Err(input(format!(
            "{mode} mode needs --game (e.g. --game testgame-300-10F; the server's default game is default-1500-0)"
        )));
    };
    let side = match args.side.as_str() {
        "+" => SidePreference::Black,
        "-" => SidePreference::White,
        "*" => SidePreference::Any,
        other => {
            return Err(input(format!("--side: expected +, - or *, got {other:?}")));
        }
    };
    let mut config = join::client_config(user, args.password.as_deref(), x1, game, side).map_err(
        |e| match e {
            JoinError::Name(e) => input(format!("--user: {e}")),
            JoinError::Game(e) => input(format!("--game: {e}")),
            JoinError::Password(e) => input(format!("--password: {e}")),
            e => input(format!("--side: {e} (use --side '*')")),
        },
    )?;
    config.clock_margin = clock_margin;
    let engine_plan = engine.engine.spec().map(|spec| {
        let mut bridge = BridgePlan::new(spec, engine.engine.options.clone());
        bridge.timeouts.handshake = engine.engine.start_timeout();
        bridge.timeouts.ready = engine.engine.start_timeout();
        bridge.margin_ms = engine.time_margin;
        EnginePlan {
            bridge,
            games: engine.games,
            kifu: engine.kifu.clone(),
            rematch: config.game.clone(),
            timeout,
        }
    });
    runtime().map_err(input)?.block_on(async {
        // The engine first (its handshake), then the connection.
        let engine = match &engine_plan {
            Some(plan) => Some(
                start_engine(plan)
                    .await
                    .map_err(|e| Failure::Failed(format!("error: engine: {e}")))?,
            ),
            None => None,
        };
        let stream = tokio::time::timeout(
            Duration::from_secs(10),
            tokio::net::TcpStream::connect(addr),
        )
        .await
        .map_err(|_| input(format!("cannot connect to {addr}: connection timed out")))?
        .map_err(|e| input(format!("cannot connect to {addr}: {e}")))?;
        let mut transcript = Transcript::new("csa", user, Sink::Stdout);
        let mut t = Recording {
            log: &mut transcript,
            kif: args.kif.as_deref().map(crate::kif_save::KifSaver::new),
        };
        let failed = |e| match e {
            PlayError::Silent(Awaited::OpponentMove) => Failure::Failed(format!(
                "error: {addr}: no move from the opponent within its clock + {} s (--clock-margin)",
                clock_margin.as_secs()
            )),
            PlayError::Silent(what) => Failure::Failed(format!(
                "error: {addr}: the server did not send {what} for {} s (--timeout)",
                timeout.as_secs()
            )),
            e => Failure::Failed(format!("error: {addr}: {e}")),
        };
        let problems = match (engine_plan, engine) {
            (Some(plan), Some(engine)) => {
                let report = play_engine(stream, config, &plan, engine, &mut t)
                    .await
                    .map_err(failed)?;
                if let Some(why) = report.engine_failed {
                    return Err(Failure::Failed(format!(
                        "error: engine: {why} (we resigned)"
                    )));
                }
                if report.problems.first().is_none() && report.games == 0 {
                    return Err(Failure::Failed("error: no game was played".into()));
                }
                report.problems
            }
            _ => {
                let plan = ClientPlan {
                    seed: args.seed,
                    resign_at: None,
                    monitor2: false,
                    timeout,
                    inject_illegal: false,
                };
                let report = play_client(stream, config, &plan, &mut t)
                    .await
                    .map_err(failed)?;
                // The connection ending before the server's result line is
                // a run gone wrong (exit 1), as in `dxp connect`; a game
                // that ends so has a result without reason.
                let no_result_line = !matches!(report.result, Some((Some(_), _)));
                if report.problems.first().is_none() && no_result_line {
                    return Err(Failure::Failed(if report.started {
                        format!(
                            "error: {addr}: the connection closed before the server's result line ({} moves played)",
                            report.moves
                        )
                    } else {
                        format!("error: {addr}: the server closed the connection before a game started")
                    }));
                }
                report.problems
            }
        };
        // A refused login or a broken game is a run gone wrong (exit 1), not
        // bad input.
        match problems.first() {
            Some(p) => Err(Failure::Failed(format!("error: {p}"))),
            None => Ok(()),
        }
    })
}

// ------------------------------------------------------------- client

/// The transcript of `csa connect` and the demo (`transcript.rs`) as the
/// log of `csa_protocol::play`'s runs; a malformed line shown escaped
/// with its error, so that `csa decode` reads it back.
impl Log for Transcript {
    fn sent(&mut self, wire_len: usize, text: &str) {
        Transcript::sent(self, wire_len, text);
    }
    fn received(&mut self, wire_len: usize, text: &str) {
        Transcript::received(self, wire_len, text);
    }
    fn received_malformed(&mut self, wire_len: usize, line: &[u8], error: &str) {
        let text = format!("{}  (malformed: {error})", show(line));
        Transcript::received(self, wire_len, &text);
    }
    fn note(&mut self, text: &str) {
        Transcript::note(self, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csa_protocol::decode::decode;
    use csa_protocol::message::ClientMessage;
    use std::sync::{Arc, Mutex};

    #[test]
    fn login_passwords_are_not_shown() {
        // csa-protocol's spec/csa.md, *Plain CSA mode*: `LOGIN <name> <password>`
        // and `LOGIN <name> <password> x1`; shown as `run_logged` shows a line sent.
        let buf = Arc::new(Mutex::new(Vec::new()));
        let mut t = Transcript::new("csa", "carol", Sink::Buffer(buf.clone()));
        let sent: [&[u8]; 2] = [b"LOGIN carol g-60-5,s3cret\r\n", b"LOGIN carol pw x1\n"];
        for line in sent {
            let body = line.strip_suffix(b"\n").unwrap();
            let body = body.strip_suffix(b"\r").unwrap_or(body);
            let m = decode::<ClientMessage>(body).unwrap();
            Log::sent(&mut t, line.len(), &m.shown().to_string());
        }
        Log::received_malformed(&mut t, 4, b"+77", "cut off");
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        assert!(!text.contains("s3cret") && !text.contains(" pw"), "{text}");
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.split_once(" -> ").or(l.split_once(" <- ")).unwrap().1)
            .collect();
        assert_eq!(
            lines,
            [
                "LOGIN carol *****",
                "LOGIN carol ***** x1",
                "+77  (malformed: cut off)"
            ]
        );
        // The real bytes are counted.
        assert_eq!(t.bytes_sent, (sent[0].len() + sent[1].len()) as u64);
    }
}
