//! `boardwire dxp`: clap and presentation over the `damexchange` crate.
//!
//! * `dxp serve` (a follower per connection, party `follower#N`) and `dxp
//!   connect` (an initiator playing `--games N`, party `initiator`, then a
//!   `result:` line) run `damexchange::play`'s runs on `damexchange::net`
//!   with the built-in player or, `--engine PROGRAM`, a Hub engine per
//!   connection (`boardwire_engines::dxp_bridge::Mover`); this file writes
//!   their transcript lines (`transcript.rs`: the wire text, its reading in
//!   parentheses, `::` notes; control bytes as `\xNN`; of the bad frames of
//!   a connection only the first 3). [`follower_callback`] and
//!   [`initiate`] are what `demo` runs too.
//! * `dxp decode` prints a raw capture, lines or a recorded capture
//!   (`boardwire_vectors::capture`) message by message
//!   (`damexchange::stream`): the reading, its JSON (`damexchange::json`)
//!   or the error with its offsets.

use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant as StdInstant};

use crate::engine_args::EngineArgs;
use board_core::draughts::{Color, Position};
use board_core::player::Player;
use boardwire_engines::dxp_bridge::{Answer, BridgePlan, HubBridge, Mover, Report};
use clap::{Args, Subcommand, ValueEnum};
use damexchange::json::Json;
use damexchange::net::{self, Activity, Limits, Served};
use damexchange::play::{self, FollowerRun, InitiatorRun, Line, Note, printable};
use damexchange::session::{Follower, FollowerConfig, GameOffer, InitiatorConfig, MatchPlan};
use damexchange::stream::{self, Directions, StreamDecoder};
use damexchange::{Leniency, Message, Name};

use crate::Failure;
use crate::batch::json_string;
use crate::record::{DxpSaver, RecordFile, Shared};
use crate::transcript::{Sink, Transcript, show};
use boardwire_vectors::capture::{self, Escapes, Payload};

pub(crate) use boardwire_engines::dxp_bridge::no_answers;
pub(crate) use damexchange::play::{FollowStats, InitiatorReport, result_text};

/// `boardwire dxp ...`
#[derive(Debug, Subcommand)]
pub enum DxpCommand {
    /// Follower: accept games and play them with the built-in player, or
    /// with a Hub engine per connection (--engine).
    ///
    /// Prints the wire transcript of every connection to stdout and keeps
    /// serving further connections and games until killed; an engine that
    /// fails resigns its game (GAMEEND 1) and ends only its connection. Prints
    /// `listening on ADDR` to stderr first (useful with port 0).
    Serve(ServeArgs),
    /// Initiator: connect to a DXP engine and play games, with the
    /// built-in player or a Hub engine (--engine; exit 1 if it fails).
    Connect(ConnectArgs),
    /// Decode DXP messages: a raw capture, one message per line, a recorded
    /// capture, or messages given with --message.
    ///
    /// Output: one line per message, `<stream offset>: <reading>` (e.g.
    /// `0: MOVE 32-28, 0 s`) or `<offset>: error: <what and where>`; for a
    /// recorded capture `<line> <direction> <reading>`. Inputs: raw bytes
    /// with NUL-terminated frames; one message per line (LF or CRLF); the
    /// recorded-capture format (`[  0.000] C->S M0000322800\0`, `\0` a
    /// NUL, one recv() chunk per line, `<EOF>` closing a direction). The
    /// format is detected unless --format says it. Exit code 2 if any
    /// message is malformed.
    Decode(DecodeArgs),
}

/// The options of `dxp serve`.
#[derive(Debug, Args)]
#[command(mut_arg("engine", |a| a.help(crate::engine_args::engine_help("A Hub engine, one started per connection (Scan: `--engine scan --engine-arg hub`),"))))]
pub struct ServeArgs {
    /// Address to listen on, HOST:PORT (a host name such as
    /// `localhost` is resolved at start; port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:27531", value_name = "HOST:PORT")]
    listen: String,
    /// Seed of the built-in player's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Our name in GAMEACC (at most 32 printable characters).
    #[arg(long, default_value = "boardwire")]
    name: String,
    /// Pause before our first move when we play White, milliseconds
    /// (clients such as pydraughts lose a MOVE that arrives together
    /// with GAMEACC). Range 0..=60000 ms.
    #[arg(long, default_value_t = 500, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(0..=60000))]
    first_move_delay_ms: u64,
    /// Refuse the opponent's take-backs (answer K1).
    #[arg(long)]
    no_take_backs: bool,
    /// Accept lower-case colours, `B` for black, trailing blanks, short
    /// names, extra bytes and a decimal thinking time (`0.5`, rounded
    /// up to whole minutes).
    #[arg(long)]
    lenient: bool,
    /// Connections served at once; more are accepted and closed at once
    /// (keep it below the file-descriptor limit, `ulimit -n`).
    #[arg(long, default_value_t = 10_000)]
    max_connections: usize,
    /// Malformed or unrecognised frames in a row after which a
    /// connection is closed (after a CHAT saying why).
    #[arg(long, default_value_t = 16)]
    max_bad_frames: u32,
    /// Stop a game (GAMEEND reason 0, no result) at our first turn after
    /// this many plies (only the side to move may send GAMEEND, so the
    /// game has N or N+1 plies). Default: no limit, unlike `dxp
    /// connect` (400): the initiator asked for the game and bounds it
    /// (GAMEEND at its turn); a follower that cut games short would
    /// spoil the initiator's match.
    #[arg(long, value_name = "PLIES")]
    max_plies: Option<usize>,
    /// Save every game in PDN to FILE as it goes (all connections into
    /// the one file: finished games first, then the games in progress
    /// with `*`). After every move FILE is a complete record, so a dropped
    /// connection or a killed server leaves a readable file; a finished
    /// game is written once and not kept in memory, a move writes only
    /// what changed (the games in progress from that game on). Bounds: a
    /// game is recorded up to 1000 plies, the games in progress hold at
    /// most 1 MiB of text (256 KiB each); past one, the game's record
    /// ends with a comment saying so and `*`, and a note goes to stderr
    /// (the game goes on). Tags: Event, Site (the
    /// peer's address), Date, Round (`-`), White, Black (the GAMEREQ and
    /// GAMEACC names), Result (`2-0`, `0-2`, `1-1`, `*`), GameType,
    /// TimeControl, FEN when the start is not the standard one. Example:
    /// `--pdn games.pdn`.
    #[arg(long, value_name = "FILE")]
    pdn: Option<std::path::PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The options of `dxp connect`.
#[derive(Debug, Args)]
#[command(mut_arg("engine", |a| a.help(crate::engine_args::engine_help("A Hub engine (Scan: `--engine scan --engine-arg hub`)"))))]
pub struct ConnectArgs {
    /// The engine's address, HOST:PORT (a host name such as `localhost`
    /// is resolved; each address it gives is tried in turn).
    address: String,
    /// Our own colour (the GAMEREQ carries the follower's, the other).
    #[arg(long, value_enum, default_value_t = ColorArg::White)]
    color: ColorArg,
    /// Thinking time per player, minutes (the GAMEREQ's thinking time).
    /// Range 0..=999 minutes.
    #[arg(long, default_value_t = 5, value_name = "MINUTES",
          value_parser = clap::value_parser!(u16).range(0..=999))]
    minutes: u16,
    /// Moves in that time (0..=999; 0 = the whole game).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=999))]
    moves: u16,
    /// Start position in PDN FEN (default: the standard start).
    #[arg(long)]
    fen: Option<String>,
    /// Number of games to complete; colours alternate after each
    /// GAMEREQ. A game the engine refuses with GAMEACC 2 does not count
    /// (the next GAMEREQ follows); 3 refusals in a row, or GAMEACC 1 or
    /// 3, stop the run (exit 1). At least 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Seed of the built-in player's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Our name in GAMEREQ.
    #[arg(long, default_value = "boardwire")]
    name: String,
    /// Stop a game (GAMEEND reason 0, no result) at our first turn after
    /// this many plies (only the side to move may send GAMEEND, so the
    /// game has N or N+1 plies). Default 400: no draw rule ends a game
    /// here (neither DXP nor the draughts rules of board-core apply
    /// repetition or the 25-move rule), and kings can move to and fro
    /// forever; 400 plies bounds an unattended run.
    #[arg(long, default_value_t = 400, value_name = "PLIES")]
    max_plies: usize,
    /// Give up (exit 1) when the engine owes an answer (GAMEACC,
    /// BACKACC, the GAMEEND reply) and sends no complete frame for this
    /// long, seconds. The wait for the engine's move is bounded by its
    /// clock instead (its remaining thinking time plus 60 s; none for
    /// --minutes 0). Range 1..=86400 seconds.
    #[arg(long, default_value_t = 120, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=86400))]
    timeout: u64,
    /// Send GAMEEND `E00` before the first GAMEREQ, for an engine that
    /// kept a game open from an earlier connection (Moby Dam refuses new
    /// games with GAMEACC 2 until it gets one).
    #[arg(long)]
    end_first: bool,
    /// Send this CHAT right after connecting (1..=126 bytes of 7-bit
    /// text).
    #[arg(long, value_name = "TEXT")]
    chat: Option<String>,
    /// Save the games in PDN to FILE as they go: after every move FILE is
    /// a complete record of the moves so far (`*` until the game ends; a
    /// finished game is written once, a move writes only what changed),
    /// so a dropped connection or a killed run leaves a readable file. A
    /// game is recorded up to 1000 plies (then its record ends with a
    /// comment saying so and `*`, and a note goes to stderr). Tags: Event,
    /// Site (the address), Date, Round (the game's number), White, Black
    /// (the GAMEREQ and GAMEACC names), Result (`2-0`, `0-2`, `1-1`, `*`),
    /// GameType, TimeControl, FEN when the start is not the standard one.
    /// Example: `--pdn match.pdn`.
    #[arg(long, value_name = "FILE")]
    pdn: Option<std::path::PathBuf>,
    /// Once, in the first game, when this many plies have been played
    /// and it is our turn, ask to take back our last move (BACKREQ).
    #[arg(long)]
    take_back_at: Option<usize>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The options of `dxp decode`.
#[derive(Debug, Args)]
pub struct DecodeArgs {
    /// The file (default: stdin).
    #[arg(conflicts_with = "message")]
    file: Option<std::path::PathBuf>,
    /// Decode this message instead of reading a file (repeatable; each is
    /// one message without its NUL, e.g. `M0000322800`; offsets count
    /// them as NUL-terminated frames).
    #[arg(long, short = 'm', value_name = "MESSAGE", allow_hyphen_values = true)]
    message: Vec<String>,
    /// The input format.
    #[arg(long, value_enum, default_value_t = DxpFormat::Auto)]
    format: DxpFormat,
    /// One JSON object per message:
    /// `{"offset":0,"type":"MOVE","time":0,"from":32,"to":28,"captured":[]}`.
    #[arg(long)]
    json: bool,
    /// Accept what real peers send beyond the spec.
    #[arg(long)]
    lenient: bool,
}

/// The bridge's plan, when `--engine` is given (a Hub engine).
fn bridge_plan(engine: EngineArgs) -> Option<BridgePlan> {
    let mut plan = BridgePlan::new(engine.spec()?, engine.options.clone());
    plan.timeouts.handshake = engine.start_timeout();
    plan.timeouts.ready = engine.start_timeout();
    Some(plan)
}

/// The input formats of `dxp decode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DxpFormat {
    /// Detect: a capture by its `[<seconds>]` records, raw by its NUL bytes,
    /// else lines.
    Auto,
    /// Raw bytes, frames ending with NUL.
    Raw,
    /// One message per line, without NULs.
    Lines,
    /// The recorded-capture format (`[t] C->S <chunk>`, NUL written `\0`).
    Capture,
}

/// A colour on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// White (moves first from the standard start).
    White,
    /// Black.
    Black,
}

/// Runs a `dxp` subcommand.
pub fn run(command: DxpCommand, out: &mut impl Write) -> Result<(), Failure> {
    match command {
        DxpCommand::Decode(a) => decode(a, out),
        DxpCommand::Serve(a) => {
            let mut config = FollowerConfig::new(parse_name(&a.name)?);
            config.first_move_delay = Duration::from_millis(a.first_move_delay_ms);
            config.take_backs = !a.no_take_backs;
            if a.lenient {
                config.leniency = Leniency::ALL;
            }
            let mut limits = Limits::default();
            limits.max_connections = a.max_connections;
            limits.driver.max_bad_frames = a.max_bad_frames.max(1);
            let pdn = a.pdn.as_deref().map(open_pdn).transpose()?;
            let plan = (a.seed, a.max_plies, limits);
            runtime()?.block_on(serve(&a.listen, config, plan, bridge_plan(a.engine), pdn))
        }
        DxpCommand::Connect(a) => {
            let start = a.fen.map(|f| f.parse::<Position>()).transpose();
            let start = start.map_err(|e| Failure::Input(format!("--fen: {e}")))?;
            let our_color = match a.color {
                ColorArg::White => Color::White,
                ColorArg::Black => Color::Black,
            };
            let (minutes, moves) = (a.minutes, a.moves);
            let request = GameOffer {
                our_color,
                minutes,
                moves,
                start,
            };
            let config = InitiatorConfig::new(parse_name(&a.name)?);
            // Checked now, not once connected (where it would stop the run
            // as a failure, exit 1): bad input, exit 2.
            if let Some(text) = &a.chat {
                damexchange::ChatText::new(text.as_str())
                    .map_err(|e| Failure::Input(format!("--chat: {e}")))?;
            }
            let plan = InitiatorPlan {
                games: a.games,
                seed: a.seed,
                max_plies: a.max_plies,
                timeout: Duration::from_secs(a.timeout),
                take_back_at: a.take_back_at,
                end_first: a.end_first,
                chat: a.chat,
                pdn: a.pdn.as_deref().map(open_pdn).transpose()?,
            };
            let engine = bridge_plan(a.engine);
            runtime()?.block_on(connect(&a.address, config, request, plan, engine, out))
        }
    }
}

/// Creates the `--pdn` file (bad input, exit 2, when it cannot be written).
fn open_pdn(path: &std::path::Path) -> Result<Shared, Failure> {
    RecordFile::shared(path).map_err(|e| Failure::Input(format!("--pdn {e}")))
}

fn parse_name(name: &str) -> Result<Name<'static>, Failure> {
    Name::new(name.to_string()).map_err(|e| Failure::Input(format!("--name: {e}")))
}

fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Failure::Output)
}

// ------------------------------------------------------------- transcript

/// One message as a transcript line: its wire text (no NUL), then its
/// reading (`describe()`, control bytes as `\xNN`).
fn message_line(m: &Message<'_>) -> String {
    let reading = printable(&m.describe().to_string());
    format!("{}  ({reading})", show(m.encoded().as_bytes()))
}

/// A run's transcript lines (`damexchange::play::Line`) written to `t`;
/// engine failures and warnings also to stderr, after `stderr` (`None`:
/// not at all).
fn write_lines(
    t: &mut Transcript,
    stderr: Option<&str>,
    lines: impl Iterator<Item = Line<Report>>,
) {
    for line in lines {
        match line {
            Line::Sent { wire_len, message } => t.sent(wire_len, &message_line(&message)),
            Line::Received { wire_len, message } => t.received(wire_len, &message_line(&message)),
            Line::Malformed(e) => t.received(0, &printable(&format!("(malformed: {e})"))),
            Line::Note(n) => {
                t.note(&printable(&n.to_string()));
                let warn = match &n {
                    Note::Source(r @ Report::Failed { .. }) => Some(r),
                    Note::Source(r @ Report::Started { unknown, .. }) if !unknown.is_empty() => {
                        Some(r)
                    }
                    _ => None,
                };
                if let (Some(r), Some(prefix)) = (warn, stderr) {
                    eprintln!("{prefix}{r}");
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------- serve

/// `dxp serve`: `seed` of the built-in players, `max_plies` (stop a game,
/// GAMEEND reason 0, at our first turn after so many plies), `limits` of
/// the driver.
async fn serve(
    listen: &str,
    session: FollowerConfig,
    (seed, max_plies, limits): (u64, Option<usize>, Limits),
    engine: Option<BridgePlan>,
    pdn: Option<Shared>,
) -> Result<(), Failure> {
    let our_name = session.name.to_string();
    let listener = crate::listen::listen(listen)
        .await
        .map_err(Failure::Input)?;
    let mut config = net::Config::new(session);
    config.limits = limits;
    let on_closed = |n, served: Served<()>| match (n, served) {
        // Accept errors: once per burst (the driver backs off and retries).
        (0, Served::Failed(e)) => eprintln!("accept failed: {e} (retrying with back-off)"),
        (n, served) => Transcript::new("dxp", format!("follower#{n}"), Sink::Stdout)
            .note(&format!("connection {served}")),
    };
    // With --engine: one engine per connection, started when it is
    // accepted (within --max-connections); it quits when the connection
    // ends.
    let connection = move |n: u64, peer: std::net::SocketAddr| {
        let t = Transcript::new("dxp", format!("follower#{n}"), Sink::Stdout);
        let prefix = format!("follower#{n}: ");
        let (mover, answers) = match &engine {
            None => {
                t.note(&format!("connection from {peer}"));
                let player = Player::new(seed ^ n.wrapping_mul(0x1000_0000_01B3));
                (Mover::Builtin(player), no_answers())
            }
            Some(engine) => {
                t.note(&format!("connection from {peer}; starting the engine"));
                let log = crate::engine_args::skipped_line_log(prefix.clone());
                let (bridge, answers) = HubBridge::spawn(engine.clone(), log);
                (Mover::Engine(bridge), answers)
            }
        };
        let (run, stderr) = (FollowerRun::new(mover, max_plies), Some(prefix));
        let saver = pdn
            .as_ref()
            .map(|f| DxpSaver::new(f.clone(), n, &our_name, &peer.to_string(), false));
        (
            answers,
            follower(FollowerConn {
                run,
                t,
                stderr,
                stats: None,
                saver,
            }),
        )
    };
    net::serve_with(listener, config, connection, on_closed)
        .await
        .map_err(Failure::Output)
}

/// One follower connection: its run (`damexchange::play::FollowerRun`),
/// its transcript (`stderr`: as [`write_lines`]) and the counts shared
/// with `demo`. The end of the transcript is written when the connection
/// ends (the callback is dropped).
struct FollowerConn {
    run: FollowerRun<Mover>,
    t: Transcript,
    stderr: Option<String>,
    stats: Option<Arc<Mutex<FollowStats>>>,
    /// `--pdn`: the connection's games.
    saver: Option<DxpSaver>,
}

impl Drop for FollowerConn {
    fn drop(&mut self) {
        self.run.end();
        self.write();
    }
}

impl FollowerConn {
    fn write(&mut self) {
        let lines = std::iter::from_fn(|| self.run.poll_line());
        write_lines(&mut self.t, self.stderr.as_deref(), lines);
    }
}

/// A follower connection's callback for `net::serve_with`, the type
/// [`follower_callback`] and the `dxp serve` connections share.
pub(crate) trait FollowerCallback:
    FnMut(
        &mut Follower<StdInstant>,
        Activity<'_, '_, Follower<StdInstant>, Answer>,
    ) -> ControlFlow<()>
    + Send
    + 'static
{
}

impl<F> FollowerCallback for F where
    F: FnMut(
            &mut Follower<StdInstant>,
            Activity<'_, '_, Follower<StdInstant>, Answer>,
        ) -> ControlFlow<()>
        + Send
        + 'static
{
}

/// The follower's callback for `net::serve_with` (with [`no_answers`]):
/// logs to `t`, plays with `player`, stops a game at our first turn after
/// `max_plies` plies, counts into `stats`.
pub(crate) fn follower_callback(
    t: Transcript,
    player: Player,
    max_plies: Option<usize>,
    stats: Option<Arc<Mutex<FollowStats>>>,
) -> impl FollowerCallback {
    let run = FollowerRun::new(Mover::Builtin(player), max_plies);
    follower(FollowerConn {
        run,
        t,
        stderr: None,
        stats,
        saver: None,
    })
}

/// The callback of one follower connection.
fn follower(mut conn: FollowerConn) -> impl FollowerCallback {
    move |f, a| {
        if let (Some(s), Activity::Event(ev)) = (&mut conn.saver, &a) {
            s.event(ev);
        }
        let flow = conn.run.handle(f, a, StdInstant::now());
        if let Some(s) = &mut conn.saver {
            s.moves(f.moves());
        }
        conn.write();
        if let Some(s) = &conn.stats
            && let Ok(mut s) = s.lock()
        {
            *s = conn.run.stats();
        }
        flow
    }
}

// ---------------------------------------------------------------- connect

/// How the initiator plays (`damexchange::play::InitiatorPlan`, and the
/// built-in player's seed).
pub(crate) struct InitiatorPlan {
    /// Games to play; colours alternate after the first.
    pub games: u32,
    /// Seed of the built-in player.
    pub seed: u64,
    /// A game is stopped (GAMEEND reason 0, no result) at our first turn
    /// after this many plies: only the side to move may send GAMEEND, so
    /// the game has N or N+1 plies.
    pub max_plies: usize,
    /// Give up when the follower does not answer a request this long.
    pub timeout: Duration,
    /// Once, in the first game, when this many plies have been played and
    /// it is our turn, ask to take back our last move (BACKREQ).
    pub take_back_at: Option<usize>,
    /// Send GAMEEND `E00` before the first GAMEREQ (for a follower that kept
    /// a game open from an earlier connection).
    pub end_first: bool,
    /// CHAT sent right after connecting.
    pub chat: Option<String>,
    /// `--pdn`: the file the games are saved to as they go.
    pub pdn: Option<Shared>,
}

/// Plays `plan.games` games as the initiator against `address` with
/// the built-in player, logging to `t`.
pub(crate) async fn initiate(
    address: &str,
    config: InitiatorConfig,
    request: GameOffer,
    plan: &InitiatorPlan,
    t: &mut Transcript,
) -> Result<InitiatorReport, String> {
    initiate_with(address, config, request, plan, None, t).await
}

/// [`initiate`] with a Hub engine (`engine`) or the built-in player, over
/// `damexchange::net::run_with` and `damexchange::play::InitiatorRun`. The
/// engine is started (its start-up done) before the connection is opened;
/// one that does not start is an `Err`.
pub(crate) async fn initiate_with(
    address: &str,
    session: InitiatorConfig,
    request: GameOffer,
    plan: &InitiatorPlan,
    engine: Option<BridgePlan>,
    t: &mut Transcript,
) -> Result<InitiatorReport, String> {
    let (mover, answers) = match engine {
        None => (Mover::Builtin(Player::new(plan.seed)), no_answers()),
        Some(p) => {
            // The start-up is bounded by the engine driver (--engine-timeout).
            let (bridge, answers, r) =
                HubBridge::start(p, crate::engine_args::skipped_line_log(String::new()))
                    .await
                    .map_err(|why| format!("engine: {why}"))?;
            // Noted; unknown options also on stderr.
            write_lines(t, Some(""), std::iter::once(Line::Note(Note::Source(r))));
            (Mover::Engine(bridge), answers)
        }
    };
    let mut games = play::InitiatorPlan::new(MatchPlan::new(plan.games, request));
    games.max_plies = Some(plan.max_plies);
    games.reply_timeout = plan.timeout;
    games.take_back_at = plan.take_back_at;
    games.end_first = plan.end_first;
    games.chat = plan.chat.clone();
    let config = games.configure(session);
    // No connection at all is bad input (exit 2), as for `csa connect`.
    let stream = net::dial(address, &config.limits)
        .await
        .map_err(|e| format!("cannot connect: {e}"))?;
    if let Ok(peer) = stream.peer_addr() {
        t.note(&format!("connected to {peer}"));
    }
    let our_name = config.session.name.to_string();
    let mut saver = plan
        .pdn
        .as_ref()
        .map(|f| DxpSaver::new(f.clone(), 0, &our_name, address, true));
    let mut run = InitiatorRun::new(games, mover);
    let ended = net::run_with(stream, config, answers, |i, a| {
        if let (Some(s), Activity::Event(ev)) = (&mut saver, &a) {
            s.event(ev);
        }
        let flow = run.handle(i, a, StdInstant::now());
        if let Some(s) = &mut saver {
            s.moves(i.moves());
        }
        write_lines(t, None, std::iter::from_fn(|| run.poll_line()));
        flow
    })
    .await
    .map_err(|e| e.to_string())?;
    let report = run.finish(ended).map_err(|e| e.to_string());
    write_lines(t, None, std::iter::from_fn(|| run.poll_line()));
    report
}

async fn connect(
    address: &str,
    config: InitiatorConfig,
    request: GameOffer,
    plan: InitiatorPlan,
    engine: Option<BridgePlan>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut t = Transcript::new("dxp", "initiator", Sink::Stdout);
    let report = initiate_with(address, config, request, &plan, engine, &mut t)
        .await
        // The peer misbehaved or went silent, or the engine did not start:
        // the run went wrong (exit 1), as for `csa connect`; exit 2 stays
        // for bad input.
        .map_err(|e| {
            if let Some(why) = e.strip_prefix("engine: ") {
                Failure::Failed(format!("error: engine: {why}"))
            } else if let Some(why) = e.strip_prefix("cannot connect: ") {
                Failure::Input(format!("cannot connect to {address}: {why}"))
            } else {
                Failure::Failed(format!("error: {address}: {e}"))
            }
        })?;
    writeln!(out, "result: {report}").map_err(Failure::Output)?;
    if let Some(why) = report.source_failed {
        return Err(Failure::Failed(format!(
            "error: engine: {why} (we resigned)"
        )));
    }
    if report.games_done < plan.games {
        let why = report.stopped.as_deref().unwrap_or("the run stopped");
        return Err(Failure::Failed(format!(
            "error: only {} of {} games completed: {why}",
            report.games_done, plan.games
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------- decode

fn decode(a: DecodeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let (messages, json, lenient) = (&a.message, a.json, a.lenient);
    let mut data = Vec::new();
    match &a.file {
        // The messages as the frames they would be on the wire.
        _ if !messages.is_empty() => {
            data = messages.iter().flat_map(|m| m.bytes().chain([0])).collect()
        }
        Some(path) => {
            data = std::fs::read(path)
                .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?
        }
        None => {
            io::stdin()
                .read_to_end(&mut data)
                .map_err(|e| Failure::Input(format!("stdin: {e}")))?;
        }
    }
    let leniency = if lenient {
        Leniency::ALL
    } else {
        Leniency::STRICT
    };
    let format = match a.format {
        _ if !messages.is_empty() => DxpFormat::Raw,
        DxpFormat::Auto if capture::is_capture(&String::from_utf8_lossy(&data)) => {
            DxpFormat::Capture
        }
        DxpFormat::Auto if data.contains(&0) => DxpFormat::Raw,
        DxpFormat::Auto => DxpFormat::Lines,
        f => f,
    };
    let mut p = Printer { json, bad: 0 };
    match format {
        DxpFormat::Raw | DxpFormat::Auto => {
            let mut stream = StreamDecoder::new(leniency);
            stream.feed(&data, |o, r| {
                p.emit(out, o, None, r.map_err(|e| e.to_string()))
            })?;
            if let Some(e) = stream.finish() {
                p.emit(out, e.offset, None, Err(e.to_string()))?;
            }
        }
        DxpFormat::Lines => {
            for (o, r) in stream::lines(&data, &leniency) {
                p.emit(out, o, None, r.map_err(|e| e.to_string()))?;
            }
        }
        DxpFormat::Capture => decode_capture(&data, leniency, &mut p, out)?,
    }
    if p.bad > 0 {
        return Err(Failure::Input(format!("{} malformed message(s)", p.bad)));
    }
    Ok(())
}

/// A recorded capture (`boardwire_vectors::capture`): one decoder per
/// direction (a frame may span recv() chunks), new ones for a new
/// connection.
fn decode_capture(
    data: &[u8],
    leniency: Leniency,
    p: &mut Printer,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut streams = Directions::new(leniency);
    let text = String::from_utf8_lossy(data);
    let (mut last_secs, mut n) = (0.0, 0);
    for (i, line) in text.lines().enumerate() {
        n = i + 1;
        let record = capture::parse_record(line, Escapes::Backslash);
        // A new connection: new streams.
        let new = match &record {
            None => capture::is_new_connection(line),
            Some(Ok(r)) => r.secs < last_secs,
            Some(Err(_)) => false,
        };
        if new {
            for (who, e) in streams.end_all() {
                p.emit(out, e.offset, Some((n - 1, &who)), Err(e.to_string()))?;
            }
        }
        let r = match record {
            None => continue, // a comment
            Some(Ok(r)) => r,
            Some(Err(e)) => {
                p.emit(out, 0, Some((n, "")), Err(e.to_string()))?;
                continue;
            }
        };
        last_secs = r.secs;
        let at = Some((n, r.who));
        let stream = streams.get(r.who);
        match &r.payload {
            Payload::Bytes(bytes) => {
                stream.feed(bytes, |o, m| {
                    p.emit(out, o, at, m.map_err(|e| e.to_string()))
                })?;
            }
            Payload::Eof(why) => {
                if let Some(e) = streams.end(r.who) {
                    p.emit(out, e.offset, at, Err(e.to_string()))?;
                }
                let note = match why.as_str() {
                    "" => "end of stream".to_string(),
                    w => format!("end of stream: {w}"),
                };
                p.note(out, n, r.who, &note)?;
            }
            Payload::Shortened { total, .. } => {
                let e = format!("shortened by the recorder ({total} bytes): cannot decode");
                p.emit(out, stream.position(), at, Err(e))?;
            }
            Payload::Note(_) => {}
        }
    }
    for (who, e) in streams.end_all() {
        p.emit(out, e.offset, Some((n, &who)), Err(e.to_string()))?;
    }
    Ok(())
}

/// What `dxp decode` prints: one line per message (`<offset>: <reading>`,
/// for a capture `<line> <direction> <reading>`), or per error; JSON
/// objects with --json. Counts the errors.
struct Printer {
    json: bool,
    bad: usize,
}

impl Printer {
    /// One message or error at stream offset `offset` (`line`: the
    /// capture's line and direction).
    fn emit(
        &mut self,
        out: &mut dyn Write,
        offset: u64,
        line: Option<(usize, &str)>,
        result: Result<Message<'_>, String>,
    ) -> Result<(), Failure> {
        // A frame of an unknown kind decodes (as `Unrecognised`) but is not
        // a DXP message: reported like a malformed one.
        let result = match result {
            Ok(m @ Message::Unrecognised(_)) => {
                Err(format!("frame at stream offset {offset}: {}", m.describe()))
            }
            r => r,
        };
        self.bad += usize::from(result.is_err());
        let text = match (&result, self.json) {
            (Ok(m), false) => m.describe().to_string(),
            (Ok(m), true) => format!("{{\"offset\":{offset},{}", &Json::new(m).to_string()[1..]),
            (Err(e), false) => format!("error: {e}"),
            (Err(e), true) => format!("{{\"offset\":{offset},\"error\":{}}}", json_string(e)),
        };
        let text = match (line, self.json) {
            (None, false) => format!("{offset}: {text}"),
            (None, true) => text,
            (Some((n, who)), false) => format!("{n:>5}  {who:<12} {text}"),
            (Some((n, who)), true) => {
                format!(
                    "{{\"line\":{n},\"direction\":{},{}",
                    json_string(who),
                    &text[1..]
                )
            }
        };
        writeln!(out, "{text}").map_err(Failure::Output)
    }

    /// A note of a capture's line `n` about direction `who`.
    fn note(&self, out: &mut dyn Write, n: usize, who: &str, note: &str) -> Result<(), Failure> {
        let line = if self.json {
            let (who, note) = (json_string(who), json_string(note));
            format!("{{\"line\":{n},\"direction\":{who},\"note\":{note}}}")
        } else {
            format!("{n:>5}  {who:<12} {note}")
        };
        writeln!(out, "{line}").map_err(Failure::Output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The readings themselves are damexchange's (its tests/readings.rs,
    /// on the spec note's examples); a line is the wire text, then them.
    #[test]
    fn transcript_lines_of_messages() {
        let line = |wire: &[u8]| message_line(&damexchange::decode(wire).unwrap());
        assert_eq!(
            line(b"B005Z"),
            "B005Z  (BACKREQ: back to move 5, black to move)"
        );
        assert_eq!(line(b"K1"), "K1  (BACKACC: refused)");
    }

    #[test]
    fn json_escapes() {
        assert_eq!(json_string("a\"b\\c\u{1}"), "\"a\\\"b\\\\c\\u0001\"");
    }
}
