//! What a running server does with the league directory besides pairing:
//! `players.yaml` watched and reloaded ([`PlayersFile`]), its entries as
//! `%%RATING` lists them ([`ratings_of`]), handed to a running
//! [`FloodgateDir`](crate::FloodgateDir) ([`PlayersSlot`]), and the ratings
//! recomputed from the server's own record tree ([`rate_records`], written
//! with [`write_atomic`]).
//!
//! shogi-server reads `players.yaml` anew at each `%%RATING` and at each
//! pairing (its `YAML::Store` opens the file each time); a server that
//! polls the file's modification time and size, as `boardwire csa serve`
//! does, sees a change within its poll interval. A `players.yaml` that
//! cannot be read is reported and the previous players are kept
//! (shogi-server's `YAML::Store` raises, and the command fails).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use csa_protocol::session::Rating;
use csa_protocol::types::UserName;

use crate::floodgate::PlayersSource;
use crate::players::{Players, Stamp, YamlError, Zone};
use crate::rating::{RateError, RateOptions, mk_rate};
use crate::results::mk_game_results;

/// Why `players.yaml` could not be loaded (the previous players are kept).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlayersFileError {
    /// The file exists but could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is larger than [`PlayersFile::MAX_BYTES`].
    #[error("{path} is larger than {max} bytes", max = PlayersFile::MAX_BYTES)]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// Not UTF-8 text.
    #[error("{path} is not UTF-8 text")]
    NotUtf8 {
        /// The file.
        path: PathBuf,
    },
    /// Not a `players.yaml` ([`Players::from_yaml`]'s error, with its line).
    #[error("{path}: {source}")]
    Yaml {
        /// The file.
        path: PathBuf,
        /// What is wrong, and on which line.
        source: YamlError,
    },
}

/// `players.yaml`, reloaded when its modification time or size changes.
///
/// ```
/// use csa_league::operator::PlayersFile;
///
/// let dir = std::env::temp_dir().join(format!("csa-league-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("players.yaml");
/// let mut file = PlayersFile::new(&path);
/// // No file: no players (shogi-server starts with an empty `players: {}`).
/// assert_eq!(file.poll().unwrap().map(|p| p.entries.len()), Some(0));
/// assert!(file.poll().unwrap().is_none()); // unchanged
/// std::fs::write(&path, "---\nplayers:\n  0:\n    bob:\n      name: bob\n      rate: 1200.0\n").unwrap();
/// let players = file.poll().unwrap().unwrap();
/// assert_eq!(players.entries[0].rate, 1200);
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug)]
pub struct PlayersFile {
    path: PathBuf,
    /// (modification time, size) of the version last looked at; `None`
    /// before the first poll, `Some(None)` for a missing file.
    seen: Option<Option<(Option<SystemTime>, u64)>>,
}

impl PlayersFile {
    /// The largest `players.yaml` read, in bytes (256 MiB: about a million
    /// players, [`Players::MAX_ENTRIES`]).
    pub const MAX_BYTES: u64 = 256 * 1024 * 1024;

    /// Watches `path`; nothing is read before the first [`PlayersFile::poll`].
    pub fn new(path: impl Into<PathBuf>) -> PlayersFile {
        PlayersFile {
            path: path.into(),
            seen: None,
        }
    }

    /// The file watched.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the file if it changed since the last poll (always at the
    /// first): `Ok(None)` when unchanged, `Ok(Some(players))` when read
    /// (no players when the file does not exist), an error when it cannot
    /// be read or is not a `players.yaml` (the same version is not reported
    /// again until it changes).
    pub fn poll(&mut self) -> Result<Option<Players>, PlayersFileError> {
        let stat = match std::fs::metadata(&self.path) {
            Ok(m) => Some((m.modified().ok(), m.len())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => {
                return Err(PlayersFileError::Read {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        if self.seen == Some(stat) {
            return Ok(None);
        }
        self.seen = Some(stat);
        if stat.is_none() {
            return Ok(Some(Players::default()));
        }
        self.read().map(Some)
    }

    /// Reads the file now, whether it changed or not.
    pub fn read(&self) -> Result<Players, PlayersFileError> {
        let path = || self.path.clone();
        let f = match std::fs::File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Players::default()),
            Err(source) => {
                return Err(PlayersFileError::Read {
                    path: path(),
                    source,
                });
            }
        };
        let mut buf = Vec::new();
        f.take(Self::MAX_BYTES + 1)
            .read_to_end(&mut buf)
            .map_err(|source| PlayersFileError::Read {
                path: path(),
                source,
            })?;
        if buf.len() as u64 > Self::MAX_BYTES {
            return Err(PlayersFileError::TooLarge { path: path() });
        }
        let text =
            String::from_utf8(buf).map_err(|_| PlayersFileError::NotUtf8 { path: path() })?;
        Players::from_yaml(&text).map_err(|source| PlayersFileError::Yaml {
            path: path(),
            source,
        })
    }
}

/// The entries of `players` as `%%RATING` lists them (shogi-server's
/// `League#rated_players`: every entry of every group, named by its
/// `name`, the rate as an integer, the date of `last_modified`, or of
/// `now_unix_secs` when it has none, as shogi-server's `modified_at`
/// falls back to `Time.now`). Entries whose name is not a CSA login name
/// (1 to 32 bytes of letters, digits, `_`, `-`, `@`, ...) cannot be listed
/// on the wire; they come back in the second vector. Rates beyond `i32`
/// are clamped.
pub fn ratings_of(players: &Players, now_unix_secs: u64) -> (Vec<Rating>, Vec<String>) {
    let mut ratings = Vec::with_capacity(players.entries.len());
    let mut skipped = Vec::new();
    for e in &players.entries {
        let Ok(name) = UserName::new(e.name.clone()) else {
            skipped.push(e.name.clone());
            continue;
        };
        let updated = match &e.last_modified {
            Some(t) => u64::try_from(t.unix_secs).unwrap_or(0),
            None => now_unix_secs,
        };
        ratings.push(Rating {
            name,
            rate: i32::try_from(e.rate).unwrap_or(if e.rate < 0 { i32::MIN } else { i32::MAX }),
            updated_unix_secs: updated,
        });
    }
    (ratings, skipped)
}

/// Players handed from another thread to a [`FloodgateDir`](crate::FloodgateDir)
/// running inside a server: [`PlayersSlot::offer`] puts the newest
/// players in, and the league takes them before its next pairing through
/// [`PlayersSlot::source`] (each offer is taken once; an older one not yet
/// taken is replaced).
#[derive(Debug, Clone, Default)]
pub struct PlayersSlot(Arc<Mutex<Option<Players>>>);

impl PlayersSlot {
    /// An empty slot.
    pub fn new() -> PlayersSlot {
        PlayersSlot::default()
    }

    /// Hands `players` over for the next pairing.
    pub fn offer(&self, players: Players) {
        let mut slot = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *slot = Some(players);
    }

    /// The source to give [`FloodgateDir::set_players_source`](crate::FloodgateDir::set_players_source).
    pub fn source(&self) -> PlayersSource {
        let slot = self.0.clone();
        Box::new(move || {
            slot.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take()
        })
    }
}

/// New ratings from a record tree, as `mk_game_results DIR | mk_rate` with
/// mk_rate's default options and `base_date` (usually now).
#[derive(Debug, Clone, PartialEq)]
pub struct Rerate {
    /// The players (`players.yaml`).
    pub players: Players,
    /// Records not read and results not used, one line each.
    pub notes: Vec<String>,
}

/// `mk_game_results records | mk_rate --base-date <base_date>` (every
/// other option at mk_rate's default), record times read in `zone`.
///
/// # Errors
/// [`RateError`] as mk_rate's "Aborted" (the ratings came out of range).
pub fn rate_records(records: &Path, base_date: Stamp, zone: Zone) -> Result<Rerate, RateError> {
    let scan = mk_game_results(&[records]);
    let rating = mk_rate(&scan.results, &RateOptions::new(base_date, zone))?;
    let mut notes: Vec<String> = scan
        .errors
        .iter()
        .map(|e| format!("skipped: {e}"))
        .collect();
    notes.extend(rating.warnings.iter().map(ToString::to_string));
    Ok(Rerate {
        players: rating.players,
        notes,
    })
}

/// Writes `bytes` to `path` through a temporary file in the same directory
/// (`<path>.tmp.<pid>`) renamed over it, so that a reader (shogi-server,
/// [`PlayersFile`]) never sees half a file.
///
/// A `path` that names no regular file but a device or a FIFO
/// (`/dev/null`, `/dev/stdout`, a named pipe) is written into instead:
/// renaming over it would replace it with a regular file (run as root,
/// even `/dev/null`). A symbolic link stays a link: the file it names is
/// replaced.
///
/// # Errors
/// The I/O error of the write or the rename (the temporary file is then
/// removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => return std::fs::write(path, bytes),
        Ok(m) if m.is_file() => std::fs::canonicalize(path)?,
        _ => path.to_path_buf(),
    };
    let mut tmp = target.as_os_str().to_owned();
    tmp.push(format!(".tmp.{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let r = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, &target));
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}
