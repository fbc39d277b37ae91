//! `csa connect --kif FILE`: each game played saved in KIF as it goes
//! (`board_records::kif`), from the client session's events
//! ([`csa_protocol::transcript::Log::event`]).
//!
//! KIF holds one game per file (the format has no game separator): the
//! first game goes to FILE, game K of a run (x1 `--games N`) to
//! `STEM-K.EXT`. The encoding follows the extension as the format page
//! says: Shift_JIS for `.kif`, UTF-8 for any other (`.kifu`), with the
//! `#KIF version=2.0 encoding=…` line. After every move the game's file
//! is written whole to a temporary file in the same directory and
//! renamed over it (one game of at most [`MAX_RECORDED_PLIES`] plies), so
//! whoever reads it — also after the process is killed or the connection
//! drops — sees the game before or after a move, never half of one.
//!
//! What is written: `開始日時` (local time), `棋戦` (the Game_ID), `先手` and
//! `後手` (the Game_Summary's names), `手合割` (or a board diagram for
//! another start), the moves of the Game_Summary's Position block (no
//! time), then each confirmed move with the time the server charged
//! (`T`) and the side's total. The ending: `#RESIGN` 投了, `#TIME_UP`
//! 切れ負け, `#SENNICHITE` 千日手, `#OUTE_SENNICHITE` 反則勝ち (the side
//! to move wins: the checking side fouled), `#ILLEGAL_MOVE` and
//! `#ILLEGAL_ACTION` 反則勝ち or 反則負け as the result says, `#JISHOGI`
//! 入玉勝ち or 反則負け as the result says, `#MAX_MOVES`, `#CHUDAN` and a
//! connection closed during the game 中断 (KIF has no word for a move
//! limit; shogi-server declares no winner, `#CENSORED`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use board_core::shogi::Color;
use board_records::kif::{self, CommentKind, Ending, MoveTime, TextEncoding};
use csa_protocol::message::EndReason;
use csa_protocol::session::{Client, Event, Outcome};
use csa_protocol::types::Side;

use crate::record::MAX_RECORDED_PLIES;

/// The KIF files of a `csa connect` run.
#[derive(Debug)]
pub struct KifSaver {
    path: PathBuf,
    encoding: TextEncoding,
    /// Games started in this run.
    games: u32,
    /// The game being played and its file.
    game: Option<(kif::Game, PathBuf)>,
    /// Seconds used by Black and White so far.
    totals: [u32; 2],
    /// The last Game_Summary's Game_ID and names.
    summary: (Option<String>, [Option<String>; 2]),
    /// A write failed (reported once).
    failed: bool,
}

/// The encoding of a KIF file named `path`: Shift_JIS for `.kif`
/// (shogi-records §1.1), UTF-8 otherwise.
pub fn kif_encoding(path: &Path) -> TextEncoding {
    let kif = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("kif") || e.eq_ignore_ascii_case("ki2"));
    if kif {
        TextEncoding::ShiftJis
    } else {
        TextEncoding::Utf8
    }
}

/// The file of game `k` (1-based) of a run saving to `path`: `path`
/// itself, then `STEM-K.EXT`.
pub fn nth_file(path: &Path, k: u32) -> PathBuf {
    if k <= 1 {
        return path.to_owned();
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{k}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    path.with_file_name(name)
}

/// The KIF ending of a game that ended for `reason` with `outcome` for
/// `us`, `stm` to move at the end.
fn ending(reason: Option<EndReason>, outcome: Outcome, us: Option<Side>, stm: Color) -> Ending {
    let stm_won = match (outcome, us) {
        (Outcome::Won, Some(side)) => Some(side_color(side) == stm),
        (Outcome::Lost, Some(side)) => Some(side_color(side) != stm),
        _ => None,
    };
    let foul = |stm_won: Option<bool>| match stm_won {
        Some(false) => Ending::IllegalLoss,
        _ => Ending::IllegalWin,
    };
    match reason {
        Some(EndReason::Resign) => Ending::Resign,
        Some(EndReason::TimeUp) => Ending::TimeUp,
        Some(EndReason::Sennichite) => Ending::Repetition,
        Some(EndReason::OuteSennichite) => Ending::IllegalWin,
        Some(EndReason::IllegalMove | EndReason::IllegalAction) => foul(stm_won),
        Some(EndReason::Jishogi) => match stm_won {
            Some(true) => Ending::EnteringKingWin,
            Some(false) => Ending::IllegalLoss,
            None => Ending::Impasse,
        },
        Some(EndReason::MaxMoves | EndReason::Chudan) | Some(_) | None => Ending::Interrupt,
    }
}

fn side_color(side: Side) -> Color {
    match side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    }
}

impl KifSaver {
    /// A saver for `path` (not written before the first game).
    pub fn new(path: &Path) -> KifSaver {
        KifSaver {
            path: path.to_owned(),
            encoding: kif_encoding(path),
            games: 0,
            game: None,
            totals: [0, 0],
            summary: (None, [None, None]),
            failed: false,
        }
    }

    fn write(&mut self) {
        let Some((game, file)) = &self.game else {
            return;
        };
        let bytes = game.to_bytes(kif::Format::Kif, self.encoding);
        if let Err(e) = csa_league::operator::write_atomic(file, &bytes)
            && !std::mem::replace(&mut self.failed, true)
        {
            eprintln!("error: saving the KIF record to {}: {e}", file.display());
        }
    }

    /// An event of the session (`client` after it).
    pub fn event(&mut self, client: &Client<Instant>, e: &Event) {
        match e {
            Event::GameSummary(s) => {
                self.summary = (
                    s.game_id.as_ref().map(|g| g.to_string()),
                    [&s.name_black, &s.name_white].map(|n| n.as_ref().map(|n| n.to_string())),
                );
            }
            Event::GameStarted(_) => {
                let Some(start) = client.start_position() else {
                    return;
                };
                self.games += 1;
                self.totals = [0, 0];
                let mut game = kif::Game::new(*start);
                let now = chrono::Local::now().format("%Y/%m/%d %H:%M:%S").to_string();
                game.headers.push(("開始日時".into(), now));
                if let Some(id) = &self.summary.0 {
                    game.headers.push(("棋戦".into(), id.clone()));
                }
                for (key, name) in ["先手", "後手"].iter().zip(&self.summary.1) {
                    if let Some(name) = name {
                        game.headers.push(((*key).into(), name.clone()));
                    }
                }
                // The moves of the Position block, without times.
                let played = client.moves();
                game.main.moves = played
                    .iter()
                    .take(MAX_RECORDED_PLIES)
                    .map(|&m| kif::Node::new(m))
                    .collect();
                let file = nth_file(&self.path, self.games);
                self.game = Some((game, file));
                self.write();
            }
            Event::Move { mv, side, time, .. } => {
                let Some((game, _)) = &mut self.game else {
                    return;
                };
                if game.main.moves.len() >= MAX_RECORDED_PLIES {
                    self.stop();
                    return;
                }
                let mut node = kif::Node::new(*mv);
                if let Some(t) = time {
                    let spent = u32::try_from(t.as_secs()).unwrap_or(u32::MAX);
                    let total = &mut self.totals[usize::from(*side == Side::White)];
                    *total = total.saturating_add(spent);
                    node.time = Some(MoveTime {
                        spent,
                        total: Some(*total),
                    });
                }
                game.main.moves.push(node);
                self.write();
            }
            Event::GameEnded(end) => {
                let Some((game, _)) = &mut self.game else {
                    return;
                };
                // The session's line is the truth (our own line follows
                // its events; this only guards against a missed one).
                let line = &end.moves[..end.moves.len().min(MAX_RECORDED_PLIES)];
                if !game.moves().eq(line.iter().copied()) {
                    game.main.moves = line.iter().map(|&m| kif::Node::new(m)).collect();
                }
                if end.moves.len() > MAX_RECORDED_PLIES {
                    self.stop();
                    return;
                }
                let stm = game.end_position().side_to_move();
                game.main.end = Some((ending(end.reason, end.outcome, end.side, stm), None));
                self.write();
                self.game = None;
            }
            _ => {}
        }
    }

    /// The game's record is closed where it stands (the ply limit): a
    /// comment says so, no ending is written.
    fn stop(&mut self) {
        let Some((game, file)) = &mut self.game else {
            return;
        };
        let text = format!(
            "boardwire stopped recording this game after ply {}: the record's limit of \
             {MAX_RECORDED_PLIES} plies; the game went on",
            game.main.moves.len()
        );
        let notes = match game.main.moves.last_mut() {
            Some(node) => &mut node.notes,
            None => &mut game.start_notes,
        };
        notes.comments.push(kif::Comment {
            kind: CommentKind::Plain,
            text,
        });
        eprintln!(
            "note: {}: the game is recorded up to ply {MAX_RECORDED_PLIES} only (the record's \
             limit); its record ends there with a comment and no ending",
            file.display()
        );
        self.write();
        self.game = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_k_of_a_run_has_its_own_file() {
        let p = Path::new("/tmp/match.kif");
        assert_eq!(nth_file(p, 1), p);
        assert_eq!(nth_file(p, 2), Path::new("/tmp/match-2.kif"));
        assert_eq!(nth_file(Path::new("g"), 3), Path::new("g-3"));
    }

    #[test]
    fn the_extension_chooses_the_encoding() {
        // shogi-records §1.1: `.kif` Shift_JIS, `.kifu` UTF-8.
        assert_eq!(kif_encoding(Path::new("a.kif")), TextEncoding::ShiftJis);
        assert_eq!(kif_encoding(Path::new("a.KIF")), TextEncoding::ShiftJis);
        assert_eq!(kif_encoding(Path::new("a.kifu")), TextEncoding::Utf8);
    }

    #[test]
    fn endings_follow_the_result_lines() {
        use EndReason::*;
        let b = Color::Black;
        // We are Black and lost by #RESIGN with Black to move: 投了.
        let e = |r, o, us| ending(Some(r), o, Some(us), b);
        assert_eq!(e(Resign, Outcome::Lost, Side::Black), Ending::Resign);
        assert_eq!(e(TimeUp, Outcome::Lost, Side::Black), Ending::TimeUp);
        // White's illegal move, Black to move and winning: 反則勝ち.
        assert_eq!(
            e(IllegalMove, Outcome::Won, Side::Black),
            Ending::IllegalWin
        );
        // Black (to move) fouled and lost: 反則負け.
        assert_eq!(
            e(IllegalAction, Outcome::Won, Side::White),
            Ending::IllegalLoss
        );
        assert_eq!(
            e(Jishogi, Outcome::Won, Side::Black),
            Ending::EnteringKingWin
        );
        assert_eq!(e(Jishogi, Outcome::Lost, Side::Black), Ending::IllegalLoss);
        assert_eq!(
            e(Sennichite, Outcome::Drawn, Side::Black),
            Ending::Repetition
        );
        assert_eq!(
            e(MaxMoves, Outcome::Unknown, Side::Black),
            Ending::Interrupt
        );
        assert_eq!(ending(None, Outcome::Unknown, None, b), Ending::Interrupt);
    }
}
