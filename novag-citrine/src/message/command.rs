//! Host-to-device commands ([`Command`]): encoding that cannot fail, with
//! CR LF ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and replies
//! (device -> host)*). Decoding is [`decode::<Command>`](crate::decode::decode)
//! (the simulated device uses it).

use alloc::vec::Vec;
use core::fmt;

use super::RawLine;
use crate::types::{Level, LevelKind, Promotion, Sink, Token, fmt_with, put_padded, square_bytes};
use crate::vocab::Square;

/// A move sent by the host: `M` + from + to, with an optional promotion
/// suffix (`M e7e8/N`); the device promotes to a queen when it is omitted.
/// Castling is sent as the king's move (`M e1g1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HostMove {
    /// Origin square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
    /// The `/Q /R /B /N` suffix.
    pub promotion: Option<Promotion>,
}

/// Which colours an `L` command sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum LevelTarget {
    /// Both colours (`L CITRINE 5`, `L +CITRINE5`, `L TR1`); setting White's
    /// level always sets Black's too.
    Both,
    /// Black only (`L -CITRINE 3`, `L -TR1`).
    BlackOnly,
}

/// One command line the host sends. Commands are not echoed; the device
/// silently ignores unknown ones.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Command<'a> {
    /// `C`: show the clocks (reply [`crate::message::Reply::Clock`]).
    Clock,
    /// `F`: flip (at the new-game position the Citrine takes White; mid-game
    /// the side to move changes). Reply [`crate::message::Reply::Flip`].
    Flip,
    /// `G`: the game score (replies `Game n`, `. white black`, rows; at most
    /// the last 112 plies).
    Game,
    /// `I`: identity (reply [`crate::message::Reply::Identity`]).
    Identity,
    /// `L`: show both levels (two [`crate::message::Reply::Level`] lines).
    ShowLevel,
    /// `L CITRINE 5`, `L TR1`, `L -CITRINE 3`, `L -TR1`: set a level. Encoded
    /// in the document's spellings: `CITRINE n` with a space, `TRn`, `ATn`,
    /// `BEn` without; `-` for black only.
    SetLevel {
        /// Which colours.
        target: LevelTarget,
        /// The level.
        level: Level,
    },
    /// `M e2e4`: play a move.
    Move(HostMove),
    /// `N`: new game (reply `New Game`).
    NewGame,
    /// `O`: reset to the start position *(reply unconfirmed)*.
    Origin,
    /// `P`: show the position (`Position Board` and a diagram).
    ShowPosition,
    /// `P <text>`: set up a position, e.g. `P pcpa2ka1bkh8-` (syntax from the
    /// document; semantics unconfirmed).
    SetUp(Token<'a>),
    /// `T`: take back a move.
    TakeBack,
    /// `U`, `U ON`, `U OFF`: referee mode (query, on, off).
    Referee(Option<bool>),
    /// `X`, `X ON`, `X OFF`: transmit board moves to the PC (query, on, off).
    Xmit(Option<bool>),
    /// `J` *(undocumented, seen in a user's driver)*: the Citrine plays a move
    /// with its own engine for the side to move.
    EngineMove,
    /// A line with an unknown command letter (or an empty line), verbatim;
    /// the device silently ignores it ([`spec::citrine`](crate::spec::citrine), *Link*).
    Unrecognised(RawLine<'a>),
}

impl<'a> Command<'a> {
    /// Appends the command line and CR LF to `out`. Cannot fail.
    #[inline]
    pub fn encode(&self, out: &mut Vec<u8>) {
        // The commands a host sends all game long, with their CR LF in one
        // write; the others as `put` writes them.
        let letter = match self {
            Command::Move(HostMove {
                from,
                to,
                promotion: None,
            }) => {
                let (f, t) = (square_bytes(*from), square_bytes(*to));
                out.extend_from_slice(&[b'M', b' ', f[0], f[1], t[0], t[1], b'\r', b'\n']);
                return;
            }
            Command::Clock => b'C',
            Command::NewGame => b'N',
            Command::TakeBack => b'T',
            _ => {
                self.put(out);
                out.extend_from_slice(b"\r\n");
                return;
            }
        };
        out.extend_from_slice(&[letter, b'\r', b'\n']);
    }

    /// Appends the command line without its terminator: the wire form,
    /// which `Display` prints too (an unrecognised line verbatim).
    fn put(&self, s: &mut impl Sink) {
        match self {
            Command::Clock => s.put(b"C"),
            Command::Flip => s.put(b"F"),
            Command::Game => s.put(b"G"),
            Command::Identity => s.put(b"I"),
            Command::ShowLevel => s.put(b"L"),
            Command::SetLevel { target, level } => {
                s.put(match target {
                    LevelTarget::Both => &b"L "[..],
                    LevelTarget::BlackOnly => b"L -",
                });
                s.put(level.kind().command_name().as_bytes());
                if level.kind() == LevelKind::Citrine {
                    s.put(b" ");
                }
                put_padded(s, u16::from(level.number()), 1);
            }
            Command::Move(m) => {
                let (f, t) = (square_bytes(m.from), square_bytes(m.to));
                s.put(&[b'M', b' ', f[0], f[1], t[0], t[1]]);
                if let Some(p) = m.promotion {
                    s.put(&[b'/', p.letter()]);
                }
            }
            Command::NewGame => s.put(b"N"),
            Command::Origin => s.put(b"O"),
            Command::ShowPosition => s.put(b"P"),
            Command::SetUp(t) => {
                s.put(b"P ");
                s.put(t.as_str().as_bytes());
            }
            Command::TakeBack => s.put(b"T"),
            Command::Referee(on) => put_switch(s, b'U', *on),
            Command::Xmit(on) => put_switch(s, b'X', *on),
            Command::EngineMove => s.put(b"J"),
            Command::Unrecognised(raw) => s.put(raw.as_bytes()),
        }
    }

    /// The command line with CR LF, as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(16);
        self.encode(&mut v);
        v
    }

    /// The command with its own copies of borrowed text.
    pub fn into_owned(self) -> Command<'static> {
        match self {
            Command::Clock => Command::Clock,
            Command::Flip => Command::Flip,
            Command::Game => Command::Game,
            Command::Identity => Command::Identity,
            Command::ShowLevel => Command::ShowLevel,
            Command::SetLevel { target, level } => Command::SetLevel { target, level },
            Command::Move(m) => Command::Move(m),
            Command::NewGame => Command::NewGame,
            Command::Origin => Command::Origin,
            Command::ShowPosition => Command::ShowPosition,
            Command::SetUp(t) => Command::SetUp(t.into_owned()),
            Command::TakeBack => Command::TakeBack,
            Command::Referee(s) => Command::Referee(s),
            Command::Xmit(s) => Command::Xmit(s),
            Command::EngineMove => Command::EngineMove,
            Command::Unrecognised(raw) => Command::Unrecognised(raw.into_owned()),
        }
    }
}

/// `U`/`X` and nothing (query), ` ON` or ` OFF`.
fn put_switch(s: &mut impl Sink, letter: u8, on: Option<bool>) {
    s.put(&[letter]);
    match on {
        None => {}
        Some(true) => s.put(b" ON"),
        Some(false) => s.put(b" OFF"),
    }
}

impl Command<'_> {
    /// The command as a person reads it in a transcript or log: the wire
    /// text for every known command, and `unrecognised: <line>` with
    /// control bytes and bytes that are not UTF-8 escaped (`\xNN`) for an
    /// unrecognised one, so that it cannot be mistaken for a known command.
    ///
    /// ```
    /// use novag_citrine::{decode, Command};
    /// let c = decode::<Command>(b"Z\x1b").unwrap();
    /// assert_eq!(c.to_string(), "Z\x1b"); // the wire
    /// assert_eq!(c.describe().to_string(), r"unrecognised: Z\x1b");
    /// assert_eq!(Command::Clock.describe().to_string(), "C");
    /// ```
    pub fn describe(&self) -> impl fmt::Display + '_ {
        Describe(self)
    }
}

struct Describe<'c, 'a>(&'c Command<'a>);

impl fmt::Display for Describe<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Command::Unrecognised(raw) => write!(f, "unrecognised: {}", raw.describe()),
            known => fmt::Display::fmt(known, f),
        }
    }
}

impl fmt::Display for Command<'_> {
    /// The command line as on the wire, without its terminator:
    /// `decode(c.to_string().as_bytes()) == c` (for an unrecognised line
    /// whose bytes are UTF-8). For a person, [`describe`](Command::describe).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Unrecognised(raw) => write!(f, "{raw}"),
            known => fmt_with(f, |s| known.put(s)),
        }
    }
}
