//! The recorded conversations with Scan 3.1, Scan 2.0 and pydraughts
//! (`tests/data/dxp-scan-follower.txt`): every valid message decodes and
//! re-encodes byte-identical, every malformed one yields the typed error that
//! names its fault, fed through the framer in the recorded chunks.

mod common;

use common::{Dir, conversations, messages};
use damexchange::*;

/// The malformed messages the recording contains, and their faults.
fn expected_fault(wire: &[u8]) -> Option<DecodeError> {
    match wire {
        // "scan malformed 3: unknown header X"
        b"Xhello" => Some(DecodeError::UnknownHeader { byte: b'X' }),
        // "scan malformed 4: truncated MOVE": ends before the number captured.
        b"M00003228" => Some(DecodeError::Truncated {
            message: MessageKind::Move,
            field: Field::CaptureCount,
            offset: 9,
            len: 9,
        }),
        // "scan extra 10: follower colour B (non-standard)".
        b"R01PyTester                        B005000A" => Some(DecodeError::Invalid {
            message: MessageKind::GameReq,
            field: Field::FollowerColor,
            offset: 35,
            byte: b'B',
            expected: Expected::ColorLetter,
        }),
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
        let mut framers = [Framer::new(), Framer::new()];
        for chunk in &conv.chunks {
            let framer = &mut framers[(chunk.dir == Dir::Follower) as usize];
            let expected = messages(chunk);
            let mut input = &chunk.bytes[..];
            let mut k = 0;
            while let Some(item) = framer.next_frame(&mut input) {
                let frame = item.expect("no frame in the recording is over-long");
                assert_eq!(frame, expected[k]);
                k += 1;
                match (decode(frame), expected_fault(frame)) {
                    (Ok(msg), None) => {
                        assert_eq!(msg.encode().as_bytes(), frame, "{}", conv.title);
                        assert_eq!(decode(msg.encode().as_bytes()).unwrap(), msg);
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
        for mut f in framers {
            assert_eq!(f.finish(), None);
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
    let mut framer = Framer::new();
    let mut input = &chunk.bytes[..];
    let mut kinds = Vec::new();
    while let Some(m) = framer.next_message(&mut input) {
        kinds.push(m.unwrap().kind());
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
