//! The session shape (spec/damexchange.md, *Roles and dialogue
//! (layer 2)*): one move per turn, the move limit, `GameEnded` with our
//! outcome before the game is cleared, `PeerSilent` for an answer that does
//! not come, and `handle_message` for codec users.

mod common;
use common::WireText;
use std::time::Duration;

use board_core::draughts::{self as board, Position};
use damexchange::session::{
    CommandError, Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig,
    MAX_MOVE_NUMBER, Outcome, Side, outcome_of,
};
use damexchange::{GameEndReason, Message, MessageKind, Name, decode};

fn follower() -> Follower<Duration> {
    Follower::new(FollowerConfig::new(Name::new("F").unwrap()), Duration::ZERO)
}

fn initiator(reply_timeout: Option<Duration>) -> Initiator<Duration> {
    let mut config = InitiatorConfig::new(Name::new("I").unwrap());
    config.reply_timeout = reply_timeout;
    Initiator::new(config, Duration::ZERO)
}

fn request(our_color: board::Color, start: Option<Position>) -> GameOffer {
    GameOffer {
        our_color,
        minutes: 5,
        moves: 0,
        start,
    }
}

/// Delivers everything each side transmits to the other, by messages
/// (`handle_message`, as a codec user would), until both are quiet.
fn exchange(i: &mut Initiator<Duration>, f: &mut Follower<Duration>, now: Duration) {
    loop {
        let mut quiet = true;
        while let Some(t) = i.poll_transmit() {
            quiet = false;
            let msg: Message = decode(t.message_bytes()).unwrap();
            f.handle_message(&msg, now);
        }
        while let Some(t) = f.poll_transmit() {
            quiet = false;
            let msg: Message = decode(t.message_bytes()).unwrap();
            i.handle_message(&msg, now);
        }
        if quiet {
            return;
        }
    }
}

#[test]
fn a_second_move_in_one_turn_is_not_your_turn() {
    let mut f = follower();
    let t = Duration::ZERO;
    // Spec, GAMEREQ: follower's colour `W`: the follower plays White and
    // moves first from the standard start.
    f.handle_input(b"R01I                               W005000A\0", t);
    assert_eq!(
        f.poll_transmit().unwrap().as_str(),
        "AF                               0"
    );
    assert!(f.is_our_turn());
    let moves = Position::startpos().legal_moves();
    f.send_move_with(moves[0], 0, t + Duration::from_secs(1))
        .unwrap();
    assert!(!f.is_our_turn(), "false as soon as our move is sent");
    assert_eq!(
        f.send_move_with(moves[1], 0, t + Duration::from_secs(1)),
        Err(CommandError::NotYourTurn)
    );
    // Exactly one MOVE on the wire.
    let sent: Vec<String> = std::iter::from_fn(|| f.poll_transmit())
        .map(|t| t.as_str().to_string())
        .collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].starts_with('M'));
}

#[test]
fn game_ended_carries_our_outcome_and_the_game_stays_readable_until_the_next() {
    let (mut i, mut f) = (initiator(None), follower());
    let t = Duration::ZERO;
    i.request_game(request(board::Color::White, None), t)
        .unwrap();
    exchange(&mut i, &mut f, t);
    let mv = Position::startpos().legal_moves()[0];
    i.send_move_with(mv, 0, t).unwrap();
    exchange(&mut i, &mut f, t);
    // The follower (Black) resigns: GAMEEND reason 1, "sender loses".
    f.end_game(GameEndReason::SenderLoses, t).unwrap();
    exchange(&mut i, &mut f, t);
    // Poll one event at a time, as a handler would: when GameEnded comes,
    // the game is still there.
    fn ended_event<S>(
        session: &mut S,
        poll: fn(&mut S) -> Option<Event>,
        history: fn(&S) -> Vec<board::Move>,
    ) -> (damexchange::session::GameEnded, Vec<board::Move>) {
        while let Some(e) = poll(session) {
            if let Event::GameEnded(g) = e {
                return (g, history(session));
            }
        }
        panic!("no GameEnded")
    }
    let (i_end, i_history) = ended_event(&mut i, |s| s.poll_event(), |s| s.moves().to_vec());
    let (f_end, f_history) = ended_event(&mut f, |s| s.poll_event(), |s| s.moves().to_vec());
    for (ended, history, by, outcome) in [
        (i_end, i_history, Side::Opponent, Outcome::Won),
        (f_end, f_history, Side::Us, Outcome::Lost),
    ] {
        assert_eq!((ended.by, ended.outcome), (by, outcome));
        assert_eq!(ended.reason, GameEndReason::SenderLoses);
        assert_eq!(ended.start, Position::startpos());
        assert_eq!(ended.moves, [mv]);
        assert_eq!(history, [mv]);
    }
    assert!(i.poll_event().is_none() && f.poll_event().is_none());
    // ... and still readable once the events were delivered (a caller may
    // write the game's record after its event loop), after any command or
    // input that does not start a game ...
    let mut after = Position::startpos();
    after.play_unchecked(mv);
    f.send_chat("gg", t).unwrap();
    exchange(&mut i, &mut f, t);
    while i.poll_event().is_some() {}
    for (moves, start, position, color) in [
        (i.moves(), i.start_position(), i.position(), i.our_color()),
        (f.moves(), f.start_position(), f.position(), f.our_color()),
    ] {
        assert_eq!(moves, [mv]);
        assert_eq!(start, Some(&Position::startpos()));
        assert_eq!(position, Some(&after));
        assert!(color.is_some());
    }
    assert!(!i.is_our_turn() && !f.is_our_turn(), "no game in progress");
    // ... while a new GAMEREQ awaits its answer ...
    i.request_game(request(board::Color::Black, None), t)
        .unwrap();
    assert_eq!(i.moves(), [mv]);
    // ... until the next game starts.
    exchange(&mut i, &mut f, t);
    assert!(i.moves().is_empty() && f.moves().is_empty());
    assert_eq!(i.our_color(), Some(board::Color::Black));
    assert_eq!(i.position(), Some(&Position::startpos()));
    // Outcome from our side, for every reason (spec, GAMEEND: the reason is
    // the sender's).
    for (by, reason, outcome) in [
        (Side::Us, GameEndReason::SenderWins, Outcome::Won),
        (Side::Opponent, GameEndReason::SenderWins, Outcome::Lost),
        (Side::Opponent, GameEndReason::Draw, Outcome::Drawn),
        (Side::Us, GameEndReason::Unknown, Outcome::Unknown),
    ] {
        assert_eq!(outcome_of(by, reason), outcome, "{by:?} {reason:?}");
    }
}

#[test]
fn a_silent_follower_is_reported_once() {
    let t0 = Duration::from_secs(100);
    let wait = Duration::from_secs(5);
    let mut i = initiator(Some(wait));
    i.request_game(request(board::Color::White, None), t0)
        .unwrap();
    assert_eq!(i.poll_transmit().unwrap().as_str().as_bytes()[0], b'R');
    assert_eq!(i.poll_timeout(), Some(t0 + wait));
    i.handle_timeout(t0 + wait - Duration::from_millis(1));
    assert!(i.poll_event().is_none());
    i.handle_timeout(t0 + wait);
    assert_eq!(
        i.poll_event(),
        Some(Event::PeerSilent {
            awaiting: MessageKind::GameAcc
        })
    );
    assert_eq!(i.poll_timeout(), None);
    i.handle_timeout(t0 + 2 * wait);
    assert!(i.poll_event().is_none(), "reported once");

    // An answer in time stops the timer; a BACKREQ and a GAMEEND start it.
    let (mut i, mut f) = (initiator(Some(wait)), follower());
    i.request_game(request(board::Color::White, None), t0)
        .unwrap();
    exchange(&mut i, &mut f, t0);
    assert_eq!(i.poll_timeout(), None);
    let mv = Position::startpos().legal_moves()[0];
    i.send_move_with(mv, 0, t0).unwrap();
    exchange(&mut i, &mut f, t0);
    let reply = f.position().unwrap().legal_moves()[0];
    f.send_move_with(reply, 0, t0).unwrap();
    exchange(&mut i, &mut f, t0);
    // Waiting for the opponent's move is not silence: no reply timer, only
    // the bound of its clock (5 minutes, none used) plus the 60 s margin.
    assert_eq!(f.poll_timeout(), Some(t0 + Duration::from_secs(360)));
    i.request_take_back(1, board::Color::White, t0).unwrap();
    assert_eq!(i.poll_timeout(), Some(t0 + wait));
    let _ = i.poll_transmit(); // the BACKREQ is lost
    i.handle_timeout(t0 + wait);
    let events: Vec<_> = std::iter::from_fn(|| i.poll_event()).collect();
    assert!(
        events.contains(&Event::PeerSilent {
            awaiting: MessageKind::BackAcc
        }),
        "{events:?}"
    );
}

#[test]
fn no_move_after_the_move_limit() {
    // Two kings off each other's diagonals; both shuffle without ever allowing a capture,
    // until move 999 (BACKREQ's 3 digits) has been played by both.
    let start: Position = "W:WK45:BK6".parse().unwrap();
    let (mut i, mut f) = (initiator(None), follower());
    let t = Duration::ZERO;
    i.request_game(request(board::Color::White, Some(start)), t)
        .unwrap();
    exchange(&mut i, &mut f, t);
    // A quiet move after which the opponent cannot capture and still has
    // such a move itself (two plies deep: kings never meet).
    fn quiet(pos: &Position) -> impl Iterator<Item = board::Move> + '_ {
        pos.legal_moves()
            .iter()
            .copied()
            .filter(move |&m| {
                let mut next = *pos;
                next.play_unchecked(m);
                m.capture_count() == 0
                    && next
                        .legal_moves()
                        .first()
                        .is_none_or(|r| r.capture_count() == 0)
            })
            .collect::<Vec<_>>()
            .into_iter()
    }
    // Each king goes back and forth: the reverse of its last move when
    // that is quiet, else the first quiet move.
    let mut last: [Option<board::Move>; 2] = [None, None];
    let mut safe = |pos: &Position, side: usize| {
        let moves: Vec<board::Move> = quiet(pos)
            .filter(|&m| {
                let mut next = *pos;
                next.play_unchecked(m);
                quiet(&next).next().is_some()
            })
            .collect();
        let back = last[side].and_then(|l| {
            moves
                .iter()
                .copied()
                .find(|m| m.from() == l.to() && m.to() == l.from())
        });
        let m = back.or(moves.first().copied()).unwrap_or_else(|| {
            panic!(
                "no quiet king move in {pos} ({} legal)",
                pos.legal_moves().len()
            )
        });
        last[side] = Some(m);
        m
    };
    let plies = 2 * usize::from(MAX_MOVE_NUMBER);
    for ply in 0..plies {
        let white = ply % 2 == 0;
        let pos = *i.position().unwrap();
        if white {
            i.send_move_with(safe(&pos, 0), 0, t).unwrap();
        } else {
            f.send_move_with(safe(&pos, 1), 0, t).unwrap();
        }
        exchange(&mut i, &mut f, t);
    }
    assert_eq!(i.moves().len(), plies);
    // White to move at move 1000: the session ended the game instead
    // (GAMEEND reason 0, answered; tests/move_limit.rs has the details),
    // and no move is accepted.
    let pos = *i.position().unwrap();
    assert_eq!(pos.side_to_move(), board::Color::White);
    assert!(!i.is_our_turn());
    let events: Vec<_> = std::iter::from_fn(|| i.poll_event()).collect();
    assert!(
        matches!(&events[events.len() - 2..], [Event::PlyCapReached { plies: 1998 }, Event::GameEnded(g)] if g.reason == GameEndReason::Unknown),
        "{:?}",
        &events[events.len() - 2..]
    );
    let mv = pos.legal_moves()[0];
    assert_eq!(i.send_move_with(mv, 0, t), Err(CommandError::NoGame));
    assert!(i.poll_transmit().is_none());
}

#[test]
fn a_close_during_a_game_ends_it_without_result_before_clearing() {
    let mut f = follower();
    let t = Duration::ZERO;
    // Spec, GAMEREQ: follower's colour `Z`: the initiator plays White.
    f.handle_input(b"R01I                               Z005000A\0", t);
    // Spec, MOVE example `M0012061100` is 6-11 for Black; White opens 32-28.
    f.handle_input(b"M0003322800\0", t);
    while f.poll_transmit().is_some() {}
    while f.poll_event().is_some() {}
    assert_eq!(f.moves().len(), 1);
    f.handle_close(t + Duration::from_secs(5));
    assert!(
        f.poll_transmit().is_none(),
        "nothing to answer on a closed stream"
    );
    let Some(Event::GameEnded(ended)) = f.poll_event() else {
        panic!("GameEnded expected")
    };
    assert!(ended.closed);
    assert_eq!(ended.outcome, Outcome::Unknown);
    assert_eq!(ended.moves.len(), 1);
    // Still visible while the event is handled, and afterwards (until a
    // next game starts).
    assert_eq!(f.moves().len(), 1);
    assert!(f.start_position() == Some(&Position::startpos()));
    assert!(f.poll_event().is_none());
    assert!(f.position().is_some() && f.moves().len() == 1);
    assert_eq!(
        ended.to_string_line(),
        "game over: no result (the connection closed during the game); moves: 32-28"
    );
    // Without a game, a close ends nothing.
    let mut idle = follower();
    idle.handle_close(t);
    assert!(idle.poll_event().is_none());
}

/// `Display` of the event, through the `Event` wrapper.
trait Line {
    fn to_string_line(&self) -> String;
}

impl Line for damexchange::session::GameEnded {
    fn to_string_line(&self) -> String {
        Event::GameEnded(self.clone()).to_string()
    }
}

#[test]
fn a_frame_error_is_reported_and_the_game_goes_on() {
    use damexchange::FrameError;
    let mut f = follower();
    let t = Duration::ZERO;
    f.handle_input(b"R01I                               Z005000A\0", t);
    while f.poll_transmit().is_some() {}
    while f.poll_event().is_some() {}
    // Spec, transport: at most 127 bytes per message.
    let err = FrameError::Overlong { len: 200, max: 127 };
    f.handle_frame_error(&err, t);
    assert_eq!(f.poll_event(), Some(Event::Malformed(err)));
    assert!(f.poll_transmit().is_none());
    assert!(f.position().is_some(), "the game is unchanged");
    // One description, not the event's prefix and the error's.
    assert_eq!(
        Event::Malformed(err).to_string(),
        "frame longer than 127 bytes (200 bytes seen): skipped up to the next terminator"
    );
}

#[test]
fn send_move_sends_the_whole_seconds_since_our_turn_began() {
    let mut f = follower();
    let t0 = Duration::from_secs(100);
    // We play White (follower's colour `W`): our turn begins with the GAMEREQ.
    f.handle_input(b"R01I                               W005000A\0", t0);
    let _acc = f.poll_transmit();
    let mv = Position::startpos().legal_moves()[0];
    // 2.9 s later: 2 whole seconds (MOVE time, offset 1, 4 digits).
    f.send_move(mv, t0 + Duration::from_millis(2900)).unwrap();
    let sent: Vec<String> = std::iter::from_fn(|| f.poll_transmit())
        .map(|t| t.as_str().to_string())
        .collect();
    f.handle_timeout(t0 + Duration::from_secs(3));
    let sent: Vec<String> = sent
        .into_iter()
        .chain(std::iter::from_fn(|| f.poll_transmit()).map(|t| t.as_str().to_string()))
        .collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(&sent[0][1..5], "0002");
    // The opponent answers at t0 + 10 s; we move 3 h later: clamped to 9999.
    let reply = after(&Position::startpos(), mv).legal_moves()[0];
    let wire = damexchange::Message::Move(damexchange::convert::move_to_wire(reply, 0));
    f.handle_message(&wire, t0 + Duration::from_secs(10));
    let pos = *f.position().unwrap();
    let next = pos.legal_moves()[0];
    f.send_move(next, t0 + Duration::from_secs(10 + 3 * 3600))
        .unwrap();
    let t = f.poll_transmit().unwrap();
    assert_eq!(&t.as_str()[1..5], "9999");
    // With the seconds given: as given (clamped to 9999 as well).
    let mut g = follower();
    g.handle_input(b"R01I                               W005000A\0", t0);
    g.send_move_with(mv, 12, t0).unwrap();
    g.handle_timeout(t0 + Duration::from_secs(1));
    let sent: Vec<String> = std::iter::from_fn(|| g.poll_transmit())
        .map(|t| t.as_str().to_string())
        .collect();
    assert_eq!(&sent.last().unwrap()[1..5], "0012");
}

fn after(pos: &Position, mv: board::Move) -> Position {
    let mut p = *pos;
    p.play_unchecked(mv);
    p
}

#[test]
fn events_read_as_one_line() {
    let e = Event::GameRefused {
        code: damexchange::AcceptanceCode::NotThisGame,
    };
    let line = e.to_string();
    assert!(line.starts_with("no game: "), "{line}");
    assert!(!line.contains('\n'));
    let e = Event::PeerSilent {
        awaiting: MessageKind::GameAcc,
    };
    assert_eq!(e.to_string(), "no GAMEACC from the peer in time");
}

#[test]
fn the_default_framer_cap_is_the_spec_limit() {
    // Spec, transport: 1..=127 bytes per message.
    assert_eq!(damexchange::framer::DEFAULT_MAX_LEN, 127);
    assert_eq!(damexchange::Framer::default().max_frame_len(), 127);
}
