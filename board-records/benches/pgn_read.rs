//! Reading PGN with move validation, in bytes per second
//! (`Throughput::Bytes`): `Reader::games()` (every move checked with
//! board-core), the zero-copy visitor without validation, and writing.
//!
//! The input is `corpus::corpus(2026, 300)` (see `support/corpus.rs`; the example
//! `pgn_corpus` writes the same bytes to a file, so pgn-reader can be run
//! on them side by side). `cargo test --benches -p board-records` runs
//! each benchmark once.
#![allow(missing_docs)]

use std::hint::black_box;
use std::ops::ControlFlow;

use board_records::pgn::{Reader, Visitor};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "support/corpus.rs"]
mod corpus;

/// Counts moves; checks nothing (the reader's syntax work alone).
struct Count(usize);

impl<'a> Visitor<'a> for Count {
    type Output = ();
    fn san(&mut self, _: &'a str, _: usize) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: usize) {}
}

fn bench(c: &mut Criterion) {
    let text = corpus::corpus(2026, 300);
    let bytes = text.as_bytes();
    let games = Reader::new(bytes).games().count();
    assert_eq!(games, 300);
    let mut group = c.benchmark_group("pgn");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read_validate", |b| {
        b.iter(|| {
            let mut moves = 0;
            for g in Reader::new(black_box(bytes)).games() {
                moves += g.expect("reads").moves.len();
            }
            moves
        })
    });
    group.bench_function("visit_no_validation", |b| {
        b.iter(|| {
            let mut r = Reader::new(black_box(bytes));
            let mut v = Count(0);
            while let Some(g) = r.read_game(&mut v) {
                g.expect("reads");
            }
            v.0
        })
    });
    let parsed: Vec<_> = Reader::new(bytes)
        .games()
        .map(|g| g.expect("reads"))
        .collect();
    group.bench_function("write", |b| {
        b.iter(|| {
            let mut out = String::with_capacity(bytes.len());
            for g in black_box(&parsed) {
                g.write_to(&mut out).expect("a String");
            }
            out.len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
