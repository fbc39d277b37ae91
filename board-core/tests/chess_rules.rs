//! Chess rules, FEN and UCI: known answers, typed errors, properties.

use board_core::chess::{
    Color, FenErrorKind, FenField, IllegalReason, MAX_MOVES, MoveKind, Outcome, ParseUciErrorKind,
    PieceKind, Position, Square, UciError, UciMove, perft, perft_divide,
};
use proptest::prelude::*;

mod common;

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn fen_err(fen: &str) -> (FenField, usize, FenErrorKind) {
    let e = fen.parse::<Position>().expect_err(fen);
    (e.field, e.offset, e.kind)
}

fn ucis(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

#[test]
fn startpos_fen_round_trip() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(pos(start), Position::startpos());
    assert_eq!(Position::startpos().to_string(), start);
    // Missing counters (EPD style) default to 0 1.
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
        Position::startpos()
    );
}

#[test]
fn fen_errors_name_field_and_offset() {
    use FenErrorKind::*;
    let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    #[rustfmt::skip]
    let cases = [
        ("".to_owned(), (FenField::Board, 0, Missing)),
        (s.to_owned(), (FenField::Turn, 43, Missing)),
        (format!("{s} x KQkq - 0 1"), (FenField::Turn, 44, UnexpectedChar('x'))),
        (format!("{s} wb KQkq - 0 1"), (FenField::Turn, 45, UnexpectedChar('b'))),
        (format!("{s} w KQkx - 0 1"), (FenField::Castling, 49, UnexpectedChar('x'))),
        (format!("{s} w KK - 0 1"), (FenField::Castling, 47, DuplicateCastling('K'))),
        (format!("{s} w KQkq e4 0 1"), (FenField::EnPassant, 51, InvalidSquare)),
        (format!("{s} w KQkq z9 0 1"), (FenField::EnPassant, 51, InvalidSquare)),
        (format!("{s} w KQkq - x 1"), (FenField::HalfmoveClock, 53, InvalidNumber)),
        (format!("{s} w KQkq - -1 1"), (FenField::HalfmoveClock, 53, InvalidNumber)),
        (format!("{s} w KQkq - 0 99999999999"), (FenField::FullmoveNumber, 55, InvalidNumber)),
        (format!("{s} w KQkq - 0 1 extra"), (FenField::FullmoveNumber, 57, TrailingText)),
        ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".to_owned(), (FenField::Board, 17, RankTooLong)),
        ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".to_owned(), (FenField::Board, 16, RankTooShort)),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1".to_owned(), (FenField::Board, 34, WrongRankCount)),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w - - 0 1".to_owned(), (FenField::Board, 43, WrongRankCount)),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1".to_owned(), (FenField::Board, 42, UnexpectedChar('X'))),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".to_owned(), (FenField::Board, 18, UnexpectedChar('9'))),
    ];
    for (fen, want) in cases {
        assert_eq!(fen_err(&fen), want, "{fen}");
    }
}

#[test]
fn impossible_setups_are_rejected() {
    use FenErrorKind::*;
    assert_eq!(
        fen_err("8/8/8/8/8/8/8/4K3 w - - 0 1").2,
        MissingKing(Color::Black)
    );
    assert_eq!(
        fen_err("k7/8/8/8/8/8/8/8 w - - 0 1").2,
        MissingKing(Color::White)
    );
    assert_eq!(
        fen_err("kk6/8/8/8/8/8/8/4K3 w - - 0 1").2,
        TooManyKings(Color::Black)
    );
    assert_eq!(
        fen_err("k6P/8/8/8/8/8/8/4K3 w - - 0 1").2,
        PawnOnBackRank(Square::H8)
    );
    assert_eq!(
        fen_err("k7/8/8/8/8/8/8/p3K3 w - - 0 1").2,
        PawnOnBackRank(Square::A1)
    );
    // Black to move would capture White's king: White (not to move) is in check.
    assert_eq!(
        fen_err("k7/8/8/8/8/8/8/r3K3 b - - 0 1"),
        (FenField::Turn, 20, OppositeCheck)
    );
    assert_eq!(
        fen_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1"),
        (
            FenField::Castling,
            46,
            CastlingWithoutPieces {
                color: Color::White,
                side: board_core::chess::CastlingSide::KingSide
            }
        )
    );
    assert_eq!(
        fen_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 1").2,
        CastlingWithoutPieces {
            color: Color::White,
            side: board_core::chess::CastlingSide::KingSide
        }
    );
    // e3 with no white pawn on e4.
    assert_eq!(
        fen_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1").2,
        ImpossibleEnPassant(Square::E3)
    );
    // Nine white queens and eight pawns: more than promotions allow.
    assert_eq!(
        fen_err("QQQQQQQQ/QQ6/8/8/8/k7/PPPPPPPP/4K3 w - - 0 1").2,
        TooMuchMaterial(Color::White)
    );
}

#[test]
fn en_passant_square_is_kept_only_when_capturable() {
    // After 1. e4 no black pawn can capture: the square is dropped.
    let p = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(p.ep_square(), None);
    assert_eq!(
        p.to_string(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // A black pawn on d4 can capture on e3.
    let p = pos("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    assert_eq!(p.ep_square(), Some(Square::E3));
    let mv = p.parse_uci("d4e3").unwrap();
    assert_eq!(mv.kind(), MoveKind::EnPassant);
    let after = p.play(mv).unwrap();
    assert_eq!(
        after.to_string(),
        "rnbqkbnr/ppp1pppp/8/8/8/4p3/PPPP1PPP/RNBQKBNR w KQkq - 0 4"
    );
    // Horizontal pin along the fifth rank: the capture would expose the king.
    let p = pos("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    assert_eq!(p.ep_square(), None);
    assert!(!ucis(&p).contains(&"b5c6".to_string()));
    // Pinned diagonally (king a3, bishop e7): capturing along the pin
    // line is legal, pushing off it is not.
    let p = pos("k7/4b3/8/2Pp4/8/K7/8/8 w - d6 0 1");
    assert_eq!(p.ep_square(), Some(Square::D6));
    let m = ucis(&p);
    assert!(m.contains(&"c5d6".to_string()));
    assert!(!m.contains(&"c5c6".to_string()));
}

#[test]
fn en_passant_resolving_check() {
    // White just played d2d4, the pawn gives check to the king on c5, and
    // en passant captures the checker.
    let p = pos("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(p.is_check());
    assert!(ucis(&p).contains(&"e4d3".to_string()));
}

#[test]
fn castling_rules() {
    // Through check (f1 attacked by the bishop on c4) is illegal; queen side fine.
    let p = pos("r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1");
    let m = ucis(&p);
    assert!(!m.contains(&"e1g1".to_string()));
    assert!(m.contains(&"e1c1".to_string()));
    // Out of check is illegal.
    let p = pos("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
    assert!(!ucis(&p).iter().any(|m| m == "e1g1" || m == "e1c1"));
    // Queen side with b1 attacked but not crossed by the king: legal.
    let p = pos("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let mv = p.parse_uci("e1c1").unwrap();
    assert!(mv.is_castle());
    let after = p.play(mv).unwrap();
    assert_eq!(after.to_string(), "1r2k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    // Capturing a rook on its corner removes the right.
    let p = pos("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1");
    let after = p.play(p.parse_uci("g2h1").unwrap()).unwrap();
    assert_eq!(after.castling_rights().to_string(), "Qkq");
}

#[test]
fn promotions() {
    let p = pos("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    let m = ucis(&p);
    for s in [
        "e7e8q", "e7e8r", "e7e8b", "e7e8n", "e7d8q", "e7d8r", "e7d8b", "e7d8n",
    ] {
        assert!(m.contains(&s.to_string()), "{s}");
    }
    assert!(matches!(p.parse_uci("e7e8"), Err(UciError::Illegal(_))));
    let after = p.play(p.parse_uci("e7d8n").unwrap()).unwrap();
    assert_eq!(after.to_string(), "3N3k/8/8/8/8/8/8/K7 b - - 0 1");
}

#[test]
fn uci_syntax_and_legality_are_separate() {
    let p = Position::startpos();
    let e = |s: &str| match p.parse_uci(s) {
        Err(UciError::Syntax(e)) => (e.offset, e.kind),
        other => panic!("{s}: {other:?}"),
    };
    assert_eq!(e(""), (0, ParseUciErrorKind::TooShort));
    assert_eq!(e("e2e"), (3, ParseUciErrorKind::TooShort));
    assert_eq!(e("i2e4"), (0, ParseUciErrorKind::InvalidFile));
    assert_eq!(e("e2e9"), (3, ParseUciErrorKind::InvalidRank));
    assert_eq!(e("e7e8k"), (4, ParseUciErrorKind::InvalidPromotion));
    assert_eq!(e("e7e8Q"), (4, ParseUciErrorKind::InvalidPromotion));
    assert_eq!(e("e2e4qq"), (5, ParseUciErrorKind::TooLong));
    assert_eq!(e("0000"), (0, ParseUciErrorKind::NullMove));
    let why = |p: &Position, s: &str| match p.parse_uci(s) {
        Err(UciError::Illegal(e)) => e.reason,
        other => panic!("{s}: {other:?}"),
    };
    // A pawn moves one or two squares from its first rank (FIDE Laws 3.7).
    let pawn = IllegalReason::NoSuchMove {
        kind: PieceKind::Pawn,
        in_check: false,
    };
    assert_eq!(why(&p, "e2e5"), pawn);
    assert_eq!(why(&p, "e7e5"), IllegalReason::OpponentPiece);
    assert_eq!(why(&p, "e4e5"), IllegalReason::NoPiece);
    assert_eq!(why(&p, "e2e4q"), IllegalReason::NotAPromotion);
    assert_eq!(
        p.parse_uci("e2e5").unwrap_err().to_string(),
        "illegal move e2e5: the pawn has no legal move to that square"
    );
    // A promotion names its piece (UCI: e7e8q).
    let promo = pos("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(why(&promo, "e7e8"), IllegalReason::PromotionMissing);
    // In check (the rook on e8 checks the king on e1), the knight's move
    // elsewhere does not answer it.
    let check = pos("4r2k/8/8/8/8/8/8/1N2K3 w - - 0 1");
    assert_eq!(
        why(&check, "b1c3"),
        IllegalReason::NoSuchMove {
            kind: PieceKind::Knight,
            in_check: true
        }
    );
    let u: UciMove = "e7e8q".parse().unwrap();
    assert_eq!(u.promotion, Some(PieceKind::Queen));
    assert_eq!(u.to_string(), "e7e8q");
}

#[test]
fn play_gives_the_position_back() {
    let p = Position::startpos();
    let bad = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        .parse_uci("e7e5")
        .unwrap();
    // e7e5 is a legal black move elsewhere, not for White here.
    let err = p.play(bad).unwrap_err();
    assert_eq!(err.position, p);
    assert_eq!(err.mv, bad);
}

#[test]
fn checkmate_stalemate_insufficient_fifty() {
    // Fool's mate.
    let p = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert!(p.is_check() && p.is_checkmate() && !p.is_stalemate());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    // Classic stalemate: king a8, white queen b6, king c... Black to move.
    let p = pos("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    assert!(p.is_stalemate() && !p.is_check());
    assert_eq!(p.outcome(), Some(Outcome::Stalemate));
    // Insufficient material (FIDE 5.2.2 dead positions by material).
    for fen in [
        "k7/8/8/8/8/8/8/7K w - - 0 1",
        "k7/8/8/8/8/8/8/6BK w - - 0 1",
        "k7/8/8/8/8/8/8/6NK w - - 0 1",
        "k1b5/8/8/8/8/8/8/5B1K w - - 0 1", // bishops on same-colour squares (c8, f1 both light)
    ] {
        assert!(pos(fen).is_insufficient_material(), "{fen}");
        assert_eq!(
            pos(fen).outcome(),
            Some(Outcome::InsufficientMaterial),
            "{fen}"
        );
    }
    for fen in [
        "k7/8/8/8/8/8/8/5NNK w - - 0 1", // two knights: mate possible (helpmate)
        "kb6/8/8/8/8/8/8/5B1K w - - 0 1", // opposite-coloured bishops (b8 dark, f1 light)
        "kn6/8/8/8/8/8/8/6BK w - - 0 1", // bishop v knight
        "k7/8/8/8/8/8/7P/7K w - - 0 1",
    ] {
        assert!(!pos(fen).is_insufficient_material(), "{fen}");
    }
    assert!(pos("k7/8/8/8/8/8/8/1R5K w - - 100 80").is_fifty_moves());
    assert!(!pos("k7/8/8/8/8/8/8/1R5K w - - 99 80").is_fifty_moves());
}

#[test]
fn maximum_move_count_position() {
    // Petrović 1964: 218 legal moves for White (the proven maximum).
    let p = pos("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
    assert_eq!(p.legal_moves().len(), 218);
    assert_eq!(p.count_legal_moves(), 218);
    assert_eq!(MAX_MOVES, 218);
    let mut seen: Vec<_> = p.legal_moves().iter().copied().collect();
    seen.sort_by_key(|m| m.to_string());
    seen.dedup();
    assert_eq!(seen.len(), 218);
}

#[test]
fn perft_divide_adds_up() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let (total, d) = perft_divide(&p, 3);
    assert_eq!(total, 97_862);
    assert_eq!(d.len(), 48);
    assert_eq!(d.iter().map(|&(_, n)| n).sum::<u64>(), 97_862);
    let (total, d) = perft_divide(&p, 0);
    assert_eq!(total, 1);
    assert!(d.is_empty());
    assert_eq!(perft(&p, 0), 1);
}

/// Positions reached by `plies` random legal moves from a few seeds.
fn playout(start: usize, choices: &[u8]) -> Position {
    const STARTS: [&str; 4] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ];
    let mut p = pos(STARTS[start % STARTS.len()]);
    for &c in choices {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.play_unchecked(moves[c as usize % moves.len()]);
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fen_round_trips(start in 0usize..4, choices in proptest::collection::vec(any::<u8>(), 0..80)) {
        let p = playout(start, &choices);
        let fen = p.to_string();
        let back: Position = fen.parse().map_err(|e| TestCaseError::fail(format!("{}: {e}", fen.clone())))?;
        prop_assert_eq!(back, p);
        prop_assert_eq!(back.to_string(), fen.clone());
        // Every legal move leads to a position whose FEN is accepted (so the
        // mover's king is never left in check) and the two generators agree.
        prop_assert_eq!(p.count_legal_moves(), p.legal_moves().len() as u64);
        for &mv in p.legal_moves().iter() {
            let child = p.play(mv).unwrap();
            let again: Result<Position, _> = child.to_string().parse();
            prop_assert!(again.is_ok(), "{} after {}: {:?}", fen, mv, again);
            prop_assert_eq!(p.parse_uci(&mv.to_string()), Ok(mv));
        }
    }

    #[test]
    fn play_unchecked_never_panics(start in 0usize..4, choices in proptest::collection::vec(any::<u8>(), 0..20), from in 0u32..64, to in 0u32..64, kind in 0usize..10) {
        // Malformed moves give an unspecified position, but no panic.
        let mut p = playout(start, &choices);
        // Every kind, and promotions to a pawn or king (malformed).
        let kinds: Vec<MoveKind> = MoveKind::ALL
            .into_iter()
            .chain([MoveKind::Promotion(PieceKind::Pawn), MoveKind::Promotion(PieceKind::King)])
            .collect();
        let mv = board_core::chess::Move::new(Square::new(from).unwrap(), Square::new(to).unwrap(), kinds[kind]);
        let legal = p.is_legal(mv);
        prop_assert_eq!(p.play(mv).is_ok(), legal);
        p.play_unchecked(mv);
        let _ = p.count_legal_moves();
        let _ = p.to_string();
    }

    #[test]
    fn fen_parser_never_panics(s in "\\PC{0,80}") {
        let _ = s.parse::<Position>();
    }

    #[test]
    fn fen_like_strings_never_panic(s in "[pnbrqkPNBRQK1-9/]{0,70} [wb-]{0,2} [KQkq-]{0,5} [a-h1-8-]{0,3} [0-9]{0,3} [0-9]{0,3}") {
        // Anything accepted round-trips.
        common::reparses::<Position>(&s)?;
    }

    #[test]
    fn uci_parser_never_panics(start in 0usize..4, choices in proptest::collection::vec(any::<u8>(), 0..20), s in "\\PC{0,8}") {
        let p = playout(start, &choices);
        let _ = p.parse_uci(&s);
    }

    #[test]
    fn uci_like_strings(start in 0usize..4, choices in proptest::collection::vec(any::<u8>(), 0..20), s in "[a-i][0-9][a-i][0-9][nbrqk]?") {
        let p = playout(start, &choices);
        match p.parse_uci(&s) {
            Ok(mv) => {
                prop_assert_eq!(mv.to_string(), s);
                prop_assert!(p.is_legal(mv));
            }
            Err(UciError::Illegal(_)) => {
                prop_assert!(!p.legal_moves().iter().any(|m| m.to_string() == s));
            }
            Err(UciError::Syntax(_)) => {
                prop_assert!(s.parse::<UciMove>().is_err());
            }
        }
    }
}
