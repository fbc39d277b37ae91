//! Known-answer tests from the examples in the spec note spec/csa.md
//! (*Plain CSA mode*, *Game_Summary*, *Agreement -> game*, *Moves*,
//! *Results*, *Extended mode (x1), shogi-server*; they come from the CSA
//! protocol pages and shogi-server's documentation), run through
//! decode -> expected value -> encode -> same bytes -> decode -> same value;
//! and proptest round trips.

#[path = "common/strategies.rs"]
mod strategies;

use csa_protocol::decode::decode;
use csa_protocol::error::{Expected, Problem, SummaryKey, SummarySection, ValueForm};
use csa_protocol::message::*;
use csa_protocol::types::*;
use proptest::prelude::*;

fn mv(s: &str) -> CsaMove {
    CsaMove::parse(s.as_bytes()).unwrap()
}

/// A line type of this crate: decoded with `decode`, encoded with
/// `to_line` (no terminator) and `encode` (with the LF).
trait Line<'a>:
    csa_protocol::decode::Decode<'a, Error = csa_protocol::error::DecodeError>
    + PartialEq
    + std::fmt::Debug
    + Clone
{
    fn line(&self) -> Vec<u8>;
    fn encoded(&self) -> Vec<u8>;
}

impl<'a> Line<'a> for ClientMessage<'a> {
    fn line(&self) -> Vec<u8> {
        self.to_line()
    }
    fn encoded(&self) -> Vec<u8> {
        self.to_bytes()
    }
}

impl<'a> Line<'a> for ServerMessage<'a> {
    fn line(&self) -> Vec<u8> {
        self.to_line()
    }
    fn encoded(&self) -> Vec<u8> {
        self.to_bytes()
    }
}

/// The known-answer check (the same helper name in every crate of the
/// family): `bytes` decodes to `value`, and `value` encodes to `bytes`
/// (plus its LF), which decodes to `value` again.
fn known_answer<'a, M: Line<'a>>(bytes: &'a [u8], value: M) {
    let text = String::from_utf8_lossy(bytes);
    let got: M = decode(bytes).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(got, value, "{text}");
    assert_eq!(value.line(), bytes, "{text}: re-encoding");
    let with_lf = value.encoded();
    assert_eq!(with_lf.last(), Some(&b'\n'));
    assert_eq!(&with_lf[..with_lf.len() - 1], bytes);
}

fn client_rt(line: &str, expected: ClientMessage<'_>) {
    known_answer(line.as_bytes(), expected.clone());
    assert_eq!(expected.clone().into_owned(), expected);
}

fn server_rt(line: &str, expected: ServerMessage<'_>) {
    known_answer(line.as_bytes(), expected.clone());
    assert_eq!(expected.clone().into_owned(), expected);
}

fn name(s: &str) -> UserName<'_> {
    UserName::new(s).unwrap()
}
fn gname(s: &str) -> GameName<'_> {
    GameName::new(s).unwrap()
}
fn gid(s: &str) -> GameId<'_> {
    GameId::new(s).unwrap()
}
fn text(s: &str) -> Text<'_> {
    Text::new(s).unwrap()
}

#[test]
fn client_lines_from_the_spec_note() {
    use ClientMessage as C;
    use X1Command as X;
    client_rt("", C::KeepAlive);
    client_rt(
        "LOGIN alice pass",
        C::Login {
            name: name("alice"),
            password: Password::new("pass").unwrap(),
            x1: false,
        },
    );
    client_rt(
        "LOGIN alice pass x1",
        C::Login {
            name: name("alice"),
            password: Password::new("pass").unwrap(),
            x1: true,
        },
    );
    client_rt("LOGOUT", C::Logout);
    client_rt("AGREE", C::Agree(None));
    client_rt(
        "AGREE 20040626025755",
        C::Agree(Some(gid("20040626025755"))),
    );
    client_rt("REJECT", C::Reject(None));
    client_rt(
        "REJECT b-1-a-20040626025755",
        C::Reject(Some(gid("b-1-a-20040626025755"))),
    );
    client_rt(
        "+7776FU",
        C::Move {
            mv: mv("+7776FU"),
            comment: None,
        },
    );
    client_rt(
        "+8822UM",
        C::Move {
            mv: mv("+8822UM"),
            comment: None,
        },
    );
    client_rt(
        "-0034KA",
        C::Move {
            mv: mv("-0034KA"),
            comment: None,
        },
    );
    client_rt(
        "+7776FU,'* 30 -3334FU",
        C::Move {
            mv: mv("+7776FU"),
            comment: Some(text("* 30 -3334FU").into()),
        },
    );
    // Comments that are not UTF-8 are kept byte for byte (shogi-server's
    // TC_functional sends `+2625FU,'` and "Japanese EUC" in EUC-JP; ISO-2022-JP
    // brings its ESC bytes).
    for comment in [
        &b"\xC6\xFC\xCB\xDC\xB8\xECEUC"[..],
        b"\x93\xfa\x96\x7b\x8c\xea",
        b"\x1b$BF|K\\8l\x1b(B",
    ] {
        let mut line = b"+2625FU,'".to_vec();
        line.extend_from_slice(comment);
        known_answer(
            &line,
            C::Move {
                mv: mv("+2625FU"),
                comment: Some(MoveComment::new(comment).unwrap()),
            },
        );
    }
    client_rt("%TORYO", C::Special(SpecialMove::Toryo));
    client_rt("%KACHI", C::Special(SpecialMove::Kachi));
    client_rt("%CHUDAN", C::Special(SpecialMove::Chudan));
    client_rt("%%WHO", C::X1(X::Who));
    client_rt(
        "%%CHAT hello everyone",
        C::X1(X::Chat(text("hello everyone"))),
    );
    client_rt("%%CHAT こんにちは", C::X1(X::Chat(text("こんにちは"))));
    for (s, side) in [
        ("+", SidePreference::Black),
        ("-", SidePreference::White),
        ("*", SidePreference::Any),
    ] {
        client_rt(
            &format!("%%GAME floodgate-300-10F {s}"),
            C::X1(X::Game(Some(GameRequest {
                name: gname("floodgate-300-10F"),
                side,
            }))),
        );
        client_rt(
            &format!("%%CHALLENGE testgame-300-0 {s}"),
            C::X1(X::Challenge(GameRequest {
                name: gname("testgame-300-0"),
                side,
            })),
        );
    }
    client_rt("%%GAME", C::X1(X::Game(None)));
    client_rt("%%LIST", C::X1(X::List));
    let id = "testevent+testgame-300-0+alice+bob+20261129145635";
    client_rt(&format!("%%SHOW {id}"), C::X1(X::Show(gid(id))));
    client_rt(&format!("%%MONITORON {id}"), C::X1(X::MonitorOn(gid(id))));
    client_rt(&format!("%%MONITOROFF {id}"), C::X1(X::MonitorOff(gid(id))));
    client_rt(&format!("%%MONITOR2ON {id}"), C::X1(X::Monitor2On(gid(id))));
    client_rt(
        &format!("%%MONITOR2OFF {id}"),
        C::X1(X::Monitor2Off(gid(id))),
    );
    client_rt("%%RATING", C::X1(X::Rating));
    // The origin document's buoy examples.
    let sb = decode::<ClientMessage>(b"%%SETBUOY buoy_foo-1500-0 +7776FU-3334FU").unwrap();
    let C::X1(X::SetBuoy {
        name: n,
        moves,
        count,
    }) = &sb
    else {
        panic!("{sb:?}")
    };
    assert_eq!(n.as_str(), "buoy_foo-1500-0");
    assert_eq!(
        moves.iter().collect::<Vec<_>>(),
        vec![mv("+7776FU"), mv("-3334FU")]
    );
    assert_eq!((moves.len(), *count), (2, None));
    assert_eq!(sb.to_line(), b"%%SETBUOY buoy_foo-1500-0 +7776FU-3334FU");
    client_rt(
        "%%SETBUOY buoy_test-300-0 +7776FU-3334FU 2",
        C::X1(X::SetBuoy {
            name: gname("buoy_test-300-0"),
            moves: BuoyMoves::new(&[mv("+7776FU"), mv("-3334FU")]).unwrap(),
            count: Some(2),
        }),
    );
    client_rt(
        "%%DELETEBUOY buoy_foo-1500-0",
        C::X1(X::DeleteBuoy(gname("buoy_foo-1500-0"))),
    );
    client_rt("%%DELETEBUOY hoge", C::X1(X::DeleteBuoy(gname("hoge"))));
    client_rt(
        "%%GETBUOYCOUNT buoy_foo-1500-0",
        C::X1(X::GetBuoyCount(gname("buoy_foo-1500-0"))),
    );
    client_rt("%%VERSION", C::X1(X::Version));
    client_rt("%%HELP", C::X1(X::Help));
    client_rt(
        &format!("%%FORK {id}"),
        C::X1(X::Fork {
            game_id: gid(id),
            buoy: None,
            nth: None,
        }),
    );
    client_rt(
        &format!("%%FORK {id} buoy_x-300-0 12"),
        C::X1(X::Fork {
            game_id: gid(id),
            buoy: Some(gname("buoy_x-300-0")),
            nth: Some(12),
        }),
    );
    client_rt(
        &format!("%%FORK {id} 12"),
        C::X1(X::Fork {
            game_id: gid(id),
            buoy: None,
            nth: Some(12),
        }),
    );
    // Not commands at all: kept verbatim.
    for line in ["HELLO", "login a b", "%%NOSUCH x", "%FOO", "* 30"] {
        client_rt(line, C::Unrecognised(line.as_bytes().into()));
    }
}

#[test]
fn client_errors_name_kind_field_and_offset() {
    let cases: &[(&str, &str, &str, usize, Problem)] = &[
        ("LOGIN", "LOGIN", "name", 5, Problem::Missing),
        // A cut-off move is the shared `Missing` at the line's end; a wrong
        // sign or square byte the shared `Invalid` (spec/csa.md, *Moves*).
        ("+7776F", "move line", "notation", 6, Problem::Missing),
        (
            "+7A76FU",
            "move line",
            "notation",
            2,
            Problem::Invalid {
                byte: b'A',
                expected: Expected::MoveOrigin,
            },
        ),
        (
            "+77X6FU",
            "move line",
            "notation",
            3,
            Problem::Invalid {
                byte: b'X',
                expected: Expected::MoveDestination,
            },
        ),
        ("LOGIN  a b", "LOGIN", "name", 6, Problem::Empty),
        ("LOGIN a", "LOGIN", "password", 7, Problem::Missing),
        // A mode word cut off after `x` (once an index out of bounds: the
        // differential against the pre-parts decoder found it).
        ("LOGIN a b x", "LOGIN", "mode", 11, Problem::Missing),
        (
            "LOGIN a b x y",
            "LOGIN",
            "mode",
            11,
            Problem::Invalid {
                byte: b' ',
                expected: Expected::X1,
            },
        ),
        (
            "LOGIN a b x1 ",
            "LOGIN",
            "trailing bytes",
            12,
            Problem::Trailing { count: 1 },
        ),
        (
            "LOGOUT now",
            "LOGOUT",
            "trailing bytes",
            6,
            Problem::Trailing { count: 4 },
        ),
        (
            "AGREE a b",
            "AGREE",
            "trailing bytes",
            7,
            Problem::Trailing { count: 2 },
        ),
        (
            "%%GAME g-1-0 x",
            "%%GAME",
            "side",
            13,
            Problem::Invalid {
                byte: b'x',
                expected: Expected::SidePreference,
            },
        ),
        ("%%GAME g-1-0", "%%GAME", "side", 12, Problem::Missing),
        (
            "%%CHALLENGE",
            "%%CHALLENGE",
            "game_name",
            11,
            Problem::Missing,
        ),
        ("%%SHOW", "%%SHOW", "game_id", 6, Problem::Missing),
        (
            // `[` and `]` are no game id bytes (as `GameId::new` says).
            "%%SHOW a[b]",
            "%%SHOW",
            "game_id",
            8,
            Problem::Invalid {
                byte: b'[',
                expected: Expected::GameIdByte,
            },
        ),
        (
            "%%SETBUOY b-1-0 +7776FU x",
            "%%SETBUOY",
            "count",
            24,
            Problem::Invalid {
                byte: b'x',
                expected: Expected::Digit,
            },
        ),
        (
            "%%SETBUOY b-1-0 +7776F",
            "%%SETBUOY",
            "moves",
            22,
            Problem::Missing,
        ),
        (
            "%%GETBUOYCOUNT",
            "%%GETBUOYCOUNT",
            "buoy_name",
            14,
            Problem::Missing,
        ),
        (
            "%%CHAT a\u{7f}",
            "%%CHAT",
            "text",
            8,
            Problem::Invalid {
                byte: 0x7f,
                expected: Expected::Text,
            },
        ),
        (
            "%%WHO x",
            "%%WHO",
            "trailing bytes",
            5,
            Problem::Trailing { count: 2 },
        ),
        (
            // The first byte that differs from `,'`.
            "+7776FU,T3",
            "move line",
            "comment",
            8,
            Problem::Invalid {
                byte: b'T',
                expected: Expected::Comment,
            },
        ),
        (
            "%TORYO now",
            "%TORYO",
            "trailing bytes",
            6,
            Problem::Trailing { count: 4 },
        ),
    ];
    for (line, kind, field, offset, problem) in cases {
        let e = decode::<ClientMessage>(line.as_bytes()).unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.field.as_str(), e.offset, e.problem),
            (*kind, *field, *offset, *problem),
            "{line}: {e}"
        );
    }
    // Invalid UTF-8 in chat text.
    let e = decode::<ClientMessage>(b"%%CHAT a\xff").unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.offset, e.problem),
        ("text", 8, Problem::NotUtf8)
    );
}

#[test]
fn server_lines_from_the_spec_note() {
    use ServerMessage as S;
    use X1Reply as R;
    server_rt("", S::KeepAlive);
    server_rt("LOGIN:alice OK", S::LoginOk(name("alice")));
    server_rt("LOGIN:incorrect", S::LoginIncorrect);
    server_rt("LOGOUT:completed", S::LogoutCompleted);
    server_rt(
        "type 'LOGIN name password' or 'LOGIN name password x1'",
        S::LoginUsage,
    );
    server_rt(
        "username alice is already connected",
        S::AlreadyConnected(name("alice")),
    );
    let id = "testevent+testgame-300-0+alice+bob+20261129145635";
    server_rt(&format!("START:{id}"), S::Start(gid(id)));
    server_rt(
        &format!("REJECT:{id} by bob"),
        S::Reject {
            game_id: gid(id),
            by: text("bob"),
        },
    );
    server_rt(
        &format!("REJECT:{id} by the Server (timed out)"),
        S::Reject {
            game_id: gid(id),
            by: text("the Server (timed out)"),
        },
    );
    server_rt(
        "+7776FU,T12",
        S::Move {
            mv: mv("+7776FU"),
            time: Some(MoveTime::from_secs(12)),
        },
    );
    server_rt(
        "-3334FU,T1.5",
        S::Move {
            mv: mv("-3334FU"),
            time: Some(MoveTime::from_millis(1500)),
        },
    );
    server_rt(
        "+7776FU",
        S::Move {
            mv: mv("+7776FU"),
            time: None,
        },
    );
    server_rt(
        "%TORYO",
        S::Special {
            special: ServerSpecial::Toryo,
            time: None,
        },
    );
    server_rt(
        "%KACHI",
        S::Special {
            special: ServerSpecial::Kachi,
            time: None,
        },
    );
    server_rt(
        "%KACHI,T0",
        S::Special {
            special: ServerSpecial::Kachi,
            time: Some(MoveTime::from_secs(0)),
        },
    );
    for r in EndReason::ALL {
        server_rt(r.as_str(), S::Reason(r));
    }
    for o in GameResult::ALL {
        server_rt(o.as_str(), S::GameResult(o));
    }
    assert_eq!(
        EndReason::ALL.map(EndReason::as_str),
        [
            "#RESIGN",
            "#TIME_UP",
            "#ILLEGAL_MOVE",
            "#SENNICHITE",
            "#OUTE_SENNICHITE",
            "#JISHOGI",
            "#MAX_MOVES",
            "#CHUDAN",
            "#ILLEGAL_ACTION"
        ]
    );
    server_rt("##[LOGIN] +OK x1", S::X1(R::LoginOk));
    let who = decode::<ServerMessage>(
        b"##[WHO] alice+1a1dc91c907325c69271ddf0c944bc72 x1 game testgame-300-0 +",
    )
    .unwrap();
    let S::X1(R::Who(w)) = &who else { panic!() };
    assert_eq!(
        (
            w.name.as_str(),
            w.protocol.as_str(),
            w.status.as_str(),
            w.game.as_ref().map(|(g, s)| (g.as_str(), s.as_str()))
        ),
        (
            "alice+1a1dc91c907325c69271ddf0c944bc72",
            "x1",
            "game",
            Some(("testgame-300-0", "+"))
        )
    );
    server_rt(
        "##[CHAT][carol] hello everyone",
        S::X1(R::Chat {
            sender: name("carol"),
            text: text("hello everyone"),
        }),
    );
    server_rt(
        "##[LIST] b-1-a-20040626025755",
        S::X1(R::List(gid("b-1-a-20040626025755"))),
    );
    server_rt(
        &format!("##[MONITOR][{id}] +7776FU,T0"),
        S::X1(R::Monitor {
            game_id: gid(id),
            line: text("+7776FU,T0"),
        }),
    );
    server_rt(
        &format!("##[MONITOR2][{id}] T9"),
        S::X1(R::Monitor2 {
            game_id: gid(id),
            line: text("T9"),
        }),
    );
    server_rt(
        &format!("##[MONITOR2][{id}] +OK"),
        S::X1(R::Monitor2 {
            game_id: gid(id),
            line: text("+OK"),
        }),
    );
    server_rt("##[GETBUOYCOUNT] 10", S::X1(R::BuoyCount(10)));
    server_rt("##[GETBUOYCOUNT] -1", S::X1(R::BuoyCount(-1)));
    server_rt(
        "##[FOO] bar baz",
        S::X1(R::Other {
            tag: Tag::new("FOO").unwrap(),
            text: text("bar baz"),
        }),
    );
    server_rt(
        "something else",
        S::Unrecognised(b"something else".as_slice().into()),
    );
    // x1 replies that end a command: `##[<tag>] +OK`.
    for tag in [
        "WHO",
        "LIST",
        "SHOW",
        "RATING",
        "SETBUOY",
        "DELETEBUOY",
        "GETBUOYCOUNT",
    ] {
        server_rt(
            &format!("##[{tag}] +OK"),
            S::X1(R::Ok(Tag::new(tag).unwrap())),
        );
    }
    // x1 replies of text: `##[<tag>] <text>`.
    type TextReply = fn(Text<'static>) -> X1Reply<'static>;
    let text_replies: [(&str, TextReply, &str); 8] = [
        ("SHOW", R::Show, "BEGIN Game_Summary"),
        ("SHOW", R::Show, "Remaining_Time+:1488"),
        ("SHOW", R::Show, "Last_Move:-1213FU,T1"),
        (
            "ERROR",
            R::Error,
            "you are not allowed to delete a buoy game that you did not set: buoy_foo-1500-0",
        ),
        ("ERROR", R::Error, "buoy game not found: hoge"),
        ("ERROR", R::Error, "can't find rival for g-1-0"),
        ("VERSION", R::Version, "Shogi Server revision 20201206"),
        ("HELP", R::Help, "available commands"),
    ];
    for (tag, reply, t) in text_replies {
        server_rt(&format!("##[{tag}] {t}"), S::X1(reply(text(t))));
    }
    // `##[RATING]` carries a `RatingText` (TAB allowed, see below).
    let t = "alice 1500.0 @2026-11-29";
    server_rt(
        &format!("##[RATING] {t}"),
        S::X1(R::Rating(RatingText::new(t).unwrap())),
    );
}

#[test]
fn rating_lines_as_shogi_server_writes_them_keep_their_tab() {
    // shogi-server's `RatingCommand`: `"##[RATING] %s \t %4d @%s\n" %
    // [simple_player_id, rate, modified_at.strftime("%Y-%m-%d")]`, a
    // space, a TAB and a space between name and rate; the players of its
    // own test/players.yaml (gps2_k7p 1051.0 last modified 2008-05-01,
    // gps2_k7p4 897.0 on 2008-05-03: `%4d` pads to four columns).
    for (line, t) in [
        (
            "##[RATING] gps2_k7p \t 1051 @2008-05-01",
            "gps2_k7p \t 1051 @2008-05-01",
        ),
        (
            "##[RATING] gps2_k7p4 \t  897 @2008-05-03",
            "gps2_k7p4 \t  897 @2008-05-03",
        ),
    ] {
        server_rt(
            line,
            ServerMessage::X1(X1Reply::Rating(RatingText::new(t).unwrap())),
        );
    }
    // The end of the list is still `+OK`.
    assert_eq!(
        decode::<ServerMessage>(b"##[RATING] +OK").unwrap(),
        ServerMessage::X1(X1Reply::Ok(Tag::new("RATING").unwrap()))
    );
    // Only there: a TAB in any other reply is refused where it stands
    // (the payload starts after `##[<TAG>] `).
    for (line, offset) in [
        ("##[VERSION] a \t b", 14),
        ("##[ERROR] a\tb", 11),
        ("##[SHOW] Name+:a\tb", 16),
    ] {
        let e = decode::<ServerMessage>(line.as_bytes()).unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.offset),
            ("payload", offset),
            "{line}: {e}"
        );
        assert_eq!(
            e.problem,
            Problem::Invalid {
                byte: b'\t',
                expected: Expected::Text
            }
        );
    }
    // Other control bytes stay refused in a rating line.
    let e = decode::<ServerMessage>(b"##[RATING] gps2_k7p \x01 1051").unwrap_err();
    assert_eq!((e.field.as_str(), e.offset), ("payload", 20), "{e}");
    assert!(RatingText::new("a\rb").is_err());
    assert!(Text::new("gps2_k7p \t 1051 @2008-05-01").is_err());
}

#[test]
fn server_errors_name_kind_field_and_offset() {
    let cases: &[(&str, &str, &str, usize)] = &[
        ("LOGIN:a/b OK", "LOGIN:", "name", 7),
        ("LOGIN:alice", "LOGIN:", "result", 11),
        ("START:", "START:", "game_id", 6),
        ("REJECT:abc", "REJECT:", "by", 10),
        // The first byte that differs from `,T`.
        ("+7776FU,X1", "move line", "time", 8),
        // `T1.` is a time (ShogiHome accepts `T3.`); a second dot
        // is not.
        ("+7776FU,T1..", "move line", "time", 11),
        // A known kind with bytes after it is an error, not Unrecognised.
        ("+7776FU extra", "move line", "trailing bytes", 7),
        ("%TORYO extra", "%TORYO", "trailing bytes", 6),
        ("#WIN x", "result line", "trailing bytes", 4),
        ("#RESIGN x", "reason line", "trailing bytes", 7),
        ("%TORYO,T", "%TORYO", "time", 8),
        ("##[GETBUOYCOUNT] ten", "##[GETBUOYCOUNT]", "count", 17),
        ("##[WHO] a b", "##[WHO]", "entry", 8),
        ("##[CHAT]x y", "##[CHAT]", "sender", 8),
        ("##[LIST]x", "##[LIST]", "payload", 8),
        ("##[LIST", "##[", "tag", 7),
        ("P1-KY\tx", "Position", "row", 5),
    ];
    for (line, kind, field, offset) in cases {
        let e = decode::<ServerMessage>(line.as_bytes()).unwrap_err();
        assert_eq!(
            (e.message.as_str(), e.field.as_str(), e.offset),
            (*kind, *field, *offset),
            "{line}: {e}"
        );
    }
    assert_eq!(
        decode::<ServerMessage>(b"#WIN x").unwrap_err().problem,
        Problem::Trailing { count: 2 }
    );
    // The kind and the field are named once each.
    let e = decode::<ServerMessage>(b"+7776FX,T1").unwrap_err();
    assert!(
        e.to_string().starts_with("move line notation at byte 5: "),
        "{e}"
    );
}

/// The Game_Summary alice received in the transcript (§1), verbatim.
const TRANSCRIPT_SUMMARY: &str = "BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:testevent+testgame-300-0+alice+bob+20261129145635
Name+:alice
Name-:bob
Your_Turn:+
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:300
Byoyomi:0
Increment:0
Least_Time_Per_Move:0
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
END Position
END Game_Summary
";

#[test]
fn transcript_game_summary_parses_to_every_field_and_rebuilds_byte_for_byte() {
    let s = GameSummary::parse(TRANSCRIPT_SUMMARY.as_bytes()).unwrap();
    assert_eq!(s.protocol_version.as_ref().unwrap().as_str(), "1.2");
    assert_eq!(s.protocol_mode.as_ref().unwrap().as_str(), "Server");
    assert_eq!(s.format.as_ref().unwrap().as_str(), "Shogi 1.0");
    assert_eq!(s.declaration.as_ref().unwrap().as_str(), "Jishogi 1.1");
    assert_eq!(
        s.game_id.as_ref().unwrap().as_str(),
        "testevent+testgame-300-0+alice+bob+20261129145635"
    );
    assert_eq!(s.name_black.as_ref().unwrap().as_str(), "alice");
    assert_eq!(s.name_white.as_ref().unwrap().as_str(), "bob");
    assert_eq!(s.your_turn, Some(Side::Black));
    assert_eq!(s.rematch_on_draw, Some(false));
    assert_eq!(s.to_move, Some(Side::Black));
    assert_eq!(s.max_moves, Some(256));
    let t = s.time.as_ref().unwrap();
    assert_eq!(t.time_unit, Some(TimeUnit::SECOND));
    assert_eq!(
        (t.total_time, t.byoyomi, t.increment, t.least_time_per_move),
        (Some(300), Some(0), Some(0), Some(0))
    );
    assert_eq!((t.delay, t.time_roundup), (None, None));
    let p = s.position.as_ref().unwrap();
    assert_eq!(p.lines().count(), 9);
    assert_eq!(p.lines().nth(1), Some("P2 * -HI *  *  *  *  * -KA * "));
    assert_eq!(p.side_to_move, Some(Side::Black));
    assert!(p.moves.is_empty());
    assert!(s.extra.is_empty());
    assert_eq!(String::from_utf8(s.to_bytes()).unwrap(), TRANSCRIPT_SUMMARY);
}

#[test]
fn show_output_parses_with_remaining_time_and_last_move() {
    // The `%%SHOW` reply of the transcript (§1), prefix removed.
    let show = "BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:testevent+testgame-300-0+alice+bob+20261129145635
Name+:alice
Name-:bob
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:300
Byoyomi:0
Increment:0
Least_Time_Per_Move:0
Remaining_Time+:300
Remaining_Time-:291
Last_Move:-3334FU,T9
Current_Turn:2
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU * -FU-FU
P4 *  *  *  *  *  * -FU *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  * +FU *  *  *  *  *  * 
P7+FU+FU * +FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
END Position
END Game_Summary
";
    let s = GameSummary::parse(show.as_bytes()).unwrap();
    assert_eq!(s.your_turn, None);
    let t = s.time.as_ref().unwrap();
    assert_eq!(
        (
            t.remaining_time_black,
            t.remaining_time_white,
            t.current_turn
        ),
        (Some(300), Some(291), Some(2))
    );
    assert_eq!(t.last_move.as_ref().unwrap().as_str(), "-3334FU,T9");
    assert_eq!(String::from_utf8(s.to_bytes()).unwrap(), show);
    let mut prefixed = Vec::new();
    s.encode_with_prefix(b"##[SHOW] ", &mut prefixed);
    let first = prefixed.split(|&b| b == b'\n').next().unwrap();
    assert_eq!(first, b"##[SHOW] BEGIN Game_Summary");
}

#[test]
fn per_side_time_blocks_units_moves_pi_and_unknown_fields() {
    let text = "BEGIN Game_Summary
Protocol_Version:1.2
Format:Shogi 1.0
Game_ID:20040626025755
Name+:a
Name-:b
Your_Turn:-
To_Move:-
X_Custom_Field:kept as is
BEGIN Time+
Time_Unit:1msec
Total_Time:600000
Increment:10000
Delay:0
Time_Roundup:YES
END Time+
BEGIN Time-
Time_Unit:2min
Total_Time:5
Byoyomi:1
Least_Time_Per_Move:1
Server_Note:x
END Time-
BEGIN Position
PI82HI22KA
P+00AL
-
-3334FU,T1
+7776FU,T1.5
END Position
END Game_Summary
";
    let s = GameSummary::parse(text.as_bytes()).unwrap();
    assert!(s.time.is_none());
    let b = s.time_black.as_ref().unwrap();
    assert_eq!(
        b.time_unit,
        Some(TimeUnit {
            count: 1,
            base: TimeBase::Msec
        })
    );
    assert_eq!(b.to_millis(b.total_time.unwrap()), 600_000);
    assert_eq!(
        (b.increment, b.delay, b.time_roundup),
        (Some(10000), Some(0), Some(true))
    );
    let w = s.time_white.as_ref().unwrap();
    assert_eq!(w.unit().millis(), 120_000);
    assert_eq!(w.to_millis(w.total_time.unwrap()), 600_000);
    assert_eq!(w.extra.len(), 1);
    assert_eq!(
        (w.extra[0].0.as_str(), w.extra[0].1.as_str()),
        ("Server_Note", "x")
    );
    assert_eq!(s.extra.len(), 1);
    assert_eq!(
        (s.extra[0].0.as_str(), s.extra[0].1.as_str()),
        ("X_Custom_Field", "kept as is")
    );
    let p = s.position.as_ref().unwrap();
    assert_eq!(p.lines().collect::<Vec<_>>(), vec!["PI82HI22KA", "P+00AL"]);
    assert_eq!(p.side_to_move, Some(Side::White));
    assert_eq!(
        p.moves,
        vec![
            (mv("-3334FU"), Some(MoveTime::from_secs(1))),
            (mv("+7776FU"), Some(MoveTime::from_millis(1500)))
        ]
    );
    assert_eq!(GameSummary::parse(&s.to_bytes()).unwrap(), s);
    assert_eq!(String::from_utf8(s.to_bytes()).unwrap(), text);
}

#[test]
fn summary_errors_have_line_numbers() {
    let bad = |t: &str| GameSummary::parse(t.as_bytes()).unwrap_err();
    assert_eq!(
        bad("BEGIN Game_Summary\nMax_Moves:many\nEND Game_Summary\n"),
        SummaryError::BadValue {
            line_no: 2,
            key: SummaryKey::MaxMoves,
            expected: ValueForm::Number
        }
    );
    assert_eq!(
        bad("BEGIN Game_Summary\nBEGIN Time\nTime_Unit:1hour\nEND Time\nEND Game_Summary\n"),
        SummaryError::BadValue {
            line_no: 3,
            key: SummaryKey::TimeUnit,
            expected: ValueForm::TimeUnit
        }
    );
    assert_eq!(
        bad("BEGIN Game_Summary\nName+:a\nName+:b\nEND Game_Summary\n"),
        SummaryError::Duplicate {
            line_no: 3,
            key: SummaryKey::NameBlack
        }
    );
    assert_eq!(
        bad("BEGIN Game_Summary\nName+:a\n"),
        SummaryError::Unterminated
    );
    assert_eq!(
        bad("BEGIN Game_Summary\nBEGIN Position\n+7776FU\nEND Position\nEND Game_Summary\n"),
        SummaryError::Unexpected {
            line_no: 3,
            section: SummarySection::Position
        }
    );
    assert!(matches!(
        bad("BEGIN Game_Summary\nBEGIN Time\n+7776FU,Tx\n"),
        SummaryError::Line { line_no: 3, .. }
    ));
    assert_eq!(
        bad("BEGIN Game_Summary\nBEGIN Time\nEND Time\nBEGIN Time\n"),
        SummaryError::DuplicateSection {
            line_no: 4,
            section: SummarySection::Time
        }
    );
}

// ---- proptest round trips --------------------------------------------------

fn arb_move() -> impl Strategy<Value = CsaMove> {
    strategies::arb_move(vec![
        "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
    ])
}

fn arb_name() -> impl Strategy<Value = UserName<'static>> {
    "[0-9A-Za-z_@.-]{1,32}".prop_map(|s| UserName::new(s).unwrap())
}
fn arb_game_name() -> impl Strategy<Value = GameName<'static>> {
    "[0-9A-Za-z_@.-]{1,40}".prop_map(|s| GameName::new(s).unwrap())
}
fn arb_game_id() -> impl Strategy<Value = GameId<'static>> {
    "[!-Z^-~]{1,60}".prop_map(|s| GameId::new(s).unwrap())
}
fn arb_comment() -> impl Strategy<Value = MoveComment<'static>> {
    prop::collection::vec(
        prop::num::u8::ANY.prop_filter("no NUL, CR, LF", |b| !matches!(b, 0 | b'\r' | b'\n')),
        0..40,
    )
    .prop_map(|b| MoveComment::new(b).unwrap())
}

fn arb_text() -> impl Strategy<Value = Text<'static>> {
    "[^\\x00-\\x1f\\x7f]{0,40}".prop_map(|s| Text::new(s).unwrap())
}
fn arb_side() -> impl Strategy<Value = SidePreference> {
    prop::sample::select(vec![
        SidePreference::Black,
        SidePreference::White,
        SidePreference::Any,
    ])
}

fn arb_client() -> impl Strategy<Value = ClientMessage<'static>> {
    use ClientMessage as C;
    use X1Command as X;
    prop_oneof![
        Just(C::KeepAlive),
        (arb_name(), "[!-~]{1,40}", prop::bool::ANY).prop_map(|(name, p, x1)| C::Login {
            name,
            password: Password::new(p).unwrap(),
            x1
        }),
        Just(C::Logout),
        prop::option::of(arb_game_id()).prop_map(C::Agree),
        prop::option::of(arb_game_id()).prop_map(C::Reject),
        (arb_move(), prop::option::of(arb_comment()))
            .prop_map(|(mv, comment)| C::Move { mv, comment }),
        prop::sample::select(vec![
            SpecialMove::Toryo,
            SpecialMove::Kachi,
            SpecialMove::Chudan
        ])
        .prop_map(C::Special),
        prop_oneof![
            Just(X::Who),
            Just(X::List),
            Just(X::Rating),
            Just(X::Version),
            Just(X::Help),
            arb_text().prop_map(X::Chat),
            prop::option::of(
                (arb_game_name(), arb_side()).prop_map(|(name, side)| GameRequest { name, side })
            )
            .prop_map(X::Game),
            (arb_game_name(), arb_side())
                .prop_map(|(name, side)| X::Challenge(GameRequest { name, side })),
            arb_game_id().prop_map(X::Show),
            arb_game_id().prop_map(X::MonitorOn),
            arb_game_id().prop_map(X::MonitorOff),
            arb_game_id().prop_map(X::Monitor2On),
            arb_game_id().prop_map(X::Monitor2Off),
            (
                arb_game_name(),
                prop::collection::vec(arb_move(), 1..6),
                prop::option::of(0u32..1000)
            )
                .prop_map(|(name, m, count)| X::SetBuoy {
                    name,
                    moves: BuoyMoves::new(&m).unwrap(),
                    count
                }),
            arb_game_name().prop_map(X::DeleteBuoy),
            arb_game_name().prop_map(X::GetBuoyCount),
            (
                arb_game_id(),
                prop::option::of("[A-Za-z_][0-9A-Za-z_@.-]{0,20}"),
                prop::option::of(0u32..1000)
            )
                .prop_map(|(game_id, buoy, nth)| X::Fork {
                    game_id,
                    buoy: buoy.map(|b| GameName::new(b).unwrap()),
                    nth
                }),
        ]
        .prop_map(C::X1),
    ]
}

fn arb_server() -> impl Strategy<Value = ServerMessage<'static>> {
    use ServerMessage as S;
    use X1Reply as R;
    let time = prop::option::of((0u64..100_000_000).prop_map(MoveTime::from_millis));
    prop_oneof![
        Just(S::KeepAlive),
        arb_name().prop_map(S::LoginOk),
        Just(S::LoginIncorrect),
        Just(S::LoginUsage),
        arb_name().prop_map(S::AlreadyConnected),
        Just(S::LogoutCompleted),
        arb_game_id().prop_map(S::Start),
        (arb_game_id(), arb_text()).prop_map(|(game_id, by)| S::Reject { game_id, by }),
        (arb_move(), time.clone()).prop_map(|(mv, time)| S::Move { mv, time }),
        (
            prop::sample::select(vec![ServerSpecial::Toryo, ServerSpecial::Kachi]),
            time
        )
            .prop_map(|(special, time)| S::Special { special, time }),
        prop::sample::select(EndReason::ALL.to_vec()).prop_map(S::Reason),
        prop::sample::select(GameResult::ALL.to_vec()).prop_map(S::GameResult),
        prop_oneof![
            Just(R::LoginOk),
            "[A-Z0-9_]{1,20}".prop_map(|t| R::Ok(Tag::new(t).unwrap())),
            (arb_name(), arb_text()).prop_map(|(sender, text)| R::Chat { sender, text }),
            arb_game_id()
                .prop_filter("+OK is the terminator", |g| g.as_str() != "+OK")
                .prop_map(R::List),
            (arb_game_id(), arb_text()).prop_map(|(game_id, line)| R::Monitor { game_id, line }),
            (arb_game_id(), arb_text()).prop_map(|(game_id, line)| R::Monitor2 { game_id, line }),
            (-1i64..1_000_000).prop_map(R::BuoyCount),
            arb_text()
                .prop_filter("+OK is the terminator", |t| t.as_str() != "+OK")
                .prop_map(R::Error),
        ]
        .prop_map(S::X1),
    ]
}

proptest! {
    #[test]
    fn client_messages_round_trip(m in arb_client()) {
        let line = m.to_line();
        let back = decode::<ClientMessage>(&line).map_err(|e| TestCaseError::fail(format!("{e}: {:?}", String::from_utf8_lossy(&line))))?;
        prop_assert_eq!(back, m);
    }

    #[test]
    fn server_messages_round_trip(m in arb_server()) {
        let line = m.to_line();
        let back = decode::<ServerMessage>(&line).map_err(|e| TestCaseError::fail(format!("{e}: {:?}", String::from_utf8_lossy(&line))))?;
        prop_assert_eq!(back, m);
    }

    /// `Display` is the wire line: decoding it gives the message back.
    #[test]
    fn client_messages_display_as_their_line(m in arb_client()) {
        let text = m.to_string();
        // Bytes that are not UTF-8 (a raw comment, an unrecognised line) are
        // written as U+FFFD: the property holds for the lines that are text.
        prop_assume!(core::str::from_utf8(&m.to_line()).is_ok());
        prop_assert_eq!(decode::<ClientMessage>(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?, m.clone());
        if let ClientMessage::X1(c) = &m {
            prop_assert_eq!(c.to_string(), text);
        }
    }

    /// `Display` is the wire line: decoding it gives the message back.
    #[test]
    fn server_messages_display_as_their_line(m in arb_server()) {
        let text = m.to_string();
        prop_assume!(core::str::from_utf8(&m.to_line()).is_ok());
        prop_assert_eq!(decode::<ServerMessage>(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?, m.clone());
        match &m {
            ServerMessage::X1(r) => prop_assert_eq!(r.to_string(), text),
            ServerMessage::Summary(l) => prop_assert_eq!(l.to_string(), text),
            _ => {}
        }
    }

    #[test]
    fn decoders_never_panic_and_errors_point_inside_the_line(line in prop::collection::vec(any::<u8>(), 0..80)) {
        if let Err(e) = decode::<ClientMessage>(&line) {
            prop_assert!(e.offset <= line.len());
        }
        if let Err(e) = decode::<ServerMessage>(&line) {
            prop_assert!(e.offset <= line.len());
        }
    }

    #[test]
    fn summaries_round_trip(
        names in (arb_text(), arb_text()),
        your in prop::option::of(prop::bool::ANY),
        max in prop::option::of(0u64..10_000),
        total in prop::option::of(0u64..100_000),
        byo in prop::option::of(0u64..100),
        unit in prop::option::of((1u32..100, prop::sample::select(vec![TimeBase::Sec, TimeBase::Min, TimeBase::Msec]))),
        moves in prop::collection::vec((arb_move(), prop::option::of((0u64..10_000_000).prop_map(MoveTime::from_millis))), 0..5),
        per_side in prop::bool::ANY,
    ) {
        let mut s = GameSummary {
            protocol_version: Some(Text::new("1.2").unwrap()),
            name_black: Some(names.0),
            name_white: Some(names.1),
            your_turn: your.map(|b| if b { Side::Black } else { Side::White }),
            to_move: Some(Side::Black),
            max_moves: max,
            ..Default::default()
        };
        let t = TimeSection {
            time_unit: unit.map(|(count, base)| TimeUnit { count, base }),
            total_time: total,
            byoyomi: byo,
            ..Default::default()
        };
        if per_side {
            s.time_black = Some(t.clone());
            s.time_white = Some(t);
        } else {
            s.time = Some(t);
        }
        let mut p = PositionSection::default();
        p.push_line("PI").unwrap();
        p.side_to_move = Some(Side::Black);
        p.moves = moves;
        s.position = Some(p);
        prop_assert_eq!(GameSummary::parse(&s.to_bytes()).unwrap(), s.clone());
        // `Display`: the block without its last LF.
        prop_assert_eq!(GameSummary::parse(s.to_string().as_bytes()).unwrap(), s);
    }
}
