//! Games saved as they go: `dxp connect|serve --pdn` on loopback and
//! `citrine --simulate --pgn` against the simulated Citrine on a
//! pseudo-terminal. The expected moves are the played game's: the MOVE
//! frames of the DXP wire transcript (from, to and captured squares, DXP
//! spec note *MOVE*), the frames a scripted follower exchanged, and the
//! `ack`/`device` lines of the Citrine transcript (UCI); the expected
//! names and results are those of GAMEREQ/GAMEACC and the `result:` line.
//! A killed run must leave a file that reads, with every move made.
//! Every run is bounded (killed after a timeout).

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use board_core::draughts::{Move as DMove, Position as DPosition};
use board_records::{pdn, pgn};
use common::{finish, listening_addr, run_bounded, spawn, words};

/// A fresh directory under the target's tmp dir.
fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("records-save-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A DXP MOVE as numbers: from, to, captured squares (sorted).
type WireMove = (u8, u8, Vec<u8>);

/// Reads the MOVE frame text `M tttt ff tt nn cc...` (DXP spec note, *MOVE*).
fn wire_move(frame: &str) -> WireMove {
    let n = |r: std::ops::Range<usize>| frame[r].parse::<u8>().unwrap();
    let count = usize::from(n(9..11));
    let mut caps: Vec<u8> = (0..count).map(|k| n(11 + 2 * k..13 + 2 * k)).collect();
    caps.sort_unstable();
    (n(5..7), n(7..9), caps)
}

/// A board-core draughts move as numbers.
fn as_wire(mv: DMove) -> WireMove {
    let mut caps: Vec<u8> = mv.captures().iter().map(|s| s.number()).collect();
    caps.sort_unstable();
    (mv.from().number(), mv.to().number(), caps)
}

/// The MOVE frames of a `dxp` transcript, in order (`-> M...` and `<- M...`).
fn transcript_moves(transcript: &str) -> Vec<WireMove> {
    transcript
        .lines()
        .filter_map(|l| {
            let rest = l.split_once(" -> M").or_else(|| l.split_once(" <- M"))?.1;
            let frame = format!("M{}", rest.split_whitespace().next()?);
            Some(wire_move(&frame))
        })
        .collect()
}

/// The games of a PDN file, each read.
fn pdn_games(path: &Path) -> Vec<pdn::Game> {
    let text = std::fs::read(path).unwrap();
    pdn::Reader::new(&text)
        .games()
        .map(|g| g.unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

/// The games of a PDN file while it is being written: `None` when it does
/// not read now (a move being written in place may be seen half written,
/// boardwire/src/record.rs; the final file is read with [`pdn_games`]).
fn pdn_games_now(path: &Path) -> Option<Vec<pdn::Game>> {
    let text = std::fs::read(path).ok()?;
    pdn::Reader::new(&text)
        .games()
        .collect::<Result<_, _>>()
        .ok()
}

fn assert_date(tag: Option<&str>) {
    let d = tag.unwrap();
    let b = d.as_bytes();
    assert!(
        d.len() == 10 && b[4] == b'.' && b[7] == b'.' && d.replace('.', "").parse::<u32>().is_ok(),
        "Date {d:?} is not YYYY.MM.DD"
    );
}

#[test]
fn dxp_games_saved_by_both_sides_hold_the_moves_on_the_wire() {
    let dir = tempdir("dxp");
    let (served, connected) = (dir.join("serve.pdn"), dir.join("connect.pdn"));
    let mut server = spawn(&[
        "dxp",
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--name",
        "bob",
        "--first-move-delay-ms",
        "0",
        "--pdn",
        served.to_str().unwrap(),
    ]);
    let addr = listening_addr(&mut server);
    let r = run_bounded(
        &[
            "dxp",
            "connect",
            &addr,
            "--name",
            "alice",
            "--seed",
            "3",
            "--pdn",
            connected.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    r.exited(0);
    let wire = transcript_moves(&r.stdout);
    assert!(wire.len() > 10, "{}", r.stdout);
    // The summary line says who won; we played White (the default).
    let summary = r.stdout.lines().last().unwrap();
    let result = if summary.contains(" 1 won,") {
        "2-0"
    } else if summary.contains(" 1 lost,") {
        "0-2"
    } else if summary.contains(" 1 drawn,") {
        "1-1"
    } else {
        "*"
    };
    // The follower's file is complete once its connection has ended.
    let deadline = Instant::now() + Duration::from_secs(20);
    while pdn_games_now(&served)
        .is_none_or(|g| g.first().is_none_or(|g| g.tags.get("Result") == Some("*")))
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    server.kill().unwrap();
    server.wait().unwrap();
    for (path, site_is_addr) in [(&connected, true), (&served, false)] {
        let games = pdn_games(path);
        assert_eq!(games.len(), 1, "{}", path.display());
        let g = &games[0];
        let moves: Vec<WireMove> = g.moves.iter().map(|n| as_wire(n.mv())).collect();
        assert_eq!(moves, wire, "{}", path.display());
        assert_eq!(g.tags.get("White"), Some("alice"));
        assert_eq!(g.tags.get("Black"), Some("bob"));
        assert_eq!(g.tags.get("Result"), Some(result));
        assert_eq!(g.result, Some(result));
        assert_eq!(g.tags.get("GameType"), Some("20"));
        assert_date(g.tags.get("Date"));
        if site_is_addr {
            assert_eq!(g.tags.get("Site"), Some(addr.as_str()));
            assert_eq!(g.tags.get("Round"), Some("1"));
        }
        // 5 minutes for the whole game (GAMEREQ default): 300 s.
        assert_eq!(g.tags.get("TimeControl"), Some("300"));
        assert_eq!(*g.start(), DPosition::startpos());
    }
}

/// Reads one NUL-terminated frame.
fn read_frame(s: &mut TcpStream) -> String {
    let mut frame = Vec::new();
    let mut b = [0u8; 1];
    loop {
        assert_eq!(s.read(&mut b).unwrap(), 1, "connection closed");
        if b[0] == 0 {
            return String::from_utf8(frame).unwrap();
        }
        frame.push(b[0]);
    }
}

/// The MOVE frame of `mv` (DXP spec note, *MOVE*: time, from, to, count,
/// captured squares, two digits each but the four-digit time).
fn move_frame(mv: DMove) -> String {
    let (from, to, caps) = as_wire(mv);
    let mut f = format!("M0001{from:02}{to:02}{:02}", caps.len());
    for c in caps {
        f.push_str(&format!("{c:02}"));
    }
    f
}

#[test]
fn a_killed_dxp_connect_leaves_every_move_made() {
    // A scripted follower: accepts the game as "bob", answers five MOVEs
    // with its first legal move, then stays silent (the initiator waits for
    // its move); the initiator is then killed.
    let dir = tempdir("dxp-kill");
    let file = dir.join("killed.pdn");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let follower = std::thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let req = read_frame(&mut s);
        assert!(req.starts_with('R'), "{req}");
        s.write_all(format!("A{:<32}0\0", "bob").as_bytes())
            .unwrap();
        let mut pos = DPosition::startpos();
        let mut played = Vec::new();
        for _ in 0..5 {
            let frame = read_frame(&mut s);
            let theirs = wire_move(&frame);
            let mv = *pos
                .legal_moves()
                .iter()
                .find(|m| as_wire(**m) == theirs)
                .unwrap_or_else(|| panic!("not legal: {frame}"));
            pos = pos.play(mv).unwrap();
            let ours = pos.legal_moves()[0];
            s.write_all(move_frame(ours).as_bytes()).unwrap();
            s.write_all(&[0]).unwrap();
            pos = pos.play(ours).unwrap();
            played.extend([theirs, as_wire(ours)]);
        }
        let frame = read_frame(&mut s);
        played.push(wire_move(&frame));
        (played, s)
    });
    let mut child = spawn(&[
        "dxp",
        "connect",
        &addr,
        "--name",
        "alice",
        "--pdn",
        file.to_str().unwrap(),
    ]);
    let (played, _socket) = follower.join().unwrap();
    assert_eq!(played.len(), 11);
    // Wait until the 11th ply is saved, then kill (SIGKILL) the initiator.
    let deadline = Instant::now() + Duration::from_secs(20);
    while pdn_games_now(&file).is_none_or(|g| g.first().is_none_or(|g| g.moves.len() < 11)) {
        assert!(Instant::now() < deadline, "the moves were not saved");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let games = pdn_games(&file);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    let moves: Vec<WireMove> = g.moves.iter().map(|n| as_wire(n.mv())).collect();
    assert_eq!(moves, played);
    assert_eq!(g.tags.get("Result"), Some("*"));
    assert_eq!(g.result, Some("*"));
    assert_eq!(g.tags.get("White"), Some("alice"));
    assert_eq!(g.tags.get("Black"), Some("bob"));
}

/// The UCI moves of a Citrine transcript (`ack e2e4`, `device e7e5`).
fn citrine_moves(transcript: &str) -> Vec<String> {
    transcript
        .lines()
        .filter_map(|l| l.split_once(' '))
        .filter(|(kind, _)| *kind == "ack" || *kind == "device")
        .map(|(_, uci)| uci.to_string())
        .collect()
}

/// The games of a PGN file, each read.
fn pgn_games(path: &Path) -> Vec<pgn::Game> {
    let text = std::fs::read(path).unwrap_or_default();
    pgn::Reader::new(&text)
        .games()
        .map(|g| g.unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

fn uci_moves(g: &pgn::Game) -> Vec<String> {
    g.moves
        .iter()
        .map(|n| n.mv().unwrap().to_string())
        .collect()
}

#[test]
fn a_citrine_game_is_saved_with_the_moves_of_the_transcript() {
    let dir = tempdir("citrine");
    let file = dir.join("citrine.pgn");
    let args = format!(
        "citrine --simulate --auto --max-plies 12 --pgn {}",
        file.display()
    );
    let r = run_bounded(&words(&args), Duration::from_secs(60));
    r.exited(0);
    let played = citrine_moves(&r.stdout);
    assert_eq!(played.len(), 12, "{}", r.stdout);
    let games = pgn_games(&file);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(uci_moves(g), played);
    // Unfinished at the ply limit: `*`. The host plays White by default.
    assert_eq!(g.tags.get("Result"), Some("*"));
    assert_eq!(g.result, Some(board_records::pgn::GameResult::Unknown));
    assert_eq!(g.tags.get("White"), Some("boardwire"));
    assert_eq!(g.tags.get("Black"), Some("Novag Citrine"));
    assert_date(g.tags.get("Date"));
    // The Seven Tag Roster first, in its order (PGN standard §8.1.1).
    let text = std::fs::read_to_string(&file).unwrap();
    let names: Vec<&str> = text
        .lines()
        .take(7)
        .map(|l| l[1..].split(' ').next().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    );
}

#[test]
fn a_killed_citrine_run_leaves_every_move_made() {
    // The simulated device thinks 3 s a move: once three plies are saved
    // the game stands still while the run is killed.
    let dir = tempdir("citrine-kill");
    let file = dir.join("killed.pgn");
    let args = format!(
        "citrine --simulate --auto --side black --sim-think-ms 3000 --pgn {}",
        file.display()
    );
    let mut child = spawn(&words(&args));
    let stdin = child.stdin.take();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let saved = std::fs::read(&file).unwrap_or_default();
        let n = pgn::Reader::new(&saved)
            .games()
            .filter_map(Result::ok)
            .next()
            .map_or(0, |g| g.moves.len());
        if n >= 3 {
            break;
        }
        assert!(Instant::now() < deadline, "three plies were not saved");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    let r = finish(child, stdin, Duration::from_secs(5));
    let played = citrine_moves(&r.stdout);
    let games = pgn_games(&file);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(uci_moves(g), played, "{}", r.stdout);
    assert_eq!(g.tags.get("Result"), Some("*"));
    // The Citrine plays White after the flip.
    assert_eq!(g.tags.get("White"), Some("Novag Citrine"));
    assert_eq!(g.tags.get("Black"), Some("boardwire"));
}

#[test]
fn a_new_game_on_the_citrine_closes_the_record_of_the_old_one() {
    // An unprompted `New Game` at ply 6 (or 7: the host's move may cross
    // it) ends the game without result (and the run: the host stops at a
    // game's end); the file holds that game with its plies and `*`, and no
    // empty record of the new game.
    let dir = tempdir("citrine-new-game");
    let file = dir.join("new-game.pgn");
    let args = format!(
        "citrine --simulate --auto --sim-new-game-at 6 --max-plies 12 --pgn {}",
        file.display()
    );
    let r = run_bounded(&words(&args), Duration::from_secs(60));
    r.exited(0);
    assert!(
        r.stdout.lines().any(|l| l.starts_with("new game")),
        "{}",
        r.stdout
    );
    // The moves up to the end of the old game (the device may move in the
    // new one before the run stops).
    let before = r.stdout.split("\ngame over after").next().unwrap();
    let played = citrine_moves(before);
    let over = format!("game over after {} plies: abandoned", played.len());
    assert!(
        r.stdout.lines().any(|l| l.starts_with(&over)),
        "{}",
        r.stdout
    );
    let games = pgn_games(&file);
    assert_eq!(uci_moves(&games[0]), played);
    assert_eq!(games[0].tags.get("Result"), Some("*"));
    // The new game is recorded only if a move of it stood when the run
    // stopped (the device may move for the host's side out of turn, and
    // that move is taken back).
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(games.len() <= 2, "{text}");
    assert!(games[1..].iter().all(|g| !g.moves.is_empty()), "{text}");
}
