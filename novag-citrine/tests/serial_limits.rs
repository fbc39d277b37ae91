//! `serial::run`'s limits over an in-memory port (any `Read + Write`
//! whose reads time out when the line is quiet): a peer that sends only
//! lines it cannot have meant, and a caller that floods the driver.
#![cfg(feature = "serial")]

use std::ops::ControlFlow;
use std::time::Instant;

use boardwire_vectors::port::ScriptedPort;
use novag_citrine::message::Command;
use novag_citrine::serial::{self, Activity, Config, SerialError};
use novag_citrine::session::{Driver, DriverConfig};

#[test]
fn consecutive_unrecognised_and_malformed_lines_stop_the_driver() {
    for (line, kind) in [
        (&b"Hello\r\n"[..], "unrecognised"),
        (b"M 0 e2-e4\r\n", "malformed"),
    ] {
        let mut port = ScriptedPort::repeating(line);
        let mut config = Config::new(DriverConfig::default());
        config.limits.driver.max_bad_frames = 5;
        let mut seen = 0;
        let err = serial::run(&mut port, config, |_, activity| {
            if matches!(
                activity,
                Activity::Received { .. } | Activity::Malformed { .. }
            ) {
                seen += 1;
            }
            ControlFlow::<()>::Continue(())
        })
        .unwrap_err();
        assert!(
            matches!(err, SerialError::Misbehaving { count: 5 }),
            "{kind}: {err}"
        );
        assert_eq!(seen, 5, "{kind}");
    }
}

#[test]
fn a_queue_past_the_limit_stops_the_driver() {
    let mut port = ScriptedPort::default();
    let mut config = Config::new(DriverConfig::default());
    config.limits.max_queued_commands = 8;
    let err = serial::run(
        &mut port,
        config,
        |driver: &mut Driver<Instant>, activity| {
            if let Activity::Idle = activity {
                for _ in 0..10 {
                    driver.send(Command::Clock, Instant::now()).unwrap();
                }
            }
            ControlFlow::<()>::Continue(())
        },
    )
    .unwrap_err();
    assert!(
        matches!(err, SerialError::QueueFull { queued } if queued > 8),
        "{err}"
    );
    // The pacing let the first command out before the queue grew.
    assert!(port.written.starts_with(b"X ON\r\n"), "{:?}", port.written);
}
