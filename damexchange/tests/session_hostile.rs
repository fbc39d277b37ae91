//! Hostile input to the sessions, with the clock passed in: requests that
//! do not decode are answered (never silence), the frame cap, and the
//! opponent's clock bounding the wait for its move (a silent peer must not
//! hang the session).

mod common;
use common::WireText;
use std::time::Duration;

use damexchange::session::{
    Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig, Outcome,
};
use damexchange::{Field, FrameError, Leniency, MessageKind, Name};

const T0: Duration = Duration::ZERO;

fn follower(leniency: Leniency) -> Follower<Duration> {
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.leniency = leniency;
    Follower::new(config, T0)
}

fn sent(f: &mut Follower<Duration>) -> Vec<String> {
    std::iter::from_fn(|| f.poll_transmit())
        .map(|t| t.as_str().to_string())
        .collect()
}

fn events(f: &mut Follower<Duration>) -> Vec<Event> {
    std::iter::from_fn(|| f.poll_event()).collect()
}

/// A GAMEREQ with the standard start: `R01`, the 32-byte name, then the
/// colour, thinking time and moves fields as given, then `A`.
fn gamereq(version: &str, name: &str, rest: &str) -> Vec<u8> {
    format!("R{version}{name:<32}{rest}A\0").into_bytes()
}

#[test]
fn a_gamereq_that_does_not_decode_is_answered_2_with_a_chat() {
    // Spec, GAMEREQ: thinking time is 3 digits, the colour `W`/`Z`, the
    // name 32 bytes; GAMEACC: `2` = not this game, willing to play another.
    let cases: [(&[u8], Field, usize); 3] = [
        (&gamereq("01", "Scan", "W0.5000"), Field::ThinkingTime, 37),
        (&gamereq("01", "Scan", "w005000"), Field::FollowerColor, 35),
        (b"R01ScanW005000A\0", Field::InitiatorName, 15),
    ];
    for (frame, field, offset) in cases {
        let mut f = follower(Leniency::STRICT);
        f.handle_input(frame, T0);
        let out = sent(&mut f);
        assert_eq!(out.len(), 2, "{out:?}");
        assert!(out[0].starts_with("Cerror: GAMEREQ "), "{out:?}");
        assert!(out[0].contains(&format!("at byte {offset}")), "{out:?}");
        assert_eq!(out[1], format!("A{:<32}2", "F"));
        let ev = events(&mut f);
        assert!(
            matches!(&ev[0], Event::Malformed(FrameError::Malformed(e)) if e.field == field && e.offset == offset),
            "{ev:?}"
        );
        assert!(matches!(ev[1], Event::GameRefused { .. }), "{ev:?}");
    }
}

#[test]
fn a_gamereq_with_a_bad_version_field_is_answered_1() {
    // GAMEACC `1`: protocol version not as expected.
    let mut f = follower(Leniency::STRICT);
    f.handle_input(&gamereq("0x", "Scan", "W005000"), T0);
    let out = sent(&mut f);
    assert!(
        out[0].starts_with("Cerror: GAMEREQ protocol version at byte 2"),
        "{out:?}"
    );
    assert_eq!(out[1], format!("A{:<32}1", "F"));
}

#[test]
fn lenient_decimal_thinking_time_is_rounded_up() {
    let mut lenient = Leniency::STRICT;
    lenient.decimal_time = true;
    for (field, minutes) in [("0.5", 1), ("1.5", 2), (".25", 1), ("10.", 10), ("0.0", 0)] {
        let mut f = follower(lenient);
        f.handle_input(&gamereq("01", "Scan", &format!("Z{field}000")), T0);
        assert_eq!(sent(&mut f), [format!("A{:<32}0", "F")], "{field}");
        assert_eq!(f.time_control(), Some((minutes, 0)), "{field}");
    }
    // Not a number: still refused, with the field named.
    let mut f = follower(lenient);
    f.handle_input(&gamereq("01", "Scan", "Z0..000"), T0);
    assert_eq!(sent(&mut f)[1], format!("A{:<32}2", "F"));
}

#[test]
fn lenient_lowercase_colour_trailing_blanks_and_short_name_start_a_game() {
    let mut f = follower(Leniency::ALL);
    f.handle_input(b"R01Scanz005000A \0", T0);
    assert_eq!(sent(&mut f), [format!("A{:<32}0", "F")]);
    assert!(matches!(events(&mut f)[0], Event::GameStarted(_)));
}

/// A follower in a game: it plays Black, White (the initiator) to move.
fn in_game() -> Follower<Duration> {
    let mut f = follower(Leniency::STRICT);
    f.handle_input(&gamereq("01", "Scan", "Z001000"), T0);
    sent(&mut f);
    events(&mut f);
    f
}

#[test]
fn a_backreq_that_does_not_decode_is_refused_k1_with_a_chat() {
    // Spec, BACKREQ: move number `001`..`999`; BACKACC `1` = refused.
    let mut f = in_game();
    f.handle_input(b"M0000322800\0", T0);
    events(&mut f);
    f.handle_input(b"B000W\0", T0);
    let out = sent(&mut f);
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out[0].starts_with("Cerror: BACKREQ move number at byte 1"),
        "{out:?}"
    );
    assert_eq!(out[1], "K1");
    // The game goes on.
    assert_eq!(f.moves().len(), 1);
}

#[test]
fn a_gameend_that_does_not_decode_ends_the_game_without_result() {
    // Spec, GAMEEND: reason 0..=3, stop code 0/1; `E99` has neither.
    let mut f = in_game();
    f.handle_input(b"E99\0", T0);
    let out = sent(&mut f);
    assert!(out[0].starts_with("Cerror: GAMEEND "), "{out:?}");
    assert_eq!(out[1], "E00");
    let ended = events(&mut f)
        .into_iter()
        .find_map(|e| match e {
            Event::GameEnded(g) => Some(g),
            _ => None,
        })
        .expect("the game ended");
    assert_eq!(ended.outcome, Outcome::Unknown);
    assert!(!ended.closed);
}

#[test]
fn bytes_without_nul_are_cut_at_the_frame_cap_and_reported_once() {
    // The framer's cap: 127 bytes without the NUL.
    let mut f = follower(Leniency::STRICT);
    for _ in 0..100 {
        f.handle_input(&[b'A'; 1000], T0);
    }
    let ev = events(&mut f);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert!(
        matches!(
            ev[0],
            Event::Malformed(FrameError::Overlong { max: 127, .. })
        ),
        "{ev:?}"
    );
    assert!(sent(&mut f).is_empty());
    // The stream resynchronises at the next NUL.
    f.handle_input(b"\0", T0);
    f.handle_input(&gamereq("01", "Scan", "Z005000"), T0);
    assert_eq!(sent(&mut f), [format!("A{:<32}0", "F")]);
}

#[test]
fn the_wait_for_the_opponents_move_is_bounded_by_its_clock() {
    // GAMEREQ thinking time 1 minute for the whole game: the follower (White)
    // has 60 s plus the 60 s margin for its moves.
    let mut config = InitiatorConfig::new(Name::new("I").unwrap());
    config.reply_timeout = Some(Duration::from_secs(5));
    let mut i = Initiator::new(config, T0);
    let request = GameOffer {
        our_color: board_core::draughts::Color::Black,
        minutes: 1,
        moves: 0,
        start: None,
    };
    i.request_game(request, T0).unwrap();
    assert_eq!(i.poll_timeout(), Some(Duration::from_secs(5)));
    i.handle_input(format!("A{:<32}0\0", "F").as_bytes(), T0);
    while i.poll_event().is_some() {}
    assert_eq!(i.poll_timeout(), Some(Duration::from_secs(120)));
    // Its first move takes 50 s: 10 s left on its clock.
    i.handle_input(b"M0050322800\0", Duration::from_secs(50));
    while i.poll_event().is_some() {}
    let mv = i.position().unwrap().legal_moves()[0];
    i.send_move(mv, Duration::from_secs(51)).unwrap();
    assert_eq!(i.poll_timeout(), Some(Duration::from_secs(51 + 10 + 60)));
    i.handle_timeout(Duration::from_secs(120));
    assert_eq!(i.poll_event(), None);
    i.handle_timeout(Duration::from_secs(121));
    assert_eq!(
        i.poll_event(),
        Some(Event::PeerSilent {
            awaiting: MessageKind::Move
        })
    );
    // Reported once per turn.
    assert_eq!(i.poll_timeout(), None);
}

#[test]
fn no_clock_no_bound() {
    // Thinking time `000` (pydraughts sends sub-minute limits so): no clock.
    let mut f = follower(Leniency::STRICT);
    f.handle_input(&gamereq("01", "Scan", "Z000000"), T0);
    sent(&mut f);
    events(&mut f);
    assert_eq!(f.poll_timeout(), None);
}

/// The session's own bounds (config `max_bad_frames`, `handshake_timeout`):
/// a CHAT then a closing transmit at the limit of bad frames in a row;
/// a close with nothing sent when no GAMEACC came in time.
#[test]
fn sessions_close_on_bad_frames_and_handshake_timeout() {
    use damexchange::session::{CloseReason, Event, Follower, FollowerConfig};
    let t0 = Duration::ZERO;
    let mut c = FollowerConfig::new(damexchange::Name::new("F").unwrap());
    c.max_bad_frames = Some(2);
    c.handshake_timeout = Some(Duration::from_secs(5));
    let mut f = Follower::new(c.clone(), t0);
    assert_eq!(f.poll_timeout(), Some(Duration::from_secs(5)));
    // A good frame between two bad ones resets the count.
    f.handle_input(b"X\0C hi\0Y\0", t0);
    assert!(f.poll_transmit().is_none());
    f.handle_input(b"\x01\0R01", t0);
    let chat = f.poll_transmit().unwrap();
    assert_eq!(
        chat.as_bytes(),
        b"Cerror: 2 malformed or unrecognised frames in a row; closing\0"
    );
    let close = f.poll_transmit().unwrap();
    assert!(close.closes() && close.is_empty());
    assert!(f.poll_transmit().is_none());
    let events: Vec<_> = std::iter::from_fn(|| f.poll_event()).collect();
    assert_eq!(
        events.last(),
        Some(&Event::Closing(CloseReason::TooManyBadFrames))
    );
    assert_eq!(f.close_reason(), Some(CloseReason::TooManyBadFrames));
    assert_eq!(f.poll_timeout(), None);
    // Input after the close is ignored.
    f.handle_input(b"Z\0", t0);
    assert!(f.poll_event().is_none());

    let mut f = Follower::new(c, t0);
    f.handle_timeout(Duration::from_secs(5));
    assert!(f.poll_transmit().unwrap().closes());
    assert_eq!(
        f.poll_event(),
        Some(Event::Closing(CloseReason::HandshakeTimeout))
    );
}
