//! The blocking driver: any one-peer [`Session`] over any `Read + Write`
//! whose reads return `TimedOut` or `WouldBlock` when the line is quiet (a
//! serial port opened with a read timeout; see
//! [`Limits::poll_interval`]). See [the module above](super) for the order
//! of work. No runtime, one port.

use core::ops::ControlFlow;
use std::boxed::Box;
use std::io::{self, Read, Write};
use std::time::Instant;

use super::{
    Activity, Closed, Ended, Flush, Limits, Stop, deliver, deliver_rest, drain_events, go,
};
use crate::framer::{FrameBuffer, Framer};
use crate::session::Session;

/// Runs `session` over `port` until the callback returns `Break`, the port
/// reports end of file, the session closes, or a limit is hit. Each round:
/// `handle_timeout` when `poll_timeout()` has passed, transmits and events,
/// [`Activity::Idle`], one read (as long as the port's read timeout, which
/// should be at most [`Limits::poll_interval`]), then the frames read.
///
/// # Errors
/// Reading or writing `port` failed (the session was told with
/// `handle_close` and its last events went to the callback first). A write
/// that times out (where the port's writes do) is
/// [`Closed::SendTimeout`].
pub fn run<S, P, R>(
    port: &mut P,
    session: &mut S,
    limits: &Limits,
    mut callback: impl FnMut(&mut S, Activity<'_, '_, S>) -> ControlFlow<R>,
) -> io::Result<Ended<R>>
where
    S: Session<Conn = (), Time = Instant>,
    P: Read + Write + ?Sized,
{
    let framer = <S::Framer as Framer>::new(session.max_frame_len());
    let mut input: FrameBuffer<S::Framer, Box<[u8]>> =
        FrameBuffer::with_capacity(framer, limits.read_buffer);
    let mut bad = 0u32;
    let stop = loop {
        if let Err(stop) = turn(port, session, &mut input, &mut bad, limits, &mut callback) {
            break stop;
        }
    };
    let ended = match stop {
        Stop::Break(r) => Ended::Break(r),
        Stop::Closed(c) => Ended::Closed(c),
        Stop::Io(e) => {
            session.handle_close((), Instant::now());
            drain_events(session, &mut callback);
            return Err(e);
        }
    };
    let mut written = 0;
    while let Some(((), t)) = session.poll_transmit() {
        written += 1;
        if written > limits.output_queue_cap || write::<()>(port, t.as_bytes()).is_err() {
            break;
        }
    }
    drain_events(session, &mut callback);
    Ok(ended)
}

fn write<R>(port: &mut (impl Write + ?Sized), bytes: &[u8]) -> Result<(), Stop<R>> {
    port.write_all(bytes)
        .and_then(|()| port.flush())
        .map_err(|e| {
            if e.kind() == io::ErrorKind::TimedOut {
                Stop::Closed(Closed::SendTimeout)
            } else {
                Stop::Io(e)
            }
        })
}

fn turn<S, P, R>(
    port: &mut P,
    session: &mut S,
    input: &mut FrameBuffer<S::Framer, Box<[u8]>>,
    bad: &mut u32,
    limits: &Limits,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S>) -> ControlFlow<R>,
) -> Result<(), Stop<R>>
where
    S: Session<Conn = (), Time = Instant>,
    P: Read + Write + ?Sized,
{
    let now = Instant::now();
    if session.poll_timeout().is_some_and(|t| t <= now) {
        session.handle_timeout(now);
    }
    loop {
        pump(port, session, limits, callback)?;
        go(callback(session, Activity::Idle))?;
        if !pump(port, session, limits, callback)? {
            break;
        }
    }
    let n = loop {
        match port.read(input.space()) {
            Ok(n) => break n,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                ) =>
            {
                return Ok(());
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Stop::Io(e)),
        }
    };
    if n == 0 {
        let now = Instant::now();
        let flow = deliver_rest(session, input.framer(), input.buffered(), now, callback);
        input.clear();
        session.handle_close((), now);
        go(flow)?;
        return Err(Stop::Closed(Closed::ByPeer));
    }
    input.filled(n);
    while let Some(frame) = input.next_frame() {
        go(deliver(session, frame, bad, Instant::now(), callback))?;
        pump(port, session, limits, callback)?;
        if *bad >= limits.max_bad_frames {
            return Err(Stop::Closed(Closed::TooManyBadFrames));
        }
    }
    Ok(())
}

/// Transmits, then events, until both are empty. `Ok(true)` when anything
/// was done.
fn pump<S, P, R>(
    port: &mut P,
    session: &mut S,
    limits: &Limits,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S>) -> ControlFlow<R>,
) -> Result<bool, Stop<R>>
where
    S: Session<Conn = (), Time = Instant>,
    P: Write + ?Sized,
{
    let mut flush = Flush::default();
    while let Some((t, brk)) = flush.next(session, limits, callback)? {
        write(port, t.as_bytes())?;
        flush.written(&t, brk)?;
    }
    Ok(flush.any())
}
