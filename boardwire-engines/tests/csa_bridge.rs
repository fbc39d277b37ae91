//! The USI ⇄ CSA bridge in memory: two CSA `Client` sessions (x1 mode,
//! one asking for Black, one for White) against a CSA `Server` session, no
//! socket; each client's side is a USI engine behind a `UsiBridge`, fed as
//! a CSA driver would feed it (every session event, `our_turn` whenever
//! the sessions are quiet, each engine answer as it comes). The games are
//! checked on the board and by the server's own result.

use std::time::{Duration, Instant};

use board_core::shogi::Position;
use boardwire_engines::csa_bridge::{Answer, BridgePlan, Report, UsiBridge};
use boardwire_engines::process::EngineSpec;
use csa_protocol::message::EndReason;
use csa_protocol::session::{
    Client, ClientConfig, ConnId, Event, GameEnded, Outcome, Server, ServerConfig, ServerEvent,
};
use csa_protocol::types::{GameName, Password, Side, SidePreference, UserName};
use tokio::sync::mpsc::Receiver;

fn test_engine(mode: &str) -> EngineSpec {
    EngineSpec {
        program: env!("CARGO_BIN_EXE_boardwire-test-engine").into(),
        args: vec![mode.into(), "5".into()],
    }
}

/// A USI engine in a few lines of `sh` that answers every `go` with
/// `bestmove <answer>` (`resign`, `win`): what the test engine never says
/// at the start of a game.
#[cfg(unix)]
fn sh_engine(answer: &str) -> EngineSpec {
    let script = format!(
        "while read -r l; do case \"$l\" in \
         usi) echo 'id name sh-engine'; echo usiok;; \
         isready) echo readyok;; \
         go*) echo 'bestmove {answer}';; \
         quit) exit 0;; esac; done"
    );
    EngineSpec {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), script.into()],
    }
}

/// A game on a default server of `bridge-60-2` (60 s and a 2 s byoyomi)
/// between the engines `black` and `white`.
async fn default_game(black: EngineSpec, white: EngineSpec) -> ([Player; 2], Vec<ServerEvent>) {
    game(black, white, ServerConfig::default(), "bridge-60-2").await
}

/// One player: its session, its bridge, what it sent and saw.
struct Player {
    conn: ConnId,
    client: Client<Instant>,
    bridge: UsiBridge,
    /// The lines this client wrote to the server.
    sent: Vec<String>,
    reports: Vec<Report>,
    end: Option<GameEnded>,
}

impl Player {
    /// Whether the bridge reported a report `f` picks.
    fn reported(&self, f: impl Fn(&Report) -> bool) -> bool {
        self.reports.iter().any(f)
    }

    fn new(
        name: &str,
        side: SidePreference,
        game: &str,
        engine: EngineSpec,
    ) -> (Self, Receiver<Answer>) {
        let mut config = ClientConfig::new(
            UserName::new(name.to_string()).unwrap(),
            Password::new("pw".to_string()).unwrap(),
        );
        config.x1 = true;
        config.game = Some((GameName::new(game.to_string()).unwrap(), side));
        let mut plan = BridgePlan::new(engine, Vec::new());
        plan.timeouts.handshake = Duration::from_secs(10);
        let (bridge, answers) = UsiBridge::spawn(plan, Box::new(|_| {}));
        let conn = ConnId(match side {
            SidePreference::Black => 1,
            _ => 2,
        });
        (
            Player {
                conn,
                client: Client::new(config, Instant::now()),
                bridge,
                sent: Vec::new(),
                reports: Vec::new(),
                end: None,
            },
            answers,
        )
    }
}

/// Moves bytes between the sessions and hands the clients' events to
/// their bridges until nothing moves.
fn pump(server: &mut Server<Instant>, players: &mut [Player; 2], seen: &mut Vec<ServerEvent>) {
    loop {
        let now = Instant::now();
        let mut progress = false;
        for p in players.iter_mut() {
            while let Some(t) = p.client.poll_transmit() {
                progress = true;
                let text = String::from_utf8_lossy(t.as_bytes()).into_owned();
                p.sent.extend(text.lines().map(str::to_owned));
                server.handle_input(p.conn, t.as_bytes(), now);
            }
        }
        while let Some((conn, t)) = server.poll_transmit() {
            progress = true;
            if let Some(p) = players.iter_mut().find(|p| p.conn == conn) {
                p.client.handle_input(t.as_bytes(), now);
            }
        }
        seen.extend(std::iter::from_fn(|| server.poll_event()));
        for p in players.iter_mut() {
            while let Some(e) = p.client.poll_event() {
                progress = true;
                match e {
                    Event::GameSummary(_) => {
                        let r = p.bridge.game_offered(&mut p.client, now);
                        p.reports.push(r);
                    }
                    Event::GameEnded(end) => {
                        p.bridge.game_ended(&end);
                        p.end = Some(end);
                    }
                    _ => {}
                }
            }
        }
        if !progress {
            return;
        }
    }
}

/// Plays one game, Black's engine against White's, on a server with
/// `config`; returns both players (Black first) and the server's events.
async fn game(
    black: EngineSpec,
    white: EngineSpec,
    config: ServerConfig,
    game_name: &str,
) -> ([Player; 2], Vec<ServerEvent>) {
    let (b, mut b_answers) = Player::new("sente", SidePreference::Black, game_name, black);
    let (w, mut w_answers) = Player::new("gote", SidePreference::White, game_name, white);
    let mut players = [b, w];
    let mut server = Server::new(config, Instant::now(), 1_795_964_195);
    for p in &players {
        server.handle_connect(p.conn, Instant::now());
    }
    let mut seen = Vec::new();
    let played = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let now = Instant::now();
            if server.poll_timeout().is_some_and(|t| t <= now) {
                server.handle_timeout(now);
            }
            for p in &mut players {
                if p.client.poll_timeout().is_some_and(|t| t <= now) {
                    p.client.handle_timeout(now);
                }
            }
            pump(&mut server, &mut players, &mut seen);
            if players.iter().all(|p| p.end.is_some()) {
                return;
            }
            let mut asked = false;
            for p in &mut players {
                if let Some(r) = p.bridge.our_turn(&mut p.client, now) {
                    p.reports.push(r);
                    asked = true;
                }
            }
            if asked {
                continue;
            }
            let (i, a) = tokio::select! {
                Some(a) = b_answers.recv() => (0, a),
                Some(a) = w_answers.recv() => (1, a),
                () = tokio::time::sleep(Duration::from_millis(20)) => continue,
            };
            let p = &mut players[i];
            let r = p.bridge.answer(&mut p.client, a, Instant::now());
            p.reports.push(r);
        }
    })
    .await;
    played.expect("the game ends within 60 s");
    // Whatever the clients wrote last (their engines' answers to old
    // positions, none expected) reaches the server.
    pump(&mut server, &mut players, &mut seen);
    (players, seen)
}

/// Every move of the game legal from its start position, replayed on
/// board-core's rules.
fn assert_legal(end: &GameEnded) -> Position {
    let mut pos = *end.start;
    for (i, &m) in end.moves.iter().enumerate() {
        pos.check_move(m)
            .unwrap_or_else(|e| panic!("move {} ({m}) illegal: {e}", i + 1));
        pos.play_unchecked(m);
    }
    pos
}

fn server_end(seen: &[ServerEvent]) -> (EndReason, Option<Side>, usize) {
    seen.iter()
        .find_map(|e| match e {
            ServerEvent::GameEnded {
                reason,
                winner,
                moves,
                ..
            } => Some((*reason, *winner, *moves)),
            _ => None,
        })
        .expect("the server ended the game")
}

/// Two engines play to the server's move limit (`#MAX_MOVES`,
/// `#CENSORED`: no result, a draw to the engines); every move goes out
/// with the engine's Floodgate comment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_usi_engines_play_to_the_move_limit() {
    let config = ServerConfig {
        max_moves: 24,
        ..ServerConfig::default()
    };
    let ([b, w], seen) = game(
        test_engine("usi"),
        test_engine("usi"),
        config,
        "bridge-60-2",
    )
    .await;
    let (be, we) = (b.end.clone().unwrap(), w.end.clone().unwrap());
    assert_eq!(be.moves, we.moves, "the same game on both sides");
    assert_eq!(be.moves.len(), 24);
    assert_legal(&be);
    assert_eq!(server_end(&seen), (EndReason::MaxMoves, None, 24));
    assert_eq!(
        (be.outcome, we.outcome),
        (Outcome::Unknown, Outcome::Unknown)
    );
    for p in [&b, &w] {
        assert!(p.bridge.failed().is_none(), "{:?}", p.reports);
        assert!(matches!(
            p.reports[0],
            Report::Started { .. } | Report::Agreed
        ));
        let played: Vec<_> = p
            .reports
            .iter()
            .filter_map(|r| match r {
                Report::Played { ply, comment, .. } => Some((*ply, comment.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(played.len(), 12, "{:?}", p.reports);
        // The test engine says `info depth 1 score cp N pv <its move>`:
        // the comment is the score from sente's side, nothing after it.
        for (ply, comment) in &played {
            let c = comment.as_deref().expect("a score, so a comment");
            assert!(c.starts_with("* ") && c[2..].parse::<i32>().is_ok(), "{c}");
            let line = p
                .sent
                .iter()
                .filter(|l| l.starts_with(['+', '-']))
                .nth(ply / 2)
                .unwrap();
            assert!(line.ends_with(&format!(",'{c}")), "{line} {c}");
        }
        // The clock went into every `go`: 60 s and a 2 s byoyomi, less the
        // 500 ms margin on our turn.
        assert!(p.reports.iter().any(|r| matches!(
            r,
            Report::Asked(g) if g.byoyomi == Some(2000) && g.btime <= 60_000 && g.wtime <= 60_000
        )));
    }
}

/// White's engine exits at its second `go`: the bridge resigns for it
/// (`%TORYO` at once: it is our turn), the server records `#RESIGN` and
/// Black wins.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_exits_resigns_at_its_turn() {
    let ([b, w], seen) = default_game(test_engine("usi"), test_engine("usi-crash")).await;
    let (be, we) = (b.end.clone().unwrap(), w.end.clone().unwrap());
    assert_eq!(be.moves.len(), 3, "B, W, B, then White's engine exits");
    assert_legal(&we);
    assert_eq!(w.sent.last().map(String::as_str), Some("%TORYO"));
    assert_eq!(server_end(&seen), (EndReason::Resign, Some(Side::Black), 3));
    assert_eq!(
        (be.reason, be.outcome, we.outcome),
        (Some(EndReason::Resign), Outcome::Won, Outcome::Lost)
    );
    assert!(w.bridge.failed().is_some() && b.bridge.failed().is_none());
    assert!(
        w.reported(|r| matches!(r, Report::Failed { resigned: true, .. })),
        "{:?}",
        w.reports
    );
}

/// `bestmove resign` is `%TORYO`; `bestmove win` is `%KACHI`, which the
/// server finds invalid at the start (`#ILLEGAL_MOVE`): the declarer
/// loses either way.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bestmove_resign_and_win_are_toryo_and_kachi() {
    let ([b, w], seen) = default_game(test_engine("usi"), sh_engine("resign")).await;
    assert_eq!(w.sent.last().map(String::as_str), Some("%TORYO"));
    assert_eq!(server_end(&seen), (EndReason::Resign, Some(Side::Black), 1));
    assert!(w.reported(|r| matches!(r, Report::Resigned { .. })));
    assert!(w.bridge.failed().is_none(), "resigning is no failure");
    assert_eq!(b.end.unwrap().outcome, Outcome::Won);

    let ([b, w], seen) = default_game(sh_engine("win"), test_engine("usi")).await;
    assert_eq!(b.sent.last().map(String::as_str), Some("%KACHI"));
    assert!(b.reported(|r| matches!(r, Report::DeclaredWin { .. })));
    assert_eq!(
        server_end(&seen),
        (EndReason::IllegalMove, Some(Side::White), 0)
    );
    assert_eq!(w.end.unwrap().outcome, Outcome::Won);
}

/// An engine that cannot start fails the bridge: it rejects the game
/// offered (`REJECT`), and the server starts no game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_that_cannot_start_rejects_the_game() {
    let (mut p, mut answers) = Player::new(
        "sente",
        SidePreference::Black,
        "bridge-60-2",
        EngineSpec {
            program: "/nonexistent/boardwire-engine".into(),
            args: Vec::new(),
        },
    );
    let a = tokio::time::timeout(Duration::from_secs(10), answers.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(a, Answer::Failed(_)), "{a:?}");
    let r = p.bridge.answer(&mut p.client, a, Instant::now());
    assert!(
        matches!(
            r,
            Report::Failed {
                resigned: false,
                ..
            }
        ),
        "{r:?}"
    );
    assert!(p.bridge.failed().is_some());
    // Outside a game there is nothing to resign, and no search is asked.
    assert_eq!(p.bridge.our_turn(&mut p.client, Instant::now()), None);
}
