//! The tokio adapters on real loopback TCP (feature `tokio`): a game between
//! two `net::connect` clients, and the load test — 200 connected clients
//! playing 100 simultaneous games, with no move lost or delivered to the
//! wrong game. Bounded in count and time; 127.0.0.1 only.
#![cfg(feature = "tokio")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use board_core::player::Player as BuiltIn;
use board_core::shogi::Move;
use csa_protocol::message::{X1Command, X1Reply};
use std::ops::ControlFlow;

use csa_protocol::net::{Activity, Closed, Config, Ended, connect, serve};
use csa_protocol::session::{Client, ClientConfig, Event, ServerConfig};
use csa_protocol::types::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Barrier;

fn cfg(name: &str, x1: bool, game: Option<(&str, SidePreference)>) -> ClientConfig {
    let mut c = ClientConfig::new(
        UserName::new(name.to_string()).unwrap(),
        Password::new("pw").unwrap(),
    );
    c.x1 = x1;
    c.game = game.map(|(g, s)| (GameName::new(g.to_string()).unwrap(), s));
    c
}

/// The built-in player's move on the client's board.
fn choose(player: &mut BuiltIn, client: &Client<Instant>) -> Option<Move> {
    player.choose_shogi(client.position()?)
}

async fn start_server(config: ServerConfig) -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, Config::new(config), |_| {
        ControlFlow::Continue(())
    }));
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_play_a_game_over_tcp() {
    let addr = start_server(ServerConfig {
        max_moves: 30,
        ..Default::default()
    })
    .await;
    let mut handles = Vec::new();
    for (i, name) in ["tcp_black", "tcp_white"].into_iter().enumerate() {
        // CSA mode: the game name is the password, sides by suffix.
        let mut c = cfg(name, false, None);
        c.password = Password::new(if i == 0 {
            "tcpgame-60-0-B"
        } else {
            "tcpgame-60-0-W"
        })
        .unwrap();
        handles.push(tokio::spawn(async move {
            let mut events = Vec::new();
            let mut player = BuiltIn::new(i as u64);
            let ended = connect(
                addr,
                Config::new(c),
                |client, activity| -> ControlFlow<()> {
                    let Activity::Event(e) = activity else {
                        return ControlFlow::Continue(());
                    };
                    let now = Instant::now();
                    match e {
                        Event::GameSummary(_) => client.agree(now).unwrap(),
                        Event::OurTurn { .. } if client.is_our_turn() => {
                            match choose(&mut player, client) {
                                Some(mv) => client.send_move(mv, now).unwrap(),
                                None => client.resign(now).unwrap(),
                            }
                        }
                        _ => {}
                    }
                    events.push(e);
                    ControlFlow::Continue(())
                },
            )
            .await
            .unwrap();
            (ended, events)
        }));
    }
    let results = join_all(handles, Duration::from_secs(30)).await;
    for (i, (ended, events)) in results.iter().enumerate() {
        assert_eq!(
            *ended,
            Ended::Closed(Closed::ByPeer),
            "CSA mode: the server closes after the game"
        );
        let over = events.iter().find_map(|e| match e {
            Event::GameEnded(end) => Some((end.reason, end.outcome)),
            _ => None,
        });
        let moves = events
            .iter()
            .filter(|e| matches!(e, Event::Move { .. }))
            .count();
        assert!(over.is_some(), "player {i}: {events:?}");
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::BoardMismatch { .. }))
        );
        assert!(moves > 0 && moves <= 30);
    }
}

/// One load-test player: a client session on a stream, stepped by hand so
/// that all players can meet at barriers.
struct Player {
    client: Client<Instant>,
    player: BuiltIn,
    read: tokio::net::tcp::OwnedReadHalf,
    write: tokio::net::tcp::OwnedWriteHalf,
    events: Vec<Event>,
}

impl Player {
    async fn connect(addr: std::net::SocketAddr, name: &str, seed: u64) -> Player {
        let stream = TcpStream::connect(addr).await.unwrap();
        stream.set_nodelay(true).unwrap();
        let (read, write) = stream.into_split();
        Player {
            client: Client::new(cfg(name, true, None), Instant::now()),
            read,
            write,
            events: Vec::new(),
            player: BuiltIn::new(seed),
        }
    }

    async fn flush(&mut self) {
        while let Some(b) = self.client.poll_transmit() {
            self.write.write_all(b.as_bytes()).await.unwrap();
        }
    }

    /// Reads and handles until `done` holds for an event.
    async fn until(&mut self, moves_allowed: bool, done: impl Fn(&Event) -> bool) {
        let mut buf = [0u8; 4096];
        loop {
            let mut hit = false;
            while let Some(e) = self.client.poll_event() {
                let now = Instant::now();
                match &e {
                    Event::GameSummary(_) => self.client.agree(now).unwrap(),
                    // The game may already be over when a queued OurTurn is
                    // seen (result lines in the same read): then nothing to do.
                    Event::OurTurn { .. } if moves_allowed && self.client.is_our_turn() => {
                        match choose(&mut self.player, &self.client) {
                            Some(mv) => self.client.send_move(mv, now).unwrap(),
                            None => self.client.resign(now).unwrap(),
                        }
                    }
                    _ => {}
                }
                hit |= done(&e);
                self.events.push(e);
            }
            self.flush().await;
            if hit {
                return;
            }
            let n = self.read.read(&mut buf).await.unwrap();
            assert!(n > 0, "server closed unexpectedly");
            self.client.handle_input(&buf[..n], Instant::now());
        }
    }

    fn moves(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Move { csa, time, .. } => {
                    Some(format!("{csa},T{}", time.unwrap().as_secs()))
                }
                _ => None,
            })
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_200_clients_100_simultaneous_games() {
    const GAMES: usize = 100;
    let addr = start_server(ServerConfig {
        max_moves: 40,
        ..Default::default()
    })
    .await;
    let started = Instant::now();
    let logged_in = Arc::new(Barrier::new(2 * GAMES + 1));
    let all_started = Arc::new(Barrier::new(2 * GAMES + 1));
    let listed = Arc::new(Barrier::new(2 * GAMES + 1));
    let mut handles = Vec::new();
    for g in 0..GAMES {
        for side in [SidePreference::Black, SidePreference::White] {
            let (logged_in, all_started, listed) =
                (logged_in.clone(), all_started.clone(), listed.clone());
            handles.push(tokio::spawn(async move {
                let name = format!(
                    "p{g}{}",
                    if side == SidePreference::Black {
                        "b"
                    } else {
                        "w"
                    }
                );
                let mut p = Player::connect(addr, &name, g as u64).await;
                p.flush().await;
                p.until(false, |e| matches!(e, Event::LoggedIn)).await;
                logged_in.wait().await;
                let now = Instant::now();
                p.client
                    .request_game(GameName::new(format!("load{g}-600-0")).unwrap(), side, now)
                    .unwrap();
                p.flush().await;
                p.until(false, |e| matches!(e, Event::GameStarted { .. }))
                    .await;
                all_started.wait().await;
                listed.wait().await;
                // Black makes its first move now (its OurTurn event was seen
                // before the barrier, while moves were not allowed).
                if p.client.is_our_turn() {
                    let mv = choose(&mut p.player, &p.client).unwrap();
                    p.client.send_move(mv, Instant::now()).unwrap();
                    p.flush().await;
                }
                p.until(true, |e| matches!(e, Event::GameEnded(_))).await;
                let game_id = p
                    .client
                    .summary()
                    .unwrap()
                    .game_id
                    .clone()
                    .unwrap()
                    .to_string();
                (g, side, game_id, p.moves(), p.events)
            }));
        }
    }
    // An observer: with everyone logged in there are 201 connections; once
    // every game has started, %%LIST shows 100 games at the same time.
    let mut obs = Player::connect(addr, "observer", 0).await;
    obs.flush().await;
    obs.until(false, |e| matches!(e, Event::LoggedIn)).await;
    logged_in.wait().await;
    all_started.wait().await;
    obs.client
        .x1_command(X1Command::List, Instant::now())
        .unwrap();
    obs.flush().await;
    obs.until(
        false,
        |e| matches!(e, Event::X1(X1Reply::Ok(t)) if t.as_str() == "LIST"),
    )
    .await;
    let listed_barrier = listed;
    let listed = obs
        .events
        .iter()
        .filter(|e| matches!(e, Event::X1(X1Reply::List(_))))
        .count();
    assert_eq!(listed, GAMES, "simultaneous games");
    listed_barrier.wait().await;

    let results = join_all(handles, Duration::from_secs(120)).await;
    let elapsed = started.elapsed();
    let mut total_moves = 0;
    for g in 0..GAMES {
        let pair: Vec<_> = results.iter().filter(|r| r.0 == g).collect();
        assert_eq!(pair.len(), 2);
        let (a, b) = (pair[0], pair[1]);
        assert_eq!(a.2, b.2, "same game id");
        assert!(a.2.contains(&format!("+load{g}-600-0+p{g}b+p{g}w+")));
        assert_eq!(
            a.3, b.3,
            "game {g}: both players saw exactly the same moves"
        );
        assert!(!a.3.is_empty());
        for r in [a, b] {
            assert!(
                !r.4.iter().any(|e| matches!(e, Event::BoardMismatch { .. })),
                "game {g}: every move legal on the player's own board"
            );
        }
        total_moves += a.3.len();
    }
    eprintln!(
        "load: {} clients, {GAMES} simultaneous games, {total_moves} moves in {:.2?} ({:.0} moves/s) on a shared 2-core machine",
        2 * GAMES + 1,
        elapsed,
        total_moves as f64 / elapsed.as_secs_f64()
    );
}

/// The results of `handles`, in order; each task must end within `limit`
/// (counted per task) and without panicking.
async fn join_all<T>(handles: Vec<tokio::task::JoinHandle<T>>, limit: Duration) -> Vec<T> {
    let mut results = Vec::new();
    for h in handles {
        results.push(tokio::time::timeout(limit, h).await.unwrap().unwrap());
    }
    results
}

/// Reads until the server closes the connection (bounded in time).
async fn read_to_close(stream: &mut TcpStream) -> Vec<u8> {
    let mut got = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut got))
        .await
        .expect("the server closes the connection")
        .unwrap();
    got
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_close_silent_and_misbehaving_peers() {
    let mut config = Config::new(ServerConfig::default());
    config.limits.login_timeout = Duration::from_millis(300);
    config.limits.driver.max_bad_frames = 3;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, config, |_| ControlFlow::Continue(())));
    // No LOGIN within the login timeout: closed, unanswered.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let started = Instant::now();
    assert_eq!(read_to_close(&mut silent).await, b"");
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(250), "{waited:?}");
    // Three malformed or unrecognised lines in a row: closed after the
    // answers (spec/csa.md: a bad LOGIN is answered `LOGIN:incorrect`).
    let mut bad = TcpStream::connect(addr).await.unwrap();
    bad.write_all(b"HELLO\nLOGIN\nhello again\n").await.unwrap();
    let got = read_to_close(&mut bad).await;
    assert_eq!(got, b"LOGIN:incorrect\nLOGIN:incorrect\nLOGIN:incorrect\n");
}

/// A league pairing everyone waiting, in pairs of arrival, at one time.
#[derive(Debug)]
struct AtOnce {
    at: Option<u64>,
}

impl csa_protocol::session::League for AtOnce {
    fn schedules(&self, gamename: &str) -> bool {
        gamename == "floodgate-60-0"
    }
    fn next_pairing(&self, _: u64, _: i32) -> Option<u64> {
        self.at
    }
    fn pair(
        &mut self,
        _: u64,
        _: i32,
        waiting: &[csa_protocol::session::WaitingPlayer<'_>],
    ) -> csa_protocol::session::LeagueRound {
        self.at = None;
        let games = waiting
            .chunks_exact(2)
            .map(|p| csa_protocol::session::LeagueGame {
                black: p[0].conn,
                white: p[1].conn,
                gamename: p[0].gamename.into(),
                max_moves: Some(100),
                least_time_per_move: None,
            })
            .collect();
        csa_protocol::session::LeagueRound {
            games,
            log: vec!["paired".into()],
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_league_set_through_serve_controlled_pairs_at_its_time() {
    // shogi-server's Floodgate: players of a scheduled game wait until the
    // pairing time; then the pairs start with the league's Max_Moves.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::mpsc::channel::<csa_protocol::net::Control>(4);
    let at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 2;
    tx.send(Box::new(move |s| {
        s.set_league(Box::new(AtOnce { at: Some(at) }))
    }))
    .await
    .unwrap();
    let (etx, mut erx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(csa_protocol::net::serve_controlled(
        listener,
        Config::new(ServerConfig::default()),
        None,
        rx,
        move |e| {
            let _ = etx.send(format!("{e:?}"));
            ControlFlow::Continue(())
        },
    ));
    let mut socks = Vec::new();
    for name in ["lg_a", "lg_b"] {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(format!("LOGIN {name} pw x1\n%%GAME floodgate-60-0 *\n").as_bytes())
            .await
            .unwrap();
        socks.push(s);
    }
    let read_for = |mut s: TcpStream, d: Duration| async move {
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        let end = tokio::time::Instant::now() + d;
        while let Ok(Ok(n)) = tokio::time::timeout_at(end, s.read(&mut buf)).await {
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        (s, String::from_utf8(got).unwrap())
    };
    // Before the time: logged in, no Game_Summary.
    let first = socks.remove(0);
    let (first, early) = read_for(first, Duration::from_millis(800)).await;
    assert_eq!(early, "LOGIN:lg_a OK\n##[LOGIN] +OK x1\n");
    let (_, late) = read_for(first, Duration::from_secs(4)).await;
    assert!(late.starts_with("BEGIN Game_Summary\n"), "{late}");
    assert!(late.contains("\nMax_Moves:100\n"), "{late}");
    assert!(late.contains("\nYour_Turn:+\n"), "{late}");
    let mut events = Vec::new();
    while let Ok(e) = erx.try_recv() {
        events.push(e);
    }
    assert!(
        events.iter().any(|e| e.contains("League(\"paired\")")),
        "{events:?}"
    );
}
