//! `arbitrary::Arbitrary` for the validated types (feature `arbitrary`):
//! every generated value is valid, so it encodes and decodes back to itself.

use alloc::borrow::Cow;
use alloc::string::String;

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::message::{BackReq, Captures, GameReq, MAX_MESSAGE_LEN, Move, Unrecognised};
use crate::types::{ChatRule, ChatText, Color, Name, NameRule, Square};
use boardwire_proto::text::{ArbitraryRule, ascii_text};

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'u> Arbitrary<'u> for Square {
    fn arbitrary(u: &mut Unstructured<'u>) -> Result<Square> {
        Ok(Square::new(u.int_in_range(1..=50)?).unwrap_or(Square::MIN_SQUARE))
    }
}

/// 1..=32 printable bytes, no space at either end.
impl ArbitraryRule for NameRule {
    fn arbitrary_text(u: &mut Unstructured<'_>) -> Result<String> {
        ascii_text(u, 1..=Name::MAX_LEN, |u, k, len| {
            let lo = if k == 0 || k == len - 1 { 0x21 } else { 0x20 };
            u.int_in_range(lo..=0x7e)
        })
    }
}

/// 1..=126 bytes in 1..=127.
impl ArbitraryRule for ChatRule {
    fn arbitrary_text(u: &mut Unstructured<'_>) -> Result<String> {
        ascii_text(u, 1..=ChatText::MAX_LEN, |u, _, _| u.int_in_range(1..=0x7f))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'u> Arbitrary<'u> for Captures {
    fn arbitrary(u: &mut Unstructured<'u>) -> Result<Captures> {
        let n = u.int_in_range(0..=Captures::MAX)?;
        let mut out = Captures::EMPTY;
        let mut mask = 0u64;
        for _ in 0..n {
            let sq = Square::arbitrary(u)?;
            if mask & (1 << sq.number()) == 0 {
                mask |= 1 << sq.number();
                out.push_unchecked(sq);
            }
        }
        Ok(out)
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'u> Arbitrary<'u> for Move {
    fn arbitrary(u: &mut Unstructured<'u>) -> Result<Move> {
        Ok(Move {
            time: u.int_in_range(0..=Move::MAX_TIME)?,
            from: Square::arbitrary(u)?,
            to: Square::arbitrary(u)?,
            captured: Captures::arbitrary(u)?,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'u> Arbitrary<'u> for GameReq<'_> {
    fn arbitrary(u: &mut Unstructured<'u>) -> Result<Self> {
        Ok(GameReq {
            version: u.int_in_range(0..=99)?,
            initiator: Name::arbitrary(u)?,
            follower_color: Color::arbitrary(u)?,
            minutes: u.int_in_range(0..=999)?,
            moves: u.int_in_range(0..=999)?,
            position: Arbitrary::arbitrary(u)?,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'u> Arbitrary<'u> for BackReq {
    fn arbitrary(u: &mut Unstructured<'u>) -> Result<BackReq> {
        Ok(BackReq {
            move_number: u.int_in_range(1..=999)?,
            color: Color::arbitrary(u)?,
        })
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "arbitrary")))]
impl<'u> Arbitrary<'u> for Unrecognised<'_> {
    fn arbitrary(u: &mut Unstructured<'u>) -> Result<Self> {
        let len = u.int_in_range(1..=MAX_MESSAGE_LEN)?;
        let mut bytes = alloc::vec::Vec::with_capacity(len);
        // A header byte that is none of the seven, then 7-bit bytes without NUL.
        let mut head = u.int_in_range(1..=0x7fu8)?;
        while crate::error::MessageKind::from_header(head).is_some() {
            head = head % 0x7f + 1;
        }
        bytes.push(head);
        for _ in 1..len {
            bytes.push(u.int_in_range(1..=0x7fu8)?);
        }
        Ok(Unrecognised(Cow::Owned(bytes)))
    }
}
