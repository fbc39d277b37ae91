//! A CSA kifu writer (the CSA standard file format V2.2, as
//! `csa_protocol::kifu` reads it): names, game id, start time, the
//! position (`PI` for the initial position, else `P1`..`P9` and hands),
//! every move with its `T` line and its comment, the end statement.
//!
//! ```
//! use boardwire_engines::kifu::{Kifu, KifuMove};
//! use board_core::shogi::Position;
//! let start = Position::startpos();
//! let k = Kifu {
//!     names: [Some("sente".into()), Some("gote".into())],
//!     game_id: None,
//!     start: &start,
//!     moves: vec![KifuMove { csa: "+7776FU".into(), time: Some(3), comment: Some("* 30".into()) }],
//!     end: Some(csa_protocol::kifu::KifuSpecial::Toryo),
//! };
//! assert_eq!(k.to_string(), "V2.2\nN+sente\nN-gote\nPI\n+\n+7776FU\nT3\n'* 30\n%TORYO\n");
//! ```

use std::fmt;

use board_core::shogi::{Color, Position};
use csa_protocol::kifu::KifuSpecial;
use csa_protocol::message::EndReason;

/// One move of a kifu.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KifuMove {
    /// The CSA move (`+7776FU`).
    pub csa: String,
    /// Seconds charged (`T` line).
    pub time: Option<u64>,
    /// A comment written after it (`'` added; a Floodgate evaluation is
    /// `* 30 -3334FU`). Line ends in it are written as spaces.
    pub comment: Option<String>,
}

/// A game to write. `Display` writes the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kifu<'a> {
    /// Sente's and gote's names (`N+`, `N-`).
    pub names: [Option<String>; 2],
    /// `$EVENT`: the game id.
    pub game_id: Option<String>,
    /// The start position.
    pub start: &'a Position,
    /// The moves from it.
    pub moves: Vec<KifuMove>,
    /// The end statement.
    pub end: Option<KifuSpecial>,
}

/// The kifu end statement of a CSA server's end reason (`#RESIGN` →
/// `%TORYO`, `#TIME_UP` → `%TIME_UP`, `#SENNICHITE` → `%SENNICHITE`,
/// `#JISHOGI` → `%KACHI`, `#MAX_MOVES` → `%MAX_MOVES`, `#ILLEGAL_MOVE` →
/// `%ILLEGAL_MOVE`, `#OUTE_SENNICHITE` → `%±ILLEGAL_ACTION` of the side
/// that checked, here the side not to move, `#CHUDAN` → `%CHUDAN`).
pub fn end_statement(reason: EndReason, to_move: Color) -> Option<KifuSpecial> {
    Some(match reason {
        EndReason::Resign => KifuSpecial::Toryo,
        EndReason::TimeUp => KifuSpecial::TimeUp,
        EndReason::Sennichite => KifuSpecial::Sennichite,
        EndReason::Jishogi => KifuSpecial::Kachi,
        EndReason::MaxMoves => KifuSpecial::MaxMoves,
        EndReason::IllegalMove => KifuSpecial::IllegalMove,
        EndReason::Chudan => KifuSpecial::Chudan,
        EndReason::OuteSennichite => match to_move {
            Color::Black => KifuSpecial::IllegalActionWhite,
            Color::White => KifuSpecial::IllegalActionBlack,
        },
        _ => return None,
    })
}

fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

impl fmt::Display for Kifu<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("V2.2\n")?;
        for (sign, n) in ["+", "-"].iter().zip(&self.names) {
            if let Some(n) = n {
                writeln!(f, "N{sign}{}", one_line(n))?;
            }
        }
        if let Some(id) = &self.game_id {
            writeln!(f, "$EVENT:{}", one_line(id))?;
        }
        let initial = Position::startpos();
        if self.start.same_position(&initial) {
            f.write_str("PI\n+\n")?;
        } else {
            write!(f, "{}", self.start.csa())?;
        }
        for m in &self.moves {
            writeln!(f, "{}", m.csa)?;
            if let Some(t) = m.time {
                writeln!(f, "T{t}")?;
            }
            if let Some(c) = &m.comment {
                writeln!(f, "'{}", one_line(c))?;
            }
        }
        if let Some(e) = self.end {
            writeln!(f, "{}", e.as_str())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csa_protocol::kifu::parse_kifu;

    #[test]
    fn written_kifu_reads_back() {
        let start = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        let k = Kifu {
            names: [Some("a".into()), Some("b\nc".into())],
            game_id: Some("g-0-1+a+b+1".into()),
            start: &start,
            moves: vec![
                KifuMove {
                    csa: "+0055FU".into(),
                    time: Some(1),
                    comment: Some("* 100 -5152OU".into()),
                },
                KifuMove {
                    csa: "-5152OU".into(),
                    time: Some(0),
                    comment: None,
                },
            ],
            end: end_statement(EndReason::MaxMoves, Color::Black),
        };
        let text = k.to_string();
        let records = parse_kifu(text.as_bytes()).unwrap();
        assert_eq!(records.len(), 1);
        let r = &records[0];
        let moves = r.moves();
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].mv.to_string(), "+0055FU");
        assert_eq!(r.names().1, Some(&b"b c"[..]));
        assert_eq!(r.end().map(|e| e.0), Some(KifuSpecial::MaxMoves));
        assert!(text.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{text}");
    }
}
