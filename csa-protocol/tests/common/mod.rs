//! The recorded shogi-server conversation (`boardwire_vectors::data`),
//! read with the one capture parser (`boardwire_vectors::capture`).
#![allow(dead_code)]

use boardwire_vectors::capture::{self, Escapes, Payload, Record};

/// The recorded transcript.
pub const TRANSCRIPT: &str = boardwire_vectors::data::CSA_SHOGI_SERVER;

/// Direction of a transcript line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// `>>`: the client sent it.
    Sent,
    /// `<<`: the client received it.
    Received,
}

/// The records of the transcript with their source line.
pub fn records() -> Vec<(&'static str, Record<'static>)> {
    TRANSCRIPT
        .lines()
        .filter_map(|raw| {
            let r = capture::parse_record(raw, Escapes::Raw)?;
            Some((
                raw,
                r.expect("every record of the recorded transcript parses"),
            ))
        })
        .collect()
}

/// A line as one frame: a `b'...\r\n'` literal without its line ending.
pub fn frame(bytes: &[u8]) -> Vec<u8> {
    let b = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    b.strip_suffix(b"\r").unwrap_or(b).to_vec()
}

/// `(who, dir, line)` for every `>>`/`<<` line that holds a line (end of
/// stream markers and notes left out); a line the recorder shortened
/// (`first80...<N chars total>`) is kept as the file shows it.
pub fn lines() -> Vec<(String, Dir, Vec<u8>)> {
    let mut out = Vec::new();
    for (_, r) in records() {
        let dir = match r.arrow {
            ">>" => Dir::Sent,
            "<<" => Dir::Received,
            _ => continue,
        };
        let bytes = match &r.payload {
            Payload::Bytes(b) => frame(b),
            Payload::Shortened { head, total } => {
                let mut v = head.clone();
                v.extend_from_slice(format!("...<{total} chars total>").as_bytes());
                v
            }
            _ => continue,
        };
        out.push((r.who.to_string(), dir, bytes));
    }
    out
}

/// Rebuilds a line the recorder shortened by repeating its last byte up to
/// its total length (the shortened lines are runs of one character).
pub fn unshorten(head: &[u8], total: usize) -> Vec<u8> {
    let mut v = head.to_vec();
    let last = *head.last().expect("a shortened line has a head");
    v.resize(total.max(head.len()), last);
    v
}
