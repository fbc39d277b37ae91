//! `csa serve`'s league options: a Floodgate league over a directory
//! (`csa_league::FloodgateDir`), `players.yaml` watched and reloaded and
//! recomputed from the records (`csa_league::operator`). Only wiring: the
//! league, the file checks and the ratings are library code.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use csa_league::FloodgateDir;
use csa_league::operator::{PlayersFile, PlayersSlot, rate_records, ratings_of, write_atomic};
use csa_league::players::{Players, Stamp, Zone};
use csa_protocol::net::Control;
use csa_protocol::session::{Rating, ServerConfig};
use tokio::sync::mpsc;

/// `csa serve`'s league options.
#[derive(Debug, clap::Args)]
pub(crate) struct LeagueArgs {
    /// Game names scheduled as shogi-server's Floodgate (`floodgate-900-0`,
    /// `floodgate-300-10F`, ...; comma-separated or repeated): players
    /// asking for them wait until the schedule's next time
    /// (`DIR/NAME.conf`, else shogi-server's built-in for
    /// floodgate-900-0 and floodgate-3600-0), then all are paired at once
    /// by rating and history.
    #[arg(long, value_name = "NAME[,NAME...]", value_delimiter = ',')]
    floodgate_games: Vec<String>,
    /// The league directory, shogi-server's top directory: `NAME.conf`
    /// schedules, `floodgate_history_*.yaml`, `players.yaml` (read at
    /// start and whenever it changes; `%%RATING` lists it, pairing uses
    /// its rates). Default `.` with --floodgate-games or --rate-every.
    #[arg(long, value_name = "DIR")]
    league_dir: Option<PathBuf>,
    /// Seed of the league's random choices (who is left out of an odd
    /// count, random orderings). Default: from the clock, printed in the
    /// log so that a run can be repeated.
    #[arg(long, value_name = "N", requires = "floodgate_games")]
    seed: Option<u64>,
    /// Recompute `DIR/players.yaml` every HOURS hours (the first HOURS
    /// after the start) from the --records tree, as `mk_game_results
    /// RECORDS | mk_rate` with mk_rate's defaults, and reload it. Needs
    /// --records. Range 1..=8760 hours.
    #[arg(long, value_name = "HOURS",
          value_parser = clap::value_parser!(u64).range(1..=8760))]
    rate_every: Option<u64>,
    /// Seconds between two checks of players.yaml's modification time and
    /// size. Range 1..=3600 seconds.
    #[arg(long, default_value_t = 30, value_name = "SECONDS", hide = true,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    players_poll: u64,
}

/// A league ready to be handed to the server.
pub(crate) struct LeagueSetup {
    league: Option<FloodgateDir>,
    slot: PlayersSlot,
    file: PlayersFile,
    rate: Option<(Duration, PathBuf)>,
    poll: Duration,
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// One operator's log line (stdout), as the server's own.
fn log(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{} league {line}", super::log_time());
}

impl LeagueArgs {
    /// `--rate-every` is given (the CSA records are rated).
    pub(crate) fn rates(&self) -> bool {
        self.rate_every.is_some()
    }
}

/// Checks the options and opens the league; `None` without league
/// options. Logs the seed, what the directory holds and the next times;
/// puts the players of `players.yaml` into `config.ratings`.
pub(crate) fn setup(
    args: LeagueArgs,
    records: Option<&Path>,
    config: &mut ServerConfig,
) -> Result<Option<LeagueSetup>, String> {
    if args.rate_every.is_some() && records.is_none() {
        return Err(
            "--rate-every needs --records DIR (the ratings are computed from the server's own records)"
                .into(),
        );
    }
    if args.floodgate_games.is_empty() && args.league_dir.is_none() && args.rate_every.is_none() {
        return Ok(None);
    }
    let dir = args.league_dir.unwrap_or_else(|| PathBuf::from("."));
    if !dir.is_dir() {
        return Err(format!("--league-dir {}: not a directory", dir.display()));
    }
    let slot = PlayersSlot::new();
    let league = if args.floodgate_games.is_empty() {
        None
    } else {
        let seed = args.seed.unwrap_or_else(|| {
            let d = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            d.as_secs()
                ^ u64::from(d.subsec_nanos()).rotate_left(32)
                ^ u64::from(std::process::id())
        });
        let mut league = FloodgateDir::open(&dir, args.floodgate_games, seed)
            .map_err(|e| format!("--floodgate-games: {e}"))?;
        league.set_players_source(slot.source());
        log(&format!(
            "seed {seed} (--seed {seed} repeats the random choices), directory {}",
            dir.display()
        ));
        for line in league.start_log(unix_now(), config.utc_offset_secs) {
            log(&line);
        }
        Some(league)
    };
    let mut file = PlayersFile::new(dir.join("players.yaml"));
    if let Some(ratings) = load(&mut file, &slot) {
        config.ratings = ratings;
    }
    Ok(Some(LeagueSetup {
        league,
        slot,
        file,
        rate: args
            .rate_every
            .zip(records)
            .map(|(h, r)| (Duration::from_secs(h * 3600), r.to_path_buf())),
        poll: Duration::from_secs(args.players_poll),
    }))
}

/// Polls `file`: the new players go to the league's slot and come back as
/// `%%RATING`'s list; an error is logged and the previous players kept.
fn load(file: &mut PlayersFile, slot: &PlayersSlot) -> Option<Vec<Rating>> {
    match file.poll() {
        Ok(None) => None,
        Ok(Some(players)) => Some(apply(file.path(), players, slot)),
        Err(e) => {
            log(&format!("{e}; the previous players are kept"));
            None
        }
    }
}

fn apply(path: &Path, players: Players, slot: &PlayersSlot) -> Vec<Rating> {
    let (ratings, skipped) = ratings_of(&players, unix_now());
    log(&format!(
        "{}: {} players loaded",
        path.display(),
        players.entries.len()
    ));
    for name in skipped {
        log(&format!(
            "{}: {name:?} is not a login name; not listed by %%RATING",
            path.display()
        ));
    }
    slot.offer(players);
    ratings
}

impl LeagueSetup {
    /// Hands the league to the server (through `control`, before the first
    /// login) and starts the thread that reloads players.yaml and
    /// recomputes it.
    pub(crate) fn start(self, control: mpsc::Sender<Control>) -> Result<(), String> {
        let LeagueSetup {
            league,
            slot,
            mut file,
            rate,
            poll,
        } = self;
        if let Some(league) = league {
            control
                .try_send(Box::new(move |s| s.set_league(Box::new(league))))
                .map_err(|e| format!("cannot start the league: {e}"))?;
        }
        let mut next_rate = rate.as_ref().map(|(every, _)| Instant::now() + *every);
        std::thread::Builder::new()
            .name("league-players".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(poll);
                    if let (Some(at), Some((every, records))) = (next_rate, &rate)
                        && Instant::now() >= at
                    {
                        next_rate = Some(Instant::now() + *every);
                        rerate(records, file.path());
                    }
                    if let Some(ratings) = load(&mut file, &slot) {
                        let set: Control = Box::new(move |s| s.set_ratings(ratings));
                        if control.blocking_send(set).is_err() {
                            return; // the server has stopped
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start the league: {e}"))?;
        Ok(())
    }
}

/// The most notes of one `--rate-every` run logged.
const MAX_NOTES: usize = 20;

/// `--rate-every`: players.yaml recomputed from the records and written
/// atomically (the next poll loads it).
fn rerate(records: &Path, players_yaml: &Path) {
    log(&format!("rating the records in {}", records.display()));
    let started = Instant::now();
    match rate_records(records, Stamp::now(Zone::Local), Zone::Local) {
        Ok(r) => {
            // The first few; a large tree may skip thousands of results.
            for n in r.notes.iter().take(MAX_NOTES) {
                log(n);
            }
            if r.notes.len() > MAX_NOTES {
                log(&format!(
                    "... and {} more records or results not used",
                    r.notes.len() - MAX_NOTES
                ));
            }
            match write_atomic(players_yaml, r.players.to_yaml().as_bytes()) {
                Ok(()) => log(&format!(
                    "{} written: {} players ({:.1} s)",
                    players_yaml.display(),
                    r.players.entries.len(),
                    started.elapsed().as_secs_f64()
                )),
                Err(e) => log(&format!(
                    "cannot write {}: {e}; the previous players are kept",
                    players_yaml.display()
                )),
            }
        }
        Err(e) => log(&format!(
            "rating failed: {e}; the previous players are kept"
        )),
    }
}
