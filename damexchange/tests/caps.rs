//! The per-game ply cap (`max_game_plies`): a peer that keeps moving
//! cannot grow the game past it. At the cap the session ends the game at
//! its turn with GAMEEND reason `0` (spec/damexchange.md, *Roles and
//! dialogue (layer 2)*: the side to move may send GAMEEND instead of a
//! MOVE; *GAMEEND*: `E` + reason `0` (no reason) + stop code `0` (the
//! sender plays a next game)).
//!
//! The games are real: seven quiet moves from the standard start, White
//! on its left wing and Black on its right (no capture is ever possible,
//! so none is forced): 31-26 20-25 36-31 15-20 41-36 10-15 46-41.

use std::time::Duration;

use damexchange::Name;
use damexchange::message::GameEndReason;
use damexchange::session::{
    DEFAULT_MAX_GAME_PLIES, Event, Follower, FollowerConfig, Outcome, Side,
};

const T0: Duration = Duration::ZERO;
const CAP: u32 = 6;

/// The seven plies, as PDN and as the initiator's MOVE frames
/// (spec, *MOVE*: `M`, 4-digit time, from, to, 2-digit capture count).
const PLIES: [(&str, &[u8]); 7] = [
    ("31-26", b"M0000312600\0"),
    ("20-25", b"M0000202500\0"),
    ("36-31", b"M0000363100\0"),
    ("15-20", b"M0000152000\0"),
    ("41-36", b"M0000413600\0"),
    ("10-15", b"M0000101500\0"),
    ("46-41", b"M0000464100\0"),
];

/// A follower with the cap, playing `colour` (`W`/`Z` as GAMEREQ names
/// the follower's colour), game accepted and drained.
fn follower(colour: char) -> Follower<Duration> {
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.max_game_plies = CAP;
    config.first_move_delay = Duration::ZERO;
    let mut f = Follower::new(config, T0);
    f.handle_input(format!("R01{:<32}{colour}005000A\0", "I").as_bytes(), T0);
    assert_eq!(sent(&mut f), [format!("A{:<32}0", "F")]);
    assert!(matches!(events(&mut f)[..], [Event::GameStarted(_)]));
    f
}

fn sent(f: &mut Follower<Duration>) -> Vec<String> {
    std::iter::from_fn(|| f.poll_transmit())
        .map(|t| String::from_utf8(t.as_bytes().to_vec()).unwrap())
        .map(|s| s.strip_suffix('\0').unwrap().to_string())
        .collect()
}

fn events(f: &mut Follower<Duration>) -> Vec<Event> {
    std::iter::from_fn(|| f.poll_event()).collect()
}

/// Our move: the PDN move on our board, sent.
fn play(f: &mut Follower<Duration>, pdn: &str) {
    let mv = f.position().unwrap().parse_move(pdn).unwrap();
    f.send_move_with(mv, 0, T0).unwrap();
    assert_eq!(sent(f).len(), 1);
}

#[test]
fn the_default_cap_is_twenty_thousand_plies() {
    assert_eq!(DEFAULT_MAX_GAME_PLIES, 20_000);
    let config = FollowerConfig::new(Name::new("F").unwrap());
    assert_eq!(config.max_game_plies, 20_000);
}

#[test]
fn the_opponents_move_that_reaches_the_cap_is_played_then_we_send_gameend() {
    // We play White: our plies are 1, 3, 5; the opponent's 2, 4, 6.
    let mut f = follower('W');
    for (i, (pdn, frame)) in PLIES.iter().take(CAP as usize).enumerate() {
        if i % 2 == 0 {
            play(&mut f, pdn);
        } else {
            f.handle_input(frame, T0);
            if i + 1 < CAP as usize {
                assert!(matches!(events(&mut f)[..], [Event::MoveReceived { .. }]));
                assert!(f.is_our_turn(), "ply {}", i + 1);
            }
        }
    }
    // Ply 6 = the cap: played, then GAMEEND reason 0, our stop code 0.
    let ev = events(&mut f);
    assert!(matches!(ev[0], Event::MoveReceived { .. }), "{ev:?}");
    assert_eq!(ev[1], Event::PlyCapReached { plies: 6 });
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!(sent(&mut f), ["E00"]);
    assert_eq!(f.moves().len(), 6);
    assert!(!f.is_our_turn());
    // The initiator answers (reason 0): the game is over, ended by us.
    f.handle_input(b"E00\0", T0);
    let ev = events(&mut f);
    let [Event::GameEnded(g)] = &ev[..] else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (g.by, g.reason, g.outcome, g.moves.len(), g.closed),
        (Side::Us, GameEndReason::Unknown, Outcome::Unknown, 6, false)
    );
}

#[test]
fn when_our_move_reaches_the_cap_the_opponents_next_move_is_not_played() {
    // We play Black: the opponent's plies are 1, 3, 5, 7; ours 2, 4, 6.
    let mut f = follower('Z');
    for (i, (pdn, frame)) in PLIES.iter().take(CAP as usize).enumerate() {
        if i % 2 == 0 {
            f.handle_input(frame, T0);
            // Ply 5 (the cap - 1) reached by the opponent: our turn, no GAMEEND.
            assert!(matches!(events(&mut f)[..], [Event::MoveReceived { .. }]));
            assert!(f.is_our_turn(), "ply {}", i + 1);
            assert_eq!(sent(&mut f), Vec::<String>::new());
        } else {
            play(&mut f, pdn);
        }
    }
    // Our ply 6 reached the cap; the opponent is to move: nothing yet.
    assert_eq!(f.moves().len(), 6);
    assert!(events(&mut f).is_empty());
    // Its legal ply 7 is not played (no misbehaviour: not a
    // MoveRejected); our GAMEEND takes our turn.
    f.handle_input(PLIES[6].1, T0);
    assert_eq!(events(&mut f), [Event::PlyCapReached { plies: 6 }]);
    assert_eq!(sent(&mut f), ["E00"]);
    assert_eq!(f.moves().len(), 6);
    f.handle_input(b"E00\0", T0);
    let ev = events(&mut f);
    let [Event::GameEnded(g)] = &ev[..] else {
        panic!("{ev:?}")
    };
    assert_eq!((g.by, g.moves.len()), (Side::Us, 6));
}

#[test]
fn a_request_flood_during_the_first_move_pause_ends_the_pause_early() {
    // The follower's first MOVE as White waits 500 ms after GAMEACC, and
    // what it answers meanwhile waits with it: at most 64 frames.
    let mut f = Follower::new(FollowerConfig::new(Name::new("F").unwrap()), T0);
    f.set_take_backs(false);
    f.handle_input(format!("R01{:<32}W005000A\0", "I").as_bytes(), T0);
    assert_eq!(sent(&mut f), [format!("A{:<32}0", "F")]);
    let mv = f.position().unwrap().parse_move("31-26").unwrap();
    f.send_move_with(mv, 0, T0).unwrap();
    // The MOVE and 63 answers (BACKACC `K1`, spec *BACKACC*: refused)
    // are held: 64 frames.
    for _ in 0..63 {
        f.handle_input(b"B001W\0", T0);
    }
    assert_eq!(sent(&mut f), Vec::<String>::new());
    // The 65th ends the pause: all of them go out, in order.
    f.handle_input(b"B001W\0", T0);
    let out = sent(&mut f);
    assert_eq!(out.len(), 65);
    assert_eq!(out[0], "M0000312600");
    assert!(out[1..].iter().all(|k| k == "K1"), "{out:?}");
}
