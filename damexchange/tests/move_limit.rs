//! The move-number limit: DXP numbers moves with 3 digits, 1..=999
//! (spec/damexchange.md, *BACKREQ*: `B` + move number `001`..`999`, the
//! game's first move is 1), so a game cannot go past move 999. The session
//! ends it there as at its ply cap: at our turn, GAMEEND reason `0`
//! (*GAMEEND*: `E` + reason `0` no reason + stop code `0`, the sender
//! plays a next game; *Roles and dialogue (layer 2)*: the side to move may
//! send GAMEEND instead of a MOVE, and the other side answers with a
//! GAMEEND), with `Event::PlyCapReached`, instead of stalling the game.
//!
//! The plies, from the spec's numbering: with White to move at the start,
//! White's move `k` is ply `2k - 1` and Black's is ply `2k`, so move 999 of
//! both is ply 1,998 and White's move 1000 would be ply 1,999. With Black
//! to move at the start, its move 1 is ply 1, White's move `k` ply
//! `2k - 2` and Black's ply `2k - 1`: Black's move 999 is ply 1,997 and
//! White's move 1000 would be ply 1,998.
//!
//! The games are real and short to play: a set-up (GAMEREQ `B`) with one
//! king each, the white king on 46 going 46-41-46... and the black king
//! on 1 going 1-6-1...; the lines through 46 and 41 are the long diagonal
//! 46-5 and 36-47, those through 1 and 6 are 1-6, 1-45 and 6-50: the kings
//! never share a line, so no capture is ever possible.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use board_core::draughts::{Color, Position};
use damexchange::Name;
use damexchange::message::GameEndReason;
use damexchange::play::{Activity, Ended, FollowerRun, InitiatorPlan, InitiatorRun, MoveSource};
use damexchange::session::{
    CommandError, Endpoint, Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig,
    MatchPlan, Outcome, Role, Side,
};

const T0: Duration = Duration::ZERO;

/// Both sides' moves 1..=999 from a start with White to move: 2 * 999.
const PLIES_WHITE_START: usize = 1998;
/// Black's moves 1..=999 and White's 2..=999 from a start with Black to
/// move: 999 + 998.
const PLIES_BLACK_START: usize = 1997;

/// The set-up's board field (spec, *GAMEREQ*: squares 1..=50 in order,
/// `e` empty, `W` white king, `Z` black king): black king on 1, white
/// king on 46.
fn board_field() -> String {
    (1..=50)
        .map(|sq| match sq {
            1 => 'Z',
            46 => 'W',
            _ => 'e',
        })
        .collect()
}

/// The set-up as a board-core position, `side` to move.
fn setup(side: Color) -> Position {
    let text = match side {
        Color::White => "W:WK46:BK1",
        Color::Black => "B:WK46:BK1",
    };
    text.parse().unwrap()
}

/// The shuffle move of the side to move in `pos`: 46-41 or 41-46 for
/// White, 1-6 or 6-1 for Black (exactly one of each pair is legal).
fn shuffle(pos: &Position) -> board_core::draughts::Move {
    let pair: [&str; 2] = match pos.side_to_move() {
        Color::White => ["46-41", "41-46"],
        Color::Black => ["1-6", "6-1"],
    };
    pair.iter()
        .find_map(|t| pos.parse_move(t).ok())
        .unwrap_or_else(|| panic!("no shuffle move in {pos}"))
}

/// The MOVE frame of the shuffle move of the side to move in `pos`
/// (spec, *MOVE*: `M`, 4-digit time, from, to, 2-digit capture count).
fn shuffle_frame(pos: &Position) -> Vec<u8> {
    let mv = shuffle(pos);
    format!("M0000{:02}{:02}00\0", mv.from().number(), mv.to().number()).into_bytes()
}

fn sent<R: Role>(s: &mut Endpoint<R, Duration>) -> Vec<String> {
    std::iter::from_fn(|| s.poll_transmit())
        .map(|t| String::from_utf8(t.as_bytes().to_vec()).unwrap())
        .map(|s| s.strip_suffix('\0').unwrap().to_string())
        .collect()
}

fn events<R: Role>(s: &mut Endpoint<R, Duration>) -> Vec<Event> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

/// A follower with the default config (no first-move pause), the set-up
/// game accepted: `colour` is the follower's (`W`/`Z`), `side` the side
/// to move of the set-up.
fn follower(colour: char, side: char) -> Follower<Duration> {
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.first_move_delay = Duration::ZERO;
    let mut f = Follower::new(config, T0);
    let req = format!("R01{:<32}{colour}005000B{side}{}\0", "I", board_field());
    f.handle_input(req.as_bytes(), T0);
    assert_eq!(sent(&mut f), [format!("A{:<32}0", "F")]);
    assert!(matches!(events(&mut f)[..], [Event::GameStarted(_)]));
    f
}

/// Plays `plies` plies on the follower: ours with `send_move`, the
/// initiator's as MOVE frames; every one accepted.
fn play_plies(f: &mut Follower<Duration>, plies: usize) {
    for ply in 1..=plies {
        let pos = *f.position().unwrap();
        if f.is_our_turn() {
            f.send_move_with(shuffle(&pos), 0, T0)
                .unwrap_or_else(|e| panic!("ply {ply}: {e}"));
            assert_eq!(sent(f).len(), 1, "ply {ply}");
        } else {
            f.handle_input(&shuffle_frame(&pos), T0);
            let ev = events(f);
            assert!(
                matches!(ev[0], Event::MoveReceived { .. }),
                "ply {ply}: {ev:?}"
            );
            if ply < plies {
                assert_eq!(ev.len(), 1, "ply {ply}: {ev:?}");
            }
        }
        assert_eq!(f.moves().len(), ply);
    }
}

/// After our GAMEEND `E00`: the peer's answer (reason `0`) ends the game,
/// ended by us without result, holding `plies` moves.
fn answered(f: &mut Follower<Duration>, plies: usize) {
    f.handle_input(b"E00\0", T0);
    let ev = events(f);
    let [Event::GameEnded(g)] = &ev[..] else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (g.by, g.reason, g.outcome, g.moves.len(), g.closed),
        (
            Side::Us,
            GameEndReason::Unknown,
            Outcome::Unknown,
            plies,
            false
        )
    );
}

#[test]
fn after_the_opponents_move_999_we_end_the_game_instead_of_our_move_1000() {
    // We play White from a start with White to move: our move 999 (ply
    // 1,997) is played, the opponent's move 999 (ply 1,998) too; our move
    // 1000 cannot be numbered: GAMEEND reason 0 at once.
    let mut f = follower('W', 'W');
    play_plies(&mut f, PLIES_WHITE_START - 2);
    assert!(f.is_our_turn());
    assert_eq!(f.move_number(), Some((999, Color::White)));
    play_plies_from(&mut f, PLIES_WHITE_START - 2, 1);
    assert_eq!(f.move_number(), Some((999, Color::Black)));
    let pos = *f.position().unwrap();
    f.handle_input(&shuffle_frame(&pos), T0);
    let ev = events(&mut f);
    assert!(matches!(ev[0], Event::MoveReceived { .. }), "{ev:?}");
    assert_eq!(
        ev[1..],
        [Event::PlyCapReached {
            plies: PLIES_WHITE_START
        }]
    );
    assert_eq!(sent(&mut f), ["E00"]);
    assert_eq!(f.moves().len(), PLIES_WHITE_START);
    assert!(!f.is_our_turn());
    let mv = shuffle(f.position().unwrap());
    assert_eq!(f.send_move_with(mv, 0, T0), Err(CommandError::MoveLimit));
    assert_eq!(sent(&mut f), Vec::<String>::new());
    answered(&mut f, PLIES_WHITE_START);
}

/// Plays `n` more plies after `done` (as [`play_plies`]).
fn play_plies_from(f: &mut Follower<Duration>, done: usize, n: usize) {
    for ply in done + 1..=done + n {
        let pos = *f.position().unwrap();
        if f.is_our_turn() {
            f.send_move_with(shuffle(&pos), 0, T0)
                .unwrap_or_else(|e| panic!("ply {ply}: {e}"));
            assert_eq!(sent(f).len(), 1, "ply {ply}");
        } else {
            f.handle_input(&shuffle_frame(&pos), T0);
            assert!(
                matches!(events(f)[..], [Event::MoveReceived { .. }]),
                "ply {ply}"
            );
        }
        assert_eq!(f.moves().len(), ply);
    }
}

#[test]
fn the_opponents_move_1000_is_not_played_and_we_end_the_game() {
    // We play Black from a start with White to move: our move 999 is ply
    // 1,998; the opponent's legal move 1000 (ply 1,999) is not played, not
    // rejected as a misbehaviour either: our GAMEEND takes the turn.
    let mut f = follower('Z', 'W');
    play_plies(&mut f, PLIES_WHITE_START);
    assert!(events(&mut f).is_empty());
    assert_eq!(sent(&mut f), Vec::<String>::new());
    // Our move would be past the cap too (and it is not our turn).
    let pos = *f.position().unwrap();
    assert_eq!(
        f.send_move_with(pos.legal_moves()[0], 0, T0),
        Err(CommandError::MoveLimit)
    );
    f.handle_input(&shuffle_frame(&pos), T0);
    assert_eq!(
        events(&mut f),
        [Event::PlyCapReached {
            plies: PLIES_WHITE_START
        }]
    );
    assert_eq!(sent(&mut f), ["E00"]);
    assert_eq!(f.moves().len(), PLIES_WHITE_START);
    assert_eq!(*f.position().unwrap(), pos, "the move was not played");
    answered(&mut f, PLIES_WHITE_START);
}

#[test]
fn from_a_start_with_black_to_move_the_limit_is_one_ply_earlier() {
    // We play White; Black moves first: Black's move 999 is ply 1,997 and
    // our move 1000 would be ply 1,998.
    let mut f = follower('W', 'Z');
    play_plies(&mut f, PLIES_BLACK_START - 2);
    assert!(f.is_our_turn(), "our move 999 (ply 1,996)");
    assert_eq!(f.move_number(), Some((999, Color::White)));
    let pos = *f.position().unwrap();
    f.send_move_with(shuffle(&pos), 0, T0).unwrap();
    assert_eq!(sent(&mut f).len(), 1);
    let pos = *f.position().unwrap();
    f.handle_input(&shuffle_frame(&pos), T0);
    let ev = events(&mut f);
    assert!(matches!(ev[0], Event::MoveReceived { .. }), "{ev:?}");
    assert_eq!(
        ev[1..],
        [Event::PlyCapReached {
            plies: PLIES_BLACK_START
        }]
    );
    assert_eq!(sent(&mut f), ["E00"]);
    answered(&mut f, PLIES_BLACK_START);
}

#[test]
fn a_smaller_ply_cap_still_comes_first() {
    // `max_game_plies` below the move-number limit: it is the cap.
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.first_move_delay = Duration::ZERO;
    config.max_game_plies = 1000;
    let mut f = Follower::new(config, T0);
    let req = format!("R01{:<32}W005000BW{}\0", "I", board_field());
    f.handle_input(req.as_bytes(), T0);
    let _ = (sent(&mut f), events(&mut f));
    // We play White: the opponent's ply 1,000 reaches the cap.
    play_plies(&mut f, 999);
    f.handle_input(&shuffle_frame(f.position().unwrap()), T0);
    let ev = events(&mut f);
    assert!(matches!(ev[0], Event::MoveReceived { .. }), "{ev:?}");
    assert_eq!(ev[1..], [Event::PlyCapReached { plies: 1000 }]);
    assert_eq!(sent(&mut f), ["E00"]);
}

#[test]
fn the_initiator_sends_the_setup_and_ends_the_game_at_move_999() {
    // Both sessions in memory; the initiator plays White.
    let mut i = Initiator::new(InitiatorConfig::new(Name::new("I").unwrap()), T0);
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.first_move_delay = Duration::ZERO;
    let mut f = Follower::new(config, T0);
    i.request_game(
        GameOffer {
            our_color: Color::White,
            minutes: 5,
            moves: 0,
            start: Some(setup(Color::White)),
        },
        T0,
    )
    .unwrap();
    // Spec, GAMEREQ: follower's colour `Z`, 005 minutes, 000 moves, `B`,
    // White (`W`) to move, the board.
    let req = sent(&mut i);
    assert_eq!(req, [format!("R01{:<32}Z005000BW{}", "I", board_field())]);
    f.handle_input(format!("{}\0", req[0]).as_bytes(), T0);
    deliver(&mut f, &mut i);
    let _ = (events(&mut i), events(&mut f));
    for ply in 1..=PLIES_WHITE_START {
        // White's move k is ply 2k - 1: odd plies are the initiator's.
        let pos = *i.position().unwrap();
        if ply % 2 == 1 {
            assert!(i.is_our_turn() && !f.is_our_turn(), "ply {ply}");
            i.send_move_with(shuffle(&pos), 0, T0).unwrap();
            deliver(&mut i, &mut f);
        } else {
            assert!(f.is_our_turn() && !i.is_our_turn(), "ply {ply}");
            f.send_move_with(shuffle(&pos), 0, T0).unwrap();
            deliver(&mut f, &mut i);
        }
        assert_eq!((i.moves().len(), f.moves().len()), (ply, ply));
    }
    // Ply 1,998 (Black's move 999) reached the initiator: its GAMEEND.
    let ev = events(&mut i);
    assert_eq!(
        ev[ev.len() - 1],
        Event::PlyCapReached {
            plies: PLIES_WHITE_START
        }
    );
    assert_eq!(sent(&mut i), ["E00"]);
    assert!(!i.is_our_turn() && !f.is_our_turn());
    // The follower answers (spec, GAMEEND: the other side answers, reason
    // 0, its stop code 0).
    f.handle_input(b"E00\0", T0);
    assert_eq!(sent(&mut f), ["E00"]);
    let ev = events(&mut f);
    assert!(
        matches!(&ev[ev.len() - 1], Event::GameEnded(g) if g.by == Side::Opponent && g.moves.len() == PLIES_WHITE_START),
        "{ev:?}"
    );
    i.handle_input(b"E00\0", T0);
    let ev = events(&mut i);
    assert!(
        matches!(&ev[..], [Event::GameEnded(g)] if g.by == Side::Us && g.outcome == Outcome::Unknown),
        "{ev:?}"
    );
}

/// Hands everything `from` transmits to `to`.
fn deliver<A: Role, B: Role>(from: &mut Endpoint<A, Duration>, to: &mut Endpoint<B, Duration>) {
    while let Some(t) = from.poll_transmit() {
        to.handle_input(t.as_bytes(), T0);
    }
}

/// The shuffling kings as a move source of `damexchange::play`.
struct Shuffle;

impl MoveSource for Shuffle {
    type External = core::convert::Infallible;
    type Report = &'static str;
    fn event(&mut self, _: &Event) {}
    fn external<R: Role>(
        &mut self,
        _: &mut Endpoint<R, Instant>,
        x: Self::External,
        _: Instant,
    ) -> Option<&'static str> {
        match x {}
    }
    fn our_turn<R: Role>(
        &mut self,
        s: &mut Endpoint<R, Instant>,
        now: Instant,
    ) -> Option<&'static str> {
        let mv = shuffle(s.position()?);
        s.send_move_with(mv, 0, now).err().map(|_| "failed")
    }
    fn failure<'r>(r: &'r &'static str) -> Option<&'r str> {
        Some(r)
    }
}

#[test]
fn play_runs_end_both_games_of_a_match_at_move_999() {
    // `damexchange::play` acts only when the session is idle and it is its
    // turn; at move 999 the session ends the game itself, so the match
    // goes on (colours alternate: the initiator White, then Black).
    let now = Instant::now();
    let offer = GameOffer {
        our_color: Color::White,
        minutes: 5,
        moves: 0,
        start: Some(setup(Color::White)),
    };
    let mut run = InitiatorRun::new(InitiatorPlan::new(MatchPlan::new(2, offer)), Shuffle);
    let mut frun = FollowerRun::new(Shuffle, None);
    let mut i = Initiator::new(InitiatorConfig::new(Name::new("I").unwrap()), now);
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.first_move_delay = Duration::ZERO;
    let mut f = Follower::new(config, now);
    let mut ended = Vec::new();
    // About 4 rounds a ply; a stalled game would use them all up.
    let mut rounds = 0;
    'run: loop {
        rounds += 1;
        assert!(
            rounds < 20_000,
            "the match stalled at {} plies",
            i.moves().len()
        );
        let mut busy = false;
        while let Some(t) = i.poll_transmit() {
            f.handle_input(t.as_bytes(), now);
            busy = true;
        }
        while let Some(t) = f.poll_transmit() {
            i.handle_input(t.as_bytes(), now);
            busy = true;
        }
        while let Some(e) = f.poll_event() {
            busy = true;
            assert!(frun.handle(&mut f, Activity::Event(e), now).is_continue());
        }
        while let Some(e) = i.poll_event() {
            busy = true;
            if let Event::GameEnded(g) = &e {
                ended.push(g.clone());
            }
            if run.handle(&mut i, Activity::Event(e), now).is_break() {
                break 'run;
            }
        }
        if !busy {
            assert!(frun.handle(&mut f, Activity::Idle, now).is_continue());
            if let ControlFlow::Break(()) = run.handle(&mut i, Activity::Idle, now) {
                break;
            }
        }
    }
    let report = run.finish(Ended::Break(())).unwrap();
    assert_eq!((report.games_done, report.score.no_result), (2, 2));
    assert_eq!(report.problems.first(), None);
    // Game 1: the initiator (White) to play move 1000 ends it; game 2: the
    // follower (White) does.
    let seen: Vec<_> = ended
        .iter()
        .map(|g| (g.our_color, g.by, g.reason, g.moves.len()))
        .collect();
    assert_eq!(
        seen,
        [
            (
                Color::White,
                Side::Us,
                GameEndReason::Unknown,
                PLIES_WHITE_START
            ),
            (
                Color::Black,
                Side::Opponent,
                GameEndReason::Unknown,
                PLIES_WHITE_START
            ),
        ]
    );
}
