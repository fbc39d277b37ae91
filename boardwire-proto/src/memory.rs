//! Two one-peer sessions wired together in memory, no socket or serial
//! port: for tests, examples, simulations and engine matches in one
//! process. Generic over [`Session`], so one loop runs a DXP initiator
//! against a follower, a CSA client against a scripted server, or a Citrine
//! driver against the simulated device.
//!
//! The loop that works for every session of the family:
//! 1. act on either session (its inherent commands: `send_move`,
//!    `resign`, `request_game`, ...): a command only queues a transmit;
//! 2. [`pump`] until quiet: every transmit of one side goes to the other's
//!    `handle_input`, and every event to your callback, round after round
//!    until a whole round moves nothing;
//! 3. only when [`pump`] moved nothing and you have nothing to do, advance
//!    your clock to [`next_deadline`] and call [`handle_timeouts`].
//!
//! Advancing the clock in step 3 before the queued transmits of step 1 were
//! pumped makes the peer's deadlines fire for frames it was never given
//! (DXP "no MOVE from the peer in time", CSA "no confirmation of our move
//! in time"): a session's deadline assumes that what it queued is written
//! at once, as the drivers do.
//!
//! ```
//! use boardwire_proto::memory::{Side, handle_timeouts, next_deadline, pump};
//! use boardwire_proto::Session;
//!
//! /// Plays two sessions against each other until both are quiet and no
//! /// deadline is left, acting through `act` after every quiet pump; at most
//! /// `rounds` rounds.
//! fn play<A, B>(
//!     a: &mut A,
//!     b: &mut B,
//!     mut now: A::Time,
//!     rounds: usize,
//!     mut act: impl FnMut(&mut A, &mut B, A::Time) -> bool,
//!     mut seen: impl FnMut(Side<A::Event, B::Event>),
//! ) where
//!     A: Session<Conn = ()>,
//!     B: Session<Conn = (), Time = A::Time>,
//! {
//!     for _ in 0..rounds {
//!         let moved = pump(a, b, now, &mut seen);
//!         if moved || act(a, b, now) {
//!             continue;
//!         }
//!         match next_deadline(a, b) {
//!             Some(t) => {
//!                 now = now.max(t);
//!                 handle_timeouts(a, b, now);
//!             }
//!             None => break,
//!         }
//!     }
//! }
//! ```
//!
//! The CSA `Server` has many connections (`Conn = ConnId`) and is not a
//! one-peer session: pump it with its clients by hand, as csa-protocol's
//! `csa_in_memory` example does.

use crate::session::Session;

/// An event of one of the two sessions given to [`pump`], tagged with the
/// session it came from: `A` is the first argument, `B` the second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Side<X, Y> {
    /// An event of the first session.
    A(X),
    /// An event of the second session.
    B(Y),
}

/// Delivers what `a` and `b` transmit to each other (`handle_input`, at
/// `now`) and hands every event of both to `on_event`, round after round,
/// until a round moves nothing. Returns `true` if any transmit was
/// delivered or any event seen.
///
/// A transmit that closes the stream ([`Transmit::closes`]) is delivered,
/// then the receiver's `handle_close` is called, and whatever the closing
/// side queues after it in this call is discarded, as a socket would.
/// Bounded: a pair that keeps answering each other forever stops after
/// `u16::MAX` rounds (returns `true`; call again to go on).
///
/// [`Transmit::closes`]: crate::Transmit::closes
pub fn pump<A, B>(
    a: &mut A,
    b: &mut B,
    now: A::Time,
    mut on_event: impl FnMut(Side<A::Event, B::Event>),
) -> bool
where
    A: Session<Conn = ()>,
    B: Session<Conn = (), Time = A::Time>,
{
    let (mut a_closed, mut b_closed) = (false, false);
    let mut any = false;
    for _ in 0..u16::MAX {
        let mut moved = deliver(a, b, &mut a_closed, now);
        moved |= deliver(b, a, &mut b_closed, now);
        while let Some(e) = a.poll_event() {
            moved = true;
            on_event(Side::A(e));
        }
        while let Some(e) = b.poll_event() {
            moved = true;
            on_event(Side::B(e));
        }
        if !moved {
            return any;
        }
        any = true;
    }
    true
}

/// One direction of [`pump`]: every transmit of `from` to `to`'s
/// `handle_input` (then its `handle_close` after a closing one; once
/// `from_closed`, the rest are discarded). Returns whether there was any.
fn deliver<F, T>(from: &mut F, to: &mut T, from_closed: &mut bool, now: F::Time) -> bool
where
    F: Session<Conn = ()>,
    T: Session<Conn = (), Time = F::Time>,
{
    let mut moved = false;
    while let Some(((), t)) = from.poll_transmit() {
        moved = true;
        if *from_closed {
            continue;
        }
        to.handle_input((), t.as_bytes(), now);
        if t.closes() {
            *from_closed = true;
            to.handle_close((), now);
        }
    }
    moved
}

/// The earlier of the two sessions' deadlines ([`Session::poll_timeout`]),
/// or `None` when neither has one.
pub fn next_deadline<A, B>(a: &A, b: &B) -> Option<A::Time>
where
    A: Session,
    B: Session<Time = A::Time>,
{
    match (a.poll_timeout(), b.poll_timeout()) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

/// Calls [`Session::handle_timeout`] on both sessions at `now` (each acts
/// only on its deadlines that have passed); then [`pump`] again.
pub fn handle_timeouts<A, B>(a: &mut A, b: &mut B, now: A::Time)
where
    A: Session,
    B: Session<Time = A::Time>,
{
    a.handle_timeout(now);
    b.handle_timeout(now);
}

#[cfg(test)]
#[cfg(feature = "alloc")] // `Transmit::new`
mod tests {
    extern crate std;
    use std::collections::VecDeque;
    use std::vec::Vec;

    use super::*;
    use crate::framer::{LineFramer, LineRules};
    use crate::{FrameError, Transmit};

    enum Lf {}
    impl LineRules for Lf {
        const DEFAULT_MAX_LEN: usize = 16;
        const BARE_CR_ENDS_LINE: bool = false;
    }

    /// Counts down: given the byte `n`, it sends `n - 1` until 0; `n == 9`
    /// closes after its answer; a deadline at `deadline` sends `7`.
    #[derive(Default)]
    struct Countdown {
        out: VecDeque<Transmit>,
        events: VecDeque<u8>,
        deadline: Option<u32>,
        closed: bool,
        inputs_after_close: usize,
    }

    impl Session for Countdown {
        type Conn = ();
        type Time = u32;
        type Incoming<'a> = u8;
        type Outgoing<'a> = u8;
        type Event = u8;
        type DecodeError = &'static str;
        type Framer = LineFramer<Lf>;

        fn handle_input(&mut self, (): (), bytes: &[u8], _: u32) {
            if self.closed {
                self.inputs_after_close += 1;
            }
            for &n in bytes {
                self.events.push_back(n);
                if n > 0 {
                    let t = Transmit::new(&[n - 1]);
                    self.out.push_back(if n == 9 { t.and_close() } else { t });
                }
            }
        }
        fn handle_message(&mut self, (): (), _: &u8, _: u32) {}
        fn handle_frame_error(&mut self, (): (), _: &FrameError<&'static str>, _: u32) {}
        fn handle_timeout(&mut self, now: u32) {
            if self.deadline.is_some_and(|d| d <= now) {
                self.deadline = None;
                self.out.push_back(Transmit::new(&[7]));
            }
        }
        fn handle_close(&mut self, (): (), _: u32) {
            self.closed = true;
        }
        fn poll_transmit(&mut self) -> Option<((), Transmit)> {
            self.out.pop_front().map(|t| ((), t))
        }
        fn poll_event(&mut self) -> Option<u8> {
            self.events.pop_front()
        }
        fn poll_timeout(&self) -> Option<u32> {
            self.deadline
        }
        fn max_frame_len(&self) -> usize {
            16
        }
        fn decode_incoming(&self, f: &[u8]) -> Result<u8, &'static str> {
            f.first().copied().ok_or("empty")
        }
        fn decode_outgoing(&self, f: &[u8]) -> Result<u8, &'static str> {
            f.first().copied().ok_or("empty")
        }
        fn is_unrecognised(_: &u8) -> bool {
            false
        }
    }

    #[test]
    fn pump_runs_both_ways_until_quiet_and_tags_events() {
        let (mut a, mut b) = (Countdown::default(), Countdown::default());
        a.out.push_back(Transmit::new(&[4]));
        let mut seen = Vec::new();
        assert!(pump(&mut a, &mut b, 0, |e| seen.push(e)));
        // 4 to B, 3 to A, 2 to B, 1 to A, 0 to B; events in delivery rounds.
        let b_saw: Vec<u8> = seen
            .iter()
            .filter_map(|e| match e {
                Side::B(n) => Some(*n),
                Side::A(_) => None,
            })
            .collect();
        let a_saw: Vec<u8> = seen
            .iter()
            .filter_map(|e| match e {
                Side::A(n) => Some(*n),
                Side::B(_) => None,
            })
            .collect();
        assert_eq!((a_saw, b_saw), (std::vec![3, 1], std::vec![4, 2, 0]));
        assert!(!pump(&mut a, &mut b, 0, |_| panic!("quiet")));
    }

    #[test]
    fn a_closing_transmit_closes_the_receiver_and_later_ones_are_dropped() {
        let (mut a, mut b) = (Countdown::default(), Countdown::default());
        // B answers 9 with a closing 8; A answers 8 with 7, which still
        // reaches B (A did not close); B's answer 6, after its close, is
        // discarded.
        a.out.push_back(Transmit::new(&[9]));
        let mut seen = Vec::new();
        assert!(pump(&mut a, &mut b, 0, |e| seen.push(e)));
        assert!(a.closed, "A's handle_close ran after B's closing frame");
        assert!(!b.closed);
        assert_eq!(a.inputs_after_close, 0, "nothing from B after its close");
        // Round 1: A's 9 to B, B's closing 8 to A; round 2: A's 7 to B,
        // B's 6 dropped.
        assert_eq!(seen, std::vec![Side::A(8), Side::B(9), Side::B(7)]);
    }

    #[test]
    fn deadlines_are_the_earlier_one_and_fire_on_both() {
        let (mut a, mut b) = (Countdown::default(), Countdown::default());
        assert_eq!(next_deadline(&a, &b), None);
        a.deadline = Some(50);
        assert_eq!(next_deadline(&a, &b), Some(50));
        b.deadline = Some(30);
        assert_eq!(next_deadline(&a, &b), Some(30));
        handle_timeouts(&mut a, &mut b, 30);
        assert_eq!((a.deadline, b.deadline), (Some(50), None));
        let mut seen = Vec::new();
        assert!(pump(&mut a, &mut b, 30, |e| seen.push(e)));
        assert_eq!(
            seen.first(),
            Some(&Side::A(7)),
            "B's timeout frame reached A"
        );
    }

    /// A round in which only the second session transmits, and nothing
    /// comes of it (a bare close), still moved something: `pump` says so.
    #[test]
    fn a_transmit_of_the_second_session_alone_counts() {
        let (mut a, mut b) = (Countdown::default(), Countdown::default());
        b.out.push_back(Transmit::close());
        assert!(pump(&mut a, &mut b, 0, |e| panic!("no event: {e:?}")));
        assert!(a.closed);
    }
}
