//! `perft draughts`, `moves draughts`, `show draughts`, `play draughts`:
//! positions in PDN FEN (or
//! `startpos`), moves in PDN (`32-28`, `28x19`, every landing square
//! `11x18x25` when the short form is ambiguous); `--json` gives
//! `{"from":32,"to":28,"captures":[],"notation":"32-28"}`.
//!
//! Move lists (`moves draughts`, plain, `--json` and batch) are in one
//! documented order: by from square, then to square, then captured set
//! (the captured squares in ascending order, compared as sequences).

use std::io::Write;

use board_core::draughts::{Move, Position};

use crate::Failure;
use crate::batch::json_string;
use crate::game::{GameCli, Notation};

/// International draughts for the game commands (`crate::game`).
impl GameCli for Position {
    const BATCH_KEY: &'static str = "fen";
    const NOTATIONS: &'static [Notation] = &[Notation::Pdn];

    fn notation_text(&self, mv: Move, _: Notation) -> String {
        self.move_text(mv).to_string()
    }

    fn parse_any_move(&self, text: &str) -> Result<Move, String> {
        self.parse_move(text)
            .map_err(|e| format!("not a legal PDN move here ({e})"))
    }

    fn position(text: &str) -> Result<Position, Failure> {
        if text.trim() == "startpos" {
            return Ok(Position::startpos());
        }
        text.parse().map_err(|e| {
            Failure::Input(format!(
                "invalid draughts position {}: {e}",
                json_string(text)
            ))
        })
    }

    /// In the documented order (module docs), and a full list is an error.
    fn listed_moves(&self) -> Result<Vec<Move>, Failure> {
        let list = self
            .try_legal_moves()
            .map_err(|e| Failure::Input(e.to_string()))?;
        let mut moves: Vec<Move> = list.to_vec();
        moves.sort_by_cached_key(order_key);
        Ok(moves)
    }

    fn write_json_move(&self, mv: Move, out: &mut dyn Write) -> Result<(), Failure> {
        write!(
            out,
            "{{\"from\":{},\"to\":{},\"captures\":[",
            mv.from(),
            mv.to()
        )?;
        for (i, s) in mv.captures().iter().enumerate() {
            write!(out, "{}{s}", if i == 0 { "" } else { "," })?;
        }
        write!(out, "],\"notation\":\"{}\"}}", self.move_text(mv))?;
        Ok(())
    }
}

/// The order of move lists: from square, to square, then the captured
/// squares ascending (a set: the order of capture does not matter).
fn order_key(mv: &Move) -> (u8, u8, Vec<u8>) {
    let mut captured: Vec<u8> = mv.captures().iter().map(u8::from).collect();
    captured.sort_unstable();
    (u8::from(mv.from()), u8::from(mv.to()), captured)
}
