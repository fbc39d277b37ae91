//! The GUI-side encoders of UCI, USI and Hub write a command line straight
//! into the caller's buffer: no heap allocation of their own when it has
//! room, however long the `position … moves …` line.

use boardwire_engines::{hub, uci, usi};
use boardwire_vectors::counting::{Counting, allocations_during};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `texts` played from `start` with `parse` and `play`.
fn line<P: Clone, M>(
    start: &P,
    texts: &[&str],
    parse: impl Fn(&P, &str) -> M,
    play: impl Fn(&mut P, &M),
) -> Vec<M> {
    let mut p = start.clone();
    texts
        .iter()
        .map(|t| {
            let m = parse(&p, t);
            play(&mut p, &m);
            m
        })
        .collect()
}

#[test]
fn position_and_go_lines_are_written_without_allocating() {
    // UCI (the UCI protocol document's form).
    let chess = board_core::chess::Position::startpos();
    let cm = line(
        &chess,
        &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"],
        |p, t| p.parse_uci(t).unwrap(),
        |p, m| p.play_unchecked(*m),
    );
    // USI (the USI protocol document's form).
    let shogi = board_core::shogi::Position::startpos();
    let sm = line(
        &shogi,
        &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"],
        |p, t| p.parse_usi(t).unwrap(),
        |p, m| p.play_unchecked(*m),
    );
    // Hub: the moves of the recorded Scan 3.1 session.
    let draughts = board_core::draughts::Position::startpos();
    let dm = line(
        &draughts,
        &["32-28", "19-23"],
        |p, t| p.parse_move(t).unwrap(),
        |p, m| p.play_unchecked(*m),
    );
    let go = usi::Go {
        btime: 60_000,
        wtime: 50_000,
        byoyomi: Some(10_000),
        ..usi::Go::default()
    };
    let mut out = Vec::with_capacity(4096);
    let (n, ()) = allocations_during(|| {
        uci::Command::Position {
            start: &chess,
            moves: &cm,
        }
        .encode(&mut out);
        uci::Command::GoMovetime(1000).encode(&mut out);
        usi::Command::Position {
            start: &shogi,
            moves: &sm,
        }
        .encode(&mut out);
        usi::Command::Go(go).encode(&mut out);
        hub::Command::Pos {
            start: &draughts,
            moves: &dm,
        }
        .encode(&mut out);
        hub::Command::Level(hub::Level::Time {
            moves: Some(40),
            time: 120.0,
            inc: Some(1.0),
        })
        .encode(&mut out);
        hub::Command::GoThink.encode(&mut out);
    });
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6\n\
         go movetime 1000\n\
         position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e\n\
         go btime 60000 wtime 50000 byoyomi 10000\n\
         pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"\n\
         level moves=40 time=120 inc=1\n\
         go think\n",
        "the recorded Hub session's lines (hub-scan31-session.txt); the UCI and USI documents' forms"
    );
    assert_eq!(n, 0, "heap allocations while encoding");
}
