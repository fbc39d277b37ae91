//! Novag Citrine: reply decoding, command round trips, driver input.

use arbitrary::{Arbitrary, Unstructured};
use novag_citrine::driver::{Driver, DriverConfig};
use novag_citrine::vocab::{CastlingSide, Color, Piece, Role, Square};
use novag_citrine::{
    ClockTime, Command, DiagramRow, Frame, HostMove, Level, LevelKind, LevelTarget, LineFramer,
    MoveLine, MoveNumber, MoveText, NormalMove, Promotion, Reply, Token,
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
            let level = arbitrary_level(u)?;
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

const ROLES: [Role; 6] = Role::ALL;

const PROMOTIONS: [Option<Promotion>; 5] = [
    None,
    Some(Promotion::Queen),
    Some(Promotion::Rook),
    Some(Promotion::Bishop),
    Some(Promotion::Knight),
];

/// Any level the constructor accepts (other values are rejected inputs).
fn arbitrary_level(u: &mut Unstructured<'_>) -> arbitrary::Result<Level> {
    let kinds = [
        LevelKind::Tournament,
        LevelKind::Citrine,
        LevelKind::AverageTime,
        LevelKind::Beginner,
    ];
    let kind = *u.choose(&kinds)?;
    reject(Level::new(kind, u8::arbitrary(u)?))
}

fn reject<T, E>(r: Result<T, E>) -> arbitrary::Result<T> {
    r.map_err(|_| arbitrary::Error::IncorrectFormat)
}

fn color(u: &mut Unstructured<'_>) -> arbitrary::Result<Color> {
    Ok(if bool::arbitrary(u)? {
        Color::White
    } else {
        Color::Black
    })
}

fn move_number(u: &mut Unstructured<'_>) -> arbitrary::Result<MoveNumber> {
    reject(MoveNumber::new(u.int_in_range(1u16..=9999)?))
}

fn clock_time(u: &mut Unstructured<'_>) -> arbitrary::Result<ClockTime> {
    reject(ClockTime::new(
        u.int_in_range(0u8..=99)?,
        u.int_in_range(0u8..=59)?,
        u.int_in_range(0u8..=59)?,
    ))
}

/// Any move text the type can hold: castling, or a from-to move with or
/// without piece letter, capture mark, `ep` and promotion suffix.
fn move_text(u: &mut Unstructured<'_>) -> arbitrary::Result<MoveText> {
    if u.ratio(1u8, 8)? {
        let side = if bool::arbitrary(u)? {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        };
        return Ok(MoveText::Castle(side));
    }
    let piece = if bool::arbitrary(u)? {
        Some(*u.choose(&ROLES)?)
    } else {
        None
    };
    Ok(MoveText::Normal(NormalMove {
        piece,
        from: square(u)?,
        to: square(u)?,
        capture: bool::arbitrary(u)?,
        en_passant: bool::arbitrary(u)?,
        promotion: *u.choose(&PROMOTIONS)?,
    }))
}

fn move_line(u: &mut Unstructured<'_>) -> arbitrary::Result<MoveLine> {
    Ok(MoveLine {
        number: move_number(u)?,
        black: bool::arbitrary(u)?,
        text: move_text(u)?,
        bar: bool::arbitrary(u)?,
    })
}

fn token<'a>(u: &mut Unstructured<'a>, what: &'static str) -> arbitrary::Result<Token<'a>> {
    let text = <&str>::arbitrary(u)?;
    reject(Token::new(what, text))
}

fn reply<'a>(u: &mut Unstructured<'a>) -> arbitrary::Result<Reply<'a>> {
    Ok(match u.int_in_range(0u8..=16)? {
        0 => Reply::Clock {
            white: clock_time(u)?,
            black: clock_time(u)?,
        },
        1 => Reply::Flip {
            to_move: if bool::arbitrary(u)? {
                Some(color(u)?)
            } else {
                None
            },
        },
        2 => Reply::Game {
            moves: u16::arbitrary(u)?,
        },
        3 => Reply::GameColumns,
        4 => Reply::GameRow {
            number: move_number(u)?,
            white: move_text(u)?,
            black: if bool::arbitrary(u)? {
                Some(move_text(u)?)
            } else {
                None
            },
        },
        5 => Reply::Identity {
            model: token(u, "model")?,
            version: token(u, "version")?,
        },
        6 => Reply::Level(arbitrary_level(u)?),
        7 => Reply::Move(move_line(u)?),
        8 => Reply::TakeBack(move_line(u)?),
        9 => Reply::NewGame,
        10 => Reply::PositionBoard,
        11 => {
            let rank = if bool::arbitrary(u)? {
                Some(u.int_in_range(1u8..=8)?)
            } else {
                None
            };
            let mut cells = [None; 8];
            for cell in &mut cells {
                if bool::arbitrary(u)? {
                    *cell = Some(Piece {
                        color: color(u)?,
                        role: *u.choose(&ROLES)?,
                    });
                }
            }
            Reply::DiagramRow(reject(DiagramRow::new(rank, cells))?)
        }
        12 => Reply::Xmit(bool::arbitrary(u)?),
        13 => Reply::Referee(bool::arbitrary(u)?),
        _ => {
            // A line as the framer delivers it (no CR or LF inside), plus
            // the trailing CRs `Reply::decode` tolerates.
            let rest = u.bytes(u.len())?;
            let body = rest.iter().rposition(|&b| b != b'\r').map_or(0, |i| i + 1);
            if rest[..body].iter().any(|&b| b == b'\r' || b == b'\n') {
                return Err(arbitrary::Error::IncorrectFormat);
            }
            return reject(Reply::decode(rest));
        }
    })
}

/// A reply built from the input (every variant through the public fields
/// and validated constructors, or decoded from the remaining bytes) encodes
/// to one line ending in CR LF that decodes back to the same value.
pub fn reply_round_trip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    if let Ok(reply) = reply(&mut u) {
        let bytes = reply.to_bytes();
        assert!(bytes.ends_with(b"\r\n"), "{reply:?}");
        assert_eq!(
            bytes
                .iter()
                .filter(|b| **b == b'\n' || **b == b'\r')
                .count(),
            2,
            "{reply:?}"
        );
        let line = &bytes[..bytes.len() - 2];
        assert_eq!(
            Reply::decode(line),
            Ok(reply),
            "{:?}",
            String::from_utf8_lossy(line)
        );
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
