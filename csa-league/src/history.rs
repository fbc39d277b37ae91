//! `floodgate_history_<game>.yaml`: the last games of a Floodgate game
//! name, in shogi-server's format (its `League::Floodgate::History`), so an
//! operator can move a league between shogi-server and this crate either
//! way.
//!
//! The file is a YAML sequence of mappings with Ruby symbol keys, oldest
//! first, as Ruby's `YAML.dump` writes them:
//!
//! ```yaml
//! ---
//! - :game_id: wdoor+floodgate-900-0-hoge-foo-1
//!   :black: hoge
//!   :white: foo
//!   :winner: foo
//!   :loser: hoge
//! - :game_id: wdoor+floodgate-900-0-hoge-foo-3
//!   :black: hoge
//!   :white: foo
//!   :winner:
//!   :loser:
//! ```
//!
//! Ids are rating ids (`<name>+<MD5>`). A game without a winner (a draw,
//! an abort) has empty `:winner:` and `:loser:`. shogi-server keeps the
//! last 100 games ([`MAX_RECORDS`]); the questions it asks (the last
//! opponent, whether the last game was won) look only at games with a
//! winner and a loser.

use std::collections::VecDeque;

use yaml_rust2::{Yaml, YamlLoader};

/// Games kept: a new game beyond this many drops the oldest
/// (shogi-server's `@max_records`).
pub const MAX_RECORDS: usize = 100;
/// The largest history file read, bytes (1 MiB); shogi-server's files hold
/// 100 short records.
pub const MAX_HISTORY_BYTES: usize = 1 << 20;
/// The most records a read file may hold (a file written by shogi-server
/// holds at most [`MAX_RECORDS`]).
pub const MAX_LOADED_RECORDS: usize = 10_000;

/// One game of the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// `:game_id:` the Game_ID.
    pub game_id: String,
    /// `:black:` Black's rating id.
    pub black: String,
    /// `:white:` White's rating id.
    pub white: String,
    /// `:winner:` the winner's id; `None` for a game without a winner.
    pub winner: Option<String>,
    /// `:loser:` the loser's id; `None` for a game without a loser.
    pub loser: Option<String>,
}

/// Why a history file was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HistoryError {
    /// Longer than [`MAX_HISTORY_BYTES`].
    #[error("history file of {0} bytes is larger than {MAX_HISTORY_BYTES}")]
    TooLarge(usize),
    /// Not YAML.
    #[error("history file is not YAML: {0}")]
    Yaml(String),
    /// The document is not a sequence (shogi-server: "is not a valid yaml
    /// file", and it starts an empty history).
    #[error("history file is not a YAML sequence")]
    NotASequence,
    /// More than [`MAX_LOADED_RECORDS`] records.
    #[error("history file has more than {MAX_LOADED_RECORDS} records")]
    TooManyRecords,
    /// A record is not a mapping, or a field is missing or not a string.
    #[error("history record {index}: {problem}")]
    BadRecord {
        /// 0-based index of the record in the sequence.
        index: usize,
        /// What is wrong, naming the field.
        problem: String,
    },
}

/// The last games of one Floodgate game name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    records: VecDeque<Record>,
}

/// The history file name shogi-server uses for `gamename`:
/// `floodgate_history_<t>.yaml` where `<t>` is the name without
/// `floodgate-` and with `-` turned to `_` (`floodgate-900-0` →
/// `floodgate_history_900_0.yaml`); `None` when `gamename` is not a
/// Floodgate game name ([`is_floodgate_game_name`]).
pub fn history_file_name(gamename: &str) -> Option<String> {
    if !is_floodgate_game_name(gamename) {
        return None;
    }
    let t = gamename.replace("floodgate-", "").replace('-', "_");
    Some(format!("floodgate_history_{t}.yaml"))
}

/// Whether `name` is a Floodgate game name as shogi-server decides it:
/// `floodgate-<digits>-<digits>` with an optional `F` (Fischer).
pub fn is_floodgate_game_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("floodgate-") else {
        return false;
    };
    let rest = rest.strip_suffix('F').unwrap_or(rest);
    let mut parts = rest.split('-');
    let ok =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    ok(parts.next()) && ok(parts.next()) && parts.next().is_none()
}

fn field(
    map: &yaml_rust2::yaml::Hash,
    index: usize,
    key: &str,
    nullable: bool,
) -> Result<Option<String>, HistoryError> {
    let bad = |problem: String| HistoryError::BadRecord { index, problem };
    match map.get(&Yaml::String(format!(":{key}"))) {
        None if nullable => Ok(None),
        None => Err(bad(format!("no :{key}"))),
        Some(Yaml::Null) if nullable => Ok(None),
        Some(Yaml::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(bad(format!(":{key} is not a string: {other:?}"))),
    }
}

impl History {
    /// An empty history.
    pub fn new() -> History {
        History::default()
    }

    /// Reads a history file's text. An empty text (or a YAML `null`) is an
    /// empty history; anything that is not a sequence of records is an
    /// error (shogi-server then logs it and starts an empty history, which
    /// [`crate::floodgate`] does too).
    pub fn parse(text: &str) -> Result<History, HistoryError> {
        if text.len() > MAX_HISTORY_BYTES {
            return Err(HistoryError::TooLarge(text.len()));
        }
        let docs =
            YamlLoader::load_from_str(text).map_err(|e| HistoryError::Yaml(e.to_string()))?;
        let seq = match docs.first() {
            None | Some(Yaml::Null) => return Ok(History::new()),
            Some(Yaml::Array(a)) => a,
            Some(_) => return Err(HistoryError::NotASequence),
        };
        if seq.len() > MAX_LOADED_RECORDS {
            return Err(HistoryError::TooManyRecords);
        }
        let mut records = VecDeque::with_capacity(seq.len());
        for (index, item) in seq.iter().enumerate() {
            let Yaml::Hash(map) = item else {
                return Err(HistoryError::BadRecord {
                    index,
                    problem: "not a mapping".into(),
                });
            };
            let need = |k| field(map, index, k, false).map(Option::unwrap_or_default);
            records.push_back(Record {
                game_id: need("game_id")?,
                black: need("black")?,
                white: need("white")?,
                winner: field(map, index, "winner", true)?,
                loser: field(map, index, "loser", true)?,
            });
        }
        Ok(History { records })
    }

    /// The file's text, as Ruby's `YAML.dump` writes it: byte for byte for
    /// ids and game ids of letters, digits and `+-_.@` (what shogi-server
    /// writes), quoted so that Ruby reads the same strings back otherwise.
    pub fn to_yaml(&self) -> String {
        if self.records.is_empty() {
            return "--- []\n".into();
        }
        let mut out = String::from("---\n");
        for r in &self.records {
            let fields: [(&str, Option<&str>); 5] = [
                ("game_id", Some(&r.game_id)),
                ("black", Some(&r.black)),
                ("white", Some(&r.white)),
                ("winner", r.winner.as_deref()),
                ("loser", r.loser.as_deref()),
            ];
            for (i, (k, v)) in fields.iter().enumerate() {
                out.push_str(if i == 0 { "- :" } else { "  :" });
                out.push_str(k);
                out.push(':');
                if let Some(v) = v {
                    out.push(' ');
                    push_scalar(&mut out, v);
                }
                out.push('\n');
            }
        }
        out
    }

    /// The records, oldest first.
    pub fn records(&self) -> impl ExactSizeIterator<Item = &Record> + DoubleEndedIterator {
        self.records.iter()
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there is no record.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Adds a finished game (shogi-server's `update`), dropping the oldest
    /// records beyond [`MAX_RECORDS`].
    pub fn push(&mut self, record: Record) {
        self.records.push_back(record);
        while self.records.len() > MAX_RECORDS {
            self.records.pop_front();
        }
    }

    /// The last game of `player_id` with a winner and a loser.
    pub fn last_valid_game(&self, player_id: &str) -> Option<&Record> {
        self.records.iter().rev().find(|r| {
            r.winner.is_some()
                && r.loser.is_some()
                && (r.black == player_id || r.white == player_id)
        })
    }

    /// Whether `player_id` won its last game with a winner.
    pub fn last_win(&self, player_id: &str) -> bool {
        self.last_valid_game(player_id)
            .is_some_and(|r| r.winner.as_deref() == Some(player_id))
    }

    /// Whether `player_id` lost its last game with a winner.
    pub fn last_lose(&self, player_id: &str) -> bool {
        self.last_valid_game(player_id)
            .is_some_and(|r| r.loser.as_deref() == Some(player_id))
    }

    /// The opponent of `player_id` in its last game with a winner.
    pub fn last_opponent(&self, player_id: &str) -> Option<&str> {
        let r = self.last_valid_game(player_id)?;
        if r.black == player_id {
            Some(&r.white)
        } else {
            Some(&r.black)
        }
    }

    /// The games `player_id` won (against a loser), newest first.
    pub fn win_games(&self, player_id: &str) -> Vec<&Record> {
        let mine = |r: &&Record| r.winner.as_deref() == Some(player_id) && r.loser.is_some();
        self.records.iter().rev().filter(mine).collect()
    }

    /// The games `player_id` lost (to a winner), newest first.
    pub fn loss_games(&self, player_id: &str) -> Vec<&Record> {
        let mine = |r: &&Record| r.winner.is_some() && r.loser.as_deref() == Some(player_id);
        self.records.iter().rev().filter(mine).collect()
    }
}

/// Would a plain scalar `s` be read back as something else than this
/// string (YAML 1.1 as Ruby's Psych resolves it)?
fn resolves_to_other(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    if matches!(
        l.as_str(),
        "~" | "null"
            | "true"
            | "false"
            | "yes"
            | "no"
            | "on"
            | "off"
            | "y"
            | "n"
            | ".inf"
            | "-.inf"
            | "+.inf"
            | ".nan"
    ) {
        return true;
    }
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    // Numbers (decimal, 0x, 0o, 0b, with '_'), floats, dates, times, sexagesimals.
    !body.is_empty()
        && body
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '.')
        && body.chars().all(|c| {
            c.is_ascii_hexdigit()
                || matches!(
                    c,
                    '_' | '.'
                        | ':'
                        | '-'
                        | 'x'
                        | 'o'
                        | 'X'
                        | 'O'
                        | 'e'
                        | 'E'
                        | '+'
                        | 'T'
                        | 't'
                        | ' '
                        | 'Z'
                        | 'z'
                )
        })
}

fn push_scalar(out: &mut String, s: &str) {
    let plain_char = |c: char| {
        c.is_alphanumeric() || matches!(c, '+' | '-' | '_' | '.' | '@' | '/' | ' ' | '\'')
    };
    let first_ok = s
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '/'));
    if first_ok
        && s.chars().all(plain_char)
        && !s.ends_with(' ')
        && !s.contains(" #")
        && !resolves_to_other(s)
    {
        out.push_str(s);
        return;
    }
    let printable = s.chars().all(|c| !c.is_control());
    let leading_indicator = s.starts_with([
        '-', '@', '#', '~', '\'', '"', '`', '!', '&', '*', '%', '|', '>', '?', ':', ',', '[', ']',
        '{', '}', ' ',
    ]);
    if printable && !leading_indicator {
        out.push('\'');
        out.push_str(&s.replace('\'', "''"));
        out.push('\'');
        return;
    }
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}
