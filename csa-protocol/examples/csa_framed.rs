//! `Framed<TcpStream, ClientCodec>` driving a sans-IO [`Client`] session:
//! the same structure as the DXP and Citrine examples of the crate family.
//!
//! The example starts a CSA server ([`net::serve`]) on 127.0.0.1, port 0,
//! and two clients that play a short game with the built-in player
//! (`board_core::player::Player`): Black resigns after ten moves.
//!
//! Run with `cargo run -p csa-protocol --example csa_framed --features tokio`.

use std::time::{Duration, Instant};

use board_core::player::Player;
use csa_protocol::codec::ClientCodec;
use csa_protocol::message::SpecialMove;
use csa_protocol::net::{self, Limits};
use csa_protocol::session::{Client, ClientConfig, Event, Outcome, ServerConfig};
use csa_protocol::types::{Password, UserName};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// Plays one game on `addr` as `name`; returns the outcome from our side.
async fn play(
    addr: std::net::SocketAddr,
    name: &'static str,
    seed: u64,
) -> std::io::Result<Outcome> {
    let stream = TcpStream::connect(addr).await?;
    let mut framed = Framed::new(stream, ClientCodec::default());
    // Plain CSA mode: the password names the game.
    let config = ClientConfig::new(
        UserName::new(name).expect("a valid name"),
        Password::new("example-600-10").expect("a valid password"),
    );
    let mut session = Client::new(config, Instant::now());
    let mut player = Player::new(seed);
    loop {
        // 1. Bytes to write.
        while let Some(transmit) = session.poll_transmit() {
            framed.send(transmit).await?;
        }
        // 2. What happened (commands queue more bytes for the next turn).
        while let Some(event) = session.poll_event() {
            let now = Instant::now();
            match event {
                Event::GameSummary(_) => session.agree(now).expect("a game is offered"),
                Event::OurTurn { .. } => {
                    let board = session.board().expect("a game is being played");
                    let chosen = player
                        .choose_shogi(board.position())
                        .and_then(|m| board.position().move_to_csa(m).ok());
                    match chosen {
                        Some(mv) if board.ply() < 10 => session.play(mv, None, now),
                        _ => session.special(SpecialMove::Toryo, now),
                    }
                    .expect("our turn");
                }
                Event::GameEnded(end) => {
                    println!(
                        "{name}: {:?} ({:?}) after {} moves",
                        end.outcome,
                        end.reason,
                        end.moves.len()
                    );
                    return Ok(end.outcome);
                }
                other => println!("{name}: {other:?}"),
            }
        }
        while let Some(transmit) = session.poll_transmit() {
            framed.send(transmit).await?;
        }
        // 3. When to wake: the next line or the session's timer.
        let wake = session
            .poll_timeout()
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            item = framed.next() => match item {
                Some(Ok(Ok(msg))) => session.handle_message(&msg, Instant::now()),
                Some(Ok(Err(bad))) => eprintln!("{name}: skipped a line: {bad}"),
                Some(Err(e)) => return Err(e),
                None => session.handle_close(Instant::now()),
            },
            () = tokio::time::sleep_until(wake.into()) => session.handle_timeout(Instant::now()),
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(net::serve(
        listener,
        ServerConfig::default(),
        Limits::default(),
        |event| println!("server: {event:?}"),
    ));
    let (a, b) = tokio::join!(play(addr, "alice", 1), play(addr, "bob", 2));
    server.abort();
    let (a, b) = (a?, b?);
    assert!(
        matches!(
            (a, b),
            (Outcome::Won, Outcome::Lost) | (Outcome::Lost, Outcome::Won)
        ),
        "{a:?} {b:?}"
    );
    Ok(())
}
