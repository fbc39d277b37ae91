//! The server session: a sans-IO CSA game server with shogi-server's x1 mode.
//!
//! Inputs take the connection id and the time: [`Server::handle_connect`],
//! [`Server::handle_input`] (raw bytes) or [`Server::handle_message`] (a
//! decoded line), [`Server::handle_close`], [`Server::handle_timeout`] (at
//! [`Server::poll_timeout`]: clocks, agree timeouts, the login timeout,
//! closing refused logins). Outputs, in this
//! order: [`Server::poll_transmit`] (`(conn, bytes)` in the order they must
//! be written; [`Transmit::closes`] asks for the connection to be
//! closed after its bytes), [`Server::poll_event`], [`Server::poll_timeout`].
//! No I/O, no clock reads, no threads.
//!
//! # Queues and their bounds
//!
//! Everything a peer can grow is bounded:
//! - each connection's unfinished line: [`ServerConfig::max_line_len`]
//!   (a longer line is answered and skipped);
//! - lines waiting for their turn: 8 per player (see below);
//! - buoys: [`ServerConfig::max_buoys_per_user`], [`ServerConfig::max_buoys`];
//! - monitors of a game: one entry per connection (`%%MONITORON` twice
//!   adds nothing);
//! - the login and refused-login timers: at most twice the open
//!   connections plus 64 entries (stale ones, of connections that closed or
//!   logged in, are swept), so connecting and closing again and again
//!   grows nothing;
//! - a game's moves and its record text: [`ServerConfig::max_moves`] moves
//!   (`0` lifts the limit, the operator's choice: then nothing bounds
//!   them), each record line at most a line long;
//! - the output ([`Server::poll_transmit`]) and the events
//!   ([`Server::poll_event`]): what the last `handle_*` call produced; the
//!   caller drains both after every call (as `net::serve` does), which
//!   bounds them by that call's input (its lines, each answered by a
//!   bounded reply; `%%WHO`, `%%LIST` and monitors by the connections and
//!   games open) or, for [`Server::handle_timeout`], by the games whose
//!   time ran out (two events each at most: the end or rejection, and its
//!   record). The network driver then caps each connection's unsent bytes
//!   (`net::Limits`).
//!
//! The code is split by concern: `login` (LOGIN, LOGOUT), `matching`
//! (waiting players, the `Game_Summary`), `scheduled` (a league's
//! players and pairings), `game` (agree phase, moves, clocks, results),
//! `x1` (the x1 commands), `monitor` (`%%SHOW`, monitors), `index` (the
//! indexes kept in step with every change: the connection of a login
//! name, the players waiting for each game name, the games' deadlines,
//! game ids, monitors).
//!
//! # Cost
//!
//! No input scans every connection or game: a `LOGIN`, a `%%GAME`, a
//! move, a close and [`Server::poll_timeout`] cost O(log n) in the
//! connections and games open (plus what they send). What is O(n) by
//! nature: `%%WHO` and `%%LIST` (their answers list everything), `%%CHAT`
//! (sent to every x1 client), the monitors of a game (each gets the
//! update), a league's pairing (every waiting player goes to
//! [`League::pair`]), and the sweeps of the login and refused-login timer
//! queues (amortised, see above). `%%SETBUOY` counts the owner's buoys
//! (at most [`ServerConfig::max_buoys`]).
//!
//! # Leagues (Floodgate)
//!
//! [`Server::set_league`] hands game names to a [`League`] (csa-league's
//! `Floodgate`): players asking for them wait, listed by `%%WHO` as
//! `game_waiting <name> *`, until the league's pairing time (in
//! [`Server::poll_timeout`]); [`Server::handle_timeout`] then gives the
//! league every waiting player it may pair at once, in the order they
//! started waiting, and starts the games it returns, each with its own
//! `Max_Moves` and `Least_Time_Per_Move`; the round's log lines are
//! [`ServerEvent::League`] events. A pair naming a player twice or a
//! player no longer waiting is not started (said in a `League` event).
//! Only players shogi-server rates and who asked for side `*` are handed
//! over (its `Floodgate#select_players`); ended games of the league's
//! names go to [`League::game_ended`]. `%%RATING` lists
//! [`ServerConfig::ratings`], reloaded with [`Server::set_ratings`].
//!
//! # Differences from shogi-server
//!
//! Behaviour follows shogi-server as recorded in the transcript and the spec
//! note, with these deliberate differences (those the transcript exercises
//! are also named in the replay test):
//! - a player who disconnects or sends `LOGOUT` in a game loses at once
//!   (`%TORYO`, `#RESIGN`, `#WIN` to the other). shogi-server notices only
//!   when that player is on move: a player who leaves right after its own
//!   move (the move and `LOGOUT` in one packet, or the move then a
//!   disconnect) loses there only once the opponent has moved (that move
//!   is echoed and recorded, then `%TORYO`, `#RESIGN`, `#WIN`), and one
//!   whose opponent never moves keeps the game open forever. The winner
//!   and reason are the same; we do not keep a game open on a dead
//!   connection;
//! - a player on move whose time runs out loses at that moment
//!   (`#TIME_UP`, from [`Server::handle_timeout`] at
//!   [`Server::poll_timeout`]); shogi-server checks the clock only when it
//!   next reads from that player, on its next line or its 60 s read
//!   timeout, so its `#TIME_UP` comes up to 60 s late. The limit itself is
//!   shogi-server's (`ChessClock#timeout?`): a move arriving exactly at
//!   the allowance (remaining time + byoyomi + this turn's increment)
//!   loses;
//! - lines longer than the cap get `##[ERROR] line too long: more than <m> bytes`
//!   and are skipped (shogi-server has no cap);
//! - `%%WHO` and monitor output show login names only, never a password hash;
//! - at most 8 lines per player wait for their turn (sent out of turn or
//!   before `START`); a ninth is answered `##[ERROR] a move is already
//!   waiting for its turn: <line>` and dropped, the game goes on
//!   (shogi-server queues every line);
//! - buoys are capped ([`ServerConfig::max_buoys_per_user`],
//!   [`ServerConfig::max_buoys`]), and a buoy whose set-up moves already
//!   end the game (repetition, no legal move, the move limit) is refused
//!   (shogi-server accepts both);
//! - peer bytes quoted in `##[ERROR]` replies have their control bytes
//!   escaped (shogi-server echoes them raw);
//! - `%%FORK <id> <buoy> <nth>` honours `nth` (shogi-server reads it as 0 and
//!   always answers that it is out of range);
//! - sides: when neither player asked for one, the later arrival is Black (the
//!   transcript's CSA-mode game came out that way; shogi-server picks at
//!   random);
//! - without a league ([`Server::set_league`]), Floodgate games
//!   (`floodgate-<total>-<byoyomi>[F]`, side `*` only) are paired as soon
//!   as two players wait (shogi-server's players of a Floodgate name
//!   without a schedule wait forever); with a league, its names wait for
//!   its pairing as in shogi-server;
//! - `Delay` (CSA protocol 1.2) and `Time_Roundup` are implemented
//!   ([`ServerConfig::delay`], [`ServerConfig::time_roundup`], both off by
//!   default); shogi-server implements neither;
//! - `%%RATING` lists [`ServerConfig::ratings`] (shogi-server reads
//!   `players.yaml`; the caller loads it and calls [`Server::set_ratings`])
//!   in shogi-server's format, TAB included (the one TAB the spec note
//!   allows on the wire, [`spec::csa`](crate::spec::csa), *Transport and
//!   lexical rules*): see [`Rating`].

use alloc::collections::{BTreeMap, VecDeque};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

pub(crate) use super::{Timestamp, Transmit};
pub(crate) use crate::clock::{Clock, TimeControl, civil};
pub(crate) use crate::convert::{GameBoard, PlayOutcome};
use crate::decode::decode;
use crate::error::{DecodeError, Field, FrameError, MessageKind, Problem};
use crate::framer::{Frame, LineInput};
pub(crate) use crate::message::{
    ClientMessage, EndReason, GameSummary, PositionSection, SpecialMove, TimeSection, TimeUnit,
    X1Command,
};
pub(crate) use crate::types::{
    CsaMove, GameId, GameName, GameNameExt, MoveTime, Side, SidePreference, Text, move_side,
};

mod game;
pub mod handicap;
mod index;
mod league;
mod login;
mod matching;
mod monitor;
mod record;
mod scheduled;
mod x1;

pub use league::{League, LeagueGame, LeagueResult, LeagueRound, WaitingPlayer};
pub use record::{GameRecord, RatingIds};

/// Lines one player may have waiting for its turn (sent out of turn or
/// before `START`); one more is answered `##[ERROR] a move is already
/// waiting for its turn: <line>` and dropped (shogi-server queues every
/// line; its own tests send two ahead).
pub(crate) const MAX_DEFERRED_LINES: usize = 8;

/// Stale entries (of connections gone or logged in) the timer queues
/// `login_deadlines` and `refused` may hold beyond twice the open
/// connections before they are swept.
const STALE_SLACK: usize = 64;

/// A connection handle, chosen by the I/O layer and passed to
/// [`Server::handle_connect`] (any value not in use).
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
    /// Time from [`Server::handle_connect`] to a successful `LOGIN`; then
    /// the connection is closed without a word. Default 300 s
    /// (shogi-server's `Login_Time`).
    pub login_timeout: Duration,
    /// How long a refused login is kept open before it is closed (its
    /// further lines are ignored): `LOGIN:incorrect` for a name that is
    /// already connected with another password, or in a game. Default 3 s
    /// (shogi-server sleeps 3 s before closing).
    pub refused_login_close_after: Duration,
    /// Buoy games (`%%SETBUOY`, `%%FORK`) one user may own at a time
    /// (default 16; shogi-server has no limit).
    pub max_buoys_per_user: usize,
    /// Buoy games on the server at a time (default 1024; shogi-server has
    /// no limit).
    pub max_buoys: usize,
    /// Text of the `%%VERSION` reply.
    pub version: String,
    /// Players' ratings, for `%%RATING` (see [`Rating`]); replaced at run
    /// time with [`Server::set_ratings`]. Empty by default: the session
    /// computes no ratings (shogi-server reads them from `players.yaml`,
    /// written by a separate tool), and then answers `%%RATING` with
    /// `##[RATING] +OK` alone, as the recorded shogi-server did.
    pub ratings: Vec<Rating>,
    /// Start position of every game (`None`: the even-game position). For
    /// private tournaments with set positions, and tests. A handicap game
    /// name (`hc2p_...`, see [`handicap`]) starts from its handicap position
    /// instead.
    pub initial_position: Option<board_core::shogi::Position>,
    /// Build a record of every game ([`ServerEvent::Record`], shogi-server's
    /// CSA V2 file; see [`GameRecord`]). Default `false`: no records.
    pub records: bool,
    /// The ids of a record's `'rating:` line (default [`RatingIds::Names`]).
    pub rating_ids: RatingIds,
    /// The server's local time zone, seconds east of UTC (default 0): the
    /// Game_ID's `YYYYMMDDHHMMSS` stamp, the times and the date directory of
    /// game records are local, as shogi-server writes them.
    pub utc_offset_secs: i32,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            event: "boardwire".into(),
            max_line_len: crate::framer::DEFAULT_MAX_LEN,
            max_moves: 256,
            least_time_per_move: 0,
            delay: 0,
            time_roundup: false,
            agree_timeout: Duration::from_secs(120),
            login_timeout: Duration::from_secs(300),
            refused_login_close_after: Duration::from_secs(3),
            max_buoys_per_user: 16,
            max_buoys: 1024,
            version: concat!("boardwire csa-protocol ", env!("CARGO_PKG_VERSION")).into(),
            initial_position: None,
            ratings: Vec::new(),
            records: false,
            rating_ids: RatingIds::Names,
            utc_offset_secs: 0,
        }
    }
}

/// A player's rating (an entry of shogi-server's `players.yaml`), listed by
/// `%%RATING`.
///
/// As shogi-server's `RatingCommand` lists `League#rated_players` (every
/// player of `players.yaml`, every rating group, logged in or not): one
/// line per entry, highest rate first (equal rates in the order given),
/// `##[RATING] <name> \t <rate> @YYYY-MM-DD` with shogi-server's spacing:
/// a space, a TAB and a space between name and rate, the rate
/// right-aligned in four columns (Ruby's `%4d`: `##[RATING] bob \t  980
/// @2026-12-01`), the date in the server's local time
/// ([`ServerConfig::utc_offset_secs`]); then `##[RATING] +OK`. The TAB
/// is shogi-server's, the real peer's, and the one TAB the spec note
/// allows on the wire ([`spec::csa`](crate::spec::csa), *Transport and
/// lexical rules*); the decoder reads it into
/// [`X1Reply::Rating`](crate::X1Reply::Rating)'s
/// [`RatingText`](crate::types::RatingText).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rating {
    /// The player's name (`players.yaml`'s `name`, the login name).
    pub name: crate::types::UserName<'static>,
    /// The rating (an Elo-like integer; may be negative; 0 for the
    /// unrated players of group 999).
    pub rate: i32,
    /// When the rating was last computed (`last_modified`), seconds since
    /// 1970 (UTC); printed as the local date.
    pub updated_unix_secs: u64,
}

/// Something that happened, for logs and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerEvent {
    /// Both players agreed; the game started.
    GameStarted {
        /// Game_ID.
        game_id: String,
        /// Black's (`+`) login name.
        black: String,
        /// White's (`-`) login name.
        white: String,
    },
    /// A game offered by `Game_Summary` was rejected before it started
    /// (`REJECT:<game id> by <by>` went to the players): a player's
    /// `REJECT`, a player who left, or the agree phase timed out.
    GameRejected {
        /// Game_ID.
        game_id: String,
        /// Who rejected it, as the `REJECT` line names them: a login name,
        /// or `the Server (timed out)`.
        by: String,
    },
    /// A game ended.
    GameEnded {
        /// Game_ID.
        game_id: String,
        /// Why it ended (the reason line sent, e.g. `#RESIGN`).
        reason: EndReason,
        /// The winner, if any.
        winner: Option<Side>,
        /// Moves played (buoy set-up moves included).
        moves: usize,
    },
    /// A game's record, with [`ServerConfig::records`] on: after its
    /// [`ServerEvent::GameEnded`], or when a game that never started is
    /// dropped (rejected, timed out in the agree phase). The driver writes
    /// it to a file.
    Record(GameRecord),
    /// A line for the operator's log from a league's pairing
    /// ([`Server::set_league`]): the league's own lines
    /// ([`LeagueRound::log`]) and the server's about games of the round it
    /// did not start (a player named twice or no longer waiting), without
    /// a line terminator.
    League(String),
}

/// One line for a person.
impl core::fmt::Display for ServerEvent {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ServerEvent::GameStarted {
                game_id,
                black,
                white,
            } => write!(f, "game {game_id} started: + {black} - {white}"),
            ServerEvent::Record(r) => write!(
                f,
                "record of game {} ({} bytes, {})",
                r.game_id,
                r.text.len(),
                r.path
            ),
            ServerEvent::League(line) => write!(f, "league: {line}"),
            ServerEvent::GameRejected { game_id, by } => {
                write!(f, "game {game_id} rejected by {by}")
            }
            ServerEvent::GameEnded {
                game_id,
                reason,
                winner,
                moves,
            } => {
                write!(
                    f,
                    "game {game_id} over after {moves} moves ({}",
                    reason.as_str()
                )?;
                match winner {
                    Some(w) => write!(f, ", {} wins)", w.sign()),
                    None => f.write_str(", no winner)"),
                }
            }
        }
    }
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
    /// When the player last started waiting for a game (a number that
    /// grows with every wait the server sees): the order in which a
    /// league's waiting players are handed to [`League::pair`].
    wait_seq: u64,
}

#[derive(Debug)]
struct Conn<I> {
    lines: LineInput,
    login: Option<Login>,
    closed: bool,
    bad_lines: u32,
    /// A refused login: input is ignored and the connection closed then.
    refused_until: Option<I>,
    /// Closed then unless logged in.
    login_deadline: I,
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
    /// Buoy set-up moves at the start of `moves`.
    setup_moves: usize,
    /// Comment lines of the record between moves (bytes after the `'`),
    /// each with the number of moves played when it was written: a move's
    /// comment (`*<comment>`) and a line held for its turn (`Deferred
    /// <move>`), for `%%MONITOR2ON` (shogi-server sends its record file so
    /// far). At most one comment per move and the lines held
    /// ([`MAX_DEFERRED_LINES`] per player at a time, each played as a move
    /// or ending the game): bounded by the moves.
    notes: Vec<(usize, Vec<u8>)>,
    start_unix: u64,
    /// The record being written ([`ServerConfig::records`]).
    record: Option<record::RecordState>,
    /// `Max_Moves` of this game (0: no limit): [`ServerConfig::max_moves`]
    /// or the league's [`LeagueGame::max_moves`].
    max_moves: u32,
    /// `Least_Time_Per_Move` of this game in seconds:
    /// [`ServerConfig::least_time_per_move`] or the league's
    /// [`LeagueGame::least_time_per_move`].
    least_time_per_move: u64,
    /// The deadline this game has in the server's deadline index (kept
    /// equal to `index::game_deadline`).
    deadline: Option<I>,
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
    conns: BTreeMap<ConnId, Conn<I>>,
    /// Connections not logged in, by login deadline (deadlines grow with
    /// the connect order; stale entries, of connections that logged in or
    /// closed, are skipped). Bounded: at most `2 * conns.len() +
    /// STALE_SLACK` entries (stale ones are swept when it would grow past
    /// that), so connecting and closing again and again grows nothing.
    login_deadlines: VecDeque<(I, ConnId)>,
    /// Refused logins, by close time; bounded as `login_deadlines`.
    refused: VecDeque<(I, ConnId)>,
    games: BTreeMap<u64, Game<I>>,
    next_game: u64,
    buoys: BTreeMap<String, Buoy>,
    out: VecDeque<(ConnId, Transmit)>,
    events: VecDeque<ServerEvent>,
    base_instant: I,
    base_unix: u64,
    /// The time of the latest input (the end time of game records).
    last_now: I,
    /// The latest time stamp given to a game id, per id without its stamp
    /// (`event+name+black+white`): a second game of the same players and
    /// name within the same second gets the next second, so no two games
    /// share an id (and a record file). Entries older than the current
    /// second are dropped.
    id_stamps: BTreeMap<String, u64>,
    /// The league that schedules some game names ([`Server::set_league`]).
    league: Option<alloc::boxed::Box<dyn League>>,
    /// The unix second of the league's last pairing: the next one is
    /// never before the following second, so a league whose
    /// [`League::next_pairing`] stays in the past is asked at most once a
    /// second.
    league_paired_at: Option<u64>,
    /// The last [`Login::wait_seq`] given.
    wait_seq: u64,
    /// Login names, waiting players, deadlines, game ids and monitors,
    /// indexed (`index`).
    index: index::Indexes<I>,
    /// `id_stamps` is swept when it reaches this many entries (at least
    /// 64, twice what the last sweep left).
    id_stamps_sweep_at: usize,
}

/// A peer's bytes quoted in our own replies: UTF-8 as is, control bytes
/// (U+0000-U+001F, U+007F-U+009F) as `\xNN` (`\u{NN}` for U+0080-U+009F)
/// and bytes that are not UTF-8 as `\xNN`; so an error reply never
/// carries a peer's NUL, ESC or BEL.
/// (Relayed content, chat and move comments, is passed on byte for byte.)
pub(crate) fn escape(bytes: &[u8]) -> String {
    use core::fmt::Write;
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c as u32 {
                0..0x80 if c.is_control() => {
                    let _ = write!(out, "\\x{:02X}", c as u32);
                }
                _ if c.is_control() => {
                    let _ = write!(out, "\\u{{{:02X}}}", c as u32);
                }
                _ => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// Whether a turn that took `elapsed` is over time, as shogi-server's
/// `ChessClock#timeout?` decides (`mytime - t + byoyomi + fischer <= 0`
/// with `t` the whole seconds elapsed): at the allowance itself
/// ([`Clock::allowance`]: remaining time, this turn's increment,
/// byoyomi, and the `Delay` we add), not only past it.
pub(crate) fn time_up(clock: &Clock, elapsed: Duration) -> bool {
    clock.allowance().is_some_and(|a| elapsed >= a)
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
            login_deadlines: VecDeque::new(),
            refused: VecDeque::new(),
            games: BTreeMap::new(),
            next_game: 1,
            buoys: BTreeMap::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            base_instant: now,
            base_unix: unix_secs,
            last_now: now,
            id_stamps: BTreeMap::new(),
            league: None,
            league_paired_at: None,
            wait_seq: 0,
            index: index::Indexes::default(),
            id_stamps_sweep_at: 64,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// A new connection `conn` was accepted (an id not in use; a call with
    /// an id already open does nothing). The server sends no greeting.
    /// It must log in within [`ServerConfig::login_timeout`].
    pub fn handle_connect(&mut self, conn: ConnId, now: I) {
        if self.conns.contains_key(&conn) {
            return;
        }
        let login_deadline = now.saturating_add(self.config.login_timeout);
        if self.login_deadlines.len() >= 2 * self.conns.len() + STALE_SLACK {
            let conns = &self.conns;
            self.login_deadlines.retain(|(t, id)| {
                conns
                    .get(id)
                    .is_some_and(|c| c.login.is_none() && c.login_deadline == *t)
            });
        }
        self.login_deadlines.push_back((login_deadline, conn));
        let id = conn;
        self.conns.insert(
            id,
            Conn {
                lines: LineInput::new(self.config.max_line_len),
                login: None,
                closed: false,
                bad_lines: 0,
                refused_until: None,
                login_deadline,
            },
        );
    }

    /// Bytes arrived on `conn`. Complete lines are processed at once; a
    /// line longer than [`ServerConfig::max_line_len`] is answered with
    /// `##[ERROR] line too long: more than <m> bytes` and skipped.
    pub fn handle_input(&mut self, conn: ConnId, bytes: &[u8], now: I) {
        self.last_now = self.last_now.max(now);
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        if c.closed || c.refused_until.is_some() {
            return;
        }
        let mut input = c.lines.take();
        let mut rest = bytes;
        'read: loop {
            let n = input.push(rest);
            rest = &rest[n..];
            while let Some(frame) = input.next_frame() {
                if self.conns.get(&conn).is_none_or(|c| c.closed) {
                    break 'read;
                }
                match frame {
                    Frame::Complete(line) => self.handle_line(conn, line, now),
                    Frame::Overlong { .. } => {
                        if let Some(c) = self.conns.get_mut(&conn) {
                            c.bad_lines += 1;
                        }
                        let max = self.config.max_line_len;
                        self.send_line(
                            conn,
                            &format!("##[ERROR] line too long: more than {max} bytes"),
                        );
                    }
                }
            }
            if rest.is_empty() {
                break;
            }
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.lines.put(input);
        }
    }

    /// A line `conn` sent, already decoded (codec users): handled as
    /// [`Server::handle_input`] handles the line it encodes to. Malformed
    /// lines can only come in through [`Server::handle_input`] (the answers
    /// to them quote the line).
    pub fn handle_message(&mut self, conn: ConnId, msg: &ClientMessage<'_>, now: I) {
        self.last_now = self.last_now.max(now);
        if self
            .conns
            .get(&conn)
            .is_none_or(|c| c.closed || c.refused_until.is_some())
        {
            return;
        }
        let line = msg.to_line();
        self.dispatch(conn, &line, Ok(msg.clone()), now);
    }

    /// What the tokio codec reported on `conn` instead of a line (codec
    /// users): counts towards the misbehaviour limit like a bad line. An
    /// over-long line is answered as [`Server::handle_input`] answers it; a
    /// malformed line as the decoded error says (the answers that quote
    /// the line quote nothing: the codec does not keep it).
    pub fn handle_frame_error(&mut self, conn: ConnId, e: &FrameError, now: I) {
        self.last_now = self.last_now.max(now);
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        if c.closed || c.refused_until.is_some() {
            return;
        }
        c.bad_lines += 1;
        match *e {
            FrameError::Overlong { .. } => {
                let max = self.config.max_line_len;
                self.send_line(
                    conn,
                    &format!("##[ERROR] line too long: more than {max} bytes"),
                );
            }
            FrameError::Malformed(d) => self.dispatch(conn, b"", Err(d), now),
            // Not a CSA report (the last line without its LF is a line).
            _ => {}
        }
    }

    /// The connection was closed by the peer (or failed). A player in a
    /// game loses it at once (a deliberate difference from shogi-server,
    /// [`spec::csa`](crate::spec::csa), *Results*).
    pub fn handle_close(&mut self, conn: ConnId, now: I) {
        self.last_now = self.last_now.max(now);
        self.mark_closed(conn);
        let status = self
            .conns
            .get(&conn)
            .and_then(|c| c.login.as_ref())
            .map(|l| l.status.clone());
        if let Some(Status::InGame(g)) = status {
            self.leave_game(conn, g, now, false);
        }
        self.conns.remove(&conn);
        self.unwatch_all(conn);
        self.debug_check_indexes();
    }

    /// The earliest time at which [`Server::handle_timeout`] must be called:
    /// clocks, agree and login deadlines, and the league's next pairing
    /// ([`League::next_pairing`], asked with the time of the latest input,
    /// converted with the `now` / `unix_secs` pair given to
    /// [`Server::new`]; never before the second after the last pairing).
    pub fn poll_timeout(&self) -> Option<I> {
        let conns = [self.login_deadlines.front(), self.refused.front()]
            .into_iter()
            .flatten()
            .map(|(t, _)| *t)
            .min();
        [conns, self.first_deadline(), self.league_timeout()]
            .into_iter()
            .flatten()
            .min()
    }

    /// Time passed: ends games whose player on move ran out of time and
    /// agree phases that timed out; closes connections that did not log in
    /// within [`ServerConfig::login_timeout`] and refused logins after
    /// [`ServerConfig::refused_login_close_after`]; at or after the
    /// league's next pairing, pairs the players waiting for its games
    /// ([`Server::set_league`]).
    pub fn handle_timeout(&mut self, now: I) {
        self.last_now = self.last_now.max(now);
        while let Some(&(t, conn)) = self.login_deadlines.front() {
            if t > now {
                break;
            }
            self.login_deadlines.pop_front();
            if self.conns.get(&conn).is_some_and(|c| {
                c.login.is_none() && c.refused_until.is_none() && c.login_deadline <= now
            }) {
                self.close(conn);
            }
        }
        while let Some(&(t, conn)) = self.refused.front() {
            if t > now {
                break;
            }
            self.refused.pop_front();
            if self
                .conns
                .get(&conn)
                .and_then(|c| c.refused_until)
                .is_some_and(|u| u <= now)
            {
                self.close(conn);
            }
        }
        // The games whose deadline came, in key order (as a scan of
        // `games` would visit them).
        for gk in self.games_due(now) {
            let Some(g) = self.games.get(&gk) else {
                continue;
            };
            match g.phase {
                Phase::Agree { deadline, .. } if now >= deadline => {
                    let by = "the Server (timed out)";
                    let msg = format!("REJECT:{} by {by}", g.id);
                    let players = g.players;
                    for p in players {
                        self.send_line(p, &msg);
                    }
                    self.abandon_game(gk, by.into());
                }
                Phase::Play { turn_started } => {
                    let side = g.board.side_to_move();
                    if time_up(
                        &g.clocks[idx(side)],
                        now.saturating_duration_since(turn_started),
                    ) {
                        self.finish(gk, &[], EndReason::TimeUp, Some(side.opponent()));
                    }
                }
                _ => {}
            }
        }
        self.run_league(now);
        self.debug_check_indexes();
    }

    /// The next output, in the order it must be performed.
    pub fn poll_transmit(&mut self) -> Option<(ConnId, Transmit)> {
        self.out.pop_front()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<ServerEvent> {
        self.events.pop_front()
    }

    /// `true` once `conn` has logged in.
    pub fn is_logged_in(&self, conn: ConnId) -> bool {
        self.conns.get(&conn).is_some_and(|c| c.login.is_some())
    }

    /// Malformed, unrecognised or over-long lines `conn` sent in a row (the
    /// drivers disconnect a peer past a limit).
    pub fn bad_line_streak(&self, conn: ConnId) -> u32 {
        self.conns.get(&conn).map_or(0, |c| c.bad_lines)
    }

    /// `true` when [`Server::poll_transmit`] has something.
    pub fn has_transmit(&self) -> bool {
        !self.out.is_empty()
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
        if let Some((c, t)) = self.out.back_mut()
            && *c == conn
            && !t.closes()
        {
            t.extend_from_slice(&data);
            return;
        }
        self.out.push_back((conn, Transmit::from_vec(data)));
    }

    fn close(&mut self, conn: ConnId) {
        if self.conns.get(&conn).is_some_and(|c| !c.closed) {
            self.mark_closed(conn);
            match self.out.back_mut() {
                Some((c, t)) if *c == conn => {
                    *t = core::mem::replace(t, Transmit::close()).and_close();
                }
                _ => self.out.push_back((conn, Transmit::close())),
            }
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
        let logged_in = self.conns.get(&conn).is_some_and(|c| c.login.is_some());
        // A line of white space only (not the empty keep-alive) is answered
        // with nothing, as in shogi-server (`spec/csa.md`, *Transport
        // and lexical rules*); so are `%%%` lines (81Dojo's commands).
        if logged_in
            && ((!line.is_empty() && line.iter().all(u8::is_ascii_whitespace))
                || line.starts_with(b"%%%"))
        {
            return;
        }
        // Lines shogi-server accepts in a looser form are read in their
        // canonical form (`compat_line`); a move with a field after the
        // comma that is no comment (`+7776FU,T5`) is read as the move.
        let canon = compat_line(line, logged_in);
        let (line, decoded) = match &canon {
            Some(Compat::Line(c)) => (line, decode::<ClientMessage>(c)),
            Some(Compat::Cut(n)) => (&line[..*n], decode::<ClientMessage>(&line[..*n])),
            None => (line, decode::<ClientMessage>(line)),
        };
        if let Some(c) = self.conns.get_mut(&conn) {
            let bad = matches!(decoded, Err(_) | Ok(ClientMessage::Unrecognised(_)));
            c.bad_lines = if bad { c.bad_lines + 1 } else { 0 };
        }
        self.dispatch(conn, line, decoded, now);
    }

    fn dispatch(
        &mut self,
        conn: ConnId,
        line: &[u8],
        decoded: Result<ClientMessage<'_>, DecodeError>,
        now: I,
    ) {
        self.dispatch_line(conn, line, decoded, now);
        self.debug_check_indexes();
    }

    fn dispatch_line(
        &mut self,
        conn: ConnId,
        line: &[u8],
        decoded: Result<ClientMessage<'_>, DecodeError>,
        now: I,
    ) {
        let logged_in = self.conns.get(&conn).is_some_and(|c| c.login.is_some());
        if !logged_in {
            match decoded {
                Ok(ClientMessage::Login { name, password, x1 }) => {
                    self.login(conn, name.as_str(), password.expose(), x1, line, now);
                }
                // Before login an empty line is a bad login like any other
                // (`spec/csa.md`, *Transport and lexical rules*).
                _ => {
                    self.send_line(conn, "LOGIN:incorrect");
                    // shogi-server adds a usage hint when the line has four
                    // or more words (transcript §4).
                    if line
                        .split(u8::is_ascii_whitespace)
                        .filter(|f| !f.is_empty())
                        .count()
                        >= 4
                    {
                        self.send_line(
                            conn,
                            "type 'LOGIN name password' or 'LOGIN name password x1'",
                        );
                    }
                }
            }
            return;
        }
        let status = self.status(conn);
        // Moves (`[+-][^%]`) and specials (`%[^%]`): played in a game,
        // answered with nothing otherwise (shogi-server ignores them).
        let game_line = match line {
            [b'+' | b'-', b, ..] => *b != b'%',
            [b'%', b, ..] => *b != b'%',
            _ => false,
        };
        if game_line {
            if let Status::InGame(gk) = status {
                self.game_line(conn, gk, line, now);
                self.sync_deadline(gk);
            }
            return;
        }
        let game_request = matches!(
            decoded,
            Ok(ClientMessage::X1(
                X1Command::Game(Some(_)) | X1Command::Challenge(_)
            ))
        );
        match decoded {
            // shogi-server's `%%(GAME|CHALLENGE)\s+(\S+)` when its
            // `...\s+(\S+)\s+([+\-*])\s*$` did not match: a side that is
            // not `+`, `-` or `*`, or words after it.
            _ if !game_request && turn_missing(line) => {
                let l = escape(line);
                self.error(conn, &format!("A turn identifier is required: {l}"));
            }
            Ok(ClientMessage::KeepAlive) => self.send_line(conn, ""),
            Ok(ClientMessage::Logout) => self.logout(conn, now),
            Ok(ClientMessage::Agree(_)) => match self.agree_status(conn, status) {
                Some(gk) => {
                    self.agree(conn, gk, now);
                    self.sync_deadline(gk);
                }
                None => self.status_error(conn, "AGREE"),
            },
            Ok(ClientMessage::Reject(_)) => match self.agree_status(conn, status) {
                Some(gk) => self.reject(conn, gk),
                None => self.status_error(conn, "REJECT"),
            },
            // `%%CHAT` with no text (or one space): shogi-server's
            // `%%CHAT\s+(.+)` does not match, an unknown command.
            Ok(ClientMessage::X1(X1Command::Chat(t))) if t.as_str().is_empty() => {
                self.unknown(conn, line);
            }
            Ok(ClientMessage::X1(cmd)) => self.x1(conn, cmd, now),
            // `CHALLENGE` (without `%%`), CSA's test server command:
            // shogi-server accepts it and does nothing else.
            Ok(ClientMessage::Unrecognised(_)) if line.starts_with(b"CHALLENGE") => {
                self.send_line(conn, "CHALLENGE ACCEPTED");
            }
            Err(e)
                if matches!(e.message, MessageKind::Game | MessageKind::Challenge)
                    && e.field == Field::Side
                    && e.problem == Problem::Missing =>
            {
                let l = escape(line);
                self.error(conn, &format!("A turn identifier is required: {l}"));
            }
            // A name the decoder refuses (bytes other than
            // `[0-9A-Za-z_@.-]`, too long) or no name: shogi-server's
            // regular expressions decide (`%%GAME\s*$` cancels, a name and
            // a side is a bad game name, else the turn is missing).
            Err(e)
                if matches!(e.message, MessageKind::Game | MessageKind::Challenge)
                    && e.field == Field::GameName =>
            {
                let ws: Vec<&[u8]> = words(line).collect();
                match ws[..] {
                    [b"%%GAME"] => self.x1(conn, X1Command::Game(None), now),
                    // `[]`: from a codec, which keeps no line.
                    [] | [_] => self.unknown(conn, line),
                    [_, name, b"+" | b"-" | b"*"] => self.bad_game_name(conn, &escape(name)),
                    _ => {
                        let l = escape(line);
                        self.error(conn, &format!("A turn identifier is required: {l}"));
                    }
                }
            }
            Err(e)
                if e.message == MessageKind::SetBuoy
                    && e.field == Field::Moves
                    && e.problem != Problem::Missing =>
            {
                let moves = line
                    .split(u8::is_ascii_whitespace)
                    .filter(|f| !f.is_empty())
                    .nth(2)
                    .unwrap_or(b"");
                let m = escape(moves);
                self.error(conn, &format!("wrong moves: {m}"));
            }
            // A count that is no number: shogi-server reads it as 0.
            Err(e) if e.message == MessageKind::SetBuoy && e.field == Field::Count => {
                self.error(conn, "invalid count: 0");
            }
            _ => self.unknown(conn, line),
        }
    }

    /// The game `conn` may AGREE or REJECT: in its agree phase and not yet
    /// agreed (shogi-server's `agree_waiting`).
    fn agree_status(&self, conn: ConnId, status: Status) -> Option<u64> {
        let Status::InGame(gk) = status else {
            return None;
        };
        let g = self.games.get(&gk)?;
        let i = g.players.iter().position(|p| *p == conn)?;
        match g.phase {
            Phase::Agree { agreed, .. } if !agreed[i] => Some(gk),
            _ => None,
        }
    }

    /// shogi-server's name of `conn`'s status: `connected`, `game_waiting`,
    /// `agree_waiting`, `start_waiting` (agreed, waiting for the other),
    /// `game`.
    fn status_name(&self, conn: ConnId) -> &'static str {
        match self.status(conn) {
            Status::Connected => "connected",
            Status::GameWaiting { .. } => "game_waiting",
            Status::InGame(gk) => match self.games.get(&gk) {
                Some(g) => match g.phase {
                    Phase::Agree { agreed, .. } => {
                        let i = g.players.iter().position(|p| *p == conn);
                        if i.is_some_and(|i| agreed[i]) {
                            "start_waiting"
                        } else {
                            "agree_waiting"
                        }
                    }
                    Phase::Play { .. } => "game",
                },
                None => "connected",
            },
        }
    }

    /// `AGREE`/`REJECT` outside the agree phase, in shogi-server's words.
    fn status_error(&mut self, conn: ConnId, command: &str) {
        let st = self.status_name(conn);
        self.error(
            conn,
            &format!("you are in {st} status. {command} is valid in agree_waiting status"),
        );
    }

    fn unknown(&mut self, conn: ConnId, line: &[u8]) {
        let l = escape(&hide_login_password(line));
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
            // A player who asks again for the game it waits for keeps its
            // place; any other wait starts now.
            if let Status::GameWaiting { gamename, .. } = &s {
                let same =
                    matches!(&l.status, Status::GameWaiting { gamename: g, .. } if g == gamename);
                if !same {
                    self.wait_seq += 1;
                    l.wait_seq = self.wait_seq;
                }
            }
            let old = core::mem::replace(&mut l.status, s);
            let new = l.status.clone();
            self.index_status(conn, &old, &new);
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
}

/// A quoted line with its password hidden, as shogi-server quotes it: from
/// the first `LOGIN` (any case), white space, a word of `[0-9A-Za-z_]` and
/// more white space, the rest becomes `...` (`LOGIN alice...`).
fn hide_login_password(line: &[u8]) -> alloc::borrow::Cow<'_, [u8]> {
    let Some(at) = line
        .windows(5)
        .position(|w| w.eq_ignore_ascii_case(b"LOGIN"))
    else {
        return line.into();
    };
    let rest = &line[at + 5..];
    let sp = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let word = rest[sp..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let after = &rest[sp + word..];
    if word == 0 || !after.first().is_some_and(u8::is_ascii_whitespace) {
        return line.into();
    }
    let mut v = Vec::with_capacity(at + 8 + word);
    v.extend_from_slice(&line[..at]);
    v.extend_from_slice(b"LOGIN ");
    v.extend_from_slice(&rest[sp..sp + word]);
    v.extend_from_slice(b"...");
    v.into()
}

/// How a line shogi-server accepts in a looser form is read.
enum Compat {
    /// Read this canonical line instead.
    Line(Vec<u8>),
    /// Read the first `n` bytes (a move with a field after the comma that
    /// is no comment: shogi-server plays the move and ignores the field).
    Cut(usize),
}

/// The words of `line`, split at runs of white space (Ruby's `split`).
fn words(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty())
}

/// `true` for a line shogi-server answers `A turn identifier is required`
/// (`Command.factory`): `%%GAME` or `%%CHALLENGE`, white space and a word,
/// but not the name and one of `+`, `-`, `*` alone (then trailing white
/// space only).
fn turn_missing(line: &[u8]) -> bool {
    let Some(rest) = line
        .strip_prefix(b"%%GAME")
        .or_else(|| line.strip_prefix(b"%%CHALLENGE"))
    else {
        return false;
    };
    if !rest.first().is_some_and(u8::is_ascii_whitespace) {
        return false;
    }
    let ws: Vec<&[u8]> = words(rest).collect();
    !matches!(ws[..], [] | [_, b"+" | b"-" | b"*"])
}

/// shogi-server's looser readings ([`spec::csa`](crate::spec::csa), *Transport and
/// lexical rules*): `LOGIN` split at any white space (before login);
/// `%%GAME`/`%%CHALLENGE` with runs of spaces; `%%WHO`, `%%LIST`,
/// `%%RATING`, `%%VERSION`, `%%HELP` and `LOGOUT` followed by anything;
/// the one-argument commands (`%%SHOW <id>` ...) with runs of spaces and
/// anything after the argument; a move `+7776FU,<field>` whose field is no
/// comment. `None`: read the line as it is.
fn compat_line(line: &[u8], logged_in: bool) -> Option<Compat> {
    let join = |ws: &[&[u8]]| Compat::Line(ws.join(&b' '));
    if !logged_in {
        let ws: Vec<&[u8]> = words(line).collect();
        let ok = ws.first() == Some(&&b"LOGIN"[..])
            && (ws.len() == 3 || (ws.len() == 4 && ws[3] == b"x1"));
        return ok.then(|| join(&ws));
    }
    if let [b'+' | b'-', ..] = line
        && let Some(n) = line.iter().position(|&b| b == b',')
        && line.get(n + 1) != Some(&b'\'')
    {
        return Some(Compat::Cut(n));
    }
    if !line.starts_with(b"%%") && !line.starts_with(b"LOGOUT") {
        return None;
    }
    for kw in [
        &b"%%WHO"[..],
        b"%%LIST",
        b"%%RATING",
        b"%%VERSION",
        b"%%HELP",
        b"LOGOUT",
    ] {
        if line.starts_with(kw) {
            return (line != kw).then(|| Compat::Line(kw.to_vec()));
        }
    }
    let ws: Vec<&[u8]> = words(line).collect();
    let canon = join(&ws);
    match ws.as_slice() {
        [b"%%GAME" | b"%%CHALLENGE", _, [b'+' | b'-' | b'*']] | [b"%%GAME"] => Some(canon),
        [
            b"%%SHOW" | b"%%MONITORON" | b"%%MONITOROFF" | b"%%MONITOR2ON" | b"%%MONITOR2OFF"
            | b"%%DELETEBUOY" | b"%%GETBUOYCOUNT",
            arg,
            ..,
        ] => Some(join(&[ws[0], arg])),
        [b"%%SETBUOY" | b"%%FORK", ..] => Some(canon),
        _ => None,
    }
}

boardwire_proto::forward_session! {
    /// A connection must still be announced with
    /// [`Server::handle_connect`] (not part of the trait) before its input.
    impl<I: Timestamp> Session for Server<I> {
        type Conn = ConnId;
        type Time = I;
        type Incoming<'a> = ClientMessage<'a>;
        type Outgoing<'a> = crate::message::ServerMessage<'a>;
        type Event = ServerEvent;

        fn max_frame_len(&self) -> usize {
            self.config.max_line_len
        }
        fn decode_incoming<'a>(
            &self,
            frame: &'a [u8],
        ) -> Result<ClientMessage<'a>, crate::error::DecodeError> {
            crate::decode::decode(frame)
        }
        fn decode_outgoing<'a>(
            &self,
            frame: &'a [u8],
        ) -> Result<crate::message::ServerMessage<'a>, crate::error::DecodeError> {
            crate::decode::decode(frame)
        }
        fn is_unrecognised(msg: &ClientMessage<'_>) -> bool {
            matches!(msg, ClientMessage::Unrecognised(_))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::login::gamename_from_password;
    use super::*;
    use crate::types::is_floodgate_game as is_floodgate_name;

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
        for (password, game, side) in [
            ("testgame3-300-0", "testgame3-300-0", SidePreference::Any),
            (
                "testgame3-300-0,xyz",
                "testgame3-300-0",
                SidePreference::Any,
            ),
            (
                "testgame6-300-0-b",
                "testgame6-300-0",
                SidePreference::Black,
            ),
            (
                "testgame6-300-0-W",
                "testgame6-300-0",
                SidePreference::White,
            ),
            ("pass", "default-1500-0", SidePreference::Any),
        ] {
            assert_eq!(
                gamename_from_password(password),
                (game.into(), side),
                "{password}"
            );
        }
    }

    #[test]
    fn timer_queues_stay_bounded_under_connection_churn() {
        // A peer that connects and closes again and again (and one whose
        // logins are refused) leaves no queue growing: stale timer entries
        // are swept.
        let t0 = Duration::ZERO;
        let mut s: Server<Duration> = Server::new(ServerConfig::default(), t0, 0);
        s.handle_connect(ConnId(0), t0);
        s.handle_input(ConnId(0), b"LOGIN a x x1\n", t0);
        for i in 1..10_000u64 {
            let now = Duration::from_millis(i);
            s.handle_connect(ConnId(i), now);
            // A login for `a` with another password: refused.
            s.handle_input(ConnId(i), b"LOGIN a y x1\n", now);
            s.handle_close(ConnId(i), now);
            while s.poll_transmit().is_some() {}
            // Two connections open at most (0 and i).
            assert!(s.login_deadlines.len() <= 2 * 2 + STALE_SLACK + 1);
            assert!(s.refused.len() <= 2 * 2 + STALE_SLACK + 1);
        }
        // The live connection is still timed: a fresh one is closed at its
        // login deadline.
        let now = Duration::from_secs(20);
        s.handle_connect(ConnId(20_000), now);
        s.handle_timeout(now + Duration::from_secs(300));
        assert!(s.conns.get(&ConnId(20_000)).is_none_or(|c| c.closed));
        assert!(s.is_logged_in(ConnId(0)));
    }
}
