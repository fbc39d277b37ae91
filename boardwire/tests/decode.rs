//! `boardwire dxp decode` and `boardwire csa decode`: readable output, the
//! recorded-capture format, `--message`. Inputs are excerpts of the
//! recorded transcripts (`boardwire_vectors::data::DXP_SCAN_FOLLOWER`,
//! `boardwire_vectors::data::CSA_SHOGI_SERVER`) and spec
//! note examples; expected readings state what those records say.

mod common;
use common::{
    assert_contains, assert_lines_at, assert_starts, boardwire, exited, ok, stderr, stdout,
};

/// Runs `boardwire args` on `input`; the exit code must be `code`; returns
/// the stdout lines.
fn decoded(args: &[&str], input: &str, code: i32) -> Vec<String> {
    common::batch(args, input.as_bytes(), code).0
}

/// `boardwire args` (a message that does not decode) exits with code 2:
/// its stdout.
#[track_caller]
fn undecoded(args: &[&str]) -> String {
    let o = boardwire(args);
    assert_eq!(o.status.code(), Some(2));
    stdout(&o)
}

/// Scan follower test 1 and the truncated-MOVE case, as recorded.
const DXP_CAPTURE: &str = r"# scan-follower test 1 (Scan 3.1 built from source, synthetic eval, book on): connected to 127.0.0.1:27531
[  0.000] C->S R01PyTester                        Z005000A\0
[  0.000] S->C AScan 3.1                        0\0
[  0.000] C->S M0000322800\0
[  0.001] S->C M0000172100\0
[  0.001] C->S E00\0
[  0.001] S->C E00\0
# scan malformed 4: truncated MOVE (port 27554): connected to 127.0.0.1:27554
[  0.000] C->S R01PyTester                        Z005000A\0
[  0.000] S->C AScan 3.1                        0\0
[  1.502] C->S M00003228\0
[  1.530] S->C <EOF: connection closed by peer>
";

#[test]
fn dxp_decode_reads_the_recorded_capture() {
    let lines = decoded(&["dxp", "decode"], DXP_CAPTURE, 2);
    assert_lines_at(
        &lines,
        10,
        &[
            // GAMEREQ: version 01, name PyTester, follower colour Z (black),
            // 005 minutes, 000 moves, A = standard start (spec note
            // damexchange's spec/damexchange.md, *GAMEREQ*).
            (
                0,
                "    2  C->S         GAMEREQ: version 01, initiator \"PyTester\", follower plays black, 5 min for the whole game, standard start",
            ),
            (
                1,
                "    3  S->C         GAMEACC: follower \"Scan 3.1\", accepted",
            ),
            (2, "    4  C->S         MOVE 32-28, 0 s"),
            (3, "    5  S->C         MOVE 17-21, 0 s"),
            (4, "    6  C->S         GAMEEND: .."),
            // The second connection starts a new stream: the truncated MOVE
            // is the frame after the 44-byte GAMEREQ.
            (
                8,
                "   11  C->S         error: frame at stream offset 44: MOVE..",
            ),
            (
                9,
                "   12  S->C         end of stream: connection closed by peer",
            ),
        ],
    );
}

#[test]
fn dxp_decode_a_frame_split_over_two_chunks() {
    let capture = "[  0.000] S->C M00001721\n[  0.001] S->C 00\\0\n";
    assert_eq!(
        decoded(&["dxp", "decode", "--json"], capture, 0),
        [
            "{\"line\":2,\"direction\":\"S->C\",\"offset\":0,\"type\":\"MOVE\",\"time\":0,\"from\":17,\"to\":21,\"captured\":[]}"
        ]
    );
}

#[test]
fn dxp_decode_messages_on_the_command_line() {
    // Spec note examples (damexchange's spec/damexchange.md, *BACKREQ*, *BACKACC*):
    // `B005Z` back to move 5 with Black to move; `K1` refuses.
    let o = ok(&["dxp", "decode", "--message", "B005Z", "-m", "K1"]);
    assert_eq!(
        stdout(&o),
        "0: BACKREQ: back to move 5, black to move\n6: BACKACC: refused\n"
    );
    let out = undecoded(&["dxp", "decode", "-m", "Q"]);
    assert!(out.starts_with("0: error: "), "{out}");
    // A file and --message do not go together.
    undecoded(&["dxp", "decode", "x.bin", "-m", "E00"]);
}

/// The error names the bad byte where it is, so a user can find it. MOVE
/// layout (spec note damexchange's spec/damexchange.md, *MOVE*): number captured at
/// 9..11, captured squares from 11; every byte of a message is in 1..=127
/// (damexchange's spec/damexchange.md, *Transport (layer 1)*).
#[test]
fn dxp_decode_names_the_bad_byte() {
    let out = undecoded(&["dxp", "decode", "-m", "M0000322800xx"]);
    assert_contains(
        &out,
        "MOVE captured square at byte 11: expected a digit 0-9, found 'x'",
    );
    assert!(!out.contains("captured but"), "{out}");
    // The raw frame M 0x01 0x02 0xFF: 0xFF at offset 3 (in the time field).
    let lines = decoded(
        &["dxp", "decode"],
        "[  0.000] C->S M\\x01\\x02\\xff\\0\n",
        2,
    );
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(
        lines[0].ends_with("MOVE time at byte 3: expected a 7-bit byte 1..=127, found 0xFF"),
        "{lines:#?}"
    );
}

/// Section 8 of the recorded shogi-server transcript (CRLF logins shown as
/// Python bytes literals) and the end of section 7.
const CSA_CAPTURE: &str = r"# lena: connected to 127.0.0.1:4081
[  49.044] lena   >> b'LOGIN lena pass x1\r\n'
[  49.045] lena   << LOGIN:lena OK
[  49.045] lena   << ##[LOGIN] +OK x1
[  49.745] lena   >> b'%%WHO\r\n'
[  50.445] lena   >> b'LOGOUT\r\n'
[  50.446] lena   << LOGOUT:completed
[  50.446] lena   << <EOF: server closed the connection>
[  46.940] jack   -- (client closed socket)
[  46.984] kate   << %TORYO
[  46.984] kate   << #RESIGN
[  46.984] kate   << #WIN
";

#[test]
fn csa_decode_reads_the_recorded_capture() {
    let lines = decoded(&["csa", "decode"], CSA_CAPTURE, 0);
    assert_eq!(
        lines,
        [
            "    2  lena     client  LOGIN: name lena, password hidden, x1 mode",
            "    3  lena     server  LOGIN OK: logged in as lena",
            "    4  lena     server  ##[LOGIN]: logged in, x1 mode",
            "    5  lena     client  %%WHO: list the players",
            "    6  lena     client  LOGOUT",
            "    7  lena     server  LOGOUT completed",
            "    8  lena     server  end of stream: server closed the connection",
            "    9  jack             note: (client closed socket)",
            "   10  kate     server  %TORYO: resigned",
            "   11  kate     server  #RESIGN: game over, resignation",
            "   12  kate     server  #WIN: the receiver won",
        ]
    );
}

#[test]
fn csa_decode_json_and_messages_on_the_command_line() {
    let o = ok(&["csa", "decode", "--json", "-m", "-0055KA", "-m", "#LOSE"]);
    assert_eq!(
        stdout(&o),
        "{\"line\":1,\"direction\":\"client\",\"kind\":\"message\",\"value\":\"move -0055KA: gote drops KA on 5e\",\"wire\":\"-0055KA\"}\n\
{\"line\":2,\"direction\":\"server\",\"kind\":\"message\",\"value\":\"#LOSE: the receiver lost\",\"wire\":\"#LOSE\"}\n"
    );
    // `+7776ZZ`: no such piece (byte 5 of the move, 0-based: docs/SHAPE.md
    // made every position a 0-based byte offset; this said "column 6").
    let out = undecoded(&["csa", "decode", "--message", "+7776ZZ"]);
    assert_contains(&out, "error: ");
    assert_contains(&out, "at byte 5");
    // With --json the kind says it is an error; the value does not repeat it.
    let out = undecoded(&["csa", "decode", "--json", "--message", "+7776ZZ"]);
    assert_starts(
        &out,
        "{\"line\":1,\"direction\":\"client\",\"kind\":\"error\",\"value\":\"",
    );
    assert!(!out.contains("\"value\":\"error: "), "{out}");
}

#[test]
fn csa_decode_reads_a_kifu() {
    // The first statements of the Floodgate record in
    // `boardwire_vectors::data::KIFU_FLOODGATE_GPS`.
    let kifu = "V2\nN+gps_normal\nN-gps_l\n$EVENT:wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007\n\
PI\n+\n+7776FU\nT1\n'** 0\n-3334FU\nT1\n%TORYO\n";
    assert_eq!(
        decoded(&["csa", "decode"], kifu, 0),
        [
            "    1  kifu1   version 2",
            "    2  kifu1   name of sente (+): gps_normal",
            "    3  kifu1   name of gote (-): gps_l",
            "    4  kifu1   $EVENT: wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007",
            "    5  kifu1   position line PI",
            "    6  kifu1   sente (+) to move",
            "    7  kifu1   move +7776FU: sente FU 7g to 7f",
            "    8  kifu1   time 1 s",
            "    9  kifu1   comment: ** 0",
            "   10  kifu1   move -3334FU: gote FU 3c to 3d",
            "   11  kifu1   time 1 s",
            "   12  kifu1   special %TORYO",
        ]
    );
}

#[test]
fn csa_decode_refuses_an_illegal_kifu_move_with_its_line_and_byte() {
    // A kifu is checked against the rules: after 1. +7776FU -3334FU sente holds no rook, so `+0055HI`
    // is illegal; line 6 starts at byte 29 of the file. The statements are
    // printed, then the error; the run fails with exit code 2.
    let (lines, err) = common::batch(
        &["csa", "decode"],
        b"V2.2\nPI\n+\n+7776FU,T1\n-3334FU\n+0055HI\n",
        2,
    );
    // Each statement is shown at its line: `+7776FU,T1` are both line 4.
    assert_lines_at(
        &lines,
        7,
        &[
            (0, "    1  kifu1   version 2.2"),
            (1, "    2  kifu1   position line PI"),
            (2, "    3  kifu1   sente (+) to move"),
            (3, "    4  kifu1   move +7776FU: sente FU 7g to 7f"),
            (4, "    4  kifu1   time 1 s"),
            (5, "    5  kifu1   move -3334FU: gote FU 3c to 3d"),
            (
                6,
                "    6  kifu    error: kifu record 1, line 6, column 0 (byte 29): illegal move +0055HI: ..",
            ),
        ],
    );
    assert_contains(&err, "kifu line 6 breaks the rules");
}

#[test]
fn csa_decode_lists_a_refused_kifu_only_up_to_the_refused_line() {
    // `+0055HI` (line 4 of the second record, line 9 of the file) is
    // illegal: no rook in hand. The first record and the second's first
    // two lines are listed, the statements after the refused one are not,
    // and `--json` names the error by its kind, its value without a prefix.
    let (lines, err) = common::batch(
        &["csa", "decode", "--json"],
        b"V2.2\nPI\n+\n+7776FU\n/\nV2.2\nPI\n+\n+0055HI\n-3334FU\n",
        2,
    );
    assert_lines_at(
        &lines,
        8,
        &[
            (3, "{\"line\":4,\"direction\":\"kifu1\",.."),
            (4, "{\"line\":6,\"direction\":\"kifu2\",.."),
            (
                7,
                "{\"line\":9,\"direction\":\"kifu\",\"kind\":\"error\",\"value\":\"kifu record 2, line 9, column 0 (byte 30): illegal move +0055HI..",
            ),
        ],
    );
    assert_contains(&err, "kifu line 9 breaks the rules");
}

#[test]
fn csa_decode_accepts_the_recorded_kifu_files() {
    // Real records (Floodgate, shogi-server's own) read and play through.
    let mut files: Vec<(&str, &[u8])> = vec![
        (
            "floodgate-gps.csa",
            boardwire_vectors::data::KIFU_FLOODGATE_GPS,
        ),
        (
            "floodgate-uchifuzume.csa",
            boardwire_vectors::data::KIFU_UCHIFUZUME,
        ),
    ];
    files.extend(boardwire_vectors::data::CSA_RECORDS.iter().copied());
    for (name, data) in files {
        let o = common::with_stdin(&["csa", "decode"], data);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
    }
}

/// A recorded transcript (the one copy, in `boardwire-vectors`) written to
/// a file for the command line; its path.
fn recorded(name: &str, text: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn every_line_of_the_real_servers_decodes() {
    // shogi-server and Scan were recorded answering; every line they sent
    // must decode. The malformed lines are the ones the test clients sent
    // on purpose (the transcripts' "malformed" scenarios).
    let path = recorded(
        "csa-shogi-server-x1-and-csa-mode.txt",
        boardwire_vectors::data::CSA_SHOGI_SERVER,
    );
    let records: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('['))
        .map(String::from)
        .collect();
    let out = undecoded(&["csa", "decode", &path]);
    // One line per record (each holds one line, none a CRLF pair).
    assert_eq!(out.lines().count(), records.len(), "{out}");
    for line in out.lines() {
        if line.contains(" error: ") || line.contains(" unrecognised: ") {
            assert_contains(line, " client  ");
        }
    }
    // The one copy of the recording (`boardwire-vectors`), as a file for
    // the command line.
    let path = recorded(
        "dxp-scan-follower.txt",
        boardwire_vectors::data::DXP_SCAN_FOLLOWER,
    );
    let text = boardwire_vectors::data::DXP_SCAN_FOLLOWER;
    let records = text.lines().filter(|l| l.starts_with('['));
    // One line per frame (NUL) and per end of stream.
    let expected: usize = records
        .map(|l| l.matches("\\0").count() + usize::from(l.contains("<EOF")))
        .sum();
    let out = undecoded(&["dxp", "decode", &path]);
    assert_eq!(out.lines().count(), expected, "{out}");
    for line in out.lines() {
        if line.contains(" error: ") && !line.contains("CHAT: ") {
            assert_contains(line, " C->S ");
        }
    }
}

#[test]
fn csa_decode_hides_login_passwords_and_reads_keep_alives() {
    // Spec note csa-protocol's spec/csa.md, *Plain CSA mode* and *Extended mode (x1),
    // shogi-server*: `LOGIN <name> <password> [x1]`; an empty line is a
    // keep-alive (*Transport and lexical rules*).
    let o = ok(&[
        "csa",
        "decode",
        "--json",
        "-m",
        "LOGIN alice s3cret x1",
        "-m",
        "",
    ]);
    let out = stdout(&o);
    assert!(!out.contains("s3cret"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "{\"line\":1,\"direction\":\"client\",\"kind\":\"message\",\"value\":\"LOGIN: name alice, password hidden, x1 mode\",\"wire\":\"LOGIN alice ***** x1\"}",
            "{\"line\":2,\"direction\":\"client\",\"kind\":\"message\",\"value\":\"keep-alive (empty line)\",\"wire\":\"\"}",
        ]
    );
}

#[test]
fn a_malformed_login_shows_no_field() {
    // csa-protocol's spec/csa.md, *Plain CSA mode*: fields are separated by single
    // spaces, so `LOGIN  alice SECRET4` (two spaces) is malformed: its name
    // is empty. The password must not show in the output either way (it
    // did, as `LOGIN  ***** SECRET4`, when the wire text was redacted by
    // splitting at spaces).
    for json in [false, true] {
        let mut args = vec!["csa", "decode", "-m", "LOGIN  alice SECRET4"];
        if json {
            args.insert(2, "--json");
        }
        let o = boardwire(&args);
        exited(&o, 2);
        let out = stdout(&o);
        assert!(!out.contains("SECRET4"), "{out}");
        assert_contains(&out, "LOGIN name at byte 6: empty");
    }
}

#[test]
fn capture_lines_that_are_no_records_are_reported() {
    // The capture format (README, "recorded capture"): `[<seconds>] ...`
    // records, `#` comments and blank lines; anything else is reported
    // with its line number, and the exit code is 2.
    for (args, input) in [
        (
            &["csa", "decode", "--format", "capture"][..],
            &b"LOGIN a b\n\n# note\ngarbage here\n"[..],
        ),
        (
            &["dxp", "decode", "--format", "capture"][..],
            &b"LOGIN a b\n\n# note\ngarbage here\n"[..],
        ),
    ] {
        let o = common::with_stdin(args, input);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let out = stdout(&o);
        let lines: Vec<(&str, &str)> = out
            .lines()
            .map(|l| {
                let l = l.trim_start();
                let (n, rest) = l.split_once(' ').unwrap();
                (n, rest.trim_start())
            })
            .collect();
        assert_eq!(lines.len(), 2, "{args:?}: {out}");
        assert_eq!(lines[0].0, "1");
        assert_eq!(lines[1].0, "4");
        for (_, reading) in &lines {
            assert!(reading.starts_with("error: not a capture record"), "{out}");
        }
    }
}

#[test]
fn a_kifu_with_a_bad_line_is_printed_up_to_it() {
    // README: "every message is still printed" when one is malformed. The
    // kifu's seventh line `-9999XX` is no CSA move (spec note
    // csa-protocol's spec/csa.md, *Moves*: piece codes FU..RY, squares 11..99).
    let lines = decoded(
        &["csa", "decode"],
        "V2\nN+a\nN-b\nPI\n+\n+7776FU\n-9999XX\n",
        2,
    );
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert!(lines[1].ends_with("name of sente (+): a"), "{lines:?}");
    assert!(lines[5].contains("move +7776FU"), "{lines:?}");
    assert!(lines[6].trim_start().starts_with("7 "), "{lines:?}");
    assert!(lines[6].contains("error: kifu line 7"), "{lines:?}");
}

#[test]
fn csa_decode_from_names_the_direction_of_the_lines() {
    // `+7776FU,T3` is a server confirmation (csa-protocol's spec/csa.md, *Moves*:
    // the server echoes the move with `,T<seconds>`); a client never sends
    // `,T`, so read as a client line it is malformed.
    let o = ok(&["csa", "decode", "--from", "server", "-m", "+7776FU,T3"]);
    assert_contains(&stdout(&o), "  server  move +7776FU");
    let o = boardwire(&["csa", "decode", "--from", "client", "-m", "+7776FU,T3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_contains(&stdout(&o), "  client  ");
    // Without --from a move line is guessed to be a client line.
    let o = boardwire(&["csa", "decode", "-m", "+7776FU"]);
    assert_contains(&stdout(&o), "  client  move +7776FU");
}
