//! The `boardwire` command line: output formats, exit codes, errors.
//! Expected counts come from the perft vectors (board-core/tests/data/perft-*.txt).

mod common;
use common::{
    assert_contains, assert_starts, boardwire, divide, exited, ok, refused, stderr, stdout,
    with_stdin, words,
};

#[test]
fn perft_prints_the_count_alone() {
    let o = ok(&["perft", "draughts", "startpos", "4"]);
    assert_eq!(stdout(&o), "4265\n");
    let err = stderr(&o);
    assert!(
        err.contains("nodes 4265") && err.contains("nodes/s"),
        "{err}"
    );
}

/// stderr is a pipe here, not a terminal: no progress line, only the one
/// timing line (README.md, "Output formats"), for every game and with
/// `--divide` too. The counts are the perft vectors'.
#[test]
fn perft_without_a_terminal_prints_no_progress() {
    for (args, nodes) in [
        (&["perft", "chess", "startpos", "3"][..], "8902"),
        (&["perft", "shogi", "startpos", "3"][..], "25470"),
        (
            &["perft", "draughts", "startpos", "3", "--divide"][..],
            "658",
        ),
    ] {
        let o = boardwire(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o).lines().next(), Some(nodes), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
        assert!(
            err.starts_with(&format!("nodes {nodes} time ")) && err.ends_with(" nodes/s\n"),
            "{args:?}: {err:?}"
        );
        assert!(
            !err.contains('\r') && !err.contains("root moves"),
            "{err:?}"
        );
    }
}

#[test]
fn perft_of_a_fen() {
    let fen = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46";
    let o = boardwire(&["perft", "draughts", fen, "3"]);
    assert_eq!(stdout(&o), "1168\n");
    assert_eq!(
        stdout(&boardwire(&["perft", "draughts", "startpos", "0"])),
        "1\n"
    );
}

#[test]
fn perft_divide() {
    let rest = divide(&["perft", "draughts", "startpos", "2", "--divide"], "81", 9);
    // Each root move of the start position has 9 replies.
    for (mv, n) in &rest {
        assert!(mv.contains('-'), "{mv} {n}");
        assert_eq!(n, "9");
    }
    assert!(rest.iter().any(|(mv, n)| mv == "32-28" && n == "9"));
}

#[test]
fn moves_plain_and_json() {
    let o = boardwire(&["moves", "draughts", "startpos"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 9);
    assert!(out.lines().any(|l| l == "32-28"));

    let o = boardwire(&["moves", "draughts", "W:W28:B23,14", "--json"]);
    assert_eq!(
        stdout(&o),
        "{\"from\":28,\"to\":10,\"captures\":[14,23],\"notation\":\"28x10\"}\n"
    );
    // Ambiguous short form -> landing-square form.
    let o = boardwire(&["moves", "draughts", "W:WK8:B22,27,12,10"]);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 2);
    assert!(
        out.lines()
            .all(|l| l.starts_with("8x") && l.ends_with("x5") && l.matches('x').count() == 3),
        "{out}"
    );
}

#[test]
fn moves_batch_from_stdin() {
    let o = with_stdin(
        &words("moves draughts - --json"),
        b"W:W31-50:B1-20\nW:W28:B23,14\nnonsense\n",
    );
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("{\"fen\":\"W:W31-50:B1-20\",\"moves\":[{\"from\":31,"));
    assert_eq!(
        lines[1],
        "{\"fen\":\"W:W28:B23,14\",\"moves\":[{\"from\":28,\"to\":10,\"captures\":[14,23],\"notation\":\"28x10\"}]}"
    );
    assert!(lines[2].starts_with("{\"fen\":\"nonsense\",\"error\":\""));
}

fn assert_one_line_error(args: &[&str], needle: &str) {
    let o = boardwire(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    assert!(o.stdout.is_empty(), "{args:?}");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert_starts(&err, "error");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn bad_input_is_a_one_line_error_with_exit_2() {
    assert_one_line_error(&["perft", "draughts", "W:W51:B1", "3"], "51");
    assert_one_line_error(&["perft", "draughts", "startpos", "three"], "three");
    assert_one_line_error(&["perft", "draughts", "startpos", "-1"], "-1");
    assert_one_line_error(&["perft", "checkers", "startpos", "1"], "checkers");
    // Positions in errors are 0-based byte offsets into the quoted text.
    assert_one_line_error(
        &words("perft draughts W:W51:B1 3"),
        "\"W:W51:B1\": PDN FEN white pieces at byte 3: square 51 out of range",
    );
    assert_one_line_error(&["moves", "draughts", "X:W1:B2"], "at byte 0: side to move");
    assert_one_line_error(&["moves", "draughts", "W:W31;32:B1"], "at byte 5: ");
    // The '+' of `4+K4` is byte 19 of the SFEN (the `sfen ` prefix of the
    // USI form is not part of it).
    for text in [
        "4k4/9/9/9/9/9/9/9/4+K4 b - 1",
        "sfen 4k4/9/9/9/9/9/9/9/4+K4 b - 1",
    ] {
        assert_one_line_error(
            &["moves", "shogi", text],
            "\"4k4/9/9/9/9/9/9/9/4+K4 b - 1\": SFEN board field at byte 19: '+'",
        );
    }
    assert_one_line_error(
        &["perft", "shogi", "4k4/9/9/9/9/9/9/9/4K4 b - 0", "1"],
        "SFEN move-number field at byte 26",
    );
    assert_one_line_error(&["moves", "draughts", ""], "empty");
    assert_one_line_error(&["moves", "draughts", "W:W31,31:B1"], "twice");
    assert_one_line_error(&["perft", "draughts"], "required");
    assert_one_line_error(&["frobnicate"], "frobnicate");
}

#[test]
fn help_exits_zero() {
    let o = boardwire(&["--help"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("perft"));
}

#[test]
fn csa_connect_without_a_game_is_an_argument_error() {
    // Plain CSA mode asks for the game by the LOGIN password (spec note
    // csa-protocol's spec/csa.md, *Plain CSA mode*), x1 mode by %%GAME (*Extended mode
    // (x1), shogi-server*): both need --game, checked before connecting.
    for extra in [&[][..], &["--x1"][..]] {
        let mut args = vec!["csa", "connect", "127.0.0.1:9", "--user", "erin"];
        args.extend_from_slice(extra);
        let o = boardwire(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_contains(&err, "needs --game");
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn dxp_connect_gives_up_on_a_silent_follower() {
    // A follower that accepts and never answers the GAMEREQ: --timeout 1
    // ends the run with exit code 1 (a run gone wrong, README exit codes),
    // not 2 (bad input), and one error line.
    let (addr, server) = silent_server();
    let o = boardwire(&["dxp", "connect", &addr, "--timeout", "1"]);
    drop(server.join());
    assert_gave_up(&o);
}

#[test]
fn csa_connect_gives_up_on_a_silent_server() {
    // A server that accepts and never answers: --timeout 1 ends the run
    // with exit code 1 and one error line, as `dxp connect --timeout`.
    let (addr, server) = silent_server();
    let o = boardwire(&words(&format!(
        "csa connect {addr} --user erin --game g-60-5 --password s3cret --timeout 1"
    )));
    drop(server.join());
    assert_gave_up(&o);
    // The LOGIN we sent is shown without its password.
    let out = stdout(&o);
    assert_contains(&out, "erin      -> LOGIN erin *****\n");
    assert!(!out.contains("s3cret"), "{out}");
}

#[test]
fn csa_connect_refused_names_the_address() {
    // Port 1 on loopback: nothing listens there.
    let err = refused(&words("csa connect 127.0.0.1:1 --user erin --game g-60-5"));
    assert_starts(&err, "error: cannot connect to 127.0.0.1:1: ");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn servers_say_where_they_listen() {
    // `dxp serve --help`: "Prints `listening on ADDR` to stderr first
    // (useful with port 0)"; `csa serve` the same (README).
    for proto in ["dxp", "csa"] {
        let (mut child, line) = serve_on_port_0(proto);
        child.kill().unwrap();
        child.wait().unwrap();
        let addr = line
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("{proto}: {line:?}"))
            .trim_end();
        let addr: std::net::SocketAddr = addr.parse().unwrap();
        assert!(
            addr.ip().is_loopback() && addr.port() != 0,
            "{proto}: {line:?}"
        );
    }
}

/// `--listen HOST:PORT` takes a host name in both protocols, resolved at
/// start (`localhost`: 127.0.0.1 here, /etc/hosts); `dxp connect` takes one
/// too.
#[test]
fn servers_listen_on_host_names() {
    for proto in ["dxp", "csa"] {
        let (mut child, line) = serve_on(proto, "localhost:0");
        let addr: std::net::SocketAddr = line
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("{proto}: {line:?}"))
            .trim_end()
            .parse()
            .unwrap();
        assert!(addr.ip().is_loopback(), "{proto}: {line:?}");
        if proto == "dxp" {
            ok(&[
                "dxp",
                "connect",
                &format!("localhost:{}", addr.port()),
                "--max-plies",
                "0",
                "--timeout",
                "20",
            ]);
        } else {
            std::net::TcpStream::connect(("localhost", addr.port())).unwrap();
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
}

/// An address without a port is bad input (exit 2, one line naming it),
/// in both protocols alike.
#[test]
fn a_listen_address_without_a_port_is_refused() {
    for proto in ["dxp", "csa"] {
        assert_one_line_error(
            &words(&format!("{proto} serve --listen localhost")),
            "cannot listen on localhost: ",
        );
    }
}

#[test]
fn dxp_connect_max_plies_stops_the_game_without_result() {
    // Spec note damexchange's spec/damexchange.md, *GAMEEND*: reason `0` is "no
    // reason/unknown" (an administrative stop is no draw, so it must not
    // be sent as one); `--max-plies 0` makes us stop the
    // game on our first turn (we play White, who begins).
    let (mut server, line) = serve_on_port_0("dxp");
    let addr = line.trim_end().rsplit(' ').next().unwrap().to_string();
    let o = boardwire(&words(&format!(
        "dxp connect {addr} --max-plies 0 --timeout 20"
    )));
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_contains(&out, "initiator -> E00  (GAMEEND");
    assert_eq!(
        out.lines().last(),
        Some("result: 1 games, 0 won, 0 lost, 0 drawn, 1 without result"),
        "{out}"
    );
}

/// A run that gave up on a silent peer after `--timeout 1`: exit code 1
/// (a run gone wrong, README exit codes), one error line naming the time.
#[track_caller]
fn assert_gave_up(o: &std::process::Output) {
    let err = exited(o, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("for 1 s"),
        "{err}"
    );
}

/// `boardwire <proto> serve` on an ephemeral port of 127.0.0.1: the child
/// and its first stderr line (`listening on ADDR`).
fn serve_on_port_0(proto: &str) -> (std::process::Child, String) {
    serve_on(proto, "127.0.0.1:0")
}

/// `boardwire <proto> serve --listen <listen>`: the child and its first
/// stderr line.
fn serve_on(proto: &str, listen: &str) -> (std::process::Child, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args([proto, "serve", "--listen", listen])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let line = common::first_stderr_line(&mut child);
    (child, line)
}

/// A server on 127.0.0.1 that accepts one connection and never answers:
/// its address, and the thread holding the accepted socket.
fn silent_server() -> (
    String,
    std::thread::JoinHandle<std::io::Result<std::net::TcpStream>>,
) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    (
        addr,
        std::thread::spawn(move || listener.accept().map(|(s, _)| s)),
    )
}

/// A records directory or kifu file that cannot be written is refused at
/// start (exit 2), not found out after a game whose record is then lost.
#[test]
fn unwritable_records_and_kifu_paths_are_refused_at_start() {
    assert_one_line_error(
        &words("csa serve --listen 127.0.0.1:0 --records /proc/no/such/dir"),
        "--records /proc/no/such/dir: cannot create the directory",
    );
    assert_one_line_error(
        &words(
            "csa connect 127.0.0.1:9 --user a --x1 --game g-60-0 --engine /bin/true --kifu /proc/no/such/k.csa",
        ),
        "--kifu /proc/no/such/k.csa: cannot write",
    );
}

#[test]
fn connect_to_a_refused_port_is_bad_input_in_both_protocols() {
    // A port nobody listens on (bound, then closed): exit code 2 and one
    // `cannot connect to ...` line, for `dxp connect` as for `csa connect`.
    let addr = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().to_string()
    };
    for args in [
        &["dxp", "connect", &addr][..],
        &["csa", "connect", &addr, "--user", "a", "--game", "g-300-0"],
    ] {
        let o = boardwire(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.starts_with(&format!("error: cannot connect to {addr}: ")),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Every time option says its unit in its value name and its range in its
/// help, and refuses a value past the range as bad input (exit 2, the
/// option named) instead of overflowing a deadline: `dxp connect
/// --timeout 18446744073709551615` panicked before.
#[test]
fn time_options_name_their_unit_and_range() {
    let options: [(&[&str], &str, &str, u64, u64); 16] = [
        (&["dxp", "serve"], "first-move-delay-ms", "MS", 0, 60_000),
        (&["dxp", "serve"], "engine-timeout", "SECONDS", 1, 3600),
        (&["dxp", "connect"], "minutes", "MINUTES", 0, 999),
        (&["dxp", "connect"], "timeout", "SECONDS", 1, 86_400),
        (&["dxp", "connect"], "engine-timeout", "SECONDS", 1, 3600),
        (&["csa", "serve"], "least-time-per-move", "SECONDS", 0, 3600),
        (&["csa", "serve"], "send-timeout", "SECONDS", 1, 3600),
        (&["csa", "serve"], "login-timeout", "SECONDS", 1, 86_400),
        (&["csa", "connect"], "timeout", "SECONDS", 1, 86_400),
        (&["csa", "connect"], "clock-margin", "SECONDS", 0, 3600),
        (&["csa", "connect"], "time-margin", "MS", 0, 60_000),
        (&["csa", "connect"], "engine-timeout", "SECONDS", 1, 3600),
        (&["citrine"], "gap-ms", "MS", 0, 10_000),
        (&["citrine"], "sim-think-ms", "MS", 0, 60_000),
        (&["citrine"], "ack-timeout-ms", "MS", 1, 600_000),
        (&["citrine"], "movetime", "MS", 1, 3_600_000),
    ];
    let unit = |v: &str| match v {
        "MS" => "ms",
        "SECONDS" => "seconds",
        _ => "minutes",
    };
    for (cmd, name, value_name, lo, hi) in options {
        let help = stdout(&boardwire(&[cmd, &["--help"]].concat()));
        let head = format!("      --{name} <{value_name}>\n");
        let at = help
            .find(&head)
            .unwrap_or_else(|| panic!("{cmd:?}: {head:?} missing:\n{help}"));
        let text = &help[at + head.len()..];
        let text = &text[..text.find("\n\n").unwrap_or(text.len())];
        let range = format!("Range {lo}..={hi} {}", unit(value_name));
        assert!(
            text.contains(&range),
            "{cmd:?} --{name}: {range:?} in {text:?}"
        );
        assert!(text.contains("[default: "), "{cmd:?} --{name}: {text:?}");
        // Past the range, and far past it: refused before anything runs
        // (--engine for --movetime, which needs it).
        let flag = format!("--{name}");
        for bad in [(hi + 1).to_string(), u64::MAX.to_string()] {
            let engine: &[&str] = if name == "movetime" {
                &["--engine", "/nonexistent"]
            } else {
                &[]
            };
            let args = [cmd, engine, &[&flag, &bad]].concat();
            let err = refused(&args);
            assert!(err.contains(&format!("--{name}")), "{args:?}: {err}");
            assert!(!err.contains("panicked"), "{args:?}: {err}");
        }
    }
}

/// `--max-plies` says its default and why it differs between commands.
#[test]
fn max_plies_defaults_are_explained() {
    for (cmd, default, why) in [
        (&["dxp", "serve"][..], "Default: no limit", "the initiator"),
        (&["dxp", "connect"], "[default: 400]", "no draw rule"),
        (&["citrine"], "[default: 600]", "fifty-move rule"),
    ] {
        let help = stdout(&boardwire(&[cmd, &["--help"]].concat()));
        let at = help
            .find("      --max-plies <PLIES>\n")
            .unwrap_or_else(|| panic!("{cmd:?}: --max-plies <PLIES> missing"));
        let text = &help[at..];
        let text = &text[..text.find("\n\n").unwrap_or(text.len())];
        assert!(text.contains(default), "{cmd:?}: {text}");
        assert!(text.contains(why), "{cmd:?}: {text}");
    }
}

/// `dxp connect --chat` (a CHAT carries 1..=126 characters,
/// damexchange's spec/damexchange.md, *CHAT*) and `--games` (at least 1; 0 used to
/// play one game) are checked before connecting: bad input, exit 2, naming
/// the option, not a failed run once connected (port 1: nothing listens
/// there).
#[test]
fn dxp_connect_checks_chat_and_games_before_connecting() {
    let long = "x".repeat(127);
    for (args, needle) in [
        (
            &["--chat", ""][..],
            "--chat: text has 0 bytes, expected 1..=126",
        ),
        (&["--chat", &long], "--chat: text has 127 bytes"),
        (&["--chat", "é"], "--chat: "),
        (&["--games", "0"], "--games"),
    ] {
        let err = refused(&[&["dxp", "connect", "127.0.0.1:1"][..], args].concat());
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("cannot connect"), "{args:?}: {err}");
    }
}

/// `csa connect --games 0` is refused by the same range rule as `dxp
/// connect --games 0` (at least 1), before connecting (port 1: nothing
/// listens there).
#[test]
fn csa_connect_games_zero_is_bad_input() {
    let err = refused(&words("csa connect 127.0.0.1:1 --x1 --games 0 --engine x"));
    assert_contains(&err, "--games");
    assert_contains(&err, "1..");
    assert!(!err.contains("cannot connect"), "{err}");
}
