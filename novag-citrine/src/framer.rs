//! The line framer: finds line boundaries in a byte stream, with a
//! mandatory length cap (spec note, "Link": commands and replies are text
//! lines).
//!
//! A line ends at CR, at LF, or at CR LF (also LF CR, which a popular driver
//! sends): any run of CR and LF bytes ends a line, and empty lines carry
//! nothing, so they are not reported. A line longer than the cap is reported
//! once as [`Frame::Overlong`] and its bytes are dropped up to the next
//! terminator; the line after it decodes normally.

/// What [`LineFramer::next`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame<'b> {
    /// A complete line, terminator excluded, `1..=max_len` bytes.
    Line(&'b [u8]),
    /// A line longer than `max_len` bytes began here; it is being skipped.
    Overlong {
        /// The cap that was exceeded, in bytes.
        max_len: usize,
    },
}

/// The result of one [`LineFramer::next`] call: maybe a frame, and how many
/// bytes at the front of the buffer the caller must drop *after* using the
/// frame (the frame borrows them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step<'b> {
    /// The frame found, or `None` when more input is needed.
    pub frame: Option<Frame<'b>>,
    /// Bytes consumed from the front of the buffer.
    pub consumed: usize,
}

/// A sans-IO line framer with a length cap.
///
/// The caller owns the buffer: it appends what it reads, calls
/// [`next`](Self::next) until `frame` is `None`, and drops `consumed` bytes
/// from the front after each call. The framer remembers how far it has
/// scanned, so a line arriving in many small reads is scanned once.
///
/// ```
/// use novag_citrine::{Frame, LineFramer};
/// let mut framer = LineFramer::new(80);
/// let mut buf = b"New Game\r\nM 1 e2".to_vec();
/// let step = framer.next(&buf);
/// assert_eq!(step.frame, Some(Frame::Line(b"New Game")));
/// buf.drain(..step.consumed);
/// assert_eq!(framer.next(&buf).frame, None); // `M 1 e2` is incomplete
/// ```
#[derive(Debug, Clone)]
pub struct LineFramer {
    max_len: usize,
    scanned: usize,
    skipping: bool,
}

impl LineFramer {
    /// Default cap: 256 bytes, far above the longest Citrine line (a game
    /// list row is under 40 bytes).
    pub const DEFAULT_MAX_LEN: usize = 256;

    /// A framer reporting lines longer than `max_len` bytes (at least 1) as
    /// overlong.
    pub fn new(max_len: usize) -> Self {
        LineFramer {
            max_len: max_len.max(1),
            scanned: 0,
            skipping: false,
        }
    }

    /// The cap, in bytes.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Looks for the next frame at the front of `buf` (which must start with
    /// the bytes not yet consumed by earlier calls, followed by new input).
    pub fn next<'b>(&mut self, buf: &'b [u8]) -> Step<'b> {
        let is_term = |b: &u8| matches!(b, b'\r' | b'\n');
        // Leading terminators: empty lines, or the rest of a CR LF pair.
        let lead = buf.iter().take_while(|b| is_term(b)).count();
        if lead > 0 {
            if self.skipping {
                // The overlong line ended.
                self.skipping = false;
            }
            self.scanned = 0;
            let rest = self.next(&buf[lead..]);
            return Step {
                frame: rest.frame,
                consumed: lead + rest.consumed,
            };
        }
        let from = self.scanned.min(buf.len());
        match buf[from..].iter().position(is_term) {
            Some(p) => {
                let end = from + p;
                self.scanned = 0;
                if self.skipping {
                    self.skipping = false;
                    let rest = self.next(&buf[end..]);
                    return Step {
                        frame: rest.frame,
                        consumed: end + rest.consumed,
                    };
                }
                if end > self.max_len {
                    // Found complete but too long in one go: report and drop.
                    return Step {
                        frame: Some(Frame::Overlong {
                            max_len: self.max_len,
                        }),
                        consumed: end,
                    };
                }
                Step {
                    frame: Some(Frame::Line(&buf[..end])),
                    consumed: end,
                }
            }
            None if self.skipping => {
                self.scanned = 0;
                Step {
                    frame: None,
                    consumed: buf.len(),
                }
            }
            None if buf.len() > self.max_len => {
                self.skipping = true;
                self.scanned = 0;
                Step {
                    frame: Some(Frame::Overlong {
                        max_len: self.max_len,
                    }),
                    consumed: buf.len(),
                }
            }
            None => {
                self.scanned = buf.len();
                Step {
                    frame: None,
                    consumed: 0,
                }
            }
        }
    }

    /// Forgets any partial state (after the caller discarded its buffer,
    /// e.g. when reopening a port).
    pub fn reset(&mut self) {
        self.scanned = 0;
        self.skipping = false;
    }
}

impl Default for LineFramer {
    fn default() -> Self {
        LineFramer::new(Self::DEFAULT_MAX_LEN)
    }
}
