//! `perft` and `moves` for every game: the commands are written once here,
//! each game module (`draughts.rs`, `chess.rs`, `shogi.rs`) says how to
//! read its positions and write its moves ([`GameCli`]).
//!
//! Output shapes (README.md, "Output formats"): `perft` prints the node
//! count alone on the first line, with `--divide` then one `<move> <count>`
//! line per root move, and the timing on stderr; `moves` prints one move
//! per line (or one JSON object per line), batch mode one line per
//! position (`crate::batch`).

use std::io::Write;
use std::time::Instant;

use crate::batch;
use crate::{Failure, report_timing};

/// What `perft` and `moves` need to know about a game.
pub(crate) trait GameCli {
    /// A position.
    type Position;
    /// A legal move.
    type Move: Copy;
    /// The key naming the position in batch JSON lines (`fen`, `sfen`).
    const BATCH_KEY: &'static str;

    /// Reads a position from the command line or a batch line
    /// (`startpos` and the game's notation); errors are
    /// [`Failure::Input`] naming the text.
    fn position(text: &str) -> Result<Self::Position, Failure>;

    /// The legal moves, in the game's generation order.
    fn legal_moves(pos: &Self::Position) -> Result<Vec<Self::Move>, Failure>;

    /// The move as `moves` and `perft --divide` print it (PDN, UCI, USI).
    fn move_text(pos: &Self::Position, mv: Self::Move) -> String;

    /// The move as one JSON object.
    fn write_json_move(
        pos: &Self::Position,
        mv: Self::Move,
        out: &mut dyn Write,
    ) -> Result<(), Failure>;

    /// Leaf nodes at `depth` plies.
    fn perft(pos: &Self::Position, depth: u32) -> Result<u64, Failure>;

    /// Leaf nodes at `depth` plies: the total and the count below each
    /// root move.
    fn perft_divide(pos: &Self::Position, depth: u32) -> (u64, Vec<(Self::Move, u64)>);
}

/// `boardwire perft <game> <position> <depth> [--divide]`.
pub(crate) fn perft<G: GameCli>(
    text: &str,
    depth: u32,
    divide: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let pos = G::position(text)?;
    let start = Instant::now();
    if divide {
        let (total, per_move) = G::perft_divide(&pos, depth);
        let elapsed = start.elapsed();
        writeln!(out, "{total}")?;
        for &(mv, n) in &per_move {
            writeln!(out, "{} {n}", G::move_text(&pos, mv))?;
        }
        report_timing(total, elapsed);
    } else {
        let nodes = G::perft(&pos, depth)?;
        let elapsed = start.elapsed();
        writeln!(out, "{nodes}")?;
        report_timing(nodes, elapsed);
    }
    Ok(())
}

/// `boardwire moves <game> <position|-> [--json]`.
pub(crate) fn moves<G: GameCli>(
    text: &str,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    if text == "-" {
        return batch_moves::<G>(json, out);
    }
    let pos = G::position(text)?;
    for mv in G::legal_moves(&pos)? {
        if json {
            G::write_json_move(&pos, mv, out)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{}", G::move_text(&pos, mv))?;
        }
    }
    Ok(())
}

/// Batch mode: one position per stdin line, one answer line each
/// (`crate::batch::batch`): `{"<key>":...,"moves":[...]}` with --json, else
/// the moves separated by spaces.
fn batch_moves<G: GameCli>(json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let parse = |line: &str| {
        let pos = G::position(line)?;
        let list = G::legal_moves(&pos)?;
        Ok((pos, list))
    };
    batch::batch(G::BATCH_KEY, json, out, parse, |(pos, list), json, out| {
        for (i, &mv) in list.iter().enumerate() {
            if json {
                if i > 0 {
                    write!(out, ",")?;
                }
                G::write_json_move(pos, mv, out).map_err(|e| match e {
                    Failure::Output(e) => e,
                    Failure::Input(m) | Failure::Failed(m) => std::io::Error::other(m),
                })?;
            } else {
                let sep = if i == 0 { "" } else { " " };
                write!(out, "{sep}{}", G::move_text(pos, mv))?;
            }
        }
        Ok(())
    })
}
