//! Host-to-device commands ([`Command`]): encoding that cannot fail, with
//! CR LF ([`spec::citrine`](crate::spec::citrine), *Commands (host -> device) and replies
//! (device -> host)*). Decoding is [`decode::<Command>`](crate::decode::decode)
//! (the simulated device uses it).

use alloc::vec::Vec;
use core::fmt;

use super::RawLine;
use crate::types::{Level, LevelKind, Promotion, Token, push_display};
use crate::vocab::{Square, write_square};

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
    pub fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Command::Unrecognised(raw) => out.extend_from_slice(raw.as_bytes()),
            other => push_display(out, other),
        }
        out.extend_from_slice(b"\r\n");
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
        let switch = |f: &mut fmt::Formatter<'_>, c: &str, s: &Option<bool>| match s {
            None => f.write_str(c),
            Some(true) => write!(f, "{c} ON"),
            Some(false) => write!(f, "{c} OFF"),
        };
        match self {
            Command::Clock => f.write_str("C"),
            Command::Flip => f.write_str("F"),
            Command::Game => f.write_str("G"),
            Command::Identity => f.write_str("I"),
            Command::ShowLevel => f.write_str("L"),
            Command::SetLevel { target, level } => {
                let sign = match target {
                    LevelTarget::Both => "",
                    LevelTarget::BlackOnly => "-",
                };
                let sep = if level.kind() == LevelKind::Citrine {
                    " "
                } else {
                    ""
                };
                write!(
                    f,
                    "L {sign}{}{sep}{}",
                    level.kind().command_name(),
                    level.number()
                )
            }
            Command::Move(m) => {
                f.write_str("M ")?;
                write_square(f, m.from)?;
                write_square(f, m.to)?;
                if let Some(p) = m.promotion {
                    write!(f, "/{}", p.letter() as char)?;
                }
                Ok(())
            }
            Command::NewGame => f.write_str("N"),
            Command::Origin => f.write_str("O"),
            Command::ShowPosition => f.write_str("P"),
            Command::SetUp(t) => write!(f, "P {t}"),
            Command::TakeBack => f.write_str("T"),
            Command::Referee(s) => switch(f, "U", s),
            Command::Xmit(s) => switch(f, "X", s),
            Command::EngineMove => f.write_str("J"),
            Command::Unrecognised(raw) => write!(f, "{raw}"),
        }
    }
}
