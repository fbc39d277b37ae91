//! Pairing 2,000 waiting players (issue 27: at most 1 s), through the
//! factories and through `Floodgate::pair` as the server calls it.

use criterion::{Criterion, criterion_group, criterion_main};
use csa_league::Floodgate;
use csa_league::history::{History, Record};
use csa_league::pairing::{self, Candidate, Factory};
use csa_league::players::{PlayerEntry, Players};
use csa_protocol::session::{ConnId, League, WaitingPlayer};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::hint::black_box;

const N: usize = 2000;

/// Every tenth player unrated; 100 games of history.
fn setup() -> (Vec<Candidate>, History) {
    let ps: Vec<Candidate> = (0..N)
        .map(|i| Candidate {
            name: format!("eng{i:04}"),
            player_id: format!("eng{i:04}+{i:032x}"),
            rate: if i % 10 == 0 {
                0
            } else {
                800 + (i * 7919 % 2400) as i64
            },
        })
        .collect();
    let mut h = History::new();
    for i in 0..100 {
        let (w, l) = (ps[2 * i].player_id.clone(), ps[2 * i + 1].player_id.clone());
        h.push(Record {
            game_id: format!("g{i}"),
            black: w.clone(),
            white: l.clone(),
            winner: Some(w),
            loser: Some(l),
        });
    }
    (ps, h)
}

fn bench(c: &mut Criterion) {
    let (ps, h) = setup();
    for f in [
        Factory::DefaultFactory,
        Factory::SwissPairing,
        Factory::RandomPairing,
    ] {
        c.bench_function(&format!("pair_2000_{}", f.name()), |b| {
            b.iter(|| {
                let mut rng = ChaCha8Rng::seed_from_u64(1);
                black_box(pairing::pair(
                    &ps,
                    &f.logics("none"),
                    Some(&h),
                    &ps,
                    &mut rng,
                ))
            })
        });
    }
    let game = "floodgate-600-10";
    let players = Players {
        entries: ps
            .iter()
            .map(|p| PlayerEntry {
                player_id: p.player_id.clone(),
                name: p.name.clone(),
                rating_group: 0,
                rate: p.rate,
                last_modified: None,
                win: 10.0,
                loss: 10.0,
            })
            .collect(),
    };
    let waiting: Vec<WaitingPlayer<'_>> = ps
        .iter()
        .enumerate()
        .map(|(i, p)| WaitingPlayer {
            conn: ConnId(i as u64),
            name: &p.name,
            player_id: &p.player_id,
            gamename: game,
        })
        .collect();
    c.bench_function("floodgate_pair_2000", |b| {
        b.iter(|| {
            let mut fg = Floodgate::new([game], 1).unwrap();
            fg.set_schedule(game, Some("Mon 10:00\n")).unwrap();
            fg.set_players(players.clone());
            fg.set_history(game, h.clone()).unwrap();
            let at = fg.next_pairing(1_714_953_600, 9 * 3600).unwrap();
            black_box(fg.pair(at, 9 * 3600, &waiting))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
