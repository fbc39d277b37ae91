//! `arbitrary::Arbitrary` for the vocabulary and line types (feature
//! `arbitrary`): every value generated is a valid value whose encoding
//! decodes back to it (the property of the `csa_client_value` and
//! `csa_server_value` fuzz targets).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::message::{
    ClientMessage, EndReason, FieldKey, GameRequest, GameResult, GameSummary, PositionSection, Raw,
    ServerMessage, ServerSpecial, SpecialMove, SummaryLine, TimeBase, TimeSection, TimeUnit,
    WhoEntry, X1Command, X1Reply,
};
use crate::types::{
    BuoyMoves, CsaMove, FreeText, FromChecked, GAME_ID, GAME_NAME, GameId, GameName, MoveTime,
    Password, RatingText, Side, SidePreference, TAG, Tag, Text, Token, USER_NAME, UserName, WORD,
    Word,
};
use boardwire_proto::text::{ArbitraryRule, ascii_text};

const NAME: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_@.-";
const TAG_BYTES: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_";

/// `min..=max` bytes of `alphabet`.
fn word_of(u: &mut Unstructured<'_>, alphabet: &[u8], min: usize, max: usize) -> Result<String> {
    ascii_text(u, min..=max, |u, _, _| u.choose(alphabet).copied())
}

/// Printable ASCII without space, minus `skip` (made `x`).
fn graphic(u: &mut Unstructured<'_>, min: usize, max: usize, skip: &[u8]) -> Result<String> {
    ascii_text(u, min..=max, |u, _, _| {
        let b = u.int_in_range(0x21u8..=0x7e)?;
        Ok(if skip.contains(&b) { b'x' } else { b })
    })
}

fn ok<T, E>(r: core::result::Result<T, E>) -> Result<T> {
    r.map_err(|_| arbitrary::Error::IncorrectFormat)
}

/// The token types' generator, one arm a type (short values: fuzz inputs
/// stay small).
impl<const K: usize> ArbitraryRule for Token<K> {
    fn arbitrary_text(u: &mut Unstructured<'_>) -> Result<String> {
        match K {
            USER_NAME => word_of(u, NAME, 1, 32),
            GAME_NAME => word_of(u, NAME, 1, 40),
            GAME_ID => graphic(u, 1, 60, b"[]"),
            WORD => graphic(u, 1, 20, b""),
            TAG => word_of(u, TAG_BYTES, 1, 12),
            _ => graphic(u, 1, 40, b""),
        }
    }
}

/// Any text but control characters, at most 200 characters.
impl ArbitraryRule for FreeText {
    fn arbitrary_text(u: &mut Unstructured<'_>) -> Result<String> {
        let s: String = String::arbitrary(u)?;
        Ok(s.chars().filter(|c| !c.is_control()).take(200).collect())
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for Password<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        ok(Password::new(graphic(u, 1, 40, b"")?))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for MoveTime {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(MoveTime::from_millis(
            u.int_in_range(0..=MoveTime::MAX_SECS * 1000)?,
        ))
    }
}

/// A CSA move as notation (board-core checks the notation, not the board).
fn csa_move(u: &mut Unstructured<'_>) -> Result<CsaMove> {
    let sign = *u.choose(b"+-")?;
    let piece = *u.choose(&[
        "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
    ])?;
    let drop =
        bool::arbitrary(u)? && matches!(piece, "FU" | "KY" | "KE" | "GI" | "KI" | "KA" | "HI");
    let sq = |u: &mut Unstructured<'_>| -> Result<(u8, u8)> {
        Ok((u.int_in_range(1..=9)?, u.int_in_range(1..=9)?))
    };
    let (tf, tr) = sq(u)?;
    let (ff, fr) = if drop { (0, 0) } else { sq(u)? };
    let mut text = String::new();
    text.push(char::from(sign));
    for d in [ff, fr, tf, tr] {
        text.push(char::from(b'0' + d));
    }
    text.push_str(piece);
    CsaMove::parse(text.as_bytes()).or_else(|_| ok(CsaMove::parse(b"+7776FU")))
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for BuoyMoves<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let n = u.int_in_range(1..=8)?;
        let moves: Vec<CsaMove> = (0..n).map(|_| csa_move(u)).collect::<Result<_>>()?;
        ok(BuoyMoves::new(&moves))
    }
}

macro_rules! choose_enum {
    ($t:ty, [$($v:expr),* $(,)?]) => {
        #[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
        impl<'a> Arbitrary<'a> for $t {
            fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
                Ok(*u.choose(&[$($v),*])?)
            }
        }
    };
}

choose_enum!(
    SpecialMove,
    [SpecialMove::Toryo, SpecialMove::Kachi, SpecialMove::Chudan]
);
choose_enum!(ServerSpecial, [ServerSpecial::Toryo, ServerSpecial::Kachi]);

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for EndReason {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(*u.choose(&EndReason::ALL)?)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for GameResult {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(*u.choose(&GameResult::ALL)?)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for GameRequest<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(GameRequest {
            name: GameName::arbitrary(u)?,
            side: SidePreference::arbitrary(u)?,
        })
    }
}

/// A count or `nth` that the decoder reads (at most 9 digits).
fn small(u: &mut Unstructured<'_>) -> Result<Option<u32>> {
    Ok(if bool::arbitrary(u)? {
        Some(u.int_in_range(0..=999_999_999)?)
    } else {
        None
    })
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for X1Command<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0..=17)? {
            0 => X1Command::Who,
            1 => X1Command::Chat(Text::arbitrary(u)?),
            2 => X1Command::Game(Option::<GameRequest<'static>>::arbitrary(u)?),
            3 => X1Command::Challenge(GameRequest::arbitrary(u)?),
            4 => X1Command::List,
            5 => X1Command::Show(GameId::arbitrary(u)?),
            6 => X1Command::MonitorOn(GameId::arbitrary(u)?),
            7 => X1Command::MonitorOff(GameId::arbitrary(u)?),
            8 => X1Command::Monitor2On(GameId::arbitrary(u)?),
            9 => X1Command::Monitor2Off(GameId::arbitrary(u)?),
            10 => X1Command::Rating,
            11 => X1Command::SetBuoy {
                name: GameName::arbitrary(u)?,
                moves: BuoyMoves::arbitrary(u)?,
                count: small(u)?,
            },
            12 => X1Command::DeleteBuoy(GameName::arbitrary(u)?),
            13 => X1Command::GetBuoyCount(GameName::arbitrary(u)?),
            14 => X1Command::Version,
            15 => X1Command::Help,
            _ => {
                // A buoy name of digits only would be read as `nth`.
                let buoy = Option::<GameName<'static>>::arbitrary(u)?
                    .filter(|b| !b.as_str().bytes().all(|c| c.is_ascii_digit()));
                X1Command::Fork {
                    game_id: GameId::arbitrary(u)?,
                    buoy,
                    nth: small(u)?,
                }
            }
        })
    }
}

/// A line no decoder knows: `x` and lower-case letters, digits, spaces.
fn unrecognised(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    let mut s = word_of(u, b"abcdefghijklmnopqrstuvwxyz0123456789 ", 0, 30)?;
    s.insert(0, 'x');
    Ok(s.into_bytes())
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for ClientMessage<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0..=8)? {
            0 => ClientMessage::KeepAlive,
            1 => ClientMessage::Login {
                name: UserName::arbitrary(u)?,
                password: Password::arbitrary(u)?,
                x1: bool::arbitrary(u)?,
            },
            2 => ClientMessage::Logout,
            3 => ClientMessage::Agree(Option::<GameId<'static>>::arbitrary(u)?),
            4 => ClientMessage::Reject(Option::<GameId<'static>>::arbitrary(u)?),
            5 => ClientMessage::Move {
                mv: csa_move(u)?,
                comment: if bool::arbitrary(u)? {
                    // Any bytes but NUL, CR, LF: not necessarily UTF-8.
                    let mut b = Vec::<u8>::arbitrary(u)?;
                    b.retain(|&c| !matches!(c, 0 | b'\r' | b'\n'));
                    b.truncate(crate::types::MoveComment::MAX_LEN);
                    crate::types::MoveComment::new(b).ok()
                } else {
                    None
                },
            },
            6 => ClientMessage::Special(SpecialMove::arbitrary(u)?),
            7 => ClientMessage::X1(X1Command::arbitrary(u)?),
            _ => ClientMessage::Unrecognised(Cow::Owned(unrecognised(u)?)),
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for WhoEntry<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(WhoEntry {
            name: Word::arbitrary(u)?,
            protocol: Word::arbitrary(u)?,
            status: Word::arbitrary(u)?,
            game: Option::<(Word<'static>, Word<'static>)>::arbitrary(u)?,
        })
    }
}

/// Text that is not `+OK` (which ends a multi-line reply instead).
fn reply_text(u: &mut Unstructured<'_>) -> Result<Text<'static>> {
    let t = Text::arbitrary(u)?;
    Ok(if t.as_str() == "+OK" {
        Text::from_checked("+OK.").into_owned()
    } else {
        t
    })
}

/// A `##[RATING]` line's text: shogi-server's shape
/// (`<name> \t <rate> @<date>`, with its TAB) or any reply text.
fn rating_text(u: &mut Unstructured<'_>) -> Result<RatingText<'static>> {
    let text = if bool::arbitrary(u)? {
        let name = UserName::arbitrary(u)?;
        let rate = i16::arbitrary(u)?;
        alloc::format!("{name} \t {rate:4} @2026-12-01")
    } else {
        reply_text(u)?.as_str().into()
    };
    RatingText::new(text).map_err(|_| arbitrary::Error::IncorrectFormat)
}

const KNOWN_TAGS: [&str; 14] = [
    "LOGIN",
    "WHO",
    "CHAT",
    "LIST",
    "SHOW",
    "MONITOR",
    "MONITOR2",
    "RATING",
    "GETBUOYCOUNT",
    "ERROR",
    "VERSION",
    "HELP",
    "SETBUOY",
    "FORK",
];

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for X1Reply<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0..=13)? {
            0 => X1Reply::LoginOk,
            1 => X1Reply::Ok(Tag::arbitrary(u)?),
            2 => X1Reply::Who(WhoEntry::arbitrary(u)?),
            3 => X1Reply::Chat {
                sender: UserName::arbitrary(u)?,
                text: Text::arbitrary(u)?,
            },
            4 => {
                let id = GameId::arbitrary(u)?;
                X1Reply::List(if id.as_str() == "+OK" {
                    GameId::from_checked("+OK.").into_owned()
                } else {
                    id
                })
            }
            5 => X1Reply::Show(reply_text(u)?),
            6 => X1Reply::Monitor {
                game_id: GameId::arbitrary(u)?,
                line: Text::arbitrary(u)?,
            },
            7 => X1Reply::Monitor2 {
                game_id: GameId::arbitrary(u)?,
                line: Text::arbitrary(u)?,
            },
            8 => X1Reply::Rating(rating_text(u)?),
            9 => X1Reply::BuoyCount(
                u.int_in_range(-999_999_999_999_999_999..=999_999_999_999_999_999)?,
            ),
            10 => X1Reply::Version(reply_text(u)?),
            11 => X1Reply::Help(reply_text(u)?),
            12 => X1Reply::Error(reply_text(u)?),
            _ => {
                let tag = Tag::arbitrary(u)?;
                let tag = if KNOWN_TAGS.contains(&tag.as_str()) {
                    Tag::from_checked("OTHER").into_owned()
                } else {
                    tag
                };
                X1Reply::Other {
                    tag,
                    text: reply_text(u)?,
                }
            }
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for SummaryLine<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        const BLOCK: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_+-";
        Ok(match u.int_in_range(0..=4)? {
            0 => SummaryLine::Begin(Raw(Cow::Owned(word_of(u, BLOCK, 1, 20)?))),
            1 => SummaryLine::End(Raw(Cow::Owned(word_of(u, BLOCK, 1, 20)?))),
            2 => {
                // `K` first: no key may look like another line (`P1`, `LOGIN`).
                let mut key = word_of(u, TAG_BYTES, 0, 20)?;
                key.insert(0, 'K');
                if bool::arbitrary(u)? {
                    key.push(*u.choose(&['+', '-'])?);
                }
                SummaryLine::Field {
                    key: Raw(Cow::Owned(key)),
                    value: Text::arbitrary(u)?,
                }
            }
            3 => {
                let row = *u.choose(b"123456789I+-")?;
                let body: String = graphic(u, 0, 60, b"")?
                    .chars()
                    .map(|c| if c == '!' { ' ' } else { c })
                    .collect();
                let mut line = String::from("P");
                line.push(char::from(row));
                line.push_str(&body);
                SummaryLine::Position(Raw(Cow::Owned(line)))
            }
            _ => SummaryLine::SideToMove(Side::arbitrary(u)?),
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for ServerMessage<'static> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match u.int_in_range(0..=14)? {
            0 => ServerMessage::KeepAlive,
            1 => ServerMessage::LoginOk(UserName::arbitrary(u)?),
            2 => ServerMessage::LoginIncorrect,
            3 => ServerMessage::LoginUsage,
            4 => ServerMessage::AlreadyConnected(UserName::arbitrary(u)?),
            5 => ServerMessage::LogoutCompleted,
            6 => ServerMessage::Summary(SummaryLine::arbitrary(u)?),
            7 => ServerMessage::Start(GameId::arbitrary(u)?),
            8 => ServerMessage::Reject {
                game_id: GameId::arbitrary(u)?,
                by: Text::arbitrary(u)?,
            },
            9 => ServerMessage::Move {
                mv: csa_move(u)?,
                time: Option::<MoveTime>::arbitrary(u)?,
            },
            10 => ServerMessage::Special {
                special: ServerSpecial::arbitrary(u)?,
                time: Option::<MoveTime>::arbitrary(u)?,
            },
            11 => ServerMessage::Reason(EndReason::arbitrary(u)?),
            12 => ServerMessage::GameResult(GameResult::arbitrary(u)?),
            13 => ServerMessage::X1(X1Reply::arbitrary(u)?),
            _ => ServerMessage::Unrecognised(Cow::Owned(unrecognised(u)?)),
        })
    }
}

/// A number a `Game_Summary` reads (at most 18 digits).
fn summary_number(u: &mut Unstructured<'_>) -> Result<Option<u64>> {
    Ok(if bool::arbitrary(u)? {
        Some(u.int_in_range(0..=999_999_999_999_999_999)?)
    } else {
        None
    })
}

/// Unknown `Key:Value` lines: keys start with `K`, so no key is a known one.
fn extra(u: &mut Unstructured<'_>) -> Result<Vec<(FieldKey, Text<'static>)>> {
    let n = u.int_in_range(0..=2)?;
    (0..n)
        .map(|_| {
            let mut key = word_of(u, TAG_BYTES, 0, 12)?;
            key.insert(0, 'K');
            Ok((ok(FieldKey::new(&key))?, Text::arbitrary(u)?))
        })
        .collect()
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for TimeUnit {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(TimeUnit {
            count: u.int_in_range(1..=1000)?,
            base: *u.choose(&[TimeBase::Sec, TimeBase::Min, TimeBase::Msec])?,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for TimeSection {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(TimeSection {
            time_unit: Option::<TimeUnit>::arbitrary(u)?,
            total_time: summary_number(u)?,
            byoyomi: summary_number(u)?,
            increment: summary_number(u)?,
            delay: summary_number(u)?,
            least_time_per_move: summary_number(u)?,
            time_roundup: Option::<bool>::arbitrary(u)?,
            remaining_time_black: summary_number(u)?,
            remaining_time_white: summary_number(u)?,
            last_move: Option::<Text<'static>>::arbitrary(u)?,
            current_turn: summary_number(u)?,
            extra: extra(u)?,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for PositionSection {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut p = PositionSection::default();
        for _ in 0..u.int_in_range(0..=3)? {
            if let SummaryLine::Position(raw) = SummaryLine::arbitrary(u)? {
                ok(p.push_line(raw.as_str()))?;
            }
        }
        p.side_to_move = Option::<Side>::arbitrary(u)?;
        if p.side_to_move.is_some() {
            for _ in 0..u.int_in_range(0..=3)? {
                p.moves
                    .push((csa_move(u)?, Option::<MoveTime>::arbitrary(u)?));
            }
        }
        Ok(p)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'a> Arbitrary<'a> for GameSummary {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let text = |u: &mut Unstructured<'a>| Option::<Text<'static>>::arbitrary(u);
        Ok(GameSummary {
            protocol_version: text(u)?,
            protocol_mode: text(u)?,
            format: text(u)?,
            declaration: text(u)?,
            game_id: Option::<GameId<'static>>::arbitrary(u)?,
            name_black: text(u)?,
            name_white: text(u)?,
            your_turn: Option::<Side>::arbitrary(u)?,
            rematch_on_draw: Option::<bool>::arbitrary(u)?,
            to_move: Option::<Side>::arbitrary(u)?,
            max_moves: summary_number(u)?,
            extra: extra(u)?,
            time: Option::<TimeSection>::arbitrary(u)?,
            time_black: Option::<TimeSection>::arbitrary(u)?,
            time_white: Option::<TimeSection>::arbitrary(u)?,
            position: Option::<PositionSection>::arbitrary(u)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;

    /// `len` bytes of xorshift noise from `seed` (which moves on).
    fn noise(seed: &mut u64, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                *seed as u8
            })
            .collect()
    }

    /// Deterministic inputs: every generated value encodes to a line that
    /// decodes back to it.
    #[test]
    fn generated_values_round_trip() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let (mut clients, mut servers) = (0, 0);
        for _ in 0..3000 {
            let bytes = noise(&mut seed, 256);
            let mut u = Unstructured::new(&bytes);
            if let Ok(m) = ClientMessage::arbitrary(&mut u) {
                let line = m.to_line();
                assert_eq!(decode::<ClientMessage>(&line).as_ref(), Ok(&m), "{m:?}");
                clients += 1;
            }
            let mut u = Unstructured::new(&bytes);
            if let Ok(m) = ServerMessage::arbitrary(&mut u) {
                let line = m.to_line();
                assert_eq!(decode::<ServerMessage>(&line).as_ref(), Ok(&m), "{m:?}");
                servers += 1;
            }
        }
        assert!(clients > 2000 && servers > 2000, "{clients} {servers}");
    }

    #[test]
    fn generated_summaries_round_trip() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut n = 0;
        for _ in 0..500 {
            let bytes = noise(&mut seed, 2048);
            let mut u = Unstructured::new(&bytes);
            if let Ok(s) = GameSummary::arbitrary(&mut u) {
                assert_eq!(GameSummary::parse(&s.to_bytes()).as_ref(), Ok(&s), "{s:?}");
                n += 1;
            }
        }
        assert!(n > 300, "{n}");
    }
}
