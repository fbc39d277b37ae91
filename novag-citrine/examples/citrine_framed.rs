//! `tokio_util::codec::Framed<_, HostCodec>` paired with the sans-IO host
//! `Driver` through `handle_message` and `framed.send(transmit)`.
//!
//! The stream is an in-memory `tokio::io::duplex` pipe; any `AsyncRead +
//! AsyncWrite` works the same way (an async serial port at 57600 8N1, a
//! pseudo-terminal, a TCP serial bridge such as ser2net). On its other end
//! the library's simulated Citrine (`session::Device`) runs in the same
//! process behind a `DeviceCodec`. The host plays White with board-core's
//! built-in player for a few moves, then asks for a new game; the driver
//! ends the unfinished game (`GameEnded`, outcome unknown) and the example
//! exits.
//!
//! ```text
//! cargo run -p novag-citrine --example citrine_framed --features tokio
//! ```
//!
//! The loop has the family's shape (the DXP and CSA examples are the same):
//! `tokio::select!` over the next item (an I/O error ends the example;
//! `Some(Ok)` → `handle_message`,
//! `Some(Err)` → `handle_frame_error`, `None` → `handle_close`) and the
//! sleep until `poll_timeout` (→ `handle_timeout`); then every
//! `poll_transmit()` goes to `framed.send`, every `poll_event()` is
//! printed; it ends on `Event::GameEnded`.

use std::error::Error;
use std::time::{Duration, Instant};

use board_core::player::Player;
use futures_util::{SinkExt, StreamExt};
use novag_citrine::codec::{DeviceCodec, HostCodec};
use novag_citrine::session::{Device, DeviceConfig, Driver, DriverConfig, Event};
use tokio::io::DuplexStream;
use tokio::time::sleep_until;
use tokio_util::codec::Framed;

/// Plies the host plays before it asks for a new game.
const PLIES: usize = 6;

/// How long to sleep when a session has no timer running.
const IDLE: Duration = Duration::from_secs(3600);

/// When a session's `poll_timeout` falls due, as a tokio instant.
fn wake_at(timeout: Option<Instant>) -> tokio::time::Instant {
    tokio::time::Instant::from_std(timeout.unwrap_or_else(|| Instant::now() + IDLE))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn Error>> {
    let (host_end, device_end) = tokio::io::duplex(4096);
    let device = tokio::spawn(simulated_citrine(device_end));

    let mut framed = Framed::new(host_end, HostCodec::default());
    let mut driver = Driver::new(DriverConfig::default(), Instant::now());
    let mut player = Player::new(7);
    let mut asked_new_game = false;
    loop {
        tokio::select! {
            item = framed.next() => match item.transpose()? {
                Some(Ok(reply)) => driver.handle_message(&reply, Instant::now()),
                Some(Err(e)) => driver.handle_frame_error(&e, Instant::now()),
                None => driver.handle_close(Instant::now()),
            },
            () = sleep_until(wake_at(driver.poll_timeout())) => driver.handle_timeout(Instant::now()),
        }
        if driver.is_our_turn() && driver.moves().len() < PLIES {
            let position = driver.position().ok_or("no game")?;
            if let Some(mv) = player.choose_chess(position) {
                driver.send_move(mv, Instant::now())?;
            }
        } else if driver.moves().len() >= PLIES && driver.is_idle() && !asked_new_game {
            driver.new_game(Instant::now())?;
            asked_new_game = true;
        }
        while let Some(transmit) = driver.poll_transmit() {
            framed.send(transmit).await?;
        }
        while let Some(event) = driver.poll_event() {
            println!("{event}");
            if let Event::GameEnded(_) = event {
                drop(framed);
                device.await??;
                return Ok(());
            }
        }
        if driver.position().is_none() {
            return Err("the device closed the stream".into());
        }
    }
}

/// The peer: the simulated Citrine behind a `DeviceCodec`, with the same
/// loop, until the host closes the stream.
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
            () = sleep_until(wake_at(device.poll_timeout())) => {
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
