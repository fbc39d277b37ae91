//! Draughts `perft` of one position, for instruction counts (`valgrind
//! --tool=callgrind`) and quick timings of the move generator.
//!
//! `cargo run --release -p board-core --example draughts_perft -- <depth> [FEN]`
//! (default: the start position). Prints the leaf count.

use board_core::draughts::{Position, perft};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = match args.next().map(|d| d.parse()) {
        Some(Ok(d)) => d,
        _ => {
            eprintln!("usage: draughts_perft <depth> [FEN]");
            std::process::exit(2);
        }
    };
    let position = match args.next() {
        None => Position::startpos(),
        Some(fen) => match fen.parse::<Position>() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad FEN {fen:?}: {e}");
                std::process::exit(2);
            }
        },
    };
    println!("{}", perft(&position, depth));
}
