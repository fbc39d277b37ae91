//! The x1 commands ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::*;

impl<I: Timestamp> Server<I> {
    // ---- x1 commands -------------------------------------------------------------

    pub(super) fn x1(&mut self, conn: ConnId, cmd: X1Command<'_>, now: I) {
        match cmd {
            X1Command::Who => {
                let mut text = String::new();
                for (id, c) in self.conns.iter().filter(|(_, c)| !c.closed) {
                    let Some(l) = &c.login else { continue };
                    let proto = if l.x1 { "x1" } else { "CSA" };
                    let _ = write!(text, "##[WHO] {} {proto} ", l.name);
                    match &l.status {
                        Status::Connected => text.push_str("connected"),
                        Status::GameWaiting { gamename, pref } => {
                            let _ = write!(text, "game_waiting {gamename} {}", pref.as_char());
                        }
                        Status::InGame(gk) => {
                            if let Some(g) = self.games.get(gk) {
                                let side = if g.names[0] == l.name { '+' } else { '-' };
                                // `agree_waiting`, `start_waiting` (agreed), `game`.
                                let st = self.status_name(*id);
                                let _ = write!(text, "{st} {} {side}", g.gamename);
                            } else {
                                text.push_str("connected");
                            }
                        }
                    }
                    text.push('\n');
                }
                text.push_str("##[WHO] +OK");
                self.send_line(conn, &text);
            }
            X1Command::Chat(t) => {
                // shogi-server's `%%CHAT\s+(.+)`: the text after the
                // spaces; of spaces only, the last one (the dispatcher
                // answers `%%CHAT` with nothing after the space as an
                // unknown command).
                let t = t.as_str();
                let text = match t.trim_start_matches(' ') {
                    "" => &t[t.len().saturating_sub(1)..],
                    rest => rest,
                };
                let name = self.name_of(conn);
                let msg = format!("##[CHAT][{name}] {text}");
                let targets: Vec<ConnId> = self
                    .conns
                    .iter()
                    .filter(|(_, c)| !c.closed && c.login.as_ref().is_some_and(|l| l.x1))
                    .map(|(id, _)| *id)
                    .collect();
                for t in targets {
                    self.send_line(t, &msg);
                }
            }
            X1Command::Game(None) => match self.status(conn) {
                Status::Connected | Status::GameWaiting { .. } => {
                    self.set_status(conn, Status::Connected);
                }
                _ => self.game_status_error(conn),
            },
            X1Command::Game(Some(req)) => self.game_request(conn, &req, false, now),
            X1Command::Challenge(req) => self.game_request(conn, &req, true, now),
            X1Command::List => {
                let mut text = String::new();
                for g in self.games.values() {
                    let _ = writeln!(text, "##[LIST] {}", g.id);
                }
                text.push_str("##[LIST] +OK");
                self.send_line(conn, &text);
            }
            X1Command::Show(id) => match self.game_key(id.as_str()).and_then(|gk| self.games.get(&gk)) {
                Some(g) => {
                    let mut data = Vec::new();
                    self.show_summary(g).encode_with_prefix(b"##[SHOW] ", &mut data);
                    data.extend_from_slice(b"##[SHOW] +OK\n");
                    self.send_bytes(conn, data);
                }
                // shogi-server: an unknown id gets the `+OK` alone.
                None => self.send_line(conn, "##[SHOW] +OK"),
            },
            // An unknown id: no reply (shogi-server).
            X1Command::MonitorOn(id) => {
                let Some(gk) = self.watch(id.as_str(), conn, |g| &mut g.monitors) else {
                    return;
                };
                let Some(g) = self.games.get(&gk) else { return };
                let pre = format!("##[MONITOR][{}] ", g.id);
                let mut data = Vec::new();
                self.show_summary(g).encode_with_prefix(pre.as_bytes(), &mut data);
                data.extend_from_slice(pre.as_bytes());
                data.extend_from_slice(b"+OK\n");
                self.send_bytes(conn, data);
            }
            X1Command::Monitor2On(id) => {
                let Some(gk) = self.watch(id.as_str(), conn, |g| &mut g.monitors2) else {
                    return;
                };
                let Some(g) = self.games.get(&gk) else { return };
                let text = self.monitor2_record(g);
                self.send_bytes(conn, text);
            }
            // Each ends its own kind of monitor (shogi-server compares the
            // handler's type).
            X1Command::MonitorOff(id) => self.unwatch(id.as_str(), conn, |g| &mut g.monitors),
            X1Command::Monitor2Off(id) => self.unwatch(id.as_str(), conn, |g| &mut g.monitors2),
            X1Command::Rating => {
                // shogi-server's `RatingCommand` over `League#rated_players`:
                // every player of the ratings file (logged in or not),
                // highest rate first, `%s \t %4d @%Y-%m-%d` (a TAB between
                // spaces, the rate right-aligned in four columns, the
                // date in the server's local time).
                let mut rated: Vec<&Rating> = self.config.ratings.iter().collect();
                // Stable: equal rates keep the order given.
                rated.sort_by_key(|r| core::cmp::Reverse(r.rate));
                let offset = i64::from(self.config.utc_offset_secs);
                let mut text = String::new();
                for r in rated {
                    let local = r.updated_unix_secs.saturating_add_signed(offset);
                    let (y, m, d, ..) = civil(local);
                    let _ = writeln!(
                        text,
                        "##[RATING] {} \t {:4} @{y:04}-{m:02}-{d:02}",
                        r.name, r.rate
                    );
                }
                text.push_str("##[RATING] +OK");
                self.send_line(conn, &text);
            }
            X1Command::Version => {
                let v = self.config.version.clone();
                self.send_line(conn, &format!("##[VERSION] {v}\n##[VERSION] +OK"));
            }
            X1Command::Help => self.send_line(
                conn,
                "##[HELP] available commands \"%%WHO\", \"%%CHAT str\", \"%%GAME game_name +\", \"%%GAME game_name -\", \"%%GAME game_name *\", \"%%CHALLENGE game_name +|-|*\", \"%%LIST\", \"%%SHOW game_id\", \"%%MONITORON game_id\", \"%%MONITOROFF game_id\", \"%%MONITOR2ON game_id\", \"%%MONITOR2OFF game_id\", \"%%RATING\", \"%%SETBUOY buoy_name moves [count]\", \"%%DELETEBUOY buoy_name\", \"%%GETBUOYCOUNT buoy_name\", \"%%FORK game_id [buoy_name] [nth]\", \"%%VERSION\"",
            ),
            X1Command::SetBuoy { name, moves, count } => {
                let list: Vec<CsaMove> = moves.iter().collect();
                let moves = moves.to_string();
                self.set_buoy(conn, name.as_str(), list, &moves, count.unwrap_or(1), now);
            }
            X1Command::DeleteBuoy(name) => {
                let n = name.as_str();
                let me = self.name_of(conn);
                match self.buoys.get(n) {
                    None => self.error(conn, &format!("buoy game not found: {n}")),
                    Some(b) if b.owner != me => self.error(
                        conn,
                        &format!("you are not allowed to delete a buoy game that you did not set: {n}"),
                    ),
                    Some(_) => {
                        self.buoys.remove(n);
                        self.send_line(conn, "##[DELETEBUOY] +OK");
                    }
                }
            }
            X1Command::GetBuoyCount(name) => {
                let n = self.buoys.get(name.as_str()).map_or(-1, |b| b.count as i64);
                self.send_line(conn, &format!("##[GETBUOYCOUNT] {n}\n##[GETBUOYCOUNT] +OK"));
            }
            X1Command::Fork { game_id, buoy, nth } => {
                self.fork(conn, game_id.as_str(), buoy.as_ref().map(GameName::as_str), nth, now);
            }
        }
    }

    /// `%%GAME <name> <side>` / `%%CHALLENGE <name> <side>`, checked as
    /// shogi-server checks them: the name, then the status.
    fn game_request(
        &mut self,
        conn: ConnId,
        req: &crate::message::GameRequest<'_>,
        challenge: bool,
        now: I,
    ) {
        let name = req.name.as_str();
        if !good_game_name(name) {
            return self.bad_game_name(conn, name);
        }
        match self.status(conn) {
            Status::InGame(_) => self.game_status_error(conn),
            _ => self.wait_for_game(conn, name.to_string(), req.side, challenge, now),
        }
    }

    /// shogi-server's answer to a game name that is not
    /// `<identifier>-<total>-<byoyomi>[F]` with an identifier of 1..=32
    /// bytes of `[0-9A-Za-z_@.-]`: the name, then a hint (`name` is
    /// already escaped for the reply).
    pub(super) fn bad_game_name(&mut self, conn: ConnId, name: &str) {
        self.error(conn, &format!("bad game name: {name}."));
        // `^(.+)-\d+-\d+F?$`: three parts, but a bad identifier.
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let three_parts = name.strip_suffix('F').into_iter().chain([name]).any(|n| {
            n.rsplit_once('-').is_some_and(|(rest, byo)| {
                digits(byo)
                    && rest
                        .rsplit_once('-')
                        .is_some_and(|(id, total)| !id.is_empty() && digits(total))
            })
        });
        let hint = if three_parts {
            "invalid identifiers are found or too many characters are used."
        } else {
            "game name should consist of three parts like game-1500-60."
        };
        self.error(conn, hint);
    }

    /// `%%GAME` in a game, in shogi-server's words.
    fn game_status_error(&mut self, conn: ConnId) {
        let st = self.status_name(conn);
        self.error(
            conn,
            &format!("you are in {st} status. GAME is valid in connected or game_waiting status"),
        );
    }

    /// `%%SETBUOY`: checks in shogi-server's order (the name, a duplicate,
    /// the count, the moves), then ours (the game must not be over, the
    /// caps). Two players already waiting for the buoy start at once.
    fn set_buoy(
        &mut self,
        conn: ConnId,
        n: &str,
        list: Vec<CsaMove>,
        moves: &str,
        count: u32,
        now: I,
    ) {
        if !is_buoy_name(n) {
            return self.error(conn, &format!("wrong buoy game name: {n}"));
        }
        if self.buoys.contains_key(n) {
            return self.error(conn, &format!("duplicated buoy game name: {n}"));
        }
        if count < 1 {
            return self.error(conn, &format!("invalid count: {count}"));
        }
        let mut b = GameBoard::startpos();
        let mut ends = false;
        for m in &list {
            match b.play(m) {
                Err(_) => return self.error(conn, &format!("wrong moves: {moves}")),
                Ok(PlayOutcome::Continue) => {}
                Ok(_) => ends = true,
            }
        }
        if ends || self.ends_game(&b) {
            return self.error(conn, &format!("the moves already end the game: {moves}"));
        }
        let owner = self.name_of(conn);
        if let Some(e) = self.buoy_cap(&owner) {
            return self.error(conn, &e);
        }
        self.buoys.insert(
            n.to_string(),
            Buoy {
                moves: list,
                count: u64::from(count),
                owner: owner.clone(),
            },
        );
        self.send_line(conn, "##[SETBUOY] +OK");
        // Players waiting for this buoy (not its owner): the first one
        // looks for a rival again.
        let owner_conn = self.conn_named(&owner);
        let waiting = self
            .waiters(n)
            .and_then(|w| w.first(SidePreference::Any, |c| Some(c) != owner_conn));
        if let Some((p, pref)) = waiting {
            self.wait_for_game(p, n.to_string(), pref, false, now);
        }
    }

    /// `%%FORK <source game id> [<buoy name>] [<nth>]`, as shogi-server
    /// answers it: the first `nth` moves of the source game (default: all
    /// but the last; 1..=moves) become a buoy with count 1. Without a name
    /// it is `buoy_<source name>_<nth>-<total>-<byoyomi>` (the source game
    /// name's parts), announced with `##[FORK]: new buoy game name: <name>`
    /// and `##[FORK] +OK`; then the `%%SETBUOY` reply.
    fn fork(&mut self, conn: ConnId, source: &str, buoy: Option<&str>, nth: Option<u32>, now: I) {
        let Some(g) = self.game_key(source).and_then(|gk| self.games.get(&gk)) else {
            return self.error(conn, &format!("wrong source game name: {source}"));
        };
        let total = g.moves.len();
        let nth = nth.map_or(total as i64 - 1, i64::from);
        if nth > total as i64 || nth < 1 {
            return self.error(
                conn,
                &format!("number of moves to fork is out of range: {total}."),
            );
        }
        let nth = nth as usize;
        let list: Vec<CsaMove> = g.moves[..nth].iter().map(|(m, _)| *m).collect();
        let mut moves = String::new();
        for m in &list {
            let _ = write!(moves, "{m}");
        }
        let name = match buoy {
            Some(b) => b.to_string(),
            None => {
                let Some(name) = fork_name(source, nth) else {
                    return self.error(
                        conn,
                        &format!("wrong source game name to make a new buoy game name: {source}"),
                    );
                };
                self.send_line(
                    conn,
                    &format!("##[FORK]: new buoy game name: {name}\n##[FORK] +OK"),
                );
                name
            }
        };
        self.set_buoy(conn, &name, list, &moves, 1, now);
    }

    /// `true` when a game from `b` is over before it starts: the side to
    /// move has no legal move, or the move limit is reached.
    fn ends_game(&self, b: &GameBoard) -> bool {
        let max = self.config.max_moves as usize;
        !b.position().has_legal_move() || (max > 0 && b.ply() >= max)
    }

    /// The error text when `owner` may not set another buoy
    /// ([`ServerConfig::max_buoys_per_user`], [`ServerConfig::max_buoys`]).
    fn buoy_cap(&self, owner: &str) -> Option<String> {
        let max = self.config.max_buoys;
        if self.buoys.len() >= max {
            return Some(format!("too many buoy games on the server (limit {max})"));
        }
        let mine = self.buoys.values().filter(|b| b.owner == owner).count();
        let per = self.config.max_buoys_per_user;
        (mine >= per).then(|| format!("too many buoy games of {owner} (limit {per})"))
    }

    /// Adds `conn` to the monitors of one kind (`list`: `monitors` or
    /// `monitors2`) of game `id`, once; the game's key, `None` for an
    /// unknown id.
    fn watch(
        &mut self,
        id: &str,
        conn: ConnId,
        list: fn(&mut Game<I>) -> &mut Vec<ConnId>,
    ) -> Option<u64> {
        let gk = self.game_key(id)?;
        if let Some(g) = self.games.get_mut(&gk) {
            let monitors = list(g);
            if !monitors.contains(&conn) {
                monitors.push(conn);
            }
            self.watch_index(conn, gk);
        }
        Some(gk)
    }

    /// Removes `conn` from the monitors of one kind (`list`) of game `id`.
    fn unwatch(&mut self, id: &str, conn: ConnId, list: fn(&mut Game<I>) -> &mut Vec<ConnId>) {
        if let Some(gk) = self.game_key(id)
            && let Some(g) = self.games.get_mut(&gk)
        {
            list(g).retain(|c| *c != conn);
            self.unwatch_index(conn, gk);
        }
    }
}

/// shogi-server's buoy game name: `buoy_<anything>-<total>-<byoyomi>[F]`.
pub(super) fn is_buoy_name(name: &str) -> bool {
    name.starts_with("buoy_") && GameName::new(name).is_ok_and(|g| g.time_control().is_some())
}

/// shogi-server's good game name: `<id>-<total>-<byoyomi>[F]` with an
/// identifier of 1..=32 bytes of `[0-9A-Za-z_@.-]`.
pub(super) fn good_game_name(name: &str) -> bool {
    GameName::new(name).is_ok_and(|g| g.time_control().is_some_and(|(base, _)| base.len() <= 32))
}

/// The name `%%FORK` gives a buoy: from the source id's game name
/// (`<event>+<name>-<total>-<byoyomi>[F]+...`), the part before its first
/// `-`, then `_<nth>-<total>-<byoyomi>`.
fn fork_name(source: &str, nth: usize) -> Option<String> {
    let game = source.split('+').nth(1)?;
    let mut parts = game.splitn(3, '-');
    let (name, total, byo) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let byo_digits = byo.strip_suffix('F').unwrap_or(byo);
    let byo_len = byo_digits.bytes().take_while(u8::is_ascii_digit).count();
    if name.is_empty() || !digits(total) || byo_len == 0 {
        return None;
    }
    let f = if byo[byo_len..].starts_with('F') {
        "F"
    } else {
        ""
    };
    Some(format!("buoy_{name}_{nth}-{total}-{}{f}", &byo[..byo_len]))
}
