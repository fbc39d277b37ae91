//! Novag Citrine (crate `novag-citrine`): reply and command decoding, value
//! round trips, driver input.

use core::time::Duration;

use novag_citrine::decode::{Leniency, decode, decode_with};
use novag_citrine::framer::{Framer, Status};
use novag_citrine::message::{Command, Reply};
use novag_citrine::session::{Driver, DriverConfig};

/// Frames `data` into lines (cap 64 bytes); every line decodes (as a reply,
/// strictly and with the document's spellings, and as a command) without
/// panicking, errors point inside the line, and what decodes re-encodes to
/// a line that decodes strictly to the same value.
pub fn reply_decode(data: &[u8]) {
    let mut framer = Framer::new(64);
    let mut rest = data;
    loop {
        let consumed = match framer.decode(rest) {
            Status::Complete { frame, consumed } => {
                assert!(!frame.is_empty() && frame.len() <= 64);
                for leniency in [Leniency::STRICT, Leniency::DOCUMENT] {
                    match decode_with::<Reply>(frame, &leniency) {
                        Ok(reply) => {
                            let bytes = reply.to_bytes();
                            let again = decode::<Reply>(&bytes[..bytes.len() - 2]);
                            assert_eq!(again, Ok(reply), "{frame:?}");
                        }
                        Err(e) => assert!(e.offset <= frame.len(), "{e:?} {frame:?}"),
                    }
                }
                match decode::<Command>(frame) {
                    Ok(cmd) => {
                        let bytes = cmd.to_bytes();
                        let again = decode::<Command>(&bytes[..bytes.len() - 2]);
                        assert_eq!(again, Ok(cmd), "{frame:?}");
                    }
                    Err(e) => assert!(e.offset <= frame.len(), "{e:?} {frame:?}"),
                }
                consumed
            }
            Status::Overlong { len, consumed } => {
                assert!(len > 64);
                consumed
            }
            Status::Partial { consumed } => {
                assert!(consumed <= rest.len());
                rest = &rest[consumed..];
                break;
            }
        };
        assert!(consumed > 0 && consumed <= rest.len());
        rest = &rest[consumed..];
    }
    // What is left is an unfinished line within the cap.
    assert!(rest.len() <= 64 + 1 || rest.iter().all(|b| !matches!(b, b'\r' | b'\n')));
}

/// Asserts that `bytes` is one line ending in CR LF (no other CR or LF).
fn one_line(bytes: &[u8]) -> &[u8] {
    assert!(bytes.ends_with(b"\r\n"), "{bytes:?}");
    let line = &bytes[..bytes.len() - 2];
    assert!(
        !line.iter().any(|b| matches!(b, b'\r' | b'\n')),
        "{bytes:?}"
    );
    line
}

/// Any command value (feature `arbitrary`) encodes to one line ending in
/// CR LF that decodes back to itself.
pub fn command_value(cmd: &Command<'_>) {
    let bytes = cmd.to_bytes();
    assert_eq!(decode::<Command>(one_line(&bytes)).as_ref(), Ok(cmd));
}

/// Any reply value (feature `arbitrary`) encodes to one line ending in
/// CR LF that decodes back to itself, strictly and leniently.
pub fn reply_value(reply: &Reply<'_>) {
    let bytes = reply.to_bytes();
    let line = one_line(&bytes);
    assert_eq!(decode::<Reply>(line).as_ref(), Ok(reply), "{line:?}");
    assert_eq!(
        decode_with::<Reply>(line, &Leniency::DOCUMENT).as_ref(),
        Ok(reply),
        "{line:?}"
    );
}

/// Arbitrary device output never makes the driver panic, and its input
/// buffer stays bounded.
pub fn driver_input(data: &[u8]) {
    let mut now = Duration::ZERO;
    let mut driver: Driver<Duration> = Driver::new(
        DriverConfig {
            max_line_len: 64,
            ..DriverConfig::default()
        },
        now,
    );
    for chunk in data.chunks(7) {
        driver.handle_input(chunk, now);
        while driver.poll_transmit().is_some() {}
        while driver.poll_event().is_some() {}
        now += Duration::from_millis(50);
    }
}
