//! The server at scale, in memory (issue 27): 2,000 players waiting for a
//! scheduled game are paired in at most 1 s, from the pairing time to the
//! 2,000 `Game_Summary` queued; the cost of an input does not grow with
//! the clients connected. The timed figures are measurements (`cargo test
//! --release -p csa-protocol --test server_scale -- --ignored
//! --nocapture`); the normal tests check only what is exact.

use std::time::{Duration, Instant};

use csa_protocol::session::ConnId;

mod scale;

#[test]
fn the_league_pairs_every_waiting_player_at_its_time() {
    // 200 waiting players, paired in arrival order by the test league:
    // 100 games, a `Game_Summary` to each player (one transmit each).
    let at = scale::BASE + 60;
    let mut s = scale::setup(200, 0, Some(at));
    assert_eq!(s.game_count(), 0, "nobody is paired before the time");
    let before = Duration::from_secs(59);
    assert_eq!(s.poll_timeout(), Some(Duration::from_secs(60)));
    s.handle_timeout(before);
    assert_eq!(s.game_count(), 0);
    assert_eq!(scale::pair_all(&mut s, at), 200);
    assert_eq!(s.game_count(), 100);
}

#[test]
fn events_run_beside_waiting_clients() {
    let mut s = scale::setup(100, 10, None);
    assert_eq!(s.connection_count(), 120);
    assert_eq!(scale::events(&mut s, 3), 3 * scale::EVENTS_PER_PAIR);
    // The short games ended and their players left; the others remain.
    assert_eq!(s.game_count(), 10);
    assert_eq!(s.connection_count(), 120);
    assert!(s.is_logged_in(ConnId(0)));
}

#[test]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
fn pairing_2000_waiting_players_takes_at_most_a_second() {
    let at = scale::BASE + 60;
    let mut s = scale::setup(2_000, 1_000, Some(at));
    let t = Instant::now();
    let n = scale::pair_all(&mut s, at);
    let took = t.elapsed();
    println!("pairing 2,000 waiting players (1,000 games in play): {took:?}");
    assert_eq!(n, 2_000);
    assert_eq!(s.game_count(), 2_000);
    assert!(took <= Duration::from_secs(1), "{took:?}");
}

#[test]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
fn input_cost_is_flat_in_the_clients_waiting() {
    for n in [1_000u64, 10_000] {
        let mut s = scale::setup(n, n / 10, None);
        let t = Instant::now();
        let fed = scale::events(&mut s, 200);
        let per = t.elapsed() / fed as u32;
        println!("{n} waiting, {} games: {per:?} per input", n / 10);
    }
}
