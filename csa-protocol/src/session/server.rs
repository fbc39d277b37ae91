//! The server session: a sans-IO CSA game server with shogi-server's x1 mode.
//!
//! Inputs (`handle_*`) take the time as a [`Timestamp`]; outputs are pulled
//! with [`Server::poll_output`] (bytes to send or connections to close, in
//! the order they must happen) and [`Server::poll_event`]. Call
//! [`Server::handle_timeout`] at [`Server::poll_timeout`] (clocks, agree
//! timeouts). No I/O, no clock reads, no threads.
//!
//! Behaviour follows shogi-server as recorded in the transcript and the spec
//! note, with these deliberate differences (those the transcript exercises
//! are also named in the replay test):
//! - a disconnected player loses at once (shogi-server notices only when that
//!   player is on move);
//! - lines longer than the cap get `##[ERROR] line too long: <n> bytes (limit <m>)`
//!   and are skipped (shogi-server has no cap);
//! - `%%WHO` and monitor output show login names only, never a password hash;
//! - a duplicate login with another password is closed at once (shogi-server
//!   waits 3 s);
//! - the Game_ID time stamp is UTC;
//! - sides: when neither player asked for one, the later arrival is Black (the
//!   transcript's CSA-mode game came out that way; shogi-server picks at
//!   random);
//! - Floodgate games (`floodgate-<total>-<byoyomi>[F]`, side `*` only) are
//!   paired as soon as two players wait (Floodgate pairs at scheduled times);
//! - `Delay` (CSA protocol 1.2) and `Time_Roundup` are implemented
//!   ([`ServerConfig::delay`], [`ServerConfig::time_roundup`], both off by
//!   default); shogi-server implements neither;
//! - `%%RATING` lists [`ServerConfig::ratings`] (shogi-server reads a
//!   ratings file), with single spaces where shogi-server writes
//!   `name \t rate`: TAB is not allowed on the wire (spec note).

use alloc::collections::{BTreeMap, VecDeque};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;
use core::time::Duration;

use super::Timestamp;
use crate::board::{GameBoard, PlayOutcome};
use crate::client::{ClientMessage, SpecialMove, X1Command, decode_client_line};
use crate::clock::{Clock, TimeControl, civil};
use crate::frame::{Frame, LineBuffer};
use crate::moves::{CsaMove, move_side};
use crate::summary::{GameSummary, PositionSection, TimeSection, TimeUnit};
use crate::types::{GameId, GameName, MoveTime, Side, SidePreference, Text};

/// A connection handle chosen by the server ([`Server::handle_connect`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

/// Server settings.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Event name, the first part of every Game_ID (`<event>+<gamename>+...`).
    pub event: String,
    /// Line length cap in bytes.
    pub max_line_len: usize,
    /// `Max_Moves` (0 = no limit); shogi-server's default is 256.
    pub max_moves: u32,
    /// `Least_Time_Per_Move` in seconds (shogi-server default 0; the CSA
    /// protocol up to 1.1.2 used 1).
    pub least_time_per_move: u64,
    /// `Delay` in seconds (CSA protocol 1.2): the first `delay` seconds of
    /// every turn are not charged, and the time-up limit grows by as much.
    /// Default 0 (shogi-server has no delay); sent in the `Game_Summary`
    /// Time block only when not 0.
    pub delay: u64,
    /// `Time_Roundup` (`Game_Summary` Time block): `true` charges a move's
    /// partial second as a whole one, `false` (the default, and
    /// shogi-server's only rule) truncates. Sent in the `Game_Summary` Time
    /// block (`YES`) only when `true`.
    pub time_roundup: bool,
    /// Agree phase time limit (shogi-server: 120 s).
    pub agree_timeout: Duration,
    /// Text of the `%%VERSION` reply.
    pub version: String,
    /// Players' ratings, for `%%RATING` (see [`Rating`]). Empty by default:
    /// the server computes no ratings itself (shogi-server reads them from
    /// a file written by a separate tool), and then answers `%%RATING`
    /// with `##[RATING] +OK` alone, as the recorded shogi-server did.
    pub ratings: Vec<Rating>,
    /// Start position of every game (`None`: the even-game position). For
    /// private tournaments with set positions, and tests.
    pub initial_position: Option<board_core::shogi::Position>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            event: "boardwire".into(),
            max_line_len: crate::frame::DEFAULT_MAX_LINE_LEN,
            max_moves: 256,
            least_time_per_move: 0,
            delay: 0,
            time_roundup: false,
            agree_timeout: Duration::from_secs(120),
            version: concat!("boardwire csa-protocol ", env!("CARGO_PKG_VERSION")).into(),
            initial_position: None,
            ratings: Vec::new(),
        }
    }
}

/// A player's rating, listed by `%%RATING` while the player is logged in.
///
/// The reply has one line per logged-in rated player, highest rating first
/// (ties by name), `##[RATING] <name> <rate> @YYYY-MM-DD` (spec note,
/// "Extended mode (x1)"), then `##[RATING] +OK`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rating {
    /// The login name.
    pub name: crate::UserName<'static>,
    /// The rating (an Elo-like integer; may be negative).
    pub rate: i32,
    /// When the rating was last computed, seconds since 1970 (UTC); printed
    /// as the date.
    pub updated_unix_secs: u64,
}

/// What the I/O layer must do, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Send these bytes (whole LF-terminated lines) to the connection.
    Send {
        /// The connection.
        conn: ConnId,
        /// The bytes.
        data: Vec<u8>,
    },
    /// Close the connection (after sending everything queued before).
    Close {
        /// The connection.
        conn: ConnId,
    },
}

/// Something that happened, for logs and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerEvent {
    /// Both players agreed; the game started.
    GameStarted {
        /// Game_ID.
        game_id: String,
    },
    /// A game ended.
    GameEnded {
        /// Game_ID.
        game_id: String,
        /// The reason line, e.g. `#RESIGN`.
        reason: &'static str,
        /// The winner, if any.
        winner: Option<Side>,
        /// Moves played (buoy set-up moves included).
        moves: usize,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    Connected,
    GameWaiting {
        gamename: String,
        pref: SidePreference,
    },
    InGame(u64),
}

#[derive(Debug)]
struct Login {
    name: String,
    password: String,
    x1: bool,
    status: Status,
}

#[derive(Debug)]
struct Conn {
    lines: LineBuffer,
    login: Option<Login>,
    closed: bool,
}

#[derive(Debug)]
enum Phase<I> {
    Agree { agreed: [bool; 2], deadline: I },
    Play { turn_started: I },
}

#[derive(Debug)]
struct Game<I> {
    id: String,
    gamename: String,
    players: [ConnId; 2],
    names: [String; 2],
    phase: Phase<I>,
    board: GameBoard,
    initial_csa: String,
    moves: Vec<(CsaMove, u64)>,
    clocks: [Clock; 2],
    time: TimeControl,
    deferred: [VecDeque<Vec<u8>>; 2],
    monitors: Vec<ConnId>,
    monitors2: Vec<ConnId>,
    start_unix: u64,
}

#[derive(Debug)]
struct Buoy {
    moves: Vec<CsaMove>,
    count: u64,
    owner: String,
}

/// The sans-IO CSA server. See the module documentation.
#[derive(Debug)]
pub struct Server<I> {
    config: ServerConfig,
    conns: BTreeMap<ConnId, Conn>,
    next_conn: u64,
    games: BTreeMap<u64, Game<I>>,
    next_game: u64,
    buoys: BTreeMap<String, Buoy>,
    out: VecDeque<Output>,
    events: VecDeque<ServerEvent>,
    base_instant: I,
    base_unix: u64,
}

fn idx(side: Side) -> usize {
    match side {
        Side::Black => 0,
        Side::White => 1,
    }
}

fn side_of(i: usize) -> Side {
    if i == 0 { Side::Black } else { Side::White }
}

impl<I: Timestamp> Server<I> {
    /// A server. `now` and `unix_secs` (seconds since 1970, UTC) fix the
    /// wall clock used for Game_IDs and `$START_TIME`.
    pub fn new(config: ServerConfig, now: I, unix_secs: u64) -> Self {
        Self {
            config,
            conns: BTreeMap::new(),
            next_conn: 1,
            games: BTreeMap::new(),
            next_game: 1,
            buoys: BTreeMap::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            base_instant: now,
            base_unix: unix_secs,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// A new connection was accepted. The server sends no greeting.
    pub fn handle_connect(&mut self, _now: I) -> ConnId {
        let id = ConnId(self.next_conn);
        self.next_conn += 1;
        self.conns.insert(
            id,
            Conn {
                lines: LineBuffer::new(self.config.max_line_len),
                login: None,
                closed: false,
            },
        );
        id
    }

    /// Bytes arrived on `conn`. Complete lines are processed at once.
    pub fn handle_data(&mut self, conn: ConnId, data: &[u8], now: I) {
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        if c.closed {
            return;
        }
        c.lines.push(data);
        loop {
            let Some(c) = self.conns.get_mut(&conn) else {
                return;
            };
            if c.closed {
                return;
            }
            let frame = c.lines.with_next_frame(|f| match f {
                Frame::Line(l) => Ok(l.to_vec()),
                Frame::Overlong { len } => Err(len),
            });
            match frame {
                None => return,
                Some(Ok(line)) => self.handle_line(conn, &line, now),
                Some(Err(len)) => {
                    let max = self.config.max_line_len;
                    self.send_line(
                        conn,
                        &format!("##[ERROR] line too long: {len} bytes (limit {max})"),
                    );
                }
            }
        }
    }

    /// The connection was closed by the peer (or failed).
    pub fn handle_disconnect(&mut self, conn: ConnId, now: I) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.closed = true;
        }
        let status = self
            .conns
            .get(&conn)
            .and_then(|c| c.login.as_ref())
            .map(|l| l.status.clone());
        if let Some(Status::InGame(g)) = status {
            self.leave_game(conn, g, now, false);
        }
        self.conns.remove(&conn);
        for g in self.games.values_mut() {
            g.monitors.retain(|c| *c != conn);
            g.monitors2.retain(|c| *c != conn);
        }
    }

    /// The earliest time at which [`Server::handle_timeout`] must be called.
    pub fn poll_timeout(&self) -> Option<I> {
        self.games
            .values()
            .filter_map(|g| match g.phase {
                Phase::Agree { deadline, .. } => Some(deadline),
                Phase::Play { turn_started } => {
                    let side = g.board.side_to_move();
                    g.clocks[idx(side)]
                        .allowance()
                        .map(|a| turn_started.saturating_add(a + Duration::from_millis(1)))
                }
            })
            .min()
    }

    /// Time passed: ends games whose player on move ran out of time and
    /// agree phases that timed out.
    pub fn handle_timeout(&mut self, now: I) {
        let ids: Vec<u64> = self.games.keys().copied().collect();
        for gk in ids {
            let Some(g) = self.games.get(&gk) else {
                continue;
            };
            match g.phase {
                Phase::Agree { deadline, .. } if now >= deadline => {
                    let msg = format!("REJECT:{} by the Server (timed out)", g.id);
                    let players = g.players;
                    for p in players {
                        self.send_line(p, &msg);
                    }
                    self.abandon_game(gk);
                }
                Phase::Play { turn_started } => {
                    let side = g.board.side_to_move();
                    if g.clocks[idx(side)].is_time_up(now.saturating_duration_since(turn_started)) {
                        self.finish(gk, &[], "#TIME_UP", Some(side.opponent()));
                    }
                }
                _ => {}
            }
        }
    }

    /// The next output, in the order it must be performed.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<ServerEvent> {
        self.events.pop_front()
    }

    /// Number of open connections.
    pub fn connection_count(&self) -> usize {
        self.conns.len()
    }

    /// Number of games (agree phase or in play).
    pub fn game_count(&self) -> usize {
        self.games.len()
    }

    // ---- output helpers -------------------------------------------------

    fn send_line(&mut self, conn: ConnId, line: &str) {
        let mut data = Vec::with_capacity(line.len() + 1);
        data.extend_from_slice(line.as_bytes());
        data.push(b'\n');
        self.send_bytes(conn, data);
    }

    fn send_bytes(&mut self, conn: ConnId, data: Vec<u8>) {
        if let Some(Output::Send { conn: c, data: d }) = self.out.back_mut()
            && *c == conn
        {
            d.extend_from_slice(&data);
            return;
        }
        self.out.push_back(Output::Send { conn, data });
    }

    fn close(&mut self, conn: ConnId) {
        if let Some(c) = self.conns.get_mut(&conn)
            && !c.closed
        {
            c.closed = true;
            self.out.push_back(Output::Close { conn });
        }
    }

    fn error(&mut self, conn: ConnId, text: &str) {
        self.send_line(conn, &format!("##[ERROR] {text}"));
    }

    fn unix_at(&self, now: I) -> u64 {
        self.base_unix + now.saturating_duration_since(self.base_instant).as_secs()
    }

    // ---- line handling ----------------------------------------------------

    fn handle_line(&mut self, conn: ConnId, line: &[u8], now: I) {
        // A single space is answered with nothing (spec note, keep-alive).
        if line == b" " {
            return;
        }
        let logged_in = self.conns.get(&conn).is_some_and(|c| c.login.is_some());
        let decoded = decode_client_line(line);
        if !logged_in {
            match decoded {
                Ok(ClientMessage::KeepAlive) => self.send_line(conn, ""),
                Ok(ClientMessage::Login { name, password, x1 }) => {
                    self.login(conn, name.as_str(), password.expose(), x1, now);
                }
                Err(e) if e.line == "LOGIN" => {
                    self.send_line(conn, "LOGIN:incorrect");
                    // shogi-server adds a usage hint when the line has three
                    // or more fields after LOGIN (transcript §4).
                    if line.split(|&b| b == b' ').filter(|f| !f.is_empty()).count() >= 4 {
                        self.send_line(
                            conn,
                            "type 'LOGIN name password' or 'LOGIN name password x1'",
                        );
                    }
                }
                _ => self.send_line(conn, "LOGIN:incorrect"),
            }
            return;
        }
        let status = self.status(conn);
        // Game lines (moves and specials) during a game.
        if let Status::InGame(gk) = status {
            let is_game_line = match &decoded {
                Ok(ClientMessage::Move { .. } | ClientMessage::Special(_)) => true,
                Err(e) => e.line == "move" || matches!(e.line, "%TORYO" | "%KACHI" | "%CHUDAN"),
                _ => false,
            };
            if is_game_line {
                self.game_line(conn, gk, line, now);
                return;
            }
        }
        match decoded {
            Ok(ClientMessage::KeepAlive) => self.send_line(conn, ""),
            Ok(ClientMessage::Logout) => self.logout(conn, now),
            Ok(ClientMessage::Agree(_)) => match status {
                Status::InGame(gk) => self.agree(conn, gk, now),
                _ => self.unknown(conn, line),
            },
            Ok(ClientMessage::Reject(_)) => match status {
                Status::InGame(gk)
                    if matches!(
                        self.games.get(&gk).map(|g| &g.phase),
                        Some(Phase::Agree { .. })
                    ) =>
                {
                    self.reject(conn, gk);
                }
                _ => self.unknown(conn, line),
            },
            Ok(ClientMessage::X1(cmd)) => self.x1(conn, cmd, line, now),
            Err(e)
                if e.line == "%%GAME"
                    && e.field == "side"
                    && e.problem == crate::Problem::Missing =>
            {
                let l = String::from_utf8_lossy(line);
                self.error(conn, &format!("A turn identifier is required: {l}"));
            }
            Err(e) if e.line == "%%SETBUOY" && e.field == "moves" => {
                let moves = line.split(|&b| b == b' ').nth(2).unwrap_or(b"");
                let m = String::from_utf8_lossy(moves);
                self.error(conn, &format!("wrong moves: {m}"));
            }
            Err(e) if e.line.starts_with("%%") => self.error(conn, &e.to_string()),
            _ => self.unknown(conn, line),
        }
    }

    fn unknown(&mut self, conn: ConnId, line: &[u8]) {
        let l = String::from_utf8_lossy(line);
        self.error(conn, &format!("unknown command: {l}"));
    }

    fn status(&self, conn: ConnId) -> Status {
        self.conns
            .get(&conn)
            .and_then(|c| c.login.as_ref())
            .map_or(Status::Connected, |l| l.status.clone())
    }

    fn set_status(&mut self, conn: ConnId, s: Status) {
        if let Some(l) = self.conns.get_mut(&conn).and_then(|c| c.login.as_mut()) {
            l.status = s;
        }
    }

    fn name_of(&self, conn: ConnId) -> String {
        self.conns
            .get(&conn)
            .and_then(|c| c.login.as_ref())
            .map(|l| l.name.clone())
            .unwrap_or_default()
    }

    fn is_x1(&self, conn: ConnId) -> bool {
        self.conns
            .get(&conn)
            .and_then(|c| c.login.as_ref())
            .is_some_and(|l| l.x1)
    }

    // ---- login / logout --------------------------------------------------

    fn login(&mut self, conn: ConnId, name: &str, password: &str, x1: bool, now: I) {
        let existing = self
            .conns
            .iter()
            .find(|(id, c)| {
                **id != conn && !c.closed && c.login.as_ref().is_some_and(|l| l.name == name)
            })
            .map(|(id, c)| {
                (
                    *id,
                    c.login.as_ref().is_some_and(|l| l.password == password),
                )
            });
        match existing {
            Some((_, false)) => {
                self.send_line(conn, "LOGIN:incorrect");
                self.send_line(conn, &format!("username {name} is already connected"));
                self.close(conn);
                return;
            }
            Some((old, true)) => {
                // The same player again: the new connection replaces the old.
                if let Status::InGame(g) = self.status(old) {
                    self.leave_game(old, g, now, false);
                }
                self.close(old);
                self.conns.remove(&old);
            }
            None => {}
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.login = Some(Login {
                name: name.to_string(),
                password: password.to_string(),
                x1,
                status: Status::Connected,
            });
        }
        self.send_line(conn, &format!("LOGIN:{name} OK"));
        if x1 {
            self.send_line(conn, "##[LOGIN] +OK x1");
        } else {
            // CSA mode: the password names the game (spec note, "Plain CSA mode").
            let (gamename, pref) = gamename_from_password(password);
            self.wait_for_game(conn, gamename, pref, false, now);
        }
    }

    fn logout(&mut self, conn: ConnId, now: I) {
        self.send_line(conn, "LOGOUT:completed");
        if let Status::InGame(g) = self.status(conn) {
            self.leave_game(conn, g, now, true);
        }
        self.close(conn);
    }

    /// `conn` leaves game `g` (LOGOUT, disconnect, replaced login): in play it
    /// loses by resignation; in the agree phase the game is rejected.
    fn leave_game(&mut self, conn: ConnId, gk: u64, _now: I, tell_leaver: bool) {
        let Some(g) = self.games.get(&gk) else { return };
        let Some(i) = g.players.iter().position(|p| *p == conn) else {
            return;
        };
        match g.phase {
            Phase::Agree { .. } => {
                let msg = format!("REJECT:{} by {}", g.id, g.names[i]);
                let other = g.players[1 - i];
                self.send_line(other, &msg);
                if tell_leaver {
                    self.send_line(conn, &msg);
                }
                self.abandon_game(gk);
            }
            Phase::Play { .. } => {
                let loser = side_of(i);
                let silent = if tell_leaver { None } else { Some(conn) };
                self.finish_owned(
                    gk,
                    &["%TORYO".into()],
                    "#RESIGN",
                    Some(loser.opponent()),
                    silent,
                );
            }
        }
    }

    // ---- matching ----------------------------------------------------------

    fn wait_for_game(
        &mut self,
        conn: ConnId,
        gamename: String,
        pref: SidePreference,
        challenge: bool,
        now: I,
    ) {
        // Floodgate games: the server decides the sides, so the side must be
        // `*` (spec note, "Extended mode (x1)"). shogi-server answers this
        // error and leaves the player's status as it was; in CSA mode, where
        // `floodgate-...-B` becomes `%%GAME floodgate-... +`, the same.
        if is_floodgate_name(&gamename) && pref != SidePreference::Any {
            let side = pref.as_char();
            return self.error(
                conn,
                &format!("You are not allowed to specify TEBAN {side} for the game {gamename}"),
            );
        }
        // A rival waiting for the same game with a compatible side?
        let rival = self
            .conns
            .iter()
            .filter(|(id, c)| **id != conn && !c.closed)
            .find_map(|(id, c)| match c.login.as_ref().map(|l| &l.status) {
                Some(Status::GameWaiting {
                    gamename: g,
                    pref: p,
                }) if *g == gamename && compatible(*p, pref) => Some((*id, *p)),
                _ => None,
            });
        match rival {
            Some((other, other_pref)) => {
                // The newcomer is Black unless a preference says otherwise.
                let me_black = match (pref, other_pref) {
                    (SidePreference::Black, _) | (_, SidePreference::White) => true,
                    (SidePreference::White, _) | (_, SidePreference::Black) => false,
                    _ => true,
                };
                let (b, w) = if me_black {
                    (conn, other)
                } else {
                    (other, conn)
                };
                self.start_game(b, w, &gamename, now);
            }
            None if challenge => {
                self.error(conn, &format!("can't find rival for {gamename}"));
            }
            None => self.set_status(conn, Status::GameWaiting { gamename, pref }),
        }
    }

    fn start_game(&mut self, black: ConnId, white: ConnId, gamename: &str, now: I) {
        let gk = self.next_game;
        self.next_game += 1;
        let names = [self.name_of(black), self.name_of(white)];
        let unix = self.unix_at(now);
        let (y, mo, d, h, mi, s) = civil(unix);
        let id = format!(
            "{}+{gamename}+{}+{}+{y:04}{mo:02}{d:02}{h:02}{mi:02}{s:02}",
            self.config.event, names[0], names[1]
        );
        let tc = GameName::new(gamename)
            .ok()
            .and_then(|g| g.time_control().map(|(_, t)| t))
            .unwrap_or(crate::GameNameTime {
                total_sec: 1500,
                byoyomi_sec: 0,
                fischer: false,
            });
        let time = TimeControl {
            total_ms: u64::from(tc.total_sec) * 1000,
            byoyomi_ms: if tc.fischer {
                0
            } else {
                u64::from(tc.byoyomi_sec) * 1000
            },
            increment_ms: if tc.fischer {
                u64::from(tc.byoyomi_sec) * 1000
            } else {
                0
            },
            least_time_per_move_ms: self.config.least_time_per_move.saturating_mul(1000),
            delay_ms: self.config.delay.saturating_mul(1000),
            round_up: self.config.time_roundup,
        };
        let mut board = self
            .config
            .initial_position
            .map_or_else(GameBoard::startpos, GameBoard::new);
        let initial_csa = board.csa_text();
        let mut moves = Vec::new();
        if let Some(buoy) = self.buoys.get_mut(gamename) {
            for m in &buoy.moves {
                if board.play(m).is_ok() {
                    moves.push((*m, 1));
                }
            }
            buoy.count = buoy.count.saturating_sub(1);
            if buoy.count == 0 {
                self.buoys.remove(gamename);
            }
        }
        let game = Game {
            id: id.clone(),
            gamename: gamename.to_string(),
            players: [black, white],
            names,
            phase: Phase::Agree {
                agreed: [false, false],
                deadline: now.saturating_add(self.config.agree_timeout),
            },
            board,
            initial_csa,
            moves,
            clocks: [Clock::new(time), Clock::new(time)],
            time,
            deferred: [VecDeque::new(), VecDeque::new()],
            monitors: Vec::new(),
            monitors2: Vec::new(),
            start_unix: unix,
        };
        for (i, p) in [black, white].into_iter().enumerate() {
            let summary = self.summary_for(&game, Some(side_of(i)));
            let mut data = Vec::new();
            summary.encode(&mut data);
            self.send_bytes(p, data);
            self.set_status(p, Status::InGame(gk));
        }
        self.games.insert(gk, game);
    }

    fn summary_for(&self, g: &Game<I>, your_turn: Option<Side>) -> GameSummary {
        let t = |s: &str| Text::new(s.to_string()).ok();
        let mut position = PositionSection::default();
        for l in g.initial_csa.lines() {
            if l == "+" || l == "-" {
                position.side_to_move = Some(if l == "+" { Side::Black } else { Side::White });
            } else {
                let _ = position.push_line(l);
            }
        }
        position.moves = g
            .moves
            .iter()
            .map(|(m, t)| (*m, Some(MoveTime::from_secs(*t))))
            .collect();
        GameSummary {
            protocol_version: t("1.2"),
            protocol_mode: t("Server"),
            format: t("Shogi 1.0"),
            declaration: t("Jishogi 1.1"),
            game_id: GameId::new(g.id.clone()).ok(),
            name_black: t(&g.names[0]),
            name_white: t(&g.names[1]),
            your_turn,
            rematch_on_draw: Some(false),
            to_move: position.side_to_move,
            max_moves: Some(u64::from(self.config.max_moves)),
            time: Some(self.time_section(g, false)),
            position: Some(position),
            ..Default::default()
        }
    }

    fn time_section(&self, g: &Game<I>, show: bool) -> TimeSection {
        let mut ts = TimeSection {
            time_unit: Some(TimeUnit::SECOND),
            total_time: Some(g.time.total_ms / 1000),
            byoyomi: Some(g.time.byoyomi_ms / 1000),
            increment: Some(g.time.increment_ms / 1000),
            least_time_per_move: Some(self.config.least_time_per_move),
            // Sent only when set: shogi-server never sends them, and absent
            // means 0 / NO.
            delay: (self.config.delay > 0).then_some(self.config.delay),
            time_roundup: self.config.time_roundup.then_some(true),
            ..Default::default()
        };
        if show {
            ts.remaining_time_black = Some(g.clocks[0].remaining_ms / 1000);
            ts.remaining_time_white = Some(g.clocks[1].remaining_ms / 1000);
            if let Some((m, t)) = g.moves.last() {
                ts.last_move = Text::new(format!("{m},T{t}")).ok();
            }
            ts.current_turn = Some(g.moves.len() as u64);
        }
        ts
    }

    /// The `%%SHOW` text: the game's summary with the current position and
    /// remaining times (spec note, "Extended mode (x1)").
    fn show_summary(&self, g: &Game<I>) -> GameSummary {
        let mut s = self.summary_for(g, None);
        s.time = Some(self.time_section(g, true));
        let mut position = PositionSection::default();
        for l in g.board.csa_text().lines() {
            if l == "+" || l == "-" {
                position.side_to_move = Some(if l == "+" { Side::Black } else { Side::White });
            } else {
                let _ = position.push_line(l);
            }
        }
        s.position = Some(position);
        s
    }

    // ---- agree phase -------------------------------------------------------

    fn agree(&mut self, conn: ConnId, gk: u64, now: I) {
        let Some(g) = self.games.get_mut(&gk) else {
            return;
        };
        let Some(i) = g.players.iter().position(|p| *p == conn) else {
            return;
        };
        let Phase::Agree { agreed, .. } = &mut g.phase else {
            return self.unknown(conn, b"AGREE");
        };
        agreed[i] = true;
        if agreed.iter().all(|a| *a) {
            g.phase = Phase::Play { turn_started: now };
            let side = g.board.side_to_move();
            g.clocks[idx(side)].start_turn();
            let msg = format!("START:{}", g.id);
            let players = g.players;
            let id = g.id.clone();
            for p in players {
                self.send_line(p, &msg);
            }
            self.events
                .push_back(ServerEvent::GameStarted { game_id: id });
        }
    }

    fn reject(&mut self, conn: ConnId, gk: u64) {
        let Some(g) = self.games.get(&gk) else { return };
        let name = self.name_of(conn);
        let msg = format!("REJECT:{} by {name}", g.id);
        let players = g.players;
        for p in players {
            self.send_line(p, &msg);
        }
        self.abandon_game(gk);
    }

    /// Removes a game that never started; players return to `connected`
    /// (x1) or are disconnected (CSA mode).
    fn abandon_game(&mut self, gk: u64) {
        let Some(g) = self.games.remove(&gk) else {
            return;
        };
        for p in g.players {
            self.after_game(p);
        }
    }

    fn after_game(&mut self, p: ConnId) {
        if self.is_x1(p) {
            self.set_status(p, Status::Connected);
        } else {
            self.set_status(p, Status::Connected);
            self.close(p);
        }
    }

    // ---- play ----------------------------------------------------------------

    fn game_line(&mut self, conn: ConnId, gk: u64, line: &[u8], now: I) {
        let Some(g) = self.games.get_mut(&gk) else {
            return;
        };
        let Some(i) = g.players.iter().position(|p| *p == conn) else {
            return;
        };
        let Phase::Play { .. } = g.phase else {
            // Moves before START: shogi-server holds them too.
            g.deferred[i].push_back(line.to_vec());
            return;
        };
        if g.board.side_to_move() != side_of(i) {
            // Out of turn: held and played when the turn comes, unless it
            // repeats the sender's previous move (a retransmission).
            let repeat = g
                .moves
                .iter()
                .rev()
                .find(|(m, _)| move_side(m) == side_of(i))
                .is_some_and(|(m, _)| m.to_string().as_bytes() == line);
            if !repeat {
                g.deferred[i].push_back(line.to_vec());
            }
            return;
        }
        self.play_line(gk, i, line, now);
        // The turn passed: play what the other side already sent.
        loop {
            let Some(g) = self.games.get_mut(&gk) else {
                return;
            };
            let Phase::Play { .. } = g.phase else { return };
            let j = idx(g.board.side_to_move());
            let Some(next) = g.deferred[j].pop_front() else {
                return;
            };
            self.play_line(gk, j, &next, now);
        }
    }

    fn play_line(&mut self, gk: u64, i: usize, line: &[u8], now: I) {
        let side = side_of(i);
        let decoded = decode_client_line(line);
        let Some(g) = self.games.get_mut(&gk) else {
            return;
        };
        let Phase::Play { turn_started } = g.phase else {
            return;
        };
        let elapsed = now.saturating_duration_since(turn_started);
        if g.clocks[i].is_time_up(elapsed) {
            return self.finish(gk, &[], "#TIME_UP", Some(side.opponent()));
        }
        match decoded {
            Ok(ClientMessage::Special(SpecialMove::Toryo)) => {
                self.finish(gk, &["%TORYO"], "#RESIGN", Some(side.opponent()));
            }
            Ok(ClientMessage::Special(SpecialMove::Kachi)) => {
                if g.board.can_declare_win() {
                    self.finish(gk, &["%KACHI"], "#JISHOGI", Some(side));
                } else {
                    let t = g.clocks[i].charge(elapsed);
                    let echo = format!("%KACHI,T{t}");
                    // Observed from shogi-server: `%KACHI,T0`, `%KACHI`, `#ILLEGAL_MOVE`.
                    self.finish_owned(
                        gk,
                        &[echo, "%KACHI".into()],
                        "#ILLEGAL_MOVE",
                        Some(side.opponent()),
                        None,
                    );
                }
            }
            Ok(ClientMessage::Special(SpecialMove::Chudan)) => {
                // shogi-server treats %CHUDAN as an illegal move (spec note).
                self.finish(gk, &[], "#ILLEGAL_MOVE", Some(side.opponent()));
            }
            Ok(ClientMessage::Move { mv, .. }) if move_side(&mv) == side => {
                match g.board.play(&mv) {
                    Err(_) => self.finish(gk, &[], "#ILLEGAL_MOVE", Some(side.opponent())),
                    Ok(outcome) => {
                        let t = g.clocks[i].charge(elapsed);
                        g.moves.push((mv, t));
                        let echo = format!("{mv},T{t}");
                        let players = g.players;
                        let monitors2 = g.monitors2.clone();
                        let id = g.id.clone();
                        let plies = g.moves.len();
                        g.phase = Phase::Play { turn_started: now };
                        let next = g.board.side_to_move();
                        g.clocks[idx(next)].start_turn();
                        for p in players {
                            self.send_line(p, &echo);
                        }
                        for m in monitors2 {
                            let pre = format!("##[MONITOR2][{id}] ");
                            self.send_line(m, &format!("{pre}{mv}\n{pre}T{t}\n{pre}+OK"));
                        }
                        self.send_monitor1(gk);
                        match outcome {
                            PlayOutcome::Sennichite => self.finish(gk, &[], "#SENNICHITE", None),
                            PlayOutcome::OuteSennichite { loser } => {
                                self.finish(gk, &[], "#OUTE_SENNICHITE", Some(loser.opponent()));
                            }
                            PlayOutcome::HistoryFull => self.finish(gk, &[], "#MAX_MOVES", None),
                            PlayOutcome::Continue
                                if self.config.max_moves > 0
                                    && plies >= self.config.max_moves as usize =>
                            {
                                self.finish(gk, &[], "#MAX_MOVES", None);
                            }
                            PlayOutcome::Continue => {}
                        }
                    }
                }
            }
            // Wrong sign, malformed move, or anything else: illegal.
            _ => self.finish(gk, &[], "#ILLEGAL_MOVE", Some(side.opponent())),
        }
    }

    fn send_monitor1(&mut self, gk: u64) {
        let Some(g) = self.games.get(&gk) else { return };
        if g.monitors.is_empty() {
            return;
        }
        let pre = format!("##[MONITOR][{}] ", g.id);
        let mut data = Vec::new();
        self.show_summary(g)
            .encode_with_prefix(pre.as_bytes(), &mut data);
        data.extend_from_slice(pre.as_bytes());
        data.extend_from_slice(b"+OK\n");
        for m in g.monitors.clone() {
            self.send_bytes(m, data.clone());
        }
    }

    fn finish(&mut self, gk: u64, pre: &[&str], reason: &'static str, winner: Option<Side>) {
        let pre: Vec<String> = pre.iter().map(|s| (*s).to_string()).collect();
        self.finish_owned(gk, &pre, reason, winner, None);
    }

    /// Ends a game: `pre` lines, the reason, then each player's outcome.
    /// `silent`: a player who left and gets no result lines.
    fn finish_owned(
        &mut self,
        gk: u64,
        pre: &[String],
        reason: &'static str,
        winner: Option<Side>,
        silent: Option<ConnId>,
    ) {
        let Some(g) = self.games.remove(&gk) else {
            return;
        };
        for (i, p) in g.players.into_iter().enumerate() {
            if Some(p) == silent || self.conns.get(&p).is_none_or(|c| c.closed) {
                continue;
            }
            let outcome = match (winner, reason) {
                (None, "#MAX_MOVES") => "#CENSORED",
                (None, _) => "#DRAW",
                (Some(w), _) if w == side_of(i) => "#WIN",
                _ => "#LOSE",
            };
            let mut text = String::new();
            for l in pre {
                let _ = writeln!(text, "{l}");
            }
            let _ = write!(text, "{reason}\n{outcome}");
            self.send_line(p, &text);
        }
        let special = match reason {
            "#RESIGN" => "%TORYO",
            "#TIME_UP" => "%TIME_UP",
            "#ILLEGAL_MOVE" => "%ILLEGAL_MOVE",
            "#SENNICHITE" => "%SENNICHITE",
            "#OUTE_SENNICHITE" => "%SENNICHITE",
            "#JISHOGI" => "%KACHI",
            "#MAX_MOVES" => "%MAX_MOVES",
            _ => "%CHUDAN",
        };
        for m in &g.monitors2 {
            let pre = format!("##[MONITOR2][{}] ", g.id);
            self.send_line(*m, &format!("{pre}{special}\n{pre}+OK"));
        }
        self.events.push_back(ServerEvent::GameEnded {
            game_id: g.id.clone(),
            reason,
            winner,
            moves: g.moves.len(),
        });
        for p in g.players {
            if Some(p) != silent && self.conns.contains_key(&p) {
                self.after_game(p);
            }
        }
    }

    // ---- x1 commands -------------------------------------------------------------

    fn x1(&mut self, conn: ConnId, cmd: X1Command<'_>, line: &[u8], now: I) {
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
                let challenge = matches!(decode_client_line(line), Ok(ClientMessage::X1(X1Command::Challenge(_))));
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
                if list.iter().any(|m| b.play(m).is_err()) {
                    return self.error(conn, &format!("wrong moves: {moves}"));
                }
                let owner = self.name_of(conn);
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
                let owner = self.name_of(conn);
                self.buoys.insert(name.clone(), Buoy { moves, count: 1, owner });
                self.send_line(conn, &format!("##[FORK] {name}\n##[FORK] +OK"));
            }
        }
    }

    fn game_key(&self, id: &str) -> Option<u64> {
        self.games.iter().find(|(_, g)| g.id == id).map(|(k, _)| *k)
    }

    /// `%%MONITOR2ON` reply: the game record so far (CSA kifu V2 lines).
    fn monitor2_record(&self, g: &Game<I>) -> String {
        let pre = format!("##[MONITOR2][{}] ", g.id);
        let (y, mo, d, h, mi, s) = civil(g.start_unix);
        let mut t = String::new();
        let _ = writeln!(t, "{pre}V2");
        let _ = writeln!(t, "{pre}N+{}", g.names[0]);
        let _ = writeln!(t, "{pre}N-{}", g.names[1]);
        let _ = writeln!(t, "{pre}'Max_Moves:{}", self.config.max_moves);
        let _ = writeln!(
            t,
            "{pre}'Least_Time_Per_Move:{}",
            self.config.least_time_per_move
        );
        let _ = writeln!(t, "{pre}$EVENT:{}", g.id);
        let _ = writeln!(
            t,
            "{pre}$START_TIME:{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}"
        );
        for l in g.initial_csa.lines() {
            let _ = writeln!(t, "{pre}{l}");
        }
        for (m, secs) in &g.moves {
            let _ = writeln!(t, "{pre}{m}");
            let _ = writeln!(t, "{pre}T{secs}");
        }
        let _ = write!(t, "{pre}+OK");
        t
    }
}

/// `+`/`-`/`*` preferences that can meet.
fn compatible(a: SidePreference, b: SidePreference) -> bool {
    !matches!(
        (a, b),
        (SidePreference::Black, SidePreference::Black)
            | (SidePreference::White, SidePreference::White)
    )
}

/// CSA-mode password: `<gamename>`, `<gamename>-B|-W` (case-insensitive),
/// `<gamename>,<secret>`; anything else means `default-1500-0`.
fn gamename_from_password(password: &str) -> (String, SidePreference) {
    let game = password.split(',').next().unwrap_or("");
    let (base, pref) = if let Some(b) = game.strip_suffix("-B").or_else(|| game.strip_suffix("-b"))
    {
        (b, SidePreference::Black)
    } else if let Some(w) = game.strip_suffix("-W").or_else(|| game.strip_suffix("-w")) {
        (w, SidePreference::White)
    } else {
        (game, SidePreference::Any)
    };
    match GameName::new(base) {
        Ok(g) if g.time_control().is_some() => (base.to_string(), pref),
        _ => ("default-1500-0".to_string(), pref),
    }
}

/// A Floodgate game name: `floodgate-<total>-<byoyomi>` with an optional
/// `F` (Fischer) suffix, the whole name (shogi-server's rule; a longer name
/// such as `floodgate-600-10-x` is an ordinary game).
fn is_floodgate_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("floodgate-") else {
        return false;
    };
    let rest = rest.strip_suffix('F').unwrap_or(rest);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut parts = rest.split('-');
    matches!(
        (parts.next(), parts.next(), parts.next()),
        (Some(total), Some(byoyomi), None) if digits(total) && digits(byoyomi)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floodgate_game_names() {
        for name in ["floodgate-900-0", "floodgate-300-10F", "floodgate-3600-0"] {
            assert!(is_floodgate_name(name), "{name}");
        }
        for name in [
            "floodgate-300",
            "floodgate-300-10-x",
            "floodgate-a-10",
            "myfloodgate-300-10",
            "floodgate--10",
            "floodgate-300-10FF",
        ] {
            assert!(!is_floodgate_name(name), "{name}");
        }
    }

    #[test]
    fn password_game_names() {
        assert_eq!(
            gamename_from_password("testgame3-300-0"),
            ("testgame3-300-0".into(), SidePreference::Any)
        );
        assert_eq!(
            gamename_from_password("testgame3-300-0,xyz"),
            ("testgame3-300-0".into(), SidePreference::Any)
        );
        assert_eq!(
            gamename_from_password("testgame6-300-0-b"),
            ("testgame6-300-0".into(), SidePreference::Black)
        );
        assert_eq!(
            gamename_from_password("testgame6-300-0-W"),
            ("testgame6-300-0".into(), SidePreference::White)
        );
        assert_eq!(
            gamename_from_password("pass"),
            ("default-1500-0".into(), SidePreference::Any)
        );
    }
}
