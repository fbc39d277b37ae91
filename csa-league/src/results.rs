//! `mk_game_results`: the results of every CSA record (`*.csa`) below a
//! directory, as shogi-server's `mk_game_results` lists them for `mk_rate`.
//!
//! # What is read (shogi-server's behaviour)
//!
//! Each file is split into lines at `\n`; each line is stripped of leading
//! and trailing whitespace (NUL, tab, LF, VT, FF, CR, space) and then:
//!
//! - a move (`+7776FU`: `+` or `-`, four ASCII digits, two ASCII word
//!   characters) adds one to [`GameResult::moves`];
//! - `N+NAME` / `N-NAME` set the black / white name (the last one wins);
//! - `'summary:STATE:P1 MARK1:P2 MARK2` sets the state and each side's mark
//!   (`win`, `lose`, `draw`): the player whose name equals the black name
//!   gets its mark as black's, the other as white's (shogi-server writes
//!   the players in either order);
//! - `'$END_TIME:TIME` sets the time (the text, as written);
//! - `'rating:BLACK_ID:WHITE_ID` sets the two rating ids.
//!
//! A file gives a result when it has both ids, the ids differ, both marks,
//! a state and a time; a file that lacks one of them is skipped without a
//! word, as shogi-server does. Fields are split at `:` with trailing empty
//! fields dropped, and a summary's `NAME MARK` at runs of whitespace, as
//! Ruby's `String#split` does.
//!
//! mk_rate reads the file again for an `abnormal` game and counts its plies
//! its own way (lines starting with `+`/`-`, four digits and two capital
//! letters, not stripped); that count is [`GameResult::plies`].
//!
//! # Files searched
//!
//! As Ruby's `Dir.glob("DIR/**/*.csa")`: every file whose name ends in
//! `.csa` (case-sensitive), in DIR and every directory below it, entries
//! sorted by their bytes within each directory and a directory's files
//! listed where the directory sorts; names starting with `.` are skipped and
//! symbolic links to directories are not followed. Each result names its
//! file by its absolute path with `.` and `..` removed (Ruby's
//! `File.expand_path`); symbolic links are not resolved.
//!
//! # Malformed files
//!
//! shogi-server's `mk_game_results` stops at the first file it cannot read
//! (a `'summary:` line naming neither the black player nor with fewer than
//! three fields raises, an unreadable file raises) and prints nothing more.
//! Here such a file gives a [`ResultsError`] naming the file and the line,
//! is skipped, and the scan goes on; the caller reports the errors (the
//! `boardwire csa rate` command prints them to stderr). Files larger than
//! [`MAX_FILE_BYTES`] and directories deeper than [`MAX_DEPTH`] are errors
//! too.

use std::fmt;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The largest record file read, in bytes (16 MiB; a Floodgate record is a
/// few kB).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The deepest directory searched below each DIR (64 levels).
pub const MAX_DEPTH: usize = 64;

/// One game's result: one line of `mk_game_results`' output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// `'$END_TIME:`'s text, stripped (shogi-server writes
    /// `YYYY/MM/DD HH:MM:SS` in its local time).
    pub end_time: String,
    /// The state, the first field of `'summary:` (`toryo`, `abnormal`,
    /// `sennichite`, `time up`, ...).
    pub state: String,
    /// Black's mark (`win`, `lose` or `draw`; other text kept as written).
    pub black_mark: String,
    /// Black's rating id (`'rating:`'s first field), as written.
    pub black_id: String,
    /// White's rating id (`'rating:`'s second field), as written.
    pub white_id: String,
    /// White's mark.
    pub white_mark: String,
    /// The record's absolute path.
    pub file: PathBuf,
    /// The moves counted by mk_game_results (stripped lines).
    pub moves: u32,
    /// The plies counted as mk_rate counts them for `abnormal` games.
    pub plies: u32,
}

impl GameResult {
    /// The tab-separated line mk_game_results prints:
    /// `time state black_mark black_id white_id white_mark file moves`
    /// (without the newline). A path that is not UTF-8 is shown lossily.
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.end_time,
            self.state,
            self.black_mark,
            self.black_id,
            self.white_id,
            self.white_mark,
            self.file.display(),
            self.moves
        )
    }
}

/// What is wrong with a record file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A `'summary:` line with fewer than three `:`-separated fields.
    SummaryFields,
    /// A `'summary:` line naming neither player as the black player of `N+`
    /// (shogi-server raises "Never reach!").
    SummaryNames,
    /// A line that the result needs is not UTF-8 text.
    NotText,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Problem::SummaryFields => {
                "'summary: has fewer than three fields (STATE:NAME MARK:NAME MARK)"
            }
            Problem::SummaryNames => "'summary: names neither player as the N+ player",
            Problem::NotText => "the line is not UTF-8 text",
        })
    }
}

/// A record file or directory that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// Reading the file or listing the directory failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("{}: {bytes} bytes, more than the {MAX_FILE_BYTES} read", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        bytes: u64,
    },
    /// The directory is more than [`MAX_DEPTH`] levels below the DIR given.
    #[error("{}: more than {MAX_DEPTH} directories deep, not searched", path.display())]
    TooDeep {
        /// The directory not searched.
        path: PathBuf,
    },
    /// A malformed line.
    #[error("{}:{line}: {problem}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        problem: Problem,
    },
}

/// The results found below some directories, and the files that could not
/// be read.
#[derive(Debug, Default)]
pub struct Scan {
    /// The results in mk_game_results' order (see the module docs).
    pub results: Vec<GameResult>,
    /// The files and directories skipped with an error, in the same order.
    pub errors: Vec<ResultsError>,
}

/// `mk_game_results DIR...`: the results of every `*.csa` file below each
/// directory, in order (a directory given twice is searched twice; mk_rate
/// then ignores the repeated lines). A DIR that is a file or does not exist
/// gives nothing, as Ruby's `Dir.glob` does.
pub fn mk_game_results<P: AsRef<Path>>(dirs: &[P]) -> Scan {
    let mut scan = Scan::default();
    for dir in dirs {
        let dir = dir.as_ref();
        if fs::symlink_metadata(dir).is_err() {
            continue;
        }
        let mut files = Vec::new();
        walk(dir, 0, &mut files, &mut scan.errors);
        for file in files {
            match read_record(&file) {
                Ok(Some(result)) => scan.results.push(result),
                Ok(None) => {}
                Err(e) => scan.errors.push(e),
            }
        }
    }
    scan
}

/// Lists the `*.csa` files below `dir` in `Dir.glob`'s order.
fn walk(dir: &Path, depth: usize, files: &mut Vec<PathBuf>, errors: &mut Vec<ResultsError>) {
    if depth > MAX_DEPTH {
        errors.push(ResultsError::TooDeep {
            path: dir.to_path_buf(),
        });
        return;
    }
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(source) => {
            // Ruby's glob skips a DIR that is not a directory; report the rest.
            if depth > 0 || dir.is_dir() {
                errors.push(ResultsError::Io {
                    path: dir.to_path_buf(),
                    source,
                });
            }
            return;
        }
    };
    let mut names = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) => names.push(entry.file_name()),
            Err(source) => errors.push(ResultsError::Io {
                path: dir.to_path_buf(),
                source,
            }),
        }
    }
    names.sort_by(|a, b| a.as_encoded_bytes().cmp(b.as_encoded_bytes()));
    for name in names {
        let bytes = name.as_encoded_bytes();
        if bytes.first() == Some(&b'.') {
            continue;
        }
        let path = dir.join(&name);
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            walk(&path, depth + 1, files, errors);
        }
        if bytes.ends_with(b".csa") {
            files.push(path);
        }
    }
}

/// Ruby's `File.expand_path` without `~`: absolute, `.` and `..` removed
/// lexically.
fn expand_path(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        match std::env::current_dir() {
            Ok(cwd) => cwd.join(path),
            Err(_) => path.to_path_buf(),
        }
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Ruby's `String#strip`: NUL and ASCII whitespace at both ends.
pub(crate) fn ruby_strip(s: &[u8]) -> &[u8] {
    let ws = |c: &u8| matches!(c, 0 | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ');
    let start = s.iter().position(|c| !ws(c)).unwrap_or(s.len());
    let end = s.iter().rposition(|c| !ws(c)).map_or(start, |i| i + 1);
    &s[start..end]
}

/// Ruby's `String#split(":")`: trailing empty fields dropped.
pub(crate) fn split_colon(s: &str) -> Vec<&str> {
    let mut v: Vec<&str> = s.split(':').collect();
    while v.last() == Some(&"") {
        v.pop();
    }
    v
}

/// Ruby's `String#split(" ")`: fields between runs of ASCII whitespace.
fn split_ws(s: &str) -> Vec<&str> {
    s.split(['\t', '\n', '\x0b', '\x0c', '\r', ' '])
        .filter(|f| !f.is_empty())
        .collect()
}

fn text(bytes: &[u8], path: &Path, line: usize) -> Result<String, ResultsError> {
    std::str::from_utf8(ruby_strip(bytes))
        .map(str::to_owned)
        .map_err(|_| ResultsError::Malformed {
            path: path.to_path_buf(),
            line,
            problem: Problem::NotText,
        })
}

/// Whether a line is a move as `pattern` says: `+`/`-`, four digits and two
/// characters accepted by `letter`.
fn is_move(line: &[u8], letter: fn(&u8) -> bool) -> bool {
    line.len() >= 7
        && matches!(line[0], b'+' | b'-')
        && line[1..5].iter().all(u8::is_ascii_digit)
        && line[5..7].iter().all(letter)
}

/// Reads one record: `Ok(None)` when it lacks what a result needs.
pub fn read_record(path: &Path) -> Result<Option<GameResult>, ResultsError> {
    let io = |source| ResultsError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = fs::metadata(path).map_err(io)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(ResultsError::TooLarge {
            path: path.to_path_buf(),
            bytes: meta.len(),
        });
    }
    let bytes = fs::read(path).map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ResultsError::TooLarge {
            path: path.to_path_buf(),
            bytes: bytes.len() as u64,
        });
    }
    parse_record(&bytes, &expand_path(path), path)
}

/// Parses a record's bytes; `file` is the path the result names, `shown`
/// the path errors name.
pub fn parse_record(
    bytes: &[u8],
    file: &Path,
    shown: &Path,
) -> Result<Option<GameResult>, ResultsError> {
    let mut black_name: Option<String> = None;
    let mut black_mark: Option<String> = None;
    let mut white_mark: Option<String> = None;
    let mut black_id: Option<String> = None;
    let mut white_id: Option<String> = None;
    let mut state: Option<String> = None;
    let mut time: Option<String> = None;
    let mut moves: u32 = 0;
    let mut plies: u32 = 0;
    let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    for (index, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        if is_move(raw, u8::is_ascii_uppercase) {
            plies = plies.saturating_add(1);
        }
        let line = ruby_strip(raw);
        if is_move(line, word) {
            moves = moves.saturating_add(1);
        } else if let Some(rest) = line.strip_prefix(b"N+") {
            black_name = Some(text(rest, shown, number)?);
        } else if line.starts_with(b"N-") {
            // The white name is read but not used: the summary's other
            // player is white.
        } else if let Some(rest) = line.strip_prefix(b"'summary:") {
            let rest = std::str::from_utf8(rest).map_err(|_| ResultsError::Malformed {
                path: shown.to_path_buf(),
                line: number,
                problem: Problem::NotText,
            })?;
            let fields: Vec<&str> = split_colon(rest)
                .into_iter()
                .map(|f| std::str::from_utf8(ruby_strip(f.as_bytes())).unwrap_or(f))
                .collect();
            if fields.len() < 3 {
                return Err(ResultsError::Malformed {
                    path: shown.to_path_buf(),
                    line: number,
                    problem: Problem::SummaryFields,
                });
            }
            let p1 = split_ws(fields[1]);
            let p2 = split_ws(fields[2]);
            let name = |p: &[&str]| p.first().map(|s| s.to_string());
            let mark = |p: &[&str]| p.get(1).map(|s| s.to_string());
            let (b, w) = if name(&p1) == black_name {
                (&p1, &p2)
            } else if name(&p2) == black_name {
                (&p2, &p1)
            } else {
                return Err(ResultsError::Malformed {
                    path: shown.to_path_buf(),
                    line: number,
                    problem: Problem::SummaryNames,
                });
            };
            black_name = name(b);
            black_mark = mark(b);
            white_mark = mark(w);
            state = Some(fields[0].to_string());
        } else if let Some(rest) = line.strip_prefix(b"'$END_TIME:") {
            time = Some(text(rest, shown, number)?);
        } else if let Some(rest) = line.strip_prefix(b"'rating:") {
            let rest = text(rest, shown, number)?;
            let ids = split_colon(&rest);
            let id = |i: usize| {
                ids.get(i)
                    .map(|s| String::from_utf8_lossy(ruby_strip(s.as_bytes())).into_owned())
            };
            black_id = id(0);
            white_id = id(1);
        }
    }
    match (black_id, white_id, black_mark, white_mark, state, time) {
        (
            Some(black_id),
            Some(white_id),
            Some(black_mark),
            Some(white_mark),
            Some(state),
            Some(end_time),
        ) if black_id != white_id => Ok(Some(GameResult {
            end_time,
            state,
            black_mark,
            black_id,
            white_id,
            white_mark,
            file: file.to_path_buf(),
            moves,
            plies,
        })),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Option<GameResult>, ResultsError> {
        parse_record(text.as_bytes(), Path::new("/r/g.csa"), Path::new("g.csa"))
    }

    #[test]
    fn summary_in_either_order_and_both_move_counts() {
        // shogi-server writes `'summary:STATE:NAME MARK:NAME MARK` (game_result.rb).
        let r = parse(
            "N+b\nN-w\n'rating:b+1:w+2\n+7776FU\n -3334FU\n+2726fu\n'summary:toryo:w win:b lose\n'$END_TIME:2026/05/01 10:00:00\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (
                r.black_mark.as_str(),
                r.white_mark.as_str(),
                r.state.as_str()
            ),
            ("lose", "win", "toryo")
        );
        // mk_game_results strips and accepts \w{2}: 3 moves; mk_rate's reader
        // wants [A-Z]{2} at the very start of the line: 1 ply.
        assert_eq!((r.moves, r.plies), (3, 1));
        assert_eq!(
            r.line(),
            "2026/05/01 10:00:00\ttoryo\tlose\tb+1\tw+2\twin\t/r/g.csa\t3"
        );
    }

    #[test]
    fn files_lacking_a_field_give_nothing_and_bad_summaries_errors() {
        assert!(
            parse("N+b\n'rating:b+1:b+1\n'summary:toryo:b win:w lose\n'$END_TIME:x\n")
                .unwrap()
                .is_none()
        );
        assert!(
            parse("N+b\n'rating:b+1:w+1\n'summary:toryo:b win:w lose\n")
                .unwrap()
                .is_none()
        );
        let e = parse("N+b\n\n'summary:toryo:x win:y lose\n").unwrap_err();
        assert!(matches!(
            e,
            ResultsError::Malformed {
                line: 3,
                problem: Problem::SummaryNames,
                ..
            }
        ));
        assert_eq!(
            e.to_string(),
            "g.csa:3: 'summary: names neither player as the N+ player"
        );
        let e = parse("N+b\n'summary:toryo:b win\n").unwrap_err();
        assert!(matches!(
            e,
            ResultsError::Malformed {
                line: 2,
                problem: Problem::SummaryFields,
                ..
            }
        ));
    }

    #[test]
    fn ruby_split_and_strip() {
        assert_eq!(split_colon("a::b::"), vec!["a", "", "b"]);
        assert!(split_colon("").is_empty());
        assert_eq!(split_ws("  a \t b  "), vec!["a", "b"]);
        assert_eq!(ruby_strip(b"\0 x y\r\n"), b"x y");
    }
}
