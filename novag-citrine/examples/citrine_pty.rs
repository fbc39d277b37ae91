//! The serial driver on a pseudo-terminal pair: `serial::connect` opens
//! the pty's slave side at 57600 8N1 as it would open `/dev/ttyUSB0`, and
//! runs the host `Driver` against the simulated Citrine
//! (`serial::Simulator`, a `Device` in a thread on the master side of a
//! `serialport::TTYPort::pair()`). Eight plies with the real 100 ms pacing,
//! then stop; bounded to 30 s. Unix, feature `serial`.
//!
//! `cargo run -p novag-citrine --example citrine_pty --features serial`

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use board_core::player::Player;
use novag_citrine::serial::{self, Activity, Config, Ended, Simulator};
use novag_citrine::session::{DeviceConfig, DriverConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sim = Simulator::spawn(DeviceConfig::default())?;
    println!("simulated Citrine on {}", sim.path());
    let mut host = Player::new(3);
    let deadline = Instant::now() + Duration::from_secs(30);
    let ended = serial::connect(
        sim.path(),
        Config::new(DriverConfig::default()),
        |driver, activity| {
            match activity {
                Activity::Sent { frame, .. } => {
                    println!("host   -> {}", String::from_utf8_lossy(frame))
                }
                Activity::Received { message, .. } => println!("device -> {}", message.describe()),
                Activity::Malformed { error, .. } => println!("bad line: {error}"),
                Activity::Event(e) => println!("event: {e}"),
                Activity::Idle => {
                    assert!(Instant::now() < deadline, "not done in 30 s");
                    if driver.moves().len() >= 8 && driver.is_idle() {
                        return ControlFlow::Break(driver.position().copied());
                    }
                    if driver.is_our_turn() && driver.is_idle() {
                        let position = *driver.position().expect("a game");
                        if let Some(mv) = host.choose_chess(&position) {
                            driver.send_move(mv, Instant::now()).expect("our turn");
                        }
                    }
                }
                _ => {}
            }
            ControlFlow::Continue(())
        },
    )?;
    let Ended::Break(Some(position)) = ended else {
        return Err(format!("the run ended early: {ended:?}").into());
    };
    // Let the simulator write its last lines, then compare boards.
    std::thread::sleep(Duration::from_millis(300));
    let device = sim.stop()?;
    assert_eq!(device.position(), Some(&position), "both sides agree");
    println!("{position:#}");
    Ok(())
}
