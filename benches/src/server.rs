//! A `boardwire csa serve` started for a load run (the `csa_load` and
//! `charts` binaries): a free port on 127.0.0.1, the operator's log
//! counted, the first stderr lines kept, and the process's descriptor
//! limit raised so that thousands of clients fit.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Stderr lines kept of the server's (the rest are counted).
const KEPT_STDERR: usize = 10;

/// Raises RLIMIT_NOFILE's soft limit to the hard limit; (before, after).
///
/// # Errors
/// `getrlimit`/`setrlimit` failed (the text says which and why).
// `rlim_t` is `u64` on Linux x86_64 but not on every target.
#[allow(clippy::unnecessary_cast)]
pub fn raise_fd_limit() -> Result<(u64, u64), String> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct we own.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Err(format!("getrlimit: {}", std::io::Error::last_os_error()));
    }
    let before = lim.rlim_cur as u64;
    lim.rlim_cur = lim.rlim_max;
    // SAFETY: setrlimit reads the struct we own.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) } != 0 {
        return Err(format!("setrlimit: {}", std::io::Error::last_os_error()));
    }
    Ok((before, lim.rlim_cur as u64))
}

/// The multi-threaded tokio runtime the load runs on.
///
/// # Errors
/// tokio could not start it (the message says why).
pub fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// The spawned server: its process, the counts of its log lines.
#[derive(Debug)]
pub struct Spawned {
    /// The `boardwire` process.
    pub child: Child,
    /// The address it listens on (127.0.0.1, a free port).
    pub addr: SocketAddr,
    starts: Arc<AtomicUsize>,
    ends: Arc<AtomicUsize>,
    stderr_lines: Arc<std::sync::Mutex<(usize, Vec<String>)>>,
}

impl Spawned {
    /// Starts `path` as `boardwire csa serve --listen 127.0.0.1:<free
    /// port> --max-connections <clients + 64>` plus `extra`, and waits
    /// (10 s at most) until it accepts connections.
    ///
    /// # Errors
    /// No free port, the binary does not start, exits at once or does not
    /// accept within 10 s.
    pub fn csa_serve(
        path: &std::path::Path,
        clients: usize,
        extra: &[String],
    ) -> Result<Spawned, String> {
        // A free port: bind, read it, let it go.
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let mut child = Command::new(path)
            .args(["csa", "serve", "--listen", &addr.to_string()])
            .args(["--max-connections", &(clients + 64).to_string()])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let starts = Arc::new(AtomicUsize::new(0));
        let ends = Arc::new(AtomicUsize::new(0));
        let stderr_lines = Arc::new(std::sync::Mutex::new((0usize, Vec::new())));
        // The operator's log: count game starts and ends.
        if let Some(out) = child.stdout.take() {
            let (s, e) = (starts.clone(), ends.clone());
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    let mut words = line.split(' ').skip(2);
                    match words.next() {
                        Some("start") => s.fetch_add(1, Ordering::Relaxed),
                        Some("end") => e.fetch_add(1, Ordering::Relaxed),
                        _ => 0,
                    };
                }
            });
        }
        if let Some(err) = child.stderr.take() {
            let kept = stderr_lines.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    let mut k = kept.lock().unwrap_or_else(|p| p.into_inner());
                    k.0 += 1;
                    if k.1.len() < KEPT_STDERR {
                        k.1.push(line);
                    }
                }
            });
        }
        let t = Instant::now();
        loop {
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                break;
            }
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!("the server exited at start: {status}"));
            }
            if t.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("the server does not accept on {addr} after 10 s"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(Spawned {
            child,
            addr,
            starts,
            ends,
            stderr_lines,
        })
    }

    /// Games the operator's log said started and ended so far.
    pub fn games_logged(&self) -> (usize, usize) {
        (
            self.starts.load(Ordering::Relaxed),
            self.ends.load(Ordering::Relaxed),
        )
    }

    /// Stderr lines in all, and the first few.
    pub fn stderr(&self) -> (usize, Vec<String>) {
        let k = self.stderr_lines.lock().unwrap_or_else(|p| p.into_inner());
        (k.0, k.1.clone())
    }

    /// Kills the server and waits for it.
    pub fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
