//! Indexes kept in step with the connections and games, so that no input
//! costs a scan of every connection or game (issue 27: 10,000 clients,
//! 1,000 games): a login name's connection (`LOGIN`), the players waiting
//! for each game name (`%%GAME`, `%%SETBUOY`, a league's pairing), the
//! games' deadlines ([`Server::poll_timeout`], [`Server::handle_timeout`]),
//! the games by id (`%%SHOW`, `%%MONITORON`, `%%FORK`) and the games each
//! connection monitors (a close).
//!
//! Each index answers exactly what the scan it replaces answered, in the
//! same order (connections by [`ConnId`], games by creation), so the
//! server's output is unchanged. Debug builds check every index against a
//! scan after each input while the server is small.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;

use super::*;

/// The open connections waiting for one game name, by the side they asked
/// for, each in [`ConnId`] order.
#[derive(Debug, Default)]
pub(super) struct Waiters {
    black: BTreeSet<ConnId>,
    white: BTreeSet<ConnId>,
    any: BTreeSet<ConnId>,
}

impl Waiters {
    fn side(&mut self, pref: SidePreference) -> &mut BTreeSet<ConnId> {
        match pref {
            SidePreference::Black => &mut self.black,
            SidePreference::White => &mut self.white,
            _ => &mut self.any,
        }
    }

    fn is_empty(&self) -> bool {
        self.black.is_empty() && self.white.is_empty() && self.any.is_empty()
    }

    /// The lowest connection for which `keep` holds among those whose side
    /// is [compatible](super::matching::compatible) with `pref`, and its
    /// side. `keep` may refuse a few (the asker itself, a buoy's owner):
    /// each set is walked until its first kept entry.
    pub(super) fn first(
        &self,
        pref: SidePreference,
        keep: impl Fn(ConnId) -> bool,
    ) -> Option<(ConnId, SidePreference)> {
        let sets = [
            (&self.black, SidePreference::Black),
            (&self.white, SidePreference::White),
            (&self.any, SidePreference::Any),
        ];
        sets.into_iter()
            .filter(|(_, p)| super::matching::compatible(*p, pref))
            .filter_map(|(set, p)| set.iter().copied().find(|c| keep(*c)).map(|c| (c, p)))
            .min_by_key(|(c, _)| *c)
    }

    /// Those who asked for side `*`, in [`ConnId`] order.
    pub(super) fn any(&self) -> impl Iterator<Item = ConnId> + '_ {
        self.any.iter().copied()
    }
}

/// The indexes of a [`Server`].
#[derive(Debug)]
pub(super) struct Indexes<I> {
    /// The open, logged-in connection of each login name (there is at
    /// most one: a second login of a name replaces or is refused).
    by_name: BTreeMap<String, ConnId>,
    /// The open connections in `game_waiting` status, by game name; no
    /// empty entry.
    pub(super) waiting: BTreeMap<String, Waiters>,
    /// Every game's next deadline (the agree phase's end, or the time the
    /// player on move runs out of time) and its key; each game's entry is
    /// its [`Game::deadline`].
    deadlines: BTreeSet<(I, u64)>,
    /// Every game's id and key.
    game_ids: BTreeSet<(String, u64)>,
    /// The games each connection monitors (`%%MONITORON`,
    /// `%%MONITOR2ON`); no empty entry.
    watching: BTreeMap<ConnId, BTreeSet<u64>>,
}

impl<I> Default for Indexes<I> {
    fn default() -> Self {
        Self {
            by_name: BTreeMap::new(),
            waiting: BTreeMap::new(),
            deadlines: BTreeSet::new(),
            game_ids: BTreeSet::new(),
            watching: BTreeMap::new(),
        }
    }
}

/// When game `g` next needs [`Server::handle_timeout`]: the end of its
/// agree phase, or when the player on move runs out of time (`None`: a
/// clock without limit).
pub(super) fn game_deadline<I: Timestamp>(g: &Game<I>) -> Option<I> {
    match g.phase {
        Phase::Agree { deadline, .. } => Some(deadline),
        Phase::Play { turn_started } => {
            let side = g.board.side_to_move();
            g.clocks[idx(side)]
                .allowance()
                .map(|a| turn_started.saturating_add(a))
        }
    }
}

impl<I: Timestamp> Server<I> {
    /// Marks `conn` closed (its further input is ignored) and takes it out
    /// of the name and waiting indexes.
    pub(super) fn mark_closed(&mut self, conn: ConnId) {
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        let was_open = !c.closed;
        c.closed = true;
        let Some(l) = c.login.as_ref().filter(|_| was_open) else {
            return;
        };
        if self.index.by_name.get(&l.name) == Some(&conn) {
            self.index.by_name.remove(&l.name);
        }
        if let Status::GameWaiting { gamename, pref } = &l.status {
            unwait(&mut self.index.waiting, gamename, *pref, conn);
        }
    }

    /// `conn` logged in as `name` (an open connection).
    pub(super) fn index_login(&mut self, conn: ConnId, name: &str) {
        if self.conns.get(&conn).is_some_and(|c| !c.closed) {
            self.index.by_name.insert(name.into(), conn);
        }
    }

    /// The open, logged-in connection named `name`.
    pub(super) fn conn_named(&self, name: &str) -> Option<ConnId> {
        self.index.by_name.get(name).copied()
    }

    /// `conn`'s status changes from `old` to `new`.
    pub(super) fn index_status(&mut self, conn: ConnId, old: &Status, new: &Status) {
        if let Status::GameWaiting { gamename, pref } = old {
            unwait(&mut self.index.waiting, gamename, *pref, conn);
        }
        if let Status::GameWaiting { gamename, pref } = new
            && self.conns.get(&conn).is_some_and(|c| !c.closed)
        {
            let w = match self.index.waiting.get_mut(gamename) {
                Some(w) => w,
                None => self.index.waiting.entry(gamename.clone()).or_default(),
            };
            w.side(*pref).insert(conn);
        }
    }

    /// The players waiting for `gamename`.
    pub(super) fn waiters(&self, gamename: &str) -> Option<&Waiters> {
        self.index.waiting.get(gamename)
    }

    /// Game `gk` was just added to `games`.
    pub(super) fn index_game_added(&mut self, gk: u64) {
        if let Some(g) = self.games.get(&gk) {
            self.index.game_ids.insert((g.id.clone(), gk));
        }
        self.sync_deadline(gk);
    }

    /// Game `g` (key `gk`) was just taken out of `games`.
    pub(super) fn index_game_removed(&mut self, gk: u64, g: &Game<I>) {
        if let Some(d) = g.deadline {
            self.index.deadlines.remove(&(d, gk));
        }
        self.index.game_ids.remove(&(g.id.clone(), gk));
        for m in g.monitors.iter().chain(&g.monitors2) {
            self.unwatch_index(*m, gk);
        }
    }

    /// Puts game `gk`'s deadline in step with its phase and clocks (after
    /// anything that may have changed them).
    pub(super) fn sync_deadline(&mut self, gk: u64) {
        let Some(g) = self.games.get_mut(&gk) else {
            return;
        };
        let new = game_deadline(g);
        if new == g.deadline {
            return;
        }
        if let Some(old) = g.deadline {
            self.index.deadlines.remove(&(old, gk));
        }
        if let Some(d) = new {
            self.index.deadlines.insert((d, gk));
        }
        g.deadline = new;
    }

    /// The earliest game deadline.
    pub(super) fn first_deadline(&self) -> Option<I> {
        self.index.deadlines.first().map(|(t, _)| *t)
    }

    /// The keys of the games whose deadline is at or before `now`, in key
    /// (creation) order.
    pub(super) fn games_due(&self, now: I) -> Vec<u64> {
        let mut due: Vec<u64> = self
            .index
            .deadlines
            .iter()
            .take_while(|(t, _)| *t <= now)
            .map(|(_, gk)| *gk)
            .collect();
        due.sort_unstable();
        due
    }

    /// The key of the game with id `id` (the oldest, were two to share
    /// it).
    pub(super) fn game_key(&self, id: &str) -> Option<u64> {
        self.index
            .game_ids
            .range((String::from(id), 0)..)
            .next()
            .filter(|(i, _)| i == id)
            .map(|(_, gk)| *gk)
    }

    /// `conn` monitors game `gk`.
    pub(super) fn watch_index(&mut self, conn: ConnId, gk: u64) {
        self.index.watching.entry(conn).or_default().insert(gk);
    }

    /// `conn` may no longer monitor game `gk` (it is checked).
    pub(super) fn unwatch_index(&mut self, conn: ConnId, gk: u64) {
        let still = self
            .games
            .get(&gk)
            .is_some_and(|g| g.monitors.contains(&conn) || g.monitors2.contains(&conn));
        if still {
            return;
        }
        if let Some(w) = self.index.watching.get_mut(&conn) {
            w.remove(&gk);
            if w.is_empty() {
                self.index.watching.remove(&conn);
            }
        }
    }

    /// `conn` is gone: it monitors nothing any more.
    pub(super) fn unwatch_all(&mut self, conn: ConnId) {
        for gk in self.index.watching.remove(&conn).unwrap_or_default() {
            if let Some(g) = self.games.get_mut(&gk) {
                g.monitors.retain(|c| *c != conn);
                g.monitors2.retain(|c| *c != conn);
            }
        }
    }

    /// Debug builds, while the server is small: every index is what a scan
    /// finds.
    pub(super) fn debug_check_indexes(&self) {
        #[cfg(debug_assertions)]
        if self.conns.len() + self.games.len() <= 256 {
            self.check_indexes();
        }
    }

    #[cfg(debug_assertions)]
    fn check_indexes(&self) {
        let mut by_name = BTreeMap::new();
        let mut waiting: BTreeMap<String, [BTreeSet<ConnId>; 3]> = BTreeMap::new();
        for (id, c) in &self.conns {
            let Some(l) = c.login.as_ref().filter(|_| !c.closed) else {
                continue;
            };
            assert!(by_name.insert(l.name.clone(), *id).is_none(), "{}", l.name);
            if let Status::GameWaiting { gamename, pref } = &l.status {
                let i = match pref {
                    SidePreference::Black => 0,
                    SidePreference::White => 1,
                    _ => 2,
                };
                waiting.entry(gamename.clone()).or_default()[i].insert(*id);
            }
        }
        assert_eq!(by_name, self.index.by_name);
        let indexed: BTreeMap<String, [BTreeSet<ConnId>; 3]> = self
            .index
            .waiting
            .iter()
            .map(|(n, w)| (n.clone(), [w.black.clone(), w.white.clone(), w.any.clone()]))
            .collect();
        assert_eq!(waiting, indexed);
        let deadlines: BTreeSet<(I, u64)> = self
            .games
            .iter()
            .filter_map(|(gk, g)| {
                assert_eq!(g.deadline, game_deadline(g), "game {gk}");
                g.deadline.map(|d| (d, *gk))
            })
            .collect();
        assert_eq!(deadlines, self.index.deadlines);
        let ids: BTreeSet<(String, u64)> = self
            .games
            .iter()
            .map(|(gk, g)| (g.id.clone(), *gk))
            .collect();
        assert_eq!(ids, self.index.game_ids);
        let mut watching: BTreeMap<ConnId, BTreeSet<u64>> = BTreeMap::new();
        for (gk, g) in &self.games {
            for m in g.monitors.iter().chain(&g.monitors2) {
                watching.entry(*m).or_default().insert(*gk);
            }
        }
        assert_eq!(watching, self.index.watching);
    }
}

/// Takes `conn` out of the players waiting for `gamename` with side
/// `pref`.
fn unwait(
    waiting: &mut BTreeMap<String, Waiters>,
    gamename: &str,
    pref: SidePreference,
    conn: ConnId,
) {
    if let Some(w) = waiting.get_mut(gamename) {
        w.side(pref).remove(&conn);
        if w.is_empty() {
            waiting.remove(gamename);
        }
    }
}
