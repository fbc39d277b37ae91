//! The line framer: finds line boundaries in a byte stream over a
//! caller-owned buffer, with a mandatory length cap ([`spec::citrine`](crate::spec::citrine),
//! *Link*: commands and replies are text lines ended with CR LF).
//!
//! A line ends at CR, at LF, or at CR LF (also LF CR, which a popular
//! driver sends): any run of CR and LF bytes ends a line, and empty lines
//! carry nothing, so they are not reported.

/// What [`Framer::decode`] found at the front of the buffer: the family's
/// `Status` (`boardwire_proto::Status`). In every case the caller drops
/// `consumed` bytes from the front of its buffer (after using `frame`,
/// which borrows them) and calls again with the rest and any new bytes
/// appended. For Citrine lines: `Complete` carries `1..=max_frame_len`
/// bytes and `consumed` counts the line, its terminator bytes present in
/// the buffer and any empty lines before it; `Partial`'s `consumed` counts
/// terminators of empty lines and bytes of an over-long line being
/// discarded (often 0); `Overlong` is reported once, as soon as more than
/// the cap has arrived without a terminator, then the rest of that line is
/// discarded up to and including the next terminator.
pub use boardwire_proto::Status;

/// A [`Framer`] with an input buffer of its own: the family's capped
/// `FrameBuffer` (`boardwire_proto::FrameBuffer`) over this crate's line
/// framer, the loop "push bytes, take lines, compact" written once.
///
/// ```
/// use novag_citrine::framer::{Frame, FrameBuffer, Framer};
/// let mut input = FrameBuffer::with_capacity(Framer::new(80), 512);
/// input.push(b"New Game\r\nM 1 e2");
/// assert_eq!(input.next_frame(), Some(Frame::Complete(b"New Game")));
/// assert_eq!(input.next_frame(), None); // `M 1 e2` is incomplete
/// ```
pub use boardwire_proto::framer::{Frame, FrameBuffer};

/// The Citrine's line rules for the family's [`LineFramer`](boardwire_proto::LineFramer):
/// CR and LF each end a line, any run of them is one terminator (so empty
/// lines are not reported), the default cap is [`DEFAULT_MAX_LEN`].
pub type CitrineLines = boardwire_proto::CrLfLines<DEFAULT_MAX_LEN>;

/// A sans-IO line framer with a length cap: the family's `LineFramer` with
/// [`CitrineLines`]. `Framer::new(max_frame_len)` reports lines longer than
/// `max_frame_len` bytes (the terminator not counted; at least 1) as
/// overlong; [`Framer::default`] has the cap [`DEFAULT_MAX_LEN`]. A last
/// line without its terminator is a line (a peer that closed right after
/// writing it).
///
/// The framer remembers how far it has scanned, so a line arriving in many
/// small reads is scanned once.
///
/// ```
/// use novag_citrine::framer::{Framer, Status};
/// let mut framer = Framer::new(80);
/// let mut buf = b"New Game\r\nM 1 e2".to_vec();
/// let Status::Complete { frame, consumed } = framer.decode(&buf) else { panic!() };
/// assert_eq!(frame, b"New Game");
/// buf.drain(..consumed);
/// assert_eq!(framer.decode(&buf), Status::Partial { consumed: 0 }); // `M 1 e2` is incomplete
/// ```
pub type Framer = boardwire_proto::LineFramer<CitrineLines>;

/// The default line cap of [`Framer::default`]: 256 bytes, the terminator
/// not counted. [`spec::citrine`](crate::spec::citrine) gives no maximum (*Link*); the
/// longest line it shows (a game-list row) is under 40 bytes.
pub const DEFAULT_MAX_LEN: usize = 256;

/// A heap [`FrameBuffer`] for `max_line_len`-byte lines, room for several.
pub(crate) fn line_buffer(max_line_len: usize) -> FrameBuffer<Framer, alloc::boxed::Box<[u8]>> {
    FrameBuffer::with_capacity(Framer::new(max_line_len), 512)
}
