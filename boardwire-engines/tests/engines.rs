//! The engine drivers (USI, UCI, Hub) against the test engine
//! (`boardwire-test-engine`): a normal game, an engine that crashes, one
//! that plays an illegal move, one that stays silent.

use std::time::Duration;

use board_core::shogi::{Move, Position};
use boardwire_engines::line_engine::{LineEngine, Protocol};
use boardwire_engines::process::{EngineError, EngineSpec, Limits};
use boardwire_engines::types::EngineOption;
use boardwire_engines::usi::{BestMove, Go};
use boardwire_engines::usi_engine::{Thought, Timeouts, Usi, UsiEngine};

fn spec(mode: &str) -> EngineSpec {
    EngineSpec {
        program: env!("CARGO_BIN_EXE_boardwire-test-engine").into(),
        args: vec![mode.into()],
    }
}

/// `spec` started with no options, default limits and timeouts.
async fn started<P: Protocol>(spec: &EngineSpec) -> Result<LineEngine<P>, EngineError> {
    LineEngine::start(
        spec,
        &[],
        Limits::default(),
        Timeouts::default(),
        Box::new(|_| {}),
    )
    .await
}

/// Default timeouts but a think margin of `ms`.
fn margin(ms: u64) -> Timeouts {
    let mut t = Timeouts::default();
    t.think_margin = Duration::from_millis(ms);
    t
}

/// The test engine `spec` with `options`, started (its name checked) and
/// told a new game.
async fn new_game<P: Protocol>(
    spec: &EngineSpec,
    options: &[EngineOption],
    t: Timeouts,
) -> LineEngine<P> {
    let mut e = LineEngine::<P>::start(spec, options, Limits::default(), t, Box::new(|_| {}))
        .await
        .unwrap();
    assert_eq!(e.name(), Some("boardwire-test-engine"));
    e.new_game().await.unwrap();
    e
}

async fn start(mode: &str) -> UsiEngine {
    new_game(&spec(mode), &[], margin(300)).await
}

fn go() -> Go {
    Go {
        byoyomi: Some(100),
        ..Go::default()
    }
}

/// `e`'s move (it must have one) after `moves` from the start position,
/// with a `go` of 100 ms byoyomi, and what it thought.
async fn usi_move(e: &mut UsiEngine, moves: &[Move]) -> (Move, Thought) {
    let th = e
        .think(
            &Position::startpos(),
            moves,
            go(),
            Duration::from_millis(100),
        )
        .await
        .unwrap();
    let BestMove::Move(m) = th.best else {
        panic!("{th:?}")
    };
    (m, th)
}

#[tokio::test]
async fn legal_moves_and_scores() {
    let mut e = start("usi").await;
    let start = Position::startpos();
    let mut moves: Vec<Move> = Vec::new();
    for _ in 0..6 {
        let (m, th) = usi_move(&mut e, &moves).await;
        let mut pos = start;
        for &x in &moves {
            pos.play_unchecked(x);
        }
        assert!(pos.check_move(m).is_ok());
        assert!(th.score.is_some() && th.info.is_some());
        moves.push(m);
    }
    e.quit().await;
}

#[tokio::test]
async fn an_engine_that_crashes_is_an_error() {
    let mut e = start("usi-crash").await;
    let start = Position::startpos();
    let (m, _) = usi_move(&mut e, &[]).await;
    let err = e
        .think(&start, &[m], go(), Duration::from_millis(100))
        .await
        .unwrap_err();
    match err {
        EngineError::Exited { status } => {
            assert_eq!(status.and_then(|s| s.code()), Some(3));
        }
        e => panic!("{e}"),
    }
}

#[tokio::test]
async fn an_illegal_engine_move_is_an_error() {
    let mut e = start("usi-illegal").await;
    let err = e
        .think(&Position::startpos(), &[], go(), Duration::from_millis(100))
        .await
        .unwrap_err();
    let EngineError::IllegalMove { mv, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(mv, "5e5d");
    assert!(err.to_string().contains("illegal"), "{err}");
}

#[tokio::test]
async fn a_silent_engine_times_out() {
    let mut e = start("usi-silent").await;
    let t0 = std::time::Instant::now();
    let err = e
        .think(&Position::startpos(), &[], go(), Duration::from_millis(100))
        .await
        .unwrap_err();
    let waited = t0.elapsed();
    let EngineError::Silent { awaiting, .. } = err else {
        panic!("{err}")
    };
    assert_eq!(awaiting, "bestmove");
    // The allowed 100 ms plus the 300 ms margin, not much more.
    assert!(
        waited >= Duration::from_millis(400) && waited < Duration::from_secs(3),
        "{waited:?}"
    );
}

#[tokio::test]
async fn a_missing_program_cannot_start() {
    let s = EngineSpec {
        program: "/nonexistent/engine".into(),
        args: vec![],
    };
    let err = started::<Usi>(&s).await.unwrap_err();
    assert!(matches!(err, EngineError::Spawn { .. }), "{err}");
}

#[tokio::test]
async fn a_uci_engine_plays_legal_moves() {
    use board_core::chess::Position as ChessPosition;
    use boardwire_engines::uci_engine::UciEngine;
    let mut e: UciEngine = new_game(&spec("uci"), &[], margin(500)).await;
    let start = ChessPosition::startpos();
    let mut moves = Vec::new();
    let mut pos = start;
    for _ in 0..8 {
        let Some(m) = e.think(&start, &moves, 10).await.unwrap() else {
            break;
        };
        assert!(pos.legal_moves().contains(&m));
        pos.play_unchecked(m);
        moves.push(m);
    }
    assert_eq!(moves.len(), 8);
    e.quit().await;
}

/// The test engine's Hub mode through the process driver and the Hub
/// codec: the start-up of spec/hub.md, then searches whose `done`
/// moves are legal.
#[tokio::test]
async fn the_hub_test_engine_plays_legal_moves() {
    use board_core::draughts::Position as DraughtsPosition;
    use boardwire_engines::hub::{Command, HubMessage, Level, decode};
    use boardwire_engines::process::{Engine, Line};
    use tokio::time::Instant;
    let mut e = Engine::spawn(&spec("hub"), Limits::default()).unwrap();
    async fn until(
        e: &mut Engine,
        what: &'static str,
        want: fn(&HubMessage<'_>) -> bool,
    ) -> Vec<u8> {
        let t0 = Instant::now();
        loop {
            let Line::Text(t) = e
                .recv_line(t0 + Duration::from_secs(5), what, t0)
                .await
                .unwrap()
            else {
                panic!("overlong")
            };
            if want(&decode(&t).unwrap()) {
                return t;
            }
        }
    }
    e.send(&Command::Hub.to_bytes()).await.unwrap();
    until(&mut e, "wait", |m| matches!(m, HubMessage::Wait)).await;
    e.send(&Command::Init.to_bytes()).await.unwrap();
    until(&mut e, "ready", |m| matches!(m, HubMessage::Ready)).await;
    let start = DraughtsPosition::startpos();
    let mut pos = start;
    let mut moves = Vec::new();
    for _ in 0..10 {
        let mut b = Command::Pos {
            start: &start,
            moves: &moves,
        }
        .to_bytes();
        Command::Level(Level::MoveTime(0.1)).encode(&mut b);
        Command::GoThink.encode(&mut b);
        e.send(&b).await.unwrap();
        let line = until(&mut e, "done", |m| matches!(m, HubMessage::Done { .. })).await;
        let HubMessage::Done { mv, .. } = decode(&line).unwrap() else {
            unreachable!()
        };
        let m = mv.to_move(&pos).expect("a legal move");
        pos.play_unchecked(m);
        moves.push(m);
    }
    e.shutdown(&Command::Quit.to_bytes(), Duration::from_secs(2))
        .await;
}

#[tokio::test]
async fn the_hub_engine_driver_plays_a_game() {
    use board_core::draughts::Position as DraughtsPosition;
    use boardwire_engines::hub::Level;
    use boardwire_engines::hub_engine::HubEngine;
    let mut e: HubEngine = new_game(&spec("hub"), &[], margin(500)).await;
    let start = DraughtsPosition::startpos();
    let mut pos = start;
    let mut moves = Vec::new();
    while moves.len() < 40 && !pos.is_game_over() {
        let m = e
            .think(
                &start,
                &moves,
                Level::MoveTime(0.05),
                Duration::from_millis(50),
            )
            .await
            .unwrap();
        assert!(pos.is_legal(m));
        pos.play_unchecked(m);
        moves.push(m);
    }
    assert!(moves.len() >= 10);
    e.quit().await;
}

/// A search that no longer counts (another id in `current`) is told
/// `stop`; the engine still answers `done` (spec/hub.md, *A
/// search*), long before its time is up.
#[tokio::test]
async fn a_superseded_hub_search_is_stopped() {
    use board_core::draughts::Position as DraughtsPosition;
    use boardwire_engines::hub::Level;
    use boardwire_engines::hub_engine::HubEngine;
    let mut e: HubEngine = started(&spec("hub-stop")).await.unwrap();
    let start = DraughtsPosition::startpos();
    let (tx, mut rx) = tokio::sync::watch::channel(7u64);
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        tx.send_replace(8);
        // Keep the sender until the search is over.
        tokio::time::sleep(Duration::from_secs(5)).await;
    });
    let t0 = std::time::Instant::now();
    let m = e
        .think_while_current(
            &start,
            &[],
            Level::MoveTime(30.0),
            Duration::from_secs(30),
            &mut rx,
            7,
        )
        .await
        .unwrap();
    assert!(start.is_legal(m));
    let took = t0.elapsed();
    assert!(
        took >= Duration::from_millis(200) && took < Duration::from_secs(3),
        "{took:?}"
    );
    e.quit().await;
}

/// The test engine with `args` and the `--option`s `options` (its `Seed`
/// option reseeds its random player).
fn seeded(args: &[&str], options: &[&str]) -> (EngineSpec, Vec<EngineOption>) {
    let s = EngineSpec {
        program: env!("CARGO_BIN_EXE_boardwire-test-engine").into(),
        args: args.iter().map(|a| (*a).into()).collect(),
    };
    (s, options.iter().map(|o| o.parse().unwrap()).collect())
}

/// The first 8 moves of the USI test engine with `args` and `options`.
async fn usi_moves(args: &[&str], options: &[&str]) -> Vec<Move> {
    let (s, options) = seeded(args, options);
    let mut e: UsiEngine = new_game(&s, &options, Timeouts::default()).await;
    let mut moves = Vec::new();
    for _ in 0..8 {
        moves.push(usi_move(&mut e, &moves).await.0);
    }
    e.quit().await;
    moves
}

/// The first 8 moves of the UCI test engine with `args` and `options`.
async fn uci_moves(args: &[&str], options: &[&str]) -> Vec<board_core::chess::Move> {
    use board_core::chess::Position as ChessPosition;
    use boardwire_engines::uci_engine::UciEngine;
    let (s, options) = seeded(args, options);
    let mut e: UciEngine = new_game(&s, &options, Timeouts::default()).await;
    let start = ChessPosition::startpos();
    let mut moves = Vec::new();
    for _ in 0..8 {
        moves.push(e.think(&start, &moves, 10).await.unwrap().unwrap());
    }
    e.quit().await;
    moves
}

/// `--option` lines reach the engine after `usiok` and before
/// `isready`: `Seed=5` plays as the engine started with seed 5, not as
/// the default seed 1.
#[tokio::test]
async fn usi_options_reach_the_engine() {
    let by_option = usi_moves(&["usi"], &["Seed=5"]).await;
    assert_eq!(by_option, usi_moves(&["usi", "5"], &[]).await);
    assert_ne!(by_option, usi_moves(&["usi"], &[]).await);
}

/// The same for UCI (`setoption` after `uciok`).
#[tokio::test]
async fn uci_options_reach_the_engine() {
    let by_option = uci_moves(&["uci"], &["Seed=5"]).await;
    assert_eq!(by_option, uci_moves(&["uci", "5"], &[]).await);
    assert_ne!(by_option, uci_moves(&["uci"], &[]).await);
}
