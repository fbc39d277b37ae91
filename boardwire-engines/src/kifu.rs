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
//!     moves: vec![KifuMove { csa: "+7776FU".parse()?, time: Some(3), comment: Some("* 30".into()) }],
//!     end: Some(csa_protocol::kifu::KifuSpecial::Toryo),
//! };
//! assert_eq!(k.to_string(), "V2.2\nN+sente\nN-gote\nPI\n+\n+7776FU\nT3\n'* 30\n%TORYO\n");
//! # Ok::<(), board_core::shogi::ParseCsaMoveError>(())
//! ```

use std::fmt;

use board_core::shogi::{Color, CsaMove, Position};
use csa_protocol::kifu::{Comment, Item, KifuSpecial, Record, write_record};
use csa_protocol::message::EndReason;
use csa_protocol::types::{MoveTime, Side};

/// One move of a kifu.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KifuMove {
    /// The CSA move (`+7776FU`).
    pub csa: CsaMove,
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

/// Written by csa-protocol's kifu writer (`csa_protocol::kifu::write_record`,
/// the one CSA writer of the workspace), so the file reads back with its
/// reader.
impl fmt::Display for Kifu<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self.names.clone().map(|n| n.map(|n| one_line(&n)));
        let game_id = self.game_id.as_deref().map(one_line);
        let comments: Vec<Option<String>> = self
            .moves
            .iter()
            .map(|m| m.comment.as_deref().map(one_line))
            .collect();
        let position = (!self.start.same_position(&Position::startpos()))
            .then(|| self.start.csa().to_string());
        let mut items = vec![Item::Version("2.2")];
        for (side, name) in [Side::Black, Side::White].into_iter().zip(&names) {
            if let Some(name) = name {
                items.push(Item::Name {
                    side,
                    name: name.as_bytes(),
                });
            }
        }
        if let Some(id) = &game_id {
            items.push(Item::Info {
                key: "EVENT",
                value: id.as_bytes(),
            });
        }
        match &position {
            None => items.extend([Item::Position("PI"), Item::SideToMove(Side::Black)]),
            Some(text) => items.extend(text.lines().map(|line| match line {
                "+" => Item::SideToMove(Side::Black),
                "-" => Item::SideToMove(Side::White),
                line => Item::Position(line),
            })),
        }
        for (m, comment) in self.moves.iter().zip(&comments) {
            items.push(Item::Move(m.csa));
            if let Some(t) = m.time {
                items.push(Item::Time(MoveTime::from_secs(t)));
            }
            if let Some(c) = comment.as_deref().and_then(|c| Comment::new(c.as_bytes())) {
                items.push(Item::Comment(c));
            }
        }
        if let Some(e) = self.end {
            items.push(Item::Special(e));
        }
        let mut out = Vec::new();
        write_record(&Record { items }, &mut out);
        f.write_str(&String::from_utf8_lossy(&out))
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
                    csa: "+0055FU".parse().unwrap(),
                    time: Some(1),
                    comment: Some("* 100 -5152OU".into()),
                },
                KifuMove {
                    csa: "-5152OU".parse().unwrap(),
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
        assert_eq!(r.names().1, Some("b c"));
        assert_eq!(r.end().map(|e| e.0), Some(KifuSpecial::MaxMoves));
        assert!(text.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{text}");
    }
}
