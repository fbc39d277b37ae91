//! `tokio_util::codec::Framed<_, HostCodec>` paired with the sans-IO host
//! `Driver` through `handle_message` and `framed.send(transmit)`.
//!
//! The stream is a pseudo-terminal made asynchronous with tokio's
//! `AsyncFd` (Unix), as a TCP serial bridge (ser2net) or an async serial
//! port would be: any `AsyncRead + AsyncWrite` works. On the other end runs the library's simulated
//! Citrine (`serial::Simulator`). The host plays a few moves with
//! board-core's built-in player, prints the wire lines and the driver's
//! events, and exits.
//!
//! ```text
//! cargo run -p novag-citrine --example citrine_framed --features tokio
//! ```
//!
//! The loop has the family's shape (the DXP and CSA examples are the same):
//! `tokio::select!` over the next item and the sleep until `poll_timeout`;
//! on an item, `handle_message`; then drain `poll_transmit` into
//! `framed.send` and drain `poll_event`.

use std::error::Error;
use std::io::{self, Read, Write};
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use board_core::player::Player;
use futures_util::{SinkExt, StreamExt};
use novag_citrine::codec::HostCodec;
use novag_citrine::decode::decode;
use novag_citrine::message::Command;
use novag_citrine::serial::{self, Limits, NativePort, Simulator};
use novag_citrine::session::{DeviceConfig, Driver, DriverConfig, Event};
use novag_citrine::vocab::Position;
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_util::codec::Framed;

/// A serial port (here the pty's slave end, 57600 8N1) as an `AsyncRead +
/// AsyncWrite`: the port never waits (read timeout zero), readiness comes
/// from the reactor.
struct AsyncPort(AsyncFd<NativePort>);

/// The port's "nothing there" is `TimedOut`; the reactor's is `WouldBlock`.
fn would_block(r: io::Result<usize>) -> io::Result<usize> {
    match r {
        Err(e) if e.kind() == io::ErrorKind::TimedOut => Err(io::ErrorKind::WouldBlock.into()),
        r => r,
    }
}

impl AsyncRead for AsyncPort {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let fd = &mut self.get_mut().0;
        loop {
            let mut guard = ready!(fd.poll_read_ready_mut(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard.try_io(|port| would_block(port.get_mut().read(unfilled))) {
                Ok(Ok(n)) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(e)) => return Poll::Ready(Err(e)),
                Err(_would_block) => continue,
            }
        }
    }
}

impl AsyncWrite for AsyncPort {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let fd = &mut self.get_mut().0;
        loop {
            let mut guard = ready!(fd.poll_write_ready_mut(cx))?;
            match guard.try_io(|port| would_block(port.get_mut().write(data))) {
                Ok(r) => return Poll::Ready(r),
                Err(_would_block) => continue,
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// Plies to play before stopping.
const PLIES: usize = 6;

/// Plays [`PLIES`] plies over the pty at `path`; the driver's final
/// position and moves.
async fn play(path: &str) -> Result<(Position, Vec<String>), Box<dyn Error>> {
    let limits = Limits {
        poll_interval: Duration::ZERO,
        ..Limits::default()
    };
    let port = serial::open(path, &limits)?;
    // SAFETY: the `TTYPort` owns its file descriptor until it is dropped,
    // and `as_raw_fd` always returns that same descriptor; the `AsyncFd`
    // owns the port for its whole life.
    let fd = unsafe { AsyncFd::register(port) }.map_err(|e| e.into_parts().1)?;
    let port = AsyncPort(fd);
    let mut framed = Framed::new(port, HostCodec::default());
    let mut driver = Driver::new(DriverConfig::default(), Instant::now());
    let mut player = Player::new(7);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        // 1. Bytes to write.
        while let Some(t) = driver.poll_transmit() {
            if let Ok(cmd) = decode::<Command>(t.as_bytes().trim_ascii_end()) {
                println!("-> {cmd}");
            }
            framed.send(t).await?;
        }
        // 2. What happened.
        while let Some(ev) = driver.poll_event() {
            println!(":: {ev}");
            if let Event::PeerSilent { .. } = ev {
                return Err(ev.to_string().into());
            }
        }
        if driver.moves().count() >= PLIES && driver.is_idle() {
            let moves = driver.moves().map(|m| m.to_string()).collect();
            return Ok((*driver.position(), moves));
        }
        if driver.is_our_turn()
            && driver.is_idle()
            && let Some(mv) = player.choose_chess(driver.position())
        {
            driver.play(mv)?;
            continue;
        }
        if Instant::now() > deadline {
            return Err("no progress within 20 s".into());
        }
        // 3. When to wake: the next line from the device, or the driver's
        // next deadline (paced write, resend, acknowledgement timeout).
        let wake = driver
            .poll_timeout()
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(1));
        tokio::select! {
            item = framed.next() => match item {
                Some(Ok(Ok(reply))) => {
                    println!("<- {reply}");
                    driver.handle_message(&reply, Instant::now());
                }
                Some(Ok(Err(error))) => {
                    println!("<- (bad line: {error})");
                    driver.handle_frame_error(&error, Instant::now());
                }
                Some(Err(e)) => return Err(e.into()),
                None => return Err("the device closed the line".into()),
            },
            () = tokio::time::sleep_until(wake.into()) => driver.handle_timeout(Instant::now()),
        }
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let sim = Simulator::spawn(DeviceConfig::default())?;
    println!("simulated Citrine on {}", sim.path());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (position, moves) = runtime.block_on(play(sim.path()))?;
    let device = sim.stop()?;
    println!("played {}", moves.join(" "));
    if device.position() != &position {
        return Err(format!("device at {}, host at {position}", device.position()).into());
    }
    println!("device and host agree: {position}");
    Ok(())
}
