//! The simulated Citrine (`session::device`) on its own, line by line in
//! simulated time: what it answers to each command, with the replies of the
//! spec note (spec/citrine.md, *Commands (host -> device) and replies
//! (device -> host)*, *Move text the Citrine prints*, *Pacing*, *Known field
//! problems*), the game list captured from a real device (`common`), and
//! the contracts the simulation documents (`session::device`, *Behaviour*).

use std::time::Duration;

use board_core::chess::{Color, Position};
use novag_citrine::decode::decode;
use novag_citrine::message::Command;
use novag_citrine::session::{
    CommandError, Device, DeviceConfig, DeviceEvent, EndReason, GameEnded, GameStarted,
    Misbehaviour, Outcome,
};
use novag_citrine::{DecodeError, Field, FrameError, MessageKind, Problem};

mod common;

const T0: Duration = Duration::ZERO;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn fresh() -> Device<Duration> {
    Device::new(DeviceConfig::default(), T0)
}

/// Every line due, without its CR LF (which each must end with).
fn lines(device: &mut Device<Duration>) -> Vec<String> {
    std::iter::from_fn(|| device.poll_transmit())
        .map(|t| {
            let b = t.into_bytes();
            assert!(b.ends_with(b"\r\n"), "{b:?}");
            String::from_utf8(b[..b.len() - 2].to_vec()).unwrap()
        })
        .collect()
}

fn events(device: &mut Device<Duration>) -> Vec<DeviceEvent> {
    std::iter::from_fn(|| device.poll_event()).collect()
}

/// The moves (UCI) made by hand on the board, each legal.
fn board(device: &mut Device<Duration>, moves: &[&str], now: Duration) {
    for u in moves {
        let mv = device.position().unwrap().parse_uci(u).unwrap();
        device.handle_board_move(mv, now).unwrap();
    }
}

/// Fool's mate (1.f3 e5 2.g4 Qh4#, a published fact of chess) on the board
/// in referee mode (`U ON`: the user plays both sides).
fn fools_mate(device: &mut Device<Duration>) {
    device.handle_input(b"U ON\r\n", T0);
    board(device, &["f2f3", "e7e5", "g2g4", "d8h4"], T0);
}

fn uci(position: &Position, u: &str) -> board_core::chess::Move {
    position.parse_uci(u).unwrap()
}

/// The spec note's reading `Clock 00:06:27 00:00:01` (white, black;
/// hh:mm:ss): White thinks 387 s over 1.e4, the engine (Black) answers after
/// its 1 s thinking time, then `C`.
#[test]
fn clocks_count_each_sides_thinking_time() {
    let config = DeviceConfig {
        think_time: Duration::from_secs(1),
        ..DeviceConfig::default()
    };
    let mut device = Device::new(config, T0);
    device.handle_input(b"M e2e4\r\n", Duration::from_secs(387));
    device.handle_timeout(Duration::from_secs(388));
    assert_eq!(device.moves().len(), 2);
    device.handle_input(b"C\r\n", Duration::from_secs(388));
    let out = lines(&mut device);
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0], "M   1   e2-e4 |");
    assert!(out[1].starts_with("M   1,  "), "{out:?}");
    assert_eq!(out[2], "Clock 00:06:27 00:00:01");
}

/// `G` after the game of the captured device output (1.e4 e5 2.f4 Bc5
/// 3.fxe5 Qh4+ 4.Ke2 Qf2+ 5.Kd3 Qd4+ 6.Ke2 Qxe4+, played on the board in
/// referee mode): the device's lines, columns as printed.
#[test]
fn game_list_of_the_captured_game() {
    let mut device = fresh();
    device.handle_input(b"U ON\r\n", T0);
    let game = [
        "e2e4", "e7e5", "f2f4", "f8c5", "f4e5", "d8h4", "e1e2", "h4f2", "e2d3", "f2d4", "d3e2",
        "d4e4",
    ];
    board(&mut device, &game, T0);
    assert_eq!(lines(&mut device), [".Referee on"]);
    device.handle_input(b"G\r\n", T0);
    assert_eq!(lines(&mut device), common::CAPTURED_GAME_LIST);
}

/// `G` before any move: the header and the column titles, no row (`Game n`
/// counts the moves listed).
#[test]
fn game_list_before_any_move() {
    let mut device = fresh();
    device.handle_input(b"G\r\n", T0);
    assert_eq!(lines(&mut device), ["Game   0", ".      white       black"]);
}

/// The knights out and back (Ng1-f3 Ng8-f6 Nf3-g1 Nf6-g8, again and again):
/// a legal game of any length without captures.
const SHUFFLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

/// `G` returns at most the last 112 plies (spec note, *Pacing*), starting
/// with a white move (the list's columns are white, black).
#[test]
fn game_list_keeps_the_last_112_plies_from_a_white_move() {
    let row = |n: usize| {
        let ply = 2 * (n - 1);
        let w = SHUFFLE[ply % 4];
        let b = SHUFFLE[(ply + 1) % 4];
        format!(
            ".{n:>4}  {}-{}       {}-{}",
            &w[..2],
            &w[2..],
            &b[..2],
            &b[2..]
        )
    };
    // 112 plies: all of them, moves 1 to 56.
    let mut device = fresh();
    device.handle_input(b"U ON\r\n", T0);
    for ply in 0..112 {
        board(&mut device, &[SHUFFLE[ply % 4]], T0);
    }
    lines(&mut device);
    device.handle_input(b"G\r\n", T0);
    let out = lines(&mut device);
    assert_eq!(out.len(), 2 + 56);
    assert_eq!(out[0], "Game  56");
    assert_eq!(out[2], row(1));
    assert_eq!(out[57], row(56));
    // 113 plies: the last 112 would start with Black's 1st move, so the
    // list starts at White's 2nd: moves 2 to 57, the last without Black's.
    board(&mut device, &[SHUFFLE[0]], T0);
    device.handle_input(b"G\r\n", T0);
    let out = lines(&mut device);
    assert_eq!(out.len(), 2 + 56, "{out:?}");
    assert_eq!(out[0], "Game  57");
    assert_eq!(out[1], ".      white       black");
    assert_eq!(out[2], row(2));
    assert_eq!(out[56], row(56));
    assert_eq!(out[57], ".  57  g1-f3");
    // 114 plies: the last 112 start with White's 2nd move.
    board(&mut device, &[SHUFFLE[1]], T0);
    device.handle_input(b"G\r\n", T0);
    let out = lines(&mut device);
    assert_eq!(out.len(), 2 + 56, "{out:?}");
    assert_eq!((out[2].clone(), out[57].clone()), (row(2), row(57)));
}

/// Move numbers stop at 9999, the largest the Citrine prints (the `M` line's
/// 4-column number, spec note *Move text the Citrine prints*; documented
/// on `handle_board_move` and `send_move`): moves of move 9999 are played,
/// a move of move 10000 is refused.
#[test]
fn no_move_past_move_9999() {
    let mut device = fresh();
    device.handle_input(b"U ON\r\n", T0);
    let start = Position::startpos();
    let mut p = start;
    let shuffle: Vec<_> = SHUFFLE
        .iter()
        .map(|u| {
            let mv = uci(&p, u);
            p = p.play(mv).unwrap();
            mv
        })
        .collect();
    // 2 × 9998 plies: White to play move 9999.
    for ply in 0..2 * 9998 {
        device.handle_board_move(shuffle[ply % 4], T0).unwrap();
    }
    assert_eq!(device.position().unwrap().fullmove_number(), 9999);
    assert_eq!(device.handle_board_move(shuffle[0], T0), Ok(()));
    assert_eq!(device.handle_board_move(shuffle[1], T0), Ok(()));
    assert_eq!(device.position().unwrap().fullmove_number(), 10_000);
    assert_eq!(
        device.handle_board_move(shuffle[2], T0),
        Err(CommandError::MoveLimit)
    );
    assert_eq!(device.moves().len(), 2 * 9999);
}

/// Every command line received counts, decoded or not; a line that does not
/// decode and an unknown command letter are reported (and ignored, spec note
/// *Link*: unknown commands are silently ignored); `I` is answered as real
/// devices print it (`ID. UCBII V1.09`).
#[test]
fn every_command_line_is_counted_and_bad_ones_reported() {
    let mut device = fresh();
    assert_eq!(device.commands_received(), 0);
    device.handle_input(b"I\r\nZ\r\nM e2\r\n", T0);
    assert_eq!(device.commands_received(), 3);
    assert_eq!(lines(&mut device), ["ID. UCBII V1.09"]);
    let Ok(Command::Unrecognised(z)) = decode::<Command>(b"Z") else {
        panic!()
    };
    let bad = DecodeError::new(MessageKind::MoveCommand, Field::Square, 4, Problem::Missing);
    let got = events(&mut device);
    assert_eq!(
        got,
        [
            DeviceEvent::Unrecognised(z.into_owned()),
            DeviceEvent::Malformed(FrameError::Malformed(bad)),
        ]
    );
    assert_eq!(got[0].to_string(), "unrecognised command Z");
    assert_eq!(
        got[1].to_string(),
        "bad command line: malformed frame: M command square at byte 4: missing"
    );
    // A codec's frame error: counted and reported as it came.
    let overlong = FrameError::Overlong { len: 300, max: 256 };
    device.handle_frame_error(&overlong, T0);
    assert_eq!(device.commands_received(), 4);
    assert_eq!(events(&mut device), [DeviceEvent::Malformed(overlong)]);
    // A command a codec decoded.
    device.handle_message(&Command::Identity, T0);
    assert_eq!(device.commands_received(), 5);
    assert_eq!(lines(&mut device), ["ID. UCBII V1.09"]);
    assert!(events(&mut device).is_empty());
}

/// `N`: `New Game`; a game in progress ends (no result, a new game
/// started), and the device forgets Xmit and referee mode (spec note,
/// *Known field problems*). A finished game does not end twice, and no
/// game ends before its first move.
#[test]
fn new_game_ends_the_game_in_progress_and_forgets_the_settings() {
    let start = Position::startpos();
    let mut device = fresh();
    device.handle_input(b"N\r\n", T0);
    assert_eq!(
        events(&mut device),
        [DeviceEvent::GameStarted(GameStarted { start })]
    );
    assert_eq!(lines(&mut device), ["New Game"]);

    device.handle_input(b"X ON\r\nM e2e4\r\n", T0);
    assert!(device.xmit() && !device.referee());
    assert_eq!(lines(&mut device), ["Xmit on", "M   1   e2-e4 |"]);
    device.handle_input(b"U ON\r\n", T0);
    assert!(device.referee());
    device.handle_input(b"N\r\n", T0);
    assert_eq!(
        events(&mut device),
        [
            DeviceEvent::GameEnded(GameEnded {
                outcome: Outcome::Unknown,
                reason: EndReason::NewGame,
                start,
                moves: vec![uci(&start, "e2e4")],
            }),
            DeviceEvent::GameStarted(GameStarted { start }),
        ]
    );
    assert_eq!(lines(&mut device), [".Referee on", "New Game"]);
    assert!(!device.xmit() && !device.referee());
    assert_eq!(device.position(), Some(&start));
    assert!(device.moves().is_empty());
    // The engine's reply to 1.e4 is not played any more.
    assert_eq!(device.poll_timeout(), None);

    fools_mate(&mut device);
    assert!(matches!(
        &events(&mut device)[..],
        [DeviceEvent::GameEnded(GameEnded {
            reason: EndReason::Checkmate {
                winner: Color::Black
            },
            ..
        })]
    ));
    device.handle_input(b"N\r\n", T0);
    assert_eq!(
        events(&mut device),
        [DeviceEvent::GameStarted(GameStarted { start })]
    );
}

/// `O` resets to the start position without a reply (the simulation's
/// choice: the reply is unconfirmed).
#[test]
fn origin_resets_without_a_reply() {
    let mut device = fresh();
    device.handle_input(b"M e2e4\r\n", T0);
    lines(&mut device);
    device.handle_input(b"O\r\n", T0);
    assert_eq!(lines(&mut device), Vec::<String>::new());
    assert_eq!(device.position(), Some(&Position::startpos()));
    let ev = events(&mut device);
    assert!(matches!(
        &ev[..],
        [
            DeviceEvent::GameEnded(GameEnded {
                reason: EndReason::NewGame,
                ..
            }),
            DeviceEvent::GameStarted(_)
        ]
    ));
}

/// The pieces set up in the start position: `New Game` unprompted (spec
/// note, `N`).
#[test]
fn setting_up_the_start_position_sends_new_game() {
    let mut device = fresh();
    device.handle_input(b"M e2e4\r\n", T0);
    lines(&mut device);
    device.handle_start_position_set_up(T0);
    assert_eq!(lines(&mut device), ["New Game"]);
    assert!(device.moves().is_empty());
    assert_eq!(events(&mut device).len(), 2);
}

/// After the mate the game is over: no move is played (`NoGame`, not
/// `NotYourTurn`), and it is nobody's turn, whichever side the engine has.
#[test]
fn after_the_mate_no_move_is_played() {
    for engine in [Color::White, Color::Black] {
        let config = DeviceConfig {
            engine_color: engine,
            ..DeviceConfig::default()
        };
        let mut device = Device::new(config, T0);
        fools_mate(&mut device);
        let p = *device.position().unwrap();
        let any = uci(&Position::startpos(), "e2e4");
        assert_eq!(device.send_move(any, T0), Err(CommandError::NoGame));
        assert_eq!(device.handle_board_move(any, T0), Err(CommandError::NoGame));
        assert!(!device.is_our_turn());
        assert_eq!(device.position(), Some(&p));
    }
}

/// Referee mode: the user plays both sides, so it is never the engine's
/// turn and the engine does not answer.
#[test]
fn in_referee_mode_the_engine_never_moves() {
    let mut device = fresh();
    device.handle_input(b"U ON\r\n", T0);
    board(&mut device, &["e2e4"], T0);
    assert_eq!(lines(&mut device), [".Referee on"]);
    assert_eq!(
        device.position().unwrap().side_to_move(),
        device.engine_color()
    );
    assert!(!device.is_our_turn());
    assert_eq!(device.poll_timeout(), None);
    let e7e5 = uci(device.position().unwrap(), "e7e5");
    assert_eq!(device.send_move(e7e5, T0), Err(CommandError::NotYourTurn));
    device.handle_input(b"U\r\nU OFF\r\n", T0);
    assert_eq!(lines(&mut device), [".Referee on", ".Referee off"]);
    assert!(device.is_our_turn());
    // Referee off with the engine to move: it answers after its thinking
    // time (50 ms by default).
    assert_eq!(device.poll_timeout(), Some(ms(50)));
}

/// Xmit (spec note `X`): moves made on the board go to the PC only when it
/// is on (off by default); the engine answers a board move either way.
#[test]
fn board_moves_are_sent_only_with_xmit_on() {
    let mut device = fresh();
    assert!(!device.xmit());
    board(&mut device, &["e2e4"], T0);
    assert_eq!(lines(&mut device), Vec::<String>::new());
    assert_eq!(device.poll_timeout(), Some(ms(50)));
    device.handle_timeout(ms(50));
    assert_eq!(device.moves().len(), 2);
    assert_eq!(lines(&mut device).len(), 1, "the engine's move");
    device.handle_input(b"X ON\r\nX\r\n", ms(50));
    assert!(device.xmit());
    board(&mut device, &["d2d4"], ms(50));
    assert_eq!(
        lines(&mut device),
        ["Xmit on", "Xmit on", "M   2   d2-d4 |"]
    );
    device.handle_input(b"X OFF\r\n", ms(50));
    assert!(!device.xmit());
    assert_eq!(lines(&mut device), ["Xmit off"]);
}

/// `L` shows white's then black's level (TR1 at power-on); `L CITRINE 5`
/// sets both, `L -CITRINE 3` black's only: the spec note's replies.
#[test]
fn levels_as_in_the_spec_note() {
    let mut device = fresh();
    device.handle_input(b"L\r\n", T0);
    assert_eq!(lines(&mut device), ["Level tr 1", "Level tr 1"]);
    device.handle_input(b"L CITRINE 5\r\n", T0);
    assert_eq!(lines(&mut device), ["Level sd 5", "Level sd 5"]);
    device.handle_input(b"L -CITRINE 3\r\n", T0);
    assert_eq!(lines(&mut device), ["Level sd 5", "Level sd 3"]);
}

/// `F` at the new-game position: the engine takes White (`Flip`) and moves;
/// mid-game the engine takes the side to move and the reply names the
/// user's side (`Flip --> Black`, spec note).
#[test]
fn flip_gives_the_engine_the_side_to_move() {
    let mut device = fresh();
    device.handle_input(b"F\r\n", T0);
    assert_eq!(lines(&mut device), ["Flip"]);
    assert_eq!(device.engine_color(), Color::White);
    assert!(device.is_our_turn());
    device.handle_timeout(ms(50));
    assert_eq!(device.moves().len(), 1);
    assert!(lines(&mut device)[0].starts_with("M   1   "));

    let mut device = device_after_e4_e5();
    device.handle_input(b"F\r\n", T0);
    assert_eq!(lines(&mut device), ["Flip --> Black"]);
    assert_eq!(device.engine_color(), Color::White);
    assert_eq!(device.poll_timeout(), Some(ms(50)));
}

/// 1.e4 (the host's `M`) e5 (given for the engine): nothing scheduled.
fn device_after_e4_e5() -> Device<Duration> {
    let mut device = fresh();
    device.handle_input(b"M e2e4\r\n", T0);
    let e7e5 = uci(device.position().unwrap(), "e7e5");
    device.send_move(e7e5, T0).unwrap();
    assert_eq!(lines(&mut device), ["M   1   e2-e4 |", "M   1,  e7-e5 |"]);
    assert_eq!(device.poll_timeout(), None);
    device
}

/// `J`: the engine plays for the side to move, after its thinking time.
#[test]
fn j_makes_the_engine_play_the_side_to_move() {
    let mut device = device_after_e4_e5();
    device.handle_input(b"J\r\n", T0);
    assert_eq!(device.engine_color(), Color::White);
    assert_eq!(device.poll_timeout(), Some(ms(50)));
    device.handle_timeout(ms(50));
    assert_eq!(device.moves().len(), 3);
    assert!(lines(&mut device)[0].starts_with("M   2   "));
}

/// `T` takes back the last move as the device logs it (`T   1,  e7-e5`,
/// spec note, comma = black); the engine then waits.
#[test]
fn take_back_as_the_device_prints_it() {
    let mut device = device_after_e4_e5();
    device.handle_input(b"T\r\n", T0);
    assert_eq!(lines(&mut device), ["T   1,  e7-e5"]);
    assert_eq!(device.moves().len(), 1);
    assert!(device.is_our_turn());
    assert_eq!(device.poll_timeout(), None);
    device.handle_input(b"T\r\n", T0);
    assert_eq!(lines(&mut device), ["T   1   e2-e4"]);
    assert_eq!(device.position(), Some(&Position::startpos()));
    // Nothing left to take back: no reply.
    device.handle_input(b"T\r\n", T0);
    assert_eq!(lines(&mut device), Vec::<String>::new());
}

/// A move sent again while it is the last one played is acknowledged again
/// (spec note, *Known field problems*: drivers send moves twice); another
/// illegal move is ignored.
#[test]
fn the_last_move_sent_again_is_acknowledged_again() {
    let mut device = fresh();
    device.handle_input(b"M e2e4\r\nM e2e4\r\nM e2e5\r\n", T0);
    assert_eq!(lines(&mut device), ["M   1   e2-e4 |", "M   1   e2-e4 |"]);
    assert_eq!(device.moves().len(), 1);
}

/// After the host closes the stream nothing is played, answered, counted or
/// scheduled; a game already over does not end a second time, and no game
/// ends before its first move.
#[test]
fn after_close_nothing_happens() {
    let mut device = fresh();
    device.handle_close(T0);
    assert!(events(&mut device).is_empty());
    assert_eq!((device.position(), device.start_position()), (None, None));

    let mut device = fresh();
    assert_eq!(device.start_position(), Some(&Position::startpos()));
    fools_mate(&mut device);
    events(&mut device);
    device.handle_input(b"I\r\n", T0);
    device.handle_close(ms(10));
    assert!(events(&mut device).is_empty());
    assert!(device.moves().is_empty());
    assert_eq!(lines(&mut device), Vec::<String>::new());
    let n = device.commands_received();
    let e2e4 = uci(&Position::startpos(), "e2e4");
    assert_eq!(
        device.handle_board_move(e2e4, ms(20)),
        Err(CommandError::NoGame)
    );
    assert_eq!(device.send_move(e2e4, ms(20)), Err(CommandError::NoGame));
    device.handle_input(b"N\r\n", ms(20));
    device.handle_message(&Command::NewGame, ms(20));
    device.handle_frame_error(&FrameError::Unterminated { len: 3 }, ms(20));
    device.handle_start_position_set_up(ms(20));
    device.handle_close(ms(30));
    assert_eq!(device.commands_received(), n);
    assert!(events(&mut device).is_empty());
    assert_eq!(lines(&mut device), Vec::<String>::new());
    assert_eq!(device.position(), None);
    assert!(!device.is_our_turn());
    assert_eq!(device.poll_timeout(), None);
}

/// At most `max_queued_lines` lines wait for the host: a command whose
/// answer does not fit is not answered (`Overloaded`).
#[test]
fn a_full_queue_drops_the_command() {
    let config = DeviceConfig {
        max_queued_lines: 2,
        ..DeviceConfig::default()
    };
    let mut device = Device::new(config, T0);
    device.handle_input(b"I\r\nC\r\nL\r\n", T0);
    assert_eq!(lines(&mut device).len(), 2);
    let ev = events(&mut device);
    assert_eq!(ev, [DeviceEvent::Overloaded(Command::ShowLevel)]);
}

/// `Misbehaviour::duplicate_ack_every`: every n-th acknowledgement is sent
/// twice, odd occurrences at once, even ones after the engine's reply.
#[test]
fn duplicate_acknowledgements_at_once_then_after_the_reply() {
    let config = DeviceConfig {
        misbehaviour: Misbehaviour {
            duplicate_ack_every: 2,
            ..Misbehaviour::default()
        },
        ..DeviceConfig::default()
    };
    let mut device = Device::new(config, T0);
    // 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 (the engine's moves given).
    let mut out = Vec::new();
    for (host, engine) in [("e2e4", "e7e5"), ("g1f3", "b8c6"), ("f1b5", "a7a6")] {
        device.handle_input(format!("M {host}\r\n").as_bytes(), T0);
        let mv = uci(device.position().unwrap(), engine);
        device.send_move(mv, T0).unwrap();
        out.extend(lines(&mut device));
    }
    assert_eq!(
        out,
        [
            "M   1   e2-e4 |",
            "M   1,  e7-e5 |",
            "M   2   g1-f3 |",
            "M   2   g1-f3 |",
            "M   2,  b8-c6 |",
            "M   3   f1-b5 |",
            "M   3,  a7-a6 |",
        ]
    );
    device.handle_input(b"M b5a4\r\n", T0);
    assert_eq!(lines(&mut device), ["M   4   b5-a4 |"]);
    device.handle_timeout(ms(50));
    let out = lines(&mut device);
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("M   4,  "), "{out:?}");
    assert_eq!(out[1], "M   4   b5-a4 |");
}

/// `Misbehaviour::truncate_every`: every n-th move line is cut to its first
/// half (of the bytes before CR LF).
#[test]
fn every_second_move_line_cut_in_half() {
    let config = DeviceConfig {
        misbehaviour: Misbehaviour {
            truncate_every: 2,
            ..Misbehaviour::default()
        },
        ..DeviceConfig::default()
    };
    let mut device = Device::new(config, T0);
    device.handle_input(b"M e2e4\r\n", T0);
    let e7e5 = uci(device.position().unwrap(), "e7e5");
    device.send_move(e7e5, T0).unwrap();
    device.handle_input(b"M g1f3\r\n", T0);
    // `M   1,  e7-e5 |` is 15 bytes: 7 kept.
    assert_eq!(
        lines(&mut device),
        ["M   1   e2-e4 |", "M   1, ", "M   2   g1-f3 |"]
    );
}

/// `Misbehaviour::new_game_at_ply`: once, when the game has that many
/// plies, `New Game` unprompted (after the engine's thinking time).
#[test]
fn an_unprompted_new_game_once() {
    let config = DeviceConfig {
        misbehaviour: Misbehaviour {
            new_game_at_ply: Some(2),
            ..Misbehaviour::default()
        },
        ..DeviceConfig::default()
    };
    let mut device = Device::new(config, T0);
    device.handle_input(b"M e2e4\r\n", T0);
    device.handle_timeout(ms(50));
    assert_eq!(device.moves().len(), 2);
    assert_eq!(lines(&mut device).len(), 2);
    assert_eq!(device.poll_timeout(), Some(ms(100)));
    device.handle_timeout(ms(100));
    assert_eq!(lines(&mut device), ["New Game"]);
    assert!(device.moves().is_empty());
    // Once only.
    device.handle_input(b"M e2e4\r\n", ms(100));
    device.handle_timeout(ms(150));
    assert_eq!(device.moves().len(), 2);
    assert_eq!(lines(&mut device).len(), 2);
    assert_eq!(device.poll_timeout(), None);
}

/// `Misbehaviour::out_of_turn_at_ply`: once, at the host's turn, the device
/// plays the host's side at once; the engine then waits, through queries,
/// until a command that changes the game (`T` here).
#[test]
fn an_out_of_turn_move_once_then_the_engine_waits() {
    let config = DeviceConfig {
        misbehaviour: Misbehaviour {
            out_of_turn_at_ply: Some(2),
            ..Misbehaviour::default()
        },
        ..DeviceConfig::default()
    };
    let mut device = Device::new(config, T0);
    device.handle_input(b"M e2e4\r\n", T0);
    assert_eq!(lines(&mut device), ["M   1   e2-e4 |"]);
    assert_eq!(device.poll_timeout(), Some(ms(50)));
    device.handle_timeout(ms(50));
    assert_eq!(
        device.moves().len(),
        3,
        "the engine's reply and White's move"
    );
    let out = lines(&mut device);
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("M   1,  "), "{out:?}");
    assert!(out[1].starts_with("M   2   "), "{out:?}");
    assert_eq!(device.poll_timeout(), None);
    // Queries do not wake the engine.
    device.handle_input(b"I\r\nC\r\nG\r\nL\r\nX\r\nU\r\nP\r\n", ms(60));
    assert!(!lines(&mut device).is_empty());
    assert_eq!(device.poll_timeout(), None);
    // An `M` does, even one the device ignores (illegal).
    device.handle_input(b"M e2e5\r\n", ms(70));
    assert_eq!(lines(&mut device), Vec::<String>::new());
    assert_eq!(device.poll_timeout(), Some(ms(120)));
    device.handle_timeout(ms(120));
    assert_eq!(device.moves().len(), 4);
    assert!(lines(&mut device)[0].starts_with("M   2,  "));
    // Once only: White's turn again, no second out-of-turn move.
    assert_eq!(device.poll_timeout(), None);
}

/// `T` after the out-of-turn move takes it back (the host's resync); the
/// engine, to move again, waits for the host (spec note: hosts resync).
#[test]
fn the_out_of_turn_move_taken_back() {
    let config = DeviceConfig {
        misbehaviour: Misbehaviour {
            out_of_turn_at_ply: Some(2),
            ..Misbehaviour::default()
        },
        ..DeviceConfig::default()
    };
    let mut device = Device::new(config, T0);
    device.handle_input(b"M e2e4\r\n", T0);
    device.handle_timeout(ms(50));
    assert_eq!(lines(&mut device).len(), 3);
    device.handle_input(b"T\r\n", ms(70));
    let out = lines(&mut device);
    assert!(out[0].starts_with("T   2   "), "{out:?}");
    assert_eq!(device.moves().len(), 2);
    assert_eq!(device.poll_timeout(), None);
}
