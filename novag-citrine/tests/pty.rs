//! The driver against the simulated device over a real pseudo-terminal pair
//! at 57600 8N1, through the library's serial driver (`serial::run`): whole
//! games with duplicate acknowledgements and take-backs, and a clear error
//! when the device goes away or stops answering. Bounded in time.
#![cfg(all(unix, feature = "serial"))]

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use board_core::player::Player;
use novag_citrine::error::MessageKind;
use novag_citrine::serial::{self, Activity, Config, Ended, SerialError, Simulator};
use novag_citrine::session::{DeviceConfig, Driver, DriverConfig, Event, Misbehaviour};

mod host;
use host::host_turn;

#[derive(Debug, Default)]
struct Counts {
    acks: usize,
    duplicates: usize,
    taken_back: usize,
    out_of_sync: usize,
    out_of_turn: usize,
    sent: usize,
    received: usize,
}

fn config(driver: DriverConfig) -> Config<DriverConfig> {
    let mut config = Config::new(driver);
    config.limits.driver.poll_interval = Duration::from_millis(5);
    config
}

/// Plays over the pty until the game ends or `max_plies`; panics after
/// `limit`.
fn play(
    driver_cfg: DriverConfig,
    device_cfg: DeviceConfig,
    take_backs_at: &[usize],
    max_plies: usize,
    limit: Duration,
) {
    let sim = Simulator::spawn(device_cfg).unwrap();
    let config = config(driver_cfg);
    let port = serial::open(sim.path(), &config.limits).unwrap();
    let mut host = Player::new(99);
    let mut counts = Counts::default();
    let mut done_take_backs = Vec::new();
    let deadline = Instant::now() + limit;
    let mut settle: Option<Instant> = None;
    let ended = serial::run(port, config, |driver, activity| {
        match activity {
            Activity::Sent { .. } => counts.sent += 1,
            Activity::Received { .. } | Activity::Malformed { .. } => counts.received += 1,
            Activity::Event(ev) => match ev {
                Event::Acknowledged(_) => counts.acks += 1,
                Event::Duplicate(_) => counts.duplicates += 1,
                Event::TakenBack(_) => counts.taken_back += 1,
                Event::OutOfSync { .. } => counts.out_of_sync += 1,
                Event::OutOfTurn(_) => counts.out_of_turn += 1,
                _ => {}
            },
            Activity::Idle => {
                let now = Instant::now();
                assert!(
                    now < deadline,
                    "game not finished in {limit:?}: {counts:?}, {} plies",
                    driver.moves().len()
                );
                assert_eq!(counts.out_of_sync, 0);
                // Let the device finish writing, then compare its state.
                if let Some(t) = settle {
                    return if now >= t {
                        ControlFlow::Break(driver.position().copied())
                    } else {
                        ControlFlow::Continue(())
                    };
                }
                let plies = driver.moves().len();
                if (driver.is_game_over() || plies >= max_plies) && driver.is_idle() {
                    settle = Some(now + Duration::from_millis(200));
                } else if driver.is_our_turn() && driver.is_idle() && plies < max_plies {
                    host_turn(driver, &mut host, take_backs_at, &mut done_take_backs, now);
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    })
    .unwrap();
    let Ended::Break(position) = ended else {
        panic!("{ended:?}")
    };
    let device = sim.stop().unwrap();
    assert_eq!(position.as_ref(), device.position(), "{counts:?}");
    assert!(device.xmit());
    assert_eq!(
        counts.taken_back,
        2 * take_backs_at.len() + counts.out_of_turn,
        "{counts:?}"
    );
    assert!(counts.acks > 0);
    // Every command the device counted was shown to the callback as sent.
    assert_eq!(device.commands_received(), counts.sent as u64, "{counts:?}");
    // Both games below run with duplicate acknowledgements switched on.
    assert!(counts.duplicates > 0, "{counts:?}");
}

#[test]
fn full_game_over_pty_with_duplicates_and_take_backs() {
    // Fast pacing so a whole game fits in a few seconds; the protocol flow
    // is the same as at the real 100 ms.
    let driver_cfg = DriverConfig {
        min_gap: Duration::from_millis(2),
        resend: Some(Duration::from_millis(20)),
        resend_after_capture: Duration::from_millis(40),
        ..DriverConfig::default()
    };
    let device_cfg = DeviceConfig {
        think_time: Duration::from_millis(3),
        seed: 17,
        misbehaviour: Misbehaviour {
            duplicate_ack_every: 3,
            ..Misbehaviour::default()
        },
        ..DeviceConfig::default()
    };
    play(
        driver_cfg,
        device_cfg,
        &[6, 14],
        2000,
        Duration::from_secs(60),
    );
}

#[test]
fn real_pacing_over_pty_with_all_misbehaviour() {
    // The default 100 ms pacing and 200 ms resends, 30 plies.
    let device_cfg = DeviceConfig {
        think_time: Duration::from_millis(20),
        seed: 2,
        misbehaviour: Misbehaviour {
            duplicate_ack_every: 2,
            out_of_turn_at_ply: Some(8),
            truncate_every: 9,
            new_game_at_ply: None,
            mute: false,
            garbage: false,
        },
        ..DeviceConfig::default()
    };
    play(
        DriverConfig::default(),
        device_cfg,
        &[4],
        30,
        Duration::from_secs(60),
    );
}

#[test]
fn device_loss_is_an_error_not_a_hang() {
    let mut sim = Some(Simulator::spawn(DeviceConfig::default()).unwrap());
    let config = config(DriverConfig::default());
    let port = serial::open(sim.as_ref().unwrap().path(), &config.limits).unwrap();
    let start = Instant::now();
    let mut ticks = 0;
    let err = serial::run(port, config, |_, activity| {
        if let Activity::Idle = activity {
            ticks += 1;
            if ticks == 3 {
                // The "adapter" is unplugged: both pty ends of the device close.
                drop(sim.take());
            }
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "no error after unplugging"
            );
        }
        ControlFlow::<()>::Continue(())
    })
    .unwrap_err();
    assert!(matches!(err, SerialError::DeviceLost(_)), "{err}");
}

/// Runs the driver against a device misbehaving as `set` makes it, with an
/// ack timeout of `ack_timeout`, showing every activity to `on`: the run
/// must end within 5 s with [`SerialError::PeerSilent`] for the first
/// command, `X ON`, unanswered for at least the timeout. Returns the
/// simulator, still running.
fn until_silent(
    set: impl FnOnce(&mut Misbehaviour),
    ack_timeout: Duration,
    mut on: impl FnMut(Activity<'_, '_, Driver<Instant>>),
) -> Simulator {
    let mut misbehaviour = Misbehaviour::default();
    set(&mut misbehaviour);
    let sim = Simulator::spawn(DeviceConfig {
        misbehaviour,
        ..DeviceConfig::default()
    })
    .unwrap();
    let mut config = config(DriverConfig::default());
    config.limits.ack_timeout = ack_timeout;
    let port = serial::open(sim.path(), &config.limits).unwrap();
    let start = Instant::now();
    let err = serial::run(port, config, |_, activity| {
        on(activity);
        assert!(start.elapsed() < Duration::from_secs(5), "waited forever");
        ControlFlow::<()>::Continue(())
    })
    .unwrap_err();
    match err {
        SerialError::PeerSilent { awaiting, waited } => {
            // `X ON` is the first command; its `Xmit on` never came.
            assert_eq!(awaiting, MessageKind::Xmit);
            assert!(waited >= ack_timeout, "{waited:?}");
        }
        other => panic!("{other}"),
    }
    sim
}

#[test]
fn a_device_that_receives_but_never_answers_stops_the_driver() {
    let mut seen_event = false;
    let sim = until_silent(
        |m| m.mute = true,
        Duration::from_millis(300),
        |activity| {
            if let Activity::Event(Event::PeerSilent { .. }) = activity {
                seen_event = true;
            }
        },
    );
    assert!(seen_event);
    let device = sim.stop().unwrap();
    assert!(device.xmit(), "the device did receive X ON");
}

#[test]
fn a_device_that_answers_only_garbage_stops_the_driver() {
    // A garbled line used to count as the awaited answer, so a
    // device answering only garbage was never silent. Now the `X ON` stays
    // awaited through the garbage (and the resync's `P`, answered with
    // garbage too) until the ack timeout.
    let mut malformed = 0;
    until_silent(
        |m| m.garbage = true,
        Duration::from_millis(400),
        |activity| {
            if let Activity::Malformed { frame, .. } = activity {
                assert_eq!(
                    [frame, b"\r\n"].concat(),
                    novag_citrine::session::GARBAGE_LINE
                );
                malformed += 1;
            }
        },
    );
    // `X ON` and `P` (a header and eight rows) each answered with garbage.
    assert_eq!(malformed, 10);
}
