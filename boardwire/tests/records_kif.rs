//! `csa connect --kif FILE` against scripted CSA servers on loopback: the
//! KIF saved holds the moves on the wire (the moves the script confirmed,
//! `+7776FU,T3`, with their `T` times), the Game_Summary's names, start
//! (a handicap `PI11KY`: 香落ち, shogi-records §1.4) and Position-block
//! moves, and the ending the result lines give (`%TORYO`/`#RESIGN`: 投了,
//! §1.7); a run killed (SIGKILL) mid-game leaves a file that reads to
//! every move confirmed. Every run is bounded.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use board_core::shogi::Position;
use board_records::kif::{self, Ending, Handicap, TextEncoding};
use common::{run_bounded, spawn};

fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("records-kif-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A server on 127.0.0.1 running `script` on its one connection.
fn scripted<T: Send + 'static>(
    script: impl FnOnce(&mut BufReader<TcpStream>, &mut TcpStream) -> T + Send + 'static,
) -> (String, std::thread::JoinHandle<T>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let h = std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut w = s.try_clone().unwrap();
        let mut r = BufReader::new(s);
        script(&mut r, &mut w)
    });
    (addr, h)
}

fn line(r: &mut BufReader<TcpStream>) -> String {
    let mut l = String::new();
    r.read_line(&mut l).unwrap();
    l.trim_end_matches(['\r', '\n']).to_string()
}

/// A `Game_Summary` as shogi-server writes it (csa-protocol's spec note,
/// *Game_Summary*) for game `g1`, erin (sente) against dave (gote).
fn summary(your_turn: char, to_move: char, position: &str) -> String {
    format!(
        "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\nFormat:Shogi 1.0\n\
Declaration:Jishogi 1.1\nGame_ID:g1\nName+:erin\nName-:dave\nYour_Turn:{your_turn}\n\
Rematch_On_Draw:NO\nTo_Move:{to_move}\nMax_Moves:256\nBEGIN Time\nTime_Unit:1sec\nTotal_Time:300\n\
Byoyomi:0\nIncrement:0\nLeast_Time_Per_Move:0\nEND Time\nBEGIN Position\n{position}\
END Position\nEND Game_Summary\n"
    )
}

/// The board-core moves of the CSA moves `csa` from `start`.
fn play(start: &Position, csa: &[String]) -> Vec<board_core::shogi::Move> {
    let mut pos = *start;
    csa.iter()
        .map(|m| {
            let mv = pos
                .parse_csa_move(m.as_bytes())
                .unwrap_or_else(|e| panic!("{m}: {e:?}"));
            pos = pos.play(mv).unwrap();
            mv
        })
        .collect()
}

#[test]
fn a_game_is_saved_in_kif_with_its_handicap_block_moves_times_and_ending() {
    // 香落ち (White, 上手, without the 11 lance) moves first: the Position
    // block holds its first move; we are sente (下手), move once, and the
    // script's gote resigns.
    let dir = tempdir("game");
    let file = dir.join("game.kif");
    let (addr, server) = scripted(|r, w| {
        let _login = line(r);
        w.write_all(b"LOGIN:erin OK\n").unwrap();
        w.write_all(summary('+', '+', "PI11KY\n-\n-3334FU,T2\n").as_bytes())
            .unwrap();
        let _agree = line(r);
        w.write_all(b"START:g1\n").unwrap();
        let ours = line(r);
        w.write_all(format!("{ours},T7\n%TORYO\n#RESIGN\n#WIN\n").as_bytes())
            .unwrap();
        let _logout = line(r);
        ours
    });
    let r = run_bounded(
        &[
            "csa",
            "connect",
            &addr,
            "--user",
            "erin",
            "--game",
            "g-300-0",
            "--timeout",
            "30",
            "--kif",
            file.to_str().unwrap(),
        ],
        Duration::from_secs(30),
    );
    r.exited(0);
    let ours = server.join().unwrap();
    let bytes = std::fs::read(&file).unwrap();
    let game = kif::read(&bytes, None).unwrap();
    // `.kif`: Shift_JIS, declared on the first line (§1.1).
    assert!(bytes.starts_with(b"#KIF version=2.0 encoding=Shift_JIS"));
    assert_eq!(game.encoding.0, TextEncoding::ShiftJis);
    assert_eq!(game.handicap, Some(Handicap::from_name("香落ち").unwrap()));
    // Written by its name (§1.4), not as a board diagram (cshogi reads
    // no diagram).
    let text = kif::decode(&bytes, None).unwrap().text.into_owned();
    assert!(
        text.contains("\n手合割：香落ち\n") && !text.contains('|'),
        "{text}"
    );
    assert_eq!(game.black(), Some("erin"));
    assert_eq!(game.white(), Some("dave"));
    assert_eq!(game.header("棋戦"), Some("g1"));
    let start = Handicap::from_name("香落ち").unwrap().position();
    let wire = ["-3334FU".to_string(), ours.clone()];
    let moves: Vec<_> = game.moves().collect();
    assert_eq!(moves, play(&start, &wire), "our move {ours}");
    // The block move has no time; ours was charged 7 s (T7).
    assert_eq!(game.main.moves[0].time, None);
    let t = game.main.moves[1].time.unwrap();
    assert_eq!((t.spent, t.total), (7, Some(7)));
    // Gote (上手), to move, resigned.
    assert_eq!(game.main.end.map(|e| e.0), Some(Ending::Resign));
}

#[test]
fn a_killed_csa_connect_leaves_every_confirmed_move_in_the_kif() {
    // We are sente; the script confirms three of our moves and answers
    // each with a gote move that is legal whatever sente played (edge
    // pawns, a gold), then leaves our fourth move unconfirmed.
    let dir = tempdir("kill");
    let file = dir.join("killed.kifu");
    let (addr, server) = scripted(|r, w| {
        let _login = line(r);
        w.write_all(b"LOGIN:erin OK\n").unwrap();
        w.write_all(summary('+', '+', "PI\n+\n").as_bytes())
            .unwrap();
        let _agree = line(r);
        w.write_all(b"START:g1\n").unwrap();
        let mut wire = Vec::new();
        for (k, theirs) in ["-9394FU", "-1314FU", "-4132KI"].iter().enumerate() {
            let ours = line(r);
            w.write_all(format!("{ours},T{}\n{theirs},T{}\n", k + 1, k + 2).as_bytes())
                .unwrap();
            wire.extend([ours, theirs.to_string()]);
        }
        let unconfirmed = line(r);
        (wire, unconfirmed, r.get_ref().try_clone().unwrap())
    });
    let mut child = spawn(&[
        "csa",
        "connect",
        &addr,
        "--user",
        "erin",
        "--game",
        "g-300-0",
        "--timeout",
        "30",
        "--kif",
        file.to_str().unwrap(),
    ]);
    let (wire, unconfirmed, _socket) = server.join().unwrap();
    assert!(unconfirmed.starts_with('+'), "{unconfirmed}");
    let deadline = Instant::now() + Duration::from_secs(20);
    let read = || {
        let bytes = std::fs::read(&file).unwrap_or_default();
        kif::read(&bytes, None).ok()
    };
    while read().is_none_or(|g| g.main.moves.len() < 6) {
        assert!(Instant::now() < deadline, "six moves were not saved");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let bytes = std::fs::read(&file).unwrap();
    // Any other extension: UTF-8 (§1.1).
    assert!(bytes.starts_with("#KIF version=2.0 encoding=UTF-8".as_bytes()));
    let game = kif::read(&bytes, None).unwrap();
    let moves: Vec<_> = game.moves().collect();
    assert_eq!(moves, play(&Position::startpos(), &wire));
    // T1..T3 for sente, T2..T4 for gote, with each side's total.
    let times: Vec<(u32, Option<u32>)> = game
        .main
        .moves
        .iter()
        .map(|n| n.time.map(|t| (t.spent, t.total)).unwrap())
        .collect();
    assert_eq!(
        times,
        [
            (1, Some(1)),
            (2, Some(2)),
            (2, Some(3)),
            (3, Some(5)),
            (3, Some(6)),
            (4, Some(9))
        ]
    );
    assert_eq!(game.main.end, None);
}

#[test]
fn a_move_limit_is_saved_as_jishogi_with_the_reason() {
    // shogi-server ends a game at Max_Moves with `#MAX_MOVES` `#CENSORED`
    // (csa-protocol's spec note, *Results*): a draw, written 持将棋 (the
    // draw among shogi-records §1.7's words), the reason in a comment.
    let dir = tempdir("max-moves");
    let file = dir.join("limit.kifu");
    let (addr, server) = scripted(|r, w| {
        let _login = line(r);
        w.write_all(b"LOGIN:erin OK\n").unwrap();
        w.write_all(summary('+', '+', "PI\n+\n").as_bytes())
            .unwrap();
        let _agree = line(r);
        w.write_all(b"START:g1\n").unwrap();
        let ours = line(r);
        w.write_all(format!("{ours},T1\n-9394FU,T2\n#MAX_MOVES\n#CENSORED\n").as_bytes())
            .unwrap();
        let _logout = line(r);
    });
    let r = run_bounded(
        &[
            "csa",
            "connect",
            &addr,
            "--user",
            "erin",
            "--game",
            "g-300-0",
            "--timeout",
            "30",
            "--kif",
            file.to_str().unwrap(),
        ],
        Duration::from_secs(30),
    );
    r.exited(0);
    server.join().unwrap();
    let bytes = std::fs::read(&file).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.contains("\n   3 持将棋\nまで2手で持将棋\n"), "{text}");
    assert!(
        text.contains(
            "\n*shogi-server: max_moves: the game reached the move limit, a draw (#MAX_MOVES)\n"
        ),
        "{text}"
    );
    let game = kif::read_str(&text).unwrap();
    assert_eq!(game.main.end.map(|e| e.0), Some(Ending::Impasse));
}
