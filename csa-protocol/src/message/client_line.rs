//! Lines a client sends to the server (spec note: "Plain CSA mode",
//! "Agreement -> game", "Moves", "Extended mode (x1)").

use crate::sink::Sink as _;
use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::cursor::{Cursor, parse_u64};
use crate::error::{DecodeError, Expected, Field, MessageKind, Problem};
use crate::moves::{BuoyMoves, CsaMove, decode_move_token};
use crate::types::{
    GameId, GameName, Password, SidePreference, Text, UserName, is_game_id_byte, is_graphic,
    is_name_byte,
};

/// A special move a client sends instead of a board move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpecialMove {
    /// `%TORYO`: resign.
    Toryo,
    /// `%KACHI`: declare a win by the 27-point jishogi rule.
    Kachi,
    /// `%CHUDAN`: abort the game (clients send it; shogi-server treats it as
    /// a loss for the sender — spec note, "Moves").
    Chudan,
}

impl SpecialMove {
    /// The wire text, e.g. `%TORYO`.
    pub fn as_str(self) -> &'static str {
        match self {
            SpecialMove::Toryo => "%TORYO",
            SpecialMove::Kachi => "%KACHI",
            SpecialMove::Chudan => "%CHUDAN",
        }
    }
}

/// `<gamename> <+|-|*>` as in `%%GAME` and `%%CHALLENGE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRequest<'a> {
    /// The game name, e.g. `testgame-300-0` or `floodgate-300-10F`.
    pub name: GameName<'a>,
    /// The side asked for.
    pub side: SidePreference,
}

impl GameRequest<'_> {
    /// The same value with owned text.
    pub fn into_owned(self) -> GameRequest<'static> {
        GameRequest {
            name: self.name.into_owned(),
            side: self.side,
        }
    }
}

/// A shogi-server extended-mode (x1) command, `%%...` (spec note, table in
/// "Extended mode (x1)").
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum X1Command<'a> {
    /// `%%WHO`.
    Who,
    /// `%%CHAT <text>` (UTF-8 text, may be empty).
    Chat(Text<'a>),
    /// `%%GAME <gamename> <+|-|*>`; `%%GAME` alone (`None`) cancels waiting.
    Game(Option<GameRequest<'a>>),
    /// `%%CHALLENGE <gamename> <+|-|*>`.
    Challenge(GameRequest<'a>),
    /// `%%LIST`.
    List,
    /// `%%SHOW <game_id>`.
    Show(GameId<'a>),
    /// `%%MONITORON <game_id>`.
    MonitorOn(GameId<'a>),
    /// `%%MONITOROFF <game_id>`.
    MonitorOff(GameId<'a>),
    /// `%%MONITOR2ON <game_id>`.
    Monitor2On(GameId<'a>),
    /// `%%MONITOR2OFF <game_id>`.
    Monitor2Off(GameId<'a>),
    /// `%%RATING`.
    Rating,
    /// `%%SETBUOY <buoy_name> <moves> [<count>]`.
    SetBuoy {
        /// The buoy game name (`buoy_...-<total>-<byoyomi>`).
        name: GameName<'a>,
        /// Set-up moves from the start position, concatenated.
        moves: BuoyMoves<'a>,
        /// How many games may use it (server default 1).
        count: Option<u32>,
    },
    /// `%%DELETEBUOY <buoy_name>`.
    DeleteBuoy(GameName<'a>),
    /// `%%GETBUOYCOUNT <buoy_name>`.
    GetBuoyCount(GameName<'a>),
    /// `%%VERSION`.
    Version,
    /// `%%HELP`.
    Help,
    /// `%%FORK <game_id> [<buoy_name>] [<nth_move>]`.
    Fork {
        /// The game to fork from.
        game_id: GameId<'a>,
        /// Name of the buoy to create (server chooses when absent).
        buoy: Option<GameName<'a>>,
        /// Number of moves to keep (server default: all but the last).
        nth: Option<u32>,
    },
}

/// One line from a client, decoded (see [`decode_client_line`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientMessage<'a> {
    /// The empty line: keep-alive (shogi-server answers with an empty line).
    KeepAlive,
    /// `LOGIN <name> <password>` or, with `x1`, `LOGIN <name> <password> x1`.
    Login {
        /// Login name.
        name: UserName<'a>,
        /// Password (in CSA mode shogi-server reads the game name from it).
        password: Password<'a>,
        /// Extended mode requested.
        x1: bool,
    },
    /// `LOGOUT`.
    Logout,
    /// `AGREE` or `AGREE <game_id>`.
    Agree(Option<GameId<'a>>),
    /// `REJECT` or `REJECT <game_id>`.
    Reject(Option<GameId<'a>>),
    /// A move, e.g. `+7776FU`, optionally with a Floodgate comment
    /// (`+7776FU,'* 30 -3334FU`: the text after `,'`).
    Move {
        /// The move (CSA notation, piece after the move).
        mv: CsaMove,
        /// The comment after `,'`, if any.
        comment: Option<Text<'a>>,
    },
    /// `%TORYO`, `%KACHI` or `%CHUDAN`.
    Special(SpecialMove),
    /// An x1 command.
    X1(X1Command<'a>),
    /// A line that is no client command at all (e.g. `HELLO`, lower-case
    /// `login`); shogi-server answers such a line with
    /// `##[ERROR] unknown command: <line>` (x1) — the bytes are kept as sent.
    Unrecognised(Cow<'a, [u8]>),
}

/// Decodes one client line (terminator already removed by the framer).
///
/// Never allocates. A line that is no client command is
/// [`ClientMessage::Unrecognised`]; a line that starts like a command (its
/// keyword, a sign `+`/`-`, `%%` of a known command) but is malformed is a
/// [`DecodeError`] naming the command, the field and the column.
///
/// ```
/// use csa_protocol::message::{ClientMessage, X1Command};
/// use csa_protocol::types::SidePreference;
/// # use csa_protocol::message::ClientMessage as M;
/// # fn decode_client_line(l: &[u8]) -> Result<M<'_>, csa_protocol::error::DecodeError> { csa_protocol::decode::decode(l) }
///
/// let m = decode_client_line(b"%%GAME testgame-300-0 +").unwrap();
/// let ClientMessage::X1(X1Command::Game(Some(req))) = m else { panic!() };
/// assert_eq!((req.name.as_str(), req.side), ("testgame-300-0", SidePreference::Black));
///
/// let err = decode_client_line(b"LOGIN mal1 pass x2").unwrap_err();
/// assert_eq!((err.message.as_str(), err.field.as_str(), err.offset), ("LOGIN", "mode", 16));
/// ```
///
/// # Errors
/// [`DecodeError`] as described above.
pub fn decode_client_line(line: &[u8]) -> Result<ClientMessage<'_>, DecodeError> {
    let Some(&first) = line.first() else {
        return Ok(ClientMessage::KeepAlive);
    };
    let kw_end = line.iter().position(|&b| b == b' ').unwrap_or(line.len());
    let kw = &line[..kw_end];
    match first {
        b'+' | b'-' => return decode_move(line),
        b'%' if line.starts_with(b"%%") => return decode_x1(line, kw, kw_end),
        _ => {}
    }
    let simple = |msg: ClientMessage<'static>, kind: MessageKind| {
        Cursor::new(line, kw_end, kind).end()?;
        Ok(msg)
    };
    match kw {
        b"LOGIN" => decode_login(line, kw_end),
        b"LOGOUT" => simple(ClientMessage::Logout, MessageKind::Logout),
        b"AGREE" => {
            let mut c = Cursor::new(line, kw_end, MessageKind::Agree);
            let id = opt_game_id(&mut c)?;
            c.end()?;
            Ok(ClientMessage::Agree(id))
        }
        b"REJECT" => {
            let mut c = Cursor::new(line, kw_end, MessageKind::Reject);
            let id = opt_game_id(&mut c)?;
            c.end()?;
            Ok(ClientMessage::Reject(id))
        }
        b"%TORYO" => simple(
            ClientMessage::Special(SpecialMove::Toryo),
            MessageKind::Toryo,
        ),
        b"%KACHI" => simple(
            ClientMessage::Special(SpecialMove::Kachi),
            MessageKind::Kachi,
        ),
        b"%CHUDAN" => simple(
            ClientMessage::Special(SpecialMove::Chudan),
            MessageKind::Chudan,
        ),
        _ => Ok(ClientMessage::Unrecognised(Cow::Borrowed(line))),
    }
}

fn opt_game_id<'a>(c: &mut Cursor<'a>) -> Result<Option<GameId<'a>>, DecodeError> {
    match c.opt_field(Field::GameId)? {
        None => Ok(None),
        Some((f, off)) => Ok(Some(GameId::from_checked(c.check(
            Field::GameId,
            f,
            off,
            GameId::MAX_LEN,
            is_game_id_byte,
        )?))),
    }
}

fn game_id<'a>(c: &mut Cursor<'a>) -> Result<GameId<'a>, DecodeError> {
    Ok(GameId::from_checked(c.token(
        Field::GameId,
        GameId::MAX_LEN,
        is_graphic,
    )?))
}

fn game_name<'a>(c: &mut Cursor<'a>, field: Field) -> Result<GameName<'a>, DecodeError> {
    Ok(GameName::from_checked(c.token(
        field,
        GameName::MAX_LEN,
        is_name_byte,
    )?))
}

fn decode_login(line: &[u8], kw_end: usize) -> Result<ClientMessage<'_>, DecodeError> {
    let mut c = Cursor::new(line, kw_end, MessageKind::Login);
    let name = c.token(Field::Name, UserName::MAX_LEN, is_name_byte)?;
    let password = c.token(Field::Password, Password::MAX_LEN, is_graphic)?;
    let x1 = match c.opt_field(Field::Mode)? {
        None => false,
        Some((b"x1", _)) => true,
        Some((_, off)) => return Err(c.err(Field::Mode, off, Problem::Expected(Expected::X1))),
    };
    c.end()?;
    Ok(ClientMessage::Login {
        name: UserName::from_checked(name),
        password: Password::from_checked(password),
        x1,
    })
}

fn decode_move(line: &[u8]) -> Result<ClientMessage<'_>, DecodeError> {
    let c = Cursor::new(line, 0, MessageKind::Move);
    let (mv, after) = decode_move_token(&c, line)?;
    let comment = if after == line.len() {
        None
    } else if line[after..].starts_with(b",'") {
        let start = after + 2;
        Some(Text::from_checked(crate::cursor::text(
            &c,
            Field::Comment,
            &line[start..],
            start,
        )?))
    } else {
        return Err(c.err(Field::Comment, after, Problem::Expected(Expected::Comment)));
    };
    Ok(ClientMessage::Move { mv, comment })
}

fn side_pref(c: &mut Cursor<'_>) -> Result<SidePreference, DecodeError> {
    let (f, off) = c.field(Field::Side)?;
    match f {
        b"+" => Ok(SidePreference::Black),
        b"-" => Ok(SidePreference::White),
        b"*" => Ok(SidePreference::Any),
        _ => Err(c.err(
            Field::Side,
            off,
            Problem::Expected(Expected::SidePreference),
        )),
    }
}

fn decode_x1<'a>(
    line: &'a [u8],
    kw: &[u8],
    kw_end: usize,
) -> Result<ClientMessage<'a>, DecodeError> {
    macro_rules! kind {
        ($k:expr) => {
            Cursor::new(line, kw_end, $k)
        };
    }
    let cmd = match kw {
        b"%%WHO" => {
            kind!(MessageKind::Who).end()?;
            X1Command::Who
        }
        b"%%LIST" => {
            kind!(MessageKind::List).end()?;
            X1Command::List
        }
        b"%%RATING" => {
            kind!(MessageKind::Rating).end()?;
            X1Command::Rating
        }
        b"%%VERSION" => {
            kind!(MessageKind::Version).end()?;
            X1Command::Version
        }
        b"%%HELP" => {
            kind!(MessageKind::Help).end()?;
            X1Command::Help
        }
        b"%%CHAT" => {
            let mut c = kind!(MessageKind::Chat);
            X1Command::Chat(Text::from_checked(c.rest_text(Field::Text)?))
        }
        b"%%GAME" => {
            let mut c = kind!(MessageKind::Game);
            if c.at_end() {
                X1Command::Game(None)
            } else {
                let name = game_name(&mut c, Field::GameName)?;
                let side = side_pref(&mut c)?;
                c.end()?;
                X1Command::Game(Some(GameRequest { name, side }))
            }
        }
        b"%%CHALLENGE" => {
            let mut c = kind!(MessageKind::Challenge);
            let name = game_name(&mut c, Field::GameName)?;
            let side = side_pref(&mut c)?;
            c.end()?;
            X1Command::Challenge(GameRequest { name, side })
        }
        b"%%SHOW" | b"%%MONITORON" | b"%%MONITOROFF" | b"%%MONITOR2ON" | b"%%MONITOR2OFF" => {
            let k: MessageKind = match kw {
                b"%%SHOW" => MessageKind::Show,
                b"%%MONITORON" => MessageKind::MonitorOn,
                b"%%MONITOROFF" => MessageKind::MonitorOff,
                b"%%MONITOR2ON" => MessageKind::Monitor2On,
                _ => MessageKind::Monitor2Off,
            };
            let mut c = Cursor::new(line, kw_end, k);
            let id = game_id(&mut c)?;
            c.end()?;
            match kw {
                b"%%SHOW" => X1Command::Show(id),
                b"%%MONITORON" => X1Command::MonitorOn(id),
                b"%%MONITOROFF" => X1Command::MonitorOff(id),
                b"%%MONITOR2ON" => X1Command::Monitor2On(id),
                _ => X1Command::Monitor2Off(id),
            }
        }
        b"%%SETBUOY" => {
            let mut c = kind!(MessageKind::SetBuoy);
            let name = game_name(&mut c, Field::BuoyName)?;
            let (f, off) = c.field(Field::Moves)?;
            let moves = BuoyMoves::decode(&c, f, off)?;
            let count = match c.opt_field(Field::Count)? {
                None => None,
                Some((f, off)) => Some(parse_u64(&c, Field::Count, f, off, 9)? as u32),
            };
            c.end()?;
            X1Command::SetBuoy { name, moves, count }
        }
        b"%%DELETEBUOY" => {
            let mut c = kind!(MessageKind::DeleteBuoy);
            let name = game_name(&mut c, Field::BuoyName)?;
            c.end()?;
            X1Command::DeleteBuoy(name)
        }
        b"%%GETBUOYCOUNT" => {
            let mut c = kind!(MessageKind::GetBuoyCount);
            let name = game_name(&mut c, Field::BuoyName)?;
            c.end()?;
            X1Command::GetBuoyCount(name)
        }
        b"%%FORK" => {
            let mut c = kind!(MessageKind::Fork);
            let game_id = game_id(&mut c)?;
            let mut buoy = None;
            let mut nth = None;
            if let Some((f, off)) = c.opt_field(Field::BuoyName)? {
                if f.iter().all(u8::is_ascii_digit) {
                    nth = Some(parse_u64(&c, Field::Nth, f, off, 9)? as u32);
                } else {
                    buoy = Some(GameName::from_checked(c.check(
                        Field::BuoyName,
                        f,
                        off,
                        GameName::MAX_LEN,
                        is_name_byte,
                    )?));
                    if let Some((f, off)) = c.opt_field(Field::Nth)? {
                        nth = Some(parse_u64(&c, Field::Nth, f, off, 9)? as u32);
                    }
                }
            }
            c.end()?;
            X1Command::Fork { game_id, buoy, nth }
        }
        _ => return Ok(ClientMessage::Unrecognised(Cow::Borrowed(line))),
    };
    Ok(ClientMessage::X1(cmd))
}

impl ClientMessage<'_> {
    /// Appends the line and its LF terminator to `out`. Never fails: every
    /// value that can be constructed is a valid line.
    pub fn encode(&self, out: &mut Vec<u8>) {
        self.encode_body(out);
        out.push(b'\n');
    }

    /// The line without terminator, as a new vector.
    pub fn to_line(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode_body(&mut v);
        v
    }

    fn encode_body(&self, out: &mut Vec<u8>) {
        // Writing into a Vec cannot fail.
        let _ = match self {
            ClientMessage::KeepAlive => Ok(()),
            ClientMessage::Login { name, password, x1 } => {
                write!(out, "LOGIN {name} {}", password.expose())
                    .and_then(|()| if *x1 { out.write_all(b" x1") } else { Ok(()) })
            }
            ClientMessage::Logout => out.write_all(b"LOGOUT"),
            ClientMessage::Agree(None) => out.write_all(b"AGREE"),
            ClientMessage::Agree(Some(id)) => write!(out, "AGREE {id}"),
            ClientMessage::Reject(None) => out.write_all(b"REJECT"),
            ClientMessage::Reject(Some(id)) => write!(out, "REJECT {id}"),
            ClientMessage::Move { mv, comment } => match comment {
                None => write!(out, "{mv}"),
                Some(c) => write!(out, "{mv},'{c}"),
            },
            ClientMessage::Special(s) => out.write_all(s.as_str().as_bytes()),
            ClientMessage::X1(cmd) => encode_x1(cmd, out),
            ClientMessage::Unrecognised(bytes) => out.write_all(bytes),
        };
    }

    /// The same value with owned text.
    pub fn into_owned(self) -> ClientMessage<'static> {
        match self {
            ClientMessage::KeepAlive => ClientMessage::KeepAlive,
            ClientMessage::Login { name, password, x1 } => ClientMessage::Login {
                name: name.into_owned(),
                password: password.into_owned(),
                x1,
            },
            ClientMessage::Logout => ClientMessage::Logout,
            ClientMessage::Agree(id) => ClientMessage::Agree(id.map(GameId::into_owned)),
            ClientMessage::Reject(id) => ClientMessage::Reject(id.map(GameId::into_owned)),
            ClientMessage::Move { mv, comment } => ClientMessage::Move {
                mv,
                comment: comment.map(Text::into_owned),
            },
            ClientMessage::Special(s) => ClientMessage::Special(s),
            ClientMessage::X1(cmd) => ClientMessage::X1(cmd.into_owned()),
            ClientMessage::Unrecognised(b) => {
                ClientMessage::Unrecognised(Cow::Owned(b.into_owned()))
            }
        }
    }
}

fn encode_x1(cmd: &X1Command<'_>, out: &mut Vec<u8>) -> core::fmt::Result {
    match cmd {
        X1Command::Who => out.write_all(b"%%WHO"),
        X1Command::Chat(t) => write!(out, "%%CHAT {t}"),
        X1Command::Game(None) => out.write_all(b"%%GAME"),
        X1Command::Game(Some(r)) => write!(out, "%%GAME {} {}", r.name, r.side.as_char()),
        X1Command::Challenge(r) => write!(out, "%%CHALLENGE {} {}", r.name, r.side.as_char()),
        X1Command::List => out.write_all(b"%%LIST"),
        X1Command::Show(id) => write!(out, "%%SHOW {id}"),
        X1Command::MonitorOn(id) => write!(out, "%%MONITORON {id}"),
        X1Command::MonitorOff(id) => write!(out, "%%MONITOROFF {id}"),
        X1Command::Monitor2On(id) => write!(out, "%%MONITOR2ON {id}"),
        X1Command::Monitor2Off(id) => write!(out, "%%MONITOR2OFF {id}"),
        X1Command::Rating => out.write_all(b"%%RATING"),
        X1Command::SetBuoy { name, moves, count } => {
            write!(out, "%%SETBUOY {name} {moves}")?;
            match count {
                Some(n) => write!(out, " {n}"),
                None => Ok(()),
            }
        }
        X1Command::DeleteBuoy(n) => write!(out, "%%DELETEBUOY {n}"),
        X1Command::GetBuoyCount(n) => write!(out, "%%GETBUOYCOUNT {n}"),
        X1Command::Version => out.write_all(b"%%VERSION"),
        X1Command::Help => out.write_all(b"%%HELP"),
        X1Command::Fork { game_id, buoy, nth } => {
            write!(out, "%%FORK {game_id}")?;
            if let Some(b) = buoy {
                write!(out, " {b}")?;
            }
            match nth {
                Some(n) => write!(out, " {n}"),
                None => Ok(()),
            }
        }
    }
}

impl X1Command<'_> {
    /// The same value with owned text.
    pub fn into_owned(self) -> X1Command<'static> {
        match self {
            X1Command::Who => X1Command::Who,
            X1Command::Chat(t) => X1Command::Chat(t.into_owned()),
            X1Command::Game(r) => X1Command::Game(r.map(GameRequest::into_owned)),
            X1Command::Challenge(r) => X1Command::Challenge(r.into_owned()),
            X1Command::List => X1Command::List,
            X1Command::Show(id) => X1Command::Show(id.into_owned()),
            X1Command::MonitorOn(id) => X1Command::MonitorOn(id.into_owned()),
            X1Command::MonitorOff(id) => X1Command::MonitorOff(id.into_owned()),
            X1Command::Monitor2On(id) => X1Command::Monitor2On(id.into_owned()),
            X1Command::Monitor2Off(id) => X1Command::Monitor2Off(id.into_owned()),
            X1Command::Rating => X1Command::Rating,
            X1Command::SetBuoy { name, moves, count } => X1Command::SetBuoy {
                name: name.into_owned(),
                moves: moves.into_owned(),
                count,
            },
            X1Command::DeleteBuoy(n) => X1Command::DeleteBuoy(n.into_owned()),
            X1Command::GetBuoyCount(n) => X1Command::GetBuoyCount(n.into_owned()),
            X1Command::Version => X1Command::Version,
            X1Command::Help => X1Command::Help,
            X1Command::Fork { game_id, buoy, nth } => X1Command::Fork {
                game_id: game_id.into_owned(),
                buoy: buoy.map(GameName::into_owned),
                nth,
            },
        }
    }
}

impl ClientMessage<'_> {
    /// The line with its LF, as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode(&mut v);
        v
    }
}

/// What a person reads in a transcript: the line as sent (the keep-alive:
/// empty), with the password of `LOGIN` shown as `*****` (taken from the decoded value, so
/// whatever the spacing of the wire line, the secret never shows).
///
/// ```
/// use csa_protocol::decode::decode;
/// use csa_protocol::message::ClientMessage;
///
/// let m = decode::<ClientMessage>(b"LOGIN alice SECRET4 x1").unwrap();
/// assert_eq!(m.to_string(), "LOGIN alice ***** x1");
/// ```
impl core::fmt::Display for ClientMessage<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ClientMessage::KeepAlive => Ok(()), // the empty line
            ClientMessage::Login { name, x1, .. } => {
                write!(f, "LOGIN {name} *****{}", if *x1 { " x1" } else { "" })
            }
            ClientMessage::Unrecognised(b) => crate::types::write_escaped(f, b),
            other => crate::types::write_escaped(f, &other.to_line()),
        }
    }
}
