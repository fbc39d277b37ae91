//! `boardwire csa serve --floodgate-games ... --league-dir DIR` on
//! 127.0.0.1: players of a scheduled game wait (`%%WHO` shows them as
//! shogi-server shows a Floodgate player) and get no Game_Summary before
//! the schedule's time; `%%RATING` lists the players of `DIR/players.yaml`
//! (files written by shogi-server's own mk_rate, csa-league's
//! `tests/data/mk_rate`), a changed file is picked up, a bad one is
//! reported and the previous players kept; bad league options are refused.
//!
//! The pairing itself at a schedule's minute is tested in memory with a
//! fake clock (csa-league's `tests/floodgate.rs`) and over TCP with a
//! shifted clock (csa-league's `tests/loopback.rs`): a real schedule minute
//! is too far away for a CLI test.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// mk_rate's `players.yaml` for csa-league's test tree (Ruby 3.1,
/// `TZ=JST-9`, see csa-league's README).
fn mk_rate_file(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../csa-league/tests/data/mk_rate")
        .join(format!("{case}.yaml"))
}

/// shogi-server's `%%RATING` lines for a players.yaml as mk_rate writes it
/// (`##[RATING] <name> \t <rate %4d> @<date of last_modified>`, highest
/// rate first, equal rates in file order), read from the file's lines.
fn expected_rating(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut rows: Vec<(i64, String)> = Vec::new();
    let (mut name, mut rate) = (String::new(), 0i64);
    for line in text.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("name: ") {
            name = v.to_string();
        } else if let Some(v) = line.strip_prefix("rate: ") {
            rate = v.trim_end_matches(".0").parse().unwrap();
        } else if let Some(v) = line.strip_prefix("last_modified: ") {
            let date = &v[..10];
            rows.push((rate, format!("##[RATING] {name} \t {rate:4} @{date}")));
        }
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut lines: Vec<String> = rows.into_iter().map(|r| r.1).collect();
    lines.push("##[RATING] +OK".into());
    lines
}

struct Client {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Client {
    fn login(addr: &str, name: &str) -> Client {
        let stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        let mut c = Client { stream, reader };
        c.send(&format!("LOGIN {name} pw-{name} x1"));
        assert_eq!(c.until("##[LOGIN]"), "##[LOGIN] +OK x1");
        c
    }

    fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        assert!(self.reader.read_line(&mut line).unwrap() > 0, "closed");
        line.trim_end_matches('\n').to_string()
    }

    /// Lines up to the first starting with `prefix`; returns that one.
    fn until(&mut self, prefix: &str) -> String {
        loop {
            let l = self.line();
            if l.starts_with(prefix) {
                return l;
            }
        }
    }

    /// The lines of one `%%RATING` answer.
    fn rating(&mut self) -> Vec<String> {
        self.send("%%RATING");
        let mut lines = Vec::new();
        loop {
            let l = self.line();
            let end = l == "##[RATING] +OK";
            lines.push(l);
            if end {
                return lines;
            }
        }
    }

    /// Nothing arrives for `d`.
    fn silent_for(&mut self, d: Duration) -> Result<(), String> {
        self.stream.set_read_timeout(Some(d)).unwrap();
        let mut line = String::new();
        let r = match self.reader.read_line(&mut line) {
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                Ok(())
            }
            Ok(0) => Err("closed".into()),
            Ok(_) => Err(line),
            Err(e) => Err(e.to_string()),
        };
        self.stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        r
    }
}

/// Today's day of the week (0 = Sunday) at UTC+9.
fn jst_weekday() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // 1970-01-01 was a Thursday.
    ((now + 9 * 3600) / 86_400 + 4) % 7
}

const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/// Replaces `path` at once (a reader never sees half of it).
fn replace(path: &Path, text: &[u8]) {
    let tmp = path.with_extension("new");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// Waits up to 10 s for a log line containing `needle`.
#[track_caller]
fn log_line(log: &mpsc::Receiver<String>, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match log.recv_timeout(left) {
            Ok(l) if l.contains(needle) => return l,
            Ok(_) => {}
            Err(_) => panic!("no log line with {needle:?}"),
        }
    }
}

#[test]
fn scheduled_players_wait_and_rating_lists_players_yaml_reloaded() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("csa_league_serve");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A schedule three days away (no pairing during the test), and a line
    // shogi-server's parser does not understand.
    let day = DAYS[((jst_weekday() + 3) % 7) as usize];
    std::fs::write(
        dir.join("floodgate-900-0.conf"),
        format!("# test\n{day} 12:00\nevery day at noon\n"),
    )
    .unwrap();
    std::fs::copy(mk_rate_file("default"), dir.join("players.yaml")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(common::words(
            "csa serve --listen 127.0.0.1:0 --floodgate-games floodgate-900-0 --seed 7 --players-poll 1",
        ))
        .arg("--league-dir")
        .arg(&dir)
        .env("TZ", "JST-9")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let addr = common::listening_addr(&mut child);
    let (tx, log) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines() {
            let Ok(l) = l else { break };
            let _ = tx.send(l);
        }
    });
    let result = std::panic::catch_unwind(|| {
        // The operator's log: the seed, the line skipped with its text,
        // the next time (the schedule's day at 12:00 local).
        log_line(&log, "league seed 7 ");
        let skipped = log_line(&log, "every day at noon");
        common::assert_contains(&skipped, "floodgate-900-0.conf");
        let next = log_line(&log, "the next pairing of floodgate-900-0 at ");
        assert!(next.ends_with(" 12:00:00 +09:00"), "{next}");
        log_line(&log, "players.yaml: 20 players loaded");

        // Two players wait for the scheduled game: listed as waiting, no
        // Game_Summary (without a league they would be paired at once).
        let mut a = Client::login(&addr, "lg_alice");
        let mut b = Client::login(&addr, "lg_bob");
        a.send("%%GAME floodgate-900-0 *");
        b.send("%%GAME floodgate-900-0 *");
        let mut w = Client::login(&addr, "lg_watcher");
        w.send("%%WHO");
        let mut who = Vec::new();
        loop {
            let l = w.line();
            if l == "##[WHO] +OK" {
                break;
            }
            who.push(l);
        }
        who.sort();
        assert_eq!(
            who,
            [
                "##[WHO] lg_alice x1 game_waiting floodgate-900-0 *",
                "##[WHO] lg_bob x1 game_waiting floodgate-900-0 *",
                "##[WHO] lg_watcher x1 connected",
            ]
        );
        a.silent_for(Duration::from_millis(1500)).unwrap();
        b.silent_for(Duration::from_millis(100)).unwrap();

        // %%RATING: mk_rate's players, as shogi-server lists them.
        let want = expected_rating(&mk_rate_file("default"));
        assert_eq!(want.len(), 21);
        assert_eq!(w.rating(), want);

        // Another mk_rate output replaces it: picked up within the poll.
        let path = dir.join("players.yaml");
        replace(&path, &std::fs::read(mk_rate_file("half-life-30")).unwrap());
        let want2 = expected_rating(&mk_rate_file("half-life-30"));
        assert_ne!(want2, want);
        log_line(&log, "players.yaml: 20 players loaded");
        // (The log line comes just before the server takes the players.)
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut got = w.rating();
        while got != want2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            got = w.rating();
        }
        assert_eq!(got, want2);

        // A broken file: reported with its line, the players kept.
        replace(&path, b"---\nplayers:\n  0:\n    x:\n      rate: high\n");
        let bad = log_line(&log, "previous players are kept");
        common::assert_contains(&bad, "players.yaml line 5");
        assert_eq!(w.rating(), want2);
        // The waiting players still wait.
        a.silent_for(Duration::from_millis(100)).unwrap();
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn bad_league_options_are_refused() {
    let err = common::refused(&common::words(
        "csa serve --listen 127.0.0.1:0 --floodgate-games floodgate-900-0 --rate-every 1",
    ));
    common::assert_contains(&err, "--rate-every needs --records");
    let err = common::refused(&common::words(
        "csa serve --listen 127.0.0.1:0 --floodgate-games shogi-900-0",
    ));
    common::assert_contains(&err, "not a Floodgate game name: \"shogi-900-0\"");
    let err = common::refused(&common::words(
        "csa serve --listen 127.0.0.1:0 --floodgate-games floodgate-900-0,floodgate-900-0",
    ));
    common::assert_contains(&err, "given twice");
    let missing = Path::new(env!("CARGO_TARGET_TMPDIR")).join("csa_league_no_such_dir");
    let _ = std::fs::remove_dir_all(&missing);
    let o = Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(common::words(
            "csa serve --listen 127.0.0.1:0 --floodgate-games floodgate-900-0 --league-dir",
        ))
        .arg(&missing)
        .output()
        .unwrap();
    let err = common::exited(&o, 2);
    common::assert_contains(&err, "not a directory");
    // --seed means nothing without a league.
    let err = common::refused(&common::words("csa serve --listen 127.0.0.1:0 --seed 3"));
    common::assert_contains(&err, "--floodgate-games");
}
