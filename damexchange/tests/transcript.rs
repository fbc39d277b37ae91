//! The recorded conversations with Scan 3.1, Scan 2.0 and pydraughts
//! (`boardwire_vectors::data::DXP_SCAN_FOLLOWER`): every valid message decodes and
//! re-encodes byte-identical, every malformed one yields the typed error that
//! names its fault, fed through the framer in the recorded chunks.

mod common;

use common::{Dir, Stream, conversations, messages};
use damexchange::wire::*;
use damexchange::*;

/// The malformed messages the recording contains, and their faults.
fn expected_fault(wire: &[u8]) -> Option<DecodeError> {
    match wire {
        // "scan malformed 4: truncated MOVE": ends before the number captured.
        b"M00003228" => Some(DecodeError::new(
            MessageKind::Move,
            Field::CaptureCount,
            9,
            Problem::Missing,
        )),
        // "scan extra 10: follower colour B (non-standard)".
        b"R01PyTester                        B005000A" => Some(DecodeError::new(
            MessageKind::GameReq,
            Field::FollowerColor,
            35,
            Problem::Invalid {
                byte: b'B',
                expected: Expected::ColorLetter,
            },
        )),
        _ => None,
    }
}

#[test]
fn every_recorded_message_decodes_or_names_its_fault() {
    let convs = conversations(common::SCAN_TRANSCRIPT);
    assert_eq!(convs.len(), 16, "conversations in the recording");
    let (mut valid, mut faults) = (0, 0);
    for conv in &convs {
        // One framer per direction, fed the recorded recv() chunks.
        let mut framers = [Stream::new(), Stream::new()];
        for chunk in &conv.chunks {
            let framer = &mut framers[(chunk.dir == Dir::Follower) as usize];
            let expected = messages(chunk);
            let mut k = 0;
            for item in framer.feed(&chunk.bytes) {
                let frame = &item.expect("no frame in the recording is over-long")[..];
                assert_eq!(frame, expected[k]);
                k += 1;
                match (decode::<Message>(frame), expected_fault(frame)) {
                    // "scan malformed 3: unknown header X": a frame of an
                    // unknown kind, kept as received.
                    (Ok(Message::Unrecognised(u)), None) if frame == b"Xhello" => {
                        assert_eq!(u.as_bytes(), frame);
                        faults += 1;
                    }
                    (Ok(msg), None) => {
                        assert_eq!(msg.encoded().as_bytes(), frame, "{}", conv.title);
                        assert_eq!(decode::<Message>(msg.encoded().as_bytes()).unwrap(), msg);
                        valid += 1;
                    }
                    (Err(e), Some(fault)) => {
                        assert_eq!(e, fault, "{}", conv.title);
                        faults += 1;
                    }
                    (got, want) => panic!(
                        "{}: {:?}: got {got:?}, expected fault {want:?}",
                        conv.title,
                        String::from_utf8_lossy(frame)
                    ),
                }
            }
            assert_eq!(k, expected.len(), "{}", conv.title);
        }
        for f in framers {
            assert_eq!(f.rest(), b"");
        }
    }
    assert_eq!(faults, 3);
    assert!(valid > 100, "{valid}");
}

/// Two messages in one recv (GAMEACC then MOVE) split correctly.
#[test]
fn merged_gameacc_and_first_move() {
    let convs = conversations(common::SCAN_TRANSCRIPT);
    let conv = convs
        .iter()
        .find(|c| c.title.starts_with("scan extra 8"))
        .unwrap();
    let chunk = &conv.chunks[1];
    let mut kinds = Vec::new();
    for frame in Stream::new().feed(&chunk.bytes) {
        kinds.push(decode::<Message>(&frame.unwrap()).unwrap().kind());
    }
    assert_eq!(kinds, [MessageKind::GameAcc, MessageKind::Move]);
}

/// The recording's own field listing of Scan's GAMEREQ.
#[test]
fn scan_gamereq_fields() {
    // "GAMEREQ fields: version=01 name='Scan 3.1                        '
    //  follower_colour=Z time=001 moves=020 pos=A"
    let Message::GameReq(req) = decode(b"R01Scan 3.1                        Z001020A").unwrap()
    else {
        panic!()
    };
    assert_eq!(req.version(), 1);
    assert_eq!(req.initiator().as_str(), "Scan 3.1");
    assert_eq!(req.follower_color(), Color::Black);
    assert_eq!((req.minutes(), req.moves()), (1, 20));
    assert_eq!(*req.position(), StartPosition::Initial);
}

/// The MOVE messages agree with the move lists the recording's comments give
/// in PDN (`32-27`, `18x29`): from and to squares, and capture or not.
#[test]
fn moves_match_recorded_move_lists() {
    let convs = conversations(common::SCAN_TRANSCRIPT);
    let mut checked = 0;
    for conv in convs.iter().filter(|c| !c.moves.is_empty()) {
        let mut moves = Vec::new();
        for chunk in &conv.chunks {
            for wire in messages(chunk) {
                if let Ok(Message::Move(m)) = decode(wire) {
                    moves.push(m);
                }
            }
        }
        // In the scan-initiator game Scan's last MOVE (33x11) crossed our
        // GAMEEND on the wire; the recording's list stops before it.
        let crossed = usize::from(conv.title.starts_with("scan-initiator"));
        assert_eq!(moves.len(), conv.moves.len() + crossed, "{}", conv.title);
        for (m, pdn) in moves.iter().zip(&conv.moves) {
            let capture = pdn.contains('x');
            let (from, to) = pdn.split_once(['-', 'x']).unwrap();
            assert_eq!(m.from().number(), from.parse::<u8>().unwrap(), "{pdn}");
            assert_eq!(m.to().number(), to.parse::<u8>().unwrap(), "{pdn}");
            assert_eq!(!m.captured().is_empty(), capture, "{pdn}");
            checked += 1;
        }
    }
    assert_eq!(checked, 20 + 8 + 12);
}
