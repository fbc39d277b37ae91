//! The wire transcript format shared by `demo`, `dxp serve|connect` and
//! `csa connect`: one line per protocol message, readable, never a Rust
//! `Debug` form.
//!
//! ```text
//! dxp       0.004  initiator -> R01boardwire-demo                Z005000A  (GAMEREQ: ...)
//! dxp       0.005  initiator <- Aboardwire                       0  (GAMEACC: accepted)
//! dxp       0.006  initiator :: game started: we play white, ...
//! ```
//!
//! Columns: the protocol (`dxp`, `csa`, `citrine`), seconds since the
//! connection (or session) started, the party whose view this is (DXP:
//! `initiator` or `follower`, with `#N` for the N-th connection of
//! `dxp serve`; CSA: the login name; Citrine: `host`), then `->` for a
//! message that party sent, `<-` for one it received, `::` for a note (an
//! event, not a message on the wire). The message is the wire text (DXP
//! frames without their terminating NUL, CSA and Citrine lines without
//! their line ending; other control bytes as `\xNN`), for DXP followed by a
//! reading of it in parentheses. A multi-line CSA message (`Game_Summary`,
//! x1 replies ending with `+OK`) is one line.

use std::io::Write;
use std::time::Instant;

/// Where transcript lines go.
#[derive(Clone, Debug)]
pub enum Sink {
    /// Standard output, one whole line per write (lines of concurrent
    /// connections never interleave within a line).
    Stdout,
    /// A shared buffer (tests).
    #[cfg(test)]
    Buffer(std::sync::Arc<std::sync::Mutex<Vec<u8>>>),
    /// Nowhere (counters only).
    Discard,
}

impl Sink {
    fn write_line(&self, line: &str) {
        match self {
            Sink::Stdout => {
                let _ = std::io::stdout().lock().write_all(line.as_bytes());
            }
            #[cfg(test)]
            Sink::Buffer(b) => {
                if let Ok(mut b) = b.lock() {
                    b.extend_from_slice(line.as_bytes());
                }
            }
            Sink::Discard => {}
        }
    }
}

/// One party's view of one connection: writes transcript lines and counts
/// the messages and bytes (line endings and NULs included) each way.
#[derive(Debug)]
pub struct Transcript {
    proto: &'static str,
    party: String,
    start: Instant,
    sink: Sink,
    /// Wire bytes this party sent.
    pub bytes_sent: u64,
    /// Wire bytes this party received.
    pub bytes_received: u64,
    /// Messages this party sent.
    pub messages_sent: u64,
    /// Messages this party received.
    pub messages_received: u64,
}

impl Transcript {
    /// A transcript for `party` speaking `proto`; the clock starts now.
    pub fn new(proto: &'static str, party: impl Into<String>, sink: Sink) -> Transcript {
        Transcript {
            proto,
            party: party.into(),
            start: Instant::now(),
            sink,
            bytes_sent: 0,
            bytes_received: 0,
            messages_sent: 0,
            messages_received: 0,
        }
    }

    /// Seconds since the transcript started.
    pub fn elapsed_secs(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    fn line(&self, arrow: &str, text: &str) {
        let line = format!(
            "{:<7} {:>7.3}  {:<9} {arrow} {text}\n",
            self.proto,
            self.elapsed_secs(),
            self.party
        );
        self.sink.write_line(&line);
    }

    /// A message this party sent: `wire_len` bytes on the wire, shown as
    /// `text`.
    pub fn sent(&mut self, wire_len: usize, text: &str) {
        self.bytes_sent += wire_len as u64;
        self.messages_sent += 1;
        self.line("->", text);
    }

    /// A message this party received.
    pub fn received(&mut self, wire_len: usize, text: &str) {
        self.bytes_received += wire_len as u64;
        self.messages_received += 1;
        self.line("<-", text);
    }

    /// A note: something that happened, not a message on the wire.
    pub fn note(&self, text: &str) {
        self.line("::", text);
    }
}

/// Bytes as transcript text: printable ASCII as is, backslash doubled, NUL
/// as `\0`, other bytes as `\xNN`.
pub fn show(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 8);
    for &b in bytes {
        match b {
            0 => s.push_str("\\0"),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(char::from(b)),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s
}

/// One line of a transcript, read back (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Record<'a> {
    /// `dxp`, `csa` or `citrine`.
    pub proto: &'a str,
    /// Seconds since the connection started.
    pub secs: f64,
    /// The party whose view the line is.
    pub party: &'a str,
    /// `->` sent, `<-` received, `::` a note.
    pub arrow: &'a str,
    /// The message as shown (escaped by [`show`]: see [`unshow`]).
    pub text: &'a str,
}

/// Reads a transcript line (without its line end); `None` when `line` is
/// not one (the columns: protocol, seconds, party, arrow, text; the party
/// holds no space).
pub fn parse_line(line: &str) -> Option<Record<'_>> {
    let mut rest = line;
    let mut field = || {
        let t = rest.trim_start_matches(' ');
        let end = t.find(' ').unwrap_or(t.len());
        let (f, r) = t.split_at(end);
        rest = r;
        (!f.is_empty()).then_some(f)
    };
    let proto = field()?;
    let secs = field()?.parse::<f64>().ok()?;
    let party = field()?;
    let arrow = field()?;
    if !["dxp", "csa", "citrine"].contains(&proto) || !["->", "<-", "::"].contains(&arrow) {
        return None;
    }
    // One space separates the arrow from the text, which may itself start
    // with spaces (a DXP chat).
    let text = rest.strip_prefix(' ').unwrap_or(rest);
    Some(Record {
        proto,
        secs,
        party,
        arrow,
        text,
    })
}

/// The bytes [`show`] wrote as `text`; `None` at an escape it never writes.
pub fn unshow(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next()? {
            b'0' => out.push(0),
            b'\\' => out.push(b'\\'),
            b'x' => {
                let hex = [bytes.next()?, bytes.next()?];
                let hex = core::str::from_utf8(&hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn show_escapes() {
        assert_eq!(show(b"E00\0M\x01\\"), "E00\\0M\\x01\\\\");
    }

    #[test]
    fn transcript_lines_read_back() {
        let r = parse_line("csa       0.001  b         <- +1918KY,T0").unwrap();
        assert_eq!(
            (r.proto, r.secs, r.party, r.arrow, r.text),
            ("csa", 0.001, "b", "<-", "+1918KY,T0")
        );
        let r = parse_line("dxp    1234.500  follower#12 :: game over").unwrap();
        assert_eq!(
            (r.party, r.arrow, r.text),
            ("follower#12", "::", "game over")
        );
        assert_eq!(parse_line("listening on 127.0.0.1:4081"), None);
        assert_eq!(parse_line("csa 0.1 b => x"), None);
        assert_eq!(parse_line(""), None);
        for bytes in [&b"E00\0M\x01\\\xff"[..], b"", b"\\\\x"] {
            assert_eq!(unshow(&show(bytes)).as_deref(), Some(bytes));
        }
        assert_eq!(unshow("a\\q"), None);
        assert_eq!(unshow("a\\x4"), None);
    }

    #[test]
    fn lines_and_counters() {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let mut t = Transcript::new("dxp", "initiator", Sink::Buffer(buf.clone()));
        t.sent(12, "M0000322800");
        t.received(4, "E00");
        t.note("game over");
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("dxp "), "{text}");
        assert!(lines[0].ends_with("initiator -> M0000322800"), "{text}");
        assert!(lines[1].ends_with("initiator <- E00"), "{text}");
        assert!(lines[2].ends_with("initiator :: game over"), "{text}");
        assert_eq!((t.bytes_sent, t.bytes_received), (12, 4));
        assert_eq!((t.messages_sent, t.messages_received), (1, 1));
    }
}
