//! What the USI, UCI and Hub engine drivers share: a line engine process
//! ([`crate::process::Engine`]) with a name, timeouts and a log of
//! skipped lines; the start-up (spawn, greeting, options, readiness:
//! [`LineEngine::start`]); sending commands, and waiting for an answer
//! until a deadline while counting bad lines. Each protocol gives only
//! its commands and a classifier of its engine's lines.

use std::time::Duration;

use tokio::time::Instant;

use crate::error::DecodeError;
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

/// What a protocol's classifier makes of one (non-blank) line.
pub(crate) enum Read<S> {
    /// A line the driver waits for or uses.
    Seen(S),
    /// A known line of no interest (or one the protocol says to ignore).
    Ignored,
    /// An unrecognised line: counts towards [`Limits::max_bad_lines`].
    Bad,
}

/// Classifies one line; an `Err` is logged as [`Skipped::Malformed`] and
/// counts as bad.
pub(crate) type Classify<S> = fn(&[u8]) -> Result<Read<S>, DecodeError>;

/// A command and the answer that ends the wait for it.
pub(crate) struct Ask<'a, S> {
    /// The command's bytes (whole lines).
    pub(crate) bytes: &'a [u8],
    /// The answer's name, for [`EngineError::Silent`].
    pub(crate) awaiting: &'static str,
    /// Whether a line is that answer.
    pub(crate) answers: fn(&S) -> bool,
}

/// A protocol's start-up, the same three steps in USI, UCI and Hub:
/// `hello` (USI `usi` → `usiok`, UCI `uci` → `uciok`, Hub `hub` → `wait`,
/// within [`Timeouts::handshake`]); the option lines; `ready` (USI/UCI
/// `isready` → `readyok`, Hub `init` → `ready`, within
/// [`Timeouts::ready`]).
pub(crate) struct Startup<'a, S> {
    /// The protocol's classifier.
    pub(crate) classify: Classify<S>,
    /// The greeting.
    pub(crate) hello: Ask<'a, S>,
    /// The options (`--option NAME=VALUE`), sent after it.
    pub(crate) options: &'a [EngineOption],
    /// The protocol's line for one option (`setoption`, `set-param`).
    pub(crate) option: fn(&EngineOption, &mut Vec<u8>),
    /// The readiness check.
    pub(crate) ready: Ask<'a, S>,
}

/// A line engine. See the module documentation.
pub(crate) struct LineEngine {
    engine: Engine,
    pub(crate) name: Option<String>,
    pub(crate) timeouts: Timeouts,
    bad: u32,
    log: Box<dyn FnMut(Skipped) + Send>,
}

impl core::fmt::Debug for LineEngine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("LineEngine")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl LineEngine {
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

    /// Starts the process and runs `startup`: every line before the
    /// greeting's answer is handed to `greet`, whose `Some(name)` is the
    /// engine's name (a later one wins).
    ///
    /// # Errors
    /// [`EngineError`]: not started, exited, silent past a timeout.
    pub(crate) async fn start<S>(
        spec: &EngineSpec,
        limits: Limits,
        timeouts: Timeouts,
        log: Box<dyn FnMut(Skipped) + Send>,
        startup: Startup<'_, S>,
        mut greet: impl FnMut(S) -> Option<String>,
    ) -> Result<Self, EngineError> {
        let mut engine = Self::spawn(spec, limits, timeouts, log)?;
        let hello = &startup.hello;
        let mut name = None;
        engine
            .exchange(
                hello.bytes,
                timeouts.handshake,
                hello.awaiting,
                startup.classify,
                |s| {
                    if (hello.answers)(&s) {
                        return Some(());
                    }
                    if let Some(n) = greet(s) {
                        name = Some(n);
                    }
                    None
                },
            )
            .await?;
        engine.name = name;
        if !startup.options.is_empty() {
            let mut lines = Vec::new();
            for o in startup.options {
                (startup.option)(o, &mut lines);
            }
            engine.send(&lines).await?;
        }
        engine.ready(&startup.ready, startup.classify).await?;
        Ok(engine)
    }

    /// Sends `ask` and waits up to [`Timeouts::ready`] for its answer.
    pub(crate) async fn ready<S>(
        &mut self,
        ask: &Ask<'_, S>,
        classify: Classify<S>,
    ) -> Result<(), EngineError> {
        let t = self.timeouts.ready;
        self.exchange(ask.bytes, t, ask.awaiting, classify, |s| {
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

    /// Sends `quit` (the protocol's line); the process is killed when it
    /// has not ended within 2 s.
    pub(crate) async fn quit(self, quit: &[u8]) {
        self.engine.shutdown(quit, Duration::from_secs(2)).await;
    }
}
