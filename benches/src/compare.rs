//! `compare`: board-core's perft side by side with its peers, in one run.
//!
//! For each position of [`CASES`] the runners — board-core first, then the
//! Rust peers linked into this binary, then the external peers whose
//! binaries were given — count the same perft (single thread, bulk
//! counting at the last ply, no hashing), interleaved: `rounds` rounds,
//! each runner timed `reps` times per round, the runners' order rotated
//! from round to round so that no runner always runs first after a
//! cache-cold switch. Every run's node count is checked against the
//! published count; a runner that counts differently is reported as an
//! error, never timed. The result is one markdown table (median and best
//! wall-clock time, nodes per second, our speed over the peer's) with the
//! machine it ran on, and the same as JSON.
//!
//! External peers, built by hand as `benches/README.md` describes (never
//! committed), and how each is timed:
//! - Gigantua (chess): `PATH <FEN> <depth> <nodes>`, which counts once and
//!   exits 0 when the count is `nodes` (9 otherwise); timed by us, process
//!   start included (its tables are static data).
//! - Moby Dam (draughts): its `test/perft -b -c <depth> <FEN>`, which
//!   counts depths 1 to `depth` and prints `perft(<d>) <nodes> nodes, <s>
//!   sec, …` for each; the time is its own for the last depth (resolution
//!   10 ms).
//! - YaneuraOu (shogi): a USI session (`usi`, `isready`, `position sfen
//!   …`), then `go perft <depth>` per run, which prints one `<move>: <n>`
//!   line per root move, `Elapsed Time = <ms> [ms]`, `<n> NPS`, an empty
//!   line and `Nodes searched: <total>` (its `source/perft.h` and
//!   `usi.cpp`); timed by us from the command to that last line, start-up
//!   excluded, and the count is the one on that line (no other line ends a
//!   run: a root move's count or the NPS figure may equal the total).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The three games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    /// International draughts (10x10).
    Draughts,
    /// Chess.
    Chess,
    /// Shogi.
    Shogi,
}

impl Game {
    /// The game's name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Game::Draughts => "draughts",
            Game::Chess => "chess",
            Game::Shogi => "shogi",
        }
    }
}

/// One perft to time: a position, a depth and the published leaf count.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    /// The game.
    pub game: Game,
    /// A short name of the position (`startpos`, `kiwipete`, …).
    pub name: &'static str,
    /// PDN FEN, FEN or SFEN.
    pub position: &'static str,
    /// Plies.
    pub depth: u32,
    /// Leaves at `depth`, from the published tables cited in [`CASES`].
    pub nodes: u64,
}

const DRAUGHTS_START: &str = "W:W31-50:B1-20";
const WOLDOUBY: &str = "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26";
const KINGS: &str = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46";
const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MAX593: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";

/// The positions of issue 28's table at full depth.
///
/// Counts: draughts from Moby Dam's `test/doperft` and Aart Bik's
/// published BikDam perft (board-core/tests/data/perft-draughts.txt);
/// chess from the Chess Programming Wiki's perft results page; shogi from
/// the published even-game perft table (start position) and YaneuraOu's
/// 593-move position (board-core's shogi perft vectors).
pub const CASES: &[Case] = &[
    case(Game::Draughts, "startpos", DRAUGHTS_START, 9, 41_022_423),
    case(Game::Draughts, "woldouby", WOLDOUBY, 15, 346_184_885),
    case(Game::Draughts, "kings", KINGS, 8, 86_724_219),
    case(Game::Chess, "startpos", CHESS_START, 6, 119_060_324),
    case(Game::Chess, "kiwipete", KIWIPETE, 5, 193_690_690),
    case(Game::Shogi, "startpos", SHOGI_START, 5, 19_861_490),
    case(Game::Shogi, "max593", MAX593, 3, 53_393_368),
];

/// The same positions at depths that take milliseconds (`--quick`, and the
/// tests), counts from the same tables.
pub const QUICK_CASES: &[Case] = &[
    case(Game::Draughts, "startpos", DRAUGHTS_START, 6, 167_140),
    case(Game::Draughts, "woldouby", WOLDOUBY, 10, 88_050),
    case(Game::Draughts, "kings", KINGS, 4, 5_432),
    case(Game::Chess, "startpos", CHESS_START, 4, 197_281),
    case(Game::Chess, "kiwipete", KIWIPETE, 3, 97_862),
    case(Game::Shogi, "startpos", SHOGI_START, 3, 25_470),
    case(Game::Shogi, "max593", MAX593, 1, 593),
];

const fn case(
    game: Game,
    name: &'static str,
    position: &'static str,
    depth: u32,
    nodes: u64,
) -> Case {
    Case {
        game,
        name,
        position,
        depth,
        nodes,
    }
}

/// Something that counts a case's perft and says how long it took.
pub trait Runner {
    /// The name in the table (`board-core`, `cozy-chess 0.3`, `Moby Dam`).
    fn name(&self) -> &str;
    /// One count: (leaves, seconds).
    fn run(&mut self) -> Result<(u64, f64), String>;
}

/// A perft linked into this binary, timed with the wall clock.
pub struct InProcess {
    name: String,
    count: Box<dyn FnMut() -> u64>,
}

impl InProcess {
    /// `count` returns the leaf count; it should have read its position
    /// already (only the count is timed).
    pub fn new(name: impl Into<String>, count: Box<dyn FnMut() -> u64>) -> Self {
        InProcess {
            name: name.into(),
            count,
        }
    }
}

impl Runner for InProcess {
    fn name(&self) -> &str {
        &self.name
    }
    fn run(&mut self) -> Result<(u64, f64), String> {
        let t = Instant::now();
        let n = std::hint::black_box((self.count)());
        Ok((n, t.elapsed().as_secs_f64()))
    }
}

/// board-core's perft of `case`.
pub fn ours(case: &Case) -> Result<InProcess, String> {
    let depth = case.depth;
    let count: Box<dyn FnMut() -> u64> = match case.game {
        Game::Draughts => {
            let p: board_core::draughts::Position =
                case.position.parse().map_err(|e| format!("{e:?}"))?;
            Box::new(move || board_core::draughts::perft(std::hint::black_box(&p), depth))
        }
        Game::Chess => {
            let p: board_core::chess::Position =
                case.position.parse().map_err(|e| format!("{e:?}"))?;
            Box::new(move || board_core::chess::perft(std::hint::black_box(&p), depth))
        }
        Game::Shogi => {
            let p = board_core::shogi::Position::from_sfen(case.position)
                .map_err(|e| format!("{e:?}"))?;
            Box::new(move || board_core::shogi::perft(std::hint::black_box(&p), depth))
        }
    };
    Ok(InProcess::new("board-core", count))
}

/// An external peer given on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum External {
    /// Gigantua (chess).
    Gigantua,
    /// Moby Dam's `test/perft` (draughts).
    MobyDam,
    /// YaneuraOu, a USI engine (shogi).
    YaneuraOu,
}

impl External {
    /// The game the peer plays.
    pub fn game(self) -> Game {
        match self {
            External::Gigantua => Game::Chess,
            External::MobyDam => Game::Draughts,
            External::YaneuraOu => Game::Shogi,
        }
    }

    /// The peer's name in the table.
    pub fn name(self) -> &'static str {
        match self {
            External::Gigantua => "Gigantua",
            External::MobyDam => "Moby Dam",
            External::YaneuraOu => "YaneuraOu",
        }
    }
}

/// How long an external peer may take for one count before it is given up.
pub const EXTERNAL_TIMEOUT: Duration = Duration::from_secs(600);

/// An external peer's runner for `case` (the binary at `path`).
pub fn external(peer: External, path: &str, case: &Case) -> Result<Box<dyn Runner>, String> {
    Ok(match peer {
        External::Gigantua | External::MobyDam => Box::new(OneShot {
            peer,
            path: path.to_owned(),
            case: *case,
        }),
        External::YaneuraOu => Box::new(Usi::start(path, case)?),
    })
}

/// A peer run once per count (Gigantua, Moby Dam).
struct OneShot {
    peer: External,
    path: String,
    case: Case,
}

impl Runner for OneShot {
    fn name(&self) -> &str {
        self.peer.name()
    }
    fn run(&mut self) -> Result<(u64, f64), String> {
        let depth = self.case.depth.to_string();
        let nodes = self.case.nodes.to_string();
        let args: Vec<&str> = match self.peer {
            External::Gigantua => vec![self.case.position, &depth, &nodes],
            _ => vec!["-b", "-c", &depth, self.case.position],
        };
        let t = Instant::now();
        let out = Command::new(&self.path)
            .args(&args)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("{}: cannot run {}: {e}", self.peer.name(), self.path))?;
        let wall = t.elapsed().as_secs_f64();
        match self.peer {
            External::Gigantua => match out.status.code() {
                Some(0) => Ok((self.case.nodes, wall)),
                Some(9) => Err(format!(
                    "Gigantua did not count {} leaves (it exits 9 on another count)",
                    self.case.nodes
                )),
                _ => Err(format!("Gigantua failed: {}", out.status)),
            },
            _ => {
                let text = String::from_utf8_lossy(&out.stdout);
                let last = text
                    .lines()
                    .filter_map(parse_mobydam_line)
                    .find(|&(d, _, _)| d == self.case.depth);
                match last {
                    Some((_, n, secs)) => Ok((n, secs)),
                    None => Err(format!(
                        "Moby Dam printed no `perft({}) …` line ({})",
                        self.case.depth, out.status
                    )),
                }
            }
        }
    }
}

/// One line of Moby Dam's `test/perft`, printed as `perft(%d) %llu nodes,
/// %.2f sec, %.0f kN/s, bulk|nobulk`: (depth, nodes, seconds).
pub fn parse_mobydam_line(line: &str) -> Option<(u32, u64, f64)> {
    let rest = line.trim().strip_prefix("perft(")?;
    let (depth, rest) = rest.split_once(')')?;
    let mut words = rest.split_whitespace();
    let nodes = words.next()?.parse().ok()?;
    if words.next()? != "nodes," {
        return None;
    }
    let secs = words.next()?.parse().ok()?;
    if words.next()? != "sec," {
        return None;
    }
    Some((depth.parse().ok()?, nodes, secs))
}

/// The total of a USI engine's `go perft` answer: its `Nodes searched: N`
/// line (YaneuraOu's and Stockfish's wording; case, and blanks around the
/// colon, ignored). `None` for any other line, such as YaneuraOu's
/// per-root-move `7g7f: 1234`, `Elapsed Time = 12 [ms]` or `123456 NPS`.
pub fn parse_nodes_searched(line: &str) -> Option<u64> {
    let line = line.trim();
    let head = line.get(..14)?;
    if !head.eq_ignore_ascii_case("nodes searched") {
        return None;
    }
    let digits = line[14..].trim_start().strip_prefix(':')?.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Lines of a USI engine's output that may wait to be read.
const USI_QUEUE: usize = 1024;
/// Bytes kept of one line of a USI engine's output.
const USI_LINE_CAP: usize = 64 * 1024;

/// A USI engine kept running for all the counts of one case.
struct Usi {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    case: Case,
}

impl Usi {
    fn start(path: &str, case: &Case) -> Result<Usi, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("YaneuraOu: cannot run {path}: {e}"))?;
        let stdin = child.stdin.take().ok_or("YaneuraOu: no stdin")?;
        let stdout = child.stdout.take().ok_or("YaneuraOu: no stdout")?;
        // Bounded: at most USI_QUEUE lines wait, each cut at USI_LINE_CAP
        // bytes (the rest of an over-long line is read and dropped).
        let (tx, lines) = mpsc::sync_channel(USI_QUEUE);
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match (&mut r)
                    .take(USI_LINE_CAP as u64)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                if buf.last() != Some(&b'\n') && buf.len() == USI_LINE_CAP {
                    let mut rest = Vec::new();
                    loop {
                        rest.clear();
                        match (&mut r)
                            .take(USI_LINE_CAP as u64)
                            .read_until(b'\n', &mut rest)
                        {
                            Ok(n) if n > 0 && rest.last() != Some(&b'\n') => {}
                            _ => break,
                        }
                    }
                }
                let line = String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\r', '\n'])
                    .to_owned();
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut usi = Usi {
            name: "YaneuraOu".into(),
            child,
            stdin,
            lines,
            case: *case,
        };
        usi.send("usi")?;
        usi.wait_for(|l| l.trim() == "usiok", Duration::from_secs(30))?;
        usi.send("isready")?;
        usi.wait_for(|l| l.trim() == "readyok", Duration::from_secs(120))?;
        usi.send(&format!("position sfen {}", case.position))?;
        Ok(usi)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: cannot write `{line}`: {e}", self.name))
    }

    fn wait_for(
        &mut self,
        done: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if done(&line) => return Ok(line),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "{}: no answer within {} s",
                        self.name,
                        timeout.as_secs()
                    ));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: the engine closed its output", self.name));
                }
            }
        }
    }
}

impl Runner for Usi {
    fn name(&self) -> &str {
        &self.name
    }
    fn run(&mut self) -> Result<(u64, f64), String> {
        let n = self.case.nodes;
        let t = Instant::now();
        self.send(&format!("go perft {}", self.case.depth))?;
        let line = self.wait_for(|l| parse_nodes_searched(l).is_some(), EXTERNAL_TIMEOUT)?;
        let secs = t.elapsed().as_secs_f64();
        match parse_nodes_searched(&line) {
            Some(m) if m == n => Ok((n, secs)),
            _ => Err(format!("YaneuraOu answered `{line}`, not {n} leaves")),
        }
    }
}

impl Drop for Usi {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The timings of one runner on one case.
#[derive(Debug, Clone)]
pub struct Timings {
    /// The runner's name.
    pub name: String,
    /// Seconds of every count, in the order they ran.
    pub seconds: Vec<f64>,
    /// Set when a count failed or differed (then `seconds` is incomplete).
    pub error: Option<String>,
}

impl Timings {
    /// The median of the counts' times, seconds (`None` without any).
    pub fn median(&self) -> Option<f64> {
        median(&self.seconds)
    }
    /// The fastest count, seconds.
    pub fn best(&self) -> Option<f64> {
        self.seconds.iter().copied().reduce(f64::min)
    }
}

/// The median of `xs` (the mean of the two middle values for an even
/// count); `None` when empty.
pub fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    })
}

/// The order the runners take in round `round`: 0, 1, … rotated by
/// `round`.
pub fn round_order(runners: usize, round: usize) -> Vec<usize> {
    (0..runners).map(|i| (i + round) % runners.max(1)).collect()
}

/// Times `runners` on `case`, interleaved: `rounds` rounds of `reps` counts
/// each, the order rotated per round. A runner whose count is not
/// `case.nodes` (or that fails) is not run again.
pub fn measure(
    case: &Case,
    runners: &mut [Box<dyn Runner>],
    rounds: usize,
    reps: usize,
) -> Vec<Timings> {
    let mut out: Vec<Timings> = runners
        .iter()
        .map(|r| Timings {
            name: r.name().to_owned(),
            seconds: Vec::with_capacity(rounds * reps),
            error: None,
        })
        .collect();
    for round in 0..rounds {
        for i in round_order(runners.len(), round) {
            for _ in 0..reps {
                if out[i].error.is_some() {
                    break;
                }
                match runners[i].run() {
                    Ok((n, secs)) if n == case.nodes => out[i].seconds.push(secs),
                    Ok((n, _)) => {
                        out[i].error = Some(format!("counted {n} leaves, expected {}", case.nodes));
                    }
                    Err(e) => out[i].error = Some(e),
                }
            }
        }
    }
    out
}

/// One case's result: the case and each runner's timings (board-core's
/// first).
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// The case.
    pub case: Case,
    /// board-core first, then the peers.
    pub runners: Vec<Timings>,
}

/// The machine the table was measured on.
#[derive(Debug, Clone, Default)]
pub struct Machine {
    /// `/proc/cpuinfo`'s `model name`.
    pub cpu: String,
    /// Logical CPUs.
    pub cpus: usize,
    /// Of the CPU flags that matter to the generators (`popcnt`, `bmi2`,
    /// `avx2`, `avx512f`), those the CPU has.
    pub flags: Vec<String>,
    /// Of the same, those this binary was compiled to assume.
    pub compiled: Vec<String>,
    /// The 1-minute load average before and after the run.
    pub load: (f64, f64),
}

impl Machine {
    /// Reads `/proc/cpuinfo` and `/proc/loadavg` (empty fields elsewhere).
    pub fn probe() -> Machine {
        let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| {
            info.lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
                .unwrap_or_default()
        };
        let cpu_flags = field("flags");
        let wanted = ["popcnt", "bmi2", "avx2", "avx512f"];
        let flags = wanted
            .iter()
            .filter(|f| cpu_flags.split_whitespace().any(|x| x == **f))
            .map(|f| f.to_string())
            .collect();
        let mut compiled = Vec::new();
        if cfg!(target_feature = "popcnt") {
            compiled.push("popcnt".into());
        }
        if cfg!(target_feature = "bmi2") {
            compiled.push("bmi2".into());
        }
        if cfg!(target_feature = "avx2") {
            compiled.push("avx2".into());
        }
        if cfg!(target_feature = "avx512f") {
            compiled.push("avx512f".into());
        }
        Machine {
            cpu: field("model name"),
            cpus: std::thread::available_parallelism().map_or(0, |n| n.get()),
            flags,
            compiled,
            load: (load_average(), 0.0),
        }
    }
}

/// The 1-minute load average (`/proc/loadavg`), 0 when unknown.
pub fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

fn fmt_secs(s: Option<f64>) -> String {
    match s {
        Some(s) if s >= 1.0 => format!("{s:.2} s"),
        Some(s) if s >= 1e-3 => format!("{:.1} ms", s * 1e3),
        Some(s) => format!("{:.1} µs", s * 1e6),
        None => "–".into(),
    }
}

/// The markdown table: one row per (case, peer), board-core's figures
/// repeated on each, ratio = the peer's median time over ours (above 1:
/// we are faster).
pub fn markdown(results: &[CaseResult], machine: &Machine, rounds: usize, reps: usize) -> String {
    let mut s = String::new();
    s.push_str(
        "| game | position | depth | leaves | board-core median (best) | M leaves/s | peer | peer median (best) | M leaves/s | ours ÷ peer |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in results {
        let Some((ours, peers)) = r.runners.split_first() else {
            continue;
        };
        let mn = |t: Option<f64>| {
            t.map_or("–".into(), |t| {
                format!("{:.0}", r.case.nodes as f64 / t / 1e6)
            })
        };
        let ours_cell = match &ours.error {
            Some(e) => format!("error: {e}"),
            None => format!("{} ({})", fmt_secs(ours.median()), fmt_secs(ours.best())),
        };
        let rows: Vec<Option<&Timings>> = if peers.is_empty() {
            vec![None]
        } else {
            peers.iter().map(Some).collect()
        };
        for p in rows {
            let (name, cell, speed, ratio) = match p {
                None => (
                    "–".to_owned(),
                    "–".to_owned(),
                    "–".to_owned(),
                    "–".to_owned(),
                ),
                Some(p) => match &p.error {
                    Some(e) => (
                        p.name.clone(),
                        format!("error: {e}"),
                        "–".into(),
                        "–".into(),
                    ),
                    None => {
                        let ratio = match (p.median(), ours.median()) {
                            (Some(a), Some(b)) if b > 0.0 => format!("**{:.2}×**", a / b),
                            _ => "–".into(),
                        };
                        (
                            p.name.clone(),
                            format!("{} ({})", fmt_secs(p.median()), fmt_secs(p.best())),
                            mn(p.median()),
                            ratio,
                        )
                    }
                },
            };
            s.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                r.case.game.name(),
                r.case.name,
                r.case.depth,
                r.case.nodes,
                ours_cell,
                mn(ours.median()),
                name,
                cell,
                speed,
                ratio
            ));
        }
    }
    s.push_str(&format!(
        "\nMachine: {} ({} logical CPUs; CPU flags: {}; compiled for: {}); load average {:.2} before, {:.2} after; \
         {rounds} rounds × {reps} counts per runner, interleaved; wall clock; single thread, bulk counting, no hashing.\n",
        if machine.cpu.is_empty() { "unknown CPU" } else { &machine.cpu },
        machine.cpus,
        list_or_none(&machine.flags),
        list_or_none(&machine.compiled),
        machine.load.0,
        machine.load.1,
    ));
    s
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "baseline x86-64".into()
    } else {
        v.join(", ")
    }
}

/// The same as JSON.
pub fn json(
    results: &[CaseResult],
    machine: &Machine,
    rounds: usize,
    reps: usize,
) -> serde_json::Value {
    use serde_json::json;
    json!({
        "machine": {
            "cpu": machine.cpu,
            "cpus": machine.cpus,
            "flags": machine.flags,
            "compiled_for": machine.compiled,
            "load_before": machine.load.0,
            "load_after": machine.load.1,
        },
        "rounds": rounds,
        "reps": reps,
        "cases": results.iter().map(|r| json!({
            "game": r.case.game.name(),
            "position": r.case.name,
            "fen": r.case.position,
            "depth": r.case.depth,
            "leaves": r.case.nodes,
            "runners": r.runners.iter().map(|t| json!({
                "name": t.name,
                "seconds": t.seconds,
                "median": t.median(),
                "best": t.best(),
                "error": t.error,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn rounds_rotate_the_order() {
        assert_eq!(round_order(3, 0), [0, 1, 2]);
        assert_eq!(round_order(3, 1), [1, 2, 0]);
        assert_eq!(round_order(3, 5), [2, 0, 1]);
    }

    #[test]
    fn moby_dam_lines() {
        // The shape of Moby Dam's test/perft.c printf:
        // "perft(%d) %" PRIu64 " nodes, %.2f sec, %.0f kN/s, %s\n".
        assert_eq!(
            parse_mobydam_line("perft(15) 346184885 nodes, 1.23 sec, 281451 kN/s, bulk"),
            Some((15, 346_184_885, 1.23))
        );
        assert_eq!(
            parse_mobydam_line("perft(1) 9 nodes, 0.00 sec, inf kN/s, bulk"),
            Some((1, 9, 0.0))
        );
        assert_eq!(parse_mobydam_line("   1 2 3 4 5"), None);
        assert_eq!(parse_mobydam_line("perft(x) 9 nodes, 0.00 sec"), None);
    }

    #[test]
    fn usi_perft_totals() {
        // YaneuraOu's usi.cpp: `"\nNodes searched: " << nodes << "\n"`.
        assert_eq!(
            parse_nodes_searched("Nodes searched: 19861490"),
            Some(19_861_490)
        );
        assert_eq!(
            parse_nodes_searched("Nodes searched  : 25470 "),
            Some(25_470)
        );
        assert_eq!(parse_nodes_searched("nodes searched:593"), Some(593));
        // The lines before it (perft.h): root moves, time, speed.
        assert_eq!(parse_nodes_searched("7g7f: 19861490"), None);
        assert_eq!(parse_nodes_searched("Elapsed Time = 593 [ms]"), None);
        assert_eq!(parse_nodes_searched("19861490 NPS"), None);
        assert_eq!(parse_nodes_searched("Nodes searched: 12 nodes"), None);
        assert_eq!(parse_nodes_searched("Nodes searched:"), None);
        assert_eq!(parse_nodes_searched(""), None);
        assert_eq!(parse_nodes_searched("Nodes searché: 1"), None);
    }
}
