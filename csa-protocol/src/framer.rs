//! The line framer: finds line boundaries in a byte stream, with a size cap
//! ([`spec::csa`](crate::spec::csa), *Transport and lexical rules*).
//!
//! CSA is a line protocol: every message is one line ended by LF; real peers
//! also send CR LF, so a CR just before the LF is removed too. An empty line
//! is a frame of its own (the keep-alive), never an error.
//!
//! The framer never owns the bytes: the caller keeps a buffer, appends what
//! it reads, calls [`Framer::decode`] and drops the `consumed` bytes the
//! answer names from the front of its buffer. The framer remembers how far
//! it has already looked for an LF, so a line that arrives in many small
//! reads is scanned once in total.
//!
//! A line longer than the cap is reported once, as [`Status::Overlong`], as
//! soon as more than the cap has arrived without an LF; the framer then
//! discards up to and including the next LF (reported as
//! [`Status::Partial`] with the discarded bytes as `consumed`), so the
//! caller's buffer never holds more than the cap plus one read, and the next
//! line decodes normally.

/// Default maximum line length, in bytes, without the line terminator.
///
/// The longest line a CSA server sends in normal play is a `Game_Summary`
/// field or a `%%CHAT` relay; 8 KiB leaves ample room for chat text while
/// bounding memory per connection. shogi-server has no limit at all (the
/// recorded transcript shows it echoing a 70 000-byte line); capping is a
/// deliberate difference ([`spec::csa`](crate::spec::csa), *Transport and lexical
/// rules*).
pub const DEFAULT_MAX_LEN: usize = 8192;

/// The answer of [`Framer::decode`]: the family's one framer status (the
/// httparse shape), shared with `damexchange` and `novag-citrine`.
pub use boardwire_proto::Status;

/// The family's capped caller-owned input buffer: push bytes in, take lines
/// out. `FrameBuffer<Framer, _>` is the "buffer + framer" loop written once;
/// the sessions keep one per peer.
///
/// ```
/// use csa_protocol::framer::{Frame, FrameBuffer, Framer};
///
/// let mut input = FrameBuffer::new(Framer::new(16), [0u8; 18]);
/// input.push(b"LOGIN a b\r\n+77");
/// assert_eq!(input.next_frame(), Some(Frame::Complete(b"LOGIN a b")));
/// assert_eq!(input.next_frame(), None); // `+77` waits for its LF
/// ```
pub use boardwire_proto::{Frame, FrameBuffer};

/// CSA's line rules for the family's [`LineFramer`](boardwire_proto::LineFramer):
/// a line ends at LF (a CR before it is removed too), an empty line is a
/// frame (the keep-alive), the default cap is [`DEFAULT_MAX_LEN`].
pub type CsaLines = boardwire_proto::LfLines<DEFAULT_MAX_LEN>;

/// Incremental LF / CR LF line framer with a maximum line length: the
/// family's `LineFramer` with [`CsaLines`]. `Framer::new(max_frame_len)`
/// accepts lines of at most `max_frame_len` bytes (terminator excluded; a
/// CR before the LF counts as terminator); [`Framer::default`] has the cap
/// [`DEFAULT_MAX_LEN`]. A peer that closes right after its last line
/// without an LF: that line is decoded (CSA is a line protocol, the close
/// ends the line).
///
/// ```
/// use csa_protocol::framer::{Framer, Status};
///
/// let mut framer = Framer::new(16);
/// let mut buf = b"LOGIN a b\r\n\n+77".to_vec();
/// let Status::Complete { frame, consumed } = framer.decode(&buf) else { panic!() };
/// assert_eq!(frame, b"LOGIN a b");
/// buf.drain(..consumed);
/// let Status::Complete { frame, consumed } = framer.decode(&buf) else { panic!() };
/// assert_eq!(frame, b""); // keep-alive
/// buf.drain(..consumed);
/// assert_eq!(framer.decode(&buf), Status::Partial { consumed: 0 });
/// ```
pub type Framer = boardwire_proto::LineFramer<CsaLines>;

/// The input buffer of one peer, as the sessions keep it: allocated on the
/// first bytes (a connection that never sends costs nothing), sized to hold
/// one line of the cap and its CR LF, never grown.
#[derive(Debug, Clone, Default)]
pub(crate) struct LineInput {
    max_len: usize,
    buf: Option<FrameBuffer<Framer, alloc::boxed::Box<[u8]>>>,
}

impl LineInput {
    pub(crate) fn new(max_len: usize) -> Self {
        Self { max_len, buf: None }
    }

    /// Takes the buffer out (allocating it the first time), so that the
    /// session can handle each frame with `&mut self`; give it back with
    /// [`put`](Self::put).
    pub(crate) fn take(&mut self) -> FrameBuffer<Framer, alloc::boxed::Box<[u8]>> {
        let max = self.max_len;
        self.buf
            .take()
            .unwrap_or_else(|| FrameBuffer::with_capacity(Framer::new(max), 0))
    }

    /// Gives the buffer back; an empty one (no unfinished line, not
    /// skipping an over-long one) is freed, so that an idle connection
    /// holds no buffer (a server with thousands of them).
    pub(crate) fn put(&mut self, buf: FrameBuffer<Framer, alloc::boxed::Box<[u8]>>) {
        self.buf = (!buf.buffered().is_empty() || buf.framer().is_discarding()).then_some(buf);
    }

    /// The bytes of an unfinished line.
    #[cfg(test)]
    pub(crate) fn pending(&self) -> &[u8] {
        self.buf.as_ref().map_or(&[], |b| b.buffered())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    #[derive(Debug, PartialEq)]
    enum F {
        Line(Vec<u8>),
        Overlong(usize),
    }

    fn push(lb: &mut LineInput, bytes: &[u8], mut f: impl FnMut(Frame<'_>)) {
        let mut input = lb.take();
        input.feed(bytes, &mut f);
        lb.put(input);
    }

    fn all_frames(max: usize, chunks: &[&[u8]]) -> Vec<F> {
        let mut lb = LineInput::new(max);
        let mut out = Vec::new();
        for c in chunks {
            push(&mut lb, c, |f| {
                out.push(match f {
                    Frame::Complete(l) => F::Line(l.to_vec()),
                    Frame::Overlong { len, .. } => F::Overlong(len),
                })
            });
        }
        out
    }

    #[test]
    fn lf_crlf_and_empty_lines() {
        assert_eq!(
            all_frames(100, &[b"a\nb\r\n\n\r\nc"]),
            vec![
                F::Line(b"a".to_vec()),
                F::Line(b"b".to_vec()),
                F::Line(b"".to_vec()),
                F::Line(b"".to_vec()),
            ]
        );
    }

    #[test]
    fn byte_by_byte_equals_whole() {
        let input: &[u8] = b"LOGIN a b x1\r\n%%WHO\n\n+7776FU\n";
        let whole = all_frames(100, &[input]);
        let chunks: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(all_frames(100, &chunks), whole);
        assert_eq!(whole.len(), 4);
    }

    #[test]
    fn overlong_is_reported_once_and_stream_stays_in_sync() {
        let mut long = vec![b'y'; 70_000];
        long.extend_from_slice(b"\r\nAGREE\n");
        for chunk in [1usize, 7, 1000, 100_000] {
            let chunks: Vec<&[u8]> = long.chunks(chunk).collect();
            let frames = all_frames(10, &chunks);
            assert_eq!(frames.len(), 2, "chunk size {chunk}: {frames:?}");
            assert!(matches!(frames[0], F::Overlong(n) if n > 10), "{chunk}");
            assert_eq!(frames[1], F::Line(b"AGREE".to_vec()), "chunk size {chunk}");
        }
        // Reported as soon as the cap is passed, with the bytes seen: with
        // the other framings, in `boardwire_proto::framer`'s tests.
    }

    #[test]
    fn cap_is_inclusive_and_cr_not_counted() {
        assert_eq!(
            all_frames(3, &[b"abc\r\n", b"abcd\n"]),
            vec![F::Line(b"abc".to_vec()), F::Overlong(4)]
        );
        assert_eq!(
            all_frames(3, &[b"abc", b"\r", b"\n"]),
            vec![F::Line(b"abc".to_vec())]
        );
    }

    #[test]
    fn buffer_stays_bounded_while_discarding() {
        let mut lb = LineInput::new(16);
        let mut n = 0;
        for _ in 0..1000 {
            push(&mut lb, &[b'z'; 100], |_| n += 1);
            assert!(lb.pending().len() <= 17, "pending {}", lb.pending().len());
        }
        assert_eq!(n, 1, "reported once");
        let mut got = Vec::new();
        push(&mut lb, b"\nX\n", |f| {
            if let Frame::Complete(l) = f {
                got.push(l.to_vec())
            }
        });
        assert_eq!(got, vec![b"X".to_vec()]);
    }
}
