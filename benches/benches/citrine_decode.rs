//! Novag Citrine reply-line decoding: one line at a time, and a whole
//! session's byte stream through the line framer. The lines include the
//! protocol document's spellings (`t 2 g8-f6`), so they are decoded with
//! `Leniency::DOCUMENT` (what the host driver uses).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use novag_citrine::decode::{Leniency, decode_with};
use novag_citrine::framer::{Framer, Status};
use novag_citrine::message::Reply;
use std::hint::black_box;

/// The spec note's and captured device output's reply lines.
const LINES: &[&[u8]] = benches::streams::CITRINE_REPLY_LINES;

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
