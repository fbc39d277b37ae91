//! The DXP bridge on 127.0.0.1: two test Hub engines play through
//! `damexchange::net::serve_with` (a bridge per connection) and
//! `connect_with`; an engine that crashes, plays an illegal move or stays
//! silent ends its game with our GAMEEND (we lose), the other side sees
//! the same game.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use board_core::draughts::Color;
use boardwire_engines::dxp_bridge::{BridgePlan, HubBridge, Report};
use boardwire_engines::process::EngineSpec;
use boardwire_engines::types::EngineOption;
use damexchange::net::{self, ConnectInput, Flow, Limits, NetEvent};
use damexchange::session::{
    Event, FollowerConfig, GameEnded, GameOffer, InitiatorConfig, Outcome, Side,
};
use damexchange::{GameEndReason, Name};
use tokio::net::TcpListener;

fn plan(mode: &str) -> BridgePlan {
    let mut p = BridgePlan::new(
        EngineSpec {
            program: env!("CARGO_BIN_EXE_boardwire-test-engine").into(),
            args: vec![mode.into(), "7".into()],
        },
        vec![
            "seed=3".parse::<EngineOption>().unwrap(),
            "nosuch=1".parse().unwrap(),
        ],
    );
    p.timeouts.think_margin = Duration::from_millis(500);
    p.no_clock_move_time = 0.2;
    p
}

/// One side's view: the end of its game, what its bridge reported.
#[derive(Debug, Default)]
struct Seen {
    end: Option<GameEnded>,
    reports: Vec<String>,
    failed: Option<String>,
    taken_back: u32,
}

/// Plays one game: the follower's engine in `follower_mode`, the
/// initiator's in `initiator_mode` (White); the initiator stops the game
/// (GAMEEND 0) at its turn after `max_plies`, asks one take-back at ply
/// `take_back_at`.
async fn game(
    follower_mode: &'static str,
    initiator_mode: &'static str,
    minutes: u16,
    max_plies: usize,
    take_back_at: Option<usize>,
) -> (Seen, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let follower_seen = Arc::new(Mutex::new(Seen::default()));
    let fs = follower_seen.clone();
    let mut fconfig = FollowerConfig::new(Name::new("follower").unwrap());
    fconfig.first_move_delay = Duration::ZERO;
    let server = tokio::spawn(net::serve_with(
        listener,
        fconfig,
        Limits::default(),
        move |_, _| {
            let (mut bridge, answers) = HubBridge::spawn(plan(follower_mode), Box::new(|_| {}));
            let seen = fs.clone();
            let callback = move |f: &mut damexchange::session::Follower<Instant>,
                                 input: ConnectInput<'_, _>| {
                let now = Instant::now();
                let mut s = seen.lock().unwrap();
                let report: Option<Report> = match input {
                    ConnectInput::External(a) => Some(bridge.answer(f, a, now)),
                    ConnectInput::Net(NetEvent::Session(Event::GameStarted(g))) => {
                        bridge.game_started(g);
                        None
                    }
                    ConnectInput::Net(NetEvent::Session(Event::TakenBack { .. })) => {
                        s.taken_back += 1;
                        bridge.taken_back();
                        None
                    }
                    ConnectInput::Net(NetEvent::Session(Event::GameEnded(g))) => {
                        bridge.game_ended();
                        s.end = Some(g.clone());
                        s.failed = bridge.failed().map(str::to_owned);
                        return if s.failed.is_some() {
                            Flow::Close
                        } else {
                            Flow::Continue
                        };
                    }
                    ConnectInput::Net(NetEvent::Idle) => bridge.our_turn(f, now),
                    _ => None,
                };
                if let Some(r) = report {
                    s.reports.push(r.to_string());
                }
                Flow::Continue
            };
            (answers, callback)
        },
        |_, _| {},
    ));
    let mut seen = Seen::default();
    let (mut bridge, answers) = HubBridge::spawn(plan(initiator_mode), Box::new(|_| {}));
    let request = GameOffer {
        our_color: Color::White,
        minutes,
        moves: 0,
        start: None,
    };
    let mut iconfig = InitiatorConfig::new(Name::new("initiator").unwrap());
    iconfig.reply_timeout = Some(Duration::from_secs(10));
    let mut asked_back = false;
    let r = tokio::time::timeout(
        Duration::from_secs(60),
        net::connect_with(addr, iconfig, &Limits::default(), answers, |i, input| {
            let now = Instant::now();
            let report = match input {
                ConnectInput::Net(NetEvent::Connected { .. }) => {
                    i.request_game(request, now).unwrap();
                    None
                }
                ConnectInput::External(a) => Some(bridge.answer(i, a, now)),
                ConnectInput::Net(NetEvent::Session(Event::GameStarted(g))) => {
                    bridge.game_started(g);
                    None
                }
                ConnectInput::Net(NetEvent::Session(Event::TakenBack { .. })) => {
                    seen.taken_back += 1;
                    bridge.taken_back();
                    None
                }
                ConnectInput::Net(NetEvent::Session(Event::GameEnded(g))) => {
                    bridge.game_ended();
                    seen.end = Some(g.clone());
                    seen.failed = bridge.failed().map(str::to_owned);
                    return Flow::Close;
                }
                ConnectInput::Net(NetEvent::Idle) if i.is_our_turn() => {
                    let plies = i.moves().len();
                    if take_back_at == Some(plies) && !asked_back {
                        asked_back = true;
                        let (n, c) = i.move_number().unwrap();
                        i.request_take_back(n - 1, c, now).unwrap();
                        None
                    } else if plies >= max_plies && bridge.failed().is_none() {
                        i.end_game(GameEndReason::Unknown, now).unwrap();
                        None
                    } else {
                        bridge.our_turn(i, now)
                    }
                }
                _ => None,
            };
            if let Some(r) = report {
                seen.reports.push(r.to_string());
            }
            Flow::Continue
        }),
    )
    .await
    .expect("the game is bounded");
    r.unwrap();
    // The follower handles its last events after its answer went out.
    for _ in 0..200 {
        if follower_seen.lock().unwrap().end.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server.abort();
    let f = std::mem::take(&mut *follower_seen.lock().unwrap());
    (f, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hub_engines_play_a_game_over_dxp() {
    let (f, i) = game("hub", "hub", 1, 40, Some(6)).await;
    let (fe, ie) = (
        f.end.clone().expect("follower game end"),
        i.end.clone().expect("initiator"),
    );
    // The same game on both sides.
    assert_eq!(fe.moves, ie.moves);
    assert_eq!(fe.start, ie.start);
    assert!(
        ie.moves.len() >= 40 || ie.outcome != Outcome::Unknown,
        "{ie:?}"
    );
    assert_eq!(Outcome::of(Side::Us, ie.reason), ie.outcome);
    assert_eq!(Outcome::of(Side::Opponent, fe.reason), fe.outcome);
    assert!(i.failed.is_none() && f.failed.is_none(), "{i:?} {f:?}");
    // One take-back, seen by both.
    assert_eq!((i.taken_back, f.taken_back), (1, 1));
    // The engines were asked with the clock: 1 minute for the whole game.
    assert!(
        i.reports.iter().any(|r| r == "engine asked: level time=60"),
        "{:?}",
        i.reports
    );
    // `--option nosuch=1` is named; `seed` is a parameter of the engine.
    assert!(
        i.reports.iter().any(|r| r
            == "engine boardwire-test-engine ready; warning: it has no parameter nosuch (sent anyway)"),
        "{:?}",
        i.reports
    );
    assert!(
        i.reports
            .iter()
            .any(|r| r.starts_with("engine: done move="))
    );
    assert!(
        f.reports
            .iter()
            .any(|r| r.starts_with("engine: done move="))
    );
}

/// The failing engine plays Black (the follower): our GAMEEND 1 at its
/// turn, the initiator wins.
async fn failing(mode: &'static str, minutes: u16, why: &str) {
    let (f, i) = game(mode, "hub", minutes, 200, None).await;
    let (fe, ie) = (f.end.expect("follower"), i.end.expect("initiator"));
    let failed = f.failed.expect("the follower's engine failed");
    assert!(failed.contains(why), "{failed}");
    assert_eq!((fe.by, fe.reason), (Side::Us, GameEndReason::SenderLoses));
    assert_eq!((fe.outcome, ie.outcome), (Outcome::Lost, Outcome::Won));
    assert_eq!(fe.moves, ie.moves);
    assert!(
        f.reports
            .iter()
            .any(|r| r.starts_with("engine failed: ") && r.ends_with("we resign (GAMEEND 1)")),
        "{:?}",
        f.reports
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_crashes_resigns() {
    failing("hub-crash", 1, "the engine exited (exit status: 3)").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_playing_an_illegal_move_resigns() {
    failing("hub-illegal", 1, "the engine played 1-1, illegal here").await;
}

/// No clock (thinking time `000`): `move-time=0.2`, silent past it plus
/// the 0.5 s margin.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_engine_resigns() {
    let t0 = Instant::now();
    failing("hub-silent", 0, "the engine did not send done within").await;
    assert!(t0.elapsed() < Duration::from_secs(10));
}
