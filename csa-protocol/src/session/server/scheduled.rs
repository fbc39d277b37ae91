//! Players waiting for a league's games ([`League`]): the server's side of
//! scheduled pairing (shogi-server's Floodgate thread: `SetupFloodgate`,
//! `Floodgate#match_game`, `Floodgate#select_players`).

use alloc::boxed::Box;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use super::*;

impl<I: Timestamp> Server<I> {
    /// Hands some game names over to `league`: players asking for a game
    /// it [schedules](League::schedules) wait (`%%WHO`: `game_waiting
    /// <name> *`, as shogi-server lists a Floodgate player) until its
    /// [next pairing](League::next_pairing); then
    /// [`Server::handle_timeout`] gives [`League::pair`] every player
    /// waiting for one of its games and starts the games it returns, each
    /// with its own `Max_Moves` and `Least_Time_Per_Move`
    /// ([`LeagueGame`]). The round's log lines come out as
    /// [`ServerEvent::League`]. A game of a scheduled name that ends is
    /// told to [`League::game_ended`].
    ///
    /// As shogi-server's `Floodgate#select_players`, only players it rates
    /// are handed over (a password other than a plain CSA-mode game name,
    /// [`WaitingPlayer::player_id`]) and only those who asked for side `*`
    /// (`floodgate-...` names refuse `+`/`-` anyway); the others keep
    /// waiting. `%%CHALLENGE` for a scheduled name finds no rival, as in
    /// shogi-server.
    ///
    /// A league set later replaces the earlier one; players already
    /// waiting for its names are paired at its next time.
    pub fn set_league(&mut self, league: Box<dyn League>) {
        self.league = Some(league);
        self.league_paired_at = None;
    }

    /// The league ([`Server::set_league`]), if any.
    pub fn league(&self) -> Option<&dyn League> {
        self.league.as_deref()
    }

    /// The league, to change it between pairings (its players' ratings,
    /// its schedules).
    pub fn league_mut(&mut self) -> Option<&mut (dyn League + 'static)> {
        self.league.as_deref_mut()
    }

    /// Replaces the ratings `%%RATING` lists ([`ServerConfig::ratings`]),
    /// e.g. when the operator's `players.yaml` changed.
    pub fn set_ratings(&mut self, ratings: Vec<Rating>) {
        self.config.ratings = ratings;
    }

    /// `true` when the league schedules `gamename`.
    pub(super) fn league_schedules(&self, gamename: &str) -> bool {
        self.league.as_ref().is_some_and(|l| l.schedules(gamename))
    }

    /// The league's next pairing (unix seconds) asked at `unix`, never
    /// before the second after the last pairing.
    fn league_due(&self, unix: u64) -> Option<u64> {
        let next = self
            .league
            .as_ref()?
            .next_pairing(unix, self.config.utc_offset_secs)?;
        Some(match self.league_paired_at {
            Some(last) => next.max(last.saturating_add(1)),
            None => next,
        })
    }

    /// The league's next pairing as the server's time.
    pub(super) fn league_timeout(&self) -> Option<I> {
        let unix = self.unix_at(self.last_now);
        let due = self.league_due(unix)?;
        let after = Duration::from_secs(due.saturating_sub(self.base_unix));
        Some(self.base_instant.saturating_add(after))
    }

    /// At or after the league's pairing time: every player waiting for one
    /// of its games goes to [`League::pair`] (in the order they started
    /// waiting), then its games start.
    pub(super) fn run_league(&mut self, now: I) {
        let unix = self.unix_at(now);
        if self.league_due(unix).is_none_or(|due| due > unix) {
            return;
        }
        let Some(mut league) = self.league.take() else {
            return;
        };
        self.league_paired_at = Some(unix);
        // (wait order, conn, name, rating id, game name)
        // The open connections waiting with side `*` for a name the
        // league schedules (the waiting index).
        let mut waiting: Vec<(u64, ConnId, String, String, String)> = Vec::new();
        for (gamename, w) in &self.index.waiting {
            if !league.schedules(gamename) {
                continue;
            }
            for id in w.any() {
                let Some(l) = self.conns.get(&id).and_then(|c| c.login.as_ref()) else {
                    continue;
                };
                let Some(player_id) = self.rating_id(id) else {
                    continue;
                };
                waiting.push((l.wait_seq, id, l.name.clone(), player_id, gamename.clone()));
            }
        }
        waiting.sort_unstable_by_key(|w| w.0);
        // Each waiting player's name and game name.
        let wanted: BTreeMap<ConnId, (&str, &str)> = waiting
            .iter()
            .map(|w| (w.1, (w.2.as_str(), w.4.as_str())))
            .collect();
        let players: Vec<WaitingPlayer<'_>> = waiting
            .iter()
            .map(|(_, conn, name, player_id, gamename)| WaitingPlayer {
                conn: *conn,
                name,
                player_id,
                gamename,
            })
            .collect();
        let round = league.pair(unix, self.config.utc_offset_secs, &players);
        drop(players);
        self.league = Some(league);
        self.events
            .extend(round.log.into_iter().map(ServerEvent::League));
        let mut used = BTreeSet::new();
        for game in round.games {
            let wanted = |c: ConnId| wanted.get(&c).copied();
            let name = |c: ConnId| wanted(c).map_or_else(|| format!("#{}", c.0), |w| w.0.into());
            let problem = if game.black == game.white {
                Some("the same player on both sides")
            } else if used.contains(&game.black) || used.contains(&game.white) {
                Some("a player already paired in this round")
            } else {
                match (wanted(game.black), wanted(game.white)) {
                    (Some((_, b)), Some((_, w))) if b == game.gamename && w == game.gamename => {
                        None
                    }
                    (Some(_), Some(_)) => Some("a player waits for another game"),
                    _ => Some("a player no longer waiting"),
                }
            };
            if let Some(why) = problem {
                let line = format!(
                    "not started: {} vs {} ({}): {why}",
                    name(game.black),
                    name(game.white),
                    game.gamename
                );
                self.events.push_back(ServerEvent::League(line));
                continue;
            }
            used.insert(game.black);
            used.insert(game.white);
            let max_moves = game.max_moves.unwrap_or(self.config.max_moves);
            let least = game
                .least_time_per_move
                .unwrap_or(self.config.least_time_per_move);
            self.start_game_with(
                game.black,
                game.white,
                &game.gamename,
                now,
                max_moves,
                least,
            );
        }
    }

    /// Tells the league that game `g` of a name it schedules ended.
    pub(super) fn league_game_ended(&mut self, g: &Game<I>, winner: Option<Side>) {
        if !self.league_schedules(&g.gamename) {
            return;
        }
        let (Some(black), Some(white)) =
            (self.rating_id(g.players[0]), self.rating_id(g.players[1]))
        else {
            return;
        };
        if let Some(league) = self.league.as_mut() {
            league.game_ended(&LeagueResult {
                game_id: &g.id,
                gamename: &g.gamename,
                black: &black,
                white: &white,
                winner,
            });
        }
    }
}
