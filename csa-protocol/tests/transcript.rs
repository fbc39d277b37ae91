//! Decodes every line of the recorded shogi-server conversation
//! (`tests/data/csa-shogi-server-x1-and-csa-mode.txt`, copied from
//! `shared/vectors/transcripts/`): each line yields a message, an
//! "unrecognised line" value or a typed error — never a panic — and every
//! decoded line re-encodes to the bytes it came from.

use board_core::shogi::ParseCsaMoveError;
use csa_protocol::{
    ClientMessage, DecodeError, Problem, ServerMessage, decode_client_line, decode_server_line,
};

mod transcript_lines {
    /// Direction of a transcript line.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Dir {
        /// `>>`: the client sent it.
        Sent,
        /// `<<`: the client received it.
        Received,
    }

    /// `(who, dir, line bytes)` for every `>>`/`<<` line; repr'd byte lines
    /// (`b'LOGIN lena pass x1\r\n'`) are unescaped and framed (CRLF removed).
    pub fn parse(text: &str) -> Vec<(String, Dir, Vec<u8>)> {
        let mut out = Vec::new();
        for raw in text.lines() {
            if !raw.starts_with('[') {
                continue;
            }
            let Some(close) = raw.find("] ") else {
                continue;
            };
            let rest = &raw[close + 2..];
            let (who, rest) = rest.split_at(rest.find(' ').unwrap());
            let rest = rest.trim_start();
            let (dir, line) = if let Some(l) = rest.strip_prefix(">> ") {
                (Dir::Sent, l)
            } else if rest == ">>" {
                (Dir::Sent, "")
            } else if let Some(l) = rest.strip_prefix("<< ") {
                (Dir::Received, l)
            } else if rest == "<<" {
                (Dir::Received, "")
            } else {
                continue; // `-- (client closed socket)`
            };
            if line.starts_with("<EOF") {
                continue;
            }
            let bytes = if let Some(r) = line.strip_prefix("b'").and_then(|l| l.strip_suffix('\''))
            {
                let s = r.replace("\\r", "\r").replace("\\n", "\n");
                let s = s.strip_suffix('\n').unwrap_or(&s);
                let s = s.strip_suffix('\r').unwrap_or(s);
                s.as_bytes().to_vec()
            } else {
                line.as_bytes().to_vec()
            };
            out.push((who.to_string(), dir, bytes));
        }
        out
    }
}

use transcript_lines::{Dir, parse};

const TRANSCRIPT: &str = include_str!("data/csa-shogi-server-x1-and-csa-mode.txt");

fn err(line: &'static str, field: &'static str, column: usize, problem: Problem) -> DecodeError {
    let mut e = decode_client_line(b"LOGIN").unwrap_err();
    e.line = line;
    e.field = field;
    e.column = column;
    e.problem = problem;
    e
}

#[test]
fn every_transcript_line_decodes_and_round_trips() {
    let lines = parse(TRANSCRIPT);
    assert_eq!(lines.len(), 871, "transcript lines (EOF markers excluded)");
    let mut client_ok = 0;
    let mut server_ok = 0;
    let mut client_bad = Vec::new();
    for (who, dir, line) in &lines {
        match dir {
            Dir::Sent => match decode_client_line(line) {
                Ok(ClientMessage::Unrecognised(b)) => {
                    assert_eq!(&*b, &line[..]);
                    client_bad.push((String::from_utf8_lossy(line).into_owned(), None));
                }
                Ok(m) => {
                    assert_eq!(m.to_line(), *line, "{who}: client line round trip");
                    assert_eq!(decode_client_line(&m.to_line()).unwrap(), m);
                    client_ok += 1;
                }
                Err(e) => client_bad.push((String::from_utf8_lossy(line).into_owned(), Some(e))),
            },
            Dir::Received => {
                let m = decode_server_line(line)
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
            Some(err("%%SETBUOY", "moves", 31, Problem::CsaMove(ParseCsaMoveError::UnknownPiece))),
        ),
        (
            "+7776XX".into(),
            Some(err("move", "move", 6, Problem::CsaMove(ParseCsaMoveError::UnknownPiece))),
        ),
        (
            "%%GAME testgame5-300-0".into(),
            Some(err("%%GAME", "side", 23, Problem::Missing)),
        ),
        ("HELLO".into(), None),
        ("yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...<70000 chars total>".into(), None),
        ("LOGIN".into(), Some(err("LOGIN", "name", 6, Problem::Missing))),
        ("LOGIN mal1".into(), Some(err("LOGIN", "password", 11, Problem::Missing))),
        ("LOGIN mal1 pass x1 extra".into(), Some(err("LOGIN", "end of line", 19, Problem::Trailing))),
        ("LOGIN mal1 pass x2".into(), Some(err("LOGIN", "mode", 17, Problem::Expected("`x1`")))),
        ("login mal1 pass".into(), None),
        ("LOGIN bad/name pass".into(), Some(err("LOGIN", "name", 10, Problem::InvalidByte(b'/')))),
        (
            "LOGIN nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn pass x1".into(),
            Some(err("LOGIN", "name", 39, Problem::TooLong { max: 32 })),
        ),
        (
            // (shortened in the transcript file: the `<` of the marker is the first bad byte)
            "LOGIN zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...<100011 chars total>".into(),
            Some(err("LOGIN", "name", 84, Problem::InvalidByte(b'<'))),
        ),
    ];
    assert_eq!(client_bad, expected);
    assert_eq!(client_ok, 92);
    assert_eq!(server_ok, 766);
}
