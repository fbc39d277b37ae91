//! `describe()`: each message in words, known answers (what `boardwire csa
//! decode` prints), beside `Display`, the wire line.

use csa_protocol::decode;
use csa_protocol::kifu::parse_kifu;
use csa_protocol::message::{ClientMessage, ServerMessage};

fn client(line: &str) -> String {
    let m: ClientMessage<'_> = decode(line.as_bytes()).unwrap();
    assert_eq!(m.to_string(), line, "Display is the wire line");
    m.describe().to_string()
}

fn server(line: &str) -> String {
    let m: ServerMessage<'_> = decode(line.as_bytes()).unwrap();
    assert_eq!(m.to_string(), line, "Display is the wire line");
    m.describe().to_string()
}

#[test]
fn client_lines_in_words() {
    for (line, words) in [
        ("", "keep-alive (empty line)"),
        (
            "LOGIN alice pw x1",
            "LOGIN: name alice, password hidden, x1 mode",
        ),
        ("LOGIN bob pw", "LOGIN: name bob, password hidden, CSA mode"),
        ("AGREE", "AGREE: the offered game"),
        ("REJECT g1", "REJECT: game g1"),
        ("-0055KA", "move -0055KA: gote drops KA on 5e"),
        (
            "+7776FU,'* 30",
            "move +7776FU: sente FU 7g to 7f, comment \"* 30\"",
        ),
        ("%TORYO", "%TORYO: resign"),
        ("%KACHI", "%KACHI: declare a win (jishogi)"),
        ("%%WHO", "%%WHO: list the players"),
        (
            "%%GAME g-300-10 +",
            "%%GAME: wait for game g-300-10 as sente (+)",
        ),
        ("%%GAME", "%%GAME: stop waiting"),
        ("%%CHAT hi there", "%%CHAT: \"hi there\""),
        ("HELLO", "unrecognised: HELLO"),
    ] {
        assert_eq!(client(line), words, "{line:?}");
    }
}

#[test]
fn server_lines_in_words() {
    for (line, words) in [
        ("+7776FU,T12", "move +7776FU: sente FU 7g to 7f, 12 s"),
        ("#RESIGN", "#RESIGN: game over, resignation"),
        ("#LOSE", "#LOSE: the receiver lost"),
        ("START:g1", "START: game g1"),
        ("LOGIN:alice OK", "LOGIN OK: logged in as alice"),
        ("LOGIN:incorrect", "LOGIN incorrect: login refused"),
        ("BEGIN Game_Summary", "Game_Summary: BEGIN Game_Summary"),
        ("Name+:alice", "Game_Summary: Name+ = \"alice\""),
        ("##[LIST] g1", "##[LIST]: game g1"),
        ("##[WHO] +OK", "##[WHO]: +OK (end of reply)"),
        ("##[CHAT][bob] hi", "##[CHAT]: from bob: \"hi\""),
        ("##[GETBUOYCOUNT] -1", "##[GETBUOYCOUNT]: no such buoy (-1)"),
    ] {
        assert_eq!(server(line), words, "{line:?}");
    }
}

#[test]
fn shown_hides_the_password_and_escapes_control_bytes() {
    let m: ClientMessage<'_> = decode(b"LOGIN alice SECRET").unwrap();
    assert_eq!(m.shown().to_string(), "LOGIN alice *****");
    let m: ServerMessage<'_> = decode(b"HELLO\x1b[2J").unwrap();
    assert_eq!(m.shown().to_string(), "unrecognised: HELLO\\x1b[2J");
}

#[test]
fn kifu_statements_in_words() {
    let records = parse_kifu(b"V2.2\nN+alice\nPI\n+\n+7776FU\nT3\n%TORYO\n").unwrap();
    let got: Vec<(&str, String)> = records[0]
        .items
        .iter()
        .map(|i| (i.kind(), i.describe().to_string()))
        .collect();
    let want = [
        ("statement", "version 2.2"),
        ("name", "name of sente (+): alice"),
        ("statement", "position line PI"),
        ("statement", "sente (+) to move"),
        ("statement", "move +7776FU: sente FU 7g to 7f"),
        ("statement", "time 3 s"),
        ("statement", "special %TORYO"),
    ];
    assert_eq!(got.len(), want.len());
    for ((k, t), (wk, wt)) in got.iter().zip(want) {
        assert_eq!((*k, t.as_str()), (wk, wt));
    }
}
