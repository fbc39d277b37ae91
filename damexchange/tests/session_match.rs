//! `session::Match`: several games on one connection, in memory.

use core::time::Duration;

use board_core::draughts::Color;
use damexchange::session::{
    Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig, Match, MatchPlan,
    MatchStep, MatchStop, Score,
};
use damexchange::{AcceptanceCode, GameEndReason, Name};

const NOW: Duration = Duration::ZERO;

fn offer(minutes: u16) -> GameOffer {
    GameOffer {
        our_color: Color::White,
        minutes,
        moves: 0,
        start: None,
    }
}

/// Runs the match against `f` until it is over; each game is ended at once
/// by the initiator with `reason`. Returns the colours we played and the
/// GAMEACC codes received.
fn play(
    m: &mut Match,
    f: &mut Follower<Duration>,
    reason: GameEndReason,
) -> (Vec<Color>, Vec<AcceptanceCode>) {
    let mut i = Initiator::new(InitiatorConfig::new(Name::new("I").unwrap()), NOW);
    let (mut colours, mut codes) = (Vec::new(), Vec::new());
    if m.start(&mut i, NOW) == MatchStep::Over {
        return (colours, codes);
    }
    for _ in 0..100 {
        while let Some(t) = i.poll_transmit() {
            f.handle_input(t.as_bytes(), NOW);
        }
        while let Some(t) = f.poll_transmit() {
            i.handle_input(t.as_bytes(), NOW);
        }
        while f.poll_event().is_some() {}
        while let Some(e) = i.poll_event() {
            match &e {
                Event::GameStarted(g) => {
                    colours.push(g.our_color);
                    codes.push(AcceptanceCode::Accepted);
                    i.end_game(reason, NOW).unwrap();
                }
                Event::GameRefused { code } => codes.push(*code),
                _ => {}
            }
            if m.handle_event(&mut i, &e, NOW) == MatchStep::Over {
                return (colours, codes);
            }
        }
    }
    panic!("the match did not end");
}

fn follower(config: impl FnOnce(&mut FollowerConfig)) -> Follower<Duration> {
    let mut c = FollowerConfig::new(Name::new("F").unwrap());
    c.first_move_delay = Duration::ZERO;
    config(&mut c);
    Follower::new(c, NOW)
}

#[test]
fn games_alternate_colours_and_are_scored() {
    let mut m = Match::new(MatchPlan::new(3, offer(1)));
    let (colours, _) = play(&mut m, &mut follower(|_| {}), GameEndReason::SenderWins);
    assert_eq!(colours, [Color::White, Color::Black, Color::White]);
    assert_eq!(m.games_done(), 3);
    assert_eq!(
        m.score(),
        Score {
            won: 3,
            ..Score::default()
        }
    );
    assert_eq!(m.stopped(), None);
    assert!(m.is_over());
    assert_eq!(m.last().unwrap().our_color, Color::White);
}

#[test]
fn refusals_in_a_row_stop_the_match() {
    // The follower takes at most 5 minutes: every GAMEREQ for 10 is
    // refused with `2`, our colour changing each time.
    let mut f = follower(|c| c.max_minutes = Some(5));
    let mut m = Match::new(MatchPlan::new(2, offer(10)));
    let (colours, codes) = play(&mut m, &mut f, GameEndReason::Draw);
    assert!(colours.is_empty());
    assert_eq!(codes, [AcceptanceCode::NotThisGame; 3]);
    assert_eq!(m.stopped(), Some(&MatchStop::TooManyRefusals(3)));
    assert_eq!(m.offer().our_color, Color::White);
    assert_eq!(
        m.stopped().unwrap().to_string(),
        "the follower refused 3 games in a row (GAMEACC 2)"
    );
}

#[test]
fn no_games_stops_at_once_and_a_stop_ends_after_the_game() {
    let mut f = follower(|c| c.accept_games = false);
    let mut m = Match::new(MatchPlan::new(2, offer(1)));
    let (_, codes) = play(&mut m, &mut f, GameEndReason::Draw);
    assert_eq!(codes, [AcceptanceCode::NoGames]);
    assert_eq!(
        m.stopped(),
        Some(&MatchStop::Refused(AcceptanceCode::NoGames))
    );

    // `stop()` during the first game: it is the last.
    let mut m = Match::new(MatchPlan::new(5, offer(1)));
    m.stop();
    let (colours, _) = play(&mut m, &mut follower(|_| {}), GameEndReason::SenderLoses);
    assert_eq!(colours, [Color::White]);
    assert_eq!((m.games_done(), m.score().lost), (1, 1));
    assert_eq!(m.stopped(), Some(&MatchStop::ByApplication));
}

#[test]
fn a_close_during_a_game_stops_it_without_counting_the_game() {
    let mut i = Initiator::new(InitiatorConfig::new(Name::new("I").unwrap()), NOW);
    let mut m = Match::new(MatchPlan::new(2, offer(1)));
    assert_eq!(m.start(&mut i, NOW), MatchStep::Continue);
    let mut f = follower(|_| {});
    while let Some(t) = i.poll_transmit() {
        f.handle_input(t.as_bytes(), NOW);
    }
    while let Some(t) = f.poll_transmit() {
        i.handle_input(t.as_bytes(), NOW);
    }
    i.handle_close(NOW);
    let mut step = MatchStep::Continue;
    while let Some(e) = i.poll_event() {
        step = m.handle_event(&mut i, &e, NOW);
    }
    assert_eq!(step, MatchStep::Over);
    assert_eq!(m.games_done(), 0);
    assert_eq!(m.stopped(), Some(&MatchStop::ClosedDuringGame(1)));
    assert!(m.last().unwrap().closed);
}
