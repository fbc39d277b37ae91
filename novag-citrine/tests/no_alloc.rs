//! Decoding a reply line and framing never allocate on the heap.

use boardwire_vectors::counting::{Counting, allocations};
use novag_citrine::decode::{Leniency, decode, decode_with};
use novag_citrine::framer::{Framer, Status};
use novag_citrine::message::{Command, Reply};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn decoding_does_not_allocate() {
    let lines: &[&[u8]] = &[
        b"M   7,  c5xd4",
        b"M   5   d7-d8/N |",
        b"T   1,  e7-e5",
        b"Clock 00:06:27 00:00:01",
        b".   3  f4xe5       d8-h4",
        b"ID. UCBII V1.09",
        b"Level sd 5",
        b"4    ::    :: WP ::    ::",
        b"something else",
        b"M 1 e9-e4",
    ];
    let stream = b"New Game\r\nM 1 e2-e4 |\r\nXmit on\n";
    let before = allocations();
    let mut decoded = 0;
    for l in lines {
        decoded += usize::from(decode::<Reply>(l).is_ok());
        decoded += usize::from(decode::<Command>(b"M e2e4").is_ok());
    }
    for l in [&b"t 2 g8-f6"[..], b"ID.UCBII VI.09"] {
        decoded += usize::from(decode_with::<Reply>(l, &Leniency::DOCUMENT).is_ok());
    }
    let mut framer = Framer::new(64);
    let mut rest = &stream[..];
    while let Status::Complete { frame, consumed } = framer.decode(rest) {
        std::hint::black_box(decode::<Reply>(frame).is_ok());
        rest = &rest[consumed..];
        decoded += 1;
    }
    let after = allocations();
    assert_eq!(decoded, 9 + 10 + 2 + 3);
    assert_eq!(after - before, 0, "heap allocations while decoding");
}

/// Encoding every kind of reply (the game list's padded rows and the
/// diagram's rows included) writes into the caller's buffer without a heap
/// allocation of its own; the lines are the spec note's and captured device
/// output's, which decode and encode back to the same bytes.
#[test]
fn encoding_replies_does_not_allocate() {
    let lines: &[&[u8]] = &[
        b"M   7,  c5xd4",
        b"T   1,  e7-e5",
        b"Clock 00:06:27 00:00:01",
        b"Game   6",
        b".      white       black",
        b".   3  f4xe5       d8-h4",
        b".   1  e2-e4       e7-e5",
        b"8 br bn bb bq bk bb bn br",
        b"4    ::    :: WP ::    ::",
        b"Xmit on",
        b"New Game",
    ];
    let replies: Vec<Reply<'_>> = lines.iter().map(|l| decode::<Reply>(l).unwrap()).collect();
    let mut out = Vec::with_capacity(1024);
    let before = allocations();
    for r in &replies {
        r.encode(&mut out);
    }
    let after = allocations();
    assert_eq!(after - before, 0, "heap allocations while encoding");
    let mut want = Vec::new();
    for l in lines {
        want.extend_from_slice(l);
        want.extend_from_slice(b"\r\n");
    }
    assert_eq!(
        String::from_utf8(out).unwrap(),
        String::from_utf8(want).unwrap()
    );
}
