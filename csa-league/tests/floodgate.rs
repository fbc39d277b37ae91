//! The League over several days with a fake clock: shogi-server's charge
//! semantics (the schedule read when the next time is computed — first,
//! then right after each pairing), LeastDiff pairs, the repeat penalty in
//! the next round, and the history file written as Ruby writes it.

mod common;
use common::at;
use csa_league::history::History;
use csa_league::players::{PlayerEntry, Players};
use csa_league::{Floodgate, FloodgateDir};
use csa_protocol::session::{ConnId, League, LeagueResult, WaitingPlayer};
use csa_protocol::types::Side;

const JST: i32 = 9 * 3600;

fn players() -> Players {
    let e = |id: &str, rate| PlayerEntry {
        player_id: id.into(),
        name: id.into(),
        rating_group: 0,
        rate,
        last_modified: None,
        win: 20.0,
        loss: 20.0,
    };
    Players {
        entries: vec![
            e("alpha", 1000),
            e("bravo", 1100),
            e("charlie", 1200),
            e("delta", 1300),
        ],
    }
}

fn waiting<'a>(game: &'a str) -> Vec<WaitingPlayer<'a>> {
    ["alpha", "bravo", "charlie", "delta"]
        .iter()
        .enumerate()
        .map(|(i, n)| WaitingPlayer {
            conn: ConnId(i as u64),
            name: n,
            player_id: n,
            gamename: game,
        })
        .collect()
}

fn names(r: &csa_protocol::session::LeagueRound) -> Vec<[u64; 2]> {
    r.games
        .iter()
        .map(|g| {
            let mut v = [g.black.0, g.white.0];
            v.sort();
            v
        })
        .collect()
}

#[test]
fn several_days_with_edits() {
    let game = "floodgate-600-10";
    let mut fg = Floodgate::new([game], 1).unwrap();
    fg.set_players(players());
    assert!(fg.schedules(game));
    assert!(!fg.schedules("floodgate-900-0"));
    // Mon 2024-05-06 09:00 JST; schedule Mon 10:00 and Wed 22:30.
    fg.set_schedule(game, Some("Mon 10:00\nWed 22:30\n"))
        .unwrap();
    let t0 = at(2024, 5, 6, 9, 0, 0, JST) as u64;
    let mon10 = at(2024, 5, 6, 10, 0, 0, JST) as u64;
    assert_eq!(fg.next_pairing(t0, JST), Some(mon10));
    // Nothing before the minute.
    assert_eq!(fg.next_pairing(mon10 - 1, JST), Some(mon10));
    // An edit before the pairing does not move the charged time.
    fg.set_schedule(game, Some("Tue 08:00\n")).unwrap();
    assert_eq!(fg.next_pairing(mon10 - 1, JST), Some(mon10));
    let w = waiting(game);
    let r = fg.pair(mon10, JST, &w);
    assert_eq!(names(&r), [[0, 1], [2, 3]]);
    // ... but the next charge reads it: Tue 08:00.
    let tue8 = at(2024, 5, 7, 8, 0, 0, JST) as u64;
    assert_eq!(fg.next_pairing(mon10 + 5, JST), Some(tue8));
    assert!(
        r.log
            .iter()
            .any(|l| l.ends_with("at 2024-05-07 08:00:00 +09:00")),
        "{:?}",
        r.log
    );
    assert!(
        r.log
            .iter()
            .any(|l| l.contains("BLACK") && l.contains("score 100")),
        "{:?}",
        r.log
    );
    // Results: alpha beat bravo, charlie beat delta.
    for (id, b, wh, win) in [
        ("g1", "alpha", "bravo", Side::Black),
        ("g2", "delta", "charlie", Side::White),
    ] {
        fg.game_ended(&LeagueResult {
            game_id: id,
            gamename: game,
            black: b,
            white: wh,
            winner: Some(win),
        });
    }
    // Tue 08:00: the repeat penalty gives (alpha, charlie) (bravo, delta).
    fg.set_schedule(game, Some("# weekends only\nSat 13:00\nSun 13:00\n"))
        .unwrap();
    let r = fg.pair(tue8, JST, &w);
    assert_eq!(names(&r), [[0, 2], [1, 3]]);
    let sat = at(2024, 5, 11, 13, 0, 0, JST) as u64;
    assert_eq!(fg.next_pairing(tue8 + 60, JST), Some(sat));
    // Pairing before the time pairs nothing and keeps the time.
    let r = fg.pair(sat - 60, JST, &w);
    assert!(r.games.is_empty());
    assert_eq!(fg.next_pairing(sat - 30, JST), Some(sat));
    let r = fg.pair(sat, JST, &w);
    assert_eq!(r.games.len(), 2);
    let sun = at(2024, 5, 12, 13, 0, 0, JST) as u64;
    assert_eq!(fg.next_pairing(sat + 1, JST), Some(sun));
    // Options set in the file reach the games after the next charge.
    fg.set_schedule(game, Some("set max_moves 300\nSun 13:00\n"))
        .unwrap();
    let r = fg.pair(sun, JST, &w);
    assert_eq!(r.games[0].max_moves, Some(256));
    let r = fg.pair(sun + 7 * 86_400, JST, &w);
    assert_eq!(r.games[0].max_moves, Some(300));
}

#[test]
fn builtin_and_unsupported_games() {
    let fg = Floodgate::new(["floodgate-900-0", "floodgate-600-10"], 0).unwrap();
    let t = at(2009, 12, 25, 22, 20, 0, JST) as u64;
    assert_eq!(
        fg.next_pairing(t, JST),
        Some(at(2009, 12, 25, 22, 30, 0, JST) as u64)
    );
    assert!(Floodgate::new(["floodgat-900-0"], 0).is_err());
    assert!(Floodgate::new(["floodgate-900-0", "floodgate-900-0"], 0).is_err());
}

#[test]
fn directory_layer_reads_and_writes_files() {
    let dir = std::env::temp_dir().join(format!("csa-league-fg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = "floodgate-300-10F";
    std::fs::write(dir.join(format!("{game}.conf")), "Mon 10:00\nbogus line\n").unwrap();
    let mut fg = FloodgateDir::open(&dir, [game], 1).unwrap();
    fg.set_players_source(Box::new(|| Some(players())));
    let mon10 = at(2024, 5, 6, 10, 0, 0, JST) as u64;
    assert_eq!(fg.next_pairing(mon10 - 100, JST), Some(mon10));
    let w = waiting(game);
    let r = fg.pair(mon10, JST, &w);
    assert!(
        r.log
            .iter()
            .any(|l| l.contains("line 2") && l.contains("bogus line")),
        "{:?}",
        r.log
    );
    assert_eq!(names(&r), [[0, 1], [2, 3]]);
    fg.game_ended(&LeagueResult {
        game_id: "g1",
        gamename: game,
        black: "alpha",
        white: "bravo",
        winner: Some(Side::Black),
    });
    fg.game_ended(&LeagueResult {
        game_id: "g2",
        gamename: game,
        black: "charlie",
        white: "delta",
        winner: None,
    });
    let text = std::fs::read_to_string(dir.join("floodgate_history_300_10F.yaml")).unwrap();
    assert_eq!(
        text,
        "---\n- :game_id: g1\n  :black: alpha\n  :white: bravo\n  :winner: alpha\n  :loser: bravo\n- :game_id: g2\n  :black: charlie\n  :white: delta\n  :winner:\n  :loser:\n"
    );
    assert_eq!(
        History::parse(&text).unwrap().last_opponent("alpha"),
        Some("bravo")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stop_file_skips_the_pairing_but_moves_the_time() {
    let dir = std::env::temp_dir().join(format!("csa-league-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = "floodgate-900-0";
    std::fs::write(dir.join("STOP"), "").unwrap();
    let mut fg = FloodgateDir::open(&dir, [game], 1).unwrap();
    let t = at(2009, 12, 25, 22, 20, 0, JST) as u64;
    let first = fg.next_pairing(t, JST).unwrap();
    assert_eq!(first, at(2009, 12, 25, 22, 30, 0, JST) as u64);
    let w = waiting(game);
    let r = fg.pair(first, JST, &w);
    assert!(r.games.is_empty());
    assert_eq!(
        fg.next_pairing(first, JST),
        Some(at(2009, 12, 25, 23, 0, 0, JST) as u64)
    );
    std::fs::remove_file(dir.join("STOP")).unwrap();
    let r = fg.pair(at(2009, 12, 25, 23, 0, 0, JST) as u64, JST, &w);
    assert_eq!(r.games.len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
