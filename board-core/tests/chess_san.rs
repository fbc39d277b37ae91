//! Chess SAN: known answers from published examples (FIDE Laws of Chess,
//! Appendix C; the disambiguation example of Wikipedia's "Algebraic
//! notation (chess)"; python-chess's README), typed errors with offsets,
//! and a parse/write round-trip property.

use board_core::chess::{
    Bitboard, CastlingProblem, CastlingSide, Move, PieceKind, Position, SanIllegal, SanProblem,
    Square,
};
use board_core::player::Player;

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(p: &Position, text: &str) -> Move {
    p.parse_uci(text)
        .unwrap_or_else(|e| panic!("{text} in {p}: {e}"))
}

/// The SAN our writer gives the UCI move.
fn san(fen: &str, uci_text: &str) -> String {
    let p = pos(fen);
    p.san(uci(&p, uci_text)).to_string()
}

/// The UCI move our reader finds for the SAN.
fn parse(fen: &str, san: &str) -> String {
    let p = pos(fen);
    p.parse_san(san)
        .unwrap_or_else(|e| panic!("{san} in {fen}: {e}"))
        .to_string()
}

fn problem(fen: &str, san: &str) -> (usize, SanProblem) {
    let e = pos(fen).parse_san(san).expect_err(san);
    (e.offset, e.problem)
}

fn illegal(reason: SanIllegal) -> SanProblem {
    SanProblem::Illegal { reason }
}

/// Our reader refuses `san` as ambiguous at offset 0: the pieces of
/// `kind` on `from` all reach `to`.
fn assert_ambiguous(fen: &str, san: &str, kind: PieceKind, to: &str, from: &[&str]) {
    let square = |name: &str| name.parse::<Square>().unwrap();
    let expected = SanProblem::Ambiguous {
        kind,
        to: square(to),
        from: from.iter().map(|&name| square(name)).collect::<Bitboard>(),
    };
    assert_eq!(problem(fen, san), (0, expected), "{san} in {fen}");
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn fide_c12_same_rank_file_letter() {
    // FIDE Laws, Appendix C.12 example 1: knights on g1 and e1, one moves
    // to f3: "Ngf3 or Nef3".
    let fen = "4k3/8/8/8/8/8/8/4NKN1 w - - 0 1";
    assert_eq!(san(fen, "g1f3"), "Ngf3");
    assert_eq!(san(fen, "e1f3"), "Nef3");
    assert_eq!(parse(fen, "Ngf3"), "g1f3");
    assert_eq!(parse(fen, "Nef3"), "e1f3");
    assert_ambiguous(fen, "Nf3", PieceKind::Knight, "f3", &["e1", "g1"]);
    assert_eq!(
        pos(fen).parse_san("Nf3").unwrap_err().problem.to_string(),
        "ambiguous: knights on e1 and g1 can reach f3"
    );
}

#[test]
fn fide_c12_same_file_rank_digit() {
    // C.12 example 2: knights on g5 and g1 to f3: "N5f3 or N1f3".
    let fen = "4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1";
    assert_eq!(san(fen, "g5f3"), "N5f3");
    assert_eq!(san(fen, "g1f3"), "N1f3");
    assert_eq!(parse(fen, "N5f3"), "g5f3");
    assert_eq!(parse(fen, "N1f3"), "g1f3");
    assert_ambiguous(fen, "Ngf3", PieceKind::Knight, "f3", &["g1", "g5"]);
}

#[test]
fn fide_c12_different_rank_and_file_prefers_file() {
    // C.12 example 3: knights on h2 and d4 to f3: "Nhf3 or Ndf3".
    let fen = "4k3/8/8/8/3N4/8/7N/4K3 w - - 0 1";
    assert_eq!(san(fen, "h2f3"), "Nhf3");
    assert_eq!(san(fen, "d4f3"), "Ndf3");
    // Rank disambiguation is also enough to read.
    assert_eq!(parse(fen, "N2f3"), "h2f3");
}

#[test]
fn wikipedia_disambiguation_rooks_and_three_queens() {
    // Wikipedia, "Algebraic notation (chess)", disambiguating moves: black
    // rooks d8 and h8 both reach f8 -> Rdf8; white rooks a1 and a5 both
    // reach a3 -> R1a3; queens on h4, e4 and h1 all reach e1 -> Qh4e1.
    let black = "k2r3r/8/8/8/8/8/8/4K3 b - - 0 1";
    assert_eq!(san(black, "d8f8"), "Rdf8");
    let white = "6k1/1K6/8/R7/4Q2Q/8/8/R6Q w - - 0 1";
    assert_eq!(san(white, "a1a3"), "R1a3");
    assert_eq!(san(white, "h4e1"), "Qh4e1");
    assert_eq!(parse(white, "R1a3"), "a1a3");
    assert_eq!(parse(white, "Qh4e1"), "h4e1");
    assert_eq!(parse(white, "Qh4xe1"), "h4e1");
    assert_ambiguous(white, "Qhe1", PieceKind::Queen, "e1", &["h1", "h4"]);
    assert_ambiguous(white, "Q4e1", PieceKind::Queen, "e1", &["e4", "h4"]);
    // Three queens reach e1: all three are named.
    assert_eq!(
        pos(white).parse_san("Qe1").unwrap_err().problem.to_string(),
        "ambiguous: queens on h1, e4 and h4 can reach e1"
    );
}

#[test]
fn fide_c13_promotion_written_with_equals_read_without() {
    // C.13: a promotion names the new piece: "d8Q, exf8N".
    let fen = "5r1k/3PP3/8/8/8/8/8/K7 w - - 0 1";
    assert_eq!(parse(fen, "d8Q"), "d7d8q");
    assert_eq!(parse(fen, "exf8N"), "e7f8n");
    // The canonical form (and python-chess's) writes `=`.
    assert_eq!(san(fen, "d7d8q"), "d8=Q");
    assert_eq!(san(fen, "e7f8n"), "exf8=N");
    assert_eq!(parse(fen, "d8=Q"), "d7d8q");
    assert_eq!(parse(fen, "d8=q"), "d7d8q");
    assert_eq!(parse(fen, "d7d8=R"), "d7d8r");
    assert_eq!(problem(fen, "d8"), (0, SanProblem::MissingPromotion));
    assert_eq!(problem(fen, "d7d8"), (0, SanProblem::MissingPromotion));
    assert_eq!(
        problem(fen, "d8=K"),
        (0, illegal(SanIllegal::PromotionToKing))
    );
    assert_eq!(problem(fen, "d8="), (3, SanProblem::ExpectedPromotion));
    assert_eq!(problem(fen, "d8=X"), (3, SanProblem::ExpectedPromotion));
}

#[test]
fn en_passant_is_a_capture() {
    // C.11: "exd6" for the pawn on e5 taking a pawn that just left d7.
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    assert_eq!(san(fen, "e5d6"), "exd6");
    assert_eq!(parse(fen, "exd6"), "e5d6");
    assert_eq!(parse(fen, "ed6"), "e5d6");
}

#[test]
fn castling() {
    // C.9: O-O king side, O-O-O queen side.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(san(fen, "e1g1"), "O-O");
    assert_eq!(san(fen, "e1c1"), "O-O-O");
    assert_eq!(parse(fen, "O-O"), "e1g1");
    assert_eq!(parse(fen, "O-O-O"), "e1c1");
    assert_eq!(parse(fen, "0-0"), "e1g1");
    assert_eq!(parse(fen, "0-0-0+"), "e1c1");
    // Long forms with the whole departure square, as python-chess reads them.
    assert_eq!(parse(fen, "e1g1"), "e1g1");
    assert_eq!(parse(fen, "e1h1"), "e1g1");
    // A piece letter never castles.
    assert_eq!(
        problem(fen, "Kg1"),
        (
            0,
            illegal(SanIllegal::Unreachable {
                kind: PieceKind::King,
                to: Square::G1
            })
        )
    );
    let black = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
    assert_eq!(parse(black, "O-O"), "e8g8");
    assert_eq!(
        problem(START, "O-O"),
        (
            0,
            SanProblem::IllegalCastling {
                side: CastlingSide::KingSide,
                problem: CastlingProblem::Blocked { square: Square::F1 }
            }
        )
    );
}

#[test]
fn scholars_mate_from_the_python_chess_readme() {
    // python-chess README: push_san e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7, then
    // is_checkmate(); the move is written Qxf7#.
    let mut p = Position::startpos();
    for (text, expect) in [
        ("e4", "e2e4"),
        ("e5", "e7e5"),
        ("Qh5", "d1h5"),
        ("Nc6", "b8c6"),
        ("Bc4", "f1c4"),
        ("Nf6", "g8f6"),
    ] {
        let mv = p.parse_san(text).unwrap();
        assert_eq!(mv.to_string(), expect);
        assert_eq!(p.san(mv).to_string(), text);
        p = p.play(mv).unwrap();
    }
    let mate = p.parse_san("Qxf7").unwrap();
    assert_eq!(p.san(mate).to_string(), "Qxf7#");
    assert!(p.play(mate).unwrap().is_checkmate());
}

#[test]
fn check_mark() {
    // 1.e4 f5 2.Qh5+ (the queen checks along the e8-h5 diagonal).
    let mut p = Position::startpos();
    for text in ["e4", "f5"] {
        p = p.play(p.parse_san(text).unwrap()).unwrap();
    }
    assert_eq!(p.san(uci(&p, "d1h5")).to_string(), "Qh5+");
    assert_eq!(parse(&p.to_string(), "Qh5"), "d1h5");
}

#[test]
fn lenient_forms() {
    assert_eq!(parse(START, "Nf3+"), "g1f3"); // no check
    assert_eq!(parse(START, "Nf3#"), "g1f3");
    assert_eq!(parse(START, "Ngf3"), "g1f3"); // needless disambiguation
    assert_eq!(parse(START, "N1f3"), "g1f3");
    assert_eq!(parse(START, "Ng1f3"), "g1f3");
    assert_eq!(parse(START, "Ng1-f3"), "g1f3");
    assert_eq!(parse(START, "Nxf3"), "g1f3"); // `x` onto an empty square
    assert_eq!(parse(START, "g1f3"), "g1f3"); // long algebraic / UCI-like
    assert_eq!(parse(START, "e2e4"), "e2e4");
    assert_eq!(parse(START, "e2-e4"), "e2e4");
    assert_eq!(parse(START, "e4!"), "e2e4"); // annotations
    assert_eq!(parse(START, "e4?!"), "e2e4");
    assert_eq!(parse(START, "Nf3+!!"), "g1f3");
    // A missing `x` on a capture.
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(parse(fen, "ed5"), "e4d5");
    assert_eq!(parse(fen, "exd5"), "e4d5");
}

#[test]
fn syntax_errors_name_the_byte() {
    assert_eq!(problem(START, ""), (0, SanProblem::Empty));
    assert_eq!(problem(START, "+"), (0, SanProblem::Empty));
    assert_eq!(problem(START, "Nf9"), (2, SanProblem::ExpectedSquare));
    assert_eq!(problem(START, "N"), (1, SanProblem::ExpectedSquare));
    assert_eq!(problem(START, "exd"), (3, SanProblem::ExpectedSquare));
    assert_eq!(problem(START, "Zf3"), (0, SanProblem::UnexpectedCharacter));
    assert_eq!(problem(START, "e4z"), (2, SanProblem::Trailing));
    assert_eq!(problem(START, "e4!!!"), (2, SanProblem::Trailing));
    assert_eq!(
        problem(START, "O-O-O-O"),
        (0, SanProblem::UnexpectedCharacter)
    );
    assert_eq!(problem(START, "nf3"), (0, SanProblem::ExpectedSquare));
    assert_eq!(problem(START, "Pe4"), (0, SanProblem::UnexpectedCharacter));
    assert!(problem(START, "Nf9").1.is_syntax());
    assert!(!problem(START, "e5").1.is_syntax());
    assert_eq!(
        problem(START, "e5"),
        (
            0,
            illegal(SanIllegal::Unreachable {
                kind: PieceKind::Pawn,
                to: Square::E5
            })
        )
    );
    assert_eq!(
        problem(START, "Nd2"),
        (
            0,
            illegal(SanIllegal::Unreachable {
                kind: PieceKind::Knight,
                to: Square::D2
            })
        )
    );
    // An extra `x` is not checked either (python-chess reads it the same way).
    assert_eq!(parse(START, "xe4"), "e2e4");
    let e = pos(START).parse_san("Nf9").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid SAN move at byte 2: expected a square"
    );
}

#[test]
fn longest_text_fits() {
    // Four queens: the move needs the whole square, a capture and a check.
    let fen = "4k3/8/8/8/8/1r6/8/Q1Q1K3 w - - 0 1";
    let p = pos(fen);
    let text = p.san(uci(&p, "a1b2")).to_string();
    assert!(text.starts_with("Q"), "{text}");
    let mv = p.parse_san(&text).unwrap();
    assert_eq!(mv.to_string(), "a1b2");
}

#[test]
fn every_legal_move_round_trips_on_random_playouts() {
    let mut player = Player::new(15);
    let mut checked = 0;
    for _game in 0..40 {
        let mut p = Position::startpos();
        for _ply in 0..120 {
            for &mv in p.legal_moves().iter() {
                let text = p.san(mv);
                assert!(text.as_str().len() <= 7, "{text}");
                assert_eq!(p.parse_san(text.as_str()), Ok(mv), "{text} in {p}");
                checked += 1;
            }
            match player.choose_chess(&p) {
                Some(mv) => p.play_unchecked(mv),
                None => break,
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

proptest::proptest! {
    /// Any text: no panic; an accepted move is legal; a syntax error's
    /// offset lies within the text (or at its end).
    #[test]
    fn any_text_is_a_legal_move_or_a_typed_error(text in "[KQRBNPOo0a-hx1-9=+#!?-]{0,9}|\\PC{0,9}") {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "5r1k/3PP3/8/8/8/8/8/K7 w - - 0 1",
        ];
        for fen in fens {
            let p = pos(fen);
            match p.parse_san(&text) {
                Ok(mv) => proptest::prop_assert!(p.is_legal(mv)),
                Err(e) => proptest::prop_assert!(e.offset <= text.len()),
            }
        }
    }
}

#[test]
fn illegal_moves_say_why() {
    // The knight on e2 is pinned by the rook on e7 (FIDE 3.9: no move may
    // expose the own king).
    let pinned = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
    let e = pos(pinned).parse_san("Nf4").unwrap_err();
    assert_eq!(
        e.problem,
        illegal(SanIllegal::Pinned {
            kind: PieceKind::Knight,
            from: Square::E2,
            to: Square::F4
        })
    );
    assert_eq!(
        e.to_string(),
        "invalid SAN move at byte 0: no legal move matches: the pinned knight on e2 cannot move to f4"
    );
    // The king may not step onto the rook's rank.
    let rook = "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1";
    assert_eq!(
        problem(rook, "Kd2"),
        (
            0,
            illegal(SanIllegal::KingInCheck {
                kind: PieceKind::King,
                from: Square::E1,
                to: Square::D2
            })
        )
    );
    // In check from the rook on a1: Nf3 does not answer it.
    let check = "4k3/8/8/8/8/8/8/r3K1N1 w - - 0 1";
    assert_eq!(
        problem(check, "Nf3"),
        (
            0,
            illegal(SanIllegal::KingInCheck {
                kind: PieceKind::Knight,
                from: Square::G1,
                to: Square::F3
            })
        )
    );
    assert_eq!(
        pos(check).parse_san("Nf3").unwrap_err().problem.to_string(),
        "no legal move matches: the knight on g1 cannot move to f3: the king would be in check"
    );
    assert_eq!(
        problem(START, "Nf3=Q"),
        (0, illegal(SanIllegal::NotAPromotion))
    );
    assert_eq!(
        problem(START, "e3e4"),
        (0, illegal(SanIllegal::NoPiece { square: Square::E3 }))
    );
    assert_eq!(
        problem(START, "Nc3d5"),
        (
            0,
            illegal(SanIllegal::Unreachable {
                kind: PieceKind::Knight,
                to: Square::D5
            })
        )
    );
}

#[test]
fn illegal_castling_says_why() {
    let castling = |side, problem| SanProblem::IllegalCastling { side, problem };
    let k = CastlingSide::KingSide;
    let q = CastlingSide::QueenSide;
    // FIDE 3.8.2: rights (king and rook unmoved), empty squares between,
    // king not in check, not passing or landing on an attacked square.
    let no_rights = "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1";
    assert_eq!(
        problem(no_rights, "O-O"),
        (0, castling(k, CastlingProblem::NoRight))
    );
    let in_check = "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(
        problem(in_check, "O-O-O"),
        (0, castling(q, CastlingProblem::InCheck))
    );
    let through = "r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1";
    assert_eq!(
        problem(through, "O-O"),
        (
            0,
            castling(k, CastlingProblem::ThroughCheck { square: Square::F1 })
        )
    );
    assert_eq!(parse(through, "O-O-O"), "e1c1");
    let into = "r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1";
    assert_eq!(
        problem(into, "O-O"),
        (
            0,
            castling(k, CastlingProblem::IntoCheck { square: Square::G1 })
        )
    );
    // An attacked b1 does not matter (the king does not cross it); an
    // occupied one does.
    assert_eq!(
        parse("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", "O-O-O"),
        "e1c1"
    );
    let blocked = "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1";
    assert_eq!(
        problem(blocked, "O-O-O"),
        (
            0,
            castling(q, CastlingProblem::Blocked { square: Square::B1 })
        )
    );
    assert_eq!(
        pos(START).parse_san("O-O").unwrap_err().problem.to_string(),
        "castling is not legal here (king side): f1 is not empty"
    );
}
