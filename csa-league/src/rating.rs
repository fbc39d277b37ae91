//! `mk_rate`: Bradley–Terry ratings of the players of a list of results,
//! solved by Newton's method, as shogi-server's `mk_rate` computes them.
//!
//! # The results used
//!
//! For each [`GameResult`], in order (shogi-server's `mk_rate`):
//!
//! 1. a result whose `mk_game_results` line was seen before is skipped
//!    (a [`RateWarning::Duplicated`]; the line includes the file's path, so
//!    the same game in two files counts twice);
//! 2. an `abnormal` game is skipped when `abnormal_threshold` is 0 or the
//!    game has at most `abnormal_threshold` plies (default 30);
//! 3. the end time is read in the local zone ([`Zone`]); a result after
//!    `base_date`, or more than `ignore` days (default 730) before it, is
//!    skipped;
//! 4. each id loses every `@…+` part (`name@v2+trip` → `name+trip`); an id
//!    containing `@NORATE+` is not rated and the game is skipped, as is a
//!    game of an id against itself;
//! 5. a win counts `w` for the winner and a loss `w` for the loser, a draw
//!    `w/2` of each for both (none with `skip_draw_games`), where
//!    `w = 1` for games less than `half_life_ignore` days (default 7) old
//!    and `exp(−0.693 / half_life · (days − half_life_ignore))` after
//!    (`half_life` default 60 days).
//!
//! # The model
//!
//! The players (ids sorted by their bytes) are filtered repeatedly: a
//! player with less than 1 (weighted) win, less than 1 loss or less than 15
//! games is removed, until none is. The rest is cut into connected groups
//! (players linked by a win of either), largest first (a stable sort: equal
//! sizes keep the order the search found them; Ruby's sort is not stable),
//! each group's players in the order a depth-first search finishes them, as
//! RGL's `each_connected_component` gives them.
//!
//! In each group the win probability of `i` over `j` is
//! `1 / (1 + 10^(−(R_i − R_j)/400))`; the rates maximising the likelihood
//! of the results are found with mk_rate's damped Newton's method: its
//! initial rates, the step solving `J·a = f` (the least-squares solution
//! with zero mean), halving the step until the residual falls by
//! `(1 − μ/4)`, restarting from a spread of the best rates so far when
//! μ < 10⁻⁴, stopping when `|a| ≤ 10⁻³·|R|` or after 501 steps, and keeping
//! the rates of the smallest residual seen. The rates are then shifted to a
//! mean of 1000 and truncated toward zero (Ruby's `to_i`; the issue text
//! says "rounded", mk_rate truncates), ±∞ as ±100000.
//!
//! With `fixed_rate`, the group holding that player (the exact id, else the
//! last id the pattern matches, a regular expression as in mk_rate) is
//! shifted so that the player's rate is the one given.
//!
//! Players not rated but with at least one (weighted) win or loss are
//! listed in group 999 with rate 0, in the order they first appeared.

use std::collections::{HashMap, HashSet};

use crate::players::{PlayerEntry, Players, Stamp, UNRATED_GROUP, Zone};
use crate::results::GameResult;

/// mk_rate's options; see the module docs for what each does.
#[derive(Debug, Clone, PartialEq)]
pub struct RateOptions {
    /// The time the ages are counted from (`--base-date`; mk_rate's
    /// default: now).
    pub base_date: Stamp,
    /// Days after which a result weighs half (`--half-life`, default 60).
    pub half_life: i64,
    /// Days during which a result weighs 1 (`--half-life-ignore`, default 7).
    pub half_life_ignore: i64,
    /// Results older than this many days are dropped (`--ignore`, default
    /// 730).
    pub ignore: i64,
    /// Abnormal games of at most this many plies are dropped, all of them
    /// when 0 (`--abnormal-threshold`, default 30).
    pub abnormal_threshold: i64,
    /// A player (id or regular expression) and the rate its group is
    /// shifted to give it (`--fixed-rate-player`, `--fixed-rate`; the rate
    /// must be positive).
    pub fixed_rate: Option<(String, i64)>,
    /// Draws are not counted (`--skip-draw-games`); otherwise half a win
    /// and half a loss each.
    pub skip_draw_games: bool,
    /// The zone end times without an offset are read in.
    pub zone: Zone,
}

impl RateOptions {
    /// mk_rate's defaults with this base date and zone.
    pub fn new(base_date: Stamp, zone: Zone) -> Self {
        RateOptions {
            base_date,
            half_life: 60,
            half_life_ignore: 7,
            ignore: 365 * 2,
            abnormal_threshold: 30,
            fixed_rate: None,
            skip_draw_games: false,
            zone,
        }
    }
}

/// A result not used, with the reason (mk_rate prints the first kind and
/// stops at the others).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RateWarning {
    /// The same result line was given before (mk_rate: `[WARNING]
    /// Duplicated: LINE`).
    #[error("[WARNING] Duplicated: {0}")]
    Duplicated(String),
    /// The end time is not one [`Stamp::parse_time`] reads (mk_rate's
    /// `Time.parse` raises and it stops).
    #[error("{file}: end time {time:?} is not a date and time")]
    BadTime {
        /// The record.
        file: String,
        /// The text.
        time: String,
    },
    /// The marks are not win/lose, lose/win or draw/draw (mk_rate raises
    /// "Never reached!" and stops).
    #[error("{file}: marks {black:?} / {white:?} are not win/lose, lose/win or draw/draw")]
    BadMarks {
        /// The record.
        file: String,
        /// Black's mark.
        black: String,
        /// White's mark.
        white: String,
    },
}

/// Why no ratings could be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RateError {
    /// `fixed_rate`'s rate is not positive (mk_rate prints its usage and
    /// exits 1).
    #[error("--fixed-rate must be a positive number, not {0}")]
    FixedRateNotPositive(i64),
    /// `fixed_rate`'s player is not an id and not a regular expression.
    #[error("--fixed-rate-player {0:?} is not a valid regular expression")]
    BadPattern(String),
    /// A rate came out above 10000 or below −10000 (mk_rate: "Aborted. It
    /// did not result in valid ratings.", exit 10).
    #[error("Aborted. It did not result in valid ratings ({player} would be rated {rate}).")]
    Invalid {
        /// The first player out of range.
        player: String,
        /// Its rate.
        rate: i64,
    },
}

/// The ratings and the results left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    /// The players, group by group (mk_rate's `players.yaml`).
    pub players: Players,
    /// The results not used, with the reason.
    pub warnings: Vec<RateWarning>,
}

/// mk_rate's `identify_id`: `None` for `@NORATE` ids, else every `@…+`
/// replaced by `+`.
pub fn identify_id(id: &str) -> Option<String> {
    if id.contains("@NORATE+") {
        return None;
    }
    let mut out = String::with_capacity(id.len());
    let mut rest = id;
    while let Some(at) = rest.find('@') {
        // Ruby's `.` does not match a newline.
        let tail = &rest[at + 1..];
        let plus = tail.find('+');
        let newline = tail.find('\n');
        match plus {
            Some(p) if newline.is_none_or(|n| n > p) => {
                out.push_str(&rest[..at]);
                out.push('+');
                rest = &tail[p + 1..];
            }
            _ => {
                out.push_str(&rest[..=at]);
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    Some(out)
}

/// mk_rate's `half_life`: the weight of a result `days` old.
fn half_life(days: f64, opts: &RateOptions) -> f64 {
    if days < opts.half_life_ignore as f64 {
        1.0
    } else {
        (-0.693 / opts.half_life as f64 * (days - opts.half_life_ignore as f64)).exp()
    }
}

/// The players seen, in first-seen order, and their results.
#[derive(Default)]
struct Table {
    ids: Vec<String>,
    index: HashMap<String, usize>,
    /// Per player: opponents in first-seen order with [wins, losses].
    games: Vec<Vec<(usize, [f64; 2])>>,
    last: Vec<Stamp>,
}

impl Table {
    fn player(&mut self, id: &str, time: Stamp) -> usize {
        if let Some(&i) = self.index.get(id) {
            return i;
        }
        let i = self.ids.len();
        self.ids.push(id.to_string());
        self.index.insert(id.to_string(), i);
        self.games.push(Vec::new());
        self.last.push(time);
        i
    }
    fn add(&mut self, p: usize, q: usize, v: [f64; 2]) {
        let row = &mut self.games[p];
        match row.iter_mut().find(|(o, _)| *o == q) {
            Some((_, x)) => {
                x[0] += v[0];
                x[1] += v[1];
            }
            None => row.push((q, v)),
        }
    }
    fn touch(&mut self, p: usize, time: Stamp) {
        let t = &mut self.last[p];
        if (t.unix_secs, t.nanos) < (time.unix_secs, time.nanos) {
            *t = time;
        }
    }
}

/// `mk_rate`: the ratings of the results, as `players.yaml`.
pub fn mk_rate(results: &[GameResult], opts: &RateOptions) -> Result<Rating, RateError> {
    let pattern = match &opts.fixed_rate {
        Some((_, rate)) if *rate <= 0 => return Err(RateError::FixedRateNotPositive(*rate)),
        Some((player, _)) => {
            Some(regex::Regex::new(player).map_err(|_| RateError::BadPattern(player.clone()))?)
        }
        None => None,
    };
    let mut warnings = Vec::new();
    let mut seen = HashSet::new();
    let mut table = Table::default();
    for r in results {
        let line = r.line();
        if !seen.insert(line.clone()) {
            warnings.push(RateWarning::Duplicated(line));
            continue;
        }
        if r.state == "abnormal"
            && (opts.abnormal_threshold == 0 || i64::from(r.plies) <= opts.abnormal_threshold)
        {
            continue;
        }
        let Some(time) = Stamp::parse_time(&r.end_time, opts.zone) else {
            warnings.push(RateWarning::BadTime {
                file: r.file.display().to_string(),
                time: r.end_time.clone(),
            });
            continue;
        };
        let days = opts.base_date.seconds_since(&time) / 86_400.0;
        if days < 0.0 || days > opts.ignore as f64 {
            continue;
        }
        let (Some(black), Some(white)) = (identify_id(&r.black_id), identify_id(&r.white_id))
        else {
            continue;
        };
        if black == white {
            continue;
        }
        let w = half_life(days, opts);
        match (r.black_mark.as_str(), r.white_mark.as_str()) {
            ("win", "lose") | ("lose", "win") => {
                let (winner, loser) = if r.black_mark == "win" {
                    (&black, &white)
                } else {
                    (&white, &black)
                };
                let p = table.player(winner, time);
                let q = table.player(loser, time);
                table.add(p, q, [w, 0.0]);
                table.add(q, p, [0.0, w]);
            }
            ("draw", "draw") => {
                if opts.skip_draw_games {
                    continue;
                }
                let p = table.player(&black, time);
                let q = table.player(&white, time);
                table.add(p, q, [0.5 * w, 0.5 * w]);
                table.add(q, p, [0.5 * w, 0.5 * w]);
            }
            _ => {
                warnings.push(RateWarning::BadMarks {
                    file: r.file.display().to_string(),
                    black: r.black_mark.clone(),
                    white: r.white_mark.clone(),
                });
                continue;
            }
        }
        let p = table.index[&black];
        let q = table.index[&white];
        table.touch(p, time);
        table.touch(q, time);
    }

    // The win matrix over the ids sorted by their bytes.
    let mut order: Vec<usize> = (0..table.ids.len()).collect();
    order.sort_by(|&a, &b| table.ids[a].as_bytes().cmp(table.ids[b].as_bytes()));
    let pos: HashMap<usize, usize> = order.iter().enumerate().map(|(k, &p)| (p, k)).collect();
    let n = order.len();
    let mut wins = vec![vec![0.0f64; n]; n];
    for (k, &p) in order.iter().enumerate() {
        for &(q, v) in &table.games[p] {
            let j = pos[&q];
            if j != k {
                wins[k][j] = v[0];
            }
        }
    }
    let kept = filter(&wins, (0..n).collect());
    let groups = connected_groups(&wins, &kept);

    let mut entries = Vec::new();
    let mut rated = HashSet::new();
    for (g, members) in groups.iter().enumerate() {
        let m: Vec<Vec<f64>> = members
            .iter()
            .map(|&a| {
                members
                    .iter()
                    .map(|&b| if a == b { 0.0 } else { wins[a][b] })
                    .collect()
            })
            .collect();
        let mut rates = Newton::new(&m).solve();
        // average!(1000) and integer!
        let mean = rates.iter().sum::<f64>() / rates.len() as f64;
        let mut ints: Vec<i64> = rates
            .iter_mut()
            .map(|r| {
                let x = *r - (mean - 1000.0);
                if x.is_nan() {
                    0
                } else if x.is_infinite() {
                    if x > 0.0 { 100_000 } else { -100_000 }
                } else {
                    x.trunc() as i64
                }
            })
            .collect();
        if let (Some((player, fixed)), Some(re)) = (&opts.fixed_rate, &pattern) {
            let ids: Vec<&str> = members
                .iter()
                .map(|&a| table.ids[order[a]].as_str())
                .collect();
            let index = ids
                .iter()
                .position(|id| id == player)
                .or_else(|| ids.iter().rposition(|id| re.is_match(id)));
            if let Some(i) = index {
                let shift = fixed - ints[i];
                for r in &mut ints {
                    *r += shift;
                }
            }
        }
        for (i, &a) in members.iter().enumerate() {
            let p = order[a];
            let id = &table.ids[p];
            rated.insert(p);
            entries.push(PlayerEntry {
                player_id: id.clone(),
                name: ruby_name(id),
                rating_group: g as u32,
                rate: ints[i],
                last_modified: Some(table.last[p]),
                win: m[i].iter().sum(),
                loss: m.iter().map(|row| row[i]).sum(),
            });
        }
    }
    if let Some(e) = entries
        .iter()
        .find(|e| !(-10_000..=10_000).contains(&e.rate))
    {
        return Err(RateError::Invalid {
            player: e.player_id.clone(),
            rate: e.rate,
        });
    }
    for (p, id) in table.ids.iter().enumerate() {
        if rated.contains(&p) {
            continue;
        }
        let mut v = [0.0f64; 2];
        for &(_, x) in &table.games[p] {
            v[0] += x[0];
            v[1] += x[1];
        }
        if v[0] < 1.0 && v[1] < 1.0 {
            continue;
        }
        entries.push(PlayerEntry {
            player_id: id.clone(),
            name: ruby_name(id),
            rating_group: UNRATED_GROUP,
            rate: 0,
            last_modified: Some(table.last[p]),
            win: v[0],
            loss: v[1],
        });
    }
    Ok(Rating {
        players: Players { entries },
        warnings,
    })
}

/// `id.split("+")[0]` (an id of `+` alone gives an empty name; Ruby: nil).
fn ruby_name(id: &str) -> String {
    id.split('+').find(|_| true).unwrap_or("").to_string()
}

/// mk_rate's filter: removes, repeatedly, the players with less than one
/// win, less than one loss or less than 15 games among those left.
fn filter(wins: &[Vec<f64>], mut kept: Vec<usize>) -> Vec<usize> {
    const GAMES_LIMIT: f64 = 15.0;
    loop {
        let before = kept.len();
        let next: Vec<usize> = kept
            .iter()
            .copied()
            .filter(|&i| {
                let win: f64 = kept.iter().map(|&j| wins[i][j]).sum();
                let loss: f64 = kept.iter().map(|&j| wins[j][i]).sum();
                !(win < 1.0 || loss < 1.0 || win + loss < GAMES_LIMIT)
            })
            .collect();
        if next.len() == before {
            return next;
        }
        kept = next;
    }
}

/// RGL's connected components of the players linked by a win: vertices in
/// the order the edges add them, neighbours in insertion order, each
/// component in depth-first finishing order; largest first (stable).
fn connected_groups(wins: &[Vec<f64>], kept: &[usize]) -> Vec<Vec<usize>> {
    let mut vertices: Vec<usize> = Vec::new();
    let mut adj: HashMap<usize, Vec<usize>> = HashMap::new();
    let add_vertex = |v: usize, vertices: &mut Vec<usize>, adj: &mut HashMap<usize, Vec<usize>>| {
        adj.entry(v).or_insert_with(|| {
            vertices.push(v);
            Vec::new()
        });
    };
    for &k in kept {
        for &i in kept {
            if k != i && wins[k][i] > 0.0 {
                add_vertex(k, &mut vertices, &mut adj);
                add_vertex(i, &mut vertices, &mut adj);
                for (a, b) in [(k, i), (i, k)] {
                    let list = adj.entry(a).or_default();
                    if !list.contains(&b) {
                        list.push(b);
                    }
                }
            }
        }
    }
    let mut visited: HashSet<usize> = HashSet::new();
    let mut groups = Vec::new();
    for &s in &vertices {
        if visited.contains(&s) {
            continue;
        }
        // Iterative depth-first search recording the finishing order.
        let mut comp = Vec::new();
        let mut stack: Vec<(usize, usize)> = vec![(s, 0)];
        visited.insert(s);
        while let Some(&mut (u, ref mut next)) = stack.last_mut() {
            let list = &adj[&u];
            if *next < list.len() {
                let v = list[*next];
                *next += 1;
                if visited.insert(v) {
                    stack.push((v, 0));
                }
            } else {
                comp.push(u);
                stack.pop();
            }
        }
        groups.push(comp);
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    groups
}

/// GSL's `gsl_sort_index` (a heapsort; its order of equal values is the
/// one the tests record from ruby-gsl).
fn sort_index(data: &[f64]) -> Vec<usize> {
    let n = data.len();
    let mut p: Vec<usize> = (0..n).collect();
    if n == 0 {
        return p;
    }
    fn downheap(p: &mut [usize], data: &[f64], last: usize, mut k: usize) {
        let pki = p[k];
        while k <= last / 2 {
            let mut j = 2 * k;
            if j < last && data[p[j]] < data[p[j + 1]] {
                j += 1;
            }
            // Not `>=`: GSL's test, which NaN passes.
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            if !(data[pki] < data[p[j]]) {
                break;
            }
            p[k] = p[j];
            k = j;
        }
        p[k] = pki;
    }
    let mut last = n - 1;
    let mut k = last / 2 + 1;
    loop {
        k -= 1;
        downheap(&mut p, data, last, k);
        if k == 0 {
            break;
        }
    }
    while last > 0 {
        p.swap(0, last);
        last -= 1;
        downheap(&mut p, data, last, 0);
    }
    p
}

/// `1 / (1 + 10^(−d/400))` in mk_rate's units: `e^(−K·d)`.
const K: f64 = std::f64::consts::LN_10 / 400.0;
const ERROR_LIMIT: f64 = 1.0e-3;
const COUNT_MAX: u32 = 500;

/// mk_rate's `Rating`: damped Newton's method on one group.
struct Newton<'a> {
    n: &'a [Vec<f64>],
    rate: Vec<f64>,
    best: Option<(f64, Vec<f64>)>,
    count: u32,
}

fn nrm2(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// Subtracts the mean (`Rating.average`).
fn centred(mut v: Vec<f64>) -> Vec<f64> {
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    for x in &mut v {
        *x -= mean;
    }
    v
}

#[allow(clippy::needless_range_loop)] // n[k][i] and n[i][k] side by side
impl<'a> Newton<'a> {
    fn new(n: &'a [Vec<f64>]) -> Self {
        let size = n.len();
        // initial_rate: win ratios, ranked by GSL's sort_index (whose
        // result is a permutation, used as mk_rate uses it).
        let possibility: Vec<f64> = (0..size)
            .map(|k| {
                let (mut w, mut l) = (0.0, 0.0);
                for i in 0..size {
                    if i != k {
                        w += n[k][i];
                        l += n[i][k];
                    }
                }
                if (w * w + l * l).sqrt() < 1.0 {
                    0.0
                } else {
                    w / (w + l)
                }
            })
            .collect();
        let rank = sort_index(&possibility);
        let rate = centred(
            (0..size)
                .map(|k| K * 500.0 * (rank[k] + 1) as f64 / size as f64)
                .collect(),
        );
        Newton {
            n,
            rate,
            best: None,
            count: 0,
        }
    }

    fn win_rate(&self, k: usize, i: usize) -> f64 {
        1.0 / (1.0 + (self.rate[i] - self.rate[k]).exp())
    }

    fn func(&self) -> Vec<f64> {
        let size = self.n.len();
        (0..size)
            .map(|k| {
                let mut sum = 0.0;
                for i in 0..size {
                    if i != k {
                        sum +=
                            self.n[k][i] * self.win_rate(i, k) - self.n[i][k] * self.win_rate(k, i);
                    }
                }
                sum * 2.0
            })
            .collect()
    }

    fn jacobian(&self) -> Vec<Vec<f64>> {
        let size = self.n.len();
        (0..size)
            .map(|k| {
                (0..size)
                    .map(|j| {
                        if k == j {
                            let mut sum = 0.0;
                            for i in 0..size {
                                if i != k {
                                    sum += self.win_rate(i, k)
                                        * self.win_rate(k, i)
                                        * (self.n[k][i] + self.n[i][k]);
                                }
                            }
                            -2.0 * sum
                        } else {
                            2.0 * self.win_rate(j, k)
                                * self.win_rate(k, j)
                                * (self.n[k][j] + self.n[j][k])
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn record(&mut self, key: f64, rate: &[f64]) {
        let lower = match &self.best {
            None => true,
            Some((k, _)) => key < *k,
        };
        if lower {
            self.best = Some((key, rate.to_vec()));
        }
    }

    fn initial_rate2(&mut self) {
        if let Some((_, r)) = &self.best {
            self.rate = r.clone();
        }
        let rank = sort_index(&self.rate);
        let size = self.n.len();
        self.rate = centred(
            (0..size)
                .map(|k| K * f64::from(self.count) * 1.5 * (rank[k] + 1) as f64 / size as f64)
                .collect(),
        );
    }

    fn deaccelerate(&mut self, old_rate: &[f64], a: &[f64], old_f_nrm2: f64) {
        let mut mu = 1.0;
        loop {
            self.rate = old_rate.iter().zip(a).map(|(r, x)| r - x * mu).collect();
            let f = nrm2(&self.func());
            if f < (1.0 - mu / 4.0) * old_f_nrm2 {
                return;
            }
            if mu < 1e-4 {
                let rate = self.rate.clone();
                self.record(f, &rate);
                self.initial_rate2();
                return;
            }
            mu *= 0.5;
        }
    }

    /// The rates in rating points (mean 0), ±∞ as ±100000.
    fn solve(mut self) -> Vec<f64> {
        loop {
            let f = self.func();
            let j = self.jacobian();
            let a = centred(solve_zero_mean(&j, &f));
            let old_rate = self.rate.clone();
            let old_f_nrm2 = nrm2(&f);
            self.deaccelerate(&old_rate, &a, old_f_nrm2);
            let key = nrm2(&self.func());
            let rate = self.rate.clone();
            self.record(key, &rate);
            self.count += 1;
            if self.count > COUNT_MAX {
                break;
            }
            // mk_rate's `while (a.nrm2 > ...)`: a NaN stops too.
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            if !(nrm2(&a) > ERROR_LIMIT * nrm2(&self.rate)) {
                break;
            }
        }
        let rate = self.best.map_or(self.rate, |(_, r)| r);
        rate.into_iter()
            .map(|r| {
                let x = r / K;
                if x.is_infinite() {
                    x.signum() * 100_000.0
                } else {
                    x
                }
            })
            .collect()
    }
}

/// The least-squares solution of `J·a = f` with zero mean, for mk_rate's
/// symmetric Jacobian (rows summing to 0, `f` summing to 0): `(J + 𝟙𝟙ᵀ)·a
/// = f` by Gaussian elimination with partial pivoting; a zero pivot leaves
/// its component 0 (as a truncated SVD would).
#[allow(clippy::needless_range_loop)] // rows `col` and `r` side by side
fn solve_zero_mean(j: &[Vec<f64>], f: &[f64]) -> Vec<f64> {
    let n = f.len();
    let mut m: Vec<Vec<f64>> = (0..n)
        .map(|r| {
            let mut row: Vec<f64> = j[r].iter().map(|x| x + 1.0).collect();
            row.push(f[r]);
            row
        })
        .collect();
    for col in 0..n {
        let Some(piv) = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
        else {
            break;
        };
        m.swap(col, piv);
        let p = m[col][col];
        if p.abs() < 1e-300 || !p.is_finite() {
            continue;
        }
        for r in col + 1..n {
            let factor = m[r][col] / p;
            if factor != 0.0 {
                for c in col..=n {
                    let v = m[col][c];
                    m[r][c] -= factor * v;
                }
            }
        }
    }
    let mut a = vec![0.0; n];
    for r in (0..n).rev() {
        let p = m[r][r];
        if p.abs() < 1e-300 || !p.is_finite() {
            continue;
        }
        let mut s = m[r][n];
        for c in r + 1..n {
            s -= m[r][c] * a[c];
        }
        a[r] = s / p;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_index_orders_ties_as_gsl() {
        // ruby-gsl 2.7.1: GSL::Vector[...].sort_index.to_a
        let cases: [(&[f64], &[usize]); 4] = [
            (&[0.5, 0.5, 0.5, 0.2, 0.5, 0.8, 0.2], &[3, 6, 4, 1, 2, 0, 5]),
            (&[1.0, 1.0, 1.0, 1.0], &[1, 2, 3, 0]),
            (&[3.0, 1.0, 2.0, 1.0, 3.0, 0.0], &[5, 1, 3, 2, 4, 0]),
            (
                &[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.5, 0.5],
                &[5, 1, 3, 2, 0, 6, 7, 8, 4, 11, 10, 9],
            ),
        ];
        for (data, gsl) in cases {
            assert_eq!(sort_index(data), gsl);
        }
    }

    #[test]
    fn identify_id_as_mk_rate() {
        assert_eq!(identify_id("a@v2+h").as_deref(), Some("a+h"));
        assert_eq!(identify_id("a@x@y+h").as_deref(), Some("a+h"));
        assert_eq!(identify_id("a@x+b@y+c").as_deref(), Some("a+b+c"));
        assert_eq!(identify_id("a@x").as_deref(), Some("a@x"));
        assert_eq!(identify_id("t@NORATE+h"), None);
    }

    #[test]
    fn two_players_three_to_one() {
        // P(a beats b) = 3/4 = 1/(1+10^(-d/400)) gives d = 400·log10(3)
        // = 190.848...; the mean is 1000, so a = 1095.42, b = 904.58,
        // truncated toward zero.
        let n = vec![vec![0.0, 3.0], vec![1.0, 0.0]];
        let r = Newton::new(&n).solve();
        let d = r[0] - r[1];
        assert!((d - 400.0 * 3f64.log10()).abs() < 0.5, "{d}");
        assert!((r[0] + r[1]).abs() < 1e-6);
    }

    #[test]
    fn three_players_known_strengths() {
        // Results proportional to the model's probabilities for rates
        // 0, 200, 400 (P = 1/(1+10^(-d/400)) · 100 games each pair) are
        // its maximum-likelihood estimate: differences 200 and 400.
        let p = |d: f64| 100.0 / (1.0 + 10f64.powf(-d / 400.0));
        let n = vec![
            vec![0.0, p(-200.0), p(-400.0)],
            vec![p(200.0), 0.0, p(-200.0)],
            vec![p(400.0), p(200.0), 0.0],
        ];
        let r = Newton::new(&n).solve();
        assert!((r[1] - r[0] - 200.0).abs() < 0.5, "{r:?}");
        assert!((r[2] - r[0] - 400.0).abs() < 0.5, "{r:?}");
    }

    #[test]
    fn filter_and_groups() {
        // 0 and 1 play 20 games (10 each way); 2 beats 0 once: 2 has no
        // loss and is removed, then 0/1 remain (each 10 wins, 10 losses).
        let w = vec![
            vec![0.0, 10.0, 0.0],
            vec![10.0, 0.0, 0.0],
            vec![1.0, 0.0, 0.0],
        ];
        let kept = filter(&w, vec![0, 1, 2]);
        assert_eq!(kept, vec![0, 1]);
        // Two separate pairs: the graph adds 0,1 then 2,3; the finishing
        // order of the search from 0 is 1, 0.
        let w = vec![
            vec![0.0, 1.0, 0.0, 0.0],
            vec![1.0, 0.0, 0.0, 0.0],
            vec![0.0, 0.0, 0.0, 1.0],
            vec![0.0, 0.0, 1.0, 0.0],
        ];
        assert_eq!(
            connected_groups(&w, &[0, 1, 2, 3]),
            vec![vec![1, 0], vec![3, 2]]
        );
    }

    #[test]
    fn half_life_weights() {
        let opts = RateOptions::new(
            Stamp {
                unix_secs: 0,
                nanos: 0,
                utc_offset_secs: 0,
            },
            Zone::Fixed(0),
        );
        assert_eq!(half_life(6.9, &opts), 1.0);
        // 67 days: 60 days after the 7 ignored, exp(-0.693) = 0.50007...
        assert!((half_life(67.0, &opts) - (-0.693f64).exp()).abs() < 1e-15);
        assert!((half_life(67.0, &opts) - 0.5).abs() < 1e-3);
    }
}
