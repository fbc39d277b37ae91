//! Property tests: every constructible message encodes to at most 127 bytes
//! and decodes back to itself (also through the framer with random
//! chunking); strict decoding of any bytes never panics, and whatever it
//! accepts re-encodes byte-identical.

mod common;

use common::Stream;
use damexchange::wire::*;
use damexchange::*;
use proptest::prelude::*;

fn square() -> impl Strategy<Value = Square> {
    (1u8..=50).prop_map(|n| Square::new(n).unwrap())
}

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

fn name() -> impl Strategy<Value = Name<'static>> {
    "[!-~]([ -~]{0,30}[!-~])?".prop_map(|s| Name::new(s).unwrap())
}

fn chat() -> impl Strategy<Value = Chat<'static>> {
    proptest::collection::vec(1u8..=127, 1..=126).prop_map(|bytes| Chat {
        text: ChatText::new(String::from_utf8(bytes).unwrap()).unwrap(),
    })
}

fn piece() -> impl Strategy<Value = Option<Piece>> {
    prop_oneof![
        Just(None),
        Just(Some(Piece::WHITE_MAN)),
        Just(Some(Piece::BLACK_MAN)),
        Just(Some(Piece::WHITE_KING)),
        Just(Some(Piece::BLACK_KING)),
    ]
}

fn position() -> impl Strategy<Value = StartPosition> {
    prop_oneof![
        Just(StartPosition::Initial),
        (color(), proptest::collection::vec(piece(), 50)).prop_map(|(side_to_move, v)| {
            StartPosition::Setup(Setup {
                side_to_move,
                board: v.try_into().unwrap(),
            })
        }),
    ]
}

fn mv() -> impl Strategy<Value = Move> {
    let caps = proptest::sample::subsequence((1..=50u8).collect::<Vec<_>>(), 0..=20)
        .prop_shuffle()
        .prop_map(|v| {
            v.into_iter()
                .map(|n| Square::new(n).unwrap())
                .collect::<Vec<_>>()
        });
    (0u16..=9999, square(), square(), caps)
        .prop_map(|(t, f, to, caps)| Move::new(t, f, to, &caps).unwrap())
}

fn message() -> impl Strategy<Value = Message<'static>> {
    prop_oneof![
        (
            name(),
            color(),
            0u16..=999,
            0u16..=999,
            position(),
            0u8..=99
        )
            .prop_map(|(n, c, min, moves, p, v)| GameReq::new(n, c, min, moves, p)
                .unwrap()
                .with_version(v)
                .unwrap()
                .into()),
        (name(), 0u8..=3).prop_map(|(follower, c)| GameAcc {
            follower,
            code: AcceptanceCode::from_code(c).unwrap()
        }
        .into()),
        mv().prop_map(Message::from),
        (0u8..=3, 0u8..=1).prop_map(|(r, s)| GameEnd {
            reason: GameEndReason::from_code(r).unwrap(),
            stop: StopCode::from_code(s).unwrap()
        }
        .into()),
        chat().prop_map(Message::from),
        (1u16..=999, color()).prop_map(|(n, c)| BackReq::new(n, c).unwrap().into()),
        (0u8..=2).prop_map(|c| BackAcc {
            code: BackAccCode::from_code(c).unwrap()
        }
        .into()),
        // A frame of an unknown kind: any header byte but the seven.
        (
            (1u8..=0x7f).prop_filter("not a known header", |&h| MessageKind::from_header(h)
                .is_none()),
            proptest::collection::vec(1u8..=0x7f, 0..=126)
        )
            .prop_map(|(h, rest)| {
                let mut bytes = vec![h];
                bytes.extend(rest);
                Unrecognised::new(bytes).unwrap().into()
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn value_bytes_value(msg in message()) {
        let enc = msg.encoded();
        prop_assert!(!enc.as_bytes().is_empty() && enc.as_bytes().len() <= MAX_MESSAGE_LEN);
        prop_assert!(!enc.as_bytes().contains(&0));
        prop_assert_eq!(enc.as_bytes().len(), msg.encoded_len());
        let back: Message = decode(enc.as_bytes()).unwrap();
        prop_assert_eq!(&back, &msg);
        prop_assert_eq!(back.into_owned(), msg.clone());
        // The lenient decoder agrees on valid input.
        prop_assert_eq!(decode_with::<Message>(enc.as_bytes(), &Leniency::ALL).unwrap(), msg);
    }

    /// The family's `Display` contract: `Display` is the wire form without
    /// the NUL, so the text decodes back to the message, for every kind
    /// (unrecognised frames too); `describe()` is words, never the wire.
    #[test]
    fn display_is_the_wire_form(msg in message()) {
        let text = msg.to_string();
        let encoded = msg.encoded();
        prop_assert_eq!(text.as_bytes(), encoded.as_bytes());
        let back: Message = decode(text.as_bytes()).unwrap();
        prop_assert_eq!(&back, &msg);
        let words = msg.describe().to_string();
        prop_assert!(words.starts_with(msg.kind().name()), "{} does not name its kind", words);
    }

    #[test]
    fn stream_through_framer(
        msgs in proptest::collection::vec(message(), 1..20),
        cuts in proptest::collection::vec(1usize..64, 1..50),
    ) {
        let mut stream = Vec::new();
        for m in &msgs {
            m.encode(&mut stream);
        }
        let mut framer = Stream::new();
        let mut got = Vec::new();
        let (mut pos, mut k) = (0, 0);
        while pos < stream.len() {
            let n = cuts[k % cuts.len()].min(stream.len() - pos);
            k += 1;
            for frame in framer.feed(&stream[pos..pos + n]) {
                got.push(decode::<Message>(&frame.unwrap()).unwrap().into_owned());
            }
            pos += n;
        }
        prop_assert_eq!(got, msgs);
        prop_assert_eq!(framer.rest(), b"");
    }

    #[test]
    fn strict_accepts_only_canonical_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..130)) {
        if let Ok(msg) = decode::<Message>(&bytes) {
            let enc = msg.encoded();
            prop_assert_eq!(enc.as_bytes(), &bytes[..]);
        }
        let _ = decode_with::<Message>(&bytes, &Leniency::ALL);
    }

    #[test]
    fn mutated_messages(msg in message(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = msg.encoded().as_bytes().to_vec();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        match decode::<Message>(&bytes) {
            Ok(m) => {
                let enc = m.encoded();
                prop_assert_eq!(enc.as_bytes(), &bytes[..]);
            }
            Err(e) => prop_assert!(e.offset <= bytes.len()),
        }
        if let Ok(m) = decode_with::<Message>(&bytes, &Leniency::ALL) {
            // Whatever the lenient decoder accepts is a valid value.
            let enc = m.encoded();
            prop_assert_eq!(decode::<Message>(enc.as_bytes()).unwrap(), m);
        }
    }
}
