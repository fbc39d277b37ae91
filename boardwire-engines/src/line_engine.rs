//! What the USI, UCI and Hub engine drivers share: one generic
//! [`LineEngine`] (the engine process, [`crate::process::Engine`], with a
//! name, timeouts and a log of skipped lines) whose start-up (spawn,
//! greeting, options, readiness: [`LineEngine::start`]), name and `quit`
//! are written once for the three protocols; sending commands, and
//! waiting for an answer until a deadline while counting bad lines. Each
//! protocol ([`Protocol`]: [`Usi`](crate::usi_engine::Usi),
//! [`Uci`](crate::uci_engine::Uci), [`Hub`](crate::hub_engine::Hub)) gives
//! only its commands and a classifier of its engine's lines; its games and
//! searches are the inherent methods of its alias
//! ([`UsiEngine`](crate::usi_engine::UsiEngine),
//! [`UciEngine`](crate::uci_engine::UciEngine),
//! [`HubEngine`](crate::hub_engine::HubEngine)).

use std::time::Duration;

use tokio::time::Instant;

use crate::error::DecodeError;
use crate::parse::EngineLine;
use crate::process::{Engine, EngineError, EngineSpec, Limits, Line};
use crate::types::EngineOption;

/// How long the engine may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timeouts {
    /// The handshake's first answer: USI `usi` → `usiok`, UCI `uci` →
    /// `uciok`, Hub `hub` → `wait` (default 10 s).
    pub handshake: Duration,
    /// Readiness: USI/UCI `isready` → `readyok`, Hub `init` → `ready`
    /// (default 60 s: engines load their evaluation files here).
    pub ready: Duration,
    /// Added to the time a search allows before the engine counts as
    /// silent (default 5 s).
    pub think_margin: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            handshake: Duration::from_secs(10),
            ready: Duration::from_secs(60),
            think_margin: Duration::from_secs(5),
        }
    }
}

/// A line the engine wrote that the driver skipped (reported to the
/// caller's log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skipped {
    /// It did not decode.
    Malformed(DecodeError, Vec<u8>),
    /// It was over the line cap (bytes seen).
    Overlong(usize),
}

/// `stop` (a search), the same line in USI, UCI and Hub.
const STOP: &[u8] = b"stop\n";

/// `quit`, the same line in USI, UCI and Hub.
const QUIT: &[u8] = b"quit\n";

/// A line protocol an engine speaks: [`Usi`](crate::usi_engine::Usi),
/// [`Uci`](crate::uci_engine::Uci) or [`Hub`](crate::hub_engine::Hub)
/// (sealed: its items are the crate's own).
pub trait Protocol: sealed::Wire {}

impl<P: sealed::Wire> Protocol for P {}

/// What a protocol gives the one driver; crate-private in all but name.
pub(crate) mod sealed {
    use super::{DecodeError, EngineOption};

    /// What a protocol's classifier makes of one (non-blank) line.
    pub enum Read<S> {
        /// A line the driver waits for or uses.
        Seen(S),
        /// A known line of no interest (or one the protocol says to ignore).
        Ignored,
        /// An unrecognised line: counts towards
        /// [`Limits::max_bad_lines`](crate::process::Limits::max_bad_lines).
        Bad,
    }

    /// What a USI or UCI engine's line is to the driver.
    pub enum FamilySeen<B, P> {
        /// `usiok` / `uciok`.
        HelloOk,
        /// `readyok`.
        ReadyOk,
        /// `id name <text>`.
        IdName(String),
        /// `bestmove <move> [ponder <move>]`.
        BestMove(B, Option<P>),
        /// `info ...`.
        Info,
    }

    /// USI or UCI: the same start-up, lines and `quit`, apart from the
    /// greeting (`usi` → `usiok`, `uci` → `uciok`) and `bestmove`'s moves;
    /// each is a [`Wire`] through this.
    pub trait UsiFamily: Send + 'static {
        /// `bestmove`'s move, as the protocol reads it.
        type Best;
        /// Its `ponder` move.
        type Ponder;
        /// The greeting (`usi`, `uci`).
        const GREETING: &'static [u8];
        /// Its answer (`usiok`, `uciok`).
        const AWAITING: &'static str;
        /// The new game (`usinewgame`, `ucinewgame`).
        const NEW_GAME: NewGame;
        /// Classifies the engine's line, read by the protocol's parsers
        /// ([`classify_family`](super::classify_family)).
        fn classify(line: &[u8]) -> Result<FamilyRead<Self::Best, Self::Ponder>, DecodeError>;
    }

    /// A USI or UCI line, classified.
    pub type FamilyRead<B, P> = Read<FamilySeen<B, P>>;

    /// A protocol's new game: its line, and where the readiness check
    /// ([`Wire::READY`]) goes.
    pub enum NewGame {
        /// The line, then the readiness check (UCI `ucinewgame`).
        ThenReady(&'static [u8]),
        /// The readiness check, then the line (USI `usinewgame`).
        AfterReady(&'static [u8]),
        /// The line alone (Hub `new-game`).
        Alone(&'static [u8]),
    }

    /// A command and the answer that ends the wait for it.
    pub struct Ask<S: 'static> {
        /// The command's bytes (whole lines).
        pub bytes: &'static [u8],
        /// The answer's name, for [`EngineError::Silent`](crate::process::EngineError::Silent).
        pub awaiting: &'static str,
        /// Whether a line is that answer.
        pub answers: fn(&S) -> bool,
    }

    /// A protocol's start-up, the same three steps in USI, UCI and Hub:
    /// [`Wire::HELLO`] (USI `usi` → `usiok`, UCI `uci` → `uciok`, Hub
    /// `hub` → `wait`, within [`Timeouts::handshake`](super::Timeouts));
    /// the option lines ([`Wire::option`]); [`Wire::READY`] (USI/UCI
    /// `isready` → `readyok`, Hub `init` → `ready`, within
    /// [`Timeouts::ready`](super::Timeouts)); and its lines.
    pub trait Wire: Sized + Send + 'static {
        /// The lines the driver waits for or uses.
        type Seen;
        /// What the start-up keeps besides the name (Hub: the `param` names).
        type Kept: Default + core::fmt::Debug + Send;
        /// The greeting.
        const HELLO: Ask<Self::Seen>;
        /// The readiness check.
        const READY: Ask<Self::Seen>;
        /// The line that ends a search (`bestmove`, `done`).
        const ANSWER: &'static str;
        /// The new game.
        const NEW_GAME: NewGame;
        /// Classifies one line; an `Err` is logged as
        /// [`Skipped::Malformed`](super::Skipped) and counts as bad.
        fn classify(line: &[u8]) -> Result<Read<Self::Seen>, DecodeError>;
        /// The protocol's line for one option (`setoption`, `set-param`).
        fn option(o: &EngineOption, out: &mut Vec<u8>);
        /// A line before the greeting's answer: `Some(name)` is the
        /// engine's name (a later one wins); what else counts is kept.
        fn greet(seen: Self::Seen, kept: &mut Self::Kept) -> Option<String>;
    }
}

pub(crate) use sealed::{Ask, FamilySeen, NewGame, Read, UsiFamily, Wire};

/// What a USI or UCI engine's line is to the driver.
pub(crate) fn classify_family<B, P>(line: EngineLine<'_, B, P>) -> Read<FamilySeen<B, P>> {
    match line {
        EngineLine::HandshakeOk => Read::Seen(FamilySeen::HelloOk),
        EngineLine::ReadyOk => Read::Seen(FamilySeen::ReadyOk),
        EngineLine::IdName(n) => {
            Read::Seen(FamilySeen::IdName(String::from_utf8_lossy(n).into_owned()))
        }
        EngineLine::BestMove(b, p) => Read::Seen(FamilySeen::BestMove(b, p)),
        EngineLine::Info(_) => Read::Seen(FamilySeen::Info),
        EngineLine::Unrecognised(_) => Read::Bad,
        EngineLine::IdAuthor(_) | EngineLine::Option(_) => Read::Ignored,
    }
}

impl<F: UsiFamily> Wire for F {
    type Seen = FamilySeen<F::Best, F::Ponder>;
    type Kept = ();
    const HELLO: Ask<Self::Seen> = Ask {
        bytes: F::GREETING,
        awaiting: F::AWAITING,
        answers: |s| matches!(s, FamilySeen::HelloOk),
    };
    const READY: Ask<Self::Seen> = Ask {
        bytes: b"isready\n",
        awaiting: "readyok",
        answers: |s| matches!(s, FamilySeen::ReadyOk),
    };
    const ANSWER: &'static str = "bestmove";
    const NEW_GAME: NewGame = F::NEW_GAME;

    fn classify(line: &[u8]) -> Result<Read<Self::Seen>, DecodeError> {
        <F as UsiFamily>::classify(line)
    }

    fn option(o: &EngineOption, out: &mut Vec<u8>) {
        crate::command_line::encode(out, |s| {
            crate::command_line::set_option(s, &o.name, o.value.as_ref());
        });
    }

    fn greet(seen: Self::Seen, (): &mut ()) -> Option<String> {
        match seen {
            FamilySeen::IdName(n) => Some(n),
            _ => None,
        }
    }
}

/// Classifies one line; an `Err` is logged as [`Skipped::Malformed`] and
/// counts as bad.
pub(crate) type Classify<S> = fn(&[u8]) -> Result<Read<S>, DecodeError>;

/// The position `moves` reach from `start` (the moves taken as legal:
/// the caller's game checked them), where a search's answer is checked.
pub(crate) fn reached<G: board_core::Game>(start: &G, moves: &[G::Move]) -> G {
    let mut pos = *start;
    for &m in moves {
        pos.play_unchecked(m);
    }
    pos
}

/// A line engine speaking protocol `P`, through its start-up; the
/// protocol's games and searches are the inherent methods of
/// [`UsiEngine`](crate::usi_engine::UsiEngine),
/// [`UciEngine`](crate::uci_engine::UciEngine) and
/// [`HubEngine`](crate::hub_engine::HubEngine).
pub struct LineEngine<P: Protocol> {
    pub(crate) core: Core,
    pub(crate) kept: P::Kept,
}

impl<P: Protocol> core::fmt::Debug for LineEngine<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LineEngine")
            .field("name", &self.core.name)
            .field("kept", &self.kept)
            .finish_non_exhaustive()
    }
}

impl<P: Protocol> LineEngine<P> {
    /// Starts the engine and runs the start-up: the greeting (USI `usi`
    /// → `usiok`, UCI `uci` → `uciok`, Hub `hub` → `wait`, bounded by
    /// [`Timeouts::handshake`]), the options (USI/UCI `setoption`, Hub
    /// `set-param`, `NAME=` with no value as `value=""`), the readiness
    /// check (USI/UCI `isready` → `readyok`, Hub `init` → `ready`, bounded
    /// by [`Timeouts::ready`]). `log` sees every line that was skipped.
    ///
    /// # Errors
    /// [`EngineError`]: not started, exited, silent past a timeout.
    pub async fn start(
        spec: &EngineSpec,
        options: &[EngineOption],
        limits: Limits,
        timeouts: Timeouts,
        log: Box<dyn FnMut(Skipped) + Send>,
    ) -> Result<Self, EngineError> {
        let mut core = Core::spawn(spec, limits, timeouts, log)?;
        let hello = &P::HELLO;
        let mut name = None;
        let mut kept = P::Kept::default();
        core.exchange(
            hello.bytes,
            timeouts.handshake,
            hello.awaiting,
            P::classify,
            |s| {
                if (hello.answers)(&s) {
                    return Some(());
                }
                if let Some(n) = P::greet(s, &mut kept) {
                    name = Some(n);
                }
                None
            },
        )
        .await?;
        core.name = name;
        if !options.is_empty() {
            let mut lines = Vec::new();
            for o in options {
                P::option(o, &mut lines);
            }
            core.send(&lines).await?;
        }
        core.ready::<P>().await?;
        Ok(Self { core, kept })
    }

    /// The engine's name: USI/UCI `id name`, the `name=` of Hub's `id`.
    pub fn name(&self) -> Option<&str> {
        self.core.name.as_deref()
    }

    /// The protocol's new game: UCI `ucinewgame`, then
    /// `isready`/`readyok` (the order the UCI description gives: the GUI
    /// waits for `readyok` after `ucinewgame`); USI `isready`/`readyok`,
    /// then `usinewgame` (call before each game); Hub `new-game`.
    ///
    /// # Errors
    /// As [`LineEngine::start`] (Hub: [`EngineError::Write`]).
    pub async fn new_game(&mut self) -> Result<(), EngineError> {
        match P::NEW_GAME {
            NewGame::ThenReady(line) => {
                self.core.send(line).await?;
                self.core.ready::<P>().await
            }
            NewGame::AfterReady(line) => {
                self.core.ready::<P>().await?;
                self.core.send(line).await
            }
            NewGame::Alone(line) => self.core.send(line).await,
        }
    }

    /// A search ([`Core::search`]) with `P`'s lines: sends `bytes`,
    /// reads lines for up to `allowed` plus [`Timeouts::think_margin`]
    /// until `pick` ends it; `stop` on silence or when `current` moves on.
    pub(crate) async fn run_search<R>(
        &mut self,
        bytes: &[u8],
        allowed: Duration,
        current: Option<(&mut tokio::sync::watch::Receiver<u64>, u64)>,
        pick: impl FnMut(P::Seen, Vec<u8>, Duration) -> Option<Result<R, EngineError>>,
    ) -> Result<R, EngineError> {
        let core = &mut self.core;
        core.search(bytes, allowed, P::ANSWER, STOP, P::classify, current, pick)
            .await
    }

    /// `quit`; the process is killed when it has not ended within 2 s.
    pub async fn quit(self) {
        self.core
            .engine
            .shutdown(QUIT, Duration::from_secs(2))
            .await;
    }
}

/// The protocol-free part of a [`LineEngine`].
pub(crate) struct Core {
    engine: Engine,
    pub(crate) name: Option<String>,
    pub(crate) timeouts: Timeouts,
    bad: u32,
    log: Box<dyn FnMut(Skipped) + Send>,
}

impl Core {
    /// Starts the process.
    fn spawn(
        spec: &EngineSpec,
        limits: Limits,
        timeouts: Timeouts,
        log: Box<dyn FnMut(Skipped) + Send>,
    ) -> Result<Self, EngineError> {
        Ok(Self {
            engine: Engine::spawn(spec, limits)?,
            name: None,
            timeouts,
            bad: 0,
            log,
        })
    }

    /// Sends `P`'s readiness check and waits up to [`Timeouts::ready`]
    /// for its answer.
    pub(crate) async fn ready<P: Wire>(&mut self) -> Result<(), EngineError> {
        let (ask, t) = (&P::READY, self.timeouts.ready);
        self.exchange(ask.bytes, t, ask.awaiting, P::classify, |s| {
            (ask.answers)(&s).then_some(())
        })
        .await
    }

    /// Writes whole lines.
    pub(crate) async fn send(&mut self, bytes: &[u8]) -> Result<(), EngineError> {
        self.engine.send(bytes).await
    }

    /// The next line until `deadline`, classified (blank lines are
    /// ignored), with its text.
    pub(crate) async fn next<S>(
        &mut self,
        deadline: Instant,
        awaiting: &'static str,
        started: Instant,
        classify: Classify<S>,
    ) -> Result<(Option<S>, Vec<u8>), EngineError> {
        let (read, text) = match self.engine.recv_line(deadline, awaiting, started).await? {
            // Empty lines (stockfish writes one) are no lines at all.
            Line::Text(t) if t.iter().all(|&b| b == b' ' || b == b'\t') => (Read::Ignored, t),
            Line::Text(t) => match classify(&t) {
                Ok(r) => (r, t),
                Err(e) => {
                    (self.log)(Skipped::Malformed(e, t.clone()));
                    (Read::Bad, t)
                }
            },
            Line::Overlong(n) => {
                (self.log)(Skipped::Overlong(n));
                (Read::Bad, Vec::new())
            }
        };
        let seen = match read {
            Read::Bad => {
                self.bad += 1;
                let max = self.engine.limits().max_bad_lines;
                if max > 0 && self.bad >= max {
                    return Err(EngineError::BadLines(self.bad));
                }
                None
            }
            Read::Ignored => {
                self.bad = 0;
                None
            }
            Read::Seen(s) => {
                self.bad = 0;
                Some(s)
            }
        };
        Ok((seen, text))
    }

    /// Sends `bytes` (none when empty), then reads lines for up to
    /// `timeout` until `pick` takes one.
    pub(crate) async fn exchange<S, R>(
        &mut self,
        bytes: &[u8],
        timeout: Duration,
        awaiting: &'static str,
        classify: Classify<S>,
        mut pick: impl FnMut(S) -> Option<R>,
    ) -> Result<R, EngineError> {
        if !bytes.is_empty() {
            self.send(bytes).await?;
        }
        let started = Instant::now();
        let deadline = started + timeout;
        loop {
            if let (Some(s), _) = self.next(deadline, awaiting, started, classify).await?
                && let Some(r) = pick(s)
            {
                return Ok(r);
            }
        }
    }

    /// A search: sends `bytes`, reads lines for up to `allowed` plus
    /// [`Timeouts::think_margin`] until `pick` ends it (with the line's
    /// text). An engine silent past that is told `stop` (`stop` bytes)
    /// and is [`EngineError::Silent`]. With `current = Some((rx, id))`,
    /// the engine is also told `stop` (once) as soon as `rx` holds a value
    /// other than `id` or its sender is gone (the search no longer
    /// counts); the answer is still waited for.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn search<S, R>(
        &mut self,
        bytes: &[u8],
        allowed: Duration,
        awaiting: &'static str,
        stop: &[u8],
        classify: Classify<S>,
        mut current: Option<(&mut tokio::sync::watch::Receiver<u64>, u64)>,
        mut pick: impl FnMut(S, Vec<u8>, Duration) -> Option<Result<R, EngineError>>,
    ) -> Result<R, EngineError> {
        self.send(bytes).await?;
        let began = Instant::now();
        let deadline = began + allowed + self.timeouts.think_margin;
        let mut stopped = false;
        loop {
            if !stopped
                && let Some((rx, id)) = current.as_mut()
                // A closed channel: no one waits for this search any more.
                && (rx.has_changed().is_err() || *rx.borrow_and_update() != *id)
            {
                stopped = true;
                self.send(stop).await?;
                continue;
            }
            let superseded = async {
                match current.as_mut() {
                    Some((rx, _)) if !stopped => {
                        let _ = rx.changed().await;
                    }
                    _ => std::future::pending::<()>().await,
                }
            };
            let next = tokio::select! {
                r = self.next(deadline, awaiting, began, classify) => r,
                () = superseded => continue,
            };
            match next {
                Ok((Some(s), text)) => {
                    if let Some(r) = pick(s, text, began.elapsed()) {
                        return r;
                    }
                }
                Ok((None, _)) => {}
                Err(e @ EngineError::Silent { .. }) => {
                    let _ = self.send(stop).await;
                    return Err(e);
                }
                Err(e) => return Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub_engine::Hub;
    use crate::uci_engine::Uci;
    use crate::usi_engine::Usi;
    use crate::{hub, uci, usi};

    /// Every line of the tables is what the protocol's encoder writes.
    #[test]
    fn the_tables_are_the_encoders_lines() {
        assert_eq!(<Uci as Wire>::HELLO.bytes, uci::Command::Uci.to_bytes());
        assert_eq!(<Usi as Wire>::HELLO.bytes, usi::Command::Usi.to_bytes());
        assert_eq!(Hub::HELLO.bytes, hub::Command::Hub.to_bytes());
        assert_eq!(Uci::READY.bytes, uci::Command::IsReady.to_bytes());
        assert_eq!(Usi::READY.bytes, usi::Command::IsReady.to_bytes());
        assert_eq!(Hub::READY.bytes, hub::Command::Init.to_bytes());
        for (stop, quit) in [
            (uci::Command::Stop.to_bytes(), uci::Command::Quit.to_bytes()),
            (usi::Command::Stop.to_bytes(), usi::Command::Quit.to_bytes()),
            (hub::Command::Stop.to_bytes(), hub::Command::Quit.to_bytes()),
        ] {
            assert_eq!((STOP, QUIT), (&stop[..], &quit[..]));
        }
        let NewGame::ThenReady(line) = <Uci as Wire>::NEW_GAME else {
            panic!("ucinewgame, then isready")
        };
        assert_eq!(line, uci::Command::UciNewGame.to_bytes());
        let NewGame::AfterReady(line) = <Usi as Wire>::NEW_GAME else {
            panic!("isready, then usinewgame")
        };
        assert_eq!(line, usi::Command::UsiNewGame.to_bytes());
        let NewGame::Alone(line) = Hub::NEW_GAME else {
            panic!("new-game alone")
        };
        assert_eq!(line, hub::Command::NewGame.to_bytes());
    }

    /// USI's and UCI's readiness check ends at `readyok`, not at the
    /// greeting's answer.
    #[test]
    fn the_readiness_check_waits_for_readyok() {
        let uci = Uci::READY.answers;
        assert!(uci(&FamilySeen::ReadyOk) && !uci(&FamilySeen::HelloOk));
        let usi = Usi::READY.answers;
        assert!(usi(&FamilySeen::ReadyOk) && !usi(&FamilySeen::HelloOk));
    }
}
