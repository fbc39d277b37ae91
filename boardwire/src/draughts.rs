//! `perft draughts` and `moves draughts`.

use std::io::{BufRead, Write};
use std::time::Instant;

use board_core::draughts::{Move, Position, perft_divide, try_perft};

use crate::{Failure, report_timing};

fn position(text: &str) -> Result<Position, Failure> {
    if text.trim() == "startpos" {
        return Ok(Position::startpos());
    }
    text.parse()
        .map_err(|e| Failure::Input(format!("invalid draughts position {text:?}: {e}")))
}

/// `boardwire perft draughts <FEN|startpos> <depth> [--divide]`.
pub(crate) fn perft(
    text: &str,
    depth: u32,
    divide: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let pos = position(text)?;
    let start = Instant::now();
    if divide {
        let (total, per_move) = perft_divide(&pos, depth);
        let elapsed = start.elapsed();
        writeln!(out, "{total}")?;
        for (mv, n) in per_move.iter() {
            writeln!(out, "{} {n}", pos.move_text(*mv))?;
        }
        report_timing(total, elapsed);
    } else {
        let nodes = try_perft(&pos, depth)
            .map_err(|e| Failure::Input(format!("{e} below position {pos}")))?;
        let elapsed = start.elapsed();
        writeln!(out, "{nodes}")?;
        report_timing(nodes, elapsed);
    }
    Ok(())
}

fn json_move(pos: &Position, mv: Move, out: &mut impl Write) -> std::io::Result<()> {
    write!(
        out,
        "{{\"from\":{},\"to\":{},\"captures\":[",
        mv.from(),
        mv.to()
    )?;
    for (i, s) in mv.captures().iter().enumerate() {
        write!(out, "{}{s}", if i == 0 { "" } else { "," })?;
    }
    write!(out, "],\"notation\":\"{}\"}}", pos.move_text(mv))
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `boardwire moves draughts <FEN|startpos|-> [--json]`.
pub(crate) fn moves(text: &str, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    if text == "-" {
        return batch(json, out);
    }
    let pos = position(text)?;
    let list = pos
        .try_legal_moves()
        .map_err(|e| Failure::Input(e.to_string()))?;
    for &mv in list.iter() {
        if json {
            json_move(&pos, mv, out)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{}", pos.move_text(mv))?;
        }
    }
    Ok(())
}

/// Batch mode: one position per stdin line, one answer line each.
fn batch(json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let mut failed = 0usize;
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line =
            line.map_err(|e| Failure::Input(format!("reading stdin line {}: {e}", n + 1)))?;
        if line.trim().is_empty() {
            continue;
        }
        let result = position(&line).and_then(|pos| {
            pos.try_legal_moves()
                .map(|list| (pos, list))
                .map_err(|e| Failure::Input(e.to_string()))
        });
        match (result, json) {
            (Ok((pos, list)), true) => {
                write!(out, "{{\"fen\":{},\"moves\":[", json_string(line.trim()))?;
                for (i, &mv) in list.iter().enumerate() {
                    if i > 0 {
                        write!(out, ",")?;
                    }
                    json_move(&pos, mv, out)?;
                }
                writeln!(out, "]}}")?;
            }
            (Ok((pos, list)), false) => {
                for (i, &mv) in list.iter().enumerate() {
                    write!(
                        out,
                        "{}{}",
                        if i == 0 { "" } else { " " },
                        pos.move_text(mv)
                    )?;
                }
                writeln!(out)?;
            }
            (Err(e), json) => {
                failed += 1;
                let msg = match e {
                    Failure::Input(m) => m,
                    Failure::Output(e) => return Err(Failure::Output(e)),
                };
                if json {
                    writeln!(
                        out,
                        "{{\"fen\":{},\"error\":{}}}",
                        json_string(line.trim()),
                        json_string(&msg)
                    )?;
                } else {
                    writeln!(out, "error: {msg}")?;
                }
            }
        }
    }
    if failed > 0 {
        return Err(Failure::Input(format!(
            "{failed} invalid position(s) on stdin"
        )));
    }
    Ok(())
}
