//! `boardwire csa rate [options] DIR...`: shogi-server's
//! `mk_game_results DIR... | mk_rate [options]` in one command (the work is
//! `csa_league::results` and `csa_league::rating`); `--html FILE` also
//! writes the standings page (`csa_league::standings`).

use std::io::Write;
use std::path::PathBuf;

use csa_league::players::{Stamp, Zone};
use csa_league::rating::{RateOptions, mk_rate};
use csa_league::results::mk_game_results;
use csa_league::standings::standings_html;

use crate::Failure;

/// `csa rate`'s arguments: mk_rate's options, same names and defaults.
#[derive(Debug, clap::Args)]
pub(crate) struct RateArgs {
    /// Directories searched for `*.csa` records (recursively, as
    /// `mk_game_results DIR...`).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// The time ages are counted from, in the local time zone (`TZ`):
    /// `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` (default: now).
    #[arg(long, value_name = "DATE")]
    base_date: Option<String>,
    /// Days after which a result weighs half.
    #[arg(long, default_value_t = 60, value_name = "DAYS")]
    half_life: i64,
    /// Days during which a result weighs fully (the half-life counts after).
    #[arg(long, default_value_t = 7, value_name = "DAYS")]
    half_life_ignore: i64,
    /// Results older than this many days are dropped.
    #[arg(long, default_value_t = 730, value_name = "DAYS")]
    ignore: i64,
    /// Abnormal games of at most this many plies are dropped (0: all of
    /// them).
    #[arg(long, default_value_t = 30, value_name = "PLIES")]
    abnormal_threshold: i64,
    /// The player whose group is shifted to give it --fixed-rate (its id,
    /// else a regular expression; the last id matching).
    #[arg(long, requires = "fixed_rate", value_name = "ID")]
    fixed_rate_player: Option<String>,
    /// The rate of --fixed-rate-player (a positive integer).
    #[arg(long, requires = "fixed_rate_player", value_name = "RATE",
          value_parser = clap::value_parser!(i64).range(1..))]
    fixed_rate: Option<i64>,
    /// Draws are not counted (default: half a win and half a loss).
    #[arg(long)]
    skip_draw_games: bool,
    /// Also write the standings page (one static HTML file) here.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// Runs `csa rate`: players.yaml to `out`, the records skipped and the
/// results not used to stderr.
pub(crate) fn rate(args: RateArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let zone = Zone::Local;
    let now = Stamp::now(zone);
    let base_date = match &args.base_date {
        None => now,
        Some(text) => Stamp::parse_time(text, zone).ok_or_else(|| {
            Failure::Input(format!(
                "--base-date {text:?}: not a date (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS)"
            ))
        })?,
    };
    let mut opts = RateOptions::new(base_date, zone);
    opts.half_life = args.half_life;
    opts.half_life_ignore = args.half_life_ignore;
    opts.ignore = args.ignore;
    opts.abnormal_threshold = args.abnormal_threshold;
    opts.skip_draw_games = args.skip_draw_games;
    opts.fixed_rate = args.fixed_rate_player.zip(args.fixed_rate);
    let scan = mk_game_results(&args.dirs);
    let mut err = std::io::stderr().lock();
    for e in &scan.errors {
        let _ = writeln!(err, "skipped: {e}");
    }
    let rating =
        mk_rate(&scan.results, &opts).map_err(|e| Failure::Failed(format!("error: {e}")))?;
    for w in &rating.warnings {
        let _ = writeln!(err, "{w}");
    }
    out.write_all(rating.players.to_yaml().as_bytes())?;
    if let Some(file) = &args.html {
        let page = standings_html(&rating.players, &base_date, "Shogi Server Rating");
        std::fs::write(file, page)
            .map_err(|e| Failure::Failed(format!("error: --html {}: {e}", file.display())))?;
    }
    Ok(())
}
