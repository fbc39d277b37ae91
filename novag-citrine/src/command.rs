//! Host-to-device commands ([`Command`]): infallible encoding with CR LF and
//! lenient decoding (used by the simulated device) — spec note, "Commands
//! (host -> device) and replies (device -> host)".

use alloc::vec::Vec;
use core::fmt;

use crate::error::{DecodeError, ErrorKind, Field};
use crate::parse::{In, Res, decimal, end, fail, field, on_off, square_p, ws0};
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
pub enum LevelTarget {
    /// Both colours (`L CITRINE 5`, `L +CITRINE5`, `L TR1`); setting White's
    /// level always sets Black's too.
    Both,
    /// Black only (`L -CITRINE 3`, `L -TR1`).
    BlackOnly,
}

/// One command line the host sends. Commands are not echoed; the device
/// silently ignores unknown ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Command<'a> {
    /// `C`: show the clocks (reply [`crate::Reply::Clock`]).
    Clock,
    /// `F`: flip (at the new-game position the Citrine takes White; mid-game
    /// the side to move changes). Reply [`crate::Reply::Flip`].
    Flip,
    /// `G`: the game score (replies `Game n`, `. white black`, rows; at most
    /// the last 112 plies).
    Game,
    /// `I`: identity (reply [`crate::Reply::Identity`]).
    Identity,
    /// `L`: show both levels (two [`crate::Reply::Level`] lines).
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
}

impl<'a> Command<'a> {
    /// Appends the command line and CR LF to `out`. Cannot fail.
    pub fn encode(&self, out: &mut Vec<u8>) {
        push_display(out, self);
        out.extend_from_slice(b"\r\n");
    }

    /// The command line with CR LF, as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(16);
        self.encode(&mut v);
        v
    }

    /// Decodes one command line (without terminator; trailing CR, spaces and
    /// tabs tolerated). Case-insensitive; spaces after the letter optional
    /// (`ME2E4`, `M e2e4`, `M e2-e4`, `L +CITRINE5`).
    ///
    /// ```
    /// use novag_citrine::Command;
    /// assert_eq!(Command::decode(b"me2e4")?.to_string(), "M e2e4");
    /// assert_eq!(Command::decode(b"L +CITRINE5")?.to_string(), "L CITRINE 5");
    /// # Ok::<(), novag_citrine::DecodeError>(())
    /// ```
    ///
    /// # Errors
    /// [`DecodeError`] with [`Field::Keyword`] for an empty line or an unknown
    /// letter (which the device ignores), or naming the malformed field.
    pub fn decode(line: &'a [u8]) -> Result<Command<'a>, DecodeError> {
        let mut l = line;
        while let [rest @ .., b' ' | b'\t' | b'\r'] = l {
            l = rest;
        }
        let lead = l.iter().take_while(|b| matches!(b, b' ' | b'\t')).count();
        let l = &l[lead..];
        let Some((&letter, rest)) = l.split_first() else {
            return Err(DecodeError {
                field: Field::Keyword,
                column: lead + 1,
                kind: ErrorKind::Missing,
            });
        };
        let res: Res<'_, Command<'_>> = match letter.to_ascii_uppercase() {
            b'C' => bare(rest, Command::Clock),
            b'F' => bare(rest, Command::Flip),
            b'G' => bare(rest, Command::Game),
            b'I' => bare(rest, Command::Identity),
            b'N' => bare(rest, Command::NewGame),
            b'O' => bare(rest, Command::Origin),
            b'T' => bare(rest, Command::TakeBack),
            b'J' => bare(rest, Command::EngineMove),
            b'U' => switch(rest).map(|(i, s)| (i, Command::Referee(s))),
            b'X' => switch(rest).map(|(i, s)| (i, Command::Xmit(s))),
            b'L' => level_command(rest),
            b'M' => host_move(rest).map(|(i, m)| (i, Command::Move(m))),
            b'P' => set_up(rest),
            _ => fail(l, Field::Keyword, ErrorKind::Invalid),
        };
        res.map(|(_, c)| c).map_err(|e| match e {
            nom::Err::Error(e) | nom::Err::Failure(e) => e.into_decode_error(line, Field::Keyword),
            nom::Err::Incomplete(_) => DecodeError {
                field: Field::Keyword,
                column: 1,
                kind: ErrorKind::Missing,
            },
        })
    }
}

/// A command without arguments.
fn bare<'a>(i: In<'a>, c: Command<'a>) -> Res<'a, Command<'a>> {
    let (i, ()) = end(i)?;
    Ok((i, c))
}

/// Nothing (query), `ON` or `OFF`.
fn switch(i: In<'_>) -> Res<'_, Option<bool>> {
    let (i, _) = ws0(i)?;
    if i.is_empty() {
        return Ok((i, None));
    }
    let (i, on) = on_off(i)?;
    let (i, ()) = end(i)?;
    Ok((i, Some(on)))
}

/// After `L`: nothing, or `[+|-] NAME [ws] n`.
fn level_command(i: In<'_>) -> Res<'_, Command<'_>> {
    let (i, _) = ws0(i)?;
    if i.is_empty() {
        return Ok((i, Command::ShowLevel));
    }
    let (i, target) = match i.first() {
        Some(b'-') => (&i[1..], LevelTarget::BlackOnly),
        Some(b'+') => (&i[1..], LevelTarget::Both),
        _ => (i, LevelTarget::Both),
    };
    let (i, _) = ws0(i)?;
    let kinds = [
        LevelKind::Citrine,
        LevelKind::Tournament,
        LevelKind::AverageTime,
        LevelKind::Beginner,
    ];
    let Some((i, kind)) = kinds.iter().find_map(|k| {
        let n = k.command_name().as_bytes();
        (i.len() >= n.len() && i[..n.len()].eq_ignore_ascii_case(n)).then(|| (&i[n.len()..], *k))
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
    Ok((i, Command::SetLevel { target, level }))
}

/// After `M`: `from[-|x]to[/P | P]`.
fn host_move(i: In<'_>) -> Res<'_, HostMove> {
    let (i, _) = ws0(i)?;
    let (i, from) = field(Field::Square, square_p)(i)?;
    let i = match i.first() {
        Some(b'-' | b'x' | b'X') => &i[1..],
        _ => i,
    };
    let (i, to) = field(Field::Square, square_p)(i)?;
    let (i, promotion) = match i {
        [b'/', rest @ ..] => match rest.first().and_then(|b| Promotion::from_letter(*b)) {
            Some(p) => (&rest[1..], Some(p)),
            None => return fail(rest, Field::Promotion, ErrorKind::Invalid),
        },
        [b, rest @ ..] if Promotion::from_letter(*b).is_some() => {
            (rest, Promotion::from_letter(*b))
        }
        _ => (i, None),
    };
    let (i, ()) = end(i)?;
    Ok((
        i,
        HostMove {
            from,
            to,
            promotion,
        },
    ))
}

/// After `P`: nothing, or a set-up token.
fn set_up(i: In<'_>) -> Res<'_, Command<'_>> {
    let (i, _) = ws0(i)?;
    if i.is_empty() {
        return Ok((i, Command::ShowPosition));
    }
    let len = i.iter().take_while(|b| b.is_ascii_graphic()).count();
    if len == 0 || len > Token::MAX_LEN {
        return fail(
            i,
            Field::SetUp,
            if len == 0 {
                ErrorKind::Invalid
            } else {
                ErrorKind::OutOfRange
            },
        );
    }
    let text = core::str::from_utf8(&i[..len]).expect("ASCII");
    let (i, ()) = end(&i[len..])?;
    Ok((
        i,
        Command::SetUp(Token::new("set-up", text).expect("checked")),
    ))
}

impl fmt::Display for Command<'_> {
    /// The command line without terminator.
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
        }
    }
}
