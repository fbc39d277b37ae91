//! [`AsyncPort`]: an open serial port as a tokio `AsyncRead + AsyncWrite`
//! (features `serial` and `tokio`, Unix).
//!
//! The only `unsafe` code of the crate: registering the port's file
//! descriptor with tokio's reactor (`AsyncFd::register`, whose contract is
//! that the descriptor stays open and the same while registered; see
//! [`AsyncPort::new`]).

use std::borrow::ToOwned;
use std::io;
use std::os::unix::io::{AsRawFd, RawFd};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::{Limits, NativePort, SerialError, open};

/// An open serial port as a tokio `AsyncRead + AsyncWrite` (features
/// `serial` and `tokio`, Unix): the port's file descriptor set
/// non-blocking and registered with the runtime's reactor, so reads and
/// writes wait without holding a thread. Give it to
/// `tokio_util::codec::Framed` with a [`HostCodec`](crate::codec::HostCodec)
/// and drive a [`Driver`](crate::session::Driver) with `handle_message` and
/// `framed.send(transmit)`; `examples/citrine_framed.rs` does so against the
/// [`Simulator`](super::Simulator).
///
/// End of file (a hung-up line) ends the stream; other I/O errors (an
/// unplugged USB adapter: `EIO`) are returned as they are. A flush returns
/// once the bytes are with the kernel's tty driver; it does not wait for
/// them to leave the wire (at 57600 baud about 0.17 ms a byte).
///
/// ```no_run
/// use futures_util::{SinkExt, StreamExt};
/// use novag_citrine::codec::HostCodec;
/// use novag_citrine::serial::AsyncPort;
/// use novag_citrine::session::{Driver, DriverConfig};
/// use std::time::Instant;
/// use tokio_util::codec::Framed;
///
/// # async fn f() -> Result<(), Box<dyn std::error::Error>> {
/// let mut framed = Framed::new(AsyncPort::open("/dev/ttyUSB0")?, HostCodec::default());
/// let mut driver = Driver::new(DriverConfig::default(), Instant::now());
/// driver.new_game(Instant::now())?;
/// while let Some(transmit) = driver.poll_transmit() {
///     framed.send(transmit).await?;
/// }
/// if let Some(Ok(reply)) = framed.next().await.transpose()? {
///     driver.handle_message(&reply, Instant::now());
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct AsyncPort {
    fd: AsyncFd<NativePort>,
}

impl AsyncPort {
    /// Opens `path` like [`open`](super::open) (57600 8N1, no flow control)
    /// and makes it an `AsyncPort`. Call it inside a tokio runtime.
    ///
    /// # Errors
    /// [`SerialError::Open`] naming the path: the port cannot be opened,
    /// set non-blocking or registered (no tokio runtime is current).
    ///
    /// # Panics
    /// In a runtime built without I/O (`enable_io`), as tokio's own I/O
    /// types do.
    pub fn open(path: &str) -> Result<Self, SerialError> {
        let port = open(path, &Limits::default())?;
        AsyncPort::new(port).map_err(|e| SerialError::Open {
            path: path.to_owned(),
            source: e.into(),
        })
    }

    /// Makes an open, configured port (from [`open`](super::open), or a
    /// side of `TTYPort::pair`) an `AsyncPort`: sets its descriptor
    /// non-blocking and registers it with the current runtime. The port's
    /// timeout is no longer used; set its other settings before.
    ///
    /// # Errors
    /// The `fcntl` or registration error; an error of kind `Other` when no
    /// tokio runtime is current.
    ///
    /// # Panics
    /// In a runtime built without I/O (`enable_io`), as tokio's own I/O
    /// types do.
    pub fn new(port: NativePort) -> io::Result<Self> {
        tokio::runtime::Handle::try_current().map_err(io::Error::other)?;
        set_nonblocking(port.as_raw_fd())?;
        // SAFETY: `AsyncFd::register` needs the descriptor that
        // `port.as_raw_fd()` returns to stay open and the same until the
        // `AsyncFd` is dropped. `TTYPort` owns its descriptor, returns the
        // same one from every `as_raw_fd` call and closes it only in its
        // `Drop`, which runs after the `AsyncFd` deregisters it. The port is
        // moved into the `AsyncFd` and only ever lent out by shared
        // reference (`get_ref`), so no caller can replace or drop it.
        #[allow(unsafe_code)]
        let fd = unsafe { AsyncFd::register(port) }?;
        Ok(AsyncPort { fd })
    }

    /// The port (its name, its settings, its modem lines). Reading or
    /// writing through it directly bypasses the reactor.
    pub fn get_ref(&self) -> &NativePort {
        self.fd.get_ref()
    }
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    let flags = OFlag::from_bits_truncate(fcntl(fd, FcntlArg::F_GETFL)?);
    fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    Ok(())
}

/// `read(2)`, retried on `EINTR`; `EAGAIN` is `WouldBlock`.
fn read_fd(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match nix::unistd::read(fd, buf) {
            Err(Errno::EINTR) => continue,
            r => return r.map_err(io::Error::from),
        }
    }
}

/// `write(2)`, retried on `EINTR`; `EAGAIN` is `WouldBlock`.
fn write_fd(fd: RawFd, buf: &[u8]) -> io::Result<usize> {
    loop {
        match nix::unistd::write(fd, buf) {
            Err(Errno::EINTR) => continue,
            r => return r.map_err(io::Error::from),
        }
    }
}

impl AsyncRead for AsyncPort {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let mut guard = ready!(self.fd.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard.try_io(|fd| read_fd(fd.as_raw_fd(), unfilled)) {
                Ok(result) => {
                    buf.advance(result?);
                    return Poll::Ready(Ok(()));
                }
                // Not readable after all: readiness cleared, wait again.
                Err(_would_block) => continue,
            }
        }
    }
}

impl AsyncWrite for AsyncPort {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            let mut guard = ready!(self.fd.poll_write_ready(cx))?;
            match guard.try_io(|fd| write_fd(fd.as_raw_fd(), buf)) {
                Ok(result) => return Poll::Ready(result),
                // The tty's output buffer is full: wait until it drains.
                Err(_would_block) => continue,
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // `write(2)` has handed the bytes to the tty driver; `tcdrain` (the
        // blocking port's flush) would hold the thread until they are on
        // the wire.
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}
