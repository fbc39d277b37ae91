//! The recorded DXP transcripts (`boardwire_vectors::data::DXP_SCAN_FOLLOWER`)
//! as conversations, read with the one capture parser
//! (`boardwire_vectors::capture`).
#![allow(dead_code)]

use boardwire_vectors::capture::{self, Escapes, Payload};

/// Who sent a recorded chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// The side that connected and sent GAMEREQ (test client, pydraughts, or Scan as initiator).
    Initiator,
    /// The side that accepted (Scan as follower, or the recording's listener).
    Follower,
}

/// One `recv()` chunk as recorded: direction, time in seconds, raw bytes
/// (with real NULs).
#[derive(Clone, Debug)]
pub struct Chunk {
    pub dir: Dir,
    pub time: f64,
    pub bytes: Vec<u8>,
}

/// One recorded connection: its header comment and its chunks.
#[derive(Clone, Debug)]
pub struct Conversation {
    pub title: String,
    pub chunks: Vec<Chunk>,
    /// The follower closed the connection (`<EOF: connection closed by peer>`).
    pub follower_closed: bool,
    /// The moves as the recording's own comment lists them ("moves: 32-27
    /// 19-23 ..."), when it does.
    pub moves: Vec<String>,
}

pub const SCAN_TRANSCRIPT: &str = boardwire_vectors::data::DXP_SCAN_FOLLOWER;

/// Splits the transcript into conversations. A conversation starts at a
/// comment that opens a connection ("connected to", "listening on", "proxy
/// ... ->"), and holds the timestamped lines up to the next one.
pub fn conversations(text: &str) -> Vec<Conversation> {
    let mut out: Vec<Conversation> = Vec::new();
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix("# ") {
            if let (Some(conv), Some((_, moves))) = (out.last_mut(), comment.split_once("moves: "))
                && !comment.contains(": connected to")
                && !comment.starts_with("  |")
            {
                conv.moves = moves.split_whitespace().map(str::to_string).collect();
            }
            let opens = comment.contains(": connected to")
                || comment.contains(": listening on")
                || comment.contains(": proxy 127.0.0.1");
            if opens {
                out.push(Conversation {
                    title: comment.to_string(),
                    chunks: Vec::new(),
                    follower_closed: false,
                    moves: Vec::new(),
                });
            }
            continue;
        }
        let record = match capture::parse_record(line, Escapes::Backslash) {
            None => continue,
            Some(r) => r.unwrap_or_else(|e| panic!("capture line {line:?}: {e}")),
        };
        let dir = match record.who {
            "C->S" | "I->F" | "client->scan" => Dir::Initiator,
            "S->C" | "F->I" | "scan->client" => Dir::Follower,
            other => panic!("unknown direction {other}"),
        };
        let conv = out.last_mut().expect("a line before any conversation");
        match record.payload {
            Payload::Eof(_) => {
                if dir == Dir::Follower {
                    conv.follower_closed = true;
                }
            }
            Payload::Bytes(bytes) => conv.chunks.push(Chunk {
                dir,
                time: record.secs,
                bytes,
            }),
            other => panic!("unexpected payload {other:?}"),
        }
    }
    out
}

/// Every message of a chunk (the text between NULs), without the NULs.
pub fn messages(chunk: &Chunk) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = chunk.bytes.split(|&b| b == 0).collect();
    assert_eq!(
        v.pop(),
        Some(&b""[..]),
        "chunk not NUL-terminated: {chunk:?}"
    );
    v
}

/// A receiving side: a [`Framer`] over its own buffer, fed recorded chunks.
pub struct Stream {
    framer: damexchange::Framer,
    buf: Vec<u8>,
}

impl Stream {
    pub fn new() -> Stream {
        Stream {
            framer: damexchange::Framer::default(),
            buf: Vec::new(),
        }
    }

    /// The frames completed by `bytes`; `Err(len)` for an over-long one.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Result<Vec<u8>, usize>> {
        use damexchange::framer::Status;
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        loop {
            let consumed = match self.framer.decode(&self.buf) {
                Status::Complete { frame, consumed } => {
                    out.push(Ok(frame.to_vec()));
                    consumed
                }
                Status::Partial { consumed } => consumed,
                Status::Overlong { len, consumed } => {
                    out.push(Err(len));
                    consumed
                }
            };
            self.buf.drain(..consumed);
            if consumed == 0 {
                return out;
            }
        }
    }

    /// Bytes of an unfinished frame.
    pub fn rest(&self) -> &[u8] {
        &self.buf
    }
}

/// The text of a session's transmit without its NUL (what a transcript
/// shows), for assertions.
pub trait WireText {
    /// The message bytes, NUL stripped.
    fn message_bytes(&self) -> &[u8];
    /// The same as text (DXP frames are 7-bit ASCII).
    fn as_str(&self) -> &str {
        std::str::from_utf8(self.message_bytes()).expect("DXP frames are ASCII")
    }
}

impl WireText for damexchange::session::Transmit {
    fn message_bytes(&self) -> &[u8] {
        let b = self.as_bytes();
        b.strip_suffix(b"\0").unwrap_or(b)
    }
}
