//! Two sessions wired together in memory: the host `Driver` against the
//! simulated Citrine `Device`, no port, on a simulated clock (what a
//! `no_std` host does with its UART and timer). The host's moves come from
//! board-core's built-in player; the device's engine answers. A short game:
//! twelve plies.
//!
//! `cargo run -p novag-citrine --example citrine_in_memory`

use std::time::Duration;

use board_core::player::Player;
use novag_citrine::session::{Device, DeviceConfig, Driver, DriverConfig, Event};

fn main() {
    let mut now = Duration::ZERO;
    let mut driver = Driver::new(DriverConfig::default(), now); // the host plays White
    let mut device = Device::new(DeviceConfig::default(), now);
    let mut host = Player::new(7);
    let decode_line = |bytes: &[u8]| {
        let line = bytes.strip_suffix(b"\r\n").unwrap_or(bytes);
        String::from_utf8_lossy(line).into_owned()
    };
    while driver.moves().len() < 12 && now < Duration::from_secs(60) {
        // 1. Bytes each side wrote go to the other.
        while let Some(t) = driver.poll_transmit() {
            println!(
                "{:>6} ms  host   -> {}",
                now.as_millis(),
                decode_line(t.as_bytes())
            );
            device.handle_input(t.as_bytes(), now);
        }
        while let Some(t) = device.poll_transmit() {
            println!(
                "{:>6} ms  device -> {}",
                now.as_millis(),
                decode_line(t.as_bytes())
            );
            driver.handle_input(t.as_bytes(), now);
        }
        // 2. What happened.
        while let Some(e) = driver.poll_event() {
            println!("{:>6} ms  event: {e}", now.as_millis());
            assert!(!matches!(
                e,
                Event::Disagreement(_) | Event::OutOfSync { .. }
            ));
        }
        while device.poll_event().is_some() {}
        // Our move when it is our turn and the line is quiet.
        if driver.is_our_turn() && driver.is_idle() {
            let position = *driver.position().expect("a game");
            if let Some(mv) = host.choose_chess(&position) {
                driver.send_move(mv, now).expect("our turn, a legal move");
            }
        }
        // 3. Wake at the earliest deadline (or in 10 ms).
        let next = [driver.poll_timeout(), device.poll_timeout()]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(now + Duration::from_millis(10));
        now = next.max(now + Duration::from_millis(1));
        driver.handle_timeout(now);
        device.handle_timeout(now);
    }
    let moves: Vec<String> = driver.moves().iter().map(ToString::to_string).collect();
    println!("{} plies: {}", moves.len(), moves.join(" "));
    assert_eq!(driver.position(), device.position(), "both sides agree");
    println!("{:#}", driver.position().expect("a game"));
}
