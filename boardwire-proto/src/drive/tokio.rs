//! The tokio driver: any one-peer [`Session`] over any `AsyncRead +
//! AsyncWrite` (see [the module above](super) for the order of work).

use core::ops::ControlFlow;
use std::boxed::Box;
use std::io;
use std::time::Instant;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

use super::{Activity, Closed, Ended, Limits, each_sent_frame};
use crate::error::FrameError;
use crate::framer::{Frame, FrameBuffer, Framer};
use crate::session::Session;

/// Runs `session` over `stream` until the callback returns `Break`, the
/// peer closes, the session closes, or a limit is hit.
///
/// # Errors
/// Reading or writing `stream` failed (the session was told with
/// `handle_close` and its last events went to the callback first).
pub async fn run<S, IO, R>(
    stream: IO,
    session: &mut S,
    limits: &Limits,
    mut callback: impl FnMut(&mut S, Activity<'_, '_, S>) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    S: Session<Conn = (), Time = Instant>,
    IO: AsyncRead + AsyncWrite + Unpin,
{
    drive(
        stream,
        session,
        limits,
        None::<mpsc::Receiver<core::convert::Infallible>>,
        |s, a| callback(s, a),
    )
    .await
}

/// [`run`] that also waits on `external`: each value received is handed to
/// the callback as [`Activity::External`] with the session (a move an
/// engine found in another task); what the callback queues is written at
/// once. When every sender is dropped the channel is no longer waited on.
///
/// # Errors
/// As [`run`].
pub async fn run_with<S, IO, X, R>(
    stream: IO,
    session: &mut S,
    limits: &Limits,
    external: mpsc::Receiver<X>,
    callback: impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    S: Session<Conn = (), Time = Instant>,
    IO: AsyncRead + AsyncWrite + Unpin,
{
    drive(stream, session, limits, Some(external), callback).await
}

enum Stop<R> {
    Break(R),
    Closed(Closed),
    Io(io::Error),
}

struct Out<'s, IO> {
    stream: &'s mut IO,
    limits: &'s Limits,
}

/// Transmits, then events, until both are empty. `Ok(true)` when anything
/// was done.
async fn pump<S, IO, X, R>(
    session: &mut S,
    out: &mut Out<'_, IO>,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> Result<bool, Stop<R>>
where
    S: Session<Conn = (), Time = Instant>,
    IO: AsyncWrite + Unpin,
{
    let mut any = false;
    let mut written = 0usize;
    loop {
        let mut round = false;
        while let Some(((), t)) = session.poll_transmit() {
            round = true;
            written += 1;
            if written > out.limits.output_queue_cap {
                return Err(Stop::Closed(Closed::OutputQueueFull));
            }
            let mut brk = None;
            // `Sent` is shown before the bytes go out; a `Break` still
            // writes them.
            let bytes = t.as_bytes();
            let mut frames: smallvec_free::Frames = smallvec_free::Frames::default();
            each_sent_frame(session, bytes, |frame, _| frames.push(frame, bytes));
            for (from, to) in frames.iter() {
                let frame = &bytes[from..to];
                let msg = session.decode_outgoing(frame).ok();
                if let ControlFlow::Break(r) = callback(
                    session,
                    Activity::Sent {
                        frame,
                        message: msg.as_ref(),
                    },
                ) {
                    brk = Some(r);
                }
            }
            match tokio::time::timeout(out.limits.send_timeout, out.stream.write_all(bytes)).await {
                Err(_) => return Err(Stop::Closed(Closed::SendTimeout)),
                Ok(Err(e)) => return Err(Stop::Io(e)),
                Ok(Ok(())) => {}
            }
            if t.closes() {
                let _ = tokio::time::timeout(out.limits.send_timeout, out.stream.shutdown()).await;
                return Err(Stop::Closed(Closed::BySession));
            }
            if let Some(r) = brk {
                return Err(Stop::Break(r));
            }
        }
        if round {
            flush(out).await?;
        }
        while let Some(e) = session.poll_event() {
            round = true;
            if let ControlFlow::Break(r) = callback(session, Activity::Event(e)) {
                return Err(Stop::Break(r));
            }
        }
        if !round {
            return Ok(any);
        }
        any = true;
    }
}

async fn flush<R, IO: AsyncWrite + Unpin>(out: &mut Out<'_, IO>) -> Result<(), Stop<R>> {
    match tokio::time::timeout(out.limits.send_timeout, out.stream.flush()).await {
        Err(_) => Err(Stop::Closed(Closed::SendTimeout)),
        Ok(Err(e)) => Err(Stop::Io(e)),
        Ok(Ok(())) => Ok(()),
    }
}

/// Frame boundaries of one transmit without allocating for the usual few.
mod smallvec_free {
    #[derive(Default)]
    pub(super) struct Frames {
        inline: [(usize, usize); 8],
        n: usize,
        more: std::vec::Vec<(usize, usize)>,
    }

    impl Frames {
        pub(super) fn push(&mut self, frame: &[u8], whole: &[u8]) {
            let from = frame.as_ptr() as usize - whole.as_ptr() as usize;
            let span = (from, from + frame.len());
            if self.n < self.inline.len() {
                self.inline[self.n] = span;
                self.n += 1;
            } else {
                self.more.push(span);
            }
        }

        pub(super) fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
            self.inline[..self.n]
                .iter()
                .chain(self.more.iter())
                .copied()
        }
    }
}

/// Delivers the end of a run: the session's last transmits (best effort)
/// and events; a `Break` here is ignored (the run ends anyway).
async fn finish<S, IO, X, R>(
    session: &mut S,
    out: &mut Out<'_, IO>,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) where
    S: Session<Conn = (), Time = Instant>,
    IO: AsyncWrite + Unpin,
{
    let mut written = 0;
    while let Some(((), t)) = session.poll_transmit() {
        written += 1;
        if written > out.limits.output_queue_cap {
            break;
        }
        if !matches!(
            tokio::time::timeout(out.limits.send_timeout, out.stream.write_all(t.as_bytes())).await,
            Ok(Ok(()))
        ) {
            break;
        }
    }
    let _ = tokio::time::timeout(out.limits.send_timeout, out.stream.flush()).await;
    while let Some(e) = session.poll_event() {
        let _ = callback(session, Activity::Event(e));
    }
}

async fn drive<S, IO, X, R>(
    mut stream: IO,
    session: &mut S,
    limits: &Limits,
    mut external: Option<mpsc::Receiver<X>>,
    mut callback: impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    S: Session<Conn = (), Time = Instant>,
    IO: AsyncRead + AsyncWrite + Unpin,
{
    let framer = <S::Framer as Framer>::new(session.max_frame_len());
    let mut input: FrameBuffer<S::Framer, Box<[u8]>> =
        FrameBuffer::with_capacity(framer, limits.read_buffer);
    let mut bad = 0u32;

    macro_rules! stop {
        ($stop:expr) => {{
            let mut out = Out {
                stream: &mut stream,
                limits,
            };
            return match $stop {
                Stop::Break(r) => {
                    finish(session, &mut out, &mut callback).await;
                    Ok(Ended::Break(r))
                }
                Stop::Closed(c) => {
                    finish(session, &mut out, &mut callback).await;
                    Ok(Ended::Closed(c))
                }
                Stop::Io(e) => {
                    session.handle_close((), Instant::now());
                    while let Some(ev) = session.poll_event() {
                        let _ = callback(session, Activity::Event(ev));
                    }
                    Err(e)
                }
            };
        }};
    }
    macro_rules! call {
        ($activity:expr) => {
            if let ControlFlow::Break(r) = callback(session, $activity) {
                stop!(Stop::Break(r))
            }
        };
    }
    macro_rules! pump_idle {
        () => {{
            let mut out = Out {
                stream: &mut stream,
                limits,
            };
            loop {
                if let Err(s) = pump(session, &mut out, &mut callback).await {
                    stop!(s)
                }
                if let ControlFlow::Break(r) = callback(session, Activity::Idle) {
                    stop!(Stop::Break(r))
                }
                match pump(session, &mut out, &mut callback).await {
                    Err(s) => stop!(s),
                    Ok(false) => break,
                    Ok(true) => {}
                }
            }
        }};
    }

    loop {
        pump_idle!();
        let deadline = session.poll_timeout();
        let sleep = async {
            match deadline {
                Some(t) => tokio::time::sleep_until(t.into()).await,
                None => core::future::pending::<()>().await,
            }
        };
        let ext = async {
            match external.as_mut() {
                Some(rx) => rx.recv().await,
                None => core::future::pending().await,
            }
        };
        enum Woke<X> {
            Read(io::Result<usize>),
            Timeout,
            External(Option<X>),
        }
        let woke = tokio::select! {
            r = stream.read(input.space()) => Woke::Read(r),
            () = sleep => Woke::Timeout,
            x = ext => Woke::External(x),
        };
        match woke {
            Woke::Timeout => session.handle_timeout(Instant::now()),
            Woke::External(None) => external = None,
            Woke::External(Some(x)) => call!(Activity::External(x)),
            Woke::Read(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
            Woke::Read(Err(e)) => stop!(Stop::Io(e)),
            Woke::Read(Ok(0)) => {
                let now = Instant::now();
                let rest = input.buffered();
                if !rest.is_empty() {
                    if <S::Framer as Framer>::LAST_FRAME_NEEDS_TERMINATOR {
                        let error = FrameError::Unterminated { len: rest.len() };
                        call!(Activity::Malformed {
                            error: &error,
                            frame: rest
                        });
                        session.handle_frame_error((), &error, now);
                    } else {
                        let frame = rest;
                        match session.decode_incoming(frame) {
                            Ok(message) => {
                                if let ControlFlow::Break(r) = callback(
                                    session,
                                    Activity::Received {
                                        frame,
                                        message: &message,
                                    },
                                ) {
                                    drop(message);
                                    stop!(Stop::Break(r))
                                }
                                session.handle_message((), &message, now);
                            }
                            Err(e) => {
                                let error = FrameError::Malformed(e);
                                call!(Activity::Malformed {
                                    error: &error,
                                    frame
                                });
                                session.handle_frame_error((), &error, now);
                            }
                        }
                    }
                }
                input.clear();
                session.handle_close((), now);
                let mut out = Out {
                    stream: &mut stream,
                    limits,
                };
                finish(session, &mut out, &mut callback).await;
                return Ok(Ended::Closed(Closed::ByPeer));
            }
            Woke::Read(Ok(n)) => {
                input.filled(n);
                while let Some(frame) = input.next_frame() {
                    let now = Instant::now();
                    match frame {
                        Frame::Complete(frame) => match session.decode_incoming(frame) {
                            Ok(message) => {
                                if S::is_unrecognised(&message) {
                                    bad += 1;
                                } else {
                                    bad = 0;
                                }
                                if let ControlFlow::Break(r) = callback(
                                    session,
                                    Activity::Received {
                                        frame,
                                        message: &message,
                                    },
                                ) {
                                    drop(message);
                                    stop!(Stop::Break(r))
                                }
                                session.handle_message((), &message, now);
                            }
                            Err(e) => {
                                bad += 1;
                                let error = FrameError::Malformed(e);
                                call!(Activity::Malformed {
                                    error: &error,
                                    frame
                                });
                                session.handle_frame_error((), &error, now);
                            }
                        },
                        Frame::Overlong { len, max } => {
                            bad += 1;
                            let error = FrameError::Overlong { len, max };
                            call!(Activity::Malformed {
                                error: &error,
                                frame: &[]
                            });
                            session.handle_frame_error((), &error, now);
                        }
                    }
                    let mut out = Out {
                        stream: &mut stream,
                        limits,
                    };
                    if let Err(s) = pump(session, &mut out, &mut callback).await {
                        stop!(s)
                    }
                    if bad > limits.max_bad_frames {
                        stop!(Stop::Closed(Closed::TooManyBadFrames))
                    }
                }
            }
        }
    }
}
