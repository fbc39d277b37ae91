//! TCP drivers (feature `tokio`): [`serve`] runs a [`Follower`] for every
//! accepted connection, [`connect`] runs an [`Initiator`] on one
//! connection ([`spec::damexchange`](crate::spec::damexchange), *Transport (layer 1)*, *Roles and
//! dialogue (layer 2)*). [`connect_with`] and [`serve_with`] also wait on
//! a channel per connection (moves found by an engine in another task)
//! and pass what arrives to the callback as [`ConnectInput::External`].
//!
//! These are the only places in the crate that own a socket. Each
//! connection is a `tokio_util::codec::Framed<TcpStream, DxpCodec>` driven
//! in the session's documented order: a received item goes to
//! `handle_message`, then every `poll_transmit()` is sent, every
//! `poll_event()` is handed to the application's callback, and the driver
//! sleeps until the next item or `poll_timeout()`. The callback sees every
//! message sent and received (decoded, for transcripts), every malformed
//! frame and every session event, and gets the session to give commands
//! (`send_move`, `end_game`, ...); [`NetEvent::Idle`] comes when all is
//! drained, the moment to move when `is_our_turn()`. Resource bounds are
//! [`Limits`].

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

use crate::codec::DxpCodec;
use crate::decode::{Leniency, decode};
use crate::error::FrameError;
use crate::message::{MAX_MESSAGE_LEN, Message};
use crate::session::{Event, Follower, FollowerConfig, Initiator, InitiatorConfig, Transmit};

/// Resource bounds of the drivers, each with its default.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Longest frame, bytes without the NUL (default 127, the spec's cap).
    pub max_frame_len: usize,
    /// Frames one connection may queue in one turn of its loop before it is
    /// closed (default 64); what is queued is written before the next frame
    /// is read, so a connection never holds more than this.
    pub output_queue_cap: usize,
    /// Bytes all connections together may have in flight to their peers
    /// (default 1 MiB); a connection that would exceed it is closed.
    pub output_budget: usize,
    /// A write that makes no progress for this long closes the connection
    /// ([`Closed::SendTimeout`]; default 20 s, as shogi-server's writer).
    pub send_timeout: Duration,
    /// Connections served at once by [`serve`] (default 10,000); more are
    /// accepted and closed at once ([`Closed::TooManyConnections`]). Keep it
    /// below the process's file-descriptor limit.
    pub max_connections: usize,
    /// Time from connecting to the first GAMEREQ ([`serve`]) or GAMEACC
    /// ([`connect`]) (default 30 s); [`connect`] also bounds the TCP
    /// connect by it (an [`io::ErrorKind::TimedOut`] error).
    pub handshake_timeout: Duration,
    /// Pause after a failed `accept` (default 10 ms), doubled after every
    /// further failure up to [`Limits::accept_backoff_max`]; reset by a
    /// successful accept. The listener is kept.
    pub accept_backoff: Duration,
    /// Longest pause after failed `accept`s (default 250 ms).
    pub accept_backoff_max: Duration,
    /// Consecutive malformed or unrecognised frames after which the
    /// connection is closed, after a CHAT saying why (default 16).
    pub max_bad_frames: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_frame_len: MAX_MESSAGE_LEN,
            output_queue_cap: 64,
            output_budget: 1 << 20,
            send_timeout: Duration::from_secs(20),
            max_connections: 10_000,
            handshake_timeout: Duration::from_secs(30),
            accept_backoff: Duration::from_millis(10),
            accept_backoff_max: Duration::from_millis(250),
            max_bad_frames: 16,
        }
    }
}

/// What the driver tells the application's callback.
#[derive(Debug)]
#[non_exhaustive]
pub enum NetEvent<'a> {
    /// The connection is open (the initiator now sends its GAMEREQ).
    Connected {
        /// The peer's address.
        peer: SocketAddr,
    },
    /// A message we sent.
    Sent(&'a Message<'a>),
    /// A message we received (before the session handles it). A frame
    /// that is over-long or does not decode goes to the session
    /// (`handle_frame_error`) and comes back as
    /// [`Event::Malformed`].
    Received(&'a Message<'a>),
    /// An event of the session.
    Session(&'a Event),
    /// Everything is sent and handled; the session waits for the peer.
    Idle,
    /// The connection ends now, for this reason (the last event; what the
    /// callback returns is ignored). Not sent for an I/O error, which the
    /// caller of [`connect`] / the `on_closed` of [`serve`] gets.
    Closed(Closed),
}

/// What the callback wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// Close the connection.
    Close,
}

/// What the callback of [`connect_with`] / [`serve_with`] sees: the
/// connection's [`NetEvent`], or a value that arrived on its channel.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConnectInput<'a, M> {
    /// A message sent or received, a session event, idle, the close (as
    /// [`connect`] / [`serve`] give them).
    Net(NetEvent<'a>),
    /// A value from the connection's channel (a move an engine found, a
    /// command from another task): act on it with the session; what that
    /// queues is written at once.
    External(M),
}

/// Why a connection ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Closed {
    /// The peer closed it.
    ByPeer,
    /// The callback asked to close it (what the session still had queued,
    /// e.g. a CHAT saying why, was written first).
    ByUs,
    /// No GAMEREQ / GAMEACC within [`Limits::handshake_timeout`].
    HandshakeTimeout,
    /// [`Limits::max_bad_frames`] bad frames in a row (a CHAT saying so
    /// was sent first).
    TooManyBadFrames,
    /// A write made no progress for [`Limits::send_timeout`].
    SendTimeout,
    /// More than [`Limits::output_queue_cap`] frames queued at once, or the
    /// global [`Limits::output_budget`] exhausted.
    OutputFull,
    /// [`Limits::max_connections`] reached when it was accepted.
    TooManyConnections,
}

impl core::fmt::Display for Closed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Closed::ByPeer => "closed by the peer",
            Closed::ByUs => "closed by us",
            Closed::HandshakeTimeout => "no GAMEREQ/GAMEACC in time",
            Closed::TooManyBadFrames => "too many malformed or unrecognised frames in a row",
            Closed::SendTimeout => "the peer did not read what we sent in time",
            Closed::OutputFull => "output queue full",
            Closed::TooManyConnections => "too many connections",
        })
    }
}

/// The driver's view of either session.
trait Driven {
    fn message(&mut self, msg: &Message<'_>, now: Instant);
    fn frame_error(&mut self, e: &FrameError, now: Instant);
    fn close(&mut self, now: Instant);
    fn timeout(&mut self, now: Instant);
    fn transmit(&mut self) -> Option<Transmit>;
    fn event(&mut self) -> Option<Event>;
    fn deadline(&self) -> Option<Instant>;
    fn chat(&mut self, text: &str);
}

macro_rules! driven {
    ($t:ty) => {
        impl Driven for $t {
            fn message(&mut self, msg: &Message<'_>, now: Instant) {
                self.handle_message(msg, now)
            }
            fn frame_error(&mut self, e: &FrameError, now: Instant) {
                self.handle_frame_error(e, now)
            }
            fn close(&mut self, now: Instant) {
                self.handle_close(now)
            }
            fn timeout(&mut self, now: Instant) {
                self.handle_timeout(now)
            }
            fn transmit(&mut self) -> Option<Transmit> {
                self.poll_transmit()
            }
            fn event(&mut self) -> Option<Event> {
                self.poll_event()
            }
            fn deadline(&self) -> Option<Instant> {
                self.poll_timeout()
            }
            fn chat(&mut self, text: &str) {
                let _ = self.send_chat(text, Instant::now());
            }
        }
    };
}
driven!(Follower<Instant>);
driven!(Initiator<Instant>);

/// Bytes in flight over all connections.
#[derive(Debug, Default)]
struct Budget(AtomicUsize);

async fn run<S: Driven, M>(
    stream: TcpStream,
    session: &mut S,
    leniency: Leniency,
    limits: &Limits,
    budget: &Budget,
    external: &mut mpsc::Receiver<M>,
    callback: &mut impl FnMut(&mut S, ConnectInput<'_, M>) -> Flow,
) -> io::Result<Closed> {
    let result = run_connection(
        stream, session, leniency, limits, budget, external, callback,
    )
    .await;
    if let Ok(why) = result {
        let _ = callback(session, ConnectInput::Net(NetEvent::Closed(why)));
    }
    result
}

async fn run_connection<S: Driven, M>(
    stream: TcpStream,
    session: &mut S,
    leniency: Leniency,
    limits: &Limits,
    budget: &Budget,
    external: &mut mpsc::Receiver<M>,
    callback: &mut impl FnMut(&mut S, ConnectInput<'_, M>) -> Flow,
) -> io::Result<Closed> {
    stream.set_nodelay(true)?;
    let peer = stream.peer_addr()?;
    let codec = DxpCodec::new(limits.max_frame_len).with_leniency(leniency);
    let mut framed = Framed::new(stream, codec);
    let handshake_by = Instant::now() + limits.handshake_timeout;
    let mut handshaken = false;
    let mut bad = 0u32;
    let mut external_open = true;
    macro_rules! tell {
        ($e:expr) => {
            if callback(session, ConnectInput::Net($e)) == Flow::Close {
                // What the callback queued before closing (a CHAT saying
                // why) still goes out.
                drain_out(session, &mut framed, limits, callback).await;
                return Ok(Closed::ByUs);
            }
        };
    }
    tell!(NetEvent::Connected { peer });
    loop {
        // 1. bytes to write, 2. events; until both are drained (the
        // callback may give commands), then Idle.
        let mut idle_told = false;
        loop {
            let mut queued = 0usize;
            let mut bytes = 0usize;
            while let Some(t) = session.transmit() {
                queued += 1;
                bytes += t.as_bytes().len();
                if queued > limits.output_queue_cap
                    || budget.0.load(Ordering::Relaxed) + bytes > limits.output_budget
                {
                    return Ok(Closed::OutputFull);
                }
                if let Ok(msg) =
                    decode::<Message>(t.as_bytes().strip_suffix(b"\0").unwrap_or(t.as_bytes()))
                {
                    tell!(NetEvent::Sent(&msg));
                }
                framed.feed(t).await?;
            }
            if queued > 0 {
                budget.0.fetch_add(bytes, Ordering::Relaxed);
                let flushed = tokio::time::timeout(
                    limits.send_timeout,
                    SinkExt::<Transmit>::flush(&mut framed),
                )
                .await;
                budget.0.fetch_sub(bytes, Ordering::Relaxed);
                match flushed {
                    Ok(r) => r?,
                    Err(_) => return Ok(Closed::SendTimeout),
                }
            }
            let mut any = queued > 0;
            while let Some(e) = session.event() {
                any = true;
                if matches!(e, Event::GameStarted(_) | Event::GameRefused { .. }) {
                    handshaken = true;
                }
                tell!(NetEvent::Session(&e));
            }
            if !any {
                if idle_told {
                    break;
                }
                idle_told = true;
                tell!(NetEvent::Idle);
            }
        }
        // 3. wait for the peer or the next deadline.
        let deadline = match (session.deadline(), handshaken) {
            (Some(at), false) => Some(at.min(handshake_by)),
            (None, false) => Some(handshake_by),
            (at, true) => at,
        };
        let sleep = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            m = external.recv(), if external_open => match m {
                Some(m) => {
                    if callback(session, ConnectInput::External(m)) == Flow::Close {
                        drain_out(session, &mut framed, limits, callback).await;
                        return Ok(Closed::ByUs);
                    }
                }
                // Every sender is gone: the channel is no longer waited on.
                None => external_open = false,
            },
            item = framed.next() => match item {
                None => {
                    // A game in progress ends (GameEnded, no result).
                    session.close(Instant::now());
                    while let Some(e) = session.event() {
                        tell!(NetEvent::Session(&e));
                    }
                    return Ok(Closed::ByPeer);
                }
                Some(Err(e)) => return Err(e),
                Some(Ok(Ok(msg))) => {
                    tell!(NetEvent::Received(&msg));
                    if matches!(msg, Message::Unrecognised(_)) {
                        bad += 1;
                    } else {
                        bad = 0;
                    }
                    session.message(&msg, Instant::now());
                }
                Some(Ok(Err(e))) => {
                    session.frame_error(&e, Instant::now());
                    bad += 1;
                }
            },
            () = sleep => {
                let now = Instant::now();
                if !handshaken && now >= handshake_by {
                    return Ok(Closed::HandshakeTimeout);
                }
                session.timeout(now);
            }
        }
        if bad >= limits.max_bad_frames {
            // Say why before closing.
            session.chat(&std::format!(
                "error: {bad} malformed or unrecognised frames in a row; closing"
            ));
            drain_out(session, &mut framed, limits, callback).await;
            return Ok(Closed::TooManyBadFrames);
        }
    }
}

/// Writes what the session still has queued before the connection is
/// closed by us (at most [`Limits::output_queue_cap`] frames, within
/// [`Limits::send_timeout`]); the callback sees each as [`NetEvent::Sent`]
/// (what it returns is ignored).
async fn drain_out<S: Driven, M>(
    session: &mut S,
    framed: &mut Framed<TcpStream, DxpCodec>,
    limits: &Limits,
    callback: &mut impl FnMut(&mut S, ConnectInput<'_, M>) -> Flow,
) {
    let mut queued = 0usize;
    while let Some(t) = session.transmit() {
        queued += 1;
        if queued > limits.output_queue_cap {
            break;
        }
        if let Ok(msg) = decode::<Message>(t.as_bytes().strip_suffix(b"\0").unwrap_or(t.as_bytes()))
        {
            let _ = callback(session, ConnectInput::Net(NetEvent::Sent(&msg)));
        }
        if framed.feed(t).await.is_err() {
            return;
        }
    }
    let _ = tokio::time::timeout(limits.send_timeout, SinkExt::<Transmit>::flush(framed)).await;
}

/// Connects to a follower at `addr` and runs an [`Initiator`] with `config`
/// until the callback closes the connection or the follower does.
///
/// `callback` sees every [`NetEvent`]; it sends the first GAMEREQ
/// (`request_game`) on [`NetEvent::Connected`] and moves on
/// [`NetEvent::Idle`] when `is_our_turn()`. For moves that come from
/// another task (an engine), see [`connect_with`].
///
/// # Errors
/// I/O errors connecting (a connect that takes longer than
/// [`Limits::handshake_timeout`]: [`io::ErrorKind::TimedOut`]), reading and
/// writing.
pub async fn connect<A: ToSocketAddrs>(
    addr: A,
    config: InitiatorConfig,
    limits: &Limits,
    mut callback: impl FnMut(&mut Initiator<Instant>, NetEvent<'_>) -> Flow,
) -> io::Result<Closed> {
    // No sender: the channel is closed from the start and never waited on.
    let (_, none) = mpsc::channel::<core::convert::Infallible>(1);
    connect_with(addr, config, limits, none, |i, input| match input {
        ConnectInput::Net(e) => callback(i, e),
        ConnectInput::External(never) => match never {},
    })
    .await
}

/// [`connect`] that also waits on a channel: each value received on
/// `external` is passed to the callback as [`ConnectInput::External`] with
/// the session, which may then play it (`send_move_with`, `end_game`);
/// what that queues is written at once, and a [`Flow::Close`] closes the
/// connection as for any other input. Everything else is [`connect`]'s:
/// the same [`Limits`] (handshake timeout, bad frames, output caps, send
/// timeout), the session's reply timeout and clock bound
/// ([`Event::PeerSilent`]), the same order of events and errors. When
/// every sender of `external` is dropped the channel is no longer waited
/// on (the connection goes on).
///
/// # Errors
/// As [`connect`].
pub async fn connect_with<A: ToSocketAddrs, M>(
    addr: A,
    config: InitiatorConfig,
    limits: &Limits,
    mut external: mpsc::Receiver<M>,
    mut callback: impl FnMut(&mut Initiator<Instant>, ConnectInput<'_, M>) -> Flow,
) -> io::Result<Closed> {
    // The TCP connect is bounded by the handshake timeout too.
    let stream = tokio::time::timeout(limits.handshake_timeout, TcpStream::connect(addr))
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "connect timed out"))??;
    let leniency = config.leniency;
    let mut session = Initiator::new(config, Instant::now());
    run(
        stream,
        &mut session,
        leniency,
        limits,
        &Budget::default(),
        &mut external,
        &mut callback,
    )
    .await
}

/// Serves DXP on `listener`: every accepted connection gets its own task
/// and its own [`Follower`] with `config`, and a callback made by
/// `make_callback(connection number, peer)` (numbers from 1). Runs until
/// the task is dropped. `on_closed(connection number, result)` is called
/// when a connection ends.
///
/// A failed `accept` (e.g. out of file descriptors) never ends the server
/// and never spins: it is reported once per burst of failures as
/// `on_closed(0, Err(error))` (connection number 0), then accepting is
/// retried on the same listener after [`Limits::accept_backoff`], doubled
/// after each further failure up to [`Limits::accept_backoff_max`]. Beyond
/// [`Limits::max_connections`] connections are accepted and closed at
/// once.
///
/// # Errors
/// None in practice (the loop runs until dropped); the type leaves room
/// for fatal listener errors.
pub async fn serve<C, M, D>(
    listener: TcpListener,
    config: FollowerConfig,
    limits: Limits,
    make_callback: M,
    on_closed: D,
) -> io::Result<()>
where
    C: FnMut(&mut Follower<Instant>, NetEvent<'_>) -> Flow + Send + 'static,
    M: Fn(u64, SocketAddr) -> C + Send + Sync + 'static,
    D: Fn(u64, io::Result<Closed>) + Send + Sync + 'static,
{
    serve_with(
        listener,
        config,
        limits,
        move |n, peer| {
            let mut callback = make_callback(n, peer);
            // No sender: the channel is closed from the start.
            let (_, none) = mpsc::channel::<core::convert::Infallible>(1);
            let callback =
                move |f: &mut Follower<Instant>,
                      input: ConnectInput<'_, core::convert::Infallible>| {
                    match input {
                        ConnectInput::Net(e) => callback(f, e),
                        ConnectInput::External(never) => match never {},
                    }
                };
            (none, callback)
        },
        on_closed,
    )
    .await
}

/// [`serve`] where every connection also has a channel of its own:
/// `make_connection(connection number, peer)` gives the receiver and the
/// callback (e.g. after starting an engine process for this connection,
/// whose moves come on the channel); each value received is passed to
/// that connection's callback as [`ConnectInput::External`], as in
/// [`connect_with`]. It is called only for connections accepted within
/// [`Limits::max_connections`], so at most that many exist at once; the
/// receiver and the callback are dropped when the connection ends (an
/// engine they own can stop then). A connection whose callback returns
/// [`Flow::Close`] ends alone: the server and the other connections go
/// on. Everything else is [`serve`]'s.
///
/// # Errors
/// As [`serve`].
pub async fn serve_with<C, X, M, D>(
    listener: TcpListener,
    config: FollowerConfig,
    limits: Limits,
    make_connection: M,
    on_closed: D,
) -> io::Result<()>
where
    C: FnMut(&mut Follower<Instant>, ConnectInput<'_, X>) -> Flow + Send + 'static,
    X: Send + 'static,
    M: Fn(u64, SocketAddr) -> (mpsc::Receiver<X>, C) + Send + Sync + 'static,
    D: Fn(u64, io::Result<Closed>) + Send + Sync + 'static,
{
    let limits = Arc::new(limits);
    let budget = Arc::new(Budget::default());
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
                        on_closed(0, Err(e));
                        limits.accept_backoff
                    }
                    Some(d) => (d * 2).min(limits.accept_backoff_max),
                };
                backoff = Some(pause);
                tokio::time::sleep(pause).await;
                continue;
            }
        };
        number += 1;
        if active.load(Ordering::Relaxed) >= limits.max_connections {
            drop(stream);
            on_closed(number, Ok(Closed::TooManyConnections));
            continue;
        }
        active.fetch_add(1, Ordering::Relaxed);
        let (mut external, mut callback) = make_connection(number, peer);
        let (limits, budget, active, on_closed) = (
            limits.clone(),
            budget.clone(),
            active.clone(),
            on_closed.clone(),
        );
        let config = config.clone();
        tokio::spawn(async move {
            let leniency = config.leniency;
            let mut session = Follower::new(config, Instant::now());
            let result = run(
                stream,
                &mut session,
                leniency,
                &limits,
                &budget,
                &mut external,
                &mut callback,
            )
            .await;
            // The connection's channel and callback go first (an engine
            // they own stops), then the count.
            drop(external);
            drop(callback);
            active.fetch_sub(1, Ordering::Relaxed);
            on_closed(number, result);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::GameOffer;
    use crate::types::Name;
    use board_core::draughts::Color;
    use std::sync::Mutex;
    use std::vec::Vec;

    /// `serve_with`: each connection's channel is its own; a value on it
    /// reaches that connection's callback (here: it plays the move sent
    /// from another task), and a connection closed from its callback
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
            config,
            Limits::default(),
            move |n, _| {
                m.lock().unwrap().push(n);
                let (tx, rx) = mpsc::channel::<u64>(1);
                move_maker(tx, n);
                let cb = move |f: &mut Follower<Instant>, input: ConnectInput<'_, u64>| {
                    match input {
                        // Connection 1 closes on its first value.
                        ConnectInput::External(1) => return Flow::Close,
                        ConnectInput::External(_) if f.is_our_turn() => {
                            let mv = f.position().unwrap().legal_moves().as_slice()[0];
                            f.send_move(mv, Instant::now()).unwrap();
                        }
                        _ => {}
                    }
                    Flow::Continue
                };
                (rx, cb)
            },
            |_, _| {},
        ));
        for conn in 1..=2u64 {
            let (tx, rx) = mpsc::channel::<()>(1);
            let mut moves = 0usize;
            let request = GameOffer {
                our_color: Color::Black,
                minutes: 1,
                moves: 0,
                start: None,
            };
            let closed = connect_with(
                addr,
                InitiatorConfig::new(Name::new("init").unwrap()),
                &Limits::default(),
                rx,
                |i, input| {
                    match input {
                        ConnectInput::Net(NetEvent::Connected { .. }) => {
                            tx.try_send(()).unwrap();
                        }
                        ConnectInput::External(()) => {
                            i.request_game(request, Instant::now()).unwrap()
                        }
                        ConnectInput::Net(NetEvent::Session(Event::MoveReceived { .. })) => {
                            moves += 1;
                            return Flow::Close;
                        }
                        _ => {}
                    }
                    Flow::Continue
                },
            )
            .await
            .unwrap();
            if conn == 1 {
                // Its follower closed on its channel's value, before moving.
                assert_eq!((closed, moves), (Closed::ByPeer, 0));
            } else {
                // The follower's move came from its channel.
                assert_eq!((closed, moves), (Closed::ByUs, 1));
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
}
