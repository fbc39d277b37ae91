//! Decoding one line: [`decode::<Reply>(line)`](decode),
//! [`decode::<Command>(line)`](decode), and [`decode_with`] for a
//! [`Leniency`] other than [`Leniency::STRICT`]. Built on the parsers in
//! [`parse`]; zero-copy, no heap allocation.
//!
//! The line is one frame from the [`Framer`](crate::framer::Framer), its
//! terminator removed; trailing CRs and blanks at either end are tolerated.
//! A line of an unknown kind is `Ok(Reply::Unrecognised(..))` /
//! `Ok(Command::Unrecognised(..))`; a known kind with a bad field is an
//! `Err(DecodeError)` naming the kind, the field and the 0-based byte
//! offset.
//!
//! ```
//! use novag_citrine::decode::{Leniency, decode, decode_with};
//! use novag_citrine::message::{Command, Reply};
//!
//! let Reply::Move(m) = decode(b"M   7,  c5xd4")? else { panic!() };
//! assert_eq!((m.number.get(), m.black, m.text.to_string()), (7, true, "c5xd4".into()));
//! assert_eq!(decode::<Command>(b"me2e4")?.to_string(), "M e2e4");
//! assert!(matches!(decode::<Reply>(b"Hello")?, Reply::Unrecognised(_)));
//!
//! // The protocol document's spellings need a leniency.
//! assert!(decode::<Reply>(b"ID.UCBII VI.09").is_err());
//! assert!(matches!(
//!     decode_with::<Reply>(b"ID.UCBII VI.09", &Leniency::DOCUMENT)?,
//!     Reply::Identity { .. }
//! ));
//! # Ok::<(), novag_citrine::error::DecodeError>(())
//! ```

use crate::error::{DecodeError, Field, MessageKind, Problem};
use crate::message::{Command, HostMove, Reply};
use crate::parse;
use crate::types::Promotion;

/// What the decoder accepts beyond the strict grammar: one field per
/// spelling a real source uses (httparse's `ParserConfig` shape).
/// [`Leniency::STRICT`] is the default.
///
/// Part of the grammar, not a leniency ([`spec::citrine`](crate::spec::citrine)):
/// - runs of spaces or tabs between fields (*Link*: "fields are padded with
///   runs of spaces or tabs");
/// - the trailing ` |` of move lines: the protocol document prints it and
///   captured device logs sometimes lack it (*Move text the Citrine
///   prints*); both are authoritative, and [`MoveLine::bar`] records which
///   was seen, so the line encodes back as it came;
/// - game-list moves with and without piece letters (`Ng1-f3` in the
///   document, `g1-f3` in captured output; *Commands (host -> device) and replies (device -> host)*, `G`):
///   [`NormalMove::piece`] records it;
/// - commands in either case (*Link*: "Commands are case-insensitive").
///
/// [`MoveLine::bar`]: crate::message::MoveLine::bar
/// [`NormalMove::piece`]: crate::types::NormalMove::piece
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Leniency {
    /// Accept `ID.UCBII VI.09`, the identity line as Novag's 2008 "Citrine
    /// to PC Communication Protocol" document prints it (no blank after
    /// `ID.`); real devices print `ID. UCBII V1.09` ([`spec::citrine`](crate::spec::citrine),
    /// *Commands (host -> device) and replies (device -> host)*, `I`).
    pub document_identity: bool,
    /// Accept `t 2 g8-f6`, the take-back line as Novag's 2008 document
    /// prints it (lower-case `t`; a black move without the comma); device
    /// logs print `T   1,  e7-e5` ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and replies (device -> host)*, `T`).
    /// The session then takes the colour from the game when the comma is
    /// missing.
    pub document_take_back: bool,
}

impl Leniency {
    /// The grammar as real devices print it; nothing else.
    pub const STRICT: Leniency = Leniency {
        document_identity: false,
        document_take_back: false,
    };
    /// Also the protocol document's spellings (every field on): what the
    /// host [`Driver`](crate::session::Driver) uses by default, since a
    /// device whose firmware follows the document may exist.
    pub const DOCUMENT: Leniency = Leniency {
        document_identity: true,
        document_take_back: true,
    };
}

/// A message type that decodes from one frame: the family's one trait,
/// implemented here by [`Command`] and [`Reply`] with [`Leniency`] and
/// [`DecodeError`].
pub use boardwire_proto::decode::Decode;
/// Decodes one frame: strictly ([`Leniency::STRICT`], `decode`) or with a
/// leniency (`decode_with`); [`DecodeError`] for a frame of a known kind
/// with a malformed field.
pub use boardwire_proto::decode::{decode, decode_with};

impl boardwire_proto::decode::Strict for Leniency {
    const STRICT: Leniency = Leniency::STRICT;
}

impl<'a> Decode<'a> for Reply<'a> {
    type Leniency = Leniency;
    type Error = DecodeError;

    fn decode_with(frame: &'a [u8], leniency: &Leniency) -> Result<Self, DecodeError> {
        whole(
            frame,
            MessageKind::Reply,
            parse::reply_with(frame, leniency),
        )
    }
}

impl<'a> Decode<'a> for Command<'a> {
    type Leniency = Leniency;
    type Error = DecodeError;

    fn decode_with(frame: &'a [u8], _leniency: &Leniency) -> Result<Self, DecodeError> {
        // The lines a host writes (what `Command::encode` writes) are read
        // straight off their bytes; every other spelling, and every fault,
        // goes through the nom parser, which names it. Both give the same
        // command for every line the first accepts (tested:
        // `fast_commands_agree_with_the_parser`).
        if let Some(c) = command_fast(frame) {
            return Ok(c);
        }
        whole(frame, MessageKind::Command, parse::command(frame))
    }
}

/// A command in the form [`Command::encode`] writes it, for the commands
/// a host sends all game long: one upper-case letter of a command without
/// fields, `M e2e4` and `M e7e8/Q` (lower-case squares), `X ON`, `X OFF`;
/// `None` for anything else, valid or not.
#[inline(always)]
fn command_fast(frame: &[u8]) -> Option<Command<'static>> {
    let square = |file: u8, rank: u8| {
        if (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank) {
            crate::vocab::square(file - b'a', rank - b'1')
        } else {
            None
        }
    };
    Some(match *frame {
        [b'C'] => Command::Clock,
        [b'F'] => Command::Flip,
        [b'G'] => Command::Game,
        [b'I'] => Command::Identity,
        [b'J'] => Command::EngineMove,
        [b'L'] => Command::ShowLevel,
        [b'N'] => Command::NewGame,
        [b'O'] => Command::Origin,
        [b'P'] => Command::ShowPosition,
        [b'T'] => Command::TakeBack,
        [b'M', b' ', f1, r1, f2, r2, ref promotion @ ..] => {
            let promotion = match *promotion {
                [] => None,
                [b'/', p @ (b'Q' | b'R' | b'B' | b'N')] => Promotion::from_letter(p),
                _ => return None,
            };
            Command::Move(HostMove {
                from: square(f1, r1)?,
                to: square(f2, r2)?,
                promotion,
            })
        }
        [b'X', b' ', b'O', b'N'] => Command::Xmit(Some(true)),
        [b'X', b' ', b'O', b'F', b'F'] => Command::Xmit(Some(false)),
        _ => return None,
    })
}

/// A line parser's result over the whole `frame`, a line of kind `kind`: a
/// [`DecodeError`] on failure.
fn whole<'a, T>(
    frame: &'a [u8],
    kind: MessageKind,
    parsed: parse::ParseResult<'a, T>,
) -> Result<T, DecodeError> {
    match parsed {
        Ok((_, v)) => Ok(v),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(e.into_decode_error(frame)),
        // Complete parsers never ask for more input.
        Err(nom::Err::Incomplete(_)) => Err(DecodeError::new(
            kind,
            Field::Keyword,
            frame.len(),
            Problem::Missing,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The bytes of command lines: the letters, squares and words the
    /// fast path reads, in both cases, and bytes around them.
    fn command_byte() -> impl Strategy<Value = u8> {
        prop_oneof![
            8 => proptest::sample::select(
                b"CFGIJLMNOPTUXcmx ONFF/QRBNqrbn-abgh1289\t".to_vec()
            ),
            1 => any::<u8>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Every line the fast path reads decodes to the same command
        /// through the nom parser (the grammar of spec/citrine.md,
        /// *Commands (host -> device) and replies (device -> host)*).
        #[test]
        fn fast_commands_agree_with_the_parser(
            line in proptest::collection::vec(command_byte(), 0..9),
        ) {
            if let Some(fast) = command_fast(&line) {
                let parsed = whole(&line, MessageKind::Command, parse::command(&line));
                prop_assert_eq!(Ok(fast), parsed, "{:?}", line);
            }
        }

        /// Every move a host sends, in the form the encoder writes it.
        #[test]
        fn fast_moves_agree_with_the_parser(
            from in 0u8..64, to in 0u8..64,
            promotion in proptest::option::of(proptest::sample::select(b"QRBN".to_vec())),
        ) {
            let mut line: Vec<u8> = alloc::vec![
                b'M', b' ',
                b'a' + from % 8, b'1' + from / 8, b'a' + to % 8, b'1' + to / 8,
            ];
            if let Some(p) = promotion {
                line.extend([b'/', p]);
            }
            let fast = command_fast(&line);
            prop_assert!(fast.is_some());
            let parsed = whole(&line, MessageKind::Command, parse::command(&line));
            prop_assert_eq!(Ok(fast.unwrap()), parsed);
        }
    }

    /// The host's game-long commands as spec/citrine.md spells them (`C`,
    /// `N`, `M e2e4`, `X ON`, `M e7e8/N`) are read by the fast path.
    #[test]
    fn the_encoders_lines_take_the_fast_path() {
        use crate::vocab::Square;
        let letters = [
            (&b"C"[..], Command::Clock),
            (b"F", Command::Flip),
            (b"G", Command::Game),
            (b"I", Command::Identity),
            (b"J", Command::EngineMove),
            (b"L", Command::ShowLevel),
            (b"N", Command::NewGame),
            (b"O", Command::Origin),
            (b"P", Command::ShowPosition),
            (b"T", Command::TakeBack),
            (b"X ON", Command::Xmit(Some(true))),
            (b"X OFF", Command::Xmit(Some(false))),
        ];
        for (line, command) in letters {
            assert_eq!(command_fast(line), Some(command), "{line:?}");
        }
        assert_eq!(
            command_fast(b"M e2e4"),
            Some(Command::Move(HostMove {
                from: Square::E2,
                to: Square::E4,
                promotion: None
            }))
        );
        assert_eq!(
            command_fast(b"M e7e8/N"),
            Some(Command::Move(HostMove {
                from: Square::E7,
                to: Square::E8,
                promotion: Some(Promotion::Knight)
            }))
        );
        // Other spellings are the parser's.
        for line in [
            &b"c"[..],
            b"M E2E4",
            b"Me2e4",
            b"M e2-e4",
            b"M e7e8N",
            b"X on",
            b"M i2e4",
            b"M e9e4",
        ] {
            assert_eq!(command_fast(line), None, "{line:?}");
        }
    }
}
