//! What the three bridges ([`crate::dxp_bridge`], [`crate::csa_bridge`],
//! [`crate::citrine_bridge`]) share: the engine task (start the engine,
//! answer [`Job::NewGame`] and the searches, `quit` at the end) and the
//! bridge's side of its channel ([`Link`]: numbered searches, the
//! failure that stops the bridge). Each bridge gives only its engine's
//! calls ([`TaskEngine`]) and its public `Answer` type.

use std::future::Future;

use tokio::sync::mpsc;

use crate::process::EngineError;

/// The failure of a bridge whose engine task has ended.
pub(crate) const TASK_GONE: &str = "the engine task is gone";

/// A bridge's engine as its task drives it. The futures are `Send` so that
/// the task can run on any tokio runtime.
pub(crate) trait TaskEngine: Sized + Send + 'static {
    /// What one search is asked with.
    type Search: Send + 'static;
    /// What one search finds.
    type Found: Send + 'static;
    /// A message for the engine that has no answer (USI `gameover`).
    type Notice: Send + 'static;
    /// The bridge's public answer type.
    type Answer: Send + 'static;

    /// The first answer of a started engine.
    fn started(&mut self) -> Self::Answer;
    /// The answer of an engine that cannot be used.
    fn failed(why: String) -> Self::Answer;
    /// The answer to search `id`.
    fn answered(id: u64, result: Result<Self::Found, String>) -> Self::Answer;
    /// The protocol's new game.
    fn new_game(&mut self) -> impl Future<Output = Result<(), EngineError>> + Send;
    /// Search `id`; `None` when the search no longer counts and was
    /// skipped (no answer is sent).
    fn search(
        &mut self,
        id: u64,
        search: Self::Search,
    ) -> impl Future<Output = Option<Result<Self::Found, EngineError>>> + Send;
    /// Tells the engine `notice`; an engine that cannot be told is found
    /// out at its next exchange. By default nothing is said.
    fn notice(&mut self, notice: Self::Notice) -> impl Future<Output = ()> + Send {
        async move { drop(notice) }
    }
    /// `quit`, the process killed after 2 s.
    fn quit(self) -> impl Future<Output = ()> + Send;
}

/// What the bridge asks of its engine task.
pub(crate) enum Job<E: TaskEngine> {
    /// The protocol's new game.
    NewGame,
    /// Search `id`.
    Think {
        /// Which search.
        id: u64,
        /// What it is about.
        search: E::Search,
    },
    /// A message with no answer.
    Notice(E::Notice),
}

/// Starts the engine task: `start` (the engine, started), then each job
/// in turn until the bridge is dropped, the answers' receiver is dropped
/// or the engine fails; then `quit`. Returns the bridge's [`Link`] and the
/// answers' receiver.
pub(crate) fn spawn<E: TaskEngine>(
    capacity: usize,
    start: impl Future<Output = Result<E, EngineError>> + Send + 'static,
) -> (Link<E>, mpsc::Receiver<E::Answer>) {
    let (job_tx, job_rx) = mpsc::channel(capacity);
    let (ans_tx, ans_rx) = mpsc::channel(capacity);
    tokio::spawn(run(start, job_rx, ans_tx));
    (
        Link {
            jobs: job_tx,
            next_id: 1,
            failed: None,
        },
        ans_rx,
    )
}

async fn run<E: TaskEngine>(
    start: impl Future<Output = Result<E, EngineError>>,
    mut jobs: mpsc::Receiver<Job<E>>,
    answers: mpsc::Sender<E::Answer>,
) {
    let mut engine = match start.await {
        Ok(e) => e,
        Err(e) => {
            let _ = answers.send(E::failed(e.to_string())).await;
            return;
        }
    };
    if answers.send(engine.started()).await.is_err() {
        engine.quit().await;
        return;
    }
    while let Some(job) = jobs.recv().await {
        match job {
            Job::NewGame => {
                if let Err(e) = engine.new_game().await {
                    let _ = answers.send(E::failed(e.to_string())).await;
                    break;
                }
            }
            Job::Think { id, search } => {
                let Some(result) = engine.search(id, search).await else {
                    continue;
                };
                let result = result.map_err(|e| e.to_string());
                let failed = result.is_err();
                if answers.send(E::answered(id, result)).await.is_err() || failed {
                    break;
                }
            }
            Job::Notice(n) => engine.notice(n).await,
        }
    }
    engine.quit().await;
}

/// The bridge's side of its engine task: the jobs' sender, the next
/// search's number and the failure that stops the bridge.
pub(crate) struct Link<E: TaskEngine> {
    jobs: mpsc::Sender<Job<E>>,
    next_id: u64,
    failed: Option<String>,
}

impl<E: TaskEngine> core::fmt::Debug for Link<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Link")
            .field("next_id", &self.next_id)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl<E: TaskEngine> Link<E> {
    /// Why the engine failed, once it has.
    pub(crate) fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Records the engine's failure (the first one counts).
    pub(crate) fn set_failed(&mut self, why: &str) {
        if self.failed.is_none() {
            self.failed = Some(why.to_owned());
        }
    }

    /// The number the next search will have.
    pub(crate) fn next_id(&self) -> u64 {
        self.next_id
    }

    /// Asks for a new game.
    ///
    /// # Errors
    /// [`TASK_GONE`]: the task has ended (or is not keeping up).
    pub(crate) fn new_game(&mut self) -> Result<(), &'static str> {
        self.send(Job::NewGame)
    }

    /// Asks for search [`Link::next_id`] and returns its number.
    ///
    /// # Errors
    /// As [`Link::new_game`] (the number is used all the same).
    pub(crate) fn think(&mut self, search: E::Search) -> Result<u64, &'static str> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(Job::Think { id, search }).map(|()| id)
    }

    /// Tells the engine `notice`.
    ///
    /// # Errors
    /// As [`Link::new_game`].
    pub(crate) fn notice(&mut self, notice: E::Notice) -> Result<(), &'static str> {
        self.send(Job::Notice(notice))
    }

    fn send(&mut self, job: Job<E>) -> Result<(), &'static str> {
        self.jobs.try_send(job).map_err(|_| TASK_GONE)
    }
}

/// `engine NAME ready`, the start of every bridge's `Report::Started` line.
pub(crate) fn write_started(
    f: &mut core::fmt::Formatter<'_>,
    name: Option<&str>,
) -> core::fmt::Result {
    write!(f, "engine {} ready", name.unwrap_or("(no name)"))
}

/// `engine failed: WHY; we resign (RESIGNATION)` (or `at our turn`), the
/// `Report::Failed` line of the bridges that can resign.
pub(crate) fn write_failed(
    f: &mut core::fmt::Formatter<'_>,
    why: &str,
    resigned: bool,
    resignation: &str,
) -> core::fmt::Result {
    write!(f, "engine failed: {why}")?;
    if resigned {
        write!(f, "; we resign ({resignation})")
    } else {
        f.write_str("; we resign at our turn")
    }
}
