//! Known-answer tests from the spec's own examples, typed errors for
//! malformed input, leniency options, and the framer.

use damexchange::wire::*;
use damexchange::*;

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

/// decode(bytes) == value, value encodes to bytes (and decodes back).
fn known_answer(bytes: &[u8], value: Message<'_>) {
    let decoded: Message =
        decode(bytes).unwrap_or_else(|e| panic!("{}: {e}", String::from_utf8_lossy(bytes)));
    assert_eq!(decoded, value);
    let encoded = value.encoded();
    assert_eq!(encoded.as_bytes(), bytes);
    assert_eq!(value.to_bytes(), [bytes, b"\0"].concat());
    let mut out = b"x".to_vec();
    value.encode(&mut out);
    assert_eq!(out, [b"x", bytes, b"\0"].concat());
    assert_eq!(value.encoded_len(), bytes.len());
    assert_eq!(decode::<Message>(encoded.as_bytes()).unwrap(), value);
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
    let e = m.encoded();
    assert_eq!(e.as_bytes().len(), Move::MAX_LEN);
    assert_eq!(decode::<Message>(e.as_bytes()).unwrap(), m);
    let text = "x".repeat(126);
    let c: Message<'_> = Chat {
        text: ChatText::new(text.as_str()).unwrap(),
    }
    .into();
    assert_eq!(c.encoded().as_bytes().len(), MAX_MESSAGE_LEN);
    assert_eq!(decode::<Message>(c.encoded().as_bytes()).unwrap(), c);
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
        Message::from(req.with_version(2).unwrap())
            .encoded()
            .as_str(),
        "R02n                               W001000A"
    );
}

/// Each malformed message yields the error naming its fault. The offsets
/// come from the field layout of spec/damexchange.md, *Messages*: the
/// first bad byte, or, for a field the message ends before, the frame's
/// length.
#[test]
fn typed_errors() {
    use MessageKind as K;
    use Problem as P;
    let cases: Vec<(&[u8], DecodeError, &str)> = vec![
        (
            b"",
            DecodeError::new(K::Unrecognised, Field::Header, 0, P::Empty),
            "unrecognised message header at byte 0: empty",
        ),
        (
            b"M00003228",
            // Number captured is offset 9..11; the frame ends at 9.
            DecodeError::new(K::Move, Field::CaptureCount, 9, P::Missing),
            "MOVE number captured at byte 9: missing",
        ),
        (
            b"M000032281",
            // Number captured cut off after one digit: ends at 10.
            DecodeError::new(K::Move, Field::CaptureCount, 10, P::Missing),
            "MOVE number captured at byte 10: missing",
        ),
        (
            b"M0000",
            // From square is offset 5..7; the frame ends at 5.
            DecodeError::new(K::Move, Field::From, 5, P::Missing),
            "MOVE from square at byte 5: missing",
        ),
        (
            b"M001205250322",
            // 3 squares from offset 11; the second would start at 13, the end.
            DecodeError::new(K::Move, Field::Captured, 13, P::CaptureCount { count: 3, following_bytes: 2 }),
            "MOVE captured square at byte 13: 03 captured but 1 square follows",
        ),
        (
            b"M00120525032212",
            // The third square would start at 11 + 2 * 2 = 15, the end.
            DecodeError::new(K::Move, Field::Captured, 15, P::CaptureCount { count: 3, following_bytes: 4 }),
            "MOVE captured square at byte 15: 03 captured but 2 squares follow",
        ),
        (
            b"M00120525012212",
            // One square announced (11..13); the extra square starts at 13.
            DecodeError::new(K::Move, Field::Captured, 13, P::CaptureCount { count: 1, following_bytes: 4 }),
            "MOVE captured square at byte 13: 01 captured but 2 squares follow",
        ),
        (
            b"M00120611001",
            // No square announced; a digit at 11 is one byte too many.
            DecodeError::new(K::Move, Field::Captured, 11, P::CaptureCount { count: 0, following_bytes: 1 }),
            "MOVE captured square at byte 11: 00 captured but 1 byte (an odd number) follows",
        ),
        (
            b"M0012061100x",
            // 'x' (offset 11) is no square digit at all.
            DecodeError::new(K::Move, Field::Captured, 11, P::Invalid { byte: b'x', expected: Expected::Digit }),
            "MOVE captured square at byte 11: expected a digit 0-9, found 'x'",
        ),
        (
            // The error names the bad byte where it is, not "00 captured but
            // 1 square follows".
            b"M0000322800xx",
            DecodeError::new(K::Move, Field::Captured, 11, P::Invalid { byte: b'x', expected: Expected::Digit }),
            "MOVE captured square at byte 11: expected a digit 0-9, found 'x'",
        ),
        (
            // The error names the bad byte where it is: 0xFF (offset 3, in the time field 1..5) is
            // outside 1..=127, named before the cut-off time field.
            b"M\x01\x02\xff",
            DecodeError::new(K::Move, Field::Time, 3, P::Invalid { byte: 0xff, expected: Expected::SevenBit }),
            "MOVE time at byte 3: expected a 7-bit byte 1..=127, found 0xFF",
        ),
        (
            // A NUL byte is outside 1..=127 too (board, offset 44 + 3).
            b"R01PyTester                        Z005000BWzzz\0zzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            DecodeError::new(K::GameReq, Field::Board, 47, P::Invalid { byte: 0, expected: Expected::SevenBit }),
            "GAMEREQ board at byte 47: expected a 7-bit byte 1..=127, found 0x00",
        ),
        (
            b"M0012511100",
            DecodeError::new(K::Move, Field::From, 5, P::OutOfRange { value: 51, min: 1, max: 50 }),
            "MOVE from square at byte 5: 51 out of range 1..=50",
        ),
        (
            b"M0012060000",
            DecodeError::new(K::Move, Field::To, 7, P::OutOfRange { value: 0, min: 1, max: 50 }),
            "MOVE to square at byte 7: 0 out of range 1..=50",
        ),
        (
            b"M00a2061100",
            DecodeError::new(K::Move, Field::Time, 3, P::Invalid { byte: b'a', expected: Expected::Digit }),
            "MOVE time at byte 3: expected a digit 0-9, found 'a'",
        ),
        (
            b"M001206112100",
            DecodeError::new(K::Move, Field::CaptureCount, 9, P::OutOfRange { value: 21, min: 0, max: 20 }),
            "MOVE number captured at byte 9: 21 out of range 0..=20",
        ),
        (
            b"M00120611022222",
            DecodeError::new(K::Move, Field::Captured, 13, P::DuplicateCapture { square: 22 }),
            "MOVE captured square at byte 13: square 22 listed twice",
        ),
        (
            b"M00120611025522",
            DecodeError::new(K::Move, Field::Captured, 11, P::OutOfRange { value: 55, min: 1, max: 50 }),
            "MOVE captured square at byte 11: 55 out of range 1..=50",
        ),
        (
            b"R01PyTester                        B005000A",
            DecodeError::new(K::GameReq, Field::FollowerColor, 35, P::Invalid { byte: b'B', expected: Expected::ColorLetter }),
            "GAMEREQ follower's colour at byte 35: expected W or Z, found 'B'",
        ),
        (
            b"R01 PyTester                       Z005000A",
            DecodeError::new(K::GameReq, Field::InitiatorName, 3, P::LeadingSpace),
            "GAMEREQ initiator name at byte 3: starts with a space",
        ),
        (
            b"R01PyTester                        Z005000C",
            DecodeError::new(K::GameReq, Field::StartingPosition, 42, P::Invalid { byte: b'C', expected: Expected::PositionLetter }),
            "GAMEREQ starting position at byte 42: expected A or B, found 'C'",
        ),
        (
            b"R01PyTester                        Z005000AW",
            // The message ends after the position letter (offset 42).
            DecodeError::new(K::GameReq, Field::Trailing, 43, P::Trailing { count: 1 }),
            "GAMEREQ end of message at byte 43: 1 unexpected byte at the end",
        ),
        (
            b"R01PyTester                        Z005000BWzzzzzzzzzxzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            DecodeError::new(K::GameReq, Field::Board, 53, P::Invalid { byte: b'x', expected: Expected::BoardLetter }),
            "GAMEREQ board at byte 53: expected one of e w z W Z, found 'x'",
        ),
        (
            b"R01PyTester                        Z005000BWzzzz",
            // Board is offset 44..94; the frame ends at 48.
            DecodeError::new(K::GameReq, Field::Board, 48, P::Missing),
            "GAMEREQ board at byte 48: missing",
        ),
        (
            b"R01PyTester                        Z005000B",
            // Side to move is offset 43; the frame ends there.
            DecodeError::new(K::GameReq, Field::SideToMove, 43, P::Missing),
            "GAMEREQ side to move at byte 43: missing",
        ),
        (
            b"R01PyTe\x01ter                        Z005000A",
            DecodeError::new(K::GameReq, Field::InitiatorName, 7, P::Invalid { byte: 1, expected: Expected::Printable }),
            "GAMEREQ initiator name at byte 7: expected printable ASCII, found 0x01",
        ),
        (
            b"AScan 3.1                        4",
            DecodeError::new(K::GameAcc, Field::AcceptanceCode, 33, P::Invalid { byte: b'4', expected: Expected::Code { max: 3 } }),
            "GAMEACC acceptance code at byte 33: expected a code 0-3, found '4'",
        ),
        (
            b"AScan 3.10",
            // Follower name is offset 1..33; the frame ends at 10.
            DecodeError::new(K::GameAcc, Field::FollowerName, 10, P::Missing),
            "GAMEACC follower name at byte 10: missing",
        ),
        (
            b"E40",
            DecodeError::new(K::GameEnd, Field::Reason, 1, P::Invalid { byte: b'4', expected: Expected::Code { max: 3 } }),
            "GAMEEND reason at byte 1: expected a code 0-3, found '4'",
        ),
        (
            b"E02",
            DecodeError::new(K::GameEnd, Field::StopCode, 2, P::Invalid { byte: b'2', expected: Expected::Code { max: 1 } }),
            "GAMEEND stop code at byte 2: expected a code 0-1, found '2'",
        ),
        (
            b"E00 ",
            DecodeError::new(K::GameEnd, Field::Trailing, 3, P::Trailing { count: 1 }),
            "GAMEEND end of message at byte 3: 1 unexpected byte at the end",
        ),
        (
            b"E0",
            // Stop code is offset 2; the frame ends there.
            DecodeError::new(K::GameEnd, Field::StopCode, 2, P::Missing),
            "GAMEEND stop code at byte 2: missing",
        ),
        (
            b"C",
            DecodeError::new(K::Chat, Field::Text, 1, P::Missing),
            "CHAT text at byte 1: missing",
        ),
        (
            b"Cna\xefve",
            DecodeError::new(K::Chat, Field::Text, 3, P::Invalid { byte: 0xef, expected: Expected::SevenBit }),
            "CHAT text at byte 3: expected a 7-bit byte 1..=127, found 0xEF",
        ),
        (
            b"B000W",
            DecodeError::new(K::BackReq, Field::MoveNumber, 1, P::OutOfRange { value: 0, min: 1, max: 999 }),
            "BACKREQ move number at byte 1: 0 out of range 1..=999",
        ),
        (
            b"B005z",
            DecodeError::new(K::BackReq, Field::Color, 4, P::Invalid { byte: b'z', expected: Expected::ColorLetter }),
            "BACKREQ colour at byte 4: expected W or Z, found 'z'",
        ),
        (
            b"K3",
            DecodeError::new(K::BackAcc, Field::BackAccCode, 1, P::Invalid { byte: b'3', expected: Expected::Code { max: 2 } }),
            "BACKACC acceptance code at byte 1: expected a code 0-2, found '3'",
        ),
        (
            b"K",
            DecodeError::new(K::BackAcc, Field::BackAccCode, 1, P::Missing),
            "BACKACC acceptance code at byte 1: missing",
        ),
        (
            b"B01",
            // Move number is offset 1..4; the frame ends at 3.
            DecodeError::new(K::BackReq, Field::MoveNumber, 3, P::Missing),
            "BACKREQ move number at byte 3: missing",
        ),
    ];
    for (wire, expected, text) in cases {
        let err = decode::<Message>(wire).expect_err(&String::from_utf8_lossy(wire));
        assert_eq!(err, expected, "{}", String::from_utf8_lossy(wire));
        assert_eq!(err.to_string(), text);
    }
    // 128 bytes of chat do not fit a message.
    let mut long = b"C".to_vec();
    long.extend([b'x'; 127]);
    assert_eq!(
        decode::<Message>(&long),
        Err(DecodeError::new(
            MessageKind::Chat,
            Field::Trailing,
            127,
            Problem::Trailing { count: 1 }
        ))
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
    assert!(decode_with::<Message>(wire, &strict).is_err());
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
        decode_with::<Message>(b"M0012061100 \r\n", &blanks).unwrap(),
        decode::<Message>(b"M0012061100").unwrap()
    );
    // ... but never in chat text.
    let Message::Chat(c) = decode_with(b"Chi  ", &blanks).unwrap() else {
        panic!()
    };
    assert_eq!(c.text.as_str(), "hi  ");

    // Short, unpadded names.
    let short = with(|l| l.short_names = true);
    assert!(decode_with::<Message>(b"AScan0", &strict).is_err());
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
        Message::GameReq(req).encoded().as_str(),
        "R01DXP                             Z005000BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
    );

    // Extra bytes after a valid message.
    let extra = with(|l| l.extra_bytes = true);
    assert_eq!(
        decode_with::<Message>(b"M0012061100junk", &extra).unwrap(),
        decode::<Message>(b"M0012061100").unwrap()
    );
    assert_eq!(
        decode_with::<Message>(b"E00x", &extra).unwrap(),
        decode::<Message>(b"E00").unwrap()
    );
    // A count that promises more than follows is still an error.
    assert!(matches!(
        decode_with::<Message>(b"M001205250322", &extra),
        Err(DecodeError {
            problem: Problem::CaptureCount { .. },
            ..
        })
    ));

    // Everything at once.
    assert!(decode_with::<Message>(b"AScan0  ", &Leniency::ALL).is_ok());
}

/// Runs `stream` through a [`Framer`] in `chunk`-byte reads over a
/// caller-owned buffer; returns each frame decoded, or the framing error.
fn framed(stream: &[u8], chunk: usize, leniency: &Leniency) -> Vec<Result<String, FrameError>> {
    let mut framer = Framer::default();
    let mut buf = Vec::new();
    let mut items = Vec::new();
    for part in stream.chunks(chunk) {
        buf.extend_from_slice(part);
        loop {
            let consumed = match framer.decode(&buf) {
                framer::Status::Complete { frame, consumed } => {
                    items.push(
                        decode_with::<Message>(frame, leniency)
                            .map(|m| m.encoded().as_str().to_string())
                            .map_err(FrameError::Malformed),
                    );
                    consumed
                }
                framer::Status::Partial { consumed } => consumed,
                framer::Status::Overlong { len, consumed } => {
                    items.push(Err(FrameError::Overlong { len, max: 127 }));
                    consumed
                }
            };
            buf.drain(..consumed);
            if consumed == 0 {
                break;
            }
        }
        assert!(buf.len() <= MAX_MESSAGE_LEN + 1, "buffer capped");
    }
    items
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
    // Every chunk size from 1 byte to the whole stream.
    for chunk in 1..=stream.len() {
        let items = framed(&stream, chunk, &Leniency::STRICT);
        // Two messages, an unrecognised one, too long, empty, GAMEEND.
        assert_eq!(items.len(), 6, "{items:?}");
        assert_eq!(
            items[0].as_deref(),
            Ok("AScan 3.1                        0")
        );
        assert_eq!(items[1].as_deref(), Ok("M0000342900"));
        assert_eq!(items[2].as_deref(), Ok("Xhello"));
        // Reported as soon as more than 127 bytes have arrived.
        assert!(
            matches!(
                items[3],
                Err(FrameError::Overlong {
                    len: 128..=200,
                    max: 127
                })
            ),
            "chunk {chunk}: {items:?}"
        );
        assert_eq!(
            items[4],
            Err(FrameError::Malformed(DecodeError::new(
                MessageKind::Unrecognised,
                Field::Header,
                0,
                Problem::Empty
            )))
        );
        assert_eq!(items[5].as_deref(), Ok("E01"));
    }
    let Ok(Message::Unrecognised(u)) = decode(b"Xhello") else {
        panic!()
    };
    assert_eq!(u.as_bytes(), b"Xhello");
}

#[test]
fn framer_limits() {
    // Exactly 127 bytes is a frame; 128 is too long, reported at once.
    let mut framer = Framer::default();
    let mut chat = [&b"C"[..], &[b'x'; 126]].concat();
    assert_eq!(
        framer.decode(&chat),
        framer::Status::Partial { consumed: 0 }
    );
    chat.push(0);
    assert!(matches!(
        framer.decode(&chat),
        framer::Status::Complete { frame, consumed: 128 } if frame.len() == 127
    ));
    assert_eq!(
        framer.decode(&[b'y'; 128]),
        framer::Status::Overlong {
            len: 128,
            consumed: 128
        }
    );
    assert!(framer.is_discarding());
    assert_eq!(
        framer.decode(b"yyyy\0K1\0"),
        framer::Status::Partial { consumed: 5 }
    );
    assert!(!framer.is_discarding());
    assert_eq!(
        framer.decode(b"K1\0"),
        framer::Status::Complete {
            frame: b"K1",
            consumed: 3
        }
    );
    // A smaller cap.
    let mut small = Framer::new(3);
    assert_eq!(
        small.decode(b"E000\0"),
        framer::Status::Overlong {
            len: 4,
            consumed: 5
        }
    );
}

#[test]
fn framer_leniency() {
    let items = framed(b"E00 \0", 5, &Leniency::ALL);
    assert_eq!(items[0].as_deref(), Ok("E00"));
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
    assert!(decode_with::<Message>(wire, &Leniency::ALL).is_err());
}

/// The newcomer's report: "for an overlong DXP frame the error's byte
/// offset is off by one". A frame over the cap is skipped whole; its
/// stream offset is its first byte whether its NUL arrives in the read that
/// passes the cap or later.
#[test]
fn overlong_frame_offsets() {
    let stream = [&[b'X'; 200][..], b"\0K1\0"].concat();
    for read in [1, 64, 127, 128, 200, 201, stream.len()] {
        let mut decoder = stream::StreamDecoder::new(Leniency::STRICT);
        let mut got = Vec::new();
        for part in stream.chunks(read) {
            decoder
                .feed(part, |at, item| {
                    got.push((at, item.is_ok()));
                    Ok::<(), ()>(())
                })
                .unwrap();
        }
        assert_eq!(got, [(0, false), (201, true)], "{read}-byte reads");
    }
    // Decoding a frame over the cap (the framer never hands one out):
    // the first byte past the cap, as CSA and Citrine name a field too long.
    let err = decode::<Message>(&[b'X'; 128]).unwrap_err();
    assert_eq!(
        (err.field, err.offset, err.problem),
        (
            Field::Trailing,
            127,
            Problem::TooLong { len: 128, max: 127 }
        )
    );
}
