//! Lines a server sends to a client ([`spec::csa`](crate::spec::csa): *Plain CSA mode*,
//! "Game_Summary", "Agreement -> game", "Moves", "Results", "Extended mode
//! (x1)").

use crate::sink::Sink as _;
use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::fmt;

use crate::error::DecodeError;
use crate::moves::CsaMove;
use crate::types::{GameId, MoveTime, Side, Tag, Text, UserName, Word};

/// Why a game ended: the first result line ([`spec::csa`](crate::spec::csa), *Results*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// `#RESIGN`.
    Resign,
    /// `#TIME_UP`.
    TimeUp,
    /// `#ILLEGAL_MOVE`.
    IllegalMove,
    /// `#SENNICHITE` (fourfold repetition, draw).
    Sennichite,
    /// `#OUTE_SENNICHITE` (perpetual check; the checking side loses).
    OuteSennichite,
    /// `#JISHOGI` (a valid `%KACHI` declaration).
    Jishogi,
    /// `#MAX_MOVES` (move limit reached).
    MaxMoves,
    /// `#CHUDAN` (game interrupted).
    Chudan,
    /// `#ILLEGAL_ACTION` (seen in clients).
    IllegalAction,
}

impl EndReason {
    /// Every reason, in the order of [`spec::csa`](crate::spec::csa), *Results*.
    pub const ALL: [EndReason; 9] = [
        EndReason::Resign,
        EndReason::TimeUp,
        EndReason::IllegalMove,
        EndReason::Sennichite,
        EndReason::OuteSennichite,
        EndReason::Jishogi,
        EndReason::MaxMoves,
        EndReason::Chudan,
        EndReason::IllegalAction,
    ];

    /// The wire text, e.g. `#RESIGN`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Resign => "#RESIGN",
            EndReason::TimeUp => "#TIME_UP",
            EndReason::IllegalMove => "#ILLEGAL_MOVE",
            EndReason::Sennichite => "#SENNICHITE",
            EndReason::OuteSennichite => "#OUTE_SENNICHITE",
            EndReason::Jishogi => "#JISHOGI",
            EndReason::MaxMoves => "#MAX_MOVES",
            EndReason::Chudan => "#CHUDAN",
            EndReason::IllegalAction => "#ILLEGAL_ACTION",
        }
    }
}

/// The outcome for the receiving player: the second result line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `#WIN`.
    Win,
    /// `#LOSE`.
    Lose,
    /// `#DRAW`.
    Draw,
    /// `#CENSORED` (move limit: no result).
    Censored,
}

impl GameResult {
    /// Every outcome.
    pub const ALL: [GameResult; 4] = [
        GameResult::Win,
        GameResult::Lose,
        GameResult::Draw,
        GameResult::Censored,
    ];

    /// The wire text, e.g. `#WIN`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Win => "#WIN",
            GameResult::Lose => "#LOSE",
            GameResult::Draw => "#DRAW",
            GameResult::Censored => "#CENSORED",
        }
    }
}

/// A special move echoed by the server (`%TORYO`, `%KACHI`), optionally with
/// the time charged (`%KACHI,T0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServerSpecial {
    /// `%TORYO`.
    Toryo,
    /// `%KACHI`.
    Kachi,
}

impl ServerSpecial {
    /// The wire text.
    pub fn as_str(self) -> &'static str {
        match self {
            ServerSpecial::Toryo => "%TORYO",
            ServerSpecial::Kachi => "%KACHI",
        }
    }
}

/// Text of a `Game_Summary` line as the decoder found it: only the decoder
/// makes these (so every value re-encodes to the line it came from).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Raw<'a>(pub(crate) Cow<'a, str>);

impl Raw<'_> {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The same value with owned text.
    pub fn into_owned(self) -> Raw<'static> {
        Raw(Cow::Owned(self.0.into_owned()))
    }
}

/// One line of a `Game_Summary` block, decoded without context (the block
/// reader [`crate::message::GameSummaryReader`] assembles them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SummaryLine<'a> {
    /// `BEGIN <block>`: `Game_Summary`, `Time`, `Time+`, `Time-`, `Position`.
    Begin(Raw<'a>),
    /// `END <block>`.
    End(Raw<'a>),
    /// `<Key>:<Value>`, e.g. `Protocol_Version:1.2`, `Name+:alice`.
    Field {
        /// The key (a letter, then letters, digits, `_`, optionally ending in
        /// `+`/`-`).
        key: Raw<'a>,
        /// The value, everything after the first `:`.
        value: Text<'a>,
    },
    /// A position line: `P1`..`P9` row, `PI...`, `P+`/`P-` hand (checked
    /// against the board by the block reader).
    Position(Raw<'a>),
    /// `+` or `-` alone: the side to move in the Position block.
    SideToMove(Side),
}

/// One entry of a `%%WHO` reply: `##[WHO] <name> <protocol> <status> [<game> <side>]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhoEntry<'a> {
    /// Player as shown by the server (shogi-server shows `name+<md5 hash>`;
    /// ours shows the login name only).
    pub name: Word<'a>,
    /// Protocol word: `x1` or `CSA`.
    pub protocol: Word<'a>,
    /// State, e.g. `connected`, `game_waiting`, `game`.
    pub status: Word<'a>,
    /// Game name and side word when the player waits or plays.
    pub game: Option<(Word<'a>, Word<'a>)>,
}

impl WhoEntry<'_> {
    /// The same value with owned text.
    pub fn into_owned(self) -> WhoEntry<'static> {
        WhoEntry {
            name: self.name.into_owned(),
            protocol: self.protocol.into_owned(),
            status: self.status.into_owned(),
            game: self.game.map(|(g, s)| (g.into_owned(), s.into_owned())),
        }
    }
}

/// An x1 reply, `##[TAG] ...` ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum X1Reply<'a> {
    /// `##[LOGIN] +OK x1`.
    LoginOk,
    /// `##[<TAG>] +OK`: the terminator of a multi-line reply (or the whole
    /// reply of `%%SETBUOY`/`%%DELETEBUOY`).
    Ok(Tag<'a>),
    /// `##[WHO] <entry>`.
    Who(WhoEntry<'a>),
    /// `##[CHAT][<sender>] <text>`.
    Chat {
        /// Sender login name.
        sender: UserName<'a>,
        /// UTF-8 text.
        text: Text<'a>,
    },
    /// `##[LIST] <game_id>`.
    List(GameId<'a>),
    /// `##[SHOW] <line>`: one line of the game's Game_Summary-like text.
    Show(Text<'a>),
    /// `##[MONITOR][<game_id>] <line>` (`+OK` ends one update).
    Monitor {
        /// The game.
        game_id: GameId<'a>,
        /// The line.
        line: Text<'a>,
    },
    /// `##[MONITOR2][<game_id>] <line>` (`+OK` ends one update).
    Monitor2 {
        /// The game.
        game_id: GameId<'a>,
        /// The line.
        line: Text<'a>,
    },
    /// `##[RATING] <player> <rate> <last modified>`; shogi-server writes
    /// `##[RATING] <name> \t <rate> @YYYY-MM-DD`, with a TAB, which
    /// [`RatingText`](crate::types::RatingText) allows.
    Rating(crate::types::RatingText<'a>),
    /// `##[GETBUOYCOUNT] <n>` (`-1` when the buoy does not exist).
    BuoyCount(i64),
    /// `##[VERSION] <text>`.
    Version(Text<'a>),
    /// `##[HELP] <text>`.
    Help(Text<'a>),
    /// `##[ERROR] <text>`.
    Error(Text<'a>),
    /// Any other tag, kept verbatim.
    Other {
        /// The tag (letters, digits, `_`).
        tag: Tag<'a>,
        /// The text after `] `.
        text: Text<'a>,
    },
}

/// One line from the server, decoded (see [`crate::decode::decode`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerMessage<'a> {
    /// The empty line (keep-alive answer).
    KeepAlive,
    /// `LOGIN:<name> OK`.
    LoginOk(UserName<'a>),
    /// `LOGIN:incorrect`.
    LoginIncorrect,
    /// `type 'LOGIN name password' or 'LOGIN name password x1'`: shogi-server's
    /// free-text hint after some malformed `LOGIN` lines (transcript §4).
    LoginUsage,
    /// `username <name> is already connected` (transcript §4b).
    AlreadyConnected(UserName<'a>),
    /// `LOGOUT:completed`.
    LogoutCompleted,
    /// A `Game_Summary` block line.
    Summary(SummaryLine<'a>),
    /// `START:<game_id>`.
    Start(GameId<'a>),
    /// `REJECT:<game_id> by <name>` (`name` may be `the Server (timed out)`).
    Reject {
        /// The game.
        game_id: GameId<'a>,
        /// Who rejected (free text).
        by: Text<'a>,
    },
    /// A move confirmation `+7776FU,T12` (time optional on input).
    Move {
        /// The move.
        mv: CsaMove,
        /// Time charged (`,T<n>`), if present.
        time: Option<MoveTime>,
    },
    /// `%TORYO` / `%KACHI`, optionally `,T<n>`.
    Special {
        /// Which.
        special: ServerSpecial,
        /// Time charged, if present.
        time: Option<MoveTime>,
    },
    /// `#RESIGN`, `#TIME_UP`, ...
    Reason(EndReason),
    /// `#WIN`, `#LOSE`, `#DRAW`, `#CENSORED`.
    GameResult(GameResult),
    /// An x1 reply.
    X1(X1Reply<'a>),
    /// Any other line (kept verbatim).
    Unrecognised(Cow<'a, [u8]>),
}

use crate::parse::LOGIN_USAGE;

/// Decodes one server line (terminator already removed).
///
/// Context-free: `Game_Summary` lines decode to [`ServerMessage::Summary`];
/// a move line inside the Position block decodes as [`ServerMessage::Move`]
/// (the block reader knows it is a move already played). Never allocates.
///
/// ```
/// use csa_protocol::message::ServerMessage;
/// use csa_protocol::types::MoveTime;
/// # fn decode_server_line(l: &[u8]) -> Result<ServerMessage<'_>, csa_protocol::error::DecodeError> { csa_protocol::decode::decode(l) }
///
/// let ServerMessage::Move { mv, time } = decode_server_line(b"+7776FU,T12").unwrap() else { panic!() };
/// assert_eq!((mv.to_string(), time), ("+7776FU".to_string(), Some(MoveTime::from_secs(12))));
/// ```
///
/// # Errors
/// [`DecodeError`] for a line that starts like a known reply but is
/// malformed (e.g. `LOGIN:` with a bad name, `##[GETBUOYCOUNT] x`).
pub fn decode_server_line(line: &[u8]) -> Result<ServerMessage<'_>, DecodeError> {
    crate::parse::decode_server_line(line)
}

impl ServerMessage<'_> {
    /// Appends the line and its LF terminator to `out`. Never fails.
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
            ServerMessage::KeepAlive => {}
            ServerMessage::LoginOk(n) => {
                out.put(b"LOGIN:");
                out.put_str(n.as_str());
                out.put(b" OK");
            }
            ServerMessage::LoginIncorrect => out.put(b"LOGIN:incorrect"),
            ServerMessage::LoginUsage => out.put(LOGIN_USAGE),
            ServerMessage::AlreadyConnected(n) => {
                out.put(b"username ");
                out.put_str(n.as_str());
                out.put(b" is already connected");
            }
            ServerMessage::LogoutCompleted => out.put(b"LOGOUT:completed"),
            ServerMessage::Summary(s) => match s {
                SummaryLine::Begin(b) => {
                    out.put(b"BEGIN ");
                    out.put_str(b.as_str());
                }
                SummaryLine::End(b) => {
                    out.put(b"END ");
                    out.put_str(b.as_str());
                }
                SummaryLine::Field { key, value } => {
                    out.put_str(key.as_str());
                    out.push(b':');
                    out.put_str(value.as_str());
                }
                SummaryLine::Position(p) => out.put_str(p.as_str()),
                SummaryLine::SideToMove(s) => out.push(s.sign() as u8),
            },
            ServerMessage::Start(id) => {
                out.put(b"START:");
                out.put_str(id.as_str());
            }
            ServerMessage::Reject { game_id, by } => {
                out.put(b"REJECT:");
                out.put_str(game_id.as_str());
                out.put(b" by ");
                out.put_str(by.as_str());
            }
            ServerMessage::Move { mv, time } => {
                out.put(&mv.to_bytes());
                put_time(*time, out);
            }
            ServerMessage::Special { special, time } => {
                out.put_str(special.as_str());
                put_time(*time, out);
            }
            ServerMessage::Reason(r) => out.put_str(r.as_str()),
            ServerMessage::GameResult(o) => out.put_str(o.as_str()),
            ServerMessage::X1(r) => encode_x1_reply(r, out),
            ServerMessage::Unrecognised(b) => out.put(b),
        }
    }
}

/// `,T<seconds>` when a time is given.
#[inline]
fn put_time(time: Option<MoveTime>, out: &mut Vec<u8>) {
    if let Some(t) = time {
        out.put(b",T");
        t.put_to(out);
    }
}

fn encode_x1_reply(r: &X1Reply<'_>, out: &mut Vec<u8>) {
    // `##[TAG]`, then `[sub]` for the replies that have one.
    let head = |out: &mut Vec<u8>, tag: &str| {
        out.put(b"##[");
        out.put_str(tag);
        out.push(b']');
    };
    let sub = |out: &mut Vec<u8>, s: &str| {
        out.push(b'[');
        out.put_str(s);
        out.push(b']');
    };
    head(out, r.tag());
    match r {
        X1Reply::LoginOk => out.put(b" +OK x1"),
        X1Reply::Ok(_) => out.put(b" +OK"),
        X1Reply::Who(w) => {
            for word in [&w.name, &w.protocol, &w.status] {
                out.push(b' ');
                out.put_str(word.as_str());
            }
            if let Some((g, s)) = &w.game {
                out.push(b' ');
                out.put_str(g.as_str());
                out.push(b' ');
                out.put_str(s.as_str());
            }
        }
        X1Reply::Chat { sender, text } => {
            sub(out, sender.as_str());
            out.push(b' ');
            out.put_str(text.as_str());
        }
        X1Reply::Monitor { game_id, line } | X1Reply::Monitor2 { game_id, line } => {
            sub(out, game_id.as_str());
            out.push(b' ');
            out.put_str(line.as_str());
        }
        X1Reply::BuoyCount(n) => {
            out.push(b' ');
            out.put_i64(*n);
        }
        X1Reply::List(t) => {
            out.push(b' ');
            out.put_str(t.as_str());
        }
        X1Reply::Rating(t) => {
            out.push(b' ');
            out.put_str(t.as_str());
        }
        X1Reply::Show(t)
        | X1Reply::Version(t)
        | X1Reply::Help(t)
        | X1Reply::Error(t)
        | X1Reply::Other { text: t, .. } => {
            out.push(b' ');
            out.put_str(t.as_str());
        }
    }
}

impl SummaryLine<'_> {
    /// The same value with owned text.
    pub fn into_owned(self) -> SummaryLine<'static> {
        match self {
            SummaryLine::Begin(b) => SummaryLine::Begin(b.into_owned()),
            SummaryLine::End(b) => SummaryLine::End(b.into_owned()),
            SummaryLine::Field { key, value } => SummaryLine::Field {
                key: key.into_owned(),
                value: value.into_owned(),
            },
            SummaryLine::Position(p) => SummaryLine::Position(p.into_owned()),
            SummaryLine::SideToMove(s) => SummaryLine::SideToMove(s),
        }
    }
}

impl ServerMessage<'_> {
    /// The line with its LF, as a new vector.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode(&mut v);
        v
    }

    /// The same value with owned text.
    pub fn into_owned(self) -> ServerMessage<'static> {
        match self {
            ServerMessage::KeepAlive => ServerMessage::KeepAlive,
            ServerMessage::LoginOk(n) => ServerMessage::LoginOk(n.into_owned()),
            ServerMessage::LoginIncorrect => ServerMessage::LoginIncorrect,
            ServerMessage::LoginUsage => ServerMessage::LoginUsage,
            ServerMessage::AlreadyConnected(n) => ServerMessage::AlreadyConnected(n.into_owned()),
            ServerMessage::LogoutCompleted => ServerMessage::LogoutCompleted,
            ServerMessage::Summary(s) => ServerMessage::Summary(s.into_owned()),
            ServerMessage::Start(id) => ServerMessage::Start(id.into_owned()),
            ServerMessage::Reject { game_id, by } => ServerMessage::Reject {
                game_id: game_id.into_owned(),
                by: by.into_owned(),
            },
            ServerMessage::Move { mv, time } => ServerMessage::Move { mv, time },
            ServerMessage::Special { special, time } => ServerMessage::Special { special, time },
            ServerMessage::Reason(r) => ServerMessage::Reason(r),
            ServerMessage::GameResult(r) => ServerMessage::GameResult(r),
            ServerMessage::X1(r) => ServerMessage::X1(r.into_owned()),
            ServerMessage::Unrecognised(b) => {
                ServerMessage::Unrecognised(Cow::Owned(b.into_owned()))
            }
        }
    }
}

/// The wire line, without its LF (the keep-alive: empty; an unrecognised
/// line as received), so that decoding `to_string()` gives the message
/// back. Bytes that are not UTF-8 (a raw move comment, an `Unrecognised`
/// line) are written as U+FFFD: the wire bytes are `to_line()`. What a person reads: [`ServerMessage::describe`]
/// (in words) or [`ServerMessage::shown`] (the line, escaped).
///
/// ```
/// use csa_protocol::decode::decode;
/// use csa_protocol::message::ServerMessage;
///
/// let m = decode::<ServerMessage>(b"+7776FU,T12").unwrap();
/// assert_eq!(m.to_string(), "+7776FU,T12");
/// assert_eq!(m.describe().to_string(), "move +7776FU: sente FU 7g to 7f, 12 s");
/// ```
impl fmt::Display for ServerMessage<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::types::write_lossy(f, &self.to_line())
    }
}

impl ServerMessage<'_> {
    /// The line as a log or transcript shows it: the wire line with control
    /// bytes and bytes that are not UTF-8 as `\xNN`
    /// ([`Escaped`](crate::types::Escaped)); an unrecognised line reads
    /// `unrecognised: <line>` (a server line holds no secret).
    pub fn shown(&self) -> impl fmt::Display + '_ {
        struct Shown<'m, 'a>(&'m ServerMessage<'a>);
        impl fmt::Display for Shown<'_, '_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.0 {
                    ServerMessage::KeepAlive => Ok(()), // the empty line
                    ServerMessage::Unrecognised(b) => {
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
    /// +7776FU: sente FU 7g to 7f, 12 s`, `#RESIGN: game over,
    /// resignation`. Text from the peer is written as it is (escape it for
    /// a terminal).
    pub fn describe(&self) -> impl fmt::Display + '_ {
        crate::describe::server_text(self)
    }
}

impl fmt::Display for X1Reply<'_> {
    /// The wire line, without its LF.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        ServerMessage::X1(self.clone()).fmt(f)
    }
}

impl fmt::Display for SummaryLine<'_> {
    /// The wire line, without its LF.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        ServerMessage::Summary(self.clone()).fmt(f)
    }
}

impl X1Reply<'_> {
    /// The reply in words (`##[LIST]: game <id>`); see
    /// [`ServerMessage::describe`].
    pub fn describe(&self) -> impl fmt::Display + '_ {
        crate::describe::x1_reply_text(self)
    }
}

impl X1Reply<'_> {
    /// The same value with owned text.
    pub fn into_owned(self) -> X1Reply<'static> {
        let r = self;
        match r {
            X1Reply::LoginOk => X1Reply::LoginOk,
            X1Reply::Ok(t) => X1Reply::Ok(t.into_owned()),
            X1Reply::Who(w) => X1Reply::Who(w.into_owned()),
            X1Reply::Chat { sender, text } => X1Reply::Chat {
                sender: sender.into_owned(),
                text: text.into_owned(),
            },
            X1Reply::List(g) => X1Reply::List(g.into_owned()),
            X1Reply::Show(t) => X1Reply::Show(t.into_owned()),
            X1Reply::Monitor { game_id, line } => X1Reply::Monitor {
                game_id: game_id.into_owned(),
                line: line.into_owned(),
            },
            X1Reply::Monitor2 { game_id, line } => X1Reply::Monitor2 {
                game_id: game_id.into_owned(),
                line: line.into_owned(),
            },
            X1Reply::Rating(t) => X1Reply::Rating(t.into_owned()),
            X1Reply::BuoyCount(n) => X1Reply::BuoyCount(n),
            X1Reply::Version(t) => X1Reply::Version(t.into_owned()),
            X1Reply::Help(t) => X1Reply::Help(t.into_owned()),
            X1Reply::Error(t) => X1Reply::Error(t.into_owned()),
            X1Reply::Other { tag, text } => X1Reply::Other {
                tag: tag.into_owned(),
                text: text.into_owned(),
            },
        }
    }
}

impl X1Reply<'_> {
    /// The reply's tag, e.g. `WHO` for `##[WHO] ...`.
    pub fn tag(&self) -> &str {
        match self {
            X1Reply::LoginOk => "LOGIN",
            X1Reply::Ok(t) => t.as_str(),
            X1Reply::Who(_) => "WHO",
            X1Reply::Chat { .. } => "CHAT",
            X1Reply::List(_) => "LIST",
            X1Reply::Show(_) => "SHOW",
            X1Reply::Monitor { .. } => "MONITOR",
            X1Reply::Monitor2 { .. } => "MONITOR2",
            X1Reply::Rating(_) => "RATING",
            X1Reply::BuoyCount(_) => "GETBUOYCOUNT",
            X1Reply::Version(_) => "VERSION",
            X1Reply::Help(_) => "HELP",
            X1Reply::Error(_) => "ERROR",
            X1Reply::Other { tag, .. } => tag.as_str(),
        }
    }

    /// The game id of `##[MONITOR][<id>]` and `##[MONITOR2][<id>]`.
    pub fn game_id(&self) -> Option<&GameId<'_>> {
        match self {
            X1Reply::Monitor { game_id, .. } | X1Reply::Monitor2 { game_id, .. } => Some(game_id),
            _ => None,
        }
    }

    /// `true` for a line of a reply that may have several lines
    /// (`%%WHO`, `%%LIST`, `%%SHOW`, the monitors, `%%RATING`,
    /// `%%GETBUOYCOUNT`, `%%VERSION`, `%%FORK`: ended by `##[<TAG>] +OK`,
    /// [`spec::csa`](crate::spec::csa), *Extended mode (x1)*).
    pub fn is_multi_line(&self) -> bool {
        matches!(
            self,
            X1Reply::Who(_)
                | X1Reply::List(_)
                | X1Reply::Show(_)
                | X1Reply::Monitor { .. }
                | X1Reply::Monitor2 { .. }
                | X1Reply::Rating(_)
                | X1Reply::BuoyCount(_)
                | X1Reply::Version(_)
                | X1Reply::Other { .. }
        )
    }

    /// `true` for the `+OK` line that ends a multi-line reply
    /// (`##[WHO] +OK`, `##[MONITOR2][<id>] +OK`).
    pub fn is_end(&self) -> bool {
        match self {
            X1Reply::Ok(_) => true,
            X1Reply::Monitor { line, .. } | X1Reply::Monitor2 { line, .. } => {
                line.as_str() == "+OK"
            }
            _ => false,
        }
    }

    /// The text after the tag (and the `[<id>]` of the monitors): what a
    /// transcript shows of each line of a multi-line reply.
    pub fn body(&self) -> alloc::string::String {
        use alloc::string::ToString;
        match self {
            X1Reply::LoginOk => "+OK x1".into(),
            X1Reply::Ok(_) => "+OK".into(),
            X1Reply::Who(w) => {
                let mut s = alloc::format!("{} {} {}", w.name, w.protocol, w.status);
                if let Some((g, sd)) = &w.game {
                    s.push_str(&alloc::format!(" {g} {sd}"));
                }
                s
            }
            X1Reply::Chat { text, .. } => text.to_string(),
            X1Reply::List(id) => id.to_string(),
            X1Reply::Rating(t) => t.to_string(),
            X1Reply::Show(t) | X1Reply::Version(t) | X1Reply::Help(t) | X1Reply::Error(t) => {
                t.to_string()
            }
            X1Reply::Monitor { line, .. } | X1Reply::Monitor2 { line, .. } => line.to_string(),
            X1Reply::BuoyCount(n) => n.to_string(),
            X1Reply::Other { text, .. } => text.to_string(),
        }
    }
}
