//! Novag Citrine reply-line decoding: one line at a time, and a whole
//! session's byte stream through the line framer. The lines include the
//! protocol document's spellings (`t 2 g8-f6`), so they are decoded with
//! `Leniency::DOCUMENT` (what the host driver uses).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use novag_citrine::decode::{Leniency, decode_with};
use novag_citrine::framer::{Framer, Status};
use novag_citrine::message::Reply;
use std::hint::black_box;

/// Reply lines as the spec note (novag-citrine's spec/citrine.md, *Move text the Citrine
/// prints*) and captured device output show them.
const LINES: &[&[u8]] = &[
    b"M   7   g1-f3",
    b"M   7,  c5xd4",
    b"M   5   d7-d8/N",
    b"M   7   e5xd6ep",
    b"M   4   O-O",
    b"M 1 e2-e4 |",
    b"M 1, d7-d6 |",
    b"T   1,  e7-e5",
    b"t 2 g8-f6",
    b"Clock 00:06:27 00:00:01",
    b"Game   6",
    b".      white       black",
    b".   3  f4xe5       d8-h4",
    b"ID. UCBII V1.09",
    b"Level tr 1",
    b"New Game",
    b"Position Board",
    b"8 br bn bb bq bk bb bn br",
    b"4    ::    :: WP ::    ::",
    b"Xmit on",
    b".Referee off",
    b"Flip --> Black",
];

fn decode_lines(c: &mut Criterion) {
    let bytes: usize = LINES.iter().map(|l| l.len()).sum();
    let mut g = c.benchmark_group("citrine_reply_decode");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("spec_lines", |b| {
        b.iter(|| {
            for line in LINES {
                black_box(decode_with::<Reply>(black_box(line), &Leniency::DOCUMENT).unwrap());
            }
        })
    });
    g.finish();

    let mut stream = Vec::new();
    for _ in 0..100 {
        for line in LINES {
            stream.extend_from_slice(line);
            stream.extend_from_slice(b"\r\n");
        }
    }
    let mut g = c.benchmark_group("citrine_stream_decode");
    g.throughput(Throughput::Bytes(stream.len() as u64));
    g.bench_function("framer_and_decode", |b| {
        b.iter(|| {
            let mut framer = Framer::default();
            let mut rest = &stream[..];
            let mut n = 0;
            while let Status::Complete { frame, consumed } = framer.decode(rest) {
                black_box(decode_with::<Reply>(frame, &Leniency::DOCUMENT).unwrap());
                n += 1;
                rest = &rest[consumed..];
            }
            assert_eq!(n, LINES.len() * 100);
        })
    });
    g.finish();
}

criterion_group!(benches, decode_lines);
criterion_main!(benches);
