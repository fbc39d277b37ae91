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

use board_core::draughts::{Move, Position, perft_divide};

use crate::Failure;
use crate::batch::json_string;
use crate::game::{GameCli, Notation};

/// International draughts for the game commands (`crate::game`).
pub(crate) struct Draughts;

impl GameCli for Draughts {
    type Position = Position;
    type Move = Move;
    const BATCH_KEY: &'static str = "fen";
    const NAME: &'static str = "draughts";
    const NOTATIONS: &'static [Notation] = &[Notation::Pdn];

    fn notation_text(pos: &Position, mv: Move, _: Notation) -> String {
        pos.move_text(mv).to_string()
    }

    fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
        pos.parse_move(text)
            .map_err(|e| format!("not a legal PDN move here ({e})"))
    }

    fn play(pos: &mut Position, mv: Move) {
        pos.play_unchecked(mv);
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

    fn legal_moves(pos: &Position) -> Result<Vec<Move>, Failure> {
        let list = pos
            .try_legal_moves()
            .map_err(|e| Failure::Input(e.to_string()))?;
        let mut moves: Vec<Move> = list.iter().copied().collect();
        moves.sort_by_cached_key(order_key);
        Ok(moves)
    }

    fn move_text(pos: &Position, mv: Move) -> String {
        pos.move_text(mv).to_string()
    }

    fn write_json_move(pos: &Position, mv: Move, out: &mut dyn Write) -> Result<(), Failure> {
        write!(
            out,
            "{{\"from\":{},\"to\":{},\"captures\":[",
            mv.from(),
            mv.to()
        )?;
        for (i, s) in mv.captures().iter().enumerate() {
            write!(out, "{}{s}", if i == 0 { "" } else { "," })?;
        }
        write!(out, "],\"notation\":\"{}\"}}", pos.move_text(mv))?;
        Ok(())
    }

    fn perft(pos: &Position, depth: u32) -> Result<u64, Failure> {
        Ok(board_core::draughts::perft(pos, depth))
    }

    fn perft_divide(pos: &Position, depth: u32) -> (u64, Vec<(Move, u64)>) {
        let (total, per_move) = perft_divide(pos, depth);
        (total, per_move.iter().copied().collect())
    }
}

/// The order of move lists: from square, to square, then the captured
/// squares ascending (a set: the order of capture does not matter).
fn order_key(mv: &Move) -> (u8, u8, Vec<u8>) {
    let mut captured: Vec<u8> = mv.captures().iter().map(u8::from).collect();
    captured.sort_unstable();
    (u8::from(mv.from()), u8::from(mv.to()), captured)
}
