//! Known-answer tests for SFEN, USI and CSA notation (values from the CSA
//! and USI specifications' own examples and from real server output).

use board_core::shogi::{
    Color, CsaMove, CsaPositionErrorKind, CsaPositionParser, CsaPositionStatus, IllegalReason,
    Move, MoveTextError, ParseCsaMoveError, ParseSfenError, ParseUsiMoveError, PieceKind, Position,
    SetupError, SfenField, Square,
};

const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The start position exactly as Floodgate writes it (trailing blanks kept).
const START_CSA: &str = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
";

fn sq(file: u8, rank: u8) -> Square {
    Square::new(file, rank).unwrap()
}

#[test]
fn sfen_start_position_round_trip() {
    let p = Position::from_sfen(START_SFEN).unwrap();
    assert_eq!(p, Position::startpos());
    assert_eq!(p.to_string(), START_SFEN);
    assert_eq!("startpos".parse::<Position>().unwrap(), p);
    // Move number optional.
    assert_eq!(
        Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -")
            .unwrap(),
        p
    );
}

#[test]
fn sfen_hand_canonical_order() {
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w p2LR2bgs 12").unwrap();
    assert_eq!(p.hand(Color::Black).count(PieceKind::Lance), 2);
    assert_eq!(p.hand(Color::White).count(PieceKind::Bishop), 2);
    assert_eq!(p.to_string(), "4k4/9/9/9/9/9/9/9/4K4 w R2L2bgsp 12");
}

#[test]
fn sfen_errors_name_field_and_byte_offset() {
    // Offsets are 0-based bytes into the text: the side letter of the start
    // position's SFEN is byte 58 (57 board bytes, one space).
    use ParseSfenError as E;
    let cases = [
        (
            "",
            E::MissingField {
                field: SfenField::Board,
                offset: 0,
            },
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
            E::MissingField {
                field: SfenField::Side,
                offset: 57,
            },
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            E::UnexpectedChar {
                field: SfenField::Side,
                offset: 58,
                found: 'x',
            },
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
            E::UnexpectedChar {
                field: SfenField::Board,
                offset: 56,
                found: 'X',
            },
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/8/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            E::RankLength {
                rank: 4,
                squares: 8,
                offset: 27,
            },
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            E::RankCount {
                ranks: 8,
                offset: 55,
            },
        ),
        (
            "4k4/9/9/9/9/9/9/9/4+K4 b - 1",
            E::BadPromotion { offset: 19 },
        ),
        ("4k4/9/9/9/9/9/9/9/4K4 b 0P 1", E::HandCount { offset: 24 }),
        ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", E::HandCount { offset: 24 }),
        ("4k4/9/9/9/9/9/9/9/4K4 b K 1", E::HandCount { offset: 24 }),
        ("4k4/9/9/9/9/9/9/9/4K4 b - 0", E::MoveNumber { offset: 26 }),
        (
            "4k4/9/9/9/9/9/9/9/4K4 b - 1 x",
            E::TrailingText { offset: 28 },
        ),
        // Leading spaces count.
        (
            "  4k4/9/9/9/9/9/9/9/4+K4 b - 1",
            E::BadPromotion { offset: 21 },
        ),
    ];
    for (sfen, error) in cases {
        assert_eq!(Position::from_sfen(sfen), Err(error), "{sfen:?}");
    }
    assert_eq!(
        Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1 x")
            .unwrap_err()
            .to_string(),
        "SFEN at byte 28: unexpected text after the move number"
    );
    assert_eq!(
        Position::from_sfen("4k4/9/9/9/9/9/9/9/4+K4 b - 1")
            .unwrap_err()
            .offset(),
        Some(19)
    );
}

#[test]
fn sfen_rejects_impossible_setups() {
    use SetupError as S;
    let setup = |s| match Position::from_sfen(s) {
        Err(ParseSfenError::Setup(e)) => e,
        other => panic!("{s}: {other:?}"),
    };
    assert_eq!(
        setup("4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1"),
        S::Nifu {
            color: Color::Black,
            file: 5
        }
    );
    assert_eq!(
        setup("P3k4/9/9/9/9/9/9/9/4K4 b - 1"),
        S::DeadPiece { square: sq(9, 1) }
    );
    assert_eq!(
        setup("4k4/N8/9/9/9/9/9/9/4K4 b - 1"),
        S::DeadPiece { square: sq(9, 2) }
    );
    assert_eq!(
        setup("4k4/9/9/9/9/9/9/9/l3K4 b - 1"),
        S::DeadPiece { square: sq(9, 9) }
    );
    assert_eq!(
        setup("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
        S::TooManyKings {
            color: Color::Black
        }
    );
    assert!(matches!(
        setup("4k4/9/9/9/9/9/9/9/B3K3B b B 1"),
        S::TooManyPieces {
            kind: PieceKind::Bishop,
            ..
        }
    ));
    // White's king attacked with Black to move: White just left it in check.
    assert_eq!(setup("4k4/4P4/9/9/9/9/9/9/4K4 b - 1"), S::OpponentInCheck);
    // Promoted pawns do not count for nifu; no-king positions are accepted.
    assert!(Position::from_sfen("9/9/9/9/9/9/4+P4/4P4/9 b - 1").is_ok());
    assert!(Position::from_sfen("9/9/9/9/9/9/9/9/9 b - 1").is_ok());
}

#[test]
fn usi_moves() {
    let m = Move::from_usi("7g7f").unwrap();
    assert_eq!(
        (m.from(), m.to(), m.is_promotion()),
        (Some(sq(7, 7)), sq(7, 6), false)
    );
    let m = Move::from_usi("8h2b+").unwrap();
    assert!(m.is_promotion());
    assert_eq!(m.to_string(), "8h2b+");
    let m = Move::from_usi("P*5e").unwrap();
    assert_eq!((m.drop_kind(), m.to()), (Some(PieceKind::Pawn), sq(5, 5)));
    assert_eq!(m.to_string(), "P*5e");
    use ParseUsiMoveError as E;
    assert_eq!(Move::from_usi("7g7"), Err(E::Length { len: 3 }));
    // A character that cannot stand where it is, and its byte offset.
    for (text, at) in [
        ("7j7f", 1),
        ("0g7f", 0),
        ("7g7f=", 4),
        ("K*5e", 0),
        ("p*5e", 0),
        ("P5e1", 1),
    ] {
        assert!(
            matches!(Move::from_usi(text), Err(E::UnexpectedChar { offset, .. }) if offset == at),
            "{text}"
        );
    }
    assert_eq!(Move::from_usi("P*5e+"), Err(E::Length { len: 5 }));
    assert_eq!(
        Move::from_usi("7g7f=").unwrap_err().to_string(),
        "USI move at byte 4: unexpected '=', expected '+' or nothing"
    );
    assert_eq!(Move::from_usi("7j7f").unwrap_err().offset(), Some(1));
}

#[test]
fn csa_move_tokens() {
    let m = CsaMove::parse(b"+7776FU").unwrap();
    assert_eq!(
        (m.color(), m.from(), m.to(), m.piece()),
        (Color::Black, Some(sq(7, 7)), sq(7, 6), PieceKind::Pawn)
    );
    let m: CsaMove = "-0034KA".parse().unwrap();
    assert_eq!(
        (m.color(), m.from(), m.piece()),
        (Color::White, None, PieceKind::Bishop)
    );
    assert_eq!(m.to_string(), "-0034KA");
    for code in [
        "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
    ] {
        let t = format!("+5958{code}");
        assert_eq!(CsaMove::parse(t.as_bytes()).unwrap().to_string(), t);
    }
    use ParseCsaMoveError as E;
    assert_eq!(CsaMove::parse(b"+7776FU,T1"), Err(E::Length { len: 10 }));
    // A character that cannot stand where it is, and its byte offset.
    for (text, at) in [
        (&b"*7776FU"[..], 0),
        (b"+7076FU", 2),
        (b"+0776FU", 2),
        (b"+7700FU", 3),
        (b"+777xFU", 4),
    ] {
        assert!(
            matches!(CsaMove::parse(text), Err(E::UnexpectedChar { offset, .. }) if offset == at),
            "{text:?}"
        );
    }
    for (text, kind) in [
        (b"-0034UM", PieceKind::Horse),
        (b"-0034OU", PieceKind::King),
    ] {
        assert_eq!(CsaMove::parse(text), Err(E::NotDroppable { kind }));
    }
    assert_eq!(CsaMove::parse(b"+7776XX"), Err(E::UnknownPiece));
    assert_eq!(CsaMove::parse(b"+7776fu"), Err(E::UnknownPiece));
}

#[test]
fn csa_usi_conversion_both_ways() {
    // A short game with a bishop exchange, a promotion and a drop:
    // 7g7f 3c3d 8h2b+ 3a2b B*4e (CSA +7776FU -3334FU +8822UM -3122GI +0045KA).
    let usi = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"];
    let csa = ["+7776FU", "-3334FU", "+8822UM", "-3122GI", "+0045KA"];
    let mut pos = Position::startpos();
    for (u, c) in usi.iter().zip(csa) {
        assert_eq!(pos.usi_to_csa(u).unwrap().to_string(), c);
        assert_eq!(pos.csa_to_usi(c.as_bytes()).unwrap().to_string(), *u);
        pos = pos.play(Move::from_usi(u).unwrap()).unwrap();
    }
    assert_eq!(
        pos.to_string(),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
    );
}

#[test]
fn csa_illegal_versus_malformed() {
    let pos = Position::startpos();
    use IllegalReason as I;
    let ill = |t: &str| match pos.parse_csa_move(t.as_bytes()) {
        Err(MoveTextError::Illegal(e)) => e,
        other => panic!("{t}: {other:?}"),
    };
    assert_eq!(
        ill("-3334FU"),
        I::WrongSide {
            to_move: Color::Black
        }
    );
    // Sente is Black and signs its CSA moves `+` (CSA standard 2.2).
    assert_eq!(
        ill("-3334FU").to_string(),
        "it is sente's (black's) turn: its moves start with +"
    );
    assert_eq!(ill("+7675FU"), I::NoPiece { square: sq(7, 6) });
    assert_eq!(ill("+3334FU"), I::OpponentPiece { square: sq(3, 3) });
    assert_eq!(
        ill("+7776KY"),
        I::PieceMismatch {
            square: sq(7, 7),
            on_board: PieceKind::Pawn,
            named: PieceKind::Lance
        }
    );
    assert_eq!(
        ill("+7776TO"),
        I::PromotionOutsideZone {
            from: sq(7, 7),
            to: sq(7, 6)
        }
    );
    assert_eq!(
        ill("+7775FU"),
        I::Unreachable {
            kind: PieceKind::Pawn,
            from: sq(7, 7),
            to: sq(7, 5)
        }
    );
    assert_eq!(
        ill("+8822KA"),
        I::Unreachable {
            kind: PieceKind::Bishop,
            from: sq(8, 8),
            to: sq(2, 2)
        }
    );
    assert_eq!(
        ill("+0055FU"),
        I::NotInHand {
            kind: PieceKind::Pawn
        }
    );
    assert_eq!(ill("+5969OU"), I::CaptureOwnPiece { square: sq(6, 9) });
    assert!(matches!(
        pos.parse_csa_move(b"+7776F"),
        Err(MoveTextError::Syntax(_))
    ));
    let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    assert_eq!(
        p.parse_csa_move(b"+0041FU"),
        Err(MoveTextError::Illegal(I::DeadPiece { square: sq(4, 1) }))
    );
    let p = Position::from_sfen("4k4/9/9/9/9/9/4P4/9/4K4 b P 1").unwrap();
    assert_eq!(
        p.parse_csa_move(b"+0055FU"),
        Err(MoveTextError::Illegal(I::Nifu { file: 5 }))
    );
    // A promoted piece cannot unpromote.
    let p = Position::from_sfen("4k4/9/9/9/4+B4/9/9/9/4K4 b - 1").unwrap();
    assert_eq!(
        p.parse_csa_move(b"+5544KA"),
        Err(MoveTextError::Illegal(I::Unpromotion { square: sq(5, 5) }))
    );
    assert!(p.parse_csa_move(b"+5544UM").is_ok());
    // Pinned rook: moving off the line leaves the king in check.
    let p = Position::from_sfen("4r4/9/9/9/9/9/9/4R4/4K4 b - 1").unwrap();
    assert_eq!(
        p.parse_csa_move(b"+5838HI"),
        Err(MoveTextError::Illegal(I::LeavesKingInCheck))
    );
    // Along the pin line, capturing the pinner: promotion optional.
    assert!(p.parse_csa_move(b"+5851HI").is_ok());
    assert!(p.parse_csa_move(b"+5851RY").is_ok());
}

#[test]
fn csa_position_reads_floodgate_start() {
    assert_eq!(
        Position::from_csa(START_CSA.as_bytes()).unwrap(),
        Position::startpos()
    );
    assert_eq!(Position::startpos().csa().to_string(), START_CSA);
    // CRLF and collapsed spaces after '*' are tolerated.
    let crlf = START_CSA.replace('\n', "\r\n").replace(" *  * ", " * * ");
    assert_eq!(
        Position::from_csa(crlf.as_bytes()).unwrap(),
        Position::startpos()
    );
}

#[test]
fn csa_position_pi_hands_and_al() {
    // Two-piece handicap (nimaiochi): White removes rook and bishop and moves first.
    let p = Position::from_csa(b"PI82HI22KA\n-\n").unwrap();
    assert_eq!(
        p.to_string(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    // Placement lines and AL: the tsume style.
    let p = Position::from_csa(b"P-11OU\nP+33KI00KI\nP-00AL\n+\n").unwrap();
    assert_eq!(p.hand(Color::Black).count(PieceKind::Gold), 1);
    assert_eq!(p.hand(Color::White).count(PieceKind::Gold), 2);
    assert_eq!(p.hand(Color::White).count(PieceKind::Pawn), 18);
    assert_eq!(p.hand(Color::White).count(PieceKind::Rook), 2);
    assert_eq!(p.king(Color::Black), None);
    assert_eq!(p.to_string(), "8k/9/6G2/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1");
    // The writer's hand order is shogi-server's (alphabetical codes).
    let text = p.csa().to_string();
    assert!(text.ends_with("P+00KI\nP-00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00FU00GI00GI00GI00GI00HI00HI00KA00KA00KE00KE00KE00KE00KI00KI00KY00KY00KY00KY\n+\n"), "{text}");
    assert_eq!(Position::from_csa(text.as_bytes()).unwrap(), p);
}

#[test]
fn csa_position_errors_name_line_and_byte() {
    let e = |text: &str| Position::from_csa(text.as_bytes()).unwrap_err();
    let r = e("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HX\n");
    assert_eq!(
        (r.line, r.offset, r.kind),
        (2, 6, CsaPositionErrorKind::UnknownPiece)
    );
    let r = e("P1-KY-KE-GI-KI-OU-KI-GI-KE\n");
    assert_eq!(
        (r.line, r.kind),
        (1, CsaPositionErrorKind::CellCount { cells: 8 })
    );
    let r = e("P1 * \nP1 * \n");
    assert_eq!(
        (r.line, r.kind),
        (1, CsaPositionErrorKind::CellCount { cells: 1 })
    );
    let r = e("PI\nP1 *  *  *  *  *  *  *  *  * \n");
    assert_eq!((r.line, r.kind), (2, CsaPositionErrorKind::PiConflict));
    let r = e("PI55FU\n");
    assert_eq!((r.line, r.offset), (1, 2));
    assert!(matches!(r.kind, CsaPositionErrorKind::PiMismatch { .. }));
    let r = e("P+00TO\n");
    assert_eq!(
        (r.line, r.offset, r.kind),
        (
            1,
            4,
            CsaPositionErrorKind::NotHandPiece {
                kind: PieceKind::ProPawn
            }
        )
    );
    let r = e("P+55KI55KI\n");
    assert_eq!((r.line, r.offset), (1, 6));
    assert_eq!(
        r.kind,
        CsaPositionErrorKind::SquareOccupied { square: sq(5, 5) }
    );
    let r = e("P+00AL\nP-00FU\n");
    assert_eq!(
        (r.line, r.kind),
        (
            2,
            CsaPositionErrorKind::TooManyPieces {
                kind: PieceKind::Pawn
            }
        )
    );
    let r = e("P+11FU\n+\n");
    assert_eq!(
        (r.line, r.kind),
        (
            2,
            CsaPositionErrorKind::Setup(SetupError::DeadPiece { square: sq(1, 1) })
        )
    );
    let r = e("P+00FU\n");
    assert_eq!(r.kind, CsaPositionErrorKind::MissingSideLine);
    let r = e("PI\n+\n-\n");
    assert_eq!((r.line, r.kind), (3, CsaPositionErrorKind::AfterSideLine));
    let r = e("X\n");
    assert_eq!(
        (r.line, r.offset, r.kind),
        (1, 0, CsaPositionErrorKind::UnknownLine)
    );
    // A bad line has no effect: feeding on works.
    let mut parser = CsaPositionParser::new();
    assert!(parser.feed_line(b"P+00FU00XX").is_err());
    assert_eq!(parser.feed_line(b"P+00FU"), Ok(CsaPositionStatus::NeedMore));
    match parser.feed_line(b"+") {
        Ok(CsaPositionStatus::Complete(p)) => {
            assert_eq!(p.hand(Color::Black).count(PieceKind::Pawn), 1)
        }
        other => panic!("{other:?}"),
    }
}
