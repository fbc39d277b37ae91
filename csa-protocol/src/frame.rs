//! The line framer: finds line boundaries in a byte stream, with a size cap.
//!
//! CSA (spec note, "Transport and lexical rules") is a line protocol: every
//! message is one line ended by LF; real peers also send CRLF, so a CR just
//! before the LF is removed too. An empty line is a message of its own (the
//! keep-alive), never an error.
//!
//! The framer never owns the bytes: the caller keeps a buffer, appends what
//! it reads, asks [`LineFramer::decode`] for the next frame and removes the
//! `consumed` bytes the answer names. The framer remembers how far it has
//! already looked for an LF, so a line that arrives in many small reads is
//! scanned once in total, not once per read.
//!
//! A line longer than the cap is reported once, as
//! [`Frame::Overlong`], after its terminating LF has been seen; its bytes are
//! consumed (discarded) as they arrive, so the caller's buffer never holds
//! more than the cap plus one read, and the next line decodes normally.

use alloc::vec::Vec;

/// Default maximum line length, in bytes, without the line terminator.
///
/// The longest line a CSA server sends in normal play is a `Game_Summary`
/// field or a `%%CHAT` relay; 8 KiB leaves ample room for chat text while
/// bounding memory per connection. shogi-server has no limit at all (the
/// transcript shows it echoing a 70 000-byte line); capping is a deliberate
/// difference (spec note, "Transport and lexical rules").
pub const DEFAULT_MAX_LINE_LEN: usize = 8192;

/// One frame found by [`LineFramer::decode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame<'a> {
    /// A complete line: its bytes without the LF or CRLF terminator. May be
    /// empty (a keep-alive line).
    Line(&'a [u8]),
    /// A line longer than the cap was skipped. `len` is its full length in
    /// bytes without the terminator.
    Overlong {
        /// Length of the skipped line in bytes (terminator excluded).
        len: usize,
    },
}

/// The answer of [`LineFramer::decode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameStatus<'a> {
    /// A frame is complete. Remove `consumed` bytes from the front of the
    /// buffer (after using the frame, which borrows it).
    Complete {
        /// The frame.
        frame: Frame<'a>,
        /// Bytes to remove from the front of the buffer, terminator included.
        consumed: usize,
    },
    /// No complete frame yet: remove `consumed` bytes (non-zero only while an
    /// overlong line is being discarded), append more input and call again.
    Partial {
        /// Bytes to remove from the front of the buffer.
        consumed: usize,
    },
}

/// Incremental LF / CRLF line framer with a maximum line length.
///
/// ```
/// use csa_protocol::frame::{Frame, FrameStatus, LineFramer};
///
/// let mut framer = LineFramer::new(16);
/// let mut buf = b"LOGIN a b\r\n\n+77".to_vec();
/// let FrameStatus::Complete { frame, consumed } = framer.decode(&buf) else { panic!() };
/// assert_eq!(frame, Frame::Line(b"LOGIN a b"));
/// buf.drain(..consumed);
/// let FrameStatus::Complete { frame, consumed } = framer.decode(&buf) else { panic!() };
/// assert_eq!(frame, Frame::Line(b"")); // keep-alive
/// buf.drain(..consumed);
/// assert_eq!(framer.decode(&buf), FrameStatus::Partial { consumed: 0 });
/// ```
#[derive(Debug, Clone)]
pub struct LineFramer {
    max_len: usize,
    /// Bytes at the front of the caller's buffer already known to hold no LF.
    scanned: usize,
    /// `Some(n)`: discarding an overlong line of which `n` bytes were dropped.
    discarding: Option<usize>,
}

impl Default for LineFramer {
    fn default() -> Self {
        Self::new(DEFAULT_MAX_LINE_LEN)
    }
}

impl LineFramer {
    /// A framer accepting lines of at most `max_len` bytes (terminator
    /// excluded; a CR before the LF counts as terminator).
    pub fn new(max_len: usize) -> Self {
        Self {
            max_len,
            scanned: 0,
            discarding: None,
        }
    }

    /// The maximum line length in bytes, terminator excluded.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Finds the next frame at the front of `buf`.
    ///
    /// `buf` must start where the previous call's `consumed` left off (the
    /// caller removes exactly the consumed bytes and may append more). Never
    /// fails: an overlong line is a [`Frame::Overlong`] frame.
    pub fn decode<'a>(&mut self, buf: &'a [u8]) -> FrameStatus<'a> {
        let start = self.scanned.min(buf.len());
        match buf[start..].iter().position(|&b| b == b'\n') {
            Some(i) => {
                let lf = start + i;
                self.scanned = 0;
                let mut end = lf;
                if end > 0 && buf[end - 1] == b'\r' {
                    end -= 1;
                }
                if let Some(dropped) = self.discarding.take() {
                    // The CR (if any) may have been dropped with the body;
                    // count it out only when it is still in `buf`.
                    return FrameStatus::Complete {
                        frame: Frame::Overlong { len: dropped + end },
                        consumed: lf + 1,
                    };
                }
                if end > self.max_len {
                    FrameStatus::Complete {
                        frame: Frame::Overlong { len: end },
                        consumed: lf + 1,
                    }
                } else {
                    FrameStatus::Complete {
                        frame: Frame::Line(&buf[..end]),
                        consumed: lf + 1,
                    }
                }
            }
            None => {
                // Keep one trailing byte: it may be the CR of a CRLF whose
                // LF has not arrived yet (it must not count as line body).
                let limit = self.max_len + 1;
                if let Some(dropped) = self.discarding {
                    let keep = usize::from(buf.last() == Some(&b'\r'));
                    let drop = buf.len() - keep;
                    self.discarding = Some(dropped + drop);
                    self.scanned = keep;
                    FrameStatus::Partial { consumed: drop }
                } else if buf.len() > limit {
                    let keep = usize::from(buf.last() == Some(&b'\r'));
                    let drop = buf.len() - keep;
                    self.discarding = Some(drop);
                    self.scanned = keep;
                    FrameStatus::Partial { consumed: drop }
                } else {
                    self.scanned = buf.len();
                    FrameStatus::Partial { consumed: 0 }
                }
            }
        }
    }

    /// Forgets any partial state (call when the caller clears its buffer).
    pub fn reset(&mut self) {
        self.scanned = 0;
        self.discarding = None;
    }
}

/// An owned buffer plus a [`LineFramer`]: push bytes in, pull frames out.
///
/// The convenience form for sessions and adapters that do not manage their
/// own buffer. Memory is bounded by the cap plus the largest single push.
///
/// ```
/// use csa_protocol::frame::{LineBuffer, OwnedFrame};
///
/// let mut lines = LineBuffer::new(64);
/// lines.push(b"AGREE\n%TO");
/// assert_eq!(lines.next_frame(), Some(OwnedFrame::Line(b"AGREE".to_vec())));
/// assert_eq!(lines.next_frame(), None);
/// lines.push(b"RYO\r\n");
/// assert_eq!(lines.next_frame(), Some(OwnedFrame::Line(b"%TORYO".to_vec())));
/// ```
#[derive(Debug, Clone, Default)]
pub struct LineBuffer {
    buf: Vec<u8>,
    /// Start of unconsumed data in `buf` (consumed bytes are removed lazily).
    head: usize,
    framer: LineFramer,
}

/// An owned frame, as returned by [`LineBuffer::next_frame`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnedFrame {
    /// A complete line without its terminator.
    Line(Vec<u8>),
    /// An overlong line of `len` bytes was skipped.
    Overlong {
        /// Its length in bytes, terminator excluded.
        len: usize,
    },
}

impl LineBuffer {
    /// A buffer whose lines may be at most `max_len` bytes long.
    pub fn new(max_len: usize) -> Self {
        Self {
            buf: Vec::new(),
            head: 0,
            framer: LineFramer::new(max_len),
        }
    }

    /// Appends received bytes.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.head > 0 && self.head == self.buf.len() {
            self.buf.clear();
            self.head = 0;
        } else if self.head > 4096 && self.head * 2 > self.buf.len() {
            self.buf.drain(..self.head);
            self.head = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Bytes held that do not yet form a complete line.
    pub fn pending(&self) -> usize {
        self.buf.len() - self.head
    }

    /// Calls `f` with the next complete frame, if any, and returns its result.
    ///
    /// The borrowed form of [`LineBuffer::next_frame`]: no copy of the line.
    pub fn with_next_frame<R>(&mut self, f: impl FnOnce(Frame<'_>) -> R) -> Option<R> {
        loop {
            match self.framer.decode(&self.buf[self.head..]) {
                FrameStatus::Complete { frame, consumed } => {
                    let r = f(frame);
                    self.head += consumed;
                    return Some(r);
                }
                FrameStatus::Partial { consumed } => {
                    self.head += consumed;
                    if consumed == 0 {
                        return None;
                    }
                }
            }
        }
    }

    /// The next complete frame, copied out, if any.
    pub fn next_frame(&mut self) -> Option<OwnedFrame> {
        self.with_next_frame(|frame| match frame {
            Frame::Line(line) => OwnedFrame::Line(line.to_vec()),
            Frame::Overlong { len } => OwnedFrame::Overlong { len },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn all_frames(max: usize, chunks: &[&[u8]]) -> Vec<OwnedFrame> {
        let mut lb = LineBuffer::new(max);
        let mut out = Vec::new();
        for c in chunks {
            lb.push(c);
            while let Some(f) = lb.next_frame() {
                out.push(f);
            }
        }
        out
    }

    #[test]
    fn lf_crlf_and_empty_lines() {
        let frames = all_frames(100, &[b"a\nb\r\n\n\r\nc"]);
        assert_eq!(
            frames,
            vec![
                OwnedFrame::Line(b"a".to_vec()),
                OwnedFrame::Line(b"b".to_vec()),
                OwnedFrame::Line(b"".to_vec()),
                OwnedFrame::Line(b"".to_vec()),
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
            assert_eq!(
                all_frames(10, &chunks),
                vec![
                    OwnedFrame::Overlong { len: 70_000 },
                    OwnedFrame::Line(b"AGREE".to_vec())
                ],
                "chunk size {chunk}"
            );
        }
    }

    #[test]
    fn cap_is_inclusive_and_cr_not_counted() {
        assert_eq!(
            all_frames(3, &[b"abc\r\n", b"abcd\n"]),
            vec![
                OwnedFrame::Line(b"abc".to_vec()),
                OwnedFrame::Overlong { len: 4 }
            ]
        );
        // A CR arriving alone at the cap boundary is not body.
        assert_eq!(
            all_frames(3, &[b"abc", b"\r", b"\n"]),
            vec![OwnedFrame::Line(b"abc".to_vec())]
        );
    }

    #[test]
    fn buffer_stays_bounded_while_discarding() {
        let mut lb = LineBuffer::new(16);
        for _ in 0..1000 {
            lb.push(&[b'z'; 100]);
            assert_eq!(lb.next_frame(), None);
            assert!(lb.pending() <= 17, "pending {}", lb.pending());
        }
        lb.push(b"\nX\n");
        assert_eq!(lb.next_frame(), Some(OwnedFrame::Overlong { len: 100_000 }));
        assert_eq!(lb.next_frame(), Some(OwnedFrame::Line(b"X".to_vec())));
    }
}
