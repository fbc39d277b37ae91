//! Rules, notation and error known-answer tests. Expected move sets follow
//! from the rules (spec/damexchange.md, *Board conventions users
//! expect*; FMJD art. 3-4) and were confirmed with dame-rs
//! 0.2.0 and pydraughts 0.6.7 (which lists a windmill's two paths twice).

use core::ops::ControlFlow;

use board_core::draughts::{
    Color, IllegalMoveError, MAX_MOVES, Move, MoveTextError, Outcome, ParseFenError,
    ParseMoveError, PdnMove, Piece, PieceKind, Position, Setup, SetupError, Square, SquareSet,
};

mod common;

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

fn set(ns: &[u8]) -> SquareSet {
    ns.iter().map(|&n| sq(n)).collect()
}

/// The legal moves as sorted (from, to, sorted captured squares).
fn triples(p: &Position) -> Vec<(u8, u8, Vec<u8>)> {
    let mut v: Vec<_> = p
        .legal_moves()
        .iter()
        .map(|m| {
            (
                m.from().number(),
                m.to().number(),
                m.captures().iter().map(Square::number).collect(),
            )
        })
        .collect();
    v.sort();
    v
}

fn t(from: u8, to: u8, caps: &[u8]) -> (u8, u8, Vec<u8>) {
    (from, to, caps.to_vec())
}

#[test]
fn start_position() {
    let p = Position::startpos();
    assert_eq!(p, pos("W:W31-50:B1-20"));
    assert_eq!(p.side_to_move(), Color::White);
    let quiet = |f, to| t(f, to, &[]);
    assert_eq!(
        triples(&p),
        vec![
            quiet(31, 26),
            quiet(31, 27),
            quiet(32, 27),
            quiet(32, 28),
            quiet(33, 28),
            quiet(33, 29),
            quiet(34, 29),
            quiet(34, 30),
            quiet(35, 30)
        ]
    );
    assert_eq!(
        p.piece_at(sq(1)),
        Some(Piece {
            color: Color::Black,
            kind: PieceKind::Man
        })
    );
    assert_eq!(p.piece_at(sq(25)), None);
}

#[test]
fn majority_capture_wins_over_the_man() {
    // The man on 33 could take 28, but the king on 46 takes 37, 28 and 19.
    let p = pos("W:W33,K46:B28,37,19");
    let caps = [19, 28, 37];
    assert_eq!(
        triples(&p),
        vec![t(46, 5, &caps), t(46, 10, &caps), t(46, 14, &caps)]
    );
    assert!(p.must_capture());
}

#[test]
fn man_round_trip_is_one_move() {
    // 32x21x12x23x32 and 32x23x12x21x32: same (from, to, captured set).
    let p = pos("W:W32:B27,17,18,28");
    assert_eq!(triples(&p), vec![t(32, 32, &[17, 18, 27, 28])]);
    let next = p.play(p.legal_moves()[0]).unwrap();
    assert_eq!(next.to_string(), "B:W32:B");
    assert_eq!(
        next.outcome(),
        Some(Outcome::Win {
            winner: Color::White
        })
    );
}

#[test]
fn man_passing_the_far_row_does_not_promote() {
    // 13x4x15: lands on 4 (promotion row) in the middle of the capture.
    let p = pos("W:W13:B9,10");
    assert_eq!(triples(&p), vec![t(13, 15, &[9, 10])]);
    let next = p.play(p.legal_moves()[0]).unwrap();
    assert_eq!(next.piece_at(sq(15)).unwrap().kind, PieceKind::Man);
    // Ending on the far row promotes.
    let p = pos("W:W13:B9");
    let next = p.play(p.legal_moves()[0]).unwrap();
    assert_eq!(next.to_string(), "B:WK4:B");
    // Black promotes on 46..=50.
    let p = pos("B:W31:B41");
    let next = p.play(p.parse_move("41-46").unwrap()).unwrap();
    assert_eq!(next.piece_at(sq(46)).unwrap().kind, PieceKind::King);
}

#[test]
fn flying_king_captures_at_a_distance_and_chooses_the_landing() {
    // Pieces stay on the board until the capture ends (they block).
    let p = pos("W:WK46:B37,28,18,29");
    assert_eq!(
        triples(&p),
        vec![
            t(46, 1, &[18, 28, 37]),
            t(46, 7, &[18, 28, 37]),
            t(46, 12, &[18, 28, 37]),
            t(46, 34, &[28, 29, 37]),
            t(46, 40, &[28, 29, 37]),
            t(46, 45, &[28, 29, 37])
        ]
    );
}

#[test]
fn fourteen_piece_capture_from_the_vectors() {
    // Vectors file line 2, D1 = 14: every move takes 14 pieces.
    let p = pos("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46");
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 14);
    assert!(
        moves
            .iter()
            .all(|m| m.captures().len() == 14 && m.from() == sq(24))
    );
}

#[test]
fn same_from_to_different_captures_are_different_moves() {
    let p = pos("W:WK8:B22,27,12,10");
    assert_eq!(
        triples(&p),
        vec![t(8, 5, &[10, 12, 22]), t(8, 5, &[10, 12, 27])]
    );
    // The short form is ambiguous: an error listing both candidates.
    match p.parse_move("8x5") {
        Err(MoveTextError::Illegal(IllegalMoveError::Ambiguous {
            count, candidates, ..
        })) => {
            assert_eq!(count, 2);
            let mut sets: Vec<SquareSet> = candidates[..2].iter().map(|m| m.captures()).collect();
            sets.sort();
            assert_eq!(sets, vec![set(&[10, 12, 22]), set(&[10, 12, 27])]);
        }
        other => panic!("{other:?}"),
    }
    let msg = p.parse_move("8x5").unwrap_err().to_string();
    assert!(
        msg.contains("10,12,22") && msg.contains("10,12,27"),
        "{msg}"
    );
    // The notation of each move is the landing-square form, and it reads back.
    for &mv in p.legal_moves().iter() {
        let text = p.move_text(mv).to_string();
        assert!(text.matches('x').count() == 3, "{text}");
        assert_eq!(p.parse_move(&text), Ok(mv), "{text}");
        assert_eq!(p.capture_path(mv).unwrap().squares().count(), 4);
    }
}

#[test]
fn pdn_move_text() {
    let p = Position::startpos();
    let mv = p.parse_move("32-28").unwrap();
    assert_eq!(
        (mv.from(), mv.to(), mv.is_capture()),
        (sq(32), sq(28), false)
    );
    assert_eq!(p.move_text(mv).to_string(), "32-28");
    assert_eq!(
        p.parse_move("32-29"),
        Err(MoveTextError::Illegal(IllegalMoveError::NoSuchMove {
            from: sq(32),
            to: sq(29),
            capture: false
        }))
    );
    // After 32-28 19-23, White must take: 28x19.
    let p = p.play(mv).unwrap();
    let p = p.play(p.parse_move("19-23").unwrap()).unwrap();
    assert_eq!(
        p.parse_move("33-29"),
        Err(MoveTextError::Illegal(IllegalMoveError::CaptureRequired {
            from: sq(33),
            to: sq(29),
            capture_here: false,
        }))
    );
    // The capture itself written with `-`: the error says how to write it.
    let e = p.parse_move("28-19").unwrap_err();
    assert_eq!(
        e,
        MoveTextError::Illegal(IllegalMoveError::CaptureRequired {
            from: sq(28),
            to: sq(19),
            capture_here: true,
        })
    );
    assert_eq!(
        e.to_string(),
        "28-19: a capture is compulsory (write it 28x19)"
    );
    let mv = p.parse_move("28x19").unwrap();
    assert_eq!(mv.captures(), set(&[23]));
    // Two captures join 4 and 16 (worked by hand: 4x13x2x16 takes 9, 8, 11
    // and 4x18x7x16 takes 9, 12, 11): `4-16` gets no `(write it 4x16)`
    // hint, which would be ambiguous too, but the two candidates.
    let k = pos("W:WK4,29,32,33,41,44,46,47,48:B5,8,9,11,12,17");
    for text in ["4-16", "4x16"] {
        match k.parse_move(text) {
            Err(MoveTextError::Illegal(IllegalMoveError::Ambiguous {
                from,
                to,
                count: 2,
                candidates,
            })) => {
                assert_eq!((from, to), (sq(4), sq(16)));
                let mut sets = [candidates[0].captures(), candidates[1].captures()];
                sets.sort_by_key(|s| s.iter().map(|q| q.number()).min());
                assert_eq!(sets, [set(&[8, 9, 11]), set(&[9, 11, 12])], "{text}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    assert_eq!(p.move_text(mv).to_string(), "28x19");
    // Long form of a two-piece capture; wrong landing squares are refused.
    let p = pos("W:W28:B23,14");
    assert_eq!(p.parse_move("28x10").unwrap().captures(), set(&[14, 23]));
    assert_eq!(p.parse_move("28x19x10"), p.parse_move("28x10"));
    assert!(matches!(
        p.parse_move("28x17x10"),
        Err(MoveTextError::Illegal(IllegalMoveError::NoSuchPath {
            step: 1,
            ..
        }))
    ));
    assert!(matches!(
        p.parse_move("28x19"),
        Err(MoveTextError::Illegal(IllegalMoveError::NoSuchMove { .. }))
    ));
}

#[test]
fn pdn_move_syntax_errors() {
    use ParseMoveError::{
        Empty, ExpectedSquare, InvalidSeparator, MissingDestination, QuietMoveTooLong,
        SquareOutOfRange, TooManySquares,
    };
    let e = |s: &str| s.parse::<PdnMove>().unwrap_err();
    let long = std::iter::repeat_n("1", 60).collect::<Vec<_>>().join("x");
    #[rustfmt::skip]
    let cases = [
        ("", Empty),
        // "32" is two bytes: the separator was expected at byte 2.
        ("32", MissingDestination { offset: 2 }),
        (" 32 ", MissingDestination { offset: 3 }),
        ("32-", ExpectedSquare { offset: 3 }),
        ("32-51", SquareOutOfRange { number: 51, offset: 3 }),
        ("0-5", SquareOutOfRange { number: 0, offset: 0 }),
        ("32-28x19", InvalidSeparator { offset: 5 }),
        ("32/28", InvalidSeparator { offset: 2 }),
        ("32-28-23", QuietMoveTooLong { offset: 6 }),
        ("a-b", ExpectedSquare { offset: 0 }),
        (&long, TooManySquares { offset: 102 }),
    ];
    for (text, want) in cases {
        assert_eq!(e(text), want, "{text:?}");
    }
    assert_eq!(" 32-28 ".parse::<PdnMove>().unwrap().to_string(), "32-28");
    assert_eq!(e(" 32-51").offset(), Some(4));
    assert_eq!(
        e("32-28x19").to_string(),
        "PDN move at byte 5: expected '-' or 'x'"
    );
    assert!(
        Position::startpos().parse_move("3x").unwrap_err()
            == MoveTextError::Syntax(ParseMoveError::ExpectedSquare { offset: 2 })
    );
}

#[test]
fn fen_forms() {
    let a = pos("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46");
    assert_eq!(
        a.to_string(),
        "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24"
    );
    assert_eq!(pos(&a.to_string()), a);
    assert_eq!(pos("W:B1-20:W31-50"), Position::startpos());
    assert_eq!(pos("W:W31-50:B1-20:H0:F1"), Position::startpos());
    assert_eq!(pos("  W:W31-50:B1-20\n"), Position::startpos());
    assert_eq!(pos("W:WK1-3,K50:B"), pos("W:WK1,K2,K3,K50:B"));
    assert_eq!(pos("W:W:B").to_string(), "W:W:B");
    assert_eq!(
        pos("W:W:B").outcome(),
        Some(Outcome::Win {
            winner: Color::Black
        })
    );
}

#[test]
fn fen_errors_name_problem_and_offset() {
    let e = |s: &str| s.parse::<Position>().unwrap_err();
    assert_eq!(e(""), ParseFenError::Empty);
    assert_eq!(e("X:W31:B1"), ParseFenError::InvalidSide { offset: 0 });
    assert_eq!(e("W;W31:B1"), ParseFenError::ExpectedColon { offset: 1 });
    assert_eq!(e("W:W31:Q1"), ParseFenError::InvalidSection { offset: 6 });
    assert_eq!(
        e("W:W31:W32:B1"),
        ParseFenError::DuplicateColor {
            color: Color::White,
            offset: 6
        }
    );
    assert_eq!(
        e("W:W31"),
        ParseFenError::MissingColor {
            color: Color::Black,
            offset: 5
        }
    );
    assert_eq!(
        e("W:W31,x:B1"),
        ParseFenError::InvalidToken {
            section: Color::White,
            offset: 6
        }
    );
    assert_eq!(
        e("W:W31,:B1"),
        ParseFenError::InvalidToken {
            section: Color::White,
            offset: 6
        }
    );
    assert_eq!(
        e("W:W31;32:B1"),
        ParseFenError::InvalidToken {
            section: Color::White,
            offset: 5
        }
    );
    assert_eq!(
        e("W:W51:B1"),
        ParseFenError::SquareOutOfRange {
            number: 51,
            section: Color::White,
            offset: 3
        }
    );
    assert_eq!(
        e("W:W0:B1"),
        ParseFenError::SquareOutOfRange {
            number: 0,
            section: Color::White,
            offset: 3
        }
    );
    assert_eq!(
        e("W:W99999999:B1"),
        ParseFenError::SquareOutOfRange {
            number: u16::MAX,
            section: Color::White,
            offset: 3
        }
    );
    assert_eq!(
        e("W:W40-31:B1"),
        ParseFenError::InvalidRange {
            start: 40,
            end: 31,
            section: Color::White,
            offset: 3
        }
    );
    assert_eq!(
        e("W:W31,32:B32"),
        ParseFenError::DuplicateSquare {
            square: sq(32),
            section: Color::Black,
            offset: 10
        }
    );
    assert_eq!(
        e("W:W31,3:B1"),
        ParseFenError::ManOnPromotionRow {
            square: sq(3),
            color: Color::White,
            offset: 6
        }
    );
    assert_eq!(
        e("W:W31:B46"),
        ParseFenError::ManOnPromotionRow {
            square: sq(46),
            color: Color::Black,
            offset: 7
        }
    );
    assert_eq!(e("W:W31:B1:H"), ParseFenError::InvalidCounter { offset: 9 });
    assert_eq!(
        e("W:W31:B1:H1:H2"),
        ParseFenError::InvalidCounter { offset: 12 }
    );
    assert_eq!(
        e("W:W31:B1:F1x"),
        ParseFenError::InvalidCounter { offset: 9 }
    );
    assert_eq!(
        e("W:W51:B1").to_string(),
        "PDN FEN white pieces at byte 3: square 51 out of range 1..=50"
    );
    assert_eq!(e("W:W51:B1").section(), Some(Color::White));
    assert_eq!(e("W:W31:B46").section(), Some(Color::Black));
    assert_eq!(e("W;W31:B1").section(), None);
    assert_eq!(
        e("W:W31,3:B1").to_string(),
        "PDN FEN white pieces at byte 6: man on square 3, its own promotion row"
    );
    assert_eq!(
        e("W:W31:W32:B1").to_string(),
        "PDN FEN at byte 6: white's pieces listed twice"
    );
    // Leading whitespace counts: the offset is into the text as given.
    assert_eq!(e("  X:W31:B1"), ParseFenError::InvalidSide { offset: 2 });
    assert_eq!(e("  X:W31:B1").offset(), Some(2));
    assert_eq!(e("").offset(), None);
}

#[test]
fn setup_from_pieces() {
    let setup = Position::startpos().to_setup();
    assert_eq!(Position::from_setup(&setup), Ok(Position::startpos()));
    let mut bad = Setup::empty();
    bad.board[47] = Some(Piece::new(Color::Black, PieceKind::Man));
    assert_eq!(
        Position::from_setup(&bad),
        Err(SetupError::ManOnPromotionRow {
            square: sq(48),
            color: Color::Black
        })
    );
    bad.board[47] = Some(Piece::new(Color::Black, PieceKind::King));
    bad.side_to_move = Color::Black;
    assert!(Position::from_setup(&bad).is_ok());
}

#[test]
fn find_move_and_play_errors() {
    let p = pos("W:WK8:B22,27,12,10");
    let mv = p.find_move(sq(8), sq(5), set(&[10, 12, 27])).unwrap();
    assert!(p.is_legal(mv));
    assert_eq!(p.find_move(sq(8), sq(5), set(&[10, 12])), None);
    assert_eq!(p.find_move(sq(8), sq(5), SquareSet::new()), None);
    let illegal = Position::startpos().parse_move("32-28").unwrap();
    let err = p.play(illegal).unwrap_err();
    assert_eq!(err.position, p);
    assert_eq!(err.mv, illegal);
}

/// Capacity evidence (see `MAX_MOVES`): the positions with the most legal
/// moves that `examples/draughts_worst_moves.rs` found. Counts confirmed
/// with pydraughts 0.6.7 (distinct triples); dame-rs 0.2.0 panics on them
/// ("index out of bounds: the len is 256"), its move list holds 256.
#[test]
fn capacity_worst_positions() {
    let cases: &[(&str, usize)] = &[
        // Quiet: 18 kings on the edges of an empty board.
        (
            "W:WK1,K2,K3,K4,K5,K6,K15,K16,K25,K26,K35,K36,K45,K46,K47,K48,K49,K50:B",
            128,
        ),
        // Captures: every move takes 6 pieces.
        (
            "W:WK1,K6,K16,K26,K36,K45,K49,K50:BK7,8,K11,13,19,K20,21,K29,30,K31,K33,K37,K38,K47",
            345,
        ),
        (
            "W:WK4,K5,K6,K16,K26,K35,K36,K46:BK7,K8,11,K13,19,20,K21,K29,K30,K31,K33,K37,K38,K47",
            334,
        ),
        // The most found (pydraughts lists 549 paths for these 407 moves).
        (
            "W:WK5,K15,K46,K47,K48,K49:BK8,K9,18,K19,K22,24,K27,30,K31,K40,41,K42,K43,44",
            407,
        ),
    ];
    for &(fen, n) in cases {
        let p = pos(fen);
        let moves = p.try_legal_moves().unwrap();
        assert_eq!(moves.len(), n, "{fen}");
        assert!(moves.len() * 2 < MAX_MOVES);
        let mut sorted: Vec<Move> = moves.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), n, "duplicates in {fen}");
        assert_eq!(p.count_legal_moves(), n as u64);
    }
}

/// `for_each_legal_move` hands over the moves of the list in its order
/// (its generator's `for_each_capture` and `for_each_quiet` stream them),
/// on positions along pseudo-random games from the start and the Woldouby
/// position (captures of 1 to 3 pieces by men and kings stream; longer
/// ones go through the list). Moved here from the generator's unit tests:
/// it uses only the public API.
#[test]
fn streamed_moves_match_the_list() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut checked = 0;
    for start in [
        "W:W31-50:B1-20",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    ] {
        for _game in 0..40 {
            let mut pos: Position = start.parse().unwrap();
            for _ply in 0..120 {
                let list = pos.legal_moves();
                if list.is_empty() {
                    break;
                }
                let mut streamed = Vec::new();
                let _ = pos.for_each_legal_move(|mv| {
                    streamed.push(mv);
                    ControlFlow::<()>::Continue(())
                });
                assert_eq!(streamed, list.to_vec(), "{pos}");
                // Stopping at the k-th move hands over exactly k moves.
                let k = list.len().div_ceil(2);
                let (r, seen) = common::break_at(&pos, k);
                assert_eq!(r, ControlFlow::Break(list[k - 1]), "{pos}");
                assert_eq!(seen, k);
                checked += 1;
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(list[(seed % list.len() as u64) as usize]);
            }
        }
    }
    assert!(checked > 5_000, "{checked}");
}
