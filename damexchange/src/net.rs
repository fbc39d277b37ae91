//! TCP drivers (feature `tokio`) over the family's one loop,
//! [`boardwire_proto::drive::tokio`]: [`connect`] / [`run`] run an
//! [`Initiator`] on one connection, [`serve`] a [`Follower`] on every
//! accepted one ([`spec::damexchange`](crate::spec::damexchange),
//! *Transport (layer 1)*, *Roles and dialogue (layer 2)*). The `_with`
//! forms also wait on a channel (moves an engine found in another task),
//! whose values the callback gets as [`Activity::External`].
//!
//! The loop is the core's: read with the frame cap, decode, show each
//! frame to the callback ([`Activity::Received`], [`Activity::Malformed`]),
//! hand it to the session; write every `poll_transmit()` ([`Activity::Sent`]
//! for each), hand every `poll_event()` to the callback
//! ([`Activity::Event`]); [`Activity::Idle`] once everything is written
//! and delivered (the moment to act: the initiator's first `Idle` is when
//! it sends its GAMEREQ, any later one when it is our turn); sleep until
//! bytes, a channel value or `poll_timeout()`. The callback returns
//! [`ControlFlow`]: `Break(r)` ends the run with [`Ended::Break`] after
//! what the session had queued (a CHAT saying why) is written.
//!
//! How a run ends: [`Ended`] with the core's [`Closed`] reasons. DXP's own,
//! which the core's [`Closed`] has no variant for, are the session's and
//! are told first as an event: [`Event::Closing`] with
//! [`CloseReason::HandshakeTimeout`] (no GAMEACC either way within
//! [`Limits::handshake_timeout`]) or [`CloseReason::TooManyBadFrames`]
//! (a CHAT saying why is written first), then the run ends with
//! [`Closed::BySession`]. [`serve`]'s `on_closed` gets them as
//! [`Served`], with the server's own ([`Served::TooManyConnections`],
//! [`Served::OutputBudget`]).
//!
//! [`Event::Closing`]: crate::session::Event::Closing

use std::io;
use std::net::SocketAddr;
use std::ops::ControlFlow;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use boardwire_proto::drive;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::sync::mpsc;

pub use boardwire_proto::drive::{Activity, Closed, Ended};

use crate::session::{CloseReason, Follower, FollowerConfig, Initiator, InitiatorConfig};

/// Resource bounds of the drivers, each with its default: the core
/// driver's ([`driver`](Limits::driver)) and DXP's own.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The loop's bounds: read buffer, output queue per round
    /// ([`Closed::OutputQueueFull`]), send timeout ([`Closed::SendTimeout`],
    /// default 20 s), bad frames in a row (default 16). The bad-frame bound
    /// is given to the session (its config's `max_bad_frames`, when `None`),
    /// which sends a CHAT saying why before closing; the loop's own bound
    /// is raised above it so that the CHAT goes first.
    pub driver: drive::Limits,
    /// Time from the session's start to the first GAMEACC, sent
    /// ([`serve`]) or received ([`connect`]) (default 30 s); given to the
    /// session (its config's `handshake_timeout`, when `None`).
    pub handshake_timeout: Duration,
    /// Bound of the TCP connect of [`connect`] / [`dial`] (default 30 s;
    /// an [`io::ErrorKind::TimedOut`] error).
    pub connect_timeout: Duration,
    /// Bytes all connections of one [`serve`] together may have written
    /// and not yet flushed (default 1 MiB); a connection that would exceed
    /// it is closed ([`Served::OutputBudget`]).
    pub output_budget: usize,
    /// Connections served at once by [`serve`] (default 10,000); more are
    /// accepted and closed at once ([`Served::TooManyConnections`]). Keep
    /// it below the process's file-descriptor limit.
    pub max_connections: usize,
    /// Pause after a failed `accept` (default 10 ms), doubled after every
    /// further failure up to [`Limits::accept_backoff_max`]; reset by a
    /// successful accept. The listener is kept.
    pub accept_backoff: Duration,
    /// Longest pause after failed `accept`s (default 250 ms).
    pub accept_backoff_max: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            driver: drive::Limits::default(),
            handshake_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(30),
            output_budget: 1 << 20,
            max_connections: 10_000,
            accept_backoff: Duration::from_millis(10),
            accept_backoff_max: Duration::from_millis(250),
        }
    }
}

/// What a driver runs: the session's config (`session`:
/// [`InitiatorConfig`] or [`FollowerConfig`]) and the bounds (`limits`);
/// `Config::new(session)` has the default [`Limits`]. The family's
/// `boardwire_proto::drive::Config`.
pub type Config<C> = drive::Config<C, Limits>;

/// The session-kept bounds a driver fills in from [`Limits`].
fn bounds(
    handshake: &mut Option<Duration>,
    bad: &mut Option<u32>,
    limits: &Limits,
) -> drive::Limits {
    handshake.get_or_insert(limits.handshake_timeout);
    let bad = *bad.get_or_insert(limits.driver.max_bad_frames);
    let mut driver = limits.driver.clone();
    driver.max_bad_frames = driver.max_bad_frames.max(bad.saturating_add(1));
    driver
}

fn initiator(config: Config<InitiatorConfig>) -> (Initiator<Instant>, drive::Limits) {
    let Config {
        session: mut c,
        limits,
        ..
    } = config;
    let driver = bounds(&mut c.handshake_timeout, &mut c.max_bad_frames, &limits);
    (Initiator::new(c, Instant::now()), driver)
}

fn follower(config: &Config<FollowerConfig>) -> (Follower<Instant>, drive::Limits) {
    let mut c = config.session.clone();
    let driver = bounds(
        &mut c.handshake_timeout,
        &mut c.max_bad_frames,
        &config.limits,
    );
    (Follower::new(c, Instant::now()), driver)
}

/// Opens a TCP connection to `address` within
/// [`Limits::connect_timeout`] (each address it resolves to is tried in
/// turn), with `TCP_NODELAY`: for a caller that wants the peer's address
/// (`peer_addr()`) before [`run`] / [`run_with`].
///
/// # Errors
/// Resolving or connecting failed; [`io::ErrorKind::TimedOut`] after the
/// connect timeout.
pub async fn dial<A: ToSocketAddrs>(address: A, limits: &Limits) -> io::Result<TcpStream> {
    let stream = tokio::time::timeout(limits.connect_timeout, TcpStream::connect(address))
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "connect timed out"))??;
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// Connects to a follower at `address` ([`dial`]) and runs an
/// [`Initiator`] with `config` on it ([`run`]).
///
/// # Errors
/// As [`dial`] and [`run`].
pub async fn connect<A, R>(
    address: A,
    config: Config<InitiatorConfig>,
    callback: impl FnMut(
        &mut Initiator<Instant>,
        Activity<'_, '_, Initiator<Instant>>,
    ) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    A: ToSocketAddrs,
{
    let stream = dial(address, &config.limits).await?;
    run(stream, config, callback).await
}

/// Runs an [`Initiator`] with `config` over `stream` (a `TcpStream`, a
/// `tokio::io::duplex` end, ...) until the callback breaks, the peer
/// closes, the session closes or a limit is hit. The callback sends the
/// first GAMEREQ (`request_game`) on the first [`Activity::Idle`] and
/// moves on a later `Idle` when `is_our_turn()`.
///
/// # Errors
/// Reading or writing `stream` failed.
pub async fn run<IO, R>(
    stream: IO,
    config: Config<InitiatorConfig>,
    callback: impl FnMut(
        &mut Initiator<Instant>,
        Activity<'_, '_, Initiator<Instant>>,
    ) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    IO: AsyncRead + AsyncWrite + Unpin,
{
    let (mut session, driver) = initiator(config);
    drive::tokio::run(stream, &mut session, &driver, callback).await
}

/// [`connect`] that also waits on `external`: each value is handed to the
/// callback as [`Activity::External`] with the session, which may play it
/// (`send_move`, `end_game`); what that queues is written at once. When
/// every sender is dropped the channel is no longer waited on.
///
/// # Errors
/// As [`connect`].
pub async fn connect_with<A, X, R>(
    address: A,
    config: Config<InitiatorConfig>,
    external: mpsc::Receiver<X>,
    callback: impl FnMut(
        &mut Initiator<Instant>,
        Activity<'_, '_, Initiator<Instant>, X>,
    ) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    A: ToSocketAddrs,
{
    let stream = dial(address, &config.limits).await?;
    run_with(stream, config, external, callback).await
}

/// [`run`] that also waits on `external`, as [`connect_with`].
///
/// # Errors
/// As [`run`].
pub async fn run_with<IO, X, R>(
    stream: IO,
    config: Config<InitiatorConfig>,
    external: mpsc::Receiver<X>,
    callback: impl FnMut(
        &mut Initiator<Instant>,
        Activity<'_, '_, Initiator<Instant>, X>,
    ) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    IO: AsyncRead + AsyncWrite + Unpin,
{
    let (mut session, driver) = initiator(config);
    drive::tokio::run_with(stream, &mut session, &driver, external, callback).await
}

/// How a connection of [`serve`] ended, for its `on_closed`.
#[derive(Debug)]
#[non_exhaustive]
pub enum Served<R> {
    /// The run ended so (the callback's `Break`, or one of the core's
    /// [`Closed`] reasons).
    Ended(Ended<R>),
    /// The session closed it ([`Closed::BySession`]) for this DXP reason.
    BySession(CloseReason),
    /// Writing would have exceeded the shared [`Limits::output_budget`].
    OutputBudget,
    /// [`Limits::max_connections`] was reached when it was accepted: it
    /// was closed at once (its callback was never made).
    TooManyConnections,
    /// Reading or writing failed; for connection number 0, `accept`
    /// failed (reported once per burst of failures).
    Failed(io::Error),
}

impl<R> core::fmt::Display for Served<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Served::Ended(Ended::Break(_)) => f.write_str("closed by us"),
            Served::Ended(Ended::Closed(c)) => write!(f, "closed: {c}"),
            Served::BySession(why) => write!(f, "closed: {why}"),
            Served::OutputBudget => f.write_str("closed: output budget exhausted"),
            Served::TooManyConnections => f.write_str("closed: too many connections"),
            Served::Failed(e) => write!(f, "error: {e}"),
        }
    }
}

/// Serves DXP on `listener`: every accepted connection gets its own task,
/// its own [`Follower`] with `config`'s session config, and a callback
/// made by `make_callback(connection number, peer)` (numbers from 1),
/// run on the core loop as [`run`] does. Runs until the task is dropped;
/// `on_closed(connection number, how)` is called when a connection ends.
///
/// A failed `accept` (e.g. out of file descriptors) never ends the server
/// and never spins: it is reported once per burst as `on_closed(0,
/// Served::Failed(error))`, then accepting is retried on the same listener
/// after [`Limits::accept_backoff`], doubled after each further failure up
/// to [`Limits::accept_backoff_max`]. Beyond [`Limits::max_connections`]
/// connections are accepted and closed at once. All connections share
/// [`Limits::output_budget`].
///
/// # Errors
/// None in practice (the loop runs until dropped); the type leaves room
/// for fatal listener errors.
pub async fn serve<C, R, M, D>(
    listener: TcpListener,
    config: Config<FollowerConfig>,
    make_callback: M,
    on_closed: D,
) -> io::Result<()>
where
    C: FnMut(&mut Follower<Instant>, Activity<'_, '_, Follower<Instant>>) -> ControlFlow<R>
        + Send
        + 'static,
    R: Send + 'static,
    M: Fn(u64, SocketAddr) -> C + Send + Sync + 'static,
    D: Fn(u64, Served<R>) + Send + Sync + 'static,
{
    serve_with(
        listener,
        config,
        move |n, peer| {
            // No sender: the channel is closed and no longer waited on.
            let (_, none) = mpsc::channel::<core::convert::Infallible>(1);
            (none, make_callback(n, peer))
        },
        on_closed,
    )
    .await
}

/// [`serve`] where every connection also has a channel of its own:
/// `make_connection(connection number, peer)` gives the receiver and the
/// callback (e.g. after starting an engine process for this connection,
/// whose moves come on the channel), as [`run_with`]. It is called only
/// for connections accepted within [`Limits::max_connections`]; the
/// receiver and the callback are dropped when the connection ends (an
/// engine they own can stop then), before `on_closed`. A connection whose
/// callback breaks ends alone.
///
/// # Errors
/// As [`serve`].
pub async fn serve_with<C, X, R, M, D>(
    listener: TcpListener,
    config: Config<FollowerConfig>,
    make_connection: M,
    on_closed: D,
) -> io::Result<()>
where
    C: FnMut(&mut Follower<Instant>, Activity<'_, '_, Follower<Instant>, X>) -> ControlFlow<R>
        + Send
        + 'static,
    X: Send + 'static,
    R: Send + 'static,
    M: Fn(u64, SocketAddr) -> (mpsc::Receiver<X>, C) + Send + Sync + 'static,
    D: Fn(u64, Served<R>) + Send + Sync + 'static,
{
    let config = Arc::new(config);
    let budget = Arc::new(Budget {
        limit: config.limits.output_budget,
        in_flight: AtomicUsize::new(0),
    });
    let active = Arc::new(AtomicUsize::new(0));
    let on_closed = Arc::new(on_closed);
    let mut number = 0u64;
    let mut backoff: Option<Duration> = None;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(x) => {
                backoff = None;
                x
            }
            Err(e) => {
                let pause = match backoff {
                    None => {
                        on_closed(0, Served::Failed(e));
                        config.limits.accept_backoff
                    }
                    Some(d) => (d * 2).min(config.limits.accept_backoff_max),
                };
                backoff = Some(pause);
                tokio::time::sleep(pause).await;
                continue;
            }
        };
        number += 1;
        if active.load(Ordering::Relaxed) >= config.limits.max_connections {
            drop(stream);
            on_closed(number, Served::TooManyConnections);
            continue;
        }
        active.fetch_add(1, Ordering::Relaxed);
        let (external, mut callback) = make_connection(number, peer);
        let (config, budget, active, on_closed) = (
            config.clone(),
            budget.clone(),
            active.clone(),
            on_closed.clone(),
        );
        tokio::spawn(async move {
            let (mut session, driver) = follower(&config);
            let result = match stream.set_nodelay(true) {
                Err(e) => Err(e),
                Ok(()) => {
                    let stream = Budgeted {
                        inner: stream,
                        budget,
                        unflushed: 0,
                    };
                    drive::tokio::run_with(stream, &mut session, &driver, external, &mut callback)
                        .await
                }
            };
            let served = match result {
                Ok(Ended::Closed(Closed::BySession)) => match session.close_reason() {
                    Some(why) => Served::BySession(why),
                    None => Served::Ended(Ended::Closed(Closed::BySession)),
                },
                Ok(ended) => Served::Ended(ended),
                Err(e) if e.get_ref().is_some_and(|e| e.is::<OverBudget>()) => Served::OutputBudget,
                Err(e) => Served::Failed(e),
            };
            // The connection's callback (and what it owns) goes first,
            // then the count.
            drop(callback);
            active.fetch_sub(1, Ordering::Relaxed);
            on_closed(number, served);
        });
    }
}

/// Bytes written and not yet flushed over the connections of one server.
#[derive(Debug)]
struct Budget {
    limit: usize,
    in_flight: AtomicUsize,
}

/// The error of a write beyond the [`Budget`].
#[derive(Debug)]
struct OverBudget;

impl core::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("output budget exhausted")
    }
}

impl std::error::Error for OverBudget {}

/// A stream whose writes count towards a shared [`Budget`] until flushed.
struct Budgeted<IO> {
    inner: IO,
    budget: Arc<Budget>,
    unflushed: usize,
}

impl<IO> Budgeted<IO> {
    fn release(&mut self) {
        self.budget
            .in_flight
            .fetch_sub(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }
}

impl<IO> Drop for Budgeted<IO> {
    fn drop(&mut self) {
        self.release();
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for Budgeted<IO> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for Budgeted<IO> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.budget.in_flight.load(Ordering::Relaxed) + buf.len() > this.budget.limit {
            return Poll::Ready(Err(io::Error::other(OverBudget)));
        }
        let r = Pin::new(&mut this.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = r {
            this.budget.in_flight.fetch_add(n, Ordering::Relaxed);
            this.unflushed += n;
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let r = Pin::new(&mut self.inner).poll_flush(cx);
        if let Poll::Ready(Ok(())) = r {
            self.release();
        }
        r
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Event, GameOffer};
    use crate::types::Name;
    use board_core::draughts::Color;
    use std::sync::Mutex;
    use std::vec::Vec;

    /// `serve_with`: each connection's channel is its own; a value on it
    /// reaches that connection's callback (here: it plays the move sent
    /// from another task), and a connection that breaks from its callback
    /// leaves the server serving. `connect_with`: the GAMEREQ is sent when
    /// a value arrives on the initiator's channel.
    #[tokio::test]
    async fn values_from_other_tasks_reach_their_connection() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut config = FollowerConfig::new(Name::new("with").unwrap());
        config.first_move_delay = Duration::ZERO;
        let made = Arc::new(Mutex::new(Vec::new()));
        let m = made.clone();
        let server = tokio::spawn(serve_with(
            listener,
            Config::new(config),
            move |n, _| {
                m.lock().unwrap().push(n);
                let (tx, rx) = mpsc::channel::<u64>(1);
                move_maker(tx, n);
                let cb = move |f: &mut Follower<Instant>, a: Activity<'_, '_, _, u64>| {
                    match a {
                        // Connection 1 closes on its first value.
                        Activity::External(1) => return ControlFlow::Break(()),
                        Activity::External(_) if f.is_our_turn() => {
                            let mv = f.position().unwrap().legal_moves().as_slice()[0];
                            f.send_move(mv, Instant::now()).unwrap();
                        }
                        _ => {}
                    }
                    ControlFlow::Continue(())
                };
                (rx, cb)
            },
            |_, _| {},
        ));
        for conn in 1..=2u64 {
            let (tx, rx) = mpsc::channel::<()>(1);
            let mut moves = 0usize;
            let mut asked = false;
            let request = GameOffer {
                our_color: Color::Black,
                minutes: 1,
                moves: 0,
                start: None,
            };
            let config = Config::new(InitiatorConfig::new(Name::new("init").unwrap()));
            let ended = connect_with(addr, config, rx, |i, a| {
                match a {
                    Activity::Idle if !asked => {
                        asked = true;
                        tx.try_send(()).unwrap();
                    }
                    Activity::External(()) => i.request_game(request, Instant::now()).unwrap(),
                    Activity::Event(Event::MoveReceived { .. }) => {
                        moves += 1;
                        return ControlFlow::Break("moved");
                    }
                    _ => {}
                }
                ControlFlow::Continue(())
            })
            .await
            .unwrap();
            if conn == 1 {
                // Its follower closed on its channel's value, before moving.
                assert_eq!((ended, moves), (Ended::Closed(Closed::ByPeer), 0));
            } else {
                // The follower's move came from its channel.
                assert_eq!((ended, moves), (Ended::Break("moved"), 1));
            }
        }
        assert_eq!(*made.lock().unwrap(), [1, 2]);
        server.abort();
    }

    /// Sends the connection number on `tx` after a moment (from another
    /// task, as an engine would).
    fn move_maker(tx: mpsc::Sender<u64>, n: u64) {
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let _ = tx.send(n).await;
        });
    }

    /// The shared budget: a write that would exceed it fails; flushed
    /// bytes no longer count.
    #[tokio::test]
    async fn the_output_budget_counts_unflushed_bytes() {
        use tokio::io::AsyncWriteExt;
        let budget = Arc::new(Budget {
            limit: 10,
            in_flight: AtomicUsize::new(0),
        });
        let (a, _b) = tokio::io::duplex(64);
        let mut s = Budgeted {
            inner: a,
            budget: budget.clone(),
            unflushed: 0,
        };
        s.write_all(b"12345678").await.unwrap();
        assert_eq!(budget.in_flight.load(Ordering::Relaxed), 8);
        let e = s.write_all(b"abc").await.unwrap_err();
        assert!(e.get_ref().unwrap().is::<OverBudget>());
        s.flush().await.unwrap();
        assert_eq!(budget.in_flight.load(Ordering::Relaxed), 0);
        s.write_all(b"abc").await.unwrap();
        drop(s);
        assert_eq!(budget.in_flight.load(Ordering::Relaxed), 0);
    }
}
