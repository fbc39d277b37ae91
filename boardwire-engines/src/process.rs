//! The engine process (tokio): the only code of the crate that owns a
//! child process.
//!
//! [`Engine::spawn`] starts `PROGRAM ARG...` directly (no shell), with
//! its standard input and output piped (standard error is passed through
//! to ours). Output lines (LF, a CR before it dropped) are cut out by a
//! reader task with a line cap ([`Limits::max_line_len`]) into a bounded
//! queue; [`Engine::recv_line`] waits for the next one until a deadline:
//! every wait has one. A line over the cap is reported once as
//! [`Line::Overlong`] and skipped up to its end. Writes have a timeout
//! ([`Limits::send_timeout`]). Dropping an [`Engine`] kills the process.

use std::ffi::OsString;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::time::Instant;

use boardwire_proto::framer::{Frame, FrameBuffer, LfLines, LineFramer};

/// How engine output is framed: LF, a CR before it dropped (the cap is
/// [`Limits::max_line_len`]; the default here is only the type's).
type EngineLines = LineFramer<LfLines<{ 16 << 10 }>>;

/// `--engine PROGRAM` and its `--engine-arg ARG`s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program (a path, or a name looked up in `PATH`).
    pub program: OsString,
    /// Its arguments, passed as they are.
    pub args: Vec<OsString>,
}

/// Bounds of an engine process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Longest output line in bytes, LF excluded (default 16 KiB: a long
    /// principal variation fits). The reader holds one buffer of this
    /// plus 4 KiB, for the whole run.
    pub max_line_len: usize,
    /// Lines read and not yet taken at most (default 256); the reader then
    /// stops reading and the engine blocks on its pipe.
    pub queue_lines: usize,
    /// A write to the engine that does not complete for this long is an
    /// error (default 10 s).
    pub send_timeout: Duration,
    /// Malformed or unrecognised lines in a row after which the engine is
    /// given up ([`EngineError::BadLines`]; default 1000: engines write
    /// much free text; 0 = no limit).
    pub max_bad_lines: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_line_len: 16 << 10,
            queue_lines: 256,
            send_timeout: Duration::from_secs(10),
            max_bad_lines: 1000,
        }
    }
}

/// What the engine wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// One line, its end stripped.
    Text(Vec<u8>),
    /// A line over [`Limits::max_line_len`] (skipped): bytes seen.
    Overlong(usize),
}

/// Why the engine could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The program could not be started.
    #[error("cannot start the engine {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine closed its output (it exited or crashed); its exit
    /// status when known.
    #[error("the engine exited{}", match .status { Some(s) => format!(" ({s})"), None => String::new() })]
    Exited {
        /// How it ended.
        status: Option<std::process::ExitStatus>,
    },
    /// A write to the engine failed or did not complete in time.
    #[error("cannot write to the engine: {0}")]
    Write(std::io::Error),
    /// The engine did not send what it owed in time.
    #[error("the engine did not send {awaiting} within {:.1} s", .waited.as_secs_f64())]
    Silent {
        /// What it owed (`usiok`, `readyok`, `bestmove`, ...).
        awaiting: &'static str,
        /// How long we waited.
        waited: Duration,
    },
    /// The engine's move is not legal in the position.
    #[error("the engine played {mv}, illegal here: {reason}")]
    IllegalMove {
        /// The move as the engine wrote it.
        mv: String,
        /// board-core's reason.
        reason: String,
    },
    /// More than [`Limits::max_bad_lines`] bad lines in a row.
    #[error("{0} malformed or unrecognised lines in a row from the engine")]
    BadLines(u32),
}

/// A running engine. See the module documentation.
#[derive(Debug)]
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<Line>,
    limits: Limits,
    exit: Option<std::process::ExitStatus>,
}

impl Engine {
    /// Starts the engine.
    ///
    /// # Errors
    /// [`EngineError::Spawn`] when it cannot be started.
    pub fn spawn(spec: &EngineSpec, limits: Limits) -> Result<Self, EngineError> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| EngineError::Spawn {
                program: spec.program.to_string_lossy().into_owned(),
                source,
            })?;
        let (Some(stdin), Some(mut stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(EngineError::Spawn {
                program: spec.program.to_string_lossy().into_owned(),
                source: std::io::Error::other("no pipes"),
            });
        };
        let (tx, rx) = mpsc::channel(limits.queue_lines.max(1));
        let max = limits.max_line_len;
        tokio::spawn(async move {
            // The family's line framer over one capped buffer: a line of
            // the cap plus its CR LF and a 4 KiB read fit in it; an
            // over-long line is reported once and skipped up to its LF.
            let mut input =
                FrameBuffer::with_capacity(EngineLines::new(max), max.saturating_add(2 + 4096));
            loop {
                let n = match stdout.read(input.space()).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                input.filled(n);
                while let Some(frame) = input.next_frame() {
                    let line = match frame {
                        Frame::Complete(line) => Line::Text(line.to_vec()),
                        Frame::Overlong { len, .. } => Line::Overlong(len),
                    };
                    if tx.send(line).await.is_err() {
                        return;
                    }
                }
            }
        });
        Ok(Self {
            child,
            stdin,
            lines: rx,
            limits,
            exit: None,
        })
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Writes `bytes` (whole lines) and flushes.
    ///
    /// # Errors
    /// [`EngineError::Write`]: the pipe is closed, or the write did not
    /// complete within [`Limits::send_timeout`].
    pub async fn send(&mut self, bytes: &[u8]) -> Result<(), EngineError> {
        let w = async {
            self.stdin.write_all(bytes).await?;
            self.stdin.flush().await
        };
        match tokio::time::timeout(self.limits.send_timeout, w).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(EngineError::Write(e)),
            Err(_) => Err(EngineError::Write(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the engine does not read its input",
            ))),
        }
    }

    /// The next line, waiting until `deadline` at most.
    ///
    /// # Errors
    /// [`EngineError::Silent`] (naming `awaiting`) at the deadline,
    /// [`EngineError::Exited`] when the engine's output ended.
    pub async fn recv_line(
        &mut self,
        deadline: Instant,
        awaiting: &'static str,
        started: Instant,
    ) -> Result<Line, EngineError> {
        match tokio::time::timeout_at(deadline, self.lines.recv()).await {
            Ok(Some(line)) => Ok(line),
            Ok(None) => {
                // Output closed: collect the exit status (briefly).
                let status =
                    match tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await {
                        Ok(Ok(s)) => Some(s),
                        _ => None,
                    };
                self.exit = status;
                Err(EngineError::Exited { status })
            }
            Err(_) => Err(EngineError::Silent {
                awaiting,
                waited: deadline.saturating_duration_since(started),
            }),
        }
    }

    /// Sends `quit` (the protocol's line, given), waits up to `grace` for
    /// the process to end, then kills it.
    pub async fn shutdown(mut self, quit: &[u8], grace: Duration) {
        let _ = self.send(quit).await;
        if self.exit.is_none()
            && tokio::time::timeout(grace, self.child.wait())
                .await
                .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}
