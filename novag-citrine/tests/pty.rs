//! The driver against the simulated device over a real pseudo-terminal pair
//! at 57600 8N1: whole games with duplicate acknowledgements and take-backs,
//! and a clear error when the device goes away. Bounded in time.
#![cfg(all(unix, feature = "serialport"))]

use std::time::{Duration, Instant};

use novag_citrine::device::{DeviceConfig, Misbehaviour};
use novag_citrine::driver::{Driver, DriverConfig, Event};
use novag_citrine::player::Player;
use novag_citrine::serial::{SerialError, SerialLink, Simulator};

#[derive(Debug, Default)]
struct Counts {
    acks: usize,
    duplicates: usize,
    taken_back: usize,
    out_of_sync: usize,
    out_of_turn: usize,
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
    let mut link = SerialLink::open(sim.path(), Duration::from_millis(5)).unwrap();
    let mut driver = Driver::new(driver_cfg);
    let mut host = Player::new(99);
    let mut counts = Counts::default();
    let mut done_take_backs = Vec::new();
    let deadline = Instant::now() + limit;
    loop {
        assert!(
            Instant::now() < deadline,
            "game not finished in {limit:?}: {counts:?}, {} plies",
            driver.moves().count()
        );
        link.pump_driver(&mut driver).unwrap();
        while let Some(ev) = driver.poll_event() {
            match ev {
                Event::Acknowledged(_) => counts.acks += 1,
                Event::Duplicate(_) => counts.duplicates += 1,
                Event::TakenBack(_) => counts.taken_back += 1,
                Event::OutOfSync { .. } => counts.out_of_sync += 1,
                Event::OutOfTurn(_) => counts.out_of_turn += 1,
                _ => {}
            }
        }
        assert_eq!(counts.out_of_sync, 0);
        let plies = driver.moves().count();
        if (driver.position().outcome().is_some() || plies >= max_plies) && driver.is_idle() {
            break;
        }
        if driver.is_host_turn() && driver.is_idle() && plies < max_plies {
            if take_backs_at.contains(&plies) && !done_take_backs.contains(&plies) {
                done_take_backs.push(plies);
                driver.take_back().unwrap();
                driver.take_back().unwrap();
            } else {
                driver
                    .play(host.choose(driver.position()).unwrap())
                    .unwrap();
            }
        }
    }
    // Let the device finish writing, then compare its final state.
    let settle = Instant::now() + Duration::from_millis(200);
    while Instant::now() < settle {
        link.pump_driver(&mut driver).unwrap();
    }
    let device = sim.stop().unwrap();
    assert_eq!(driver.position(), device.position(), "{counts:?}");
    assert!(device.xmit());
    assert_eq!(
        counts.taken_back,
        2 * take_backs_at.len() + counts.out_of_turn,
        "{counts:?}"
    );
    assert!(counts.acks > 0);
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
    let sim = Simulator::spawn(DeviceConfig::default()).unwrap();
    let mut link = SerialLink::open(sim.path(), Duration::from_millis(20)).unwrap();
    let mut driver = Driver::new(DriverConfig::default());
    link.pump_driver(&mut driver).unwrap();
    drop(sim); // the "adapter" is unplugged: both pty ends of the device close
    let start = Instant::now();
    let err = loop {
        match link.pump_driver(&mut driver) {
            Ok(()) => assert!(
                start.elapsed() < Duration::from_secs(5),
                "no error after unplugging"
            ),
            Err(e) => break e,
        }
    };
    assert!(matches!(err, SerialError::DeviceLost(_)), "{err}");
}
