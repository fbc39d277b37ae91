//! One driver, written once over any one-peer [`Session`]:
//! `tokio` (feature `tokio`) over any `AsyncRead +
//! AsyncWrite` (a `TcpStream`, a pty, a TCP serial bridge), and
//! [`blocking`] (feature `std`) over any `Read + Write` whose reads time
//! out (a serial port). Each protocol crate's `net` / `serial` module wraps
//! them with the protocol's connect, config and limits.
//!
//! What both do, in the session's documented order: read into a capped
//! [`FrameBuffer`](crate::FrameBuffer) (the session's
//! [`max_frame_len`](crate::Session::max_frame_len)), decode each frame with
//! the session's [`decode_incoming`](crate::Session::decode_incoming), show
//! it to the callback ([`Activity::Received`] / [`Activity::Malformed`]),
//! hand it to the session; then write every `poll_transmit()` (each frame
//! shown as [`Activity::Sent`]), hand every `poll_event()` to the callback
//! ([`Activity::Event`]), and once all is quiet call back with
//! [`Activity::Idle`] (the moment to act: move when it is our turn); then
//! wait for bytes, a value on the external channel (tokio) or
//! `poll_timeout()`.
//!
//! The callback returns [`ControlFlow`]:
//! `Break(r)` ends the run with [`Ended::Break`] after what is queued is
//! written.

#[cfg(feature = "std")]
use core::ops::ControlFlow;
use core::time::Duration;

#[cfg(feature = "std")]
pub mod blocking;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod tokio;

use crate::error::FrameError;
use crate::session::Session;
#[cfg(feature = "std")]
use crate::transmit::Transmit;

/// What a protocol crate's driver (`connect`, `run`, ...) takes: the
/// session's settings and the driver's resource bounds, `L` being the
/// protocol's `Limits` (which holds this module's [`Limits`] as its
/// `driver` field). Each crate names it `Config<C>` (`damexchange::net`,
/// `csa_protocol::net`, `novag_citrine::serial`).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Config<C, L> {
    /// The session's settings.
    pub session: C,
    /// The driver's resource bounds.
    pub limits: L,
}

impl<C, L: Default> Config<C, L> {
    /// `session` with the default limits.
    pub fn new(session: C) -> Self {
        Config {
            session,
            limits: L::default(),
        }
    }
}

/// Resource bounds of a driver (both drivers), each with its default.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Bytes of the input buffer (default 8 KiB; raised to the session's
    /// frame cap plus terminator when smaller). One read takes at most this.
    pub read_buffer: usize,
    /// Transmits written in one round before the connection is closed as
    /// flooding ([`Closed::OutputQueueFull`]; default 64).
    pub output_queue_cap: usize,
    /// A write that makes no progress for this long ends the run
    /// ([`Closed::SendTimeout`]; default 20 s, as shogi-server's writer).
    pub send_timeout: Duration,
    /// Consecutive malformed, over-long or unrecognised frames after which
    /// the connection is closed ([`Closed::TooManyBadFrames`]; default 16:
    /// the 16th in a row closes). A session that must answer misbehaviour
    /// on the wire first (DXP's CHAT) does so itself, with its own count,
    /// before this bound.
    pub max_bad_frames: u32,
    /// Blocking driver: the longest wait of one read, so that timeouts and
    /// [`Activity::Idle`] come at least this often (default 50 ms). The
    /// port's own read timeout should not be longer.
    pub poll_interval: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            read_buffer: 8 * 1024,
            output_queue_cap: 64,
            send_timeout: Duration::from_secs(20),
            max_bad_frames: 16,
            poll_interval: Duration::from_millis(50),
        }
    }
}

/// What the driver shows its callback, in wire order. `'a` is the borrow
/// of what is shown, `'m` the frame a message borrows from.
#[non_exhaustive]
pub enum Activity<'a, 'm, S: Session, X = core::convert::Infallible> {
    /// A frame we wrote (terminator excluded) and its message (`None` only if
    /// our own frame does not decode, which a tested session never writes).
    Sent {
        /// The frame.
        frame: &'a [u8],
        /// It decoded.
        message: Option<&'a S::Outgoing<'m>>,
    },
    /// A message we received, before the session handles it.
    Received {
        /// The frame (terminator excluded).
        frame: &'a [u8],
        /// It decoded.
        message: &'a S::Incoming<'m>,
    },
    /// A frame that is over-long, does not decode or ends the stream without
    /// its terminator; it goes to the session (`handle_frame_error`) next.
    Malformed {
        /// What is wrong.
        error: &'a FrameError<S::DecodeError>,
        /// The frame's bytes (empty for an over-long frame, which is not kept).
        frame: &'a [u8],
    },
    /// An event of the session.
    Event(S::Event),
    /// Everything is written and handled: the session waits for the peer.
    Idle,
    /// A value from the external channel (tokio driver): act on it with the
    /// session; what that queues is written at once.
    External(X),
}

impl<'a, 'm, S: Session, X: core::fmt::Debug> core::fmt::Debug for Activity<'a, 'm, S, X>
where
    S::Outgoing<'m>: core::fmt::Debug,
    S::Incoming<'m>: core::fmt::Debug,
    S::Event: core::fmt::Debug,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Activity::Sent { message, .. } => f.debug_tuple("Sent").field(message).finish(),
            Activity::Received { message, .. } => f.debug_tuple("Received").field(message).finish(),
            Activity::Malformed { error, .. } => f.debug_tuple("Malformed").field(error).finish(),
            Activity::Event(e) => f.debug_tuple("Event").field(e).finish(),
            Activity::Idle => f.write_str("Idle"),
            Activity::External(x) => f.debug_tuple("External").field(x).finish(),
        }
    }
}

/// Why a run ended without the callback's `Break`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Closed {
    /// The peer closed the stream (end of file); the session was told
    /// (`handle_close`) and its last events delivered.
    ByPeer,
    /// The session asked to close after its last transmit (a server ending
    /// the connection, a client after `LOGOUT`).
    BySession,
    /// More than [`Limits::max_bad_frames`] bad frames in a row.
    TooManyBadFrames,
    /// More than [`Limits::output_queue_cap`] transmits in one round.
    OutputQueueFull,
    /// A write made no progress for [`Limits::send_timeout`].
    SendTimeout,
}

impl core::fmt::Display for Closed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Closed::ByPeer => "the peer closed the connection",
            Closed::BySession => "the session closed the connection",
            Closed::TooManyBadFrames => "too many malformed frames in a row",
            Closed::OutputQueueFull => "output queue full",
            Closed::SendTimeout => "a write made no progress in time",
        })
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended<R> {
    /// The callback returned `Break(r)`.
    Break(R),
    /// The connection closed.
    Closed(Closed),
}

/// Why a driver's loop stops.
#[cfg(feature = "std")]
pub(crate) enum Stop<R> {
    Break(R),
    Closed(Closed),
    Io(std::io::Error),
}

/// The callback's answer as the loop's `?`.
#[cfg(feature = "std")]
pub(crate) fn go<R>(flow: ControlFlow<R>) -> Result<(), Stop<R>> {
    match flow {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(r) => Err(Stop::Break(r)),
    }
}

/// A driver's flush of the session's output, written once for the tokio and
/// the blocking driver: round after round, every transmit (shown to the
/// callback first, [`show_sent`]), then every event, until a round has
/// neither. The driver writes each transmit [`next`](Self::next) hands it,
/// then calls [`written`](Self::written).
#[cfg(feature = "std")]
#[derive(Default)]
pub(crate) struct Flush {
    /// Whether any round had something (the flush's answer).
    any: bool,
    /// Whether the current round had something.
    round: bool,
    /// Transmits of this flush, against [`Limits::output_queue_cap`].
    written: usize,
}

#[cfg(feature = "std")]
impl Flush {
    /// The next transmit to write, with the callback's `Break` on seeing
    /// it (acted on once the bytes are written); `None` when the session
    /// is quiet.
    pub(crate) fn next<S, X, R>(
        &mut self,
        session: &mut S,
        limits: &Limits,
        callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
    ) -> Result<Option<(Transmit, Option<R>)>, Stop<R>>
    where
        S: Session<Conn = ()>,
    {
        loop {
            if let Some(((), t)) = session.poll_transmit() {
                self.round = true;
                self.written += 1;
                if self.written > limits.output_queue_cap {
                    return Err(Stop::Closed(Closed::OutputQueueFull));
                }
                let brk = show_sent(session, t.as_bytes(), callback);
                return Ok(Some((t, brk)));
            }
            while let Some(e) = session.poll_event() {
                self.round = true;
                go(callback(session, Activity::Event(e)))?;
            }
            if !self.round {
                return Ok(None);
            }
            self.any = true;
            self.round = false;
        }
    }

    /// `t` was written: the run ends if it closes the stream, or if the
    /// callback broke on seeing it.
    pub(crate) fn written<R>(&self, t: &Transmit, brk: Option<R>) -> Result<(), Stop<R>> {
        if t.closes() {
            return Err(Stop::Closed(Closed::BySession));
        }
        brk.map_or(Ok(()), |r| Err(Stop::Break(r)))
    }

    /// Whether anything was written or shown.
    pub(crate) fn any(&self) -> bool {
        self.any
    }
}

/// Shows each frame of a transmit to the callback as [`Activity::Sent`]
/// (split with a fresh framer of the session's kind, decoded with
/// `decode_outgoing`); the first `Break` is returned after all are shown.
#[cfg(feature = "std")]
pub(crate) fn show_sent<S: Session, X, R>(
    session: &mut S,
    bytes: &[u8],
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> Option<R> {
    use crate::framer::{Framer, Status};
    let mut framer = <S::Framer as Framer>::new(usize::MAX - 4);
    let mut rest = bytes;
    let mut brk = None;
    while !rest.is_empty() {
        let (frame, consumed) = match framer.decode(rest) {
            Status::Complete { frame, consumed } => (Some(frame), consumed),
            // A transmit without its last terminator: show it whole.
            Status::Partial { consumed: 0 } => (Some(rest), rest.len()),
            Status::Partial { consumed } | Status::Overlong { consumed, .. } => (None, consumed),
        };
        if let Some(frame) = frame {
            let message = session.decode_outgoing(frame).ok();
            let flow = callback(
                session,
                Activity::Sent {
                    frame,
                    message: message.as_ref(),
                },
            );
            drop(message);
            if let ControlFlow::Break(r) = flow {
                brk.get_or_insert(r);
            }
        }
        rest = &rest[consumed.clamp(1, rest.len())..];
    }
    brk
}

/// Decodes one frame from the buffer, shows it ([`Activity::Received`] or
/// [`Activity::Malformed`]) and hands it to the session; counts consecutive
/// bad frames in `bad`.
#[cfg(feature = "std")]
pub(crate) fn deliver<S, X, R>(
    session: &mut S,
    frame: crate::framer::Frame<'_>,
    bad: &mut u32,
    now: S::Time,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> ControlFlow<R>
where
    S: Session<Conn = ()>,
{
    match frame {
        crate::framer::Frame::Complete(frame) => deliver_frame(session, frame, bad, now, callback),
        crate::framer::Frame::Overlong { len, max } => {
            *bad += 1;
            malformed(
                session,
                &FrameError::Overlong { len, max },
                &[],
                now,
                callback,
            )
        }
    }
}

/// [`deliver`] for a complete frame. The session sees the frame even when
/// the callback breaks (it was received).
#[cfg(feature = "std")]
fn deliver_frame<S, X, R>(
    session: &mut S,
    frame: &[u8],
    bad: &mut u32,
    now: S::Time,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> ControlFlow<R>
where
    S: Session<Conn = ()>,
{
    match session.decode_incoming(frame) {
        Ok(message) => {
            *bad = if S::is_unrecognised(&message) {
                *bad + 1
            } else {
                0
            };
            let flow = callback(
                session,
                Activity::Received {
                    frame,
                    message: &message,
                },
            );
            session.handle_message((), &message, now);
            flow
        }
        Err(e) => {
            *bad += 1;
            malformed(session, &FrameError::Malformed(e), frame, now, callback)
        }
    }
}

/// Shows a bad frame ([`Activity::Malformed`]) and hands its error to the
/// session; the session sees it even when the callback breaks.
#[cfg(feature = "std")]
fn malformed<S, X, R>(
    session: &mut S,
    error: &FrameError<S::DecodeError>,
    frame: &[u8],
    now: S::Time,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> ControlFlow<R>
where
    S: Session<Conn = ()>,
{
    let flow = callback(session, Activity::Malformed { error, frame });
    session.handle_frame_error((), error, now);
    flow
}

/// The stream ended with `rest` buffered by `framer`: what
/// [`last_frame`](crate::framer::last_frame) finds there, an error for a
/// protocol whose frames always end with their terminator, else a last
/// frame (its trailing CR dropped, capped as every frame).
#[cfg(feature = "std")]
pub(crate) fn deliver_rest<S, X, R>(
    session: &mut S,
    framer: &S::Framer,
    rest: &[u8],
    now: S::Time,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> ControlFlow<R>
where
    S: Session<Conn = ()>,
{
    match crate::framer::last_frame(framer, rest) {
        None => ControlFlow::Continue(()),
        Some(Ok(frame)) => deliver_frame(session, frame, &mut 0, now, callback),
        Some(Err(error)) => malformed(session, &error, rest, now, callback),
    }
}

/// Hands every pending event to the callback, ignoring `Break` (the run is
/// ending anyway).
#[cfg(feature = "std")]
pub(crate) fn drain_events<S: Session, X, R>(
    session: &mut S,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) {
    while let Some(e) = session.poll_event() {
        let _ = callback(session, Activity::Event(e));
    }
}

/// What went wrong on a connection, bounded whatever the peer sends: the
/// first problem's text (what an exit message reports) and how many there
/// were. A peer that keeps sending bad frames cannot grow it. Used by the
/// game runs of damexchange (`play`) and csa-protocol (`play`,
/// `transcript`), which re-export it.
///
/// ```
/// use boardwire_proto::drive::Problems;
///
/// let mut p = Problems::default();
/// p.push("login refused".into());
/// p.push("malformed line: ...".into());
/// assert_eq!((p.first(), p.count()), (Some("login refused"), 2));
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems {
    first: Option<alloc::string::String>,
    count: u64,
}

#[cfg(feature = "alloc")]
impl Problems {
    /// Records one problem (its text is kept only if it is the first).
    pub fn push(&mut self, text: alloc::string::String) {
        self.count = self.count.saturating_add(1);
        if self.first.is_none() {
            self.first = Some(text);
        }
    }

    /// The first problem, if there was any.
    pub fn first(&self) -> Option<&str> {
        self.first.as_deref()
    }

    /// How many problems were recorded (saturating at `u64::MAX`).
    pub fn count(&self) -> u64 {
        self.count
    }
}
