//! `arbitrary::Arbitrary` for the message and vocabulary types (feature
//! `arbitrary`): every value made is one the validated constructors accept,
//! so it encodes and decodes back to itself (the value fuzz targets rely on
//! it). Types holding board-core's chess vocabulary (squares, roles,
//! colours) are written by hand.

use alloc::string::String;

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::decode::{Leniency, decode, decode_with};
use crate::message::{Command, DiagramRow, HostMove, LevelTarget, MoveLine, RawLine, Reply};
use crate::types::{
    ClockTime, Level, LevelKind, MoveNumber, MoveText, NormalMove, Printable, Promotion, Token,
};
use crate::vocab::{CastlingSide, Color, Piece, PieceKind, Square};
use boardwire_proto::text::{ArbitraryRule, ascii_text};

fn square(u: &mut Unstructured<'_>) -> Result<Square> {
    Ok(Square::new(u32::from(u.int_in_range(0u8..=63)?)).expect("in range"))
}

fn role(u: &mut Unstructured<'_>) -> Result<PieceKind> {
    Ok(*u.choose(&PieceKind::ALL)?)
}

fn color(u: &mut Unstructured<'_>) -> Result<Color> {
    Ok(if bool::arbitrary(u)? {
        Color::White
    } else {
        Color::Black
    })
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for MoveNumber {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(MoveNumber::new(u.int_in_range(1..=MoveNumber::MAX)?).expect("in range"))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for ClockTime {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(ClockTime::new(
            u.int_in_range(0..=99)?,
            u.int_in_range(0..=59)?,
            u.int_in_range(0..=59)?,
        )
        .expect("in range"))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for Level {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let kind = LevelKind::arbitrary(u)?;
        Ok(Level::new(kind, u.int_in_range(1..=99)?).expect("in range"))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for NormalMove {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(NormalMove {
            piece: if bool::arbitrary(u)? {
                Some(role(u)?)
            } else {
                None
            },
            from: square(u)?,
            to: square(u)?,
            capture: bool::arbitrary(u)?,
            en_passant: bool::arbitrary(u)?,
            promotion: Option::<Promotion>::arbitrary(u)?,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for MoveText {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0u8..=7)? {
            0 => MoveText::Castle(CastlingSide::KingSide),
            1 => MoveText::Castle(CastlingSide::QueenSide),
            _ => MoveText::Normal(NormalMove::arbitrary(u)?),
        })
    }
}

/// 1..=64 printable bytes, no space.
impl ArbitraryRule for Printable {
    fn arbitrary_text(u: &mut Unstructured<'_>) -> Result<String> {
        ascii_text(u, 1..=Token::MAX_LEN, |u, _, _| u.int_in_range(0x21..=0x7e))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for HostMove {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(HostMove {
            from: square(u)?,
            to: square(u)?,
            promotion: Option::<Promotion>::arbitrary(u)?,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for MoveLine {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(MoveLine {
            number: MoveNumber::arbitrary(u)?,
            black: bool::arbitrary(u)?,
            text: MoveText::arbitrary(u)?,
            bar: bool::arbitrary(u)?,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for DiagramRow {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
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
                    kind: role(u)?,
                });
            }
        }
        Ok(DiagramRow::new(rank, cells).expect("rank in range"))
    }
}

/// A line (no CR or LF) from the input.
fn line<'a>(u: &mut Unstructured<'a>) -> Result<&'a [u8]> {
    let len = u.arbitrary_len::<u8>()?.min(64);
    let bytes = u.bytes(len)?;
    Ok(
        match bytes.iter().position(|b| matches!(b, b'\r' | b'\n')) {
            Some(end) => &bytes[..end],
            None => bytes,
        },
    )
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for RawLine<'a> {
    /// Any line without CR or LF (only an unrecognised one round-trips as a
    /// [`Reply::Unrecognised`]; see the `Reply` and `Command` impls).
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(RawLine::borrowed(line(u)?))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for Reply<'a> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0u8..=14)? {
            0 => Reply::Clock {
                white: ClockTime::arbitrary(u)?,
                black: ClockTime::arbitrary(u)?,
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
                number: MoveNumber::arbitrary(u)?,
                white: MoveText::arbitrary(u)?,
                black: Option::<MoveText>::arbitrary(u)?,
            },
            5 => Reply::Identity {
                model: Token::arbitrary(u)?,
                version: Token::arbitrary(u)?,
            },
            6 => Reply::Level(Level::arbitrary(u)?),
            7 => Reply::Move(MoveLine::arbitrary(u)?),
            8 => Reply::TakeBack(MoveLine::arbitrary(u)?),
            9 => Reply::NewGame,
            10 => Reply::PositionBoard,
            11 => Reply::DiagramRow(DiagramRow::arbitrary(u)?),
            12 => Reply::Xmit(bool::arbitrary(u)?),
            13 => Reply::Referee(bool::arbitrary(u)?),
            _ => {
                // An unrecognised line: one that decodes as such, strictly
                // and with every leniency (a leniency makes more lines known).
                let l = line(u)?;
                let unknown = |r: Result<Reply<'_>, _>| matches!(r, Ok(Reply::Unrecognised(raw)) if raw.as_bytes() == l);
                if unknown(decode(l)) && unknown(decode_with(l, &Leniency::DOCUMENT)) {
                    Reply::Unrecognised(RawLine::borrowed(l))
                } else {
                    return Err(arbitrary::Error::IncorrectFormat);
                }
            }
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for Command<'a> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0u8..=15)? {
            0 => Command::Clock,
            1 => Command::Flip,
            2 => Command::Game,
            3 => Command::Identity,
            4 => Command::ShowLevel,
            5 => Command::SetLevel {
                target: LevelTarget::arbitrary(u)?,
                level: Level::arbitrary(u)?,
            },
            6 => Command::Move(HostMove::arbitrary(u)?),
            7 => Command::NewGame,
            8 => Command::Origin,
            9 => Command::ShowPosition,
            10 => Command::SetUp(Token::arbitrary(u)?),
            11 => Command::TakeBack,
            12 => Command::Referee(Option::<bool>::arbitrary(u)?),
            13 => Command::Xmit(Option::<bool>::arbitrary(u)?),
            14 => Command::EngineMove,
            _ => {
                let l = line(u)?;
                match decode::<Command<'_>>(l) {
                    Ok(Command::Unrecognised(raw)) if raw.as_bytes() == l => {
                        Command::Unrecognised(RawLine::borrowed(l))
                    }
                    _ => return Err(arbitrary::Error::IncorrectFormat),
                }
            }
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for Leniency {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(Leniency {
            document_identity: bool::arbitrary(u)?,
            document_take_back: bool::arbitrary(u)?,
        })
    }
}
