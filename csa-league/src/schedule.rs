//! Pairing times: shogi-server's `<game>.conf` schedule files and its two
//! built-in schedules.
//!
//! A schedule file (shogi-server's `NextTimeGeneratorConfig`) has one
//! directive a line:
//!
//! - `DoW HH:MM`: a weekly pairing time in the server's local time, `DoW`
//!   one of `Sun` … `Sat` or `Sunday` … `Saturday` (case as written), the
//!   hour 0–23 and the minute 0–59 of one or two digits; anything after the
//!   minute is ignored, as shogi-server ignores it;
//! - `set pairing_factory NAME`, `set sacrifice ID`, `set max_moves N`,
//!   `set least_time_per_move N`: the options of the pairings, the last
//!   line of each winning;
//! - `#` comments and blank lines.
//!
//! Any other line is reported ([`LineError`], with its number and text) and
//! skipped. shogi-server logs the lines of unknown syntax too, but skips a
//! `DoW HH:MM` line with an unknown day, an hour past 23 or a minute past 59
//! silently; here those are reported as well.
//!
//! The next time is the earliest of the weekly times strictly after now
//! (now taken to the second): at exactly `Thu 22:00:00` the line
//! `Thu 22:00` means the next Thursday. shogi-server computes the time in
//! the ISO week of now and adds 7 days when it is not after now, which is
//! the same thing.
//!
//! Without a file, shogi-server knows two games: `floodgate-900-0` pairs
//! every 30 minutes (at :30 when now's minute is below 30, else at the next
//! full hour) and `floodgate-3600-0` every two hours, at odd hours (from an
//! even hour the next hour, from an odd hour the hour after next). Seconds
//! are ignored: at 22:30:00 the next `floodgate-900-0` time is 23:00.
//!
//! Times are local: the caller gives the server's UTC offset (a fixed
//! offset, so a daylight-saving change is not followed, where shogi-server
//! would follow the host's time zone).

use core::fmt;

/// shogi-server's default sacrifice (`set sacrifice`): the id left out of
/// a pairing when the number of players is odd.
pub const DEFAULT_SACRIFICE: &str = "gps500+e293220e3f8a3e59f79f6b0efffaa931";
/// shogi-server's `Default_Max_Moves`.
pub const DEFAULT_MAX_MOVES: u32 = 256;
/// shogi-server's `Default_Least_Time_Per_Move`, seconds.
pub const DEFAULT_LEAST_TIME_PER_MOVE: u64 = 0;
/// The longest schedule text read, bytes (1 MiB); the rest is ignored and
/// reported.
pub const MAX_SCHEDULE_BYTES: usize = 1 << 20;
/// The most line problems kept in a [`Schedule`]; more are counted only.
pub const MAX_PROBLEMS: usize = 100;
/// The longest line text kept in a [`LineError`], characters.
pub const MAX_PROBLEM_TEXT: usize = 200;

/// A day of the week, ISO numbering (Monday 1 … Sunday 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Weekday {
    Monday = 1,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

impl Weekday {
    /// The day named `Sun` … `Sat` or `Sunday` … `Saturday` (exact case, as
    /// Ruby's `Date::DAYNAMES` / `ABBR_DAYNAMES`).
    pub fn parse(name: &str) -> Option<Weekday> {
        use Weekday::*;
        Some(match name {
            "Mon" | "Monday" => Monday,
            "Tue" | "Tuesday" => Tuesday,
            "Wed" | "Wednesday" => Wednesday,
            "Thu" | "Thursday" => Thursday,
            "Fri" | "Friday" => Friday,
            "Sat" | "Saturday" => Saturday,
            "Sun" | "Sunday" => Sunday,
            _ => return None,
        })
    }

    /// ISO number, 1 (Monday) … 7 (Sunday).
    pub fn iso(self) -> u32 {
        self as u32
    }
}

/// A weekly pairing time, local.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WeeklyTime {
    /// The day.
    pub weekday: Weekday,
    /// Hour, 0–23.
    pub hour: u8,
    /// Minute, 0–59.
    pub minute: u8,
    /// The line it was read from, 1-based.
    pub line: usize,
}

/// The pairing options a schedule sets (`set NAME VALUE`), shogi-server's
/// defaults otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// `set pairing_factory`: the name of a pairing factory
    /// ([`crate::pairing::Factory::from_name`]), `default_factory` by
    /// default. shogi-server takes the word characters after the keyword.
    pub pairing_factory: String,
    /// `set sacrifice`: the player id left out when the players are odd
    /// ([`DEFAULT_SACRIFICE`] by default); the rest of the line, leading
    /// blanks removed.
    pub sacrifice: String,
    /// `set max_moves`: `Max_Moves` of the games (256 by default).
    pub max_moves: u32,
    /// `set least_time_per_move`: seconds (0 by default).
    pub least_time_per_move: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            pairing_factory: "default_factory".into(),
            sacrifice: DEFAULT_SACRIFICE.into(),
            max_moves: DEFAULT_MAX_MOVES,
            least_time_per_move: DEFAULT_LEAST_TIME_PER_MOVE,
        }
    }
}

/// What is wrong with a schedule line.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineProblem {
    /// Neither a `DoW HH:MM` line, a `set` line, a comment nor blank
    /// (shogi-server: "Unsupported syntax in a next time generator config
    /// file").
    Unsupported,
    /// A `DoW HH:MM` line whose day is not a day name (shogi-server skips
    /// it silently).
    UnknownDay(String),
    /// An hour above 23 (skipped silently by shogi-server).
    HourOutOfRange(u32),
    /// A minute above 59 (skipped silently by shogi-server).
    MinuteOutOfRange(u32),
    /// `set max_moves` / `set least_time_per_move` with a number too large
    /// (above `u32` / `u64`); the setting is left as it was.
    ValueOutOfRange,
    /// The text went on past [`MAX_SCHEDULE_BYTES`]; the rest was ignored.
    TooLong,
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::Unsupported => f.write_str("unsupported syntax"),
            LineProblem::UnknownDay(d) => write!(f, "unknown day of the week {d:?}"),
            LineProblem::HourOutOfRange(h) => write!(f, "hour {h} is not in 0..=23"),
            LineProblem::MinuteOutOfRange(m) => write!(f, "minute {m} is not in 0..=59"),
            LineProblem::ValueOutOfRange => f.write_str("number too large"),
            LineProblem::TooLong => {
                write!(
                    f,
                    "schedule longer than {MAX_SCHEDULE_BYTES} bytes; the rest is ignored"
                )
            }
        }
    }
}

/// A line of a schedule that was skipped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}: {text:?}")]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    /// The line's text (without its terminator), at most
    /// [`MAX_PROBLEM_TEXT`] characters.
    pub text: String,
    /// What is wrong.
    pub problem: LineProblem,
}

/// A parsed schedule file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Schedule {
    /// The weekly times, in file order.
    pub times: Vec<WeeklyTime>,
    /// The options, after every `set` line.
    pub settings: Settings,
    /// The skipped lines (at most [`MAX_PROBLEMS`]).
    pub problems: Vec<LineError>,
    /// Skipped lines beyond [`MAX_PROBLEMS`], counted only.
    pub more_problems: usize,
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n' | '\x0b' | '\x0c')
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `s` after at least one blank, or `None`.
fn after_blanks(s: &str) -> Option<&str> {
    let t = s.trim_start_matches(is_space);
    (t.len() < s.len()).then_some(t)
}

fn leading(s: &str, f: impl Fn(char) -> bool) -> (&str, &str) {
    let end = s.find(|c| !f(c)).unwrap_or(s.len());
    s.split_at(end)
}

/// `set KEY` then blanks: the rest.
fn set_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.trim_start_matches(is_space).strip_prefix("set")?;
    let rest = after_blanks(rest)?.strip_prefix(key)?;
    after_blanks(rest)
}

/// Leading digits parsed; `Some(None)` when there are digits but too many.
fn leading_number<T: core::str::FromStr>(s: &str) -> Option<Option<T>> {
    let (digits, _) = leading(s, |c| c.is_ascii_digit());
    if digits.is_empty() {
        return None;
    }
    Some(digits.parse().ok())
}

/// `DoW H:M` (1–2 digits each): the day word, hour and minute.
fn day_time(line: &str) -> Option<(&str, u32, u32)> {
    let s = line.trim_start_matches(is_space);
    let (word, rest) = leading(s, is_word);
    if word.is_empty() {
        return None;
    }
    let rest = after_blanks(rest)?;
    let (h, rest) = leading(rest, |c| c.is_ascii_digit());
    if h.is_empty() || h.len() > 2 {
        return None;
    }
    let rest = rest.strip_prefix(':')?;
    let (m, _) = leading(rest, |c| c.is_ascii_digit());
    if m.is_empty() {
        return None;
    }
    // Two digits at most are the minute; further digits are ignored.
    let m = &m[..m.len().min(2)];
    Some((word, h.parse().ok()?, m.parse().ok()?))
}

impl Schedule {
    /// Parses a schedule text. Never fails: lines it does not understand
    /// are in [`Schedule::problems`].
    pub fn parse(text: &str) -> Schedule {
        let mut out = Schedule::default();
        let (text, too_long) = if text.len() > MAX_SCHEDULE_BYTES {
            let mut end = MAX_SCHEDULE_BYTES;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            (&text[..end], true)
        } else {
            (text, false)
        };
        let mut last = 0;
        for (i, raw) in text.split('\n').enumerate() {
            let n = i + 1;
            last = n;
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            if let Some(v) = set_value(line, "pairing_factory") {
                let (w, _) = leading(v, is_word);
                if !w.is_empty() {
                    out.settings.pairing_factory = w.into();
                    continue;
                }
            }
            if let Some(v) = set_value(line, "sacrifice") {
                out.settings.sacrifice = v.into();
                continue;
            }
            if let Some(v) = set_value(line, "max_moves")
                && let Some(v) = leading_number::<u32>(v)
            {
                match v {
                    Some(v) => out.settings.max_moves = v,
                    None => out.problem(n, line, LineProblem::ValueOutOfRange),
                }
                continue;
            }
            if let Some(v) = set_value(line, "least_time_per_move")
                && let Some(v) = leading_number::<u64>(v)
            {
                match v {
                    Some(v) => out.settings.least_time_per_move = v,
                    None => out.problem(n, line, LineProblem::ValueOutOfRange),
                }
                continue;
            }
            if let Some((word, hour, minute)) = day_time(line) {
                match Weekday::parse(word) {
                    None => out.problem(n, line, LineProblem::UnknownDay(word.into())),
                    Some(_) if hour > 23 => out.problem(n, line, LineProblem::HourOutOfRange(hour)),
                    Some(_) if minute > 59 => {
                        out.problem(n, line, LineProblem::MinuteOutOfRange(minute))
                    }
                    Some(weekday) => out.times.push(WeeklyTime {
                        weekday,
                        hour: hour as u8,
                        minute: minute as u8,
                        line: n,
                    }),
                }
                continue;
            }
            let t = line.trim_start_matches(is_space);
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            out.problem(n, line, LineProblem::Unsupported);
        }
        if too_long {
            out.problem(last, "", LineProblem::TooLong);
        }
        out
    }

    fn problem(&mut self, line: usize, text: &str, problem: LineProblem) {
        if self.problems.len() >= MAX_PROBLEMS {
            self.more_problems += 1;
            return;
        }
        self.problems.push(LineError {
            line,
            text: text.chars().take(MAX_PROBLEM_TEXT).collect(),
            problem,
        });
    }

    /// The first weekly time strictly after `unix_secs`, in seconds since
    /// 1970 (UTC); `None` without times. `utc_offset_secs`: the local time
    /// zone the times are written in, seconds east of UTC.
    pub fn next_after(&self, unix_secs: i64, utc_offset_secs: i32) -> Option<i64> {
        // i128: no overflow whatever the inputs.
        let off = i128::from(utc_offset_secs);
        let local = i128::from(unix_secs) + off;
        let day = local.div_euclid(86_400);
        // 1970-01-01 was a Thursday (ISO 4).
        let today = (day + 3).rem_euclid(7) + 1;
        self.times
            .iter()
            .map(|t| {
                let d = day + i128::from(t.weekday.iso()) - today;
                let mut at = d * 86_400 + i128::from(t.hour) * 3600 + i128::from(t.minute) * 60;
                if at <= local {
                    at += 7 * 86_400;
                }
                at - off
            })
            .min()
            .and_then(|t| i64::try_from(t).ok())
    }
}

/// Where a game's pairing times come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Generator {
    /// A schedule file.
    Config(Schedule),
    /// `floodgate-900-0` without a file: every 30 minutes.
    Every30Minutes,
    /// `floodgate-3600-0` without a file: every two hours, odd hours.
    EveryOddHour,
}

impl Generator {
    /// The generator for `gamename`: its schedule text if it has one
    /// (`Some`, even empty), else shogi-server's built-in for
    /// `floodgate-900-0` and `floodgate-3600-0`; `None` for any other game
    /// without a file (shogi-server: "Unsupported game name").
    pub fn new(gamename: &str, schedule_text: Option<&str>) -> Option<Generator> {
        match (schedule_text, gamename) {
            (Some(t), _) => Some(Generator::Config(Schedule::parse(t))),
            (None, "floodgate-900-0") => Some(Generator::Every30Minutes),
            (None, "floodgate-3600-0") => Some(Generator::EveryOddHour),
            (None, _) => None,
        }
    }

    /// The options of the pairings (shogi-server's defaults for the
    /// built-ins).
    pub fn settings(&self) -> Settings {
        match self {
            Generator::Config(s) => s.settings.clone(),
            _ => Settings::default(),
        }
    }

    /// The next pairing time after `unix_secs` (seconds since 1970, UTC),
    /// in the local time zone `utc_offset_secs` (seconds east of UTC).
    pub fn next_after(&self, unix_secs: i64, utc_offset_secs: i32) -> Option<i64> {
        let off = i128::from(utc_offset_secs);
        let local = i128::from(unix_secs) + off;
        let hour_start = local.div_euclid(3600) * 3600;
        let minute = local.rem_euclid(3600) / 60;
        let hour = local.div_euclid(3600).rem_euclid(24);
        let next_local = match self {
            Generator::Config(s) => return s.next_after(unix_secs, utc_offset_secs),
            Generator::Every30Minutes if minute < 30 => hour_start + 1800,
            Generator::Every30Minutes => hour_start + 3600,
            Generator::EveryOddHour => hour_start + (hour % 2 + 1) * 3600,
        };
        i64::try_from(next_local - off).ok()
    }
}
