//! The drivers, run over a toy line protocol: every line `x` from the peer
//! is answered `ack x`; `bye` makes the session close after its answer; a
//! line `slow` arms a 20 ms timeout that answers `tick`.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use boardwire_proto::drive::{Activity, Closed, Ended, Limits};
use boardwire_proto::framer::{LineFramer, LineRules};
use boardwire_proto::{FrameError, Session, Transmit};
use boardwire_vectors::port::ScriptedPort;

/// LF-ended lines (a CR before the LF is dropped), at most 16 bytes.
enum Lf {}

impl LineRules for Lf {
    const DEFAULT_MAX_LEN: usize = 16;
    const BARE_CR_ENDS_LINE: bool = false;
}

#[derive(Debug, PartialEq)]
enum Ev {
    Got(String),
    Bad,
    Closed,
    Tick,
}

impl std::fmt::Display for Ev {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ev::Got(line) => write!(f, "got {line}"),
            Ev::Bad => f.write_str("bad frame"),
            Ev::Closed => f.write_str("closed"),
            Ev::Tick => f.write_str("tick"),
        }
    }
}

#[derive(Default)]
struct Echo {
    out: VecDeque<Transmit>,
    events: VecDeque<Ev>,
    timer: Option<Instant>,
}

impl Session for Echo {
    type Conn = ();
    type Time = Instant;
    type Incoming<'a> = &'a str;
    type Outgoing<'a> = &'a str;
    type Event = Ev;
    type DecodeError = &'static str;
    type Framer = LineFramer<Lf>;

    fn handle_input(&mut self, _: (), _: &[u8], _: Instant) {
        unreachable!("the drivers frame and decode themselves")
    }
    fn handle_message(&mut self, _: (), msg: &&str, now: Instant) {
        let mut t = Transmit::new(format!("ack {msg}\n").as_bytes());
        if *msg == "bye" {
            t = t.and_close();
        }
        if *msg == "slow" {
            self.timer = Some(now + Duration::from_millis(20));
        }
        self.out.push_back(t);
        self.events.push_back(Ev::Got(msg.to_string()));
    }
    fn handle_frame_error(&mut self, _: (), _: &FrameError<&'static str>, _: Instant) {
        self.events.push_back(Ev::Bad);
    }
    fn handle_timeout(&mut self, now: Instant) {
        if self.timer.is_some_and(|t| t <= now) {
            self.timer = None;
            self.out.push_back(Transmit::new(b"tick\n"));
            self.events.push_back(Ev::Tick);
        }
    }
    fn handle_close(&mut self, _: (), _: Instant) {
        self.events.push_back(Ev::Closed);
    }
    fn poll_transmit(&mut self) -> Option<((), Transmit)> {
        self.out.pop_front().map(|t| ((), t))
    }
    fn poll_event(&mut self) -> Option<Ev> {
        self.events.pop_front()
    }
    fn poll_timeout(&self) -> Option<Instant> {
        self.timer
    }
    fn max_frame_len(&self) -> usize {
        8
    }
    fn decode_incoming<'a>(&self, frame: &'a [u8]) -> Result<&'a str, &'static str> {
        match std::str::from_utf8(frame) {
            Ok("") => Err("empty"),
            Ok(s) if s.starts_with('?') => Ok(s),
            Ok(s) if s.bytes().all(|b| b.is_ascii_alphanumeric()) => Ok(s),
            _ => Err("not a word"),
        }
    }
    fn decode_outgoing<'a>(&self, frame: &'a [u8]) -> Result<&'a str, &'static str> {
        std::str::from_utf8(frame).map_err(|_| "not UTF-8")
    }
    fn is_unrecognised(msg: &&str) -> bool {
        msg.starts_with('?')
    }
}

/// What the callback saw, as text.
fn record<X: std::fmt::Debug>(log: &mut Vec<String>, a: &Activity<'_, '_, Echo, X>) {
    log.push(match a {
        Activity::Sent { message, .. } => format!("sent {}", message.unwrap()),
        Activity::Received { message, .. } => format!("recv {message}"),
        Activity::Malformed { error, .. } => format!("bad {error}"),
        Activity::Event(e) => format!("event {e:?}"),
        Activity::Idle => return,
        Activity::External(x) => format!("ext {x:?}"),
        _ => "other".into(),
    });
}

/// A callback that [`record`]s everything and never breaks.
fn recorder<X: std::fmt::Debug>(
    log: &mut Vec<String>,
) -> impl FnMut(&mut Echo, Activity<'_, '_, Echo, X>) -> ControlFlow<()> + '_ {
    |_, a| {
        record(log, &a);
        ControlFlow::Continue(())
    }
}

/// A driver's run, which must end within 5 s and without an I/O error.
async fn within_5_s<T>(run: impl Future<Output = std::io::Result<T>>) -> T {
    tokio::time::timeout(Duration::from_secs(5), run)
        .await
        .unwrap()
        .unwrap()
}

#[tokio::test]
async fn tokio_driver_answers_in_order_and_resynchronises() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (ours, mut peer) = tokio::io::duplex(256);
    let mut session = Echo::default();
    let peer_task = tokio::spawn(async move {
        // A word, an over-long line (skipped), a word, then a cut-off last
        // line at the close: a line protocol decodes it.
        peer.write_all(b"a\nwaytoolongline\nb\nlast").await.unwrap();
        peer.shutdown().await.unwrap();
        let mut got = Vec::new();
        peer.read_to_end(&mut got).await.unwrap();
        String::from_utf8(got).unwrap()
    });
    let mut log = Vec::new();
    let ended = within_5_s(boardwire_proto::drive::tokio::run(
        ours,
        &mut session,
        &Limits::default(),
        recorder(&mut log),
    ))
    .await;
    assert_eq!(ended, Ended::Closed(Closed::ByPeer));
    assert_eq!(
        log,
        [
            "recv a",
            "sent ack a",
            "event Got(\"a\")",
            "bad frame longer than 8 bytes (14 bytes seen): skipped up to the next terminator",
            "event Bad",
            "recv b",
            "sent ack b",
            "event Got(\"b\")",
            "recv last",
            "event Got(\"last\")",
            "event Closed",
        ]
    );
    // The answer to the last line is written after the close was seen.
    assert_eq!(peer_task.await.unwrap(), "ack a\nack b\nack last\n");
}

#[tokio::test]
async fn tokio_driver_times_out_closes_by_session_and_takes_external_values() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (ours, mut peer) = tokio::io::duplex(256);
    let (tx, rx) = tokio::sync::mpsc::channel::<u32>(4);
    let mut session = Echo::default();
    let peer_task = tokio::spawn(async move {
        peer.write_all(b"slow\n").await.unwrap();
        let mut buf = [0u8; 64];
        let mut got = Vec::new();
        while !got.ends_with(b"tick\n") {
            let n = peer.read(&mut buf).await.unwrap();
            got.extend_from_slice(&buf[..n]);
        }
        tx.send(7).await.unwrap();
        // Let the driver take the value before the line that closes.
        tokio::time::sleep(Duration::from_millis(100)).await;
        peer.write_all(b"bye\n").await.unwrap();
        peer.read_to_end(&mut got).await.unwrap();
        String::from_utf8(got).unwrap()
    });
    let mut log = Vec::new();
    let ended = within_5_s(boardwire_proto::drive::tokio::run_with(
        ours,
        &mut session,
        &Limits::default(),
        rx,
        recorder(&mut log),
    ))
    .await;
    assert_eq!(ended, Ended::Closed(Closed::BySession));
    assert_eq!(peer_task.await.unwrap(), "ack slow\ntick\nack bye\n");
    assert!(log.iter().any(|l| l == "event Tick"), "{log:?}");
    assert!(log.iter().any(|l| l == "ext 7"), "{log:?}");
    assert_eq!(log.last().unwrap(), "event Got(\"bye\")");
}

#[tokio::test]
async fn tokio_driver_breaks_and_counts_bad_frames() {
    use tokio::io::AsyncWriteExt;
    // Break from the callback: the run ends with its value.
    let (ours, mut peer) = tokio::io::duplex(256);
    peer.write_all(b"x\nstop\ny\n").await.unwrap();
    let mut session = Echo::default();
    let ended = boardwire_proto::drive::tokio::run(
        ours,
        &mut session,
        &Limits::default(),
        |_, a| match a {
            Activity::Received {
                message: &"stop", ..
            } => ControlFlow::Break(42),
            _ => ControlFlow::Continue(()),
        },
    )
    .await
    .unwrap();
    assert_eq!(ended, Ended::Break(42));

    // Unrecognised and malformed lines in a row beyond the limit close.
    let (ours, mut peer) = tokio::io::duplex(256);
    peer.write_all(b"?a\n!!\n?b\n").await.unwrap();
    let mut limits = Limits::default();
    limits.max_bad_frames = 2;
    let mut session = Echo::default();
    let ended = boardwire_proto::drive::tokio::run(ours, &mut session, &limits, |_, _| {
        ControlFlow::<()>::Continue(())
    })
    .await
    .unwrap();
    assert_eq!(ended, Ended::Closed(Closed::TooManyBadFrames));
    drop(peer);
}

#[test]
fn blocking_driver_runs_the_same_session() {
    let mut port = ScriptedPort::new([&b"a\nsl"[..], b"ow\n"]).quiet(Duration::from_millis(5));
    let mut session = Echo::default();
    let mut log = Vec::new();
    let mut idles = 0;
    let ended = boardwire_proto::drive::blocking::run(
        &mut port,
        &mut session,
        &Limits::default(),
        |_, a| {
            if let Activity::Idle = a {
                idles += 1;
                return ControlFlow::Continue(());
            }
            if let Activity::Event(Ev::Tick) = a {
                return ControlFlow::Break("ticked");
            }
            log.push(format!("{a:?}"));
            ControlFlow::Continue(())
        },
    )
    .unwrap();
    assert_eq!(ended, Ended::Break("ticked"));
    assert_eq!(port.written, b"ack a\nack slow\ntick\n");
    assert!(idles >= 2);
    assert_eq!(log[0], "Received(\"a\")");

    // End of file: the session is closed and the run says so.
    assert_eq!(events_at_eof(b"q\n"), [Ev::Got("q".into()), Ev::Closed]);
}

/// The events of a blocking run over `stream` then the end of file; the
/// run must end closed by the peer.
fn events_at_eof(stream: &'static [u8]) -> Vec<Ev> {
    let mut port = ScriptedPort::new([stream]).eof();
    let mut session = Echo::default();
    let mut events = Vec::new();
    let ended = boardwire_proto::drive::blocking::run(
        &mut port,
        &mut session,
        &Limits::default(),
        |_, a| {
            if let Activity::Event(e) = a {
                events.push(e);
            }
            ControlFlow::<()>::Continue(())
        },
    )
    .unwrap();
    assert_eq!(ended, Ended::Closed(Closed::ByPeer));
    events
}

/// The blocking driver's end of stream, as the framer's contract says: a
/// last line cut off after its CR is the line without the CR (the CR of a
/// CR LF whose LF never came); the tail of an over-long line, reported
/// once, is no further frame (it once was delivered as an empty line).
#[test]
fn blocking_driver_ends_the_stream_as_the_framer_does() {
    assert_eq!(
        events_at_eof(b"q\nlast\r"),
        [Ev::Got("q".into()), Ev::Got("last".into()), Ev::Closed]
    );
    assert_eq!(
        events_at_eof(b"q\nwaytoolongline\r"),
        [Ev::Got("q".into()), Ev::Bad, Ev::Closed]
    );
}
