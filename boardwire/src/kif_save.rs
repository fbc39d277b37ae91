//! `csa connect --kif FILE`: each game played saved in KIF as it goes,
//! from the client session's events
//! ([`csa_protocol::transcript::Log::event`]). The record is
//! board-records' [`kif::Recorder`] (complete after every move, capped at
//! [`kif::MAX_RECORDED_PLIES`] = 1,000 plies: past it the record ends with
//! 中断 and a comment saying why, and a note on stderr); this module holds
//! the files and says which headers and ending a game gets.
//!
//! KIF holds one game per file (the format has no game separator): the
//! first game goes to FILE, game K of a run (x1 `--games N`) to
//! `STEM-K.EXT`. The encoding follows the extension as the format page
//! says: Shift_JIS for `.kif`, UTF-8 for any other (`.kifu`), with the
//! `#KIF version=2.0 encoding=…` line. After every move the game's file
//! is written whole to a temporary file in the same directory and
//! renamed over it, so whoever reads it — also after the process is
//! killed or the connection drops — sees the game before or after a
//! move, never half of one.
//!
//! What is written: `開始日時` (local time), `棋戦` (the Game_ID), `先手` and
//! `後手` (the Game_Summary's names), `手合割` (or a board diagram for
//! another start), the moves of the Game_Summary's Position block (no
//! time), then each confirmed move with the time the server charged
//! (`T`) and the side's total. The ending, as
//! [`server_ending`] maps
//! shogi-server's reasons (with a `*` comment where the word loses the
//! reason): `#RESIGN` 投了, `#TIME_UP` 切れ負け, `#SENNICHITE` 千日手,
//! `#OUTE_SENNICHITE`, `#ILLEGAL_MOVE` and `#ILLEGAL_ACTION` 反則勝ち or
//! 反則負け as the result says, `#JISHOGI` 入玉勝ち or 反則負け as the result
//! says, `#MAX_MOVES` 持将棋 (a draw; the comment says it was the move
//! limit), `#CHUDAN` and a connection closed during the game 中断.

use std::path::{Path, PathBuf};
use std::time::Instant;

use board_core::shogi::Color;
use board_records::kif::{self, Ending, TextEncoding};
use csa_protocol::message::EndReason;
use csa_protocol::session::{Client, Event, Outcome};
use csa_protocol::types::Side;

use crate::convert_shogi::server_ending;

/// The KIF files of a `csa connect` run.
#[derive(Debug)]
pub struct KifSaver {
    path: PathBuf,
    encoding: TextEncoding,
    /// Games started in this run.
    games: u32,
    /// The game being played and its file.
    game: Option<(kif::Recorder, PathBuf)>,
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
/// `us`, `stm` to move at the end, and the comment keeping the reason
/// when the word loses it.
fn ending(
    reason: Option<EndReason>,
    outcome: Outcome,
    us: Option<Side>,
    stm: Color,
) -> (Ending, Option<String>) {
    let loser = match (outcome, us) {
        (Outcome::Won, Some(side)) => Some(side_color(side).opposite()),
        (Outcome::Lost, Some(side)) => Some(side_color(side)),
        _ => None,
    };
    let why = match reason {
        Some(EndReason::Resign) => "toryo",
        Some(EndReason::TimeUp) => "time up",
        Some(EndReason::Sennichite) => "sennichite",
        Some(EndReason::OuteSennichite) => "oute_sennichite",
        Some(EndReason::IllegalMove) => "illegal move",
        Some(EndReason::IllegalAction) => "illegal action",
        Some(EndReason::MaxMoves) => "max_moves",
        // A declaration: valid when the declarer (to move) won.
        Some(EndReason::Jishogi) => match loser {
            Some(c) if c == stm => "illegal kachi",
            Some(_) => "kachi",
            None => return (Ending::Impasse, None),
        },
        Some(EndReason::Chudan) | Some(_) | None => return (Ending::Interrupt, None),
    };
    server_ending(why, loser, stm).unwrap_or((Ending::Interrupt, None))
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
            summary: (None, [None, None]),
            failed: false,
        }
    }

    /// Writes the game's file; when the ply cap closed the record, says
    /// so and lets the game go (nothing more is recorded).
    fn write(&mut self) {
        let Some((rec, file)) = &self.game else {
            return;
        };
        let bytes = rec.to_bytes(kif::Format::Kif, self.encoding);
        if let Err(e) = csa_league::operator::write_atomic(file, &bytes)
            && !std::mem::replace(&mut self.failed, true)
        {
            eprintln!("error: saving the KIF record to {}: {e}", file.display());
        }
        if rec.is_capped() {
            eprintln!(
                "note: {}: the game is recorded up to ply {} only (the record's limit); its \
                 record ends there with 中断 and a comment",
                file.display(),
                rec.max_plies()
            );
            self.game = None;
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
                let mut rec = kif::Recorder::new(*start);
                let now = chrono::Local::now().format("%Y/%m/%d %H:%M:%S").to_string();
                rec.set_header("開始日時", &now);
                if let Some(id) = &self.summary.0 {
                    rec.set_header("棋戦", id);
                }
                for (key, name) in ["先手", "後手"].iter().zip(&self.summary.1) {
                    if let Some(name) = name {
                        rec.set_header(key, name);
                    }
                }
                // The moves of the Position block, without times (the
                // session checked them).
                let _ = rec.sync(client.moves());
                let file = nth_file(&self.path, self.games);
                self.game = Some((rec, file));
                self.write();
            }
            Event::Move { mv, time, .. } => {
                let Some((rec, _)) = &mut self.game else {
                    return;
                };
                let spent = time.map(|t| u32::try_from(t.as_secs()).unwrap_or(u32::MAX));
                if rec.push_timed(*mv, spent).is_ok() {
                    self.write();
                }
            }
            Event::GameEnded(end) => {
                let Some((rec, _)) = &mut self.game else {
                    return;
                };
                // The session's line is the truth (our own line follows
                // its events; this only guards against a missed one).
                let _ = rec.sync(&end.moves);
                if !rec.is_capped() {
                    let stm = rec.position().side_to_move();
                    let (ending, note) = ending(end.reason, end.outcome, end.side, stm);
                    if let Some(note) = note {
                        rec.comment(&note);
                    }
                    rec.finish(ending);
                }
                self.write();
                self.game = None;
            }
            _ => {}
        }
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
        // shogi-records §1.7. We are Black and lost by #RESIGN with Black
        // to move: 投了.
        let e = |r, o, us| ending(Some(r), o, Some(us), b);
        assert_eq!(
            e(Resign, Outcome::Lost, Side::Black),
            (Ending::Resign, None)
        );
        assert_eq!(
            e(TimeUp, Outcome::Lost, Side::Black),
            (Ending::TimeUp, None)
        );
        // White's illegal move, Black to move and winning: 反則勝ち, the
        // reason kept in a comment.
        let (end, note) = e(IllegalMove, Outcome::Won, Side::Black);
        assert_eq!(end, Ending::IllegalWin);
        assert!(note.unwrap().contains("#ILLEGAL_MOVE"));
        // Black (to move) fouled and lost: 反則負け.
        assert_eq!(
            e(IllegalAction, Outcome::Won, Side::White).0,
            Ending::IllegalLoss
        );
        // #OUTE_SENNICHITE: the checking side (White, not to move) lost.
        let (end, note) = e(OuteSennichite, Outcome::Won, Side::Black);
        assert_eq!(end, Ending::IllegalWin);
        assert!(note.unwrap().contains("#OUTE_SENNICHITE"));
        assert_eq!(
            e(Jishogi, Outcome::Won, Side::Black),
            (Ending::EnteringKingWin, None)
        );
        assert_eq!(
            e(Jishogi, Outcome::Lost, Side::Black).0,
            Ending::IllegalLoss
        );
        assert_eq!(
            e(Sennichite, Outcome::Drawn, Side::Black),
            (Ending::Repetition, None)
        );
        // #MAX_MOVES (shogi-server: a draw, #CENSORED): 持将棋 and why.
        let (end, note) = e(MaxMoves, Outcome::Unknown, Side::Black);
        assert_eq!(end, Ending::Impasse);
        assert!(note.unwrap().contains("#MAX_MOVES"));
        assert_eq!(
            e(Chudan, Outcome::Unknown, Side::Black),
            (Ending::Interrupt, None)
        );
        assert_eq!(
            ending(None, Outcome::Unknown, None, b),
            (Ending::Interrupt, None)
        );
    }
}
