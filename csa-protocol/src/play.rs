//! A client that plays on a CSA server over a stream, with a transcript
//! (feature `tokio`): what `boardwire csa connect` and its demo run.
//!
//! - [`run_logged`]: [`net::run_with`] with every line sent and received
//!   written to a [`Log`] as a person reads it (a `Game_Summary` block and
//!   a multi-line x1 reply as one line, [`ServerLines`]), the activity then
//!   handed to the caller's callback; a server that owes an answer and
//!   stays silent ends the run ([`PlayError::Silent`]).
//! - [`game_event`]: what every client does with an event beside playing
//!   (problems recorded, the result noted, LOGOUT where no game will come).
//! - [`play_client`]: one game with the built-in player
//!   ([`board_core::player::Player`]) as a [`ClientPlan`] says, reported in
//!   a [`ClientReport`]. An engine plays through
//!   `boardwire_engines::csa_bridge` on [`run_logged`] instead.

use alloc::format;
use alloc::string::{String, ToString};
use core::ops::ControlFlow;
use std::io;
use std::time::{Duration, Instant};

use board_core::player::Player;
use board_core::shogi::Position;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;

use crate::error::FrameError;
use crate::message::{EndReason, SpecialMove, X1Command, X1Reply};
use crate::net::{self, Activity, Closed, Config, Ended};
use crate::session::{Awaited, Client, ClientConfig, ClientState, Event, Outcome};
use crate::transcript::{Log, Problems, ServerLines, escape_controls};
use crate::types::Side;

/// Why a client run ([`run_logged`], [`play_client`]) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The server owed an answer (the `LOGIN` reply, the confirmation of
    /// our move, the `LOGOUT` reply) and sent none within the reply
    /// timeout, or the opponent did not move within its clock plus
    /// [`ClientConfig::clock_margin`] ([`Event::PeerSilent`]).
    #[error("the server did not send {0} in time")]
    Silent(Awaited),
    /// Too many consecutive bad lines, or another limit of the driver
    /// ([`net::Limits`]).
    #[error("{0}")]
    Closed(Closed),
    /// Reading or writing the stream failed.
    #[error("{0}")]
    Io(io::Error),
}

/// Runs a client on `stream` with [`net::run_with`] (default
/// [`net::Limits`]; `reply_timeout` replaces
/// [`ClientConfig::reply_timeout`]): every line goes to `log` as a person
/// reads it — a line sent as [`ClientMessage::shown`](crate::ClientMessage::shown)
/// (a `LOGIN` password as `*****`), the lines received grouped by
/// [`ServerLines`] with their control characters escaped
/// ([`escape_controls`]), an over-long line as `(a line of more than <n>
/// bytes, skipped)`, a malformed one by [`Log::received_malformed`] —, then
/// `on` sees the activity (events, idle moments, the values of
/// `external`) with the session and the log.
///
/// # Errors
/// [`PlayError::Silent`] when the server stays silent while it owes an
/// answer (the run ends at once); [`PlayError::Closed`] when the driver
/// closed the connection for a limit; [`PlayError::Io`] when the stream
/// failed. The run is `Ok` when the server closes the connection or the
/// session ends it (after `LOGOUT`).
pub async fn run_logged<IO, X, L>(
    stream: IO,
    config: ClientConfig,
    reply_timeout: Duration,
    external: mpsc::Receiver<X>,
    log: &mut L,
    mut on: impl FnMut(&mut Client<Instant>, Activity<'_, '_, Client<Instant>, X>, &mut L),
) -> Result<(), PlayError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    L: Log,
{
    let mut config = Config::new(config);
    config.session.reply_timeout = reply_timeout;
    let mut lines = ServerLines::new();
    let result = net::run_with(stream, config, external, |client, activity| {
        let len = |frame: &[u8]| frame.len() + 1;
        match &activity {
            Activity::Sent {
                frame,
                message: Some(m),
            } => log.sent(len(frame), &m.shown().to_string()),
            Activity::Received { frame, message } => lines.push(message, len(frame)),
            Activity::Malformed {
                error: FrameError::Overlong { len, .. },
                ..
            } => log.received(*len, &format!("(a line of more than {len} bytes, skipped)")),
            Activity::Malformed { error, frame } => {
                lines.interrupt();
                show_lines(&mut lines, log);
                let error = match error {
                    FrameError::Malformed(e) => e.to_string(),
                    e => e.to_string(),
                };
                log.received_malformed(len(frame), frame, &error);
            }
            Activity::Event(Event::GameSummary(s)) => lines.summary(s),
            Activity::Event(Event::PeerSilent { awaiting }) => {
                return ControlFlow::Break(*awaiting);
            }
            _ => {}
        }
        show_lines(&mut lines, log);
        on(client, activity, log);
        ControlFlow::Continue(())
    })
    .await;
    lines.interrupt();
    show_lines(&mut lines, log);
    match result.map_err(PlayError::Io)? {
        Ended::Break(awaiting) => Err(PlayError::Silent(awaiting)),
        Ended::Closed(Closed::ByPeer | Closed::BySession) => Ok(()),
        Ended::Closed(c) => Err(PlayError::Closed(c)),
    }
}

/// The server lines collected, to the log (their text escaped).
fn show_lines(lines: &mut ServerLines, log: &mut impl Log) {
    while let Some((len, text)) = lines.poll_line() {
        log.received(len, &escape_controls(&text));
    }
}

/// What every client does with an event beside playing: `log` sees it
/// ([`Log::event`]), problems are
/// recorded in `problems` (login refused, a malformed or over-long line, a
/// bad `Game_Summary`, a board mismatch, a rejected game, silence), the
/// result is noted in `log` (`game over after <n> moves: <result_words>`),
/// and where no game will come (a rejected offer, a refused x1 `%%GAME`)
/// it logs out.
pub fn game_event(
    client: &mut Client<Instant>,
    e: &Event,
    problems: &mut Problems,
    log: &mut impl Log,
) {
    log.event(client, e);
    let now = Instant::now();
    match e {
        Event::LoginFailed => problems.push("login refused".into()),
        Event::GameEnded(end) => log.note(&format!(
            "game over after {} moves: {}",
            end.moves.len(),
            result_words(end.reason, end.outcome)
        )),
        // x1: the server refused our %%GAME (a bad game name, a wrong
        // state): no game will come, so stop waiting for one.
        Event::X1(X1Reply::Error(text)) if client.state() == ClientState::GameWaiting => {
            problems.push(format!("the server refused the game request: {text}"));
            let _ = client.logout(now);
        }
        Event::Malformed(err) => problems.push(format!("malformed line: {err}")),
        Event::Overlong { len } => {
            problems.push(format!("a line of more than {len} bytes from the server"));
        }
        Event::BadSummary(err) => problems.push(format!("bad Game_Summary: {err}")),
        Event::BoardMismatch { mv } => {
            problems.push(format!("server move {mv} is illegal on our board"));
        }
        Event::Rejected { game_id, by } => {
            problems.push(format!("game {game_id} rejected by {by}"));
            let _ = client.logout(now);
        }
        Event::PeerSilent { .. } | Event::BadStartPosition(_) | Event::BadPositionMove { .. } => {
            problems.push(e.to_string());
        }
        _ => {}
    }
}

/// The result from our side in words: the result line (`#RESIGN`, or `no
/// reason line` when the connection closed first) and our outcome, e.g.
/// `#RESIGN, we lost` ([`spec::csa`](crate::spec::csa), *Results*).
///
/// ```
/// use csa_protocol::message::EndReason;
/// use csa_protocol::play::result_words;
/// use csa_protocol::session::Outcome;
///
/// assert_eq!(result_words(Some(EndReason::Resign), Outcome::Lost), "#RESIGN, we lost");
/// assert_eq!(result_words(None, Outcome::Unknown), "no reason line, no result");
/// ```
pub fn result_words(reason: Option<EndReason>, outcome: Outcome) -> String {
    let reason = reason.map_or("no reason line", EndReason::as_str);
    let outcome = match outcome {
        Outcome::Won => "we won",
        Outcome::Lost => "we lost",
        Outcome::Drawn => "a draw",
        // `#MAX_MOVES` is followed by `#CENSORED`: the server declares no
        // winner (a result, not a lost connection).
        Outcome::Unknown if reason == "#MAX_MOVES" => "move limit reached, no winner (#CENSORED)",
        Outcome::Unknown => "no result",
    };
    format!("{reason}, {outcome}")
}

/// How [`play_client`] plays.
#[derive(Debug, Clone)]
pub struct ClientPlan {
    /// Seed of the built-in player ([`board_core::player::Player`]).
    pub seed: u64,
    /// Resign (`%TORYO`) on our turn once the game has this many plies
    /// (moves of both sides); `None`: play on.
    pub resign_at: Option<usize>,
    /// x1: send `%%MONITOR2ON <game id>` when the game starts.
    pub monitor2: bool,
    /// Give up when the server owes an answer and is silent this long
    /// ([`ClientConfig::reply_timeout`]).
    pub timeout: Duration,
    /// Test hook: play a move that is not legal (`+1112FU` as sente,
    /// `-1918FU` as gote) on our first turn.
    pub inject_illegal: bool,
}

/// What [`play_client`] saw.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct ClientReport {
    /// `LOGIN:<name> OK` arrived.
    pub logged_in: bool,
    /// The Game_Summary's `Your_Turn`.
    pub side: Option<Side>,
    /// `START:<game id>` arrived.
    pub started: bool,
    /// Moves confirmed by the server (both sides').
    pub moves: usize,
    /// The result: the reason line (none when the connection closed
    /// first) and our outcome.
    pub result: Option<(Option<EndReason>, Outcome)>,
    /// `##[MONITOR2]` replies received.
    pub monitor_replies: usize,
    /// The position when the game ended.
    pub position: Option<Position>,
    /// Problems: login refused, malformed lines, board mismatches, our
    /// moves refused ([`game_event`]).
    pub problems: Problems,
}

/// Plays one game as a client on `stream` ([`run_logged`]), logging to
/// `log`: agrees to the offered game, plays the built-in player's moves,
/// resigns as `plan` says (or when it has no legal move), and logs out
/// after the game (or a rejected offer) in both modes, so that a server
/// that keeps the connection open (shogi-server in CSA mode, until its
/// 60 s read timeout) closes it; returns when the server closes the
/// connection.
///
/// # Errors
/// As [`run_logged`], except that a broken pipe or a reset connection
/// after the result arrived is not an error (our `LOGOUT` may meet a
/// server that had already closed the connection).
pub async fn play_client<IO, L>(
    stream: IO,
    config: ClientConfig,
    plan: &ClientPlan,
    log: &mut L,
) -> Result<ClientReport, PlayError>
where
    IO: AsyncRead + AsyncWrite + Unpin,
    L: Log,
{
    let mut report = ClientReport::default();
    let mut inject = plan.inject_illegal;
    let mut player = Player::new(plan.seed);
    // No external values: the channel is closed at once.
    let external = mpsc::channel::<core::convert::Infallible>(1).1;
    let result = run_logged(
        stream,
        config,
        plan.timeout,
        external,
        log,
        |client, a, log| {
            if let Activity::Event(e) = a {
                game_event(client, &e, &mut report.problems, log);
                on_event(client, &e, plan, &mut inject, &mut player, log, &mut report);
            }
        },
    )
    .await;
    match result {
        Err(PlayError::Io(e))
            if report.result.is_some()
                && matches!(
                    e.kind(),
                    io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset
                ) =>
        {
            Ok(report)
        }
        r => r.map(|()| report),
    }
}

fn on_event(
    client: &mut Client<Instant>,
    e: &Event,
    plan: &ClientPlan,
    inject: &mut bool,
    player: &mut Player,
    log: &mut impl Log,
    report: &mut ClientReport,
) {
    let now = Instant::now();
    match e {
        Event::LoggedIn => report.logged_in = true,
        Event::GameSummary(s) => {
            report.side = s.your_turn;
            let _ = client.agree(now);
        }
        Event::GameStarted(started) => {
            let game_id = &started.game_id;
            report.started = true;
            if plan.monitor2
                && let Err(e) = client.x1_command(X1Command::Monitor2On(game_id.clone()), now)
            {
                report.problems.push(format!("%%MONITOR2ON: {e}"));
            }
        }
        // Only if still so: a result read in the same chunk as the last
        // move has already ended the game.
        Event::OurTurn { .. } if client.is_our_turn() => {
            let plies = client.moves().len();
            if *inject {
                *inject = false;
                // Square 11 holds gote's lance at the start: never a legal
                // move for sente, nor a move of gote's own.
                let bad = match report.side {
                    Some(Side::White) => "-1918FU",
                    _ => "+1112FU",
                };
                log.note(&format!("test hook: we play the illegal move {bad}"));
                if let Err(e) = client.send_raw_line(bad.as_bytes(), now) {
                    report.problems.push(format!("our move {bad}: {e}"));
                }
            } else if plan.resign_at.is_some_and(|n| plies >= n) {
                log.note(&format!("{plies} plies played: we resign"));
                let _ = client.special(SpecialMove::Toryo, now);
            } else {
                let chosen = client.position().and_then(|pos| player.choose_shogi(pos));
                match chosen {
                    Some(mv) => {
                        if let Err(e) = client.send_move(mv, now) {
                            report.problems.push(format!("our move {mv}: {e}"));
                        }
                    }
                    None => {
                        log.note("no legal move: we resign");
                        let _ = client.special(SpecialMove::Toryo, now);
                    }
                }
            }
        }
        Event::Move { .. } => report.moves += 1,
        Event::GameEnded(end) => {
            report.position = client.position().copied();
            report.result = Some((end.reason, end.outcome));
            let _ = client.logout(now);
        }
        Event::X1(X1Reply::Monitor2 { .. }) => report.monitor_replies += 1,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::join::client_config;
    use crate::session::ServerConfig;
    use crate::types::SidePreference;
    use alloc::vec::Vec;

    /// The lines a run logged: `-> sent`, `<- received`, `:: note`, with
    /// the wire bytes each way.
    #[derive(Default)]
    struct Lines {
        lines: Vec<String>,
        sent: usize,
        received: usize,
    }

    impl Log for Lines {
        fn sent(&mut self, wire_len: usize, text: &str) {
            self.sent += wire_len;
            self.lines.push(format!("-> {text}"));
        }
        fn received(&mut self, wire_len: usize, text: &str) {
            self.received += wire_len;
            self.lines.push(format!("<- {text}"));
        }
        fn received_malformed(&mut self, wire_len: usize, line: &[u8], error: &str) {
            self.received += wire_len;
            let line = String::from_utf8_lossy(line);
            self.lines.push(format!("<- {line}  (malformed: {error})"));
        }
        fn note(&mut self, text: &str) {
            self.lines.push(format!(":: {text}"));
        }
    }

    #[tokio::test]
    async fn two_clients_play_a_game_and_passwords_are_not_shown() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(net::serve(
            listener,
            Config::new(ServerConfig::default()),
            |_| ControlFlow::<()>::Continue(()),
        ));
        // csa-protocol's spec/csa.md, *Plain CSA mode* (the password names
        // the game) and *Extended mode (x1)* (`%%GAME`).
        let alice = client_config(
            "alice",
            Some("s3cret"),
            false,
            "t-600-10",
            SidePreference::Black,
        );
        let bob = client_config(
            "bob",
            Some("bobpw"),
            true,
            "t-600-10",
            SidePreference::White,
        );
        let plan = |monitor2| ClientPlan {
            seed: 3,
            resign_at: Some(6),
            monitor2,
            timeout: Duration::from_secs(10),
            inject_illegal: false,
        };
        let (plan_a, plan_b) = (plan(false), plan(true));
        let (mut la, mut lb) = (Lines::default(), Lines::default());
        let sa = tokio::net::TcpStream::connect(addr).await.unwrap();
        let sb = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (ra, rb) = tokio::join!(
            play_client(sa, alice.unwrap(), &plan_a, &mut la),
            play_client(sb, bob.unwrap(), &plan_b, &mut lb)
        );
        server.abort();
        let (ra, rb) = (ra.unwrap(), rb.unwrap());
        assert_eq!((ra.problems.first(), rb.problems.first()), (None, None));
        assert!(ra.logged_in && ra.started && rb.logged_in && rb.started);
        assert_eq!((ra.side, rb.side), (Some(Side::Black), Some(Side::White)));
        // Sente resigns at ply 6 (its turn).
        assert_eq!(ra.result, Some((Some(EndReason::Resign), Outcome::Lost)));
        assert_eq!(rb.result, Some((Some(EndReason::Resign), Outcome::Won)));
        assert_eq!((ra.moves, rb.moves), (6, 6));
        assert!(rb.monitor_replies > 0);
        assert!(ra.position.is_some());
        // The LOGIN lines as sent, the password hidden.
        assert_eq!(la.lines[0], "-> LOGIN alice *****");
        assert_eq!(lb.lines[0], "-> LOGIN bob ***** x1");
        let all = [la.lines.join("\n"), lb.lines.join("\n")].concat();
        assert!(!all.contains("s3cret") && !all.contains("bobpw"), "{all}");
        // The Game_Summary block is one line; the result is noted.
        assert!(
            la.lines
                .iter()
                .any(|l| l.starts_with("<- BEGIN Game_Summary ... END Game_Summary  (")),
            "{:?}",
            la.lines
        );
        assert!(la.lines.contains(&":: 6 plies played: we resign".into()));
        assert!(
            la.lines
                .contains(&":: game over after 6 moves: #RESIGN, we lost".into()),
            "{:?}",
            la.lines
        );
        assert!(la.sent > 0 && la.received > la.sent);
    }

    #[test]
    fn results_in_words() {
        assert_eq!(
            result_words(Some(EndReason::MaxMoves), Outcome::Unknown),
            "#MAX_MOVES, move limit reached, no winner (#CENSORED)"
        );
        assert_eq!(
            result_words(Some(EndReason::Resign), Outcome::Won),
            "#RESIGN, we won"
        );
        assert_eq!(
            result_words(Some(EndReason::Sennichite), Outcome::Drawn),
            "#SENNICHITE, a draw"
        );
    }
}
