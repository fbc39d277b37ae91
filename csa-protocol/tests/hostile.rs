//! Hostile peers against the sessions (clock passed in) and the TCP
//! drivers: the login timeout, refused logins, eight deferred lines, buoy
//! caps, escaped error quotes, the client's silence rules, output caps,
//! the connection limit and a peer streaming bytes without line ends.

use std::time::Duration;

use csa_protocol::session::{Awaited, Client, ClientConfig, Event, ServerConfig};
use csa_protocol::types::{Password, UserName};

mod raw;
use raw::Raw;

impl Raw {
    /// Two x1 players `a` (conn 1, Black) and `b` (conn 2, White) in a
    /// started game `g-300-10`.
    fn game(&mut self) {
        self.connect(1);
        self.connect(2);
        self.line(1, "LOGIN a pa x1");
        self.line(2, "LOGIN b pb x1");
        self.agree("g-300-10");
    }
}

const S: fn(u64) -> Duration = Duration::from_secs;

#[test]
fn a_connection_that_does_not_log_in_is_closed_after_300_s() {
    // shogi-server: `Login_Time = 300`; the connection is closed unanswered.
    let mut r = Raw::new(ServerConfig::default());
    r.connect(1);
    r.connect(2);
    r.line(2, "LOGIN carol pw x1");
    assert_eq!(r.server.poll_timeout(), Some(S(300)));
    r.at(S(299));
    assert!(!r.closed[&1]);
    r.at(S(300));
    assert!(r.closed[&1]);
    assert_eq!(r.take(1), Vec::<String>::new());
    // The one that logged in stays.
    assert!(!r.closed[&2]);
    assert_eq!(r.server.poll_timeout(), None);
}

#[test]
fn a_login_for_a_connected_name_with_another_password_is_refused_and_closed_after_3_s() {
    // shogi-server `incorrect_duplicated_player`: `LOGIN:incorrect`, in x1
    // (four words) also `username <name> is already connected`, then the
    // connection is closed 3 s later.
    let mut r = Raw::new(ServerConfig::default());
    r.ask(1, "LOGIN alice right x1");
    assert_eq!(
        r.ask(2, "LOGIN alice wrong x1"),
        ["LOGIN:incorrect", "username alice is already connected"]
    );
    // Further lines are ignored; the close comes 3 s later.
    r.line(2, "LOGIN alice wrong x1");
    r.line(2, "%%VERSION");
    assert_eq!(r.take(2), Vec::<String>::new());
    assert!(!r.closed[&2]);
    r.at(S(2));
    assert!(!r.closed[&2]);
    r.at(S(3));
    assert!(r.closed[&2]);
    // The first connection was not disturbed.
    assert!(!r.closed[&1]);
    r.line(1, "%%VERSION");
    assert!(r.take(1)[0].starts_with("##[VERSION]"));
    // Plain mode (three words): `LOGIN:incorrect` alone.
    assert_eq!(r.ask(3, "LOGIN alice wrong"), ["LOGIN:incorrect"]);
}

#[test]
fn the_right_password_for_a_player_in_a_game_is_refused_and_the_game_goes_on() {
    let mut r = Raw::new(ServerConfig::default());
    r.game();
    assert_eq!(
        r.ask(3, "LOGIN a pa x1"),
        ["LOGIN:incorrect", "username a is already connected"]
    );
    assert_eq!(r.server.game_count(), 1);
    assert!(!r.closed[&1]);
    assert_eq!(r.take(2), Vec::<String>::new());
    r.line(1, "+7776FU");
    assert_eq!(r.take(2), ["+7776FU,T0"]);
}

#[test]
fn the_right_password_for_a_player_not_in_a_game_replaces_the_old_connection() {
    let mut r = Raw::new(ServerConfig::default());
    r.ask(1, "LOGIN dave pw x1");
    assert_eq!(
        r.ask(2, "LOGIN dave pw x1"),
        ["LOGIN:dave OK", "##[LOGIN] +OK x1"]
    );
    assert!(r.closed[&1]);
    assert_eq!(r.server.connection_count(), 1);
}

#[test]
fn eight_out_of_turn_lines_wait_a_ninth_is_an_error_and_the_game_goes_on() {
    let mut r = Raw::new(ServerConfig::default());
    r.game();
    // White sends nine moves while Black thinks (shogi-server's own
    // TC_functional sends two ahead; it queues every line).
    let white = [
        "-3334FU", "-8384FU", "-8485FU", "-2233KA", "-1314FU", "-9394FU", "-7172GI", "-4132KI",
        "-5142OU",
    ];
    for m in &white[..8] {
        r.line(2, m);
        assert_eq!(r.take(2), Vec::<String>::new());
    }
    r.line(2, white[8]);
    assert_eq!(
        r.take(2),
        ["##[ERROR] a move is already waiting for its turn: -5142OU"]
    );
    assert_eq!(r.take(1), Vec::<String>::new());
    // Black moves: White's first waiting move is played at once.
    r.line(1, "+7776FU");
    assert_eq!(r.take(1), ["+7776FU,T0", "-3334FU,T0"]);
    r.line(1, "+2726FU");
    assert_eq!(r.take(1), ["+2726FU,T0", "-8384FU,T0"]);
    assert_eq!(r.server.game_count(), 1);
}

#[test]
fn buoys_are_capped_per_user_and_in_total() {
    let config = ServerConfig {
        max_buoys_per_user: 2,
        max_buoys: 3,
        ..ServerConfig::default()
    };
    let mut r = Raw::new(config);
    r.ask(1, "LOGIN a pw x1");
    r.ask(2, "LOGIN b pw x1");
    r.line(1, "%%SETBUOY buoy_a1-900-0 +7776FU");
    r.line(1, "%%SETBUOY buoy_a2-900-0 +7776FU");
    r.line(1, "%%SETBUOY buoy_a3-900-0 +7776FU");
    assert_eq!(
        r.take(1),
        [
            "##[SETBUOY] +OK",
            "##[SETBUOY] +OK",
            "##[ERROR] too many buoy games of a (limit 2)"
        ]
    );
    r.line(2, "%%SETBUOY buoy_b1-900-0 +2726FU");
    r.line(2, "%%SETBUOY buoy_b2-900-0 +2726FU");
    assert_eq!(
        r.take(2),
        [
            "##[SETBUOY] +OK",
            "##[ERROR] too many buoy games on the server (limit 3)"
        ]
    );
    // Deleting one makes room again.
    r.line(1, "%%DELETEBUOY buoy_a1-900-0");
    r.line(2, "%%SETBUOY buoy_b2-900-0 +2726FU");
    assert_eq!(r.take(1), ["##[DELETEBUOY] +OK"]);
    assert_eq!(r.take(2), ["##[SETBUOY] +OK"]);
}

#[test]
fn a_buoy_whose_moves_already_end_the_game_is_refused() {
    let mut r = Raw::new(ServerConfig {
        max_moves: 6,
        ..ServerConfig::default()
    });
    r.ask(1, "LOGIN a pw x1");
    // Kings stepping back and forth: the start position for the 4th time
    // after 12 moves (spec/csa.md, *Results*: #SENNICHITE).
    let shuffle = "+5958OU-5152OU+5859OU-5251OU".repeat(3);
    r.line(1, &format!("%%SETBUOY buoy_rep-900-0 {shuffle}"));
    assert_eq!(
        r.take(1),
        [format!(
            "##[ERROR] the moves already end the game: {shuffle}"
        )]
    );
    // Max_Moves 6 reached by the set-up moves.
    let six = "+5958OU-5152OU+5859OU-5251OU+5958OU-5152OU";
    r.line(1, &format!("%%SETBUOY buoy_six-900-0 {six}"));
    assert_eq!(
        r.take(1),
        [format!("##[ERROR] the moves already end the game: {six}")]
    );
    r.line(1, "%%GETBUOYCOUNT buoy_rep-900-0");
    assert_eq!(r.take(1), ["##[GETBUOYCOUNT] -1", "##[GETBUOYCOUNT] +OK"]);
    // Five of them are fine.
    r.line(
        1,
        "%%SETBUOY buoy_five-900-0 +5958OU-5152OU+5859OU-5251OU+5958OU",
    );
    assert_eq!(r.take(1), ["##[SETBUOY] +OK"]);
}

#[test]
fn control_bytes_are_escaped_in_error_replies_and_chat_is_relayed_as_is() {
    let mut r = Raw::new(ServerConfig::default());
    r.ask(1, "LOGIN a pw x1");
    r.ask(2, "LOGIN b pw x1");
    r.send(1, b"HELLO\x00\x1b[2J\x07\xff\n");
    let got = r.take(1);
    assert_eq!(
        got,
        ["##[ERROR] unknown command: HELLO\\x00\\x1B[2J\\x07\\xFF"]
    );
    // Chat is relayed byte for byte (UTF-8 included).
    r.line(1, "%%CHAT こんにちは [x]");
    assert_eq!(r.take(2), ["##[CHAT][a] こんにちは [x]"]);
}

fn client_config(x1: bool) -> ClientConfig {
    let mut c = ClientConfig::new(
        UserName::new("me".to_string()).unwrap(),
        Password::new("g-60-10".to_string()).unwrap(),
    );
    c.x1 = x1;
    c.keep_alive = None;
    c
}

fn feed(c: &mut Client<Duration>, lines: &str, now: Duration) {
    c.handle_input(lines.as_bytes(), now);
}

fn silences(c: &mut Client<Duration>) -> Vec<Awaited> {
    let mut v = Vec::new();
    while let Some(e) = c.poll_event() {
        if let Event::PeerSilent { awaiting } = e {
            v.push(awaiting);
        }
    }
    v
}

#[test]
fn the_client_times_out_a_login_reply_but_not_bytes_without_a_line_end() {
    let mut c = Client::new(client_config(false), Duration::ZERO);
    while c.poll_transmit().is_some() {}
    assert_eq!(c.poll_timeout(), Some(S(30)));
    // 20 KB without a line end: cut at the cap, reported once, no answer.
    c.handle_input(&[b'A'; 20_000], S(10));
    let overlong: Vec<Event> = std::iter::from_fn(|| c.poll_event()).collect();
    assert_eq!(overlong.len(), 1, "{overlong:?}");
    assert!(matches!(overlong[0], Event::Overlong { .. }));
    c.handle_timeout(S(30));
    assert_eq!(silences(&mut c), [Awaited::LoginReply]);
}

const SUMMARY: &str = "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\n\
Format:Shogi 1.0\nGame_ID:g1\nName+:me\nName-:you\nYour_Turn:+\nTo_Move:+\n\
BEGIN Time\nTime_Unit:1sec\nTotal_Time:60\nByoyomi:10\nEND Time\n\
BEGIN Position\nPI\n+\nEND Position\nEND Game_Summary\n";

#[test]
fn in_a_game_the_opponent_is_bounded_by_its_clock_and_keep_alive_lines_count() {
    let mut c = Client::new(client_config(false), Duration::ZERO);
    feed(&mut c, "LOGIN:me OK\n", S(1));
    feed(&mut c, SUMMARY, S(2));
    c.agree(S(2)).unwrap();
    feed(&mut c, "START:g1\n", S(3));
    // Our turn: no bound on ourselves.
    assert_eq!(c.poll_timeout(), None);
    while c.poll_event().is_some() {}
    while c.poll_transmit().is_some() {}
    let mv = c.position().unwrap().legal_moves()[0];
    c.send_move(mv, S(4)).unwrap();
    let line = {
        let t = c.poll_transmit().unwrap();
        let last = t.as_bytes().split(|&b| b == b'\n').rev().nth(1).unwrap();
        String::from_utf8(last.to_vec()).unwrap()
    };
    feed(&mut c, &format!("{line},T1\n"), S(5));
    // The opponent on move: 60 s + 10 s byoyomi + 30 s margin from the
    // last line heard.
    assert_eq!(c.poll_timeout(), Some(S(5 + 100)));
    // An empty line (keep-alive) is activity.
    feed(&mut c, "\n", S(50));
    assert_eq!(c.poll_timeout(), Some(S(150)));
    c.handle_timeout(S(149));
    assert_eq!(silences(&mut c), []);
    c.handle_timeout(S(150));
    assert_eq!(silences(&mut c), [Awaited::OpponentMove]);
    // Reported once.
    assert_eq!(c.poll_timeout(), None);
}

/// `START` comes after the Game_Summary it starts (spec: `Game_Summary`,
/// `AGREE`, `START`). A server that sends one without a summary starts
/// nothing: there is no board and no side to play, so the line is
/// reported, the client keeps waiting for a game and does not think it is
/// its move (found by the `csa_client_session` fuzz target: it did, with no
/// position to play on). The regular start after it is untouched.
#[test]
fn a_start_without_a_game_summary_starts_nothing() {
    let mut c = Client::new(client_config(false), Duration::ZERO);
    feed(&mut c, "LOGIN:me OK\n", S(1));
    while c.poll_event().is_some() {}
    feed(&mut c, "START:g1\n", S(2));
    let events: Vec<Event> = std::iter::from_fn(|| c.poll_event()).collect();
    assert!(
        matches!(&events[..], [Event::Unrecognised(line)] if line == b"START:g1"),
        "{events:?}"
    );
    assert_eq!(c.state(), csa_protocol::session::ClientState::GameWaiting);
    assert!(!c.is_our_turn());
    assert!(c.position().is_none());
    // The game the server then offers starts as usual.
    feed(&mut c, SUMMARY, S(3));
    c.agree(S(3)).unwrap();
    feed(&mut c, "START:g1\n", S(4));
    assert_eq!(c.state(), csa_protocol::session::ClientState::Game);
    assert!(c.is_our_turn());
}

#[cfg(feature = "tokio")]
mod tcp {
    use super::*;
    use csa_protocol::error::FrameError;
    use csa_protocol::net::{self, Activity, Config, DropReason, Ended, Limits, ServeEvent};
    use std::ops::ControlFlow;
    use std::sync::{Arc, Mutex};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpSocket, TcpStream};

    async fn start(limits: Limits) -> (std::net::SocketAddr, Arc<Mutex<Vec<DropReason>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let drops = Arc::new(Mutex::new(Vec::new()));
        let d = drops.clone();
        let mut config = Config::new(ServerConfig::default());
        config.limits = limits;
        tokio::spawn(net::serve(listener, config, move |e| {
            if let ServeEvent::Dropped { reason, .. } = e {
                d.lock().unwrap().push(reason);
            }
            ControlFlow::Continue(())
        }));
        (addr, drops)
    }

    async fn login(addr: std::net::SocketAddr, name: &str) -> TcpStream {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(format!("LOGIN {name} pw x1\n").as_bytes())
            .await
            .unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 256];
        while !got.ends_with(b"##[LOGIN] +OK x1\n") {
            let n = s.read(&mut buf).await.unwrap();
            assert!(n > 0, "closed during login");
            got.extend_from_slice(&buf[..n]);
        }
        s
    }

    /// `readers` x1 clients that read everything, one non-reader with a
    /// small receive buffer (when `idle`), and a talker sending `lines`
    /// chat lines of `len` bytes and reading its echo. Returns what each
    /// reader got, the talker's echo, and the connections the driver closed.
    async fn chat_flood(
        limits: Limits,
        readers: usize,
        idle: bool,
        lines: usize,
        len: usize,
    ) -> (Vec<usize>, usize, usize, Vec<DropReason>) {
        let (addr, drops) = start(limits).await;
        let mut _idle = None;
        if idle {
            let sock = TcpSocket::new_v4().unwrap();
            sock.set_recv_buffer_size(4096).unwrap();
            let mut s = sock.connect(addr).await.unwrap();
            s.write_all(b"LOGIN idle pw x1\n").await.unwrap();
            _idle = Some(s);
        }
        let mut streams = Vec::new();
        for i in 0..readers {
            streams.push(login(addr, &format!("r{i}")).await);
        }
        let mut talker = login(addr, "talker").await;
        let chat = format!("%%CHAT {}\n", "x".repeat(len));
        let expected = lines * (len + "##[CHAT][talker] \n".len());
        let read_all = |mut r: TcpStream| async move {
            let mut n = 0usize;
            let mut buf = vec![0u8; 65536];
            while n < expected {
                match tokio::time::timeout(Duration::from_secs(20), r.read(&mut buf)).await {
                    Ok(Ok(k)) if k > 0 => n += k,
                    _ => break,
                }
            }
            n
        };
        let tasks: Vec<_> = streams
            .into_iter()
            .map(|r| tokio::spawn(read_all(r)))
            .collect();
        let (mut tr, mut tw) = talker.split();
        let send = async {
            for _ in 0..lines {
                tw.write_all(chat.as_bytes()).await.unwrap();
            }
        };
        let recv = async {
            let mut n = 0usize;
            let mut buf = vec![0u8; 65536];
            while n < expected {
                match tokio::time::timeout(Duration::from_secs(20), tr.read(&mut buf)).await {
                    Ok(Ok(k)) if k > 0 => n += k,
                    _ => break,
                }
            }
            n
        };
        let ((), echoed) = tokio::join!(send, recv);
        let mut got = Vec::new();
        for t in tasks {
            got.push(t.await.unwrap());
        }
        let dropped = drops.lock().unwrap().clone();
        (got, echoed, expected, dropped)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_peer_that_does_not_read_is_closed_at_its_cap_and_readers_are_not() {
        // 8 MB of chat: more than the kernel's socket buffers take for the
        // non-reader.
        let (got, echoed, expected, dropped) =
            chat_flood(Limits::default(), 10, true, 2000, 4000).await;
        assert_eq!(echoed, expected);
        assert_eq!(got, vec![expected; 10]);
        assert_eq!(dropped, [DropReason::OutputQueueFull]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_hundred_reading_clients_never_trip_the_limits() {
        let (got, echoed, expected, dropped) =
            chat_flood(Limits::default(), 200, false, 200, 1000).await;
        assert_eq!(echoed, expected);
        assert_eq!(got, vec![expected; 200]);
        assert_eq!(dropped, []);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn connections_past_the_limit_are_refused_cleanly() {
        let mut limits = Limits::default();
        limits.max_connections = 2;
        let (addr, drops) = start(limits).await;
        let _a = login(addr, "a").await;
        let _b = login(addr, "b").await;
        let mut c = TcpStream::connect(addr).await.unwrap();
        let mut got = Vec::new();
        tokio::time::timeout(Duration::from_secs(5), c.read_to_end(&mut got))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(got, b"##[ERROR] too many connections\n");
        assert_eq!(*drops.lock().unwrap(), [DropReason::TooManyConnections]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn connect_gives_up_on_a_peer_streaming_bytes_without_line_ends() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let chunk = vec![b'A'; 65536];
            while s.write_all(&chunk).await.is_ok() {}
        });
        let started = std::time::Instant::now();
        let mut overlong = 0;
        let mut config = Config::new(client_config(false));
        config.session.reply_timeout = Duration::from_secs(1);
        let r = net::connect(addr, config, |_, a| match a {
            Activity::Malformed {
                error: FrameError::Overlong { .. },
                ..
            } => {
                overlong += 1;
                ControlFlow::Continue(())
            }
            Activity::Event(Event::PeerSilent { awaiting }) => ControlFlow::Break(awaiting),
            _ => ControlFlow::Continue(()),
        })
        .await;
        assert!(matches!(r, Ok(Ended::Break(Awaited::LoginReply))), "{r:?}");
        let took = started.elapsed();
        assert!(
            took >= Duration::from_secs(1) && took < Duration::from_secs(5),
            "{took:?}"
        );
        assert_eq!(overlong, 1);
    }
}
