//! A league ([`League`]) on the server, in memory: a fake league with fixed
//! pairing times and fixed pairs. What is asserted comes from shogi-server's
//! Floodgate (`shogi_server/league/floodgate.rb`, `floodgate_thread.rb`,
//! `pairing.rb`, `player.rb`, `command.rb`): players of a scheduled game
//! wait (no instant pairing) and are listed by `%%WHO` as
//! `<name> x1 game_waiting <game> *` (`Player#to_s` for a player without a
//! side); at the time every waiting rated player is handed to the pairing
//! at once and the games it makes start with their own `Max_Moves` /
//! `Least_Time_Per_Move` in the `Game_Summary` (`Board.new(@options)`,
//! `Game#propose_message`); `%%CHALLENGE` never finds a rival for them
//! (`GameChallengeCommand#call`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use csa_protocol::session::{
    ConnId, League, LeagueGame, LeagueResult, LeagueRound, ServerConfig, ServerEvent, WaitingPlayer,
};
use csa_protocol::types::Side;

mod raw;
use raw::Raw;

/// The unix time of the harness's 0 s.
const BASE: u64 = 1_795_964_195;

/// A waiting player as the fake league saw it: conn, name, player id,
/// game name.
type Waiting = (u64, String, String, String);

/// What the server told the fake league.
#[derive(Debug, Default)]
struct Seen {
    /// Each `pair` call: the time and the waiting players, in the order
    /// given.
    pairs: Vec<(u64, Vec<Waiting>)>,
    /// Each `game_ended`: game name, black id, white id, winner.
    ended: Vec<(String, String, String, Option<Side>)>,
}

/// Pairs at fixed unix times, the games given for each round.
#[derive(Debug)]
struct Fake {
    name: &'static str,
    times: Vec<u64>,
    rounds: Vec<Vec<LeagueGame>>,
    seen: Arc<Mutex<Seen>>,
}

impl League for Fake {
    fn schedules(&self, gamename: &str) -> bool {
        gamename == self.name
    }
    fn next_pairing(&self, _unix_secs: u64, _utc_offset_secs: i32) -> Option<u64> {
        self.times.first().copied()
    }
    fn pair(&mut self, unix: u64, _off: i32, waiting: &[WaitingPlayer<'_>]) -> LeagueRound {
        let players = waiting
            .iter()
            .map(|w| {
                (
                    w.conn.0,
                    w.name.to_string(),
                    w.player_id.to_string(),
                    w.gamename.to_string(),
                )
            })
            .collect();
        self.seen.lock().unwrap().pairs.push((unix, players));
        self.times.remove(0);
        let games = if self.rounds.is_empty() {
            Vec::new()
        } else {
            self.rounds.remove(0)
        };
        LeagueRound {
            log: vec![format!("round at {unix}: {} games", games.len())],
            games,
        }
    }
    fn game_ended(&mut self, r: &LeagueResult<'_>) {
        self.seen.lock().unwrap().ended.push((
            r.gamename.to_string(),
            r.black.to_string(),
            r.white.to_string(),
            r.winner,
        ));
    }
}

const GAME: &str = "floodgate-300-10F";

fn game(black: u64, white: u64, max_moves: Option<u32>, least: Option<u64>) -> LeagueGame {
    LeagueGame {
        black: ConnId(black),
        white: ConnId(white),
        gamename: GAME.into(),
        max_moves,
        least_time_per_move: least,
    }
}

/// A server with the fake league (pairing at `BASE + 60` and `BASE +
/// 120`) and its record of calls.
fn server(config: ServerConfig, rounds: Vec<Vec<LeagueGame>>) -> (Raw, Arc<Mutex<Seen>>) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let mut r = Raw::new(config);
    r.server.set_league(Box::new(Fake {
        name: GAME,
        times: vec![BASE + 60, BASE + 120],
        rounds,
        seen: Arc::clone(&seen),
    }));
    (r, seen)
}

fn login(r: &mut Raw, id: u64, name: &str) {
    r.line(id, &format!("LOGIN {name} pw x1"));
    assert_eq!(
        r.take(id),
        [format!("LOGIN:{name} OK"), "##[LOGIN] +OK x1".to_string()]
    );
}

fn value<'a>(lines: &'a [String], key: &str) -> Option<&'a str> {
    lines.iter().find_map(|l| l.strip_prefix(key))
}

#[test]
fn scheduled_players_wait_until_the_league_pairs_them_as_it_says() {
    let (mut r, seen) = server(
        ServerConfig::default(),
        vec![vec![game(3, 1, Some(200), Some(2)), game(2, 4, None, None)]],
    );
    for (id, name) in [(1, "pa"), (2, "pb"), (3, "pc"), (4, "pd")] {
        login(&mut r, id, name);
    }
    r.line(2, &format!("%%GAME {GAME} *"));
    r.line(1, &format!("%%GAME {GAME} *"));
    r.line(4, &format!("%%GAME {GAME} *"));
    r.line(3, &format!("%%GAME {GAME} *"));
    // No Game_Summary: four players wait (shogi-server's Player#to_s for
    // a player without a side).
    assert_eq!(
        r.ask(1, "%%WHO"),
        [
            format!("##[WHO] pa x1 game_waiting {GAME} *"),
            format!("##[WHO] pb x1 game_waiting {GAME} *"),
            format!("##[WHO] pc x1 game_waiting {GAME} *"),
            format!("##[WHO] pd x1 game_waiting {GAME} *"),
            "##[WHO] +OK".into(),
        ]
    );
    // The league's time, as the server's time.
    assert_eq!(r.server.poll_timeout(), Some(Duration::from_secs(60)));
    r.at(Duration::from_secs(59));
    for id in 1..=4 {
        assert!(r.take(id).is_empty(), "{id}");
    }
    assert!(seen.lock().unwrap().pairs.is_empty());
    r.at(Duration::from_secs(60));
    // Every waiting player, in the order they started waiting.
    let ids = |s: &Seen| -> Vec<u64> { s.pairs[0].1.iter().map(|p| p.0).collect() };
    assert_eq!(ids(&seen.lock().unwrap()), [2, 1, 4, 3]);
    assert_eq!(seen.lock().unwrap().pairs[0].0, BASE + 60);
    assert_eq!(
        seen.lock().unwrap().pairs[0].1[0],
        (2, "pb".into(), "pb".into(), GAME.into())
    );
    // The pairs and sides are the league's; the first game's Max_Moves
    // and Least_Time_Per_Move are its own, the second's the server's.
    let pc = r.take(3);
    let pa = r.take(1);
    assert_eq!(value(&pc, "Your_Turn:"), Some("+"));
    assert_eq!(value(&pa, "Your_Turn:"), Some("-"));
    assert_eq!(value(&pc, "Name+:"), Some("pc"));
    assert_eq!(value(&pc, "Name-:"), Some("pa"));
    assert_eq!(value(&pc, "Max_Moves:"), Some("200"));
    assert_eq!(value(&pa, "Max_Moves:"), Some("200"));
    assert_eq!(value(&pc, "Least_Time_Per_Move:"), Some("2"));
    let pb = r.take(2);
    assert_eq!(value(&pb, "Your_Turn:"), Some("+"));
    assert_eq!(value(&pb, "Name-:"), Some("pd"));
    assert_eq!(value(&pb, "Max_Moves:"), Some("256"));
    assert_eq!(value(&pb, "Least_Time_Per_Move:"), Some("0"));
    assert!(r.events.contains(&ServerEvent::League(format!(
        "round at {}: 2 games",
        BASE + 60
    ))));
    // The next time.
    assert_eq!(r.server.poll_timeout(), Some(Duration::from_secs(120)));
}

#[test]
fn a_player_who_left_or_is_named_twice_is_skipped() {
    let (mut r, seen) = server(
        ServerConfig::default(),
        vec![vec![
            game(1, 2, None, None),
            game(3, 1, None, None),
            game(4, 3, None, None),
        ]],
    );
    for (id, name) in [(1, "pa"), (2, "pb"), (3, "pc"), (4, "pd")] {
        login(&mut r, id, name);
        r.line(id, &format!("%%GAME {GAME} *"));
    }
    // pb leaves before the time; pd stops waiting (`%%GAME` cancels).
    r.server.handle_close(ConnId(2), r.now);
    r.line(4, "%%GAME");
    r.at(Duration::from_secs(60));
    let ids: Vec<u64> = seen.lock().unwrap().pairs[0]
        .1
        .iter()
        .map(|p| p.0)
        .collect();
    assert_eq!(ids, [1, 3]);
    // (1, 2): 2 left; (3, 1): started; (4, 3): 4 no longer waits.
    assert_eq!(value(&r.take(3), "Your_Turn:"), Some("+"));
    assert_eq!(value(&r.take(1), "Your_Turn:"), Some("-"));
    assert!(r.take(4).is_empty());
    let skipped: Vec<&ServerEvent> = r
        .events
        .iter()
        .filter(|e| matches!(e, ServerEvent::League(l) if l.starts_with("not started")))
        .collect();
    assert_eq!(skipped.len(), 2, "{:?}", r.events);
    assert_eq!(r.server.game_count(), 1);
}

#[test]
fn a_player_named_twice_plays_once() {
    let (mut r, _) = server(
        ServerConfig::default(),
        vec![vec![
            game(1, 2, None, None),
            game(2, 3, None, None),
            game(3, 3, None, None),
        ]],
    );
    for (id, name) in [(1, "pa"), (2, "pb"), (3, "pc")] {
        login(&mut r, id, name);
        r.line(id, &format!("%%GAME {GAME} *"));
    }
    r.at(Duration::from_secs(60));
    assert_eq!(r.server.game_count(), 1);
    assert_eq!(value(&r.take(1), "Your_Turn:"), Some("+"));
    r.take(2);
    assert!(r.take(3).is_empty());
    assert_eq!(
        r.ask(3, "%%WHO").last().map(String::as_str),
        Some("##[WHO] +OK")
    );
    assert_eq!(
        r.events
            .iter()
            .filter(|e| matches!(e, ServerEvent::League(l) if l.starts_with("not started")))
            .count(),
        2
    );
}

#[test]
fn challenge_finds_no_rival_and_unrated_or_sided_players_are_not_handed_over() {
    let (mut r, seen) = server(ServerConfig::default(), vec![]);
    login(&mut r, 1, "pa");
    login(&mut r, 2, "pb");
    r.line(1, &format!("%%GAME {GAME} *"));
    // GameChallengeCommand: no rival is looked for a Floodgate game.
    assert_eq!(
        r.ask(2, &format!("%%CHALLENGE {GAME} *")),
        [format!("##[ERROR] can't find rival for {GAME}")]
    );
    // A plain CSA login whose password is the game name: waiting, but
    // not rated, so Floodgate#select_players leaves it out.
    r.line(3, &format!("LOGIN pc {GAME}"));
    assert_eq!(r.take(3), ["LOGIN:pc OK"]);
    r.at(Duration::from_secs(60));
    let s = seen.lock().unwrap();
    let ids: Vec<u64> = s.pairs[0].1.iter().map(|p| p.0).collect();
    assert_eq!(ids, [1]);
}

#[test]
fn a_league_game_that_ends_is_told_to_the_league() {
    let (mut r, seen) = server(ServerConfig::default(), vec![vec![game(1, 2, None, None)]]);
    login(&mut r, 1, "pa");
    login(&mut r, 2, "pb");
    r.line(1, &format!("%%GAME {GAME} *"));
    r.line(2, &format!("%%GAME {GAME} *"));
    r.at(Duration::from_secs(60));
    r.line(1, "AGREE");
    r.line(2, "AGREE");
    r.line(1, "%TORYO");
    let s = seen.lock().unwrap();
    assert_eq!(
        s.ended,
        [(GAME.into(), "pa".into(), "pb".into(), Some(Side::White))]
    );
}

#[cfg(feature = "rating-ids")]
#[test]
fn player_ids_are_shogi_servers_with_md5_ids() {
    // `<name>+<MD5 of the password>`; MD5("a") from RFC 1321's test suite.
    let config = ServerConfig {
        rating_ids: csa_protocol::session::RatingIds::Md5,
        ..Default::default()
    };
    let (mut r, seen) = server(config, vec![]);
    r.line(1, "LOGIN pa a x1");
    r.take(1);
    r.line(1, &format!("%%GAME {GAME} *"));
    r.at(Duration::from_secs(60));
    assert_eq!(
        seen.lock().unwrap().pairs[0].1[0].2,
        "pa+0cc175b9c0f1b6a831c399e269772661"
    );
}

#[test]
fn without_a_league_floodgate_players_are_paired_at_once() {
    // Our documented difference when no league is set (README).
    let mut r = Raw::new(ServerConfig::default());
    login(&mut r, 1, "pa");
    login(&mut r, 2, "pb");
    r.line(1, &format!("%%GAME {GAME} *"));
    r.line(2, &format!("%%GAME {GAME} *"));
    assert!(value(&r.take(1), "Game_ID:").is_some());
}

/// A league whose time never moves on.
#[derive(Debug)]
struct Stuck;

impl League for Stuck {
    fn schedules(&self, gamename: &str) -> bool {
        gamename == GAME
    }
    fn next_pairing(&self, _: u64, _: i32) -> Option<u64> {
        Some(BASE + 60)
    }
    fn pair(&mut self, _: u64, _: i32, _: &[WaitingPlayer<'_>]) -> LeagueRound {
        LeagueRound::default()
    }
}

#[test]
fn a_league_stuck_in_the_past_is_asked_at_most_once_a_second() {
    // No busy loop for the driver: after a pairing, the next one is never
    // before the following second.
    let mut r = Raw::new(ServerConfig::default());
    r.server.set_league(Box::new(Stuck));
    login(&mut r, 1, "pa");
    r.line(1, &format!("%%GAME {GAME} *"));
    assert_eq!(r.server.poll_timeout(), Some(Duration::from_secs(60)));
    r.at(Duration::from_millis(60_500));
    assert_eq!(r.server.poll_timeout(), Some(Duration::from_secs(61)));
    assert_eq!(
        r.ask(1, "%%WHO"),
        [
            format!("##[WHO] pa x1 game_waiting {GAME} *"),
            "##[WHO] +OK".into()
        ]
    );
}
