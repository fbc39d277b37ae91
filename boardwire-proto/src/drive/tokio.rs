//! The tokio driver: any one-peer [`Session`] over any `AsyncRead +
//! AsyncWrite` (see [the module above](super) for the order of work).

use core::ops::ControlFlow;
use std::boxed::Box;
use std::io;
use std::time::Instant;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

use super::{
    Activity, Closed, Ended, Flush, Limits, Stop, deliver, deliver_rest, drain_events, go,
};
use crate::framer::{FrameBuffer, Framer};
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
    callback: impl FnMut(&mut S, Activity<'_, '_, S>) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    S: Session<Conn = (), Time = Instant>,
    IO: AsyncRead + AsyncWrite + Unpin,
{
    drive(stream, session, limits, None, callback).await
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

async fn write<R, IO: AsyncWrite + Unpin>(
    stream: &mut IO,
    limits: &Limits,
    bytes: &[u8],
) -> Result<(), Stop<R>> {
    let io = async {
        stream.write_all(bytes).await?;
        stream.flush().await
    };
    match tokio::time::timeout(limits.send_timeout, io).await {
        Err(_) => Err(Stop::Closed(Closed::SendTimeout)),
        Ok(Err(e)) => Err(Stop::Io(e)),
        Ok(Ok(())) => Ok(()),
    }
}

/// Transmits, then events, until both are empty. `Ok(true)` when anything
/// was done.
async fn pump<S, IO, X, R>(
    session: &mut S,
    stream: &mut IO,
    limits: &Limits,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> Result<bool, Stop<R>>
where
    S: Session<Conn = (), Time = Instant>,
    IO: AsyncWrite + Unpin,
{
    let mut flush = Flush::default();
    // `Sent` is shown before the bytes go out; a `Break` still writes them.
    while let Some((t, brk)) = flush.next(session, limits, callback)? {
        write(stream, limits, t.as_bytes()).await?;
        if t.closes() {
            let _ = tokio::time::timeout(limits.send_timeout, stream.shutdown()).await;
        }
        flush.written(&t, brk)?;
    }
    Ok(flush.any())
}

/// Ends a run: the session's last transmits (best effort) and events.
async fn finish<S, IO, X, R>(
    session: &mut S,
    stream: &mut IO,
    limits: &Limits,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
    stop: Stop<R>,
) -> io::Result<Ended<R>>
where
    S: Session<Conn = (), Time = Instant>,
    IO: AsyncWrite + Unpin,
{
    let ended = match stop {
        Stop::Break(r) => Ended::Break(r),
        Stop::Closed(c) => Ended::Closed(c),
        Stop::Io(e) => {
            session.handle_close((), Instant::now());
            drain_events(session, callback);
            return Err(e);
        }
    };
    let mut written = 0;
    while let Some(((), t)) = session.poll_transmit() {
        written += 1;
        if written > limits.output_queue_cap
            || write::<R, IO>(stream, limits, t.as_bytes()).await.is_err()
        {
            break;
        }
    }
    drain_events(session, callback);
    Ok(ended)
}

enum Woke<X> {
    Read(io::Result<usize>),
    Timeout,
    External(Option<X>),
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
    let stop = loop {
        match turn(
            session,
            &mut stream,
            &mut input,
            &mut bad,
            limits,
            &mut external,
            &mut callback,
        )
        .await
        {
            Ok(()) => {}
            Err(stop) => break stop,
        }
    };
    finish(session, &mut stream, limits, &mut callback, stop).await
}

/// One turn: write and deliver what is pending, call back `Idle`, then wait
/// for one thing (bytes, the deadline, an external value) and handle it.
async fn turn<S, IO, X, R>(
    session: &mut S,
    stream: &mut IO,
    input: &mut FrameBuffer<S::Framer, Box<[u8]>>,
    bad: &mut u32,
    limits: &Limits,
    external: &mut Option<mpsc::Receiver<X>>,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S, X>) -> ControlFlow<R>,
) -> Result<(), Stop<R>>
where
    S: Session<Conn = (), Time = Instant>,
    IO: AsyncRead + AsyncWrite + Unpin,
{
    loop {
        pump(session, stream, limits, callback).await?;
        go(callback(session, Activity::Idle))?;
        if !pump(session, stream, limits, callback).await? {
            break;
        }
    }
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
    let woke = tokio::select! {
        r = stream.read(input.space()) => Woke::Read(r),
        () = sleep => Woke::Timeout,
        x = ext => Woke::External(x),
    };
    match woke {
        Woke::Timeout => session.handle_timeout(Instant::now()),
        Woke::External(None) => *external = None,
        Woke::External(Some(x)) => go(callback(session, Activity::External(x)))?,
        Woke::Read(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
        Woke::Read(Err(e)) => return Err(Stop::Io(e)),
        Woke::Read(Ok(0)) => {
            let now = Instant::now();
            let flow = deliver_rest(session, input.framer(), input.buffered(), now, callback);
            input.clear();
            session.handle_close((), now);
            go(flow)?;
            return Err(Stop::Closed(Closed::ByPeer));
        }
        Woke::Read(Ok(n)) => {
            input.filled(n);
            while let Some(frame) = input.next_frame() {
                go(deliver(session, frame, bad, Instant::now(), callback))?;
                pump(session, stream, limits, callback).await?;
                if *bad >= limits.max_bad_frames {
                    return Err(Stop::Closed(Closed::TooManyBadFrames));
                }
            }
        }
    }
    Ok(())
}
