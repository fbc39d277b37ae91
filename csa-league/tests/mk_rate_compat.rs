//! csa-league against shogi-server's own tools on the same record tree.
//!
//! `tests/data/tree` is written by `tests/data/gen_tree.py`;
//! `tests/data/mk_game_results.txt` is `mk_game_results tests/data/tree`
//! (Ruby 3.1, the tree's absolute path replaced by `@TREE@`) and
//! `tests/data/mk_rate/<case>.yaml` is `mk_rate <options>` of it (Ruby 3.1,
//! ruby-gsl 2.7.1, `TZ=JST-9`, RGL stood in for by
//! `tests/data/rgl_stub.rb`). See the crate README.

use std::path::PathBuf;

use csa_league::players::{Players, Stamp, Zone};
use csa_league::rating::{RateOptions, mk_rate};
use csa_league::results::mk_game_results;

const JST: Zone = Zone::Fixed(9 * 3600);

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn base(text: &str) -> Stamp {
    Stamp::parse_time(text, JST).unwrap()
}

#[test]
fn results_lines_equal_mk_game_results() {
    let tree = data().join("tree");
    let scan = mk_game_results(&[&tree]);
    assert!(scan.errors.is_empty(), "{:?}", scan.errors);
    let ours: Vec<String> = scan.results.iter().map(|r| r.line()).collect();
    let ruby = std::fs::read_to_string(data().join("mk_game_results.txt")).unwrap();
    let ruby: Vec<String> = ruby
        .lines()
        .map(|l| l.replace("@TREE@", &tree.display().to_string()))
        .collect();
    assert_eq!(ours.len(), ruby.len());
    for (o, r) in ours.iter().zip(&ruby) {
        assert_eq!(o, r);
    }
}

/// Every case mk_rate was run with: fixture name, options.
fn cases() -> Vec<(&'static str, RateOptions, usize)> {
    let d = || RateOptions::new(base("2026-06-01"), JST);
    let with = |f: &dyn Fn(&mut RateOptions)| {
        let mut o = d();
        f(&mut o);
        o
    };
    vec![
        ("default", d(), 1),
        ("duplicates", d(), 2),
        ("half-life-30", with(&|o| o.half_life = 30), 1),
        ("half-life-ignore-0", with(&|o| o.half_life_ignore = 0), 1),
        ("ignore-365", with(&|o| o.ignore = 365), 1),
        ("ignore-20", with(&|o| o.ignore = 20), 1),
        ("abnormal-0", with(&|o| o.abnormal_threshold = 0), 1),
        ("abnormal-45", with(&|o| o.abnormal_threshold = 45), 1),
        (
            "fixed-regex",
            with(&|o| o.fixed_rate = Some(("alpha".into(), 1500))),
            1,
        ),
        (
            "fixed-exact",
            with(&|o| o.fixed_rate = Some(("red+bda9643ac6601722a28f238714274da4".into(), 2000))),
            1,
        ),
        ("skip-draws", with(&|o| o.skip_draw_games = true), 1),
        (
            "base-2026-05-20",
            with(&|o| o.base_date = base("2026-05-20")),
            1,
        ),
        (
            "base-2026-05-10",
            with(&|o| o.base_date = base("2026-05-10")),
            1,
        ),
        (
            "all-changed",
            with(&|o| {
                o.base_date = base("2026-05-15 12:00:00");
                o.half_life = 90;
                o.half_life_ignore = 3;
                o.ignore = 400;
                o.abnormal_threshold = 20;
                o.skip_draw_games = true;
                o.fixed_rate = Some(("beta".into(), 1800));
            }),
            1,
        ),
    ]
}

#[test]
fn rates_agree_with_mk_rate() {
    let tree = data().join("tree");
    for (name, opts, times) in cases() {
        let dirs = vec![tree.clone(); times];
        let scan = mk_game_results(&dirs);
        let ours = mk_rate(&scan.results, &opts).unwrap();
        if times == 2 {
            // mk_rate warns once per repeated line.
            assert_eq!(ours.warnings.len(), scan.results.len() / 2, "{name}");
        }
        let text = std::fs::read_to_string(data().join(format!("mk_rate/{name}.yaml"))).unwrap();
        let ruby = Players::from_yaml(&text).unwrap();
        let ours = &ours.players.entries;
        assert_eq!(ours.len(), ruby.entries.len(), "{name}: player count");
        let mut worst = 0i64;
        for (o, r) in ours.iter().zip(&ruby.entries) {
            assert_eq!(o.player_id, r.player_id, "{name}: order");
            assert_eq!(o.name, r.name, "{name}");
            assert_eq!(o.rating_group, r.rating_group, "{name} {}", o.player_id);
            assert!(
                (o.rate - r.rate).abs() <= 1,
                "{name} {}: ours {} mk_rate {}",
                o.player_id,
                o.rate,
                r.rate
            );
            worst = worst.max((o.rate - r.rate).abs());
            assert!((o.win - r.win).abs() < 0.01, "{name} {} win", o.player_id);
            assert!(
                (o.loss - r.loss).abs() < 0.01,
                "{name} {} loss",
                o.player_id
            );
            assert_eq!(o.last_modified, r.last_modified, "{name} {}", o.player_id);
        }
        eprintln!(
            "{name}: {} players, largest rate difference {worst}",
            ours.len()
        );
    }
}

#[test]
fn players_yaml_round_trips_mk_rate_output_byte_for_byte() {
    for (name, ..) in cases() {
        let text = std::fs::read_to_string(data().join(format!("mk_rate/{name}.yaml"))).unwrap();
        let players = Players::from_yaml(&text).unwrap();
        assert_eq!(players.to_yaml(), text, "{name}");
    }
}

#[test]
fn a_malformed_record_is_reported_and_skipped() {
    // shogi-server's mk_game_results raises "Never reach!" on such a file and
    // stops; we name the file and line and go on with the others.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("malformed-tree");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("a.csa"),
        "N+x\nN-y\n'rating:x+1:y+2\n'summary:toryo:p win:q lose\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("sub/b.csa"),
        "N+x\nN-y\n'rating:x+1:y+2\n+7776FU\n'summary:toryo:y win:x lose\n'$END_TIME:2026/05/01 10:00:00\n",
    )
    .unwrap();
    let scan = mk_game_results(&[&dir]);
    assert_eq!(scan.results.len(), 1);
    assert_eq!(scan.results[0].black_mark, "lose");
    assert_eq!(scan.errors.len(), 1);
    let msg = scan.errors[0].to_string();
    assert!(
        msg.ends_with("a.csa:4: 'summary: names neither player as the N+ player"),
        "{msg}"
    );
}
