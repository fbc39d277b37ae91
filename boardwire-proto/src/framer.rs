//! Cutting frames out of a byte stream: the framer's answer [`Status`] (the
//! httparse shape), the [`Framer`] trait that each protocol's terminator
//! rule implements (DXP: NUL; CSA: LF or CR LF; Citrine: CR, LF or CR LF),
//! and [`FrameBuffer`], the capped buffer that runs the loop "fill, cut
//! frames, compact" once for every user; and [`LineFramer`], the one
//! framer of the three protocols (what tells them apart is [`LineRules`]:
//! [`LfLines`] for CSA, [`CrLfLines`] for Citrine, [`NulFrames`] for DXP).

use core::fmt;
use core::marker::PhantomData;

use crate::error::FrameError;

/// What a [`Framer`] found at the front of the buffer it was given.
///
/// After every call the caller drops `consumed` bytes from the front of its
/// buffer and calls again while `consumed` is non-zero; `Partial { consumed:
/// 0 }` means "read more bytes, append them, call again". [`FrameBuffer`]
/// does all of this.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status<'b> {
    /// One frame, its terminator stripped; `consumed` counts the terminator.
    Complete {
        /// The frame's bytes (at most the cap).
        frame: &'b [u8],
        /// Bytes to drop from the front of the buffer.
        consumed: usize,
    },
    /// No complete frame yet. `consumed` is non-zero only while the rest of
    /// an over-long frame is being discarded (or, in the line protocols,
    /// while empty lines are skipped).
    Partial {
        /// Bytes to drop from the front of the buffer.
        consumed: usize,
    },
    /// More than the cap without a terminator: reported once; `len` is the
    /// bytes of it seen so far. The framer then discards up to and including
    /// the next terminator (as `Partial { consumed }`) and the stream goes on.
    Overlong {
        /// Bytes of the frame seen so far (more than the cap).
        len: usize,
        /// Bytes to drop from the front of the buffer.
        consumed: usize,
    },
}

/// A protocol's rule for where frames end, over a buffer the caller owns.
///
/// The framer remembers how far it has scanned (no byte is looked at twice)
/// and whether it is skipping the rest of an over-long frame; the caller
/// passes the bytes not yet consumed, with new ones appended, each time.
/// Implemented by `damexchange::framer::Framer`, `csa_protocol::framer::Framer`
/// and `novag_citrine::framer::Framer`.
pub trait Framer {
    /// The spec's cap on a frame, bytes, the terminator not counted.
    const DEFAULT_MAX_LEN: usize;
    /// The longest terminator, bytes (1 for NUL, 2 for CR LF).
    const MAX_TERMINATOR_LEN: usize;
    /// Whether bytes left without a terminator when the stream ends are an
    /// error (`true`: DXP, whose messages always end with NUL;
    /// [`FrameError::Unterminated`]) or a
    /// last frame (`false`: the line protocols, a peer that closed right
    /// after writing its last line).
    const LAST_FRAME_NEEDS_TERMINATOR: bool;

    /// A framer whose frames have at most `max_frame_len` bytes (the
    /// terminator not counted).
    fn new(max_frame_len: usize) -> Self
    where
        Self: Sized;

    /// The cap, bytes without the terminator.
    fn max_frame_len(&self) -> usize;

    /// Looks for the next frame at the front of `buf`. See [`Status`].
    fn decode<'b>(&mut self, buf: &'b [u8]) -> Status<'b>;

    /// Forgets what was scanned (a new stream).
    fn reset(&mut self);

    /// Whether it is skipping the rest of an over-long frame, which was
    /// reported when the cap was passed: what it holds then belongs to that
    /// frame. `false` for a framer that never skips (the default).
    fn is_discarding(&self) -> bool {
        false
    }
}

/// What [`FrameBuffer::next_frame`] hands out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame<'b> {
    /// One frame, its terminator stripped, borrowed from the buffer.
    Complete(&'b [u8]),
    /// A frame over the cap (reported once; the rest of it is skipped).
    Overlong {
        /// Bytes of it seen when it was reported.
        len: usize,
        /// The cap, bytes without the terminator.
        max: usize,
    },
}

/// A capped input buffer owned by the caller, with the protocol's framer:
/// bytes go in ([`push`](Self::push), or [`space`](Self::space) +
/// [`filled`](Self::filled) to read straight into it), frames come out
/// ([`next_frame`](Self::next_frame)), and what is left of an unfinished
/// frame is moved to the front when room is needed. It never grows: its
/// storage is given once (a stack array, a boxed slice, a `Vec`), so a peer
/// that sends a gigabyte without a terminator costs the storage's size, not
/// a gigabyte.
///
/// ```
/// use boardwire_proto::framer::{Frame, FrameBuffer, Framer, Status};
///
/// // A toy rule for the example: frames end with `;`.
/// struct Semi { max: usize }
/// impl Framer for Semi {
///     const DEFAULT_MAX_LEN: usize = 8;
///     const MAX_TERMINATOR_LEN: usize = 1;
///     const LAST_FRAME_NEEDS_TERMINATOR: bool = true;
///     fn new(max: usize) -> Self { Semi { max } }
///     fn max_frame_len(&self) -> usize { self.max }
///     fn decode<'b>(&mut self, buf: &'b [u8]) -> Status<'b> {
///         match buf.iter().position(|&b| b == b';') {
///             Some(i) if i <= self.max => Status::Complete { frame: &buf[..i], consumed: i + 1 },
///             Some(i) => Status::Overlong { len: i, consumed: i + 1 },
///             None => Status::Partial { consumed: 0 },
///         }
///     }
///     fn reset(&mut self) {}
/// }
///
/// let mut input = FrameBuffer::new(Semi::new(8), [0u8; 16]);
/// assert_eq!(input.push(b"ab;c"), 4);
/// assert_eq!(input.next_frame(), Some(Frame::Complete(b"ab")));
/// assert_eq!(input.next_frame(), None); // `c` waits for its `;`
/// input.push(b"d;");
/// assert_eq!(input.next_frame(), Some(Frame::Complete(b"cd")));
/// ```
#[derive(Clone, Debug)]
pub struct FrameBuffer<F, B> {
    framer: F,
    storage: B,
    start: usize,
    end: usize,
}

impl<F: Framer, B: AsRef<[u8]> + AsMut<[u8]>> FrameBuffer<F, B> {
    /// A buffer over `storage` (its whole length is used) with `framer`.
    ///
    /// # Panics
    /// When `storage` is shorter than the framer's cap plus its longest
    /// terminator (a frame of the cap could never be completed): a
    /// programming error, not something a peer can cause.
    pub fn new(framer: F, storage: B) -> Self {
        let need = framer.max_frame_len().saturating_add(F::MAX_TERMINATOR_LEN);
        assert!(
            storage.as_ref().len() >= need,
            "FrameBuffer storage of {} bytes is shorter than the frame cap plus terminator ({need})",
            storage.as_ref().len()
        );
        FrameBuffer {
            framer,
            storage,
            start: 0,
            end: 0,
        }
    }

    /// The framer (its cap: `framer().max_frame_len()`).
    pub fn framer(&self) -> &F {
        &self.framer
    }

    /// The storage's length, bytes: the most this buffer ever holds.
    pub fn capacity(&self) -> usize {
        self.storage.as_ref().len()
    }

    /// The bytes held of a frame not yet complete.
    pub fn buffered(&self) -> &[u8] {
        &self.storage.as_ref()[self.start..self.end]
    }

    /// Forgets every buffered byte and the framer's state (a new stream).
    pub fn clear(&mut self) {
        self.start = 0;
        self.end = 0;
        self.framer.reset();
    }

    fn compact(&mut self) {
        if self.start != 0 {
            self.storage.as_mut().copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
    }

    /// The free room after the buffered bytes, to read into; call
    /// [`filled`](Self::filled) with the count read. Moves the buffered
    /// bytes to the front first. Empty only when the buffer holds a whole
    /// storage of unframed bytes, which [`next_frame`](Self::next_frame)
    /// never leaves (call it until `None` before reading again).
    pub fn space(&mut self) -> &mut [u8] {
        self.compact();
        let end = self.end;
        &mut self.storage.as_mut()[end..]
    }

    /// Records that `n` bytes were written into [`space`](Self::space)
    /// (clamped to its length).
    pub fn filled(&mut self, n: usize) {
        self.end = (self.end + n).min(self.storage.as_ref().len());
    }

    /// Copies as much of `bytes` as there is room for and returns how many
    /// were taken; take frames out with [`next_frame`](Self::next_frame) and
    /// push the rest.
    pub fn push(&mut self, bytes: &[u8]) -> usize {
        let space = self.space();
        let n = bytes.len().min(space.len());
        space[..n].copy_from_slice(&bytes[..n]);
        self.end += n;
        n
    }

    /// Pushes all of `bytes`, handing each frame to `each` as it comes out:
    /// the [`push`](Self::push) / [`next_frame`](Self::next_frame) loop of
    /// every session's `handle_input`, written once. Any amount of input
    /// fits (the buffer is emptied of frames whenever it is full); bytes of
    /// an unfinished frame stay buffered for the next call.
    ///
    /// ```
    /// use boardwire_proto::{Frame, FrameBuffer, LineFramer, LineRules};
    /// # struct Lf;
    /// # impl LineRules for Lf {
    /// #     const DEFAULT_MAX_LEN: usize = 8;
    /// #     const BARE_CR_ENDS_LINE: bool = false;
    /// # }
    /// let mut input = FrameBuffer::new(LineFramer::<Lf>::new(8), [0u8; 16]);
    /// let mut lines = Vec::new();
    /// input.feed(b"one\ntwo\nthr", |frame| {
    ///     if let Frame::Complete(line) = frame {
    ///         lines.push(line.to_vec());
    ///     }
    /// });
    /// assert_eq!(lines, [b"one".to_vec(), b"two".to_vec()]);
    /// assert_eq!(input.buffered(), b"thr");
    /// ```
    pub fn feed(&mut self, mut bytes: &[u8], mut each: impl FnMut(Frame<'_>)) {
        loop {
            let n = self.push(bytes);
            bytes = &bytes[n..];
            while let Some(frame) = self.next_frame() {
                each(frame);
            }
            if bytes.is_empty() {
                return;
            }
        }
    }

    /// The next frame of the buffered bytes, or `None` when more bytes are
    /// needed.
    pub fn next_frame(&mut self) -> Option<Frame<'_>> {
        let max = self.framer.max_frame_len();
        loop {
            let buf = &self.storage.as_ref()[self.start..self.end];
            match self.framer.decode(buf) {
                Status::Complete { frame, consumed } => {
                    let at = frame.as_ptr() as usize - buf.as_ptr() as usize;
                    let (from, to) = (self.start + at, self.start + at + frame.len());
                    self.start += consumed.min(buf.len());
                    return Some(Frame::Complete(&self.storage.as_ref()[from..to]));
                }
                Status::Overlong { len, consumed } => {
                    self.start += consumed.min(buf.len());
                    return Some(Frame::Overlong { len, max });
                }
                Status::Partial { consumed } => {
                    self.start += consumed.min(buf.len());
                    if self.start == self.end {
                        self.start = 0;
                        self.end = 0;
                    }
                    if consumed == 0 {
                        let len = self.end - self.start;
                        if len == self.storage.as_ref().len() {
                            // Full without a frame: only a framer that
                            // breaks its own cap gets here. Never stall.
                            self.clear();
                            return Some(Frame::Overlong { len, max });
                        }
                        return None;
                    }
                }
            }
        }
    }
}

#[cfg(feature = "alloc")]
impl<F: Framer> FrameBuffer<F, alloc::boxed::Box<[u8]>> {
    /// A buffer of `capacity` bytes on the heap (at least the framer's cap
    /// plus its terminator: a smaller `capacity` is raised to that), so that
    /// one read can take several frames.
    pub fn with_capacity(framer: F, capacity: usize) -> Self {
        let need = framer.max_frame_len().saturating_add(F::MAX_TERMINATOR_LEN);
        let storage = alloc::vec![0u8; capacity.max(need)].into_boxed_slice();
        FrameBuffer::new(framer, storage)
    }
}

/// What tells the family's three framings apart, for [`LineFramer`]: a
/// protocol crate names its rules with one of the marker types below and
/// its cap (`csa_protocol::framer::CsaLines` = [`LfLines`],
/// `novag_citrine::framer::CitrineLines` = [`CrLfLines`],
/// `damexchange::framer::DxpFrames` = [`NulFrames`]).
pub trait LineRules {
    /// The cap of [`LineFramer::default`], bytes, the terminator not counted.
    const DEFAULT_MAX_LEN: usize;
    /// How a line ends.
    ///
    /// `false` (CSA): at LF; a CR just before the LF is removed too (CR LF);
    /// an empty line is a frame of its own (CSA's keep-alive); a CR at the
    /// end of the buffer is left unconsumed (its LF may be on the way).
    ///
    /// `true` (Citrine): at CR or LF, and any run of them (CR LF, LF CR, an
    /// empty line) is one terminator, so empty lines are never frames and a
    /// cap of 0 is raised to 1; after an over-long line, the next line is
    /// framed in the same call. `false` by default.
    const BARE_CR_ENDS_LINE: bool = false;
    /// `true` (DXP): a frame ends at NUL instead of LF ([`BARE_CR_ENDS_LINE`](Self::BARE_CR_ENDS_LINE)
    /// `false`); a CR is a byte of the frame like any other, an empty frame
    /// is a frame, and bytes left without their NUL when the stream ends
    /// are an error ([`Framer::LAST_FRAME_NEEDS_TERMINATOR`]). `false` by
    /// default.
    const NUL_TERMINATED: bool = false;
}

/// [`LineRules`] of lines that end at LF, a CR before it removed too (CR
/// LF), where an empty line is a frame (CSA's keep-alive); the default cap
/// is `MAX` bytes.
#[derive(Debug, Clone, Copy)]
pub enum LfLines<const MAX: usize> {}

impl<const MAX: usize> LineRules for LfLines<MAX> {
    const DEFAULT_MAX_LEN: usize = MAX;
}

/// [`LineRules`] of lines that end at CR, LF, or any run of them (CR LF,
/// LF CR), so that empty lines are not frames (Citrine); the default cap is
/// `MAX` bytes.
#[derive(Debug, Clone, Copy)]
pub enum CrLfLines<const MAX: usize> {}

impl<const MAX: usize> LineRules for CrLfLines<MAX> {
    const DEFAULT_MAX_LEN: usize = MAX;
    const BARE_CR_ENDS_LINE: bool = true;
}

/// [`LineRules`] of frames that end at NUL (DXP): every other byte is the
/// frame's, an empty frame is a frame, and a last frame without its NUL is
/// an error; the default cap is `MAX` bytes.
#[derive(Debug, Clone, Copy)]
pub enum NulFrames<const MAX: usize> {}

impl<const MAX: usize> LineRules for NulFrames<MAX> {
    const DEFAULT_MAX_LEN: usize = MAX;
    const NUL_TERMINATED: bool = true;
}

/// The family's framer, over a buffer the caller owns, with a length cap;
/// `R` says where a line (or frame) ends ([`LineRules`]).
/// `csa_protocol::framer::Framer`, `novag_citrine::framer::Framer` and
/// `damexchange::framer::Framer` are this type with their protocol's rules.
///
/// The framer remembers how far it has looked for a terminator, so a line
/// that arrives in many small reads is scanned once in total. A line longer
/// than the cap is reported once, as [`Status::Overlong`], as soon as more
/// than the cap has arrived without a terminator; the rest of it is then
/// discarded up to and including the next terminator (as
/// [`Status::Partial`] with the discarded bytes as `consumed`), so the
/// caller's buffer never holds more than the cap plus one read, and the next
/// line decodes normally.
///
/// ```
/// use boardwire_proto::framer::{LineFramer, LineRules, Status};
///
/// enum Lf {}
/// impl LineRules for Lf {
///     const DEFAULT_MAX_LEN: usize = 16;
///     const BARE_CR_ENDS_LINE: bool = false;
/// }
///
/// let mut framer = LineFramer::<Lf>::default();
/// let Status::Complete { frame, consumed } = framer.decode(b"hi\r\n") else { panic!() };
/// assert_eq!((frame, consumed), (&b"hi"[..], 4));
/// ```
pub struct LineFramer<R> {
    max_len: usize,
    /// Bytes at the front of the line (after any leading terminators)
    /// already known to hold no terminator.
    scanned: usize,
    /// Discarding the rest of an over-long line.
    discarding: bool,
    rules: PhantomData<fn() -> R>,
}

impl<R> Clone for LineFramer<R> {
    fn clone(&self) -> Self {
        LineFramer { ..*self }
    }
}

impl<R> PartialEq for LineFramer<R> {
    fn eq(&self, other: &Self) -> bool {
        (self.max_len, self.scanned, self.discarding)
            == (other.max_len, other.scanned, other.discarding)
    }
}

impl<R> Eq for LineFramer<R> {}

impl<R> fmt::Debug for LineFramer<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineFramer")
            .field("max_len", &self.max_len)
            .field("scanned", &self.scanned)
            .field("discarding", &self.discarding)
            .finish()
    }
}

impl<R: LineRules> Default for LineFramer<R> {
    /// A framer with the protocol's cap, [`LineRules::DEFAULT_MAX_LEN`].
    fn default() -> Self {
        Self::new(R::DEFAULT_MAX_LEN)
    }
}

#[inline]
fn is_cr_lf(b: &u8) -> bool {
    matches!(b, b'\r' | b'\n')
}

/// Eight copies of the byte 0x01.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// The high bit of every byte of `x` that is zero, and possibly of bytes
/// above (more significant than) the first zero one: so the lowest set bit,
/// when there is one, marks the first zero byte exactly (the borrow that
/// makes a false mark only runs upwards from a true one).
#[inline(always)]
const fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(LOW_BITS) & !x & (LOW_BITS << 7)
}

/// The end of the run of CR and LF bytes in `buf` from `from` on (`from`
/// itself when there is none).
#[inline(always)]
fn cr_lf_run(buf: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(b) = buf.get(i) {
        if !is_cr_lf(b) {
            break;
        }
        i += 1;
    }
    i
}

/// Where the first byte of `hay` that ends a frame under `R` is (LF; CR or
/// LF with [`LineRules::BARE_CR_ENDS_LINE`]; NUL with
/// [`LineRules::NUL_TERMINATED`]): eight bytes at a time, as one `u64`
/// each, then the last few one by one.
#[inline]
fn find_end<R: LineRules>(hay: &[u8]) -> Option<usize> {
    let end = if R::NUL_TERMINATED { 0u8 } else { b'\n' };
    let mut rest = hay;
    while let Some((chunk, tail)) = rest.split_first_chunk::<8>() {
        let x = u64::from_le_bytes(*chunk);
        let mut hits = zero_bytes(x ^ (LOW_BITS * u64::from(end)));
        if R::BARE_CR_ENDS_LINE {
            hits |= zero_bytes(x ^ (LOW_BITS * u64::from(b'\r')));
        }
        if hits != 0 {
            let scanned = hay.len() - rest.len();
            return Some(scanned + (hits.trailing_zeros() / 8) as usize);
        }
        rest = tail;
    }
    let scanned = hay.len() - rest.len();
    let found = if R::BARE_CR_ENDS_LINE {
        rest.iter().position(is_cr_lf)
    } else {
        rest.iter().position(|&b| b == end)
    };
    found.map(|p| scanned + p)
}

impl<R: LineRules> LineFramer<R> {
    /// A framer accepting lines of at most `max_frame_len` bytes (the
    /// terminator not counted; a CR before the LF counts as terminator).
    pub const fn new(max_frame_len: usize) -> Self {
        let max_len = if R::BARE_CR_ENDS_LINE && max_frame_len == 0 {
            1
        } else {
            max_frame_len
        };
        LineFramer {
            max_len,
            scanned: 0,
            discarding: false,
            rules: PhantomData,
        }
    }

    /// The cap: the maximum line length in bytes, terminator excluded.
    pub const fn max_frame_len(&self) -> usize {
        self.max_len
    }

    /// `true` while the rest of an over-long line is being discarded.
    pub const fn is_discarding(&self) -> bool {
        self.discarding
    }

    /// Forgets any partial state (call when the caller clears its buffer,
    /// e.g. a new connection or a reopened port).
    pub fn reset(&mut self) {
        self.scanned = 0;
        self.discarding = false;
    }

    /// Finds the next line at the front of `buf` (see [`Status`]).
    ///
    /// `buf` must start where the previous call's `consumed` left off (the
    /// caller drops exactly the consumed bytes and may append more). Never
    /// fails.
    #[inline]
    pub fn decode<'b>(&mut self, buf: &'b [u8]) -> Status<'b> {
        // Leading terminators (rules with bare CR): empty lines, or the rest
        // of a CR LF pair.
        let lead = if R::BARE_CR_ENDS_LINE {
            cr_lf_run(buf, 0)
        } else {
            0
        };
        if lead > 0 {
            self.discarding = false;
            self.scanned = 0;
        }
        let body = &buf[lead..];
        let from = self.scanned.min(body.len());
        let found = find_end::<R>(&body[from..]);
        match found {
            Some(p) => {
                let at = from + p;
                self.scanned = 0;
                let next = if R::BARE_CR_ENDS_LINE {
                    cr_lf_run(body, at + 1)
                } else {
                    at + 1
                };
                let consumed = lead + next;
                if self.discarding {
                    self.discarding = false;
                    if !R::BARE_CR_ENDS_LINE {
                        return Status::Partial { consumed };
                    }
                    // The rest of an over-long line ends here; what follows
                    // frames normally, in this same call.
                    return match self.decode(&buf[consumed..]) {
                        Status::Complete { frame, consumed: c } => Status::Complete {
                            frame,
                            consumed: consumed + c,
                        },
                        Status::Partial { consumed: c } => Status::Partial {
                            consumed: c + consumed,
                        },
                        Status::Overlong { len, consumed: c } => Status::Overlong {
                            len,
                            consumed: consumed + c,
                        },
                    };
                }
                // The CR of a CR LF is terminator, not line.
                let end = if !R::NUL_TERMINATED && at > 0 && body[at - 1] == b'\r' {
                    at - 1
                } else {
                    at
                };
                if end > self.max_len {
                    // Complete but over the cap: report it (the whole line).
                    return Status::Overlong { len: end, consumed };
                }
                Status::Complete {
                    frame: &body[..end],
                    consumed,
                }
            }
            None => {
                // Keep one trailing CR: it may be the CR of a CR LF whose LF
                // has not arrived yet (it must not count as line body). With
                // bare CR ending lines, `body` holds none; NUL frames keep
                // none (a CR is frame).
                let keep = usize::from(!R::NUL_TERMINATED && body.last() == Some(&b'\r'));
                let seen = body.len() - keep;
                if self.discarding {
                    self.scanned = keep;
                    Status::Partial {
                        consumed: lead + seen,
                    }
                } else if seen > self.max_len {
                    self.discarding = true;
                    self.scanned = keep;
                    Status::Overlong {
                        len: seen,
                        consumed: lead + seen,
                    }
                } else {
                    self.scanned = body.len();
                    Status::Partial { consumed: lead }
                }
            }
        }
    }
}

/// The family's framer contract: for line protocols CR LF is the longest
/// terminator, and a last line without its terminator is a line (a peer
/// that closed right after writing it); for NUL frames
/// ([`LineRules::NUL_TERMINATED`]) the terminator is one byte and a last
/// frame without it is an error.
impl<R: LineRules> Framer for LineFramer<R> {
    const DEFAULT_MAX_LEN: usize = R::DEFAULT_MAX_LEN;
    /// CR LF (or LF CR); NUL.
    const MAX_TERMINATOR_LEN: usize = if R::NUL_TERMINATED { 1 } else { 2 };
    const LAST_FRAME_NEEDS_TERMINATOR: bool = R::NUL_TERMINATED;

    fn new(max_frame_len: usize) -> Self {
        LineFramer::new(max_frame_len)
    }

    fn max_frame_len(&self) -> usize {
        self.max_len
    }

    #[inline]
    fn decode<'b>(&mut self, buf: &'b [u8]) -> Status<'b> {
        LineFramer::decode(self, buf)
    }

    fn reset(&mut self) {
        LineFramer::reset(self);
    }

    fn is_discarding(&self) -> bool {
        LineFramer::is_discarding(self)
    }
}

/// One step of a codec's decoder, written once for the family's tokio
/// codecs: frames the front of `buf` with `framer` and decodes the frame
/// with `decode`. Returns how many bytes to drop from the front of `buf`,
/// and the item: `Ok` or `Err(FrameError::Malformed)` for a frame,
/// `Err(FrameError::Overlong)` for a frame over the cap, `None` when more
/// bytes are needed. Bytes the framer skips (empty lines, the rest of an
/// over-long frame) are passed over in the same call.
///
/// ```
/// use boardwire_proto::framer::{LineFramer, LineRules, frame_and_decode};
///
/// enum Lf {}
/// impl LineRules for Lf {
///     const DEFAULT_MAX_LEN: usize = 4;
///     const BARE_CR_ENDS_LINE: bool = false;
/// }
///
/// let mut framer = LineFramer::<Lf>::default();
/// let parse = |f: &[u8]| core::str::from_utf8(f).map(str::len);
/// assert_eq!(frame_and_decode(&mut framer, b"abc\r\nd", parse), (5, Some(Ok(3))));
/// assert_eq!(frame_and_decode(&mut framer, b"d", parse), (0, None));
/// ```
pub fn frame_and_decode<F: Framer, T, E>(
    framer: &mut F,
    buf: &[u8],
    decode: impl FnOnce(&[u8]) -> Result<T, E>,
) -> (usize, Option<Result<T, FrameError<E>>>) {
    let mut skipped = 0;
    loop {
        match framer.decode(&buf[skipped..]) {
            Status::Complete { frame, consumed } => {
                let item = decode(frame).map_err(FrameError::Malformed);
                return (skipped + consumed, Some(item));
            }
            Status::Overlong { len, consumed } => {
                let max = framer.max_frame_len();
                return (
                    skipped + consumed,
                    Some(Err(FrameError::Overlong { len, max })),
                );
            }
            Status::Partial { consumed: 0 } => return (skipped, None),
            Status::Partial { consumed } => skipped += consumed,
        }
    }
}

/// The end of a stream, written once for the codecs ([`decode_rest`]) and
/// the drivers: what `rest`, the bytes `framer` was left holding, amounts to.
///
/// - `None`: nothing (`rest` is empty, or it is the tail of an over-long
///   frame already reported, [`Framer::is_discarding`]);
/// - for a protocol whose frames always end with their terminator
///   ([`Framer::LAST_FRAME_NEEDS_TERMINATOR`], DXP):
///   `FrameError::Unterminated` (`len`: all of `rest`);
/// - else a last frame (a peer that closed right after writing it): `rest`
///   without one trailing CR (the CR of a CR LF whose LF never came, a
///   terminator as in the framer), or `FrameError::Overlong` when that is
///   longer than the cap.
///
/// ```
/// use boardwire_proto::framer::{LineFramer, LineRules, last_frame};
/// use boardwire_proto::FrameError;
///
/// enum Lf {}
/// impl LineRules for Lf {
///     const DEFAULT_MAX_LEN: usize = 4;
///     const BARE_CR_ENDS_LINE: bool = false;
/// }
///
/// let framer = LineFramer::<Lf>::default();
/// assert_eq!(last_frame::<_, ()>(&framer, b"abc\r"), Some(Ok(&b"abc"[..])));
/// assert_eq!(
///     last_frame::<_, ()>(&framer, b"abcde"),
///     Some(Err(FrameError::Overlong { len: 5, max: 4 }))
/// );
/// assert_eq!(last_frame::<_, ()>(&framer, b""), None);
/// ```
pub fn last_frame<'r, F: Framer, E>(
    framer: &F,
    rest: &'r [u8],
) -> Option<Result<&'r [u8], FrameError<E>>> {
    if rest.is_empty() || framer.is_discarding() {
        return None;
    }
    Some(if F::LAST_FRAME_NEEDS_TERMINATOR {
        Err(FrameError::Unterminated { len: rest.len() })
    } else {
        let frame = rest.strip_suffix(b"\r").unwrap_or(rest);
        let (len, max) = (frame.len(), framer.max_frame_len());
        if len > max {
            Err(FrameError::Overlong { len, max })
        } else {
            Ok(frame)
        }
    })
}

/// A codec's end of stream, written once: `rest` is what is left after
/// [`frame_and_decode`] asked for more bytes, all of which the caller then
/// drops. What [`last_frame`] finds there, a last frame decoded by
/// `decode`. The framer is reset (a new stream).
pub fn decode_rest<F: Framer, T, E>(
    framer: &mut F,
    rest: &[u8],
    decode: impl FnOnce(&[u8]) -> Result<T, E>,
) -> Option<Result<T, FrameError<E>>> {
    let last = last_frame(framer, rest);
    framer.reset();
    last.map(|frame| frame.and_then(|f| decode(f).map_err(FrameError::Malformed)))
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    /// DXP's, CSA's and Citrine's framers: this type with their rules
    /// (`damexchange::framer::Framer`, `csa_protocol::framer::Framer`,
    /// `novag_citrine::framer::Framer`), their default caps.
    type Dxp = LineFramer<NulFrames<127>>;
    type Csa = LineFramer<LfLines<8192>>;
    type Citrine = LineFramer<CrLfLines<256>>;
    /// NUL frames of at most 4 bytes, for the buffer's tests.
    type Nul = LineFramer<NulFrames<4>>;

    /// The word-at-a-time terminator search finds what a byte-by-byte
    /// search finds, for each rule, on inputs made of the bytes that could
    /// fool it (each terminator, its neighbours 0x01, 0x09, 0x0b, 0x0c,
    /// 0x0e, high bytes 0x80 and 0xff, plain text), of every length up to
    /// 40 bytes (five 8-byte words and a tail).
    #[test]
    fn find_end_agrees_with_a_byte_by_byte_search() {
        const POOL: [u8; 12] = [
            0x00, 0x01, 0x09, b'\n', 0x0b, 0x0c, b'\r', 0x0e, 0x80, 0xff, b'a', b' ',
        ];
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for case in 0..30_000 {
            let len = case % 41;
            // Mostly one kind of byte, so that terminators are rare.
            let common = POOL[(next() % 12) as usize];
            let hay: Vec<u8> = (0..len)
                .map(|_| {
                    let r = next();
                    if r % 8 == 0 {
                        POOL[((r >> 8) % 12) as usize]
                    } else {
                        common
                    }
                })
                .collect();
            assert_eq!(
                find_end::<NulFrames<127>>(&hay),
                hay.iter().position(|&b| b == 0),
                "NUL in {hay:?}"
            );
            assert_eq!(
                find_end::<LfLines<8192>>(&hay),
                hay.iter().position(|&b| b == b'\n'),
                "LF in {hay:?}"
            );
            assert_eq!(
                find_end::<CrLfLines<256>>(&hay),
                hay.iter().position(|&b| b == b'\r' || b == b'\n'),
                "CR or LF in {hay:?}"
            );
        }
    }

    fn run(stream: &[u8], chunk: usize) -> Vec<Result<Vec<u8>, usize>> {
        let mut input = FrameBuffer::new(Nul::new(4), [0u8; 5]);
        let mut out = Vec::new();
        for part in stream.chunks(chunk) {
            let mut rest = part;
            while !rest.is_empty() {
                let n = input.push(rest);
                rest = &rest[n..];
                while let Some(f) = input.next_frame() {
                    out.push(match f {
                        Frame::Complete(b) => Ok(b.to_vec()),
                        Frame::Overlong { len, max } => {
                            assert_eq!(max, 4);
                            Err(len)
                        }
                    });
                }
            }
        }
        out
    }

    #[test]
    fn every_chunking_gives_the_same_frames_in_five_bytes() {
        let stream = b"ab\0\0abcd\0toolongframe\0xy\0";
        for chunk in 1..=stream.len() {
            let got = run(stream, chunk);
            assert_eq!(got.len(), 5, "chunk {chunk}: {got:?}");
            assert_eq!(got[0], Ok(b"ab".to_vec()));
            assert_eq!(got[1], Ok(Vec::new()));
            assert_eq!(got[2], Ok(b"abcd".to_vec()), "a frame of exactly the cap");
            assert!(matches!(got[3], Err(5)), "reported once: {got:?}");
            assert_eq!(got[4], Ok(b"xy".to_vec()), "the stream resynchronises");
        }
    }

    #[test]
    fn reading_into_space_and_clearing() {
        let mut input = FrameBuffer::new(Nul::new(4), [0u8; 8]);
        let space = input.space();
        assert_eq!(space.len(), 8);
        space[..4].copy_from_slice(b"ab\0c");
        input.filled(4);
        assert_eq!(input.next_frame(), Some(Frame::Complete(b"ab")));
        assert_eq!(input.next_frame(), None);
        assert_eq!(input.buffered(), b"c");
        assert_eq!(input.space().len(), 7, "compacted to the front");
        input.clear();
        assert_eq!(input.buffered(), b"");
    }

    /// Runs a stream through `framer` in `chunk`-byte reads over a
    /// caller-owned buffer, as a reader would: each frame, or `Err(len)`
    /// for one over the cap; the buffer never holds more than the cap and
    /// one byte.
    fn chunked<F: Framer>(
        framer: &mut F,
        stream: &[u8],
        chunk: usize,
    ) -> Vec<Result<Vec<u8>, usize>> {
        let mut buf = Vec::new();
        let mut out = Vec::new();
        for part in stream.chunks(chunk) {
            buf.extend_from_slice(part);
            loop {
                let (consumed, item) = match framer.decode(&buf) {
                    Status::Complete { frame, consumed } => (consumed, Some(Ok(frame.to_vec()))),
                    Status::Partial { consumed } => (consumed, None),
                    Status::Overlong { len, consumed } => (consumed, Some(Err(len))),
                };
                out.extend(item);
                buf.drain(..consumed);
                if consumed == 0 {
                    break;
                }
            }
            assert!(buf.len() <= framer.max_frame_len() + 1, "buffer capped");
        }
        out
    }

    #[test]
    fn nul_frames_every_chunking_gives_the_same_frames() {
        let stream = [&b"E00\0\0K1\0"[..], &[b'x'; 20], b"\0M0012061100\0"].concat();
        for chunk in 1..=stream.len() {
            let got = chunked(&mut Dxp::new(12), &stream, chunk);
            assert_eq!(got.len(), 5, "chunk {chunk}: {got:?}");
            assert_eq!(got[0], Ok(b"E00".to_vec()));
            assert_eq!(got[1], Ok(Vec::new()));
            assert_eq!(got[2], Ok(b"K1".to_vec()));
            // Reported once, with the bytes seen so far (13 ..= 20).
            assert!(matches!(got[3], Err(13..=20)), "chunk {chunk}: {got:?}");
            assert_eq!(got[4], Ok(b"M0012061100".to_vec()));
        }
    }

    /// Feeds each input in turn to `framer`: its answer, and whether it is
    /// then skipping the rest of an over-long frame.
    fn steps<R: LineRules>(mut framer: LineFramer<R>, steps: &[(&[u8], Status<'_>, bool)]) {
        for (k, &(input, want, discarding)) in steps.iter().enumerate() {
            assert_eq!(framer.decode(input), want, "step {k}: {input:?}");
            assert_eq!(framer.is_discarding(), discarding, "step {k}: {input:?}");
        }
    }

    /// The cap, over-long frames reported as soon as the cap is passed
    /// (`len` = the bytes seen) and skipped up to their terminator, for the
    /// three protocols' framers.
    #[test]
    fn the_cap_and_over_long_frames_step_by_step() {
        use Status::{Complete, Overlong, Partial};
        // DXP: exactly the cap (127) is a frame; 128 is over, at once.
        let mut at_cap = [b'C'; 128];
        at_cap[127] = 0;
        let long = [b'C'; 128];
        steps(
            Dxp::default(),
            &[
                (
                    &at_cap,
                    Complete {
                        frame: &at_cap[..127],
                        consumed: 128,
                    },
                    false,
                ),
                (
                    &long,
                    Overlong {
                        len: 128,
                        consumed: 128,
                    },
                    true,
                ),
                (b"CC\0K1\0", Partial { consumed: 3 }, false),
                (
                    b"K1\0",
                    Complete {
                        frame: b"K1",
                        consumed: 3,
                    },
                    false,
                ),
            ],
        );
        // CSA: the rest of the line up to its LF is skipped.
        steps(
            Csa::new(4),
            &[
                (
                    b"abcdef",
                    Overlong {
                        len: 6,
                        consumed: 6,
                    },
                    true,
                ),
                (b"gh\nX\n", Partial { consumed: 3 }, false),
                (
                    b"X\n",
                    Complete {
                        frame: b"X",
                        consumed: 2,
                    },
                    false,
                ),
            ],
        );
        // Citrine: a partial line waits.
        steps(
            Citrine::default(),
            &[
                (b"M   7,  c5", Partial { consumed: 0 }, false),
                (
                    b"M   7,  c5xd4\r\n",
                    Complete {
                        frame: b"M   7,  c5xd4",
                        consumed: 15,
                    },
                    false,
                ),
            ],
        );
        // Citrine: the end of the over-long line and the next line in one
        // buffer: the next line comes out at once.
        steps(
            Citrine::new(4),
            &[
                (b"abcd", Partial { consumed: 0 }, false),
                (
                    b"abcdef",
                    Overlong {
                        len: 6,
                        consumed: 6,
                    },
                    true,
                ),
                (b"gh", Partial { consumed: 2 }, true),
                (
                    b"ij\r\nok\r\n",
                    Complete {
                        frame: b"ok",
                        consumed: 8,
                    },
                    false,
                ),
            ],
        );
    }

    #[test]
    #[should_panic(expected = "shorter than the frame cap")]
    fn storage_must_hold_a_whole_frame() {
        let _ = FrameBuffer::new(Nul::new(4), [0u8; 4]);
    }

    #[test]
    fn capacity_is_the_storage_length() {
        assert_eq!(FrameBuffer::new(Nul::new(4), [0u8; 5]).capacity(), 5);
        assert_eq!(FrameBuffer::new(Nul::new(4), [0u8; 16]).capacity(), 16);
    }

    /// Citrine's leading CR LF runs are terminators: the frame handed out
    /// is the line after them, borrowed where it lies in the buffer.
    #[test]
    fn a_frame_after_leading_terminators_is_cut_where_it_lies() {
        let mut input = FrameBuffer::new(Citrine::new(8), [0u8; 16]);
        assert_eq!(input.push(b"\r\n\r\nab\r\n"), 8);
        assert_eq!(input.next_frame(), Some(Frame::Complete(b"ab")));
        assert_eq!(input.next_frame(), None);
        assert_eq!(input.buffered(), b"");
    }

    /// A complete line over the cap is reported once (`Status::Overlong`'s
    /// contract) and the next line follows.
    #[test]
    fn a_complete_line_over_the_cap_is_reported_once() {
        let mut input = FrameBuffer::new(Csa::new(4), [0u8; 16]);
        assert_eq!(input.push(b"abcdef\nok\n"), 10);
        assert_eq!(input.next_frame(), Some(Frame::Overlong { len: 6, max: 4 }));
        assert_eq!(input.next_frame(), Some(Frame::Complete(b"ok")));
        assert_eq!(input.next_frame(), None);
    }

    /// Only a buffer full of unframed bytes is an over-long frame: the
    /// start of a frame behind one taken out is not.
    #[test]
    fn a_partial_frame_behind_a_frame_waits() {
        let mut input = FrameBuffer::new(Nul::new(4), [0u8; 5]);
        assert_eq!(input.push(b"a\0b"), 3);
        assert_eq!(input.next_frame(), Some(Frame::Complete(b"a")));
        assert_eq!(input.next_frame(), None);
        assert_eq!(input.buffered(), b"b");
    }

    /// A framer that never reports its cap: `next_frame` never leaves a
    /// full buffer (`space` is then empty and a reader would stall); the
    /// bytes are reported as over-long and dropped.
    #[test]
    fn a_framer_that_breaks_its_cap_cannot_stall_the_buffer() {
        struct NoCap;
        impl Framer for NoCap {
            const DEFAULT_MAX_LEN: usize = 2;
            const MAX_TERMINATOR_LEN: usize = 1;
            const LAST_FRAME_NEEDS_TERMINATOR: bool = true;
            fn new(_: usize) -> Self {
                NoCap
            }
            fn max_frame_len(&self) -> usize {
                2
            }
            fn decode<'b>(&mut self, buf: &'b [u8]) -> Status<'b> {
                match buf.iter().position(|&b| b == b';') {
                    Some(i) => Status::Complete {
                        frame: &buf[..i],
                        consumed: i + 1,
                    },
                    None => Status::Partial { consumed: 0 },
                }
            }
            fn reset(&mut self) {}
        }
        let mut input = FrameBuffer::new(NoCap, [0u8; 3]);
        assert_eq!(input.push(b"abc"), 3);
        assert_eq!(input.next_frame(), Some(Frame::Overlong { len: 3, max: 2 }));
        assert_eq!(input.buffered(), b"");
        assert_eq!(input.space().len(), 3);
    }

    /// Equality is the framer's state (cap, scan, discarding); `reset`
    /// (inherent and `Framer::reset`) returns it to a new framer's, so a
    /// new stream frames from scratch.
    #[test]
    fn equality_and_reset() {
        use Status::{Complete, Overlong, Partial};
        let fresh = Csa::new(4);
        assert_eq!(fresh, Csa::new(4));
        assert_ne!(fresh, Csa::new(5));
        let mut f = Csa::new(4);
        assert_eq!(f.decode(b"abc"), Partial { consumed: 0 });
        assert_ne!(f, fresh, "it has scanned 3 bytes");
        f.reset();
        assert_eq!(f, fresh);
        assert_eq!(
            f.decode(b"ab\n"),
            Complete {
                frame: b"ab",
                consumed: 3
            }
        );
        assert_eq!(
            f.decode(b"abcdef"),
            Overlong {
                len: 6,
                consumed: 6
            }
        );
        assert!(f.is_discarding());
        assert_ne!(f, fresh);
        Framer::reset(&mut f);
        assert_eq!(f, fresh);
        assert!(!f.is_discarding());
        assert_eq!(f.decode(b"abc"), Partial { consumed: 0 });
        Framer::reset(&mut f);
        assert_eq!(f, fresh);
    }

    /// The cap as given; Citrine's 0 is raised to 1 (`LineRules::BARE_CR_ENDS_LINE`);
    /// the defaults are the rules' `DEFAULT_MAX_LEN`.
    #[test]
    fn the_cap() {
        assert_eq!(Csa::new(4).max_frame_len(), 4);
        assert_eq!(Csa::new(0).max_frame_len(), 0);
        assert_eq!(Citrine::new(0).max_frame_len(), 1);
        assert_eq!(Dxp::default().max_frame_len(), 127);
        assert_eq!(Csa::default().max_frame_len(), 8192);
        assert_eq!(Framer::max_frame_len(&Citrine::default()), 256);
    }

    /// CSA: an empty line is a frame (keep-alive), with LF or CR LF; a CR
    /// at the end of the buffer is not line body (its LF may follow), so a
    /// line of exactly the cap waiting for its LF is not over-long. DXP: a
    /// CR is a byte of the frame like any other.
    #[test]
    fn empty_lines_and_a_trailing_cr() {
        use Status::{Complete, Overlong, Partial};
        steps(
            Csa::new(2),
            &[
                (
                    b"\n",
                    Complete {
                        frame: b"",
                        consumed: 1,
                    },
                    false,
                ),
                (
                    b"\r\n",
                    Complete {
                        frame: b"",
                        consumed: 2,
                    },
                    false,
                ),
                (b"ab\r", Partial { consumed: 0 }, false),
                (
                    b"ab\r\n",
                    Complete {
                        frame: b"ab",
                        consumed: 4,
                    },
                    false,
                ),
            ],
        );
        steps(
            Nul::new(4),
            &[(
                b"abcd\r",
                Overlong {
                    len: 5,
                    consumed: 5,
                },
                true,
            )],
        );
    }

    /// Citrine: the terminator run that ends an over-long line may open
    /// the next buffer; what follows it frames normally, and `consumed`
    /// counts the skipped bytes too.
    #[test]
    fn citrine_after_an_over_long_line() {
        use Status::{Complete, Overlong, Partial};
        let over = (
            &b"abcdef"[..],
            Overlong {
                len: 6,
                consumed: 6,
            },
            true,
        );
        steps(
            Citrine::new(4),
            &[
                over,
                (
                    b"\r\nok\r\n",
                    Complete {
                        frame: b"ok",
                        consumed: 6,
                    },
                    false,
                ),
            ],
        );
        steps(
            Citrine::new(4),
            &[over, (b"gh\r\nab", Partial { consumed: 4 }, false)],
        );
        steps(
            Citrine::new(4),
            &[
                over,
                (
                    b"gh\r\nvwxyz",
                    Overlong {
                        len: 5,
                        consumed: 9,
                    },
                    true,
                ),
            ],
        );
    }

    /// `frame_and_decode` passes over skipped bytes in the same call and
    /// counts them in what to drop.
    #[test]
    fn frame_and_decode_counts_skipped_bytes() {
        let parse = |f: &[u8]| Ok::<_, ()>(f.to_vec());
        let mut f = Csa::new(4);
        assert_eq!(
            frame_and_decode(&mut f, b"abcdef", parse),
            (6, Some(Err(FrameError::Overlong { len: 6, max: 4 })))
        );
        assert_eq!(
            frame_and_decode(&mut f, b"gh\nok\n", parse),
            (6, Some(Ok(b"ok".to_vec())))
        );
        assert_eq!(frame_and_decode(&mut f, b"", parse), (0, None));
    }

    /// The end of the stream: nothing left is nothing; DXP's last frame
    /// needs its NUL; a last CSA line up to the cap (a trailing CR being
    /// terminator) is a line, over it is over-long; the framer is reset.
    #[test]
    fn decode_rest_at_the_end_of_the_stream() {
        let parse = |f: &[u8]| Ok::<_, ()>(f.to_vec());
        let mut csa = Csa::new(4);
        assert_eq!(decode_rest(&mut csa, b"", parse), None);
        assert_eq!(
            decode_rest(&mut csa, b"abc", parse),
            Some(Ok(b"abc".to_vec()))
        );
        assert_eq!(
            decode_rest(&mut csa, b"abcd", parse),
            Some(Ok(b"abcd".to_vec()))
        );
        assert_eq!(
            decode_rest(&mut csa, b"abcd\r", parse),
            Some(Ok(b"abcd".to_vec()))
        );
        assert_eq!(
            decode_rest(&mut csa, b"abcde", parse),
            Some(Err(FrameError::Overlong { len: 5, max: 4 }))
        );
        // What a codec leaves at the end: bytes the framer scanned.
        assert_eq!(csa.decode(b"xyz"), Status::Partial { consumed: 0 });
        assert_ne!(csa, Csa::new(4));
        assert_eq!(
            decode_rest(&mut csa, b"xyz", parse),
            Some(Ok(b"xyz".to_vec()))
        );
        assert_eq!(csa, Csa::new(4), "reset");
        assert_eq!(
            decode_rest(&mut Nul::new(4), b"ab\r", parse),
            Some(Err(FrameError::Unterminated { len: 3 }))
        );
    }

    /// An over-long line whose stream ends after a CR: the framer keeps the
    /// CR (it may be a CR LF's), but it belongs to the line already
    /// reported, so the end of the stream is no last frame (it once was an
    /// empty one); the framer is reset all the same.
    #[test]
    fn the_tail_of_an_over_long_line_is_no_last_frame() {
        let parse = |f: &[u8]| Ok::<_, ()>(f.to_vec());
        let mut csa = Csa::new(4);
        assert_eq!(
            csa.decode(b"abcdef\r"),
            Status::Overlong {
                len: 6,
                consumed: 6
            }
        );
        assert!(Framer::is_discarding(&csa));
        assert_eq!(last_frame::<_, ()>(&csa, b"\r"), None);
        assert_eq!(decode_rest(&mut csa, b"\r", parse), None);
        assert_eq!(csa, Csa::new(4), "reset");
        assert!(!Framer::is_discarding(&csa));
        // Not skipping: a lone CR is an empty last line.
        assert_eq!(decode_rest(&mut csa, b"\r", parse), Some(Ok(Vec::new())));
    }

    /// A framer that never skips (`;`-ended frames, no over-long state)
    /// keeps the trait's default: whatever it holds at the end is a last
    /// frame.
    #[test]
    fn a_framer_that_never_skips_is_never_discarding() {
        struct Semi;
        impl Framer for Semi {
            const DEFAULT_MAX_LEN: usize = 8;
            const MAX_TERMINATOR_LEN: usize = 1;
            const LAST_FRAME_NEEDS_TERMINATOR: bool = false;
            fn new(_: usize) -> Self {
                Semi
            }
            fn max_frame_len(&self) -> usize {
                8
            }
            fn decode<'b>(&mut self, _: &'b [u8]) -> Status<'b> {
                Status::Partial { consumed: 0 }
            }
            fn reset(&mut self) {}
        }
        assert!(!Semi.is_discarding());
        assert_eq!(last_frame::<_, ()>(&Semi, b"ab"), Some(Ok(&b"ab"[..])));
    }
}
