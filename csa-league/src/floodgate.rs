//! [`Floodgate`]: a [`League`] for a set of Floodgate game names, as
//! shogi-server's `League::Floodgate` and its thread run them; and
//! [`FloodgateDir`], the same reading its schedules and histories from a
//! directory (shogi-server's top directory).
//!
//! Each game name has a schedule ([`crate::schedule`]): its `<game>.conf`
//! text, or shogi-server's built-in for `floodgate-900-0` and
//! `floodgate-3600-0`. The next time is computed ("charged") when first
//! asked for and again right after each pairing, from the schedule as it is
//! then; the options a pairing uses (pairing factory, sacrifice,
//! `Max_Moves`, `Least_Time_Per_Move`) are those read at the previous
//! charge, as in shogi-server. A game name without a schedule never pairs
//! (shogi-server: "Unsupported game name"), but its players still wait.
//!
//! At a pairing the players waiting for the game (exactly that name) are
//! paired by the schedule's factory ([`crate::pairing`]) with their rates
//! from `players.yaml` ([`Floodgate::set_players`]; 0 when absent) and the
//! game's history ([`crate::history`]). Each game gets the options'
//! `Max_Moves` and `Least_Time_Per_Move` (shogi-server uses its defaults,
//! 256 and 0, for Floodgate games whatever the server's own options, unless
//! the schedule sets them).
//!
//! Which players take part: shogi-server's `select_players` takes the
//! players waiting for the game, without a turn preference (it refuses
//! `%%GAME floodgate-… +`), who are `rated?`, i.e. have a player id,
//! which only a `LOGIN` with a password (in plain CSA mode:
//! `<game>,<password>`) gives. The server hands [`League::pair`] only such
//! players ([`WaitingPlayer::player_id`] is that id); every player handed
//! is a candidate.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use csa_protocol::session::{League, LeagueGame, LeagueResult, LeagueRound, WaitingPlayer};
use csa_protocol::types::Side;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::history::{self, History, Record};
use crate::pairing::{self, Candidate, Factory};
use crate::players::Players;
use crate::schedule::{Generator, LineError, MAX_SCHEDULE_BYTES, Settings};

/// Why a league could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FloodgateError {
    /// Not `floodgate-<n>-<n>[F]` (shogi-server: "Found a wrong Floodgate
    /// game").
    #[error("not a Floodgate game name: {0:?}")]
    NotAFloodgateName(String),
    /// A name given twice.
    #[error("Floodgate game name given twice: {0:?}")]
    Duplicate(String),
    /// A name the league does not have.
    #[error("no Floodgate game named {0:?} in this league")]
    UnknownGame(String),
    /// No game name.
    #[error("no Floodgate game name given")]
    NoGames,
}

#[derive(Debug)]
struct Game {
    name: String,
    generator: Option<Generator>,
    /// The next pairing time: `None` until charged.
    next: Cell<Option<Option<i64>>>,
    /// The options read at the last charge.
    settings: RefCell<Settings>,
    history: History,
}

impl Game {
    fn charge(&self, now: i64, off: i32) -> Option<i64> {
        let next = self.generator.as_ref().and_then(|g| g.next_after(now, off));
        self.next.set(Some(next));
        *self.settings.borrow_mut() = self
            .generator
            .as_ref()
            .map(Generator::settings)
            .unwrap_or_default();
        next
    }

    fn next(&self, now: i64, off: i32) -> Option<i64> {
        match self.next.get() {
            Some(n) => n,
            None => self.charge(now, off),
        }
    }
}

/// The sans-IO Floodgate league: schedules, players and histories given in
/// memory.
///
/// ```
/// use csa_league::Floodgate;
/// use csa_league::players::{PlayerEntry, Players};
/// use csa_protocol::session::{ConnId, League, WaitingPlayer};
///
/// let game = "floodgate-600-10";
/// let mut fg = Floodgate::new([game], 42).unwrap();
/// // Mondays 10:00 local; the server's zone is +09:00.
/// assert!(fg.set_schedule(game, Some("Mon 10:00\n")).unwrap().is_empty());
/// let jst = 9 * 3600;
/// let monday_0900 = 1_714_953_600; // 2024-05-06 09:00 +09:00
/// let at = fg.next_pairing(monday_0900, jst).unwrap();
/// assert_eq!(at, monday_0900 + 3600);
///
/// let entry = |id: &str, rate| PlayerEntry {
///     player_id: id.into(), name: id.into(), rating_group: 0, rate,
///     last_modified: None, win: 20.0, loss: 20.0,
/// };
/// fg.set_players(Players { entries: vec![entry("a", 1500), entry("b", 1400)] });
/// let waiting = [
///     WaitingPlayer { conn: ConnId(1), name: "a", player_id: "a", gamename: game },
///     WaitingPlayer { conn: ConnId(2), name: "b", player_id: "b", gamename: game },
/// ];
/// let round = fg.pair(at, jst, &waiting);
/// assert_eq!(round.games.len(), 1);
/// assert_eq!(round.games[0].max_moves, Some(256));
/// // The next time: a week later.
/// assert_eq!(fg.next_pairing(at, jst), Some(at + 7 * 86_400));
/// ```
pub struct Floodgate {
    games: Vec<Game>,
    /// Rates by player id, from `players.yaml`.
    rates: HashMap<String, i64>,
    rng: ChaCha8Rng,
}

impl fmt::Debug for Floodgate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Floodgate")
            .field("games", &self.games)
            .field("rated_players", &self.rates.len())
            .finish_non_exhaustive()
    }
}

/// `YYYY-MM-DD HH:MM:SS +HH:MM` of `unix_secs` in the zone `off`.
pub fn format_local(unix_secs: i64, off: i32) -> String {
    let local = i128::from(unix_secs) + i128::from(off);
    let days = local.div_euclid(86_400);
    let secs = local.rem_euclid(86_400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i128::from(m <= 2);
    let sign = if off < 0 { '-' } else { '+' };
    let a = off.unsigned_abs();
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} {sign}{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        a / 3600,
        a / 60 % 60
    )
}

impl Floodgate {
    /// A league for `gamenames` (each `floodgate-<n>-<n>[F]`), every random
    /// choice from `seed`. Each game starts with shogi-server's built-in
    /// schedule if it has one, else none ([`Floodgate::set_schedule`]).
    pub fn new<I, S>(gamenames: I, seed: u64) -> Result<Floodgate, FloodgateError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut games: Vec<Game> = Vec::new();
        for name in gamenames {
            let name = name.into();
            if !history::is_floodgate_game_name(&name) {
                return Err(FloodgateError::NotAFloodgateName(name));
            }
            if games.iter().any(|g| g.name == name) {
                return Err(FloodgateError::Duplicate(name));
            }
            games.push(Game {
                generator: Generator::new(&name, None),
                name,
                next: Cell::new(None),
                settings: RefCell::new(Settings::default()),
                history: History::new(),
            });
        }
        if games.is_empty() {
            return Err(FloodgateError::NoGames);
        }
        Ok(Floodgate {
            games,
            rates: HashMap::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
        })
    }

    fn game(&self, name: &str) -> Result<usize, FloodgateError> {
        self.games
            .iter()
            .position(|g| g.name == name)
            .ok_or_else(|| FloodgateError::UnknownGame(name.into()))
    }

    /// The game names, in the order given.
    pub fn game_names(&self) -> impl Iterator<Item = &str> {
        self.games.iter().map(|g| g.name.as_str())
    }

    /// Sets the schedule text of `gamename` (`None`: no file, the built-in
    /// if any). It takes effect at the next charge (the first time asked
    /// for, then right after each pairing). Returns the lines skipped.
    pub fn set_schedule(
        &mut self,
        gamename: &str,
        text: Option<&str>,
    ) -> Result<Vec<LineError>, FloodgateError> {
        let i = self.game(gamename)?;
        let generator = Generator::new(gamename, text);
        let problems = match &generator {
            Some(Generator::Config(s)) => s.problems.clone(),
            _ => Vec::new(),
        };
        self.games[i].generator = generator;
        Ok(problems)
    }

    /// Whether `gamename` has a schedule (a text, or a built-in).
    pub fn has_schedule(&self, gamename: &str) -> bool {
        self.games
            .iter()
            .any(|g| g.name == gamename && g.generator.is_some())
    }

    /// The players of `players.yaml`, for their rates.
    /// (The first entry of an id given twice wins, as shogi-server's lookup
    /// group by group finds it.)
    pub fn set_players(&mut self, players: Players) {
        self.rates.clear();
        for e in players.entries {
            self.rates.entry(e.player_id).or_insert(e.rate);
        }
    }

    /// Replaces the history of `gamename`.
    pub fn set_history(&mut self, gamename: &str, history: History) -> Result<(), FloodgateError> {
        let i = self.game(gamename)?;
        self.games[i].history = history;
        Ok(())
    }

    /// The history of `gamename`.
    pub fn history(&self, gamename: &str) -> Option<&History> {
        self.games
            .iter()
            .find(|g| g.name == gamename)
            .map(|g| &g.history)
    }

    /// The charged next pairing time of `gamename` (seconds since 1970,
    /// UTC): outer `None` before the first charge, inner `None` when the
    /// game has no schedule.
    pub fn next_time(&self, gamename: &str) -> Option<Option<i64>> {
        self.games.iter().find(|g| g.name == gamename)?.next.get()
    }

    /// A waiting player with its rate (0 when `players.yaml` has none).
    fn candidate(&self, w: &WaitingPlayer<'_>) -> Candidate {
        Candidate {
            name: w.name.into(),
            player_id: w.player_id.into(),
            rate: self.rates.get(w.player_id).copied().unwrap_or(0),
        }
    }

    fn pair_game(
        &mut self,
        gi: usize,
        now: i64,
        off: i32,
        waiting: &[WaitingPlayer<'_>],
        active: &[Candidate],
        round: &mut LeagueRound,
    ) {
        let settings = self.games[gi].settings.borrow().clone();
        let name = self.games[gi].name.clone();
        round.log.push(format!(
            "Floodgate: Starting Floodgate games...: {name}, pairing_factory={} sacrifice={} max_moves={} least_time_per_move={}",
            settings.pairing_factory, settings.sacrifice, settings.max_moves, settings.least_time_per_move
        ));
        let picked: Vec<&WaitingPlayer<'_>> =
            waiting.iter().filter(|w| w.gamename == name).collect();
        let cands: Vec<Candidate> = picked.iter().map(|w| self.candidate(w)).collect();
        match Factory::from_name(&settings.pairing_factory) {
            None => round.log.push(format!(
                "Floodgate: unknown pairing factory {:?} for {name}: nobody paired",
                settings.pairing_factory
            )),
            Some(factory) => {
                let logics = factory.logics(&settings.sacrifice);
                let history = &self.games[gi].history;
                let out = pairing::pair(&cands, &logics, Some(history), active, &mut self.rng);
                round.log.extend(out.log);
                for p in &out.pairs {
                    let (b, w) = (&cands[p.black], &cands[p.white]);
                    round.log.push(format!(
                        "Floodgate: {name}: BLACK {} ({}) vs WHITE {} ({}): score {}",
                        b.name, p.rates.0, w.name, p.rates.1, p.score
                    ));
                    round.games.push(LeagueGame {
                        black: picked[p.black].conn,
                        white: picked[p.white].conn,
                        gamename: name.clone(),
                        max_moves: Some(settings.max_moves),
                        least_time_per_move: Some(settings.least_time_per_move),
                    });
                }
                for (i, why) in &out.left_out {
                    round.log.push(format!(
                        "Floodgate: {name}: {} left out: {}",
                        cands[*i].name,
                        why.describe()
                    ));
                }
                if let Some(s) = out.least_score {
                    round
                        .log
                        .push(format!("Floodgate: {name}: total score {s}"));
                }
            }
        }
        let next = self.games[gi].charge(now, off);
        round.log.push(next_line(&name, next, off));
    }

    /// Moves the schedule of every game due at `unix_secs` on without
    /// pairing anybody (shogi-server with a `STOP` file in its directory:
    /// "The STOP file prevents from starting new Floodgate matches", and
    /// the next time is charged). Returns the log lines.
    pub fn skip_due(&mut self, unix_secs: u64, utc_offset_secs: i32) -> Vec<String> {
        let now = to_i64(unix_secs);
        let mut log = Vec::new();
        for gi in self.due(now, utc_offset_secs) {
            let g = &self.games[gi];
            log.push(format!(
                "Floodgate: The STOP file prevents from starting new Floodgate matches ({})",
                g.name
            ));
            let next = g.charge(now, utc_offset_secs);
            log.push(next_line(&g.name, next, utc_offset_secs));
        }
        log
    }

    /// The next pairing time of every game at `unix_secs` (charging those
    /// not charged yet), one log line each, as after a pairing.
    pub fn next_lines(&self, unix_secs: u64, utc_offset_secs: i32) -> Vec<String> {
        let now = to_i64(unix_secs);
        self.games
            .iter()
            .map(|g| next_line(&g.name, g.next(now, utc_offset_secs), utc_offset_secs))
            .collect()
    }

    /// The games due at `now` (charged time ≤ now), by index.
    fn due(&self, now: i64, off: i32) -> Vec<usize> {
        (0..self.games.len())
            .filter(|&i| self.games[i].next(now, off).is_some_and(|t| t <= now))
            .collect()
    }
}

/// The log line after a charge: the next pairing time of `name`, local.
fn next_line(name: &str, next: Option<i64>, off: i32) -> String {
    match next {
        Some(t) => format!(
            "Floodgate: the next pairing of {name} at {}",
            format_local(t, off)
        ),
        None => format!("Floodgate: {name} has no next pairing time (no schedule)"),
    }
}

fn to_i64(secs: u64) -> i64 {
    i64::try_from(secs).unwrap_or(i64::MAX)
}

impl League for Floodgate {
    fn schedules(&self, gamename: &str) -> bool {
        self.games.iter().any(|g| g.name == gamename)
    }

    fn next_pairing(&self, unix_secs: u64, utc_offset_secs: i32) -> Option<u64> {
        let now = to_i64(unix_secs);
        self.games
            .iter()
            .filter_map(|g| g.next(now, utc_offset_secs))
            .min()
            .map(|t| u64::try_from(t).unwrap_or(0))
    }

    fn pair(
        &mut self,
        unix_secs: u64,
        utc_offset_secs: i32,
        waiting: &[WaitingPlayer<'_>],
    ) -> LeagueRound {
        let now = to_i64(unix_secs);
        let mut round = LeagueRound::default();
        let active: Vec<Candidate> = waiting.iter().map(|w| self.candidate(w)).collect();
        for gi in self.due(now, utc_offset_secs) {
            self.pair_game(gi, now, utc_offset_secs, waiting, &active, &mut round);
        }
        round
    }

    fn game_ended(&mut self, result: &LeagueResult<'_>) {
        let Some(g) = self.games.iter_mut().find(|g| g.name == result.gamename) else {
            return;
        };
        g.history.push(record_of(result));
    }
}

fn record_of(r: &LeagueResult<'_>) -> Record {
    let (winner, loser) = match r.winner {
        Some(Side::Black) => (Some(r.black.into()), Some(r.white.into())),
        Some(Side::White) => (Some(r.white.into()), Some(r.black.into())),
        None => (None, None),
    };
    Record {
        game_id: r.game_id.into(),
        black: r.black.into(),
        white: r.white.into(),
        winner,
        loser,
    }
}

/// Where [`FloodgateDir`] gets `players.yaml` before each pairing: `None`
/// keeps the players it has.
pub type PlayersSource = Box<dyn FnMut() -> Option<Players> + Send>;

/// [`Floodgate`] over a directory: `DIR/<game>.conf` re-read before each
/// pairing, `DIR/floodgate_history_<t>.yaml` read before each pairing and
/// read, added to and written after each game, as shogi-server does; no
/// pairing while a file `DIR/STOP` exists (the times move on).
/// Errors (an unreadable file, an invalid history) go to the log of the
/// next [`LeagueRound`]; an invalid history counts as empty, as in
/// shogi-server.
pub struct FloodgateDir {
    core: Floodgate,
    dir: PathBuf,
    players: Option<PlayersSource>,
    pending: Vec<String>,
}

impl fmt::Debug for FloodgateDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FloodgateDir")
            .field("core", &self.core)
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// At most `cap` bytes of a file: `Ok(None)` when it does not exist.
fn read_capped(path: &Path, cap: usize) -> std::io::Result<Option<String>> {
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut buf = Vec::new();
    f.take(cap as u64 + 1).read_to_end(&mut buf)?;
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
}

impl FloodgateDir {
    /// A league for `gamenames` over `dir`; reads the schedules now.
    pub fn open<I, S>(
        dir: impl Into<PathBuf>,
        gamenames: I,
        seed: u64,
    ) -> Result<FloodgateDir, FloodgateError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let core = Floodgate::new(gamenames, seed)?;
        let mut d = FloodgateDir {
            core,
            dir: dir.into(),
            players: None,
            pending: Vec::new(),
        };
        let names: Vec<String> = d.core.game_names().map(String::from).collect();
        for n in &names {
            d.read_schedule(n);
            d.load_history(n);
            if !d.core.has_schedule(n) {
                d.pending.push(format!(
                    "Floodgate: Unsupported game name: {n} (no {} and no built-in schedule); its players wait",
                    d.schedule_path(n).display()
                ));
            }
        }
        Ok(d)
    }

    /// The lines to log when the server starts: what [`FloodgateDir::open`]
    /// found (schedule lines skipped, histories not read, games without a
    /// schedule) and each game's next pairing time (charged now).
    pub fn start_log(&mut self, unix_secs: u64, utc_offset_secs: i32) -> Vec<String> {
        let mut log = std::mem::take(&mut self.pending);
        log.extend(self.core.next_lines(unix_secs, utc_offset_secs));
        log
    }

    /// Where the players come from before each pairing.
    pub fn set_players_source(&mut self, source: PlayersSource) {
        self.players = Some(source);
    }

    /// The in-memory league.
    pub fn core(&self) -> &Floodgate {
        &self.core
    }

    /// The in-memory league, to set players or histories directly.
    pub fn core_mut(&mut self) -> &mut Floodgate {
        &mut self.core
    }

    /// `DIR/<game>.conf`.
    pub fn schedule_path(&self, gamename: &str) -> PathBuf {
        self.dir.join(format!("{gamename}.conf"))
    }

    /// `DIR/floodgate_history_<t>.yaml`.
    pub fn history_path(&self, gamename: &str) -> Option<PathBuf> {
        history::history_file_name(gamename).map(|f| self.dir.join(f))
    }

    fn read_schedule(&mut self, name: &str) {
        let path = self.schedule_path(name);
        let text = match read_capped(&path, MAX_SCHEDULE_BYTES) {
            Ok(t) => t,
            Err(e) => {
                self.pending.push(format!(
                    "Floodgate: cannot read {}: {e}; schedule unchanged",
                    path.display()
                ));
                return;
            }
        };
        if let Ok(problems) = self.core.set_schedule(name, text.as_deref()) {
            for p in problems {
                self.pending.push(format!(
                    "Floodgate: Unsupported syntax in a next time generator config file {}: {p}",
                    path.display()
                ));
            }
        }
    }

    fn load_history(&mut self, name: &str) {
        let Some(path) = self.history_path(name) else {
            return;
        };
        let h = match read_capped(&path, history::MAX_HISTORY_BYTES) {
            Ok(None) => History::new(),
            Ok(Some(t)) => History::parse(&t).unwrap_or_else(|e| {
                self.pending.push(format!(
                    "Floodgate: {} is not a valid yaml file ({e}). Instead, an empty array will be used and updated.",
                    path.display()
                ));
                History::new()
            }),
            Err(e) => {
                self.pending.push(format!("Floodgate: cannot read {}: {e}", path.display()));
                History::new()
            }
        };
        let _ = self.core.set_history(name, h);
    }

    fn save_history(&mut self, name: &str) {
        let (Some(path), Some(h)) = (self.history_path(name), self.core.history(name)) else {
            return;
        };
        if let Err(e) = crate::operator::write_atomic(&path, h.to_yaml().as_bytes()) {
            self.pending.push(format!(
                "Floodgate: Failed to write a history file {}: {e}",
                path.display()
            ));
        }
    }
}

impl League for FloodgateDir {
    fn schedules(&self, gamename: &str) -> bool {
        self.core.schedules(gamename)
    }

    fn next_pairing(&self, unix_secs: u64, utc_offset_secs: i32) -> Option<u64> {
        self.core.next_pairing(unix_secs, utc_offset_secs)
    }

    fn pair(
        &mut self,
        unix_secs: u64,
        utc_offset_secs: i32,
        waiting: &[WaitingPlayer<'_>],
    ) -> LeagueRound {
        let now = to_i64(unix_secs);
        let due: Vec<String> = self
            .core
            .due(now, utc_offset_secs)
            .into_iter()
            .map(|i| self.core.games[i].name.clone())
            .collect();
        for n in &due {
            self.read_schedule(n);
            self.load_history(n);
        }
        let mut round = if self.dir.join("STOP").exists() {
            LeagueRound {
                games: Vec::new(),
                log: self.core.skip_due(unix_secs, utc_offset_secs),
            }
        } else {
            if let Some(p) = self.players.as_mut().and_then(|f| f()) {
                self.core.set_players(p);
            }
            self.core.pair(unix_secs, utc_offset_secs, waiting)
        };
        let mut log = std::mem::take(&mut self.pending);
        log.append(&mut round.log);
        round.log = log;
        round
    }

    fn game_ended(&mut self, result: &LeagueResult<'_>) {
        if !self.core.schedules(result.gamename) {
            return;
        }
        self.load_history(result.gamename);
        self.core.game_ended(result);
        self.save_history(result.gamename);
    }
}
