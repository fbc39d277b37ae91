//! Helpers shared by the PGN test files.

use board_records::pgn::Game;

/// The game's main line in UCI, a null move as `0000` (python-chess's
/// form, as the peers' expected files write it).
pub fn uci_line(g: &Game) -> String {
    g.moves
        .iter()
        .map(|n| n.mv().map_or("0000".to_string(), |m| m.to_string()))
        .collect::<Vec<_>>()
        .join(" ")
}
