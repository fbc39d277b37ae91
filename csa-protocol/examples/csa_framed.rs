//! A CSA client over `tokio_util::codec::Framed<TcpStream, ClientCodec>`:
//! the codec decodes, the session decides (`handle_message`), and every
//! `Transmit` goes back out with `framed.send`.
//!
//! Self-contained: the peer, a CSA server run by `csa_protocol::net::serve`
//! on 127.0.0.1 and a second client with the same loop, runs in the same
//! process. One game is played with the built-in player (Black resigns
//! after ten plies); the example prints every event and ends with the game.
//!
//! `cargo run -p csa-protocol --example csa_framed --features tokio`

use std::error::Error;
use std::net::SocketAddr;
use std::time::Instant;

use board_core::player::Player;
use csa_protocol::codec::ClientCodec;
use csa_protocol::net;
use csa_protocol::session::{Client, ClientConfig, Event, Outcome, ServerConfig};
use csa_protocol::types::{Password, UserName};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// Black resigns when the game reaches this many plies.
const MAX_PLIES: usize = 10;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let addr = start_peer().await?;
    // Our client and, as part of the peer, the opponent with the same loop.
    let (ours, theirs) = tokio::join!(play(addr, "alice", 1), play(addr, "bob", 2));
    let (ours, theirs) = (ours?, theirs?);
    if !matches!(
        (ours, theirs),
        (Outcome::Won, Outcome::Lost) | (Outcome::Lost, Outcome::Won)
    ) {
        return Err(format!("outcomes {ours} and {theirs}: one side should have won").into());
    }
    Ok(())
}

/// One client's game on `addr` as `name`: the outcome from its side.
async fn play(addr: SocketAddr, name: &'static str, seed: u64) -> Result<Outcome, Box<dyn Error>> {
    let mut framed = Framed::new(TcpStream::connect(addr).await?, ClientCodec::default());
    // Plain CSA mode: the password names the game.
    let config = ClientConfig::new(UserName::new(name)?, Password::new("example-600-10")?);
    let mut session = Client::new(config, Instant::now());
    let mut player = Player::new(seed);

    let mut closed = false;
    loop {
        // Our move, when it is our turn.
        if session.is_our_turn() {
            let now = Instant::now();
            let position = session.position().ok_or("our turn without a game")?;
            match player.choose_shogi(position) {
                Some(mv) if session.moves().len() < MAX_PLIES => session.send_move(mv, now)?,
                _ => session.resign(now)?,
            }
        }
        // 1. Bytes to write.
        while let Some(transmit) = session.poll_transmit() {
            framed.send(transmit).await?;
        }
        // 2. What happened.
        while let Some(event) = session.poll_event() {
            println!("{name}: {event}");
            match event {
                Event::GameSummary(_) => session.agree(Instant::now())?,
                Event::GameEnded(end) => return Ok(end.outcome),
                _ => {}
            }
        }
        // 1'. The AGREE, if the summary asked for one.
        while let Some(transmit) = session.poll_transmit() {
            framed.send(transmit).await?;
        }
        if closed {
            return Err("the peer closed the stream before the game ended".into());
        }
        // 3. Wait for the peer or for `poll_timeout`.
        tokio::select! {
            item = framed.next() => match item.transpose()? {
                Some(Ok(msg)) => session.handle_message(&msg, Instant::now()),
                Some(Err(e)) => session.handle_frame_error(&e, Instant::now()),
                None => {
                    session.handle_close(Instant::now());
                    closed = true;
                }
            },
            () = sleep_until(session.poll_timeout()) => session.handle_timeout(Instant::now()),
        }
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// The peer: a CSA server on an ephemeral port of 127.0.0.1 (the opponent,
/// a second client, runs the same loop as ours; see `main`).
async fn start_peer() -> Result<SocketAddr, Box<dyn Error>> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(net::serve(
        listener,
        net::Config::new(ServerConfig::default()),
        |event| {
            println!("server: {event}");
            std::ops::ControlFlow::Continue(())
        },
    ));
    Ok(addr)
}
