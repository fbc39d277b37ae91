//! The [`Session`] trait: the sans-IO contract of every session of the
//! family (DXP `Initiator` and `Follower`, CSA `Client` and `Server`,
//! Citrine `Driver` and the simulated `Device`).

use core::fmt::{Debug, Display};

use crate::error::FrameError;
use crate::framer::Framer;
use crate::transmit::Transmit;

/// A sans-IO protocol session: bytes and clock readings in, bytes to write,
/// events and a deadline out. It never reads a socket or a clock.
///
/// The contract, the same for every implementation:
/// 1. Inputs, in any order: [`handle_input`](Self::handle_input) (raw bytes
///    from the wire; the session frames and decodes them) or, for a caller
///    that frames and decodes itself (a codec),
///    [`handle_message`](Self::handle_message) and
///    [`handle_frame_error`](Self::handle_frame_error);
///    [`handle_timeout`](Self::handle_timeout) once
///    [`poll_timeout`](Self::poll_timeout) has passed;
///    [`handle_close`](Self::handle_close) when the peer closed the stream
///    (a game in progress ends, and its `GameEnded` event is delivered).
///    The session's own commands (`send_move`, ...) are inherent methods.
/// 2. Then, in this order: every [`poll_transmit`](Self::poll_transmit)
///    (write it), every [`poll_event`](Self::poll_event) (react: a reaction
///    may queue more to write, so go back to `poll_transmit`), then
///    [`poll_timeout`](Self::poll_timeout) (when to call `handle_timeout`).
///
/// `Conn` names the connection an input came from and a transmit goes to:
/// `()` for the sessions with one peer (everything but the CSA `Server`),
/// the server's connection id for the CSA `Server`. The one-peer sessions
/// also have inherent methods without it (`handle_input(bytes, now)`), which
/// concrete code calls; generic code calls these, with `()`.
///
/// [`drive::tokio`](crate::drive) and [`drive::blocking`](crate::drive) run
/// any one-peer session over a stream.
pub trait Session {
    /// The connection: `()` for a one-peer session.
    type Conn: Copy + Eq + Debug;
    /// The clock reading the session is driven by (the family's sessions take
    /// any `board_core::time::Timestamp`).
    type Time: Copy + Ord + Debug;
    /// A message the peer sends (borrowed from the frame).
    type Incoming<'a>;
    /// A message this session sends (borrowed from the frame).
    type Outgoing<'a>;
    /// What happened, for the application.
    type Event;
    /// The protocol's decode error (`DecodeError { message, field, offset,
    /// problem }`).
    type DecodeError: Debug + Display;
    /// The protocol's framer (its terminator rule).
    type Framer: Framer;

    /// Raw bytes from `conn`, any chunking: framed (with the session's cap)
    /// and decoded by the session; bad frames are handled as
    /// [`handle_frame_error`](Self::handle_frame_error) would.
    fn handle_input(&mut self, conn: Self::Conn, bytes: &[u8], now: Self::Time);
    /// One message, already decoded (the caller framed it).
    fn handle_message(&mut self, conn: Self::Conn, msg: &Self::Incoming<'_>, now: Self::Time);
    /// What the caller's framer or decoder reported instead of a message:
    /// counts towards the peer's misbehaviour limit and is answered as the
    /// protocol says.
    fn handle_frame_error(
        &mut self,
        conn: Self::Conn,
        error: &FrameError<Self::DecodeError>,
        now: Self::Time,
    );
    /// The time returned by [`poll_timeout`](Self::poll_timeout) has come.
    fn handle_timeout(&mut self, now: Self::Time);
    /// `conn` closed its stream.
    fn handle_close(&mut self, conn: Self::Conn, now: Self::Time);

    /// 1. Bytes to write, and where.
    fn poll_transmit(&mut self) -> Option<(Self::Conn, Transmit)>;
    /// 2. What happened.
    fn poll_event(&mut self) -> Option<Self::Event>;
    /// 3. When to call [`handle_timeout`](Self::handle_timeout) next.
    fn poll_timeout(&self) -> Option<Self::Time>;

    /// The session's cap on an incoming frame, bytes without the terminator
    /// (what a driver's framer must use).
    fn max_frame_len(&self) -> usize;
    /// Decodes a frame from the peer as the session would (its leniency).
    ///
    /// # Errors
    /// The frame is not a valid message.
    fn decode_incoming<'a>(&self, frame: &'a [u8])
    -> Result<Self::Incoming<'a>, Self::DecodeError>;
    /// Decodes a frame this session wrote (for transcripts and logs).
    ///
    /// # Errors
    /// The frame is not a valid message (never for the session's own
    /// output).
    fn decode_outgoing<'a>(&self, frame: &'a [u8])
    -> Result<Self::Outgoing<'a>, Self::DecodeError>;
    /// Whether `msg` is of a kind the protocol does not know (an
    /// `Unrecognised` frame): drivers count these with the malformed frames
    /// towards their limit.
    fn is_unrecognised(msg: &Self::Incoming<'_>) -> bool;
}
