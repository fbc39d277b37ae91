//! A DXP initiator over `tokio_util::codec::Framed<TcpStream, DxpCodec>`:
//! the codec decodes, the session decides (`handle_message`), and every
//! `Transmit` goes back out with `framed.send`.
//!
//! Self-contained: the peer, a follower served by `damexchange::net::serve`
//! on 127.0.0.1, runs in the same process. One game is played with the
//! built-in player; the example prints every event and ends with the game.
//!
//! `cargo run -p damexchange --example dxp_framed --features tokio`

use std::error::Error;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use board_core::draughts::Color;
use board_core::player::Player;
use damexchange::codec::DxpCodec;
use damexchange::net::{self, Flow, Limits, NetEvent};
use damexchange::session::{
    Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig,
};
use damexchange::{GameEndReason, Name};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// A game still running after this many plies is stopped without result.
const MAX_PLIES: usize = 200;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let addr = start_peer().await?;
    let mut framed = Framed::new(TcpStream::connect(addr).await?, DxpCodec::default());
    let mut session = Initiator::new(
        InitiatorConfig::new(Name::new("framed example")?),
        Instant::now(),
    );
    let mut player = Player::new(7);
    let request = GameOffer {
        our_color: Color::White,
        minutes: 5,
        moves: 0,
        start: None,
    };
    session.request_game(request, Instant::now())?;

    let mut closed = false;
    loop {
        // Our move, when it is our turn.
        if session.is_our_turn() {
            let now = Instant::now();
            let position = *session.position().ok_or("our turn without a game")?;
            match player.choose_draughts(&position) {
                _ if session.moves().len() >= MAX_PLIES => {
                    session.end_game(GameEndReason::Unknown, now)?
                }
                Some(mv) => session.send_move(mv, now)?,
                None => session.end_game(GameEndReason::SenderLoses, now)?,
            }
        }
        // 1. Bytes to write.
        while let Some(transmit) = session.poll_transmit() {
            framed.send(transmit).await?;
        }
        // 2. What happened.
        while let Some(event) = session.poll_event() {
            println!("{event}");
            if let Event::GameEnded(_) = event {
                return Ok(());
            }
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

/// The peer: a follower on an ephemeral port of 127.0.0.1, playing the
/// built-in player.
async fn start_peer() -> Result<SocketAddr, Box<dyn Error>> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let mut config = FollowerConfig::new(Name::new("example follower")?);
    config.first_move_delay = Duration::ZERO;
    let make_callback = |n: u64, _| {
        let mut player = Player::new(n);
        move |f: &mut Follower<Instant>, e: NetEvent<'_>| {
            if matches!(e, NetEvent::Idle) && f.is_our_turn() {
                let now = Instant::now();
                let moved = match f.position().and_then(|p| player.choose_draughts(p)) {
                    Some(mv) => f.send_move(mv, now),
                    None => f.end_game(GameEndReason::SenderLoses, now),
                };
                if moved.is_err() {
                    return Flow::Close;
                }
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
