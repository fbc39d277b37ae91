//! The blocking driver: any one-peer [`Session`] over any `Read + Write`
//! whose reads return `TimedOut` or `WouldBlock` when the line is quiet (a
//! serial port opened with a read timeout; see
//! [`Limits::poll_interval`]). See [the module above](super) for the order
//! of work. No runtime, one port.

use core::ops::ControlFlow;
use std::boxed::Box;
use std::io::{self, Read, Write};
use std::time::Instant;

use super::{Activity, Closed, Ended, Limits, each_sent_frame};
use crate::error::FrameError;
use crate::framer::{Frame, FrameBuffer, Framer};
use crate::session::Session;

enum Stop<R> {
    Break(R),
    Closed(Closed),
    Io(io::Error),
}

/// Runs `session` over `port` until the callback returns `Break`, the port
/// reports end of file, the session closes, or a limit is hit. Each round:
/// `handle_timeout` when `poll_timeout()` has passed, transmits and events,
/// [`Activity::Idle`], one read (at most [`Limits::poll_interval`] long,
/// as the port's timeout makes it), then the frames read.
///
/// # Errors
/// Reading or writing `port` failed (the session was told with
/// `handle_close` and its last events went to the callback first). A
/// write that does not complete within [`Limits::send_timeout`] is
/// [`Closed::SendTimeout`] only where the port's writes time out.
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
    macro_rules! stop {
        ($stop:expr) => {{
            return match $stop {
                Stop::Break(r) => {
                    finish(port, session, limits, &mut callback);
                    Ok(Ended::Break(r))
                }
                Stop::Closed(c) => {
                    finish(port, session, limits, &mut callback);
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
    loop {
        let now = Instant::now();
        if session.poll_timeout().is_some_and(|t| t <= now) {
            session.handle_timeout(now);
        }
        loop {
            if let Err(s) = pump(port, session, limits, &mut callback) {
                stop!(s)
            }
            call!(Activity::Idle);
            match pump(port, session, limits, &mut callback) {
                Err(s) => stop!(s),
                Ok(false) => break,
                Ok(true) => {}
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
                    break usize::MAX;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => stop!(Stop::Io(e)),
            }
        };
        if n == usize::MAX {
            continue;
        }
        if n == 0 {
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
                    match session.decode_incoming(rest) {
                        Ok(message) => {
                            let flow = callback(
                                session,
                                Activity::Received {
                                    frame: rest,
                                    message: &message,
                                },
                            );
                            session.handle_message((), &message, now);
                            drop(message);
                            if let ControlFlow::Break(r) = flow {
                                stop!(Stop::Break(r))
                            }
                        }
                        Err(e) => {
                            let error = FrameError::Malformed(e);
                            call!(Activity::Malformed {
                                error: &error,
                                frame: rest
                            });
                            session.handle_frame_error((), &error, now);
                        }
                    }
                }
            }
            input.clear();
            session.handle_close((), now);
            finish(port, session, limits, &mut callback);
            return Ok(Ended::Closed(Closed::ByPeer));
        }
        input.filled(n);
        while let Some(frame) = input.next_frame() {
            let now = Instant::now();
            match frame {
                Frame::Complete(frame) => match session.decode_incoming(frame) {
                    Ok(message) => {
                        bad = if S::is_unrecognised(&message) {
                            bad + 1
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
                        if let ControlFlow::Break(r) = flow {
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
            if let Err(s) = pump(port, session, limits, &mut callback) {
                stop!(s)
            }
            if bad > limits.max_bad_frames {
                stop!(Stop::Closed(Closed::TooManyBadFrames))
            }
        }
    }
}

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
    let mut any = false;
    let mut written = 0usize;
    loop {
        let mut round = false;
        while let Some(((), t)) = session.poll_transmit() {
            round = true;
            written += 1;
            if written > limits.output_queue_cap {
                return Err(Stop::Closed(Closed::OutputQueueFull));
            }
            let bytes = t.as_bytes();
            let mut spans = std::vec::Vec::new();
            each_sent_frame(session, bytes, |frame, _| {
                let from = frame.as_ptr() as usize - bytes.as_ptr() as usize;
                spans.push((from, from + frame.len()));
            });
            let mut brk = None;
            for (from, to) in spans {
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
            if let Err(e) = port.write_all(bytes).and_then(|()| port.flush()) {
                return Err(if e.kind() == io::ErrorKind::TimedOut {
                    Stop::Closed(Closed::SendTimeout)
                } else {
                    Stop::Io(e)
                });
            }
            if t.closes() {
                return Err(Stop::Closed(Closed::BySession));
            }
            if let Some(r) = brk {
                return Err(Stop::Break(r));
            }
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

fn finish<S, P, R>(
    port: &mut P,
    session: &mut S,
    limits: &Limits,
    callback: &mut impl FnMut(&mut S, Activity<'_, '_, S>) -> ControlFlow<R>,
) where
    S: Session<Conn = (), Time = Instant>,
    P: Write + ?Sized,
{
    let mut written = 0;
    while let Some(((), t)) = session.poll_transmit() {
        written += 1;
        if written > limits.output_queue_cap || port.write_all(t.as_bytes()).is_err() {
            break;
        }
    }
    let _ = port.flush();
    while let Some(e) = session.poll_event() {
        let _ = callback(session, Activity::Event(e));
    }
}
