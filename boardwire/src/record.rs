//! Saving the games boardwire plays as they go: `dxp connect|serve --pdn
//! FILE` (PDN, `board_records::pdn::Recorder`) and `citrine --pgn FILE`
//! (PGN, `board_records::pgn::writer::Recorder`). The records are the
//! library's; this module holds the file and says which tags a game gets.
//!
//! How the file is kept complete: after every change (a move, a
//! take-back, a new game, a game's end) the whole record — the games
//! finished so far, then each game in progress with `*` as its result —
//! is written to a temporary file in the same directory
//! (`.NAME.boardwire-tmp`) and renamed over FILE. A rename within one
//! directory replaces the file in one step (POSIX `rename`), so whoever
//! reads FILE — also after the process is killed or the connection drops
//! at any moment — sees the record before or after a move, never half of
//! one. Appending was not chosen: the Result tag and the result token
//! change when the game ends, and a game in progress must end with `*`
//! to be read by python-chess and pydraughts; rewriting a few kilobytes
//! per move costs nothing beside a move's time. The file is not synced
//! to the disk after each move (a killed process loses nothing; a power
//! cut may lose the last moves); it is once at the end.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use board_records::{pdn, pgn};

/// The record file: finished games, then the games in progress (one
/// slot per connection), rewritten whole and renamed over the file after
/// every change.
#[derive(Debug)]
pub struct RecordFile {
    path: PathBuf,
    tmp: PathBuf,
    finished: String,
    open: BTreeMap<u64, String>,
    /// A write failed (reported once on stderr; the game goes on).
    failed: bool,
}

/// A record file shared by connections.
pub type Shared = Arc<Mutex<RecordFile>>;

impl RecordFile {
    /// Creates (or empties) the file now, so that a path that cannot be
    /// written is refused before any game starts.
    pub fn create(path: &Path) -> io::Result<RecordFile> {
        let name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(".boardwire-tmp");
        let file = RecordFile {
            path: path.to_owned(),
            tmp: path.with_file_name(tmp_name),
            finished: String::new(),
            open: BTreeMap::new(),
            failed: false,
        };
        file.write()?;
        Ok(file)
    }

    /// [`RecordFile::create`], shared; the error names the path.
    pub fn shared(path: &Path) -> Result<Shared, String> {
        RecordFile::create(path)
            .map(|f| Arc::new(Mutex::new(f)))
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    fn write(&self) -> io::Result<()> {
        let mut f = std::fs::File::create(&self.tmp)?;
        f.write_all(self.finished.as_bytes())?;
        for text in self.open.values() {
            f.write_all(text.as_bytes())?;
        }
        drop(f);
        std::fs::rename(&self.tmp, &self.path)
    }

    fn save(&mut self) {
        if let Err(e) = self.write()
            && !std::mem::replace(&mut self.failed, true)
        {
            eprintln!("error: saving the record to {}: {e}", self.path.display());
        }
    }

    /// The game in slot `slot` is now `text` (in progress).
    pub fn update(&mut self, slot: u64, text: String) {
        self.open.insert(slot, text);
        self.save();
    }

    /// The game in slot `slot` is over: `text` joins the finished games.
    pub fn finish(&mut self, slot: u64, text: String) {
        self.open.remove(&slot);
        self.finished.push_str(&text);
        self.save();
    }

    /// The game in slot `slot` is dropped (a game with no moves left open
    /// when the run ends).
    pub fn discard(&mut self, slot: u64) {
        if self.open.remove(&slot).is_some() {
            self.save();
        }
    }

    /// Syncs the file to the disk (at the end of a run).
    pub fn sync(&self) {
        if let Ok(f) = std::fs::File::open(&self.path) {
            let _ = f.sync_all();
        }
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

    fn store(&self, finished: bool) {
        let Some(rec) = &self.game else { return };
        if let Ok(mut f) = self.file.lock() {
            if finished {
                f.finish(self.slot, rec.to_pdn());
            } else {
                f.update(self.slot, rec.to_pdn());
            }
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
    pub fn moves(&mut self, moves: &[board_core::draughts::Move]) {
        let Some(rec) = &mut self.game else { return };
        if let Ok(true) = rec.sync(moves) {
            self.store(false);
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
                let _ = rec.sync(&e.moves);
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
            if let Some(rec) = &self.game {
                self.file.update(0, rec.to_pgn());
            }
        }
        let Some(rec) = &mut self.game else { return };
        if let Ok(true) = rec.sync(moves) {
            let text = rec.to_pgn();
            self.file.update(0, text);
        }
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
