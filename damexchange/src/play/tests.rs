//! The runs of both roles against each other in memory: the activities
//! the driver would give (`Event`, `Idle`) made by hand.

use super::*;
use alloc::vec::Vec;
use board_core::player::Player as Builtin;

use crate::session::{FollowerConfig, GameOffer, InitiatorConfig};
use crate::types::Name;

/// The built-in player as a move source (no channel).
struct Player(Builtin);

impl MoveSource for Player {
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
        match s.position().and_then(|p| self.0.choose_draughts(p)) {
            Some(mv) => s.send_move(mv, now).err().map(|_| "failed"),
            None => {
                let _ = s.end_game(GameEndReason::SenderLoses, now);
                Some("no move")
            }
        }
    }
    fn failure<'r>(r: &'r &'static str) -> Option<&'r str> {
        (*r == "failed").then_some("failed")
    }
}

/// Runs `i` against `f` until the initiator's run breaks; returns the
/// notes of both.
fn play(i: &mut InitiatorRun<Player>, f: &mut FollowerRun<Player>) -> (Vec<String>, Vec<String>) {
    let now = Instant::now();
    let mut ini = Initiator::new(InitiatorConfig::new(Name::new("I").unwrap()), now);
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.first_move_delay = Duration::ZERO;
    let mut fol = Follower::new(config, now);
    let (mut inotes, mut fnotes) = (Vec::new(), Vec::new());
    for _ in 0..100_000 {
        let mut busy = false;
        while let Some(t) = ini.poll_transmit() {
            fol.handle_input(t.as_bytes(), now);
            busy = true;
        }
        while let Some(t) = fol.poll_transmit() {
            ini.handle_input(t.as_bytes(), now);
            busy = true;
        }
        while let Some(e) = fol.poll_event() {
            busy = true;
            let _ = f.handle(&mut fol, Activity::Event(e), now);
        }
        let mut over = false;
        while let Some(e) = ini.poll_event() {
            busy = true;
            over |= i.handle(&mut ini, Activity::Event(e), now).is_break();
        }
        if !busy {
            let _ = f.handle(&mut fol, Activity::Idle, now);
            over |= i.handle(&mut ini, Activity::Idle, now).is_break();
        }
        inotes.extend(core::iter::from_fn(|| i.poll_line()).filter_map(note));
        fnotes.extend(core::iter::from_fn(|| f.poll_line()).filter_map(note));
        if over {
            return (inotes, fnotes);
        }
    }
    panic!("the match did not end: {inotes:?}");
}

/// A note's text (no frames are shown here: the activities are events).
fn note(line: Line<&'static str>) -> Option<String> {
    match line {
        Line::Note(n) => Some(n.to_string()),
        _ => None,
    }
}

fn offer() -> GameOffer {
    GameOffer {
        our_color: Color::White,
        minutes: 5,
        moves: 0,
        start: None,
    }
}

/// Two games stopped at the ply limit (GAMEEND reason 0, spec *GAMEEND*:
/// the side to move sends it), colours alternating; the follower counts
/// both; one take-back asked in the first game (spec *BACKREQ*).
#[test]
fn a_match_of_two_games_with_a_ply_limit_and_a_take_back() {
    let mut plan = InitiatorPlan::new(MatchPlan::new(2, offer()));
    plan.max_plies = Some(12);
    plan.take_back_at = Some(6);
    plan.end_first = true;
    plan.chat = Some("hello".into());
    let mut i = InitiatorRun::new(plan, Player(Builtin::new(1)));
    let mut f = FollowerRun::new(Player(Builtin::new(2)), None);
    let (inotes, fnotes) = play(&mut i, &mut f);
    let report = i.finish(Ended::Break(())).unwrap();
    assert_eq!(report.games_done, 2);
    assert_eq!(report.score.no_result, 2);
    assert_eq!(report.take_backs, 1);
    assert_eq!(report.problems.first(), None);
    assert_eq!(report.stopped, None);
    assert_eq!(
        report.to_string(),
        "2 games, 0 won, 0 lost, 0 drawn, 2 without result"
    );
    assert_eq!(
        inotes[0],
        "we end any game left open (GAMEEND before the first GAMEREQ)"
    );
    assert!(inotes[1].starts_with("game 1: game started against \"F\": we play White"));
    assert!(
        inotes.contains(&"we ask to take back our last move: back to move 3, white to move".into()),
        "{inotes:?}"
    );
    assert!(
        inotes.contains(&"12 plies played: we stop the game (GAMEEND reason 0, no result)".into())
    );
    assert!(
        inotes
            .iter()
            .any(|n| n.starts_with("game 2: game started against \"F\": we play Black"))
    );
    assert!(
        inotes
            .last()
            .unwrap()
            .starts_with("game 2: game over: no result")
    );
    let stats = f.stats();
    assert_eq!((stats.games, stats.ended, stats.unfinished), (2, 2, 0));
    // Our E00 before the first GAMEREQ, as the follower saw it.
    assert_eq!(
        stats.problems.first(),
        Some("unexpected GAMEEND: GAMEEND with no game in progress (not answered)")
    );
    assert_eq!(stats.problems.count(), 1);
    // The follower's notes: our E00 was unexpected there, then the game.
    assert!(fnotes[0].starts_with("unexpected GAMEEND"), "{fnotes:?}");
    assert!(fnotes[1].starts_with("game 1: game started against \"I\": we play Black"));
}

/// How a run ends: the follower's close with games left stops it (a
/// note); silence and a misbehaving follower fail it.
#[test]
fn how_an_initiator_run_ends() {
    let mut i = InitiatorRun::new(
        InitiatorPlan::new(MatchPlan::new(3, offer())),
        Player(Builtin::new(1)),
    );
    let r = i.finish(Ended::Closed(Closed::ByPeer)).unwrap();
    assert_eq!(
        r.stopped.as_deref(),
        Some("the follower closed the connection")
    );
    assert_eq!(
        i.poll_line().and_then(note).unwrap(),
        "connection closed by the follower"
    );
    assert_eq!(
        i.finish(Ended::Closed(Closed::BySession)).unwrap_err(),
        RunError::Closed(Closed::BySession)
    );
    i.report.silent = true;
    assert_eq!(
        i.finish(Ended::Break(())).unwrap_err().to_string(),
        "no answer from the follower for 120 s"
    );
    i.report.silent = false;
    i.report.misbehaved = true;
    i.side.problems.push("rejected".into());
    assert_eq!(
        i.finish(Ended::Break(())).unwrap_err().to_string(),
        "the follower misbehaved: rejected"
    );
}

/// A rejected MOVE (spec *MOVE*: a move that is not legal) is told in a
/// CHAT naming its wire form, and the game is ended (GAMEEND 0).
#[test]
fn a_rejected_move_is_answered() {
    let now = Instant::now();
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.first_move_delay = Duration::ZERO;
    let mut fol = Follower::new(config, now);
    let mut f = FollowerRun::new(Player(Builtin::new(2)), None);
    let req = format!("R01{:<32}Z005000A\0", "I");
    fol.handle_input(req.as_bytes(), now);
    // White (the initiator) to move: 5-10 is not legal.
    fol.handle_input(b"M0000051000\0", now);
    while fol.poll_transmit().is_some() {}
    while let Some(e) = fol.poll_event() {
        let _ = f.handle(&mut fol, Activity::Event(e), now);
    }
    let sent: Vec<u8> = core::iter::from_fn(|| fol.poll_transmit())
        .flat_map(|t| t.into_bytes())
        .collect();
    let sent = String::from_utf8(sent).unwrap();
    assert!(
        sent.starts_with("Cerror: MOVE M0000051000 rejected: "),
        "{sent:?}"
    );
    assert!(sent.ends_with("\0E00\0"), "{sent:?}");
    assert!(
        f.stats()
            .problems
            .first()
            .unwrap()
            .starts_with("rejected the opponent's MOVE 5-10")
    );
}

#[test]
fn printable_escapes_control_characters() {
    assert_eq!(printable("ok \u{1b}[2J\u{85}é"), "ok \\x1b[2J\\x85é");
    let mut p = Problems::default();
    for n in 0..1000 {
        p.push(format!("problem {n}"));
    }
    assert_eq!((p.first(), p.count()), (Some("problem 0"), 1000));
}
