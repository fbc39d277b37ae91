//! Known-answer tests from the spec's own examples, typed errors for
//! malformed input, leniency options, and the framer.

use damexchange::*;

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

/// decode -> expected value -> encode (byte-identical) -> decode (equal).
fn known_answer(wire: &[u8], expected: Message<'_>) {
    let decoded = decode(wire).unwrap_or_else(|e| panic!("{}: {e}", String::from_utf8_lossy(wire)));
    assert_eq!(decoded, expected);
    let encoded = decoded.encode();
    assert_eq!(encoded.as_bytes(), wire);
    assert_eq!(encoded.as_frame(), [wire, b"\0"].concat());
    assert_eq!(decoded.encoded_len(), wire.len());
    assert_eq!(decode(encoded.as_bytes()).unwrap(), expected);
    assert_eq!(expected.encode().as_bytes(), wire);
}

#[test]
fn spec_example_gamereq() {
    // Spec, GAMEREQ: "R01Tornado voor Windows 4.0        W060065A":
    // version 01, follower plays White, 60 minutes for 65 moves, start position.
    known_answer(
        b"R01Tornado voor Windows 4.0        W060065A",
        GameReq::new(
            Name::new("Tornado voor Windows 4.0").unwrap(),
            Color::White,
            60,
            65,
            StartPosition::Initial,
        )
        .unwrap()
        .into(),
    );
}

#[test]
fn spec_example_gameacc() {
    known_answer(
        b"ATornado voor Windows 4.0        0",
        GameAcc {
            follower: Name::new("Tornado voor Windows 4.0").unwrap(),
            code: AcceptanceCode::Accepted,
        }
        .into(),
    );
}

#[test]
fn spec_example_quiet_move() {
    // "M0012061100": 6-11 after 12 seconds.
    known_answer(
        b"M0012061100",
        Move::new(12, sq(6), sq(11), &[]).unwrap().into(),
    );
}

#[test]
fn spec_example_capture() {
    // "M001205250422122320": 5x25 taking the pieces on 22, 12, 23 and 20.
    let m = Move::new(12, sq(5), sq(25), &[sq(22), sq(12), sq(23), sq(20)]).unwrap();
    known_answer(b"M001205250422122320", m.into());
    // The captured list is a set: the order is kept on the wire, and the mask
    // compares as a set.
    let other = Move::new(12, sq(5), sq(25), &[sq(12), sq(20), sq(22), sq(23)]).unwrap();
    assert_ne!(m, other);
    assert_eq!(m.captured().mask(), other.captured().mask());
    assert_eq!(
        m.captured().mask(),
        (1 << 22) | (1 << 12) | (1 << 23) | (1 << 20)
    );
}

#[test]
fn spec_example_gameend() {
    known_answer(
        b"E00",
        GameEnd {
            reason: GameEndReason::Unknown,
            stop: StopCode::PlayOn,
        }
        .into(),
    );
    known_answer(
        b"E21",
        GameEnd {
            reason: GameEndReason::Draw,
            stop: StopCode::NoMoreGames,
        }
        .into(),
    );
}

#[test]
fn spec_example_backreq() {
    // "B005Z": back to move 5, Black to move.
    known_answer(b"B005Z", BackReq::new(5, Color::Black).unwrap().into());
    known_answer(b"B999W", BackReq::new(999, Color::White).unwrap().into());
}

#[test]
fn spec_example_backacc() {
    known_answer(
        b"K1",
        BackAcc {
            code: BackAccCode::NotSupported,
        }
        .into(),
    );
    known_answer(
        b"K0",
        BackAcc {
            code: BackAccCode::Accepted,
        }
        .into(),
    );
    known_answer(
        b"K2",
        BackAcc {
            code: BackAccCode::Continue,
        }
        .into(),
    );
}

#[test]
fn spec_example_chat() {
    known_answer(
        b"CWhat do you think about move 35?",
        Chat {
            text: ChatText::new("What do you think about move 35?").unwrap(),
        }
        .into(),
    );
}

#[test]
fn gameacc_codes() {
    for (code, expected) in [
        (b'0', AcceptanceCode::Accepted),
        (b'1', AcceptanceCode::VersionMismatch),
        (b'2', AcceptanceCode::NotThisGame),
        (b'3', AcceptanceCode::NoGames),
    ] {
        let mut wire = b"AScan 3.1                        ".to_vec();
        wire.push(code);
        known_answer(
            &wire,
            GameAcc {
                follower: Name::new("Scan 3.1").unwrap(),
                code: expected,
            }
            .into(),
        );
    }
}

#[test]
fn gamereq_setup_position() {
    // As pydraughts sends it (recorded): the start position written out.
    let wire = b"R01DXP Client                      Z005000BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    assert_eq!(wire.len(), GameReq::LEN_SETUP);
    known_answer(
        wire,
        GameReq::new(
            Name::new("DXP Client").unwrap(),
            Color::Black,
            5,
            0,
            StartPosition::Setup(Setup::initial()),
        )
        .unwrap()
        .into(),
    );
    // Kings and Black to move: square 1 white king, 50 black king.
    let mut board = [None; 50];
    board[0] = Some(Piece::WHITE_KING);
    board[49] = Some(Piece::BLACK_KING);
    board[27] = Some(Piece::BLACK_MAN);
    let mut wire = b"R01X                               W999999BZW".to_vec();
    wire.extend(std::iter::repeat_n(b'e', 48));
    wire.push(b'Z');
    wire[44 + 27] = b'z';
    known_answer(
        &wire,
        GameReq::new(
            Name::new("X").unwrap(),
            Color::White,
            999,
            999,
            StartPosition::Setup(Setup {
                side_to_move: Color::Black,
                board,
            }),
        )
        .unwrap()
        .into(),
    );
}

#[test]
fn longest_move_and_chat() {
    let caps: Vec<Square> = (21..=40).map(sq).collect();
    let m: Message<'_> = Move::new(9999, sq(50), sq(50), &caps).unwrap().into();
    let e = m.encode();
    assert_eq!(e.as_bytes().len(), Move::MAX_LEN);
    assert_eq!(decode(e.as_bytes()).unwrap(), m);
    let text = "x".repeat(126);
    let c: Message<'_> = Chat {
        text: ChatText::new(text.as_str()).unwrap(),
    }
    .into();
    assert_eq!(c.encode().as_bytes().len(), MAX_MESSAGE_LEN);
    assert_eq!(decode(c.encode().as_bytes()).unwrap(), c);
}

#[test]
fn constructors_validate() {
    assert!(Name::new("").is_err());
    assert!(Name::new("a ").is_err());
    assert!(Name::new("a\tb").is_err());
    assert!(Name::new("x".repeat(32)).is_ok());
    assert!(ChatText::new("x".repeat(127)).is_err());
    assert!(ChatText::new("a\0b").is_err());
    assert!(Move::new(10_000, sq(1), sq(2), &[]).is_err());
    let caps: Vec<Square> = (1..=21).map(sq).collect();
    assert_eq!(
        Move::new(0, sq(1), sq(2), &caps),
        Err(ValueError::TooManyCaptures { count: 21 })
    );
    assert_eq!(
        Move::new(0, sq(1), sq(2), &[sq(7), sq(7)]),
        Err(ValueError::DuplicateCapture { square: 7 })
    );
    assert!(BackReq::new(0, Color::White).is_err());
    assert!(BackReq::new(1000, Color::White).is_err());
    let n = Name::new("n").unwrap();
    assert!(GameReq::new(n.clone(), Color::White, 1000, 0, StartPosition::Initial).is_err());
    assert!(GameReq::new(n.clone(), Color::White, 0, 1000, StartPosition::Initial).is_err());
    let req = GameReq::new(n, Color::White, 1, 0, StartPosition::Initial).unwrap();
    assert!(req.clone().with_version(100).is_err());
    assert_eq!(
        Message::from(req.with_version(2).unwrap()).to_string(),
        "R02n                               W001000A"
    );
}

/// Each malformed message yields the error naming its fault.
#[test]
fn typed_errors() {
    use DecodeError as E;
    use MessageKind as K;
    let cases: Vec<(&[u8], DecodeError, &str)> = vec![
        (b"", E::Empty, "empty message at offset 0"),
        (
            b"Xhello",
            E::UnknownHeader { byte: b'X' },
            "unknown message header 'X' at offset 0",
        ),
        (
            b"M00003228",
            E::Truncated {
                message: K::Move,
                field: Field::CaptureCount,
                offset: 9,
                len: 9,
            },
            "MOVE: truncated: number captured at offset 9 is cut off (message has 9 bytes)",
        ),
        (
            b"M001205250322",
            E::CaptureCount {
                count: 3,
                following_bytes: 2,
                offset: 11,
            },
            "MOVE: number captured 03 but 1 square follows at offset 11",
        ),
        (
            b"M00120525032212",
            E::CaptureCount {
                count: 3,
                following_bytes: 4,
                offset: 11,
            },
            "MOVE: number captured 03 but 2 squares follow at offset 11",
        ),
        (
            b"M0012061100x",
            E::CaptureCount {
                count: 0,
                following_bytes: 1,
                offset: 11,
            },
            "MOVE: number captured 00 but 1 bytes (an odd number) follow at offset 11",
        ),
        (
            b"M0012511100",
            E::OutOfRange {
                message: K::Move,
                field: Field::From,
                offset: 5,
                value: 51,
                min: 1,
                max: 50,
            },
            "MOVE: from square 51 out of range 1..=50 at offset 5",
        ),
        (
            b"M0012060000",
            E::OutOfRange {
                message: K::Move,
                field: Field::To,
                offset: 7,
                value: 0,
                min: 1,
                max: 50,
            },
            "MOVE: to square 0 out of range 1..=50 at offset 7",
        ),
        (
            b"M00a2061100",
            E::Invalid {
                message: K::Move,
                field: Field::Time,
                offset: 3,
                byte: b'a',
                expected: Expected::Digit,
            },
            "MOVE: time: expected a digit 0-9, found 'a' at offset 3",
        ),
        (
            b"M001206112100",
            E::OutOfRange {
                message: K::Move,
                field: Field::CaptureCount,
                offset: 9,
                value: 21,
                min: 0,
                max: 20,
            },
            "MOVE: number captured 21 out of range 0..=20 at offset 9",
        ),
        (
            b"M00120611022222",
            E::DuplicateCapture {
                square: 22,
                offset: 13,
            },
            "MOVE: captured square 22 listed twice at offset 13",
        ),
        (
            b"M00120611025522",
            E::OutOfRange {
                message: K::Move,
                field: Field::Captured,
                offset: 11,
                value: 55,
                min: 1,
                max: 50,
            },
            "MOVE: captured square 55 out of range 1..=50 at offset 11",
        ),
        (
            b"R01PyTester                        B005000A",
            E::Invalid {
                message: K::GameReq,
                field: Field::FollowerColor,
                offset: 35,
                byte: b'B',
                expected: Expected::ColorLetter,
            },
            "GAMEREQ: follower's colour: expected W or Z, found 'B' at offset 35",
        ),
        (
            b"R01 PyTester                       Z005000A",
            E::LeadingSpace {
                message: K::GameReq,
                field: Field::InitiatorName,
                offset: 3,
            },
            "GAMEREQ: initiator name starts with a space at offset 3",
        ),
        (
            b"R01PyTester                        Z005000C",
            E::Invalid {
                message: K::GameReq,
                field: Field::StartingPosition,
                offset: 42,
                byte: b'C',
                expected: Expected::PositionLetter,
            },
            "GAMEREQ: starting position: expected A or B, found 'C' at offset 42",
        ),
        (
            b"R01PyTester                        Z005000AW",
            E::TrailingBytes {
                message: K::GameReq,
                offset: 43,
                count: 1,
            },
            "GAMEREQ: 1 unexpected byte(s) after the message at offset 43",
        ),
        (
            b"R01PyTester                        Z005000BWzzzzzzzzzxzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            E::Invalid {
                message: K::GameReq,
                field: Field::Board,
                offset: 53,
                byte: b'x',
                expected: Expected::BoardLetter,
            },
            "GAMEREQ: board: expected one of e w z W Z, found 'x' at offset 53",
        ),
        (
            b"R01PyTester                        Z005000BWzzzz",
            E::Truncated {
                message: K::GameReq,
                field: Field::Board,
                offset: 44,
                len: 48,
            },
            "GAMEREQ: truncated: board at offset 44 is cut off (message has 48 bytes)",
        ),
        (
            b"R01PyTe\x01ter                        Z005000A",
            E::Invalid {
                message: K::GameReq,
                field: Field::InitiatorName,
                offset: 7,
                byte: 1,
                expected: Expected::Printable,
            },
            "GAMEREQ: initiator name: expected printable ASCII, found 0x01 at offset 7",
        ),
        (
            b"AScan 3.1                        4",
            E::Invalid {
                message: K::GameAcc,
                field: Field::AcceptanceCode,
                offset: 33,
                byte: b'4',
                expected: Expected::Code { max: 3 },
            },
            "GAMEACC: acceptance code: expected a code 0-3, found '4' at offset 33",
        ),
        (
            b"AScan 3.10",
            E::Truncated {
                message: K::GameAcc,
                field: Field::FollowerName,
                offset: 1,
                len: 10,
            },
            "GAMEACC: truncated: follower name at offset 1 is cut off (message has 10 bytes)",
        ),
        (
            b"E40",
            E::Invalid {
                message: K::GameEnd,
                field: Field::Reason,
                offset: 1,
                byte: b'4',
                expected: Expected::Code { max: 3 },
            },
            "GAMEEND: reason: expected a code 0-3, found '4' at offset 1",
        ),
        (
            b"E02",
            E::Invalid {
                message: K::GameEnd,
                field: Field::StopCode,
                offset: 2,
                byte: b'2',
                expected: Expected::Code { max: 1 },
            },
            "GAMEEND: stop code: expected a code 0-1, found '2' at offset 2",
        ),
        (
            b"E00 ",
            E::TrailingBytes {
                message: K::GameEnd,
                offset: 3,
                count: 1,
            },
            "GAMEEND: 1 unexpected byte(s) after the message at offset 3",
        ),
        (
            b"C",
            E::Truncated {
                message: K::Chat,
                field: Field::Text,
                offset: 1,
                len: 1,
            },
            "CHAT: truncated: text at offset 1 is cut off (message has 1 bytes)",
        ),
        (
            b"Cna\xefve",
            E::Invalid {
                message: K::Chat,
                field: Field::Text,
                offset: 3,
                byte: 0xef,
                expected: Expected::SevenBit,
            },
            "CHAT: text: expected 7-bit text without NUL, found 0xEF at offset 3",
        ),
        (
            b"B000W",
            E::OutOfRange {
                message: K::BackReq,
                field: Field::MoveNumber,
                offset: 1,
                value: 0,
                min: 1,
                max: 999,
            },
            "BACKREQ: move number 0 out of range 1..=999 at offset 1",
        ),
        (
            b"B005z",
            E::Invalid {
                message: K::BackReq,
                field: Field::Color,
                offset: 4,
                byte: b'z',
                expected: Expected::ColorLetter,
            },
            "BACKREQ: colour: expected W or Z, found 'z' at offset 4",
        ),
        (
            b"K3",
            E::Invalid {
                message: K::BackAcc,
                field: Field::BackAccCode,
                offset: 1,
                byte: b'3',
                expected: Expected::Code { max: 2 },
            },
            "BACKACC: acceptance code: expected a code 0-2, found '3' at offset 1",
        ),
        (
            b"K",
            E::Truncated {
                message: K::BackAcc,
                field: Field::BackAccCode,
                offset: 1,
                len: 1,
            },
            "BACKACC: truncated: acceptance code at offset 1 is cut off (message has 1 bytes)",
        ),
    ];
    for (wire, expected, text) in cases {
        let err = decode(wire).expect_err(&String::from_utf8_lossy(wire));
        assert_eq!(err, expected, "{}", String::from_utf8_lossy(wire));
        assert_eq!(err.to_string(), text);
        assert_eq!(err.offset(), expected.offset());
    }
    // 128 bytes of chat do not fit a message.
    let mut long = b"C".to_vec();
    long.extend([b'x'; 127]);
    assert_eq!(
        decode(&long),
        Err(DecodeError::TrailingBytes {
            message: MessageKind::Chat,
            offset: 127,
            count: 1
        })
    );
}

#[test]
fn leniency_options() {
    let strict = Leniency::STRICT;
    assert_eq!(Leniency::default(), strict);
    let with = |f: fn(&mut Leniency)| {
        let mut l = Leniency::STRICT;
        f(&mut l);
        l
    };

    // Lower-case colour letters.
    let lower = with(|l| l.lowercase_colors = true);
    let wire = b"R01PyTester                        z005000A";
    assert!(decode_with(wire, &strict).is_err());
    let Message::GameReq(req) = decode_with(wire, &lower).unwrap() else {
        panic!()
    };
    assert_eq!(req.follower_color(), Color::Black);
    let Message::BackReq(b) = decode_with(b"B005z", &lower).unwrap() else {
        panic!()
    };
    assert_eq!(b.color(), Color::Black);
    // Board letters keep their case meaning (w = man, W = king).
    let Message::GameReq(req) = decode_with(
        b"R01DXP Client                      Z005000BwWzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
        &lower,
    )
    .unwrap() else {
        panic!()
    };
    let StartPosition::Setup(setup) = req.position() else {
        panic!()
    };
    assert_eq!(setup.side_to_move, Color::White);
    assert_eq!(setup.board[0], Some(Piece::WHITE_KING));

    // `B` for black (Scan 3.1 aborts on it: transcript "scan extra 10").
    let b = with(|l| l.b_for_black = true);
    let wire = b"R01PyTester                        B005000A";
    let Message::GameReq(req) = decode_with(wire, &b).unwrap() else {
        panic!()
    };
    assert_eq!(req.follower_color(), Color::Black);

    // Trailing blanks.
    let blanks = with(|l| l.trailing_blanks = true);
    assert_eq!(
        decode_with(b"M0012061100 \r\n", &blanks).unwrap(),
        decode(b"M0012061100").unwrap()
    );
    // ... but never in chat text.
    let Message::Chat(c) = decode_with(b"Chi  ", &blanks).unwrap() else {
        panic!()
    };
    assert_eq!(c.text.as_str(), "hi  ");

    // Short, unpadded names.
    let short = with(|l| l.short_names = true);
    assert!(decode_with(b"AScan0", &strict).is_err());
    let Message::GameAcc(acc) = decode_with(b"AScan0", &short).unwrap() else {
        panic!()
    };
    assert_eq!(acc.follower.as_str(), "Scan");
    assert_eq!(acc.code, AcceptanceCode::Accepted);
    let Message::GameReq(req) = decode_with(b"R01PyTesterZ005000A", &short).unwrap() else {
        panic!()
    };
    assert_eq!(req.initiator().as_str(), "PyTester");
    assert_eq!(req.follower_color(), Color::Black);
    assert_eq!(req.minutes(), 5);
    let setup_wire = b"R01DXPZ005000BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    let Message::GameReq(req) = decode_with(setup_wire, &short).unwrap() else {
        panic!()
    };
    assert_eq!(req.initiator().as_str(), "DXP");
    assert_eq!(*req.position(), StartPosition::Setup(Setup::initial()));
    // Re-encoding pads the name: the strict form.
    assert_eq!(
        Message::GameReq(req).to_string(),
        "R01DXP                             Z005000BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
    );

    // Extra bytes after a valid message.
    let extra = with(|l| l.extra_bytes = true);
    assert_eq!(
        decode_with(b"M0012061100junk", &extra).unwrap(),
        decode(b"M0012061100").unwrap()
    );
    assert_eq!(
        decode_with(b"E00x", &extra).unwrap(),
        decode(b"E00").unwrap()
    );
    // A count that promises more than follows is still an error.
    assert!(matches!(
        decode_with(b"M001205250322", &extra),
        Err(DecodeError::CaptureCount { .. })
    ));

    // Everything at once.
    assert!(decode_with(b"AScan0  ", &Leniency::ALL).is_ok());
}

#[test]
fn framer_splits_merges_and_resyncs() {
    let stream: Vec<u8> = [
        &b"AScan 3.1                        0\0M0000342900\0"[..],
        b"Xhello\0",
        &[b'C'; 200],
        b"\0",
        b"\0",
        b"E01\0",
    ]
    .concat();
    // Expected items: two messages, unknown header, too long, empty, GAMEEND.
    let check = |items: &[Result<String, FrameError>]| {
        assert_eq!(items.len(), 6, "{items:?}");
        assert_eq!(
            items[0].as_deref(),
            Ok("AScan 3.1                        0")
        );
        assert_eq!(items[1].as_deref(), Ok("M0000342900"));
        assert_eq!(
            items[2],
            Err(FrameError::Decode {
                stream_offset: 47,
                error: DecodeError::UnknownHeader { byte: b'X' }
            })
        );
        assert_eq!(items[3], Err(FrameError::TooLong { stream_offset: 54 }));
        assert_eq!(
            items[4],
            Err(FrameError::Decode {
                stream_offset: 255,
                error: DecodeError::Empty
            })
        );
        assert_eq!(items[5].as_deref(), Ok("E01"));
    };
    // Every chunk size from 1 byte to the whole stream.
    for chunk in 1..=stream.len() {
        let mut framer = Framer::new();
        let mut items = Vec::new();
        for part in stream.chunks(chunk) {
            let mut input = part;
            while let Some(item) = framer.next_message(&mut input) {
                items.push(item.map(|m| m.to_string()));
            }
            assert!(input.is_empty());
            assert!(framer.buffered() <= MAX_MESSAGE_LEN);
        }
        check(&items);
        assert_eq!(framer.position(), stream.len() as u64);
        assert_eq!(framer.finish(), None);
    }
}

#[test]
fn framer_limits() {
    // Exactly 127 bytes is a frame; 128 is too long, reported at once.
    let mut framer = Framer::new();
    let chat = [&b"C"[..], &[b'x'; 126]].concat();
    let mut input = &chat[..];
    assert!(framer.next_frame(&mut input).is_none());
    assert_eq!(framer.buffered(), 127);
    let mut input = &b"\0"[..];
    assert_eq!(framer.next_frame(&mut input).unwrap().unwrap().len(), 127);

    let mut input = &[b'y'; 128][..];
    assert_eq!(
        framer.next_frame(&mut input),
        Some(Err(FrameError::TooLong { stream_offset: 128 }))
    );
    assert!(framer.is_discarding());
    let mut input = &b"yyyy\0K1\0"[..];
    assert_eq!(framer.next_frame(&mut input), Some(Ok(&b"K1"[..])));
    assert!(!framer.is_discarding());

    // End of stream inside a frame.
    let mut input = &b"M00"[..];
    assert!(framer.next_frame(&mut input).is_none());
    assert_eq!(
        framer.finish(),
        Some(FrameError::Unterminated {
            stream_offset: 264,
            len: 3
        })
    );
}

#[test]
fn framer_leniency() {
    let mut framer = Framer::with_leniency(Leniency::ALL);
    let mut input = &b"E00 \0"[..];
    assert!(framer.next_message(&mut input).unwrap().is_ok());
}

/// Found by the `dxp_decode` fuzz target: with short names allowed, a
/// message whose layout read from the end leaves more than 32 bytes for the
/// name must not yield an over-long name.
#[test]
fn short_names_never_exceed_32_bytes() {
    let wire = b"R9010100000B942/2z694W202049420/ WW1WWB942/2z694W20204942\
0/ WW1WW101060A";
    let mut l = Leniency::STRICT;
    l.short_names = true;
    if let Ok(Message::GameReq(req)) = decode_with(wire, &l) {
        assert!(req.initiator().as_str().len() <= 32);
    }
    assert!(decode_with(wire, &Leniency::ALL).is_err());
}
