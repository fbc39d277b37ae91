//! The TCP drivers on 127.0.0.1: a whole game between `net::serve` and
//! `net::connect`, and the limits (handshake timeout, bad frames in a row,
//! max connections, send timeout), with how each connection ended.
#![cfg(feature = "tokio")]

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use board_core::draughts::Color;
use board_core::player::Player;
use damexchange::net::{self, Activity, Closed, Config, Ended, Limits};
use damexchange::session::{
    CloseReason, Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig, Outcome,
};
use damexchange::{GameEndReason, Name};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

type Log = Arc<Mutex<Vec<String>>>;

/// A follower served on an ephemeral port, playing the built-in player;
/// `closed` collects how each connection ended (`n: Served`, Debug).
async fn serve(limits: Limits, closed: Log) -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = Config::new(FollowerConfig::new(Name::new("net follower").unwrap()));
    config.session.first_move_delay = Duration::ZERO;
    config.limits = limits;
    tokio::spawn(net::serve(
        listener,
        config,
        |n, _| {
            let mut player = Player::new(n);
            move |f: &mut Follower<Instant>, a: Activity<'_, '_, Follower<Instant>>| {
                if matches!(a, Activity::Idle) && f.is_our_turn() {
                    let now = Instant::now();
                    let pos = *f.position().unwrap();
                    let _ = match player.choose_draughts(&pos) {
                        Some(mv) => f.send_move_with(mv, 0, now),
                        None => f.end_game(GameEndReason::SenderLoses, now),
                    };
                }
                ControlFlow::<()>::Continue(())
            }
        },
        move |n, r| closed.lock().unwrap().push(format!("{n}: {r:?}")),
    ));
    addr
}

/// The initiator asks for a game, White, `minutes` each for the whole
/// game, from the start position; returns `true` (asked).
fn request_white(i: &mut Initiator<Instant>, minutes: u16, now: Instant) -> bool {
    let offer = GameOffer {
        our_color: Color::White,
        minutes,
        moves: 0,
        start: None,
    };
    i.request_game(offer, now).unwrap();
    true
}

#[tokio::test]
async fn a_whole_game_between_serve_and_connect() {
    let closed = Log::default();
    let addr = serve(Limits::default(), closed.clone()).await;
    let mut player = Player::new(3);
    let mut sent = Vec::new();
    let mut received = Vec::new();
    let mut asked = false;
    let config = Config::new(InitiatorConfig::new(Name::new("net initiator").unwrap()));
    let result = net::connect(addr, config, |i, a| {
        let now = Instant::now();
        match a {
            // The first Idle: connected, nothing sent yet.
            Activity::Idle if !asked => asked = request_white(i, 5, now),
            Activity::Sent {
                message: Some(m), ..
            } => sent.push(m.kind()),
            Activity::Received { message, .. } => received.push(message.kind()),
            Activity::Event(Event::GameEnded(g)) => {
                // Delivered with the game still readable.
                assert_eq!(i.moves(), &g.moves[..]);
                return ControlFlow::Break(g);
            }
            Activity::Idle if i.is_our_turn() => {
                let pos = *i.position().unwrap();
                let _ = match player.choose_draughts(&pos) {
                    _ if i.moves().len() >= 300 => i.end_game(GameEndReason::Draw, now),
                    Some(mv) => i.send_move_with(mv, 0, now),
                    None => i.end_game(GameEndReason::SenderLoses, now),
                };
            }
            _ => {}
        }
        ControlFlow::Continue(())
    })
    .await
    .unwrap();
    let Ended::Break(ended) = result else {
        panic!("{result:?}")
    };
    assert_ne!(ended.outcome, Outcome::Unknown);
    use damexchange::MessageKind as K;
    assert_eq!(sent[0], K::GameReq);
    assert_eq!(received[0], K::GameAcc);
    // The GAMEEND exchange closes it, one each way.
    assert_eq!(sent.iter().filter(|k| **k == K::GameEnd).count(), 1);
    assert_eq!(received.iter().filter(|k| **k == K::GameEnd).count(), 1);
}

#[tokio::test]
async fn limits_close_misbehaving_connections() {
    let closed = Log::default();
    let mut limits = Limits::default();
    limits.handshake_timeout = Duration::from_millis(200);
    limits.driver.max_bad_frames = 3;
    let addr = serve(limits, closed.clone()).await;
    // Silent after connecting: closed after the handshake timeout.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let mut buf = [0u8; 16];
    let n = tokio::time::timeout(Duration::from_secs(5), silent.read(&mut buf))
        .await
        .expect("closed by the follower")
        .unwrap();
    assert_eq!(n, 0);
    // Garbage: three unrecognised frames in a row (the limit) close it,
    // after a CHAT saying why; the fourth frame is not read.
    let mut noisy = TcpStream::connect(addr).await.unwrap();
    noisy.write_all(b"X\0Y\0Q\0W\0").await.unwrap();
    let mut got = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), noisy.read_to_end(&mut got))
        .await
        .expect("closed by the follower")
        .unwrap();
    assert_eq!(
        got,
        b"Cerror: 3 malformed or unrecognised frames in a row; closing\0"
    );
    let log = wait_for(&closed, "2: BySession(TooManyBadFrames)").await;
    assert!(
        log.contains(&"1: BySession(HandshakeTimeout)".to_string()),
        "{log:?}"
    );
    assert!(
        log.contains(&"2: BySession(TooManyBadFrames)".to_string()),
        "{log:?}"
    );
}

/// Polls `closed` until it holds `entry` (or 10 s pass).
async fn wait_for(closed: &Log, entry: &str) -> Vec<String> {
    for _ in 0..1000 {
        let now = closed.lock().unwrap().clone();
        if now.iter().any(|e| e == entry) {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    closed.lock().unwrap().clone()
}

#[tokio::test]
async fn connections_beyond_max_connections_are_closed_at_once() {
    let closed = Log::default();
    let mut limits = Limits::default();
    limits.max_connections = 1;
    let addr = serve(limits, closed.clone()).await;
    let _first = TcpStream::connect(addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut second = TcpStream::connect(addr).await.unwrap();
    let mut buf = [0u8; 8];
    let n = tokio::time::timeout(Duration::from_secs(5), second.read(&mut buf))
        .await
        .expect("closed at once")
        .unwrap_or(0);
    assert_eq!(n, 0);
    let log = wait_for(&closed, "2: TooManyConnections").await;
    assert!(
        log.contains(&"2: TooManyConnections".to_string()),
        "{log:?}"
    );
}

#[tokio::test]
async fn a_peer_that_does_not_read_is_closed_after_the_send_timeout() {
    let closed = Log::default();
    let mut limits = Limits::default();
    limits.driver.send_timeout = Duration::from_millis(300);
    let addr = serve(limits, closed.clone()).await;
    // A peer with a small receive buffer sends BACKREQs (each answered
    // `K1`, no game) and never reads: the follower's writes stall.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let (_read, mut write) = stream.into_split();
    let writer = tokio::spawn(async move {
        let chunk = b"B001W\0".repeat(10_000);
        for _ in 0..2_000 {
            if write.write_all(&chunk).await.is_err() {
                return;
            }
        }
    });
    let entry = "1: Ended(Closed(SendTimeout))";
    let log = wait_for(&closed, entry).await;
    writer.abort();
    assert!(log.contains(&entry.to_string()), "{log:?}");
}

#[tokio::test]
async fn what_is_queued_when_the_callback_breaks_is_still_sent() {
    // The callback sends a CHAT and breaks at once: the CHAT goes out.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let peer = tokio::spawn(async move {
        let (mut s, _) = listener.accept().await.unwrap();
        let mut got = Vec::new();
        s.read_to_end(&mut got).await.unwrap();
        got
    });
    let config = Config::new(InitiatorConfig::new(Name::new("I").unwrap()));
    let ended = net::connect(addr, config, |i, a| {
        if matches!(a, Activity::Idle) {
            i.send_chat("bye", Instant::now()).unwrap();
            return ControlFlow::Break("bye");
        }
        ControlFlow::Continue(())
    })
    .await
    .unwrap();
    assert_eq!(ended, Ended::Break("bye"));
    assert_eq!(peer.await.unwrap(), b"Cbye\0");
}

/// `run` over any stream (here an in-memory duplex): the initiator's
/// handshake bound is the session's, told as `Event::Closing` before the
/// run ends with `Closed::BySession`.
#[tokio::test]
async fn run_over_a_duplex_and_the_initiators_handshake_bound() {
    let (ours, mut theirs) = tokio::io::duplex(1024);
    let mut config = Config::new(InitiatorConfig::new(Name::new("I").unwrap()));
    config.limits.handshake_timeout = Duration::from_millis(100);
    let mut events = Vec::new();
    let mut asked = false;
    let ended = net::run(ours, config, |i, a| {
        match a {
            Activity::Idle if !asked => asked = request_white(i, 1, Instant::now()),
            Activity::Event(e) => events.push(e),
            _ => {}
        }
        ControlFlow::<()>::Continue(())
    })
    .await
    .unwrap();
    assert_eq!(ended, Ended::Closed(Closed::BySession));
    assert_eq!(events, [Event::Closing(CloseReason::HandshakeTimeout)]);
    let mut got = Vec::new();
    theirs.read_to_end(&mut got).await.unwrap();
    assert!(got.starts_with(b"R01I"), "{got:?}");
}
