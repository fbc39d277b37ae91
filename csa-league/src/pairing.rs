//! Pairing the players waiting for a Floodgate game, as shogi-server's
//! `shogi_server/pairing.rb` does.
//!
//! A [`Factory`] (the schedule's `set pairing_factory`) is a list of
//! [`Logic`] steps, each taking the list of players and changing it; the
//! last one starts the games two by two:
//!
//! | factory | steps |
//! |---|---|
//! | `default_factory`, `least_diff_pairing` | LogPlayers, ExcludeSacrifice, MakeEven, LeastDiff, StartGameWithoutHumans |
//! | `sort_by_rate_with_randomness` | LogPlayers, ExcludeSacrifice, MakeEven, SortByRateWithRandomness(1200, 2400), StartGameWithoutHumans |
//! | `random_pairing` | LogPlayers, ExcludeSacrifice, MakeEven, Randomize, StartGameWithoutHumans |
//! | `swiss_pairing` | LogPlayers, ExcludeSacrifice, MakeEven, Swiss, StartGameWithoutHumans |
//! | `floodgate_zyunisen` | LogPlayers, ExcludeUnratedPlayers, ExcludeSacrifice, MakeEven, LeastDiff, StartGameWithoutHumans |
//!
//! LeastDiff scores an ordering (players paired 1–2, 3–4, …) as the sum
//! over its pairs of the absolute rate difference plus penalties: 400 when
//! either player's last opponent (in the game's history) is the other,
//! 4,000 more when, in addition, either of them is unrated; 800 for two
//! humans; 800 when the two rating ids share their first 7 characters, else
//! 400 when they share their first 4. An unrated player's rate is
//! estimated from its last game with a winner: the opponent's rate + 200
//! when it won, − 200 when it lost, if the opponent is among the active
//! players and has a rate (or an estimate made earlier in the same
//! pairing); otherwise 2150. Up to 7 players every ordering is scored (in
//! Ruby's `Array#permutation` order, the first minimum kept); beyond,
//! min(300, possibilities / 3), at least 10, random orderings are.
//!
//! All random choices (MakeEven's player, the orderings, the colours, the
//! sort noise) come from the caller's generator, so a seed gives the same
//! pairing every time. They are not Ruby's random numbers: where
//! shogi-server's own tests depend on `srand(10)`, only what does not
//! depend on the draw is comparable.

use rand_core::Rng;

/// A player to pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The login name (humans are recognised by it: `…_human` or
    /// `…_human@…`).
    pub name: String,
    /// The rating id (history and `players.yaml` key).
    pub player_id: String,
    /// The rate from `players.yaml`; 0 for a player without one (unrated),
    /// as shogi-server keeps it.
    pub rate: i64,
}

impl Candidate {
    /// shogi-server's `is_human?`: the name ends with `_human` or contains
    /// `_human@`.
    pub fn is_human(&self) -> bool {
        self.name.ends_with("_human") || self.name.contains("_human@")
    }
}

/// A pairing factory (`set pairing_factory NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Factory {
    DefaultFactory,
    LeastDiffPairing,
    SortByRateWithRandomness,
    RandomPairing,
    SwissPairing,
    FloodgateZyunisen,
}

impl Factory {
    /// The factory of shogi-server's name (`default_factory`, …).
    pub fn from_name(name: &str) -> Option<Factory> {
        Some(match name {
            "default_factory" => Factory::DefaultFactory,
            "least_diff_pairing" => Factory::LeastDiffPairing,
            "sort_by_rate_with_randomness" => Factory::SortByRateWithRandomness,
            "random_pairing" => Factory::RandomPairing,
            "swiss_pairing" => Factory::SwissPairing,
            "floodgate_zyunisen" => Factory::FloodgateZyunisen,
            _ => return None,
        })
    }

    /// shogi-server's name.
    pub fn name(self) -> &'static str {
        match self {
            Factory::DefaultFactory => "default_factory",
            Factory::LeastDiffPairing => "least_diff_pairing",
            Factory::SortByRateWithRandomness => "sort_by_rate_with_randomness",
            Factory::RandomPairing => "random_pairing",
            Factory::SwissPairing => "swiss_pairing",
            Factory::FloodgateZyunisen => "floodgate_zyunisen",
        }
    }

    /// The steps, as the table of the [module](self) says.
    pub fn logics(self, sacrifice: &str) -> Vec<Logic> {
        let sac = Logic::ExcludeSacrifice(sacrifice.into());
        let middle = match self {
            Factory::DefaultFactory | Factory::LeastDiffPairing | Factory::FloodgateZyunisen => {
                Logic::LeastDiff
            }
            Factory::SortByRateWithRandomness => Logic::SortByRateWithRandomness {
                rand1: 1200,
                rand2: 2400,
                desc: false,
            },
            Factory::RandomPairing => Logic::Randomize,
            Factory::SwissPairing => Logic::Swiss,
        };
        let mut v = vec![Logic::LogPlayers];
        if self == Factory::FloodgateZyunisen {
            v.push(Logic::ExcludeUnratedPlayers);
        }
        v.extend([sac, Logic::MakeEven, middle, Logic::StartGameWithoutHumans]);
        v
    }
}

/// One step of a factory (shogi-server's `Pairing` subclasses).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Logic {
    /// Logs the players.
    LogPlayers,
    /// Leaves the players with rate 0 out.
    ExcludeUnratedPlayers,
    /// Leaves this id out when the players are odd.
    ExcludeSacrifice(String),
    /// Leaves one player, chosen at random, out when the players are odd.
    MakeEven,
    /// Orders the players for the least score (see the [module](self)).
    LeastDiff,
    /// Sorts by rate plus a random 0..`rand1` (shogi-server's `rand2`, for
    /// a player without a rate, never applies: its rate is 0, not nil),
    /// ascending, or descending with `desc`.
    SortByRateWithRandomness {
        /// Noise bound for a rated player (exclusive).
        rand1: u32,
        /// Noise bound for a player without a rate (never used).
        rand2: u32,
        /// Descending order.
        desc: bool,
    },
    /// Shuffles the players.
    Randomize,
    /// The last game's winners first, each group sorted by rate (noise 800
    /// for winners, 200 for the rest), descending; nothing under 3 players.
    Swiss,
    /// Pairs 1–2, 3–4, …, first breaking up human–human pairs where a
    /// computer is near (shogi-server's `StartGameWithoutHumans`); the
    /// colours at random.
    StartGameWithoutHumans,
}

/// Why a player was left out of a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LeftOut {
    /// ExcludeUnratedPlayers: no rate.
    Unrated,
    /// ExcludeSacrifice: the sacrifice id with odd players.
    Sacrifice,
    /// MakeEven: chosen at random with odd players.
    MadeEven,
    /// Nobody left to play with.
    NoOpponent,
}

impl LeftOut {
    /// Words for the log.
    pub fn describe(self) -> &'static str {
        match self {
            LeftOut::Unrated => "unrated (ExcludeUnratedPlayers)",
            LeftOut::Sacrifice => "the sacrifice with odd players (ExcludeSacrifice)",
            LeftOut::MadeEven => "chosen at random with odd players (MakeEven)",
            LeftOut::NoOpponent => "no opponent left",
        }
    }
}

/// One game of a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    /// Black, an index into the candidates.
    pub black: usize,
    /// White.
    pub white: usize,
    /// The rates used (estimates for unrated players; the rates themselves
    /// when LeastDiff did not run).
    pub rates: (i64, i64),
    /// The pair's LeastDiff score (difference plus penalties).
    pub score: i64,
}

/// What a pairing decided.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The games, in the order they start.
    pub pairs: Vec<Pair>,
    /// The players left out, with the reason.
    pub left_out: Vec<(usize, LeftOut)>,
    /// LeastDiff's least score, when it ran over 3 or more players.
    pub least_score: Option<i64>,
    /// shogi-server's log lines (`Floodgate: …`).
    pub log: Vec<String>,
}

/// What pairing needs to know of the game's history.
pub trait HistoryView {
    /// The opponent of `player_id` in its last game with a winner.
    fn last_opponent(&self, player_id: &str) -> Option<&str>;
    /// The last game with a winner of `player_id`: `Some(true)` won,
    /// `Some(false)` lost, and the opponent's id.
    fn last_result(&self, player_id: &str) -> Option<(bool, &str)>;
    /// Whether `player_id` won its last game with a winner.
    fn last_win(&self, player_id: &str) -> bool {
        matches!(self.last_result(player_id), Some((true, _)))
    }
}

impl HistoryView for crate::history::History {
    fn last_opponent(&self, player_id: &str) -> Option<&str> {
        crate::history::History::last_opponent(self, player_id)
    }
    fn last_result(&self, player_id: &str) -> Option<(bool, &str)> {
        let g = self.last_valid_game(player_id)?;
        if g.winner.as_deref() == Some(player_id) {
            Some((true, g.loser.as_deref()?))
        } else if g.loser.as_deref() == Some(player_id) {
            Some((false, g.winner.as_deref()?))
        } else {
            None
        }
    }
    fn last_win(&self, player_id: &str) -> bool {
        crate::history::History::last_win(self, player_id)
    }
}

/// Uniform in `0..n` (`n > 0`), without bias.
pub(crate) fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX - n + 1) % n;
    loop {
        let v = rng.next_u64();
        if v <= zone {
            return v % n;
        }
    }
}

fn shuffle<T, R: Rng + ?Sized>(v: &mut [T], rng: &mut R) {
    for i in (1..v.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

/// shogi-server's `total_posibilities(n)`: the ways to pair `n` players
/// (an odd `n` counts as `n − 1`), saturating at `u64::MAX`.
pub fn total_possibilities(n: usize) -> u64 {
    let n = if n % 2 == 1 { n - 1 } else { n };
    let mut r: u64 = 1;
    let mut i = n;
    while i > 2 {
        r = r.saturating_mul(i as u64 - 1);
        i -= 2;
    }
    r
}

/// LeastDiff's trials beyond 7 players: min(300, possibilities / 3), at
/// least 10.
pub fn trials(n: usize) -> u64 {
    (total_possibilities(n) / 3).clamp(10, 300)
}

/// The first `n` characters of `s` (Ruby's `s[0..n-1]`).
fn prefix(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Per-candidate facts for LeastDiff, with ids interned.
struct Scorer<'a, H: ?Sized> {
    c: &'a [Candidate],
    history: Option<&'a H>,
    /// Active players by name, for the rate of a last opponent.
    active: &'a [Candidate],
    /// Estimated rates (0: not estimated), shogi-server's `estimated_rate`.
    est: Vec<i64>,
    id: Vec<u32>,
    last_opp: Vec<Option<u32>>,
    human: Vec<bool>,
    kin7: Vec<u32>,
    kin4: Vec<u32>,
    log: Vec<String>,
}

impl<'a, H: HistoryView + ?Sized> Scorer<'a, H> {
    fn new(c: &'a [Candidate], history: Option<&'a H>, active: &'a [Candidate]) -> Self {
        use std::collections::HashMap;
        let mut ids: HashMap<&str, u32> = HashMap::new();
        let mut intern = |s: &'a str| {
            let n = ids.len() as u32;
            *ids.entry(s).or_insert(n)
        };
        let id: Vec<u32> = c.iter().map(|p| intern(&p.player_id)).collect();
        let kin7 = c.iter().map(|p| intern(prefix(&p.player_id, 7))).collect();
        let kin4 = c.iter().map(|p| intern(prefix(&p.player_id, 4))).collect();
        let last_opp = c
            .iter()
            .map(|p| {
                let o = history?.last_opponent(&p.player_id)?;
                // An id no candidate has matches nobody.
                Some(ids.get(o).copied().unwrap_or(u32::MAX))
            })
            .collect();
        Scorer {
            c,
            history,
            active,
            est: vec![0; c.len()],
            id,
            last_opp,
            human: c.iter().map(Candidate::is_human).collect(),
            kin7,
            kin4,
            log: Vec::new(),
        }
    }

    fn estimate(&mut self, i: usize) {
        let p = &self.c[i];
        self.est[i] = 2150;
        let Some(h) = self.history else {
            self.log.push(format!(
                "Floodgate: Without game history, estimated {}'s rate: 2150",
                p.name
            ));
            return;
        };
        let Some((win, opp_id)) = h.last_result(&p.player_id) else {
            self.log.push(format!(
                "Floodgate: Without any valid games in history, estimated {}'s rate: 2150",
                p.name
            ));
            return;
        };
        let opp_name = opp_id.split('+').next().unwrap_or("");
        // The opponent's rate, or its estimate when it is a candidate
        // estimated earlier in this pairing.
        let opp = self.active.iter().position(|a| a.name == opp_name);
        let Some(o) = opp else {
            self.log.push(format!(
                "Floodgate: No active opponent found. Estimated {}'s rate: 2150",
                p.name
            ));
            return;
        };
        let mut rate = self.active[o].rate;
        if rate == 0 {
            rate = self
                .c
                .iter()
                .position(|x| x.name == opp_name)
                .map_or(0, |k| self.est[k]);
        }
        if rate != 0 {
            self.est[i] = rate + if win { 200 } else { -200 };
        }
        self.log.push(format!(
            "Floodgate: Estimated {}'s rate: {}",
            p.name, self.est[i]
        ));
    }

    fn rate(&mut self, i: usize) -> i64 {
        if self.c[i].rate != 0 {
            self.c[i].rate
        } else if self.est[i] != 0 {
            self.est[i]
        } else {
            self.estimate(i);
            self.est[i]
        }
    }

    fn penalty(&self, a: usize, b: usize) -> i64 {
        let mut s = 0;
        if self.last_opp[a] == Some(self.id[b]) || self.last_opp[b] == Some(self.id[a]) {
            s += 400;
            if self.est[a] != 0 || self.est[b] != 0 {
                s += 4000;
            }
        }
        if self.human[a] && self.human[b] {
            s += 800;
        }
        if self.kin7[a] == self.kin7[b] {
            s += 800;
        } else if self.kin4[a] == self.kin4[b] {
            s += 400;
        }
        s
    }

    /// shogi-server's `calculate_diff_with_penalty`.
    fn score(&mut self, order: &[usize]) -> i64 {
        let mut s = 0;
        for p in order.chunks_exact(2) {
            s += (self.rate(p[0]) - self.rate(p[1])).abs();
        }
        for p in order.chunks_exact(2) {
            s += self.penalty(p[0], p[1]);
        }
        s
    }

    fn pair_score(&mut self, a: usize, b: usize) -> i64 {
        (self.rate(a) - self.rate(b)).abs() + self.penalty(a, b)
    }
}

/// LeastDiff's score of an ordering of `players` (pairs 1–2, 3–4, …; an
/// odd last one unpaired), shogi-server's `calculate_diff_with_penalty`
/// with fresh estimates. `active`: the players logged in, where an unrated
/// player's last opponent is looked up by name.
pub fn score<H: HistoryView + ?Sized>(
    players: &[Candidate],
    history: Option<&H>,
    active: &[Candidate],
) -> i64 {
    let mut s = Scorer::new(players, history, active);
    let order: Vec<usize> = (0..players.len()).collect();
    s.score(&order)
}

fn names(c: &[Candidate], list: &[usize]) -> String {
    if list.is_empty() {
        return "Floodgate: [Players] Nobody found.".into();
    }
    let v: Vec<&str> = list.iter().map(|&i| c[i].name.as_str()).collect();
    format!("Floodgate: [Players] {}.", v.join(", "))
}

/// Ruby's `Array#permutation` order: the next permutation of `idx` in
/// lexicographic order of positions; `false` after the last.
fn next_permutation(v: &mut [usize]) -> bool {
    let n = v.len();
    if n < 2 {
        return false;
    }
    let mut i = n - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = n - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// Pairs `players` with the steps of `logics`.
///
/// - `history`: the game's history (`None`: shogi-server could not open
///   the file; no repeat penalty, estimates 2150);
/// - `active`: every player logged in (for an unrated player's estimate,
///   shogi-server's `$league.find(name)`); the candidates themselves are
///   looked up there too;
/// - `rng`: every random choice.
///
/// Indexes in the [`Outcome`] are into `players`.
pub fn pair<H: HistoryView + ?Sized, R: Rng + ?Sized>(
    players: &[Candidate],
    logics: &[Logic],
    history: Option<&H>,
    active: &[Candidate],
    rng: &mut R,
) -> Outcome {
    let mut out = Outcome::default();
    let mut list: Vec<usize> = (0..players.len()).collect();
    let mut scorer = Scorer::new(players, history, active);
    let mut rates_from_scorer = false;
    for logic in logics {
        match logic {
            Logic::LogPlayers => out.log.push(names(players, &list)),
            Logic::ExcludeUnratedPlayers => {
                out.log
                    .push("Floodgate: Deleting unrated players...".into());
                list.retain(|&i| {
                    let keep = players[i].rate != 0;
                    if !keep {
                        out.left_out.push((i, LeftOut::Unrated));
                    }
                    keep
                });
                out.log.push(names(players, &list));
            }
            Logic::ExcludeSacrifice(id) => {
                if list.len() % 2 == 1 && list.iter().any(|&i| players[i].player_id == *id) {
                    out.log
                        .push(format!("Floodgate: Deleting the sacrifice {id}"));
                    list.retain(|&i| {
                        let keep = players[i].player_id != *id;
                        if !keep {
                            out.left_out.push((i, LeftOut::Sacrifice));
                        }
                        keep
                    });
                    out.log.push(names(players, &list));
                }
            }
            Logic::MakeEven => {
                if list.len() % 2 == 1 {
                    out.log.push(format!(
                        "Floodgate: There are odd players ({}). Deleting one of them...",
                        list.len()
                    ));
                    let k = below(rng, list.len() as u64) as usize;
                    let one = list.remove(k);
                    out.log.push(format!(
                        "Floodgate: Deleted {} at random",
                        players[one].name
                    ));
                    out.left_out.push((one, LeftOut::MadeEven));
                    out.log.push(names(players, &list));
                }
            }
            Logic::LeastDiff => {
                if list.len() < 3 {
                    out.log.push(format!(
                        "Floodgate: players are small enough to skip LeastDiff pairing: {}",
                        list.len()
                    ));
                    continue;
                }
                scorer.est.iter_mut().for_each(|e| *e = 0);
                rates_from_scorer = true;
                let mut scores = Vec::new();
                let mut best: Option<(i64, Vec<usize>)> = None;
                let mut consider = |s: &mut Scorer<'_, H>, order: &[usize]| {
                    let sc = s.score(order);
                    scores.push(sc);
                    if best.as_ref().is_none_or(|(b, _)| sc < *b) {
                        best = Some((sc, order.to_vec()));
                    }
                };
                if list.len() <= 7 {
                    let mut pos: Vec<usize> = (0..list.len()).collect();
                    loop {
                        let order: Vec<usize> = pos.iter().map(|&k| list[k]).collect();
                        consider(&mut scorer, &order);
                        if !next_permutation(&mut pos) {
                            break;
                        }
                    }
                } else {
                    let t = trials(list.len());
                    out.log.push(format!("Floodgate: {t} trials"));
                    let mut order = list.clone();
                    for _ in 0..t {
                        order.copy_from_slice(&list);
                        shuffle(&mut order, rng);
                        consider(&mut scorer, &order);
                    }
                }
                out.log.append(&mut scorer.log);
                let Some((min, order)) = best else { continue };
                scores.sort_unstable();
                let per_game = min / list.len() as i64 * 2;
                out.log.push(format!(
                    "Floodgate: the least score {min} ({per_game} per game) [min={} median={} max={} count={}]",
                    scores[0],
                    scores[scores.len() / 2],
                    scores[scores.len() - 1],
                    scores.len()
                ));
                out.least_score = Some(min);
                list = order;
            }
            Logic::SortByRateWithRandomness { rand1, desc, .. } => {
                sort_with_noise(players, &mut list, *rand1, *desc, rng, &mut out.log);
            }
            Logic::Randomize => {
                out.log.push("Floodgate: Randomize... before".into());
                out.log.push(names(players, &list));
                shuffle(&mut list, rng);
                out.log.push("Floodgate: Randomized after".into());
                out.log.push(names(players, &list));
            }
            Logic::Swiss => {
                if list.len() < 3 {
                    out.log.push(format!(
                        "Floodgate: players are small enough to skip Swiss pairing: {}",
                        list.len()
                    ));
                    continue;
                }
                let (mut winners, mut rest): (Vec<usize>, Vec<usize>) = list
                    .iter()
                    .partition(|&&i| history.is_some_and(|h| h.last_win(&players[i].player_id)));
                out.log
                    .push(format!("Floodgate: Ordering {} winners...", winners.len()));
                sort_with_noise(players, &mut winners, 800, true, rng, &mut out.log);
                out.log
                    .push(format!("Floodgate: Ordering the rest ({})...", rest.len()));
                sort_with_noise(players, &mut rest, 200, true, rng, &mut out.log);
                list = winners;
                list.append(&mut rest);
            }
            Logic::StartGameWithoutHumans => {
                start_games(players, &mut list, rng, &mut out.log, &mut |a, b| {
                    let (rates, score) = if rates_from_scorer {
                        let sc = scorer.pair_score(a, b);
                        ((scorer.rate(a), scorer.rate(b)), sc)
                    } else {
                        let sc = (players[a].rate - players[b].rate).abs() + scorer.penalty(a, b);
                        ((players[a].rate, players[b].rate), sc)
                    };
                    out.pairs.push(Pair {
                        black: a,
                        white: b,
                        rates,
                        score,
                    });
                });
                for &i in &list {
                    out.left_out.push((i, LeftOut::NoOpponent));
                }
                list.clear();
            }
        }
    }
    out
}

fn sort_with_noise<R: Rng + ?Sized>(
    players: &[Candidate],
    list: &mut [usize],
    rand1: u32,
    desc: bool,
    rng: &mut R,
    log: &mut Vec<String>,
) {
    let mut keyed: Vec<(i64, usize)> = list
        .iter()
        .map(|&i| {
            (
                players[i].rate + below(rng, u64::from(rand1.max(1))) as i64,
                i,
            )
        })
        .collect();
    keyed.sort_by_key(|k| k.0);
    if desc {
        keyed.reverse();
    }
    for (slot, (_, i)) in list.iter_mut().zip(&keyed) {
        *slot = *i;
    }
    let v: Vec<String> = keyed
        .iter()
        .map(|&(c, i)| {
            format!(
                "{} {} (+ randomness {})",
                players[i].name,
                players[i].rate,
                c - players[i].rate
            )
        })
        .collect();
    log.push(if v.is_empty() {
        "Floodgate: [Players] Nobody found.".into()
    } else {
        format!("Floodgate: [Players] {}.", v.join(", "))
    });
}

/// shogi-server's `StartGameWithoutHumans`: calls `start(black, white)` for
/// each game; what is left in `list` is unpaired.
fn start_games<R: Rng + ?Sized>(
    players: &[Candidate],
    list: &mut Vec<usize>,
    rng: &mut R,
    log: &mut Vec<String>,
    start: &mut dyn FnMut(usize, usize),
) {
    let mut start_shuffled = |a: usize, b: usize, log: &mut Vec<String>| {
        let (black, white) = if below(rng, 2) == 0 { (a, b) } else { (b, a) };
        log.push(format!(
            "Floodgate: Starting a game: BLACK {} vs WHITE {}",
            players[black].name, players[white].name
        ));
        start(black, white);
    };
    log.push(names(players, list));
    if list.len() < 2 {
        log.push(format!(
            "Floodgate: There are less than two players: {}",
            list.len()
        ));
        return;
    }
    if list.len() == 2 {
        let (a, b) = (list[0], list[1]);
        list.clear();
        start_shuffled(a, b, log);
        return;
    }
    loop {
        let humans: Vec<usize> = (0..list.len())
            .filter(|&k| players[list[k]].is_human())
            .collect();
        log.push(format!(
            "Floodgate: There are (still) {} humans.",
            humans.len()
        ));
        if humans.len() < 2 {
            break;
        }
        let found = humans
            .windows(2)
            .find(|w| w[0] % 2 == 0 && w[0] + 1 == w[1])
            .map(|w| w[0]);
        let Some(cur) = found else {
            log.push("Floodgate: No possible human-human match found".into());
            break;
        };
        let mut j = cur.saturating_sub(2);
        while j < list.len() && players[list[j]].is_human() {
            j += 1;
        }
        let other = if j == list.len() { cur + 1 } else { j };
        let (hi, lo) = (cur.max(other), cur.min(other));
        let first = list.remove(hi);
        let second = list.remove(lo);
        start_shuffled(first, second, log);
    }
    while list.len() >= 2 {
        let a = list.remove(0);
        let b = list.remove(0);
        start_shuffled(a, b, log);
    }
}
