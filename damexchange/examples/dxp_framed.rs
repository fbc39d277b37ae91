//! A DXP initiator over `tokio_util::codec::Framed<TcpStream, DxpCodec>`:
//! the codec decodes, the session decides (`handle_message`), and every
//! `Transmit` goes back out with `framed.send`.
//!
//! Self-contained: it first starts a follower on 127.0.0.1 (with
//! `damexchange::net::serve`), plays one game against it with the built-in
//! player, and exits.
//!
//! `cargo run -p damexchange --example dxp_framed --features tokio`

use std::time::{Duration, Instant};

use board_core::draughts::Color;
use board_core::player::Player;
use damexchange::codec::DxpCodec;
use damexchange::net::{self, Flow, Limits, NetEvent};
use damexchange::session::{
    Event, Follower, FollowerConfig, GameRequest, Initiator, InitiatorConfig,
};
use damexchange::{GameEndReason, Name};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// A game still running after this many plies is ended as a draw.
const MAX_PLIES: usize = 200;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let addr = start_peer().await?;

    let mut framed = Framed::new(TcpStream::connect(addr).await?, DxpCodec::default());
    let mut session = Initiator::new(InitiatorConfig::new(Name::new("framed example").unwrap()));
    let mut player = Player::new(7);
    let request = GameRequest {
        our_color: Color::White,
        minutes: 5,
        moves: 0,
        start: None,
    };
    session
        .request_game(request, Instant::now())
        .expect("no game yet");

    loop {
        // 1. Bytes to write.
        while let Some(transmit) = session.poll_transmit() {
            println!("-> {}", transmit.as_str());
            framed.send(transmit).await?;
        }
        // 2. What happened.
        while let Some(event) = session.poll_event() {
            if let Event::GameEnded(end) = event {
                println!("game over: {} after {} plies", end.outcome, end.moves.len());
                return Ok(());
            }
        }
        // Our move, when it is our turn.
        if session.is_our_turn() {
            let now = Instant::now();
            let position = *session.position().expect("a game");
            let result = match player.choose_draughts(&position) {
                _ if session.history().len() >= MAX_PLIES => {
                    session.end_game(GameEndReason::Draw, now)
                }
                Some(mv) => session.send_move(mv, 0, now),
                None => session.end_game(GameEndReason::SenderLoses, now),
            };
            result.expect("allowed on our turn");
            continue;
        }
        // 3. Sleep until the next message or `poll_timeout`.
        let deadline = session.poll_timeout();
        tokio::select! {
            item = framed.next() => match item {
                Some(Ok(Ok(msg))) => {
                    println!("<- {}  ({msg})", msg.encoded().as_str());
                    session.handle_message(&msg, Instant::now());
                }
                Some(Ok(Err(bad_frame))) => eprintln!("<- {bad_frame}"),
                Some(Err(io)) => return Err(io),
                None => {
                    eprintln!("the follower closed the connection");
                    return Ok(());
                }
            },
            () = sleep_until(deadline) => session.handle_timeout(Instant::now()),
        }
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// A follower on an ephemeral port of 127.0.0.1, playing the built-in
/// player: the peer of this example.
async fn start_peer() -> std::io::Result<std::net::SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let mut config = FollowerConfig::new(Name::new("example follower").unwrap());
    config.first_move_delay = Duration::ZERO;
    let make_callback = |n: u64, _| {
        let mut player = Player::new(n);
        move |f: &mut Follower<Instant>, e: NetEvent<'_>| {
            if matches!(e, NetEvent::Idle) && f.is_our_turn() {
                let now = Instant::now();
                let position = *f.position().expect("a game");
                let _ = match player.choose_draughts(&position) {
                    Some(mv) => f.send_move(mv, 0, now),
                    None => f.end_game(GameEndReason::SenderLoses, now),
                };
            }
            Flow::Continue
        }
    };
    tokio::spawn(net::serve(
        listener,
        config,
        Limits::default(),
        make_callback,
        |_, _| {},
    ));
    Ok(addr)
}
