//! `perft chess` and `moves chess`: the same commands and output shapes as
//! for draughts, with moves in UCI (`e2e4`, `e7e8q`, castling `e1g1`).

use std::io::Write;
use std::time::Instant;

use board_core::chess::{Move, Position, perft_divide};

use crate::batch;
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
    batch::batch("fen", json, out, position, |pos, json, mut out| {
        for (i, &mv) in pos.legal_moves().iter().enumerate() {
            if json {
                if i > 0 {
                    write!(out, ",")?;
                }
                json_move(mv, &mut out)?;
            } else {
                write!(out, "{}{mv}", if i == 0 { "" } else { " " })?;
            }
        }
        Ok(())
    })
}
