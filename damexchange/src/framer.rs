//! Framing of the NUL-terminated DXP byte stream ([`spec::damexchange`](crate::spec::damexchange),
//! *Transport (layer 1)*): [`Framer`] and [`Status`].
//!
//! Every message is followed by one `\0`. A read may hold several messages,
//! or part of one. The framer works over a buffer the caller owns (the
//! httparse shape): it hands out each complete frame borrowed from that
//! buffer (zero-copy), remembers how far it has scanned so that no byte is
//! looked at twice, and enforces a cap: a frame longer than the cap is
//! reported once, as soon as more than the cap has arrived without a NUL,
//! and skipped up to and including its NUL, so the frames after it still
//! decode. The framer is the family's one framer, `boardwire_proto::LineFramer`
//! (its tests, DXP's frames among them, are there).

use crate::message::MAX_MESSAGE_LEN;

/// What [`Framer::decode`] found at the front of the buffer: the family's
/// one `Status` (`Complete { frame, consumed }`, `Partial { consumed }`,
/// `Overlong { len, consumed }`), re-exported from `boardwire-proto`.
///
/// After every call the caller drops `consumed` bytes from the front of its
/// buffer. Call again while `consumed` is non-zero; `Partial { consumed: 0 }`
/// means "read more bytes, append them, call again". A
/// [`FrameBuffer`] does all of this.
pub use boardwire_proto::Status;

/// A capped buffer the caller owns, with a framer: bytes in, frames out
/// (the family's one "buffer + framer" loop, from `boardwire-proto`).
/// `FrameBuffer::new(Framer::default(), [0u8; 128])` holds a whole DXP
/// message on the stack.
pub use boardwire_proto::framer::{Frame, FrameBuffer};

/// DXP's framing for the family's [`LineFramer`](boardwire_proto::LineFramer):
/// frames end at NUL, every other byte (CR too) is the frame's, the default
/// cap is [`DEFAULT_MAX_LEN`], and bytes left without their NUL when the
/// stream ends are an error ([`FrameError::Unterminated`](crate::error::FrameError)).
pub type DxpFrames = boardwire_proto::NulFrames<DEFAULT_MAX_LEN>;

/// Splits a DXP byte stream into frames (messages without their NUL), over
/// a buffer the caller owns: the family's one framer with [`DxpFrames`].
///
/// `Framer::new(max_frame_len)`: the cap in bytes, the NUL not counted;
/// [`Framer::default`] is the spec's 127 (128 with the NUL). The framer
/// remembers how far it has scanned (no byte is looked at twice); a frame
/// over the cap is reported once, as soon as more than the cap has arrived
/// without a NUL, and skipped up to and including its NUL.
///
/// ```
/// use damexchange::framer::{Framer, Status};
/// let mut framer = Framer::default();
/// let mut buf = b"E00\0M00".to_vec();
/// assert_eq!(framer.decode(&buf), Status::Complete { frame: b"E00", consumed: 4 });
/// buf.drain(..4);
/// assert_eq!(framer.decode(&buf), Status::Partial { consumed: 0 });
/// buf.extend_from_slice(b"12061100\0");
/// assert_eq!(framer.decode(&buf), Status::Complete { frame: b"M0012061100", consumed: 12 });
/// ```
pub type Framer = boardwire_proto::LineFramer<DxpFrames>;

/// The default cap of [`Framer::default`], bytes, the NUL not counted: the
/// spec's longest message, [`MAX_MESSAGE_LEN`] (127;
/// [`spec::damexchange`](crate::spec::damexchange), *Transport (layer 1)*).
pub const DEFAULT_MAX_LEN: usize = MAX_MESSAGE_LEN;
