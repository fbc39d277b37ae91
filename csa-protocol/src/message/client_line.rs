//! Lines a client sends to the server ([`spec::csa`](crate::spec::csa): *Plain CSA mode*,
//! "Agreement -> game", "Moves", "Extended mode (x1)").

use crate::sink::Sink as _;
use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::error::DecodeError;
use crate::moves::{BuoyMoves, CsaMove};
use crate::types::{GameId, GameName, MoveComment, Password, SidePreference, Text, UserName};

/// A special move a client sends instead of a board move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpecialMove {
    /// `%TORYO`: resign.
    Toryo,
    /// `%KACHI`: declare a win by the 27-point jishogi rule.
    Kachi,
    /// `%CHUDAN`: abort the game (clients send it; shogi-server treats it as
    /// a loss for the sender — [`spec::csa`](crate::spec::csa), *Moves*).
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

/// A shogi-server extended-mode (x1) command, `%%...`
/// ([`spec::csa`](crate::spec::csa), the table in *Extended mode (x1)*).
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

/// One line from a client, decoded (see [`crate::decode::decode`]).
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
    /// (`+7776FU,'* 30 -3334FU`: the bytes after `,'`, kept as sent, UTF-8
    /// or not).
    Move {
        /// The move (CSA notation, piece after the move).
        mv: CsaMove,
        /// The comment after `,'`, if any.
        comment: Option<MoveComment<'a>>,
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
/// [`DecodeError`] naming the command, the field and the byte offset.
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
/// assert_eq!((err.message.as_str(), err.field.as_str(), err.offset), ("LOGIN", "mode", 17)); // the `2`
/// ```
///
/// # Errors
/// [`DecodeError`] as described above.
pub fn decode_client_line(line: &[u8]) -> Result<ClientMessage<'_>, DecodeError> {
    crate::parse::decode_client_line(line)
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
        match self {
            ClientMessage::KeepAlive => {}
            ClientMessage::Login { name, password, x1 } => {
                out.put(b"LOGIN ");
                out.put_str(name.as_str());
                out.push(b' ');
                out.put_str(password.expose());
                if *x1 {
                    out.put(b" x1");
                }
            }
            ClientMessage::Logout => out.put(b"LOGOUT"),
            ClientMessage::Agree(id) => {
                out.put(b"AGREE");
                if let Some(id) = id {
                    out.push(b' ');
                    out.put_str(id.as_str());
                }
            }
            ClientMessage::Reject(id) => {
                out.put(b"REJECT");
                if let Some(id) = id {
                    out.push(b' ');
                    out.put_str(id.as_str());
                }
            }
            ClientMessage::Move { mv, comment } => {
                out.put(&mv.to_bytes());
                if let Some(c) = comment {
                    out.put(b",'");
                    out.put(c.as_bytes());
                }
            }
            ClientMessage::Special(s) => out.put_str(s.as_str()),
            ClientMessage::X1(cmd) => encode_x1(cmd, out),
            ClientMessage::Unrecognised(bytes) => out.put(bytes),
        }
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
                comment: comment.map(MoveComment::into_owned),
            },
            ClientMessage::Special(s) => ClientMessage::Special(s),
            ClientMessage::X1(cmd) => ClientMessage::X1(cmd.into_owned()),
            ClientMessage::Unrecognised(b) => {
                ClientMessage::Unrecognised(Cow::Owned(b.into_owned()))
            }
        }
    }
}

fn encode_x1(cmd: &X1Command<'_>, out: &mut Vec<u8>) {
    // `%%KEYWORD` and one field after a space.
    let with = |out: &mut Vec<u8>, kw: &[u8], field: &str| {
        out.put(kw);
        out.push(b' ');
        out.put_str(field);
    };
    match cmd {
        X1Command::Who => out.put(b"%%WHO"),
        X1Command::Chat(t) => with(out, b"%%CHAT", t.as_str()),
        X1Command::Game(None) => out.put(b"%%GAME"),
        X1Command::Game(Some(r)) => {
            with(out, b"%%GAME", r.name.as_str());
            out.put(&[b' ', r.side.as_char() as u8]);
        }
        X1Command::Challenge(r) => {
            with(out, b"%%CHALLENGE", r.name.as_str());
            out.put(&[b' ', r.side.as_char() as u8]);
        }
        X1Command::List => out.put(b"%%LIST"),
        X1Command::Show(id) => with(out, b"%%SHOW", id.as_str()),
        X1Command::MonitorOn(id) => with(out, b"%%MONITORON", id.as_str()),
        X1Command::MonitorOff(id) => with(out, b"%%MONITOROFF", id.as_str()),
        X1Command::Monitor2On(id) => with(out, b"%%MONITOR2ON", id.as_str()),
        X1Command::Monitor2Off(id) => with(out, b"%%MONITOR2OFF", id.as_str()),
        X1Command::Rating => out.put(b"%%RATING"),
        X1Command::SetBuoy { name, moves, count } => {
            with(out, b"%%SETBUOY", name.as_str());
            out.push(b' ');
            out.put_str(moves.as_str());
            if let Some(n) = count {
                out.push(b' ');
                out.put_u64(u64::from(*n));
            }
        }
        X1Command::DeleteBuoy(n) => with(out, b"%%DELETEBUOY", n.as_str()),
        X1Command::GetBuoyCount(n) => with(out, b"%%GETBUOYCOUNT", n.as_str()),
        X1Command::Version => out.put(b"%%VERSION"),
        X1Command::Help => out.put(b"%%HELP"),
        X1Command::Fork { game_id, buoy, nth } => {
            with(out, b"%%FORK", game_id.as_str());
            if let Some(b) = buoy {
                out.push(b' ');
                out.put_str(b.as_str());
            }
            if let Some(n) = nth {
                out.push(b' ');
                out.put_u64(u64::from(*n));
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

/// The wire line, without its LF (the keep-alive: empty; an unrecognised
/// line as received), so that decoding `to_string()` gives the message
/// back. Bytes that are not UTF-8 (a raw move comment, an `Unrecognised`
/// line) are written as U+FFFD: the wire bytes are `to_line()`. What a person reads: [`ClientMessage::describe`]
/// (in words) or [`ClientMessage::shown`] (the line, password hidden).
///
/// ```
/// use csa_protocol::decode::decode;
/// use csa_protocol::message::ClientMessage;
///
/// let m = decode::<ClientMessage>(b"LOGIN alice SECRET4 x1").unwrap();
/// assert_eq!(m.to_string(), "LOGIN alice SECRET4 x1");
/// assert_eq!(m.shown().to_string(), "LOGIN alice ***** x1");
/// assert_eq!(m.describe().to_string(), "LOGIN: name alice, password hidden, x1 mode");
/// let u = decode::<ClientMessage>(b"HELLO").unwrap();
/// assert_eq!(u.to_string(), "HELLO");
/// assert_eq!(u.shown().to_string(), "unrecognised: HELLO");
/// ```
impl core::fmt::Display for ClientMessage<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        crate::types::write_lossy(f, &self.to_line())
    }
}

impl ClientMessage<'_> {
    /// The line as a log or transcript shows it: the wire line with the
    /// password of `LOGIN` shown as `*****` (taken from the decoded value,
    /// so whatever the spacing of the wire line, the secret never shows),
    /// control bytes and bytes that are not UTF-8 as `\xNN`
    /// ([`Escaped`](crate::types::Escaped)); an unrecognised line reads
    /// `unrecognised: <line>`.
    pub fn shown(&self) -> impl core::fmt::Display + '_ {
        struct Shown<'m, 'a>(&'m ClientMessage<'a>);
        impl core::fmt::Display for Shown<'_, '_> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                match self.0 {
                    ClientMessage::KeepAlive => Ok(()), // the empty line
                    ClientMessage::Login { name, x1, .. } => {
                        write!(f, "LOGIN {name} *****{}", if *x1 { " x1" } else { "" })
                    }
                    ClientMessage::Unrecognised(b) => {
                        f.write_str("unrecognised: ")?;
                        crate::types::write_escaped(f, b)
                    }
                    other => crate::types::write_escaped(f, &other.to_line()),
                }
            }
        }
        Shown(self)
    }

    /// The message in words (what `boardwire csa decode` prints): `move
    /// +7776FU: sente FU 7g to 7f`, `LOGIN: name alice, password hidden, x1
    /// mode`. Text from the peer is written as it is (escape it for a
    /// terminal).
    pub fn describe(&self) -> impl core::fmt::Display + '_ {
        crate::describe::client_text(self)
    }
}

impl core::fmt::Display for X1Command<'_> {
    /// The wire line, without its LF.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        ClientMessage::X1(self.clone()).fmt(f)
    }
}

impl X1Command<'_> {
    /// The command in words (`%%WHO: list the players`); see
    /// [`ClientMessage::describe`].
    pub fn describe(&self) -> impl core::fmt::Display + '_ {
        crate::describe::x1_command_text(self)
    }
}
