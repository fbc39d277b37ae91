//! The last differences from shogi-server found by running the same
//! sessions against both (issue 27, item 7) and `%%RATING` (item 4): each
//! expected reply is what shogi-server's code gives (snapshot 85e1237;
//! the file and method are named in each test), worked out by hand from
//! it, never our own output.

use std::time::Duration;

use csa_protocol::session::{ConnId, Rating, ServerConfig};
use csa_protocol::types::UserName;

mod raw;
use raw::Raw;

fn login(r: &mut Raw, id: u64, name: &str) {
    r.line(id, &format!("LOGIN {name} pw x1"));
    r.take(id);
}

fn value<'a>(lines: &'a [String], key: &str) -> Option<&'a str> {
    lines.iter().find_map(|l| l.strip_prefix(key))
}

/// `##[SHOW] Remaining_Time+:` and `-:` of game `id` as `(black, white)`,
/// and its `Last_Move`.
fn show(r: &mut Raw, id: &str) -> (String, String, Option<String>) {
    let got = r.ask(3, &format!("%%SHOW {id}"));
    (
        value(&got, "##[SHOW] Remaining_Time+:").unwrap().into(),
        value(&got, "##[SHOW] Remaining_Time-:").unwrap().into(),
        value(&got, "##[SHOW] Last_Move:").map(Into::into),
    )
}

#[test]
fn show_of_a_fischer_game_gives_the_time_on_the_clock() {
    // shogi_server/time_clock.rb, TimeClock#process_time: a move adds the
    // increment and takes the time used (`mytime += fischer; mytime -=
    // t`); Game#start sets both to Total_Time; Game#show prints `mytime`
    // and `Last_Move:#{@last_move}` ("" before the first move).
    let mut r = Raw::new(ServerConfig::default());
    login(&mut r, 1, "pa");
    login(&mut r, 2, "pb");
    login(&mut r, 3, "pc");
    let id = r.agree("fs-300-10F");
    assert_eq!(
        show(&mut r, &id),
        ("300".into(), "300".into(), Some(String::new()))
    );
    r.at(Duration::from_secs(3));
    r.line(1, "+7776FU");
    assert_eq!(r.take(1), ["+7776FU,T3"]);
    // Black: 300 + 10 - 3; White has not moved.
    assert_eq!(
        show(&mut r, &id),
        ("307".into(), "300".into(), Some("+7776FU,T3".into()))
    );
    r.at(Duration::from_secs(5));
    r.line(2, "-3334FU");
    assert_eq!(
        show(&mut r, &id),
        ("307".into(), "308".into(), Some("-3334FU,T2".into()))
    );
}

#[test]
fn game_without_a_turn_identifier_as_command_factory_reads_it() {
    // shogi_server/command.rb, Command.factory: `%%GAME\s*$` cancels;
    // `%%(GAME|CHALLENGE)\s+(\S+)\s+([\+\-\*])\s*$` asks for a game;
    // otherwise `%%(GAME|CHALLENGE)\s+(\S+)` is
    // `ErrorCommand("A turn identifier is required")`, which answers
    // `##[ERROR] <msg>: <line>`.
    let mut r = Raw::new(ServerConfig::default());
    login(&mut r, 1, "pa");
    for line in [
        "%%GAME good-1500-0 x",
        "%%GAME good-1500-0 + extra",
        "%%GAME good-1500-0 +x",
        "%%GAME good-1500-0",
        "%%GAME  good-1500-0   x y",
        "%%CHALLENGE good-1500-0 x",
        "%%CHALLENGE good-1500-0 * more",
    ] {
        assert_eq!(
            r.ask(1, line),
            [format!("##[ERROR] A turn identifier is required: {line}")],
            "{line}"
        );
    }
    // Not that rule: no white space after the command word (unknown), and
    // the name and side with trailing white space (a wait).
    assert_eq!(
        r.ask(1, "%%GAMEgood-1500-0 +"),
        ["##[ERROR] unknown command: %%GAMEgood-1500-0 +"]
    );
    assert!(r.ask(1, "%%GAME good-1500-0 +  ").is_empty());
    assert_eq!(
        r.ask(1, "%%WHO"),
        ["##[WHO] pa x1 game_waiting good-1500-0 +", "##[WHO] +OK"]
    );
}

#[test]
fn a_move_at_the_allowance_is_time_up() {
    // shogi_server/time_clock.rb, ChessClock#timeout?: time up when
    // `mytime - t + byoyomi + fischer <= 0`, t the whole seconds used:
    // with 10 s and byoyomi 5, a move after exactly 15 s loses.
    let mut r = Raw::new(ServerConfig::default());
    login(&mut r, 1, "pa");
    login(&mut r, 2, "pb");
    r.agree("tu-10-5");
    assert_eq!(r.server.poll_timeout(), Some(Duration::from_secs(15)));
    r.now = Duration::from_secs(15);
    r.line(1, "+7776FU");
    // GameResultTimeoutWin#process.
    assert_eq!(r.take(1), ["#TIME_UP", "#LOSE"]);
    assert_eq!(r.take(2), ["#TIME_UP", "#WIN"]);
    // One moment earlier (14.999 s: t = 14) the move is played.
    login(&mut r, 3, "pc");
    login(&mut r, 4, "pd");
    r.line(3, "%%GAME tv-10-5 +");
    r.line(4, "%%GAME tv-10-5 -");
    r.line(3, "AGREE");
    r.line(4, "AGREE");
    r.take(3);
    r.take(4);
    r.now = Duration::from_millis(29_999);
    r.line(3, "+7776FU");
    assert_eq!(r.take(4), ["+7776FU,T14"]);
}

fn rating(name: &str, rate: i32, updated_unix_secs: u64) -> Rating {
    Rating {
        name: UserName::new(name.to_string()).unwrap(),
        rate,
        updated_unix_secs,
    }
}

#[test]
fn rating_lists_players_yaml_as_rating_command() {
    // shogi_server/command.rb, RatingCommand#call over
    // League#rated_players (league/persistent.rb, Persistent#get_players:
    // every player of every group of players.yaml, logged in or not),
    // sorted by rate, highest first: `"##[RATING] %s \t %4d @%s\n"` with
    // `modified_at.strftime("%Y-%m-%d")` in local time.
    let config = ServerConfig {
        // JST: 2026-11-30 20:00 UTC is 2026-12-01 local.
        utc_offset_secs: 9 * 3600,
        ..Default::default()
    };
    let mut r = Raw::new(config);
    login(&mut r, 1, "pa");
    // Before any ratings: `+OK` alone (the recorded shogi-server).
    assert_eq!(r.ask(1, "%%RATING"), ["##[RATING] +OK"]);
    r.server.set_ratings(vec![
        rating("bob", 980, 1_796_068_800),
        rating("alice", 1820, 1_796_068_800),
        rating("carol", -35, 1_796_180_400),
        rating("dave", 12_345, 1_796_068_800),
    ]);
    assert_eq!(
        r.ask(1, "%%RATING"),
        [
            "##[RATING] dave \t 12345 @2026-12-01",
            "##[RATING] alice \t 1820 @2026-12-01",
            "##[RATING] bob \t  980 @2026-12-01",
            "##[RATING] carol \t  -35 @2026-12-02",
            "##[RATING] +OK",
        ]
    );
    // Reloaded: the new table replaces the old.
    r.server.set_ratings(vec![rating("erin", 7, 1_796_068_800)]);
    assert_eq!(
        r.ask(1, "%%RATING x"),
        ["##[RATING] erin \t    7 @2026-12-01", "##[RATING] +OK"]
    );
    r.server.handle_close(ConnId(1), r.now);
}
