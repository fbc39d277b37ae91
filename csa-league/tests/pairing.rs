//! Pairing: known answers of shogi-server's test/TC_pairing.rb and
//! TC_floodgate.rb, values confirmed by running its pairing.rb under Ruby
//! 3.1, and small cases computed by hand from pairing.rb's rules.

use csa_league::history::{History, Record};
use csa_league::pairing::{
    self, Candidate, Factory, LeftOut, Logic, Outcome, score, total_possibilities,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn c(id: &str, rate: i64) -> Candidate {
    Candidate {
        name: id.split('+').next().unwrap().into(),
        player_id: id.into(),
        rate,
    }
}

fn rec(b: &str, w: &str, win: &str, lose: &str) -> Record {
    Record {
        game_id: format!("{b}-{w}"),
        black: b.into(),
        white: w.into(),
        winner: Some(win.into()),
        loser: Some(lose.into()),
    }
}

fn run(players: &[Candidate], logics: &[Logic], h: Option<&History>, seed: u64) -> Outcome {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    pairing::pair(players, logics, h, players, &mut rng)
}

/// The pairs as sets of names, in start order.
fn pairs(players: &[Candidate], o: &Outcome) -> Vec<[String; 2]> {
    o.pairs
        .iter()
        .map(|p| {
            let mut v = [players[p.black].name.clone(), players[p.white].name.clone()];
            v.sort();
            v
        })
        .collect()
}

fn p2(a: &str, b: &str) -> [String; 2] {
    let mut v = [a.to_string(), b.to_string()];
    v.sort();
    v
}

const NONE: Option<&History> = None;

#[test]
fn least_diff_scores() {
    let (a, b, g, h) = (c("a", 500), c("b", 800), c("g", 2500), c("h", 3000));
    // test_match_two_players, test_calculate_diff_with_penalty2.
    assert_eq!(score(&[a.clone(), b.clone()], NONE, &[]), 300);
    assert_eq!(score(&[b.clone(), a.clone()], NONE, &[]), 300);
    assert_eq!(
        score(&[a.clone(), b.clone(), g.clone(), h.clone()], NONE, &[]),
        300 + 500
    );
    // test_match_three_players.
    assert_eq!(score(&[a.clone(), b.clone(), h.clone()], NONE, &[]), 300);
    assert_eq!(score(&[b.clone(), h.clone(), a.clone()], NONE, &[]), 2200);
    // test_calculate_diff_with_penalty / 2_1 / 2_2 / 2_3.
    let mut hist = History::new();
    hist.push(rec("b", "a", "a", "b"));
    assert_eq!(score(&[a.clone(), b.clone()], Some(&hist), &[]), 300 + 400);
    assert_eq!(
        score(
            &[a.clone(), b.clone(), g.clone(), h.clone()],
            Some(&hist),
            &[]
        ),
        300 + 400 + 500
    );
    let mut hist2 = History::new();
    hist2.push(rec("g", "h", "h", "g"));
    assert_eq!(
        score(
            &[a.clone(), b.clone(), g.clone(), h.clone()],
            Some(&hist2),
            &[]
        ),
        300 + 400 + 500
    );
    hist2.push(rec("b", "a", "a", "b"));
    assert_eq!(
        score(
            &[a.clone(), b.clone(), g.clone(), h.clone()],
            Some(&hist2),
            &[]
        ),
        300 + 400 + 500 + 400
    );
    // Kin: test_calculate_diff_with_kin_4_players / _7_players.
    assert_eq!(
        score(&[c("abcdefg1", 2100), c("abcdxyz", 2300)], NONE, &[]),
        200 + 400
    );
    assert_eq!(
        score(&[c("abcdefg1", 2100), c("abcdefg2", 2200)], NONE, &[]),
        100 + 800
    );
    // Two humans (Ruby: 900).
    assert_eq!(
        score(&[c("p_human", 1000), c("q_human@x", 1100)], NONE, &[]),
        900
    );
}

#[test]
fn unrated_estimates() {
    // Ruby 3.1 on pairing.rb: x unrated; a 500, b 800, c 1000.
    let (a, b, cc, x) = (c("a", 500), c("b", 800), c("c", 1000), c("x", 0));
    let active = [a.clone(), b.clone(), cc.clone(), x.clone()];
    let mut h = History::new();
    assert_eq!(score(&[x.clone(), cc.clone()], Some(&h), &active), 1150); // 2150 without games
    h.push(rec("x", "a", "x", "a"));
    assert_eq!(score(&[x.clone(), cc.clone()], Some(&h), &active), 300); // a + 200
    assert_eq!(score(&[x.clone(), a.clone()], Some(&h), &active), 4600); // repeat with an unrated player
    h.push(rec("x", "b", "b", "x"));
    assert_eq!(score(&[x.clone(), cc.clone()], Some(&h), &active), 400); // b - 200
    // An opponent not active: 2150.
    assert_eq!(score(&[x.clone(), cc.clone()], Some(&h), &[]), 1150);
    // test_calculate_diff_with_unrated_player: 4000 + 400 + |a - estimate|.
    let u = c("unrated", 0);
    let mut h = History::new();
    h.push(rec("a", "unrated", "unrated", "a"));
    let active = [a.clone(), u.clone()];
    assert_eq!(score(&[u.clone(), a.clone()], Some(&h), &active), 4600);
    assert_eq!(score(&[a.clone(), u.clone()], Some(&h), &active), 4600);
}

#[test]
fn total_possibilities_as_ruby() {
    for (n, t) in [
        (2, 1),
        (3, 1),
        (4, 3),
        (7, 15),
        (8, 105),
        (9, 105),
        (10, 945),
        (12, 10395),
        (20, 654_729_075),
    ] {
        assert_eq!(total_possibilities(n), t, "{n}");
    }
    assert_eq!(pairing::trials(8), 35);
    assert_eq!(pairing::trials(10), 300);
    assert_eq!(pairing::trials(2000), 300);
}

const LD: [Logic; 2] = [Logic::LeastDiff, Logic::StartGameWithoutHumans];

#[test]
fn least_diff_three_and_seven_players() {
    let ps = [c("h", 3000), c("a", 500), c("b", 800)];
    let o = run(&ps, &LD, NONE, 1);
    assert_eq!(pairs(&ps, &o), [p2("a", "b")]);
    assert_eq!(o.left_out, [(0, LeftOut::NoOpponent)]);
    assert_eq!(o.least_score, Some(300));
    // test_match_seven_players: (a,b) (c,d) (e,f), g alone: 950.
    let ps = [
        c("g", 2500),
        c("b", 800),
        c("d", 1500),
        c("a", 500),
        c("f", 2150),
        c("c", 1000),
        c("e", 2000),
    ];
    let o = run(&ps, &LD, NONE, 1);
    assert_eq!(pairs(&ps, &o), [p2("a", "b"), p2("c", "d"), p2("e", "f")]);
    assert_eq!(o.least_score, Some(950));
    assert_eq!(o.left_out, [(0, LeftOut::NoOpponent)]);
}

#[test]
fn least_diff_by_hand_and_the_repeat_penalty() {
    // Rates 1000/1100/1200/1300, ids differing in their first 4 characters:
    // (al,br)(ch,de) = 200, (al,ch)(br,de) = 400, (al,de)(br,ch) = 400.
    let ps = [
        c("alpha", 1000),
        c("bravo", 1100),
        c("charlie", 1200),
        c("delta", 1300),
    ];
    let o = run(&ps, &LD, Some(&History::new()), 7);
    assert_eq!(
        pairs(&ps, &o),
        [p2("alpha", "bravo"), p2("charlie", "delta")]
    );
    assert_eq!(o.least_score, Some(200));
    // Second round after those games: 200 + 2 × 400 = 1000 for the
    // repeat; the first minimum in permutation order is (al,ch)(br,de).
    let mut h = History::new();
    h.push(rec("alpha", "bravo", "alpha", "bravo"));
    h.push(rec("delta", "charlie", "charlie", "delta"));
    let o = run(&ps, &LD, Some(&h), 7);
    assert_eq!(
        pairs(&ps, &o),
        [p2("alpha", "charlie"), p2("bravo", "delta")]
    );
    assert_eq!(o.least_score, Some(400));
    assert_eq!(o.pairs.iter().map(|p| p.score).sum::<i64>(), 400);
}

fn humans(names: &[&str]) -> Vec<Candidate> {
    let base = [
        ("a", 0),
        ("b", 1500),
        ("c", 1000),
        ("d", 2000),
        ("e", 3000),
        ("f", 4000),
        ("g", 5000),
        ("h", 6000),
    ];
    base.iter()
        .map(|&(n, r)| {
            let name = if names.contains(&n) {
                format!("{n}_human")
            } else {
                n.to_string()
            };
            Candidate {
                name: name.clone(),
                player_id: name,
                rate: r,
            }
        })
        .collect()
}

fn start(ps: &[Candidate]) -> (Vec<[String; 2]>, Vec<String>) {
    let o = run(ps, &[Logic::StartGameWithoutHumans], NONE, 3);
    (
        pairs(ps, &o),
        o.left_out
            .iter()
            .map(|&(i, _)| ps[i].name.clone())
            .collect(),
    )
}

#[test]
fn start_game_without_humans() {
    let h = |s: &str| format!("{s}_human");
    // Counts (TestStartGameWithoutHumans).
    assert_eq!(start(&humans(&[])[..1]).0.len(), 0);
    assert_eq!(start(&humans(&["a", "b"])[..2]).0.len(), 1);
    assert_eq!(start(&humans(&[])[..3]).0.len(), 1);
    assert_eq!(start(&humans(&[])[..4]).0.len(), 2);
    // Three players: who is left.
    assert_eq!(start(&humans(&["a"])[..3]).1, ["c"]);
    assert_eq!(start(&humans(&["b"])[..3]).1, ["c"]);
    assert_eq!(start(&humans(&["c"])[..3]).1, [h("c")]);
    assert_eq!(start(&humans(&["a", "b"])[..3]).1, [h("b")]);
    assert_eq!(start(&humans(&["b", "c"])[..3]).1, [h("c")]);
    // Four players.
    assert_eq!(
        start(&humans(&["a", "b"])[..4]).0,
        [p2(&h("a"), "c"), p2(&h("b"), "d")]
    );
    assert_eq!(
        start(&humans(&["b", "c"])[..4]).0,
        [p2("a", &h("b")), p2(&h("c"), "d")]
    );
    assert_eq!(
        start(&humans(&["a", "b", "c"])[..4]).0,
        [p2(&h("a"), "d"), p2(&h("b"), &h("c"))]
    );
    assert_eq!(
        start(&humans(&["b", "c", "d"])[..4]).0,
        [p2("a", &h("c")), p2(&h("b"), &h("d"))]
    );
    assert_eq!(
        start(&humans(&["a", "b", "c", "d"])[..4]).0,
        [p2(&h("a"), &h("b")), p2(&h("c"), &h("d"))]
    );
    // Eight players, e..h human.
    assert_eq!(
        start(&humans(&["e", "f", "g", "h"])).0,
        [
            p2(&h("e"), "c"),
            p2("d", &h("g")),
            p2("a", &h("f")),
            p2("b", &h("h"))
        ]
    );
}

#[test]
fn exclusions() {
    // TestExcludeSacrifice (ExcludeSacrificeGps500).
    let gps = "gps500+e293220e3f8a3e59f79f6b0efffaa931";
    let ex = [Logic::ExcludeSacrifice(gps.into())];
    let (a, b, cc) = (c("a", 0), c(gps, 1500), c("c", 1000));
    let left = |ps: &[Candidate]| run(ps, &ex, NONE, 0).left_out;
    assert_eq!(left(std::slice::from_ref(&a)), []);
    assert_eq!(left(std::slice::from_ref(&b)), [(0, LeftOut::Sacrifice)]);
    assert_eq!(left(&[a.clone(), b.clone()]), []);
    assert_eq!(
        left(&[a.clone(), b.clone(), cc.clone()]),
        [(1, LeftOut::Sacrifice)]
    );
    // TestExcludeUnratedPlayers.
    let ps = [c("a", 0), c("b", 1500), c("c", 1000), c("d", 2000)];
    let o = run(&ps, &[Logic::ExcludeUnratedPlayers], NONE, 0);
    assert_eq!(o.left_out, [(0, LeftOut::Unrated)]);
    // MakeEven: one of three out, the rest distinct.
    let o = run(&ps[..3], &[Logic::MakeEven], NONE, 10);
    assert_eq!(o.left_out.len(), 1);
    assert_eq!(o.left_out[0].1, LeftOut::MadeEven);
    // floodgate_zyunisen excludes the unrated first; the others pair them.
    let o = run(&ps, &Factory::FloodgateZyunisen.logics(gps), NONE, 5);
    assert!(o.left_out.contains(&(0, LeftOut::Unrated)));
    assert_eq!(o.pairs.len(), 1);
    let o = run(&ps, &Factory::DefaultFactory.logics(gps), NONE, 5);
    assert_eq!(o.pairs.len(), 2);
}

#[test]
fn swiss_orders_winners_first() {
    // TestSwissPairing: a 0, b 1000, c 1500, d 2000; noise 800 for
    // winners, 200 for the rest, descending. The cases whose order does
    // not depend on the draw: none won → d c b a; a won → a d c b; a and
    // d won → d a c b. Checked through the pairs StartGame makes.
    let ps = [c("a", 0), c("b", 1000), c("c", 1500), c("d", 2000)];
    let logics = [Logic::Swiss, Logic::StartGameWithoutHumans];
    for seed in 0..20 {
        let o = run(&ps, &logics, Some(&History::new()), seed);
        assert_eq!(pairs(&ps, &o), [p2("c", "d"), p2("a", "b")]);
        let mut h = History::new();
        h.push(rec("a", "x", "a", "x"));
        let o = run(&ps, &logics, Some(&h), seed);
        assert_eq!(pairs(&ps, &o), [p2("a", "d"), p2("b", "c")]);
        h.push(rec("d", "y", "d", "y"));
        let o = run(&ps, &logics, Some(&h), seed);
        assert_eq!(pairs(&ps, &o), [p2("a", "d"), p2("b", "c")]);
    }
}

#[test]
fn same_seed_same_pairing() {
    let ps: Vec<Candidate> = (0..40)
        .map(|i| c(&format!("p{i:03}x"), 1000 + (i * 37 % 500)))
        .collect();
    let l = Factory::DefaultFactory.logics("none");
    let a = run(&ps, &l, NONE, 42);
    let b = run(&ps, &l, NONE, 42);
    assert_eq!(a, b);
    assert_eq!(a.pairs.len(), 20);
}
