//! `boardwire convert` and `boardwire show --record` for shogi records:
//! CSA files (csa-protocol's kifu reader and writer, several records
//! separated by `/`), KIF and KI2 (board-records' `kif`, one game per
//! file). A game goes from one to the other through what all three hold:
//! the start position, the moves with the seconds each took, the names,
//! the game id (CSA `$EVENT`, KIF `棋戦`) and the ending. Comments and KIF
//! variations are not carried over.
//!
//! Encodings: KIF/KI2 are read as the file says (`#KIF … encoding=`, BOM,
//! the bytes, the extension: board-records' `kif::read`); written in
//! Shift_JIS for `.kif`/`.ki2` and UTF-8 otherwise (standard output
//! included), with KIF's `#KIF version=2.0 encoding=…` line. CSA is
//! written as V2.2 (csa-protocol's `Kifu`).

use board_core::shogi::{Color, Move, Position};
use board_records::kif::{self, Ending, MoveTime, TextEncoding};
use csa_protocol::kifu::{GameMove, Kifu, KifuSpecial, parse_kifu};

/// A shogi record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShogiFormat {
    /// CSA standard file format.
    Csa,
    /// KIF.
    Kif,
    /// KI2.
    Ki2,
}

/// A game as the three formats share it.
#[derive(Debug, Clone)]
pub struct ShogiGame {
    /// The start position.
    pub start: Position,
    /// The moves, each with its seconds when known.
    pub moves: Vec<(Move, Option<u32>)>,
    /// Black's and White's names.
    pub names: [Option<String>; 2],
    /// CSA `$EVENT`, KIF `棋戦`.
    pub game_id: Option<String>,
    /// The ending, as KIF says it.
    pub end: Option<Ending>,
}

/// The KIF ending of a CSA special move, `stm` to move (shogi-records
/// §3.6; `%±ILLEGAL_ACTION` names the offender).
fn ending_of(special: KifuSpecial, stm: Color) -> Option<Ending> {
    let offender = |c: Color| {
        if c == stm {
            Ending::IllegalLoss
        } else {
            Ending::IllegalWin
        }
    };
    Some(match special {
        KifuSpecial::Toryo => Ending::Resign,
        KifuSpecial::Chudan | KifuSpecial::MaxMoves => Ending::Interrupt,
        KifuSpecial::Sennichite => Ending::Repetition,
        KifuSpecial::TimeUp => Ending::TimeUp,
        KifuSpecial::IllegalMove => Ending::IllegalLoss,
        KifuSpecial::IllegalActionBlack => offender(Color::Black),
        KifuSpecial::IllegalActionWhite => offender(Color::White),
        KifuSpecial::Jishogi | KifuSpecial::Hikiwake => Ending::Impasse,
        KifuSpecial::Kachi => Ending::EnteringKingWin,
        KifuSpecial::Tsumi => Ending::Mate,
        KifuSpecial::Fuzumi => Ending::NoMate,
        _ => return None,
    })
}

/// The CSA special move of a KIF ending, `stm` to move.
fn special_of(end: Ending, stm: Color) -> KifuSpecial {
    let action = |c: Color| match c {
        Color::Black => KifuSpecial::IllegalActionBlack,
        Color::White => KifuSpecial::IllegalActionWhite,
    };
    match end {
        Ending::Resign => KifuSpecial::Toryo,
        Ending::Interrupt | Ending::Sealed => KifuSpecial::Chudan,
        Ending::Repetition => KifuSpecial::Sennichite,
        Ending::Mate => KifuSpecial::Tsumi,
        Ending::Impasse => KifuSpecial::Jishogi,
        Ending::TimeUp => KifuSpecial::TimeUp,
        Ending::IllegalWin => action(stm.opposite()),
        Ending::IllegalLoss => action(stm),
        Ending::EnteringKingWin => KifuSpecial::Kachi,
        Ending::NoMate => KifuSpecial::Fuzumi,
        _ => KifuSpecial::Chudan,
    }
}

impl ShogiGame {
    /// The position after `ply` moves (`None` past the end).
    pub fn position_after(&self, ply: usize) -> Option<Position> {
        let mut pos = self.start;
        for (mv, _) in self.moves.get(..ply)? {
            pos.play_unchecked(*mv);
        }
        Some(pos)
    }

    fn from_kif(g: &kif::Game) -> ShogiGame {
        ShogiGame {
            start: g.start,
            moves: g
                .main
                .moves
                .iter()
                .map(|n| (n.mv, n.time.map(|t| t.spent)))
                .collect(),
            names: [g.black(), g.white()].map(|n| n.map(str::to_owned)),
            game_id: g.header("棋戦").map(str::to_owned),
            end: g.main.end.map(|e| e.0),
        }
    }

    fn to_kif(&self) -> kif::Game {
        let mut g = kif::Game::new(self.start);
        if let Some(id) = &self.game_id {
            g.headers.push(("棋戦".into(), id.clone()));
        }
        for (key, name) in ["先手", "後手"].iter().zip(&self.names) {
            if let Some(name) = name {
                g.headers.push(((*key).into(), name.clone()));
            }
        }
        let mut totals = [0u32; 2];
        let mut stm = self.start.side_to_move();
        for &(mv, spent) in &self.moves {
            let mut node = kif::Node::new(mv);
            if let Some(s) = spent {
                let total = &mut totals[usize::from(stm == Color::White)];
                *total = total.saturating_add(s);
                node.time = Some(MoveTime {
                    spent: s,
                    total: Some(*total),
                });
            }
            g.main.moves.push(node);
            stm = stm.opposite();
        }
        g.main.end = self.end.map(|e| (e, None));
        g
    }

    fn end_position(&self) -> Position {
        self.position_after(self.moves.len()).unwrap_or(self.start)
    }

    fn to_csa(&self) -> String {
        let mut pos = self.start;
        let mut moves = Vec::with_capacity(self.moves.len());
        for &(mv, time) in &self.moves {
            let Ok(csa) = pos.move_to_csa(mv) else { break };
            moves.push(GameMove {
                csa,
                time: time.map(u64::from),
                comment: None,
            });
            pos.play_unchecked(mv);
        }
        let stm = pos.side_to_move();
        Kifu {
            names: self.names.clone(),
            game_id: self.game_id.clone(),
            start: &self.start,
            moves,
            end: self.end.map(|e| special_of(e, stm)),
        }
        .to_string()
    }

    /// `startpos moves 7g7f 3c3d` or `sfen <SFEN> moves …` (USI; no
    /// ` moves` without moves).
    pub fn usi_line(&self) -> String {
        let mut line = if self.start.same_position(&Position::startpos()) {
            String::from("startpos")
        } else {
            format!("sfen {}", self.start)
        };
        if !self.moves.is_empty() {
            line.push_str(" moves");
        }
        for (mv, _) in &self.moves {
            line.push(' ');
            line.push_str(&mv.to_string());
        }
        line
    }
}

/// The games of a shogi record; each game that does not read is printed
/// (`error: NAME: …`) and counted.
pub fn read_games(data: &[u8], format: ShogiFormat, name: &str) -> (Vec<ShogiGame>, usize) {
    let hint = encoding_of(name);
    match format {
        ShogiFormat::Kif | ShogiFormat::Ki2 => {
            let hint = (name != "-" && name != "standard input").then_some(hint);
            match kif::read(data, hint) {
                // The reader skips lines it does not know (as Kifu for
                // Windows, cshogi and python-shogi do), so any text reads;
                // one with no KIF item at all is not a record.
                Ok(g) if is_blank(&g) => {
                    eprintln!(
                        "error: {name}: not a KIF/KI2 record: no header, board diagram, move or ending line"
                    );
                    (Vec::new(), 1)
                }
                Ok(g) => (vec![ShogiGame::from_kif(&g)], 0),
                Err(e) => {
                    eprintln!("error: {name}: {e}");
                    (Vec::new(), 1)
                }
            }
        }
        ShogiFormat::Csa => {
            let records = match parse_kifu(data) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {name}: {e}");
                    return (Vec::new(), 1);
                }
            };
            let mut bad = 0;
            let mut games = Vec::new();
            for (k, r) in records.iter().enumerate() {
                match csa_game(r) {
                    Ok(g) => games.push(g),
                    Err(why) => {
                        bad += 1;
                        eprintln!("error: {name}: record {}: {why}", k + 1);
                    }
                }
            }
            (games, bad)
        }
    }
}

/// `true` when `g` holds nothing a KIF or KI2 line put there.
fn is_blank(g: &kif::Game) -> bool {
    g.headers.is_empty()
        && g.program_lines.is_empty()
        // The reader names the even start `Even` with or without a
        // `手合割：平手` line.
        && matches!(g.handicap, None | Some(kif::Handicap::Even))
        && g.start == Position::startpos()
        && g.start_notes.is_empty()
        && g.main.moves.is_empty()
        && g.main.end.is_none()
        && g.main.summary.is_none()
}

/// One CSA record as a game: its position (the even start when it has
/// none), its moves checked.
fn csa_game(r: &csa_protocol::kifu::Record<'_>) -> Result<ShogiGame, String> {
    let text = r.position_text();
    let start = if text.is_empty() {
        Position::startpos()
    } else {
        Position::from_csa(text.as_bytes()).map_err(|e| format!("start position: {e}"))?
    };
    let mut pos = start;
    let mut moves = Vec::new();
    for (i, m) in r.iter_moves().enumerate() {
        let mv = pos
            .move_from_csa(&m.mv)
            .map_err(|e| format!("move {} ({}): {e}", i + 1, m.mv))?;
        pos.play_unchecked(mv);
        let secs = m
            .time
            .map(|t| u32::try_from(t.as_secs()).unwrap_or(u32::MAX));
        moves.push((mv, secs));
    }
    let (b, w) = r.names();
    let id = r
        .info("EVENT")
        .map(|v| String::from_utf8_lossy(v).into_owned());
    Ok(ShogiGame {
        start,
        moves,
        names: [b, w].map(|n| n.map(str::to_owned)),
        game_id: id,
        end: r.end().and_then(|(s, _)| ending_of(s, pos.side_to_move())),
    })
}

/// The encoding of a KIF/KI2 file named `name`: Shift_JIS for `.kif` and
/// `.ki2` (shogi-records §1.1), UTF-8 otherwise.
pub fn encoding_of(name: &str) -> TextEncoding {
    crate::kif_save::kif_encoding(std::path::Path::new(name))
}

/// The bytes of `games` written in `format` to a file named `out` (`-`:
/// standard output); KIF and KI2 hold one game.
pub fn write_games(games: &[ShogiGame], format: ShogiFormat, out: &str) -> Result<Vec<u8>, String> {
    match format {
        ShogiFormat::Csa => {
            let text: Vec<String> = games.iter().map(ShogiGame::to_csa).collect();
            Ok(text.join("/\n").into_bytes())
        }
        ShogiFormat::Kif | ShogiFormat::Ki2 => {
            let [g] = games else {
                return Err(format!(
                    "KIF and KI2 hold one game and the input has {}: write CSA or --to moves",
                    games.len()
                ));
            };
            let f = if format == ShogiFormat::Kif {
                kif::Format::Kif
            } else {
                kif::Format::Ki2
            };
            let enc = if out == "-" {
                TextEncoding::Utf8
            } else {
                encoding_of(out)
            };
            Ok(g.to_kif().to_bytes(f, enc))
        }
    }
}

/// The game's end position (for `show`).
pub fn end_position(g: &ShogiGame) -> Position {
    g.end_position()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_specials_and_kif_endings_map_both_ways() {
        // shogi-records §3.6: %TORYO the STM resigns (投了), %+ILLEGAL_ACTION
        // Black fouled: with Black to move 反則負け, with White to move
        // 反則勝ち (the previous move was illegal).
        let b = Color::Black;
        assert_eq!(ending_of(KifuSpecial::Toryo, b), Some(Ending::Resign));
        assert_eq!(
            ending_of(KifuSpecial::IllegalActionBlack, b),
            Some(Ending::IllegalLoss)
        );
        assert_eq!(
            ending_of(KifuSpecial::IllegalActionBlack, Color::White),
            Some(Ending::IllegalWin)
        );
        assert_eq!(
            ending_of(KifuSpecial::Kachi, b),
            Some(Ending::EnteringKingWin)
        );
        for e in [
            Ending::Resign,
            Ending::Interrupt,
            Ending::Repetition,
            Ending::Mate,
            Ending::TimeUp,
            Ending::IllegalWin,
            Ending::IllegalLoss,
            Ending::EnteringKingWin,
        ] {
            for stm in [Color::Black, Color::White] {
                assert_eq!(ending_of(special_of(e, stm), stm), Some(e), "{e:?} {stm:?}");
            }
        }
    }
}
