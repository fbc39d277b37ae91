//! A Citrine host over `tokio_util::codec::Framed<_, HostCodec>`: the codec
//! decodes, the session (the host `Driver`) decides (`handle_message`), and
//! every `Transmit` goes back out with `framed.send`.
//!
//! Self-contained: the peer, the library's simulated Citrine
//! (`session::Device` behind a `DeviceCodec`), runs in the same process on
//! the other end of an in-memory `tokio::io::duplex` pipe; any `AsyncRead +
//! AsyncWrite` works the same way (an async serial port at 57600 8N1, a
//! pseudo-terminal, a TCP serial bridge such as ser2net). The host plays
//! White with the built-in player for a few plies, then asks for a new game;
//! the driver ends the unfinished game (`GameEnded`, outcome unknown). The
//! example prints every event and ends with the game.
//!
//! `cargo run -p novag-citrine --example citrine_framed --features tokio`

use std::error::Error;
use std::time::{Duration, Instant};

use board_core::player::Player;
use futures_util::{SinkExt, StreamExt};
use novag_citrine::codec::{DeviceCodec, HostCodec};
use novag_citrine::session::{Device, DeviceConfig, Driver, DriverConfig, Event};
use tokio::io::DuplexStream;
use tokio_util::codec::Framed;

/// Plies the host plays before it asks for a new game.
const PLIES: usize = 6;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let (stream, device) = start_peer();
    let mut framed = Framed::new(stream, HostCodec::default());
    let mut session = Driver::new(DriverConfig::default(), Instant::now());
    let mut player = Player::new(7);
    let mut asked_new_game = false;

    let mut closed = false;
    loop {
        // Our move, when it is our turn (a new game after PLIES plies).
        if session.is_our_turn() && session.moves().len() < PLIES {
            let position = session.position().ok_or("our turn without a game")?;
            if let Some(mv) = player.choose_chess(position) {
                session.send_move(mv, Instant::now())?;
            }
        } else if session.moves().len() >= PLIES && session.is_idle() && !asked_new_game {
            session.new_game(Instant::now())?;
            asked_new_game = true;
        }
        // 1. Bytes to write.
        while let Some(transmit) = session.poll_transmit() {
            framed.send(transmit).await?;
        }
        // 2. What happened.
        while let Some(event) = session.poll_event() {
            println!("{event}");
            if let Event::GameEnded(_) = event {
                drop(framed);
                device.await??;
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

/// The peer: the simulated Citrine behind a `DeviceCodec` on the other end
/// of an in-memory pipe, with the same loop, until the host closes it.
fn start_peer() -> (
    DuplexStream,
    tokio::task::JoinHandle<Result<(), std::io::Error>>,
) {
    let (host_end, device_end) = tokio::io::duplex(4096);
    (host_end, tokio::spawn(simulated_citrine(device_end)))
}

/// The simulated Citrine's loop.
async fn simulated_citrine(stream: DuplexStream) -> Result<(), std::io::Error> {
    let mut framed = Framed::new(stream, DeviceCodec::default());
    let config = DeviceConfig {
        think_time: Duration::from_millis(20),
        ..DeviceConfig::default()
    };
    let mut device = Device::new(config, Instant::now());
    loop {
        let closed = tokio::select! {
            item = framed.next() => match item.transpose()? {
                Some(Ok(command)) => { device.handle_message(&command, Instant::now()); false }
                Some(Err(e)) => { device.handle_frame_error(&e, Instant::now()); false }
                None => { device.handle_close(Instant::now()); true }
            },
            () = sleep_until(device.poll_timeout()) => {
                device.handle_timeout(Instant::now());
                false
            }
        };
        while let Some(transmit) = device.poll_transmit() {
            framed.send(transmit).await?;
        }
        while device.poll_event().is_some() {}
        if closed {
            return Ok(());
        }
    }
}
