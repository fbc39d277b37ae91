//! Device-to-host lines ([`Reply`]): canonical encoding that cannot fail
//! ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and replies (device
//! -> host)* and *Move text the Citrine prints*). Decoding is
//! [`decode::<Reply>`](crate::decode::decode).

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::fmt;

use crate::error::ValueError;
use crate::types::{
    ClockTime, Level, MoveNumber, MoveText, Sink, StackText, Token, fmt_with, put_padded,
};
use crate::vocab::{Color, Piece, role_letter, square};

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

/// One rank of a `Position Board` diagram ([`spec::citrine`](crate::spec::citrine), command `P`; layout
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
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RawLine<'a>(Cow<'a, [u8]>);

impl<'a> RawLine<'a> {
    /// A line borrowed from the input (only decoders make these).
    pub(crate) fn borrowed(line: &'a [u8]) -> Self {
        RawLine(Cow::Borrowed(line))
    }
    /// The bytes of the line.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
    /// The line with its own copy of the bytes.
    pub fn into_owned(self) -> RawLine<'static> {
        RawLine(Cow::Owned(self.0.into_owned()))
    }
}

impl RawLine<'_> {
    /// The line as text for a person ([`Escaped`]: control bytes and bytes
    /// that are not UTF-8 written `\xNN`), safe to print on a terminal.
    pub fn describe(&self) -> Escaped<'_> {
        Escaped(&self.0)
    }
}

impl fmt::Display for RawLine<'_> {
    /// The line as on the wire (without terminator); bytes that are not
    /// UTF-8 become U+FFFD. For a person, [`describe`](RawLine::describe).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.0.utf8_chunks() {
            f.write_str(chunk.valid())?;
            if !chunk.invalid().is_empty() {
                f.write_str("\u{FFFD}")?;
            }
        }
        Ok(())
    }
}

/// Bytes of a line as text for a person: control bytes and bytes that are
/// not UTF-8 are written `\xNN` (so a line cannot move the cursor of the
/// terminal it is printed on). For lines that do not decode (a driver's
/// `Activity::Malformed` frame) and unrecognised lines.
///
/// ```
/// use novag_citrine::message::Escaped;
/// assert_eq!(Escaped(b"M 1 \x1b[2J\xff").to_string(), r"M 1 \x1b[2J\xff");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Escaped<'a>(pub &'a [u8]);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.0.utf8_chunks() {
            for c in chunk.valid().chars() {
                if c.is_control() && (c as u32) < 0x100 {
                    write!(f, "\\x{:02x}", c as u32)?;
                } else {
                    fmt::Write::write_char(f, c)?;
                }
            }
            for b in chunk.invalid() {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

/// One line the Citrine sends.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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

impl<'a> Reply<'a> {
    /// Appends the canonical line and CR LF to `out`.
    ///
    /// The canonical form follows the columns of captured device output
    /// (`M   7,  c5xd4`, `Game   6`, `.   1  e2-e4       e7-e5`); ` |` is
    /// appended to move lines that carried it. Unrecognised lines are
    /// written verbatim.
    pub fn encode(&self, out: &mut Vec<u8>) {
        self.put(out);
        out.extend_from_slice(b"\r\n");
    }

    /// The canonical line with CR LF, as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(32);
        self.encode(&mut v);
        v
    }

    /// The reply with its own copies of borrowed text.
    pub fn into_owned(self) -> Reply<'static> {
        match self {
            Reply::Clock { white, black } => Reply::Clock { white, black },
            Reply::Flip { to_move } => Reply::Flip { to_move },
            Reply::Game { moves } => Reply::Game { moves },
            Reply::GameColumns => Reply::GameColumns,
            Reply::GameRow {
                number,
                white,
                black,
            } => Reply::GameRow {
                number,
                white,
                black,
            },
            Reply::Identity { model, version } => Reply::Identity {
                model: model.into_owned(),
                version: version.into_owned(),
            },
            Reply::Level(l) => Reply::Level(l),
            Reply::Move(m) => Reply::Move(m),
            Reply::TakeBack(m) => Reply::TakeBack(m),
            Reply::NewGame => Reply::NewGame,
            Reply::PositionBoard => Reply::PositionBoard,
            Reply::DiagramRow(r) => Reply::DiagramRow(r),
            Reply::Xmit(on) => Reply::Xmit(on),
            Reply::Referee(on) => Reply::Referee(on),
            Reply::Unrecognised(raw) => Reply::Unrecognised(raw.into_owned()),
        }
    }
}

/// The reply line without terminator, as the device sends it; an
/// unrecognised line reads `unrecognised: <line>` (bytes that are not UTF-8
/// escaped as `\xNN`), so it cannot be mistaken for a known reply.
impl Reply<'_> {
    /// The line as a person reads it in a transcript or log: the wire text
    /// for every known kind, and `unrecognised: <line>` with control bytes
    /// and bytes that are not UTF-8 escaped (`\xNN`) for an unrecognised
    /// one, so that it cannot be mistaken for a known reply or move the
    /// terminal's cursor.
    ///
    /// ```
    /// use novag_citrine::{decode, Reply};
    /// let r = decode::<Reply>(b"Hello\x07").unwrap();
    /// assert_eq!(r.to_string(), "Hello\x07"); // the wire
    /// assert_eq!(r.describe().to_string(), r"unrecognised: Hello\x07");
    /// let m = decode::<Reply>(b"M   1   e2-e4").unwrap();
    /// assert_eq!(m.describe().to_string(), m.to_string());
    /// ```
    pub fn describe(&self) -> impl fmt::Display + '_ {
        Describe(self)
    }
}

struct Describe<'r, 'a>(&'r Reply<'a>);

impl fmt::Display for Describe<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Reply::Unrecognised(raw) => write!(f, "unrecognised: {}", raw.describe()),
            known => fmt::Display::fmt(known, f),
        }
    }
}

impl fmt::Display for Reply<'_> {
    /// The reply line as on the wire, without its terminator (an
    /// unrecognised line's bytes shown as UTF-8, invalid bytes replaced).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Unrecognised(raw) => write!(f, "{raw}"),
            known => fmt_with(f, |s| known.put(s)),
        }
    }
}

impl Reply<'_> {
    /// Appends the reply line without its terminator: the wire form, which
    /// `Display` prints too (an unrecognised line verbatim).
    fn put(&self, s: &mut impl Sink) {
        match self {
            Reply::Clock { white, black } => {
                s.put(b"Clock ");
                white.put(s);
                s.put(b" ");
                black.put(s);
            }
            Reply::Flip { to_move: None } => s.put(b"Flip"),
            Reply::Flip {
                to_move: Some(Color::Black),
            } => s.put(b"Flip --> Black"),
            Reply::Flip {
                to_move: Some(Color::White),
            } => s.put(b"Flip --> White"),
            Reply::Game { moves } => {
                s.put(b"Game ");
                put_padded(s, *moves, 3);
            }
            Reply::GameColumns => s.put(b".      white       black"),
            Reply::GameRow {
                number,
                white,
                black,
            } => {
                s.put(b".");
                put_padded(s, number.get(), 4);
                s.put(b"  ");
                white.put(s);
                if let Some(b) = black {
                    // Pad white's move to 12 columns (always at least one
                    // space: the longest move text is 11 bytes).
                    let pad = 12usize.saturating_sub(white.len()).max(1);
                    s.put(&b"            "[..pad]);
                    b.put(s);
                }
            }
            Reply::Identity { model, version } => {
                s.put(b"ID. ");
                s.put(model.as_str().as_bytes());
                s.put(b" ");
                s.put(version.as_str().as_bytes());
            }
            Reply::Level(l) => {
                s.put(b"Level ");
                s.put(l.kind().reply_name().as_bytes());
                s.put(b" ");
                put_padded(s, u16::from(l.number()), 1);
            }
            Reply::Move(m) => put_move_line(s, b'M', m),
            Reply::TakeBack(m) => put_move_line(s, b'T', m),
            Reply::NewGame => s.put(b"New Game"),
            Reply::PositionBoard => s.put(b"Position Board"),
            Reply::DiagramRow(row) => {
                let mut s2 = StackText::<32>::new();
                if let Some(r) = row.rank {
                    s2.push((b'0' + r) as char);
                    s2.push(' ');
                }
                for (file, c) in row.cells.iter().enumerate() {
                    if file > 0 {
                        s2.push(' ');
                    }
                    match c {
                        Some(p) => {
                            let l = role_letter(p.kind) as char;
                            match p.color {
                                Color::White => {
                                    s2.push('W');
                                    s2.push(l);
                                }
                                Color::Black => {
                                    s2.push('b');
                                    s2.push(l.to_ascii_lowercase());
                                }
                            }
                        }
                        None => {
                            let rank = row.rank.map_or(0, |r| r - 1);
                            let sq = square(file as u8, rank).expect("in range");
                            // Without a label the square colour is unknown:
                            // print `::` everywhere so the row stays one.
                            s2.push_str(if row.rank.is_none() || sq.is_dark() {
                                "::"
                            } else {
                                "  "
                            });
                        }
                    }
                }
                s.put(s2.as_str().trim_end().as_bytes());
            }
            Reply::Xmit(true) => s.put(b"Xmit on"),
            Reply::Xmit(false) => s.put(b"Xmit off"),
            Reply::Referee(true) => s.put(b".Referee on"),
            Reply::Referee(false) => s.put(b".Referee off"),
            Reply::Unrecognised(raw) => s.put(raw.as_bytes()),
        }
    }
}

/// `M   7,  c5xd4 |`: the letter, the number right-aligned in 4 columns,
/// `,` for black (else a space), two spaces, the move, ` |` if it had one.
fn put_move_line(s: &mut impl Sink, letter: u8, m: &MoveLine) {
    s.put(&[letter]);
    put_padded(s, m.number.get(), 4);
    s.put(if m.black { b",  " } else { b"   " });
    m.text.put(s);
    if m.bar {
        s.put(b" |");
    }
}
