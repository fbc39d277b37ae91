//! `boardwire csa decode`: CSA lines, recorded captures and kifu files as
//! messages in words (README.md, "Output formats").
//!
//! Inputs (`--format`, detected by default):
//! - `kifu`: a CSA record file (first line `V2`, `V3` or `'CSA encoding`);
//! - `capture`: the recorded-transcript format of [`boardwire_vectors::capture`]
//!   (`[t] alice >> LOGIN ...`, `b'...\r\n'` literals): each line is decoded
//!   as the party's client line (`>>`) or a server line (`<<`);
//! - `lines`: one wire line per input line, LF or CRLF; a line is read as
//!   a client line when the client decoder knows it, else as a server line.
//!
//! `--message TEXT` (repeatable) decodes TEXT as `lines` input.

use std::io::{Read, Write};

use csa_protocol::decode::decode as decode_line;
use csa_protocol::error::MessageKind;
use csa_protocol::framer::{Framer, Status};
use csa_protocol::kifu::{Statement, Statements, check_file_rules};
use csa_protocol::message::{ClientMessage, ServerMessage};

use crate::Failure;
use crate::batch::json_string;
use crate::transcript::{self, show};
use boardwire_vectors::capture::{self, Escapes, Payload};

/// The input formats of `csa decode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CsaFormat {
    /// Detect: a kifu by its first line, a capture by its `[<seconds>]`
    /// records, our transcript by a `csa` transcript line among the first
    /// ten lines, else lines.
    Auto,
    /// One wire line per input line.
    Lines,
    /// The recorded-transcript format (`[t] who >> line`, `b'...'`).
    Capture,
    /// Our own transcript, as `csa connect` and the demo print it
    /// (`csa  0.001  alice  -> +7776FU`).
    Transcript,
    /// A CSA kifu (game record) file.
    Kifu,
}

/// Which side sent the lines of `csa decode` in the `lines` format (and
/// `-m`): a line such as `+7776FU` or `LOGOUT` is valid from both sides and
/// decodes differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum CsaFrom {
    /// Per line: the client reading when the client decoder knows the
    /// line, else the server reading (a move line reads as a client move;
    /// `LOGIN:alice OK` as a server reply).
    Guess,
    /// Client → server lines.
    Client,
    /// Server → client lines.
    Server,
}

/// One output line.
struct Entry<'a> {
    line: usize,
    party: &'a str,
    direction: &'a str,
    kind: &'a str,
    reading: &'a str,
    wire: Option<&'a str>,
}

impl<'a> Entry<'a> {
    /// An entry without wire text.
    fn new(
        line: usize,
        party: &'a str,
        direction: &'a str,
        kind: &'a str,
        reading: &'a str,
    ) -> Entry<'a> {
        Entry {
            line,
            party,
            direction,
            kind,
            reading,
            wire: None,
        }
    }
}

fn emit(out: &mut dyn Write, json: bool, e: &Entry<'_>) -> Result<(), Failure> {
    if json {
        let mut s = format!("{{\"line\":{}", e.line);
        if !e.party.is_empty() {
            s.push_str(&format!(",\"party\":{}", json_string(e.party)));
        }
        s.push_str(&format!(
            ",\"direction\":{},\"kind\":{},\"value\":{}",
            json_string(e.direction),
            json_string(e.kind),
            json_string(e.reading)
        ));
        if let Some(w) = e.wire {
            s.push_str(&format!(",\"wire\":{}", json_string(w)));
        }
        s.push('}');
        writeln!(out, "{s}")?;
    } else {
        // The JSON form names an error by its kind; text says it.
        let error = if e.kind == "error" { "error: " } else { "" };
        if e.party.is_empty() {
            writeln!(
                out,
                "{:>5}  {:<6}  {error}{}",
                e.line, e.direction, e.reading
            )?;
        } else {
            writeln!(
                out,
                "{:>5}  {:<8} {:<6}  {error}{}",
                e.line, e.party, e.direction, e.reading
            )?;
        }
    }
    Ok(())
}

/// Runs `csa decode`. Exit code 2 (a [`Failure::Input`]) when any line was
/// malformed; every line is still printed.
pub(crate) fn decode(
    file: Option<&std::path::Path>,
    messages: &[String],
    format: CsaFormat,
    from: CsaFrom,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if !messages.is_empty() {
        // Each message is one line, even an empty one (a keep-alive).
        let lines = messages.iter().map(String::as_bytes).enumerate();
        let malformed = decode_lines(lines.map(|(i, l)| (i + 1, l)), from, json, out)?;
        return finish(malformed);
    }
    let mut data = Vec::new();
    match file {
        Some(p) => {
            data = std::fs::read(p).map_err(|e| Failure::Input(format!("{}: {e}", p.display())))?;
        }
        None => {
            std::io::stdin()
                .read_to_end(&mut data)
                .map_err(|e| Failure::Input(format!("stdin: {e}")))?;
        }
    }
    let format = match format {
        CsaFormat::Auto => detect(&data),
        f => f,
    };
    let malformed = match format {
        CsaFormat::Kifu => return decode_kifu(&data, json, out),
        CsaFormat::Capture => decode_capture(&data, json, out)?,
        CsaFormat::Transcript => decode_transcript(&data, json, out)?,
        _ => decode_lines(lines(&data), from, json, out)?,
    };
    finish(malformed)
}

fn finish(malformed: usize) -> Result<(), Failure> {
    if malformed > 0 {
        return Err(Failure::Input(format!("{malformed} malformed line(s)")));
    }
    Ok(())
}

fn detect(data: &[u8]) -> CsaFormat {
    // A kifu starts with its version line, after comments if any.
    let first = lines(data)
        .map(|(_, l)| l)
        .find(|l| !l.is_empty() && (!l.starts_with(b"'") || l.starts_with(b"'CSA encoding")))
        .unwrap_or(b"");
    if first.starts_with(b"V2") || first.starts_with(b"V3") || first.starts_with(b"'CSA encoding") {
        CsaFormat::Kifu
    } else if capture::is_capture(&String::from_utf8_lossy(data)) {
        CsaFormat::Capture
    } else if lines(data)
        .map(|(_, l)| l)
        .filter(|l| !l.is_empty())
        .take(10) // a log line or two may come first
        .filter_map(|l| std::str::from_utf8(l).ok())
        .filter_map(transcript::parse_line)
        .any(|r| r.proto == "csa")
    {
        CsaFormat::Transcript
    } else {
        CsaFormat::Lines
    }
}

/// Input lines without their LF (and CR), numbered from 1, as
/// csa-protocol's line framer cuts them (no cap: the whole input fits);
/// no empty last line for a final LF, and a last line without its LF is a
/// line.
fn lines(data: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut framer = Framer::new(data.len());
    let mut rest = data;
    std::iter::from_fn(move || match framer.decode(rest) {
        Status::Complete { frame, consumed } => {
            rest = &rest[consumed..];
            Some(frame)
        }
        // The cap is the input's length: nothing is over-long, so this is
        // the unterminated last line (or the end).
        _ => {
            let last = std::mem::take(&mut rest);
            (!last.is_empty()).then(|| last.strip_suffix(b"\r").unwrap_or(last))
        }
    })
    .enumerate()
    .map(|(i, l)| (i + 1, l))
}

/// A decoded line: `Ok(Some(reading))`, `Ok(None)` unrecognised, or the
/// error; with the wire text to show.
type Reading = Result<Option<String>, String>;

/// A client line read, and its wire text as shown: the message's `Display`
/// (a `LOGIN` password as `*****`, from the decoded value); the line as is
/// when it is no client line; for a malformed `LOGIN`, nothing of its
/// fields (the password cannot be told apart from the name).
fn client(line: &[u8]) -> (Reading, String) {
    match decode_line::<ClientMessage>(line) {
        Ok(ClientMessage::Unrecognised(_)) => (Ok(None), show(line)),
        Ok(m) => (Ok(Some(m.describe().to_string())), m.shown().to_string()),
        Err(e) if e.message == MessageKind::Login => (
            Err(e.to_string()),
            "LOGIN *****  (malformed: fields not shown)".into(),
        ),
        Err(e) => (Err(e.to_string()), show(line)),
    }
}

/// A server line read, and its wire text (server lines hold no secret).
fn server(line: &[u8]) -> (Reading, String) {
    let reading = match decode_line::<ServerMessage>(line) {
        Ok(ServerMessage::Unrecognised(_)) => Ok(None),
        Ok(m) => Ok(Some(m.describe().to_string())),
        Err(e) => Err(e.to_string()),
    };
    (reading, show(line))
}

/// Prints one decoded line; returns 1 if it was malformed.
fn emit_reading(
    out: &mut dyn Write,
    json: bool,
    line: usize,
    party: &str,
    direction: &str,
    (reading, shown): (Reading, String),
) -> Result<usize, Failure> {
    let (kind, text, bad) = match reading {
        Ok(Some(r)) => ("message", r, 0),
        Ok(None) => ("unrecognised", format!("unrecognised: {shown}"), 0),
        Err(e) => ("error", e, 1),
    };
    let entry = Entry {
        wire: Some(&shown),
        ..Entry::new(line, party, direction, kind, &text)
    };
    emit(out, json, &entry)?;
    Ok(bad)
}

fn decode_lines<'a>(
    lines: impl Iterator<Item = (usize, &'a [u8])>,
    from: CsaFrom,
    json: bool,
    out: &mut dyn Write,
) -> Result<usize, Failure> {
    let mut malformed = 0;
    for (n, line) in lines {
        let (direction, reading) = match from {
            CsaFrom::Client => ("client", client(line)),
            CsaFrom::Server => ("server", server(line)),
            CsaFrom::Guess => {
                // Whichever side's decoder knows the line (see CsaFrom::Guess).
                let (c, s) = (client(line), server(line));
                match (&c.0, &s.0) {
                    (Ok(Some(_)), _) => ("client", c),
                    (_, Ok(Some(_))) => ("server", s),
                    (Err(_), _) => ("client", c),
                    (Ok(None), _) => ("server", s),
                }
            }
        };
        malformed += emit_reading(out, json, n, "", direction, reading)?;
    }
    Ok(malformed)
}

fn decode_capture(data: &[u8], json: bool, out: &mut dyn Write) -> Result<usize, Failure> {
    let mut malformed = 0;
    for (n, raw) in lines(data) {
        let text = String::from_utf8_lossy(raw);
        let Some(record) = capture::parse_record(&text, Escapes::Raw) else {
            continue; // a comment
        };
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                malformed += 1;
                let reading = e.to_string();
                emit(out, json, &Entry::new(n, "", "", "error", &reading))?;
                continue;
            }
        };
        let direction = match record.arrow {
            ">>" => "client",
            "<<" => "server",
            _ => "",
        };
        let note = |kind: &str, reading: String, out: &mut dyn Write| {
            emit(
                out,
                json,
                &Entry::new(n, record.who, direction, kind, &reading),
            )
        };
        match &record.payload {
            Payload::Note(t) => note("note", format!("note: {t}"), out)?,
            Payload::Eof(t) if t.is_empty() => note("eof", "end of stream".into(), out)?,
            Payload::Eof(t) => note("eof", format!("end of stream: {t}"), out)?,
            Payload::Shortened { head, total } => note(
                "shortened",
                format!(
                    "shortened by the recorder: {total} bytes, starting {}",
                    show(&head[..head.len().min(16)])
                ),
                out,
            )?,
            Payload::Bytes(bytes) => {
                // A `b'...\r\n'` literal holds the line with its ending
                // (an empty payload is a keep-alive line).
                let framed: Vec<&[u8]> = match lines(bytes).map(|(_, l)| l).collect::<Vec<_>>() {
                    v if v.is_empty() => vec![&b""[..]],
                    v => v,
                };
                for line in framed {
                    let reading = if direction == "client" {
                        client(line)
                    } else {
                        server(line)
                    };
                    malformed += emit_reading(out, json, n, record.who, direction, reading)?;
                }
            }
        }
    }
    Ok(malformed)
}

/// Decodes our own transcript (see `crate::transcript`): `->` lines as
/// client lines, `<-` lines as server lines, `::` lines as notes. What the
/// transcript shows summarised (a `Game_Summary` block, a multi-line x1
/// reply) or annotated (a malformed or overlong line) is reported as such,
/// not decoded again; lines that are not transcript lines (a server's log
/// lines) are skipped with a note. Counts as malformed: a line whose
/// decoding fails.
fn decode_transcript(data: &[u8], json: bool, out: &mut dyn Write) -> Result<usize, Failure> {
    let mut malformed = 0;
    for (n, raw) in lines(data) {
        let text = String::from_utf8_lossy(raw);
        let Some(record) = transcript::parse_line(&text) else {
            if !text.trim().is_empty() {
                let reading = format!("not a transcript line, skipped: {}", show(raw));
                emit(out, json, &Entry::new(n, "", "", "skipped", &reading))?;
            }
            continue;
        };
        let direction = match record.arrow {
            "->" => "client",
            "<-" => "server",
            _ => "",
        };
        let note = |kind: &str, reading: &str, out: &mut dyn Write| {
            emit(
                out,
                json,
                &Entry::new(n, record.party, direction, kind, reading),
            )
        };
        if record.proto != "csa" || record.arrow == "::" {
            note("note", &format!("note: {}", record.text), out)?;
            continue;
        }
        if let Some(shown) = summarised(record.text) {
            note(
                "summary",
                &format!("summarised by the transcript: {shown}"),
                out,
            )?;
            continue;
        }
        // A line the transcript marked as malformed is decoded again (its
        // error is the reading); other annotations are kept as they are.
        let wire = record
            .text
            .split_once("  (malformed: ")
            .map_or(record.text, |(line, _)| line);
        let Some(bytes) = transcript::unshow(wire) else {
            note(
                "summary",
                &format!("not decodable as shown: {}", record.text),
                out,
            )?;
            continue;
        };
        let reading = if direction == "client" {
            client(&bytes)
        } else {
            server(&bytes)
        };
        malformed += emit_reading(out, json, n, record.party, direction, reading)?;
    }
    Ok(malformed)
}

/// The text of a transcript line that shows several wire lines at once (a
/// `Game_Summary` block, an x1 reply: `... (N lines)`) or none (an overlong
/// line skipped), or a line cut off at the end of the connection.
fn summarised(text: &str) -> Option<&str> {
    let core = text
        .strip_suffix(" (unfinished)")
        .or_else(|| text.strip_suffix(" (continued)"))
        .unwrap_or(text);
    let counted = core.rsplit_once("  (").is_some_and(|(_, tail)| {
        tail.strip_suffix(')')
            .map(|t| t.split(';').next().unwrap_or(t))
            .and_then(|t| t.strip_suffix(" lines").or_else(|| t.strip_suffix(" line")))
            .is_some_and(|n| n.parse::<u32>().is_ok())
    });
    let whole = counted
        || text.starts_with("BEGIN Game_Summary ...")
        || text.starts_with("(a line of more than ")
        || text.ends_with("  (unfinished line)");
    whole.then_some(text)
}

/// Prints the statements of a kifu, each with its line in the file and
/// its record (`kifu1` for the first, as [`check_file_rules`] numbers them).
/// The first malformed statement, or else the first position or move that
/// the rules refuse ([`check_file_rules`]), ends the listing: the statements
/// of the lines before it are printed, then the error, and the run fails
/// naming that line.
fn decode_kifu(data: &[u8], json: bool, out: &mut dyn Write) -> Result<(), Failure> {
    // Where the kifu stops: its line, the line's start in the file, why.
    // The first malformed statement is found without collecting records.
    let stop = match Statements::new(data).find_map(Result::err) {
        None => check_file_rules(data).err().map(|bad| {
            (
                bad.line,
                bad.offset - bad.column,
                bad.to_string(),
                "breaks the rules",
            )
        }),
        Some(e) => Some((e.line, e.offset - e.column, e.to_string(), "is malformed")),
    };
    let good = stop.as_ref().map_or(data.len(), |s| s.1);
    print_kifu(&data[..good], json, out)?;
    let Some((line, _, reading, why)) = stop else {
        return Ok(());
    };
    emit(out, json, &Entry::new(line, "", "kifu", "error", &reading))?;
    Err(Failure::Input(format!("kifu line {line} {why}")))
}

/// Prints the statements of `data`, which reads without error (a `/`
/// line, the end of a record, is not printed).
fn print_kifu(data: &[u8], json: bool, out: &mut dyn Write) -> Result<(), Failure> {
    let mut statements = Statements::new(data);
    let mut record = 1;
    while let Some(statement) = statements.next() {
        let line = statements.line();
        let direction = format!("kifu{record}");
        let (kind, reading) = match statement {
            Ok(Statement::Item(item)) => (item.kind(), item.describe().to_string()),
            Ok(Statement::RecordEnd) => {
                record += 1;
                continue;
            }
            // Not reached: `data` was read once already.
            Err(e) => ("error", e.to_string()),
        };
        emit(out, json, &Entry::new(line, "", &direction, kind, &reading))?;
    }
    Ok(())
}

// ------------------------------------------------------------ readings

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str, format: CsaFormat) -> (String, Result<(), String>) {
        let path = std::env::temp_dir().join(format!(
            "boardwire-csa-decode-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::write(&path, input).unwrap();
        let mut out = Vec::new();
        let r =
            decode(Some(&path), &[], format, CsaFrom::Guess, false, &mut out).map_err(
                |e| match e {
                    Failure::Input(s) | Failure::Failed(s) => s,
                    Failure::Output(e) => e.to_string(),
                },
            );
        let _ = std::fs::remove_file(&path);
        (String::from_utf8(out).unwrap(), r)
    }

    #[test]
    fn game_lines_in_words() {
        // Spec note examples (csa-protocol's spec/csa.md, *Moves*, *Results*): a move with its time, the result lines.
        let (out, r) = run(
            "+7776FU,T12\n-0055KA\n%TORYO\n#RESIGN\n#LOSE\nSTART:g1\n",
            CsaFormat::Lines,
        );
        assert_eq!(r, Ok(()));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "    1  server  move +7776FU: sente FU 7g to 7f, 12 s",
                "    2  client  move -0055KA: gote drops KA on 5e",
                "    3  client  %TORYO: resign",
                "    4  server  #RESIGN: game over, resignation",
                "    5  server  #LOSE: the receiver lost",
                "    6  server  START: game g1",
            ]
        );
    }

    #[test]
    fn our_transcripts_are_read_back() {
        // As `csa connect` prints them: a server log line first is skipped,
        // the Game_Summary block is shown summarised, a malformed line
        // decodes to its error again, notes stay notes.
        let transcript = "listening on 127.0.0.1:4081
csa       0.000  b         -> LOGIN b *****
csa       0.001  b         <- BEGIN Game_Summary ... END Game_Summary  (32 lines; Game_ID:g1, Your_Turn:+)
csa       0.001  b         -> AGREE g1
csa       0.002  b         <- +7776FU,T12
csa       0.003  b         <- +77  (malformed: cut off)
csa       0.004  b         :: game over after 1 moves
";
        let (out, r) = run(transcript, CsaFormat::Auto);
        assert_eq!(r, Err("1 malformed line(s)".into()));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 7, "{out}");
        assert_eq!(
            lines[0],
            "    1          not a transcript line, skipped: listening on 127.0.0.1:4081"
        );
        assert_eq!(
            lines[1],
            "    2  b        client  LOGIN: name b, password hidden, CSA mode"
        );
        assert!(
            lines[2].starts_with(
                "    3  b        server  summarised by the transcript: BEGIN Game_Summary"
            ),
            "{out}"
        );
        assert_eq!(lines[3], "    4  b        client  AGREE: game g1");
        assert_eq!(
            lines[4],
            "    5  b        server  move +7776FU: sente FU 7g to 7f, 12 s"
        );
        assert!(
            lines[5].starts_with("    6  b        server  error: "),
            "{out}"
        );
        assert_eq!(
            lines[6],
            "    7  b                note: game over after 1 moves"
        );
    }

    #[test]
    fn malformed_and_shortened_lines() {
        let capture = "[  25.859] alice  >> yyyy...<70000 chars total>\n\
[   1.000] alice  >> LOGIN\n\
[   2.000] alice  >> HELLO\n";
        let (out, r) = run(capture, CsaFormat::Capture);
        assert_eq!(r, Err("1 malformed line(s)".into()));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert_eq!(
            lines[0],
            "    1  alice    client  shortened by the recorder: 70000 bytes, starting yyyy"
        );
        assert!(
            lines[1].starts_with("    2  alice    client  error: "),
            "{out}"
        );
        assert_eq!(lines[2], "    3  alice    client  unrecognised: HELLO");
    }
}
