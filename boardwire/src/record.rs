//! Saving the games boardwire plays as they go: `dxp connect|serve --pdn
//! FILE` (PDN, `board_records::pdn::Recorder`) and `citrine --pgn FILE`
//! (PGN, `board_records::pgn::writer::Recorder`). The records are the
//! library's; this module holds the file and says which tags a game gets.
//!
//! How the file is kept: FILE is the finished games, in the order they
//! ended, then the games in progress (one per connection, `*` as their
//! result). A finished game is written once and never again: the module
//! keeps only its length, not its text. After every change (a move, a
//! take-back, a new game, a game's end) the bytes of the games in
//! progress that changed are written in place, in one write, from the
//! first byte that differs to the end (a move of the last game in
//! progress writes the move and ` *`; a move of another one also rewrites
//! the games in progress after it in the file), and the file is cut to
//! its new length (a shorter text is first padded with newlines, so the
//! file reads as a record at every step). The cost of a move does not
//! depend on the number of finished games.
//!
//! What a reader of FILE sees:
//! - after the process is killed (SIGKILL) or the connection drops: a
//!   complete record of every move made — a kill falls between two
//!   system calls, and every write leaves the file a record (the last
//!   game in progress with `*`);
//! - weaker than the former whole-file rename (a write through a
//!   temporary file renamed over FILE, which needed the whole history in
//!   memory and rewrote it at every move): a program reading FILE while a
//!   move is written, or a kill that stops a write crossing a 4 KiB page
//!   boundary (Linux checks for a fatal signal between pages), can see
//!   the games in progress from the changed byte on half old, half new
//!   (the finished games before them are never touched); the next write
//!   repairs it. A power cut may lose the last moves (the file is synced
//!   only at the end).
//!
//! Bounds: a game is recorded up to [`MAX_RECORDED_PLIES`] plies; a game
//! in progress may hold [`MAX_GAME_TEXT`] bytes and all of them together
//! [`MAX_OPEN_TEXT`] bytes. Past a bound, the game's record is closed
//! where it stands — a comment saying why after its last move, result
//! `*` — and joins the finished games; a note on stderr says so, and the
//! rest of that game is not recorded.

use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use board_records::{pdn, pgn};

/// Plies of one game recorded at most (`dxp serve` has no ply limit by
/// default; kings can move to and fro forever).
pub const MAX_RECORDED_PLIES: usize = 1000;

/// Bytes of text one game in progress may hold in a [`RecordFile`].
pub const MAX_GAME_TEXT: usize = 256 * 1024;

/// Bytes of text all the games in progress of a [`RecordFile`] may hold
/// together.
pub const MAX_OPEN_TEXT: usize = 1024 * 1024;

/// The record file: the finished games (written once, not kept), then
/// the games in progress (one slot per connection), updated in place.
#[derive(Debug)]
pub struct RecordFile {
    path: PathBuf,
    file: File,
    /// Bytes of the finished games at the start of the file.
    finished_len: u64,
    /// The games in progress in file order: slot, text.
    open: Vec<(u64, String)>,
    /// A write failed: the file after `finished_len` is not known, the
    /// next change rewrites it all.
    resync: bool,
    /// A write failed (reported once on stderr; the game goes on).
    failed: bool,
    /// Bytes written so far (what the tests measure).
    #[cfg_attr(not(test), allow(dead_code))]
    written: u64,
}

/// A record file shared by connections.
pub type Shared = Arc<Mutex<RecordFile>>;

/// The first byte where the concatenations of `old` and `new` differ
/// (the shorter one's length when one is a prefix of the other).
fn first_difference(old: &[&[u8]], new: &[&[u8]]) -> usize {
    let (mut i, mut oi, mut j, mut nj, mut at) = (0, 0, 0, 0, 0);
    loop {
        while i < old.len() && oi == old[i].len() {
            (i, oi) = (i + 1, 0);
        }
        while j < new.len() && nj == new[j].len() {
            (j, nj) = (j + 1, 0);
        }
        if i == old.len() || j == new.len() {
            return at;
        }
        let (a, b) = (&old[i][oi..], &new[j][nj..]);
        let n = a.len().min(b.len());
        let same = if a[..n] == b[..n] {
            n
        } else {
            a.iter().zip(b).take_while(|(x, y)| x == y).count()
        };
        (at, oi, nj) = (at + same, oi + same, nj + same);
        if same < n {
            return at;
        }
    }
}

impl RecordFile {
    /// Creates (or empties) the file now, so that a path that cannot be
    /// written is refused before any game starts.
    pub fn create(path: &Path) -> io::Result<RecordFile> {
        if path.file_name().is_none() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a file name",
            ));
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        Ok(RecordFile {
            path: path.to_owned(),
            file,
            finished_len: 0,
            open: Vec::new(),
            resync: false,
            failed: false,
            written: 0,
        })
    }

    /// [`RecordFile::create`], shared; the error names the path.
    pub fn shared(path: &Path) -> Result<Shared, String> {
        RecordFile::create(path)
            .map(|f| Arc::new(Mutex::new(f)))
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn open_len(&self) -> usize {
        self.open.iter().map(|(_, t)| t.len()).sum()
    }

    /// Writes the change of the file after the finished games from `old`
    /// (as it is on the file) to `new`, in one write from the first byte
    /// that differs.
    fn commit(&mut self, old: &[&[u8]], new: &[&[u8]]) -> io::Result<()> {
        let old_len: usize = old.iter().map(|p| p.len()).sum();
        let new_len: usize = new.iter().map(|p| p.len()).sum();
        let from = if self.resync {
            0
        } else {
            first_difference(old, new)
        };
        if !self.resync && from == old_len && from == new_len {
            return Ok(());
        }
        let mut buf = Vec::with_capacity(new_len.max(old_len) - from);
        let mut at = 0;
        for p in new {
            let skip = from.saturating_sub(at).min(p.len());
            buf.extend_from_slice(&p[skip..]);
            at += p.len();
        }
        // A shorter text: newlines up to the old end first (the file is
        // a record still), then the file is cut.
        buf.resize(buf.len().max(old_len.saturating_sub(from)), b'\n');
        self.file
            .seek(SeekFrom::Start(self.finished_len + from as u64))?;
        self.file.write_all(&buf)?;
        self.written += buf.len() as u64;
        if new_len < old_len || self.resync {
            self.file.set_len(self.finished_len + new_len as u64)?;
        }
        self.resync = false;
        Ok(())
    }

    /// Reports a failed write once; the next change rewrites the games in
    /// progress.
    fn failed(&mut self, e: &io::Error) {
        self.resync = true;
        if !std::mem::replace(&mut self.failed, true) {
            eprintln!("error: saving the record to {}: {e}", self.path.display());
        }
    }

    /// The game in slot `slot` is now `text` (in progress). Returns false,
    /// and nothing changes, when `text` is longer than [`MAX_GAME_TEXT`]
    /// or the games in progress would hold more than [`MAX_OPEN_TEXT`]
    /// bytes together: the caller closes the game's record
    /// ([`RecordFile::finish`]).
    pub fn update(&mut self, slot: u64, text: String) -> bool {
        let at = self.open.iter().position(|(s, _)| *s == slot);
        let before = at.map_or(0, |i| self.open[i].1.len());
        if text.len() > MAX_GAME_TEXT || self.open_len() - before + text.len() > MAX_OPEN_TEXT {
            return false;
        }
        let mut open = std::mem::take(&mut self.open);
        let old: Vec<&[u8]> = open.iter().map(|(_, t)| t.as_bytes()).collect();
        let mut new = old.clone();
        match at {
            Some(i) => new[i] = text.as_bytes(),
            None => new.push(text.as_bytes()),
        }
        let r = self.commit(&old, &new);
        match at {
            Some(i) => open[i].1 = text,
            None => open.push((slot, text)),
        }
        self.open = open;
        if let Err(e) = r {
            self.failed(&e);
        }
        true
    }

    /// The game in slot `slot` is over: `text` joins the finished games
    /// (written, not kept).
    pub fn finish(&mut self, slot: u64, text: String) {
        let mut open = std::mem::take(&mut self.open);
        let old: Vec<&[u8]> = open.iter().map(|(_, t)| t.as_bytes()).collect();
        let mut new: Vec<&[u8]> = vec![text.as_bytes()];
        new.extend(
            open.iter()
                .filter(|(s, _)| *s != slot)
                .map(|(_, t)| t.as_bytes()),
        );
        let r = self.commit(&old, &new);
        open.retain(|(s, _)| *s != slot);
        self.open = open;
        match r {
            Ok(()) => self.finished_len += text.len() as u64,
            // The game is lost; the games in progress are rewritten at
            // the next change.
            Err(e) => self.failed(&e),
        }
    }

    /// The game in slot `slot` is dropped (a game with no moves left open
    /// when the run ends).
    pub fn discard(&mut self, slot: u64) {
        let Some(at) = self.open.iter().position(|(s, _)| *s == slot) else {
            return;
        };
        let mut open = std::mem::take(&mut self.open);
        let old: Vec<&[u8]> = open.iter().map(|(_, t)| t.as_bytes()).collect();
        let mut new = old.clone();
        new.remove(at);
        let r = self.commit(&old, &new);
        open.remove(at);
        self.open = open;
        if let Err(e) = r {
            self.failed(&e);
        }
    }

    /// Syncs the file to the disk (at the end of a run).
    pub fn sync(&self) {
        let _ = self.file.sync_all();
    }
}

/// Today's local date as PGN and PDN write it (`2026.12.04`, standard §8.1.1.3).
pub fn today() -> String {
    chrono::Local::now().format("%Y.%m.%d").to_string()
}

/// `TimeControl` (PGN §9.6 grammar, which PDN reuses) of a DXP game:
/// `300` for 5 minutes for the whole game, `40/300` for 40 moves in 5
/// minutes.
pub fn dxp_time_control(minutes: u16, moves: u16) -> String {
    let seconds = u32::from(minutes) * 60;
    if moves == 0 {
        seconds.to_string()
    } else {
        format!("{moves}/{seconds}")
    }
}

/// A text for a tag value: control characters become spaces.
fn tag_text(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// One DXP connection's games saved to a shared [`RecordFile`] in PDN.
#[derive(Debug)]
pub struct DxpSaver {
    file: Shared,
    slot: u64,
    our_name: String,
    site: String,
    /// Games started on this connection (the Round tag of `connect`).
    round: u32,
    numbered: bool,
    game: Option<pdn::Recorder>,
}

/// Why a game's record was closed before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// [`MAX_RECORDED_PLIES`].
    Plies,
    /// [`MAX_GAME_TEXT`] or [`MAX_OPEN_TEXT`] ([`RecordFile::update`]).
    Text,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Plies => write!(f, "the record's limit of {MAX_RECORDED_PLIES} plies"),
            Stop::Text => write!(
                f,
                "the games in progress would hold more than {MAX_OPEN_TEXT} bytes of text \
                 ({MAX_GAME_TEXT} for one game)"
            ),
        }
    }
}

/// The comment closing a game stopped at a bound (`why`): on its last
/// move's comments, or on the game's when it has no move.
fn add_stop_comment(
    last_move: Option<&mut Vec<pgn::Comment>>,
    game: &mut Vec<pgn::Comment>,
    why: Stop,
) {
    if let Ok(c) = pgn::Comment::new(&stop_comment(why)) {
        last_move.unwrap_or(game).push(c);
    }
}

/// The comment closing a record stopped early (under 80 columns with
/// its braces: the PDN/PGN writers do not break a comment).
fn stop_comment(why: Stop) -> String {
    let what = match why {
        Stop::Plies => format!("limit of {MAX_RECORDED_PLIES} plies"),
        Stop::Text => "text limit".to_string(),
    };
    format!("boardwire stopped recording here ({what}); the game went on")
}

impl DxpSaver {
    /// A saver for slot `slot` of `file`: `our_name` (GAMEREQ/GAMEACC),
    /// `site` (the peer's address); `numbered`: the Round tag counts the
    /// games (`dxp connect`'s match), else `-`.
    pub fn new(file: Shared, slot: u64, our_name: &str, site: &str, numbered: bool) -> DxpSaver {
        DxpSaver {
            file,
            slot,
            our_name: tag_text(our_name),
            site: tag_text(site),
            round: 0,
            numbered,
            game: None,
        }
    }

    fn store(&mut self, finished: bool) {
        let Some(rec) = &self.game else { return };
        let Ok(mut f) = self.file.lock() else { return };
        if finished {
            f.finish(self.slot, rec.to_pdn());
        } else if !f.update(self.slot, rec.to_pdn()) {
            drop(f);
            self.stop(Stop::Text);
        }
    }

    /// The game's record is closed where it stands (a bound reached): a
    /// comment says why, the result stays `*`; the rest of the game is
    /// not recorded.
    fn stop(&mut self, why: Stop) {
        let Some(rec) = self.game.take() else { return };
        let mut game = rec.game().clone();
        let plies = game.moves.len();
        add_stop_comment(
            game.moves.last_mut().map(|n| &mut n.comments),
            &mut game.comments,
            why,
        );
        if let Ok(mut f) = self.file.lock() {
            eprintln!(
                "note: {}: the game with {} (round {}) is recorded up to ply {plies} only: {}; \
                 its record ends there with a comment and result *",
                f.path().display(),
                self.site,
                self.round,
                why,
            );
            f.finish(self.slot, game.to_pdn());
        }
    }

    /// An event of the session, before the session's run sees it.
    pub fn event(&mut self, ev: &damexchange::session::Event) {
        use board_core::draughts::Color;
        use damexchange::session::{Event, Outcome};
        match ev {
            Event::GameStarted(g) => {
                self.close();
                self.round += 1;
                let mut rec = pdn::Recorder::new(g.start);
                let (white, black) = match g.our_color {
                    Color::White => (self.our_name.clone(), tag_text(&g.opponent)),
                    Color::Black => (tag_text(&g.opponent), self.our_name.clone()),
                };
                let round = if self.numbered {
                    self.round.to_string()
                } else {
                    "-".to_string()
                };
                let tags = [
                    ("Event", "DXP game".to_string()),
                    ("Site", self.site.clone()),
                    ("Date", today()),
                    ("Round", round),
                    ("White", white),
                    ("Black", black),
                    ("Result", "*".to_string()),
                    ("GameType", "20".to_string()),
                    ("TimeControl", dxp_time_control(g.minutes, g.moves)),
                ];
                for (name, value) in tags {
                    // Names are symbols and values have no control
                    // characters: cannot fail.
                    let _ = rec.set_tag(name, &value);
                }
                if g.start != board_core::draughts::Position::startpos() {
                    let _ = rec.set_tag("FEN", &g.start.to_string());
                }
                self.game = Some(rec);
                self.store(false);
            }
            Event::GameEnded(e) => {
                if e.moves.len() > MAX_RECORDED_PLIES {
                    self.moves(&e.moves);
                }
                let Some(rec) = &mut self.game else { return };
                let _ = rec.sync(&e.moves);
                let result = match (e.outcome, e.winner()) {
                    (Outcome::Drawn, _) => "1-1",
                    (_, Some(Color::White)) => "2-0",
                    (_, Some(Color::Black)) => "0-2",
                    _ => "*",
                };
                let _ = rec.finish(result);
                self.store(true);
                self.game = None;
            }
            _ => {}
        }
    }

    /// After the session handled an activity: the moves it shows now.
    /// Past [`MAX_RECORDED_PLIES`] the record is closed (a comment, `*`).
    pub fn moves(&mut self, moves: &[board_core::draughts::Move]) {
        let Some(rec) = &mut self.game else { return };
        let capped = moves.len() > MAX_RECORDED_PLIES;
        let moves = &moves[..moves.len().min(MAX_RECORDED_PLIES)];
        if let Ok(true) = rec.sync(moves) {
            self.store(false);
        }
        if capped {
            self.stop(Stop::Plies);
        }
    }

    /// The connection is over: a game in progress stays with `*`.
    pub fn close(&mut self) {
        if self.game.is_some() {
            self.store(true);
            self.game = None;
        }
    }
}

impl Drop for DxpSaver {
    fn drop(&mut self) {
        self.close();
        if let Ok(f) = self.file.lock() {
            f.sync();
        }
    }
}

/// A Citrine session's games saved in PGN.
#[derive(Debug)]
pub struct CitrineSaver {
    file: RecordFile,
    host: board_core::chess::Color,
    host_name: String,
    game: Option<pgn::writer::Recorder>,
    /// A `New Game` was seen: the next position starts a new record.
    new_game: bool,
}

/// The Citrine's name in the White/Black tag.
pub const CITRINE_NAME: &str = "Novag Citrine";

impl CitrineSaver {
    /// A saver into `file`; the host plays `host` under `host_name`.
    pub fn new(file: RecordFile, host: board_core::chess::Color, host_name: &str) -> CitrineSaver {
        CitrineSaver {
            file,
            host,
            host_name: tag_text(host_name),
            game: None,
            new_game: true,
        }
    }

    fn start(&mut self, start: board_core::chess::Position) {
        use board_core::chess::Color;
        self.close();
        let mut rec = pgn::writer::Recorder::new(start);
        let (white, black) = match self.host {
            Color::White => (self.host_name.clone(), CITRINE_NAME.to_string()),
            Color::Black => (CITRINE_NAME.to_string(), self.host_name.clone()),
        };
        let tags = [
            ("Event", "Novag Citrine game".to_string()),
            ("Site", "?".to_string()),
            ("Date", today()),
            ("Round", "-".to_string()),
            ("White", white),
            ("Black", black),
        ];
        for (name, value) in tags {
            let _ = rec.set_tag(name, &value);
        }
        self.game = Some(rec);
        self.new_game = false;
    }

    /// An event of the driver, before the host sees it.
    pub fn event(&mut self, ev: &novag_citrine::session::Event) {
        use board_core::chess::Color;
        use novag_citrine::session::{Event, Outcome};
        match ev {
            Event::GameStarted(_) => self.new_game = true,
            Event::GameEnded(e) => {
                let Some(rec) = &mut self.game else { return };
                let _ = rec.sync(&e.moves[..e.moves.len().min(MAX_RECORDED_PLIES)]);
                if e.moves.len() > MAX_RECORDED_PLIES {
                    self.stop(Stop::Plies);
                    return;
                }
                let winner = match e.outcome {
                    Outcome::Won => Some(self.host),
                    Outcome::Lost => Some(self.host.opposite()),
                    _ => None,
                };
                let result = match (e.outcome, winner) {
                    (Outcome::Drawn, _) => pgn::GameResult::Draw,
                    (_, Some(Color::White)) => pgn::GameResult::WhiteWins,
                    (_, Some(Color::Black)) => pgn::GameResult::BlackWins,
                    _ => pgn::GameResult::Unknown,
                };
                rec.finish(result);
                let text = rec.to_pgn();
                self.file.finish(0, text);
                self.game = None;
            }
            _ => {}
        }
    }

    /// After the driver handled an activity: its game now.
    pub fn game(
        &mut self,
        start: Option<&board_core::chess::Position>,
        moves: &[board_core::chess::Move],
    ) {
        let Some(start) = start else { return };
        if self.new_game
            || self
                .game
                .as_ref()
                .is_some_and(|g| g.game().start() != start)
        {
            self.start(*start);
            if let Some(rec) = &self.game
                && !self.file.update(0, rec.to_pgn())
            {
                self.stop(Stop::Text);
            }
        }
        let Some(rec) = &mut self.game else { return };
        let capped = moves.len() > MAX_RECORDED_PLIES;
        if let Ok(true) = rec.sync(&moves[..moves.len().min(MAX_RECORDED_PLIES)]) {
            let text = rec.to_pgn();
            if !self.file.update(0, text) {
                self.stop(Stop::Text);
            }
        }
        if capped {
            self.stop(Stop::Plies);
        }
    }

    /// The game's record is closed where it stands (a bound reached): a
    /// comment says why, the result stays `*`; the rest of the game is
    /// not recorded.
    fn stop(&mut self, why: Stop) {
        let Some(rec) = self.game.take() else { return };
        let mut game = rec.game().clone();
        let plies = game.moves.len();
        add_stop_comment(
            game.moves.last_mut().map(|n| &mut n.comments),
            &mut game.comments,
            why,
        );
        eprintln!(
            "note: {}: the game is recorded up to ply {plies} only: {}; \
             its record ends there with a comment and result *",
            self.file.path().display(),
            why,
        );
        self.file.finish(0, game.to_pgn());
    }

    /// The run is over: a game stopped by the host (the fifty-move rule:
    /// a draw; otherwise unfinished, `*`) is closed; a game without moves
    /// (a `New Game` that ended the run) is dropped.
    pub fn end(&mut self, fifty_moves: bool) {
        if self
            .game
            .as_ref()
            .is_some_and(|g| g.game().moves.is_empty())
        {
            self.game = None;
            self.file.discard(0);
        }
        if let Some(rec) = &mut self.game
            && fifty_moves
        {
            rec.finish(pgn::GameResult::Draw);
        }
        self.close();
        self.file.sync();
    }

    fn close(&mut self) {
        if let Some(rec) = self.game.take() {
            self.file.finish(0, rec.to_pgn());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board_core::draughts::{Move, Position};

    /// A fresh file in the system's temporary directory.
    fn temp_file(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("boardwire-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        path
    }

    /// `n` moves of the standard start, each side's first legal move.
    fn moves(n: usize) -> Vec<Move> {
        let mut pos = Position::startpos();
        (0..n)
            .map(|_| {
                let mv = pos.legal_moves()[0];
                pos = pos.play(mv).unwrap();
                mv
            })
            .collect()
    }

    /// The PDN text of game `k` with `plies` moves.
    fn game_text(k: usize, plies: usize, result: &str) -> String {
        let mut rec = pdn::Recorder::new(Position::startpos());
        rec.set_tag("Event", &format!("game {k}")).unwrap();
        rec.set_tag("Result", "*").unwrap();
        rec.sync(&moves(plies)).unwrap();
        if result != "*" {
            rec.finish(result).unwrap();
        }
        rec.to_pdn()
    }

    /// The PDN export layout (PGN standard §8 as PDN takes it over, spec
    /// note pgn-pdn §1.6): per game, tag lines `[Name "value"]`, one empty
    /// line, movetext lines under 80 columns without spaces at either end
    /// ending with the result, one empty line.
    fn assert_layout(text: &str, games: usize) {
        let mut lines = text.split('\n').peekable();
        for k in 0..games {
            let mut tags = 0;
            while let Some(l) = lines.next_if(|l| l.starts_with('[')) {
                assert!(l.ends_with("\"]") && l.contains(" \""), "game {k}: {l:?}");
                tags += 1;
            }
            assert!(tags > 0, "game {k}: no tags");
            assert_eq!(
                lines.next(),
                Some(""),
                "game {k}: no empty line after the tags"
            );
            let mut last = "";
            while let Some(l) = lines.next_if(|l| !l.is_empty()) {
                assert!(l.len() < 80 && l.trim() == l, "game {k}: {l:?}");
                last = l;
            }
            let result = last.rsplit(' ').next().unwrap();
            assert!(
                ["2-0", "0-2", "1-1", "*"].contains(&result),
                "game {k}: {last:?}"
            );
            assert_eq!(
                lines.next(),
                Some(""),
                "game {k}: no empty line after the movetext"
            );
        }
        assert_eq!(lines.collect::<Vec<_>>(), [""], "text after the last game");
    }

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn finished_games_are_written_once_and_not_kept() {
        let path = temp_file("finished.pdn");
        let mut f = RecordFile::create(&path).unwrap();
        let mut expected = String::new();
        for k in 0..300 {
            let plies = 1 + k % 40;
            f.update(7, game_text(k, 0, "*"));
            f.update(7, game_text(k, plies / 2, "*"));
            f.update(7, game_text(k, plies, "*"));
            let done = game_text(k, plies, ["2-0", "0-2", "1-1"][k % 3]);
            expected.push_str(&done);
            f.finish(7, done);
            // Nothing of the finished games is kept.
            assert!(f.open.is_empty());
            assert_eq!(f.finished_len, expected.len() as u64);
        }
        let text = read(&path);
        assert_eq!(text, expected);
        assert_layout(&text, 300);
        let games: Vec<pdn::Game> = pdn::Reader::new(text.as_bytes())
            .games()
            .map(Result::unwrap)
            .collect();
        assert_eq!(games.len(), 300);
        assert_eq!(games[299].moves.len(), 1 + 299 % 40);
        assert_eq!(games[299].tags.get("Result"), Some("1-1"));
    }

    /// Bytes written by one move of the last game in progress after `n`
    /// finished games, and the growth of the file.
    fn one_move_after(n: usize) -> (u64, u64) {
        let path = temp_file(&format!("bound-{n}.pdn"));
        let mut f = RecordFile::create(&path).unwrap();
        for k in 0..n {
            f.update(1, game_text(k, 10, "*"));
            f.finish(1, game_text(k, 10, "2-0"));
        }
        f.update(2, game_text(n, 4, "*"));
        let (written, len) = (f.written, read(&path).len() as u64);
        f.update(2, game_text(n, 5, "*"));
        let text = read(&path);
        assert!(text.ends_with(&game_text(n, 5, "*")));
        assert_layout(&text, n + 1);
        (f.written - written, text.len() as u64 - len)
    }

    #[test]
    fn a_move_writes_the_same_bytes_whatever_the_number_of_finished_games() {
        // The fifth move is added where the result `*` stood: its number
        // `3. `, the move, ` *` and the two line ends of the export layout
        // are written over the old end `*\n\n` (3 bytes), whatever came
        // before.
        let few = one_move_after(1);
        assert_eq!(one_move_after(400), few);
        let mv = moves(5)[4];
        let text = Position::startpos().move_text(mv).to_string();
        let written = ("3. ".len() + text.len() + " *\n\n".len()) as u64;
        assert_eq!(few, (written, written - 3));
    }

    #[test]
    fn games_in_progress_after_the_one_that_moved_are_rewritten_and_take_backs_cut_the_file() {
        let path = temp_file("open.pdn");
        let mut f = RecordFile::create(&path).unwrap();
        f.finish(9, game_text(0, 3, "0-2"));
        let done = game_text(0, 3, "0-2");
        f.update(1, game_text(1, 2, "*"));
        f.update(2, game_text(2, 6, "*"));
        let check = |f: &RecordFile, a: usize, b: usize| {
            let text = read(&path);
            assert_eq!(
                text,
                format!("{done}{}{}", game_text(1, a, "*"), game_text(2, b, "*"))
            );
            assert_layout(&text, 3);
            assert_eq!(f.finished_len, done.len() as u64);
        };
        check(&f, 2, 6);
        let before = f.written;
        f.update(1, game_text(1, 3, "*"));
        check(&f, 3, 6);
        // The first game's move, then the whole of the second game.
        assert!(f.written - before > game_text(2, 6, "*").len() as u64);
        // A take-back in the last game: the file is cut.
        f.update(2, game_text(2, 4, "*"));
        check(&f, 3, 4);
        // The first game ends: it joins the finished games, before the
        // second one.
        f.finish(1, game_text(1, 3, "2-0"));
        let text = read(&path);
        assert_eq!(
            text,
            format!("{done}{}{}", game_text(1, 3, "2-0"), game_text(2, 4, "*"))
        );
        assert_layout(&text, 3);
        f.discard(2);
        assert_eq!(read(&path), format!("{done}{}", game_text(1, 3, "2-0")));
        assert!(f.open.is_empty());
    }

    #[test]
    fn the_text_of_the_games_in_progress_is_bounded() {
        let path = temp_file("caps.pdn");
        let mut f = RecordFile::create(&path).unwrap();
        assert!(!f.update(1, "x".repeat(MAX_GAME_TEXT + 1)));
        assert!(f.update(1, "x".repeat(MAX_GAME_TEXT)));
        let mut slot = 2;
        while f.open_len() + MAX_GAME_TEXT <= MAX_OPEN_TEXT {
            assert!(f.update(slot, "y".repeat(MAX_GAME_TEXT)));
            slot += 1;
        }
        let len = read(&path).len();
        assert_eq!(len, MAX_OPEN_TEXT);
        assert!(!f.update(slot, "z".to_string()));
        // A game already there may shrink, not grow.
        assert!(!f.update(1, "x".repeat(MAX_GAME_TEXT + 1)));
        assert!(f.update(1, "x".repeat(10)));
        assert_eq!(read(&path).len(), MAX_OPEN_TEXT - MAX_GAME_TEXT + 10);
    }

    #[test]
    fn a_game_past_the_ply_limit_is_closed_with_a_comment_and_no_result() {
        // Two kings moving to and fro (a game DXP lets go on forever).
        let start: Position = "W:WK46:BK1".parse().unwrap();
        let mut line = Vec::new();
        let mut pos = start;
        for k in 0..MAX_RECORDED_PLIES + 7 {
            let text = ["46-41", "1-6", "41-46", "6-1"][k % 4];
            let mv = pos.parse_move(text).unwrap();
            pos = pos.play(mv).unwrap();
            line.push(mv);
        }
        let path = temp_file("plies.pdn");
        let file = RecordFile::shared(&path).unwrap();
        let mut saver = DxpSaver::new(file.clone(), 3, "bob", "127.0.0.1:1", false);
        saver.game = Some(pdn::Recorder::new(start));
        saver.moves(&line[..MAX_RECORDED_PLIES - 1]);
        assert!(saver.game.is_some());
        saver.moves(&line[..MAX_RECORDED_PLIES + 1]);
        assert!(saver.game.is_none());
        assert!(file.lock().unwrap().open.is_empty());
        let text = read(&path);
        saver.moves(&line);
        saver.close();
        assert_eq!(read(&path), text, "nothing is recorded after the limit");
        assert_layout(&text, 1);
        let games: Vec<pdn::Game> = pdn::Reader::new(text.as_bytes())
            .games()
            .map(Result::unwrap)
            .collect();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.moves.len(), MAX_RECORDED_PLIES);
        assert_eq!(g.result, Some("*"));
        let comment = g.moves.last().unwrap().comments[0].text();
        assert_eq!(
            comment,
            format!(
                "boardwire stopped recording here (limit of {MAX_RECORDED_PLIES} plies); \
                 the game went on"
            )
        );
    }
}
