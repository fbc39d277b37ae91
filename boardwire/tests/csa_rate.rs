//! `boardwire csa rate` on csa-league's record tree against shogi-server's
//! `mk_game_results tree | mk_rate --base-date 2026-06-01` (the output
//! recorded in `csa-league/tests/data/mk_rate/`, Ruby run with
//! `TZ=JST-9`): every rate within 1 point, wins and losses within 0.01;
//! `--html` writes the standings page with one row per player shown.

use std::path::{Path, PathBuf};
use std::process::Command;

use csa_league::players::Players;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../csa-league/tests/data")
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(["csa", "rate"])
        .args(args)
        .env("TZ", "JST-9")
        .output()
        .unwrap()
}

fn compare(stdout: &[u8], fixture: &str) {
    let ours = Players::from_yaml(std::str::from_utf8(stdout).unwrap()).unwrap();
    let text = std::fs::read_to_string(data().join("mk_rate").join(fixture)).unwrap();
    let ruby = Players::from_yaml(&text).unwrap();
    assert_eq!(ours.entries.len(), ruby.entries.len());
    for (o, r) in ours.entries.iter().zip(&ruby.entries) {
        assert_eq!(
            (&o.player_id, o.rating_group, o.last_modified),
            (&r.player_id, r.rating_group, r.last_modified)
        );
        assert!(
            (o.rate - r.rate).abs() <= 1,
            "{}: {} vs {}",
            o.player_id,
            o.rate,
            r.rate
        );
        assert!((o.win - r.win).abs() < 0.01 && (o.loss - r.loss).abs() < 0.01);
    }
}

#[test]
fn rate_matches_mk_rate_and_writes_the_page() {
    let tree = data().join("tree");
    let html = Path::new(env!("CARGO_TARGET_TMPDIR")).join("csa-rate-standings.html");
    let _ = std::fs::remove_file(&html);
    let out = run(&[
        "--base-date",
        "2026-06-01",
        "--html",
        html.to_str().unwrap(),
        tree.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    compare(&out.stdout, "default.yaml");
    let page = std::fs::read_to_string(&html).unwrap();
    // mk_rate's default.yaml: 12 + 5 rated players, 3 not rated (all
    // within 30 days of the base date, so mk_html shows them).
    assert_eq!(page.matches("<tr class=\"player\">").count(), 20);
    assert_eq!(page.matches("<svg").count(), 2);
    assert!(page.contains("<caption>Group: Not-Yet-Rated Players</caption>"));
    assert!(!page.contains("<script"));
}

#[test]
fn every_option_changed_matches_mk_rate() {
    let tree = data().join("tree");
    let out = run(&[
        "--base-date",
        "2026-05-15 12:00:00",
        "--half-life",
        "90",
        "--half-life-ignore",
        "3",
        "--ignore",
        "400",
        "--abnormal-threshold",
        "20",
        "--skip-draw-games",
        "--fixed-rate-player",
        "beta",
        "--fixed-rate",
        "1800",
        tree.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    compare(&out.stdout, "all-changed.yaml");
}

#[test]
fn fixed_rate_needs_its_player_and_a_positive_rate() {
    // mk_rate prints its usage and exits 1; clap's usage error exits 2.
    assert_eq!(run(&["--fixed-rate", "1500", "x"]).status.code(), Some(2));
    assert_eq!(
        run(&["--fixed-rate-player", "a", "--fixed-rate", "0", "x"])
            .status
            .code(),
        Some(2)
    );
}
