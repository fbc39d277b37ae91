//! The load tool's core end to end, small: 20 clients (12 waiting, 4 games)
//! against an in-process `csa_protocol::net::serve` on 127.0.0.1:0.
//!
//! Expected values from the CSA server protocol: the player who sends
//! `%TORYO` receives `#RESIGN` and `#LOSE`, the other `#RESIGN` and `#WIN`;
//! Black moves first, so after an even number of plies Black is on move;
//! with `Max_Moves` reached the game ends `#MAX_MOVES` (`#CENSORED`) instead.

use std::net::SocketAddr;
use std::ops::ControlFlow;
use std::time::Duration;

use benches::csa_load::{Options, WaitGame, game_line, run};
use csa_protocol::message::EndReason;
use csa_protocol::net::{Config, serve};
use csa_protocol::session::{Outcome, ServerConfig};
use tokio::net::TcpListener;

async fn start_server(config: ServerConfig) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, Config::new(config), |_| {
        ControlFlow::Continue(())
    }));
    addr
}

fn small(addr: SocketAddr) -> Options {
    let mut o = Options::new(addr);
    o.clients = 20;
    o.games = 4;
    o.moves = 30;
    o.timeout = Duration::from_secs(10);
    o.max_secs = 30;
    o.who = true;
    o
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_clients_four_games_no_line_lost() {
    let addr = start_server(ServerConfig::default()).await;
    let report = run(small(addr)).await.unwrap();
    assert_eq!(report.errors, Vec::<String>::new());
    assert_eq!(report.error_count, 0);
    assert_eq!((report.waiters_ready, report.waiters_ok), (12, 12));
    assert_eq!(report.waiters_paired, 0);
    // %%WHO lists the 12 waiters as game_waiting (the players have logged out).
    assert_eq!(report.who, Some(Ok(12)));
    assert_eq!((report.games_ok, report.results.len()), (4, 4));
    for r in &report.results {
        // The tool's line is 30 plies for these games (no early end).
        assert_eq!(game_line(r.game, 30).len(), 30);
        assert_eq!(r.plies, 30);
        // 30 plies: Black on move, Black resigns.
        assert_eq!(r.black, (Outcome::Lost, Some(EndReason::Resign)));
        assert_eq!(r.white, (Outcome::Won, Some(EndReason::Resign)));
    }
    assert_eq!(report.moves, 4 * 30);
    assert!(!report.timed_out);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_different_ending_is_reported() {
    // Max_Moves 11: the 11th move ends every game before the resignation.
    let addr = start_server(ServerConfig {
        max_moves: 11,
        ..Default::default()
    })
    .await;
    let mut o = small(addr);
    o.who = false;
    o.wait = WaitGame::Unique;
    let report = run(o).await.unwrap();
    assert_eq!(report.games_ok, 0);
    assert!(report.error_count >= 4, "{report}");
    assert_eq!(report.results.len(), 4);
    for r in &report.results {
        assert_eq!(r.plies, 11);
        assert_eq!(r.black.1, Some(EndReason::MaxMoves));
        assert_eq!(r.white.1, Some(EndReason::MaxMoves));
    }
    // The waiters are not affected.
    assert_eq!(report.waiters_ok, 12);
}
