//! The x1 commands (`docs/specs/csa.md`, *Extended mode (x1)*).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::*;

impl<I: Timestamp> Server<I> {
    // ---- x1 commands -------------------------------------------------------------

    pub(super) fn x1(&mut self, conn: ConnId, cmd: X1Command<'_>, line: &[u8], now: I) {
        match cmd {
            X1Command::Who => {
                let mut text = String::new();
                for c in self.conns.values().filter(|c| !c.closed) {
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
                                let st = match g.phase {
                                    Phase::Agree { .. } => "agree_waiting",
                                    Phase::Play { .. } => "game",
                                };
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
                let name = self.name_of(conn);
                let msg = format!("##[CHAT][{name}] {t}");
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
            X1Command::Game(None) => {
                if matches!(self.status(conn), Status::GameWaiting { .. }) {
                    self.set_status(conn, Status::Connected);
                }
            }
            X1Command::Game(Some(req)) | X1Command::Challenge(req) => {
                let challenge = matches!(crate::decode::decode::<ClientMessage>(line), Ok(ClientMessage::X1(X1Command::Challenge(_))));
                match self.status(conn) {
                    Status::InGame(_) => self.error(conn, "you are already in a game"),
                    _ if req.name.time_control().is_none() => {
                        self.error(conn, &format!("wrong game name: {}", req.name));
                    }
                    _ => self.wait_for_game(conn, req.name.as_str().to_string(), req.side, challenge, now),
                }
            }
            X1Command::List => {
                let mut text = String::new();
                for g in self.games.values() {
                    let _ = writeln!(text, "##[LIST] {}", g.id);
                }
                text.push_str("##[LIST] +OK");
                self.send_line(conn, &text);
            }
            X1Command::Show(id) => match self.games.values().find(|g| g.id == id.as_str()) {
                Some(g) => {
                    let mut data = Vec::new();
                    self.show_summary(g).encode_with_prefix(b"##[SHOW] ", &mut data);
                    data.extend_from_slice(b"##[SHOW] +OK\n");
                    self.send_bytes(conn, data);
                }
                None => self.error(conn, &format!("game not found: {id}")),
            },
            X1Command::MonitorOn(id) => {
                let Some(gk) = self.game_key(id.as_str()) else {
                    return self.error(conn, &format!("game not found: {id}"));
                };
                if let Some(g) = self.games.get_mut(&gk)
                    && !g.monitors.contains(&conn)
                {
                    g.monitors.push(conn);
                }
                let Some(g) = self.games.get(&gk) else { return };
                let pre = format!("##[MONITOR][{}] ", g.id);
                let mut data = Vec::new();
                self.show_summary(g).encode_with_prefix(pre.as_bytes(), &mut data);
                data.extend_from_slice(pre.as_bytes());
                data.extend_from_slice(b"+OK\n");
                self.send_bytes(conn, data);
            }
            X1Command::Monitor2On(id) => {
                let Some(gk) = self.game_key(id.as_str()) else {
                    return self.error(conn, &format!("game not found: {id}"));
                };
                if let Some(g) = self.games.get_mut(&gk)
                    && !g.monitors2.contains(&conn)
                {
                    g.monitors2.push(conn);
                }
                let Some(g) = self.games.get(&gk) else { return };
                let text = self.monitor2_record(g);
                self.send_line(conn, &text);
            }
            X1Command::MonitorOff(id) | X1Command::Monitor2Off(id) => {
                if let Some(gk) = self.game_key(id.as_str())
                    && let Some(g) = self.games.get_mut(&gk)
                {
                    g.monitors.retain(|c| *c != conn);
                    g.monitors2.retain(|c| *c != conn);
                }
            }
            X1Command::Rating => {
                let mut rated: Vec<&Rating> = self
                    .config
                    .ratings
                    .iter()
                    .filter(|r| {
                        self.conns.values().any(|c| {
                            !c.closed && c.login.as_ref().is_some_and(|l| l.name == r.name.as_str())
                        })
                    })
                    .collect();
                rated.sort_by(|a, b| b.rate.cmp(&a.rate).then_with(|| a.name.as_str().cmp(b.name.as_str())));
                let mut text = String::new();
                for r in rated {
                    let (y, m, d, ..) = civil(r.updated_unix_secs);
                    let _ = writeln!(text, "##[RATING] {} {} @{y:04}-{m:02}-{d:02}", r.name, r.rate);
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
                let n = name.as_str();
                if !n.starts_with("buoy_") || name.time_control().is_none() {
                    return self.error(conn, &format!("wrong buoy game name: {n}"));
                }
                if self.buoys.contains_key(n) {
                    return self.error(conn, &format!("duplicated buoy game name: {n}"));
                }
                let list: Vec<CsaMove> = moves.iter().collect();
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
                        count: u64::from(count.unwrap_or(1)),
                        owner,
                    },
                );
                self.send_line(conn, "##[SETBUOY] +OK");
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
                let Some(g) = self.games.values().find(|g| g.id == game_id.as_str()) else {
                    return self.error(conn, &format!("game not found: {game_id}"));
                };
                let keep = nth.map_or(g.moves.len().saturating_sub(1), |n| (n as usize).min(g.moves.len()));
                let moves: Vec<CsaMove> = g.moves[..keep].iter().map(|(m, _)| *m).collect();
                let (total, byo) = (g.time.total_ms / 1000, g.time.byoyomi_ms.max(g.time.increment_ms) / 1000);
                let fischer = if g.time.increment_ms > 0 { "F" } else { "" };
                let name = buoy.map_or_else(
                    || format!("buoy_fork{}_{keep}-{total}-{byo}{fischer}", self.next_game),
                    |b| b.as_str().to_string(),
                );
                if self.buoys.contains_key(&name) {
                    return self.error(conn, &format!("duplicated buoy game name: {name}"));
                }
                let mut b = GameBoard::startpos();
                let ends = moves
                    .iter()
                    .any(|m| !matches!(b.play(m), Ok(PlayOutcome::Continue)));
                if ends || self.ends_game(&b) {
                    return self.error(conn, &format!("the moves already end the game: {game_id}"));
                }
                let owner = self.name_of(conn);
                if let Some(e) = self.buoy_cap(&owner) {
                    return self.error(conn, &e);
                }
                self.buoys.insert(name.clone(), Buoy { moves, count: 1, owner });
                self.send_line(conn, &format!("##[FORK] {name}\n##[FORK] +OK"));
            }
        }
    }

    /// `true` when a game from `b` is over before it starts: the side to
    /// move has no legal move, or the move limit is reached.
    fn ends_game(&self, b: &GameBoard) -> bool {
        let max = self.config.max_moves as usize;
        b.position().has_no_legal_move() || (max > 0 && b.ply() >= max)
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

    pub(super) fn game_key(&self, id: &str) -> Option<u64> {
        self.games.iter().find(|(_, g)| g.id == id).map(|(k, _)| *k)
    }
}
