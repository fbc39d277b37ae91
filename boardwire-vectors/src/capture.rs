//! The recorded-capture format of the reference transcripts (the files the
//! `damexchange` and `csa-protocol` tests replay), read by `dxp decode` and
//! `csa decode`:
//!
//! ```text
//! # a comment
//! [   0.002] alice  >> LOGIN alice pass x1
//! [   0.004] alice  << LOGIN:alice OK
//! [  49.044] lena   >> b'LOGIN lena pass x1\r\n'
//! [  46.940] jack   -- (client closed socket)
//! [  0.000] C->S R01PyTester                        Z005000A\0
//! [  3.041] S->C <EOF: connection closed by peer>
//! ```
//!
//! A record is `[<seconds>] <who> <payload>`: CSA captures name the party
//! and then `>>` (a line it sent), `<<` (a line it received) or `--` (a
//! note); DXP captures write the direction as one word, `C->S`, `I->F`,
//! `client->scan`. The payload is the wire text, a Python bytes literal
//! (`b'...\r\n'`, used where the line ending matters), `<EOF...>` for the
//! end of the stream, or a line shortened by the recorder
//! (`first 80 bytes...<N chars total>`). In DXP captures `\0` is a NUL.

/// What is wrong with a capture line, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{problem} (byte {offset})")]
#[non_exhaustive]
pub struct CaptureError {
    /// 0-based byte offset in the line.
    pub offset: usize,
    /// What is wrong there.
    pub problem: CaptureProblem,
}

/// The kinds of [`CaptureError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CaptureProblem {
    /// Neither a `[<seconds>] ` record nor a `#` comment nor blank.
    #[error("not a capture record: expected '[<seconds>] ...' or a '#' comment")]
    NotARecord,
    /// A CSA-style record without `>>`, `<<` or `--` after the party.
    #[error("capture record: expected '>>', '<<' or '--' after the party")]
    NoArrow,
    /// A backslash ends the payload.
    #[error("capture record: a backslash at the end of the text")]
    TrailingBackslash,
    /// `\x` not followed by two hex digits.
    #[error("capture record: '\\x' needs two hex digits")]
    BadHexEscape,
    /// A backslash escape that the format does not define.
    #[error("capture record: unknown escape '\\{}'", char::from(*.0).escape_default())]
    UnknownEscape(u8),
}

/// How the payload of a record is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escapes {
    /// As is (CSA lines); only `b'...'` literals are unescaped.
    Raw,
    /// Backslash escapes `\0`, `\\`, `\xNN`, `\r`, `\n`, `\t` (DXP
    /// captures, and the `show` form of our own transcripts).
    Backslash,
}

/// What a record carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// Wire bytes.
    Bytes(Vec<u8>),
    /// `<EOF...>`: the stream ended (the text inside the brackets).
    Eof(String),
    /// `-- ...`: a note of the recorder, not wire data.
    Note(String),
    /// `<first bytes>...<N chars total>`: cut by the recorder; the message
    /// cannot be decoded.
    Shortened {
        /// The bytes kept.
        head: Vec<u8>,
        /// The length of the whole line.
        total: usize,
    },
}

/// One `[<seconds>] ...` record.
#[derive(Debug, Clone, PartialEq)]
pub struct Record<'a> {
    /// Seconds since the connection started (a smaller value than the
    /// record before: a new connection).
    pub secs: f64,
    /// The party (CSA: login name) or the direction (DXP: `C->S`).
    pub who: &'a str,
    /// CSA: `>>` sent, `<<` received, `--` note; DXP: empty.
    pub arrow: &'a str,
    /// The payload.
    pub payload: Payload,
}

/// True when `text` looks like a capture: some line is a `[<seconds>] `
/// record.
pub fn is_capture(text: &str) -> bool {
    text.lines().any(|l| split_time(l).is_some())
}

/// True for a comment line that opens a connection (`# ...: connected to
/// 127.0.0.1:27531`, `# accepted connection from ...`): the streams before
/// it are over. The clock going back (`[0.000]` after `[1.5]`) says the
/// same.
pub fn is_new_connection(line: &str) -> bool {
    line.starts_with('#')
        && (line.contains("connected to ") || line.contains("accepted connection"))
}

/// `[ 1.234] rest` -> (1.234, `rest`).
fn split_time(line: &str) -> Option<(f64, &str)> {
    let rest = line.strip_prefix('[')?;
    let (secs, rest) = rest.split_once(']')?;
    let secs = secs.trim();
    if !secs.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    Some((secs.parse().ok()?, rest.strip_prefix(' ')?))
}

/// Reads one line of a capture: `None` for a blank line or a `#` comment,
/// else the record or what is wrong with it (with its 0-based byte offset; a
/// line that is neither a comment nor a `[<seconds>] ` record is an error,
/// never skipped).
pub fn parse_record(line: &str, escapes: Escapes) -> Option<Result<Record<'_>, CaptureError>> {
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let Some((secs, rest)) = split_time(line) else {
        return Some(Err(CaptureError {
            offset: 0,
            problem: CaptureProblem::NotARecord,
        }));
    };
    let column0 = line.len() - rest.len();
    let rest = rest.trim_start();
    let (who, rest) = rest.split_once(' ').unwrap_or((rest, ""));
    let rest = rest.trim_start_matches(' ');
    let (arrow, payload) = if who.contains("->") {
        ("", rest)
    } else {
        match rest.split_once(' ').unwrap_or((rest, "")) {
            (a @ (">>" | "<<" | "--"), p) => (a, p),
            _ => {
                return Some(Err(CaptureError {
                    offset: column0,
                    problem: CaptureProblem::NoArrow,
                }));
            }
        }
    };
    let column = line.len() - payload.len();
    let payload = if arrow == "--" {
        Payload::Note(payload.to_string())
    } else if let Some(eof) = payload
        .strip_prefix("<EOF")
        .and_then(|p| p.strip_suffix('>'))
    {
        Payload::Eof(eof.trim_start_matches(':').trim().to_string())
    } else if let Some(lit) = python_literal(payload) {
        match unescape(lit, true) {
            Ok(b) => Payload::Bytes(b),
            Err((i, what)) => {
                return Some(Err(CaptureError {
                    offset: column + 2 + i,
                    problem: what,
                }));
            }
        }
    } else if let Some((head, total)) = shortened(payload) {
        Payload::Shortened {
            head: head.as_bytes().to_vec(),
            total,
        }
    } else {
        match escapes {
            Escapes::Raw => Payload::Bytes(payload.as_bytes().to_vec()),
            Escapes::Backslash => match unescape(payload, false) {
                Ok(b) => Payload::Bytes(b),
                Err((i, what)) => {
                    return Some(Err(CaptureError {
                        offset: column + i,
                        problem: what,
                    }));
                }
            },
        }
    };
    Some(Ok(Record {
        secs,
        who,
        arrow,
        payload,
    }))
}

/// `b'...'` or `b"..."` -> the text between the quotes.
fn python_literal(s: &str) -> Option<&str> {
    let s = s.strip_prefix('b')?;
    s.strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| s.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
}

/// `xxx...<70000 chars total>` -> (`xxx`, 70000).
fn shortened(s: &str) -> Option<(&str, usize)> {
    let body = s.strip_suffix(" chars total>")?;
    let (head, n) = body.rsplit_once("...<")?;
    Some((head, n.parse().ok()?))
}

/// Undoes backslash escapes; `python` also accepts `\'`, `\"`, `\a`, `\b`,
/// `\f`, `\v`. Errors give the 0-based byte index of the backslash.
fn unescape(s: &str, python: bool) -> Result<Vec<u8>, (usize, CaptureProblem)> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let Some(&c) = b.get(i + 1) else {
            return Err((i, CaptureProblem::TrailingBackslash));
        };
        let byte = match c {
            b'\\' => b'\\',
            b'0' => 0,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'\'' | b'"' if python => c,
            b'a' if python => 0x07,
            b'b' if python => 0x08,
            b'f' if python => 0x0c,
            b'v' if python => 0x0b,
            b'x' => {
                let hex = b
                    .get(i + 2..i + 4)
                    .and_then(|h| std::str::from_utf8(h).ok());
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(v) => {
                        out.push(v);
                        i += 4;
                        continue;
                    }
                    None => return Err((i, CaptureProblem::BadHexEscape)),
                }
            }
            other => {
                return Err((i, CaptureProblem::UnknownEscape(other)));
            }
        };
        out.push(byte);
        i += 2;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines taken from the recorded transcripts
    // (this crate's `data/`).
    #[test]
    fn csa_records() {
        let r = parse_record("[   0.002] alice  >> LOGIN alice pass x1", Escapes::Raw);
        assert_eq!(
            r,
            Some(Ok(Record {
                secs: 0.002,
                who: "alice",
                arrow: ">>",
                payload: Payload::Bytes(b"LOGIN alice pass x1".to_vec())
            }))
        );
        let bytes = |b: &[u8]| Payload::Bytes(b.to_vec());
        let cases = [
            (
                "[  49.044] lena   >> b'LOGIN lena pass x1\\r\\n'",
                bytes(b"LOGIN lena pass x1\r\n"),
            ),
            (
                "[  46.940] jack   -- (client closed socket)",
                Payload::Note("(client closed socket)".into()),
            ),
            (
                "[  49.043] kate   << <EOF: server closed the connection>",
                Payload::Eof("server closed the connection".into()),
            ),
            (
                "[  25.859] alice  >> yyyy...<70000 chars total>",
                Payload::Shortened {
                    head: b"yyyy".to_vec(),
                    total: 70000,
                },
            ),
            // A CSA position row keeps its trailing blank.
            (
                "[   1.710] alice  << P2 * -HI *  *  *  *  * -KA * ",
                bytes(b"P2 * -HI *  *  *  *  * -KA * "),
            ),
        ];
        for (line, payload) in cases {
            let r = parse_record(line, Escapes::Raw).unwrap().unwrap();
            assert_eq!(r.payload, payload, "{line}");
        }
        assert_eq!(parse_record("# scenario done", Escapes::Raw), None);
        assert_eq!(parse_record("", Escapes::Raw), None);
        assert_eq!(parse_record("  \r", Escapes::Raw), None);
        // Anything else that is no `[<seconds>] ` record is reported.
        for line in ["LOGIN a b", "garbage here", "[x] a >> b", "[1.0]a >> b"] {
            let r = parse_record(line, Escapes::Raw);
            assert!(matches!(r, Some(Err(_))), "{line}: {r:?}");
        }
        assert!(is_new_connection("# lena: connected to 127.0.0.1:4081"));
        assert!(is_new_connection(
            "# accepted connection from ('127.0.0.1', 53146)"
        ));
        assert!(!is_new_connection("# scenario done"));
    }

    #[test]
    fn dxp_records() {
        let r = parse_record(
            "[  0.000] C->S R01PyTester                        Z005000A\\0",
            Escapes::Backslash,
        )
        .unwrap()
        .unwrap();
        assert_eq!((r.who, r.arrow), ("C->S", ""));
        assert_eq!(
            r.payload,
            Payload::Bytes(b"R01PyTester                        Z005000A\0".to_vec())
        );
        let r = parse_record("[ 10.016] client->scan <EOF>", Escapes::Backslash);
        assert_eq!(r.unwrap().unwrap().payload, Payload::Eof(String::new()));
    }

    #[test]
    fn bad_escapes_name_their_byte() {
        let r = parse_record("[1.0] lena >> b'LOGIN\\q'", Escapes::Raw).unwrap();
        assert_eq!(
            r.unwrap_err(),
            CaptureError {
                offset: 21,
                problem: CaptureProblem::UnknownEscape(b'q')
            }
        );
        let r = parse_record("[1.0] C->S E00\\x4", Escapes::Backslash).unwrap();
        assert_eq!(
            r.unwrap_err(),
            CaptureError {
                offset: 14,
                problem: CaptureProblem::BadHexEscape
            }
        );
    }
}
