//! Reading the recorded DXP transcripts in `tests/data/`.
#![allow(dead_code)]

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

pub const SCAN_TRANSCRIPT: &str = include_str!("../data/dxp-scan-follower.txt");

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
        let Some(rest) = line.strip_prefix('[') else {
            continue;
        };
        let (time, rest) = rest.split_once(']').expect("timestamp");
        let time: f64 = time.trim().parse().expect("time");
        let rest = rest.trim_start();
        let (dir, payload) = rest.split_once(' ').expect("direction");
        let dir = match dir {
            "C->S" | "I->F" | "client->scan" => Dir::Initiator,
            "S->C" | "F->I" | "scan->client" => Dir::Follower,
            other => panic!("unknown direction {other}"),
        };
        let conv = out.last_mut().expect("a line before any conversation");
        if payload.starts_with("<EOF") {
            if dir == Dir::Follower {
                conv.follower_closed = true;
            }
            continue;
        }
        conv.chunks.push(Chunk {
            dir,
            time,
            bytes: payload.replace("\\0", "\0").into_bytes(),
        });
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
