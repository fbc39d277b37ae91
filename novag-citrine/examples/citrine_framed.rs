//! A Citrine host over `tokio_util::codec::Framed<AsyncPort, HostCodec>`:
//! the codec decodes, the session (the host `Driver`) decides
//! (`handle_message`), and every `Transmit` goes back out with
//! `framed.send`.
//!
//! Self-contained: the peer, the library's simulated Citrine
//! (`serial::Simulator`: a `session::Device` in a thread on the master side
//! of a pseudo-terminal pair), runs in the same process; the host opens the
//! pty's other side by its path with `serial::AsyncPort::open`, as it would
//! open a real Citrine's `/dev/ttyUSB0` (57600 8N1). Any `AsyncRead +
//! AsyncWrite` works the same way (a TCP serial bridge such as ser2net).
//! The host plays White with the built-in player for a few plies, then asks
//! for a new game; the driver ends the unfinished game (`GameEnded`,
//! outcome unknown). The example prints every event and ends with the game.
//!
//! `cargo run -p novag-citrine --example citrine_framed --features tokio,serial` (Unix)

use std::error::Error;
use std::time::{Duration, Instant};

use board_core::player::Player;
use futures_util::{SinkExt, StreamExt};
use novag_citrine::codec::HostCodec;
use novag_citrine::serial::{AsyncPort, SerialError, Simulator};
use novag_citrine::session::{DeviceConfig, Driver, DriverConfig, Event};
use tokio_util::codec::Framed;

/// Plies the host plays before it asks for a new game.
const PLIES: usize = 6;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let peer = start_peer()?;
    let mut framed = Framed::new(AsyncPort::open(peer.path())?, HostCodec::default());
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
                peer.stop()?;
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

/// The peer: the simulated Citrine on a pseudo-terminal, until stopped.
fn start_peer() -> Result<Simulator, SerialError> {
    let config = DeviceConfig {
        think_time: Duration::from_millis(20),
        ..DeviceConfig::default()
    };
    Simulator::spawn(config)
}
