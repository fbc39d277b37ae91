//! Any input: the parsers never panic, and a pairing accounts for every
//! player exactly once (paired once or left out with a reason), as
//! shogi-server's logics move each player either into a game or leave it
//! waiting.

use csa_league::history::History;
use csa_league::pairing::{self, Candidate, Factory};
use csa_league::schedule::{Generator, Schedule};
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

proptest! {
    #[test]
    fn schedule_parse_any_text(text in ".{0,400}", now in any::<i64>(), off in -86_400i32..86_400) {
        let s = Schedule::parse(&text);
        if let Some(t) = s.next_after(now, off) {
            prop_assert!(t > now);
            prop_assert!(t - now <= 7 * 86_400);
        }
        for g in [Generator::Every30Minutes, Generator::EveryOddHour] {
            if let Some(t) = g.next_after(now, off) {
                prop_assert!(t > now && t - now <= 2 * 3600);
            }
        }
    }

    #[test]
    fn schedule_lines(lines in prop::collection::vec("(set |# )?[A-Za-z_]{0,9} {0,2}[0-9]{0,3}:?[0-9]{0,3}", 0..12)) {
        let _ = Schedule::parse(&lines.join("\n"));
    }

    #[test]
    fn history_parse_any_text(text in "(- |  |:game_id: |:black: |:winner: |x|'|\"|\n|\\[|\\{){0,80}") {
        if let Ok(h) = History::parse(&text) {
            // What was read is written back and read again the same.
            prop_assert_eq!(History::parse(&h.to_yaml()).unwrap(), h);
        }
    }

    #[test]
    fn every_player_accounted_for(
        rates in prop::collection::vec(0i64..3000, 0..24),
        humans in prop::collection::vec(any::<bool>(), 24),
        factory in 0usize..6,
        seed in any::<u64>(),
    ) {
        let ps: Vec<Candidate> = rates.iter().enumerate().map(|(i, &r)| {
            let name = if humans[i] { format!("p{i}_human") } else { format!("p{i}") };
            Candidate { player_id: format!("{name}+x"), name, rate: r }
        }).collect();
        let f = [Factory::DefaultFactory, Factory::LeastDiffPairing, Factory::SortByRateWithRandomness,
                 Factory::RandomPairing, Factory::SwissPairing, Factory::FloodgateZyunisen][factory];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let o = pairing::pair(&ps, &f.logics("p3+x"), Some(&History::new()), &ps, &mut rng);
        let mut seen = vec![0u32; ps.len()];
        for p in &o.pairs {
            seen[p.black] += 1;
            seen[p.white] += 1;
            prop_assert!(p.black != p.white);
        }
        for (i, _) in &o.left_out {
            seen[*i] += 1;
        }
        prop_assert!(seen.iter().all(|&n| n == 1), "{:?}", seen);
    }
}
