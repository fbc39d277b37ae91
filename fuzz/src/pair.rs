//! Two one-peer sessions of the family wired in memory with the fuzzer on
//! the wire: the session targets (`dxp_session`, `csa_client_session`,
//! `citrine_session`) run a protocol's two ends through this harness, which
//! goes through the family's [`Session`] trait only (the protocol's own
//! commands are the caller's).
//!
//! What it checks on every frame a session writes: the transmit is exactly
//! one frame of the protocol (its framer, terminator included) that the
//! writer decodes as its own output (`decode_outgoing`): a session never
//! writes what the protocol cannot carry.

use std::collections::VecDeque;

use boardwire_proto::Session;
use boardwire_proto::framer::{Framer, Status};
use boardwire_proto::memory::{handle_timeouts, next_deadline};

/// Frames written by one side and not yet delivered: (bytes, whether the
/// writer closes the stream after them).
type Queue = VecDeque<(Vec<u8>, bool)>;

/// A cap for the check of outgoing frames: above every protocol's longest
/// line (a CSA x1 reply can be long; the check is of the framing, not of
/// the peer's cap).
const OUTGOING_CAP: usize = 1 << 16;

/// `A` and `B` with the frames in flight between them.
pub struct Wire<A: Session<Conn = ()>, B: Session<Conn = (), Time = A::Time>> {
    /// The first session.
    pub a: A,
    /// The second session.
    pub b: B,
    /// Frames from `a` to `b`.
    to_b: Queue,
    /// Frames from `b` to `a`.
    to_a: Queue,
    /// `a` closed its stream (a closing transmit was delivered).
    a_closed: bool,
    /// `b` closed its stream.
    b_closed: bool,
    /// The clock.
    pub now: A::Time,
    /// Something other than the two sessions' own frames reached one of
    /// them: injected bytes, a frame error, a close, a dropped frame.
    pub dirty: bool,
    /// Check `b`'s frames (module docs); off for a `b` that misbehaves on
    /// purpose (the simulated Citrine's cut and garbage lines).
    pub check_b: bool,
}

/// Takes every transmit of `s` into `queue` (dropped once `closed`),
/// checking each (module docs).
fn collect<S: Session<Conn = ()>>(s: &mut S, queue: &mut Queue, closed: bool, check: bool) -> bool {
    let mut any = false;
    while let Some(((), t)) = s.poll_transmit() {
        any = true;
        let bytes = t.as_bytes();
        if check && (!bytes.is_empty() || !t.closes()) {
            let mut framer = S::Framer::new(OUTGOING_CAP);
            match framer.decode(bytes) {
                Status::Complete { frame, consumed } => {
                    assert_eq!(consumed, bytes.len(), "{bytes:?} is not one frame");
                    if let Err(e) = s.decode_outgoing(frame) {
                        panic!("a session wrote {bytes:?}, which it does not decode: {e}");
                    }
                }
                _ => panic!("a session wrote {bytes:?}, not one terminated frame"),
            }
        }
        if !closed {
            queue.push_back((bytes.to_vec(), t.closes()));
        }
    }
    any
}

/// Delivers the first frame of `queue` to `to`; a closing one then closes
/// the stream (`handle_close`, and `from_closed` set: the writer's later
/// frames are dropped, as a socket would). Returns whether there was one.
fn deliver<S: Session<Conn = ()>>(
    to: &mut S,
    queue: &mut Queue,
    from_closed: &mut bool,
    now: S::Time,
) -> bool {
    let Some((bytes, closes)) = queue.pop_front() else {
        return false;
    };
    to.handle_input((), &bytes, now);
    if closes {
        *from_closed = true;
        queue.clear();
        to.handle_close((), now);
    }
    true
}

impl<A: Session<Conn = ()>, B: Session<Conn = (), Time = A::Time>> Wire<A, B> {
    /// The two sessions, nothing in flight, at `now`.
    pub fn new(a: A, b: B, now: A::Time) -> Self {
        Wire {
            a,
            b,
            to_b: Queue::new(),
            to_a: Queue::new(),
            a_closed: false,
            b_closed: false,
            now,
            dirty: false,
            check_b: true,
        }
    }

    /// Takes both sides' transmits onto the wire. Returns whether any.
    pub fn collect(&mut self) -> bool {
        let x = collect(&mut self.a, &mut self.to_b, self.a_closed, true);
        collect(&mut self.b, &mut self.to_a, self.b_closed, self.check_b) || x
    }

    /// Delivers one frame in flight towards `b` (`to_b`) or `a`.
    pub fn deliver_one(&mut self, to_b: bool) -> bool {
        self.collect();
        if to_b {
            deliver(&mut self.b, &mut self.to_b, &mut self.a_closed, self.now)
        } else {
            deliver(&mut self.a, &mut self.to_a, &mut self.b_closed, self.now)
        }
    }

    /// One round: every frame in flight, both ways. Returns whether any
    /// frame moved.
    pub fn round(&mut self) -> bool {
        let mut moved = self.collect();
        while deliver(&mut self.b, &mut self.to_b, &mut self.a_closed, self.now) {
            moved = true;
        }
        while deliver(&mut self.a, &mut self.to_a, &mut self.b_closed, self.now) {
            moved = true;
        }
        self.collect() || moved
    }

    /// Whether nothing is in flight.
    pub fn is_quiet(&mut self) -> bool {
        self.collect();
        self.to_a.is_empty() && self.to_b.is_empty()
    }

    /// Drops the first frame in flight towards `b` (or `a`).
    pub fn drop_one(&mut self, to_b: bool) {
        self.collect();
        let q = if to_b { &mut self.to_b } else { &mut self.to_a };
        if q.pop_front().is_some() {
            self.dirty = true;
        }
    }

    /// Bytes from nowhere into `b` (or `a`), through the trait.
    pub fn inject(&mut self, to_b: bool, bytes: &[u8]) {
        self.dirty = true;
        if to_b {
            self.b.handle_input((), bytes, self.now);
        } else {
            self.a.handle_input((), bytes, self.now);
        }
    }

    /// Whether either side's stream was closed.
    pub fn closed(&self) -> bool {
        self.a_closed || self.b_closed
    }

    /// The peer of `b` (or `a`) closes its stream.
    pub fn close(&mut self, to_b: bool) {
        self.dirty = true;
        if to_b {
            self.a_closed = true;
            self.to_b.clear();
            self.b.handle_close((), self.now);
        } else {
            self.b_closed = true;
            self.to_a.clear();
            self.a.handle_close((), self.now);
        }
    }

    /// Moves the clock to the next deadline of either side (at most
    /// `limit` ahead; `step` ahead when there is none) and lets both act
    /// on it. Returns whether there was a deadline within `limit`.
    pub fn advance(&mut self, limit: A::Time, step: A::Time) -> bool {
        match next_deadline(&self.a, &self.b) {
            Some(t) if t <= limit => {
                if t > self.now {
                    self.now = t;
                }
                handle_timeouts(&mut self.a, &mut self.b, self.now);
                true
            }
            _ => {
                if step > self.now && step <= limit {
                    self.now = step;
                    handle_timeouts(&mut self.a, &mut self.b, self.now);
                }
                false
            }
        }
    }
}

/// The fuzzer's bytes read as operations: [`Ops::byte`] gives the next
/// byte (0 at the end), [`Ops::bytes`] a length byte and that many bytes.
pub struct Ops<'a> {
    data: &'a [u8],
}

impl<'a> Ops<'a> {
    /// Over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Ops { data }
    }

    /// Whether all bytes are read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next byte, 0 when none is left.
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// Two bytes, big-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_be_bytes([self.byte(), self.byte()])
    }

    /// A length byte, then up to that many bytes.
    pub fn bytes(&mut self) -> &'a [u8] {
        let n = usize::from(self.byte()).min(self.data.len());
        let (head, rest) = self.data.split_at(n);
        self.data = rest;
        head
    }
}
