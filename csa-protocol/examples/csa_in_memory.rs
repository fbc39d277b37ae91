//! A `Client` against the `Server`, in memory: no sockets, no clock (time
//! is a `Duration` that we advance), a short game played on both sides by
//! `board_core::player::Player`. Sente resigns (`Client::resign`) after ten
//! plies.
//!
//! `cargo run -p csa-protocol --example csa_in_memory`

use core::time::Duration;

use board_core::player::Player;
use csa_protocol::session::{
    Client, ClientConfig, ConnId, Event, Outcome, Server, ServerConfig, Session,
};
use csa_protocol::types::{Password, UserName};

const MAX_PLIES: usize = 10;

fn main() {
    let mut now = Duration::ZERO;
    let mut server: Server<Duration> = Server::new(ServerConfig::default(), now, 1_795_964_195);
    let mut clients: Vec<(ConnId, Client<Duration>, Player, Option<Outcome>)> = Vec::new();
    for (i, name) in ["alice", "bob"].into_iter().enumerate() {
        let conn = ConnId(i as u64);
        server.handle_connect(conn, now);
        // Plain CSA mode: the password names the game.
        let config = ClientConfig::new(
            UserName::new(name).unwrap(),
            Password::new("example-600-10").unwrap(),
        );
        clients.push((
            conn,
            Client::new(config, now),
            Player::new(i as u64 + 1),
            None,
        ));
    }

    while clients.iter().any(|c| c.3.is_none()) {
        now += Duration::from_millis(100);
        let mut busy = false;
        // Carry bytes both ways: the `Session` trait's `poll_transmit`
        // (the one-peer client's `Conn` is `()`, the server's a `ConnId`).
        for (conn, client, _, _) in clients.iter_mut() {
            while let Some(((), t)) = Session::poll_transmit(client) {
                server.handle_input(*conn, t.as_bytes(), now);
                busy = true;
            }
        }
        while let Some((conn, t)) = server.poll_transmit() {
            let (_, client, _, _) = clients.iter_mut().find(|c| c.0 == conn).unwrap();
            client.handle_input(t.as_bytes(), now);
            busy = true;
        }
        while server.poll_event().is_some() {}
        for (conn, client, player, outcome) in clients.iter_mut() {
            while let Some(event) = client.poll_event() {
                match event {
                    Event::GameSummary(_) => client.agree(now).unwrap(),
                    Event::GameEnded(end) => {
                        println!("{conn:?}: {} after {} plies", end.outcome, end.moves.len());
                        *outcome = Some(end.outcome);
                    }
                    other => println!("{conn:?}: {other}"),
                }
            }
            if client.is_our_turn() {
                busy = true;
                let position = *client.position().unwrap();
                match player.choose_shogi(&position) {
                    Some(mv) if client.moves().len() < MAX_PLIES => {
                        client.send_move(mv, now).unwrap()
                    }
                    _ => client.resign(now).unwrap(),
                }
            }
        }
        if !busy {
            // Nothing moved: let the sessions' timers run.
            server.handle_timeout(now);
        }
    }
    let outcomes: Vec<Outcome> = clients.iter().filter_map(|c| c.3).collect();
    assert!(
        outcomes.contains(&Outcome::Won) && outcomes.contains(&Outcome::Lost),
        "{outcomes:?}"
    );
}
