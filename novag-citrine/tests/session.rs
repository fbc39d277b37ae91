//! The driver against the simulated device, in memory with simulated time:
//! full games, duplicate acknowledgements, take-backs, out-of-turn moves,
//! spontaneous new games, truncated lines.

use std::time::Duration;

use board_core::chess::Color;

use board_core::player::Player;
use novag_citrine::error::MessageKind;
use novag_citrine::session::{
    CommandError, Device, DeviceConfig, DeviceEvent, Driver, DriverConfig, EndReason, Event,
    GameEnded, Misbehaviour, Outcome, board_of,
};

mod host;
use host::host_turn;

#[derive(Debug, Default)]
struct Stats {
    plies: usize,
    acks: usize,
    device_moves: usize,
    duplicates: usize,
    out_of_turn: usize,
    taken_back: usize,
    new_games: usize,
    disagreements: usize,
    out_of_sync: usize,
    resyncs: usize,
    commands_to_device: usize,
    min_gap: Option<Duration>,
    finished: bool,
    ended: Vec<GameEnded>,
    device_ended: Vec<GameEnded>,
    peer_silent: usize,
}

/// Plays until the game ends (or `max_plies`), the host taking back two
/// plies at each ply count in `take_backs_at`. Returns the statistics.
fn play(
    driver_cfg: DriverConfig,
    device_cfg: DeviceConfig,
    take_backs_at: &[usize],
    max_plies: usize,
) -> (Stats, Driver<Duration>, Device<Duration>) {
    // Simulated time: a `Duration` since the start of the session.
    let start = Duration::ZERO;
    let mut now = start;
    let mut driver = Driver::new(driver_cfg, now);
    let mut device = Device::new(device_cfg, now);
    let mut host = Player::new(7);
    let mut stats = Stats::default();
    let mut took_back: Vec<usize> = Vec::new();
    let mut last_write: Option<Duration> = None;
    let mut idle_rounds = 0;
    while now < start + Duration::from_secs(3600) {
        let mut progressed = false;
        driver.handle_timeout(now);
        device.handle_timeout(now);
        while let Some(t) = driver.poll_transmit() {
            if let Some(t) = last_write {
                let gap = now - t;
                stats.min_gap = Some(stats.min_gap.map_or(gap, |g| g.min(gap)));
            }
            last_write = Some(now);
            stats.commands_to_device += 1;
            device.handle_input(t.as_bytes(), now);
            progressed = true;
        }
        while let Some(t) = device.poll_transmit() {
            driver.handle_input(t.as_bytes(), now);
            progressed = true;
        }
        while let Some(ev) = device.poll_event() {
            if let DeviceEvent::GameEnded(e) = ev {
                stats.device_ended.push(e);
            }
        }
        while let Some(ev) = driver.poll_event() {
            match ev {
                Event::Acknowledged(_) => stats.acks += 1,
                Event::DeviceMove(_) => stats.device_moves += 1,
                Event::Duplicate(_) => stats.duplicates += 1,
                Event::OutOfTurn(_) => stats.out_of_turn += 1,
                Event::TakenBack(_) => stats.taken_back += 1,
                Event::GameStarted(_) => stats.new_games += 1,
                Event::GameEnded(e) => stats.ended.push(e),
                Event::PeerSilent { .. } => stats.peer_silent += 1,
                Event::Disagreement(_) => stats.disagreements += 1,
                Event::OutOfSync { .. } => stats.out_of_sync += 1,
                Event::Resynced(_) => stats.resyncs += 1,
                _ => {}
            }
        }
        let plies = driver.moves().len();
        stats.plies = stats.plies.max(plies);
        if driver.position().unwrap().outcome().is_some() || plies >= max_plies {
            if driver.is_idle() && device.poll_timeout().is_none() {
                stats.finished = true;
                break;
            }
        } else if driver.is_our_turn() && driver.is_idle() {
            host_turn(&mut driver, &mut host, take_backs_at, &mut took_back, now);
            progressed = true;
        }
        if stats.out_of_sync > 0 {
            break;
        }
        if !progressed {
            let next = [driver.poll_timeout(), device.poll_timeout()]
                .into_iter()
                .flatten()
                .min();
            match next {
                Some(t) if t > now => now = t,
                Some(_) => now += Duration::from_millis(1),
                None => {
                    idle_rounds += 1;
                    if idle_rounds > 3 {
                        break;
                    }
                    now += Duration::from_millis(10);
                }
            }
        }
    }
    (stats, driver, device)
}

/// A device whose engine is seeded with `seed`, misbehaving as `set` makes
/// it (from well-behaved).
fn misbehaving(seed: u64, set: impl FnOnce(&mut Misbehaviour)) -> DeviceConfig {
    let mut misbehaviour = Misbehaviour::default();
    set(&mut misbehaviour);
    DeviceConfig {
        misbehaviour,
        seed,
        ..DeviceConfig::default()
    }
}

/// [`play`], checked: the game was played to its end and the driver and
/// the device agree on it.
fn play_to_end(
    driver_cfg: DriverConfig,
    device_cfg: DeviceConfig,
    take_backs_at: &[usize],
    max_plies: usize,
) -> (Stats, Driver<Duration>, Device<Duration>) {
    let (s, driver, device) = play(driver_cfg, device_cfg, take_backs_at, max_plies);
    assert!(s.finished, "{s:?}");
    assert_same_game(&driver, &device);
    (s, driver, device)
}

fn assert_same_game(driver: &Driver<Duration>, device: &Device<Duration>) {
    assert_eq!(
        board_of(driver.position().unwrap()),
        board_of(device.position().unwrap())
    );
    assert_eq!(
        driver.position().unwrap().side_to_move(),
        device.position().unwrap().side_to_move()
    );
    assert_eq!(driver.position(), device.position());
}

#[test]
fn full_game_plain() {
    let (s, mut driver, device) = play(DriverConfig::default(), DeviceConfig::default(), &[], 1000);
    assert!(s.finished, "{s:?}");
    assert!(
        driver.position().unwrap().outcome().is_some(),
        "ends in a result: {s:?}"
    );
    assert_same_game(&driver, &device);
    assert_eq!(
        (s.disagreements, s.out_of_sync, s.out_of_turn),
        (0, 0, 0),
        "{s:?}"
    );
    assert_eq!(s.acks + s.device_moves, s.plies);
    assert!(device.xmit(), "X ON was sent");
    assert_eq!(s.peer_silent, 0, "{s:?}");
    // The end is delivered once, with the whole game, from White's side
    // (the host's): checked against the rules, not against our output.
    let [end] = &s.ended[..] else { panic!("{s:?}") };
    let mut replay = *driver.start_position().unwrap();
    for &m in &end.moves {
        replay = replay.play(m).unwrap();
    }
    assert_eq!(Some(&replay), driver.position());
    let want = match driver.position().unwrap().outcome().unwrap() {
        board_core::chess::Outcome::Checkmate {
            winner: Color::White,
        } => Outcome::Won,
        board_core::chess::Outcome::Checkmate { .. } => Outcome::Lost,
        _ => Outcome::Drawn,
    };
    assert_eq!(end.outcome, want);
    // The device saw the same game end, from the engine's side (Black).
    let [dev] = &s.device_ended[..] else {
        panic!("{s:?}")
    };
    assert_eq!((&dev.moves, dev.reason), (&end.moves, end.reason));
    let mirrored = match end.outcome {
        Outcome::Won => Outcome::Lost,
        Outcome::Lost => Outcome::Won,
        other => other,
    };
    assert_eq!(dev.outcome, mirrored);
    assert_eq!(
        driver.send_move(end.moves[0], Duration::ZERO),
        Err(CommandError::NoGame)
    );
    assert!(
        s.min_gap.unwrap() >= Duration::from_millis(100),
        "pacing: {s:?}"
    );
}

#[test]
fn duplicate_acks_are_ignored() {
    let device_cfg = misbehaving(11, |m| m.duplicate_ack_every = 3);
    let (s, ..) = play_to_end(DriverConfig::default(), device_cfg, &[], 1000);
    assert!(s.duplicates >= 3, "{s:?}");
    assert_eq!((s.disagreements, s.out_of_sync), (0, 0), "{s:?}");
}

#[test]
fn resent_moves_are_acknowledged_twice_when_the_device_is_slow() {
    // The engine thinks longer than the 200 ms resend delay: the device sees
    // every move twice and acknowledges it twice.
    let device_cfg = DeviceConfig {
        think_time: Duration::from_millis(700),
        seed: 5,
        ..DeviceConfig::default()
    };
    let (s, ..) = play_to_end(DriverConfig::default(), device_cfg, &[], 60);
    assert!(s.duplicates >= s.acks / 2, "{s:?}");
    assert_eq!(s.disagreements, 0, "{s:?}");
}

#[test]
fn take_backs_by_the_host() {
    let (s, ..) = play_to_end(
        DriverConfig::default(),
        DeviceConfig {
            seed: 3,
            ..DeviceConfig::default()
        },
        &[4, 10, 16],
        1000,
    );
    assert_eq!(s.taken_back, 6, "{s:?}");
    assert_eq!(s.disagreements, 0, "{s:?}");
}

#[test]
fn out_of_turn_move_is_taken_back() {
    let device_cfg = misbehaving(9, |m| m.out_of_turn_at_ply = Some(6));
    let (s, ..) = play_to_end(DriverConfig::default(), device_cfg, &[], 1000);
    assert_eq!((s.out_of_turn, s.taken_back), (1, 1), "{s:?}");
    assert_eq!(s.disagreements, 0, "{s:?}");
}

#[test]
fn spontaneous_new_game_resends_settings() {
    let device_cfg = misbehaving(4, |m| m.new_game_at_ply = Some(9));
    let cfg = DriverConfig {
        referee: Some(false),
        ..DriverConfig::default()
    };
    let (s, _, device) = play_to_end(cfg, device_cfg, &[], 1000);
    assert_eq!(s.new_games, 1, "{s:?}");
    assert!(device.xmit(), "Xmit re-sent after New Game");
    // The abandoned game was delivered whole before the driver forgot it.
    let abandoned = &s.ended[0];
    assert_eq!(
        (abandoned.outcome, abandoned.reason),
        (Outcome::Unknown, EndReason::NewGame)
    );
    assert!(abandoned.moves.len() >= 9, "{abandoned:?}");
    assert_eq!(s.disagreements, 0, "{s:?}");
}

#[test]
fn truncated_lines_are_recovered_through_p() {
    let device_cfg = misbehaving(21, |m| m.truncate_every = 7);
    let (s, ..) = play_to_end(DriverConfig::default(), device_cfg, &[], 1000);
    assert!(s.disagreements >= 3, "{s:?}");
    assert_eq!(s.out_of_sync, 0, "{s:?}");
    assert!(s.resyncs >= 3, "{s:?}");
}

#[test]
fn everything_at_once() {
    for seed in 0..6 {
        let device_cfg = DeviceConfig {
            misbehaviour: Misbehaviour {
                duplicate_ack_every: 2,
                new_game_at_ply: Some(13),
                out_of_turn_at_ply: Some(20),
                truncate_every: 11,
                mute: false,
                garbage: false,
            },
            seed,
            ..DeviceConfig::default()
        };
        let (s, driver, device) = play(DriverConfig::default(), device_cfg, &[8, 30], 1000);
        assert!(s.finished, "seed {seed}: {s:?}");
        assert_same_game(&driver, &device);
        assert_eq!(s.out_of_sync, 0, "seed {seed}: {s:?}");
    }
}

/// The caller's clock is a `Duration` since any origin: pacing, resends and
/// the device's timers saturate at the end of its range instead of
/// panicking, and the exchange still completes.
#[test]
fn clock_near_the_end_of_its_range() {
    let mut now = Duration::MAX - Duration::from_millis(20);
    let mut driver = Driver::new(DriverConfig::default(), now);
    let mut device = Device::new(DeviceConfig::default(), now);
    let e2e4 = driver.position().unwrap().parse_uci("e2e4").unwrap();
    driver.send_move(e2e4, now).unwrap();
    let mut events = Vec::new();
    for _ in 0..50 {
        driver.handle_timeout(now);
        device.handle_timeout(now);
        while let Some(t) = driver.poll_transmit() {
            device.handle_input(t.as_bytes(), now);
        }
        while let Some(t) = device.poll_transmit() {
            driver.handle_input(t.as_bytes(), now);
        }
        events.extend(std::iter::from_fn(|| driver.poll_event()));
        now = now.saturating_add(Duration::from_millis(10));
    }
    assert!(events.contains(&Event::Acknowledged(e2e4)), "{events:?}");
    assert!(
        events.iter().any(|e| matches!(e, Event::DeviceMove(_))),
        "{events:?}"
    );
    assert_eq!(driver.moves().len(), 2);
}

/// Runs the two sessions against each other for `for_` of simulated time,
/// returning the driver's events.
fn exchange(
    driver: &mut Driver<Duration>,
    device: &mut Device<Duration>,
    from: Duration,
    for_: Duration,
) -> Vec<Event> {
    let mut events = Vec::new();
    let mut now = from;
    while now <= from + for_ {
        driver.handle_timeout(now);
        device.handle_timeout(now);
        while let Some(t) = driver.poll_transmit() {
            device.handle_input(t.as_bytes(), now);
        }
        while let Some(t) = device.poll_transmit() {
            driver.handle_input(t.as_bytes(), now);
        }
        events.extend(std::iter::from_fn(|| driver.poll_event()));
        now += Duration::from_millis(10);
    }
    events
}

#[test]
fn a_second_move_in_one_turn_is_refused() {
    let now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now);
    let p = *driver.position().unwrap();
    driver.send_move(p.parse_uci("e2e4").unwrap(), now).unwrap();
    assert!(!driver.is_our_turn(), "false as soon as our move is sent");
    assert_eq!(
        driver.send_move(p.parse_uci("d2d4").unwrap(), now),
        Err(CommandError::NotYourTurn)
    );
    // Black's move is not ours either (the host plays White).
    let mut device = Device::new(DeviceConfig::default(), now);
    let events = exchange(&mut driver, &mut device, now, Duration::from_millis(150));
    assert!(
        events.contains(&Event::Acknowledged(p.parse_uci("e2e4").unwrap())),
        "{events:?}"
    );
}

#[test]
fn a_device_that_never_answers_is_reported_silent() {
    // A Bluetooth adapter that receives but cannot send (spec note
    // spec/citrine.md, *Known field problems (from user reports)*): the
    // driver waited forever before.
    let now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now);
    let mut device = Device::new(
        DeviceConfig {
            misbehaviour: Misbehaviour {
                mute: true,
                ..Misbehaviour::default()
            },
            ..DeviceConfig::default()
        },
        now,
    );
    let e2e4 = driver.position().unwrap().parse_uci("e2e4").unwrap();
    driver.send_move(e2e4, now).unwrap();
    let events = exchange(&mut driver, &mut device, now, Duration::from_secs(9));
    assert!(
        !events.iter().any(|e| matches!(e, Event::PeerSilent { .. })),
        "not before the 10 s default ack timeout: {events:?}"
    );
    let events = exchange(
        &mut driver,
        &mut device,
        Duration::from_secs(9),
        Duration::from_secs(2),
    );
    let silent: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::PeerSilent { awaiting, waited } => Some((*awaiting, *waited)),
            _ => None,
        })
        .collect();
    // `X ON` went out first at 0 s and was never answered.
    assert_eq!(
        silent,
        [(MessageKind::Xmit, Duration::from_secs(10))],
        "{events:?}"
    );
    // The device received and played (e2e4 and its engine's reply); only
    // its answers were lost.
    assert_eq!(device.position().unwrap().fullmove_number(), 2);
}

#[test]
fn a_device_repeating_new_game_does_not_grow_the_queue() {
    // Every `New Game` makes the driver re-send its settings (the device
    // forgets them; spec note spec/citrine.md, *Known field problems
    // (from user reports)*); repeated ones replace
    // the settings still queued instead of piling up.
    let now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now);
    driver.handle_input(&b"New Game\r\n".repeat(100), now);
    let started = std::iter::from_fn(|| driver.poll_event())
        .filter(|e| matches!(e, Event::GameStarted(_)))
        .count();
    assert_eq!(started, 100);
    assert_eq!(driver.queued(), 1, "only X ON");
    assert_eq!(driver.poll_transmit().unwrap().as_bytes(), b"X ON\r\n");
}

#[test]
fn a_frame_error_from_a_codec_starts_a_resync() {
    // Codec users hand over the item error; bytes may have been lost, so the
    // driver asks for the position (`P`, spec note spec/citrine.md,
    // *Known field problems (from user reports)*).
    let now = Duration::ZERO;
    let mut driver = Driver::new(
        DriverConfig {
            xmit: None,
            ..DriverConfig::default()
        },
        now,
    );
    let error = novag_citrine::error::FrameError::Overlong { len: 300, max: 256 };
    driver.handle_frame_error(&error, now);
    let events: Vec<Event> = std::iter::from_fn(|| driver.poll_event()).collect();
    assert!(
        matches!(events[0], Event::Malformed(e) if e == error),
        "{events:?}"
    );
    assert!(matches!(events[1], Event::Disagreement(_)), "{events:?}");
    assert_eq!(driver.poll_transmit().unwrap().as_bytes(), b"P\r\n");
    assert!(driver.is_resyncing());
}

#[test]
fn no_move_past_the_last_move_number_the_citrine_prints() {
    // Move lines carry a number 1..=9999 (spec note spec/citrine.md,
    // *Move text the Citrine prints*): move 10000 cannot be acknowledged, so it is not sent.
    let now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now);
    let late: board_core::chess::Position =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 10000"
            .parse()
            .unwrap();
    driver.adopt(late, now).unwrap();
    let e2e4 = late.parse_uci("e2e4").unwrap();
    assert_eq!(driver.send_move(e2e4, now), Err(CommandError::MoveLimit));
    let at_9999: board_core::chess::Position =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 9999"
            .parse()
            .unwrap();
    driver.adopt(at_9999, now).unwrap();
    assert_eq!(driver.send_move(e2e4, now), Ok(()));
}

#[test]
fn a_close_mid_game_ends_it_with_an_unknown_outcome_then_clears_it() {
    // docs/SHAPE.md, second pass: a game in progress ends with
    // `Outcome::Unknown` when the peer closes the stream.
    let now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now);
    let mut device = Device::new(DeviceConfig::default(), now);
    let e2e4 = driver.position().unwrap().parse_uci("e2e4").unwrap();
    driver.send_move(e2e4, now).unwrap();
    exchange(&mut driver, &mut device, now, Duration::from_millis(150));
    let moves = driver.moves().to_vec();
    assert_eq!(moves.len(), 2, "e2e4 and the engine's reply");
    let later = Duration::from_secs(1);
    driver.handle_close(later);
    let events: Vec<Event> = std::iter::from_fn(|| driver.poll_event()).collect();
    let [Event::GameEnded(end)] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!(
        (end.outcome, end.reason, &end.moves),
        (Outcome::Unknown, EndReason::Closed, &moves)
    );
    assert_eq!(end.start, board_core::chess::Position::startpos());
    assert_eq!((driver.position(), driver.start_position()), (None, None));
    assert!(driver.moves().is_empty() && !driver.is_our_turn());
    assert_eq!(driver.send_move(e2e4, later), Err(CommandError::NoGame));
    assert_eq!(driver.new_game(later), Err(CommandError::Closed));
    assert_eq!(driver.poll_transmit(), None);
    assert_eq!(driver.poll_timeout(), None);

    // The device too: its game (two plies) ends from the engine's side.
    device.handle_close(later);
    let ended: Vec<_> = std::iter::from_fn(|| device.poll_event())
        .filter_map(|e| match e {
            DeviceEvent::GameEnded(e) => Some(e),
            _ => None,
        })
        .collect();
    assert_eq!(ended.len(), 1);
    assert_eq!(
        (ended[0].outcome, &ended[0].moves),
        (Outcome::Unknown, &moves)
    );
    assert_eq!(device.position(), None);
}

#[test]
fn a_close_before_any_move_ends_no_game() {
    let now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now);
    driver.handle_close(now);
    assert!(!std::iter::from_fn(|| driver.poll_event()).any(|e| matches!(e, Event::GameEnded(_))));
    assert_eq!(driver.position(), None);
}

#[test]
fn the_device_plays_a_move_given_for_its_engine() {
    // The device's side is the engine's (Black by default): `send_move`
    // replaces the built-in player's choice, and is refused on White's turn.
    let now = Duration::ZERO;
    let mut device = Device::new(DeviceConfig::default(), now);
    let start = board_core::chess::Position::startpos();
    let e7e5 = start
        .play(start.parse_uci("e2e4").unwrap())
        .unwrap()
        .parse_uci("e7e5")
        .unwrap();
    assert!(!device.is_our_turn());
    assert_eq!(device.send_move(e7e5, now), Err(CommandError::NotYourTurn));
    device.handle_input(b"M e2e4\r\n", now);
    assert!(device.is_our_turn());
    let illegal = start.parse_uci("d2d4").unwrap();
    assert_eq!(
        device.send_move(illegal, now),
        Err(CommandError::IllegalMove(illegal))
    );
    device.send_move(e7e5, now).unwrap();
    assert!(!device.is_our_turn());
    let lines: Vec<Vec<u8>> = std::iter::from_fn(|| device.poll_transmit())
        .map(|t| t.into_bytes())
        .collect();
    // The acknowledgement, then the engine's move as the spec note prints
    // black moves (spec/citrine.md, *Move text the Citrine prints*).
    assert_eq!(lines, [&b"M   1   e2-e4 |\r\n"[..], b"M   1,  e7-e5 |\r\n"]);
    // The built-in player's reply was cancelled: nothing more is due.
    assert_eq!(device.poll_timeout(), None);
    assert_eq!(device.moves().len(), 2);
}

/// A hang found by fuzzing the simulator's faults: `citrine --simulate --auto --side black --sim-duplicate-acks 1
/// --sim-truncate 2 --sim-new-game-at 4 --sim-out-of-turn-at 4` hung. The
/// cause: the device's out-of-turn move line was cut, the resync through
/// `P` applied the move, but as an ordinary move, so no `T` went out; the
/// device waited for its take-back and the driver for the device's move.
/// Bounded: at most 3600 s of simulated time, 60 plies.
#[test]
fn a_cut_out_of_turn_line_is_taken_back_after_the_resync() {
    for (oot, seed) in [(2, 1), (2, 2), (4, 1), (4, 2), (3, 5), (5, 6)] {
        let device_cfg = DeviceConfig {
            misbehaviour: Misbehaviour {
                duplicate_ack_every: 1,
                new_game_at_ply: Some(4),
                out_of_turn_at_ply: Some(oot),
                truncate_every: 2,
                mute: false,
                garbage: false,
            },
            seed,
            ..DeviceConfig::default()
        };
        let cfg = DriverConfig {
            host_color: Some(Color::Black),
            flip: true,
            ..DriverConfig::default()
        };
        let (s, driver, device) = play(cfg, device_cfg, &[], 60);
        assert!(s.finished, "oot {oot} seed {seed}: {s:?}");
        assert_same_game(&driver, &device);
        assert_eq!(s.out_of_sync, 0, "oot {oot} seed {seed}: {s:?}");
        assert_eq!(s.peer_silent, 0, "oot {oot} seed {seed}: {s:?}");
    }
}

/// Feeds `line` to the driver every 100 ms from `from` for `for_`; the
/// events.
fn feed_every_100ms(
    driver: &mut Driver<Duration>,
    line: &[u8],
    from: Duration,
    for_: Duration,
) -> Vec<Event> {
    let mut events = Vec::new();
    let mut now = from;
    while now < from + for_ {
        driver.handle_input(line, now);
        driver.handle_timeout(now);
        while driver.poll_transmit().is_some() {}
        events.extend(std::iter::from_fn(|| driver.poll_event()));
        now += Duration::from_millis(100);
    }
    events
}

fn silences(events: &[Event]) -> Vec<(MessageKind, Duration)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::PeerSilent { awaiting, waited } => Some((*awaiting, *waited)),
            _ => None,
        })
        .collect()
}

#[test]
fn only_undecodable_lines_for_the_ack_timeout_is_silence() {
    // A device sending only garbage must not keep the driver alive
    // forever (it used to). No command is
    // awaiting an answer (no resync, Xmit answered): the bad lines alone
    // are silence after the 10 s default.
    let now = Duration::ZERO;
    let mut driver = Driver::new(
        DriverConfig {
            auto_resync: false,
            ..DriverConfig::default()
        },
        now,
    );
    assert_eq!(driver.poll_transmit().unwrap().as_bytes(), b"X ON\r\n");
    driver.handle_input(b"Xmit on\r\n", Duration::from_millis(50));
    let events = feed_every_100ms(
        &mut driver,
        b"M   1, \x07\xff garbage\r\n",
        Duration::from_secs(1),
        Duration::from_millis(9950),
    );
    assert_eq!(silences(&events), [], "not before 10 s of bad lines");
    let events = feed_every_100ms(
        &mut driver,
        b"M   1, \x07\xff garbage\r\n",
        Duration::from_secs(11),
        Duration::from_millis(100),
    );
    assert_eq!(
        silences(&events),
        [(MessageKind::Reply, Duration::from_secs(10))]
    );
    // Lines of an unknown kind alone are not silence (a device may print
    // lines this crate does not know); they neither start nor stop it.
    let events = feed_every_100ms(
        &mut driver,
        b"\x07unknown kind\r\n",
        Duration::from_secs(12),
        Duration::from_secs(20),
    );
    assert!(
        events.iter().all(|e| matches!(e, Event::Unrecognised(_))),
        "{events:?}"
    );
}

#[test]
fn a_garbled_answer_is_not_an_answer() {
    // An undecodable line used to count as the awaited answer, so
    // a device answering only garbage was never silent.
    let now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now);
    assert_eq!(driver.poll_transmit().unwrap().as_bytes(), b"X ON\r\n");
    driver.handle_input(b"M   1, \r\n", Duration::from_millis(50));
    // The resync's `P` goes out, and is not answered either.
    driver.handle_timeout(Duration::from_millis(200));
    assert_eq!(driver.poll_transmit().unwrap().as_bytes(), b"P\r\n");
    let mut events = Vec::new();
    for ms in (300..=10_100).step_by(100) {
        driver.handle_timeout(Duration::from_millis(ms));
        events.extend(std::iter::from_fn(|| driver.poll_event()));
    }
    assert_eq!(
        silences(&events),
        [(MessageKind::Xmit, Duration::from_secs(10))],
        "{events:?}"
    );
}

#[test]
fn the_device_thinking_is_not_silence() {
    // The device acknowledged our move and thinks: no bound (a long think
    // is not a dead device).
    let now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now);
    driver.handle_timeout(now);
    assert_eq!(driver.poll_transmit().unwrap().as_bytes(), b"X ON\r\n");
    driver.handle_input(b"Xmit on\r\n", Duration::from_millis(50));
    let e2e4 = driver.position().unwrap().parse_uci("e2e4").unwrap();
    driver.send_move(e2e4, Duration::from_millis(200)).unwrap();
    assert_eq!(driver.poll_transmit().unwrap().as_bytes(), b"M e2e4\r\n");
    driver.handle_input(b"M   1   e2-e4 |\r\n", Duration::from_millis(300));
    let mut events = Vec::new();
    for s in 1..=600 {
        driver.handle_timeout(Duration::from_secs(s));
        while driver.poll_transmit().is_some() {}
        events.extend(std::iter::from_fn(|| driver.poll_event()));
    }
    assert!(events.contains(&Event::Acknowledged(e2e4)), "{events:?}");
    assert_eq!(silences(&events), [], "{events:?}");
}

#[test]
fn a_diagram_cut_short_is_silence() {
    // The rows of a `P` answer are awaited like the answer itself: a lost
    // row used to leave the driver resynchronising for ever.
    let now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now);
    driver.handle_input(b"Xmit on\r\n", now);
    while driver.poll_transmit().is_some() {}
    driver.request_position(Duration::from_millis(200)).unwrap();
    assert_eq!(driver.poll_transmit().unwrap().as_bytes(), b"P\r\n");
    driver.handle_input(b"Position Board\r\n", Duration::from_secs(1));
    let mut events = Vec::new();
    for ms in (1100..=11_100).step_by(100) {
        driver.handle_timeout(Duration::from_millis(ms));
        events.extend(std::iter::from_fn(|| driver.poll_event()));
    }
    assert!(driver.is_resyncing());
    assert_eq!(
        silences(&events),
        [(MessageKind::PositionBoard, Duration::from_secs(10))],
        "{events:?}"
    );
}

#[test]
fn flip_is_sent_at_start_and_after_every_new_game() {
    // `DriverConfig::flip` is sent beside Xmit and referee, so a device
    // reset by a new game is flipped again.
    let now = Duration::ZERO;
    let cfg = DriverConfig {
        host_color: Some(Color::Black),
        flip: true,
        referee: Some(false),
        ..DriverConfig::default()
    };
    let mut driver = Driver::new(cfg, now);
    let mut sent = Vec::new();
    let mut t = now;
    for _ in 0..5 {
        t += Duration::from_millis(100);
        driver.handle_timeout(t);
        sent.extend(std::iter::from_fn(|| driver.poll_transmit()).map(|x| x.into_bytes()));
    }
    assert_eq!(sent, [&b"X ON\r\n"[..], b"U OFF\r\n", b"F\r\n"]);
    driver.handle_input(b"Xmit on\r\n.Referee off\r\nFlip\r\n", t);
    driver.handle_input(b"New Game\r\n", t + Duration::from_secs(1));
    let mut sent = Vec::new();
    for i in 1..6 {
        driver.handle_timeout(t + Duration::from_secs(1) + Duration::from_millis(100 * i));
        sent.extend(std::iter::from_fn(|| driver.poll_transmit()).map(|x| x.into_bytes()));
    }
    assert_eq!(sent, [&b"X ON\r\n"[..], b"U OFF\r\n", b"F\r\n"]);
    // The simulated Citrine takes White when flipped at the new-game
    // position (spec note spec/citrine.md, *Commands (host -> device)
    // and replies (device -> host)*, command `F`) and moves first.
    let mut driver = Driver::new(
        DriverConfig {
            host_color: Some(Color::Black),
            flip: true,
            ..DriverConfig::default()
        },
        now,
    );
    let mut device = Device::new(DeviceConfig::default(), now);
    let events = exchange(&mut driver, &mut device, now, Duration::from_secs(1));
    assert_eq!(device.engine_color(), Color::White);
    assert!(
        events.iter().any(|e| matches!(e, Event::DeviceMove(_))),
        "{events:?}"
    );
    assert!(driver.is_our_turn());
}

#[test]
fn take_back_plies_is_all_or_nothing() {
    // A take-back must not half happen: with the host as Black, one ply played (the
    // device's), taking back two plies took back the device's move anyway.
    let now = Duration::ZERO;
    let cfg = DriverConfig {
        host_color: Some(Color::Black),
        flip: true,
        ..DriverConfig::default()
    };
    let mut driver = Driver::new(cfg, now);
    let mut device = Device::new(DeviceConfig::default(), now);
    exchange(&mut driver, &mut device, now, Duration::from_secs(1));
    assert_eq!(driver.moves().len(), 1);
    assert_eq!(
        driver.take_back_plies(2, Duration::from_secs(1)),
        Err(CommandError::NothingToTakeBack)
    );
    assert_eq!(driver.queued(), 0, "nothing queued");
    assert!(driver.is_our_turn());
    let mv = Player::new(3)
        .choose_chess(driver.position().unwrap())
        .unwrap();
    driver.send_move(mv, Duration::from_secs(1)).unwrap();
    let from = Duration::from_millis(1010);
    exchange(&mut driver, &mut device, from, Duration::from_secs(2));
    assert_eq!(driver.moves().len(), 3, "our move and the device's reply");
    driver.take_back_plies(2, Duration::from_secs(4)).unwrap();
    let events = exchange(
        &mut driver,
        &mut device,
        Duration::from_secs(4),
        Duration::from_secs(2),
    );
    let taken: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, Event::TakenBack(_)))
        .collect();
    assert_eq!(taken.len(), 2, "{events:?}");
    assert_eq!(driver.moves().len(), 1);
    assert_same_game(&driver, &device);
    assert!(driver.is_our_turn());
}

/// Fool's mate (1.f3 e5 2.g4 Qh4#, Black mates: a published fact of chess)
/// played on the simulated board in referee mode (spec note: `U ON`, the
/// user plays both sides): the device, whose engine plays Black by
/// default, reports the game won by mate, in words.
#[test]
fn device_reports_a_mate_by_its_side_as_won() {
    let (won, line) = fools_mate_for(Color::Black);
    assert_eq!(won, Outcome::Won);
    // The event's line, as `GameEnded` documents it: `game over after <n>
    // plies: <reason> (<who> won)`.
    assert_eq!(
        line,
        "game over after 4 plies: checkmate, black wins (the engine won)"
    );
    let (lost, line) = fools_mate_for(Color::White);
    assert_eq!(lost, Outcome::Lost);
    assert_eq!(
        line,
        "game over after 4 plies: checkmate, black wins (the engine lost)"
    );
}

/// Fool's mate on a simulated device whose engine plays `engine`: the
/// outcome it reports (from the engine's side).
fn fools_mate_for(engine: Color) -> (Outcome, String) {
    let config = DeviceConfig {
        engine_color: engine,
        ..DeviceConfig::default()
    };
    let mut device = Device::new(config, Duration::ZERO);
    device.handle_input(b"U ON\r\n", Duration::ZERO);
    assert!(device.referee());
    for u in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let mv = device.position().unwrap().parse_uci(u).unwrap();
        device.handle_board_move(mv, Duration::ZERO).unwrap();
    }
    let ended: Vec<(String, GameEnded)> = std::iter::from_fn(|| device.poll_event())
        .filter_map(|ev| match &ev {
            DeviceEvent::GameEnded(e) => Some((ev.to_string(), e.clone())),
            _ => None,
        })
        .collect();
    let [(line, end)] = &ended[..] else {
        panic!("{ended:?}")
    };
    assert_eq!(
        end.reason,
        EndReason::Checkmate {
            winner: Color::Black
        }
    );
    assert_eq!(end.reason.to_string(), "checkmate, black wins");
    assert_eq!(EndReason::Stalemate.to_string(), "stalemate");
    (end.outcome, line.clone())
}
