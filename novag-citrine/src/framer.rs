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

/// A sans-IO line framer with a length cap.
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
#[derive(Debug, Clone)]
pub struct Framer {
    max_len: usize,
    scanned: usize,
    skipping: bool,
}

fn is_term(b: &u8) -> bool {
    matches!(b, b'\r' | b'\n')
}

/// The default line cap of [`Framer::default`]: 256 bytes, the terminator
/// not counted. [`spec::citrine`](crate::spec::citrine) gives no maximum (*Link*); the
/// longest line it shows (a game-list row) is under 40 bytes.
pub const DEFAULT_MAX_LEN: usize = 256;

impl Framer {
    /// A framer reporting lines longer than `max_frame_len` bytes (the
    /// terminator not counted; at least 1) as overlong.
    pub fn new(max_frame_len: usize) -> Self {
        Framer {
            max_len: max_frame_len.max(1),
            scanned: 0,
            skipping: false,
        }
    }

    /// The cap, in bytes.
    pub fn max_frame_len(&self) -> usize {
        self.max_len
    }

    /// Looks for the next line at the front of `buf` (the bytes not yet
    /// consumed by earlier calls, followed by new input).
    pub fn decode<'b>(&mut self, buf: &'b [u8]) -> Status<'b> {
        // Leading terminators: empty lines, or the rest of a CR LF pair.
        let lead = buf.iter().take_while(|b| is_term(b)).count();
        if lead > 0 {
            self.skipping = false;
            self.scanned = 0;
        }
        let body = &buf[lead..];
        let from = self.scanned.min(body.len());
        match body[from..].iter().position(is_term) {
            Some(p) => {
                let end = from + p;
                let term = body[end..].iter().take_while(|b| is_term(b)).count();
                self.scanned = 0;
                if self.skipping {
                    // The rest of an overlong line ends here; what follows
                    // frames normally, in this same call.
                    self.skipping = false;
                    let skipped = lead + end + term;
                    return match self.decode(&buf[skipped..]) {
                        Status::Complete { frame, consumed } => Status::Complete {
                            frame,
                            consumed: skipped + consumed,
                        },
                        Status::Partial { consumed } => Status::Partial {
                            consumed: skipped + consumed,
                        },
                        Status::Overlong { len, consumed } => Status::Overlong {
                            len,
                            consumed: skipped + consumed,
                        },
                    };
                }
                if end > self.max_len {
                    // Complete but too long, found in one go.
                    return Status::Overlong {
                        len: end,
                        consumed: lead + end + term,
                    };
                }
                Status::Complete {
                    frame: &body[..end],
                    consumed: lead + end + term,
                }
            }
            None if self.skipping => {
                self.scanned = 0;
                Status::Partial {
                    consumed: buf.len(),
                }
            }
            None if body.len() > self.max_len => {
                self.skipping = true;
                self.scanned = 0;
                Status::Overlong {
                    len: body.len(),
                    consumed: buf.len(),
                }
            }
            None => {
                self.scanned = body.len();
                Status::Partial { consumed: lead }
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

impl Default for Framer {
    /// A framer with [`DEFAULT_MAX_LEN`].
    fn default() -> Self {
        Framer::new(DEFAULT_MAX_LEN)
    }
}

impl boardwire_proto::Framer for Framer {
    const DEFAULT_MAX_LEN: usize = DEFAULT_MAX_LEN;
    /// CR LF (or LF CR).
    const MAX_TERMINATOR_LEN: usize = 2;
    /// A last line without its terminator is a line (a peer that closed
    /// right after writing it).
    const LAST_FRAME_NEEDS_TERMINATOR: bool = false;

    fn new(max_frame_len: usize) -> Self {
        Framer::new(max_frame_len)
    }

    fn max_frame_len(&self) -> usize {
        Framer::max_frame_len(self)
    }

    fn decode<'b>(&mut self, buf: &'b [u8]) -> Status<'b> {
        Framer::decode(self, buf)
    }

    fn reset(&mut self) {
        Framer::reset(self);
    }
}

/// A heap [`FrameBuffer`] for `max_line_len`-byte lines, room for several.
pub(crate) fn line_buffer(max_line_len: usize) -> FrameBuffer<Framer, alloc::boxed::Box<[u8]>> {
    FrameBuffer::with_capacity(Framer::new(max_line_len), 512)
}
