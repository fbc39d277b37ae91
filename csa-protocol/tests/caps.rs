//! The client's per-game ply cap (`ClientConfig::max_game_plies`): a
//! server without `Max_Moves` cannot grow the game past it. The client
//! cannot end a server's game but by resigning or closing; at the cap it
//! closes, unless the server's own `Max_Moves` (spec/csa.md,
//! *Game_Summary*: `Max_Moves`, 0 or absent = no limit) ends the game
//! first (*Results*: `#MAX_MOVES` then `#CENSORED`).
//!
//! The moves are a real opening from the standard start (spec/csa.md,
//! *Moves*: sign, from, to, piece after the move; confirmations carry
//! `,T<seconds>`): 1. +7776FU -3334FU 2. +2726FU -8384FU 3. +2625FU
//! -8485FU 4. +6978KI.

use std::time::Duration;

use csa_protocol::message::EndReason;
use csa_protocol::session::{
    Client, ClientConfig, ClientState, DEFAULT_MAX_GAME_PLIES, Event, Outcome,
};
use csa_protocol::types::{Password, UserName};

const T0: Duration = Duration::ZERO;
const CAP: u32 = 6;

const MOVES: [&str; 7] = [
    "+7776FU", "-3334FU", "+2726FU", "-8384FU", "+2625FU", "-8485FU", "+6978KI",
];

/// A Game_Summary for us on `side` (`+`/`-`), with the extra header lines
/// `extra` (e.g. `Max_Moves:6\n`) and the Position block's moves `played`.
fn summary(side: char, extra: &str, played: &[&str]) -> String {
    let mut moves = String::new();
    for m in played {
        moves.push_str(&format!("{m},T1\n"));
    }
    format!(
        "BEGIN Game_Summary\nProtocol_Version:1.2\nProtocol_Mode:Server\n\
         Format:Shogi 1.0\nGame_ID:g1\nName+:a\nName-:b\nYour_Turn:{side}\nTo_Move:+\n\
         {extra}BEGIN Position\nPI\n+\n{moves}END Position\nEND Game_Summary\n"
    )
}

fn client() -> Client<Duration> {
    let mut c = ClientConfig::new(
        UserName::new("a".to_string()).unwrap(),
        Password::new("g-60-10".to_string()).unwrap(),
    );
    c.keep_alive = None;
    c.max_game_plies = CAP;
    Client::new(c, T0)
}

/// A client in a game on `side`, everything so far drained.
fn in_game(side: char, extra: &str) -> Client<Duration> {
    let mut c = client();
    c.handle_input(b"LOGIN:a OK\n", T0);
    c.handle_input(summary(side, extra, &[]).as_bytes(), T0);
    c.agree(T0).unwrap();
    c.handle_input(b"START:g1\n", T0);
    drain(&mut c);
    c
}

fn drain(c: &mut Client<Duration>) -> (Vec<Vec<u8>>, Vec<Event>) {
    let tx = std::iter::from_fn(|| c.poll_transmit())
        .map(|t| {
            let mut v = t.as_bytes().to_vec();
            if t.closes() {
                v.extend_from_slice(b"<close>");
            }
            v
        })
        .collect();
    (tx, std::iter::from_fn(|| c.poll_event()).collect())
}

/// The server confirms moves `range` of [`MOVES`].
fn confirm(c: &mut Client<Duration>, range: std::ops::Range<usize>) {
    for m in &MOVES[range] {
        c.handle_input(format!("{m},T1\n").as_bytes(), T0);
    }
}

fn ended(ev: &Event) -> (Outcome, Option<EndReason>, usize) {
    match ev {
        Event::GameEnded(g) => (g.outcome, g.reason, g.moves.len()),
        e => panic!("{e:?}"),
    }
}

#[test]
fn the_default_cap_is_twenty_thousand_plies() {
    assert_eq!(DEFAULT_MAX_GAME_PLIES, 20_000);
    let c = ClientConfig::new(
        UserName::new("a".to_string()).unwrap(),
        Password::new("p".to_string()).unwrap(),
    );
    assert_eq!(c.max_game_plies, 20_000);
}

#[test]
fn our_turn_at_the_cap_closes_the_connection() {
    // We are Black (`+`, moves first): our turns come at 0, 2, 4, 6 plies.
    let mut c = in_game('+', "");
    confirm(&mut c, 0..4);
    assert!(c.is_our_turn());
    confirm(&mut c, 4..5);
    // 5 plies (the cap - 1), the opponent on move: nothing happens.
    let (tx, _) = drain(&mut c);
    assert!(tx.is_empty());
    assert_eq!(c.state(), ClientState::Game);
    confirm(&mut c, 5..6);
    let (tx, ev) = drain(&mut c);
    assert!(matches!(ev[0], Event::Move { .. }), "{ev:?}");
    assert_eq!(ev[1], Event::PlyCapReached { plies: 6 });
    assert_eq!(ended(&ev[2]), (Outcome::Unknown, None, 6));
    assert_eq!(ev.len(), 3, "no OurTurn: {ev:?}");
    assert_eq!(tx, [b"<close>".to_vec()]);
    assert!(!c.is_our_turn());
    assert_eq!(c.state(), ClientState::Disconnected);
    // What arrives after the close is ignored, well-formed or not.
    c.handle_input(b"+6978KI,T1\n#RESIGN\n#LOSE\n\x01bad\n", T0);
    assert_eq!(drain(&mut c), (vec![], vec![]));
}

#[test]
fn a_move_past_the_cap_is_not_played_and_closes_the_connection() {
    // We are White (`-`): our turns come at 1, 3, 5 plies.
    let mut c = in_game('-', "");
    confirm(&mut c, 0..5);
    drain(&mut c);
    // 5 plies (the cap - 1) on our turn: we may move.
    assert!(c.is_our_turn());
    confirm(&mut c, 5..6);
    // Our move reached the cap, the opponent on move: we wait.
    let (tx, ev) = drain(&mut c);
    assert!(tx.is_empty());
    assert!(matches!(ev[..], [Event::Move { .. }]), "{ev:?}");
    confirm(&mut c, 6..7);
    let (tx, ev) = drain(&mut c);
    assert_eq!(ev[0], Event::PlyCapReached { plies: 6 });
    assert_eq!(ended(&ev[1]), (Outcome::Unknown, None, 6));
    assert_eq!(ev.len(), 2, "{ev:?}");
    assert_eq!(tx, [b"<close>".to_vec()]);
}

#[test]
fn a_max_moves_of_the_cap_or_fewer_lets_the_server_end_the_game() {
    let mut c = in_game('+', "Max_Moves:6\n");
    confirm(&mut c, 0..6);
    let (tx, ev) = drain(&mut c);
    assert!(tx.is_empty());
    assert!(!ev.contains(&Event::PlyCapReached { plies: 6 }), "{ev:?}");
    assert!(!c.is_our_turn(), "Max_Moves reached");
    c.handle_input(b"#MAX_MOVES\n#CENSORED\n", T0);
    let (tx, ev) = drain(&mut c);
    assert!(tx.is_empty());
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(
        ended(&ev[0]),
        (Outcome::Unknown, Some(EndReason::MaxMoves), 6)
    );
}

#[test]
fn a_max_moves_above_the_cap_does_not() {
    let mut c = in_game('+', "Max_Moves:7\n");
    confirm(&mut c, 0..6);
    let (tx, ev) = drain(&mut c);
    assert_eq!(ev[ev.len() - 2], Event::PlyCapReached { plies: 6 });
    assert_eq!(ended(&ev[ev.len() - 1]), (Outcome::Unknown, None, 6));
    assert_eq!(tx, [b"<close>".to_vec()]);
}

#[test]
fn a_position_block_longer_than_the_cap_is_rejected() {
    let mut c = client();
    c.handle_input(b"LOGIN:a OK\n", T0);
    drain(&mut c);
    c.handle_input(summary('+', "", &MOVES[..6]).as_bytes(), T0);
    let (tx, ev) = drain(&mut c);
    assert!(tx.is_empty(), "six moves fit");
    assert!(matches!(ev[..], [Event::GameSummary(_)]), "{ev:?}");
    assert_eq!(c.moves().len(), 6);

    let mut c = client();
    c.handle_input(b"LOGIN:a OK\n", T0);
    drain(&mut c);
    c.handle_input(summary('-', "", &MOVES[..7]).as_bytes(), T0);
    let (tx, ev) = drain(&mut c);
    // spec/csa.md, *Agreement -> game*: `REJECT [<game_id>]`.
    assert_eq!(tx, [b"REJECT g1\n".to_vec()]);
    assert!(matches!(ev[0], Event::GameSummary(_)), "{ev:?}");
    assert_eq!(ev[1], Event::PlyCapReached { plies: 6 });
    assert!(c.moves().is_empty());
}

// --- The Game_Summary reader's caps (a server that sends a block without
// end cannot grow the client's memory).

mod summary_reader {
    use csa_protocol::message::{GameSummaryReader, SummaryError, SummaryLimit};

    /// Feeds `lines`; the result of the last one.
    fn feed(
        lines: impl IntoIterator<Item = String>,
    ) -> Result<Option<csa_protocol::message::GameSummary>, SummaryError> {
        let mut r = GameSummaryReader::new();
        let mut last = Ok(None);
        for l in lines {
            last = r.push_line(l.as_bytes());
            if last.is_err() {
                break;
            }
        }
        last
    }

    /// A block of `total` lines in all: BEGIN Game_Summary, BEGIN Position,
    /// `+`, moves, END Position, END Game_Summary.
    fn block_of(total: usize) -> Vec<String> {
        let mut v = vec![
            "BEGIN Game_Summary".to_string(),
            "BEGIN Position".into(),
            "+".into(),
        ];
        for i in 0..total - 5 {
            v.push(if i % 2 == 0 { "+5958OU" } else { "-5152OU" }.into());
        }
        v.push("END Position".into());
        v.push("END Game_Summary".into());
        assert_eq!(v.len(), total);
        v
    }

    #[test]
    fn a_block_of_max_lines_reads_one_more_is_refused() {
        assert_eq!(GameSummaryReader::MAX_LINES, 25_000);
        let s = feed(block_of(25_000)).expect("reads").expect("complete");
        assert_eq!(s.position.expect("position").moves.len(), 24_995);
        assert_eq!(
            feed(block_of(25_001)),
            Err(SummaryError::Limit {
                line_no: 25_001,
                limit: SummaryLimit::Lines
            })
        );
    }

    #[test]
    fn position_lines_are_capped() {
        let lines = |n: usize| {
            ["BEGIN Game_Summary", "BEGIN Position"]
                .into_iter()
                .map(String::from)
                .chain((0..n).map(|_| "P+00FU".to_string()))
                .chain(["+", "END Position", "END Game_Summary"].map(String::from))
        };
        let s = feed(lines(64)).expect("reads").expect("complete");
        assert_eq!(s.position.expect("position").lines().count(), 64);
        let e = feed(lines(65)).unwrap_err();
        assert_eq!(
            e,
            SummaryError::Limit {
                line_no: 67,
                limit: SummaryLimit::PositionLines
            }
        );
        assert_eq!(
            e.to_string(),
            "Game_Summary line 67: a Position section has at most 64 position lines"
        );
    }

    #[test]
    fn unknown_fields_are_capped_per_section() {
        let body = |n: usize| {
            std::iter::once("BEGIN Game_Summary".to_string())
                .chain((0..n).map(|i| format!("X_Field{i}:v")))
                .chain(std::iter::once("END Game_Summary".to_string()))
        };
        let s = feed(body(64)).expect("reads").expect("complete");
        assert_eq!(s.extra.len(), 64);
        assert_eq!(
            feed(body(65)),
            Err(SummaryError::Limit {
                line_no: 66,
                limit: SummaryLimit::UnknownFields
            })
        );
        let time = |n: usize| {
            ["BEGIN Game_Summary", "BEGIN Time"]
                .into_iter()
                .map(String::from)
                .chain((0..n).map(|i| format!("X_Field{i}:v")))
                .chain(["END Time", "END Game_Summary"].map(String::from))
        };
        let s = feed(time(64)).expect("reads").expect("complete");
        assert_eq!(s.time.expect("time").extra.len(), 64);
        assert_eq!(
            feed(time(65)),
            Err(SummaryError::Limit {
                line_no: 67,
                limit: SummaryLimit::UnknownFields
            })
        );
    }
}
