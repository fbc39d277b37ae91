//! TCP drivers (feature `tokio`): the only code of the crate that owns a
//! socket.
//!
//! - [`serve`]: runs a [`Server`] session on a `TcpListener`; one task owns
//!   the session, each connection has a reader and a writer task.
//! - [`connect`]: runs a [`Client`] session on a `TcpStream` with a callback
//!   that sees every line sent and received (decoded) and every event, and
//!   may command the session (play, resign, log out).
//!
//! Both enforce [`Limits`]: a line cap, an output queue cap per connection
//! and a global output budget, a maximum number of connections, a login
//! timeout, a back-off after accept errors, and a limit on consecutive
//! malformed or unrecognised lines.

use std::collections::HashMap;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use std::vec;
use std::vec::Vec;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

use crate::decode::decode;
use crate::framer::{Framer, Status};
use crate::message::{ClientMessage, ServerMessage};
use crate::session::{
    Client, ClientConfig, ClientState, ConnId, Event, Server, ServerConfig, ServerEvent,
};

/// Resource bounds of the drivers. Every field has a documented default
/// ([`Limits::default`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Longest line in bytes, terminator excluded (default 8192,
    /// [`crate::framer::DEFAULT_MAX_LEN`]). Overrides the sessions'
    /// `max_line_len`.
    pub max_line_len: usize,
    /// Bytes that may wait to be written to one connection (default
    /// 1 MiB); a peer that reads slower than that is disconnected.
    pub output_queue_cap: usize,
    /// Bytes that may wait to be written to all connections together
    /// (default 64 MiB); past it, the connection being written to is
    /// disconnected.
    pub global_output_budget: usize,
    /// Open connections at most (default 1024); a connection beyond is
    /// closed at once, unanswered.
    pub max_connections: usize,
    /// Time from accept to a successful `LOGIN` (default 60 s); then the
    /// connection is closed. For [`connect`]: the time the server may take
    /// to answer `LOGIN`.
    pub login_timeout: Duration,
    /// Pause after a failed `accept` (default 100 ms: out of file
    /// descriptors, for instance), so that the loop does not spin.
    pub accept_backoff: Duration,
    /// Consecutive malformed, unrecognised or over-long lines from a peer
    /// after which it is disconnected (default 16; 0 = no limit).
    pub max_bad_lines: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_line_len: crate::framer::DEFAULT_MAX_LEN,
            output_queue_cap: 1 << 20,
            global_output_budget: 64 << 20,
            max_connections: 1024,
            login_timeout: Duration::from_secs(60),
            accept_backoff: Duration::from_millis(100),
            max_bad_lines: 16,
        }
    }
}

enum Input {
    Accepted(TcpStream),
    Data(ConnId, Vec<u8>),
    Closed(ConnId),
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

struct Writer {
    tx: mpsc::UnboundedSender<Option<Vec<u8>>>,
    queued: Arc<AtomicUsize>,
    login_deadline: Option<Instant>,
}

/// Runs a CSA server on `listener` until the listener is closed; every
/// [`ServerEvent`] goes to `on_event`.
///
/// # Errors
/// None today: accept errors are retried after [`Limits::accept_backoff`].
pub async fn serve(
    listener: TcpListener,
    mut config: ServerConfig,
    limits: Limits,
    mut on_event: impl FnMut(ServerEvent) + Send,
) -> io::Result<()> {
    config.max_line_len = limits.max_line_len;
    let (tx, mut rx) = mpsc::unbounded_channel::<Input>();
    let accept_tx = tx.clone();
    let backoff = limits.accept_backoff;
    let acceptor = tokio::spawn(async move {
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    let _ = stream.set_nodelay(true);
                    if accept_tx.send(Input::Accepted(stream)).is_err() {
                        return;
                    }
                }
                Err(_) => tokio::time::sleep(backoff).await,
            }
        }
    });
    let mut server = Server::new(config, Instant::now(), unix_now());
    let mut writers: HashMap<ConnId, Writer> = HashMap::new();
    let total = Arc::new(AtomicUsize::new(0));
    let mut next_id = 1u64;
    loop {
        let login_deadline = writers.values().filter_map(|w| w.login_deadline).min();
        let deadline = match (server.poll_timeout(), login_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let input = match deadline {
            Some(d) => {
                tokio::select! {
                    i = rx.recv() => i,
                    () = tokio::time::sleep_until(tokio::time::Instant::from_std(d)) => {
                        let now = Instant::now();
                        server.handle_timeout(now);
                        let late: Vec<ConnId> = writers
                            .iter()
                            .filter(|(_, w)| w.login_deadline.is_some_and(|t| t <= now))
                            .map(|(id, _)| *id)
                            .collect();
                        for id in late {
                            drop_conn(&mut server, &mut writers, id, now);
                        }
                        flush(&mut server, &mut writers, &limits, &total, &mut on_event);
                        continue;
                    }
                }
            }
            None => rx.recv().await,
        };
        let Some(input) = input else { break };
        let now = Instant::now();
        match input {
            Input::Accepted(stream) => {
                if writers.len() >= limits.max_connections {
                    drop(stream);
                    continue;
                }
                let id = ConnId(next_id);
                next_id += 1;
                server.handle_connect(id, now);
                let (mut read, mut write) = stream.into_split();
                let (wtx, mut wrx) = mpsc::unbounded_channel::<Option<Vec<u8>>>();
                let queued = Arc::new(AtomicUsize::new(0));
                writers.insert(
                    id,
                    Writer {
                        tx: wtx,
                        queued: queued.clone(),
                        login_deadline: Some(now + limits.login_timeout),
                    },
                );
                let rtx = tx.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 4096];
                    loop {
                        match read.read(&mut buf).await {
                            Ok(0) | Err(_) => {
                                let _ = rtx.send(Input::Closed(id));
                                return;
                            }
                            Ok(n) => {
                                if rtx.send(Input::Data(id, buf[..n].to_vec())).is_err() {
                                    return;
                                }
                            }
                        }
                    }
                });
                let total = total.clone();
                tokio::spawn(async move {
                    while let Some(msg) = wrx.recv().await {
                        match msg {
                            Some(bytes) => {
                                let ok = write.write_all(&bytes).await.is_ok();
                                queued.fetch_sub(bytes.len(), Ordering::Relaxed);
                                total.fetch_sub(bytes.len(), Ordering::Relaxed);
                                if !ok {
                                    break;
                                }
                            }
                            None => {
                                let _ = write.shutdown().await;
                                break;
                            }
                        }
                    }
                    // Whatever is left was never written.
                    while let Ok(Some(bytes)) = wrx.try_recv() {
                        queued.fetch_sub(bytes.len(), Ordering::Relaxed);
                        total.fetch_sub(bytes.len(), Ordering::Relaxed);
                    }
                });
            }
            Input::Data(id, bytes) => {
                server.handle_input(id, &bytes, now);
                if let Some(w) = writers.get_mut(&id)
                    && server.is_logged_in(id)
                {
                    w.login_deadline = None;
                }
                if limits.max_bad_lines > 0 && server.bad_line_streak(id) >= limits.max_bad_lines {
                    // The answers first, then the close.
                    flush(&mut server, &mut writers, &limits, &total, &mut on_event);
                    drop_conn(&mut server, &mut writers, id, now);
                }
            }
            Input::Closed(id) => {
                server.handle_close(id, now);
                writers.remove(&id);
            }
        }
        flush(&mut server, &mut writers, &limits, &total, &mut on_event);
    }
    acceptor.abort();
    Ok(())
}

/// Closes a connection the driver gives up on (the session learns it as a
/// close).
fn drop_conn(
    server: &mut Server<Instant>,
    writers: &mut HashMap<ConnId, Writer>,
    id: ConnId,
    now: Instant,
) {
    if let Some(w) = writers.remove(&id) {
        let _ = w.tx.send(None);
    }
    server.handle_close(id, now);
}

fn flush(
    server: &mut Server<Instant>,
    writers: &mut HashMap<ConnId, Writer>,
    limits: &Limits,
    total: &AtomicUsize,
    on_event: &mut impl FnMut(ServerEvent),
) {
    let mut over: Vec<ConnId> = Vec::new();
    while let Some((conn, t)) = server.poll_transmit() {
        let close = t.close_after();
        if let Some(w) = writers.get(&conn) {
            let n = t.as_bytes().len();
            if n > 0 {
                let q = w.queued.fetch_add(n, Ordering::Relaxed) + n;
                let all = total.fetch_add(n, Ordering::Relaxed) + n;
                if q > limits.output_queue_cap || all > limits.global_output_budget {
                    over.push(conn);
                }
                let _ = w.tx.send(Some(t.into_bytes()));
            }
            if close && let Some(w) = writers.remove(&conn) {
                let _ = w.tx.send(None);
            }
        }
    }
    let now = Instant::now();
    for id in over {
        drop_conn(server, writers, id, now);
    }
    while let Some(e) = server.poll_event() {
        on_event(e);
    }
    // Closing may have produced more output (results for the opponent).
    if server.has_transmit() {
        flush(server, writers, limits, total, on_event);
    }
}

/// What [`connect`]'s callback sees, in wire order.
#[derive(Debug)]
#[non_exhaustive]
pub enum Activity<'a> {
    /// A line we sent (decoded from the session's transmit; its byte count
    /// with the terminator).
    Sent(&'a ClientMessage<'a>, usize),
    /// A line we received, decoded (its byte count with the terminator).
    Received(&'a ServerMessage<'a>, usize),
    /// A line we received that does not decode: the error and its bytes.
    Malformed(&'a crate::error::DecodeError, &'a [u8]),
    /// A received line over [`Limits::max_line_len`] (skipped): bytes seen.
    Overlong(usize),
    /// A session event (after the line that caused it).
    Event(&'a Event),
    /// The server closed the connection; the bytes of an unfinished line.
    Closed(&'a [u8]),
}

/// Why [`connect`] stopped early.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// The server sent nothing for the `silence` time given to
    /// [`connect`], or did not answer `LOGIN` within
    /// [`Limits::login_timeout`].
    #[error("no line from the server for {} s", .0.as_secs())]
    Silent(Duration),
    /// More consecutive bad lines than [`Limits::max_bad_lines`].
    #[error("{0} malformed or unrecognised lines in a row from the server")]
    BadLines(u32),
    /// Reading or writing the socket failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Runs a [`Client`] session on `stream` until the server closes the
/// connection (CSA mode: after the game; x1 mode: call
/// [`Client::logout`] from the callback to finish).
///
/// `on_activity` sees every line sent and received (decoded) and every
/// event, in order, with the session so that it can act: play a move on
/// [`Event::OurTurn`], agree on [`Event::GameSummary`], log out after
/// [`Event::GameEnded`]. `silence`: the longest the server may stay
/// silent (waiting for an opponent and the opponent's thinking time count),
/// `None` for no limit. Returns the session at the end.
///
/// # Errors
/// [`ConnectError`]: silence, too many bad lines, I/O.
pub async fn connect(
    stream: TcpStream,
    mut config: ClientConfig,
    limits: Limits,
    silence: Option<Duration>,
    mut on_activity: impl FnMut(&mut Client<Instant>, Activity<'_>),
) -> Result<Client<Instant>, ConnectError> {
    let _ = stream.set_nodelay(true);
    config.max_line_len = limits.max_line_len;
    config.reply_timeout = config.reply_timeout.min(limits.login_timeout);
    let (mut read, mut write) = stream.into_split();
    let mut client = Client::new(config, Instant::now());
    let mut framer = Framer::new(limits.max_line_len);
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 8192];
    let mut bad = 0u32;
    let mut last_heard = Instant::now();
    loop {
        // 1. transmit, 2. events (which may queue more to transmit).
        loop {
            let mut busy = false;
            while let Some(t) = client.poll_transmit() {
                busy = true;
                for line in t.as_bytes().split_inclusive(|&b| b == b'\n') {
                    let body = line.strip_suffix(b"\n").unwrap_or(line);
                    if let Ok(m) = decode::<ClientMessage>(body) {
                        on_activity(&mut client, Activity::Sent(&m, line.len()));
                    }
                }
                write.write_all(t.as_bytes()).await?;
            }
            while let Some(e) = client.poll_event() {
                busy = true;
                if let Event::PeerSilent { .. } = e
                    && client.state() == ClientState::Login
                {
                    on_activity(&mut client, Activity::Event(&e));
                    return Err(ConnectError::Silent(limits.login_timeout));
                }
                on_activity(&mut client, Activity::Event(&e));
            }
            if !busy {
                break;
            }
        }
        let timer = client.poll_timeout();
        let quiet = silence.map(|s| last_heard + s);
        let wake = match (timer, quiet) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let n = match wake {
            Some(d) => {
                tokio::select! {
                    r = read.read(&mut chunk) => r?,
                    () = tokio::time::sleep_until(tokio::time::Instant::from_std(d)) => {
                        let now = Instant::now();
                        if quiet.is_some_and(|q| now >= q) {
                            return Err(ConnectError::Silent(silence.unwrap_or_default()));
                        }
                        client.handle_timeout(now);
                        continue;
                    }
                }
            }
            None => read.read(&mut chunk).await?,
        };
        let now = Instant::now();
        if n == 0 {
            on_activity(&mut client, Activity::Closed(&buf));
            client.handle_close(now);
            while let Some(e) = client.poll_event() {
                on_activity(&mut client, Activity::Event(&e));
            }
            return Ok(client);
        }
        last_heard = now;
        buf.extend_from_slice(&chunk[..n]);
        let mut head = 0;
        loop {
            match framer.decode(&buf[head..]) {
                Status::Complete { frame, consumed } => {
                    match decode::<ServerMessage>(frame) {
                        Ok(m) => {
                            bad = match m {
                                ServerMessage::Unrecognised(_) => bad + 1,
                                _ => 0,
                            };
                            on_activity(&mut client, Activity::Received(&m, consumed));
                            client.handle_message(&m, now);
                        }
                        Err(e) => {
                            bad += 1;
                            on_activity(&mut client, Activity::Malformed(&e, frame));
                            client.handle_input(&buf[head..head + consumed], now);
                        }
                    }
                    head += consumed;
                    // Events of this line before the next line is shown.
                    while let Some(e) = client.poll_event() {
                        on_activity(&mut client, Activity::Event(&e));
                    }
                    while let Some(t) = client.poll_transmit() {
                        for line in t.as_bytes().split_inclusive(|&b| b == b'\n') {
                            let body = line.strip_suffix(b"\n").unwrap_or(line);
                            if let Ok(m) = decode::<ClientMessage>(body) {
                                on_activity(&mut client, Activity::Sent(&m, line.len()));
                            }
                        }
                        write.write_all(t.as_bytes()).await?;
                    }
                }
                Status::Overlong { len, consumed } => {
                    bad += 1;
                    on_activity(&mut client, Activity::Overlong(len));
                    head += consumed;
                }
                Status::Partial { consumed } => {
                    head += consumed;
                    if consumed == 0 {
                        break;
                    }
                }
            }
            if limits.max_bad_lines > 0 && bad >= limits.max_bad_lines {
                return Err(ConnectError::BadLines(bad));
            }
        }
        buf.drain(..head);
    }
}
