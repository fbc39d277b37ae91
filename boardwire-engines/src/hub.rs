//! Hub (version 2), the engine side ([`spec::hub`](crate::spec::hub)): [`decode`] reads
//! a draughts engine's line without allocating, [`Command`] encodes what a
//! GUI sends; [`HubMove`] is Hub's move (from, to, the captured set: DXP's
//! identity of a move) and [`position`] the 51-character `pos=`.
//!
//! ```
//! use boardwire_engines::hub::{decode, HubMessage};
//! let HubMessage::Done { mv, ponder } = decode(b"done move=28x19x23 ponder=14x23x19")? else { panic!() };
//! assert_eq!((mv.from.number(), mv.to.number(), mv.captured.len()), (28, 19, 1));
//! assert!(ponder.is_some());
//! # Ok::<(), boardwire_engines::error::DecodeError>(())
//! ```

use std::fmt::{self, Write as _};

use board_core::draughts::{Color, Move, Piece, PieceKind, Position, Square, SquareSet};

use crate::command_line::{self, Sink, fmt_with};
use crate::error::{DecodeError, Expected, Field, MessageKind, Problem};
use crate::types::Text;

/// The `key=value` arguments of a Hub line ([`spec::hub`](crate::spec::hub), *Syntax*),
/// checked when the line was decoded; [`Pairs::get`] finds one,
/// [`Pairs::iter`] walks them. Values are unquoted (`author="Fabien
/// Letouzey"` gives `Fabien Letouzey`); a flag has no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairs<'a>(&'a [u8]);

impl<'a> Pairs<'a> {
    /// Every argument: key and value (`None` for a flag).
    pub fn iter(&self) -> impl Iterator<Item = (&'a [u8], Option<&'a [u8]>)> + 'a {
        let mut rest = self.0;
        core::iter::from_fn(move || {
            let (r, pair) = next_pair(rest, 0).ok()??;
            rest = r;
            Some(pair)
        })
    }

    /// The value of `key` (the first one); `Some(None)` for a flag.
    pub fn get(&self, key: &str) -> Option<Option<&'a [u8]>> {
        self.iter()
            .find(|(k, _)| *k == key.as_bytes())
            .map(|(_, v)| v)
    }

    /// The value of `key` as text (`None` when absent, a flag, or not
    /// UTF-8).
    pub fn text(&self, key: &str) -> Option<&'a str> {
        core::str::from_utf8(self.get(key)??).ok()
    }
}

/// One argument at the front of `i` (after spaces): `(rest, (key,
/// value))`, `None` at the end. `base` is `i`'s offset in the line.
#[allow(clippy::type_complexity)]
#[inline]
fn next_pair(
    i: &[u8],
    base: usize,
) -> Result<Option<(&[u8], (&[u8], Option<&[u8]>))>, (usize, Problem)> {
    let blank = |b: u8| b == b' ' || b == b'\t';
    let mut skip = 0;
    while skip < i.len() && blank(i[skip]) {
        skip += 1;
    }
    let i = &i[skip..];
    let base = base + skip;
    if i.is_empty() {
        return Ok(None);
    }
    let mut key_len = 0;
    while key_len < i.len() && i[key_len] != b'=' && !blank(i[key_len]) {
        key_len += 1;
    }
    let key = &i[..key_len];
    let rest = &i[key_len..];
    if rest.first() != Some(&b'=') {
        return Ok(Some((rest, (key, None))));
    }
    let v = &rest[1..];
    let vbase = base + key_len + 1;
    if v.first() == Some(&b'"') {
        match v[1..].iter().position(|&b| b == b'"') {
            Some(end) => {
                let value = &v[1..1 + end];
                let after = &v[2 + end..];
                match after.first() {
                    None | Some(b' ') | Some(b'\t') => Ok(Some((after, (key, Some(value))))),
                    Some(&byte) => Err((
                        vbase + 2 + end,
                        Problem::Invalid {
                            byte,
                            expected: Expected::Space,
                        },
                    )),
                }
            }
            None => Err((base + i.len(), Problem::Missing)),
        }
    } else {
        let mut n = 0;
        while n < v.len() && !blank(v[n]) {
            n += 1;
        }
        Ok(Some((&v[n..], (key, Some(&v[..n])))))
    }
}

/// A Hub move: from, to, and the captured squares ([`spec::hub`](crate::spec::hub),
/// *Moves*: `32-28`, `28x19x23`; captured squares in any order, no
/// landing squares between).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HubMove {
    /// The square the piece leaves (1..=50).
    pub from: Square,
    /// The square it reaches.
    pub to: Square,
    /// The pieces it captures (empty for a quiet move).
    pub captured: SquareSet,
}

impl HubMove {
    /// Parses `32-28`, `28x19`, `28x19x23x...`; `base` is the offset of
    /// the text in its line (for the error).
    ///
    /// # Errors
    /// The first bad byte ([`Expected::HubMove`]), a square out of
    /// 1..=50 ([`Problem::OutOfRange`]), a text cut off
    /// ([`Problem::Missing`]).
    pub fn parse(text: &[u8], base: usize) -> Result<HubMove, (usize, Problem)> {
        let mut squares = [Square::new(1).unwrap_or_else(|| unreachable!()); 22];
        let mut n = 0usize;
        let mut sep: Option<u8> = None;
        let mut i = 0usize;
        loop {
            let start = i;
            let mut v: u32 = 0;
            while i < text.len() && text[i].is_ascii_digit() && i - start < 3 {
                v = v * 10 + u32::from(text[i] - b'0');
                i += 1;
            }
            if i == start {
                return Err(match text.get(i) {
                    Some(&byte) => (
                        base + i,
                        Problem::Invalid {
                            byte,
                            expected: Expected::HubMove,
                        },
                    ),
                    None => (base + i, Problem::Missing),
                });
            }
            let Some(sq) = u8::try_from(v).ok().and_then(Square::new) else {
                return Err((
                    base + start,
                    Problem::OutOfRange {
                        value: v,
                        min: 1,
                        max: 50,
                    },
                ));
            };
            if n == squares.len() {
                return Err((
                    base + start,
                    Problem::TooLong {
                        len: text.len(),
                        max: squares.len(),
                    },
                ));
            }
            squares[n] = sq;
            n += 1;
            match text.get(i) {
                None => break,
                Some(&c @ (b'-' | b'x')) if sep.is_none_or(|s| s == c) && !(c == b'-' && n > 1) => {
                    sep = Some(c);
                    i += 1;
                }
                Some(&byte) => {
                    return Err((
                        base + i,
                        Problem::Invalid {
                            byte,
                            expected: Expected::HubMove,
                        },
                    ));
                }
            }
        }
        if n < 2 {
            return Err((base + text.len(), Problem::Missing));
        }
        let mut captured = SquareSet::new();
        for &s in &squares[2..n] {
            captured.insert(s);
        }
        Ok(HubMove {
            from: squares[0],
            to: squares[1],
            captured,
        })
    }

    /// The legal move of `position` with this from, to and captured set.
    pub fn to_move(&self, position: &Position) -> Option<Move> {
        position.find_move(self.from, self.to, self.captured)
    }

    /// The Hub form of a board move.
    pub fn from_move(mv: Move) -> HubMove {
        HubMove {
            from: mv.from(),
            to: mv.to(),
            captured: mv.captures(),
        }
    }
}

impl HubMove {
    /// Appends the move's text (`32-28`, `28x19x23`): what `Display`
    /// prints, and the encoders write.
    #[inline]
    fn put(&self, s: &mut impl Sink) {
        command_line::put_small(s, self.from.number());
        s.put(if self.captured.is_empty() { b"-" } else { b"x" });
        command_line::put_small(s, self.to.number());
        for sq in self.captured.iter() {
            s.put(b"x");
            command_line::put_small(s, sq.number());
        }
    }
}

impl fmt::Display for HubMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_with(f, |s| self.put(s))
    }
}

/// A line from a Hub engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum HubMessage<'a> {
    /// `id name=.. version=.. ...`.
    Id(Pairs<'a>),
    /// `param name=.. value=.. type=.. ...`.
    Param(Pairs<'a>),
    /// `wait`: start-up done; `set-param` and `init` may follow.
    Wait,
    /// `ready`: `init` done.
    Ready,
    /// `info depth=.. score=.. pv=".."`.
    Info(Pairs<'a>),
    /// `done move=<move> [ponder=<move>]`.
    Done {
        /// The move.
        mv: HubMove,
        /// The expected reply.
        ponder: Option<HubMove>,
    },
    /// `pong`.
    Pong,
    /// `error message=".."`.
    Error(Pairs<'a>),
    /// Any other line (`init book`, chatter), verbatim; Hub says to ignore
    /// it.
    Unrecognised(&'a [u8]),
}

/// Decodes one line from a Hub engine (no line end).
///
/// # Errors
/// An empty line ([`Problem::Empty`]); a known line whose arguments do
/// not parse (an unclosed quote, a bad `done` move, `done` without
/// `move=`), with the byte offset.
pub fn decode(line: &[u8]) -> Result<HubMessage<'_>, DecodeError> {
    let blank = |b: u8| b == b' ' || b == b'\t';
    let mut lead = 0;
    while lead < line.len() && blank(line[lead]) {
        lead += 1;
    }
    let body = &line[lead..];
    if body.is_empty() {
        return Err(DecodeError::new(
            MessageKind::Line,
            Field::Keyword,
            0,
            Problem::Empty,
        ));
    }
    let mut klen = 0;
    while klen < body.len() && !blank(body[klen]) {
        klen += 1;
    }
    let (key, rest) = body.split_at(klen);
    let base = lead + klen;
    let kind = match key {
        b"id" => MessageKind::HubId,
        b"param" => MessageKind::HubParam,
        b"wait" => MessageKind::HubWait,
        b"ready" => MessageKind::HubReady,
        b"info" => MessageKind::HubInfo,
        b"done" => MessageKind::HubDone,
        b"pong" => return Ok(HubMessage::Pong),
        b"error" => MessageKind::HubError,
        _ => return Ok(HubMessage::Unrecognised(line)),
    };
    // Check every argument once (Hub: unknown arguments are ignored).
    let mut r = rest;
    let mut off = base;
    loop {
        match next_pair(r, off) {
            Ok(None) => break,
            Ok(Some((after, _))) => {
                off += r.len() - after.len();
                r = after;
            }
            Err((at, problem)) => return Err(DecodeError::new(kind, Field::Pair, at, problem)),
        }
    }
    let pairs = Pairs(rest);
    Ok(match kind {
        MessageKind::HubId => HubMessage::Id(pairs),
        MessageKind::HubParam => HubMessage::Param(pairs),
        MessageKind::HubWait => HubMessage::Wait,
        MessageKind::HubReady => HubMessage::Ready,
        MessageKind::HubInfo => HubMessage::Info(pairs),
        MessageKind::HubError => HubMessage::Error(pairs),
        _ => {
            let at = |v: &[u8]| v.as_ptr() as usize - line.as_ptr() as usize;
            let mv = match pairs.get("move") {
                Some(Some(v)) => HubMove::parse(v, at(v))
                    .map_err(|(o, p)| DecodeError::new(kind, Field::Move, o, p))?,
                _ => {
                    return Err(DecodeError::new(
                        kind,
                        Field::Move,
                        line.len(),
                        Problem::Missing,
                    ));
                }
            };
            let ponder = match pairs.get("ponder") {
                Some(Some(v)) => Some(
                    HubMove::parse(v, at(v))
                        .map_err(|(o, p)| DecodeError::new(kind, Field::Ponder, o, p))?,
                ),
                _ => None,
            };
            HubMessage::Done { mv, ponder }
        }
    })
}

/// The 51-character `pos=` of a position: the side to move (`W`/`B`),
/// then squares 1..=50 (`w`/`b` men, `W`/`B` kings, `e` empty).
pub fn position(p: &Position) -> String {
    position_chars(p).collect()
}

/// The characters of [`position`], without building a string.
fn position_chars(p: &Position) -> impl Iterator<Item = char> + '_ {
    core::iter::once(p.side_to_move().pdn_char())
        .chain(Square::all().map(|sq| p.piece_at(sq).map_or('e', Piece::letter)))
}

/// The bytes of [`position`] (all ASCII), on the stack: empty squares,
/// then each colour's pieces from its square set.
fn position_bytes(p: &Position) -> [u8; 51] {
    let mut out = [b'e'; 51];
    out[0] = p.side_to_move().pdn_char() as u8;
    let kings = p.kings();
    for color in [Color::White, Color::Black] {
        for sq in p.pieces(color).iter() {
            let kind = if kings.contains(sq) {
                PieceKind::King
            } else {
                PieceKind::Man
            };
            out[usize::from(sq.number())] = Piece::new(color, kind).letter() as u8;
        }
    }
    out
}

/// `level`'s time control ([`spec::hub`](crate::spec::hub), *A search*, step 2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Level {
    /// `move-time=S` (seconds).
    MoveTime(f64),
    /// `[moves=N] time=S [inc=S]`: remaining time and increment, seconds;
    /// moves to the time control.
    Time {
        /// Moves left to the time control.
        moves: Option<u32>,
        /// Remaining seconds.
        time: f64,
        /// Increment per move, seconds.
        inc: Option<f64>,
    },
    /// `depth=N`.
    Depth(u32),
}

/// A line to a Hub engine. Encoders cannot fail.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Command<'a> {
    /// `hub`.
    Hub,
    /// `set-param name=<name> value=<value>` (quoted when needed; no
    /// value is `value=""`).
    SetParam {
        /// The parameter.
        name: &'a Text<'a>,
        /// Its value.
        value: Option<&'a Text<'a>>,
    },
    /// `init`.
    Init,
    /// `new-game`.
    NewGame,
    /// `pos pos=<start> [moves="<moves>"]`.
    Pos {
        /// The start position.
        start: &'a Position,
        /// The moves since.
        moves: &'a [Move],
    },
    /// `level ...`.
    Level(Level),
    /// `go think`.
    GoThink,
    /// `stop`.
    Stop,
    /// `ping`.
    Ping,
    /// `quit`.
    Quit,
}

fn quoted(s: &str) -> String {
    if s.is_empty() || s.contains([' ', '=', '\t', '"']) {
        format!("\"{}\"", s.replace('"', "'"))
    } else {
        s.to_owned()
    }
}

impl Command<'_> {
    /// Appends the line and its LF.
    pub fn encode(&self, out: &mut Vec<u8>) {
        command_line::encode(out, |s| match self {
            Command::Hub => s.push_str("hub"),
            Command::SetParam { name, value } => {
                let _ = write!(
                    s,
                    "set-param name={} value={}",
                    quoted(name.as_str()),
                    quoted(value.map_or("", |v| v.as_str()))
                );
            }
            Command::Init => s.push_str("init"),
            Command::NewGame => s.push_str("new-game"),
            Command::Pos { start, moves } => {
                s.push_str("pos pos=");
                s.put(&position_bytes(start));
                if let Some((first, rest)) = moves.split_first() {
                    // A quiet move is at most 5 bytes and a space; captures
                    // grow the line again if they need to.
                    s.reserve(9 + 6 * moves.len());
                    s.push_str(" moves=\"");
                    HubMove::from_move(*first).put(s);
                    for m in rest {
                        s.put(b" ");
                        HubMove::from_move(*m).put(s);
                    }
                    s.put(b"\"");
                }
            }
            Command::Level(l) => match l {
                Level::MoveTime(t) => {
                    s.push_str("level move-time=");
                    command_line::put_f64(s, *t);
                }
                Level::Depth(d) => {
                    s.push_str("level depth=");
                    s.put_u64(u64::from(*d));
                }
                Level::Time { moves, time, inc } => {
                    s.push_str("level");
                    if let Some(m) = moves {
                        s.push_str(" moves=");
                        s.put_u64(u64::from(*m));
                    }
                    s.push_str(" time=");
                    command_line::put_f64(s, *time);
                    if let Some(i) = inc {
                        s.push_str(" inc=");
                        command_line::put_f64(s, *i);
                    }
                }
            },
            Command::GoThink => s.push_str("go think"),
            Command::Stop => s.push_str("stop"),
            Command::Ping => s.push_str("ping"),
            Command::Quit => s.push_str("quit"),
        });
    }

    /// The line with its LF.
    pub fn to_bytes(&self) -> Vec<u8> {
        command_line::to_bytes(|v| self.encode(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `position` is the `pos=` value of the recorded Scan 3.1 session
    /// (`pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww`).
    #[test]
    fn position_is_the_recorded_pos_value() {
        assert_eq!(
            position(&Position::startpos()),
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
        );
    }

    /// `pos=` as `pos` writes it, with kings of both colours and black to
    /// move: the letters of spec/hub.md, *Position* (`w`/`b` men, `W`/`B`
    /// kings, `e` empty), square 1 first.
    #[test]
    fn pos_command_writes_kings_and_the_side_to_move() {
        let p: Position = "B:WK1,30,K47:BK5,12,45".parse().unwrap();
        let mut expected = b"B".to_vec();
        for sq in 1..=50 {
            expected.push(match sq {
                1 | 47 => b'W',
                30 => b'w',
                5 => b'B',
                12 | 45 => b'b',
                _ => b'e',
            });
        }
        assert_eq!(position_bytes(&p), expected[..]);
        assert_eq!(position(&p).as_bytes(), expected);
        let line = Command::Pos {
            start: &p,
            moves: &[],
        }
        .to_bytes();
        assert_eq!(line, [&b"pos pos="[..], &expected, b"\n"].concat());
    }

    /// Scan 3.1's recorded session (boardwire-vectors): every engine line
    /// decodes, every GUI line is what our encoder writes.
    #[test]
    fn the_recorded_scan_session() {
        let text = boardwire_vectors::data::HUB_SCAN31;
        let mut engine_lines = 0;
        let mut dones = Vec::new();
        for l in text.lines() {
            if let Some(e) = l.strip_prefix("< ") {
                engine_lines += 1;
                match decode(e.as_bytes()).unwrap() {
                    HubMessage::Id(p) => {
                        assert_eq!(p.text("name"), Some("Scan"));
                        assert_eq!(p.text("author"), Some("Fabien Letouzey"));
                    }
                    HubMessage::Param(p) => {
                        assert!(p.text("name").is_some() && p.text("type").is_some(), "{e}");
                        if p.text("name") == Some("variant") {
                            assert_eq!(p.text("values"), Some("normal killer bt frisian losing"));
                        }
                    }
                    HubMessage::Done { mv, ponder } => dones.push((mv, ponder)),
                    HubMessage::Unrecognised(u) => assert!(u.starts_with(b"init "), "{e}"),
                    _ => {}
                }
            }
        }
        assert_eq!(engine_lines, 18);
        assert_eq!(dones.len(), 2);
        assert_eq!(dones[0].0.to_string(), "34-29");
        assert_eq!(dones[0].1.unwrap().to_string(), "20-25");
        // 28x19x23: from 28 to 19 capturing 23; it is legal after 32-28 19-23.
        let mut pos = Position::startpos();
        for m in ["32-28", "19-23"] {
            let hm = HubMove::parse(m.as_bytes(), 0).unwrap();
            let mv = hm.to_move(&pos).unwrap();
            pos.play_unchecked(mv);
        }
        let cap = dones[1].0;
        assert!(cap.captured.contains(Square::new(23).unwrap()));
        assert!(cap.to_move(&pos).is_some());
        // Our encoder writes the GUI lines Scan was sent.
        let start = Position::startpos();
        assert_eq!(
            Command::Pos {
                start: &start,
                moves: &[]
            }
            .to_bytes(),
            b"pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n"
        );
        let mut p = start;
        let mut played = Vec::new();
        for m in ["32-28", "19-23"] {
            let mv = HubMove::parse(m.as_bytes(), 0)
                .unwrap()
                .to_move(&p)
                .unwrap();
            p.play_unchecked(mv);
            played.push(mv);
        }
        let line = Command::Pos {
            start: &start,
            moves: &played,
        }
        .to_bytes();
        assert!(
            text.contains(&format!(
                "> {}",
                String::from_utf8_lossy(&line[..line.len() - 1])
            )),
            "{}",
            String::from_utf8_lossy(&line)
        );
        for (c, want) in [
            (Command::Hub, "hub"),
            (Command::Init, "init"),
            (Command::NewGame, "new-game"),
            (Command::Level(Level::MoveTime(0.5)), "level move-time=0.5"),
            (
                Command::Level(Level::Time {
                    moves: Some(40),
                    time: 120.0,
                    inc: Some(1.0),
                }),
                "level moves=40 time=120 inc=1",
            ),
            (Command::GoThink, "go think"),
            (Command::Ping, "ping"),
            (Command::Quit, "quit"),
        ] {
            assert!(text.contains(&format!("> {want}\n")), "{want}");
            assert_eq!(c.to_bytes(), format!("{want}\n").into_bytes());
        }
    }

    #[test]
    fn bad_lines_name_the_byte() {
        let e = decode(b"done move=32-5x").unwrap_err();
        assert_eq!(
            (e.message, e.field, e.offset),
            (MessageKind::HubDone, Field::Move, 14)
        );
        let e = decode(b"done move=32-51").unwrap_err();
        assert_eq!(e.offset, 13);
        assert!(matches!(e.problem, Problem::OutOfRange { value: 51, .. }));
        let e = decode(b"done ponder=1-6").unwrap_err();
        assert_eq!((e.field, e.problem), (Field::Move, Problem::Missing));
        let e = decode(b"id name=\"Scan").unwrap_err();
        assert_eq!(
            (e.field, e.offset, e.problem),
            (Field::Pair, 13, Problem::Missing)
        );
        assert_eq!(decode(b"").unwrap_err().problem, Problem::Empty);
    }
}
