//! `boardwire csa serve --records DIR --rating-ids md5` on 127.0.0.1: the
//! record file of a game equals the one shogi-server wrote for the same
//! game (`boardwire_vectors::data::CSA_RECORDS`, the `atmark` record) but
//! for the times, in `DIR/YYYY/MM/DD/<game id>.csa`; the operator's log
//! has one line per game start, end and rejection on stdout; the dates
//! are the server's local time.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use boardwire_vectors::data::CSA_RECORDS;

/// The server with `TZ=<tz>` on a fresh records directory `name` (under
/// the target's temporary directory): the directory, the child and its
/// address.
fn fresh_server(name: &str, tz: &str) -> (PathBuf, Child, String) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let (child, addr) = spawn_server_in(&dir, tz);
    (dir, child, addr)
}

/// The server with `TZ=<tz>` (its local time zone).
fn spawn_server_in(dir: &Path, tz: &str) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(common::words(
            "csa serve --listen 127.0.0.1:0 --event ceotest",
        ))
        .arg("--records")
        .arg(dir)
        .args(["--rating-ids", "md5"])
        .env("TZ", tz)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let addr = common::listening_addr(&mut child);
    (child, addr)
}

struct Player {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Player {
    fn new(addr: &str) -> Self {
        let stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Self { stream, reader }
    }

    fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns it (without
    /// its line end).
    fn until(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.reader.read_line(&mut line).unwrap() > 0,
                "closed before {prefix}"
            );
            if line.starts_with(prefix) {
                return line.trim_end().to_string();
            }
        }
    }
}

/// The record's lines, with `$START_TIME`/`'$END_TIME` values and the
/// Game_ID stamp replaced.
fn without_times(text: &[u8]) -> Vec<String> {
    String::from_utf8(text.to_vec())
        .unwrap()
        .lines()
        .map(|l| {
            if let Some(v) = l.strip_prefix("$START_TIME:") {
                assert_eq!(v.len(), 19, "{l}");
                "$START_TIME:<time>".to_string()
            } else if let Some(v) = l.strip_prefix("'$END_TIME:") {
                assert_eq!(v.len(), 19, "{l}");
                "'$END_TIME:<time>".to_string()
            } else if l.starts_with("$EVENT:") {
                let (head, stamp) = l.split_at(l.len() - 14);
                assert!(stamp.bytes().all(|b| b.is_ascii_digit()), "{l}");
                format!("{head}<stamp>")
            } else {
                l.to_string()
            }
        })
        .collect()
}

/// Waits (at most 10 s) for the record files under `dir`.
fn wait_for_csa(dir: &Path) -> Vec<PathBuf> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let files = find_csa(dir);
        if !files.is_empty() || Instant::now() > deadline {
            return files;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Two x1 players log in and are sent the Game_Summary of `game` (`+` for
/// `<prefix>_b`, `-` for `<prefix>_w`); returns them and the Game_ID.
fn summary(addr: &str, prefix: &str, game: &str) -> (Player, Player, String) {
    let mut b = Player::new(addr);
    let mut w = Player::new(addr);
    b.send(&format!("LOGIN {prefix}_b dummy x1"));
    b.until("##[LOGIN] +OK");
    w.send(&format!("LOGIN {prefix}_w dummy x1"));
    w.until("##[LOGIN] +OK");
    b.send(&format!("%%GAME {game} +"));
    w.send(&format!("%%GAME {game} -"));
    let id = b.until("Game_ID:")["Game_ID:".len()..].to_string();
    b.until("END Game_Summary");
    w.until("END Game_Summary");
    (b, w, id)
}

fn find_csa(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(find_csa(&p));
        } else if p.extension().is_some_and(|x| x == "csa") {
            out.push(p);
        }
    }
    out
}

#[test]
fn serve_writes_shogi_servers_record_and_logs_games() {
    let (dir, mut child, addr) = fresh_server("csa-records-serve", "UTC");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());

    let mut b = Player::new(&addr);
    let mut w = Player::new(&addr);
    b.send("LOGIN atmark_B@p1 dummy x1");
    b.until("##[LOGIN] +OK");
    w.send("LOGIN atmark_W@p2 dummy x1");
    w.until("##[LOGIN] +OK");
    b.send("%%GAME atmark-1500-0 +");
    w.send("%%GAME atmark-1500-0 -");
    b.until("END Game_Summary");
    w.until("END Game_Summary");
    b.send("AGREE");
    w.send("AGREE");
    b.until("START:");
    w.until("START:");
    b.send("+2726FU");
    w.until("+2726FU,T");
    w.send("-3334FU");
    b.until("-3334FU,T");
    b.send("%TORYO");
    b.until("#LOSE");
    w.until("#WIN");

    let mut start = String::new();
    stdout.read_line(&mut start).unwrap();
    let mut end = String::new();
    stdout.read_line(&mut end).unwrap();

    // The record is written when the game is over; wait for it.
    let files = wait_for_csa(&dir);
    child.kill().unwrap();
    let _ = child.wait();

    assert_eq!(files.len(), 1, "{files:?}");
    let file = &files[0];
    let rel = file
        .strip_prefix(&dir)
        .unwrap()
        .to_string_lossy()
        .to_string();
    let parts: Vec<&str> = rel.split('/').collect();
    assert_eq!(parts.len(), 4, "{rel}");
    assert!(parts[3].starts_with("ceotest+atmark-1500-0+atmark_B@p1+atmark_W@p2+"));
    let stamp = &parts[3][parts[3].len() - 18..parts[3].len() - 4];
    assert_eq!(
        format!("{}/{}/{}", parts[0], parts[1], parts[2]),
        format!("{}/{}/{}", &stamp[..4], &stamp[4..6], &stamp[6..8]),
        "the date directory is the game's (UTC here)"
    );
    let ours = std::fs::read(file).unwrap();
    let theirs = CSA_RECORDS
        .iter()
        .find(|(n, _)| n.contains("atmark"))
        .unwrap()
        .1;
    assert_eq!(without_times(&ours), without_times(theirs));

    let id = parts[3].strip_suffix(".csa").unwrap();
    let start: Vec<&str> = start.split_whitespace().collect();
    assert_eq!(
        &start[2..],
        ["start", id, "+", "atmark_B@p1", "-", "atmark_W@p2"]
    );
    let end: Vec<&str> = end.split_whitespace().collect();
    assert_eq!(
        &end[2..],
        [
            "end",
            id,
            "#RESIGN",
            "+",
            "atmark_B@p1",
            "lose",
            "-",
            "atmark_W@p2",
            "win",
            "2",
            "moves"
        ]
    );
}

/// A game rejected before it starts: the operator's log has
/// `<date> <time> reject <game id> by <name>`, the name the players are
/// told (`REJECT:<game id> by <name>`, shogi-server's `Game#reject`).
#[test]
fn a_rejected_game_is_logged() {
    let (dir, mut child, addr) = fresh_server("csa-records-reject", "UTC");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (mut b, mut w, id) = summary(&addr, "rej", "rej-1500-0");
    w.send("REJECT");
    let told = format!("REJECT:{id} by rej_w");
    assert_eq!(b.until("REJECT:"), told);
    assert_eq!(w.until("REJECT:"), told);
    let mut log = String::new();
    stdout.read_line(&mut log).unwrap();
    let files = wait_for_csa(&dir);
    child.kill().unwrap();
    let _ = child.wait();
    let log: Vec<&str> = log.split_whitespace().collect();
    assert_eq!(&log[2..], ["reject", id.as_str(), "by", "rej_w"], "{log:?}");
    // The date and time: `YYYY-MM-DD HH:MM:SS`.
    let shape: String = format!("{} {}", log[0], log[1])
        .chars()
        .map(|c| if c.is_ascii_digit() { '9' } else { c })
        .collect();
    assert_eq!(shape, "9999-99-99 99:99:99");
    // The rejected game's record (its header and `'$END_TIME:`) is written.
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].ends_with(format!("{id}.csa")), "{files:?}");
}

/// The server reads its time zone at start (`TZ`, here the POSIX string
/// `XYZ-9`: UTC+9, no zone files needed): the record's date directory,
/// `$START_TIME` and the Game_ID stamp are local times, as shogi-server's
/// (`Time.now`), not UTC.
#[test]
fn records_are_dated_in_the_servers_time_zone() {
    let (dir, mut child, addr) = fresh_server("csa-records-tz", "XYZ-9");
    let utc9 = |t: std::time::SystemTime| {
        let secs = t.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        chrono::DateTime::from_timestamp(secs + 9 * 3600, 0)
            .unwrap()
            .format("%Y/%m/%d %H:%M:%S")
            .to_string()
    };
    let before = utc9(std::time::SystemTime::now());
    let (_b, mut w, id) = summary(&addr, "tz", "tz-1500-0");
    let after = utc9(std::time::SystemTime::now());
    w.send("REJECT");
    w.until("REJECT:");
    let files = wait_for_csa(&dir);
    child.kill().unwrap();
    let _ = child.wait();
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let start = text
        .lines()
        .find_map(|l| l.strip_prefix("$START_TIME:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        before.as_str() <= start && start <= after.as_str(),
        "{before} <= {start} <= {after} (UTC+9)"
    );
    let rel = files[0].strip_prefix(&dir).unwrap().to_string_lossy();
    assert_eq!(rel, format!("{}/{id}.csa", &start[..10]));
    // The stamp: shogi-server's may be a second off `$START_TIME` (two
    // `Time.now` calls; see the vectors' `atmark` record), so only its zone
    // is checked.
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    let stamp = id.rsplit('+').next().unwrap();
    assert!(
        digits(&before).as_str() <= stamp && stamp <= digits(&after).as_str(),
        "{before} <= {stamp} <= {after} (UTC+9)"
    );
}

/// `--records-format kif` and `both`: the KIF beside (or instead of) the
/// CSA record holds the game played on the wire (+2726FU -3334FU, then
/// sente's %TORYO: 投了 with Black to move, shogi-records §1.7), the
/// names and the Game_ID.
#[test]
fn records_format_writes_the_kif_record() {
    use board_records::kif::{self, Ending};
    for (format, csa_kept) in [("both", true), ("kif", false)] {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("csa-records-kif-{format}"));
        let _ = std::fs::remove_dir_all(&dir);
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardwire"))
            .args(common::words(
                "csa serve --listen 127.0.0.1:0 --event kiftest",
            ))
            .arg("--records")
            .arg(&dir)
            .args(["--records-format", format])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let addr = common::listening_addr(&mut child);
        let (mut b, mut w, id) = summary(&addr, "kf", "kf-1500-0");
        b.send("AGREE");
        w.send("AGREE");
        b.until("START:");
        w.until("START:");
        b.send("+2726FU");
        w.until("+2726FU,T");
        w.send("-3334FU");
        b.until("-3334FU,T");
        b.send("%TORYO");
        b.until("#LOSE");
        w.until("#WIN");
        let deadline = Instant::now() + Duration::from_secs(10);
        let kif_file = loop {
            let found = find_kif(&dir);
            if let Some(f) = found {
                break f;
            }
            assert!(
                Instant::now() < deadline,
                "no KIF record under {}",
                dir.display()
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        // With `kif` the CSA record is removed once the KIF is written.
        while find_csa(&dir).len() != usize::from(csa_kept) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        child.kill().unwrap();
        let _ = child.wait();
        assert_eq!(
            kif_file.file_name().unwrap().to_string_lossy(),
            format!("{id}.kif")
        );
        assert_eq!(find_csa(&dir).len(), usize::from(csa_kept), "{format}");
        let game = kif::read(&std::fs::read(&kif_file).unwrap(), None).unwrap();
        let moves: Vec<String> = game.moves().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["2g2f", "3c3d"]);
        assert_eq!(game.black(), Some("kf_b"));
        assert_eq!(game.white(), Some("kf_w"));
        assert_eq!(game.header("棋戦"), Some(id.as_str()));
        assert_eq!(game.main.end.map(|e| e.0), Some(Ending::Resign));
    }
}

fn find_kif(dir: &Path) -> Option<PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.is_dir() {
            if let Some(f) = find_kif(&p) {
                return Some(f);
            }
        } else if p.extension().is_some_and(|x| x == "kif") {
            return Some(p);
        }
    }
    None
}
