//! `perft shogi`, `moves shogi`, `show shogi`, `play shogi`: the same
//! commands and output shapes as for draughts, with positions in SFEN and
//! moves in USI (`7g7f`, `8h2b+`, `P*5e`) or CSA (`+7776FU`); `--json`
//! gives both (`{"usi":"7g7f","csa":"+7776FU"}`), batch lines say `"sfen"`.

use std::io::Write;

use board_core::shogi::{Move, Position};

use crate::Failure;
use crate::batch::json_string;
use crate::game::{GameCli, Notation};

/// Shogi for the game commands (`crate::game`).
impl GameCli for Position {
    const BATCH_KEY: &'static str = "sfen";
    const NOTATIONS: &'static [Notation] = &[Notation::Usi, Notation::Csa];

    fn notation_text(&self, mv: Move, notation: Notation) -> String {
        match notation {
            // Every listed move is legal, so the CSA form exists; the USI
            // text stands in should it not.
            Notation::Csa => self
                .move_to_csa(mv)
                .map_or_else(|_| mv.to_string(), |c| c.to_string()),
            _ => mv.to_string(),
        }
    }

    /// CSA when the text starts with its sign (`+`/`-`), else USI.
    fn parse_any_move(&self, text: &str) -> Result<Move, String> {
        if text.starts_with(['+', '-']) {
            self.parse_csa_move(text.as_bytes())
                .map_err(|e| format!("not a legal CSA move here ({e})"))
        } else {
            self.parse_usi(text)
                .map_err(|e| format!("not a legal USI move here ({e})"))
        }
    }

    fn position(text: &str) -> Result<Position, Failure> {
        let text = text.trim();
        // `sfen <SFEN>` (the USI `position` form) is accepted too.
        let sfen = text.strip_prefix("sfen ").unwrap_or(text);
        // The text quoted is the text read, so the byte offset in the error
        // indexes it.
        sfen.parse().map_err(|e| {
            Failure::Input(format!("invalid shogi position {}: {e}", json_string(sfen)))
        })
    }

    fn write_json_move(&self, mv: Move, out: &mut dyn Write) -> Result<(), Failure> {
        // Every listed move is legal, so the CSA form always exists.
        let csa = self
            .move_to_csa(mv)
            .map_err(|e| Failure::Input(format!("internal: {mv} in {self}: {e}")))?;
        write!(out, "{{\"usi\":\"{mv}\",\"csa\":\"{csa}\"}}")?;
        Ok(())
    }
}
