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

use csa_protocol::reading::{Direction, KifuReadings, LineReading, read_line};
use csa_protocol::transcript::{is_summarised, numbered_lines, starts_like_kifu};

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

/// Where an output line comes from: its line in the input, the party
/// (empty for none) and the direction (`client`, `server`, `kifu1`, ...).
type At<'a> = (usize, &'a str, &'a str);

/// Prints one output line: `kind` (`message`, `error`, `note`, ...), the
/// reading, and the wire text when there is one.
fn emit(
    out: &mut dyn Write,
    json: bool,
    (line, party, direction): At<'_>,
    kind: &str,
    reading: &str,
    wire: Option<&str>,
) -> Result<(), Failure> {
    if json {
        let mut s = format!("{{\"line\":{line}");
        if !party.is_empty() {
            s.push_str(&format!(",\"party\":{}", json_string(party)));
        }
        s.push_str(&format!(
            ",\"direction\":{},\"kind\":{},\"value\":{}",
            json_string(direction),
            json_string(kind),
            json_string(reading)
        ));
        if let Some(w) = wire {
            s.push_str(&format!(",\"wire\":{}", json_string(w)));
        }
        s.push('}');
        writeln!(out, "{s}")?;
    } else {
        // The JSON form names an error by its kind; text says it.
        let error = if kind == "error" { "error: " } else { "" };
        if party.is_empty() {
            writeln!(out, "{line:>5}  {direction:<6}  {error}{reading}")?;
        } else {
            writeln!(
                out,
                "{line:>5}  {party:<8} {direction:<6}  {error}{reading}"
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
        _ => decode_lines(numbered_lines(&data), from, json, out)?,
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
    if starts_like_kifu(data) {
        CsaFormat::Kifu
    } else if capture::is_capture(&String::from_utf8_lossy(data)) {
        CsaFormat::Capture
    } else if numbered_lines(data)
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

/// Prints one line read (`csa_protocol::reading`); returns 1 if it was
/// malformed.
fn emit_reading(
    out: &mut dyn Write,
    json: bool,
    (line, party): (usize, &str),
    bytes: &[u8],
    r: LineReading,
) -> Result<usize, Failure> {
    let shown = r.shown.unwrap_or_else(|| show(bytes));
    let (kind, text) = match r.reading {
        Ok(Some(words)) => ("message", words),
        Ok(None) => ("unrecognised", format!("unrecognised: {shown}")),
        Err(e) => ("error", e.to_string()),
    };
    let at = (line, party, r.direction.as_str());
    emit(out, json, at, kind, &text, Some(&shown))?;
    Ok(usize::from(kind == "error"))
}

fn decode_lines<'a>(
    lines: impl Iterator<Item = (usize, &'a [u8])>,
    from: CsaFrom,
    json: bool,
    out: &mut dyn Write,
) -> Result<usize, Failure> {
    let from = match from {
        CsaFrom::Guess => None,
        CsaFrom::Client => Some(Direction::Client),
        CsaFrom::Server => Some(Direction::Server),
    };
    let mut malformed = 0;
    for (n, line) in lines {
        malformed += emit_reading(out, json, (n, ""), line, read_line(line, from))?;
    }
    Ok(malformed)
}

fn decode_capture(data: &[u8], json: bool, out: &mut dyn Write) -> Result<usize, Failure> {
    let mut malformed = 0;
    for (n, raw) in numbered_lines(data) {
        let text = String::from_utf8_lossy(raw);
        let record = match capture::parse_record(&text, Escapes::Raw) {
            None => continue, // a comment
            Some(Ok(r)) => r,
            Some(Err(e)) => {
                malformed += 1;
                emit(out, json, (n, "", ""), "error", &e.to_string(), None)?;
                continue;
            }
        };
        let direction = match record.arrow {
            ">>" => Some(Direction::Client),
            "<<" => Some(Direction::Server),
            _ => None,
        };
        let (kind, reading) = match &record.payload {
            Payload::Note(t) => ("note", format!("note: {t}")),
            Payload::Eof(t) if t.is_empty() => ("eof", "end of stream".into()),
            Payload::Eof(t) => ("eof", format!("end of stream: {t}")),
            Payload::Shortened { head, total } => (
                "shortened",
                format!(
                    "shortened by the recorder: {total} bytes, starting {}",
                    show(&head[..head.len().min(16)])
                ),
            ),
            Payload::Bytes(bytes) => {
                // A `b'...\r\n'` literal holds the line with its ending
                // (an empty payload is a keep-alive line).
                let lines: Vec<&[u8]> = numbered_lines(bytes).map(|(_, l)| l).collect();
                for line in if lines.is_empty() {
                    vec![&b""[..]]
                } else {
                    lines
                } {
                    let from = direction.or(Some(Direction::Server));
                    let r = read_line(line, from);
                    malformed += emit_reading(out, json, (n, record.who), line, r)?;
                }
                continue;
            }
        };
        let at = (n, record.who, direction.map_or("", Direction::as_str));
        emit(out, json, at, kind, &reading, None)?;
    }
    Ok(malformed)
}

/// Decodes our own transcript (see `crate::transcript`): `->` lines as
/// client lines, `<-` lines as server lines, `::` lines as notes. What the
/// transcript shows summarised (a `Game_Summary` block, a multi-line x1
/// reply: `csa_protocol::transcript::is_summarised`) or annotated (a
/// malformed or overlong line) is reported as such, not decoded again;
/// lines that are not transcript lines (a server's log lines) are skipped
/// with a note. Counts as malformed: a line whose decoding fails.
fn decode_transcript(data: &[u8], json: bool, out: &mut dyn Write) -> Result<usize, Failure> {
    let mut malformed = 0;
    for (n, raw) in numbered_lines(data) {
        let text = String::from_utf8_lossy(raw);
        let Some(record) = transcript::parse_line(&text) else {
            if !text.trim().is_empty() {
                let reading = format!("not a transcript line, skipped: {}", show(raw));
                emit(out, json, (n, "", ""), "skipped", &reading, None)?;
            }
            continue;
        };
        let direction = match record.arrow {
            "->" => Some(Direction::Client),
            "<-" => Some(Direction::Server),
            _ => None,
        };
        let dir = direction.map_or("", Direction::as_str);
        let note = |kind: &str, reading: &str, out: &mut dyn Write| {
            emit(out, json, (n, record.party, dir), kind, reading, None)
        };
        // A line the transcript marked as malformed is decoded again (its
        // error is the reading); other annotations are kept as they are.
        let wire = record.text.split_once("  (malformed: ");
        let wire = wire.map_or(record.text, |(line, _)| line);
        match (direction, transcript::unshow(wire)) {
            _ if record.proto != "csa" || direction.is_none() => {
                note("note", &format!("note: {}", record.text), out)?;
            }
            _ if is_summarised(record.text) => {
                let reading = format!("summarised by the transcript: {}", record.text);
                note("summary", &reading, out)?;
            }
            (_, None) => {
                let reading = format!("not decodable as shown: {}", record.text);
                note("summary", &reading, out)?;
            }
            (from, Some(bytes)) => {
                let r = read_line(&bytes, from);
                malformed += emit_reading(out, json, (n, record.party), &bytes, r)?;
            }
        }
    }
    Ok(malformed)
}

/// Prints the statements of a kifu, each with its line in the file and
/// its record (`kifu1` for the first, `csa_protocol::reading::KifuReadings`).
/// The first malformed statement, or else the first position or move that
/// the rules refuse, ends the listing: the statements of the lines before
/// it are printed, then the error, and the run fails naming that line.
fn decode_kifu(data: &[u8], json: bool, out: &mut dyn Write) -> Result<(), Failure> {
    for reading in KifuReadings::new(data) {
        let (line, direction, kind, text) = match &reading {
            Ok(r) => (r.line, format!("kifu{}", r.record), r.kind, &r.reading),
            Err(stop) => (stop.line, "kifu".into(), "error", &stop.reading),
        };
        emit(out, json, (line, "", &direction), kind, text, None)?;
        if let Err(stop) = reading {
            let why = if stop.malformed {
                "is malformed"
            } else {
                "breaks the rules"
            };
            return Err(Failure::Input(format!("kifu line {line} {why}")));
        }
    }
    Ok(())
}

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
        assert_decodes(
            "+7776FU,T12\n-0055KA\n%TORYO\n#RESIGN\n#LOSE\nSTART:g1\n",
            CsaFormat::Lines,
            Ok(()),
            &[
                "    1  server  move +7776FU: sente FU 7g to 7f, 12 s",
                "    2  client  move -0055KA: gote drops KA on 5e",
                "    3  client  %TORYO: resign",
                "    4  server  #RESIGN: game over, resignation",
                "    5  server  #LOSE: the receiver lost",
                "    6  server  START: game g1",
            ],
        );
    }

    /// `input` decodes (in `format`) to `result` and the lines `expected`;
    /// an expected line ending in `..` is the start of the line.
    #[track_caller]
    fn assert_decodes(input: &str, format: CsaFormat, result: Result<(), &str>, expected: &[&str]) {
        let (out, r) = run(input, format);
        assert_eq!(r, result.map_err(str::to_owned));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), expected.len(), "{out}");
        for (line, e) in lines.into_iter().zip(expected) {
            match e.strip_suffix("..") {
                Some(start) => assert!(line.starts_with(start), "{line:?}: {out}"),
                None => assert_eq!(line, *e, "{out}"),
            }
        }
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
        assert_decodes(
            transcript,
            CsaFormat::Auto,
            Err("1 malformed line(s)"),
            &[
                "    1          not a transcript line, skipped: listening on 127.0.0.1:4081",
                "    2  b        client  LOGIN: name b, password hidden, CSA mode",
                "    3  b        server  summarised by the transcript: BEGIN Game_Summary..",
                "    4  b        client  AGREE: game g1",
                "    5  b        server  move +7776FU: sente FU 7g to 7f, 12 s",
                "    6  b        server  error: ..",
                "    7  b                note: game over after 1 moves",
            ],
        );
    }

    #[test]
    fn malformed_and_shortened_lines() {
        let capture = "[  25.859] alice  >> yyyy...<70000 chars total>\n\
[   1.000] alice  >> LOGIN\n\
[   2.000] alice  >> HELLO\n";
        assert_decodes(
            capture,
            CsaFormat::Capture,
            Err("1 malformed line(s)"),
            &[
                "    1  alice    client  shortened by the recorder: 70000 bytes, starting yyyy",
                "    2  alice    client  error: ..",
                "    3  alice    client  unrecognised: HELLO",
            ],
        );
    }
}
