//! Who is paired with whom, and on which side, when players wait for the
//! same game name (no league): the rules of shogi-server's
//! `League#find_rival` / `League#get_player` and `Game.decide_turns`
//! (`shogi_server/league.rb`, `shogi_server/game.rb`):
//! - a newcomer asking for `+` finds a rival who asked for `-` or `*`,
//!   for `-` one who asked for `+` or `*`, for `*` anyone; two `+` (or two
//!   `-`) never meet and both wait;
//! - the rival's side wins (`rival has higher priority`): a rival who
//!   asked for `+` is Black, for `-` White; a rival who asked for `*`
//!   takes the side the newcomer did not ask for;
//! - both `*`: shogi-server draws the sides at random; ours makes the
//!   newcomer Black (a documented difference, `session::server`);
//! - among several possible rivals the first in shogi-server's player
//!   table (`@players`, a Ruby Hash: login order); ours takes the lowest
//!   connection id, which is the same order where connections log in in
//!   the order they were opened (as here), not the order they began to
//!   wait;
//! - a player never meets itself, and a player who left (`LOGOUT`, a
//!   replaced login, a closed connection) is no rival.

use csa_protocol::session::ServerConfig;

mod raw;
use raw::Raw;

/// The `Your_Turn:` line of the `Game_Summary` `id` received, or `None`.
fn turn(r: &mut Raw, id: u64) -> Option<String> {
    r.take(id)
        .into_iter()
        .find_map(|l| l.strip_prefix("Your_Turn:").map(str::to_string))
}

/// The `Name+:` (Black) line of what `id` received, taken.
fn black_of(lines: &[String]) -> Option<&str> {
    lines.iter().find_map(|l| l.strip_prefix("Name+:"))
}

/// Connections 1..=n logged in (x1) as `p1`..`pn`, in order.
fn logged_in(n: u64) -> Raw {
    let mut r = Raw::new(ServerConfig::default());
    for i in 1..=n {
        r.line(i, &format!("LOGIN p{i} pw x1"));
        assert_eq!(
            r.take(i),
            [format!("LOGIN:p{i} OK"), "##[LOGIN] +OK x1".into()]
        );
    }
    r
}

#[test]
fn sides_as_shogi_server_decides_them() {
    // (first waiting, newcomer) -> (first's side, newcomer's side).
    for (first, newcomer, sides) in [
        ("+", "-", ["+", "-"]),
        ("-", "+", ["-", "+"]),
        ("+", "*", ["+", "-"]),
        ("-", "*", ["-", "+"]),
        ("*", "+", ["-", "+"]),
        ("*", "-", ["+", "-"]),
        // shogi-server: at random; ours: the newcomer is Black.
        ("*", "*", ["-", "+"]),
    ] {
        let mut r = logged_in(2);
        r.line(1, &format!("%%GAME g-300-0 {first}"));
        assert_eq!(r.take(1), Vec::<String>::new(), "{first} waits");
        r.line(2, &format!("%%GAME g-300-0 {newcomer}"));
        let got = [turn(&mut r, 1), turn(&mut r, 2)];
        assert_eq!(
            got,
            sides.map(|s| Some(s.to_string())),
            "{first} then {newcomer}"
        );
    }
}

#[test]
fn the_same_side_twice_never_meets() {
    for side in ["+", "-"] {
        let mut r = logged_in(3);
        r.line(1, &format!("%%GAME g-300-0 {side}"));
        r.line(2, &format!("%%GAME g-300-0 {side}"));
        assert_eq!(r.server.game_count(), 0, "{side}");
        let who = r.ask(3, "%%WHO");
        for p in ["p1", "p2"] {
            let w = format!("##[WHO] {p} x1 game_waiting g-300-0 {side}");
            assert!(who.contains(&w), "{who:?}");
        }
        // A third asking for the other side meets the first.
        let other = if side == "+" { "-" } else { "+" };
        r.line(3, &format!("%%GAME g-300-0 {other}"));
        assert!(turn(&mut r, 1).is_some());
        assert!(turn(&mut r, 2).is_none());
    }
}

#[test]
fn the_first_compatible_player_in_login_order_is_the_rival() {
    // p1 logged in first but began to wait after p2: p1 is the rival.
    let mut r = logged_in(3);
    r.line(2, "%%GAME g-300-0 +");
    r.line(1, "%%GAME g-300-0 +");
    r.line(3, "%%GAME g-300-0 -");
    let lines = r.take(3);
    assert_eq!(black_of(&lines), Some("p1"), "{lines:?}");
    assert!(r.take(2).is_empty());
    // The same with a newcomer asking for `*`: p4 then p2 wait with `+`;
    // p6 meets p2 and, the rival's side winning, is White.
    let mut r = logged_in(6);
    r.line(4, "%%GAME g-300-0 +");
    r.line(2, "%%GAME g-300-0 +");
    r.line(6, "%%GAME g-300-0 *");
    assert_eq!(turn(&mut r, 2).as_deref(), Some("+"));
    assert_eq!(turn(&mut r, 6).as_deref(), Some("-"));
    assert!(r.take(4).is_empty());
    // Another game name is no rival.
    let mut r = logged_in(2);
    r.line(1, "%%GAME h-300-0 +");
    r.line(2, "%%GAME g-300-0 -");
    assert_eq!(r.server.game_count(), 0);
}

#[test]
fn nobody_meets_itself_or_a_player_who_left() {
    let mut r = logged_in(4);
    // Asking again for the game one waits for: still waiting, alone.
    r.line(1, "%%GAME g-300-0 *");
    r.line(1, "%%GAME g-300-0 *");
    assert_eq!(r.server.game_count(), 0);
    // A player who logged out is no rival, even before its connection
    // is closed by the driver.
    r.line(1, "LOGOUT");
    assert_eq!(r.take(1), ["LOGOUT:completed"]);
    r.line(2, "%%GAME g-300-0 *");
    assert_eq!(r.server.game_count(), 0);
    // Its name may log in again at once (the old connection is closing).
    r.line(5, "LOGIN p1 pw x1");
    assert_eq!(r.take(5), ["LOGIN:p1 OK", "##[LOGIN] +OK x1"]);
    // A waiting player replaced by a new login of its name stops waiting.
    r.line(6, "LOGIN p2 pw x1");
    assert_eq!(r.take(6), ["LOGIN:p2 OK", "##[LOGIN] +OK x1"]);
    r.line(3, "%%GAME g-300-0 *");
    assert_eq!(r.server.game_count(), 0, "p2's old connection is gone");
    // A closed connection is no rival either.
    r.server
        .handle_close(csa_protocol::session::ConnId(3), r.now);
    r.line(4, "%%GAME g-300-0 *");
    assert_eq!(r.server.game_count(), 0);
    // `%%GAME` alone stops waiting.
    r.line(4, "%%GAME");
    r.line(6, "%%GAME g-300-0 *");
    assert_eq!(r.server.game_count(), 0);
    // And the next one meets p2 on its new connection.
    r.line(5, "%%GAME g-300-0 *");
    assert_eq!(turn(&mut r, 6).as_deref(), Some("-"));
    assert_eq!(turn(&mut r, 5).as_deref(), Some("+"));
}
