//! History files: known answers of shogi-server's TC_floodgate.rb
//! (TestFloodgateHistory#test_update) and text written by Ruby 3.1's
//! `YAML.dump` of shogi-server's records.

use csa_league::history::{History, Record, history_file_name, is_floodgate_game_name};

fn rec(id: &str, b: &str, w: &str, win: Option<&str>, lose: Option<&str>) -> Record {
    Record {
        game_id: id.into(),
        black: b.into(),
        white: w.into(),
        winner: win.map(Into::into),
        loser: lose.map(Into::into),
    }
}

/// `ruby -e 'print YAML.dump(records)'` of the three records of
/// test_update and five more with ids that need quoting.
const RUBY_DUMP: &str = include_str!("data/ruby_history_dump.yaml");

#[test]
fn update_and_questions() {
    let mut h = History::new();
    h.push(rec(
        "wdoor+floodgate-900-0-hoge-foo-1",
        "hoge",
        "foo",
        Some("foo"),
        Some("hoge"),
    ));
    h.push(rec(
        "wdoor+floodgate-900-0-hoge-foo-2",
        "hoge",
        "foo",
        Some("hoge"),
        Some("foo"),
    ));
    h.push(rec(
        "wdoor+floodgate-900-0-hoge-foo-3",
        "hoge",
        "foo",
        None,
        None,
    ));
    let h = History::parse(&h.to_yaml()).unwrap();
    assert_eq!(h.len(), 3);
    let ids: Vec<&str> = h.records().map(|r| r.game_id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "wdoor+floodgate-900-0-hoge-foo-1",
            "wdoor+floodgate-900-0-hoge-foo-2",
            "wdoor+floodgate-900-0-hoge-foo-3"
        ]
    );
    assert!(h.last_win("hoge"));
    assert!(!h.last_win("foo"));
    assert!(!h.last_lose("hoge"));
    assert!(h.last_lose("foo"));
    assert_eq!(h.last_opponent("hoge"), Some("foo"));
    assert_eq!(h.last_opponent("foo"), Some("hoge"));
    let g = |v: Vec<&Record>| v.iter().map(|r| r.game_id.clone()).collect::<Vec<_>>();
    assert_eq!(g(h.win_games("hoge")), ["wdoor+floodgate-900-0-hoge-foo-2"]);
    assert_eq!(g(h.win_games("foo")), ["wdoor+floodgate-900-0-hoge-foo-1"]);
    assert_eq!(
        g(h.loss_games("hoge")),
        ["wdoor+floodgate-900-0-hoge-foo-1"]
    );
    assert_eq!(g(h.loss_games("foo")), ["wdoor+floodgate-900-0-hoge-foo-2"]);
}

#[test]
fn reads_and_writes_rubys_text_byte_for_byte() {
    let h = History::parse(RUBY_DUMP).unwrap();
    assert_eq!(h.len(), 8);
    let r: Vec<&Record> = h.records().collect();
    assert_eq!(r[2].winner, None);
    assert_eq!(r[3].white, "123");
    assert_eq!(r[3].winner.as_deref(), Some("true"));
    assert_eq!(r[4].loser.as_deref(), Some("#c"));
    assert_eq!(r[6].black, "~");
    assert_eq!(r[7].white, "tab\there");
    assert_eq!(r[7].winner.as_deref(), Some(""));
    assert_eq!(h.to_yaml(), RUBY_DUMP);
    // Ruby's YAML.dump([]).
    assert_eq!(History::new().to_yaml(), "--- []\n");
    assert!(History::parse("--- []\n").unwrap().is_empty());
    assert!(History::parse("").unwrap().is_empty());
}

#[test]
fn keeps_the_last_100() {
    let mut h = History::new();
    for i in 0..105 {
        h.push(rec(&format!("g{i}"), "a", "b", Some("a"), Some("b")));
    }
    assert_eq!(h.len(), 100);
    assert_eq!(h.records().next().unwrap().game_id, "g5");
}

#[test]
fn invalid_files_are_typed_errors() {
    assert!(History::parse("{a: 1}").is_err());
    assert!(History::parse("- 1\n").is_err());
    assert!(History::parse("- :game_id: x\n").is_err());
    assert!(History::parse("- [unclosed\n").is_err());
}

#[test]
fn file_names_as_shogi_server() {
    assert_eq!(
        history_file_name("floodgate-900-0").as_deref(),
        Some("floodgate_history_900_0.yaml")
    );
    assert_eq!(
        history_file_name("floodgate-300-10F").as_deref(),
        Some("floodgate_history_300_10F.yaml")
    );
    assert_eq!(history_file_name("other-900-0"), None);
    // TC_floodgate.rb test_game_name.
    assert!(is_floodgate_game_name("floodgate-900-0"));
    assert!(is_floodgate_game_name("floodgate-0-10"));
    assert!(!is_floodgate_game_name("floodgat-900-0"));
}
