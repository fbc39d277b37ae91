//! Server throughput on one core, in memory (`cargo test --release -p
//! csa-protocol --test server_load -- --ignored --nocapture`): 200 x1 games
//! at once, each replaying the 256 moves of the `MaxMovesTest` record
//! (`boardwire_vectors::data::CSA_RECORDS`), moves interleaved across the
//! games. Prints moves per second; for before/after comparisons.

use std::time::{Duration, Instant};

use boardwire_vectors::data::CSA_RECORDS;
use csa_protocol::kifu::parse_kifu;
use csa_protocol::session::{ConnId, Server, ServerConfig};

/// Moves per second of 200 games replaying the record under `config`.
pub fn run(config: ServerConfig) -> f64 {
    let games = 200u64;
    let bytes = CSA_RECORDS
        .iter()
        .find(|(n, _)| n.contains("MaxMovesTest"))
        .unwrap()
        .1;
    let moves: Vec<String> = parse_kifu(bytes).unwrap()[0]
        .moves()
        .iter()
        .map(|m| format!("{}\n", m.mv))
        .collect();
    let mut s: Server<Duration> = Server::new(config, Duration::ZERO, 1_796_113_623);
    let now = Duration::ZERO;
    let drain = |s: &mut Server<Duration>| {
        while s.poll_transmit().is_some() {}
        while s.poll_event().is_some() {}
    };
    for g in 0..games {
        let (b, w) = (ConnId(2 * g), ConnId(2 * g + 1));
        s.handle_connect(b, now);
        s.handle_connect(w, now);
        s.handle_input(b, format!("LOGIN b{g} pw x1\n").as_bytes(), now);
        s.handle_input(w, format!("LOGIN w{g} pw x1\n").as_bytes(), now);
        s.handle_input(b, format!("%%GAME g{g}-1500-0 +\n").as_bytes(), now);
        s.handle_input(w, format!("%%GAME g{g}-1500-0 -\n").as_bytes(), now);
        s.handle_input(b, b"AGREE\n", now);
        s.handle_input(w, b"AGREE\n", now);
        drain(&mut s);
    }
    let started = Instant::now();
    for (i, m) in moves.iter().enumerate() {
        for g in 0..games {
            let c = ConnId(2 * g + (i as u64 % 2));
            s.handle_input(c, m.as_bytes(), now);
            drain(&mut s);
        }
    }
    let took = started.elapsed().as_secs_f64();
    assert_eq!(s.game_count(), 0, "every game ended (max moves)");
    (games as f64 * moves.len() as f64) / took
}

#[test]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
fn server_moves_per_second() {
    for round in 0..3 {
        let plain = run(ServerConfig::default());
        println!("round {round}: {plain:.0} moves/s");
    }
}
