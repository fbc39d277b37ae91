//! Novag Citrine: reply decoding, command round trips, driver input.

use arbitrary::{Arbitrary, Unstructured};
use novag_citrine::driver::{Driver, DriverConfig};
use novag_citrine::vocab::Square;
use novag_citrine::{
    Command, Frame, HostMove, Level, LevelKind, LevelTarget, LineFramer, Promotion, Reply, Token,
};

/// Frames `data` into lines (cap 64 bytes); every line decodes without
/// panicking, errors point inside the line, and what decodes re-encodes to a
/// line that decodes to the same value.
pub fn reply_decode(data: &[u8]) {
    let mut framer = LineFramer::new(64);
    let mut rest = data;
    loop {
        let step = framer.next(rest);
        if let Some(Frame::Line(line)) = step.frame {
            assert!(!line.is_empty() && line.len() <= 64);
            match Reply::decode(line) {
                Ok(reply) => {
                    let bytes = reply.to_bytes();
                    let again = Reply::decode(&bytes[..bytes.len() - 2]);
                    assert_eq!(again, Ok(reply), "{line:?}");
                }
                Err(e) => assert!(
                    e.column >= 1 && e.column <= line.len() + 1,
                    "{e:?} {line:?}"
                ),
            }
        }
        assert!(step.consumed <= rest.len());
        rest = &rest[step.consumed..];
        if step.frame.is_none() {
            break;
        }
    }
}

fn square(u: &mut Unstructured<'_>) -> arbitrary::Result<Square> {
    Ok(Square::new(u32::from(u8::arbitrary(u)? % 64)).expect("in range"))
}

fn command<'a>(u: &mut Unstructured<'a>) -> arbitrary::Result<Command<'a>> {
    let on = |u: &mut Unstructured<'_>| -> arbitrary::Result<Option<bool>> {
        Option::<bool>::arbitrary(u)
    };
    Ok(match u.int_in_range(0u8..=15)? {
        0 => Command::Clock,
        1 => Command::Flip,
        2 => Command::Game,
        3 => Command::Identity,
        4 => Command::ShowLevel,
        5 => {
            let kinds = [
                LevelKind::Tournament,
                LevelKind::Citrine,
                LevelKind::AverageTime,
                LevelKind::Beginner,
            ];
            let kind = *u.choose(&kinds)?;
            let level = Level::new(kind, u8::arbitrary(u)?)
                .map_err(|_| arbitrary::Error::IncorrectFormat)?;
            let target = if bool::arbitrary(u)? {
                LevelTarget::Both
            } else {
                LevelTarget::BlackOnly
            };
            Command::SetLevel { target, level }
        }
        6 => {
            let promos = [
                None,
                Some(Promotion::Queen),
                Some(Promotion::Rook),
                Some(Promotion::Bishop),
                Some(Promotion::Knight),
            ];
            Command::Move(HostMove {
                from: square(u)?,
                to: square(u)?,
                promotion: *u.choose(&promos)?,
            })
        }
        7 => Command::NewGame,
        8 => Command::Origin,
        9 => Command::ShowPosition,
        10 => {
            let text = <&str>::arbitrary(u)?;
            Command::SetUp(
                Token::new("set-up", text).map_err(|_| arbitrary::Error::IncorrectFormat)?,
            )
        }
        11 => Command::TakeBack,
        12 => Command::Referee(on(u)?),
        13 => Command::Xmit(on(u)?),
        14 => Command::EngineMove,
        _ => {
            return Command::decode(u.bytes(u.len())?)
                .map_err(|_| arbitrary::Error::IncorrectFormat);
        }
    })
}

/// A command built from the input (through the validated constructors, or
/// decoded from the remaining bytes) encodes with CR LF and decodes back to
/// itself.
pub fn command_round_trip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    if let Ok(cmd) = command(&mut u) {
        let bytes = cmd.to_bytes();
        assert!(bytes.ends_with(b"\r\n"));
        assert_eq!(
            bytes
                .iter()
                .filter(|b| **b == b'\n' || **b == b'\r')
                .count(),
            2
        );
        assert_eq!(Command::decode(&bytes[..bytes.len() - 2]), Ok(cmd));
    }
}

/// Arbitrary device output never makes the driver panic, and its input
/// buffer stays bounded.
pub fn driver_input(data: &[u8]) {
    let mut driver: Driver<core::time::Duration> = Driver::new(DriverConfig {
        max_line_len: 64,
        ..DriverConfig::default()
    });
    for chunk in data.chunks(7) {
        driver.handle_input(chunk);
        while driver.poll_event().is_some() {}
    }
}
