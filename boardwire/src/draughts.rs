//! `perft draughts` and `moves draughts`.

use std::io::Write;
use std::time::Instant;

use board_core::draughts::{Move, Position, perft_divide};

use crate::batch;
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
        let nodes = board_core::draughts::perft(&pos, depth);
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
    let parse = |line: &str| {
        let pos = position(line)?;
        let list = pos
            .try_legal_moves()
            .map_err(|e| Failure::Input(e.to_string()))?;
        Ok((pos, list))
    };
    batch::batch("fen", json, out, parse, |(pos, list), json, mut out| {
        for (i, &mv) in list.iter().enumerate() {
            if json {
                if i > 0 {
                    write!(out, ",")?;
                }
                json_move(pos, mv, &mut out)?;
            } else {
                write!(
                    out,
                    "{}{}",
                    if i == 0 { "" } else { " " },
                    pos.move_text(mv)
                )?;
            }
        }
        Ok(())
    })
}
