//! The host driver's per-game ply cap (`DriverConfig::max_game_plies`): a
//! device that keeps reporting moves cannot grow the game past it. At the
//! cap the game ends and the driver sends `N` (spec/citrine.md,
//! *Commands (host -> device) and replies (device -> host)*: `N` new game,
//! answered `New Game`; commands end with CR LF), the protocol's one way
//! to end a game.
//!
//! The device's lines are in the form spec/citrine.md, *Move text the
//! Citrine prints*, gives (`M   7   g1-f3` white, `M   7,  c5xd4` black),
//! for a real opening: 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. d3.

use std::time::Duration;

use novag_citrine::session::{
    DEFAULT_MAX_GAME_PLIES, Driver, DriverConfig, EndReason, Event, Outcome,
};

const CAP: u32 = 6;

const LINES: [&[u8]; 7] = [
    b"M   1   e2-e4\r\n",
    b"M   1,  e7-e5\r\n",
    b"M   2   g1-f3\r\n",
    b"M   2,  b8-c6\r\n",
    b"M   3   f1-c4\r\n",
    b"M   3,  g8-f6\r\n",
    b"M   4   d2-d3\r\n",
];

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Feeds `line` one second after the previous input and returns what was
/// written (each command line) and the events.
fn feed(d: &mut Driver<Duration>, now: &mut Duration, line: &[u8]) -> (Vec<Vec<u8>>, Vec<Event>) {
    *now += Duration::from_secs(1);
    d.handle_input(line, *now);
    let tx = std::iter::from_fn(|| d.poll_transmit())
        .map(|t| t.as_bytes().to_vec())
        .collect();
    (tx, std::iter::from_fn(|| d.poll_event()).collect())
}

#[test]
fn the_default_cap_is_twenty_thousand_plies() {
    assert_eq!(DEFAULT_MAX_GAME_PLIES, 20_000);
    assert_eq!(DriverConfig::default().max_game_plies, 20_000);
}

#[test]
fn the_game_ends_at_the_cap_and_the_driver_sends_n() {
    // The host plays no fixed side: every move line is the device's.
    let mut d = Driver::new(
        DriverConfig {
            host_color: None,
            max_game_plies: CAP,
            ..DriverConfig::default()
        },
        ms(0),
    );
    assert_eq!(d.poll_transmit().unwrap().as_bytes(), b"X ON\r\n");
    let mut now = ms(0);
    let (tx, _) = feed(&mut d, &mut now, b"Xmit on\r\n");
    assert!(tx.is_empty());
    for (i, line) in LINES[..5].iter().enumerate() {
        let (tx, ev) = feed(&mut d, &mut now, line);
        // Up to 5 plies (the cap - 1) the game goes on.
        assert!(tx.is_empty(), "ply {}: {tx:?}", i + 1);
        assert!(
            matches!(ev[..], [Event::DeviceMove(_)]),
            "ply {}: {ev:?}",
            i + 1
        );
        assert!(d.is_our_turn());
    }
    let (tx, ev) = feed(&mut d, &mut now, LINES[5]);
    assert!(matches!(ev[0], Event::DeviceMove(_)), "{ev:?}");
    assert_eq!(ev[1], Event::PlyCapReached { plies: 6 });
    let Event::GameEnded(g) = &ev[2] else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (g.outcome, g.reason, g.moves.len()),
        (Outcome::Unknown, EndReason::PlyCap, 6)
    );
    assert_eq!(ev.len(), 3, "{ev:?}");
    assert_eq!(tx, [b"N\r\n".to_vec()]);
    assert!(!d.is_our_turn());
    // Ply 7 is not played until the device's `New Game`.
    let (tx, ev) = feed(&mut d, &mut now, LINES[6]);
    assert!(tx.is_empty());
    assert!(matches!(ev[..], [Event::Line(_)]), "{ev:?}");
    assert_eq!(d.moves().len(), 6);
    // `New Game`: a new game, the ended one not reported twice.
    let (_, ev) = feed(&mut d, &mut now, b"New Game\r\n");
    assert!(matches!(ev[..], [Event::GameStarted(_)]), "{ev:?}");
    assert!(d.moves().is_empty());
    assert!(d.is_our_turn());
}
