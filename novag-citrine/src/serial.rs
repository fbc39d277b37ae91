//! Serial transport (feature `serialport`): opens a port at 57600 baud,
//! 8 data bits, no parity, 1 stop bit, no flow control (spec note, "Link"),
//! reads with a timeout, and reports a vanished device (unplugged USB
//! adapter) as [`SerialError::DeviceLost`] instead of hanging. Also runs
//! the simulated device on a pseudo-terminal ([`Simulator`], Unix only).
//!
//! On Linux the user needs access to the tty device (e.g. membership of the
//! `dialout` group).

use std::borrow::ToOwned;
use std::boxed::Box;
use std::io::{self, Read, Write};
use std::string::String;
use std::time::{Duration, Instant};

use serialport::{DataBits, FlowControl, Parity, SerialPort, StopBits};

use crate::device::Device;
use crate::driver::Driver;

/// The Citrine's baud rate.
pub const BAUD_RATE: u32 = 57_600;

/// A serial transport failure.
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

/// A byte link to a Citrine (or to a host, for the simulated device) over
/// any `Read + Write` port whose reads time out (`serialport` ports do).
#[derive(Debug)]
pub struct SerialLink<P> {
    port: P,
    buf: Box<[u8; 512]>,
}

/// The native port type of this platform.
#[cfg(unix)]
pub type NativePort = serialport::TTYPort;
/// The native port type of this platform.
#[cfg(windows)]
pub type NativePort = serialport::COMPort;

impl SerialLink<NativePort> {
    /// Opens `path` at 57600 8N1, no flow control; reads wait at most
    /// `read_timeout`.
    ///
    /// # Errors
    /// [`SerialError::Open`] naming the path.
    pub fn open(path: &str, read_timeout: Duration) -> Result<Self, SerialError> {
        let port = serialport::new(path, BAUD_RATE)
            .data_bits(DataBits::Eight)
            .parity(Parity::None)
            .stop_bits(StopBits::One)
            .flow_control(FlowControl::None)
            .timeout(read_timeout)
            .open_native()
            .map_err(|source| SerialError::Open {
                path: path.to_owned(),
                source,
            })?;
        Ok(SerialLink::new(port))
    }
}

impl<P: Read + Write> SerialLink<P> {
    /// Wraps an open, configured port.
    pub fn new(port: P) -> Self {
        SerialLink {
            port,
            buf: Box::new([0; 512]),
        }
    }

    /// The port.
    pub fn port_mut(&mut self) -> &mut P {
        &mut self.port
    }

    /// Reads what is available within the port's timeout; an empty slice
    /// when nothing arrived.
    ///
    /// # Errors
    /// [`SerialError::DeviceLost`] on hang-up, end of file or any other read
    /// error.
    pub fn read(&mut self) -> Result<&[u8], SerialError> {
        loop {
            return match self.port.read(&mut self.buf[..]) {
                Ok(0) => Err(SerialError::DeviceLost(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "end of file",
                ))),
                Ok(n) => Ok(&self.buf[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                    ) =>
                {
                    Ok(&[])
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => Err(SerialError::DeviceLost(e)),
            };
        }
    }

    /// Writes a whole line.
    ///
    /// # Errors
    /// [`SerialError::DeviceLost`] on any write error.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), SerialError> {
        self.port
            .write_all(bytes)
            .and_then(|()| self.port.flush())
            .map_err(SerialError::DeviceLost)
    }

    /// One round for a host: writes the driver's due lines, then reads once
    /// (up to the port's timeout) and feeds the driver. Drain
    /// [`Driver::poll_event`] after each call.
    ///
    /// # Errors
    /// [`SerialError::DeviceLost`].
    pub fn pump_driver(&mut self, driver: &mut Driver<Instant>) -> Result<(), SerialError> {
        while let Some(line) = driver.poll_transmit(Instant::now()) {
            self.write_all(&line)?;
        }
        let input = self.read()?;
        if !input.is_empty() {
            driver.handle_input(input);
        }
        Ok(())
    }

    /// One round for a simulated device: writes its due lines, then reads
    /// once and feeds it.
    ///
    /// # Errors
    /// [`SerialError::DeviceLost`].
    pub fn pump_device(&mut self, device: &mut Device<Instant>) -> Result<(), SerialError> {
        while let Some(line) = device.poll_output(Instant::now()) {
            self.write_all(&line)?;
        }
        let input = self.read()?;
        if !input.is_empty() {
            device.handle_input(input, Instant::now());
        }
        Ok(())
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

    use super::{SerialError, SerialLink, configure};
    use crate::device::{Device, DeviceConfig};

    /// A simulated Citrine on a pseudo-terminal: a thread runs a [`Device`]
    /// on the master side; hosts open [`path`](Self::path) like a real
    /// serial port.
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
                let mut device = Device::new(config);
                let mut link = SerialLink::new(master);
                while !flag.load(Ordering::Relaxed) {
                    link.pump_device(&mut device)?;
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
