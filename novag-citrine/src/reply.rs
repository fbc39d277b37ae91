//! Device-to-host lines ([`Reply`]): zero-copy decoding of one line and
//! canonical encoding (spec note, "Commands (host -> device) and replies
//! (device -> host)" and "Move text the Citrine prints").

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::error::{DecodeError, ErrorKind, Field, ValueError};
use crate::parse::{
    In, PErr, Res, byte, decimal, end, fail, field, move_number, move_text, on_off, word, ws0, ws1,
};
use crate::types::{ClockTime, Level, LevelKind, MoveNumber, MoveText, Token, push_display};
use crate::vocab::{Color, Piece, role_from_letter, role_letter, square};

/// A move line `M   7   g1-f3` / `M   7,  c5xd4 |` or a take-back line
/// `T   1,  e7-e5` / `t 2 g8-f6`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveLine {
    /// The move number printed, `1..=9999`.
    pub number: MoveNumber,
    /// A comma after the number: a black move. In `M` lines no comma means
    /// a white move; in take-back lines the document's `t 2 g8-f6` takes
    /// back a black move without the comma, so there no comma means "colour
    /// not marked" (the colour follows from the game).
    pub black: bool,
    /// The move.
    pub text: MoveText,
    /// The trailing ` |` the protocol document prints (captured logs often
    /// lack it).
    pub bar: bool,
}

/// One rank of a `Position Board` diagram (spec note, `P`; layout
/// *(unconfirmed)*).
///
/// Decoding accepts an optional rank label `1..=8` followed by one space, tab
/// or `|`, then the 8 cells a..h. A cell is a piece (`WR WN WB WQ WK WP` for
/// White, `br bn bb bq bk bp` for Black; the colour letter `w`/`b` decides,
/// in either case), `::` for an empty square, or blank. When the cells are
/// not 8 whitespace-separated tokens (blank squares), they are read at a
/// fixed pitch of 3 columns: cell `k` starts at column `3k` after the label's
/// separator. Encoding prints that fixed-pitch layout with `::` on empty dark
/// squares and blanks on empty light squares, trailing blanks trimmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiagramRow {
    rank: Option<u8>,
    cells: [Option<Piece>; 8],
}

impl DiagramRow {
    /// A row: `rank` label `1..=8` (or none), cells for files a..h.
    ///
    /// # Errors
    /// [`ValueError::OutOfRange`] for a rank outside `1..=8`.
    pub fn new(rank: Option<u8>, cells: [Option<Piece>; 8]) -> Result<Self, ValueError> {
        match rank {
            Some(r) if !(1..=8).contains(&r) => Err(ValueError::OutOfRange {
                what: "diagram rank",
                value: u32::from(r),
                min: 1,
                max: 8,
            }),
            _ => Ok(DiagramRow { rank, cells }),
        }
    }
    /// The rank label `1..=8`, if printed.
    pub fn rank(&self) -> Option<u8> {
        self.rank
    }
    /// The pieces on files a..h.
    pub fn cells(&self) -> &[Option<Piece>; 8] {
        &self.cells
    }
}

/// An unrecognised line, verbatim (terminator excluded). Only the decoder
/// makes these, so encoding one gives back a line that is unrecognised
/// again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawLine<'a>(&'a [u8]);

impl<'a> RawLine<'a> {
    /// The bytes of the line.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }
}

/// One line the Citrine sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reply<'a> {
    /// `Clock 00:06:27 00:00:01` (reply to `C`): white's then black's clock.
    Clock {
        /// White's clock.
        white: ClockTime,
        /// Black's clock.
        black: ClockTime,
    },
    /// `Flip` (at the new-game position: the Citrine now plays White) or
    /// `Flip --> Black` / `Flip --> White` (mid-game: the side now to move).
    Flip {
        /// The side to move after a mid-game flip.
        to_move: Option<Color>,
    },
    /// `Game 2`: the head of a game list (reply to `G`); the number is the
    /// number of the last full move listed (both published examples list
    /// exactly that many rows), `0..=65535`.
    Game {
        /// The move count.
        moves: u16,
    },
    /// `. white black`: the column heads of a game list.
    GameColumns,
    /// `. 1 e2-e4 c7-c5`: one row of a game list (the last row may lack
    /// black's move). Moves may carry piece letters (`Ng1-f3`).
    GameRow {
        /// The move number.
        number: MoveNumber,
        /// White's move.
        white: MoveText,
        /// Black's move, if played.
        black: Option<MoveText>,
    },
    /// `ID. UCBII V1.09` (real devices) or `ID.UCBII VI.09` (the document):
    /// reply to `I`.
    Identity {
        /// The model, e.g. `UCBII`.
        model: Token<'a>,
        /// The firmware version, e.g. `V1.09` (the document prints `VI.09`).
        version: Token<'a>,
    },
    /// `Level tr 1`: one colour's level. `L` and the level-setting commands
    /// answer with two of these, white's then black's.
    Level(Level),
    /// `M 1 e2-e4 |` / `M   7,  c5xd4`: a move played (ours acknowledged,
    /// the Citrine's own, or one made on the board with Xmit on).
    Move(MoveLine),
    /// `T   1,  e7-e5` / `t 2 g8-f6`: a move taken back.
    TakeBack(MoveLine),
    /// `New Game` (reply to `N`; also unprompted when the pieces are set up
    /// in the start position and after a memory loss).
    NewGame,
    /// `Position Board`: the head of a position diagram (reply to `P`);
    /// 8 [`Reply::DiagramRow`] lines follow, rank 8 first.
    PositionBoard,
    /// A rank of a position diagram.
    DiagramRow(DiagramRow),
    /// `Xmit on` / `Xmit off` (reply to `X`).
    Xmit(bool),
    /// `.Referee on` / `.Referee off` (reply to `U`).
    Referee(bool),
    /// Any other line, verbatim. Not an error: the stream goes on.
    Unrecognised(RawLine<'a>),
}

/// Trims trailing spaces, tabs and CR.
fn trim_end(mut l: In<'_>) -> In<'_> {
    while let [rest @ .., b' ' | b'\t' | b'\r'] = l {
        l = rest;
    }
    l
}

/// Trims leading spaces and tabs.
fn trim_start(mut l: In<'_>) -> In<'_> {
    while let [b' ' | b'\t', rest @ ..] = l {
        l = rest;
    }
    l
}

impl<'a> Reply<'a> {
    /// Decodes one line (without its line terminator; a trailing CR is
    /// tolerated). Fields may be separated by any run of spaces or tabs;
    /// keywords are matched case-insensitively.
    ///
    /// Never allocates. Returns [`Reply::Unrecognised`] for a line that does
    /// not start like any known reply.
    ///
    /// # Errors
    /// A [`DecodeError`] naming the field and 1-based column when the line
    /// starts like a known reply (`M`, `T`, `Clock`, `Game`, `.`, `ID`,
    /// `Level`, `Flip`, `Xmit`, `.Referee`) but a field is malformed.
    ///
    /// ```
    /// use novag_citrine::{Reply, MoveText};
    /// let Reply::Move(m) = Reply::decode(b"M   7,  c5xd4")? else { panic!() };
    /// assert_eq!((m.number.get(), m.black, m.bar), (7, true, false));
    /// assert_eq!(m.text.to_string(), "c5xd4");
    /// assert!(matches!(Reply::decode(b"Hello")?, Reply::Unrecognised(_)));
    /// # Ok::<(), novag_citrine::DecodeError>(())
    /// ```
    pub fn decode(line: &'a [u8]) -> Result<Reply<'a>, DecodeError> {
        let full = trim_end(line);
        let l = trim_start(full);
        let res = dispatch(l);
        match res {
            Ok(Some(r)) => Ok(r),
            Ok(None) => {
                // The tolerated trailing CRs are not part of the line: the
                // encoder appends its own CR LF.
                let mut raw = line;
                while let [rest @ .., b'\r'] = raw {
                    raw = rest;
                }
                Ok(diagram_row(full).map_or(Reply::Unrecognised(RawLine(raw)), Reply::DiagramRow))
            }
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                Err(e.into_decode_error(line, Field::Keyword))
            }
            Err(nom::Err::Incomplete(_)) => Err(DecodeError {
                field: Field::Keyword,
                column: 1,
                kind: ErrorKind::Missing,
            }),
        }
    }

    /// Appends the canonical line and CR LF to `out`.
    ///
    /// The canonical form follows the columns of captured device output
    /// (`M   7,  c5xd4`, `Game   6`, `.   1  e2-e4       e7-e5`); ` |` is
    /// appended to move lines that carried it. Unrecognised lines are
    /// written verbatim.
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Reply::Unrecognised(raw) => out.extend_from_slice(raw.0),
            other => push_display(out, other),
        }
        out.extend_from_slice(b"\r\n");
    }

    /// The canonical line with CR LF, as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(32);
        self.encode(&mut v);
        v
    }
}

/// Recognises the keyword and decodes the rest. `Ok(None)`: no keyword.
fn dispatch(l: In<'_>) -> Result<Option<Reply<'_>>, nom::Err<PErr<'_>>> {
    let first = match l.first() {
        Some(b) => b.to_ascii_uppercase(),
        None => return Ok(None),
    };
    let r = match first {
        b'M' | b'T'
            if l.get(1)
                .is_some_and(|b| matches!(b, b' ' | b'\t' | b'0'..=b'9')) =>
        {
            let (_, m) = move_line(&l[1..])?;
            if first == b'M' {
                Reply::Move(m)
            } else {
                Reply::TakeBack(m)
            }
        }
        b'C' if word("Clock")(l).is_ok() => clock(l)?.1,
        b'F' if word("Flip")(l).is_ok() => flip(l)?.1,
        b'G' if word("Game")(l).is_ok() => {
            let (i, _) = word("Game")(l)?;
            let (start, _) = ws0(i)?;
            let (i, n) = decimal(Field::GameCount, 5)(start)?;
            let (_, ()) = end(i)?;
            match u16::try_from(n) {
                Ok(moves) => Reply::Game { moves },
                Err(_) => {
                    return fail::<()>(start, Field::GameCount, ErrorKind::OutOfRange)
                        .map(|_| None);
                }
            }
        }
        b'.' => {
            let rest = &l[1..];
            if word("Referee")(rest).is_ok() {
                referee(rest)?.1
            } else {
                game_row(rest)?.1
            }
        }
        b'R' if word("Referee")(l).is_ok() => referee(l)?.1,
        b'I' if l.len() >= 2
            && l[..2].eq_ignore_ascii_case(b"ID")
            && l.get(2).is_none_or(|b| matches!(b, b'.' | b' ' | b'\t')) =>
        {
            identity(&l[2..])?.1
        }
        b'L' if word("Level")(l).is_ok() => level_reply(l)?.1,
        b'N' if phrase(l, "New", "Game") => {
            let (i, _) = word("New")(l)?;
            let (i, _) = ws1(i)?;
            let (i, _) = word("Game")(i)?;
            end(i)?;
            Reply::NewGame
        }
        b'P' if phrase(l, "Position", "Board") => {
            let (i, _) = word("Position")(l)?;
            let (i, _) = ws1(i)?;
            let (i, _) = word("Board")(i)?;
            end(i)?;
            Reply::PositionBoard
        }
        b'X' if word("Xmit")(l).is_ok() => {
            let (i, _) = word("Xmit")(l)?;
            let (i, _) = ws0(i)?;
            let (i, on) = on_off(i)?;
            end(i)?;
            Reply::Xmit(on)
        }
        _ => return Ok(None),
    };
    Ok(Some(r))
}

/// Whether `l` starts with the two words `a` `b` separated by whitespace.
fn phrase(l: In<'_>, a: &'static str, b: &'static str) -> bool {
    word(a)(l)
        .and_then(|(i, _)| ws1(i))
        .and_then(|(i, _)| word(b)(i))
        .is_ok()
}

/// After the `M`/`T` letter: `number[,] move [|]`.
fn move_line(i: In<'_>) -> Res<'_, MoveLine> {
    let (i, _) = ws0(i)?;
    let (i, number) = move_number(i)?;
    let (i, _) = ws0(i)?;
    let (i, comma) = nom::combinator::opt(byte(b',')).parse_complete(i)?;
    let (i, _) = ws0(i)?;
    let (i, text) = field(Field::Move, move_text)(i)?;
    let (i, _) = ws0(i)?;
    let (i, bar) = nom::combinator::opt(byte(b'|')).parse_complete(i)?;
    let (i, ()) = end(i)?;
    Ok((
        i,
        MoveLine {
            number,
            black: comma.is_some(),
            text,
            bar: bar.is_some(),
        },
    ))
}

use nom::Parser as _;

/// `hh:mm:ss`.
fn clock_time(i: In<'_>) -> Res<'_, ClockTime> {
    let start = i;
    let (i, h) = decimal(Field::Clock, 2)(i)?;
    let (i, _) = field(Field::Clock, byte(b':'))(i)?;
    let (i, m) = decimal(Field::Clock, 2)(i)?;
    let (i, _) = field(Field::Clock, byte(b':'))(i)?;
    let (i, s) = decimal(Field::Clock, 2)(i)?;
    match ClockTime::new(h as u8, m as u8, s as u8) {
        Ok(t) => Ok((i, t)),
        Err(_) => fail(start, Field::Clock, ErrorKind::OutOfRange),
    }
}

/// `Clock hh:mm:ss hh:mm:ss`.
fn clock(l: In<'_>) -> Res<'_, Reply<'_>> {
    let (i, _) = word("Clock")(l)?;
    let (i, _) = ws0(i)?;
    let (i, white) = clock_time(i)?;
    let (i, _) = field(Field::Clock, ws1)(i)?;
    let (i, black) = clock_time(i)?;
    let (i, ()) = end(i)?;
    Ok((i, Reply::Clock { white, black }))
}

/// `Flip` or `Flip --> Black|White`.
fn flip(l: In<'_>) -> Res<'_, Reply<'_>> {
    let (i, _) = word("Flip")(l)?;
    let (i, _) = ws0(i)?;
    if i.is_empty() {
        return Ok((i, Reply::Flip { to_move: None }));
    }
    let (i, _) = field(Field::Flip, nom::bytes::complete::tag("-->"))(i)?;
    let (i, _) = ws0(i)?;
    let (i, to_move) = if let Ok((i, _)) = word("Black")(i) {
        (i, Color::Black)
    } else if let Ok((i, _)) = word("White")(i) {
        (i, Color::White)
    } else {
        return fail(i, Field::Flip, ErrorKind::Invalid);
    };
    let (i, ()) = end(i)?;
    Ok((
        i,
        Reply::Flip {
            to_move: Some(to_move),
        },
    ))
}

/// `Referee on|off` (the leading `.` already consumed).
fn referee(l: In<'_>) -> Res<'_, Reply<'_>> {
    let (i, _) = word("Referee")(l)?;
    let (i, _) = ws0(i)?;
    let (i, on) = on_off(i)?;
    let (i, ()) = end(i)?;
    Ok((i, Reply::Referee(on)))
}

/// After the leading `.` of a game list: `white black` or
/// `n move [move]`.
fn game_row(l: In<'_>) -> Res<'_, Reply<'_>> {
    let (i, _) = ws0(l)?;
    if let Ok((j, _)) = word("white")(i) {
        let (j, _) = ws0(j)?;
        let (j, _) = field(Field::Keyword, word("black"))(j)?;
        let (j, ()) = end(j)?;
        return Ok((j, Reply::GameColumns));
    }
    let (i, number) = move_number(i)?;
    let (i, _) = field(Field::Move, ws1)(i)?;
    let (i, white) = field(Field::Move, move_text)(i)?;
    let (i, _) = ws0(i)?;
    if i.is_empty() {
        return Ok((
            i,
            Reply::GameRow {
                number,
                white,
                black: None,
            },
        ));
    }
    let (i, black) = field(Field::Move, move_text)(i)?;
    let (i, ()) = end(i)?;
    Ok((
        i,
        Reply::GameRow {
            number,
            white,
            black: Some(black),
        },
    ))
}

/// After `ID`: `[.] model version`.
fn identity(l: In<'_>) -> Res<'_, Reply<'_>> {
    let (i, _) = nom::combinator::opt(byte(b'.')).parse_complete(l)?;
    let (i, _) = ws0(i)?;
    let (i, model) = token(i)?;
    let (i, _) = field(Field::Identity, ws1)(i)?;
    let (i, version) = token(i)?;
    let (i, ()) = end(i)?;
    Ok((i, Reply::Identity { model, version }))
}

/// 1..=64 printable ASCII bytes.
fn token(i: In<'_>) -> Res<'_, Token<'_>> {
    let len = i.iter().take_while(|b| b.is_ascii_graphic()).count();
    if len == 0 || len > Token::MAX_LEN {
        return fail(
            i,
            Field::Identity,
            if len == 0 {
                ErrorKind::Invalid
            } else {
                ErrorKind::OutOfRange
            },
        );
    }
    let text = core::str::from_utf8(&i[..len]).expect("ASCII");
    Ok((&i[len..], Token::new("identity", text).expect("checked")))
}

/// `Level tr 1`.
fn level_reply(l: In<'_>) -> Res<'_, Reply<'_>> {
    let (i, _) = word("Level")(l)?;
    let (i, _) = ws0(i)?;
    let kinds = [
        LevelKind::Tournament,
        LevelKind::Citrine,
        LevelKind::AverageTime,
        LevelKind::Beginner,
    ];
    let Some((i, kind)) = kinds.iter().find_map(|k| {
        let n = k.reply_name();
        (i.len() >= 2 && i[..2].eq_ignore_ascii_case(n.as_bytes())).then(|| (&i[2..], *k))
    }) else {
        return fail(i, Field::Level, ErrorKind::Invalid);
    };
    let (i, _) = ws0(i)?;
    let start = i;
    let (i, n) = decimal(Field::Level, 2)(i)?;
    let Ok(level) = Level::new(kind, n as u8) else {
        return fail(start, Field::Level, ErrorKind::OutOfRange);
    };
    let (i, ()) = end(i)?;
    Ok((i, Reply::Level(level)))
}

/// A diagram cell token: a piece code or `::`.
fn cell(tok: &[u8]) -> Option<Option<Piece>> {
    match tok {
        b"::" => Some(None),
        [c, p] => {
            let color = match c {
                b'W' | b'w' => Color::White,
                b'B' | b'b' => Color::Black,
                _ => return None,
            };
            Some(Some(Piece {
                color,
                role: role_from_letter(*p)?,
            }))
        }
        _ => None,
    }
}

/// A diagram rank, or `None` when the line is not one.
fn diagram_row(line: In<'_>) -> Option<DiagramRow> {
    let lead = line.len() - trim_start(line).len();
    let (rank, body) = match &line[lead..] {
        [d @ b'1'..=b'8'] => {
            return Some(DiagramRow {
                rank: Some(d - b'0'),
                cells: [None; 8],
            });
        }
        [d @ b'1'..=b'8', b' ' | b'\t' | b'|', body @ ..] => (Some(d - b'0'), body),
        _ => (None, line),
    };
    let body = match body {
        [body @ .., b'|'] => trim_end(body),
        b => b,
    };
    let mut tokens = [(0usize, &b""[..]); 8];
    let mut count = 0;
    let mut pos = 0;
    while pos < body.len() {
        if matches!(body[pos], b' ' | b'\t') {
            pos += 1;
            continue;
        }
        let start = pos;
        while pos < body.len() && !matches!(body[pos], b' ' | b'\t') {
            pos += 1;
        }
        if count == 8 {
            return None;
        }
        tokens[count] = (start, &body[start..pos]);
        count += 1;
    }
    if count == 0 {
        return rank.map(|_| DiagramRow {
            rank,
            cells: [None; 8],
        });
    }
    let mut cells = [None; 8];
    for (k, &(start, tok)) in tokens[..count].iter().enumerate() {
        let piece = cell(tok)?;
        let file = if count == 8 {
            k
        } else if start % 3 == 0 && start / 3 < 8 {
            start / 3
        } else {
            return None;
        };
        cells[file] = piece;
    }
    Some(DiagramRow { rank, cells })
}

impl fmt::Display for Reply<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Clock { white, black } => write!(f, "Clock {white} {black}"),
            Reply::Flip { to_move: None } => f.write_str("Flip"),
            Reply::Flip {
                to_move: Some(Color::Black),
            } => f.write_str("Flip --> Black"),
            Reply::Flip {
                to_move: Some(Color::White),
            } => f.write_str("Flip --> White"),
            Reply::Game { moves } => write!(f, "Game {moves:>3}"),
            Reply::GameColumns => f.write_str(".      white       black"),
            Reply::GameRow {
                number,
                white,
                black,
            } => {
                write!(f, ".{number:>4}  ")?;
                match black {
                    None => write!(f, "{white}"),
                    Some(b) => {
                        // Pad white's move to 12 columns (always at least
                        // one space: the longest move text is 11 bytes).
                        let w = white.to_string();
                        write!(f, "{w:<12}")?;
                        if w.len() >= 12 {
                            f.write_str(" ")?;
                        }
                        write!(f, "{b}")
                    }
                }
            }
            Reply::Identity { model, version } => write!(f, "ID. {model} {version}"),
            Reply::Level(l) => write!(f, "Level {} {}", l.kind().reply_name(), l.number()),
            Reply::Move(m) => write_move_line(f, 'M', m),
            Reply::TakeBack(m) => write_move_line(f, 'T', m),
            Reply::NewGame => f.write_str("New Game"),
            Reply::PositionBoard => f.write_str("Position Board"),
            Reply::DiagramRow(row) => {
                let mut s = String::with_capacity(26);
                if let Some(r) = row.rank {
                    s.push((b'0' + r) as char);
                    s.push(' ');
                }
                for (file, c) in row.cells.iter().enumerate() {
                    if file > 0 {
                        s.push(' ');
                    }
                    match c {
                        Some(p) => {
                            let l = role_letter(p.role) as char;
                            match p.color {
                                Color::White => {
                                    s.push('W');
                                    s.push(l);
                                }
                                Color::Black => {
                                    s.push('b');
                                    s.push(l.to_ascii_lowercase());
                                }
                            }
                        }
                        None => {
                            let rank = row.rank.map_or(0, |r| r - 1);
                            let sq = square(file as u8, rank).expect("in range");
                            // Without a label the square colour is unknown:
                            // print `::` everywhere so the row stays one.
                            s.push_str(if row.rank.is_none() || sq.is_dark() {
                                "::"
                            } else {
                                "  "
                            });
                        }
                    }
                }
                f.write_str(s.trim_end())
            }
            Reply::Xmit(on) => write!(f, "Xmit {}", if *on { "on" } else { "off" }),
            Reply::Referee(on) => write!(f, ".Referee {}", if *on { "on" } else { "off" }),
            Reply::Unrecognised(raw) => {
                for chunk in raw.0.utf8_chunks() {
                    f.write_str(chunk.valid())?;
                    for b in chunk.invalid() {
                        write!(f, "\\x{b:02x}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// `M   7,  c5xd4 |`: letter, number right-aligned in 4 columns, comma or
/// space, two spaces, the move, optional ` |`.
fn write_move_line(f: &mut fmt::Formatter<'_>, letter: char, m: &MoveLine) -> fmt::Result {
    write!(
        f,
        "{letter}{:>4}{}  {}",
        m.number,
        if m.black { ',' } else { ' ' },
        m.text
    )?;
    if m.bar {
        f.write_str(" |")?;
    }
    Ok(())
}
