//! The host's side of a game against a Novag Citrine, as `boardwire
//! citrine` plays it, without the port and the terminal: [`Host`] takes
//! what the blocking serial driver shows (`novag_citrine::serial::run`'s
//! [`Activity`]) and the lines the person types, chooses the host's moves
//! (typed in UCI or SAN, the built-in player, or a UCI engine through
//! [`UciBridge`]) and queues the lines for a person ([`Host::poll_line`]).
//! Sans-IO and generic over the clock ([`Timestamp`]): tests drive it
//! against the simulated `Device` in memory.
//!
//! The same calls as the bridges ([`UciBridge`], and
//! [`Mover`](crate::dxp_bridge::Mover) for DXP): the session's activity in
//! ([`Host::on`], which passes events on with [`UciBridge::event`], the
//! engine's answers with [`UciBridge::answer`] and asks for a move on the
//! host's turn with [`UciBridge::our_turn`]), a [`Report`] for each engine
//! step, and [`Host::failed`].
//!
//! What is printed: one line per event ([`Event::describe`]); of a run of
//! bad lines (undecodable, overlong or unrecognised) the first
//! [`BAD_LINES_SHOWN`], then `(N more bad lines not shown)` when a good
//! line comes or the run ends ([`Host::end_bad_run`]); at the host's turn
//! with typed moves a prompt, and the reason a typed line was refused.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::time::Duration;

use board_core::chess::{Move, Position};
use board_core::player::Player;
use board_core::time::Timestamp;
use boardwire_proto::drive::Activity;
use novag_citrine::convert::parse_typed_move;
use novag_citrine::message::{Command, Escaped, Reply};
use novag_citrine::session::{Disagreement, Driver, Event};
use tokio::sync::mpsc;

use crate::citrine_bridge::{Answer, BridgePlan, Report, UciBridge};
use crate::line_engine::Skipped;

/// Bad lines in a row printed before the rest are only counted.
pub const BAD_LINES_SHOWN: u32 = 3;

/// The commands at the prompt, for `help`.
pub const HELP: &str = "commands: a move in UCI (e2e4, e7e8q, castling e1g1) or SAN (Nf3, exd5, O-O, e8=Q); \
auto (the built-in player moves); takeback (your last move and the device's reply); \
position (compare boards through P); new (new game); help; quit";

/// A UCI engine playing the host's side: the bridge and its task's
/// answers.
#[derive(Debug)]
pub struct Engine {
    bridge: UciBridge,
    answers: mpsc::Receiver<Answer>,
}

impl Engine {
    /// Starts the engine ([`UciBridge::spawn`], in the current tokio
    /// runtime: see there) and waits for its handshake (bounded by the
    /// plan's timeouts, and by 80 s as a backstop). Returns the engine
    /// and its `id name`.
    ///
    /// # Errors
    /// Why the engine cannot be used.
    pub async fn start(
        plan: BridgePlan,
        log: Box<dyn FnMut(Skipped) + Send>,
    ) -> Result<(Engine, Option<String>), String> {
        let (bridge, mut answers) = UciBridge::spawn(plan, log);
        match tokio::time::timeout(Duration::from_secs(80), answers.recv()).await {
            Ok(Some(Answer::Started { name })) => Ok((Engine { bridge, answers }, name)),
            Ok(Some(Answer::Failed(why))) => Err(why),
            Ok(Some(_)) => Err("an answer before the handshake".into()),
            Ok(None) => Err("the engine task ended".into()),
            Err(_) => Err("the engine did not start in time".into()),
        }
    }

    /// Ends the engine: it is told `quit` once its last search is over;
    /// waits (at most 5 s) for its task to end.
    pub async fn close(self) {
        let Engine {
            bridge,
            mut answers,
        } = self;
        drop(bridge);
        let drain = async { while answers.recv().await.is_some() {} };
        let _ = tokio::time::timeout(Duration::from_secs(5), drain).await;
    }

    /// The engine's answer that came, if any ([`UciBridge::answer`]).
    fn poll<T: Timestamp>(&mut self, driver: &mut Driver<T>, now: T) -> Option<Report> {
        match self.answers.try_recv() {
            Ok(a) => Some(self.bridge.answer(driver, a, now)),
            Err(mpsc::error::TryRecvError::Empty) => None,
            Err(mpsc::error::TryRecvError::Disconnected) => Some(Report::Failed {
                why: "the engine task ended".into(),
            }),
        }
    }
}

/// How the host plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostConfig {
    /// A person types the host's moves ([`Host::typed`]); otherwise the
    /// built-in player (or the engine) moves, unattended.
    pub typed: bool,
    /// The game stops (unfinished) at this many plies.
    pub max_plies: usize,
    /// Send `I` (identity) at the first chance (a real device).
    pub identify: bool,
}

/// The host's side of a Citrine game. See the module documentation.
#[derive(Debug)]
pub struct Host {
    config: HostConfig,
    player: Player,
    engine: Option<Engine>,
    engine_failed: Option<String>,
    /// Typed lines waiting for the host's turn.
    typed: VecDeque<String>,
    /// `quit` or the end of input: the result, at the next idle moment.
    stop: Option<String>,
    lines: VecDeque<String>,
    disagreed: bool,
    out_of_sync: bool,
    prompted: bool,
    /// Bad lines in the current run of them (see [`BAD_LINES_SHOWN`]).
    bad_run: u32,
    /// Why the game ended, from the driver's `GameEnded`.
    ended: Option<String>,
    /// The plies of the game that ended (the driver may already hold the
    /// next game when the run stops).
    ended_plies: Option<usize>,
    /// The driver's state at the latest call: its position, plies and
    /// disagreements.
    last: (Option<Position>, usize, u64),
}

impl Host {
    /// The host with `player` (the built-in player: unattended, or a typed
    /// `auto`) and, when given, the engine, which then plays every host
    /// move.
    pub fn new(config: HostConfig, player: Player, engine: Option<Engine>) -> Host {
        Host {
            config,
            player,
            engine,
            engine_failed: None,
            typed: VecDeque::new(),
            stop: None,
            lines: VecDeque::new(),
            disagreed: false,
            out_of_sync: false,
            prompted: false,
            bad_run: 0,
            ended: None,
            ended_plies: None,
            last: (None, 0, 0),
        }
    }

    /// A line the person typed: `quit` stops the game at the next idle
    /// moment, also while the device thinks; other lines wait for the
    /// host's turn (a move in UCI or SAN, `auto`, `takeback`, `position`,
    /// `new`, `help`: [`HELP`]). Lines after a stop are ignored.
    pub fn typed(&mut self, line: String) {
        if self.stop.is_none() {
            if line.trim() == "quit" {
                self.stop = Some("quit".into());
            } else {
                self.typed.push_back(line);
            }
        }
    }

    /// The person's input ended: the game stops at the next idle moment.
    pub fn input_closed(&mut self) {
        self.stop.get_or_insert_with(|| "input closed".into());
    }

    /// The next line for the person, in order.
    pub fn poll_line(&mut self) -> Option<String> {
        self.lines.pop_front()
    }

    /// One activity of the serial driver; `Break` with the result (`quit`,
    /// the game's end, `unfinished at the N-ply limit`, `engine failed:
    /// ...`, ...) stops the game.
    pub fn on<T: Timestamp>(
        &mut self,
        driver: &mut Driver<T>,
        activity: Activity<'_, '_, Driver<T>>,
        now: T,
    ) -> ControlFlow<String> {
        if std::mem::take(&mut self.config.identify) {
            // A fresh driver is open: this cannot be refused.
            let _ = driver.send(Command::Identity, now);
        }
        let step = match activity {
            Activity::Event(ev) => {
                self.event(&ev);
                None
            }
            Activity::Malformed { frame, error } => {
                if self.bad_line() {
                    self.say(format!("bad line {}: {error}", Escaped(frame)));
                }
                None
            }
            Activity::Received { message, .. } if !matches!(message, Reply::Unrecognised(_)) => {
                self.end_bad_run();
                None
            }
            Activity::Idle => self.idle(driver, now),
            _ => None,
        };
        self.last = (
            driver.position().copied(),
            driver.moves().len(),
            driver.disagreements(),
        );
        step.map_or(ControlFlow::Continue(()), ControlFlow::Break)
    }

    fn event(&mut self, ev: &Event) {
        let bad = matches!(
            ev,
            Event::Malformed(_)
                | Event::Unrecognised(_)
                | Event::Disagreement(Disagreement::BadLine(_))
        );
        self.disagreed |= ev.is_disagreement();
        // A bad line is printed once, by `Activity::Malformed` (with its
        // text); an unrecognised one here.
        let shown = match ev {
            Event::Malformed(_) => false,
            Event::Unrecognised(_) => self.bad_line(),
            _ => !bad || self.bad_run <= BAD_LINES_SHOWN,
        };
        if matches!(ev, Event::PeerSilent { .. }) {
            self.end_bad_run();
        }
        if shown {
            self.say(ev.describe().to_string());
        }
        if let Some(e) = &mut self.engine {
            e.bridge.event(ev);
        }
        match ev {
            Event::GameEnded(end) => {
                self.ended = Some(end.reason.to_string());
                self.ended_plies = Some(end.moves.len());
            }
            Event::OutOfSync { .. } => self.out_of_sync = true,
            _ => {}
        }
    }

    /// Counts a bad line; `true` when it is to be printed.
    fn bad_line(&mut self) -> bool {
        self.bad_run = self.bad_run.saturating_add(1);
        self.bad_run <= BAD_LINES_SHOWN
    }

    /// A good line, or the end of the run: the line counting the bad lines
    /// not shown, if any.
    pub fn end_bad_run(&mut self) {
        if self.bad_run > BAD_LINES_SHOWN {
            let more = self.bad_run - BAD_LINES_SHOWN;
            self.say(format!("({more} more bad lines not shown)"));
        }
        self.bad_run = 0;
    }

    fn say(&mut self, line: String) {
        self.lines.push_back(line);
    }

    /// The driver is idle: a stop, the engine's answers, the end of the
    /// game, the host's move.
    fn idle<T: Timestamp>(&mut self, driver: &mut Driver<T>, now: T) -> Option<String> {
        if let Some(stop) = self.stop.take() {
            return Some(stop);
        }
        if let Some(report) = self.engine.as_mut().and_then(|e| e.poll(driver, now))
            && let Some(why) = self.engine_report(report)
        {
            return Some(why);
        }
        if driver.is_out_of_sync() && !self.config.typed {
            return Some("out of sync with the device".into());
        }
        let Some(position) = driver.position().copied() else {
            return Some("the device closed the stream".into());
        };
        let plies = driver.moves().len();
        if let Some(end) = game_end(
            self.ended.as_deref(),
            &position,
            plies,
            self.config.max_plies,
        ) && driver.is_idle()
        {
            return Some(end);
        }
        if !(driver.is_our_turn() && driver.is_idle()) {
            self.prompted = false;
            return None;
        }
        if !self.config.typed {
            return self.play(driver, &position, now);
        }
        if !self.prompted {
            self.say(format!(
                "your move ({position}): a move (UCI or SAN), auto, takeback, position, new, help, quit"
            ));
            self.prompted = true;
        }
        let line = self.typed.pop_front()?;
        self.prompted = false;
        let refused = match line.trim() {
            "" => None,
            "auto" => return self.play(driver, &position, now),
            "help" => Some(HELP.to_owned()),
            // At the host's turn: its last move and the device's reply, so
            // that it is the host's turn again. Both or neither.
            "takeback" if driver.moves().len() < 2 => {
                Some("cannot take back: no move of yours to take back".to_owned())
            }
            "takeback" => driver
                .take_back_plies(2, now)
                .err()
                .map(|e| format!("cannot take back: {e}")),
            "position" => driver
                .request_position(now)
                .err()
                .map(|e| format!("cannot send P: {e}")),
            "new" => driver
                .new_game(now)
                .err()
                .map(|e| format!("cannot send N: {e}")),
            text => match parse_move(&position, text) {
                Ok(mv) => driver
                    .send_move(mv, now)
                    .err()
                    .map(|e| format!("cannot play {mv}: {e}")),
                Err(e) => Some(e),
            },
        };
        if let Some(refused) = refused {
            self.say(refused);
        }
        None
    }

    /// An engine report: a move played or refused is printed; a failure is
    /// printed and ends the run (`Some(why)`); the rest is silent.
    fn engine_report(&mut self, report: Report) -> Option<String> {
        match report {
            Report::Failed { why } => {
                let text = format!("engine failed: {why}");
                self.say(text.clone());
                self.engine_failed = Some(why);
                Some(text)
            }
            r @ (Report::Played { .. } | Report::Refused { .. }) => {
                self.say(r.to_string());
                None
            }
            _ => None,
        }
    }

    /// The built-in player's move, or the engine asked for one (`Some(why)`:
    /// the engine failed).
    fn play<T: Timestamp>(
        &mut self,
        driver: &mut Driver<T>,
        position: &Position,
        now: T,
    ) -> Option<String> {
        if let Some(e) = &mut self.engine {
            let report = e.bridge.our_turn(driver, now)?;
            return self.engine_report(report);
        }
        if let Some(mv) = self.player.choose_chess(position)
            && let Err(e) = driver.send_move(mv, now)
        {
            self.say(format!("cannot play {mv}: {e}"));
        }
        None
    }

    /// The driver's position at the latest call (`None`: the device closed
    /// the stream).
    pub fn position(&self) -> Option<&Position> {
        self.last.0.as_ref()
    }

    /// The plies of the game: of the game that ended, else the driver's at
    /// the latest call.
    pub fn plies(&self) -> usize {
        self.ended_plies.unwrap_or(self.last.1)
    }

    /// Why the engine failed, once it has.
    pub fn failed(&self) -> Option<&str> {
        self.engine_failed.as_deref()
    }

    /// Takes the engine out (to [`Engine::close`] it after the run).
    pub fn take_engine(&mut self) -> Option<Engine> {
        self.engine.take()
    }

    /// The run's verdict once it is over (`final_differs`: the device's
    /// final position, when it is known, differs from ours): `Err` with
    /// the message of a run that failed — the engine failed (`engine:
    /// WHY`), or, unattended, the driver and the device ever disagreed
    /// ([`disagreement_summary`]).
    ///
    /// # Errors
    /// As said.
    pub fn verdict(&self, final_differs: bool) -> Result<(), String> {
        if let Some(why) = &self.engine_failed {
            return Err(format!("engine: {why}"));
        }
        if (self.disagreed || final_differs) && !self.config.typed {
            return Err(disagreement_summary(
                self.last.2,
                self.out_of_sync,
                final_differs,
            ));
        }
        Ok(())
    }
}

/// A typed move: UCI first, then SAN (`convert::parse_typed_move`); the
/// error names both notations (and `help`).
fn parse_move(position: &Position, text: &str) -> Result<Move, String> {
    parse_typed_move(position, text).map_err(|e| {
        format!(
            "not a move here: {:?} is {e}; type help for the commands",
            text.escape_default().to_string()
        )
    })
}

/// The unattended run's failure message: how many disagreements there
/// were and whether resynchronising through `P` repaired them all.
/// Repaired ones still fail the run: a lost or cut line means the link or
/// the device is unreliable.
pub fn disagreement_summary(count: u64, out_of_sync: bool, final_differs: bool) -> String {
    let times = if count == 1 { "time" } else { "times" };
    if final_differs {
        format!(
            "the device's final position differs from ours ({count} disagreement(s) seen during the game)"
        )
    } else if out_of_sync {
        format!(
            "the driver and the device disagreed {count} {times}; resynchronising through P failed (out of sync)"
        )
    } else {
        format!(
            "the driver and the device disagreed {count} {times}; all were repaired by resynchronising through P, but --auto exits 1 on any disagreement"
        )
    }
}

/// The game's end, if it is over: the driver's reason, the fifty-move
/// rule (the Citrine plays on; we stop), or the ply limit.
pub fn game_end(
    ended: Option<&str>,
    position: &Position,
    plies: usize,
    max_plies: usize,
) -> Option<String> {
    match ended {
        Some(reason) => Some(reason.to_owned()),
        None if position.is_fifty_moves() => Some("draw by the fifty-move rule".into()),
        None if plies >= max_plies => Some(format!("unfinished at the {max_plies}-ply limit")),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use novag_citrine::FrameError;
    use novag_citrine::session::{Device, DeviceConfig, DriverConfig};

    use super::*;

    /// The host, the driver and the simulated device in memory, on a
    /// simulated clock, with the serial driver's order: what is written,
    /// the events, then `Idle`.
    struct Rig {
        now: Duration,
        driver: Driver<Duration>,
        device: Device<Duration>,
        host: Host,
        printed: Vec<String>,
    }

    impl Rig {
        fn new(typed: bool, max_plies: usize) -> Rig {
            let now = Duration::ZERO;
            let config = HostConfig {
                typed,
                max_plies,
                identify: false,
            };
            Rig {
                now,
                driver: Driver::new(DriverConfig::default(), now),
                device: Device::new(DeviceConfig::default(), now),
                host: Host::new(config, Player::new(1), None),
                printed: Vec::new(),
            }
        }

        fn on(&mut self, activity: Activity<'_, '_, Driver<Duration>>) -> ControlFlow<String> {
            let flow = self.host.on(&mut self.driver, activity, self.now);
            self.printed
                .extend(core::iter::from_fn(|| self.host.poll_line()));
            flow
        }

        /// Rounds of 10 ms until the host stops (its result) or `limit`.
        fn run(&mut self, limit: Duration) -> Option<String> {
            let end = self.now + limit;
            while self.now < end {
                let now = self.now;
                self.driver.handle_timeout(now);
                self.device.handle_timeout(now);
                while let Some(t) = self.driver.poll_transmit() {
                    self.device.handle_input(t.as_bytes(), now);
                }
                while let Some(t) = self.device.poll_transmit() {
                    self.driver.handle_input(t.as_bytes(), now);
                }
                while self.device.poll_event().is_some() {}
                while let Some(e) = self.driver.poll_event() {
                    if let ControlFlow::Break(r) = self.on(Activity::Event(e)) {
                        return Some(r);
                    }
                }
                if let ControlFlow::Break(r) = self.on(Activity::Idle) {
                    return Some(r);
                }
                self.now += Duration::from_millis(10);
            }
            None
        }

        fn printed(&self, line: &str) -> bool {
            self.printed.iter().any(|l| l == line)
        }
    }

    #[test]
    fn unattended_the_built_in_player_plays_to_the_ply_limit() {
        let mut rig = Rig::new(false, 6);
        let result = rig.run(Duration::from_secs(30));
        assert_eq!(result.as_deref(), Some("unfinished at the 6-ply limit"));
        assert_eq!(rig.host.plies(), 6);
        assert_eq!(rig.host.position(), rig.device.position());
        let moves: Vec<&String> = rig
            .printed
            .iter()
            .filter(|l| l.starts_with("ack ") || l.starts_with("device "))
            .collect();
        assert_eq!(moves.len(), 6, "{:?}", rig.printed);
        assert!(moves[0].starts_with("ack ") && moves[1].starts_with("device "));
        assert!(rig.host.failed().is_none());
        assert_eq!(rig.host.verdict(false), Ok(()));
        // A final position that differs fails an unattended run.
        assert_eq!(
            rig.host.verdict(true),
            Err(disagreement_summary(0, false, true))
        );
    }

    #[test]
    fn typed_lines_wait_for_the_prompt_and_quit_stops_at_once() {
        let mut rig = Rig::new(true, 600);
        assert_eq!(rig.run(Duration::from_millis(50)), None);
        let prompt = format!(
            "your move ({}): a move (UCI or SAN), auto, takeback, position, new, help, quit",
            Position::startpos()
        );
        assert_eq!(rig.printed, ["xmit on", prompt.as_str()]);
        for line in ["help", "takeback", "e2e5", "Nf3"] {
            rig.host.typed(line.into());
        }
        assert_eq!(rig.run(Duration::from_secs(2)), None);
        assert!(rig.printed(HELP), "{:?}", rig.printed);
        assert!(rig.printed("cannot take back: no move of yours to take back"));
        assert!(
            rig.printed
                .iter()
                .any(|l| l.starts_with("not a move here: \"e2e5\" is ")
                    && l.ends_with("; type help for the commands")),
            "{:?}",
            rig.printed
        );
        assert!(rig.printed("ack g1f3"), "{:?}", rig.printed);
        assert!(rig.printed.iter().any(|l| l.starts_with("device ")));
        // The prompt again after each refused line, and at the next turn
        // with the new position.
        assert_eq!(rig.printed.iter().filter(|l| **l == prompt).count(), 4);
        assert!(rig.printed.last().unwrap().starts_with("your move ("));
        // `auto`: the built-in player moves for the host.
        rig.host.typed("auto".into());
        assert_eq!(rig.run(Duration::from_secs(2)), None);
        assert_eq!(rig.host.plies(), 4, "{:?}", rig.printed);
        // Both plies back: the host's move and the device's reply.
        rig.host.typed("takeback".into());
        assert_eq!(rig.run(Duration::from_secs(2)), None);
        assert_eq!(rig.host.plies(), 2, "{:?}", rig.printed);
        assert!(rig.printed.iter().any(|l| l.starts_with("takeback ")));
        // `quit` wins over what comes before and after it.
        rig.host.typed("e2e4".into());
        rig.host.typed("quit".into());
        rig.host.input_closed();
        assert_eq!(rig.run(Duration::from_secs(2)).as_deref(), Some("quit"));
        // Typed moves: disagreements never fail the run.
        assert_eq!(rig.host.verdict(true), Ok(()));
    }

    #[test]
    fn the_end_of_input_stops_also_while_the_device_thinks() {
        let mut rig = Rig::new(true, 600);
        rig.host.typed("e2e4".into());
        rig.host.input_closed();
        rig.host.typed("quit".into());
        assert_eq!(
            rig.run(Duration::from_secs(1)).as_deref(),
            Some("input closed")
        );
    }

    #[test]
    fn of_a_run_of_bad_lines_three_are_shown_then_counted() {
        let mut rig = Rig::new(true, 600);
        let error = FrameError::Overlong { len: 300, max: 256 };
        for _ in 0..5 {
            let flow = rig.on(Activity::Malformed {
                error: &error,
                frame: b"\x07x",
            });
            assert_eq!(flow, ControlFlow::Continue(()));
            // The driver's event for it is not printed again.
            let _ = rig.on(Activity::Event(Event::Malformed(error)));
        }
        let shown = format!("bad line \\x07x: {error}");
        assert_eq!(rig.printed, [shown.as_str(); 3]);
        // A good line ends the run.
        let _ = rig.on(Activity::Received {
            frame: b"Flip",
            message: &Reply::Flip { to_move: None },
        });
        assert_eq!(rig.printed[3], "(2 more bad lines not shown)");
        rig.host.end_bad_run();
        assert_eq!(rig.host.poll_line(), None);
    }

    #[test]
    fn the_game_ends_by_the_driver_the_fifty_move_rule_or_the_limit() {
        let start = Position::startpos();
        assert_eq!(
            game_end(Some("mate"), &start, 3, 600).as_deref(),
            Some("mate")
        );
        assert_eq!(
            game_end(None, &start, 600, 600).as_deref(),
            Some("unfinished at the 600-ply limit")
        );
        assert_eq!(game_end(None, &start, 599, 600), None);
        let fifty: Position = "8/8/8/4k3/8/8/8/4K2R w - - 100 80".parse().unwrap();
        assert_eq!(
            game_end(None, &fifty, 0, 600).as_deref(),
            Some("draw by the fifty-move rule")
        );
    }

    #[test]
    fn the_summary_says_how_often_and_whether_repaired() {
        assert_eq!(
            disagreement_summary(1, false, false),
            "the driver and the device disagreed 1 time; all were repaired by resynchronising through P, but --auto exits 1 on any disagreement"
        );
        assert_eq!(
            disagreement_summary(2, true, false),
            "the driver and the device disagreed 2 times; resynchronising through P failed (out of sync)"
        );
        assert_eq!(
            disagreement_summary(2, true, true),
            "the device's final position differs from ours (2 disagreement(s) seen during the game)"
        );
    }
}
