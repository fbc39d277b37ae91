//! `perft shogi`, `moves shogi`, `show shogi`, `play shogi`: the same
//! commands and output shapes as for draughts, with positions in SFEN and
//! moves in USI (`7g7f`, `8h2b+`, `P*5e`) or CSA (`+7776FU`); `--json`
//! gives both (`{"usi":"7g7f","csa":"+7776FU"}`), batch lines say `"sfen"`.

use std::io::Write;

use board_core::shogi::{Move, Position, perft_divide};

use crate::Failure;
use crate::batch::json_string;
use crate::game::{GameCli, Notation};

/// Shogi for the game commands (`crate::game`).
pub(crate) struct Shogi;

impl GameCli for Shogi {
    type Position = Position;
    type Move = Move;
    const BATCH_KEY: &'static str = "sfen";
    const NAME: &'static str = "shogi";
    const NOTATIONS: &'static [Notation] = &[Notation::Usi, Notation::Csa];

    fn notation_text(pos: &Position, mv: Move, notation: Notation) -> String {
        match notation {
            // Every listed move is legal, so the CSA form exists; the USI
            // text stands in should it not.
            Notation::Csa => pos
                .move_to_csa(mv)
                .map_or_else(|_| mv.to_string(), |c| c.to_string()),
            _ => mv.to_string(),
        }
    }

    /// CSA when the text starts with its sign (`+`/`-`), else USI.
    fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
        if text.starts_with(['+', '-']) {
            pos.parse_csa_move(text.as_bytes())
                .map_err(|e| format!("not a legal CSA move here ({e})"))
        } else {
            pos.parse_usi(text)
                .map_err(|e| format!("not a legal USI move here ({e})"))
        }
    }

    fn play(pos: &mut Position, mv: Move) {
        pos.play_unchecked(mv);
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

    fn legal_moves(pos: &Position) -> Result<Vec<Move>, Failure> {
        Ok(pos.legal_moves().iter().copied().collect())
    }

    fn move_text(_: &Position, mv: Move) -> String {
        mv.to_string()
    }

    fn write_json_move(pos: &Position, mv: Move, out: &mut dyn Write) -> Result<(), Failure> {
        // Every listed move is legal, so the CSA form always exists.
        let csa = pos
            .move_to_csa(mv)
            .map_err(|e| Failure::Input(format!("internal: {mv} in {pos}: {e}")))?;
        write!(out, "{{\"usi\":\"{mv}\",\"csa\":\"{csa}\"}}")?;
        Ok(())
    }

    fn perft(pos: &Position, depth: u32) -> Result<u64, Failure> {
        Ok(board_core::shogi::perft(pos, depth))
    }

    fn perft_divide(pos: &Position, depth: u32) -> (u64, Vec<(Move, u64)>) {
        let (total, per_move) = perft_divide(pos, depth);
        (total, per_move.iter().copied().collect())
    }
}
