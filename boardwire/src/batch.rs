//! What the game modules share: JSON string quoting and the stdin batch
//! mode of `moves` and `play` (`boardwire moves <game> - [--json]`,
//! `boardwire play <game> -`).

use std::io::{BufRead, Write};

use crate::Failure;

/// `s` as a JSON string literal (quotes, backslashes and control
/// characters, DEL included, escaped).
pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\x7f' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The longest stdin line batch mode reads, in bytes (terminator
/// excluded); a longer line is answered with an error line and skipped to
/// its end, never buffered whole.
pub(crate) const MAX_LINE_LEN: usize = 64 * 1024;

/// Batch mode: one position per stdin line, exactly one answer line each,
/// in order: `{"<key>":...,"moves":[...]}` with `json`, else the moves
/// separated by spaces. A line that is blank, not UTF-8, longer than
/// [`MAX_LINE_LEN`] or not a position gets `{"<key>":...,"error":...}` (or
/// `error: ...`), the following lines are still answered, and the command
/// fails with exit code 2 at the end.
///
/// `parse` reads one position; `write_moves` writes its moves: JSON objects
/// separated by commas when its flag is true, else texts separated by
/// spaces.
pub(crate) fn batch<P>(
    key: &str,
    json: bool,
    out: &mut impl Write,
    parse: impl Fn(&str) -> Result<P, Failure>,
    write_moves: impl Fn(&P, bool, &mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let mut failed = 0usize;
    let mut stdin = std::io::stdin().lock();
    let mut raw = Vec::new();
    for n in 1usize.. {
        raw.clear();
        let Some(overlong) = read_line(&mut stdin, &mut raw)
            .map_err(|e| Failure::Input(format!("reading stdin line {n}: {e}")))?
        else {
            break;
        };
        let checked = if overlong {
            Err(format!("line {n} is longer than {MAX_LINE_LEN} bytes"))
        } else {
            match std::str::from_utf8(&raw) {
                Err(e) => Err(format!("line {n} is not UTF-8 (byte {})", e.valid_up_to())),
                Ok(t) if t.trim().is_empty() => Err(format!("line {n} is blank")),
                Ok(t) => Ok(t),
            }
        };
        let text = checked.as_ref().map_or("", |t| t.trim());
        let result = match checked {
            Ok(line) => parse(line),
            Err(msg) => Err(Failure::Input(msg)),
        };
        match result {
            Ok(pos) if json => {
                write!(out, "{{\"{key}\":{},\"moves\":[", json_string(text))?;
                write_moves(&pos, true, out)?;
                writeln!(out, "]}}")?;
            }
            Ok(pos) => {
                write_moves(&pos, false, out)?;
                writeln!(out)?;
            }
            Err(f @ (Failure::Output(_) | Failure::Failed(_))) => return Err(f),
            Err(Failure::Input(msg)) => {
                failed += 1;
                if json {
                    writeln!(
                        out,
                        "{{\"{key}\":{},\"error\":{}}}",
                        json_string(text),
                        json_string(&msg)
                    )?;
                } else {
                    writeln!(out, "error: {}", escape_controls(&msg))?;
                }
            }
        }
    }
    if failed > 0 {
        return Err(Failure::Input(format!("{failed} stdin line(s) failed")));
    }
    Ok(())
}

/// `text` with control characters written `\u{..}` (an error line is one
/// line, and nothing in it drives a terminal).
fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// Reads one line (without its `\n` and a `\r` before it) into `line`,
/// keeping at most [`MAX_LINE_LEN`] bytes: `None` at the end of input,
/// `Some(true)` for a line that was longer (the rest is skipped).
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    let mut seen = false;
    let mut overlong = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        seen = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE_LEN.saturating_sub(line.len());
        if chunk.len() > room {
            overlong = true;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !seen {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(overlong))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<(Vec<u8>, bool)> {
        let mut r = input;
        let mut out = Vec::new();
        let mut line = Vec::new();
        while let Some(overlong) = read_line(&mut r, &mut line).unwrap() {
            out.push((std::mem::take(&mut line), overlong));
        }
        out
    }

    #[test]
    fn every_line_is_read_blank_and_unterminated_ones_too() {
        assert_eq!(
            lines(b"a\n\nb\r\n\xff\nc"),
            vec![
                (b"a".to_vec(), false),
                (b"".to_vec(), false),
                (b"b".to_vec(), false),
                (b"\xff".to_vec(), false),
                (b"c".to_vec(), false),
            ]
        );
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn a_long_line_is_cut_at_the_cap_and_the_next_one_read() {
        let mut input = vec![b'x'; MAX_LINE_LEN + 10];
        input.extend_from_slice(b"\nnext\n");
        let got = lines(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0.len(), MAX_LINE_LEN);
        assert!(got[0].1);
        assert_eq!(got[1], (b"next".to_vec(), false));
    }
}
