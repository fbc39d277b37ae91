//! Scenarios of the server at scale, in memory, shared by the
//! `server_scale` test and bench: many logged-in clients waiting for a
//! scheduled league game while other clients log in, play and leave
//! (issue 27: 10,000 clients, most waiting for a Floodgate game; 2,000
//! waiting players paired in at most 1 s).

#![allow(dead_code)]

use std::time::Duration;

use csa_protocol::session::{
    ConnId, League, LeagueGame, LeagueRound, Server, ServerConfig, WaitingPlayer,
};

/// The unix time of the scenarios' 0 s.
pub const BASE: u64 = 1_795_964_195;

/// The scheduled game name the idle clients wait for (shogi-server's
/// built-in Floodgate schedule).
pub const WAIT_GAME: &str = "floodgate-900-0";

/// A league that schedules [`WAIT_GAME`] at `at` (unix seconds; `None`:
/// never) and pairs the waiting players in the order given: first with
/// second (first Black), third with fourth, ...
#[derive(Debug)]
pub struct InOrder {
    pub at: Option<u64>,
}

impl League for InOrder {
    fn schedules(&self, gamename: &str) -> bool {
        gamename == WAIT_GAME
    }
    fn next_pairing(&self, _unix_secs: u64, _utc_offset_secs: i32) -> Option<u64> {
        self.at
    }
    fn pair(&mut self, _unix: u64, _off: i32, waiting: &[WaitingPlayer<'_>]) -> LeagueRound {
        self.at = None;
        let games = waiting
            .chunks_exact(2)
            .map(|p| LeagueGame {
                black: p[0].conn,
                white: p[1].conn,
                gamename: WAIT_GAME.into(),
                max_moves: None,
                least_time_per_move: None,
            })
            .collect();
        LeagueRound {
            games,
            log: Vec::new(),
        }
    }
}

/// Drains what the server queued, as the network driver does after every
/// input; the number of transmits.
pub fn drain(s: &mut Server<Duration>) -> usize {
    let mut n = 0;
    while s.poll_transmit().is_some() {
        n += 1;
    }
    while s.poll_event().is_some() {}
    n
}

/// One input as the driver handles it: the input, the output drained, the
/// next timeout asked.
fn input(s: &mut Server<Duration>, conn: u64, line: &str, now: Duration) {
    s.handle_input(ConnId(conn), line.as_bytes(), now);
    drain(s);
    std::hint::black_box(s.poll_timeout());
}

/// A server with `waiting` x1 clients logged in and waiting for
/// [`WAIT_GAME`] (connections `0..waiting`) and `games` games in play
/// (`play<k>-600-0`, one move each), the league pairing at `pair_at`.
pub fn setup(waiting: u64, games: u64, pair_at: Option<u64>) -> Server<Duration> {
    let mut s: Server<Duration> = Server::new(ServerConfig::default(), Duration::ZERO, BASE);
    s.set_league(Box::new(InOrder { at: pair_at }));
    let now = Duration::ZERO;
    for i in 0..waiting {
        s.handle_connect(ConnId(i), now);
        s.handle_input(ConnId(i), format!("LOGIN w{i} pw{i} x1\n").as_bytes(), now);
        let line = format!("%%GAME {WAIT_GAME} *\n");
        s.handle_input(ConnId(i), line.as_bytes(), now);
        drain(&mut s);
    }
    for k in 0..games {
        let (b, w) = (1_000_000 + 2 * k, 1_000_001 + 2 * k);
        s.handle_connect(ConnId(b), now);
        s.handle_connect(ConnId(w), now);
        s.handle_input(ConnId(b), format!("LOGIN pb{k} pw x1\n").as_bytes(), now);
        s.handle_input(ConnId(w), format!("LOGIN pw{k} pw x1\n").as_bytes(), now);
        s.handle_input(
            ConnId(b),
            format!("%%GAME play{k}-600-0 +\n").as_bytes(),
            now,
        );
        s.handle_input(
            ConnId(w),
            format!("%%GAME play{k}-600-0 -\n").as_bytes(),
            now,
        );
        s.handle_input(ConnId(b), b"AGREE\n", now);
        s.handle_input(ConnId(w), b"AGREE\n", now);
        s.handle_input(ConnId(b), b"+7776FU\n", now);
        s.handle_input(ConnId(w), b"-3334FU\n", now);
        drain(&mut s);
    }
    s
}

/// Inputs [`events`] feeds per pair.
pub const EVENTS_PER_PAIR: u64 = 12;

/// `pairs` new pairs of clients, one after the other: connect, log in,
/// `%%GAME bench-300-0 +` and `-`, `AGREE`, two moves, `%TORYO`,
/// `LOGOUT`, close; after each input the output is drained and the
/// next timeout asked, as the network driver does. Returns the inputs
/// fed ([`EVENTS_PER_PAIR`] per pair).
#[inline(never)]
pub fn events(s: &mut Server<Duration>, pairs: u64) -> u64 {
    let mut now = Duration::from_secs(1);
    let mut fed = 0;
    for p in 0..pairs {
        let (b, w) = (2_000_000 + 2 * p, 2_000_001 + 2 * p);
        let (lb, lw) = (
            format!("LOGIN eb{p} pw x1\n"),
            format!("LOGIN ew{p} pw x1\n"),
        );
        s.handle_connect(ConnId(b), now);
        s.handle_connect(ConnId(w), now);
        for (c, line) in [
            (b, lb.as_str()),
            (w, lw.as_str()),
            (b, "%%GAME bench-300-0 +\n"),
            (w, "%%GAME bench-300-0 -\n"),
            (b, "AGREE\n"),
            (w, "AGREE\n"),
            (b, "+7776FU\n"),
            (w, "-3334FU\n"),
            (b, "%TORYO\n"),
            (b, "LOGOUT\n"),
            (w, "LOGOUT\n"),
        ] {
            now += Duration::from_millis(1);
            input(s, c, line, now);
            fed += 1;
        }
        s.handle_close(ConnId(b), now);
        s.handle_close(ConnId(w), now);
        drain(s);
        now += Duration::from_millis(1);
        input(s, 0, "\n", now);
        fed += 1;
    }
    fed
}

/// The league's pairing of a server from [`setup`] at `at`: the
/// transmits queued (two `Game_Summary` per game).
#[inline(never)]
pub fn pair_all(s: &mut Server<Duration>, at: u64) -> usize {
    s.handle_timeout(Duration::from_secs(at - BASE));
    drain(s)
}
