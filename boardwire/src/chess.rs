//! `perft chess`, `moves chess`, `show chess`, `play chess`: the same
//! commands and output shapes as for draughts, with moves in UCI (`e2e4`,
//! `e7e8q`, castling `e1g1`) or SAN (`e4`, `Nf3`, `O-O`, `e8=Q+`).

use std::io::Write;

use board_core::chess::{Move, Position, UciError, perft_divide};

use crate::Failure;
use crate::batch::json_string;
use crate::game::{GameCli, Notation};

/// Kiwipete (Peter McKenzie's perft position 2, Chess Programming Wiki).
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Chess for the game commands (`crate::game`): FEN, `startpos` or
/// `kiwipete`; `--json` gives `{"uci":"e2e4","san":"e4"}`.
pub(crate) struct Chess;

impl GameCli for Chess {
    type Position = Position;
    type Move = Move;
    const BATCH_KEY: &'static str = "fen";
    const NAME: &'static str = "chess";
    const NOTATIONS: &'static [Notation] = &[Notation::Uci, Notation::San];

    fn notation_text(pos: &Position, mv: Move, notation: Notation) -> String {
        match notation {
            Notation::San => pos.san(mv).to_string(),
            _ => mv.to_string(),
        }
    }

    /// UCI first, then SAN; when both fail, the UCI reason for text that
    /// is UCI syntax (`e2e5`: illegal), else the SAN reason.
    fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
        let uci = match pos.parse_uci(text) {
            Ok(mv) => return Ok(mv),
            Err(e) => e,
        };
        match pos.parse_san(text) {
            Ok(mv) => Ok(mv),
            Err(san) => Err(match uci {
                UciError::Illegal(_) => uci.to_string(),
                UciError::Syntax(_) if san.problem.is_syntax() => {
                    format!("neither UCI nor SAN ({san})")
                }
                UciError::Syntax(_) => format!("illegal: {}", san.problem),
            }),
        }
    }

    fn play(pos: &mut Position, mv: Move) {
        pos.play_unchecked(mv);
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

    fn legal_moves(pos: &Position) -> Result<Vec<Move>, Failure> {
        Ok(pos.legal_moves().iter().copied().collect())
    }

    fn move_text(_: &Position, mv: Move) -> String {
        mv.to_string()
    }

    fn write_json_move(pos: &Position, mv: Move, out: &mut dyn Write) -> Result<(), Failure> {
        write!(out, "{{\"uci\":\"{mv}\",\"san\":\"{}\"}}", pos.san(mv))?;
        Ok(())
    }

    fn perft(pos: &Position, depth: u32) -> Result<u64, Failure> {
        Ok(board_core::chess::perft(pos, depth))
    }

    fn perft_divide(pos: &Position, depth: u32) -> (u64, Vec<(Move, u64)>) {
        let (total, per_move) = perft_divide(pos, depth);
        (total, per_move.iter().copied().collect())
    }
}
