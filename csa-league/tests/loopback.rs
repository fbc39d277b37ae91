//! A [`FloodgateDir`] in a real server on 127.0.0.1: six x1 clients with
//! known rates wait for a scheduled game, none gets a Game_Summary before
//! the schedule's time, the pairs are LeastDiff's, and a second round
//! (after the first games ended and went into the history file) avoids
//! the repeats as the penalties say.
//!
//! A schedule minute is minutes away, so the league sees a shifted clock
//! (`Shifted`): the server's real time plus an offset that puts the next
//! schedule time two seconds ahead.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use csa_league::FloodgateDir;
use csa_league::players::Players;
use csa_protocol::net::{Config, Control};
use csa_protocol::session::{League, LeagueResult, LeagueRound, ServerConfig, WaitingPlayer};

const JST: i32 = 9 * 3600;
/// 2024-05-06 10:00 +09:00, a Monday.
const MONDAY_10: i64 = 1_714_957_200;
const GAME: &str = "floodgate-900-0";

/// The league at the server's time plus `shift` seconds.
#[derive(Debug)]
struct Shifted {
    inner: FloodgateDir,
    shift: Arc<AtomicI64>,
}

fn add(t: u64, s: i64) -> u64 {
    t.saturating_add_signed(s)
}

impl League for Shifted {
    fn schedules(&self, gamename: &str) -> bool {
        self.inner.schedules(gamename)
    }
    fn next_pairing(&self, unix_secs: u64, off: i32) -> Option<u64> {
        let s = self.shift.load(Ordering::SeqCst);
        self.inner
            .next_pairing(add(unix_secs, s), off)
            .map(|t| add(t, -s))
    }
    fn pair(&mut self, unix_secs: u64, off: i32, waiting: &[WaitingPlayer<'_>]) -> LeagueRound {
        let s = self.shift.load(Ordering::SeqCst);
        self.inner.pair(add(unix_secs, s), off, waiting)
    }
    fn game_ended(&mut self, result: &LeagueResult<'_>) {
        self.inner.game_ended(result);
    }
}

/// The shift that makes `target` (unix seconds) two seconds from now.
fn shift_to(target: i64) -> i64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    target - 2 - i64::try_from(now).unwrap()
}

struct Client {
    name: &'static str,
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Client {
    fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }
    fn until(&mut self, prefix: &str) -> String {
        loop {
            let mut l = String::new();
            assert!(
                self.reader.read_line(&mut l).unwrap() > 0,
                "{} closed",
                self.name
            );
            if l.starts_with(prefix) {
                return l.trim_end().to_string();
            }
        }
    }
    /// The Game_Summary's (black, white, game id), agreed to.
    fn summary(&mut self) -> (String, String, String) {
        self.until("BEGIN Game_Summary");
        let id = self.until("Game_ID:")[8..].to_string();
        let b = self.until("Name+:")[6..].to_string();
        let w = self.until("Name-:")[6..].to_string();
        self.until("END Game_Summary");
        self.send(&format!("AGREE {id}"));
        (b, w, id)
    }
}

/// Every client's summary (waiting at least `min_wait` from `since`), each
/// game played out (black resigns); the pairs as sorted name pairs.
fn round(clients: &mut [Client], since: Instant, min_wait: Duration) -> BTreeSet<[String; 2]> {
    let mut games = Vec::new();
    for c in clients.iter_mut() {
        let (b, w, id) = c.summary();
        assert!(
            since.elapsed() >= min_wait,
            "{} paired after {:?}",
            c.name,
            since.elapsed()
        );
        games.push((c.name, b, w, id));
    }
    for c in clients.iter_mut() {
        c.until("START:");
    }
    for c in clients.iter_mut() {
        let (_, b, _, _) = games.iter().find(|g| g.0 == c.name).unwrap();
        if b == c.name {
            c.send("%TORYO");
        }
    }
    for c in clients.iter_mut() {
        c.until("#RESIGN");
        c.until("#"); // #WIN / #LOSE
    }
    games
        .into_iter()
        .map(|(_, b, w, _)| {
            let mut p = [b, w];
            p.sort();
            p
        })
        .collect()
}

fn pairs(list: &[[&str; 2]]) -> BTreeSet<[String; 2]> {
    list.iter()
        .map(|p| [p[0].to_string(), p[1].to_string()])
        .collect()
}

#[test]
fn six_rated_players_are_paired_by_least_diff_at_the_time_then_avoid_repeats() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("loopback_league");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{GAME}.conf")), "Mon 10:00\nMon 10:30\n").unwrap();
    let names = ["ant1", "bee2", "cat3", "dog4", "eel5", "fox6"];
    let rates: [i64; 6] = [1000, 1100, 1250, 1450, 1600, 1700];
    let mut yaml = String::from("players:\n  0:\n");
    for (n, r) in names.iter().zip(rates) {
        yaml.push_str(&format!("    {n}:\n      name: {n}\n      rate: {r}\n"));
    }
    let mut league = FloodgateDir::open(&dir, [GAME], 5).unwrap();
    league
        .core_mut()
        .set_players(Players::from_yaml(&yaml).unwrap());
    let shift = Arc::new(AtomicI64::new(shift_to(MONDAY_10)));
    let shifted = Shifted {
        inner: league,
        shift: shift.clone(),
    };

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::mpsc::channel::<Control>(4);
    tx.try_send(Box::new(move |s| s.set_league(Box::new(shifted))))
        .unwrap();
    let config = ServerConfig {
        utc_offset_secs: JST,
        ..Default::default()
    };
    let (log_tx, log_rx) = std::sync::mpsc::channel::<String>();
    rt.spawn(csa_protocol::net::serve_controlled(
        listener,
        Config::new(config),
        None,
        rx,
        move |e| {
            let _ = log_tx.send(format!("{e:?}"));
            ControlFlow::Continue(())
        },
    ));

    let since = Instant::now();
    let mut clients: Vec<Client> = names
        .iter()
        .map(|&name| {
            let stream = TcpStream::connect(addr).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(15)))
                .unwrap();
            let reader = BufReader::new(stream.try_clone().unwrap());
            let mut c = Client {
                name,
                stream,
                reader,
            };
            c.send(&format!("LOGIN {name} pw x1"));
            c.until("##[LOGIN] +OK");
            c.send(&format!("%%GAME {GAME} *"));
            c
        })
        .collect();
    // LeastDiff (the and shogi-server's rule: the sum of |rate
    // difference| over the pairs, + 400 for a repeat of a last opponent):
    // with no history the least sum is 100 + 200 + 100 = 400, only by
    // pairing neighbours.
    let first = round(&mut clients, since, Duration::from_millis(900));
    assert_eq!(
        first,
        pairs(&[["ant1", "bee2"], ["cat3", "dog4"], ["eel5", "fox6"]])
    );

    // Round two at 10:30: repeating any pair costs 400 more; the least
    // score, 1000, is reached by several pairings (e.g. ant1-cat3,
    // bee2-eel5, dog4-fox6), none repeating.
    let history = std::fs::read_to_string(dir.join("floodgate_history_900_0.yaml")).unwrap();
    assert_eq!(history.matches(":game_id:").count(), 3, "{history}");
    shift.store(shift_to(MONDAY_10 + 1800), Ordering::SeqCst);
    let since = Instant::now();
    for c in clients.iter_mut() {
        c.send(&format!("%%GAME {GAME} *"));
    }
    let second = round(&mut clients, since, Duration::from_millis(900));
    assert!(second.is_disjoint(&first), "{second:?}");
    let rate = |n: &str| rates[names.iter().position(|m| *m == n).unwrap()];
    let sum: i64 = second
        .iter()
        .map(|p| (rate(&p[0]) - rate(&p[1])).abs())
        .sum();
    assert_eq!(sum, 1000, "{second:?}");
    let log: Vec<String> = log_rx.try_iter().collect();
    let scores: Vec<&String> = log.iter().filter(|l| l.contains("total score")).collect();
    assert_eq!(scores.len(), 2, "{log:#?}");
    assert!(scores[0].contains("total score 400"), "{scores:?}");
    assert!(scores[1].contains("total score 1000"), "{scores:?}");
    drop(tx);
    rt.shutdown_timeout(Duration::from_secs(1));
}
