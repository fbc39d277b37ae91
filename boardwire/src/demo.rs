//! `boardwire demo` (and `boardwire` with no arguments): the three
//! protocols end to end on loopback, with no hardware and no network
//! beyond 127.0.0.1.
//!
//! 1. **dxp** — the follower of `dxp serve` ([`damexchange::net::serve_with`]
//!    with [`dxp::follower_callback`]) and the initiator of `dxp connect`
//!    ([`dxp::initiate`], over [`damexchange::net::run_with`]) over TCP on an
//!    ephemeral port: GAMEREQ/GAMEACC, a game of the built-in players with
//!    one take-back (BACKREQ/BACKACC), played until one side has no move (or
//!    a ply limit), closed by the GAMEEND exchange.
//! 2. **csa** — the `csa-protocol` server ([`csa_protocol::net::serve`])
//!    and two clients ([`csa::play_client`]): `alice` in plain CSA mode
//!    (password `<game>-B`: she plays sente), `bob` in x1 mode (`%%GAME
//!    <game> -`) who also watches the game with `%%MONITOR2ON`;
//!    Game_Summary, AGREE, START, moves, and `%TORYO` from the side to move
//!    after a few moves: `#RESIGN`, `#LOSE`/`#WIN`.
//! 3. **citrine** — the `novag-citrine` driver against the simulated
//!    Citrine on a pseudo-terminal at 57600 8N1 with the real pacing
//!    (100 ms between commands): a few moves, a duplicate acknowledgement
//!    from the device, a take-back of two plies (`T`), and the device's and
//!    the driver's final positions compared.
//!
//! Moves are legal moves chosen deterministically (seeded built-in players
//! via `board-core`; a small fixed opening for the Citrine host). Each part
//! has a timeout; a failing part does not stop the others; the exit code is
//! 1 when any part failed, with one `error:` line per failed part on
//! stderr.

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use board_core::chess::{Move as ChessMove, Position as ChessPosition};
use board_core::draughts::Color;
use board_core::player::Player;
use clap::{Args, ValueEnum};
use csa_protocol::message::EndReason;
use csa_protocol::session::{Outcome as CsaOutcome, ServerConfig};
use csa_protocol::types::{Side as CsaSide, SidePreference};
use damexchange::Name;
use damexchange::session::{FollowerConfig, GameOffer, InitiatorConfig, Outcome};
use novag_citrine::message::Escaped;
use novag_citrine::serial::{self as citrine_serial, Activity as CitrineActivity, Config, Ended};
use novag_citrine::session::{DeviceConfig, DriverConfig, Event as CitrineEvent, Misbehaviour};
use tokio::net::{TcpListener, TcpStream};

use crate::transcript::{Sink, Transcript, show};
use crate::{Failure, csa, dxp};

/// `boardwire demo`
#[derive(Debug, Default, Args)]
pub struct DemoArgs {
    /// Print only the summary, not the wire transcripts.
    #[arg(long)]
    quiet: bool,
    /// Run only this part.
    #[arg(long, value_enum)]
    only: Option<Part>,
    /// Test hook: inject a protocol fault into this part, which must then
    /// fail (an illegal DXP or CSA move; garbled Citrine lines).
    #[arg(long, value_enum, hide = true)]
    fail: Option<Part>,
}

/// A part of the demo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Part {
    /// DamExchange (draughts) over TCP.
    Dxp,
    /// CSA shogi server protocol over TCP.
    Csa,
    /// Novag Citrine over a pseudo-terminal.
    Citrine,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Dxp => "dxp",
            Part::Csa => "csa",
            Part::Citrine => "citrine",
        }
    }
}

/// Time limits of the parts (a normal run takes well under a second for
/// dxp and csa, about two seconds for citrine).
const DXP_TIMEOUT: Duration = Duration::from_secs(20);
const CSA_TIMEOUT: Duration = Duration::from_secs(20);
const CITRINE_TIMEOUT: Duration = Duration::from_secs(30);

/// Seeds of the DXP players (any seeds give a legal game; these give a
/// decisive one of moderate length).
const DXP_INITIATOR_SEED: u64 = 4;
const DXP_FOLLOWER_SEED: u64 = 4;
/// A DXP game still running at this many plies is stopped without result
/// (GAMEEND reason 0) at the initiator's next turn.
const DXP_MAX_PLIES: usize = 300;
/// The initiator asks for a take-back when this many plies are played.
const DXP_TAKE_BACK_AT: usize = 6;
/// The CSA game: the side to move resigns when this many plies are played.
const CSA_RESIGN_AT: usize = 10;

/// How a part went.
struct Report {
    moves: String,
    result: String,
    /// (label, bytes) each way.
    sent: (&'static str, u64),
    received: (&'static str, u64),
    /// The game's final position as a diagram (the board-core `{:#}`
    /// form), printed after the part's transcript.
    board: String,
}

/// Runs the demo.
pub fn run(args: DemoArgs, out: &mut impl Write) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Failure::Output)?;
    let parts: Vec<Part> = match args.only {
        Some(p) => vec![p],
        None => vec![Part::Dxp, Part::Csa, Part::Citrine],
    };
    let sink = if args.quiet {
        Sink::Discard
    } else {
        Sink::Stdout
    };
    if !args.quiet {
        writeln!(
            out,
            "boardwire demo: wire transcripts (seconds, party, -> sent / <- received / :: note), then a summary"
        )?;
    }
    let total = Instant::now();
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for part in parts {
        let inject = args.fail == Some(part);
        if !args.quiet {
            // Flushed: the transcript lines go to stdout directly.
            writeln!(out, "== {}", heading(part))?;
            out.flush()?;
        }
        let started = Instant::now();
        let result = match part {
            Part::Dxp => runtime.block_on(async {
                tokio::time::timeout(DXP_TIMEOUT, dxp_part(sink.clone(), inject))
                    .await
                    .unwrap_or_else(|_| Err(format!("timed out after {} s", DXP_TIMEOUT.as_secs())))
            }),
            Part::Csa => runtime.block_on(async {
                tokio::time::timeout(CSA_TIMEOUT, csa_part(sink.clone(), inject))
                    .await
                    .unwrap_or_else(|_| Err(format!("timed out after {} s", CSA_TIMEOUT.as_secs())))
            }),
            Part::Citrine => citrine_part(sink.clone(), inject, started + CITRINE_TIMEOUT),
        };
        let secs = started.elapsed().as_secs_f64();
        if let (Ok(r), false) = (&result, args.quiet) {
            writeln!(out, "-- {} final position:\n{}", part.name(), r.board)?;
            out.flush()?;
        }
        match result {
            Ok(r) => rows.push(format!(
                "{:<8} passed  {}; result: {}; bytes {} {}, {} {}; {secs:.3} s",
                part.name(),
                r.moves,
                r.result,
                r.sent.0,
                r.sent.1,
                r.received.0,
                r.received.1
            )),
            Err(e) => {
                rows.push(format!("{:<8} FAILED  {e}; {secs:.3} s", part.name()));
                errors.push(format!("error: demo part {} failed: {e}", part.name()));
            }
        }
    }
    out.flush()?;
    writeln!(out, "== summary")?;
    for row in &rows {
        writeln!(out, "{row}")?;
    }
    writeln!(
        out,
        "total    {:.3} s, {} of {} part(s) passed",
        total.elapsed().as_secs_f64(),
        rows.len() - errors.len(),
        rows.len()
    )?;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Failure::Failed(errors.join("\n")))
    }
}

fn heading(part: Part) -> &'static str {
    match part {
        Part::Dxp => {
            "dxp: DamExchange draughts game, initiator and follower (`dxp serve` logic) over TCP on 127.0.0.1"
        }
        Part::Csa => {
            "csa: CSA shogi server with alice (plain CSA mode, sente) and bob (x1 mode, gote, %%MONITOR2ON watcher) over TCP on 127.0.0.1"
        }
        Part::Citrine => {
            "citrine: Novag Citrine driver (host, white) against the simulated Citrine on a pseudo-terminal, 57600 8N1"
        }
    }
}

// ---------------------------------------------------------------- dxp

async fn dxp_part(sink: Sink, inject: bool) -> Result<Report, String> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let name = Name::new("boardwire-follower").expect("a valid name");
    let mut config = FollowerConfig::new(name);
    // The initiator is ours: it reads GAMEACC and MOVE apart.
    config.first_move_delay = Duration::ZERO;
    // Test hook: a follower that refuses every game (GAMEACC 3).
    config.accept_games = !inject;
    // The follower's own view of the same messages stays out of the
    // transcript (every message would show twice); its problems are in
    // its stats.
    let stats = Arc::new(Mutex::new(dxp::FollowStats::default()));
    let follower_stats = stats.clone();
    let follower = tokio::spawn(damexchange::net::serve_with(
        listener,
        damexchange::net::Config::new(config),
        move |_, _| {
            let callback = dxp::follower_callback(
                Transcript::new("dxp", "follower", Sink::Discard),
                Player::new(DXP_FOLLOWER_SEED),
                None,
                Some(follower_stats.clone()),
            );
            (dxp::no_answers(), callback)
        },
        |_, _| {},
    ));
    let mut t = Transcript::new("dxp", "initiator", sink);
    t.note(&format!("follower listening on {addr}"));
    let name = Name::new("boardwire-initiator").expect("a valid name");
    let request = GameOffer {
        our_color: Color::White,
        minutes: 5,
        moves: 0,
        start: None,
    };
    let plan = dxp::InitiatorPlan {
        games: 1,
        seed: DXP_INITIATOR_SEED,
        max_plies: DXP_MAX_PLIES,
        timeout: Duration::from_secs(5),
        take_back_at: Some(DXP_TAKE_BACK_AT),
        end_first: false,
        chat: None,
        pdn: None,
    };
    let result = dxp::initiate(
        &addr.to_string(),
        InitiatorConfig::new(name),
        request,
        &plan,
        &mut t,
    )
    .await;
    // The follower handles its last events after its answer went out: give
    // it a moment (it reports through `stats`).
    let ended = result.as_ref().map_or(0, |r| r.games_done);
    for _ in 0..100 {
        if stats.lock().map_or(true, |s| s.ended >= ended) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    follower.abort();
    let report = result?;
    let stats = stats.lock().map_err(|e| e.to_string())?.clone();
    if let Some(p) = report.problems.first() {
        return Err(format!("initiator: {p}"));
    }
    if let Some(p) = stats.problems.first() {
        return Err(format!("follower: {p}"));
    }
    if report.games_done != 1 || stats.ended != 1 {
        return Err(format!(
            "the game did not end with a GAMEEND exchange (initiator saw {}, follower {})",
            report.games_done, stats.ended
        ));
    }
    if report.take_backs != 1 {
        return Err(format!(
            "expected one take-back (BACKREQ/BACKACC), saw {}",
            report.take_backs
        ));
    }
    let Some(last) = &report.last else {
        return Err("no game ended".into());
    };
    let result = match last.outcome {
        Outcome::Won | Outcome::Lost | Outcome::Drawn => dxp::result_text(last),
        Outcome::Unknown if last.moves.len() >= DXP_MAX_PLIES => {
            format!("stopped at the {DXP_MAX_PLIES}-ply limit, no result")
        }
        Outcome::Unknown => {
            return Err("the game ended without a result (GAMEEND reason 0)".into());
        }
    };
    let mut board = last.start;
    for &mv in &last.moves {
        board.play_unchecked(mv);
    }
    Ok(Report {
        board: format!("{board:#}"),
        moves: format!("{} plies, 1 take-back", last.moves.len()),
        result,
        sent: ("initiator->follower", t.bytes_sent),
        received: ("follower->initiator", t.bytes_received),
    })
}

// ---------------------------------------------------------------- csa

async fn csa_part(sink: Sink, inject: bool) -> Result<Report, String> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let config = ServerConfig {
        event: "demo".into(),
        ..ServerConfig::default()
    };
    let server = tokio::spawn(csa_protocol::net::serve(
        listener,
        csa_protocol::net::Config::new(config),
        |_| std::ops::ControlFlow::Continue(()),
    ));
    let result = csa_game(addr, sink, inject).await;
    server.abort();
    result
}

async fn csa_game(addr: std::net::SocketAddr, sink: Sink, inject: bool) -> Result<Report, String> {
    const GAME: &str = "demo-600-10";
    // alice: plain CSA mode, the password names the game and asks for
    // sente; bob: x1 mode, asks for the same game as gote.
    let config = |name, password, x1, side| {
        csa_protocol::join::client_config(name, password, x1, GAME, side).expect("valid settings")
    };
    let alice = config("alice", None, false, SidePreference::Black);
    let bob = config("bob", Some("bobpw"), true, SidePreference::White);
    let mut ta = Transcript::new("csa", "alice", sink.clone());
    let mut tb = Transcript::new("csa", "bob", sink);
    ta.note(&format!("server listening on {addr}"));
    let connect = |who: &'static str| async move {
        TcpStream::connect(addr)
            .await
            .map_err(|e| format!("{who} cannot connect to {addr}: {e}"))
    };
    let sa = connect("alice").await?;
    let sb = connect("bob").await?;
    let plan = |monitor2: bool, inject: bool| csa::ClientPlan {
        seed: 3,
        resign_at: Some(CSA_RESIGN_AT),
        monitor2,
        timeout: Duration::from_secs(5),
        inject_illegal: inject,
    };
    let (plan_a, plan_b) = (plan(false, inject), plan(true, false));
    let (ra, rb) = tokio::join!(
        csa::play_client(sa, alice, &plan_a, &mut ta),
        csa::play_client(sb, bob, &plan_b, &mut tb)
    );
    let ra = ra.map_err(|e| format!("alice: {e}"))?;
    let rb = rb.map_err(|e| format!("bob: {e}"))?;
    for (who, r) in [("alice", &ra), ("bob", &rb)] {
        if let Some(p) = r.problems.first() {
            return Err(format!("{who}: {p}"));
        }
        if !r.logged_in || !r.started {
            return Err(format!(
                "{who}: the game did not start (login, Game_Summary, AGREE, START)"
            ));
        }
    }
    if ra.side != Some(CsaSide::Black) || rb.side != Some(CsaSide::White) {
        return Err("sides not as asked: alice + (sente), bob - (gote)".into());
    }
    let (Some((reason_a, outcome_a)), Some((reason_b, outcome_b))) = (ra.result, rb.result) else {
        return Err("no result line for both players".into());
    };
    // Resigning at ply CSA_RESIGN_AT (even): sente, alice, is to move.
    if (reason_a, outcome_a, reason_b, outcome_b)
        != (
            Some(EndReason::Resign),
            CsaOutcome::Lost,
            Some(EndReason::Resign),
            CsaOutcome::Won,
        )
    {
        return Err(format!(
            "result alice {}, bob {}; expected #RESIGN with alice losing",
            csa::result_words(reason_a, outcome_a),
            csa::result_words(reason_b, outcome_b)
        ));
    }
    if ra.moves != CSA_RESIGN_AT || rb.moves != CSA_RESIGN_AT {
        return Err(format!(
            "moves confirmed: alice {}, bob {}; expected {CSA_RESIGN_AT}",
            ra.moves, rb.moves
        ));
    }
    if rb.monitor_replies == 0 {
        return Err("bob received no ##[MONITOR2] reply".into());
    }
    let Some(board) = ra.position else {
        return Err("alice: no final position".into());
    };
    Ok(Report {
        board: format!("{board:#}"),
        moves: format!("{} moves", ra.moves),
        result: "alice (sente) resigned: #RESIGN, bob (gote) #WIN".into(),
        sent: ("clients->server", ta.bytes_sent + tb.bytes_sent),
        received: ("server->clients", ta.bytes_received + tb.bytes_received),
    })
}

// ---------------------------------------------------------------- citrine

/// The host's plan, one step per host turn.
#[derive(Clone, Copy)]
enum Step {
    /// Play this move (UCI) if legal and not a capture, else the first
    /// legal non-capture.
    Play(&'static str),
    /// Take back two plies (`T` twice): the device's reply and our move.
    TakeBack,
}

const CITRINE_PLAN: [Step; 5] = [
    Step::Play("e2e4"),
    Step::Play("g1f3"),
    Step::TakeBack,
    Step::Play("d2d4"),
    Step::Play("b1c3"),
];

/// Our move for `preferred`: that move if legal and quiet, else the first
/// legal quiet move, else the first legal move. Quiet moves only: the
/// driver resends a capture 3 s later, which would slow the demo down.
fn host_move(position: &ChessPosition, preferred: &str) -> Option<ChessMove> {
    let quiet = |m: &ChessMove| position.piece_at(m.to()).is_none() && !m.is_en_passant();
    if let Ok(m) = position.parse_uci(preferred)
        && quiet(&m)
    {
        return Some(m);
    }
    let moves = position.legal_moves();
    moves
        .iter()
        .copied()
        .find(|m| quiet(m))
        .or_else(|| moves.iter().copied().next())
}

fn citrine_part(sink: Sink, inject: bool, deadline: Instant) -> Result<Report, String> {
    let device = DeviceConfig {
        think_time: Duration::from_millis(50),
        seed: 7,
        misbehaviour: Misbehaviour {
            // Every second acknowledgement of a host move comes twice.
            duplicate_ack_every: 2,
            // Test hook: every move line cut in half.
            truncate_every: u32::from(inject),
            ..Misbehaviour::default()
        },
        ..DeviceConfig::default()
    };
    let sim = citrine_serial::Simulator::spawn(device).map_err(|e| e.to_string())?;
    let mut t = Transcript::new("citrine", "host", sink);
    t.note(&format!(
        "simulated Citrine on {} (57600 8N1, 100 ms between commands)",
        sim.path()
    ));
    let mut config = Config::new(DriverConfig::default());
    config.limits.driver.poll_interval = Duration::from_millis(5);
    let port = citrine_serial::open(sim.path(), &config.limits).map_err(|e| e.to_string())?;
    let mut step = 0;
    let (mut duplicates, mut taken_back) = (0, 0);
    let mut done_at: Option<Instant> = None;
    // Wire bytes of a line: the line and its CR LF.
    let wire = |frame: &[u8]| frame.len() + 2;
    let run = citrine_serial::run(port, config, |driver, activity| {
        match activity {
            CitrineActivity::Sent { frame, message } => t.sent(
                wire(frame),
                &message.map_or_else(|| Escaped(frame).to_string(), |m| m.describe().to_string()),
            ),
            CitrineActivity::Received { frame, message } => {
                t.received(
                    wire(frame),
                    &show(message.describe().to_string().as_bytes()),
                );
            }
            CitrineActivity::Malformed { frame, error } => {
                t.received(wire(frame), &format!("{} ({error})", show(frame)));
            }
            CitrineActivity::Event(ev) => {
                let ev = &ev;
                let (text, disagreement) = (ev.describe().to_string(), ev.is_disagreement());
                t.note(&text);
                match ev {
                    CitrineEvent::Duplicate(_) => duplicates += 1,
                    CitrineEvent::TakenBack(_) => taken_back += 1,
                    _ if disagreement => {
                        return ControlFlow::Break(Err(format!(
                            "the driver and the device disagreed: {text}"
                        )));
                    }
                    _ => {}
                }
            }
            CitrineActivity::Idle => {
                let now = Instant::now();
                if now > deadline {
                    return ControlFlow::Break(Err(format!(
                        "timed out after {} s at ply {} (plan step {step})",
                        CITRINE_TIMEOUT.as_secs(),
                        driver.moves().len()
                    )));
                }
                if let Some(at) = done_at {
                    // Let the device finish writing (late duplicates)
                    // before comparing.
                    return if now >= at {
                        ControlFlow::Break(Ok((
                            driver.position().copied(),
                            driver.moves().to_vec(),
                        )))
                    } else {
                        ControlFlow::Continue(())
                    };
                }
                if !(driver.is_idle() && driver.is_our_turn()) {
                    return ControlFlow::Continue(());
                }
                match CITRINE_PLAN.get(step) {
                    Some(Step::Play(uci)) => {
                        let Some(position) = driver.position() else {
                            return ControlFlow::Break(Err("the device closed the stream".into()));
                        };
                        let Some(mv) = host_move(position, uci) else {
                            return ControlFlow::Break(Err(format!("no legal move at {position}")));
                        };
                        t.note(&format!("we play {mv}"));
                        if let Err(e) = driver.send_move(mv, now) {
                            return ControlFlow::Break(Err(e.to_string()));
                        }
                    }
                    Some(Step::TakeBack) => {
                        t.note("we take back two plies");
                        for _ in 0..2 {
                            if let Err(e) = driver.take_back(now) {
                                return ControlFlow::Break(Err(e.to_string()));
                            }
                        }
                    }
                    None => done_at = Some(now + Duration::from_millis(250)),
                }
                step += 1;
            }
            _ => {}
        }
        ControlFlow::Continue(())
    });
    let (position, moves) = match run {
        Ok(Ended::Break(Ok(end))) => end,
        Ok(Ended::Break(Err(e))) => return Err(e),
        Ok(Ended::Closed(why)) => return Err(why.to_string()),
        Err(e) => return Err(e.to_string()),
    };
    let device = sim.stop().map_err(|e| e.to_string())?;
    let (Some(device_position), Some(position)) = (device.position(), position.as_ref()) else {
        return Err("the stream was closed".into());
    };
    if device_position != position {
        return Err(format!(
            "device position {device_position} differs from the driver's {position}"
        ));
    }
    if duplicates == 0 {
        return Err("no duplicate acknowledgement was seen".into());
    }
    if taken_back != 2 {
        return Err(format!("expected 2 plies taken back, saw {taken_back}"));
    }
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    t.note(&format!(
        "device and driver agree: {position} after {}",
        moves.join(" ")
    ));
    Ok(Report {
        board: format!("{position:#}"),
        moves: format!(
            "{} plies ({} duplicate ack(s) ignored, 2 plies taken back)",
            moves.len(),
            duplicates
        ),
        result: "no result (a short session); device and driver positions equal".into(),
        sent: ("host->device", t.bytes_sent),
        received: ("device->host", t.bytes_received),
    })
}
