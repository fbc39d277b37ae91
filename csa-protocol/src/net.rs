//! TCP drivers (feature `tokio`): the only code of the crate that owns a
//! socket.
//!
//! - [`serve`]: runs a [`Server`] session on a `TcpListener`; one task owns
//!   the session, each connection has a reader and a writer task.
//!   [`serve_with_records`] also writes every game's record to a file.
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
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use std::vec;
use std::vec::Vec;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, mpsc};

use crate::decode::decode;
use crate::framer::{Framer, Status};
use crate::message::{ClientMessage, ServerMessage};
use crate::session::{
    Awaited, Client, ClientConfig, ConnId, Event, Server, ServerConfig, ServerEvent,
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
    /// 128 KiB: 200 peers that never read hold at most 25 MiB); a
    /// connection past it is closed at once (a player in a game loses by
    /// disconnect). Monitor output and chat count like everything else.
    pub output_queue_cap: usize,
    /// Bytes that may wait to be written to all connections together
    /// (default 48 MiB); past it, the connections with the largest queues
    /// are closed first until the total is under it again.
    pub output_budget: usize,
    /// A write to a connection that makes no progress for this long closes
    /// it (default 20 s, shogi-server's writer timeout).
    pub send_timeout: Duration,
    /// Open connections at most (default 10,000); a connection beyond is
    /// answered `##[ERROR] too many connections` (when its socket takes
    /// the line at once) and closed.
    pub max_connections: usize,
    /// [`serve`]: time from accept to a successful `LOGIN` (default 300 s,
    /// shogi-server's); overrides [`ServerConfig::login_timeout`]. Not
    /// used by [`connect`] (its `silence` bounds the `LOGIN` reply).
    pub login_timeout: Duration,
    /// First pause after a failed `accept` (default 10 ms: out of file
    /// descriptors, for instance); it doubles with every failure in a row
    /// up to [`Limits::accept_backoff_max`]. The listener is kept.
    pub accept_backoff: Duration,
    /// Longest pause after failed accepts (default 250 ms).
    pub accept_backoff_max: Duration,
    /// Consecutive malformed, unrecognised or over-long lines from a peer
    /// after which it is disconnected (default 16; 0 = no limit).
    pub max_bad_lines: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_line_len: crate::framer::DEFAULT_MAX_LEN,
            output_queue_cap: 128 << 10,
            output_budget: 48 << 20,
            send_timeout: Duration::from_secs(20),
            max_connections: 10_000,
            login_timeout: Duration::from_secs(300),
            accept_backoff: Duration::from_millis(10),
            accept_backoff_max: Duration::from_millis(250),
            max_bad_lines: 16,
        }
    }
}

/// What [`serve`] reports beside the session's [`ServerEvent`]s.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeEvent {
    /// From the session.
    Server(ServerEvent),
    /// `accept` failed (once per burst of failures: the next report comes
    /// only after an accept succeeded); the listener is kept and accepting
    /// resumes after the back-off.
    AcceptFailed(io::Error),
    /// A connection was closed by the driver.
    Dropped {
        /// The connection.
        conn: ConnId,
        /// Why.
        reason: DropReason,
    },
    /// [`serve_with_records`] wrote a game's record (in place of the
    /// session's [`ServerEvent::Record`]).
    RecordWritten {
        /// The Game_ID.
        game_id: String,
        /// The file written.
        path: PathBuf,
    },
    /// [`serve_with_records`] could not write a game's record; the server
    /// goes on.
    RecordFailed {
        /// The Game_ID.
        game_id: String,
        /// The file it tried.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

/// Why [`serve`] closed a connection itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DropReason {
    /// More than [`Limits::max_connections`] were open.
    TooManyConnections,
    /// Its queued output passed [`Limits::output_queue_cap`].
    OutputQueueFull,
    /// The total queued output passed [`Limits::output_budget`] and
    /// its queue was among the largest.
    OutputBudget,
    /// More than [`Limits::max_bad_lines`] bad lines in a row.
    BadLines,
}

impl core::fmt::Display for ServeEvent {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ServeEvent::Server(e) => e.fmt(f),
            ServeEvent::AcceptFailed(e) => {
                write!(f, "accept failed: {e} (retrying with back-off)")
            }
            ServeEvent::Dropped { conn, reason } => {
                let why = match reason {
                    DropReason::TooManyConnections => "too many connections",
                    DropReason::OutputQueueFull => "its output queue is full (not reading)",
                    DropReason::OutputBudget => "the global output budget is exceeded",
                    DropReason::BadLines => "too many bad lines",
                };
                write!(f, "connection {} closed: {why}", conn.0)
            }
            ServeEvent::RecordWritten { game_id, path } => {
                write!(f, "record of game {game_id} written to {}", path.display())
            }
            ServeEvent::RecordFailed {
                game_id,
                path,
                error,
            } => write!(
                f,
                "cannot write the record of game {game_id} to {}: {error}",
                path.display()
            ),
        }
    }
}

enum Input {
    Accepted(TcpStream),
    AcceptFailed(io::Error),
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
    kill: Arc<Notify>,
    reader: tokio::task::JoinHandle<()>,
    /// Chunks read and not yet handled.
    inflight: Arc<AtomicUsize>,
    /// Wakes the reader (output written, input handled).
    drained: Arc<Notify>,
}

impl Writer {
    /// Stops both tasks now: queued output is discarded.
    fn kill(self) {
        self.kill.notify_one();
        let _ = self.tx.send(None);
        self.reader.abort();
    }

    /// Writes what is queued (within the send timeout), then closes.
    fn close(self) {
        let _ = self.tx.send(None);
        self.reader.abort();
    }
}

/// Messages from the connection tasks that may wait at once; a peer that
/// sends faster than the server handles it is slowed down by TCP.
const INPUT_QUEUE: usize = 256;

/// Runs a CSA server on `listener` until the task is dropped; every
/// [`ServeEvent`] goes to `on_event`.
///
/// Enforces [`Limits`]: accept errors never end it (back-off, listener
/// kept); a connection past [`Limits::max_connections`] is refused; the
/// output of every connection is capped and the total budgeted; a write
/// without progress for [`Limits::send_timeout`] closes the connection;
/// the login timeout; the bad-line limit.
///
/// # Errors
/// None today (the signature leaves room for setup errors).
pub async fn serve(
    listener: TcpListener,
    config: ServerConfig,
    limits: Limits,
    on_event: impl FnMut(ServeEvent) + Send,
) -> io::Result<()> {
    serve_inner(listener, config, limits, on_event).await
}

/// [`serve`], writing the record of every game (shogi-server's CSA V2 file,
/// [`crate::session::GameRecord`]) to `<dir>/YYYY/MM/DD/<game id>.csa`
/// (directories made as needed; an existing file is replaced) when the
/// game ends or is dropped before it started. Turns on
/// [`ServerConfig::records`]; each file is reported as
/// [`ServeEvent::RecordWritten`] or [`ServeEvent::RecordFailed`] (the
/// server goes on). The file is written by the server task itself (a few
/// kilobytes, once per game).
///
/// # Errors
/// As [`serve`].
pub async fn serve_with_records(
    listener: TcpListener,
    mut config: ServerConfig,
    limits: Limits,
    dir: PathBuf,
    mut on_event: impl FnMut(ServeEvent) + Send,
) -> io::Result<()> {
    config.records = true;
    let on_event = move |e: ServeEvent| match e {
        ServeEvent::Server(ServerEvent::Record(r)) => {
            let mut path = dir.clone();
            path.extend(r.path.split('/'));
            match write_record_file(&path, &r.text) {
                Ok(()) => on_event(ServeEvent::RecordWritten {
                    game_id: r.game_id,
                    path,
                }),
                Err(error) => on_event(ServeEvent::RecordFailed {
                    game_id: r.game_id,
                    path,
                    error,
                }),
            }
        }
        e => on_event(e),
    };
    serve_inner(listener, config, limits, on_event).await
}

fn write_record_file(path: &Path, text: &[u8]) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text)
}

async fn serve_inner(
    listener: TcpListener,
    mut config: ServerConfig,
    limits: Limits,
    mut on_event: impl FnMut(ServeEvent) + Send,
) -> io::Result<()> {
    config.max_line_len = limits.max_line_len;
    config.login_timeout = limits.login_timeout;
    let (tx, mut rx) = mpsc::channel::<Input>(INPUT_QUEUE);
    let accept_tx = tx.clone();
    let acceptor = tokio::spawn(async move {
        let mut backoff: Option<Duration> = None;
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    backoff = None;
                    let _ = stream.set_nodelay(true);
                    if accept_tx.send(Input::Accepted(stream)).await.is_err() {
                        return;
                    }
                }
                Err(e) => {
                    let pause = match backoff {
                        None => {
                            // The first failure of a burst is reported.
                            if accept_tx.send(Input::AcceptFailed(e)).await.is_err() {
                                return;
                            }
                            limits.accept_backoff
                        }
                        Some(d) => (d * 2).min(limits.accept_backoff_max),
                    };
                    backoff = Some(pause);
                    tokio::time::sleep(pause).await;
                }
            }
        }
    });
    let mut server = Server::new(config, Instant::now(), unix_now());
    let mut writers: HashMap<ConnId, Writer> = HashMap::new();
    let total = Arc::new(AtomicUsize::new(0));
    let mut next_id = 1u64;
    loop {
        let input = match server.poll_timeout() {
            Some(d) => {
                tokio::select! {
                    i = rx.recv() => i,
                    () = tokio::time::sleep_until(tokio::time::Instant::from_std(d)) => {
                        server.handle_timeout(Instant::now());
                        flush(&mut server, &mut writers, &limits, &total, None, &mut on_event);
                        continue;
                    }
                }
            }
            None => rx.recv().await,
        };
        let Some(input) = input else { break };
        let now = Instant::now();
        match input {
            Input::AcceptFailed(e) => on_event(ServeEvent::AcceptFailed(e)),
            Input::Accepted(stream) => {
                let id = ConnId(next_id);
                next_id += 1;
                if writers.len() >= limits.max_connections {
                    let _ = stream.try_write(b"##[ERROR] too many connections\n");
                    drop(stream);
                    on_event(ServeEvent::Dropped {
                        conn: id,
                        reason: DropReason::TooManyConnections,
                    });
                    continue;
                }
                server.handle_connect(id, now);
                let (read, write) = stream.into_split();
                let (wtx, wrx) = mpsc::unbounded_channel::<Option<Vec<u8>>>();
                let queued = Arc::new(AtomicUsize::new(0));
                let kill = Arc::new(Notify::new());
                let drained = Arc::new(Notify::new());
                let inflight = Arc::new(AtomicUsize::new(0));
                let reader = tokio::spawn(read_task(
                    read,
                    id,
                    tx.clone(),
                    [queued.clone(), inflight.clone()],
                    drained.clone(),
                    limits.output_queue_cap / 2,
                ));
                tokio::spawn(write_task(
                    write,
                    wrx,
                    queued.clone(),
                    total.clone(),
                    kill.clone(),
                    drained.clone(),
                    limits.send_timeout,
                    tx.clone(),
                    id,
                ));
                writers.insert(
                    id,
                    Writer {
                        tx: wtx,
                        queued,
                        kill,
                        reader,
                        inflight,
                        drained,
                    },
                );
            }
            Input::Data(id, bytes) => {
                server.handle_input(id, &bytes, now);
                if limits.max_bad_lines > 0 && server.bad_line_streak(id) >= limits.max_bad_lines {
                    // The answers first, then the close.
                    flush(
                        &mut server,
                        &mut writers,
                        &limits,
                        &total,
                        None,
                        &mut on_event,
                    );
                    if let Some(w) = writers.remove(&id) {
                        w.close();
                        server.handle_close(id, now);
                        on_event(ServeEvent::Dropped {
                            conn: id,
                            reason: DropReason::BadLines,
                        });
                    }
                }
                let congested = flush(
                    &mut server,
                    &mut writers,
                    &limits,
                    &total,
                    Some(id),
                    &mut on_event,
                );
                if let Some(w) = writers.get(&id) {
                    // The sender may send again: at once, or after a pause
                    // when its lines filled other peers' queues past half
                    // their cap (chat, monitors), so that a broadcast does
                    // not outrun the peers that read.
                    let (inflight, drained) = (w.inflight.clone(), w.drained.clone());
                    let release = move || {
                        inflight.fetch_sub(1, Ordering::Relaxed);
                        drained.notify_waiters();
                    };
                    if congested {
                        tokio::spawn(async move {
                            tokio::time::sleep(CONGESTION_PAUSE).await;
                            release();
                        });
                    } else {
                        release();
                    }
                }
                continue;
            }
            Input::Closed(id) => {
                server.handle_close(id, now);
                if let Some(w) = writers.remove(&id) {
                    w.kill();
                }
            }
        }
        flush(
            &mut server,
            &mut writers,
            &limits,
            &total,
            None,
            &mut on_event,
        );
    }
    acceptor.abort();
    Ok(())
}

/// How long a peer is not read after its input filled other peers' queues
/// past half their cap.
const CONGESTION_PAUSE: Duration = Duration::from_millis(50);

/// Chunks of one connection read and not yet handled at most.
const INFLIGHT_CHUNKS: usize = 2;

/// Reads one connection. While more than `pause_above` bytes wait to be
/// written to it, or [`INFLIGHT_CHUNKS`] chunks wait to be handled, it is
/// not read (its own requests would only queue more): a peer that sends
/// faster than it reads is slowed down by TCP instead of hitting its
/// output cap with the answers to its own lines.
async fn read_task(
    mut read: OwnedReadHalf,
    id: ConnId,
    tx: mpsc::Sender<Input>,
    [queued, inflight]: [Arc<AtomicUsize>; 2],
    drained: Arc<Notify>,
    pause_above: usize,
) {
    let mut buf = vec![0u8; 4096];
    loop {
        loop {
            let wake = drained.notified();
            if queued.load(Ordering::Relaxed) <= pause_above
                && inflight.load(Ordering::Relaxed) < INFLIGHT_CHUNKS
            {
                break;
            }
            wake.await;
        }
        inflight.fetch_add(1, Ordering::Relaxed);
        match read.read(&mut buf).await {
            Ok(0) | Err(_) => {
                let _ = tx.send(Input::Closed(id)).await;
                return;
            }
            Ok(n) => {
                if tx.send(Input::Data(id, buf[..n].to_vec())).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Writes what the server queues for one connection; a write without
/// progress for `send_timeout`, a write error or a kill ends it (the
/// connection is then reported closed).
#[allow(clippy::too_many_arguments)]
async fn write_task(
    mut write: OwnedWriteHalf,
    mut wrx: mpsc::UnboundedReceiver<Option<Vec<u8>>>,
    queued: Arc<AtomicUsize>,
    total: Arc<AtomicUsize>,
    kill: Arc<Notify>,
    drained: Arc<Notify>,
    send_timeout: Duration,
    tx: mpsc::Sender<Input>,
    id: ConnId,
) {
    let mut failed = false;
    'outer: loop {
        let msg = tokio::select! {
            biased;
            () = kill.notified() => break,
            m = wrx.recv() => m,
        };
        let Some(Some(bytes)) = msg else {
            let _ = tokio::time::timeout(send_timeout, write.shutdown()).await;
            break;
        };
        let mut off = 0;
        while off < bytes.len() {
            let step = tokio::select! {
                biased;
                () = kill.notified() => None,
                r = tokio::time::timeout(send_timeout, write.write(&bytes[off..])) => Some(r),
            };
            match step {
                Some(Ok(Ok(n))) if n > 0 => off += n,
                // Killed, no progress in time, closed or failed.
                _ => {
                    queued.fetch_sub(bytes.len(), Ordering::Relaxed);
                    total.fetch_sub(bytes.len(), Ordering::Relaxed);
                    failed = true;
                    break 'outer;
                }
            }
        }
        queued.fetch_sub(bytes.len(), Ordering::Relaxed);
        total.fetch_sub(bytes.len(), Ordering::Relaxed);
        drained.notify_waiters();
    }
    // Whatever is left was never written.
    wrx.close();
    while let Ok(Some(bytes)) = wrx.try_recv() {
        queued.fetch_sub(bytes.len(), Ordering::Relaxed);
        total.fetch_sub(bytes.len(), Ordering::Relaxed);
    }
    if failed {
        // The session learns it as a close (ignored if already closed).
        let _ = tx.send(Input::Closed(id)).await;
    }
}

/// Writes the session's output to the connections' queues, closes those
/// over their cap or the budget, passes on the events. `true` when a
/// connection other than `source` was left with more than half its cap
/// queued.
fn flush(
    server: &mut Server<Instant>,
    writers: &mut HashMap<ConnId, Writer>,
    limits: &Limits,
    total: &AtomicUsize,
    source: Option<ConnId>,
    on_event: &mut impl FnMut(ServeEvent),
) -> bool {
    let mut congested = false;
    loop {
        let mut over: Vec<ConnId> = Vec::new();
        while let Some((conn, t)) = server.poll_transmit() {
            let close = t.closes();
            if let Some(w) = writers.get(&conn) {
                let n = t.as_bytes().len();
                if n > 0 {
                    let q = w.queued.fetch_add(n, Ordering::Relaxed) + n;
                    total.fetch_add(n, Ordering::Relaxed);
                    if q > limits.output_queue_cap {
                        over.push(conn);
                    } else if q > limits.output_queue_cap / 2 && source.is_some_and(|s| s != conn) {
                        congested = true;
                    }
                    let _ = w.tx.send(Some(t.into_bytes()));
                }
                if close && let Some(w) = writers.remove(&conn) {
                    w.close();
                }
            }
        }
        let now = Instant::now();
        for id in over {
            if let Some(w) = writers.remove(&id) {
                w.kill();
                server.handle_close(id, now);
                on_event(ServeEvent::Dropped {
                    conn: id,
                    reason: DropReason::OutputQueueFull,
                });
            }
        }
        // The global budget: the largest queues go first.
        let mut all = total.load(Ordering::Relaxed);
        if all > limits.output_budget {
            let mut sizes: Vec<(usize, ConnId)> = writers
                .iter()
                .map(|(id, w)| (w.queued.load(Ordering::Relaxed), *id))
                .collect();
            sizes.sort_unstable_by(|a, b| b.cmp(a));
            for (size, id) in sizes {
                if all <= limits.output_budget {
                    break;
                }
                all = all.saturating_sub(size);
                if let Some(w) = writers.remove(&id) {
                    w.kill();
                    server.handle_close(id, now);
                    on_event(ServeEvent::Dropped {
                        conn: id,
                        reason: DropReason::OutputBudget,
                    });
                }
            }
        }
        while let Some(e) = server.poll_event() {
            on_event(ServeEvent::Server(e));
        }
        // Closing may have produced more output (results for the opponent).
        if !server.has_transmit() {
            return congested;
        }
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
    /// The server owed an answer and sent no complete line with it in
    /// time ([`Event::PeerSilent`]): the `silence` given to [`connect`] (or
    /// [`Limits::login_timeout`] for the `LOGIN` reply), or, in a game, the
    /// opponent's clock plus [`ClientConfig::clock_margin`].
    #[error("the server did not send {0} in time")]
    Silent(Awaited),
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
/// [`Event::GameEnded`]. `silence`: how long the server may take to send a
/// complete line that answers one of ours (the `LOGIN` reply, the
/// confirmation of our move, the `LOGOUT` reply; it replaces
/// [`ClientConfig::reply_timeout`]); `None` keeps the config's. Bytes
/// without a line end do not count: they are cut at
/// [`Limits::max_line_len`], reported once ([`Activity::Overlong`]) and
/// skipped. Waiting for an opponent to be paired is not bounded; waiting
/// for the opponent's move is bounded by its clock
/// ([`ClientConfig::clock_margin`]). Returns the session at the end.
///
/// A player that answers later (an engine in another task) uses
/// [`connect_with`] instead.
///
/// # Errors
/// [`ConnectError`]: silence (any [`Event::PeerSilent`], after the callback
/// saw it), too many bad lines, I/O.
pub async fn connect(
    stream: TcpStream,
    config: ClientConfig,
    limits: Limits,
    silence: Option<Duration>,
    mut on_activity: impl FnMut(&mut Client<Instant>, Activity<'_>),
) -> Result<Client<Instant>, ConnectError> {
    // No sender: the channel is closed from the start and never selected.
    let (_, none) = mpsc::channel::<core::convert::Infallible>(1);
    connect_with(
        stream,
        config,
        limits,
        silence,
        none,
        |client, input| match input {
            ConnectInput::Activity(a) => on_activity(client, a),
            ConnectInput::External(never) => match never {},
        },
    )
    .await
}

/// What [`connect_with`]'s callback sees: the connection's
/// [`Activity`], or a value that arrived on its channel.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConnectInput<'a, M> {
    /// A line sent or received, an event, the close (as [`connect`]).
    Activity(Activity<'a>),
    /// A value from the `external` channel (a move an engine found, a
    /// command from another task): act on it with the session.
    External(M),
}

/// [`connect`] that also waits on a channel: each value received on
/// `external` is passed to the callback as [`ConnectInput::External`]
/// with the session, which may then play it ([`Client::send_move_with`],
/// [`Client::special`]); what that queues is written at once. Everything
/// else is [`connect`]'s: the same limits, timeouts, order of activity
/// and errors. When every sender of `external` is dropped the channel is
/// no longer waited on (the connection goes on).
///
/// # Errors
/// As [`connect`].
pub async fn connect_with<M>(
    stream: TcpStream,
    mut config: ClientConfig,
    limits: Limits,
    silence: Option<Duration>,
    mut external: mpsc::Receiver<M>,
    mut on_input: impl FnMut(&mut Client<Instant>, ConnectInput<'_, M>),
) -> Result<Client<Instant>, ConnectError> {
    let _ = stream.set_nodelay(true);
    config.max_line_len = limits.max_line_len;
    if let Some(s) = silence {
        config.reply_timeout = s;
    }
    let (mut read, mut write) = stream.into_split();
    let mut client = Client::new(config, Instant::now());
    let mut framer = Framer::new(limits.max_line_len);
    let mut buf: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 8192];
    let mut bad = 0u32;
    let mut external_open = true;
    loop {
        // 1. transmit, 2. events (which may queue more to transmit).
        loop {
            let mut busy = false;
            while let Some(t) = client.poll_transmit() {
                busy = true;
                for line in t.as_bytes().split_inclusive(|&b| b == b'\n') {
                    let body = line.strip_suffix(b"\n").unwrap_or(line);
                    if let Ok(m) = decode::<ClientMessage>(body) {
                        on_input(
                            &mut client,
                            ConnectInput::Activity(Activity::Sent(&m, line.len())),
                        );
                    }
                }
                write.write_all(t.as_bytes()).await?;
            }
            while let Some(e) = client.poll_event() {
                busy = true;
                on_input(&mut client, ConnectInput::Activity(Activity::Event(&e)));
                if let Event::PeerSilent { awaiting } = e {
                    return Err(ConnectError::Silent(awaiting));
                }
            }
            if !busy {
                break;
            }
        }
        let deadline = client.poll_timeout();
        let wake = tokio::select! {
            r = read.read(&mut chunk) => Wake::Read(r?),
            () = sleep_until_some(deadline) => Wake::Timeout,
            m = external.recv(), if external_open => Wake::External(m),
        };
        let n = match wake {
            Wake::Read(n) => n,
            Wake::Timeout => {
                client.handle_timeout(Instant::now());
                continue;
            }
            Wake::External(Some(m)) => {
                on_input(&mut client, ConnectInput::External(m));
                continue;
            }
            Wake::External(None) => {
                external_open = false;
                continue;
            }
        };
        let now = Instant::now();
        if n == 0 {
            on_input(&mut client, ConnectInput::Activity(Activity::Closed(&buf)));
            client.handle_close(now);
            while let Some(e) = client.poll_event() {
                on_input(&mut client, ConnectInput::Activity(Activity::Event(&e)));
            }
            return Ok(client);
        }
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
                            on_input(
                                &mut client,
                                ConnectInput::Activity(Activity::Received(&m, consumed)),
                            );
                            client.handle_message(&m, now);
                        }
                        Err(e) => {
                            bad += 1;
                            on_input(
                                &mut client,
                                ConnectInput::Activity(Activity::Malformed(&e, frame)),
                            );
                            client.handle_input(&buf[head..head + consumed], now);
                        }
                    }
                    head += consumed;
                    // Events of this line before the next line is shown.
                    while let Some(e) = client.poll_event() {
                        on_input(&mut client, ConnectInput::Activity(Activity::Event(&e)));
                    }
                    while let Some(t) = client.poll_transmit() {
                        for line in t.as_bytes().split_inclusive(|&b| b == b'\n') {
                            let body = line.strip_suffix(b"\n").unwrap_or(line);
                            if let Ok(m) = decode::<ClientMessage>(body) {
                                on_input(
                                    &mut client,
                                    ConnectInput::Activity(Activity::Sent(&m, line.len())),
                                );
                            }
                        }
                        write.write_all(t.as_bytes()).await?;
                    }
                }
                Status::Overlong { len, consumed } => {
                    bad += 1;
                    on_input(&mut client, ConnectInput::Activity(Activity::Overlong(len)));
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

enum Wake<M> {
    Read(usize),
    Timeout,
    External(Option<M>),
}

/// Sleeps until `deadline`; forever without one.
async fn sleep_until_some(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(tokio::time::Instant::from_std(d)).await,
        None => core::future::pending().await,
    }
}
