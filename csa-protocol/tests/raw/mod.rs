//! A CSA `Server` and raw connections, the clock passed in: the lines each
//! connection received and whether the server closed it. The harness of
//! `hostile.rs` and `shogi_server_replies.rs`.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::time::Duration;

use csa_protocol::session::{ConnId, Server, ServerConfig, ServerEvent};

/// A server and raw connections.
pub struct Raw {
    /// The server, started at 0 s (unix time 1 795 964 195).
    pub server: Server<Duration>,
    /// The lines each connection received and not yet taken, without
    /// their LF.
    pub got: BTreeMap<u64, Vec<Vec<u8>>>,
    /// Whether the server closed each connection.
    pub closed: BTreeMap<u64, bool>,
    /// The clock.
    pub now: Duration,
    /// The server's events not yet taken.
    pub events: Vec<ServerEvent>,
}

impl Raw {
    /// A server with `config`, no connection.
    pub fn new(config: ServerConfig) -> Raw {
        Raw {
            server: Server::new(config, Duration::ZERO, 1_795_964_195),
            got: BTreeMap::new(),
            closed: BTreeMap::new(),
            now: Duration::ZERO,
            events: Vec::new(),
        }
    }

    /// Connection `id` is opened.
    pub fn connect(&mut self, id: u64) {
        self.server.handle_connect(ConnId(id), self.now);
        self.got.insert(id, Vec::new());
        self.closed.insert(id, false);
    }

    /// `bytes` arrive on `id` as they are; then [`pump`](Self::pump).
    pub fn send(&mut self, id: u64, bytes: &[u8]) {
        self.server.handle_input(ConnId(id), bytes, self.now);
        self.pump();
    }

    /// `line` (bytes, LF added) arrives on `id`, connecting first if
    /// needed.
    pub fn bytes(&mut self, id: u64, line: &[u8]) {
        if !self.got.contains_key(&id) {
            self.connect(id);
        }
        let mut b = line.to_vec();
        b.push(b'\n');
        self.send(id, &b);
    }

    /// `line` (LF added) arrives on `id`, connecting first if needed.
    pub fn line(&mut self, id: u64, line: &str) {
        self.bytes(id, line.as_bytes());
    }

    /// The clock moves to `t`: the server's timeouts, then
    /// [`pump`](Self::pump).
    pub fn at(&mut self, t: Duration) {
        self.now = t;
        self.server.handle_timeout(t);
        self.pump();
    }

    /// Collects what the server wrote (lines, closes) and its events.
    pub fn pump(&mut self) {
        while let Some((c, t)) = self.server.poll_transmit() {
            let v = self.got.entry(c.0).or_default();
            let bytes = t.as_bytes();
            let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
            if !bytes.is_empty() {
                v.extend(body.split(|&b| b == b'\n').map(<[u8]>::to_vec));
            }
            if t.closes() {
                self.closed.insert(c.0, true);
            }
        }
        while let Some(e) = self.server.poll_event() {
            self.events.push(e);
        }
    }

    /// What `id` received since the last call, as text.
    pub fn take(&mut self, id: u64) -> Vec<String> {
        self.take_bytes(id)
            .into_iter()
            .map(|l| String::from_utf8(l).unwrap())
            .collect()
    }

    /// What `id` received since the last call, as bytes.
    pub fn take_bytes(&mut self, id: u64) -> Vec<Vec<u8>> {
        std::mem::take(self.got.get_mut(&id).unwrap())
    }

    /// The logged-in players on 1 (Black) and 2 (White) ask for `game` and
    /// agree; returns the game id of the `START:` line 1 received (which
    /// must come). What both received is taken.
    pub fn agree(&mut self, game: &str) -> String {
        self.line(1, &format!("%%GAME {game} +"));
        self.line(2, &format!("%%GAME {game} -"));
        self.line(1, "AGREE");
        self.line(2, "AGREE");
        let got = self.take(1);
        self.take(2);
        let start = got.iter().find_map(|l| l.strip_prefix("START:"));
        start.unwrap_or_else(|| panic!("{got:?}")).to_string()
    }

    /// Sends `line` on `id` and returns what `id` received.
    pub fn ask(&mut self, id: u64, line: &str) -> Vec<String> {
        self.line(id, line);
        self.take(id)
    }
}
