//! `players.yaml`: the ratings mk_rate writes and shogi-server reads (for
//! `%%RATING` and for pairing).
//!
//! # Format (Ruby's `to_yaml`, as mk_rate writes it)
//!
//! ```text
//! ---
//! players:
//!   0:
//!     alpha+2c1743a391305fbf367df8e4f069f9f9:
//!       name: alpha
//!       rating_group: 0
//!       rate: 1387.0
//!       last_modified: 2026-05-31 15:19:44.000000000 +09:00
//!       win: 34.993833292589215
//!       loss: 6.88746505519477
//!   999: {}
//! ```
//!
//! Groups in file order (mk_rate: 0, 1, ... then always 999, `{}` when
//! empty); each player's keys in that order; the rate of a rated group as a
//! Ruby Float (`1387.0`), of group 999 as an Integer (`0`); win and loss as
//! Ruby's `Float#to_s` (shortest round-trip digits, `1.0e-05` below 0.0001
//! and from 1.0e+16 up); `last_modified` as Psych writes a `Time`
//! (`%Y-%m-%d %H:%M:%S.%9N %:z`). Strings are written plain unless Psych
//! would quote them (empty, `y`/`n`, a leading non-word character, words
//! YAML 1.1 reads as null, booleans, numbers or dates, `: ` or ` #`
//! inside): then single- or double-quoted as Psych does for ASCII text.
//!
//! [`Players::to_yaml`] writes that; [`Players::from_yaml`] reads it and
//! the file shogi-server rewrites through `YAML::Store` (`players: {}`
//! included). Ruby's `YAML.load_file` (with `Time` permitted, as
//! shogi-server loads it) loads what we write.
//!
//! Why our own writer and reader rather than a YAML crate: the shape is
//! fixed and small, the output must match Psych byte for byte (float and
//! time formats, its quoting), and YAML 1.2 parsers resolve plain scalars
//! differently from Psych's YAML 1.1 (a player named `yes` or `1e3`) and
//! have no timestamp type. The reader accepts block mappings indented by
//! spaces, plain, single- and double-quoted scalars on one line, `{}`,
//! comments, `---` and `...`; anything else is a [`YamlError`] with its
//! line.

use std::fmt::{self, Write as _};

/// A local time as Ruby's YAML writes a `Time`
/// (`2024-05-01 12:34:56.000000000 +09:00`): the instant and the UTC offset
/// it was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stamp {
    /// Seconds since 1970-01-01 00:00:00 UTC.
    pub unix_secs: i64,
    /// Nanoseconds within the second (0..=999_999_999).
    pub nanos: u32,
    /// The offset it was written in, seconds east of UTC.
    pub utc_offset_secs: i32,
}

/// The time zone in which record times without an offset are read (Ruby's
/// `Time.parse` uses the process's local zone, `TZ`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    /// A fixed offset, seconds east of UTC (`32400` for Japan).
    Fixed(i32),
    /// The system's local zone (the `TZ` variable, else `/etc/localtime`),
    /// daylight saving time included.
    Local,
}

impl Zone {
    /// The UTC offset in force at a local wall-clock time given as seconds
    /// since 1970-01-01 00:00 of that wall clock (the earlier one of an
    /// ambiguous time; a time skipped by a DST change uses the offset before
    /// it).
    pub fn offset_at_local(self, wall_secs: i64) -> i32 {
        match self {
            Zone::Fixed(off) => off,
            Zone::Local => {
                use chrono::{Local, Offset, TimeZone};
                let Some(naive) = chrono::DateTime::from_timestamp(wall_secs, 0) else {
                    return 0;
                };
                let naive = naive.naive_utc();
                match Local.offset_from_local_datetime(&naive).earliest() {
                    Some(off) => off.fix().local_minus_utc(),
                    None => Local
                        .offset_from_utc_datetime(&naive)
                        .fix()
                        .local_minus_utc(),
                }
            }
        }
    }

    /// The UTC offset in force at an instant.
    pub fn offset_at(self, unix_secs: i64) -> i32 {
        match self {
            Zone::Fixed(off) => off,
            Zone::Local => {
                use chrono::{Local, Offset, TimeZone};
                match chrono::DateTime::from_timestamp(unix_secs, 0) {
                    Some(t) => Local
                        .offset_from_utc_datetime(&t.naive_utc())
                        .fix()
                        .local_minus_utc(),
                    None => 0,
                }
            }
        }
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number (inverse of [`days_from_civil`]).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A small cursor over ASCII text.
struct Cur<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cur<'_> {
    fn digits(&mut self, min: usize, max: usize) -> Option<(i64, usize)> {
        let start = self.i;
        while self.i < self.s.len() && self.i - start < max && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        let n = self.i - start;
        if n < min {
            return None;
        }
        let mut v: i64 = 0;
        for &c in &self.s[start..self.i] {
            v = v * 10 + i64::from(c - b'0');
        }
        Some((v, n))
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn spaces(&mut self) -> bool {
        let start = self.i;
        while matches!(self.s.get(self.i), Some(b' ' | b'\t')) {
            self.i += 1;
        }
        self.i > start
    }
    fn done(&self) -> bool {
        self.i == self.s.len()
    }
}

impl Stamp {
    /// Now, with the offset of `zone` in force now.
    pub fn now(zone: Zone) -> Stamp {
        let d = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let secs = i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
        Stamp {
            unix_secs: secs,
            nanos: d.subsec_nanos(),
            utc_offset_secs: zone.offset_at(secs),
        }
    }

    /// Reads a time as Ruby's `Time.parse` reads shogi-server's and
    /// mk_rate's: `YYYY/MM/DD` or `YYYY-MM-DD`, optionally followed (after
    /// spaces or `T`) by `HH:MM[:SS[.fraction]]` and a zone (`Z`, `UTC`,
    /// `+HH:MM`, `+HHMM`, `+HH`); a time without a zone is read in `zone`.
    /// `None` for anything else (Ruby's `Time.parse` accepts many more
    /// forms, e.g. month names; those are not supported).
    pub fn parse_time(text: &str, zone: Zone) -> Option<Stamp> {
        let mut c = Cur {
            s: text.trim().as_bytes(),
            i: 0,
        };
        let (y, _) = c.digits(4, 4)?;
        let sep = if c.eat(b'/') {
            b'/'
        } else if c.eat(b'-') {
            b'-'
        } else {
            return None;
        };
        let (m, _) = c.digits(1, 2)?;
        if !c.eat(sep) {
            return None;
        }
        let (d, _) = c.digits(1, 2)?;
        let (m, d) = (u32::try_from(m).ok()?, u32::try_from(d).ok()?);
        if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
            return None;
        }
        let (mut hh, mut mm, mut ss, mut nanos) = (0i64, 0i64, 0i64, 0u32);
        let mut offset: Option<i32> = None;
        let had_sep = c.eat(b'T') | c.spaces();
        if had_sep && !c.done() {
            hh = c.digits(1, 2)?.0;
            if !c.eat(b':') {
                return None;
            }
            mm = c.digits(2, 2)?.0;
            if c.eat(b':') {
                ss = c.digits(2, 2)?.0;
                if c.eat(b'.') {
                    let start = c.i;
                    let (v, n) = c.digits(1, 30)?;
                    let _ = v;
                    let frac = &c.s[start..start + n.min(9)];
                    let mut ns: u32 = 0;
                    for k in 0..9 {
                        ns = ns * 10 + frac.get(k).map_or(0, |&b| u32::from(b - b'0'));
                    }
                    nanos = ns;
                }
            }
            if hh > 23 || mm > 59 || ss > 60 {
                return None;
            }
            c.spaces();
            if !c.done() {
                offset = Some(parse_offset(&mut c)?);
            }
        }
        if !c.done() {
            return None;
        }
        let wall = days_from_civil(y, m, d) * 86_400 + hh * 3600 + mm * 60 + ss;
        let off = offset.unwrap_or_else(|| zone.offset_at_local(wall));
        Some(Stamp {
            unix_secs: wall - i64::from(off),
            nanos,
            utc_offset_secs: off,
        })
    }

    /// Reads a `Time` as Psych writes one (`2026-05-31 14:33:40.000000000
    /// +09:00`, `... Z`) or any YAML 1.1 timestamp of that form.
    pub fn parse_yaml(text: &str) -> Option<Stamp> {
        let t = text.trim();
        // A YAML timestamp without a zone is UTC.
        Stamp::parse_time(t, Zone::Fixed(0))
    }

    /// The local wall-clock seconds since 1970-01-01 (in the stamp's own
    /// offset).
    fn wall_secs(&self) -> i64 {
        self.unix_secs + i64::from(self.utc_offset_secs)
    }

    /// The local date (year, month, day) in the stamp's own offset.
    pub fn local_date(&self) -> (i64, u32, u32) {
        civil_from_days(self.wall_secs().div_euclid(86_400))
    }

    /// Seconds from `earlier` to `self` (negative when `self` is earlier).
    pub fn seconds_since(&self, earlier: &Stamp) -> f64 {
        (self.unix_secs - earlier.unix_secs) as f64
            + (f64::from(self.nanos) - f64::from(earlier.nanos)) / 1e9
    }

    /// Psych's text of a `Time`: `%Y-%m-%d %H:%M:%S.%9N %:z`.
    pub fn to_yaml(&self) -> String {
        let wall = self.wall_secs();
        let (y, m, d) = civil_from_days(wall.div_euclid(86_400));
        let sod = wall.rem_euclid(86_400);
        let off = self.utc_offset_secs;
        let sign = if off < 0 { '-' } else { '+' };
        let a = off.unsigned_abs();
        format!(
            "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}.{:09} {sign}{:02}:{:02}",
            sod / 3600,
            sod % 3600 / 60,
            sod % 60,
            self.nanos,
            a / 3600,
            a % 3600 / 60
        )
    }
}

fn parse_offset(c: &mut Cur<'_>) -> Option<i32> {
    if c.eat(b'Z') {
        return Some(0);
    }
    if c.s[c.i..].eq_ignore_ascii_case(b"UTC") || c.s[c.i..].eq_ignore_ascii_case(b"GMT") {
        c.i = c.s.len();
        return Some(0);
    }
    let sign = if c.eat(b'+') {
        1
    } else if c.eat(b'-') {
        -1
    } else {
        return None;
    };
    let (h, n) = c.digits(1, 4)?;
    let (h, mut m) = if n > 2 { (h / 100, h % 100) } else { (h, 0) };
    if n <= 2 && c.eat(b':') {
        m = c.digits(2, 2)?.0;
    }
    if h > 23 || m > 59 {
        return None;
    }
    Some(sign * i32::try_from(h * 3600 + m * 60).ok()?)
}

/// Ruby's `Float#to_s` (which Psych writes): the shortest digits that read
/// back to the same value; fixed notation with at least one decimal from
/// 0.0001 up to below 1e16, otherwise `d.ddde+XX` (at least two exponent
/// digits); `NaN`, `Infinity`, `-Infinity` as Psych's `.nan`, `.inf`,
/// `-.inf`.
pub fn ruby_float(x: f64) -> String {
    if x.is_nan() {
        return ".nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            ".inf".into()
        } else {
            "-.inf".into()
        };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    let e = format!("{:e}", x.abs());
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let decpt = exp + 1;
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    let n = digits.len() as i32;
    if -4 < decpt && decpt < 16 {
        if decpt <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-decpt) as usize));
            out.push_str(&digits);
        } else if decpt >= n {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', (decpt - n) as usize));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..decpt as usize]);
            out.push('.');
            out.push_str(&digits[decpt as usize..]);
        }
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        if n > 1 {
            out.push_str(&digits[1..]);
        } else {
            out.push('0');
        }
        let _ = write!(
            out,
            "e{}{:02}",
            if decpt - 1 < 0 { '-' } else { '+' },
            (decpt - 1).abs()
        );
    }
    out
}

/// One player of `players.yaml`: mk_rate's entry, keyed by the player id.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerEntry {
    /// The player id, the key of the entry: shogi-server's
    /// `<name>+<MD5 of the password>`, or a name alone.
    pub player_id: String,
    /// The name (`name`): the id up to its first `+`.
    pub name: String,
    /// The rating group (`rating_group`): 0 for the largest connected group
    /// of players, 1 for the next, ...; 999 for players not rated.
    pub rating_group: u32,
    /// The rate (`rate`), an integer; 0 for players not rated.
    pub rate: i64,
    /// When the player last played (`last_modified`), if known.
    pub last_modified: Option<Stamp>,
    /// Wins (`win`), weighted by age (half-life), draws as one half.
    pub win: f64,
    /// Losses (`loss`), weighted as the wins.
    pub loss: f64,
}

/// The group of players not rated (mk_rate's `non_rated_group`).
pub const UNRATED_GROUP: u32 = 999;

/// The players of a `players.yaml`, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Players {
    /// The entries, group by group.
    pub entries: Vec<PlayerEntry>,
}

/// A `players.yaml` that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("players.yaml line {line}: {problem}")]
pub struct YamlError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong there.
    pub problem: YamlProblem,
}

/// What is wrong with a `players.yaml` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlProblem {
    /// No `players:` mapping at the top.
    NoPlayers,
    /// A line indented where no mapping entry can be.
    Indent,
    /// A line that is not `key: value` or `key:`.
    NotAnEntry,
    /// A quoted scalar that does not end on its line, or a bad escape.
    BadScalar,
    /// A group key that is not a number 0..=4294967295.
    BadGroup,
    /// A number field (`rating_group`, `rate`, `win`, `loss`) that is not a
    /// number.
    BadNumber(&'static str),
    /// A `last_modified` that is not a timestamp.
    BadTime,
    /// A tab in the indentation, a flow collection other than `{}`, an
    /// anchor, alias, tag or block scalar: not what mk_rate writes.
    Unsupported,
    /// More than [`Players::MAX_ENTRIES`] players or a line longer than
    /// [`Players::MAX_LINE`].
    TooLarge,
}

impl fmt::Display for YamlProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            YamlProblem::NoPlayers => f.write_str("no `players:` mapping"),
            YamlProblem::Indent => f.write_str("unexpected indentation"),
            YamlProblem::NotAnEntry => f.write_str("not a `key: value` entry"),
            YamlProblem::BadScalar => f.write_str("bad quoted scalar"),
            YamlProblem::BadGroup => f.write_str("group key is not a number"),
            YamlProblem::BadNumber(k) => write!(f, "`{k}` is not a number"),
            YamlProblem::BadTime => f.write_str("`last_modified` is not a timestamp"),
            YamlProblem::Unsupported => f.write_str("YAML construct not used by players.yaml"),
            YamlProblem::TooLarge => f.write_str("too large"),
        }
    }
}

/// Whether Psych would quote `s`, and how: `None` plain, `Some('\'')`,
/// `Some('"')`.
fn psych_quote(s: &str) -> Option<char> {
    let Some(first) = s.chars().next() else {
        return Some('\'');
    };
    if matches!(s, "y" | "Y" | "n" | "N" | "~") {
        return Some('"');
    }
    if s.chars()
        .any(|c| c.is_control() || (!c.is_ascii() && !c.is_alphanumeric()))
    {
        return Some('"');
    }
    if !(first.is_alphanumeric() || first == '_') {
        return Some('"');
    }
    let lower = s.to_ascii_lowercase();
    let special = matches!(
        lower.as_str(),
        "null" | "true" | "false" | "yes" | "no" | "on" | "off"
    );
    if special
        || looks_numeric(s)
        || looks_date(s)
        || s.contains(": ")
        || s.contains(" #")
        || s.ends_with(':')
        || s.ends_with(' ')
    {
        return Some('\'');
    }
    None
}

/// YAML 1.1 integers and floats as Psych reads them (`1_000`, `0.5`, `.5`,
/// `1.0e+3`, `0x1f`, `0b10`, `012`, `1:20` sexagesimal).
fn looks_numeric(s: &str) -> bool {
    let t = s.strip_prefix(['+', '-']).unwrap_or(s);
    if t.is_empty() {
        return false;
    }
    if let Some(h) = t.strip_prefix("0x") {
        return !h.is_empty()
            && h.chars()
                .all(|c| c.is_ascii_hexdigit() || c == '_' || c == ',');
    }
    if let Some(b) = t.strip_prefix("0b") {
        return !b.is_empty() && b.chars().all(|c| matches!(c, '0' | '1' | '_' | ','));
    }
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    if let Some(e) = exp {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        if e.is_empty() || !e.chars().all(|c| c.is_ascii_digit()) || !mant.contains('.') {
            return false;
        }
    }
    mant.chars().any(|c| c.is_ascii_digit())
        && mant
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '_' | ',' | '.' | ':'))
        && mant.matches('.').count() <= 1
}

fn looks_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 8 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' && b[5].is_ascii_digit()
}

/// Writes a string scalar as Psych would (see the module docs).
pub(crate) fn yaml_string(s: &str) -> String {
    match psych_quote(s) {
        None => s.to_string(),
        Some('\'') => format!("'{}'", s.replace('\'', "''")),
        Some(_) => {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\t' => out.push_str("\\t"),
                    '\r' => out.push_str("\\r"),
                    '\0' => out.push_str("\\0"),
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        let _ = write!(out, "\\x{:02X}", c as u32);
                    }
                    c if c.is_control() => {
                        let _ = write!(out, "\\u{:04X}", c as u32);
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }
    }
}

/// Reads a scalar (plain, `'single'` or `"double"`) written on one line.
fn read_scalar(v: &str) -> Result<String, YamlProblem> {
    let v = v.trim();
    if let Some(body) = v.strip_prefix('\'') {
        let Some(inner) = body.strip_suffix('\'') else {
            return Err(YamlProblem::BadScalar);
        };
        let mut out = String::new();
        let mut chars = inner.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\'' && chars.next() != Some('\'') {
                return Err(YamlProblem::BadScalar);
            }
            out.push(c);
        }
        return Ok(out);
    }
    if let Some(body) = v.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = body.chars();
        loop {
            match chars.next() {
                None => return Err(YamlProblem::BadScalar),
                Some('"') => {
                    return if chars.as_str().trim().is_empty() {
                        Ok(out)
                    } else {
                        Err(YamlProblem::BadScalar)
                    };
                }
                Some('\\') => {
                    let c = chars.next().ok_or(YamlProblem::BadScalar)?;
                    let hex =
                        |chars: &mut std::str::Chars<'_>, n: usize| -> Result<char, YamlProblem> {
                            let h: String = chars.by_ref().take(n).collect();
                            if h.len() != n {
                                return Err(YamlProblem::BadScalar);
                            }
                            u32::from_str_radix(&h, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or(YamlProblem::BadScalar)
                        };
                    out.push(match c {
                        '0' => '\0',
                        'a' => '\x07',
                        'b' => '\x08',
                        't' | '\t' => '\t',
                        'n' => '\n',
                        'v' => '\x0b',
                        'f' => '\x0c',
                        'r' => '\r',
                        'e' => '\x1b',
                        ' ' => ' ',
                        '"' => '"',
                        '/' => '/',
                        '\\' => '\\',
                        'N' => '\u{85}',
                        '_' => '\u{a0}',
                        'L' => '\u{2028}',
                        'P' => '\u{2029}',
                        'x' => hex(&mut chars, 2)?,
                        'u' => hex(&mut chars, 4)?,
                        'U' => hex(&mut chars, 8)?,
                        _ => return Err(YamlProblem::BadScalar),
                    });
                }
                Some(c) => out.push(c),
            }
        }
    }
    if v.starts_with(['&', '*', '!', '|', '>', '[', '{']) {
        return Err(YamlProblem::Unsupported);
    }
    // A plain scalar ends at a comment.
    let v = match v.find(" #") {
        Some(i) => v[..i].trim_end(),
        None => v,
    };
    Ok(v.to_string())
}

/// Splits `key: value` / `key:` at the key's colon (the key may be quoted).
fn split_entry(s: &str) -> Option<(&str, &str)> {
    let end_of_key = if s.starts_with(['\'', '"']) {
        let q = s.as_bytes()[0];
        let mut i = 1;
        let b = s.as_bytes();
        loop {
            if i >= b.len() {
                return None;
            }
            if b[i] == b'\\' && q == b'"' {
                i += 2;
                continue;
            }
            if b[i] == q {
                if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                    i += 2;
                    continue;
                }
                break i + 1;
            }
            i += 1;
        }
    } else {
        let b = s.as_bytes();
        let mut i = 0;
        loop {
            if i >= b.len() {
                return None;
            }
            if b[i] == b':' && (i + 1 == b.len() || b[i + 1] == b' ') {
                break i;
            }
            i += 1;
        }
    };
    let rest = s.get(end_of_key..)?;
    let rest = rest.strip_prefix(':')?;
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some((&s[..end_of_key], rest.trim()))
}

impl Players {
    /// The most players read from one file (1,000,000).
    pub const MAX_ENTRIES: usize = 1_000_000;
    /// The longest line read, in bytes (64 KiB).
    pub const MAX_LINE: usize = 64 * 1024;

    /// The entry of `player_id`, if any.
    pub fn get(&self, player_id: &str) -> Option<&PlayerEntry> {
        self.entries.iter().find(|e| e.player_id == player_id)
    }

    /// `players.yaml` as mk_rate writes it (see the module docs): the
    /// groups in the order of the entries, then group 999 (`{}` when it has
    /// no entry).
    pub fn to_yaml(&self) -> String {
        let mut out = String::from("---\nplayers:\n");
        let mut current: Option<u32> = None;
        let mut saw_unrated = false;
        for e in &self.entries {
            if current != Some(e.rating_group) {
                let _ = writeln!(out, "  {}:", e.rating_group);
                current = Some(e.rating_group);
                saw_unrated |= e.rating_group == UNRATED_GROUP;
            }
            let _ = writeln!(out, "    {}:", yaml_string(&e.player_id));
            let _ = writeln!(out, "      name: {}", yaml_string(&e.name));
            let _ = writeln!(out, "      rating_group: {}", e.rating_group);
            if e.rating_group == UNRATED_GROUP {
                let _ = writeln!(out, "      rate: {}", e.rate);
            } else {
                let _ = writeln!(out, "      rate: {}", ruby_float(e.rate as f64));
            }
            match &e.last_modified {
                Some(t) => {
                    let _ = writeln!(out, "      last_modified: {}", t.to_yaml());
                }
                None => out.push_str("      last_modified:\n"),
            }
            let _ = writeln!(out, "      win: {}", ruby_float(e.win));
            let _ = writeln!(out, "      loss: {}", ruby_float(e.loss));
        }
        if !saw_unrated {
            let _ = writeln!(out, "  {UNRATED_GROUP}: {{}}");
        }
        out
    }

    /// Reads a `players.yaml` written by mk_rate, by shogi-server or by
    /// [`Players::to_yaml`]. Missing fields take shogi-server's defaults
    /// (rate, win, loss 0; the name the id up to its first `+`; the group
    /// its group key); unknown fields are ignored, as shogi-server does. A
    /// fractional rate is truncated toward zero.
    pub fn from_yaml(text: &str) -> Result<Players, YamlError> {
        let mut players = Players::default();
        let mut seen_players = false;
        // Indents of the current group line, player line and field lines.
        let mut group_indent: Option<usize> = None;
        let mut player_indent: Option<usize> = None;
        let mut field_indent: Option<usize> = None;
        let mut group: Option<u32> = None;
        let mut in_player = false;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let err = |problem| YamlError {
                line: line_no,
                problem,
            };
            if raw.len() > Self::MAX_LINE {
                return Err(err(YamlProblem::TooLarge));
            }
            let trimmed = raw.trim_end();
            let content = trimmed.trim_start_matches(' ');
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            if content.starts_with('\t') {
                return Err(err(YamlProblem::Unsupported));
            }
            let indent = trimmed.len() - content.len();
            if indent == 0 {
                if content == "---" || content == "..." || content.starts_with("--- ") {
                    if content.starts_with("--- ") && content != "--- {}" {
                        return Err(err(YamlProblem::Unsupported));
                    }
                    continue;
                }
                let (k, v) = split_entry(content).ok_or(err(YamlProblem::NotAnEntry))?;
                if read_scalar(k).map_err(err)? == "players" {
                    if !(v.is_empty() || v == "{}") {
                        return Err(err(YamlProblem::Unsupported));
                    }
                    seen_players = true;
                    group_indent = None;
                    group = None;
                    in_player = false;
                } else {
                    // Another top-level key: not ours, skip its block.
                    seen_players = false;
                }
                continue;
            }
            if !seen_players {
                continue;
            }
            let (k, v) = split_entry(content).ok_or(err(YamlProblem::NotAnEntry))?;
            let gi = *group_indent.get_or_insert(indent);
            if indent == gi {
                let key = read_scalar(k).map_err(err)?;
                let g: u32 = key.parse().map_err(|_| err(YamlProblem::BadGroup))?;
                if !(v.is_empty() || v == "{}") {
                    return Err(err(YamlProblem::Unsupported));
                }
                group = Some(g);
                player_indent = None;
                in_player = false;
                continue;
            }
            if indent < gi {
                return Err(err(YamlProblem::Indent));
            }
            let Some(g) = group else {
                return Err(err(YamlProblem::Indent));
            };
            let pi = *player_indent.get_or_insert(indent);
            if indent == pi {
                if !(v.is_empty() || v == "{}") {
                    return Err(err(YamlProblem::Unsupported));
                }
                if players.entries.len() >= Self::MAX_ENTRIES {
                    return Err(err(YamlProblem::TooLarge));
                }
                let id = read_scalar(k).map_err(err)?;
                let name = id.split('+').next().unwrap_or("").to_string();
                players.entries.push(PlayerEntry {
                    player_id: id,
                    name,
                    rating_group: g,
                    rate: 0,
                    last_modified: None,
                    win: 0.0,
                    loss: 0.0,
                });
                field_indent = None;
                in_player = true;
                continue;
            }
            if indent < pi || !in_player {
                return Err(err(YamlProblem::Indent));
            }
            let fi = *field_indent.get_or_insert(indent);
            if indent != fi {
                return Err(err(YamlProblem::Indent));
            }
            let key = read_scalar(k).map_err(err)?;
            let value = read_scalar(v).map_err(err)?;
            let plain_null = !v.starts_with(['\'', '"'])
                && matches!(value.as_str(), "" | "~" | "null" | "Null" | "NULL");
            let Some(entry) = players.entries.last_mut() else {
                return Err(err(YamlProblem::Indent));
            };
            let number = |what: &'static str| -> Result<f64, YamlError> {
                if plain_null {
                    return Ok(0.0);
                }
                let t = value.replace('_', "");
                let x: f64 = match t.as_str() {
                    ".inf" | ".Inf" | ".INF" | "+.inf" => f64::INFINITY,
                    "-.inf" | "-.Inf" | "-.INF" => f64::NEG_INFINITY,
                    ".nan" | ".NaN" | ".NAN" => f64::NAN,
                    _ => t.parse().map_err(|_| err(YamlProblem::BadNumber(what)))?,
                };
                Ok(x)
            };
            match key.as_str() {
                "name" if !plain_null => entry.name = value,
                "name" => {}
                "rating_group" => {
                    let x = number("rating_group")?;
                    if !(0.0..=f64::from(u32::MAX)).contains(&x) || x.fract() != 0.0 {
                        return Err(err(YamlProblem::BadNumber("rating_group")));
                    }
                    entry.rating_group = x as u32;
                }
                "rate" => {
                    let x = number("rate")?;
                    if !x.is_finite() {
                        return Err(err(YamlProblem::BadNumber("rate")));
                    }
                    entry.rate = x.trunc() as i64;
                }
                "win" => entry.win = number("win")?,
                "loss" => entry.loss = number("loss")?,
                "last_modified" => {
                    entry.last_modified = if plain_null {
                        None
                    } else {
                        Some(Stamp::parse_yaml(&value).ok_or(err(YamlProblem::BadTime))?)
                    };
                }
                _ => {}
            }
        }
        if !seen_players && players.entries.is_empty() && !text.contains("players:") {
            return Err(YamlError {
                line: 1,
                problem: YamlProblem::NoPlayers,
            });
        }
        Ok(players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_float_text() {
        // Values printed by Ruby 3.1's `p` / `to_yaml` (see the crate README).
        for (x, ruby) in [
            (1.0e-5, "1.0e-05"),
            (1e16, "1.0e+16"),
            (1e15 * 1.234567890123456, "1.234567890123456e+15"),
            (1e14, "100000000000000.0"),
            (0.0001, "0.0001"),
            (0.000099, "9.9e-05"),
            (123.456, "123.456"),
            (-0.0, "-0.0"),
            (5e-324, "5.0e-324"),
            (1.0 / 3.0, "0.3333333333333333"),
            (100.0, "100.0"),
            (1e100, "1.0e+100"),
            (2.5e20, "2.5e+20"),
            (-1.5e-7, "-1.5e-07"),
            (14.997577607574618, "14.997577607574618"),
        ] {
            assert_eq!(ruby_float(x), ruby, "{x:e}");
        }
    }

    #[test]
    fn psych_string_quoting() {
        // Psych 4 (Ruby 3.1) `to_yaml` of each string.
        for (s, psych) in [
            ("1e3", "1e3"),
            ("123", "'123'"),
            ("y", "\"y\""),
            ("-x", "\"-x\""),
            ("a: b", "'a: b'"),
            ("true", "'true'"),
            ("x#y", "x#y"),
            ("a #b", "'a #b'"),
            ("0.5", "'0.5'"),
            ("2024-01-01", "'2024-01-01'"),
            ("", "''"),
            ("a b", "a b"),
            ("1_000", "'1_000'"),
            ("null", "'null'"),
            ("~", "\"~\""),
            (":sym", "\":sym\""),
            ("@x", "\"@x\""),
            ("x@y+z", "x@y+z"),
        ] {
            assert_eq!(yaml_string(s), psych, "{s}");
            assert_eq!(read_scalar(psych).unwrap(), s);
        }
    }

    #[test]
    fn time_text() {
        // Psych: Time.at(1780000000, 123456789, :nsec).localtime("+09:00").to_yaml
        let t = Stamp {
            unix_secs: 1_780_000_000,
            nanos: 123_456_789,
            utc_offset_secs: 9 * 3600,
        };
        assert_eq!(t.to_yaml(), "2026-05-29 05:26:40.123456789 +09:00");
        assert_eq!(Stamp::parse_yaml(&t.to_yaml()), Some(t));
        let s = Stamp::parse_time("2026/05/29 05:26:40", Zone::Fixed(9 * 3600)).unwrap();
        assert_eq!((s.unix_secs, s.nanos), (1_780_000_000, 0));
        assert_eq!(Stamp::parse_time("2026-02-30", Zone::Fixed(0)), None);
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
    }
}
