//! Decodes every line of the recorded shogi-server conversation
//! (`boardwire_vectors::data::CSA_SHOGI_SERVER`): each line yields a message, an
//! "unrecognised line" value or a typed error — never a panic — and every
//! decoded line re-encodes to the bytes it came from.

use csa_protocol::decode::decode;
use csa_protocol::error::{DecodeError, Expected, Field, MessageKind, Problem};
use csa_protocol::message::{ClientMessage, ServerMessage};

mod common;
use common::{Dir, lines as parse};

fn err(message: MessageKind, field: Field, offset: usize, problem: Problem) -> DecodeError {
    DecodeError::new(message, field, offset, problem)
}

#[test]
fn every_transcript_line_decodes_and_round_trips() {
    let lines = parse();
    assert_eq!(lines.len(), 871, "transcript lines (EOF markers excluded)");
    let mut client_ok = 0;
    let mut server_ok = 0;
    let mut client_bad = Vec::new();
    for (who, dir, line) in &lines {
        match dir {
            Dir::Sent => match decode::<ClientMessage>(line) {
                Ok(ClientMessage::Unrecognised(b)) => {
                    assert_eq!(&*b, &line[..]);
                    client_bad.push((String::from_utf8_lossy(line).into_owned(), None));
                }
                Ok(m) => {
                    assert_eq!(m.to_line(), *line, "{who}: client line round trip");
                    assert_eq!(decode::<ClientMessage>(&m.to_line()).unwrap(), m);
                    client_ok += 1;
                }
                Err(e) => client_bad.push((String::from_utf8_lossy(line).into_owned(), Some(e))),
            },
            Dir::Received => {
                let m = decode::<ServerMessage>(line)
                    .unwrap_or_else(|e| panic!("{who}: {:?}: {e}", String::from_utf8_lossy(line)));
                assert!(
                    !matches!(m, ServerMessage::Unrecognised(_)),
                    "{who}: every server line in the transcript is a known kind: {:?}",
                    String::from_utf8_lossy(line)
                );
                assert_eq!(m.to_line(), *line, "{who}: server line round trip");
                server_ok += 1;
            }
        }
    }
    // The malformed client lines of the transcript, each with the reason.
    let expected: Vec<(String, Option<DecodeError>)> = vec![
        (
            "%%SETBUOY buoy_bad-300-0 +7776XX 1".into(),
            Some(err(MessageKind::SetBuoy, Field::Moves, 30, Problem::UnknownPiece { code: *b"XX" })),
        ),
        (
            "+7776XX".into(),
            Some(err(MessageKind::Move, Field::Move, 5, Problem::UnknownPiece { code: *b"XX" })),
        ),
        (
            "%%GAME testgame5-300-0".into(),
            Some(err(MessageKind::Game, Field::Side, 22, Problem::Missing)),
        ),
        ("HELLO".into(), None),
        ("yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...<70000 chars total>".into(), None),
        ("LOGIN".into(), Some(err(MessageKind::Login, Field::Name, 5, Problem::Missing))),
        ("LOGIN mal1".into(), Some(err(MessageKind::Login, Field::Password, 10, Problem::Missing))),
        ("LOGIN mal1 pass x1 extra".into(), Some(err(MessageKind::Login, Field::Trailing, 18, Problem::Trailing { count: 6 }))),
        ("LOGIN mal1 pass x2".into(), Some(err(MessageKind::Login, Field::Mode, 17, Problem::Invalid { byte: b'2', expected: Expected::X1 }))),
        ("login mal1 pass".into(), None),
        ("LOGIN bad/name pass".into(), Some(err(MessageKind::Login, Field::Name, 9, Problem::Invalid { byte: b'/', expected: Expected::NameByte }))),
        (
            "LOGIN nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn pass x1".into(),
            Some(err(MessageKind::Login, Field::Name, 38, Problem::TooLong { len: 40, max: 32 })),
        ),
        (
            // (shortened in the transcript file: the `<` of the marker is the first bad byte)
            "LOGIN zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...<100011 chars total>".into(),
            Some(err(MessageKind::Login, Field::Name, 83, Problem::Invalid { byte: b'<', expected: Expected::NameByte })),
        ),
    ];
    assert_eq!(client_bad, expected);
    assert_eq!(client_ok, 92);
    assert_eq!(server_ok, 766);
}
