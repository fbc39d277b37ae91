//! The serial driver (feature `serial`): the only code that owns a port.
//! [`connect`] opens a port at 57600 baud, 8 data bits, no parity, 1 stop
//! bit, no flow control ([`spec::citrine`](crate::spec::citrine), *Link*)
//! and runs a host [`Driver`] over it until the caller's callback stops it;
//! [`run`] does the same over a port the caller opened (any `Read + Write`
//! whose reads time out when the line is quiet: a port from [`open`], a
//! pty, a TCP serial bridge with a read timeout). Both are the family's one
//! blocking loop (`boardwire_proto::drive::blocking`, the same as
//! `damexchange::net` and `csa_protocol::net` run over tokio), with the
//! same shape: `connect(path, config, callback)`, `run(port, config,
//! callback)`, a [`Config`] of the session's settings and [`Limits`], a
//! callback `FnMut(&mut Driver, Activity) -> ControlFlow<R>` and
//! [`Ended`] when it returns.
//!
//! A vanished device (unplugged USB adapter) is
//! [`SerialError::DeviceLost`], a device that does not answer is
//! [`SerialError::PeerSilent`], never a hang. [`Simulator`] (Unix) runs the
//! simulated [`Device`](crate::session::Device) on a pseudo-terminal. With
//! the `tokio` feature too, `AsyncPort` (Unix) is an open port as a tokio
//! `AsyncRead + AsyncWrite`, for `tokio_util::codec::Framed<AsyncPort,
//! HostCodec>` (see the `codec` module; both exist only with that feature).
//!
//! On Linux the user needs access to the tty device (e.g. membership of the
//! `dialout` group).
//!
//! ```no_run
//! use std::ops::ControlFlow;
//! use std::time::Instant;
//! use novag_citrine::serial::{self, Activity, Config};
//! use novag_citrine::session::{DriverConfig, Event};
//!
//! let mut sent = false;
//! let ended = serial::connect("/dev/ttyUSB0", Config::new(DriverConfig::default()), |driver, activity| {
//!     match activity {
//!         Activity::Idle if !sent && driver.is_our_turn() && driver.is_idle() => {
//!             let e2e4 = driver.position().unwrap().parse_uci("e2e4").unwrap();
//!             driver.send_move(e2e4, Instant::now()).unwrap();
//!             sent = true;
//!         }
//!         Activity::Event(Event::Acknowledged(m)) => return ControlFlow::Break(m),
//!         _ => {}
//!     }
//!     ControlFlow::Continue(())
//! })?;
//! println!("{ended:?}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::ToOwned;
use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::string::String;
use std::time::{Duration, Instant};

use boardwire_proto::drive::{self, blocking};
use serialport::{DataBits, FlowControl, Parity, SerialPort, StopBits};

use crate::error::MessageKind;
use crate::session::{Driver, DriverConfig, Event};

/// What [`run`] shows its callback, in wire order (the family's
/// `boardwire_proto::drive::Activity`): `Sent { frame, message }` for each
/// command line written, `Received { frame, message }` for each reply line
/// read (before the driver handles it), `Malformed { error, frame }` for a
/// line that is over-long or does not decode, `Event(event)` for each
/// driver event, and `Idle` once all is written and handled (at least
/// every [`drive::Limits::poll_interval`]): the time to issue commands (a
/// move when [`Driver::is_our_turn`], user input).
pub use boardwire_proto::drive::Activity;
/// How a run ended: `Break(r)` (the callback's value) or `Closed(why)`.
pub use boardwire_proto::drive::{Closed, Ended};

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
#[non_exhaustive]
pub struct Limits {
    /// The family driver's bounds: `max_bad_frames` (default 16
    /// consecutive malformed, over-long or unrecognised lines;
    /// [`SerialError::Misbehaving`] at the limit), `poll_interval` (the port's
    /// read timeout: how often the callback sees [`Activity::Idle`] when
    /// the line is quiet; default 10 ms here), `read_buffer`,
    /// `output_queue_cap` (lines written in one round, default 64) and
    /// `send_timeout`. The longest line accepted from the device is the
    /// driver's [`DriverConfig::max_line_len`].
    pub driver: drive::Limits,
    /// How long the device may take to answer a command with a known reply
    /// and how long it may send only undecodable lines (default 10 s;
    /// applied to the driver as
    /// [`DriverConfig::ack_timeout`]);
    /// [`SerialError::PeerSilent`] beyond.
    pub ack_timeout: Duration,
    /// Most command lines queued in the driver and not yet written (default
    /// 64: at the 100 ms pacing, 6.4 s of commands); [`SerialError::QueueFull`]
    /// beyond.
    pub max_queued_commands: usize,
}

impl Default for Limits {
    fn default() -> Self {
        let mut driver = drive::Limits::default();
        driver.poll_interval = Duration::from_millis(10);
        Limits {
            driver,
            ack_timeout: Duration::from_secs(10),
            max_queued_commands: 64,
        }
    }
}

/// What [`connect`] and [`run`] take: the driver's settings (`session`:
/// [`DriverConfig`]) and the limits (`limits`); `Config::new(session)` has
/// the default [`Limits`]. The family's `boardwire_proto::drive::Config`.
pub type Config<C> = drive::Config<C, Limits>;

/// Why the serial driver stopped, other than the callback's `Break` or the
/// end of the stream.
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
    /// The device went away (hang-up, I/O error, a write that makes no
    /// progress): e.g. the USB adapter was unplugged.
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
    /// More than the driver limits' `max_bad_frames` malformed or
    /// unrecognised lines in a row (wrong baud rate, line noise, not a
    /// Citrine).
    #[error("{count} malformed or unrecognised lines in a row from the device")]
    Misbehaving {
        /// Lines in a row.
        count: u32,
    },
    /// More than [`Limits::max_queued_commands`] commands queued in the
    /// driver (or more lines than the driver limits' `output_queue_cap` in
    /// one round).
    #[error("{queued} commands queued for the device, more than the limit")]
    QueueFull {
        /// Commands queued.
        queued: usize,
    },
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

/// Opens `path` at 57600 8N1, no flow control, reads timing out after the
/// limits' `poll_interval`: the port for [`run`] (which [`connect`] opens
/// itself).
///
/// # Errors
/// [`SerialError::Open`] naming the path.
pub fn open(path: &str, limits: &Limits) -> Result<NativePort, SerialError> {
    serialport::new(path, BAUD_RATE)
        .data_bits(DataBits::Eight)
        .parity(Parity::None)
        .stop_bits(StopBits::One)
        .flow_control(FlowControl::None)
        .timeout(limits.driver.poll_interval)
        .open_native()
        .map_err(|source| SerialError::Open {
            path: path.to_owned(),
            source,
        })
}

/// Opens `path` ([`open`]: 57600 8N1, no flow control) and runs a host
/// [`Driver`] made from `config.session` over it ([`run`]).
///
/// # Errors
/// [`SerialError::Open`], then as [`run`].
pub fn connect<R>(
    path: &str,
    config: Config<DriverConfig>,
    callback: impl FnMut(&mut Driver<Instant>, Activity<'_, '_, Driver<Instant>>) -> ControlFlow<R>,
) -> Result<Ended<R>, SerialError> {
    let port = open(path, &config.limits)?;
    run(port, config, callback)
}

/// Runs a host [`Driver`] made from `config.session` (its ack timeout set
/// to [`Limits::ack_timeout`]) over `port` (open and configured, reads
/// timing out: a port from [`open`], or any `Read + Write` whose reads
/// return `TimedOut`/`WouldBlock` when the line is quiet; `&mut port`
/// works too) until the callback returns `Break` or the stream ends.
///
/// Each round: what the driver releases is written ([`Activity::Sent`]),
/// its events shown ([`Activity::Event`]), then [`Activity::Idle`] (issue
/// commands here); one read; each line framed (cap
/// [`DriverConfig::max_line_len`]), decoded ([`Activity::Received`] /
/// [`Activity::Malformed`]) and handed to the driver.
///
/// Returns [`Ended::Break`] with the callback's value, or
/// [`Ended::Closed`]`(`[`Closed::ByPeer`]`)` at the end of the stream
/// (the driver was closed, [`Driver::handle_close`], and its last events,
/// a [`Event::GameEnded`] for a game in progress, went to the callback).
///
/// # Errors
/// [`SerialError::DeviceLost`] on hang-up or an I/O error (the driver is
/// closed first and its events go to the callback);
/// [`SerialError::PeerSilent`] after the driver's [`Event::PeerSilent`]
/// (shown to the callback first); [`SerialError::Misbehaving`];
/// [`SerialError::QueueFull`].
pub fn run<P: Read + Write, R>(
    mut port: P,
    config: Config<DriverConfig>,
    mut callback: impl FnMut(&mut Driver<Instant>, Activity<'_, '_, Driver<Instant>>) -> ControlFlow<R>,
) -> Result<Ended<R>, SerialError> {
    let Config {
        session, limits, ..
    } = config;
    let mut driver = Driver::new(session, Instant::now());
    driver.set_ack_timeout(limits.ack_timeout);
    let ended = blocking::run(
        &mut port,
        &mut driver,
        &limits.driver,
        |driver, activity| {
            let silent = match &activity {
                Activity::Event(Event::PeerSilent { awaiting, waited }) => {
                    Some((*awaiting, *waited))
                }
                _ => None,
            };
            let idle = matches!(activity, Activity::Idle);
            if let ControlFlow::Break(r) = callback(driver, activity) {
                return ControlFlow::Break(Ok(r));
            }
            if let Some((awaiting, waited)) = silent {
                return ControlFlow::Break(Err(SerialError::PeerSilent { awaiting, waited }));
            }
            if idle && driver.queued() > limits.max_queued_commands {
                return ControlFlow::Break(Err(SerialError::QueueFull {
                    queued: driver.queued(),
                }));
            }
            ControlFlow::Continue(())
        },
    );
    match ended {
        Ok(Ended::Break(Ok(r))) => Ok(Ended::Break(r)),
        Ok(Ended::Break(Err(e))) => Err(e),
        Ok(Ended::Closed(Closed::TooManyBadFrames)) => Err(SerialError::Misbehaving {
            count: limits.driver.max_bad_frames,
        }),
        Ok(Ended::Closed(Closed::OutputQueueFull)) => Err(SerialError::QueueFull {
            queued: driver.queued().max(limits.driver.output_queue_cap + 1),
        }),
        Ok(Ended::Closed(Closed::SendTimeout)) => Err(SerialError::DeviceLost(io::Error::new(
            io::ErrorKind::TimedOut,
            "a write to the device made no progress",
        ))),
        Ok(Ended::Closed(c)) => Ok(Ended::Closed(c)),
        Err(e) => Err(SerialError::DeviceLost(e)),
    }
}

#[cfg(unix)]
pub use self::simulator::Simulator;

#[cfg(unix)]
mod simulator {
    use std::ops::ControlFlow;
    use std::string::{String, ToString};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread::JoinHandle;
    use std::time::{Duration, Instant};

    use serialport::{SerialPort as _, TTYPort};

    use super::{Activity, Ended, SerialError, blocking, configure, drive};
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
                // The device is the peer under test's opposite: it takes
                // whatever the host sends (bad lines are its events) and
                // answers at its own pace; only the host's end is bounded.
                let mut limits = drive::Limits::default();
                limits.poll_interval = Duration::from_millis(5);
                limits.max_bad_frames = u32::MAX;
                limits.output_queue_cap = usize::MAX;
                let ended = blocking::run(&mut master, &mut device, &limits, |_, activity| {
                    if matches!(activity, Activity::Idle) && flag.load(Ordering::Relaxed) {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                match ended {
                    Ok(Ended::Break(())) => Ok(device),
                    Ok(Ended::Closed(c)) => Err(SerialError::DeviceLost(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        c.to_string(),
                    ))),
                    Err(e) => Err(SerialError::DeviceLost(e)),
                }
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
