//! TCP drivers (feature `tokio`): the only code of the crate that owns a
//! socket.
//!
//! - [`connect`] / [`run`]: a [`Client`] session on a TCP connection (or
//!   any `AsyncRead + AsyncWrite`), the family's one loop
//!   (`boardwire_proto::drive::tokio`, the same as `damexchange::net` and
//!   `novag_citrine::serial`): a callback `FnMut(&mut Client, Activity) ->
//!   ControlFlow<R>` sees every line sent and received (decoded), every
//!   event and every quiet moment ([`Activity::Idle`]), and may command the
//!   session (play, resign, log out); [`connect_with`] / [`run_with`] also
//!   wait on a channel (an engine's moves from another task). They return
//!   [`Ended`].
//! - [`serve`]: runs a [`Server`] session on a `TcpListener`; one task owns
//!   the session, each connection has a reader and a writer task.
//!   [`serve_with_records`] also writes every game's record to a file.
//!
//! Both enforce [`Limits`]: a line cap, a bound on consecutive malformed or
//! unrecognised lines, a write timeout; the server also an output queue cap
//! per connection and a global output budget, a maximum number of
//! connections, a login timeout and a back-off after accept errors.
//!
//! ```no_run
//! use std::ops::ControlFlow;
//! use std::time::Instant;
//! use csa_protocol::net::{self, Activity, Config};
//! use csa_protocol::session::{ClientConfig, Event};
//! use csa_protocol::types::{Password, UserName};
//!
//! # async fn f() -> std::io::Result<()> {
//! let name = UserName::new("alice").unwrap();
//! let password = Password::new("secret").unwrap();
//! let config = Config::new(ClientConfig::new(name, password));
//! let ended = net::connect("localhost:4081", config, |client, activity| {
//!     match activity {
//!         Activity::Event(Event::GameSummary(_)) => {
//!             let _ = client.agree(Instant::now());
//!         }
//!         Activity::Event(Event::PeerSilent { awaiting }) => return ControlFlow::Break(awaiting),
//!         Activity::Event(Event::GameEnded(_)) => {
//!             let _ = client.logout(Instant::now());
//!         }
//!         _ => {}
//!     }
//!     ControlFlow::Continue(())
//! })
//! .await?;
//! println!("{ended:?}");
//! # Ok(())
//! # }
//! ```

use std::boxed::Box;
use std::collections::HashMap;
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use std::vec;
use std::vec::Vec;

use boardwire_proto::drive;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::sync::{Notify, mpsc};

use crate::session::{Client, ClientConfig, ConnId, Server, ServerConfig, ServerEvent};

/// What [`run`] shows its callback, in wire order (the family's
/// `boardwire_proto::drive::Activity`): `Sent { frame, message }` for each
/// line written (a [`ClientMessage`](crate::message::ClientMessage)),
/// `Received { frame, message }` for each line read (a
/// [`ServerMessage`](crate::message::ServerMessage), before the session
/// handles it), `Malformed { error, frame }` for a line that is over-long
/// or does not decode, `Event(event)` for each session
/// [`Event`](crate::session::Event), `Idle` once all is written and
/// handled (the moment to act: move when it is our turn), and
/// `External(x)` for a value from [`run_with`]'s channel. Frames exclude
/// the LF: a line took `frame.len() + 1` bytes on the wire (a last line
/// without LF at the end of the stream is decoded as a line too).
pub use boardwire_proto::drive::Activity;
/// How a run ended: `Break(r)` (the callback's value) or `Closed(why)`.
pub use boardwire_proto::drive::{Closed, Ended};

/// Resource bounds of the drivers. Every field has a documented default
/// ([`Limits::default`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The family driver's bounds. [`run`] uses them all: `read_buffer`,
    /// `output_queue_cap` (transmits in one round, default 64),
    /// `send_timeout` (default 20 s), `max_bad_frames` (default 16
    /// consecutive malformed, unrecognised or over-long lines, then
    /// [`Closed::TooManyBadFrames`]; 0 = no limit). [`serve`] uses
    /// `send_timeout` (a write to a connection that makes no progress for
    /// this long closes it, shogi-server's writer timeout) and
    /// `max_bad_frames` (a peer is disconnected; 0 = no limit).
    pub driver: drive::Limits,
    /// Longest line in bytes, terminator excluded (default 8192,
    /// [`crate::framer::DEFAULT_MAX_LEN`]). Overrides the sessions'
    /// `max_line_len`.
    pub max_line_len: usize,
    /// [`connect`], [`connect_with`]: how long dialling may take (default
    /// 10 s); an `io::ErrorKind::TimedOut` error beyond.
    pub connect_timeout: Duration,
    /// [`serve`]: time from accept to a successful `LOGIN` (default 300 s,
    /// shogi-server's); overrides [`ServerConfig::login_timeout`]. (A
    /// client bounds the `LOGIN` reply with
    /// [`ClientConfig::reply_timeout`].)
    pub login_timeout: Duration,
    /// [`serve`]: bytes that may wait to be written to one connection
    /// (default 128 KiB: 200 peers that never read hold at most 25 MiB); a
    /// connection that has more than this waiting when more output comes
    /// for it is closed at once (a player in a game loses by disconnect).
    /// One answer may be larger than the cap (`%%WHO` with thousands of
    /// clients, about 50 bytes a line): it is queued whole when less than
    /// the cap waits, so a queue holds at most the cap plus one answer;
    /// the peer is not read again until its queue is under half the cap.
    /// Monitor output and chat count like everything else.
    pub output_queue_cap: usize,
    /// [`serve`]: bytes that may wait to be written to all connections
    /// together (default 48 MiB); past it, the connections with the
    /// largest queues are closed first until the total is under it again.
    pub output_budget: usize,
    /// [`serve`]: open connections at most (default 10,000); a connection
    /// beyond is answered `##[ERROR] too many connections` (when its socket
    /// takes the line at once) and closed.
    pub max_connections: usize,
    /// [`serve`]: first pause after a failed `accept` (default 10 ms: out
    /// of file descriptors, for instance); it doubles with every failure in
    /// a row up to [`Limits::accept_backoff_max`]. The listener is kept.
    pub accept_backoff: Duration,
    /// [`serve`]: longest pause after failed accepts (default 250 ms).
    pub accept_backoff_max: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            driver: drive::Limits::default(),
            max_line_len: crate::framer::DEFAULT_MAX_LEN,
            connect_timeout: Duration::from_secs(10),
            login_timeout: Duration::from_secs(300),
            output_queue_cap: 128 << 10,
            output_budget: 48 << 20,
            max_connections: 10_000,
            accept_backoff: Duration::from_millis(10),
            accept_backoff_max: Duration::from_millis(250),
        }
    }
}

/// What the drivers take: the session's settings (`session`:
/// [`ClientConfig`], [`ServerConfig`]) and the limits (`limits`);
/// `Config::new(session)` has the default [`Limits`]. The family's
/// `boardwire_proto::drive::Config`.
pub type Config<C> = drive::Config<C, Limits>;

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
    /// More bad lines in a row than the driver limits' `max_bad_frames`.
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

/// Runs a CSA server made from `config.session` on `listener` until
/// `on_event` returns `Break` (every connection is then closed after what
/// is queued for it, within the send timeout) or the task is dropped;
/// every [`ServeEvent`] goes to `on_event`.
///
/// Enforces `config.limits` ([`Limits`]): accept errors never end it
/// (back-off, listener kept); a connection past
/// [`Limits::max_connections`] is refused; the output of every connection
/// is capped and the total budgeted; a write without progress for the
/// driver limits' `send_timeout` closes the connection; the login timeout;
/// the bad-line limit (the driver limits' `max_bad_frames`).
///
/// # Errors
/// None today (the signature leaves room for setup errors).
pub async fn serve(
    listener: TcpListener,
    config: Config<ServerConfig>,
    on_event: impl FnMut(ServeEvent) -> ControlFlow<()> + Send,
) -> io::Result<()> {
    serve_inner(listener, config, None, on_event).await
}

/// A change to the running server of [`serve_controlled`]: run on the
/// server task between two inputs, with the sans-IO server (e.g.
/// [`Server::set_league`], [`Server::set_ratings`],
/// [`Server::league_mut`]); what it makes the server send goes out at
/// once.
pub type Control = Box<dyn FnOnce(&mut Server<Instant>) + Send>;

/// [`serve`] (or [`serve_with_records`] with `records`), also running
/// every [`Control`] received on `control` on the server between inputs:
/// how a caller sets a league before the first login (send it before
/// serving) or reloads ratings while it runs. A closed `control` is no
/// longer read; the server goes on.
///
/// # Errors
/// As [`serve`].
pub async fn serve_controlled(
    listener: TcpListener,
    mut config: Config<ServerConfig>,
    records: Option<PathBuf>,
    control: mpsc::Receiver<Control>,
    on_event: impl FnMut(ServeEvent) -> ControlFlow<()> + Send,
) -> io::Result<()> {
    match records {
        Some(dir) => {
            config.session.records = true;
            let on_event = record_writer(dir, on_event);
            serve_inner(listener, config, Some(control), on_event).await
        }
        None => serve_inner(listener, config, Some(control), on_event).await,
    }
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
    mut config: Config<ServerConfig>,
    dir: PathBuf,
    on_event: impl FnMut(ServeEvent) -> ControlFlow<()> + Send,
) -> io::Result<()> {
    config.session.records = true;
    serve_inner(listener, config, None, record_writer(dir, on_event)).await
}

/// `on_event` with every [`ServerEvent::Record`] written under `dir` and
/// reported as [`ServeEvent::RecordWritten`] or [`ServeEvent::RecordFailed`].
fn record_writer(
    dir: PathBuf,
    mut on_event: impl FnMut(ServeEvent) -> ControlFlow<()> + Send,
) -> impl FnMut(ServeEvent) -> ControlFlow<()> + Send {
    move |e: ServeEvent| match e {
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
    }
}

/// The next [`Control`] of `control`; never, once it is closed (or
/// without one).
async fn next_control(control: &mut Option<mpsc::Receiver<Control>>) -> Control {
    loop {
        match control {
            Some(rx) => match rx.recv().await {
                Some(c) => return c,
                None => *control = None,
            },
            None => std::future::pending::<()>().await,
        }
    }
}

fn write_record_file(path: &Path, text: &[u8]) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text)
}

async fn serve_inner(
    listener: TcpListener,
    config: Config<ServerConfig>,
    mut control: Option<mpsc::Receiver<Control>>,
    mut user: impl FnMut(ServeEvent) -> ControlFlow<()> + Send,
) -> io::Result<()> {
    let Config {
        session: mut config,
        limits,
        ..
    } = config;
    // `Break` stops the loop at its next turn; nothing more is reported.
    let stop = AtomicBool::new(false);
    let mut on_event = |e: ServeEvent| {
        if !stop.load(Ordering::Relaxed) && user(e).is_break() {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let max_bad_lines = limits.driver.max_bad_frames;
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
        if stop.load(Ordering::Relaxed) {
            for (_, w) in writers.drain() {
                w.close();
            }
            break;
        }
        let input = match server.poll_timeout() {
            Some(d) => {
                tokio::select! {
                    i = rx.recv() => i,
                    c = next_control(&mut control) => {
                        c(&mut server);
                        flush(&mut server, &mut writers, &limits, &total, None, &mut on_event);
                        continue;
                    }
                    () = tokio::time::sleep_until(tokio::time::Instant::from_std(d)) => {
                        server.handle_timeout(Instant::now());
                        flush(&mut server, &mut writers, &limits, &total, None, &mut on_event);
                        continue;
                    }
                }
            }
            None => {
                tokio::select! {
                    i = rx.recv() => i,
                    c = next_control(&mut control) => {
                        c(&mut server);
                        flush(&mut server, &mut writers, &limits, &total, None, &mut on_event);
                        continue;
                    }
                }
            }
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
                    limits.driver.send_timeout,
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
                if max_bad_lines > 0 && server.bad_line_streak(id) >= max_bad_lines {
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
                    // What waited before this transmit counts: one
                    // answer larger than the cap (`%%WHO` of 10,000
                    // clients is ~400 KB) goes through to a peer that reads.
                    if q - n > limits.output_queue_cap {
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

/// Dials `address` (bounded by [`Limits::connect_timeout`]) and runs a
/// [`Client`] made from `config.session` over the connection ([`run`]).
///
/// # Errors
/// The connection failed or timed out (`io::ErrorKind::TimedOut`), then as
/// [`run`].
pub async fn connect<A: ToSocketAddrs, R>(
    address: A,
    config: Config<ClientConfig>,
    callback: impl FnMut(&mut Client<Instant>, Activity<'_, '_, Client<Instant>>) -> ControlFlow<R>,
) -> io::Result<Ended<R>> {
    let stream = dial(address, config.limits.connect_timeout).await?;
    run(stream, config, callback).await
}

/// [`connect`] that also waits on `external` ([`run_with`]).
///
/// # Errors
/// As [`connect`].
pub async fn connect_with<A: ToSocketAddrs, X, R>(
    address: A,
    config: Config<ClientConfig>,
    external: mpsc::Receiver<X>,
    callback: impl FnMut(&mut Client<Instant>, Activity<'_, '_, Client<Instant>, X>) -> ControlFlow<R>,
) -> io::Result<Ended<R>> {
    let stream = dial(address, config.limits.connect_timeout).await?;
    run_with(stream, config, external, callback).await
}

async fn dial<A: ToSocketAddrs>(address: A, timeout: Duration) -> io::Result<TcpStream> {
    let stream = tokio::time::timeout(timeout, TcpStream::connect(address))
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "connection timed out"))??;
    let _ = stream.set_nodelay(true);
    Ok(stream)
}

/// Runs a [`Client`] made from `config.session` (its line cap set to
/// [`Limits::max_line_len`]) over `stream` until the callback returns
/// `Break`, the server closes the connection (CSA mode: after the game;
/// x1 mode: call [`Client::logout`] from the callback to finish) or a
/// limit is hit.
///
/// The callback sees every line sent and received (decoded), every event
/// and every quiet moment, in order, with the session so that it can act:
/// agree on [`Event::GameSummary`](crate::session::Event::GameSummary),
/// play a move at [`Activity::Idle`] when [`Client::is_our_turn`], log out
/// after [`Event::GameEnded`](crate::session::Event::GameEnded). A server
/// that owes an answer and sends none in time is
/// [`Event::PeerSilent`](crate::session::Event::PeerSilent) (the
/// `LOGIN` reply, the move confirmation and the `LOGOUT` reply within
/// [`ClientConfig::reply_timeout`], `START` within
/// [`ClientConfig::start_timeout`], the opponent's move within its clock
/// plus [`ClientConfig::clock_margin`]): the run goes on until the
/// callback breaks. Waiting for an opponent to be paired is not bounded.
///
/// Returns [`Ended::Break`] with the callback's value, or
/// [`Ended::Closed`]: [`Closed::ByPeer`] at the end of the stream (the
/// session was closed and its last events, a
/// [`Event::GameEnded`](crate::session::Event::GameEnded) for a game in
/// progress, went to the callback), [`Closed::BySession`],
/// [`Closed::TooManyBadFrames`], [`Closed::OutputQueueFull`],
/// [`Closed::SendTimeout`].
///
/// # Errors
/// Reading or writing `stream` failed (the session was closed and its last
/// events went to the callback first).
pub async fn run<IO, R>(
    stream: IO,
    config: Config<ClientConfig>,
    callback: impl FnMut(&mut Client<Instant>, Activity<'_, '_, Client<Instant>>) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    IO: AsyncRead + AsyncWrite + Unpin,
{
    let (mut client, limits) = client(config);
    drive::tokio::run(stream, &mut client, &limits, callback).await
}

/// [`run`] that also waits on `external`: each value received is shown to
/// the callback as [`Activity::External`] with the session, which may then
/// play it ([`Client::send_move_with`], [`Client::resign`]); what that
/// queues is written at once. When every sender is dropped the channel is
/// no longer waited on (the connection goes on).
///
/// # Errors
/// As [`run`].
pub async fn run_with<IO, X, R>(
    stream: IO,
    config: Config<ClientConfig>,
    external: mpsc::Receiver<X>,
    callback: impl FnMut(&mut Client<Instant>, Activity<'_, '_, Client<Instant>, X>) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    IO: AsyncRead + AsyncWrite + Unpin,
{
    let (mut client, limits) = client(config);
    drive::tokio::run_with(stream, &mut client, &limits, external, callback).await
}

/// The session and the core driver's limits of a run.
fn client(config: Config<ClientConfig>) -> (Client<Instant>, drive::Limits) {
    let Config {
        mut session,
        limits,
        ..
    } = config;
    session.max_line_len = limits.max_line_len;
    let mut driver = limits.driver;
    if driver.max_bad_frames == 0 {
        driver.max_bad_frames = u32::MAX;
    }
    (Client::new(session, Instant::now()), driver)
}
