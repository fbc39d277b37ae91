//! `Framed<TcpStream, ClientCodec>` driving a sans-IO [`Client`] session:
//! the same structure as the DXP and Citrine examples of the crate family.
//!
//! The peer runs in the same process: a CSA server ([`net::serve`]) on
//! 127.0.0.1, port 0, and a second client. Both clients play with the
//! built-in player (`board_core::player::Player`); Black resigns after ten
//! moves.
//!
//! Run with `cargo run -p csa-protocol --example csa_framed --features tokio`.

use std::error::Error;
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
) -> Result<Outcome, Box<dyn Error>> {
    let stream = TcpStream::connect(addr).await?;
    let mut framed = Framed::new(stream, ClientCodec::default());
    // Plain CSA mode: the password names the game.
    let config = ClientConfig::new(UserName::new(name)?, Password::new("example-600-10")?);
    let mut session = Client::new(config, Instant::now());
    let mut player = Player::new(seed);
    loop {
        while let Some(transmit) = session.poll_transmit() {
            framed.send(transmit).await?;
        }
        while let Some(event) = session.poll_event() {
            println!("{name}: {event}");
            let now = Instant::now();
            match event {
                Event::GameSummary(_) => session.agree(now)?,
                Event::OurTurn { .. } => {
                    let chosen = session.position().and_then(|p| player.choose_shogi(p));
                    match chosen {
                        Some(mv) if session.moves().len() < 10 => session.send_move(mv, now)?,
                        _ => session.special(SpecialMove::Toryo, now)?,
                    }
                }
                Event::GameEnded(end) => return Ok(end.outcome),
                _ => {}
            }
        }
        while let Some(transmit) = session.poll_transmit() {
            framed.send(transmit).await?;
        }
        let wake = session
            .poll_timeout()
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            item = framed.next() => match item.transpose()? {
                Some(Ok(msg)) => session.handle_message(&msg, Instant::now()),
                Some(Err(e)) => session.handle_frame_error(&e, Instant::now()),
                None => session.handle_close(Instant::now()),
            },
            () = tokio::time::sleep_until(wake.into()) => session.handle_timeout(Instant::now()),
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(net::serve(
        listener,
        ServerConfig::default(),
        Limits::default(),
        |event| println!("server: {event}"),
    ));
    let (a, b) = tokio::join!(play(addr, "alice", 1), play(addr, "bob", 2));
    server.abort();
    let (a, b) = (a?, b?);
    if !matches!(
        (a, b),
        (Outcome::Won, Outcome::Lost) | (Outcome::Lost, Outcome::Won)
    ) {
        return Err(format!("outcomes {a} and {b}: one side should have won").into());
    }
    Ok(())
}
