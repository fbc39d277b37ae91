//! The server's replies against shogi-server's, line for line: every
//! expected line here was recorded from shogi-server (the Floodgate
//! server, run on loopback and sent the same lines), except where a test
//! says it checks one of our deliberate differences
//! (`csa-protocol/README.md`, *Differences from shogi-server*).

use csa_protocol::session::{ConnId, ServerConfig};

mod raw;
use raw::Raw;

impl Raw {
    /// Logs in x1 player `name` on `id`.
    fn x1(&mut self, id: u64, name: &str) {
        self.line(id, &format!("LOGIN {name} x x1"));
        assert_eq!(
            self.take(id),
            [format!("LOGIN:{name} OK"), "##[LOGIN] +OK x1".to_string()]
        );
    }

    /// Players `black` on 1 and `white` on 2 in game `game`, agreed.
    fn game(&mut self, game: &str) -> String {
        self.x1(1, "pa");
        self.x1(2, "pb");
        self.agree(game)
    }
}

fn none() -> Vec<String> {
    Vec::new()
}

#[test]
fn before_login_and_the_login_line() {
    let mut r = Raw::new(ServerConfig::default());
    // An empty line before login is a bad login.
    assert_eq!(r.ask(1, ""), ["LOGIN:incorrect"]);
    // shogi-server splits LOGIN at runs of white space.
    assert_eq!(
        r.ask(1, "LOGIN  pa  x  x1"),
        ["LOGIN:pa OK", "##[LOGIN] +OK x1"]
    );
    // A LOGIN after login is an unknown command; the password never shows.
    assert_eq!(
        r.ask(1, "LOGIN pa secret x1"),
        ["##[ERROR] unknown command: LOGIN pa..."]
    );
    assert_eq!(
        r.ask(1, "LOGIN   pa secret"),
        ["##[ERROR] unknown command: LOGIN pa..."]
    );
}

#[test]
fn connected_state_replies() {
    let mut r = Raw::new(ServerConfig::default());
    r.x1(1, "pa");
    assert_eq!(
        r.ask(1, "AGREE"),
        ["##[ERROR] you are in connected status. AGREE is valid in agree_waiting status"]
    );
    assert_eq!(
        r.ask(1, "REJECT"),
        ["##[ERROR] you are in connected status. REJECT is valid in agree_waiting status"]
    );
    // Moves and specials outside a game: no reply.
    for l in ["+7776FU", "%TORYO", "%KACHI", "%FOO"] {
        assert_eq!(r.ask(1, l), none(), "{l}");
    }
    // White space only, and 81Dojo's `%%%` commands: no reply.
    assert_eq!(r.ask(1, "   "), none());
    assert_eq!(r.ask(1, "%%%LOBBY"), none());
    assert_eq!(r.ask(1, "CHALLENGE"), ["CHALLENGE ACCEPTED"]);
    assert_eq!(r.ask(1, "%%SHOW nosuch"), ["##[SHOW] +OK"]);
    assert_eq!(r.ask(1, "%%SHOW"), ["##[ERROR] unknown command: %%SHOW"]);
    assert_eq!(r.ask(1, "%%MONITORON nosuch"), none());
    assert_eq!(r.ask(1, "%%MONITOR2ON nosuch"), none());
    // Prefix commands.
    assert_eq!(
        r.ask(1, "%%WHO x"),
        ["##[WHO] pa x1 connected", "##[WHO] +OK"]
    );
    assert_eq!(
        r.ask(1, "%%WHOAMI"),
        ["##[WHO] pa x1 connected", "##[WHO] +OK"]
    );
    assert_eq!(r.ask(1, "%%LISTX"), ["##[LIST] +OK"]);
}

#[test]
fn game_and_challenge_errors() {
    let mut r = Raw::new(ServerConfig::default());
    r.x1(1, "pa");
    assert_eq!(
        r.ask(1, "%%GAME bad"),
        ["##[ERROR] A turn identifier is required: %%GAME bad"]
    );
    for name in ["bad", "a_b"] {
        assert_eq!(
            r.ask(1, &format!("%%GAME {name} +")),
            [
                format!("##[ERROR] bad game name: {name}."),
                "##[ERROR] game name should consist of three parts like game-1500-60.".into()
            ]
        );
    }
    let long = format!("{}-1500-0", "a".repeat(33));
    assert_eq!(
        r.ask(1, &format!("%%GAME {long} +")),
        [
            format!("##[ERROR] bad game name: {long}."),
            "##[ERROR] invalid identifiers are found or too many characters are used.".into()
        ]
    );
    assert_eq!(
        r.ask(1, "%%CHALLENGE"),
        ["##[ERROR] unknown command: %%CHALLENGE"]
    );
    assert_eq!(
        r.ask(1, "%%CHALLENGE  g-1500-0  +"),
        ["##[ERROR] can't find rival for g-1500-0"]
    );
    // `x-1-2-3` is a good game name (the identifier is `x-1`): waiting.
    assert_eq!(r.ask(1, "%%GAME  x-1-2-3  + "), none());
    assert_eq!(
        r.ask(1, "%%WHO"),
        ["##[WHO] pa x1 game_waiting x-1-2-3 +", "##[WHO] +OK"]
    );
}

#[test]
fn setbuoy_errors() {
    let mut r = Raw::new(ServerConfig::default());
    r.x1(1, "pa");
    for (line, reply) in [
        (
            "%%SETBUOY buoy_x-1500-0 +7776FU 0",
            "##[ERROR] invalid count: 0",
        ),
        (
            "%%SETBUOY buoy_x-1500-0 +7776FU abc",
            "##[ERROR] invalid count: 0",
        ),
        (
            "%%SETBUOY buoy_x-1500-0",
            "##[ERROR] unknown command: %%SETBUOY buoy_x-1500-0",
        ),
        (
            "%%SETBUOY x-1500-0 +7776FU",
            "##[ERROR] wrong buoy game name: x-1500-0",
        ),
        (
            "%%SETBUOY buoy_x-1500-0 +7776FX",
            "##[ERROR] wrong moves: +7776FX",
        ),
    ] {
        assert_eq!(r.ask(1, line), [reply], "{line}");
    }
    assert_eq!(
        r.ask(1, "%%GETBUOYCOUNT buoy_x-1500-0"),
        ["##[GETBUOYCOUNT] -1", "##[GETBUOYCOUNT] +OK"]
    );
}

#[test]
fn agree_phase_and_game_status_errors() {
    let mut r = Raw::new(ServerConfig::default());
    r.x1(1, "fa");
    r.x1(2, "fb");
    r.line(1, "%%GAME fk-1500-0 +");
    r.line(2, "%%GAME fk-1500-0 -");
    r.take(1);
    r.take(2);
    assert_eq!(r.ask(1, "AGREE"), none());
    assert_eq!(
        r.ask(1, "%%WHO"),
        [
            "##[WHO] fa x1 start_waiting fk-1500-0 +",
            "##[WHO] fb x1 agree_waiting fk-1500-0 -",
            "##[WHO] +OK"
        ]
    );
    assert_eq!(
        r.ask(1, "AGREE"),
        ["##[ERROR] you are in start_waiting status. AGREE is valid in agree_waiting status"]
    );
    assert_eq!(
        r.ask(1, "REJECT"),
        ["##[ERROR] you are in start_waiting status. REJECT is valid in agree_waiting status"]
    );
    r.line(2, "AGREE");
    assert!(r.take(1)[0].starts_with("START:boardwire+fk-1500-0+fa+fb+"));
    assert_eq!(
        r.ask(1, "AGREE"),
        ["##[ERROR] you are in game status. AGREE is valid in agree_waiting status"]
    );
    for l in ["%%GAME", "%%GAME x-1500-0 +"] {
        assert_eq!(
            r.ask(1, l),
            ["##[ERROR] you are in game status. GAME is valid in connected or game_waiting status"],
            "{l}"
        );
    }
}

#[test]
fn moves_with_a_time_field_or_non_utf8_comments_are_played() {
    let mut r = Raw::new(ServerConfig::default());
    r.game("t1-1500-0");
    // A field after the comma that is no comment: the move is played.
    r.line(1, "+7776FU,T5");
    assert_eq!(r.take(1), ["+7776FU,T0"]);
    assert_eq!(r.take(2), ["+7776FU,T0"]);
    // EUC-JP ("日本語"): played, echoed without the comment.
    r.bytes(2, b"-3334FU,'\xc6\xfc\xcb\xdc\xb8\xec");
    assert_eq!(r.take(1), ["-3334FU,T0"]);
    assert_eq!(r.take(2), ["-3334FU,T0"]);
    // ISO-2022-JP, with its ESC bytes.
    r.bytes(1, b"+2726FU,'\x1b$BF|K\\8l\x1b(B");
    assert_eq!(r.take(1), ["+2726FU,T0"]);
    assert_eq!(r.take(2), ["+2726FU,T0"]);
    // Shift_JIS.
    r.bytes(2, b"-8384FU,'\x93\xfa\x96\x7b\x8c\xea");
    assert_eq!(r.take(1), ["-8384FU,T0"]);
    assert_eq!(r.take(2), ["-8384FU,T0"]);
    assert_eq!(r.server.bad_line_streak(ConnId(1)), 0);
    // `%FOO` in a game is an illegal move, as `%CHUDAN`.
    r.line(1, "%FOO");
    assert_eq!(r.take(1), ["#ILLEGAL_MOVE", "#LOSE"]);
    assert_eq!(r.take(2), ["#ILLEGAL_MOVE", "#WIN"]);
}

#[test]
fn fork_as_shogi_server_answers_it() {
    let mut r = Raw::new(ServerConfig::default());
    let id = r.game("fk-1500-0");
    for (p, m) in [(1, "+7776FU"), (2, "-3334FU"), (1, "+2726FU")] {
        r.line(p, m);
    }
    r.x1(3, "fc");
    // Default: all moves but the last, the name from the source game's.
    assert_eq!(
        r.ask(3, &format!("%%FORK {id}")),
        [
            "##[FORK]: new buoy game name: buoy_fk_2-1500-0",
            "##[FORK] +OK",
            "##[SETBUOY] +OK"
        ]
    );
    assert_eq!(
        r.ask(3, "%%GETBUOYCOUNT buoy_fk_2-1500-0"),
        ["##[GETBUOYCOUNT] 1", "##[GETBUOYCOUNT] +OK"]
    );
    assert_eq!(
        r.ask(3, &format!("%%FORK {id} buoy_fk3-1500-0 4")),
        ["##[ERROR] number of moves to fork is out of range: 3."]
    );
    assert_eq!(
        r.ask(3, &format!("%%FORK {id} buoy_fk3-1500-0 0")),
        ["##[ERROR] number of moves to fork is out of range: 3."]
    );
    assert_eq!(
        r.ask(3, &format!("%%FORK {id} notbuoy-1500-0")),
        ["##[ERROR] wrong buoy game name: notbuoy-1500-0"]
    );
    assert_eq!(
        r.ask(3, "%%FORK nosuch"),
        ["##[ERROR] wrong source game name: nosuch"]
    );
    // A name given: the %%SETBUOY reply alone. (An nth given is honoured:
    // shogi-server reads it as 0 and always answers out of range, a
    // deliberate difference.)
    assert_eq!(
        r.ask(3, &format!("%%FORK {id} buoy_fk3-1500-0 3")),
        ["##[SETBUOY] +OK"]
    );
    assert_eq!(
        r.ask(3, &format!("%%FORK {id} buoy_fk3-1500-0")),
        ["##[ERROR] duplicated buoy game name: buoy_fk3-1500-0"]
    );
}

#[test]
fn buoy_games_wait_for_their_setbuoy() {
    let mut r = Raw::new(ServerConfig::default());
    r.x1(3, "fc");
    r.x1(4, "fd");
    r.x1(5, "fe");
    r.line(4, "%%GAME buoy_wait1-1500-0 +");
    r.line(5, "%%GAME buoy_wait1-1500-0 -");
    assert_eq!(r.take(4), none());
    assert_eq!(
        r.ask(3, "%%WHO"),
        [
            "##[WHO] fc x1 connected",
            "##[WHO] fd x1 game_waiting buoy_wait1-1500-0 +",
            "##[WHO] fe x1 game_waiting buoy_wait1-1500-0 -",
            "##[WHO] +OK"
        ]
    );
    assert_eq!(
        r.ask(3, "%%SETBUOY buoy_wait1-1500-0 +7776FU"),
        ["##[SETBUOY] +OK"]
    );
    for p in [4, 5] {
        let s = r.take(p);
        assert_eq!(s.first().map(String::as_str), Some("BEGIN Game_Summary"));
        let at = s
            .iter()
            .position(|l| l == "+7776FU,T1")
            .expect("set-up move");
        assert_eq!(s[at - 1], "+");
        assert_eq!(s[at + 1], "END Position");
        assert_eq!(s.last().map(String::as_str), Some("END Game_Summary"));
    }
    // Used up (count 1): the next pair waits again.
    r.x1(6, "fg");
    r.x1(7, "fh");
    r.line(6, "%%GAME buoy_wait1-1500-0 +");
    r.line(7, "%%GAME buoy_wait1-1500-0 -");
    assert_eq!(r.take(6), none());
    assert_eq!(r.take(7), none());
}

#[test]
fn monitor2_starts_with_the_record_header_and_rating_line() {
    let mut r = Raw::new(ServerConfig::default());
    let id = r.game("m-1500-0");
    r.x1(3, "w");
    let got = r.ask(3, &format!("%%MONITOR2ON {id}"));
    let pre = format!("##[MONITOR2][{id}] ");
    let body: Vec<&str> = got.iter().map(|l| l.strip_prefix(&pre).unwrap()).collect();
    assert_eq!(
        &body[..5],
        [
            "V2",
            "N+pa",
            "N-pb",
            "'Max_Moves:256",
            "'Least_Time_Per_Move:0"
        ]
    );
    // shogi-server writes the rating ids (`name+<md5 of the password>`)
    // after the position; we write the names (no hash leaves the server).
    let plus = body.iter().position(|l| *l == "+").unwrap();
    assert_eq!(body[plus + 1], "'rating:pa:pb");
    assert_eq!(body.last(), Some(&"+OK"));
}

#[test]
fn duplicate_logins() {
    let mut r = Raw::new(ServerConfig::default());
    r.x1(2, "gb");
    r.x1(3, "gc");
    r.line(2, "%%GAME g5-1500-0 +");
    r.line(3, "%%GAME g5-1500-0 -");
    let id = r
        .take(2)
        .iter()
        .find_map(|l| l.strip_prefix("Game_ID:").map(str::to_string))
        .unwrap();
    r.take(3);
    // Another password, four words: both lines.
    assert_eq!(
        r.ask(5, "LOGIN gc y x1"),
        ["LOGIN:incorrect", "username gc is already connected"]
    );
    // The same password in plain mode, the game in its agree phase: the
    // new connection takes over, the game is rejected.
    assert_eq!(r.ask(4, "LOGIN gb x"), ["LOGIN:gb OK"]);
    assert_eq!(r.take(3), [format!("REJECT:{id} by gb")]);
    assert_eq!(r.closed.get(&2), Some(&true));
}

#[test]
fn a_refused_plain_login_gets_one_line() {
    let mut r = Raw::new(ServerConfig::default());
    r.game("p-1500-0");
    // In play, another password, three words: `LOGIN:incorrect` alone.
    assert_eq!(r.ask(4, "LOGIN pa other"), ["LOGIN:incorrect"]);
}

#[test]
fn chat_as_shogi_server_reads_it() {
    // Recorded from shogi-server: `%%CHAT\s+(.+)`, the text after the
    // spaces; nothing after `%%CHAT` (or one space) is an unknown command.
    let mut r = Raw::new(ServerConfig::default());
    r.x1(1, "pa");
    r.x1(2, "pb");
    for (line, reply) in [
        ("%%CHAT", "##[ERROR] unknown command: %%CHAT"),
        ("%%CHAT ", "##[ERROR] unknown command: %%CHAT "),
    ] {
        assert_eq!(r.ask(1, line), [reply], "{line:?}");
        assert_eq!(r.take(2), none(), "{line:?}");
    }
    for (line, relayed) in [
        ("%%CHAT  ", "##[CHAT][pa]  "),
        ("%%CHAT   ", "##[CHAT][pa]  "),
        ("%%CHAT  x", "##[CHAT][pa] x"),
        ("%%CHAT x  y ", "##[CHAT][pa] x  y "),
    ] {
        assert_eq!(r.ask(1, line), [relayed], "{line:?}");
        assert_eq!(r.take(2), [relayed], "{line:?}");
    }
}

#[test]
fn monitor2_sends_the_record_so_far_with_comments_and_deferred_lines() {
    // Recorded from shogi-server (its times were 1-3 s here, 0 in
    // simulated time): `%%MONITOR2ON` sends the record file so far, with
    // the `'*` comment lines and `'Deferred` notes; each move after it is
    // the move and its time alone (no comment); the end is the special.
    let mut r = Raw::new(ServerConfig::default());
    let id = r.game("mon-1500-0");
    r.line(1, "+7776FU,'* hello comment");
    r.x1(3, "pw");
    let pre = format!("##[MONITOR2][{id}] ");
    let strip = |got: Vec<String>| -> Vec<String> {
        got.iter()
            .map(|l| {
                l.strip_prefix(&pre)
                    .unwrap_or_else(|| panic!("{l}"))
                    .to_string()
            })
            .collect()
    };
    let got = strip(r.ask(3, &format!("%%MONITOR2ON {id}")));
    let plus = got.iter().position(|l| l == "+").unwrap();
    assert_eq!(
        got[plus + 1..],
        ["'rating:pa:pb", "+7776FU", "T0", "'** hello comment", "+OK"]
    );
    r.line(2, "-3334FU,'* second");
    assert_eq!(strip(r.take(3)), ["-3334FU", "T0", "+OK"]);
    // White out of turn: held, nothing to the monitor yet.
    r.line(2, "-8384FU");
    assert_eq!(r.take(3), none());
    r.line(1, "+2726FU");
    assert_eq!(
        strip(r.take(3)),
        ["+2726FU", "T0", "+OK", "-8384FU", "T0", "+OK"]
    );
    r.line(3, &format!("%%MONITOR2OFF {id}"));
    let got = strip(r.ask(3, &format!("%%MONITOR2ON {id}")));
    assert_eq!(
        got[plus + 1..],
        [
            "'rating:pa:pb",
            "+7776FU",
            "T0",
            "'** hello comment",
            "-3334FU",
            "T0",
            "'** second",
            "'Deferred -8384FU",
            "+2726FU",
            "T0",
            "-8384FU",
            "T0",
            "+OK"
        ]
    );
    r.line(1, "%TORYO");
    assert_eq!(strip(r.take(3)), ["%TORYO", "+OK"]);
}

/// Comments in EUC-JP, Shift_JIS and ISO-2022-JP (with its ESC bytes)
/// reach `%%MONITOR2ON`'s record byte for byte, not escaped (a
/// monitor sees what the player said;
/// `csa-protocol/README.md`, the comments row of *Deliberate differences
/// from shogi-server*: the bytes the player sent, where shogi-server sends
/// its record's EUC-JP).
#[test]
fn monitor2_sends_non_utf8_comments_as_sent() {
    let mut r = Raw::new(ServerConfig::default());
    let id = r.game("enc-1500-0");
    // "日本語" in each encoding.
    let euc: &[u8] = b"\xc6\xfc\xcb\xdc\xb8\xec";
    let sjis: &[u8] = b"\x93\xfa\x96\x7b\x8c\xea";
    let jis: &[u8] = b"\x1b$BF|K\\8l\x1b(B";
    r.bytes(1, &[b"+7776FU,'".as_slice(), euc].concat());
    r.bytes(2, &[b"-3334FU,'".as_slice(), sjis].concat());
    r.bytes(1, &[b"+2726FU,'".as_slice(), jis].concat());
    r.x1(3, "pw");
    r.line(3, &format!("%%MONITOR2ON {id}"));
    let pre = format!("##[MONITOR2][{id}] ");
    let got: Vec<Vec<u8>> = r
        .take_bytes(3)
        .into_iter()
        .map(|l| {
            l.strip_prefix(pre.as_bytes())
                .unwrap_or_else(|| panic!("{}", String::from_utf8_lossy(&l)))
                .to_vec()
        })
        .collect();
    let rating = got.iter().position(|l| l == b"'rating:pa:pb").unwrap();
    let comment = |c: &[u8]| [b"'*".as_slice(), c].concat();
    let expected: Vec<Vec<u8>> = vec![
        b"+7776FU".to_vec(),
        b"T0".to_vec(),
        comment(euc),
        b"-3334FU".to_vec(),
        b"T0".to_vec(),
        comment(sjis),
        b"+2726FU".to_vec(),
        b"T0".to_vec(),
        comment(jis),
        b"+OK".to_vec(),
    ];
    assert_eq!(got[rating + 1..], expected);
}

#[test]
fn monitoroff_and_monitor2off_end_only_their_own_kind() {
    // Recorded from shogi-server: after `%%MONITOROFF` the MONITOR2 lines
    // still come, and the other way round.
    let mut r = Raw::new(ServerConfig::default());
    let id = r.game("mo-1500-0");
    r.x1(3, "pw");
    r.line(3, &format!("%%MONITORON {id}"));
    r.line(3, &format!("%%MONITOR2ON {id}"));
    r.take(3);
    assert_eq!(r.ask(3, &format!("%%MONITOROFF {id}")), none());
    r.line(1, "+7776FU");
    let got = r.take(3);
    assert_eq!(
        got,
        [
            format!("##[MONITOR2][{id}] +7776FU"),
            format!("##[MONITOR2][{id}] T0"),
            format!("##[MONITOR2][{id}] +OK")
        ]
    );
    r.line(3, &format!("%%MONITORON {id}"));
    r.take(3);
    assert_eq!(r.ask(3, &format!("%%MONITOR2OFF {id}")), none());
    r.line(2, "-3334FU");
    let got = r.take(3);
    let monitor = format!("##[MONITOR][{id}] ");
    assert!(
        !got.is_empty() && got.iter().all(|l| l.starts_with(&monitor)),
        "{got:?}"
    );
    assert_eq!(got[0], format!("{monitor}BEGIN Game_Summary"));
}

#[test]
fn a_deleted_buoy_game_waits_for_its_setbuoy() {
    // Recorded from shogi-server: after `%%DELETEBUOY` the players of the
    // buoy game wait (`game_waiting`), no Game_Summary.
    let mut r = Raw::new(ServerConfig::default());
    r.x1(3, "pw");
    r.x1(4, "qc");
    r.x1(5, "qd");
    assert_eq!(
        r.ask(3, "%%SETBUOY buoy_del-1500-0 +7776FU 1"),
        ["##[SETBUOY] +OK"]
    );
    assert_eq!(
        r.ask(3, "%%DELETEBUOY buoy_del-1500-0"),
        ["##[DELETEBUOY] +OK"]
    );
    r.line(4, "%%GAME buoy_del-1500-0 +");
    r.line(5, "%%GAME buoy_del-1500-0 -");
    assert_eq!(r.take(4), none());
    assert_eq!(r.take(5), none());
    assert_eq!(
        r.ask(3, "%%WHO"),
        [
            "##[WHO] pw x1 connected",
            "##[WHO] qc x1 game_waiting buoy_del-1500-0 +",
            "##[WHO] qd x1 game_waiting buoy_del-1500-0 -",
            "##[WHO] +OK"
        ]
    );
}

#[test]
fn game_names_the_decoder_refuses_are_answered_as_shogi_server_answers_them() {
    // Recorded from shogi-server: names of other bytes than
    // `[0-9A-Za-z_@.-]` or too long are bad game names (with the hint its
    // regular expressions give); without a side the turn is missing;
    // `%%GAME ` cancels as `%%GAME` does.
    let mut r = Raw::new(ServerConfig::default());
    r.x1(1, "ra");
    let long = format!("{}-1500-0", "a".repeat(130));
    let three = "##[ERROR] invalid identifiers are found or too many characters are used.";
    let parts = "##[ERROR] game name should consist of three parts like game-1500-60.";
    for (line, reply) in [
        (
            "%%GAME bad*name-1500-0 +".to_string(),
            vec![
                "##[ERROR] bad game name: bad*name-1500-0.".to_string(),
                three.into(),
            ],
        ),
        (
            "%%GAME bad!name +".into(),
            vec!["##[ERROR] bad game name: bad!name.".into(), parts.into()],
        ),
        (
            format!("%%GAME {long} -"),
            vec![format!("##[ERROR] bad game name: {long}."), three.into()],
        ),
        (
            "%%GAME bad!name-1-0 + x".into(),
            vec!["##[ERROR] A turn identifier is required: %%GAME bad!name-1-0 + x".into()],
        ),
        (
            "%%GAME bad!name-1-0".into(),
            vec!["##[ERROR] A turn identifier is required: %%GAME bad!name-1-0".into()],
        ),
        ("%%GAME ".into(), vec![]),
        (
            "%%CHALLENGE ".into(),
            vec!["##[ERROR] unknown command: %%CHALLENGE ".into()],
        ),
        (
            "%%GAME é-1-0 *".into(),
            vec!["##[ERROR] bad game name: é-1-0.".into(), three.into()],
        ),
        (
            "%%CHALLENGE b#d-1-0 +".into(),
            vec!["##[ERROR] bad game name: b#d-1-0.".into(), three.into()],
        ),
    ] {
        assert_eq!(r.ask(1, &line), reply, "{line}");
    }
    assert_eq!(
        r.ask(1, "%%WHO"),
        ["##[WHO] ra x1 connected", "##[WHO] +OK"]
    );
    // `%%GAME ` cancels a wait.
    r.line(1, "%%GAME w-1500-0 +");
    assert_eq!(r.ask(1, "%%GAME "), none());
    assert_eq!(
        r.ask(1, "%%WHO"),
        ["##[WHO] ra x1 connected", "##[WHO] +OK"]
    );
}
