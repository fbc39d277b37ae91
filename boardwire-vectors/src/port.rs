//! An in-memory serial port for the blocking driver's tests
//! (`boardwire_proto::drive::blocking`, `novag_citrine::serial::run`): any
//! `Read + Write` whose reads time out when the line is quiet will do, and
//! this is the family's one.
//!
//! Reads come from a script of chunks (each read returns at most one
//! chunk), then from a line repeated forever, if any; then they time out
//! ([`io::ErrorKind::TimedOut`], after [`ScriptedPort::quiet`] of sleep)
//! or, after [`ScriptedPort::eof`], return 0. Writes are kept in
//! [`ScriptedPort::written`].
//!
//! ```
//! use std::io::{ErrorKind, Read, Write};
//! use boardwire_vectors::port::ScriptedPort;
//!
//! let mut port = ScriptedPort::new([&b"a\nsl"[..], b"ow\n"]);
//! let mut buf = [0u8; 3];
//! assert_eq!(port.read(&mut buf).unwrap(), 3); // "a\ns"
//! assert_eq!(port.read(&mut buf).unwrap(), 1); // "l": the rest of the chunk
//! assert_eq!(port.read(&mut buf).unwrap(), 3); // "ow\n"
//! assert_eq!(port.read(&mut buf).unwrap_err().kind(), ErrorKind::TimedOut);
//! port.write_all(b"ack\n").unwrap();
//! assert_eq!(port.written, b"ack\n");
//!
//! let mut flood = ScriptedPort::repeating(b"Hello\r\n");
//! assert_eq!(flood.read(&mut [0u8; 64]).unwrap(), 7);
//! assert_eq!(flood.read(&mut [0u8; 64]).unwrap(), 7);
//! ```

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::time::Duration;

/// A scripted port (see the [module](self) docs).
#[derive(Debug, Clone, Default)]
pub struct ScriptedPort {
    /// What the next reads return, chunk by chunk.
    pub input: VecDeque<Vec<u8>>,
    /// Read again and again once `input` is empty (a peer that floods).
    pub repeat: Option<Vec<u8>>,
    /// Once `input` is empty (and nothing repeats): end of file, not a
    /// time-out.
    pub eof: bool,
    /// How long a read that times out sleeps first (a port's read
    /// time-out; zero by default).
    pub quiet: Duration,
    /// Everything written.
    pub written: Vec<u8>,
}

impl ScriptedPort {
    /// A port whose reads return `chunks`, then time out.
    pub fn new<'c>(chunks: impl IntoIterator<Item = &'c [u8]>) -> ScriptedPort {
        ScriptedPort {
            input: chunks.into_iter().map(<[u8]>::to_vec).collect(),
            ..ScriptedPort::default()
        }
    }

    /// A port whose every read returns `line` (as much as fits).
    pub fn repeating(line: &[u8]) -> ScriptedPort {
        ScriptedPort {
            repeat: Some(line.to_vec()),
            ..ScriptedPort::default()
        }
    }

    /// The same port, ending the stream once the script is read.
    #[must_use]
    pub fn eof(self) -> ScriptedPort {
        ScriptedPort { eof: true, ..self }
    }

    /// The same port, sleeping `quiet` before each read that times out.
    #[must_use]
    pub fn quiet(self, quiet: Duration) -> ScriptedPort {
        ScriptedPort { quiet, ..self }
    }
}

impl Read for ScriptedPort {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(mut chunk) = self.input.pop_front() {
            let n = chunk.len().min(buf.len());
            buf[..n].copy_from_slice(&chunk[..n]);
            if n < chunk.len() {
                self.input.push_front(chunk.split_off(n));
            }
            return Ok(n);
        }
        if let Some(line) = self.repeat.as_deref().filter(|l| !l.is_empty()) {
            let n = line.len().min(buf.len());
            buf[..n].copy_from_slice(&line[..n]);
            return Ok(n);
        }
        if self.eof {
            return Ok(0);
        }
        std::thread::sleep(self.quiet);
        Err(io::ErrorKind::TimedOut.into())
    }
}

impl Write for ScriptedPort {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.written.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
