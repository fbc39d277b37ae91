//! `perft shogi` and `moves shogi`: the same commands and output shapes as
//! for draughts, with positions in SFEN and moves in USI (`7g7f`, `8h2b+`,
//! `P*5e`); `--json` adds the CSA form (`{"usi":"7g7f","csa":"+7776FU"}`).

use std::io::Write;
use std::time::Instant;

use board_core::shogi::{Move, Position, perft_divide};

use crate::batch;
use crate::{Failure, report_timing};

fn position(text: &str) -> Result<Position, Failure> {
    let text = text.trim();
    // `sfen <SFEN>` (the USI `position` form) is accepted too.
    let sfen = text.strip_prefix("sfen ").unwrap_or(text);
    sfen.parse()
        .map_err(|e| Failure::Input(format!("invalid shogi position {text:?}: {e}")))
}

/// `boardwire perft shogi <SFEN|startpos> <depth> [--divide]`.
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
            writeln!(out, "{mv} {n}")?;
        }
        report_timing(total, elapsed);
    } else {
        let nodes = board_core::shogi::perft(&pos, depth);
        let elapsed = start.elapsed();
        writeln!(out, "{nodes}")?;
        report_timing(nodes, elapsed);
    }
    Ok(())
}

fn json_move(pos: &Position, mv: Move, out: &mut impl Write) -> Result<(), Failure> {
    // Every listed move is legal, so the CSA form always exists.
    let csa = pos
        .move_to_csa(mv)
        .map_err(|e| Failure::Input(format!("internal: {mv} in {pos}: {e}")))?;
    write!(out, "{{\"usi\":\"{mv}\",\"csa\":\"{csa}\"}}")?;
    Ok(())
}

/// `boardwire moves shogi <SFEN|startpos|-> [--json]`.
pub(crate) fn moves(text: &str, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    if text == "-" {
        return batch(json, out);
    }
    let pos = position(text)?;
    for &mv in pos.legal_moves().iter() {
        if json {
            json_move(&pos, mv, out)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{mv}")?;
        }
    }
    Ok(())
}

/// Batch mode: one SFEN per stdin line, one answer line each:
/// `{"sfen":...,"moves":[{"usi":...,"csa":...},...]}` with --json, else
/// the USI moves separated by spaces; a bad position gets
/// `{"sfen":...,"error":...}` (or `error: ...`) and exit code 2 at the end.
fn batch(json: bool, out: &mut impl Write) -> Result<(), Failure> {
    batch::batch("sfen", json, out, position, |pos, json, mut out| {
        for (i, &mv) in pos.legal_moves().iter().enumerate() {
            if json {
                if i > 0 {
                    write!(out, ",")?;
                }
                json_move(pos, mv, &mut out).map_err(|e| match e {
                    Failure::Output(e) => e,
                    Failure::Input(m) | Failure::Failed(m) => std::io::Error::other(m),
                })?;
            } else {
                write!(out, "{}{mv}", if i == 0 { "" } else { " " })?;
            }
        }
        Ok(())
    })
}
