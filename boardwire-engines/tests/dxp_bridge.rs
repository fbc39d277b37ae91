//! The DXP bridge on 127.0.0.1: two test Hub engines play through
//! `damexchange::net::serve_with` (a bridge per connection) and
//! `connect_with`; an engine that crashes, plays an illegal move or stays
//! silent ends its game with our GAMEEND (we lose), the other side sees
//! the same game.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use board_core::draughts::Color;
use boardwire_engines::dxp_bridge::{BridgePlan, HubBridge, Mover, Report};
use boardwire_engines::process::EngineSpec;
use boardwire_engines::types::EngineOption;
use damexchange::net::{self, Activity, Config};
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

impl Seen {
    /// An event: passed on to the engine (`Mover::event`), noted; `true`
    /// when the game ended.
    fn event(&mut self, mover: &mut Mover, e: &Event) -> bool {
        mover.event(e);
        match e {
            Event::TakenBack { .. } => self.taken_back += 1,
            Event::GameEnded(g) => {
                self.end = Some(g.clone());
                self.failed = mover.failed().map(str::to_owned);
                return true;
            }
            _ => {}
        }
        false
    }

    fn report(&mut self, r: Option<Report>) {
        if let Some(r) = r {
            self.reports.push(r.to_string());
        }
    }
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
    let mut fconfig = Config::new(FollowerConfig::new(Name::new("follower").unwrap()));
    fconfig.session.first_move_delay = Duration::ZERO;
    let server = tokio::spawn(net::serve_with(
        listener,
        fconfig,
        move |_, _| {
            let (bridge, answers) = HubBridge::spawn(plan(follower_mode), Box::new(|_| {}));
            let mut mover = Mover::Engine(bridge);
            let seen = fs.clone();
            let callback = move |f: &mut damexchange::session::Follower<Instant>,
                                 a: Activity<'_, '_, _, _>| {
                let now = Instant::now();
                let mut s = seen.lock().unwrap();
                match a {
                    Activity::External(a) => s.report(mover.answer(f, a, now)),
                    Activity::Event(e) if s.event(&mut mover, &e) && s.failed.is_some() => {
                        return ControlFlow::Break(());
                    }
                    Activity::Idle => s.report(mover.our_turn(f, now)),
                    _ => {}
                }
                ControlFlow::Continue(())
            };
            (answers, callback)
        },
        |_, _| {},
    ));
    let mut seen = Seen::default();
    let (bridge, answers) = HubBridge::spawn(plan(initiator_mode), Box::new(|_| {}));
    let mut mover = Mover::Engine(bridge);
    let request = GameOffer {
        our_color: Color::White,
        minutes,
        moves: 0,
        start: None,
    };
    let mut iconfig = Config::new(InitiatorConfig::new(Name::new("initiator").unwrap()));
    iconfig.session.reply_timeout = Some(Duration::from_secs(10));
    let mut asked_back = false;
    let mut requested = false;
    let r = tokio::time::timeout(
        Duration::from_secs(60),
        net::connect_with(addr, iconfig, answers, |i, a| {
            let now = Instant::now();
            match a {
                Activity::Idle if !requested => {
                    requested = true;
                    i.request_game(request, now).unwrap();
                }
                Activity::External(a) => seen.report(mover.answer(i, a, now)),
                Activity::Event(e) if seen.event(&mut mover, &e) => {
                    return ControlFlow::Break(());
                }
                Activity::Idle if i.is_our_turn() => {
                    let plies = i.moves().len();
                    if take_back_at == Some(plies) && !asked_back {
                        asked_back = true;
                        let (n, c) = i.move_number().unwrap();
                        i.request_take_back(n - 1, c, now).unwrap();
                    } else if plies >= max_plies && mover.failed().is_none() {
                        i.end_game(GameEndReason::Unknown, now).unwrap();
                    } else {
                        seen.report(mover.our_turn(i, now));
                    }
                }
                _ => {}
            }
            ControlFlow::Continue(())
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
    assert_eq!(
        damexchange::session::outcome_of(Side::Us, ie.reason),
        ie.outcome
    );
    assert_eq!(
        damexchange::session::outcome_of(Side::Opponent, fe.reason),
        fe.outcome
    );
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
