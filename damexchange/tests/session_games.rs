//! An Initiator and a Follower driven against each other in memory: complete
//! games of random legal moves (from the start and from set-up positions,
//! both colours), with take-backs (granted, refused, crossing a move), chat,
//! and random chunking of the bytes in flight.

mod common;
use common::WireText;
use std::time::Duration;

use board_core::draughts::{self as board, Position};
use damexchange::session::{
    CommandError, Event, Follower, FollowerConfig, GameEnded, GameOffer, GameStarted, Initiator,
    InitiatorConfig, MoveRejection, Outcome, Side,
};
use damexchange::{AcceptanceCode, BackAccCode, GameEndReason, Name, decode};

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Both sessions and the bytes in flight between them, on a simulated clock
/// (a `Duration` since the start, as a `no_std` application would pass).
struct Pair {
    i: Initiator<Duration>,
    f: Follower<Duration>,
    now: Duration,
    rng: Rng,
    i_events: Vec<Event>,
    f_events: Vec<Event>,
    wire_log: Vec<u8>,
}

impl Pair {
    /// Delivers everything both sides want to send, in random chunks, and
    /// lets time pass for held-back output, until both are quiet.
    fn pump(&mut self) {
        loop {
            let mut to_f = Vec::new();
            let mut to_i = Vec::new();
            while let Some(e) = self.i.poll_transmit() {
                to_f.extend_from_slice(e.as_bytes());
            }
            while let Some(e) = self.f.poll_transmit() {
                to_i.extend_from_slice(e.as_bytes());
            }
            if to_f.is_empty() && to_i.is_empty() {
                let deadline = self
                    .i
                    .poll_timeout()
                    .into_iter()
                    .chain(self.f.poll_timeout())
                    .min();
                match deadline {
                    Some(at) => {
                        self.now = self.now.max(at);
                        self.i.handle_timeout(self.now);
                        self.f.handle_timeout(self.now);
                        continue;
                    }
                    None => break,
                }
            }
            self.wire_log.extend_from_slice(&to_f);
            self.wire_log.extend_from_slice(&to_i);
            for (bytes, to_follower) in [(to_f, true), (to_i, false)] {
                let mut rest = &bytes[..];
                while !rest.is_empty() {
                    let n = 1 + self.rng.below(rest.len().min(40));
                    if to_follower {
                        self.f.handle_input(&rest[..n], self.now);
                    } else {
                        self.i.handle_input(&rest[..n], self.now);
                    }
                    rest = &rest[n..];
                }
            }
            self.now += Duration::from_millis(10);
        }
        self.i_events
            .extend(std::iter::from_fn(|| self.i.poll_event()));
        self.f_events
            .extend(std::iter::from_fn(|| self.f.poll_event()));
    }

    fn assert_in_sync(&self) {
        assert_eq!(self.i.position(), self.f.position());
        assert_eq!(self.i.moves(), self.f.moves());
        assert_eq!(self.i.move_number(), self.f.move_number());
    }
}

/// A random legal position: `plies` random moves from the start (fewer if
/// the game ends).
fn random_position(rng: &mut Rng, plies: usize) -> Position {
    let mut pos = Position::startpos();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        pos = pos.play(mv).unwrap();
    }
    pos
}

#[derive(Default, Debug)]
struct Stats {
    games: usize,
    decided: usize,
    plies: usize,
    take_backs: usize,
    refused: usize,
    crossed: usize,
}

fn play_games(seed: u64, games: usize) -> Stats {
    // `pump` jumps the clock to the next deadline when both sides are
    // quiet (each waiting for its application's move): no clock bound on
    // the opponent's move here (that bound is tested in session_hostile).
    let mut follower_cfg = FollowerConfig::new(Name::new("Follower").unwrap());
    follower_cfg.first_move_delay = Duration::from_millis(250);
    follower_cfg.clock_margin = None;
    let mut initiator_cfg = InitiatorConfig::new(Name::new("Initiator").unwrap());
    initiator_cfg.clock_margin = None;
    let mut pair = Pair {
        i: Initiator::new(initiator_cfg, Duration::ZERO),
        f: Follower::new(follower_cfg, Duration::ZERO),
        now: Duration::ZERO,
        rng: Rng(seed),
        i_events: Vec::new(),
        f_events: Vec::new(),
        wire_log: Vec::new(),
    };
    let mut stats = Stats::default();
    for game in 0..games {
        let our_color = if game % 2 == 0 {
            board::Color::White
        } else {
            board::Color::Black
        };
        let start = if game % 3 == 2 {
            let plies = 10 + pair.rng.below(40);
            let pos = random_position(&mut pair.rng, plies);
            (!pos.is_game_over()).then_some(pos)
        } else {
            None
        };
        // Take-backs refused by one side in some games.
        let i_takes = game % 5 != 3;
        let f_takes = game % 5 != 4;
        pair.i.set_take_backs(i_takes);
        pair.f.set_take_backs(f_takes);
        pair.i
            .request_game(
                GameOffer {
                    our_color,
                    minutes: 5,
                    moves: 75,
                    start,
                },
                pair.now,
            )
            .unwrap();
        pair.pump();
        let started = |events: &mut Vec<Event>| {
            let pos = events
                .iter()
                .position(|e| matches!(e, Event::GameStarted(_)))
                .expect("game started");
            events.drain(..=pos).next_back().unwrap()
        };
        let Event::GameStarted(GameStarted {
            our_color: i_color, ..
        }) = started(&mut pair.i_events)
        else {
            unreachable!()
        };
        let Event::GameStarted(GameStarted {
            our_color: f_color, ..
        }) = started(&mut pair.f_events)
        else {
            unreachable!()
        };
        assert_eq!(i_color, our_color);
        assert_eq!(f_color, our_color.opposite());
        assert_eq!(pair.i.time_control(), Some((5, 75)));
        assert_eq!(pair.f.time_control(), Some((5, 75)));
        pair.assert_in_sync();

        let mut plies = 0;
        loop {
            pair.pump();
            pair.assert_in_sync();
            let pos = *pair.i.position().unwrap();
            let i_to_move = pair.i.is_our_turn();
            assert_ne!(i_to_move, pair.f.is_our_turn());

            // Game over, or long enough: the side to move ends it.
            if pos.is_game_over() || plies >= 300 {
                let reason = if pos.is_game_over() {
                    stats.decided += 1;
                    GameEndReason::SenderLoses
                } else {
                    GameEndReason::Draw
                };
                if i_to_move {
                    pair.i.end_game(reason, pair.now).unwrap();
                } else {
                    pair.f.end_game(reason, pair.now).unwrap();
                }
                pair.pump();
                let ended = |events: &[Event], by: Side| {
                    events.iter().any(|e| {
                        matches!(e, Event::GameEnded(GameEnded { by: b, reason: r, .. }) if *b == by && *r == reason)
                    })
                };
                let (i_by, f_by) = if i_to_move {
                    (Side::Us, Side::Opponent)
                } else {
                    (Side::Opponent, Side::Us)
                };
                assert!(ended(&pair.i_events, i_by), "{:?}", pair.i_events);
                assert!(ended(&pair.f_events, f_by), "{:?}", pair.f_events);
                // The finished game stays readable until the next starts.
                assert_eq!(pair.i.moves(), pair.f.moves());
                assert!(pair.i.position().is_some() && pair.f.position().is_some());
                break;
            }

            // Take-back now and then, by either side.
            let history = pair.i.moves().len();
            if history > 0 && pair.rng.chance(6) {
                let ply = pair.rng.below(history + 1);
                let (n, c) = move_number_at(&pair.i, ply);
                let by_initiator = pair.rng.chance(50);
                let granted = if by_initiator { f_takes } else { i_takes };
                if by_initiator {
                    pair.i.request_take_back(n, c, pair.now).unwrap();
                } else {
                    pair.f.request_take_back(n, c, pair.now).unwrap();
                }
                // Sometimes the other side moves before the BACKREQ arrives.
                let other_to_move = if by_initiator {
                    pair.f.is_our_turn()
                } else {
                    pair.i.is_our_turn()
                };
                if other_to_move && pair.rng.chance(30) {
                    let mv = pos.legal_moves()[0];
                    let now = pair.now;
                    if by_initiator {
                        pair.f.send_move_with(mv, 0, now).unwrap();
                    } else {
                        pair.i.send_move_with(mv, 0, now).unwrap();
                    }
                    stats.crossed += 1;
                }
                pair.pump();
                pair.assert_in_sync();
                let (asker, answerer) = if by_initiator {
                    (&pair.i_events, &pair.f_events)
                } else {
                    (&pair.f_events, &pair.i_events)
                };
                if granted {
                    stats.take_backs += 1;
                    assert_eq!(pair.i.moves().len(), ply);
                    assert_eq!(pair.i.move_number(), Some((n, c)));
                    assert!(
                        matches!(asker.last(), Some(Event::TakenBack { by: Side::Us, move_number, color })
                        if *move_number == n && *color == c),
                        "{asker:?}"
                    );
                    assert!(answerer.iter().rev().any(|e| matches!(
                        e,
                        Event::TakenBack {
                            by: Side::Opponent,
                            ..
                        }
                    )));
                } else {
                    stats.refused += 1;
                    assert!(matches!(
                        asker.last(),
                        Some(Event::TakeBackDeclined {
                            by: Side::Us,
                            code: BackAccCode::NotSupported
                        })
                    ));
                }
                continue;
            }

            if pair.rng.chance(3) {
                pair.i.send_chat("still thinking?", pair.now).unwrap();
            }
            let moves = pos.legal_moves();
            let mv = moves[pair.rng.below(moves.len())];
            let now = pair.now;
            if i_to_move {
                assert_eq!(
                    pair.f.send_move_with(mv, 1, now),
                    Err(CommandError::NotYourTurn)
                );
                pair.i.send_move_with(mv, 1, now).unwrap();
            } else {
                pair.f.send_move_with(mv, 2, now).unwrap();
            }
            pair.pump();
            let receiver = if i_to_move {
                &pair.f_events
            } else {
                &pair.i_events
            };
            assert!(
                receiver
                    .iter()
                    .rev()
                    .any(|e| matches!(e, Event::MoveReceived { mv: m, .. } if *m == mv)),
                "{receiver:?}"
            );
            plies += 1;
            stats.plies += 1;
        }
        stats.games += 1;
    }
    // Nothing unexpected or malformed ever happened.
    for e in pair.i_events.iter().chain(&pair.f_events) {
        assert!(
            !matches!(
                e,
                Event::Unexpected { .. } | Event::Malformed(_) | Event::GameRefused { .. }
            ),
            "{e:?}"
        );
        assert!(!matches!(e, Event::MoveRejected { .. }), "{e:?}");
    }
    // Everything on the wire was strictly valid.
    for frame in pair.wire_log.split(|&b| b == 0).filter(|f| !f.is_empty()) {
        decode::<damexchange::Message>(frame).unwrap();
    }
    stats
}

/// Move number and colour at `ply` of the current game, as BACKREQ names it.
fn move_number_at(i: &Initiator<Duration>, ply: usize) -> (u16, board::Color) {
    let (n, c) = i.move_number().unwrap();
    // Walk back from the current point.
    let current = i.moves().len();
    let mut plies_back = current - ply;
    let (mut n, mut c) = (n, c);
    while plies_back > 0 {
        if c == board::Color::White {
            n -= 1;
        }
        c = c.opposite();
        plies_back -= 1;
    }
    (n, c)
}

#[test]
fn complete_random_games_with_take_backs() {
    let stats = play_games(0x9E37_79B9_7F4A_7C15, 24);
    assert_eq!(stats.games, 24);
    assert!(stats.decided >= 12, "{stats:?}");
    assert!(stats.take_backs >= 10, "{stats:?}");
    assert!(stats.refused >= 1, "{stats:?}");
    assert!(stats.crossed >= 1, "{stats:?}");
    println!("{stats:?}");
}

#[test]
#[ignore = "long: 500 games"]
fn many_random_games() {
    let stats = play_games(42, 500);
    println!("{stats:?}");
}

/// A follower (Black, 5 minutes, standard start) after the initiator's
/// first move 32-28: our turn.
fn follower_after_32_28(t: Duration) -> Follower<Duration> {
    let mut f = Follower::new(FollowerConfig::new(Name::new("F").unwrap()), Duration::ZERO);
    f.handle_input(b"R01I                               Z005000A\0", t);
    f.handle_input(b"M0000322800\0", t);
    f
}

/// BACKREQ answers: K0 and the side to move then moves; K1 when switched
/// off; K2 for a point not in the game.
#[test]
fn back_acc_codes() {
    let t = Duration::ZERO;
    let mut f = follower_after_32_28(t);
    let mv = f.position().unwrap().parse_move("17-21").unwrap();
    f.send_move_with(mv, 0, t).unwrap();
    f.handle_input(b"M0000373200\0", t);
    let drain = |f: &mut Follower<Duration>| {
        std::iter::from_fn(|| f.poll_transmit())
            .map(|e| e.as_str().to_string())
            .collect::<Vec<_>>()
    };
    drain(&mut f);
    // Move 2 Black to move is in the game (after 32-28 17-21 37-32).
    assert_eq!(f.move_number(), Some((2, board::Color::Black)));
    // Move 9 is not: K2, unchanged.
    f.handle_input(b"B009W\0", t);
    assert_eq!(drain(&mut f), ["K2"]);
    assert_eq!(f.moves().len(), 3);
    // Switched off: K1.
    f.set_take_backs(false);
    f.handle_input(b"B001Z\0", t);
    assert_eq!(drain(&mut f), ["K1"]);
    f.set_take_backs(true);
    // Move 1, Black to move: back to after 32-28; Black (we) to move next.
    f.handle_input(b"B001Z\0", t);
    assert_eq!(drain(&mut f), ["K0"]);
    assert_eq!(f.moves().len(), 1);
    assert!(f.is_our_turn());
    assert_eq!(
        f.position().unwrap().to_string(),
        Position::startpos()
            .play(Position::startpos().parse_move("32-28").unwrap())
            .unwrap()
            .to_string()
    );
    let events: Vec<Event> = std::iter::from_fn(|| f.poll_event()).collect();
    assert!(events.contains(&Event::TakenBack {
        by: Side::Opponent,
        move_number: 1,
        color: board::Color::Black
    }));
    assert!(events.contains(&Event::TakeBackDeclined {
        by: Side::Opponent,
        code: BackAccCode::Continue
    }));
    // Move 1 White to move, the current position's own point, is fine too.
    f.handle_input(b"B001W\0", t);
    assert_eq!(drain(&mut f), ["K0"]);
    assert_eq!(f.moves().len(), 0);
    assert!(!f.is_our_turn());
}

/// Set-up positions starting with Black to move: move 1 is Black's, so
/// "move 1, White" is not in the game.
#[test]
fn move_numbers_when_black_starts() {
    let t = Duration::ZERO;
    let mut f = Follower::new(FollowerConfig::new(Name::new("F").unwrap()), Duration::ZERO);
    // Black to move in the start position, follower White.
    f.handle_input(
        b"R01I                               W005000BZzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww\0",
        t,
    );
    assert_eq!(f.move_number(), Some((1, board::Color::Black)));
    f.handle_input(b"M0000172100\0", t);
    assert_eq!(f.move_number(), Some((2, board::Color::White)));
    let _ = std::iter::from_fn(|| f.poll_transmit()).count();
    f.handle_input(b"B001W\0", t);
    assert_eq!(f.poll_transmit().unwrap().as_str(), "K2");
    f.handle_input(b"B001Z\0", t);
    assert_eq!(f.poll_transmit().unwrap().as_str(), "K0");
    assert_eq!(f.moves().len(), 0);
}

/// GAMEACC codes: the follower's answers, and the initiator acting on them.
#[test]
fn gameacc_codes_acted_on() {
    let t = Duration::ZERO;
    let answer = |config: FollowerConfig, req: &[u8]| {
        let mut f = Follower::new(config, Duration::ZERO);
        f.handle_input(req, t);
        f.poll_transmit().unwrap().as_str().to_string()
    };
    let cfg = || FollowerConfig::new(Name::new("F").unwrap());
    let req = b"R01I                               Z005000A\0";
    assert!(answer(cfg(), req).ends_with('0'));
    assert!(answer(cfg(), b"R02I                               Z005000A\0").ends_with('1'));
    let mut no = cfg();
    no.accept_games = false;
    assert!(answer(no, req).ends_with('3'));
    let mut slow = cfg();
    slow.max_minutes = Some(4);
    assert!(answer(slow, req).ends_with('2'));
    // A set-up with a white man on its promotion row, or with no legal move.
    let bad = b"R01I                               Z005000BWwzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww\0";
    assert!(answer(cfg(), bad).ends_with('2'));
    let blocked = b"R01I                               Z005000BWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\0";
    assert!(answer(cfg(), blocked).ends_with('2'));

    // The initiator: 2 lets it ask again, 1 and 3 stop it.
    let req = || GameOffer {
        our_color: board::Color::White,
        minutes: 5,
        moves: 0,
        start: None,
    };
    for (code, stops) in [(b'2', false), (b'1', true), (b'3', true)] {
        let mut i = Initiator::new(
            InitiatorConfig::new(Name::new("I").unwrap()),
            Duration::ZERO,
        );
        i.request_game(req(), t).unwrap();
        assert_eq!(i.request_game(req(), t), Err(CommandError::GameInProgress));
        let mut acc = b"AF                               ".to_vec();
        acc.extend([code, 0]);
        i.handle_input(&acc, t);
        assert!(
            matches!(i.poll_event(), Some(Event::GameRefused { code: c }) if c.code() == code - b'0')
        );
        assert_eq!(i.is_stopped(), stops);
        assert_eq!(i.request_game(req(), t).is_ok(), !stops);
        if stops {
            assert_eq!(i.request_game(req(), t), Err(CommandError::Stopped));
        }
    }
    let _ = AcceptanceCode::Accepted;
}

/// Out-of-turn and illegal moves are reported and change nothing; GAMEEND
/// is accepted from the side not to move (as Scan and pydraughts send it).
#[test]
fn rejected_moves_and_gameend_at_any_time() {
    let t = Duration::ZERO;
    let mut f = follower_after_32_28(t);
    let before = *f.position().unwrap();
    // Out of turn (Black, we, to move), then illegal.
    f.handle_input(b"M0000282300\0M0000171200\0", t);
    // A capture with the wrong captured set.
    let events: Vec<Event> = std::iter::from_fn(|| f.poll_event()).collect();
    let rejected: Vec<MoveRejection> = events
        .iter()
        .filter_map(|e| match e {
            Event::MoveRejected { reason, .. } => Some(*reason),
            _ => None,
        })
        .collect();
    assert_eq!(
        rejected,
        [MoveRejection::NotYourTurn, MoveRejection::NotYourTurn]
    );
    assert_eq!(*f.position().unwrap(), before);
    // Our move 19-23, then White plays 28x19 naming a wrong captured square.
    let mv = before.parse_move("19-23").unwrap();
    f.send_move_with(mv, 0, t).unwrap();
    let after = *f.position().unwrap();
    f.handle_input(b"M000028190124\0", t);
    assert!(matches!(
        f.poll_event(),
        Some(Event::MoveRejected {
            reason: MoveRejection::Illegal,
            ..
        })
    ));
    assert_eq!(*f.position().unwrap(), after);
    // The capture is compulsory: a quiet move is illegal too.
    f.handle_input(b"M0000312600\0", t);
    assert!(matches!(
        f.poll_event(),
        Some(Event::MoveRejected {
            reason: MoveRejection::Illegal,
            ..
        })
    ));
    // The right one.
    f.handle_input(b"M000028190123\0", t);
    assert!(matches!(f.poll_event(), Some(Event::MoveReceived { .. })));
    // Our illegal move is refused locally, nothing sent.
    let _ = std::iter::from_fn(|| f.poll_transmit()).count();
    let wrong = Position::startpos().legal_moves()[0];
    assert_eq!(
        f.send_move_with(wrong, 0, t),
        Err(CommandError::IllegalMove)
    );
    assert!(f.poll_transmit().is_none());
    // GAMEEND from White while Black is to move: answered with reason 0 and
    // our stop code.
    f.handle_input(b"E21\0", t);
    assert_eq!(f.poll_transmit().unwrap().as_str(), "E00");
    // Delivered before the game is cleared: the handler still sees it.
    let Some(Event::GameEnded(ended)) = f.poll_event() else {
        panic!("GameEnded")
    };
    assert_eq!(
        (ended.by, ended.reason),
        (Side::Opponent, GameEndReason::Draw)
    );
    // White (the sender) claims a draw: drawn for us too.
    assert_eq!(ended.outcome, Outcome::Drawn);
    assert_eq!(ended.start, Position::startpos());
    assert_eq!(ended.moves, f.moves());
    assert!(f.position().is_some());
    assert!(f.poll_event().is_none());
    // Readable after the event too, until the next game starts.
    assert_eq!(ended.moves, f.moves());
    assert!(!f.is_our_turn());
    // No game: MOVE rejected, GAMEEND not answered.
    f.handle_input(b"M0000322800\0E00\0", t);
    assert!(f.poll_transmit().is_none());
    assert!(matches!(
        f.poll_event(),
        Some(Event::MoveRejected {
            reason: MoveRejection::NoGame,
            ..
        })
    ));
    assert!(matches!(f.poll_event(), Some(Event::Unexpected { .. })));
    // A new game on the same connection.
    f.handle_input(b"R01I                               W001000A\0", t);
    assert!(f.poll_transmit().unwrap().as_str().ends_with('0'));
    assert!(f.is_our_turn());
}

/// The follower's first-move pause on a `Duration` clock (the `no_std`
/// case): held until `now + first_move_delay`, and a pause that would end
/// past `Duration::MAX` is no pause (no overflow panic, nothing stuck).
#[test]
fn first_move_pause_on_a_duration_clock() {
    let white_follower = b"R01I                               W005000A\0";
    let mut config = FollowerConfig::new(Name::new("F").unwrap());
    config.first_move_delay = Duration::from_millis(300);
    let run = |t: Duration| {
        let mut f = Follower::new(config.clone(), Duration::ZERO);
        f.handle_input(white_follower, t);
        assert_eq!(
            f.poll_transmit().unwrap().as_str(),
            "AF                               0"
        );
        let mv = f.position().unwrap().parse_move("32-28").unwrap();
        f.send_move_with(mv, 0, t).unwrap();
        f
    };

    let t = Duration::from_secs(5);
    let mut f = run(t);
    assert!(f.poll_transmit().is_none());
    assert_eq!(f.poll_timeout(), Some(t + Duration::from_millis(300)));
    f.handle_timeout(t + Duration::from_millis(299));
    assert!(f.poll_transmit().is_none());
    f.handle_timeout(t + Duration::from_millis(300));
    assert_eq!(f.poll_transmit().unwrap().as_str(), "M0000322800");
    // Then the wait for the initiator's move: its 5 minutes plus the 60 s
    // clock margin, from our move.
    assert_eq!(f.poll_timeout(), Some(t + Duration::from_secs(360)));

    let mut f = run(Duration::MAX - Duration::from_millis(1));
    // No pause; the clock bound saturates at the end of time.
    assert_eq!(f.poll_timeout(), Some(Duration::MAX));
    assert_eq!(f.poll_transmit().unwrap().as_str(), "M0000322800");
}
