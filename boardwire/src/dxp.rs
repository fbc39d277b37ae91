//! `boardwire dxp`: DamExchange on real TCP sockets (tokio), driving the
//! sans-IO sessions of the `damexchange` crate, and a decoder for captures.
//!
//! * `dxp serve` — a follower: accepts connections (one task each), answers
//!   GAMEREQ, plays with the built-in player, logs the wire transcript to
//!   stderr, and keeps serving further games and connections.
//! * `dxp connect` — an initiator: plays `--games N` games against a DXP
//!   engine, prints the transcript and each result to stdout.
//! * `dxp decode` — decodes a raw capture (NUL-separated) or one message per
//!   line and prints each message, or its error with the offsets.
//!
//! Transcript lines have the shape of the recordings in the test data:
//! `[  1.503] C->S M0000322800\0` (seconds since connect; one line per read
//! or write; NUL shown as `\0`).

use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::time::Duration;

use board_core::draughts::{self as board, Color, Position};
use clap::{Subcommand, ValueEnum};
use damexchange::session::{
    Event, Follower, FollowerConfig, GameRequest, Initiator, InitiatorConfig, Side,
};
use damexchange::{Framer, GameEndReason, Leniency, Message, Name, StartPosition, decode_with};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;

use crate::Failure;
use crate::batch::json_string;

/// `boardwire dxp ...`
#[derive(Debug, Subcommand)]
pub enum DxpCommand {
    /// Follower: accept games and play them with the built-in player.
    ///
    /// Logs the wire transcript of every connection to stderr and keeps
    /// serving further connections and games until killed. Prints
    /// `listening on ADDR` to stderr first (useful with port 0).
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:27531")]
        listen: SocketAddr,
        /// Seed of the built-in player's random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Our name in GAMEACC (at most 32 printable characters).
        #[arg(long, default_value = "boardwire")]
        name: String,
        /// Pause before our first move when we play White, milliseconds
        /// (clients such as pydraughts lose a MOVE that arrives together
        /// with GAMEACC).
        #[arg(long, default_value_t = 500)]
        first_move_delay_ms: u64,
        /// Refuse the opponent's take-backs (answer K1).
        #[arg(long)]
        no_take_backs: bool,
        /// Accept lower-case colours, `B` for black, trailing blanks, short
        /// names and extra bytes.
        #[arg(long)]
        lenient: bool,
    },
    /// Initiator: connect to a DXP engine and play games.
    Connect {
        /// The engine's address, HOST:PORT.
        address: String,
        /// Our own colour (the GAMEREQ carries the follower's, the other).
        #[arg(long, value_enum, default_value_t = ColorArg::White)]
        color: ColorArg,
        /// Thinking time per player, minutes (0..=999).
        #[arg(long, default_value_t = 5)]
        minutes: u16,
        /// Moves in that time (0..=999; 0 = the whole game).
        #[arg(long, default_value_t = 0)]
        moves: u16,
        /// Start position in PDN FEN (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Number of games; colours alternate after the first.
        #[arg(long, default_value_t = 1)]
        games: u32,
        /// Seed of the built-in player's random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Our name in GAMEREQ.
        #[arg(long, default_value = "boardwire")]
        name: String,
        /// End a game as a draw after this many plies.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Give up when the engine is silent this long, seconds.
        #[arg(long, default_value_t = 120)]
        timeout: u64,
    },
    /// Decode a raw DXP capture (NUL-separated) or one message per line.
    ///
    /// Prints each message with its stream offset, or its error (field and
    /// byte offset). Exit code 2 if any message is malformed.
    Decode {
        /// The file (default: stdin).
        file: Option<std::path::PathBuf>,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
        /// Accept what real peers send beyond the spec.
        #[arg(long)]
        lenient: bool,
    },
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
        DxpCommand::Decode {
            file,
            json,
            lenient,
        } => decode(file.as_deref(), json, lenient, out),
        DxpCommand::Serve {
            listen,
            seed,
            name,
            first_move_delay_ms,
            no_take_backs,
            lenient,
        } => {
            let mut config = FollowerConfig::new(parse_name(&name)?);
            config.first_move_delay = Duration::from_millis(first_move_delay_ms);
            config.take_backs = !no_take_backs;
            if lenient {
                config.leniency = Leniency::ALL;
            }
            runtime()?.block_on(serve(listen, config, seed))
        }
        DxpCommand::Connect {
            address,
            color,
            minutes,
            moves,
            fen,
            games,
            seed,
            name,
            max_plies,
            timeout,
        } => {
            let start = match fen {
                None => None,
                Some(fen) => Some(
                    fen.parse::<Position>()
                        .map_err(|e| Failure::Input(format!("--fen: {e}")))?,
                ),
            };
            let our_color = match color {
                ColorArg::White => Color::White,
                ColorArg::Black => Color::Black,
            };
            let request = GameRequest {
                our_color,
                minutes,
                moves,
                start,
            };
            let config = InitiatorConfig::new(parse_name(&name)?);
            let opts = ConnectOptions {
                games,
                seed,
                max_plies,
                timeout: Duration::from_secs(timeout),
            };
            runtime()?.block_on(connect(&address, config, request, opts, out))
        }
    }
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

// ---------------------------------------------------------------- player

/// The built-in player: legal moves only, simple but not silly. It prefers
/// moves that promote, then moves after which the opponent can capture
/// least, then (captures being compulsory) whatever is legal; ties are
/// broken at random.
pub struct Player {
    rng: u64,
}

impl Player {
    /// A player whose random choices follow `seed`.
    pub fn new(seed: u64) -> Player {
        Player {
            rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        }
    }

    fn next(&mut self) -> u64 {
        // xorshift64*
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A move for the side to move, or `None` when it has none (it lost).
    pub fn choose(&mut self, position: &Position) -> Option<board::Move> {
        let moves = position.legal_moves();
        let mut best: Option<(i64, u64, board::Move)> = None;
        for &mv in moves.iter() {
            let mut score = 0i64;
            let promotes = position
                .piece_at(mv.from())
                .is_some_and(|p| p.kind == board::PieceKind::Man)
                && match position.side_to_move() {
                    Color::White => mv.to().number() <= 5,
                    Color::Black => mv.to().number() >= 46,
                };
            if promotes {
                score += 50;
            }
            let mut next = *position;
            next.play_unchecked(mv);
            // The opponent's best capture afterwards (all legal moves capture
            // the same number when any captures).
            let reply = next.legal_moves();
            let threat = reply.first().map_or(0, |m| m.capture_count());
            score -= 10 * i64::from(threat);
            if reply.is_empty() {
                score += 1000; // the opponent is left without a move
            }
            let tie = self.next();
            if best.is_none_or(|(s, t, _)| (score, tie) > (s, t)) {
                best = Some((score, tie, mv));
            }
        }
        best.map(|(_, _, mv)| mv)
    }
}

// ------------------------------------------------------------- transcript

struct Transcript<'w, W: Write> {
    start: Instant,
    out: &'w mut W,
    /// Direction labels: (what we send, what we receive).
    labels: (&'static str, &'static str),
}

impl<W: Write> Transcript<'_, W> {
    fn line(&mut self, label: &str, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        let _ = writeln!(self.out, "[{t:8.3}] {label} {text}");
    }

    fn sent(&mut self, bytes: &[u8]) {
        let label = self.labels.0;
        self.line(label, &show(bytes));
    }

    fn received(&mut self, bytes: &[u8]) {
        let label = self.labels.1;
        self.line(label, &show(bytes));
    }

    fn note(&mut self, text: &str) {
        let _ = writeln!(self.out, "# {text}");
    }
}

/// Bytes as transcript text: NUL as `\0`, other controls and non-ASCII as `\xNN`.
fn show(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 8);
    for &b in bytes {
        match b {
            0 => s.push_str("\\0"),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(char::from(b)),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s
}

fn describe(e: &Event, position_before: Option<&Position>) -> String {
    match e {
        Event::GameStarted {
            our_color,
            opponent,
            start,
            minutes,
            moves,
        } => format!(
            "game started against {opponent:?}: we play {}, {minutes} min / {moves} moves, start {start}",
            color_name(*our_color)
        ),
        Event::MoveReceived { mv, time } => match position_before {
            Some(p) => format!("opponent played {} ({time} s)", p.move_text(*mv)),
            None => format!("opponent played {mv:?} ({time} s)"),
        },
        other => format!("{other:?}"),
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

// ---------------------------------------------------------------- serve

async fn serve(listen: SocketAddr, config: FollowerConfig, seed: u64) -> Result<(), Failure> {
    let listener = TcpListener::bind(listen)
        .await
        .map_err(|e| Failure::Input(format!("cannot listen on {listen}: {e}")))?;
    let local = listener.local_addr().map_err(Failure::Output)?;
    eprintln!("# listening on {local}");
    let mut connection = 0u64;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(x) => x,
            Err(e) => {
                eprintln!("# accept failed: {e}");
                continue;
            }
        };
        connection += 1;
        let config = config.clone();
        let player = Player::new(seed ^ connection.wrapping_mul(0x1000_0000_01B3));
        tokio::spawn(async move {
            let mut log = Vec::new();
            let result = follow(stream, config, player, &mut log, connection).await;
            let mut text = String::from_utf8_lossy(&log).into_owned();
            match result {
                Ok(()) => {
                    text.push_str(&format!("# connection {connection} from {peer}: closed\n"))
                }
                Err(e) => text.push_str(&format!(
                    "# connection {connection} from {peer}: error: {e}\n"
                )),
            }
            eprint!("{text}");
        });
    }
}

/// One follower connection: returns when the initiator closes it.
async fn follow(
    mut stream: TcpStream,
    config: FollowerConfig,
    mut player: Player,
    log: &mut Vec<u8>,
    connection: u64,
) -> io::Result<()> {
    stream.set_nodelay(true)?;
    let mut follower = Follower::new(config);
    // Log lines are flushed to stderr per read so a long game is visible live.
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    let mut games = 0u32;
    let mut game = GameLog::default();
    loop {
        // Output, events, and our move if it is our turn.
        let mut wire = Vec::new();
        while let Some(frame) = follower.poll_transmit() {
            wire.extend_from_slice(frame.as_frame());
        }
        {
            let mut t = Transcript {
                start,
                out: &mut *log,
                labels: ("S->C", "C->S"),
            };
            if !wire.is_empty() {
                t.sent(&wire);
            }
            while let Some(e) = follower.poll_event() {
                match &e {
                    Event::GameStarted { start, .. } => {
                        games += 1;
                        game.started(*start);
                        t.note(&format!(
                            "connection {connection}, game {games}: {}",
                            describe(&e, None)
                        ));
                    }
                    Event::MoveReceived { mv, .. } => {
                        t.note(&describe(&e, game.current().as_ref()));
                        game.push(*mv);
                    }
                    Event::TakenBack { .. } => {
                        game.truncate(follower.history().len());
                        t.note(&format!("{e:?}"));
                    }
                    Event::MoveRejected { mv, reason } => {
                        t.note(&format!("rejected {mv:?}: {reason:?}"));
                        // Tell the peer, end the game rather than hang.
                        let _ = follower
                            .send_chat(&format!("error: {reason:?} move {}", Message::Move(*mv)));
                        let _ = follower.end_game(GameEndReason::Unknown);
                    }
                    Event::GameEnded { .. } => {
                        t.note(&format!(
                            "connection {connection}, game {games} ended: {e:?}; moves: {}",
                            game.pdn()
                        ));
                    }
                    _ => t.note(&format!("{e:?}")),
                }
            }
        }
        if !wire.is_empty() {
            stream.write_all(&wire).await?;
        }
        if follower.is_our_turn() {
            let now = Instant::now().into_std();
            let position = *follower.position().expect("our turn implies a game");
            match player.choose(&position) {
                Some(mv) => {
                    follower
                        .send_move(mv, 0, now)
                        .map_err(|e| io::Error::other(e.to_string()))?;
                    game.push(mv);
                }
                None => {
                    let _ = follower.end_game(GameEndReason::SenderLoses);
                }
            }
            continue;
        }
        if !log.is_empty() {
            eprint!("{}", String::from_utf8_lossy(log));
            log.clear();
        }
        let deadline = follower.poll_timeout().map(Instant::from_std);
        tokio::select! {
            read = stream.read(&mut buf) => {
                let n = read?;
                if n == 0 {
                    return Ok(());
                }
                Transcript { start, out: &mut *log, labels: ("S->C", "C->S") }.received(&buf[..n]);
                follower.handle_input(&buf[..n], Instant::now().into_std());
            }
            () = sleep_until(deadline) => {
                follower.handle_timeout(Instant::now().into_std());
            }
        }
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The moves of the current game with the position before each, for PDN.
#[derive(Default)]
struct GameLog {
    start: Option<Position>,
    moves: Vec<(Position, board::Move)>,
}

impl GameLog {
    fn started(&mut self, start: Position) {
        self.start = Some(start);
        self.moves.clear();
    }

    fn current(&self) -> Option<Position> {
        match self.moves.last() {
            Some((p, m)) => {
                let mut p = *p;
                p.play_unchecked(*m);
                Some(p)
            }
            None => self.start,
        }
    }

    fn push(&mut self, mv: board::Move) {
        if let Some(before) = self.current() {
            self.moves.push((before, mv));
        }
    }

    fn truncate(&mut self, plies: usize) {
        self.moves.truncate(plies);
    }

    fn pdn(&self) -> String {
        self.moves
            .iter()
            .map(|(p, m)| p.move_text(*m).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

// ---------------------------------------------------------------- connect

struct ConnectOptions {
    games: u32,
    seed: u64,
    max_plies: usize,
    timeout: Duration,
}

async fn connect(
    address: &str,
    config: InitiatorConfig,
    request: GameRequest,
    opts: ConnectOptions,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut stream = TcpStream::connect(address)
        .await
        .map_err(|e| Failure::Input(format!("cannot connect to {address}: {e}")))?;
    stream.set_nodelay(true).map_err(Failure::Output)?;
    let mut initiator = Initiator::new(config);
    let mut player = Player::new(opts.seed);
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    let mut games_done = 0u32;
    let mut request = request;
    let mut log: Vec<u8> = Vec::new();
    let mut game = GameLog::default();
    let mut score = (0u32, 0u32, 0u32); // won, lost, other
    initiator
        .request_game(request)
        .map_err(|e| Failure::Input(e.to_string()))?;
    let mut game_no = 1;
    'conn: loop {
        let mut wire = Vec::new();
        while let Some(frame) = initiator.poll_transmit() {
            wire.extend_from_slice(frame.as_frame());
        }
        let mut t = Transcript {
            start,
            out: &mut log,
            labels: ("I->F", "F->I"),
        };
        if !wire.is_empty() {
            t.sent(&wire);
        }
        let mut next_game = false;
        while let Some(e) = initiator.poll_event() {
            match &e {
                Event::MoveReceived { mv, .. } => {
                    t.note(&describe(&e, game.current().as_ref()));
                    game.push(*mv);
                }
                Event::GameStarted { start, .. } => {
                    game.started(*start);
                    t.note(&format!("game {game_no}: {}", describe(&e, None)));
                }
                Event::GameRefused { code } => {
                    t.note(&format!("game {game_no} refused: {code:?}"));
                    break 'conn;
                }
                Event::TakenBack { .. } => {
                    game.truncate(initiator.history().len());
                    t.note(&format!("{e:?}"));
                }
                Event::GameEnded { by, reason, .. } => {
                    let result = match (by, reason) {
                        (Side::Us, GameEndReason::SenderLoses)
                        | (Side::Opponent, GameEndReason::SenderWins) => {
                            score.1 += 1;
                            "we lost"
                        }
                        (Side::Us, GameEndReason::SenderWins)
                        | (Side::Opponent, GameEndReason::SenderLoses) => {
                            score.0 += 1;
                            "we won"
                        }
                        (_, GameEndReason::Draw) => {
                            score.2 += 1;
                            "draw"
                        }
                        _ => {
                            score.2 += 1;
                            "ended without a result"
                        }
                    };
                    t.note(&format!(
                        "game {game_no} result: {result} (GAMEEND by {by:?}, reason {reason:?}); moves: {}",
                        game.pdn()
                    ));
                    games_done += 1;
                    next_game = true;
                }
                Event::MoveRejected { .. } | Event::Malformed(_) | Event::Unexpected { .. } => {
                    t.note(&format!("error: {e:?}"));
                    let _ = initiator.end_game(GameEndReason::Unknown);
                }
                _ => t.note(&format!("{e:?}")),
            }
        }
        out.write_all(&log).map_err(Failure::Output)?;
        log.clear();
        if !wire.is_empty() {
            stream.write_all(&wire).await.map_err(Failure::Output)?;
        }
        if next_game {
            if games_done >= opts.games {
                break;
            }
            game_no += 1;
            request.our_color = request.our_color.opposite();
            if initiator.request_game(request).is_err() {
                break;
            }
            continue;
        }
        if initiator.is_our_turn() {
            let position = *initiator.position().expect("a game");
            let now = Instant::now().into_std();
            match player.choose(&position) {
                _ if initiator.history().len() >= opts.max_plies => {
                    let _ = initiator.end_game(GameEndReason::Draw);
                }
                Some(mv) => {
                    let _ = writeln!(out, "# we play {}", position.move_text(mv));
                    initiator
                        .send_move(mv, 0, now)
                        .map_err(|e| Failure::Input(e.to_string()))?;
                    game.push(mv);
                }
                None => {
                    let _ = initiator.end_game(GameEndReason::SenderLoses);
                }
            }
            continue;
        }
        let read = tokio::time::timeout(opts.timeout, stream.read(&mut buf)).await;
        match read {
            Err(_) => {
                return Err(Failure::Input(format!(
                    "no answer from {address} for {} s",
                    opts.timeout.as_secs()
                )));
            }
            Ok(Err(e)) => return Err(Failure::Output(e)),
            Ok(Ok(0)) => {
                let _ = writeln!(out, "# connection closed by the engine");
                break;
            }
            Ok(Ok(n)) => {
                Transcript {
                    start,
                    out: &mut log,
                    labels: ("I->F", "F->I"),
                }
                .received(&buf[..n]);
                initiator.handle_input(&buf[..n], Instant::now().into_std());
            }
        }
    }
    let _ = stream.shutdown().await;
    writeln!(
        out,
        "result: {} games, {} won, {} lost, {} other",
        games_done, score.0, score.1, score.2
    )
    .map_err(Failure::Output)?;
    if games_done < opts.games {
        return Err(Failure::Input(format!(
            "only {games_done} of {} games completed",
            opts.games
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------- decode

fn decode(
    file: Option<&std::path::Path>,
    json: bool,
    lenient: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut data = Vec::new();
    match file {
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
    let mut bad = 0usize;
    let mut emit = |offset: u64, result: Result<Message<'_>, String>, out: &mut dyn Write| {
        let line = match (&result, json) {
            (Ok(m), false) => format!("{offset}: {}", text_of(m)),
            (Ok(m), true) => json_of(offset, m),
            (Err(e), false) => format!("{offset}: error: {e}"),
            (Err(e), true) => format!("{{\"offset\":{offset},\"error\":{}}}", json_string(e)),
        };
        if result.is_err() {
            bad += 1;
        }
        writeln!(out, "{line}").map_err(Failure::Output)
    };
    if data.contains(&0) {
        // A raw capture: NUL-terminated frames.
        let mut framer = Framer::with_leniency(leniency);
        let mut input = &data[..];
        loop {
            let start = framer.position() - framer.buffered() as u64;
            let Some(item) = framer.next_message(&mut input) else {
                break;
            };
            match item {
                Ok(m) => emit(start, Ok(m), out)?,
                Err(e) => emit(e.stream_offset(), Err(e.to_string()), out)?,
            }
        }
        if let Some(e) = framer.finish() {
            emit(e.stream_offset(), Err(e.to_string()), out)?;
        }
    } else {
        // One message per line.
        let mut offset = 0u64;
        for line in data.split_inclusive(|&b| b == b'\n') {
            let len = line.len() as u64;
            let msg = line.strip_suffix(b"\n").unwrap_or(line);
            let msg = msg.strip_suffix(b"\r").unwrap_or(msg);
            if !msg.is_empty() {
                match decode_with(msg, &leniency) {
                    Ok(m) => emit(offset, Ok(m), out)?,
                    Err(e) => emit(offset, Err(e.to_string()), out)?,
                }
            }
            offset += len;
        }
    }
    if bad > 0 {
        return Err(Failure::Input(format!("{bad} malformed message(s)")));
    }
    Ok(())
}

fn text_of(m: &Message<'_>) -> String {
    match m {
        Message::GameReq(r) => format!(
            "GAMEREQ version {:02}, initiator {:?}, follower plays {}, {} min / {} moves, {}",
            r.version(),
            r.initiator().as_str(),
            r.follower_color(),
            r.minutes(),
            r.moves(),
            match r.position() {
                StartPosition::Initial => "standard start".to_string(),
                StartPosition::Setup(s) => match damexchange::session::setup_to_position(s) {
                    Ok(p) => format!("set-up {p}"),
                    Err(e) => format!("set-up (invalid position: {e})"),
                },
            }
        ),
        Message::GameAcc(a) => format!(
            "GAMEACC follower {:?}, code {} ({:?})",
            a.follower.as_str(),
            a.code.code(),
            a.code
        ),
        Message::Move(mv) => {
            let caps: Vec<String> = mv
                .captured()
                .as_slice()
                .iter()
                .map(|s| s.number().to_string())
                .collect();
            if caps.is_empty() {
                format!("MOVE {}-{} ({} s)", mv.from(), mv.to(), mv.time())
            } else {
                format!(
                    "MOVE {}x{} captures {} ({} s)",
                    mv.from(),
                    mv.to(),
                    caps.join(","),
                    mv.time()
                )
            }
        }
        Message::GameEnd(e) => format!(
            "GAMEEND reason {} ({:?}), stop {} ({:?})",
            e.reason.code(),
            e.reason,
            e.stop.code(),
            e.stop
        ),
        Message::Chat(c) => format!("CHAT {:?}", c.text.as_str()),
        Message::BackReq(b) => format!("BACKREQ move {}, {} to move", b.move_number(), b.color()),
        Message::BackAcc(k) => format!("BACKACC code {} ({:?})", k.code.code(), k.code),
    }
}

fn json_of(offset: u64, m: &Message<'_>) -> String {
    let body = match m {
        Message::GameReq(r) => {
            let position = match r.position() {
                StartPosition::Initial => "\"A\"".to_string(),
                StartPosition::Setup(s) => {
                    let board: String = s
                        .board
                        .iter()
                        .map(|&c| char::from(damexchange::board_letter(c)))
                        .collect();
                    format!(
                        "{{\"side_to_move\":\"{}\",\"board\":\"{board}\"}}",
                        char::from(s.side_to_move.letter())
                    )
                }
            };
            format!(
                "\"type\":\"GAMEREQ\",\"version\":{},\"initiator\":{},\"follower_color\":\"{}\",\"minutes\":{},\"moves\":{},\"position\":{position}",
                r.version(),
                json_string(r.initiator().as_str()),
                char::from(r.follower_color().letter()),
                r.minutes(),
                r.moves()
            )
        }
        Message::GameAcc(a) => format!(
            "\"type\":\"GAMEACC\",\"follower\":{},\"code\":{}",
            json_string(a.follower.as_str()),
            a.code.code()
        ),
        Message::Move(mv) => {
            let caps: Vec<String> = mv
                .captured()
                .as_slice()
                .iter()
                .map(|s| s.number().to_string())
                .collect();
            format!(
                "\"type\":\"MOVE\",\"time\":{},\"from\":{},\"to\":{},\"captured\":[{}]",
                mv.time(),
                mv.from(),
                mv.to(),
                caps.join(",")
            )
        }
        Message::GameEnd(e) => format!(
            "\"type\":\"GAMEEND\",\"reason\":{},\"stop\":{}",
            e.reason.code(),
            e.stop.code()
        ),
        Message::Chat(c) => format!(
            "\"type\":\"CHAT\",\"text\":{}",
            json_string(c.text.as_str())
        ),
        Message::BackReq(b) => format!(
            "\"type\":\"BACKREQ\",\"move_number\":{},\"color\":\"{}\"",
            b.move_number(),
            char::from(b.color().letter())
        ),
        Message::BackAcc(k) => format!("\"type\":\"BACKACC\",\"code\":{}", k.code.code()),
    };
    format!("{{\"offset\":{offset},{body}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_promotes_and_avoids_hanging_pieces() {
        // White man on 6 can promote on 1.
        let pos: Position = "W:W6,50:B45".parse().unwrap();
        let mut player = Player::new(3);
        let mv = player.choose(&pos).unwrap();
        assert_eq!(mv.to().number(), 1);
        // No legal move: None.
        let lost: Position = "W:W:B10".parse().unwrap();
        assert!(player.choose(&lost).is_none());
    }

    #[test]
    fn show_escapes() {
        assert_eq!(show(b"E00\0M\x01"), "E00\\0M\\x01");
    }

    #[test]
    fn json_escapes() {
        assert_eq!(json_string("a\"b\\c\u{1}"), "\"a\\\"b\\\\c\\u0001\"");
    }
}
