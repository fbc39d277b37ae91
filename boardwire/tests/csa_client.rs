//! `boardwire csa connect` against scripted servers on loopback: an
//! CSA-mode logout after the result, an unplayable Position block, a side
//! given for a Floodgate game, and a refused x1 game request.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use common::{assert_contains, boardwire, exited, stderr, stdout, words};

/// A server on 127.0.0.1 that runs `script` on the one connection it
/// accepts: its address and the thread (returning what the script returns).
fn scripted<T: Send + 'static>(
    script: impl FnOnce(&mut BufReader<TcpStream>, &mut TcpStream) -> T + Send + 'static,
) -> (String, std::thread::JoinHandle<T>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let h = std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut w = s.try_clone().unwrap();
        let mut r = BufReader::new(s);
        script(&mut r, &mut w)
    });
    (addr, h)
}

/// The next line from the client, without its LF (`None` at the end).
fn line(r: &mut BufReader<TcpStream>) -> Option<String> {
    let mut l = String::new();
    match r.read_line(&mut l) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(l.trim_end_matches(['\r', '\n']).to_string()),
    }
}

/// A `Game_Summary` (as shogi-server writes it) offering `g1`, with
/// `position` as the Position block body.
fn summary(your_turn: char, position: &str) -> String {
    format!(
        "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n\
Declaration:Jishogi 1.1\nGame_ID:g1\nName+:erin\nName-:dave\nYour_Turn:{your_turn}\n\
Rematch_On_Draw:NO\nTo_Move:+\nMax_Moves:256\nBEGIN Time\nTime_Unit:1sec\nTotal_Time:300\n\
Byoyomi:0\nIncrement:0\nLeast_Time_Per_Move:0\nEND Time\nBEGIN Position\n{position}\
END Position\nEND Game_Summary\n"
    )
}

#[test]
fn csa_mode_logs_out_after_the_result() {
    // csa-protocol's spec/csa.md and the recorded shogi-server transcript (section
    // 5): the CSA-mode winner gets `%TORYO`, `#RESIGN`, `#WIN` and the
    // connection stays open until the client sends a line (shogi-server
    // then closes it; without one it waits 60 s). We play gote; the server
    // script's sente resigns at once.
    let (addr, server) = scripted(|r, w| {
        let login = line(r);
        w.write_all(b"LOGIN:dave OK\n").unwrap();
        w.write_all(summary('-', "PI\n+\n").as_bytes()).unwrap();
        let agree = line(r);
        w.write_all(b"START:g1\n%TORYO\n#RESIGN\n#WIN\n").unwrap();
        let t = Instant::now();
        let after = line(r);
        let waited = t.elapsed();
        // As shogi-server: any line after the game closes the connection.
        drop(w.shutdown(std::net::Shutdown::Both));
        (login, agree, after, waited)
    });
    let started = Instant::now();
    let o = boardwire(&words(&format!(
        "csa connect {addr} --user dave --game g-300-0 --timeout 30"
    )));
    let (login, agree, after, waited) = server.join().unwrap();
    assert_eq!(login.as_deref(), Some("LOGIN dave g-300-0"));
    assert_eq!(agree.as_deref(), Some("AGREE g1"));
    assert_eq!(after.as_deref(), Some("LOGOUT"));
    assert!(waited < Duration::from_secs(10), "{waited:?}");
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_contains(&out, "#RESIGN, we won");
}

#[test]
fn an_illegal_summary_position_is_rejected() {
    // A Position block move that is illegal (`+0055HI`: sente
    // holds no rook) must not be agreed to: REJECT, then the server's
    // `REJECT:<id> by <name>` (csa-protocol's spec/csa.md, *Agreement -> game*),
    // a clear error and exit 1.
    let (addr, server) = scripted(|r, w| {
        let _login = line(r);
        w.write_all(b"LOGIN:dave OK\n").unwrap();
        w.write_all(summary('+', "PI\n+\n+7776FU,T1\n-3334FU,T1\n+0055HI,T1\n").as_bytes())
            .unwrap();
        let answer = line(r);
        w.write_all(b"REJECT:g1 by dave\n").unwrap();
        let after = line(r);
        drop(w.shutdown(std::net::Shutdown::Both));
        (answer, after)
    });
    let o = boardwire(&words(&format!(
        "csa connect {addr} --user dave --game g-300-0 --timeout 30"
    )));
    let (answer, after) = server.join().unwrap();
    assert_eq!(answer.as_deref(), Some("REJECT g1"));
    assert_eq!(after.as_deref(), Some("LOGOUT"));
    exited(&o, 1);
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("position move 3 (+0055HI)") && err.contains("game rejected"),
        "{err}"
    );
    assert!(!stdout(&o).contains("AGREE"));
}

#[test]
fn a_side_for_a_floodgate_game_is_an_argument_error() {
    // shogi-server: `##[ERROR] You are not allowed to specify TEBAN + for
    // the game floodgate-300-10F`; boardwire's server refuses it too.
    // Checked before connecting (port 9 is never reached).
    for (game, side) in [("floodgate-300-10F", "+"), ("floodgate-900-0", "-")] {
        for x1 in [false, true] {
            let line = format!("csa connect 127.0.0.1:9 --user erin --game {game} --side {side}");
            let mut args = words(&line);
            if x1 {
                args.push("--x1");
            }
            let o = boardwire(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            let err = stderr(&o);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains("--side") && err.contains(game), "{err}");
            assert!(stdout(&o).is_empty());
        }
    }
    // Not Floodgate names (shogi-server: `floodgate-<total>-<byoyomi>[F]`
    // only): a side is fine, and the run gets as far as connecting.
    let o = boardwire(&words(
        "csa connect 127.0.0.1:1 --user erin --game floodgate-600-10-x --side +",
    ));
    assert_contains(&stderr(&o), "cannot connect");
}

#[test]
fn x1_game_request_refused_ends_the_run() {
    // shogi-server answers `%%GAME` with a bad name by two `##[ERROR]`
    // lines (csa-protocol's spec/csa.md, *Extended mode (x1)*) and no game comes:
    // the client logs out once and fails naming the reply, not waits.
    let (addr, server) = scripted(|r, w| {
        let mut got = vec![line(r)];
        w.write_all(b"LOGIN:erin OK\n##[LOGIN] +OK x1\n").unwrap();
        got.push(line(r));
        w.write_all(
            b"##[ERROR] bad game name: foo.\n\
##[ERROR] game name should consist of three parts like game-1500-60.\n",
        )
        .unwrap();
        got.push(line(r));
        // As shogi-server: the reply, then the connection is closed.
        w.write_all(b"LOGOUT:completed\n").unwrap();
        got
    });
    let started = Instant::now();
    let o = boardwire(&words(&format!(
        "csa connect {addr} --user erin --x1 --game foo"
    )));
    let got = server.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    exited(&o, 1);
    assert_eq!(
        stderr(&o).trim_end(),
        "error: the server refused the game request: bad game name: foo."
    );
    assert_eq!(got[1].as_deref(), Some("%%GAME foo *"));
    assert_eq!(got[2].as_deref(), Some("LOGOUT"));
    let _ = stdout(&o);
}

#[test]
fn the_server_closing_before_the_result_is_a_failure() {
    // The connection ends after START and one move of each side with no
    // `#` result line: the game did not end (csa-protocol's spec/csa.md,
    // *Game end*: every game ends with a result line), so the run went
    // wrong — exit 1, as `dxp connect` does when its peer goes away.
    let (addr, server) = scripted(|r, w| {
        let _login = line(r);
        w.write_all(b"LOGIN:dave OK\n").unwrap();
        w.write_all(summary('-', "PI\n+\n").as_bytes()).unwrap();
        let _agree = line(r);
        w.write_all(b"START:g1\n+7776FU,T1\n").unwrap();
        let ours = line(r);
        drop(w.shutdown(std::net::Shutdown::Both));
        ours
    });
    let o = boardwire(&words(&format!(
        "csa connect {addr} --user dave --game g-300-0 --timeout 30"
    )));
    let ours = server.join().unwrap();
    assert!(ours.is_some_and(|m| m.starts_with('-')), "our move");
    exited(&o, 1);
    let err = stderr(&o);
    assert_contains(
        &err,
        "the connection closed before the server's result line",
    );
    // Our move is not confirmed by the server: one move played.
    assert_contains(&err, "(1 moves played)");

    // And before any game: after LOGIN OK, nothing.
    let (addr, server) = scripted(|r, w| {
        let _login = line(r);
        w.write_all(b"LOGIN:dave OK\n").unwrap();
        drop(w.shutdown(std::net::Shutdown::Both));
    });
    let o = boardwire(&words(&format!(
        "csa connect {addr} --user dave --game g-300-0 --timeout 30"
    )));
    server.join().unwrap();
    exited(&o, 1);
    assert_contains(&stderr(&o), "closed the connection before a game started");
}
