//! `perft chess`, `moves chess`, `show chess`, `play chess`: the same
//! commands and output shapes as for draughts, with moves in UCI (`e2e4`,
//! `e7e8q`, castling `e1g1`) or SAN (`e4`, `Nf3`, `O-O`, `e8=Q+`).

use std::io::Write;

use board_core::chess::{Move, Position, UciError};
use novag_citrine::convert::{TypedMoveError, parse_typed_move};

use crate::Failure;
use crate::batch::json_string;
use crate::game::{GameCli, Notation};

/// Kiwipete (Peter McKenzie's perft position 2, Chess Programming Wiki).
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Chess for the game commands (`crate::game`): FEN, `startpos` or
/// `kiwipete`; `--json` gives `{"uci":"e2e4","san":"e4"}`.
impl GameCli for Position {
    const BATCH_KEY: &'static str = "fen";
    const NOTATIONS: &'static [Notation] = &[Notation::Uci, Notation::San];

    fn notation_text(&self, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::San => self.san(mv).to_string(),
            _ => mv.to_string(),
        }
    }

    /// UCI first, then SAN (the library's `parse_typed_move`, which the
    /// Citrine prompt uses too); when both fail, the UCI reason for text
    /// that is UCI syntax (`e2e5`: illegal) or starts like a UCI move
    /// (`e2e9`, `e2e4k`: two squares' letters and a digit between), else
    /// the SAN reason.
    fn parse_any_move(&self, text: &str) -> Result<Move, String> {
        let TypedMoveError { uci, san } = match parse_typed_move(self, text) {
            Ok(mv) => return Ok(mv),
            Err(e) => e,
        };
        let b = text.as_bytes();
        let uci_shaped = b.len() >= 4
            && matches!(b[0], b'a'..=b'h')
            && b[1].is_ascii_digit()
            && matches!(b[2], b'a'..=b'h');
        Err(match uci {
            UciError::Illegal(_) => uci.to_string(),
            UciError::Syntax(_) if uci_shaped => uci.to_string(),
            UciError::Syntax(_) if san.problem.is_syntax() => {
                format!("neither UCI nor SAN ({san})")
            }
            // The SAN problem says itself what is wrong: "no legal move
            // matches: ...", "ambiguous: ...".
            UciError::Syntax(_) => san.problem.to_string(),
        })
    }

    fn position(text: &str) -> Result<Position, Failure> {
        match text.trim() {
            "startpos" => Ok(Position::startpos()),
            "kiwipete" => KIWIPETE
                .parse()
                .map_err(|e| Failure::Input(format!("kiwipete: {e}"))),
            // The FEN reader skips leading blanks itself: the text is read
            // as given, so the byte offset in the error indexes the quoted text.
            _ => text.parse().map_err(|e| {
                Failure::Input(format!("invalid chess position {}: {e}", json_string(text)))
            }),
        }
    }

    fn write_json_move(&self, mv: Move, out: &mut dyn Write) -> Result<(), Failure> {
        write!(out, "{{\"uci\":\"{mv}\",\"san\":\"{}\"}}", self.san(mv))?;
        Ok(())
    }
}
