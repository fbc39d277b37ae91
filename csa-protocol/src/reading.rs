//! Readings for a person of whole inputs, what `boardwire csa decode`
//! prints: a wire line from either side ([`read_line`]), read by
//! [`ClientMessage::describe`] or [`ServerMessage::describe`], and the
//! statements of a CSA kifu file ([`KifuReadings`]), read by
//! [`Item::describe`](crate::kifu::Item::describe) and checked on the
//! shogi rules.

use alloc::string::{String, ToString};

use crate::decode::decode;
use crate::error::{DecodeError, MessageKind};
use crate::kifu::{Statement, Statements, check_file_rules};
use crate::message::{ClientMessage, ServerMessage};

/// Which side sent a line: a line such as `+7776FU` or `LOGOUT` is valid
/// from both sides and reads differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Client → server ([`ClientMessage`]).
    Client,
    /// Server → client ([`ServerMessage`]).
    Server,
}

impl Direction {
    /// `client` or `server`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Client => "client",
            Direction::Server => "server",
        }
    }
}

/// One wire line read ([`read_line`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineReading {
    /// The side it was read as.
    pub direction: Direction,
    /// `Ok(Some(words))`: the message's `describe()`; `Ok(None)`: a line of
    /// an unknown kind (`Unrecognised`); `Err`: a known kind with a bad
    /// field.
    pub reading: Result<Option<String>, DecodeError>,
    /// The line's wire text as a transcript shows it, when it is not the
    /// line's bytes as they are: the message's `shown()` (a `LOGIN`
    /// password as `*****`), or for a malformed `LOGIN` nothing of its
    /// fields (the password cannot be told apart from the name):
    /// `LOGIN *****  (malformed: fields not shown)`. `None`: show the
    /// line's bytes (escaped for a terminal).
    pub shown: Option<String>,
}

impl LineReading {
    /// Whether the line is a known kind with a bad field.
    pub fn is_malformed(&self) -> bool {
        self.reading.is_err()
    }
}

/// Reads `line` (without its line end) as a line from `from`, or, with
/// `None`, as a client line when the client decoder knows it (a move line
/// reads as a client move), else as a server line (`LOGIN:alice OK`); a
/// line neither side knows is an unrecognised server line, and one only
/// the client decoder refuses is its malformed client line.
///
/// ```
/// use csa_protocol::reading::{Direction, read_line};
///
/// // csa-protocol's spec/csa.md, *Moves* and *Plain CSA mode*.
/// let r = read_line(b"+7776FU,T12", Some(Direction::Server));
/// assert_eq!(r.reading, Ok(Some("move +7776FU: sente FU 7g to 7f, 12 s".into())));
/// let r = read_line(b"LOGIN:alice OK", None);
/// assert_eq!((r.direction, r.reading), (Direction::Server, Ok(Some("LOGIN OK: logged in as alice".into()))));
/// let r = read_line(b"LOGIN alice secret", None);
/// assert_eq!(r.shown.as_deref(), Some("LOGIN alice *****"));
/// assert_eq!(read_line(b"HELLO", None).reading, Ok(None));
/// ```
pub fn read_line(line: &[u8], from: Option<Direction>) -> LineReading {
    match from {
        Some(Direction::Client) => client(line),
        Some(Direction::Server) => server(line),
        None => {
            let c = client(line);
            if matches!(c.reading, Ok(Some(_))) {
                return c;
            }
            let s = server(line);
            match (&c.reading, &s.reading) {
                (_, Ok(Some(_))) => s,
                (Err(_), _) => c,
                _ => s,
            }
        }
    }
}

fn client(line: &[u8]) -> LineReading {
    let (reading, shown) = match decode::<ClientMessage>(line) {
        Ok(ClientMessage::Unrecognised(_)) => (Ok(None), None),
        Ok(m) => (
            Ok(Some(m.describe().to_string())),
            Some(m.shown().to_string()),
        ),
        Err(e) if e.message == MessageKind::Login => (
            Err(e),
            Some("LOGIN *****  (malformed: fields not shown)".into()),
        ),
        Err(e) => (Err(e), None),
    };
    LineReading {
        direction: Direction::Client,
        reading,
        shown,
    }
}

fn server(line: &[u8]) -> LineReading {
    let reading = match decode::<ServerMessage>(line) {
        Ok(ServerMessage::Unrecognised(_)) => Ok(None),
        Ok(m) => Ok(Some(m.describe().to_string())),
        Err(e) => Err(e),
    };
    // Server lines hold no secret: shown as they are.
    LineReading {
        direction: Direction::Server,
        reading,
        shown: None,
    }
}

/// One statement of a kifu file read ([`KifuReadings`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KifuReading {
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based record in the file (records are separated by `/` lines),
    /// as [`check_file_rules`] numbers them.
    pub record: usize,
    /// [`Item::kind`](crate::kifu::Item::kind): `comment`, `name`, `info`
    /// or `statement`.
    pub kind: &'static str,
    /// [`Item::describe`](crate::kifu::Item::describe).
    pub reading: String,
}

/// Where a kifu stops reading ([`KifuReadings`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KifuStop {
    /// 1-based line in the file.
    pub line: usize,
    /// The error: a [`KifuError`](crate::kifu::KifuError) or an
    /// [`IllegalStatement`](crate::kifu::IllegalStatement), as text.
    pub reading: String,
    /// `true`: the line does not read (malformed); `false`: it reads, and
    /// the rules refuse its position or move.
    pub malformed: bool,
}

/// The statements of a kifu file in words, each with its line and record
/// (a `/` line, the end of a record, yields nothing), then where it stops:
/// the first malformed statement, or else the first position or move the
/// shogi rules refuse ([`check_file_rules`]), as one `Err` after the
/// statements of the lines before it. The file is read twice (checked
/// first) and never held as records.
///
/// ```
/// use csa_protocol::reading::KifuReadings;
///
/// // csa-protocol's spec/csa.md, *Kifu*: a move that drops a piece not in hand.
/// let kifu = b"V2.2\nPI\n+\n+7776FU\n-3334FU\n+0055HI\n";
/// let all: Vec<_> = KifuReadings::new(kifu).collect();
/// assert_eq!(all.len(), 6);
/// let first = all[0].as_ref().unwrap();
/// assert_eq!((first.line, first.record, first.kind), (1, 1, "statement"));
/// let stop = all[5].as_ref().unwrap_err();
/// assert_eq!((stop.line, stop.malformed), (6, false));
/// let error = "kifu record 1, line 6, column 0 (byte 26): illegal move +0055HI";
/// assert!(stop.reading.starts_with(error), "{}", stop.reading);
/// ```
#[derive(Debug)]
pub struct KifuReadings<'a> {
    statements: Statements<'a>,
    record: usize,
    stop: Option<KifuStop>,
}

impl<'a> KifuReadings<'a> {
    /// The readings of `data`, a whole kifu file.
    pub fn new(data: &'a [u8]) -> KifuReadings<'a> {
        // Where the kifu stops: its line, the line's start in the file.
        // The first malformed statement is found without collecting records.
        let stop = match Statements::new(data).find_map(Result::err) {
            None => check_file_rules(data).err().map(|bad| {
                let stop = KifuStop {
                    line: bad.line,
                    reading: bad.to_string(),
                    malformed: false,
                };
                (stop, bad.offset - bad.column)
            }),
            Some(e) => Some((
                KifuStop {
                    line: e.line,
                    reading: e.to_string(),
                    malformed: true,
                },
                e.offset - e.column,
            )),
        };
        let good = stop.as_ref().map_or(data.len(), |s| s.1);
        KifuReadings {
            statements: Statements::new(&data[..good]),
            record: 1,
            stop: stop.map(|s| s.0),
        }
    }
}

impl Iterator for KifuReadings<'_> {
    type Item = Result<KifuReading, KifuStop>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let Some(statement) = self.statements.next() else {
                return self.stop.take().map(Err);
            };
            let line = self.statements.line();
            let (kind, reading) = match statement {
                Ok(Statement::Item(item)) => (item.kind(), item.describe().to_string()),
                Ok(Statement::RecordEnd) => {
                    self.record += 1;
                    continue;
                }
                // Not reached: the lines before the stop read.
                Err(e) => ("error", e.to_string()),
            };
            return Some(Ok(KifuReading {
                line,
                record: self.record,
                kind,
                reading,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn words(line: &str, from: Option<Direction>) -> (Direction, String) {
        let r = read_line(line.as_bytes(), from);
        let words = match r.reading {
            Ok(Some(w)) => w,
            Ok(None) => "unrecognised".into(),
            Err(e) => alloc::format!("error: {e}"),
        };
        (r.direction, words)
    }

    #[test]
    fn game_lines_in_words() {
        // Spec note examples (spec/csa.md, *Moves*, *Results*): a move
        // with its time, the result lines; each side's reading is guessed.
        let lines = [
            "+7776FU,T12",
            "-0055KA",
            "%TORYO",
            "#RESIGN",
            "#LOSE",
            "START:g1",
        ];
        let read: Vec<(Direction, String)> = lines.iter().map(|l| words(l, None)).collect();
        use Direction::{Client, Server};
        assert_eq!(
            read,
            [
                (Server, "move +7776FU: sente FU 7g to 7f, 12 s".into()),
                (Client, "move -0055KA: gote drops KA on 5e".into()),
                (Client, "%TORYO: resign".into()),
                (Server, "#RESIGN: game over, resignation".into()),
                (Server, "#LOSE: the receiver lost".into()),
                (Server, "START: game g1".into()),
            ]
        );
        assert_eq!(
            words("LOGIN b pw", Some(Client)).1,
            "LOGIN: name b, password hidden, CSA mode"
        );
        assert_eq!(words("AGREE g1", Some(Client)).1, "AGREE: game g1");
    }

    #[test]
    fn malformed_and_unrecognised_lines() {
        let login = read_line(b"LOGIN", Some(Direction::Client));
        assert!(login.is_malformed());
        // Nothing of a malformed LOGIN's fields is shown.
        assert_eq!(
            login.shown.as_deref(),
            Some("LOGIN *****  (malformed: fields not shown)")
        );
        let hello = read_line(b"HELLO", Some(Direction::Client));
        assert_eq!((hello.reading, hello.shown), (Ok(None), None));
        // A cut-off move is a malformed line of either side.
        assert!(read_line(b"+77", Some(Direction::Server)).is_malformed());
        assert!(read_line(b"+7776ZZ", None).is_malformed());
    }

    #[test]
    fn kifu_readings_stop_at_a_malformed_line() {
        let kifu = b"V2.2\nN+alice\nPI\n+\n+7776FU\n/\nV2.2\nPI\n+\n+77\n";
        let all: Vec<_> = KifuReadings::new(kifu).collect();
        let records: Vec<(usize, usize)> = all
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|r| (r.line, r.record))
            .collect();
        assert_eq!(
            records,
            [
                (1, 1),
                (2, 1),
                (3, 1),
                (4, 1),
                (5, 1),
                (7, 2),
                (8, 2),
                (9, 2)
            ]
        );
        let stop = all.last().unwrap().as_ref().unwrap_err();
        assert_eq!((stop.line, stop.malformed), (10, true));
        // A kifu that reads and keeps the rules has no stop.
        assert!(KifuReadings::new(b"V2.2\nPI\n+\n+7776FU\n").all(|r| r.is_ok()));
    }
}
