//! The sans-IO CSA server at scale (issue 27), in memory:
//! - `events/<N>`: 50 pairs of clients logging in, playing a short game
//!   and leaving ([`scale::events`], 12 inputs each, the output drained
//!   and the next timeout asked after each) while `N` other clients wait
//!   for a scheduled league game and `N / 10` games are in play. The cost
//!   per input should not grow with `N`.
//! - `pair_2000`: the league's pairing of 2,000 waiting players, from the
//!   pairing time to the 2,000 `Game_Summary` queued.
//!
//! Wall clock is meaningless on a loaded machine: count instructions
//! instead, e.g. `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect='*scale*events*' <bench binary> --test events/10000`
//! (criterion's `--test` runs each routine once).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

#[path = "../tests/scale/mod.rs"]
mod scale;

const PAIRS: u64 = 50;

fn events(c: &mut Criterion) {
    let mut g = c.benchmark_group("events");
    g.sample_size(10);
    g.throughput(Throughput::Elements(PAIRS * scale::EVENTS_PER_PAIR));
    for n in [1_000u64, 10_000] {
        g.bench_function(n.to_string(), |b| {
            b.iter_batched_ref(
                || scale::setup(n, n / 10, None),
                |s| black_box(scale::events(s, PAIRS)),
                BatchSize::PerIteration,
            );
        });
    }
    g.finish();
}

fn pairing(c: &mut Criterion) {
    let at = scale::BASE + 60;
    let mut g = c.benchmark_group("pair");
    g.sample_size(10);
    g.bench_function("2000", |b| {
        b.iter_batched_ref(
            || scale::setup(2_000, 0, Some(at)),
            |s| black_box(scale::pair_all(s, at)),
            BatchSize::PerIteration,
        );
    });
    g.finish();
}

criterion_group!(benches, events, pairing);
criterion_main!(benches);
