//! The UCI ⇄ Citrine bridge in memory: the host `Driver` session against
//! the simulated Citrine (`Device`), no serial port; the host's side is a
//! UCI engine behind a `UciBridge`, fed as the serial driver's caller
//! would feed it (every driver event, `our_turn` whenever the sessions are
//! quiet, each engine answer as it comes). A game to its end (or a ply
//! limit) with a take-back under a search, then a new game; the host as
//! Black (the Citrine flipped to White); an engine that cannot start.

use std::time::{Duration, Instant};

use board_core::chess::{Color, Position};
use boardwire_engines::citrine_bridge::{Answer, BridgePlan, Report, UciBridge};
use boardwire_engines::process::EngineSpec;
use novag_citrine::session::{
    Device, DeviceConfig, Driver, DriverConfig, EndReason, Event, GameEnded, Outcome,
};
use tokio::sync::mpsc::Receiver;

fn plan(program: &str, mode: &str) -> BridgePlan {
    let mut p = BridgePlan::new(
        EngineSpec {
            program: program.into(),
            args: vec![mode.into(), "11".into()],
        },
        Vec::new(),
    );
    p.movetime_ms = 20;
    p
}

/// What one run saw.
#[derive(Debug, Default)]
struct Seen {
    reports: Vec<Report>,
    ended: Vec<GameEnded>,
    started: usize,
    taken_back: usize,
    /// Plies of the first game when the take-back was asked.
    took_back_at: Option<usize>,
}

struct Table {
    driver: Driver<Instant>,
    device: Device<Instant>,
    bridge: UciBridge,
    answers: Receiver<Answer>,
    seen: Seen,
}

impl Table {
    fn new(host: Color, bridge_plan: BridgePlan) -> Table {
        let now = Instant::now();
        let driver = Driver::new(
            DriverConfig {
                host_color: Some(host),
                min_gap: Duration::from_millis(1),
                resend: None,
                flip: host == Color::Black,
                ..DriverConfig::default()
            },
            now,
        );
        let device = Device::new(
            DeviceConfig {
                engine_color: Color::Black,
                think_time: Duration::from_millis(1),
                seed: 4,
                ..DeviceConfig::default()
            },
            now,
        );
        let (bridge, answers) = UciBridge::spawn(bridge_plan, Box::new(|_| {}));
        Table {
            driver,
            device,
            bridge,
            answers,
            seen: Seen::default(),
        }
    }

    /// Timeouts, then bytes both ways and the driver's events to the
    /// bridge until nothing moves.
    fn pump(&mut self) {
        loop {
            let now = Instant::now();
            if self.driver.poll_timeout().is_some_and(|t| t <= now) {
                self.driver.handle_timeout(now);
            }
            if self.device.poll_timeout().is_some_and(|t| t <= now) {
                self.device.handle_timeout(now);
            }
            let mut progress = false;
            while let Some(t) = self.driver.poll_transmit() {
                progress = true;
                self.device.handle_input(t.as_bytes(), now);
            }
            while let Some(t) = self.device.poll_transmit() {
                progress = true;
                self.driver.handle_input(t.as_bytes(), now);
            }
            while self.device.poll_event().is_some() {}
            while let Some(e) = self.driver.poll_event() {
                progress = true;
                match e {
                    Event::GameStarted(g) => {
                        self.seen.started += 1;
                        self.bridge.game_started(&g);
                    }
                    Event::GameEnded(end) => {
                        self.bridge.game_ended();
                        self.seen.ended.push(end);
                    }
                    Event::TakenBack(_) => {
                        self.seen.taken_back += 1;
                        self.bridge.taken_back();
                    }
                    Event::Disagreement(d) => panic!("disagreement: {d}"),
                    Event::OutOfSync { .. } => panic!("out of sync"),
                    _ => {}
                }
            }
            if !progress {
                return;
            }
        }
    }

    /// Waits for the bridge's next answer (or the sessions' next timeout,
    /// at most 20 ms) and hands it on.
    async fn wait(&mut self) {
        let now = Instant::now();
        let until = [self.driver.poll_timeout(), self.device.poll_timeout()]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(now + Duration::from_millis(20))
            .clamp(now, now + Duration::from_millis(20));
        tokio::select! {
            Some(a) = self.answers.recv() => {
                let r = self.bridge.answer(&mut self.driver, a, Instant::now());
                self.seen.reports.push(r);
            }
            () = tokio::time::sleep_until(until.into()) => {}
        }
    }

    fn ask(&mut self) {
        if let Some(r) = self.bridge.our_turn(&mut self.driver, Instant::now()) {
            self.seen.reports.push(r);
        }
    }
}

/// The moves of a game legal from its start, on board-core's rules.
fn replay(end: &GameEnded) -> Position {
    let mut pos = end.start;
    for (i, &m) in end.moves.iter().enumerate() {
        pos = pos
            .play(m)
            .unwrap_or_else(|e| panic!("ply {} ({m}) illegal: {e:?}", i + 1));
    }
    pos
}

fn count(seen: &Seen, f: impl Fn(&Report) -> bool) -> usize {
    seen.reports.iter().filter(|r| f(r)).count()
}

/// The engine plays White until the game ends (or 160 plies, or the
/// fifty-move rule), taking back its move and the Citrine's reply at ply
/// 10 while it thinks; then `N` starts a new game, which it plays for 6
/// plies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_uci_engine_plays_a_game_against_the_citrine() {
    let mut t = Table::new(
        Color::White,
        plan(env!("CARGO_BIN_EXE_boardwire-test-engine"), "uci"),
    );
    let mut new_game_sent = false;
    tokio::time::timeout(Duration::from_secs(90), async {
        loop {
            t.pump();
            let now = Instant::now();
            let plies = t.driver.moves().len();
            if t.seen.started == 0 {
                let pos = *t.driver.position().unwrap();
                let over = t.driver.is_game_over() || plies >= 160 || pos.is_fifty_moves();
                if over && !new_game_sent && t.driver.is_idle() {
                    t.driver.new_game(now).unwrap();
                    new_game_sent = true;
                    continue;
                }
                if over {
                    t.wait().await;
                    continue;
                }
                if plies == 10
                    && t.seen.took_back_at.is_none()
                    && t.driver.is_our_turn()
                    && t.driver.is_idle()
                {
                    // A search under way, then the take-back: its answer
                    // no longer counts.
                    t.ask();
                    t.driver.take_back_plies(2, now).unwrap();
                    t.seen.took_back_at = Some(plies);
                    continue;
                }
            } else if plies >= 6 && t.driver.is_idle() {
                return;
            }
            t.ask();
            t.wait().await;
        }
    })
    .await
    .expect("bounded in time");
    let s = &t.seen;
    assert!(t.bridge.failed().is_none(), "{s:?}");
    assert_eq!(
        count(s, |r| matches!(r, Report::Started { .. })),
        1,
        "{s:?}"
    );
    assert_eq!((s.took_back_at, s.taken_back), (Some(10), 2), "{s:?}");
    assert_eq!(count(s, |r| matches!(r, Report::Stale)), 1, "{s:?}");
    // The first game: legal moves, the end the driver reports from the
    // host's side.
    assert_eq!(s.started, 1, "{s:?}");
    let end = &s.ended[0];
    let last = replay(end);
    if end.reason == EndReason::NewGame {
        assert_eq!(end.outcome, Outcome::Unknown);
        assert!(last.outcome().is_none());
    } else {
        let want = match last.outcome().expect("a finished game") {
            board_core::chess::Outcome::Checkmate {
                winner: Color::White,
            } => Outcome::Won,
            board_core::chess::Outcome::Checkmate { .. } => Outcome::Lost,
            _ => Outcome::Drawn,
        };
        assert_eq!(end.outcome, want);
    }
    // Every White move of the games was the engine's, sent by the bridge:
    // game one's plies (the two taken back included), game two's.
    let played = count(s, |r| matches!(r, Report::Played { .. }));
    let white_moves = end.moves.len().div_ceil(2) + 1 + t.driver.moves().len().div_ceil(2);
    assert_eq!(played, white_moves, "{s:?}");
    // The second game: the driver and the device agree.
    assert_eq!(t.driver.position(), t.device.position());
    assert!(t.driver.moves().len() >= 6);
}

/// The host plays Black: the driver flips the Citrine to White, which
/// moves first; the engine answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_uci_engine_plays_black() {
    let mut t = Table::new(
        Color::Black,
        plan(env!("CARGO_BIN_EXE_boardwire-test-engine"), "uci"),
    );
    tokio::time::timeout(Duration::from_secs(60), async {
        while t.driver.moves().len() < 12 || !t.driver.is_idle() {
            t.pump();
            t.ask();
            t.wait().await;
        }
    })
    .await
    .expect("bounded in time");
    let moves = t.driver.moves();
    let mut pos = *t.driver.start_position().unwrap();
    for &m in moves {
        pos = pos.play(m).unwrap();
    }
    assert_eq!(Some(&pos), t.driver.position());
    assert_eq!(t.driver.position(), t.device.position());
    let played = count(&t.seen, |r| matches!(r, Report::Played { .. }));
    assert_eq!(played, moves.len() / 2, "{:?}", t.seen);
}

/// An engine that cannot start fails the bridge; no search is asked, and
/// the caller ends the run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_cannot_start_fails_the_bridge() {
    let mut t = Table::new(Color::White, plan("/nonexistent/boardwire-engine", "uci"));
    let a = tokio::time::timeout(Duration::from_secs(10), t.answers.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(a, Answer::Failed(_)), "{a:?}");
    let r = t.bridge.answer(&mut t.driver, a, Instant::now());
    assert!(matches!(r, Report::Failed { .. }), "{r:?}");
    assert!(t.bridge.failed().is_some());
    t.pump();
    assert_eq!(t.bridge.our_turn(&mut t.driver, Instant::now()), None);
}
