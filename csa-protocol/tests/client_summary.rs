//! The client session and what a `Game_Summary` may hold, as real servers
//! send it when a game is resumed: a position that cannot be played is refused with
//! `REJECT`, the Position block's move times are charged, `T2.` decodes,
//! and in CSA mode the session can log out after the game.

use std::time::Duration;

use board_core::shogi::{CsaPositionErrorKind, IllegalReason, PieceKind, SetupError};
use csa_protocol::convert::IllegalMove;
use csa_protocol::decode::decode;
use csa_protocol::error::{Expected, Field, Problem};
use csa_protocol::message::{GameSummary, ServerMessage, ServerSpecial};
use csa_protocol::session::{Client, ClientConfig, ClientState, Event};
use csa_protocol::types::{MoveTime, Password, Side, UserName};

const T0: Duration = Duration::ZERO;

/// A plain CSA mode client, logged in.
fn client(x1: bool) -> Client<Duration> {
    let mut config = ClientConfig::new(
        UserName::new("alice".to_string()).unwrap(),
        Password::new("g-60-0".to_string()).unwrap(),
    );
    config.x1 = x1;
    let mut c = Client::new(config, T0);
    while c.poll_transmit().is_some() {}
    c.handle_input(b"LOGIN:alice OK\n", T0);
    if x1 {
        c.handle_input(b"##[LOGIN] +OK x1\n", T0);
    }
    while c.poll_event().is_some() {}
    c
}

/// A `Game_Summary` for alice (`Your_Turn:+`), 60 s each, with `position`
/// as its Position block body.
fn summary(position: &str) -> String {
    format!(
        "BEGIN Game_Summary\nProtocol_Version:1.2\nGame_ID:g1\nName+:alice\nName-:bob\n\
Your_Turn:+\nTo_Move:+\nBEGIN Time\nTime_Unit:1sec\nTotal_Time:60\nByoyomi:0\nEND Time\n\
BEGIN Position\n{position}END Position\nEND Game_Summary\n"
    )
}

fn sent(c: &mut Client<Duration>) -> String {
    let mut out = Vec::new();
    while let Some(t) = c.poll_transmit() {
        out.extend_from_slice(t.as_bytes());
    }
    String::from_utf8(out).unwrap()
}

fn events(c: &mut Client<Duration>) -> Vec<Event> {
    std::iter::from_fn(|| c.poll_event()).collect()
}

#[test]
fn an_impossible_position_is_rejected() {
    // Two sente pawns on file 7 (7g and 7f; gote has one pawn fewer so the
    // count is 18): nifu, which spec/csa.md, *Server-side legality*,
    // forbids.
    let position = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n\
P3-FU-FU * -FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \n\
P6 *  * +FU *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \n\
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n";
    for x1 in [false, true] {
        let mut c = client(x1);
        c.handle_input(summary(position).as_bytes(), T0);
        let ev = events(&mut c);
        assert!(matches!(ev[0], Event::GameSummary(_)), "{ev:?}");
        let Event::BadStartPosition(e) = &ev[1] else {
            panic!("{ev:?}");
        };
        assert_eq!(
            e.kind,
            CsaPositionErrorKind::Setup(SetupError::Nifu {
                color: board_core::shogi::Color::Black,
                file: 7
            })
        );
        assert!(ev[1].to_string().contains("game rejected"), "{}", ev[1]);
        assert_eq!(sent(&mut c), "REJECT g1\n");
        assert_eq!(c.position(), None);
        assert!(c.agree(T0).is_err(), "no AGREE to a game we cannot play");
        assert!(sent(&mut c).is_empty());
        // The server's answer (spec/csa.md, *Agreement -> game*).
        c.handle_input(b"REJECT:g1 by alice\n", T0);
        assert!(
            matches!(&events(&mut c)[..], [Event::Rejected { by, .. }] if by.as_str() == "alice")
        );
        let back = if x1 {
            ClientState::Connected
        } else {
            ClientState::GameWaiting
        };
        assert_eq!(c.state(), back);
    }
}

#[test]
fn an_illegal_move_in_the_position_block_is_rejected() {
    // A resumed game's Position block must be playable: `+0055HI` drops a
    // rook sente does not hold.
    let mut c = client(false);
    c.handle_input(
        summary("PI\n+\n+7776FU,T1\n-3334FU,T1\n+0055HI,T1\n").as_bytes(),
        T0,
    );
    let ev = events(&mut c);
    assert!(matches!(ev[0], Event::GameSummary(_)), "{ev:?}");
    assert_eq!(
        ev[1],
        Event::BadPositionMove {
            number: 3,
            mv: "+0055HI".parse().unwrap(),
            reason: IllegalMove(IllegalReason::NotInHand {
                kind: PieceKind::Rook
            }),
        }
    );
    assert_eq!(sent(&mut c), "REJECT g1\n");
    assert_eq!(c.position(), None);
    assert!(c.moves().is_empty());
    assert!(c.agree(T0).is_err());
}

#[test]
fn position_block_times_are_charged_to_the_clocks() {
    // A resumed game's clocks: 60 s each, sente used 20 s and gote 10 s before the game
    // was resumed: 40 and 50 s remain (not 60 and 60).
    let mut c = client(false);
    c.handle_input(summary("PI\n+\n+7776FU,T20\n-3334FU,T10\n").as_bytes(), T0);
    assert!(
        !events(&mut c)
            .iter()
            .any(|e| matches!(e, Event::BadPositionMove { .. }))
    );
    assert_eq!(c.moves().len(), 2);
    assert_eq!(c.remaining(Side::Black), Some(Duration::from_secs(40)));
    assert_eq!(c.remaining(Side::White), Some(Duration::from_secs(50)));
    c.agree(T0).unwrap();
    assert_eq!(sent(&mut c), "AGREE g1\n");
    c.handle_input(b"START:g1\n", T0);
    let ev = events(&mut c);
    assert!(
        ev.contains(&Event::OurTurn {
            remaining: Some(Duration::from_secs(40)),
            byoyomi: Duration::ZERO
        }),
        "{ev:?}"
    );
}

#[test]
fn a_time_with_a_trailing_dot_decodes() {
    // `T2.` is a V3 decimal with nothing after the dot
    // (ShogiHome accepts `T3.`): 2 seconds.
    assert_eq!(
        decode::<ServerMessage>(b"+7776FU,T2.").unwrap(),
        ServerMessage::Move {
            mv: "+7776FU".parse().unwrap(),
            time: Some(MoveTime::from_secs(2)),
        }
    );
    assert_eq!(
        decode::<ServerMessage>(b"%TORYO,T3.").unwrap(),
        ServerMessage::Special {
            special: ServerSpecial::Toryo,
            time: Some(MoveTime::from_secs(3)),
        }
    );
    // spec/csa.md, *Moves*: `T1.5` is 1.5 s.
    assert_eq!(
        decode::<ServerMessage>(b"-3334FU,T1.5").unwrap(),
        ServerMessage::Move {
            mv: "-3334FU".parse().unwrap(),
            time: Some(MoveTime::from_millis(1500)),
        }
    );
    // Still errors, at the bad byte: a dot alone, a second dot.
    for (line, offset, byte) in [
        (&b"+7776FU,T."[..], 9, b'.'),
        (b"+7776FU,T2.5.", 12, b'.'),
        (b"+7776FU,T2x.", 10, b'x'),
    ] {
        let e = decode::<ServerMessage>(line).unwrap_err();
        assert_eq!(
            (e.field, e.offset, e.problem),
            (
                Field::Time,
                offset,
                Problem::Invalid {
                    byte,
                    expected: Expected::Digit
                }
            ),
            "{e}"
        );
    }
    // In a Game_Summary Position block, and charged.
    let s = GameSummary::parse(summary("PI\n+\n+7776FU,T2.\n").as_bytes()).unwrap();
    assert_eq!(
        s.position.unwrap().moves,
        [("+7776FU".parse().unwrap(), Some(MoveTime::from_secs(2)))]
    );
    let mut c = client(false);
    c.handle_input(summary("PI\n+\n+7776FU,T2.\n").as_bytes(), T0);
    assert_eq!(c.remaining(Side::Black), Some(Duration::from_secs(58)));
}

#[test]
fn csa_mode_can_log_out_after_the_game() {
    // shogi-server keeps a CSA-mode winner's connection
    // open (it reads on until its 60 s timeout); the CSA protocol has the
    // client back in game_waiting, where LOGOUT is allowed.
    let mut c = client(false);
    c.handle_input(summary("PI\n+\n").as_bytes(), T0);
    c.agree(T0).unwrap();
    c.handle_input(b"START:g1\n", T0);
    c.handle_input(b"%TORYO\n#RESIGN\n#WIN\n", T0);
    assert!(events(&mut c).iter().any(
        |e| matches!(e, Event::GameEnded(g) if g.outcome == csa_protocol::session::Outcome::Won)
    ));
    assert_eq!(c.state(), ClientState::GameWaiting);
    sent(&mut c);
    c.logout(T0).unwrap();
    assert_eq!(sent(&mut c), "LOGOUT\n");
    // shogi-server closes without LOGOUT:completed; nothing more happens.
    c.handle_close(T0);
    assert_eq!(c.state(), ClientState::Disconnected);
    assert!(events(&mut c).is_empty());
}

#[test]
fn logout_is_sent_once_while_its_reply_is_pending() {
    // spec/csa.md: `LOGOUT` is answered `LOGOUT:completed`; asking
    // again before the reply puts no second LOGOUT on the wire.
    let mut c = client(true);
    c.logout(T0).unwrap();
    c.logout(T0).unwrap();
    assert_eq!(sent(&mut c), "LOGOUT\n");
    c.handle_input(b"LOGOUT:completed\n", T0);
    assert_eq!(c.state(), ClientState::Disconnected);
    assert!(c.logout(T0).is_err());
    assert_eq!(sent(&mut c), "");
}
