//! `perft chess` and `moves chess`: the same commands and output shapes as
//! for draughts, with moves in UCI (`e2e4`, `e7e8q`, castling `e1g1`).

use std::io::{BufRead, Write};
use std::time::Instant;

use board_core::chess::{Move, Position, perft_divide};

use crate::{Failure, report_timing};

/// Kiwipete (Peter McKenzie's perft position 2, Chess Programming Wiki).
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn position(text: &str) -> Result<Position, Failure> {
    match text.trim() {
        "startpos" => Ok(Position::startpos()),
        "kiwipete" => KIWIPETE
            .parse()
            .map_err(|e| Failure::Input(format!("kiwipete: {e}"))),
        fen => fen
            .parse()
            .map_err(|e| Failure::Input(format!("invalid chess position {text:?}: {e}"))),
    }
}

/// `boardwire perft chess <FEN|startpos|kiwipete> <depth> [--divide]`.
pub(crate) fn perft(
    text: &str,
    depth: u32,
    divide: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let pos = position(text)?;
    let start = Instant::now();
    if divide {
        let per_move = perft_divide(&pos, depth);
        let total: u64 = if depth == 0 {
            1
        } else {
            per_move.iter().map(|&(_, n)| n).sum()
        };
        let elapsed = start.elapsed();
        writeln!(out, "{total}")?;
        for (mv, n) in per_move.iter() {
            writeln!(out, "{mv} {n}")?;
        }
        report_timing(total, elapsed);
    } else {
        let nodes = board_core::chess::perft(&pos, depth);
        let elapsed = start.elapsed();
        writeln!(out, "{nodes}")?;
        report_timing(nodes, elapsed);
    }
    Ok(())
}

fn json_move(mv: Move, out: &mut impl Write) -> std::io::Result<()> {
    write!(out, "{{\"uci\":\"{mv}\"}}")
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

/// `boardwire moves chess <FEN|startpos|kiwipete|-> [--json]`.
pub(crate) fn moves(text: &str, json: bool, out: &mut impl Write) -> Result<(), Failure> {
    if text == "-" {
        return batch(json, out);
    }
    let pos = position(text)?;
    for &mv in pos.legal_moves().iter() {
        if json {
            json_move(mv, out)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{mv}")?;
        }
    }
    Ok(())
}

/// Batch mode: one position per stdin line, one answer line each:
/// `{"fen":...,"moves":[{"uci":...},...]}` with --json, else the UCI moves
/// separated by spaces; a bad position gets `{"fen":...,"error":...}` (or
/// `error: ...`) and the exit code becomes 2.
fn batch(json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let mut failed = 0usize;
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line =
            line.map_err(|e| Failure::Input(format!("reading stdin line {}: {e}", n + 1)))?;
        if line.trim().is_empty() {
            continue;
        }
        match (position(&line), json) {
            (Ok(pos), true) => {
                write!(out, "{{\"fen\":{},\"moves\":[", json_string(line.trim()))?;
                for (i, &mv) in pos.legal_moves().iter().enumerate() {
                    if i > 0 {
                        write!(out, ",")?;
                    }
                    json_move(mv, out)?;
                }
                writeln!(out, "]}}")?;
            }
            (Ok(pos), false) => {
                for (i, &mv) in pos.legal_moves().iter().enumerate() {
                    write!(out, "{}{mv}", if i == 0 { "" } else { " " })?;
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
