//! The human reading of each message ([`ClientMessage::describe`],
//! [`ServerMessage::describe`], [`X1Command::describe`],
//! [`X1Reply::describe`], [`kifu::Item::describe`](crate::kifu::Item::describe)):
//! what `boardwire csa decode` prints for a line, in words. `Display` is the
//! wire line; this is the reading.

use alloc::string::{String, ToString};

use crate::kifu::Item;
use crate::message::{
    ClientMessage, EndReason, GameResult, ServerMessage, ServerSpecial, SpecialMove, SummaryLine,
    X1Command, X1Reply,
};
use crate::types::{Side, SidePreference};

fn side_word(side: Side) -> &'static str {
    match side {
        Side::Black => "sente (+)",
        Side::White => "gote (-)",
    }
}

fn preference_word(p: SidePreference) -> &'static str {
    p.side().map_or("either side (*)", side_word)
}

/// `sente FU 7g to 7f`, `gote drops KA on 5e` (piece after the move, as
/// CSA writes it; squares in USI form).
fn move_words(mv: &board_core::shogi::CsaMove) -> String {
    let side = match mv.color() {
        board_core::shogi::Color::Black => "sente",
        board_core::shogi::Color::White => "gote",
    };
    match mv.from() {
        Some(from) => alloc::format!("{side} {} {from} to {}", mv.piece(), mv.to()),
        None => alloc::format!("{side} drops {} on {}", mv.piece(), mv.to()),
    }
}

fn special_words(s: SpecialMove) -> &'static str {
    match s {
        SpecialMove::Toryo => "%TORYO: resign",
        SpecialMove::Kachi => "%KACHI: declare a win (jishogi)",
        SpecialMove::Chudan => "%CHUDAN: abort the game",
    }
}

/// A client line in words.
pub(crate) fn client_text(m: &ClientMessage<'_>) -> String {
    match m {
        ClientMessage::KeepAlive => "keep-alive (empty line)".into(),
        ClientMessage::Login { name, x1, .. } => alloc::format!(
            "LOGIN: name {name}, password hidden, {}",
            if *x1 { "x1 mode" } else { "CSA mode" }
        ),
        ClientMessage::Logout => "LOGOUT".into(),
        ClientMessage::Agree(None) => "AGREE: the offered game".into(),
        ClientMessage::Agree(Some(id)) => alloc::format!("AGREE: game {id}"),
        ClientMessage::Reject(None) => "REJECT: the offered game".into(),
        ClientMessage::Reject(Some(id)) => alloc::format!("REJECT: game {id}"),
        ClientMessage::Move { mv, comment } => {
            let mut s = alloc::format!("move {mv}: {}", move_words(mv));
            if let Some(c) = comment {
                s.push_str(&alloc::format!(", comment \"{c}\""));
            }
            s
        }
        ClientMessage::Special(s) => special_words(*s).into(),
        ClientMessage::X1(c) => x1_command_text(c),
        ClientMessage::Unrecognised(b) => unrecognised(b),
    }
}

/// A line of no known kind, its bytes escaped.
fn unrecognised(b: &[u8]) -> String {
    alloc::format!("unrecognised: {}", crate::types::Escaped(b))
}

pub(crate) fn x1_command_text(c: &X1Command<'_>) -> String {
    match c {
        X1Command::Who => "%%WHO: list the players".into(),
        X1Command::Chat(t) => alloc::format!("%%CHAT: \"{t}\""),
        X1Command::Game(None) => "%%GAME: stop waiting".into(),
        X1Command::Game(Some(r)) => alloc::format!(
            "%%GAME: wait for game {} as {}",
            r.name,
            preference_word(r.side)
        ),
        X1Command::Challenge(r) => alloc::format!(
            "%%CHALLENGE: game {} as {}",
            r.name,
            preference_word(r.side)
        ),
        X1Command::List => "%%LIST: list the games".into(),
        X1Command::Show(id) => alloc::format!("%%SHOW: game {id}"),
        X1Command::MonitorOn(id) => alloc::format!("%%MONITORON: watch game {id}"),
        X1Command::MonitorOff(id) => alloc::format!("%%MONITOROFF: stop watching game {id}"),
        X1Command::Monitor2On(id) => alloc::format!("%%MONITOR2ON: watch game {id}"),
        X1Command::Monitor2Off(id) => alloc::format!("%%MONITOR2OFF: stop watching game {id}"),
        X1Command::Rating => "%%RATING: list the ratings".into(),
        X1Command::SetBuoy { name, moves, count } => alloc::format!(
            "%%SETBUOY: buoy {name}, moves {moves}, {}",
            match count {
                Some(n) => alloc::format!("{n} game(s)"),
                None => "count not given (1)".into(),
            }
        ),
        X1Command::DeleteBuoy(name) => alloc::format!("%%DELETEBUOY: buoy {name}"),
        X1Command::GetBuoyCount(name) => alloc::format!("%%GETBUOYCOUNT: buoy {name}"),
        X1Command::Version => "%%VERSION".into(),
        X1Command::Help => "%%HELP".into(),
        X1Command::Fork { game_id, buoy, nth } => alloc::format!(
            "%%FORK: game {game_id}, buoy {}, {}",
            buoy.as_ref()
                .map_or("chosen by the server".into(), |b| b.to_string()),
            nth.map_or("all moves but the last".into(), |n| alloc::format!(
                "first {n} moves"
            ))
        ),
    }
}

fn time_words(time: Option<crate::types::MoveTime>) -> String {
    time.map_or(String::new(), |t| alloc::format!(", {t} s"))
}

/// A server line in words.
pub(crate) fn server_text(m: &ServerMessage<'_>) -> String {
    match m {
        ServerMessage::KeepAlive => "keep-alive (empty line)".into(),
        ServerMessage::LoginOk(name) => alloc::format!("LOGIN OK: logged in as {name}"),
        ServerMessage::LoginIncorrect => "LOGIN incorrect: login refused".into(),
        ServerMessage::LoginUsage => "LOGIN usage hint: the LOGIN line was malformed".into(),
        ServerMessage::AlreadyConnected(name) => {
            alloc::format!("login refused: {name} is already connected")
        }
        ServerMessage::LogoutCompleted => "LOGOUT completed".into(),
        ServerMessage::Summary(s) => match s {
            SummaryLine::Begin(b) => alloc::format!("Game_Summary: BEGIN {}", b.as_str()),
            SummaryLine::End(b) => alloc::format!("Game_Summary: END {}", b.as_str()),
            SummaryLine::Field { key, value } => {
                alloc::format!("Game_Summary: {} = \"{value}\"", key.as_str())
            }
            SummaryLine::Position(p) => {
                alloc::format!("Game_Summary: position line {}", p.as_str())
            }
            SummaryLine::SideToMove(side) => {
                alloc::format!("Game_Summary: {} to move", side_word(*side))
            }
        },
        ServerMessage::Start(id) => alloc::format!("START: game {id}"),
        ServerMessage::Reject { game_id, by } => alloc::format!("REJECT: game {game_id} by {by}"),
        ServerMessage::Move { mv, time } => {
            alloc::format!("move {mv}: {}{}", move_words(mv), time_words(*time))
        }
        ServerMessage::Special { special, time } => {
            let what = match special {
                ServerSpecial::Toryo => "%TORYO: resigned",
                ServerSpecial::Kachi => "%KACHI: declared a win (jishogi)",
            };
            alloc::format!("{what}{}", time_words(*time))
        }
        ServerMessage::Reason(r) => alloc::format!(
            "{}: game over, {}",
            r.as_str(),
            match r {
                EndReason::Resign => "resignation",
                EndReason::TimeUp => "time up",
                EndReason::IllegalMove => "illegal move",
                EndReason::Sennichite => "repetition (sennichite)",
                EndReason::OuteSennichite => "perpetual check (oute sennichite)",
                EndReason::Jishogi => "a valid win declaration (jishogi)",
                EndReason::MaxMoves => "move limit reached",
                EndReason::Chudan => "interrupted",
                EndReason::IllegalAction => "illegal action",
            }
        ),
        ServerMessage::GameResult(o) => alloc::format!(
            "{}: {}",
            o.as_str(),
            match o {
                GameResult::Win => "the receiver won",
                GameResult::Lose => "the receiver lost",
                GameResult::Draw => "draw",
                GameResult::Censored => "no result (move limit)",
            }
        ),
        ServerMessage::X1(r) => x1_reply_text(r),
        ServerMessage::Unrecognised(b) => unrecognised(b),
    }
}

pub(crate) fn x1_reply_text(r: &X1Reply<'_>) -> String {
    match r {
        X1Reply::LoginOk => "##[LOGIN]: logged in, x1 mode".into(),
        X1Reply::Ok(tag) => alloc::format!("##[{}]: +OK (end of reply)", tag.as_str()),
        X1Reply::Who(w) => {
            let mut s = alloc::format!(
                "##[WHO]: player {}, protocol {}, {}",
                w.name.as_str(),
                w.protocol.as_str(),
                w.status.as_str()
            );
            if let Some((game, side)) = &w.game {
                s.push_str(&alloc::format!(
                    ", game {} side {}",
                    game.as_str(),
                    side.as_str()
                ));
            }
            s
        }
        X1Reply::Chat { sender, text } => alloc::format!("##[CHAT]: from {sender}: \"{text}\""),
        X1Reply::List(id) => alloc::format!("##[LIST]: game {id}"),
        X1Reply::Show(t) => alloc::format!("##[SHOW]: {t}"),
        X1Reply::Monitor { game_id, line } => alloc::format!("##[MONITOR]: game {game_id}: {line}"),
        X1Reply::Monitor2 { game_id, line } => {
            alloc::format!("##[MONITOR2]: game {game_id}: {line}")
        }
        X1Reply::Rating(t) => alloc::format!("##[RATING]: {t}"),
        X1Reply::BuoyCount(-1) => "##[GETBUOYCOUNT]: no such buoy (-1)".into(),
        X1Reply::BuoyCount(n) => alloc::format!("##[GETBUOYCOUNT]: {n} game(s) left"),
        X1Reply::Version(t) => alloc::format!("##[VERSION]: {t}"),
        X1Reply::Help(t) => alloc::format!("##[HELP]: {t}"),
        X1Reply::Error(t) => alloc::format!("##[ERROR]: {t}"),
        X1Reply::Other { tag, text } => alloc::format!("##[{}]: {text}", tag.as_str()),
    }
}

/// A kifu statement: its kind and its reading.
pub(crate) fn kifu_text(item: &Item<'_>) -> (&'static str, String) {
    let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    match item {
        Item::Comment(c) => (
            "comment",
            alloc::format!("comment: {}", lossy(c.as_bytes())),
        ),
        Item::Name { side, name } => (
            "name",
            alloc::format!("name of {}: {}", side_word(*side), lossy(name)),
        ),
        Item::Info { key, value } => ("info", alloc::format!("${key}: {}", lossy(value))),
        Item::Version(v) => ("statement", alloc::format!("version {v}")),
        Item::Position(p) => ("statement", alloc::format!("position line {p}")),
        Item::SideToMove(side) => ("statement", alloc::format!("{} to move", side_word(*side))),
        Item::Move(mv) => ("statement", alloc::format!("move {mv}: {}", move_words(mv))),
        Item::Time(t) => ("statement", alloc::format!("time {t} s")),
        Item::Special(s) => ("statement", alloc::format!("special {}", s.as_str())),
        Item::Blank => ("statement", "blank line".into()),
    }
}
