//! [`Transmit`]: what a session wants written.

use core::fmt;

/// Bytes held inline (no allocation) by a [`Transmit`]: a whole DXP frame
/// (127 bytes and its NUL) and every Citrine command fit.
pub const INLINE_CAP: usize = 128;

#[derive(Clone, PartialEq, Eq)]
enum Repr {
    Inline {
        len: u8,
        bytes: [u8; INLINE_CAP],
    },
    #[cfg(feature = "alloc")]
    Heap(alloc::vec::Vec<u8>),
}

/// The bytes of one or more frames (terminators included) to write to the
/// peer, from a session's `poll_transmit()`, and whether to close the
/// connection after them.
///
/// Up to [`INLINE_CAP`] bytes are held inline, so queuing a DXP or Citrine
/// frame does not allocate; longer ones (a CSA `Game_Summary` block) go to
/// the heap (feature `alloc`).
#[derive(Clone, PartialEq, Eq)]
pub struct Transmit {
    repr: Repr,
    close: bool,
}

impl Transmit {
    /// `bytes` held inline, or `None` when longer than [`INLINE_CAP`].
    pub fn inline(bytes: &[u8]) -> Option<Transmit> {
        if bytes.len() > INLINE_CAP {
            return None;
        }
        let mut b = [0u8; INLINE_CAP];
        b[..bytes.len()].copy_from_slice(bytes);
        Some(Transmit {
            repr: Repr::Inline {
                len: bytes.len() as u8,
                bytes: b,
            },
            close: false,
        })
    }

    /// `bytes`, inline when they fit, else on the heap.
    #[cfg(feature = "alloc")]
    pub fn new(bytes: &[u8]) -> Transmit {
        Transmit::inline(bytes).unwrap_or_else(|| Transmit {
            repr: Repr::Heap(bytes.to_vec()),
            close: false,
        })
    }

    /// The bytes of `vec` (kept on the heap when longer than
    /// [`INLINE_CAP`], moved inline when they fit).
    #[cfg(feature = "alloc")]
    pub fn from_vec(vec: alloc::vec::Vec<u8>) -> Transmit {
        match Transmit::inline(&vec) {
            Some(t) => t,
            None => Transmit {
                repr: Repr::Heap(vec),
                close: false,
            },
        }
    }

    /// The same bytes, then the connection is to be closed (a server ending
    /// a connection, a client after `LOGOUT`).
    #[must_use]
    pub fn and_close(mut self) -> Transmit {
        self.close = true;
        self
    }

    /// An empty transmit that only closes the connection.
    pub fn close() -> Transmit {
        Transmit {
            repr: Repr::Inline {
                len: 0,
                bytes: [0; INLINE_CAP],
            },
            close: true,
        }
    }

    /// Whether the connection is to be closed once these bytes are written.
    pub fn closes(&self) -> bool {
        self.close
    }

    /// Appends more bytes (another frame), moving to the heap when they no
    /// longer fit inline.
    #[cfg(feature = "alloc")]
    pub fn extend_from_slice(&mut self, more: &[u8]) {
        match &mut self.repr {
            Repr::Inline { len, bytes } if (*len as usize) + more.len() <= INLINE_CAP => {
                let l = *len as usize;
                bytes[l..l + more.len()].copy_from_slice(more);
                *len = (l + more.len()) as u8;
            }
            Repr::Inline { len, bytes } => {
                let mut v = alloc::vec::Vec::with_capacity(*len as usize + more.len());
                v.extend_from_slice(&bytes[..*len as usize]);
                v.extend_from_slice(more);
                self.repr = Repr::Heap(v);
            }
            Repr::Heap(v) => v.extend_from_slice(more),
        }
    }

    /// The bytes to write, terminators included.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.repr {
            Repr::Inline { len, bytes } => &bytes[..*len as usize],
            #[cfg(feature = "alloc")]
            Repr::Heap(v) => v,
        }
    }

    /// The bytes to write, owned.
    #[cfg(feature = "alloc")]
    pub fn into_bytes(self) -> alloc::vec::Vec<u8> {
        match self.repr {
            Repr::Inline { len, bytes } => bytes[..len as usize].to_vec(),
            Repr::Heap(v) => v,
        }
    }

    /// The byte count.
    pub fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// No bytes (a close alone).
    pub fn is_empty(&self) -> bool {
        self.as_bytes().is_empty()
    }
}

impl AsRef<[u8]> for Transmit {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl fmt::Debug for Transmit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Transmit(\"")?;
        for &b in self.as_bytes() {
            for c in core::ascii::escape_default(b) {
                fmt::Write::write_char(f, c as char)?;
            }
        }
        f.write_str("\"")?;
        if self.close {
            f.write_str(", close")?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
#[cfg(feature = "alloc")] // `Transmit::new`
mod tests {
    use super::*;
    extern crate std;
    use std::format;

    #[test]
    fn inline_up_to_the_cap_then_heap() {
        let t = Transmit::inline(&[b'x'; INLINE_CAP]).unwrap();
        assert_eq!(t.len(), INLINE_CAP);
        assert!(Transmit::inline(&[b'x'; INLINE_CAP + 1]).is_none());
        let mut t = Transmit::new(b"E00\0");
        t.extend_from_slice(&[b'y'; INLINE_CAP]);
        assert_eq!(t.len(), 4 + INLINE_CAP);
        assert_eq!(&t.as_bytes()[..4], b"E00\0");
        assert!(!t.closes());
        let t = t.and_close();
        assert!(t.closes());
        assert_eq!(
            format!("{:?}", Transmit::new(b"K1\0")),
            "Transmit(\"K1\\x00\")"
        );
        assert!(Transmit::close().is_empty() && Transmit::close().closes());
    }

    /// Frames appended while they fit stay inline (no allocation: the
    /// point of `INLINE_CAP`), the bytes in order; past it, the heap.
    #[test]
    fn extending_stays_inline_up_to_the_cap() {
        let mut t = Transmit::new(b"E00\0");
        t.extend_from_slice(b"K1\0");
        assert_eq!(t.as_bytes(), b"E00\0K1\0");
        assert_eq!(t.len(), 7);
        assert!(!t.is_empty());
        assert!(matches!(t.repr, Repr::Inline { len: 7, .. }));
        t.extend_from_slice(&[b'x'; INLINE_CAP - 7]);
        assert_eq!(t.len(), INLINE_CAP);
        assert!(matches!(t.repr, Repr::Inline { .. }), "exactly the cap");
        t.extend_from_slice(b"y");
        assert!(matches!(t.repr, Repr::Heap(_)));
        assert_eq!(t.len(), INLINE_CAP + 1);
        assert_eq!(&t.as_bytes()[..7], b"E00\0K1\0");
        assert_eq!(t.as_bytes()[INLINE_CAP], b'y');
        let mut t = Transmit::new(b"");
        assert!(t.is_empty());
        t.extend_from_slice(&[b'z'; 100]);
        assert!(matches!(t.repr, Repr::Inline { len: 100, .. }));
        assert!(!t.is_empty());
    }
}
