//! The CSA server load test behind the `csa_load` binary: many logged-in
//! x1 clients waiting for a game while pairs of clients play complete
//! games, every line checked.
//!
//! [`run`] connects [`Options::clients`] clients to a CSA server on
//! 127.0.0.1: [`Options::games`] pairs play, the rest are *waiters*
//! (shogi-server x1 mode, `LOGIN <name> <pw> x1`, then `%%GAME <name>
//! <side>`; [`WaitGame`] says which game they wait for). Waiters use a
//! plain line client (a few hundred bytes each); players use
//! `csa_protocol`'s [`Client`] session over [`csa_protocol::net::run`].
//!
//! Each game is the fixed line [`game_line`] gives for its number (legal
//! moves from `board_core::shogi`, no position twice, no move that leaves
//! the opponent without a legal move), then the side on move resigns
//! (`%TORYO`): by the CSA protocol the server answers `#RESIGN`, `#LOSE`
//! to the resigning side and `#WIN` to the other. What is checked, per
//! client:
//!
//! - a player sees `LOGIN` accepted, its `Game_Summary` (with the side it
//!   asked for), `START`, then every move of the line in order (its own
//!   confirmed, the opponent's relayed: a lost, extra or reordered move is
//!   an error), then the result above, then `LOGOUT:completed`;
//! - a waiter sees `LOGIN:<name> OK`, `##[LOGIN] +OK x1`, nothing while it
//!   waits (with [`WaitGame::Unique`]), then `LOGOUT:completed` and the
//!   end of the stream after its `LOGOUT`.
//!
//! Every wait is bounded by [`Options::timeout`] and the whole run by
//! [`Options::max_secs`]. The move round trip is the time from our move
//! handed to the session to the server's confirmation of it.

use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::net::SocketAddr;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use board_core::shogi::{Move, Position};
use csa_protocol::message::EndReason;
use csa_protocol::net::{self, Activity, Config, Ended};
use csa_protocol::session::{Client, ClientConfig, ClientState, Event, Outcome};
use csa_protocol::types::{GameName, Password, Side, SidePreference, UserName};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::net::tcp::OwnedReadHalf;
use tokio::sync::{Semaphore, watch};

/// Longest line a waiter accepts, bytes (the CSA crates' default cap).
const MAX_LINE: usize = 8192;
/// Error messages kept in a [`Report`] (the rest are only counted).
const KEPT_ERRORS: usize = 20;

/// What the waiters wait for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitGame {
    /// `%%GAME idle-<k>-600-10 +`, a name nobody else asks for: the
    /// waiter stays waiting (until a league schedules games).
    Unique,
    /// `%%GAME <name> *` for every waiter (e.g. `floodgate-900-0`, a
    /// scheduled league game). A server that pairs such games at once
    /// sends `Game_Summary` blocks; the waiters neither agree nor reject
    /// (the server's agree timeout ends those games) and count them in
    /// [`Report::waiters_paired`].
    Named(String),
}

/// What [`run`] does. All counts are bounded by the caller.
#[derive(Debug, Clone)]
pub struct Options {
    /// The server (127.0.0.1 only: a load test is not for other hosts).
    pub addr: SocketAddr,
    /// Clients in all, players included (at least `2 * games`).
    pub clients: usize,
    /// Games played at once (each by two of the clients).
    pub games: usize,
    /// Plies of each game before the side on move resigns, 1..=200 (below
    /// the server's default `Max_Moves` of 256).
    pub moves: u32,
    /// The waiters' game.
    pub wait: WaitGame,
    /// Connections being opened and logged in at once.
    pub connect_concurrency: usize,
    /// Bound of every single wait (a connect, a reply, the opponent's move).
    pub timeout: Duration,
    /// Bound of the whole run, seconds.
    pub max_secs: u64,
    /// Login names start with this (`<prefix>w<k>` for waiters,
    /// `<prefix>b<g>`/`<prefix>v<g>` for Black/White of game `g`).
    pub prefix: String,
    /// The server's process, for its memory use (`/proc/<pid>/status`).
    pub server_pid: Option<u32>,
    /// After the games, one more x1 client sends `%%WHO` and counts the
    /// `game_waiting` lines of the answer.
    pub who: bool,
}

impl Options {
    /// Defaults for `addr`: 1,000 clients, 100 games of 40 plies, unique
    /// waiting games, 200 connects at once, 30 s per wait, 300 s in all.
    pub fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            clients: 1000,
            games: 100,
            moves: 40,
            wait: WaitGame::Unique,
            connect_concurrency: 200,
            timeout: Duration::from_secs(30),
            max_secs: 300,
            prefix: "ld".into(),
            server_pid: None,
            who: false,
        }
    }
}

/// One finished game as its two players saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// Game number (0-based).
    pub game: usize,
    /// Moves both players saw confirmed.
    pub plies: usize,
    /// Black's outcome and reason line.
    pub black: (Outcome, Option<EndReason>),
    /// White's outcome and reason line.
    pub white: (Outcome, Option<EndReason>),
}

/// Memory of a process, from `/proc/<pid>/status`, kB.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Memory {
    /// Largest `VmRSS` sampled.
    pub rss_max_kb: u64,
    /// `VmHWM` (the kernel's peak resident size) at the last sample.
    pub hwm_kb: u64,
    /// `VmRSS` once every waiter was logged in, before the games.
    pub rss_waiting_kb: u64,
}

/// What [`run`] measured and found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Clients asked for.
    pub clients: usize,
    /// Waiters logged in and waiting when the games began.
    pub waiters_ready: usize,
    /// Waiters whose every line was as expected to the end (`LOGOUT`).
    pub waiters_ok: usize,
    /// `Game_Summary` blocks the waiters received ([`WaitGame::Named`]).
    pub waiters_paired: usize,
    /// Seconds from the first connection to the last waiter logged in.
    pub login_secs: f64,
    /// Games asked for.
    pub games: usize,
    /// Games both of whose players saw every move and the expected result.
    pub games_ok: usize,
    /// Every game that ended for both players.
    pub results: Vec<GameResult>,
    /// Moves confirmed (each counted once, by the player that made it).
    pub moves: u64,
    /// Seconds from the first player's connection to the last game's end.
    pub play_secs: f64,
    /// Move round trips, microseconds: p50, p99, max.
    pub latency_us: [u64; 3],
    /// `%%WHO` (with [`Options::who`]): the `game_waiting` lines counted
    /// (the answer must end with `##[WHO] +OK` and the connection then
    /// answer `LOGOUT`), or what went wrong (also counted as an error).
    pub who: Option<Result<usize, String>>,
    /// The server's memory ([`Options::server_pid`]).
    pub server_memory: Option<Memory>,
    /// This process's memory.
    pub own_memory: Memory,
    /// Errors in all.
    pub error_count: usize,
    /// The first 20 errors.
    pub errors: Vec<String>,
    /// Seconds the whole run took.
    pub total_secs: f64,
    /// The run hit [`Options::max_secs`].
    pub timed_out: bool,
}

impl Report {
    /// Moves per second over the play phase.
    pub fn moves_per_sec(&self) -> f64 {
        if self.play_secs > 0.0 {
            self.moves as f64 / self.play_secs
        } else {
            0.0
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let waiters = self.clients - 2 * self.games;
        writeln!(
            f,
            "clients: {} ({} waiters ready, {} ok to the end; {} paired)",
            self.clients, self.waiters_ready, self.waiters_ok, self.waiters_paired
        )?;
        writeln!(f, "logins: {waiters} waiters in {:.2} s", self.login_secs)?;
        writeln!(
            f,
            "games: {} asked, {} ended, {} ok; {} moves in {:.2} s = {:.0} moves/s",
            self.games,
            self.results.len(),
            self.games_ok,
            self.moves,
            self.play_secs,
            self.moves_per_sec()
        )?;
        let [p50, p99, max] = self.latency_us;
        writeln!(
            f,
            "move round trip: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            p50 as f64 / 1e3,
            p99 as f64 / 1e3,
            max as f64 / 1e3
        )?;
        if let Some(who) = &self.who {
            match who {
                Ok(n) => writeln!(f, "%%WHO: {n} game_waiting lines")?,
                Err(e) => writeln!(f, "%%WHO: no answer: {e}")?,
            }
        }
        let mb = |kb: u64| kb as f64 / 1024.0;
        if let Some(m) = &self.server_memory {
            writeln!(
                f,
                "server memory: VmRSS {:.1} MiB with the waiters, max {:.1} MiB; VmHWM {:.1} MiB",
                mb(m.rss_waiting_kb),
                mb(m.rss_max_kb),
                mb(m.hwm_kb)
            )?;
        }
        let m = &self.own_memory;
        writeln!(
            f,
            "tool memory: VmRSS max {:.1} MiB; VmHWM {:.1} MiB",
            mb(m.rss_max_kb),
            mb(m.hwm_kb)
        )?;
        writeln!(
            f,
            "total: {:.2} s{}; errors: {}",
            self.total_secs,
            if self.timed_out {
                " (stopped at --max-secs)"
            } else {
                ""
            },
            self.error_count
        )?;
        for e in &self.errors {
            writeln!(f, "  error: {e}")?;
        }
        if self.error_count > self.errors.len() {
            writeln!(f, "  ... {} more", self.error_count - self.errors.len())?;
        }
        Ok(())
    }
}

/// Errors from all tasks: counted, the first few kept.
#[derive(Default)]
struct Errors {
    count: AtomicUsize,
    kept: Mutex<Vec<String>>,
}

impl Errors {
    fn push(&self, e: String) {
        self.count.fetch_add(1, Ordering::Relaxed);
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if kept.len() < KEPT_ERRORS {
            kept.push(e);
        }
    }
}

/// A deterministic 64-bit mix (SplitMix64's finaliser).
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The position's Zobrist key (board, hands, side to move).
fn key(p: &Position) -> u64 {
    struct Pass(u64);
    impl Hasher for Pass {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.0 = (self.0 << 8) | u64::from(*b);
            }
        }
        fn write_u64(&mut self, n: u64) {
            self.0 = n;
        }
    }
    struct B;
    impl BuildHasher for B {
        type Hasher = Pass;
        fn build_hasher(&self) -> Pass {
            Pass(0)
        }
    }
    B.hash_one(p)
}

/// The moves of game `game`, at most `plies` of them, from the start
/// position: at each ply a legal move picked by a hash of (game, ply)
/// among those that reach no position seen before in the game (so no
/// repetition rule applies) and leave the opponent a legal move (so the
/// game ends by resignation only). Shorter when no such move exists.
pub fn game_line(game: usize, plies: u32) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut seen = HashSet::new();
    seen.insert(key(&pos));
    let mut line = Vec::new();
    for ply in 0..plies {
        let legal = pos.legal_moves();
        let moves = legal.as_slice();
        if moves.is_empty() {
            break;
        }
        let start = (mix(((game as u64) << 16) | u64::from(ply)) % moves.len() as u64) as usize;
        let found = (0..moves.len()).find_map(|i| {
            let mv = moves[(start + i) % moves.len()];
            let mut next = pos;
            next.play_unchecked(mv);
            (!seen.contains(&key(&next)) && next.outcome().is_none()).then_some((mv, next))
        });
        let Some((mv, next)) = found else { break };
        seen.insert(key(&next));
        line.push(mv);
        pos = next;
    }
    line
}

/// `q`-quantile of sorted `v` (nearest rank).
fn quantile(v: &[u64], q: f64) -> u64 {
    if v.is_empty() {
        return 0;
    }
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

/// `VmRSS` and `VmHWM` of a process, kB.
pub fn read_memory(pid: Option<u32>) -> Option<(u64, u64)> {
    let path = match pid {
        Some(p) => format!("/proc/{p}/status"),
        None => "/proc/self/status".into(),
    };
    let text = std::fs::read_to_string(path).ok()?;
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// Samples memory every 100 ms into `m` until `stop`.
async fn sample_memory(pid: Option<u32>, m: Arc<Mutex<Memory>>, mut stop: watch::Receiver<bool>) {
    loop {
        if let Some((rss, hwm)) = read_memory(pid) {
            let mut m = m.lock().unwrap_or_else(|p| p.into_inner());
            m.rss_max_kb = m.rss_max_kb.max(rss);
            m.hwm_kb = hwm;
        }
        tokio::select! {
            _ = stop.changed() => return,
            () = tokio::time::sleep(Duration::from_millis(100)) => {}
        }
    }
}

/// Lines from a connection, each at most [`MAX_LINE`] bytes.
struct Lines {
    rd: OwnedReadHalf,
    buf: Vec<u8>,
}

impl Lines {
    /// The next line without its LF (and CR); `None` at the end of the stream.
    async fn next(&mut self) -> io::Result<Option<Vec<u8>>> {
        loop {
            if let Some(i) = self.buf.iter().position(|b| *b == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=i).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if self.buf.is_empty() {
                    self.buf = Vec::new();
                }
                return Ok(Some(line));
            }
            if self.buf.len() > MAX_LINE {
                return Err(io::Error::other("line over 8 KiB"));
            }
            let mut chunk = [0u8; 512];
            let n = self.rd.read(&mut chunk).await?;
            if n == 0 {
                return Ok(None);
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }
}

/// `fut` within `limit`, else an error naming `what`.
async fn within<T>(
    limit: Duration,
    what: &str,
    fut: impl Future<Output = io::Result<T>>,
) -> Result<T, String> {
    match tokio::time::timeout(limit, fut).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(format!("{what}: {e}")),
        Err(_) => Err(format!("{what}: no answer in {limit:?}")),
    }
}

/// Reads the next line and checks it is `want`.
async fn expect_line(lines: &mut Lines, limit: Duration, want: &str) -> Result<(), String> {
    match within(limit, want, lines.next()).await? {
        Some(l) if l == want.as_bytes() => Ok(()),
        Some(l) => Err(format!(
            "expected {want:?}, got {:?}",
            String::from_utf8_lossy(&l)
        )),
        None => Err(format!("expected {want:?}, the server closed")),
    }
}

/// Connects and logs in in x1 mode; the line reader and the writer.
async fn login_x1(
    addr: SocketAddr,
    name: &str,
    limit: Duration,
) -> Result<(Lines, tokio::net::tcp::OwnedWriteHalf), String> {
    let stream = within(limit, "connect", TcpStream::connect(addr)).await?;
    let _ = stream.set_nodelay(true);
    let (rd, mut wr) = stream.into_split();
    let mut lines = Lines {
        rd,
        buf: Vec::new(),
    };
    within(
        limit,
        "LOGIN",
        wr.write_all(format!("LOGIN {name} pw x1\n").as_bytes()),
    )
    .await?;
    expect_line(&mut lines, limit, &format!("LOGIN:{name} OK")).await?;
    expect_line(&mut lines, limit, "##[LOGIN] +OK x1").await?;
    Ok((lines, wr))
}

/// What a waiter ended with.
enum WaiterEnd {
    /// Every line as expected; `Game_Summary` blocks seen.
    Ok(usize),
    /// Not logged in.
    NotReady(String),
    /// Logged in, then something went wrong.
    Failed(String),
}

/// One waiter: log in, ask for the game, wait (reading) until `stop`,
/// log out and see the stream end.
#[allow(clippy::too_many_arguments)]
async fn waiter(
    addr: SocketAddr,
    name: String,
    game: String,
    unique: bool,
    limit: Duration,
    gate: Arc<Semaphore>,
    ready: Arc<AtomicUsize>,
    mut stop: watch::Receiver<bool>,
) -> WaiterEnd {
    let permit = gate.acquire().await;
    let (mut lines, mut wr) = match login_x1(addr, &name, limit).await {
        Ok(v) => v,
        Err(e) => return WaiterEnd::NotReady(format!("waiter {name}: {e}")),
    };
    if let Err(e) = within(limit, "%%GAME", wr.write_all(game.as_bytes())).await {
        return WaiterEnd::NotReady(format!("waiter {name}: {e}"));
    }
    drop(permit);
    ready.fetch_add(1, Ordering::Relaxed);
    let fail = |e: String| WaiterEnd::Failed(format!("waiter {name}: {e}"));
    let mut summaries = 0;
    // Waiting: with a unique game nothing may arrive.
    loop {
        tokio::select! {
            _ = stop.changed() => break,
            l = lines.next() => match l {
                Ok(Some(l)) if !unique => {
                    if l == b"BEGIN Game_Summary" {
                        summaries += 1;
                    }
                }
                Ok(Some(l)) => {
                    return fail(format!("unexpected line while waiting: {:?}", String::from_utf8_lossy(&l)));
                }
                Ok(None) => return fail("closed by the server while waiting".into()),
                Err(e) => return fail(format!("while waiting: {e}")),
            }
        }
    }
    if let Err(e) = within(limit, "LOGOUT", wr.write_all(b"LOGOUT\n")).await {
        return fail(e);
    }
    loop {
        match within(limit, "LOGOUT:completed", lines.next()).await {
            Ok(Some(l)) if l == b"LOGOUT:completed" => break,
            Ok(Some(l)) if !unique => {
                if l == b"BEGIN Game_Summary" {
                    summaries += 1;
                }
            }
            Ok(Some(l)) => {
                return fail(format!(
                    "expected \"LOGOUT:completed\", got {:?}",
                    String::from_utf8_lossy(&l)
                ));
            }
            Ok(None) => return fail("closed before LOGOUT:completed".into()),
            Err(e) => return fail(e),
        }
    }
    // Then the end of the stream. A waiter paired by the server
    // ([`WaitGame::Named`]) that logs out in the agree phase gets the
    // game's `REJECT:<id> by <name>` after `LOGOUT:completed` from our
    // server; such lines are let through there.
    loop {
        match within(limit, "the end of the stream after LOGOUT", lines.next()).await {
            Ok(None) => return WaiterEnd::Ok(summaries),
            Ok(Some(l)) if !unique && l.starts_with(b"REJECT:") => {}
            Ok(Some(l)) => {
                return fail(format!(
                    "a line after LOGOUT:completed: {:?}",
                    String::from_utf8_lossy(&l)
                ));
            }
            Err(e) => return fail(e),
        }
    }
}

/// One player's view of its game.
#[derive(Debug)]
struct PlayerEnd {
    game: usize,
    side: Side,
    plies: usize,
    end: Option<(Outcome, Option<EndReason>)>,
    latencies: Vec<u32>,
    ok: bool,
}

/// Stages of a player's session, in the order they must come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Login,
    LoggedIn,
    Summary,
    Started,
    Ended,
    LoggedOut,
}

/// One player of game `g`: logs in, plays the line, resigns after it,
/// logs out. Errors go to `errors`.
async fn player(
    opts: Arc<Options>,
    g: usize,
    side: Side,
    line: Arc<Vec<Move>>,
    gate: Arc<Semaphore>,
    errors: Arc<Errors>,
) -> PlayerEnd {
    let tag = if side == Side::Black { 'b' } else { 'v' };
    let who = format!("{}{tag}{g}", opts.prefix);
    let mut me = PlayerEnd {
        game: g,
        side,
        plies: 0,
        end: None,
        latencies: Vec::with_capacity(line.len() / 2 + 1),
        ok: false,
    };
    let fail = |e: String| errors.push(format!("player {who} (game {g}): {e}"));
    let stream = {
        let _permit = gate.acquire().await;
        match within(opts.timeout, "connect", TcpStream::connect(opts.addr)).await {
            Ok(s) => s,
            Err(e) => {
                fail(e);
                return me;
            }
        }
    };
    let _ = stream.set_nodelay(true);
    let (Ok(name), Ok(game)) = (
        UserName::new(who.clone()),
        GameName::new(format!("{}g{g}-600-10", opts.prefix)),
    ) else {
        fail("not a valid login or game name (check --prefix)".into());
        return me;
    };
    let mut config = ClientConfig::new(name, Password::new("pw").expect("a valid password"));
    config.x1 = true;
    config.game = Some((
        game,
        if side == Side::Black {
            SidePreference::Black
        } else {
            SidePreference::White
        },
    ));
    config.reply_timeout = opts.timeout;
    config.start_timeout = opts.timeout;
    config.clock_margin = opts.timeout;
    let mut stage = Stage::Login;
    let mut sent_at: Option<Instant> = None;
    let mut resigned = false;
    let mut problems: Vec<String> = Vec::new();
    let expected_loser = if line.len().is_multiple_of(2) {
        Side::Black
    } else {
        Side::White
    };
    let run = net::run(
        stream,
        Config::new(config),
        |client: &mut Client<Instant>, activity| {
            let now = Instant::now();
            let step = |stage: &mut Stage, next: Stage, problems: &mut Vec<String>| {
                if *stage >= next || (next as u8) != (*stage as u8) + 1 {
                    problems.push(format!("{next:?} after {stage:?}"));
                }
                *stage = next;
            };
            match activity {
                Activity::Idle if client.is_our_turn() && !resigned => {
                    let ply = client.moves().len();
                    match line.get(ply) {
                        Some(mv) => {
                            if let Err(e) = client.send_move(*mv, now) {
                                problems.push(format!("cannot send move {ply}: {e:?}"));
                                return ControlFlow::Break(());
                            }
                            sent_at = Some(now);
                        }
                        None => {
                            if let Err(e) = client.resign(now) {
                                problems.push(format!("cannot resign: {e:?}"));
                                return ControlFlow::Break(());
                            }
                            resigned = true;
                        }
                    }
                }
                Activity::Malformed { frame, .. } => problems.push(format!(
                    "malformed line {:?}",
                    String::from_utf8_lossy(frame)
                )),
                Activity::Event(e) => match e {
                    Event::LoggedIn => step(&mut stage, Stage::LoggedIn, &mut problems),
                    Event::GameSummary(_) => {
                        step(&mut stage, Stage::Summary, &mut problems);
                        if client.side() != Some(side) {
                            problems.push(format!("given side {:?}", client.side()));
                        }
                        if let Err(e) = client.agree(now) {
                            problems.push(format!("cannot agree: {e:?}"));
                            return ControlFlow::Break(());
                        }
                    }
                    Event::GameStarted(_) => step(&mut stage, Stage::Started, &mut problems),
                    Event::Move { mv, side: by, .. } => {
                        if stage != Stage::Started {
                            problems.push(format!("a move in stage {stage:?}"));
                        }
                        let n = me.plies;
                        if line.get(n) != Some(&mv) {
                            problems.push(format!("move {n} is {mv}, expected {:?}", line.get(n)));
                            return ControlFlow::Break(());
                        }
                        me.plies += 1;
                        if by == side {
                            match sent_at.take() {
                                Some(t) => me.latencies.push(
                                    u32::try_from(now.duration_since(t).as_micros())
                                        .unwrap_or(u32::MAX),
                                ),
                                None => problems.push(format!("move {n} confirmed twice")),
                            }
                        }
                    }
                    Event::GameEnded(end) => {
                        step(&mut stage, Stage::Ended, &mut problems);
                        me.end = Some((end.outcome, end.reason));
                        if client.state() != ClientState::Disconnected
                            && let Err(e) = client.logout(now)
                        {
                            problems.push(format!("cannot log out: {e:?}"));
                            return ControlFlow::Break(());
                        }
                    }
                    Event::LoggedOut => {
                        step(&mut stage, Stage::LoggedOut, &mut problems);
                        return ControlFlow::Break(());
                    }
                    Event::PeerSilent { awaiting } => {
                        problems.push(format!("server silent, awaiting {awaiting:?}"));
                        return ControlFlow::Break(());
                    }
                    Event::OurTurn { .. } => {}
                    other => problems.push(format!("unexpected {other:?}")),
                },
                _ => {}
            }
            ControlFlow::Continue(())
        },
    );
    let limit = Duration::from_secs(opts.max_secs);
    match tokio::time::timeout(limit, run).await {
        Ok(Ok(Ended::Break(()))) => {}
        Ok(Ok(Ended::Closed(why))) => problems.push(format!("connection closed: {why:?}")),
        Ok(Err(e)) => problems.push(format!("i/o: {e}")),
        Err(_) => problems.push("the run's time limit".into()),
    }
    match me.end {
        Some((outcome, reason)) => {
            let want = if side == expected_loser {
                Outcome::Lost
            } else {
                Outcome::Won
            };
            if (outcome, reason) != (want, Some(EndReason::Resign)) {
                problems.push(format!(
                    "result {outcome:?} {reason:?}, expected {want:?} by #RESIGN"
                ));
            }
        }
        None => problems.push("the game did not end".into()),
    }
    if me.plies != line.len() {
        problems.push(format!("{} moves seen, {} played", me.plies, line.len()));
    }
    if stage != Stage::LoggedOut {
        problems.push(format!("stopped at {stage:?}"));
    }
    me.ok = problems.is_empty();
    for p in problems.into_iter().take(3) {
        fail(p);
    }
    me
}

/// Runs the load test; see the module docs.
///
/// # Errors
/// Options out of range (the run does not start).
pub async fn run(opts: Options) -> Result<Report, String> {
    if !opts.addr.ip().is_loopback() {
        return Err(format!("{} is not a loopback address", opts.addr));
    }
    if opts.clients < 2 * opts.games {
        return Err(format!(
            "--clients {} is less than two per game (--games {})",
            opts.clients, opts.games
        ));
    }
    if !(1..=200).contains(&opts.moves) {
        return Err(format!("--moves {} is outside 1..=200", opts.moves));
    }
    if opts.connect_concurrency == 0 {
        return Err("--connect-concurrency must be at least 1".into());
    }
    let started = Instant::now();
    let deadline = started + Duration::from_secs(opts.max_secs);
    let opts = Arc::new(opts);
    let errors = Arc::new(Errors::default());
    let (stop_tx, stop_rx) = watch::channel(false);
    let server_mem = Arc::new(Mutex::new(Memory::default()));
    let own_mem = Arc::new(Mutex::new(Memory::default()));
    let mut samplers = vec![tokio::spawn(sample_memory(
        None,
        own_mem.clone(),
        stop_rx.clone(),
    ))];
    if let Some(pid) = opts.server_pid {
        samplers.push(tokio::spawn(sample_memory(
            Some(pid),
            server_mem.clone(),
            stop_rx.clone(),
        )));
    }
    let mut report = Report {
        clients: opts.clients,
        games: opts.games,
        ..Report::default()
    };

    // Waiters: log in, ask for a game, wait.
    let gate = Arc::new(Semaphore::new(opts.connect_concurrency));
    let ready = Arc::new(AtomicUsize::new(0));
    let n_waiters = opts.clients - 2 * opts.games;
    let (waiter_stop_tx, waiter_stop_rx) = watch::channel(false);
    let mut waiters = Vec::with_capacity(n_waiters);
    for k in 0..n_waiters {
        let (game, unique) = match &opts.wait {
            WaitGame::Unique => (format!("%%GAME {}i{k}-600-10 +\n", opts.prefix), true),
            WaitGame::Named(n) => (format!("%%GAME {n} *\n"), false),
        };
        waiters.push(tokio::spawn(waiter(
            opts.addr,
            format!("{}w{k}", opts.prefix),
            game,
            unique,
            opts.timeout,
            gate.clone(),
            ready.clone(),
            waiter_stop_rx.clone(),
        )));
    }
    // Until every waiter is in (or failed to get in).
    loop {
        let done = waiters.iter().filter(|h| h.is_finished()).count();
        if ready.load(Ordering::Relaxed) + done >= n_waiters || Instant::now() >= deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    report.login_secs = started.elapsed().as_secs_f64();
    report.waiters_ready = ready.load(Ordering::Relaxed);
    if let Some((rss, _)) = read_memory(opts.server_pid) {
        server_mem
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .rss_waiting_kb = rss;
    }
    if let Some((rss, _)) = read_memory(None) {
        own_mem
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .rss_waiting_kb = rss;
    }

    // Players: every game at once.
    let play_start = Instant::now();
    let mut players = Vec::with_capacity(2 * opts.games);
    for g in 0..opts.games {
        let line = Arc::new(game_line(g, opts.moves));
        for side in [Side::Black, Side::White] {
            players.push(tokio::spawn(player(
                opts.clone(),
                g,
                side,
                line.clone(),
                gate.clone(),
                errors.clone(),
            )));
        }
    }
    let mut ends: Vec<Option<PlayerEnd>> = Vec::with_capacity(players.len());
    for h in players {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, h).await {
            Ok(Ok(end)) => ends.push(Some(end)),
            Ok(Err(e)) => {
                errors.push(format!("a player task failed: {e}"));
                ends.push(None);
            }
            Err(_) => {
                report.timed_out = true;
                ends.push(None);
            }
        }
    }
    report.play_secs = play_start.elapsed().as_secs_f64();
    let mut latencies: Vec<u64> = Vec::new();
    for pair in ends.chunks(2) {
        let [Some(b), Some(w)] = pair else { continue };
        latencies.extend(
            b.latencies
                .iter()
                .chain(&w.latencies)
                .map(|&l| u64::from(l)),
        );
        report.moves += (b.latencies.len() + w.latencies.len()) as u64;
        if let (Some(be), Some(we)) = (b.end, w.end) {
            debug_assert_eq!((b.side, w.side), (Side::Black, Side::White));
            if b.plies != w.plies {
                errors.push(format!(
                    "game {}: Black saw {} moves, White {}",
                    b.game, b.plies, w.plies
                ));
            }
            report.results.push(GameResult {
                game: b.game,
                plies: b.plies.min(w.plies),
                black: be,
                white: we,
            });
        }
        if b.ok && w.ok && b.plies == w.plies {
            report.games_ok += 1;
        }
    }
    latencies.sort_unstable();
    report.latency_us = [
        quantile(&latencies, 0.5),
        quantile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(0),
    ];

    // %%WHO from one more client, while everybody waits.
    if opts.who {
        let name = format!("{}who", opts.prefix);
        let limit = opts.timeout;
        let who = async {
            let (mut lines, mut wr) = login_x1(opts.addr, &name, limit).await?;
            within(limit, "%%WHO", wr.write_all(b"%%WHO\n")).await?;
            let mut waiting = 0;
            loop {
                match within(limit, "##[WHO] +OK", lines.next()).await? {
                    Some(l) if l == b"##[WHO] +OK" => break,
                    Some(l) => {
                        if l.windows(12).any(|w| w == b"game_waiting") {
                            waiting += 1;
                        }
                    }
                    None => {
                        return Err(format!(
                            "closed by the server after {waiting} game_waiting lines"
                        ));
                    }
                }
            }
            // The connection must have survived its answer.
            within(limit, "LOGOUT after %%WHO", wr.write_all(b"LOGOUT\n")).await?;
            match within(limit, "LOGOUT:completed after %%WHO", lines.next()).await? {
                Some(l) if l == b"LOGOUT:completed" => Ok::<usize, String>(waiting),
                Some(l) => Err(format!(
                    "after the {waiting} game_waiting lines: {:?} instead of LOGOUT:completed",
                    String::from_utf8_lossy(&l)
                )),
                None => Err(format!(
                    "after the {waiting} game_waiting lines and +OK, closed by the server before LOGOUT:completed"
                )),
            }
        };
        let who = who.await;
        if let Err(e) = &who {
            errors.push(format!("%%WHO: {e}"));
        }
        report.who = Some(who);
    }

    // Waiters: log out, every one.
    let _ = waiter_stop_tx.send(true);
    for h in waiters {
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(opts.timeout);
        match tokio::time::timeout(left, h).await {
            Ok(Ok(WaiterEnd::Ok(paired))) => {
                report.waiters_ok += 1;
                report.waiters_paired += paired;
            }
            Ok(Ok(WaiterEnd::NotReady(e) | WaiterEnd::Failed(e))) => errors.push(e),
            Ok(Err(e)) => errors.push(format!("a waiter task failed: {e}")),
            Err(_) => {
                report.timed_out = true;
                errors.push("a waiter did not finish in time".into());
            }
        }
    }
    let _ = stop_tx.send(true);
    for s in samplers {
        let _ = s.await;
    }
    // The last samples, now that all is done.
    if let Some((rss, hwm)) = read_memory(opts.server_pid) {
        let mut m = server_mem.lock().unwrap_or_else(|p| p.into_inner());
        m.rss_max_kb = m.rss_max_kb.max(rss);
        m.hwm_kb = hwm;
    }
    if opts.server_pid.is_some() {
        report.server_memory = Some(*server_mem.lock().unwrap_or_else(|p| p.into_inner()));
    }
    report.own_memory = *own_mem.lock().unwrap_or_else(|p| p.into_inner());
    if report.timed_out {
        errors.push(format!("stopped after --max-secs {}", opts.max_secs));
    }
    report.error_count = errors.count.load(Ordering::Relaxed);
    report.errors = std::mem::take(&mut *errors.kept.lock().unwrap_or_else(|p| p.into_inner()));
    report.total_secs = started.elapsed().as_secs_f64();
    Ok(report)
}
