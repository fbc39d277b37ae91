//! Details of the sessions' documented behaviour that the mutation run of
//! session 20 (issue 29) found untested: the game clock of a GAMEREQ with
//! a number of moves (spec/damexchange.md, *GAMEREQ*: thinking time is
//! minutes per player for that many moves, `000` = the whole game), the
//! outcome of each GAMEEND reason (*GAMEEND*: the reason is from the
//! sender's side, `1` sender loses, `2` draw, `3` sender wins), and the
//! one-line readings of events the session module documents (`Event`'s
//! `Display`: `game started against ... from the standard start`,
//! `game over: White wins (GAMEEND from the opponent: sender loses; ...)`).

use std::time::Duration;

use board_core::draughts::Color;
use damexchange::Name;
use damexchange::message::GameEndReason;
use damexchange::session::{
    CloseReason, Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig,
    MoveRejection, Outcome, Side,
};

const T0: Duration = Duration::ZERO;

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn events<T: damexchange::session::Timestamp, R: damexchange::session::Role>(
    s: &mut damexchange::session::Endpoint<R, T>,
) -> Vec<Event> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

fn sent<T: damexchange::session::Timestamp, R: damexchange::session::Role>(
    s: &mut damexchange::session::Endpoint<R, T>,
) -> Vec<String> {
    std::iter::from_fn(|| s.poll_transmit())
        .map(|t| String::from_utf8(t.as_bytes().to_vec()).unwrap())
        .map(|s| s.strip_suffix('\0').unwrap().to_string())
        .collect()
}

/// A follower that accepted `gamereq` (the GAMEACC and the start event
/// drained).
fn follower_with(config: FollowerConfig, gamereq: &str) -> Follower<Duration> {
    let mut f = Follower::new(config, T0);
    f.handle_input(format!("{gamereq}\0").as_bytes(), T0);
    assert_eq!(sent(&mut f), [format!("A{:<32}0", "F")]);
    f
}

fn config() -> FollowerConfig {
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.first_move_delay = Duration::ZERO;
    config
}

/// GAMEREQ from `I`, the follower's colour `colour`, standard start.
fn gamereq(colour: char, minutes: u16, moves: u16) -> String {
    format!("R01{:<32}{colour}{minutes:03}{moves:03}A", "I")
}

#[test]
fn the_clock_starts_again_after_each_period_of_moves() {
    // GAMEREQ: 1 minute for 2 moves. The initiator (White) uses 50 s on
    // each of its first two moves: 10 s left after the first; the second
    // ends the period, so its third move has the whole minute again.
    // The wait for its move: its turn began + what is left + the margin.
    let mut config = config();
    config.clock_margin = Some(secs(5));
    config.reply_timeout = None;
    let mut f = follower_with(config, &gamereq('Z', 1, 2));
    let _ = events(&mut f);
    // Its move 1 (31-26; quiet moves on both wings, no capture ever
    // possible), 50 s after the start.
    f.handle_input(b"M0050312600\0", secs(50));
    let mv = f.position().unwrap().parse_move("20-25").unwrap();
    f.send_move_with(mv, 0, secs(50)).unwrap();
    // Its turn from 50 s: 60 - 50 = 10 s left, + 5 s margin.
    assert_eq!(f.poll_timeout(), Some(secs(50 + 10 + 5)));
    // Its move 2 after 50 s more: the period of 2 moves is over.
    f.handle_input(b"M0050363100\0", secs(100));
    let mv = f.position().unwrap().parse_move("15-20").unwrap();
    f.send_move_with(mv, 0, secs(100)).unwrap();
    assert_eq!(f.poll_timeout(), Some(secs(100 + 60 + 5)));
    // Its move 3 after 30 s: 30 s left in the new period.
    f.handle_input(b"M0030413600\0", secs(130));
    let mv = f.position().unwrap().parse_move("10-15").unwrap();
    f.send_move_with(mv, 0, secs(130)).unwrap();
    assert_eq!(f.poll_timeout(), Some(secs(130 + 30 + 5)));
    let ev = events(&mut f);
    assert!(
        ev.iter().all(|e| matches!(e, Event::MoveReceived { .. })),
        "{ev:?}"
    );
}

/// The follower (White) gets the initiator's GAMEEND `E<reason>0` and
/// answers it: the game's end as the follower sees it.
fn their_gameend(reason: char) -> damexchange::session::GameEnded {
    let mut f = follower_with(config(), &gamereq('W', 5, 0));
    let _ = events(&mut f);
    f.handle_input(format!("E{reason}0\0").as_bytes(), T0);
    // Spec, GAMEEND: the other side answers with reason 0 (our stop code 0).
    assert_eq!(sent(&mut f), ["E00"]);
    let ev = events(&mut f);
    let [Event::GameEnded(g)] = &ev[..] else {
        panic!("{ev:?}")
    };
    g.clone()
}

#[test]
fn each_gameend_reason_gives_the_winner_from_the_senders_side() {
    // We play White; the opponent (Black) sends the GAMEEND.
    let g = their_gameend('1'); // sender loses: Black loses
    assert_eq!(
        (g.outcome, g.reason, g.by),
        (Outcome::Won, GameEndReason::SenderLoses, Side::Opponent)
    );
    assert_eq!(g.winner(), Some(Color::White));
    assert_eq!(
        Event::GameEnded(g).to_string(),
        "game over: White wins (GAMEEND from the opponent: sender loses; \
         the opponent will play another game); moves: none"
    );
    let g = their_gameend('3'); // sender wins: Black wins
    assert_eq!(g.outcome, Outcome::Lost);
    assert_eq!(g.winner(), Some(Color::Black));
    assert!(
        Event::GameEnded(g)
            .to_string()
            .starts_with("game over: Black wins (GAMEEND from the opponent: sender wins;")
    );
    let g = their_gameend('2');
    assert_eq!((g.outcome, g.winner()), (Outcome::Drawn, None));
    assert!(
        Event::GameEnded(g)
            .to_string()
            .starts_with("game over: draw (GAMEEND from the opponent: draw;")
    );
    let g = their_gameend('0');
    assert_eq!((g.outcome, g.winner()), (Outcome::Unknown, None));
    assert!(
        Event::GameEnded(g)
            .to_string()
            .starts_with("game over: no result (GAMEEND from the opponent: no reason;")
    );
}

#[test]
fn our_gameend_reads_from_us() {
    let mut f = follower_with(config(), &gamereq('W', 5, 0));
    let _ = events(&mut f);
    f.end_game(GameEndReason::Draw, T0).unwrap();
    assert_eq!(sent(&mut f), ["E20"]);
    f.handle_input(b"E01\0", T0);
    let ev = events(&mut f);
    let [Event::GameEnded(g)] = &ev[..] else {
        panic!("{ev:?}")
    };
    assert_eq!((g.by, g.outcome), (Side::Us, Outcome::Drawn));
    assert_eq!(
        ev[0].to_string(),
        "game over: draw (GAMEEND from us: draw; the opponent wants no more games); moves: none"
    );
}

#[test]
fn a_game_start_reads_with_its_start_position() {
    let mut f = Follower::new(config(), T0);
    f.handle_input(format!("{}\0", gamereq('W', 5, 0)).as_bytes(), T0);
    let ev = events(&mut f);
    assert_eq!(
        ev[0].to_string(),
        "game started against \"I\": we play White, 5 min for the whole game, \
         from the standard start"
    );
    // A set-up (GAMEREQ `B`): Black to move, a white king on 46 and a
    // black man on 1.
    let board: String = (1..=50)
        .map(|sq| match sq {
            1 => 'z',
            46 => 'W',
            _ => 'e',
        })
        .collect();
    let mut f = Follower::new(config(), T0);
    let req = format!("R01{:<32}Z010040BZ{board}\0", "I");
    f.handle_input(req.as_bytes(), T0);
    let ev = events(&mut f);
    let line = ev[0].to_string();
    assert!(
        line.starts_with(
            "game started against \"I\": we play Black, 10 min for 40 moves, from set-up position "
        ),
        "{line}"
    );
}

#[test]
fn a_move_out_of_turn_reads_as_rejected() {
    // We play White from the standard start: a MOVE from the opponent
    // now is out of turn (spec, *Roles and dialogue*: White first).
    let mut f = follower_with(config(), &gamereq('W', 5, 0));
    let _ = events(&mut f);
    f.handle_input(b"M0000191400\0", T0);
    let ev = events(&mut f);
    assert!(
        matches!(
            ev[..],
            [Event::MoveRejected {
                reason: MoveRejection::NotYourTurn,
                ..
            }]
        ),
        "{ev:?}"
    );
    assert_eq!(
        ev[0].to_string(),
        "rejected the opponent's MOVE 19-14: not the sender's turn"
    );
}

#[test]
fn a_close_for_bad_frames_reads_so() {
    let mut config = InitiatorConfig::new(Name::new("I").unwrap());
    config.max_bad_frames = Some(1);
    let mut i = Initiator::new(config, T0);
    i.request_game(
        GameOffer {
            our_color: Color::White,
            minutes: 5,
            moves: 0,
            start: None,
        },
        T0,
    )
    .unwrap();
    let _ = sent(&mut i);
    // An unknown message kind (spec: headers R A M E C B K).
    i.handle_input(b"Xyz\0", T0);
    let ev = events(&mut i);
    assert_eq!(
        ev.last(),
        Some(&Event::Closing(CloseReason::TooManyBadFrames))
    );
    assert_eq!(
        ev.last().unwrap().to_string(),
        "closing the connection: too many malformed or unrecognised frames in a row"
    );
}

#[test]
fn our_move_time_counts_from_the_opponents_move_not_from_its_turn() {
    // Spec, MOVE: the time is the seconds the sender used for this move.
    // We play Black: the opponent's turn runs from the GAMEREQ (0 s) to
    // its move at 10 s; ours from 10 s to 12.5 s: 2 whole seconds.
    let mut f = follower_with(config(), &gamereq('Z', 5, 0));
    f.handle_input(b"M0010312600\0", secs(10));
    let mv = f.position().unwrap().parse_move("20-25").unwrap();
    f.send_move(mv, Duration::from_millis(12_500)).unwrap();
    assert_eq!(sent(&mut f), ["M0002202500"]);
}

#[test]
fn after_our_gameend_the_opponents_clock_is_no_bound() {
    // We play Black; during the opponent's turn we end the game (spec,
    // GAMEEND: it is answered with a GAMEEND, not a MOVE): no wait for
    // its move any more, and with no reply timeout nothing at all.
    let mut config = config();
    config.clock_margin = Some(secs(5));
    config.reply_timeout = None;
    let mut f = follower_with(config, &gamereq('Z', 1, 0));
    assert_eq!(f.poll_timeout(), Some(secs(60 + 5)));
    f.end_game(GameEndReason::SenderLoses, secs(1)).unwrap();
    assert_eq!(sent(&mut f), ["E10"]);
    assert_eq!(f.poll_timeout(), None);
}

#[test]
fn a_gameend_during_the_first_move_pause_drops_our_held_move_not_the_answer() {
    // We play White with the default 500 ms pause after GAMEACC: our first
    // MOVE is held. The opponent's GAMEEND at 100 ms ends the game: the
    // MOVE of the ended game is never sent, our answer `E00` (spec,
    // GAMEEND: the other side answers with reason 0) goes out with the
    // end of the pause.
    let config = FollowerConfig::new(Name::new("F").unwrap());
    let mut f = follower_with(config, &gamereq('W', 5, 0));
    let mv = f.position().unwrap().parse_move("31-26").unwrap();
    f.send_move_with(mv, 0, T0).unwrap();
    assert_eq!(sent(&mut f), Vec::<String>::new());
    f.handle_input(b"E00\0", Duration::from_millis(100));
    f.handle_timeout(Duration::from_millis(500));
    assert_eq!(sent(&mut f), ["E00"]);
}

#[test]
fn a_malformed_gameend_with_no_game_is_not_answered() {
    // Spec, GAMEEND: reasons are 0..=3; `E90` does not decode. With no
    // game in progress there is nothing to end: reported, not answered.
    let mut f = Follower::new(config(), T0);
    f.handle_input(b"E90\0", T0);
    assert!(matches!(events(&mut f)[..], [Event::Malformed(_)]));
    assert_eq!(sent(&mut f), Vec::<String>::new());
}

#[test]
fn a_backreq_after_our_gameend_is_refused() {
    // Spec, BACKACC `K1`: refused. Once our GAMEEND is sent the game is
    // ending: the board is not taken back.
    let mut f = follower_with(config(), &gamereq('W', 5, 0));
    let mv = f.position().unwrap().parse_move("31-26").unwrap();
    f.send_move_with(mv, 0, T0).unwrap();
    f.handle_input(b"M0000202500\0", T0);
    f.end_game(GameEndReason::Unknown, T0).unwrap();
    let _ = (sent(&mut f), events(&mut f));
    f.handle_input(b"B001W\0", T0);
    assert_eq!(sent(&mut f), ["K1"]);
    assert_eq!(f.moves().len(), 2);
}
