//! The one-shape API of the draughts module: `check_move` / `PlayError`
//! reasons, lowercase colours, `startpos` text, `has_legal_move`. Expected
//! reasons follow from the FMJD rules (art. 3-4: men step diagonally
//! forward, kings fly, capturing is compulsory, the majority rule).

use board_core::draughts::{Color, IllegalReason, Move, PieceKind, Position, Square, SquareSet};

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

/// The legal move `text` of the position `fen` (a move to try elsewhere).
fn mv(fen: &str, text: &str) -> Move {
    pos(fen)
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{fen} {text}: {e}"))
}

#[test]
fn reasons_for_hand_picked_moves() {
    let start = Position::startpos();
    let cases: Vec<(Position, Move, IllegalReason)> = vec![
        (
            start,
            mv("W:W28:B", "28-23"),
            IllegalReason::NoPiece { square: sq(28) },
        ),
        (
            start,
            mv("B:W:B16", "16-21"),
            IllegalReason::OpponentPiece {
                square: sq(16),
                owner: Color::Black,
            },
        ),
        (
            start,
            mv("W:W37:B", "37-31"),
            IllegalReason::Occupied { square: sq(31) },
        ),
        (
            pos("W:W28:B"),
            mv("W:WK28:B", "28-33"),
            IllegalReason::ManBackwards {
                from: sq(28),
                to: sq(33),
            },
        ),
        (
            pos("W:W28:B"),
            mv("W:WK28:B", "28-17"),
            IllegalReason::Unreachable {
                kind: PieceKind::Man,
                from: sq(28),
                to: sq(17),
            },
        ),
        (
            pos("W:WK46,28:B"),
            mv("W:WK46:B", "46-5"),
            IllegalReason::Blocked {
                from: sq(46),
                to: sq(5),
                blocker: sq(28),
            },
        ),
        // Majority rule: the king takes 37, 28 and 19; the man's single
        // capture 33x22 is not enough.
        (
            pos("W:W33,K46:B28,37,19"),
            mv("W:W33:B28", "33x22"),
            IllegalReason::TooFewCaptured { taken: 1, max: 3 },
        ),
        (
            pos("W:W33,K46:B28,37,19"),
            mv("W:W33:B", "33-29"),
            IllegalReason::CaptureRequired {
                from: sq(33),
                to: sq(29),
                capture_here: false,
                capturer: sq(46),
                max: 3,
            },
        ),
        (
            pos("W:W33,K46:B28,37,19"),
            mv("W:W33:B29", "33x24"),
            IllegalReason::NotOpponentPiece { square: sq(29) },
        ),
        (
            pos("W:W33,K46:B28,37,19"),
            mv("W:WK46:B37", "46x14"),
            IllegalReason::NoCapturePath {
                kind: PieceKind::King,
                from: sq(46),
                to: sq(14),
                captures: SquareSet::from_square(sq(37)),
            },
        ),
    ];
    for (p, m, reason) in cases {
        assert_eq!(p.check_move(m), Err(reason), "{p} {m}");
        let err = p.play(m).unwrap_err();
        assert_eq!((err.position, err.mv, err.reason), (p, m, reason));
    }
}

#[test]
fn compulsory_capture_names_the_capturer_and_the_pdn_hint() {
    // After 32-28 19-23 White must take 28x19 (one piece).
    let p = Position::startpos();
    let p = p.play(p.parse_move("32-28").unwrap()).unwrap();
    let p = p.play(p.parse_move("19-23").unwrap()).unwrap();
    let quiet = mv("W:W33:B", "33-29");
    let err = p.play(quiet).unwrap_err();
    assert_eq!(
        err.reason,
        IllegalReason::CaptureRequired {
            from: sq(33),
            to: sq(29),
            capture_here: false,
            capturer: sq(28),
            max: 1
        }
    );
    assert_eq!(
        err.to_string(),
        "illegal move 33-29: a capture is compulsory: the piece on 28 can take 1"
    );
    // 28-19 as a quiet (king-like) move: the capture 28x19 is legal, and the
    // message says how to write it, as the PDN text error does.
    let err = p.play(mv("W:WK28:B", "28-19")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal move 28-19: a capture is compulsory: the piece on 28 can take 1 (write it 28x19)"
    );
    assert_eq!(
        p.parse_move("28-19").unwrap_err().to_string(),
        "28-19: a capture is compulsory (write it 28x19)"
    );
    let err = pos("W:W33,K46:B28,37,19")
        .play(mv("W:W33:B28", "33x22"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal move 33x22: the capture takes 1 but 3 must be taken (majority rule)"
    );
}

/// Positions along pseudo-random games from the start and some set-ups.
fn positions() -> Vec<Position> {
    let mut out = vec![
        pos("W:W33,K46:B28,37,19"),
        pos("W:WK8:B22,27,12,10"),
        pos("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"),
        pos("W:WK46:B37,28,18,29"),
        pos("W:W32:B27,17,18,28"),
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for game in 0..40 {
        let mut p = if game % 5 == 0 {
            out[game / 5 % 5]
        } else {
            Position::startpos()
        };
        for _ in 0..120 {
            out.push(p);
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            p.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
        }
    }
    out
}

#[test]
fn check_move_is_ok_exactly_for_the_legal_moves() {
    let all = positions();
    let mut foreign: Vec<Move> = Vec::new();
    for p in all.iter().step_by(7) {
        foreign.extend(p.legal_moves().iter().copied());
    }
    foreign.sort();
    foreign.dedup();
    let (mut ok, mut refused) = (0u64, 0u64);
    for p in &all {
        let legal = p.legal_moves();
        for &m in legal.iter() {
            assert_eq!(p.check_move(m), Ok(()), "{p} {m}");
        }
        for &m in &foreign {
            let r = p.check_move(m);
            assert_eq!(r.is_err(), !p.is_legal(m), "{p} {m:?}");
            assert_eq!(r.is_ok(), legal.contains(&m), "{p} {m:?}");
            match r {
                Ok(()) => ok += 1,
                Err(reason) => {
                    refused += 1;
                    assert_eq!(p.play(m).map_err(|e| e.reason), Err(reason));
                }
            }
        }
        assert_eq!(p.has_legal_move(), !legal.is_empty(), "{p}");
    }
    assert!(ok > 0 && refused > 0);
}

#[test]
fn colours_print_lowercase() {
    assert_eq!(Color::White.to_string(), "white");
    assert_eq!(Color::Black.to_string(), "black");
}

#[test]
fn startpos_text_and_has_legal_move() {
    assert_eq!("startpos".parse::<Position>(), Ok(Position::startpos()));
    assert_eq!(
        " \tstartpos\r\n".parse::<Position>(),
        Ok(Position::startpos())
    );
    assert!("startpos2".parse::<Position>().is_err());
    assert!(Position::startpos().has_legal_move());
    // No pieces: White loses (FMJD art. 7: unable to move).
    assert!(!pos("W:W:B1").has_legal_move());
    // The man on 46 is blocked by 41, and 37 behind it is taken: no move.
    assert!(!pos("W:W46:B41,37").has_legal_move());
}
