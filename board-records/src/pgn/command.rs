//! Commands embedded in comments, `[%name operand,…]` (the 2001 PGN
//! supplement; [`spec::pgn_pdn`](crate::spec::pgn_pdn), §1.9): `%clk`,
//! `%emt` and `%eval` typed, every other command passed through as
//! written.

use core::fmt;
use core::time::Duration;

/// An engine evaluation, `[%eval 0.31]`, `[%eval #-3]`, `[%eval 0.31,20]`:
/// from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score.
    pub score: Score,
    /// The search depth after the comma, if given.
    pub depth: Option<u32>,
}

/// A score from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (`0.31` pawns is 31). Written in pawns; more than two
    /// decimals are rounded to the nearest centipawn, halves away from
    /// zero (Dragon's `-0.048` is -5).
    Centipawns(i32),
    /// Mate in this many moves: positive when White mates, negative when
    /// Black mates (`#-3`); `#0` means the side to move is mated (as
    /// python-chess reads it).
    Mate(i32),
}

impl fmt::Display for Eval {
    /// The `%eval` operand as python-chess writes it (spec note §1.9):
    /// pawns with two decimals (`0.31`, `-1.30`, `-0.05`) or `#n`
    /// (`#-3`), then `,depth` when known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Score::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let a = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)?;
            }
            Score::Mate(n) => write!(f, "#{n}")?,
        }
        if let Some(d) = self.depth {
            write!(f, ",{d}")?;
        }
        Ok(())
    }
}

/// A duration as `%clk`/`%emt` write it: `H:MM:SS`, with up to three
/// decimals of a second, trailing zeros removed (python-chess, spec note
/// §1.10), e.g. `0:03:00`, `0:09:58.5`.
pub(crate) struct Hms(pub(crate) Duration);

impl fmt::Display for Hms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0.as_secs();
        write!(f, "{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)?;
        let mut ms = self.0.subsec_millis();
        if ms > 0 {
            let mut digits = 3;
            while ms.is_multiple_of(10) {
                ms /= 10;
                digits -= 1;
            }
            write!(f, ".{ms:0digits$}")?;
        }
        Ok(())
    }
}

/// One embedded command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Command<'a> {
    /// `[%clk H:MM:SS(.fff)]`: the time left on the mover's clock after
    /// the move.
    Clock(Duration),
    /// `[%emt H:MM:SS(.fff)]`: the time spent on the move.
    ElapsedMoveTime(Duration),
    /// `[%eval …]`.
    Eval(Eval),
    /// Any other command (`%egt`, `%mct`, `%csl`, `%cal`, ...), as
    /// written: the name without `%`, the operands without the closing
    /// `]`.
    Other {
        /// The command's name (`csl`).
        name: &'a [u8],
        /// Everything after the space that ends the name (`Rd4,Gd5`).
        operands: &'a [u8],
    },
}

/// What is wrong with a command (see [`CommandError`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CommandProblem {
    /// `[%` without its closing `]`.
    Unterminated,
    /// `[%` followed by no name.
    MissingName,
    /// A `%clk`/`%emt` operand that is not `H:MM:SS` with optional
    /// fraction of a second (digits only; at most 9 digits per field).
    BadDuration,
    /// An `%eval` operand that is neither pawns (`-1.30`) nor mate
    /// (`#-3`), optionally followed by `,depth`, or out of range.
    BadEval,
}

impl fmt::Display for CommandProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CommandProblem::Unterminated => "command without its closing ']'",
            CommandProblem::MissingName => "command without a name",
            CommandProblem::BadDuration => "not a time H:MM:SS",
            CommandProblem::BadEval => "not an evaluation (pawns or #mate, optional ,depth)",
        })
    }
}

/// A command that does not read: the 0-based byte offset of its `[` in the
/// comment, and the problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("comment command at byte {offset}: {problem}")]
pub struct CommandError {
    /// Byte offset of the command's `[` in the comment text.
    pub offset: usize,
    /// What is wrong.
    pub problem: CommandProblem,
}

/// The commands of one comment, in order (an iterator; zero copy). A
/// command that does not read is an `Err` and the iterator goes on after
/// it (after the end of the comment when it is unterminated).
///
/// ```
/// use board_records::pgn::{Command, Commands, Eval, Score};
/// use core::time::Duration;
/// let mut c = Commands::new(b"[%clk 0:00:07][%eval -6.05] White is toast");
/// assert_eq!(c.next(), Some(Ok(Command::Clock(Duration::from_secs(7)))));
/// assert_eq!(c.next(), Some(Ok(Command::Eval(Eval { score: Score::Centipawns(-605), depth: None }))));
/// assert_eq!(c.next(), None);
/// ```
#[derive(Debug, Clone)]
pub struct Commands<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Commands<'a> {
    /// The commands of `comment` (the text between the braces).
    pub const fn new(comment: &'a [u8]) -> Commands<'a> {
        Commands {
            text: comment,
            pos: 0,
        }
    }
}

impl<'a> Commands<'a> {
    /// The next command and the byte range it spans in the comment (`[`
    /// to `]` included; to the end for an unterminated one).
    pub(crate) fn next_spanned(
        &mut self,
    ) -> Option<(core::ops::Range<usize>, Result<Command<'a>, CommandError>)> {
        let t = self.text;
        let start = self.pos + find(&t[self.pos.min(t.len())..], b"[%")?;
        let item = self.command_at(start);
        Some((start..self.pos, item))
    }

    fn command_at(&mut self, start: usize) -> Result<Command<'a>, CommandError> {
        let t = self.text;
        let err = |problem| CommandError {
            offset: start,
            problem,
        };
        let name_start = start + 2;
        let mut i = name_start;
        while i < t.len() && t[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let name = &t[name_start..i];
        // The operands run to the `]` outside double quotes.
        let ops_start = if t.get(i) == Some(&b' ') { i + 1 } else { i };
        let mut j = ops_start;
        let mut quoted = false;
        while j < t.len() && (quoted || t[j] != b']') {
            if t[j] == b'"' {
                quoted = !quoted;
            }
            j += 1;
        }
        if j >= t.len() {
            self.pos = t.len();
            return Err(err(CommandProblem::Unterminated));
        }
        self.pos = j + 1;
        if name.is_empty() {
            return Err(err(CommandProblem::MissingName));
        }
        let operands = &t[ops_start..j];
        match name {
            b"clk" => duration(operands)
                .map(Command::Clock)
                .ok_or(err(CommandProblem::BadDuration)),
            b"emt" => duration(operands)
                .map(Command::ElapsedMoveTime)
                .ok_or(err(CommandProblem::BadDuration)),
            b"eval" => eval(operands)
                .map(Command::Eval)
                .ok_or(err(CommandProblem::BadEval)),
            _ => Ok(Command::Other { name, operands }),
        }
    }
}

impl<'a> Iterator for Commands<'a> {
    type Item = Result<Command<'a>, CommandError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_spanned().map(|(_, c)| c)
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn trim(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &s[start..end]
}

/// 1 to 9 ASCII digits as a number.
fn digits(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 9 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0, |n, &b| n * 10 + u64::from(b - b'0')))
}

/// `H:MM:SS` with an optional `.fraction` (python-chess's
/// `\d+:\d+:\d+(\.\d*)?`; at most 9 digits per field, fraction digits
/// past the ninth ignored).
pub(crate) fn duration(s: &[u8]) -> Option<Duration> {
    let s = trim(s);
    let mut parts = s.splitn(3, |&b| b == b':');
    let h = digits(parts.next()?)?;
    let m = digits(parts.next()?)?;
    let rest = parts.next()?;
    let (sec, frac) = match rest.iter().position(|&b| b == b'.') {
        Some(p) => (&rest[..p], &rest[p + 1..]),
        None => (rest, &b""[..]),
    };
    let sec = digits(sec)?;
    if !frac.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut nanos = 0u32;
    for k in 0..9 {
        nanos = nanos * 10 + frac.get(k).map_or(0, |&b| u32::from(b - b'0'));
    }
    Some(Duration::new(h * 3600 + m * 60 + sec, nanos))
}

fn eval(s: &[u8]) -> Option<Eval> {
    let s = trim(s);
    let (score, depth) = match s.iter().position(|&b| b == b',') {
        Some(p) => (trim(&s[..p]), Some(digits(trim(&s[p + 1..]))? as u32)),
        None => (s, None),
    };
    let score = if let Some(m) = score.strip_prefix(b"#") {
        let (neg, m) = sign(m);
        let n = i32::try_from(digits(m)?).ok()?;
        Score::Mate(if neg { -n } else { n })
    } else {
        let (neg, p) = sign(score);
        let (int, frac) = match p.iter().position(|&b| b == b'.') {
            Some(d) => (&p[..d], &p[d + 1..]),
            None => (p, &b""[..]),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        let int = if int.is_empty() { 0 } else { digits(int)? };
        if !frac.iter().all(u8::is_ascii_digit) || frac.len() > 9 {
            return None;
        }
        let at = |k: usize| frac.get(k).map_or(0, |&b| u64::from(b - b'0'));
        let mut cp = int * 100 + at(0) * 10 + at(1);
        if at(2) >= 5 {
            cp += 1;
        }
        let cp = i32::try_from(cp).ok()?;
        Score::Centipawns(if neg { -cp } else { cp })
    };
    Some(Eval { score, depth })
}

fn sign(s: &[u8]) -> (bool, &[u8]) {
    match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        // Spec note §1.9: chess.com tenths, lichess whole seconds,
        // Chesstempo two-digit hours.
        assert_eq!(duration(b"0:09:58.5"), Some(Duration::from_millis(598_500)));
        assert_eq!(duration(b"0:03:00"), Some(Duration::from_secs(180)));
        assert_eq!(duration(b"00:01:00"), Some(Duration::from_secs(60)));
        assert_eq!(duration(b"1:34:56"), Some(Duration::from_secs(5696)));
        assert_eq!(duration(b"0:03"), None);
        assert_eq!(duration(b"a:03:00"), None);
    }

    #[test]
    fn written_as_python_chess_writes_them() {
        use alloc::string::ToString;
        // Spec note §1.9/§1.10: `%.2f` or `#n`; H:MM:SS with up to three
        // decimals, trailing zeros removed.
        let e = |score, depth| Eval { score, depth }.to_string();
        assert_eq!(e(Score::Centipawns(31), None), "0.31");
        assert_eq!(e(Score::Centipawns(-130), None), "-1.30");
        assert_eq!(e(Score::Centipawns(-5), Some(20)), "-0.05,20");
        assert_eq!(e(Score::Mate(-3), None), "#-3");
        let h = |d| alloc::format!("{}", Hms(d));
        assert_eq!(h(Duration::from_secs(180)), "0:03:00");
        assert_eq!(h(Duration::from_millis(598_500)), "0:09:58.5");
        assert_eq!(h(Duration::from_millis(3_723_050)), "1:02:03.05");
        assert_eq!(h(Duration::from_millis(1_001)), "0:00:01.001");
        for d in ["0:03:00", "0:09:58.5", "1:02:03.05"] {
            assert_eq!(h(duration(d.as_bytes()).unwrap()), d);
        }
    }

    #[test]
    fn evals() {
        let cp = |c, d| {
            Some(Eval {
                score: Score::Centipawns(c),
                depth: d,
            })
        };
        assert_eq!(eval(b"0.31"), cp(31, None));
        assert_eq!(eval(b"-1.30"), cp(-130, None));
        assert_eq!(eval(b"0.31,20"), cp(31, Some(20)));
        assert_eq!(eval(b"0.4"), cp(40, None));
        assert_eq!(eval(b"-0.048"), cp(-5, None));
        assert_eq!(eval(b"3"), cp(300, None));
        let mate = |m| {
            Some(Eval {
                score: Score::Mate(m),
                depth: None,
            })
        };
        assert_eq!(eval(b"#-3"), mate(-3));
        assert_eq!(eval(b"#3"), mate(3));
        assert_eq!(eval(b"#0"), mate(0));
        assert_eq!(eval(b"#"), None);
        assert_eq!(eval(b"x"), None);
        assert_eq!(eval(b"."), None);
    }
}
