//! The serial driver (feature `serial`): the only code that owns a
//! port. [`open`] opens it at 57600 baud, 8 data bits, no parity, 1 stop
//! bit, no flow control ([`spec::citrine`](crate::spec::citrine), *Link*); [`run`] runs a
//! host [`Driver`] over it until the caller's callback stops it, enforcing
//! [`Limits`]; a vanished device (unplugged USB adapter) is
//! [`SerialError::DeviceLost`], a device that does not answer is
//! [`SerialError::PeerSilent`], never a hang. [`Simulator`] (Unix) runs
//! the simulated [`Device`](crate::session::Device) on a pseudo-terminal.
//! With the `tokio` feature too, `AsyncPort` (Unix) is an open port as a
//! tokio `AsyncRead + AsyncWrite`, for
//! `tokio_util::codec::Framed<AsyncPort, HostCodec>` (see the `codec`
//! module; both exist only with that feature).
//!
//! On Linux the user needs access to the tty device (e.g. membership of the
//! `dialout` group).
//!
//! ```no_run
//! use std::ops::ControlFlow;
//! use std::time::Instant;
//! use novag_citrine::serial::{self, Input, Limits};
//! use novag_citrine::session::{Driver, DriverConfig, Event};
//!
//! let limits = Limits::default();
//! let mut port = serial::open("/dev/ttyUSB0", &limits)?;
//! let mut driver = Driver::new(DriverConfig::default(), Instant::now());
//! let e2e4 = driver.position().ok_or("no game")?.parse_uci("e2e4")?;
//! driver.send_move(e2e4, Instant::now())?;
//! serial::run(&mut port, &mut driver, &limits, |input, _driver| match input {
//!     Input::Event(Event::Acknowledged(m)) => ControlFlow::Break(println!("ack {m}")),
//!     _ => ControlFlow::Continue(()),
//! })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::ToOwned;
use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::string::String;
use std::time::{Duration, Instant};

use serialport::{DataBits, FlowControl, Parity, SerialPort, StopBits};

use crate::decode::{decode, decode_with};
use crate::error::{FrameError, MessageKind};
use crate::framer::{Framer, Status};
use crate::message::{Command, RawLine, Reply};
use crate::session::{Driver, Event};

/// The Citrine's baud rate.
pub const BAUD_RATE: u32 = 57_600;

/// The native port type of this platform.
#[cfg(unix)]
pub type NativePort = serialport::TTYPort;
/// The native port type of this platform.
#[cfg(windows)]
pub type NativePort = serialport::COMPort;

/// Resource bounds of [`run`], each with a documented default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Longest line accepted from the device, in bytes without the
    /// terminator (default 256, [`framer::DEFAULT_MAX_LEN`](crate::framer::DEFAULT_MAX_LEN)); longer lines
    /// are skipped and count as malformed.
    pub max_line_len: usize,
    /// Most command lines queued in the driver and not yet written (default
    /// 64: at the 100 ms pacing, 6.4 s of commands);
    /// [`SerialError::QueueFull`] beyond.
    pub output_queue_cap: usize,
    /// How long the device may take to answer a command with a known reply
    /// and how long it may send only undecodable lines
    /// (default 10 s; applied to the driver as
    /// [`DriverConfig::ack_timeout`](crate::session::DriverConfig::ack_timeout));
    /// [`SerialError::PeerSilent`] beyond.
    pub ack_timeout: Duration,
    /// Most consecutive malformed, overlong or unrecognised lines (default
    /// 16); [`SerialError::Misbehaving`] beyond.
    pub max_bad_lines: u32,
    /// The port's read timeout: how often [`run`] calls back with
    /// [`Input::Tick`] when the line is quiet (default 10 ms).
    pub poll_interval: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_line_len: crate::framer::DEFAULT_MAX_LEN,
            output_queue_cap: 64,
            ack_timeout: Duration::from_secs(10),
            max_bad_lines: 16,
            poll_interval: Duration::from_millis(10),
        }
    }
}

/// Why the serial driver stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SerialError {
    /// The port could not be opened or configured.
    #[error("cannot open serial port {path}: {source}")]
    Open {
        /// The port's path.
        path: String,
        /// The cause.
        source: serialport::Error,
    },
    /// The device went away (hang-up, I/O error, end of file): e.g. the USB
    /// adapter was unplugged.
    #[error("serial device lost: {0}")]
    DeviceLost(io::Error),
    /// The device did not answer within [`Limits::ack_timeout`] (e.g. an
    /// adapter that receives but cannot send).
    #[error("the device did not answer: no {awaiting} within {} ms", waited.as_millis())]
    PeerSilent {
        /// The reply that did not come.
        awaiting: MessageKind,
        /// How long the driver waited.
        waited: Duration,
    },
    /// More than [`Limits::max_bad_lines`] malformed or unrecognised lines
    /// in a row (wrong baud rate, line noise, not a Citrine).
    #[error("{count} malformed or unrecognised lines in a row from the device")]
    Misbehaving {
        /// Lines in a row.
        count: u32,
    },
    /// More than [`Limits::output_queue_cap`] commands queued in the driver.
    #[error("{queued} commands queued for the device, more than the limit")]
    QueueFull {
        /// Commands queued.
        queued: usize,
    },
}

/// What [`run`] shows its callback, in this order per round: the lines
/// written, the lines read (each before the driver handles it), the
/// driver's events, then one `Tick`.
#[derive(Debug)]
#[non_exhaustive]
pub enum Input<'a> {
    /// A command line written to the device.
    Sent(&'a Command<'a>),
    /// A line read from the device, decoded (before the driver handles it).
    Received {
        /// The line.
        reply: &'a Reply<'a>,
        /// Its bytes on the wire (terminator and empty lines before it
        /// included).
        bytes: usize,
    },
    /// A line read from the device that did not decode (or was too long:
    /// then `line` holds the bytes seen).
    Malformed {
        /// The line (or its start).
        line: &'a RawLine<'a>,
        /// Why.
        error: &'a FrameError,
        /// Its bytes on the wire (terminator and empty lines before it
        /// included).
        bytes: usize,
    },
    /// An event of the driver.
    Event(&'a Event),
    /// Once per round (at least every [`Limits::poll_interval`]): the time
    /// to issue commands (a move when [`Driver::is_our_turn`], user input).
    Tick,
}

/// Sets 57600 8N1 without flow control on an open port.
///
/// # Errors
/// The port's error when a setting is refused.
pub fn configure(port: &mut dyn SerialPort) -> serialport::Result<()> {
    port.set_baud_rate(BAUD_RATE)?;
    port.set_data_bits(DataBits::Eight)?;
    port.set_parity(Parity::None)?;
    port.set_stop_bits(StopBits::One)?;
    port.set_flow_control(FlowControl::None)
}

/// Opens `path` at 57600 8N1, no flow control, reads timing out after
/// [`Limits::poll_interval`].
///
/// # Errors
/// [`SerialError::Open`] naming the path.
pub fn open(path: &str, limits: &Limits) -> Result<NativePort, SerialError> {
    serialport::new(path, BAUD_RATE)
        .data_bits(DataBits::Eight)
        .parity(Parity::None)
        .stop_bits(StopBits::One)
        .flow_control(FlowControl::None)
        .timeout(limits.poll_interval)
        .open_native()
        .map_err(|source| SerialError::Open {
            path: path.to_owned(),
            source,
        })
}

/// Reads what is available within the port's timeout; 0 when nothing came.
fn read_some<P: Read>(port: &mut P, buf: &mut [u8]) -> Result<usize, SerialError> {
    loop {
        return match port.read(buf) {
            Ok(0) => Err(SerialError::DeviceLost(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "end of file",
            ))),
            Ok(n) => Ok(n),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                ) =>
            {
                Ok(0)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => Err(SerialError::DeviceLost(e)),
        };
    }
}

fn write_line<P: Write>(port: &mut P, bytes: &[u8]) -> Result<(), SerialError> {
    port.write_all(bytes)
        .and_then(|()| port.flush())
        .map_err(SerialError::DeviceLost)
}

/// The line of a transmit without its CR LF.
fn line_of(bytes: &[u8]) -> &[u8] {
    let mut l = bytes;
    while let [rest @ .., b'\r' | b'\n'] = l {
        l = rest;
    }
    l
}

/// Runs `driver` over `port` (open and configured, reads timing out: a
/// port from [`open`], or any `Read + Write` whose reads return
/// `TimedOut`/`WouldBlock` when the line is quiet) until `on` returns
/// `Break`, and returns its value.
///
/// Each round: writes what the driver releases ([`Input::Sent`]), reads
/// once, frames (cap [`Limits::max_line_len`]) and decodes the lines
/// ([`Input::Received`] / [`Input::Malformed`]) and hands them to the
/// driver, shows its events ([`Input::Event`]), then calls back with
/// [`Input::Tick`]. The callback gets the driver to issue commands.
///
/// # Errors
/// [`SerialError::DeviceLost`] on hang-up, end of file or an I/O error
/// (the driver is closed first, [`Driver::handle_close`], and its events,
/// a [`Event::GameEnded`] for a game in progress, go to the callback);
/// [`SerialError::PeerSilent`] after the driver's [`Event::PeerSilent`]
/// (shown to the callback first); [`SerialError::Misbehaving`];
/// [`SerialError::QueueFull`].
pub fn run<P: Read + Write, R>(
    port: &mut P,
    driver: &mut Driver<Instant>,
    limits: &Limits,
    mut on: impl FnMut(Input<'_>, &mut Driver<Instant>) -> ControlFlow<R>,
) -> Result<R, SerialError> {
    driver.set_ack_timeout(limits.ack_timeout);
    let mut framer = Framer::new(limits.max_line_len);
    let mut inbuf: std::vec::Vec<u8> = std::vec::Vec::new();
    let mut chunk = [0u8; 512];
    let mut bad_lines = 0u32;
    macro_rules! call {
        ($input:expr) => {
            if let ControlFlow::Break(r) = on($input, driver) {
                return Ok(r);
            }
        };
    }
    // The port is gone: the driver closes the game (its `GameEnded` is
    // shown to the callback) before the error is returned.
    macro_rules! lost {
        ($result:expr) => {
            match $result {
                Ok(v) => v,
                Err(e) => {
                    driver.handle_close(Instant::now());
                    while let Some(ev) = driver.poll_event() {
                        call!(Input::Event(&ev));
                    }
                    return Err(e);
                }
            }
        };
    }
    loop {
        driver.handle_timeout(Instant::now());
        while let Some(t) = driver.poll_transmit() {
            lost!(write_line(port, t.as_bytes()));
            if let Ok(cmd) = decode::<Command<'_>>(line_of(t.as_bytes())) {
                call!(Input::Sent(&cmd));
            }
        }
        let n = lost!(read_some(port, &mut chunk));
        inbuf.extend_from_slice(&chunk[..n]);
        let now = Instant::now();
        let mut start = 0;
        loop {
            match framer.decode(&inbuf[start..]) {
                Status::Complete { frame, consumed } => {
                    match decode_with::<Reply<'_>>(frame, &driver.config().leniency) {
                        Ok(reply) => {
                            if matches!(reply, Reply::Unrecognised(_)) {
                                bad_lines += 1;
                            } else {
                                bad_lines = 0;
                            }
                            call!(Input::Received {
                                reply: &reply,
                                bytes: consumed,
                            });
                            driver.handle_message(&reply, now);
                        }
                        Err(e) => {
                            bad_lines += 1;
                            let error = FrameError::Malformed(e);
                            let line = RawLine::borrowed(frame);
                            call!(Input::Malformed {
                                line: &line,
                                error: &error,
                                bytes: consumed,
                            });
                            driver.handle_frame_error(&error, now);
                        }
                    }
                    start += consumed;
                }
                Status::Overlong { len, consumed } => {
                    bad_lines += 1;
                    let error = FrameError::Overlong {
                        len,
                        max: limits.max_line_len,
                    };
                    let seen = &inbuf[start..start + consumed];
                    let line = RawLine::borrowed(seen);
                    call!(Input::Malformed {
                        line: &line,
                        error: &error,
                        bytes: consumed,
                    });
                    driver.handle_frame_error(&error, now);
                    start += consumed;
                }
                Status::Partial { consumed } => {
                    start += consumed;
                    break;
                }
            }
            if bad_lines > limits.max_bad_lines {
                return Err(SerialError::Misbehaving { count: bad_lines });
            }
        }
        inbuf.drain(..start);
        while let Some(ev) = driver.poll_event() {
            call!(Input::Event(&ev));
            if let Event::PeerSilent { awaiting, waited } = ev {
                return Err(SerialError::PeerSilent { awaiting, waited });
            }
        }
        call!(Input::Tick);
        if driver.queued() > limits.output_queue_cap {
            return Err(SerialError::QueueFull {
                queued: driver.queued(),
            });
        }
    }
}

#[cfg(unix)]
pub use self::simulator::Simulator;

#[cfg(unix)]
mod simulator {
    use std::string::String;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread::JoinHandle;
    use std::time::{Duration, Instant};

    use serialport::{SerialPort as _, TTYPort};

    use super::{SerialError, configure, read_some, write_line};
    use crate::session::{Device, DeviceConfig};

    /// A simulated Citrine on a pseudo-terminal: a thread runs a
    /// [`Device`] on the master side; hosts open [`path`](Self::path) like
    /// a real serial port (with [`open`](super::open)).
    #[derive(Debug)]
    pub struct Simulator {
        path: String,
        stop: Arc<AtomicBool>,
        thread: Option<JoinHandle<Result<Device<Instant>, SerialError>>>,
        _slave: TTYPort,
    }

    impl Simulator {
        /// Creates the pty pair (57600 8N1) and starts the device thread.
        ///
        /// # Errors
        /// [`SerialError::Open`] when no pty can be had.
        pub fn spawn(config: DeviceConfig) -> Result<Self, SerialError> {
            let open_err = |source| SerialError::Open {
                path: "pty pair".into(),
                source,
            };
            let (mut master, mut slave) = TTYPort::pair().map_err(open_err)?;
            configure(&mut slave).map_err(open_err)?;
            // The master side refuses some termios calls on some systems;
            // a pty has no line speed anyway.
            let _ = configure(&mut master);
            master
                .set_timeout(Duration::from_millis(5))
                .map_err(open_err)?;
            let path = slave.name().ok_or_else(|| {
                open_err(serialport::Error::new(
                    serialport::ErrorKind::NoDevice,
                    "pty without a name",
                ))
            })?;
            let stop = Arc::new(AtomicBool::new(false));
            let flag = Arc::clone(&stop);
            let thread = std::thread::spawn(move || {
                let mut device = Device::new(config, Instant::now());
                let mut buf = [0u8; 512];
                while !flag.load(Ordering::Relaxed) {
                    device.handle_timeout(Instant::now());
                    while let Some(t) = device.poll_transmit() {
                        write_line(&mut master, t.as_bytes())?;
                    }
                    while device.poll_event().is_some() {}
                    let n = read_some(&mut master, &mut buf)?;
                    if n > 0 {
                        device.handle_input(&buf[..n], Instant::now());
                    }
                }
                Ok(device)
            });
            Ok(Simulator {
                path,
                stop,
                thread: Some(thread),
                _slave: slave,
            })
        }

        /// The path to open (e.g. `/dev/pts/3`).
        pub fn path(&self) -> &str {
            &self.path
        }

        /// Stops the device thread and returns the device (to inspect its
        /// final state).
        ///
        /// # Errors
        /// The thread's transport error, if it failed.
        pub fn stop(mut self) -> Result<Device<Instant>, SerialError> {
            self.stop.store(true, Ordering::Relaxed);
            let thread = self.thread.take().expect("joined once");
            thread.join().unwrap_or_else(|_| {
                Err(SerialError::DeviceLost(std::io::Error::other(
                    "simulator thread panicked",
                )))
            })
        }
    }

    impl Drop for Simulator {
        fn drop(&mut self) {
            self.stop.store(true, Ordering::Relaxed);
            if let Some(t) = self.thread.take() {
                let _ = t.join();
            }
        }
    }
}

#[cfg(all(unix, feature = "tokio"))]
#[cfg_attr(docsrs, doc(cfg(all(unix, feature = "tokio"))))]
pub use self::async_port::AsyncPort;

#[cfg(all(unix, feature = "tokio"))]
mod async_port;
