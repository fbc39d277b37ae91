//! `boardwire dxp`: DamExchange on real TCP sockets (tokio), driving the
//! sans-IO sessions of the `damexchange` crate, and a decoder for captures.
//!
//! * `dxp serve` — a follower: accepts connections (one task each), answers
//!   GAMEREQ, plays with the built-in player, prints the wire transcript of
//!   every connection to stdout (party `follower#N`), and keeps serving
//!   further games and connections. [`follow`] is one connection; `demo`
//!   runs it too.
//! * `dxp connect` — an initiator: plays `--games N` games against a DXP
//!   engine, prints the transcript (party `initiator`) and a `result:` line
//!   to stdout. [`initiate`] is the game loop; `demo` runs it too.
//! * `dxp decode` — decodes a raw capture (NUL-separated), one message per
//!   line, a recorded capture (`[t] C->S ...\0`, see `capture.rs`) or
//!   `--message` arguments, and prints each message in words, or its error
//!   with the offsets.
//!
//! Transcript format: see `transcript.rs` (one line per frame, the wire text
//! without its NUL, then its reading in parentheses; `::` lines are notes).

use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::time::Duration;

use board_core::draughts::{self as board, Color, Position};
use clap::{Subcommand, ValueEnum};
use damexchange::session::{
    Event, Follower, FollowerConfig, GameRequest, Initiator, InitiatorConfig, MoveRejection, Side,
};
use damexchange::{
    AcceptanceCode, BackAccCode, Framer, GameEndReason, Leniency, Message, Name, StartPosition,
    StopCode, decode_with,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;

use crate::Failure;
use crate::batch::json_string;
use crate::transcript::{Sink, Splitter, Transcript, show};
use boardwire_vectors::capture::{self, Escapes, Payload};

/// `boardwire dxp ...`
#[derive(Debug, Subcommand)]
pub enum DxpCommand {
    /// Follower: accept games and play them with the built-in player.
    ///
    /// Prints the wire transcript of every connection to stdout and keeps
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
        /// Once, in the first game, when this many plies have been played
        /// and it is our turn, ask to take back our last move (BACKREQ).
        #[arg(long)]
        take_back_at: Option<usize>,
    },
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
    Decode {
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
    },
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
        DxpCommand::Decode {
            file,
            message,
            format,
            json,
            lenient,
        } => decode(file.as_deref(), &message, format, json, lenient, out),
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
            take_back_at,
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
            let plan = InitiatorPlan {
                games,
                seed,
                max_plies,
                timeout: Duration::from_secs(timeout),
                take_back_at,
                inject_illegal: false,
            };
            runtime()?.block_on(connect(&address, config, request, plan, out))
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

/// The longest DXP frame shown as one line (a valid one is at most 128
/// bytes with its NUL).
const SHOW_CAP: usize = 512;

/// One DXP frame (NUL included) as transcript text: the wire text without
/// the NUL, then its reading.
fn frame_text(frame: &[u8], leniency: &Leniency) -> String {
    let body = frame.strip_suffix(&[0]).unwrap_or(frame);
    match decode_with(body, leniency) {
        Ok(m) => format!("{}  ({})", show(body), text_of(&m)),
        Err(e) => format!("{}  (malformed: {e})", show(body)),
    }
}

/// Logs what one party sends and receives, one line per frame.
struct Wire {
    incoming: Splitter,
    leniency: Leniency,
}

impl Wire {
    fn new(leniency: Leniency) -> Wire {
        Wire {
            incoming: Splitter::new(0, SHOW_CAP),
            leniency,
        }
    }

    fn sent(&self, t: &mut Transcript, frame: &[u8]) {
        t.sent(frame.len(), &frame_text(frame, &self.leniency));
    }

    fn received(&mut self, t: &mut Transcript, bytes: &[u8]) {
        let leniency = self.leniency;
        self.incoming
            .feed(bytes, |f| t.received(f.len(), &frame_text(f, &leniency)));
    }

    /// At the end of the connection: an unfinished frame, if any.
    fn closed(&mut self, t: &mut Transcript) {
        let rest = self.incoming.take_rest();
        if !rest.is_empty() {
            t.received(
                rest.len(),
                &format!("{}  (unfinished frame: no NUL before the end)", show(&rest)),
            );
        }
    }
}

pub(crate) fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn acceptance_text(code: AcceptanceCode) -> &'static str {
    match code {
        AcceptanceCode::Accepted => "accepted",
        AcceptanceCode::VersionMismatch => "refused: protocol version not as expected",
        AcceptanceCode::NotThisGame => "refused: not this game, another one may be asked",
        AcceptanceCode::NoGames => "refused: no games at all",
    }
}

fn reason_text(reason: GameEndReason) -> &'static str {
    match reason {
        GameEndReason::Unknown => "no reason",
        GameEndReason::SenderLoses => "sender loses",
        GameEndReason::Draw => "draw",
        GameEndReason::SenderWins => "sender wins",
    }
}

fn stop_text(stop: StopCode) -> &'static str {
    match stop {
        StopCode::PlayOn => "will play another game",
        StopCode::NoMoreGames => "wants no more games",
    }
}

fn back_acc_text(code: BackAccCode) -> &'static str {
    match code {
        BackAccCode::Accepted => "board taken back",
        BackAccCode::NotSupported => "refused",
        BackAccCode::Continue => "continue the game as it was",
    }
}

fn rejection_text(reason: MoveRejection) -> &'static str {
    match reason {
        MoveRejection::NoGame => "no game in progress",
        MoveRejection::NotYourTurn => "not the sender's turn",
        MoveRejection::Illegal => "no legal move has that from, to and captured set",
        MoveRejection::GameEnding => "it crossed our GAMEEND",
        _ => "not playable",
    }
}

/// How a game ended, from the colours' point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// This colour won.
    Win(Color),
    /// A draw.
    Draw,
    /// GAMEEND with reason 0: no result.
    NoResult,
}

/// The outcome of a GAMEEND exchange started by `by` with `reason`, `us`
/// playing `our_color`.
fn outcome(by: Side, reason: GameEndReason, our_color: Color) -> Outcome {
    let sender = match by {
        Side::Us => our_color,
        Side::Opponent => our_color.opposite(),
    };
    match reason {
        GameEndReason::SenderLoses => Outcome::Win(sender.opposite()),
        GameEndReason::SenderWins => Outcome::Win(sender),
        GameEndReason::Draw => Outcome::Draw,
        GameEndReason::Unknown => Outcome::NoResult,
    }
}

fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::Win(c) => format!("{} wins", color_name(c)),
        Outcome::Draw => "draw".into(),
        Outcome::NoResult => "no result".into(),
    }
}

/// An event as a transcript note. `before`: the position before a
/// received move; `our_color`: the colour we play in the game.
fn describe(e: &Event, before: Option<&Position>, our_color: Option<Color>) -> String {
    let side = |s: &Side| match s {
        Side::Us => "us",
        Side::Opponent => "the opponent",
    };
    match e {
        Event::GameStarted {
            our_color,
            opponent,
            start,
            minutes,
            moves,
        } => {
            let moves = match moves {
                0 => "the whole game".to_string(),
                n => format!("{n} moves"),
            };
            let start = if *start == Position::startpos() {
                "the standard start".to_string()
            } else {
                format!("set-up position {start}")
            };
            format!(
                "game started against \"{opponent}\": we play {}, {minutes} min for {moves}, from {start}",
                color_name(*our_color)
            )
        }
        Event::GameRefused { code } => format!("no game: {}", acceptance_text(*code)),
        Event::MoveReceived { mv, time } => match before {
            Some(p) => format!("opponent played {} ({time} s)", p.move_text(*mv)),
            None => format!("opponent played {}-{} ({time} s)", mv.from(), mv.to()),
        },
        Event::MoveRejected { mv, reason } => format!(
            "rejected the opponent's MOVE {}-{}: {}",
            mv.from(),
            mv.to(),
            rejection_text(*reason)
        ),
        Event::GameEnded {
            by,
            reason,
            opponent_stop,
        } => {
            let result = our_color.map_or_else(
                || "?".to_string(),
                |c| outcome_text(outcome(*by, *reason, c)),
            );
            format!(
                "game over: {result} (GAMEEND from {}: {}; the opponent {})",
                side(by),
                reason_text(*reason),
                stop_text(*opponent_stop)
            )
        }
        Event::Chat(text) => format!("chat from the opponent: {text}"),
        Event::TakenBack {
            by,
            move_number,
            color,
        } => format!(
            "take-back asked by {} done: back to move {move_number}, {} to move",
            side(by),
            color_name(*color)
        ),
        Event::TakeBackDeclined { by, code } => format!(
            "take-back asked by {} not done: {}",
            side(by),
            back_acc_text(*code)
        ),
        Event::Unexpected { message, reason } => format!("unexpected {message}: {reason}"),
        Event::Malformed(e) => format!("malformed frame: {e}"),
        other => format!("event {other:?}"),
    }
}

// ---------------------------------------------------------------- serve

async fn serve(listen: SocketAddr, config: FollowerConfig, seed: u64) -> Result<(), Failure> {
    let listener = TcpListener::bind(listen)
        .await
        .map_err(|e| Failure::Input(format!("cannot listen on {listen}: {e}")))?;
    let local = listener.local_addr().map_err(Failure::Output)?;
    eprintln!("listening on {local}");
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
            let mut t = Transcript::new("dxp", format!("follower#{connection}"), Sink::Stdout);
            t.note(&format!("connection from {peer}"));
            match follow(stream, config, player, &mut t).await {
                Ok(stats) => t.note(&format!(
                    "connection closed by the initiator after {} game(s), {} ended",
                    stats.games, stats.ended
                )),
                Err(e) => t.note(&format!("connection error: {e}")),
            }
        });
    }
}

/// What one follower connection did.
#[derive(Clone, Debug, Default)]
pub(crate) struct FollowStats {
    /// Games started.
    pub games: u32,
    /// Games ended by a GAMEEND exchange.
    pub ended: u32,
    /// Rejected moves, malformed frames and unexpected messages, as noted.
    pub problems: Vec<String>,
}

/// One follower connection (the logic of `dxp serve`): answers GAMEREQ,
/// plays with `player`, logs to `t`; returns when the initiator closes the
/// connection.
pub(crate) async fn follow(
    mut stream: TcpStream,
    config: FollowerConfig,
    mut player: Player,
    t: &mut Transcript,
) -> io::Result<FollowStats> {
    stream.set_nodelay(true)?;
    let mut wire = Wire::new(config.leniency);
    let mut follower = Follower::new(config);
    let mut buf = [0u8; 4096];
    let mut stats = FollowStats::default();
    let mut game = GameLog::default();
    loop {
        // Output, events, and our move if it is our turn.
        // Until both are drained: handling an event may queue frames.
        let mut out = Vec::new();
        let mut busy = true;
        while busy {
            busy = false;
            while let Some(frame) = follower.poll_transmit() {
                busy = true;
                wire.sent(t, frame.as_frame());
                out.extend_from_slice(frame.as_frame());
            }
            while let Some(e) = follower.poll_event() {
                busy = true;
                let note = describe(&e, game.current().as_ref(), game.our_color);
                match &e {
                    Event::GameStarted {
                        start, our_color, ..
                    } => {
                        stats.games += 1;
                        game.started(*start, *our_color);
                        t.note(&format!("game {}: {note}", stats.games));
                    }
                    // The MOVE line shows it; the PDN is in the game-over note.
                    Event::MoveReceived { mv, .. } => game.push(*mv),
                    Event::TakenBack { .. } => {
                        game.truncate(follower.history().len());
                        t.note(&note);
                    }
                    Event::MoveRejected { mv, reason } => {
                        t.note(&note);
                        stats.problems.push(note.clone());
                        // Tell the peer, end the game rather than hang.
                        let _ = follower.send_chat(&format!(
                            "error: MOVE {} rejected: {}",
                            Message::Move(*mv),
                            rejection_text(*reason)
                        ));
                        let _ = follower.end_game(GameEndReason::Unknown);
                    }
                    Event::GameEnded { .. } => {
                        stats.ended += 1;
                        t.note(&format!(
                            "game {}: {note}; moves: {}",
                            stats.games,
                            game.pdn()
                        ));
                    }
                    Event::Malformed(_) | Event::Unexpected { .. } => {
                        t.note(&note);
                        stats.problems.push(note.clone());
                    }
                    // The CHAT line shows it.
                    Event::Chat(_) => {}
                    _ => t.note(&note),
                }
            }
        }
        if !out.is_empty() {
            stream.write_all(&out).await?;
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
        let deadline = follower.poll_timeout().map(Instant::from_std);
        tokio::select! {
            read = stream.read(&mut buf) => {
                let n = read?;
                if n == 0 {
                    wire.closed(t);
                    return Ok(stats);
                }
                wire.received(t, &buf[..n]);
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
    our_color: Option<Color>,
    moves: Vec<(Position, board::Move)>,
}

impl GameLog {
    fn started(&mut self, start: Position, our_color: Color) {
        self.start = Some(start);
        self.our_color = Some(our_color);
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

/// How the initiator plays.
pub(crate) struct InitiatorPlan {
    /// Games to play; colours alternate after the first.
    pub games: u32,
    /// Seed of the built-in player.
    pub seed: u64,
    /// A game is ended as a draw (GAMEEND reason 2) after this many plies.
    pub max_plies: usize,
    /// Give up when the follower is silent this long.
    pub timeout: Duration,
    /// Once, in the first game, when this many plies have been played and
    /// it is our turn, ask to take back our last move (BACKREQ).
    pub take_back_at: Option<usize>,
    /// Test hook (`demo --fail dxp`): after our first move, also send a
    /// MOVE frame that is not legal.
    pub inject_illegal: bool,
}

/// What the initiator saw.
#[derive(Clone, Debug, Default)]
pub(crate) struct InitiatorReport {
    /// Games ended by a GAMEEND exchange.
    pub games_done: u32,
    /// Games we won, lost, drew, and ended without a result (GAMEEND
    /// reason 0).
    pub score: (u32, u32, u32, u32),
    /// Outcome of the last game.
    pub last_outcome: Option<Outcome>,
    /// Plies of the last game (after take-backs).
    pub plies: usize,
    /// Take-backs done (ours or the follower's).
    pub take_backs: u32,
    /// Rejected moves, malformed frames, unexpected messages, refused games.
    pub problems: Vec<String>,
}

/// Plays `plan.games` games as the initiator on `stream`, logging to `t`.
pub(crate) async fn initiate(
    mut stream: TcpStream,
    config: InitiatorConfig,
    mut request: GameRequest,
    plan: &InitiatorPlan,
    t: &mut Transcript,
) -> Result<InitiatorReport, String> {
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut wire = Wire::new(config.leniency);
    let mut initiator = Initiator::new(config);
    let mut player = Player::new(plan.seed);
    let mut buf = [0u8; 4096];
    let mut report = InitiatorReport::default();
    let mut game = GameLog::default();
    let mut take_back_pending = plan.take_back_at;
    let mut inject = plan.inject_illegal;
    let mut inject_now = false;
    initiator.request_game(request).map_err(|e| e.to_string())?;
    let mut game_no = 1;
    'conn: loop {
        // Until both are drained: handling an event may queue frames.
        let mut out = Vec::new();
        let mut next_game = false;
        let mut busy = true;
        while busy {
            busy = false;
            while let Some(frame) = initiator.poll_transmit() {
                busy = true;
                wire.sent(t, frame.as_frame());
                out.extend_from_slice(frame.as_frame());
                if inject_now {
                    inject_now = false;
                    // 1-2 is never a legal move: square 2 is next to 1 on the top row.
                    let bad = b"M0000010200\0";
                    wire.sent(t, bad);
                    out.extend_from_slice(bad);
                }
            }
            while let Some(e) = initiator.poll_event() {
                busy = true;
                let note = describe(&e, game.current().as_ref(), game.our_color);
                match &e {
                    // The MOVE line shows it; the PDN is in the game-over note.
                    Event::MoveReceived { mv, .. } => game.push(*mv),
                    Event::GameStarted {
                        start, our_color, ..
                    } => {
                        game.started(*start, *our_color);
                        t.note(&format!("game {game_no}: {note}"));
                    }
                    Event::GameRefused { .. } => {
                        t.note(&format!("game {game_no}: {note}"));
                        report.problems.push(note);
                        break 'conn;
                    }
                    Event::TakenBack { .. } => {
                        report.take_backs += 1;
                        game.truncate(initiator.history().len());
                        t.note(&note);
                    }
                    Event::GameEnded { by, reason, .. } => {
                        let o = outcome(*by, *reason, request.our_color);
                        match o {
                            Outcome::Win(c) if c == request.our_color => report.score.0 += 1,
                            Outcome::Win(_) => report.score.1 += 1,
                            Outcome::Draw => report.score.2 += 1,
                            Outcome::NoResult => report.score.3 += 1,
                        }
                        report.last_outcome = Some(o);
                        report.plies = game.moves.len();
                        t.note(&format!("game {game_no}: {note}; moves: {}", game.pdn()));
                        report.games_done += 1;
                        next_game = true;
                    }
                    Event::MoveRejected { .. } | Event::Malformed(_) | Event::Unexpected { .. } => {
                        t.note(&note);
                        report.problems.push(note);
                        let _ = initiator.end_game(GameEndReason::Unknown);
                    }
                    // The CHAT line shows it.
                    Event::Chat(_) => {}
                    _ => t.note(&note),
                }
            }
        }
        if !out.is_empty() {
            stream.write_all(&out).await.map_err(|e| e.to_string())?;
        }
        if next_game {
            if report.games_done >= plan.games {
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
            let plies = initiator.history().len();
            let now = Instant::now().into_std();
            if take_back_pending == Some(plies) && plies >= 2 {
                take_back_pending = None;
                let (number, color) = initiator.move_number().expect("a game");
                // Our previous move: one move number earlier, same colour.
                initiator
                    .request_take_back(number - 1, color)
                    .map_err(|e| format!("BACKREQ: {e}"))?;
                t.note(&format!(
                    "we ask to take back our last move: back to move {}, {} to move",
                    number - 1,
                    color_name(color)
                ));
                continue;
            }
            match player.choose(&position) {
                _ if plies >= plan.max_plies => {
                    t.note(&format!("{plies} plies played: we end the game as a draw"));
                    let _ = initiator.end_game(GameEndReason::Draw);
                }
                Some(mv) => {
                    initiator
                        .send_move(mv, 0, now)
                        .map_err(|e| format!("MOVE: {e}"))?;
                    game.push(mv);
                    if inject {
                        inject = false;
                        inject_now = true;
                    }
                }
                None => {
                    t.note("we have no legal move: we lose");
                    let _ = initiator.end_game(GameEndReason::SenderLoses);
                }
            }
            continue;
        }
        let read = tokio::time::timeout(plan.timeout, stream.read(&mut buf)).await;
        match read {
            Err(_) => {
                return Err(format!(
                    "no answer from the follower for {} s",
                    plan.timeout.as_secs()
                ));
            }
            Ok(Err(e)) => return Err(e.to_string()),
            Ok(Ok(0)) => {
                wire.closed(t);
                t.note("connection closed by the follower");
                break;
            }
            Ok(Ok(n)) => {
                wire.received(t, &buf[..n]);
                initiator.handle_input(&buf[..n], Instant::now().into_std());
            }
        }
    }
    let _ = stream.shutdown().await;
    Ok(report)
}

async fn connect(
    address: &str,
    config: InitiatorConfig,
    request: GameRequest,
    plan: InitiatorPlan,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let stream = TcpStream::connect(address)
        .await
        .map_err(|e| Failure::Input(format!("cannot connect to {address}: {e}")))?;
    let mut t = Transcript::new("dxp", "initiator", Sink::Stdout);
    let report = initiate(stream, config, request, &plan, &mut t)
        .await
        // The peer misbehaved or went silent: the run went wrong (exit 1),
        // as for `csa connect`; exit 2 stays for bad input.
        .map_err(|e| Failure::Failed(format!("error: {address}: {e}")))?;
    let (won, lost, drawn, no_result) = report.score;
    writeln!(
        out,
        "result: {} games, {won} won, {lost} lost, {drawn} drawn, {no_result} without result",
        report.games_done
    )
    .map_err(Failure::Output)?;
    if report.games_done < plan.games {
        return Err(Failure::Failed(format!(
            "error: only {} of {} games completed",
            report.games_done, plan.games
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------- decode

fn decode(
    file: Option<&std::path::Path>,
    messages: &[String],
    format: DxpFormat,
    json: bool,
    lenient: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut data = Vec::new();
    match file {
        // The messages as the frames they would be on the wire.
        _ if !messages.is_empty() => {
            for m in messages {
                data.extend_from_slice(m.as_bytes());
                data.push(0);
            }
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
    let format = match format {
        _ if !messages.is_empty() => DxpFormat::Raw,
        DxpFormat::Auto if capture::is_capture(&String::from_utf8_lossy(&data)) => {
            DxpFormat::Capture
        }
        DxpFormat::Auto if data.contains(&0) => DxpFormat::Raw,
        DxpFormat::Auto => DxpFormat::Lines,
        f => f,
    };
    let mut bad = 0usize;
    // `at`: the stream offset, and for a capture the line and direction.
    let mut emit = |at: (u64, Option<(usize, &str)>),
                    result: Result<Message<'_>, String>,
                    out: &mut dyn Write| {
        let (offset, line) = at;
        let text = match (&result, json) {
            (Ok(m), false) => text_of(m),
            (Ok(m), true) => json_of(offset, m),
            (Err(e), false) => format!("error: {e}"),
            (Err(e), true) => format!("{{\"offset\":{offset},\"error\":{}}}", json_string(e)),
        };
        if result.is_err() {
            bad += 1;
        }
        let text = match (line, json) {
            (None, false) => format!("{offset}: {text}"),
            (Some((n, who)), false) => format!("{n:>5}  {who:<12} {text}"),
            (None, true) => text,
            (Some((n, who)), true) => {
                format!(
                    "{{\"line\":{n},\"direction\":{},{}",
                    json_string(who),
                    &text[1..]
                )
            }
        };
        writeln!(out, "{text}").map_err(Failure::Output)
    };
    match format {
        DxpFormat::Raw | DxpFormat::Auto => {
            let mut framer = Framer::with_leniency(leniency);
            let mut input = &data[..];
            drain(&mut framer, &mut input, |o, r| emit((o, None), r, out))?;
            if let Some(e) = framer.finish() {
                emit((e.stream_offset(), None), Err(e.to_string()), out)?;
            }
        }
        DxpFormat::Lines => {
            let mut offset = 0u64;
            for line in data.split_inclusive(|&b| b == b'\n') {
                let len = line.len() as u64;
                let msg = line.strip_suffix(b"\n").unwrap_or(line);
                let msg = msg.strip_suffix(b"\r").unwrap_or(msg);
                if !msg.is_empty() {
                    let r = decode_with(msg, &leniency).map_err(|e| e.to_string());
                    emit((offset, None), r, out)?;
                }
                offset += len;
            }
        }
        DxpFormat::Capture => {
            // One framer per direction: a frame may span recv() chunks.
            let mut streams: Vec<(String, Framer)> = Vec::new();
            let text = String::from_utf8_lossy(&data);
            let mut last_secs = 0.0;
            for (i, line) in text.lines().enumerate() {
                let n = i + 1;
                let record = capture::parse_record(line, Escapes::Backslash);
                // A new connection: new streams.
                let new = match &record {
                    None => capture::is_new_connection(line),
                    Some(Ok(r)) => r.secs < last_secs,
                    Some(Err(_)) => false,
                };
                if new {
                    for (who, mut framer) in streams.drain(..) {
                        if let Some(e) = framer.finish() {
                            emit(
                                (e.stream_offset(), Some((n - 1, &who))),
                                Err(e.to_string()),
                                out,
                            )?;
                        }
                    }
                }
                let record = match record {
                    None => continue, // a comment
                    Some(Ok(r)) => r,
                    Some(Err(e)) => {
                        emit((0, Some((n, ""))), Err(e.to_string()), out)?;
                        continue;
                    }
                };
                last_secs = record.secs;
                let at = |o| (o, Some((n, record.who)));
                let k = match streams.iter().position(|(w, _)| w == record.who) {
                    Some(k) => k,
                    None => {
                        streams.push((record.who.to_string(), Framer::with_leniency(leniency)));
                        streams.len() - 1
                    }
                };
                let framer = &mut streams[k].1;
                match &record.payload {
                    Payload::Bytes(bytes) => {
                        let mut input = &bytes[..];
                        drain(framer, &mut input, |o, r| emit(at(o), r, out))?;
                    }
                    Payload::Eof(why) => {
                        let (_, mut framer) = streams.remove(k);
                        if let Some(e) = framer.finish() {
                            emit(at(e.stream_offset()), Err(e.to_string()), out)?;
                        }
                        let note = match why.as_str() {
                            "" => "end of stream".to_string(),
                            w => format!("end of stream: {w}"),
                        };
                        let note = if json {
                            format!(
                                "{{\"line\":{n},\"direction\":{},\"note\":{}}}",
                                json_string(record.who),
                                json_string(&note)
                            )
                        } else {
                            format!("{n:>5}  {:<12} {note}", record.who)
                        };
                        writeln!(out, "{note}").map_err(Failure::Output)?;
                    }
                    Payload::Shortened { total, .. } => {
                        let e = format!("shortened by the recorder ({total} bytes): cannot decode");
                        emit(at(framer.position()), Err(e), out)?;
                    }
                    Payload::Note(_) => {}
                }
            }
            for (who, mut framer) in streams {
                if let Some(e) = framer.finish() {
                    let n = text.lines().count();
                    emit(
                        (e.stream_offset(), Some((n, &who))),
                        Err(e.to_string()),
                        out,
                    )?;
                }
            }
        }
    }
    if bad > 0 {
        return Err(Failure::Input(format!("{bad} malformed message(s)")));
    }
    Ok(())
}

/// Feeds `input` to `framer`, calling `each(stream offset, message or
/// error)` for every complete frame.
fn drain(
    framer: &mut Framer,
    input: &mut &[u8],
    mut each: impl FnMut(u64, Result<Message<'_>, String>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    loop {
        let start = framer.position() - framer.buffered() as u64;
        let Some(item) = framer.next_message(input) else {
            return Ok(());
        };
        match item {
            Ok(m) => each(start, Ok(m))?,
            Err(e) => each(e.stream_offset(), Err(e.to_string()))?,
        }
    }
}

/// A message in words (`dxp decode` and the transcript's readings).
fn text_of(m: &Message<'_>) -> String {
    match m {
        Message::GameReq(r) => format!(
            "GAMEREQ: version {:02}, initiator \"{}\", follower plays {}, {} min for {}, {}",
            r.version(),
            r.initiator().as_str(),
            r.follower_color(),
            r.minutes(),
            match r.moves() {
                0 => "the whole game".to_string(),
                n => format!("{n} moves"),
            },
            match r.position() {
                StartPosition::Initial => "standard start".to_string(),
                StartPosition::Setup(s) => match damexchange::session::setup_to_position(s) {
                    Ok(p) => format!("set-up position {p}"),
                    Err(e) => format!("set-up position (invalid: {e})"),
                },
            }
        ),
        Message::GameAcc(a) => format!(
            "GAMEACC: follower \"{}\", {}",
            a.follower.as_str(),
            acceptance_text(a.code)
        ),
        Message::Move(mv) => {
            let caps: Vec<String> = mv
                .captured()
                .as_slice()
                .iter()
                .map(|s| s.number().to_string())
                .collect();
            if caps.is_empty() {
                format!("MOVE {}-{}, {} s", mv.from(), mv.to(), mv.time())
            } else {
                format!(
                    "MOVE {}x{} taking {}, {} s",
                    mv.from(),
                    mv.to(),
                    caps.join(","),
                    mv.time()
                )
            }
        }
        Message::GameEnd(e) => format!("GAMEEND: {}, {}", reason_text(e.reason), stop_text(e.stop)),
        Message::Chat(c) => format!("CHAT: {}", c.text.as_str()),
        Message::BackReq(b) => format!(
            "BACKREQ: back to move {}, {} to move",
            b.move_number(),
            b.color()
        ),
        Message::BackAcc(k) => format!("BACKACC: {}", back_acc_text(k.code)),
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
    fn transcript_readings_of_the_spec_examples() {
        let strict = Leniency::STRICT;
        // Spec note examples: `B005Z` goes back to move 5, Black to move;
        // `M001205250422122320` is 5x25 taking 4 pieces; `E00`.
        assert_eq!(
            frame_text(b"B005Z\0", &strict),
            "B005Z  (BACKREQ: back to move 5, black to move)"
        );
        assert_eq!(
            frame_text(b"M001205250422122320\0", &strict),
            "M001205250422122320  (MOVE 5x25 taking 22,12,23,20, 12 s)"
        );
        assert_eq!(
            frame_text(b"E00\0", &strict),
            "E00  (GAMEEND: no reason, will play another game)"
        );
        assert_eq!(frame_text(b"K1\0", &strict), "K1  (BACKACC: refused)");
        assert!(frame_text(b"X\0", &strict).starts_with("X  (malformed: "));
    }

    #[test]
    fn outcome_follows_the_sender() {
        use GameEndReason::*;
        assert_eq!(
            outcome(Side::Us, SenderLoses, Color::White),
            Outcome::Win(Color::Black)
        );
        assert_eq!(
            outcome(Side::Opponent, SenderLoses, Color::White),
            Outcome::Win(Color::White)
        );
        assert_eq!(
            outcome(Side::Opponent, SenderWins, Color::White),
            Outcome::Win(Color::Black)
        );
        assert_eq!(outcome(Side::Us, Draw, Color::Black), Outcome::Draw);
        assert_eq!(outcome(Side::Us, Unknown, Color::Black), Outcome::NoResult);
    }

    #[test]
    fn json_escapes() {
        assert_eq!(json_string("a\"b\\c\u{1}"), "\"a\\\"b\\\\c\\u0001\"");
    }
}
