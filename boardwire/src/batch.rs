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

/// Batch mode: one position per stdin line (blank lines skipped), one
/// answer line each: `{"<key>":...,"moves":[...]}` with `json`, else the
/// moves separated by spaces. A bad position gets
/// `{"<key>":...,"error":...}` (or `error: ...`), the other lines are still
/// answered, and the command fails with exit code 2 at the end.
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
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line =
            line.map_err(|e| Failure::Input(format!("reading stdin line {}: {e}", n + 1)))?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        match parse(&line) {
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
                    writeln!(out, "error: {msg}")?;
                }
            }
        }
    }
    if failed > 0 {
        return Err(Failure::Input(format!("{failed} stdin line(s) failed")));
    }
    Ok(())
}
