//! `chess::Position::check_move`: `Ok` exactly when the move is legal, for
//! every move value (all from/to/flag shapes) on positions with pins,
//! checks, en passant and castling; hand-picked refusals get the reason
//! the FIDE Laws give (Articles 3.1-3.9).

use board_core::chess::{
    CastlingProblem, CastlingSide, IllegalReason, Move, MoveKind, PieceKind, Position, Square,
};

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn mv(from: &str, to: &str, kind: MoveKind) -> Move {
    Move::new(sq(from), sq(to), kind)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// The knight on e2 is pinned by the rook on e7.
const PINNED: &str = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
/// The rook on a1 checks the king on e1 along the first rank.
const IN_CHECK: &str = "4k3/8/8/8/8/8/8/r3K1N1 w - - 0 1";
/// d7-d5 was just played: e5xd6 en passant.
const EN_PASSANT: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
/// The rook on f8 attacks f1, which the king passes over when castling
/// king side; queen side is free.
const THROUGH_CHECK: &str = "r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1";
/// The rook on g8 attacks g1, the king's landing square.
const INTO_CHECK: &str = "r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1";
/// The rook on e4 checks the king on e1, who still has both rights.
const CASTLE_IN_CHECK: &str = "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1";
/// b1 is attacked by the rook on b8: queen side castling is still legal
/// (only the king's squares matter, FIDE 3.8.2.2); b1 occupied blocks it.
const B1_ATTACKED: &str = "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1";
const B1_BLOCKED: &str = "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1";
/// Two pawns about to promote, one by capture.
const PROMOTION: &str = "5r1k/3PP3/8/8/8/8/8/K7 w - - 0 1";
/// Black to move, en passant impossible because the pawn on d4 would
/// expose its king on the fourth rank (the FEN's d3 is dropped).
const EP_DISCOVERED: &str = "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1";

#[test]
fn check_move_is_ok_exactly_for_the_legal_moves() {
    for fen in [
        START,
        KIWIPETE,
        PINNED,
        IN_CHECK,
        EN_PASSANT,
        THROUGH_CHECK,
        INTO_CHECK,
        CASTLE_IN_CHECK,
        B1_ATTACKED,
        B1_BLOCKED,
        PROMOTION,
        EP_DISCOVERED,
    ] {
        let p = pos(fen);
        let mut ok = 0;
        for from in 0..64 {
            for to in 0..64 {
                for kind in MoveKind::ALL {
                    let m = Move::new(Square::new(from).unwrap(), Square::new(to).unwrap(), kind);
                    let checked = p.check_move(m);
                    assert_eq!(
                        checked.is_ok(),
                        p.is_legal(m),
                        "{m:?} in {fen}: {checked:?}"
                    );
                    match p.play(m) {
                        Ok(_) => ok += 1,
                        Err(e) => {
                            assert_eq!(Err(e.reason), checked, "{m:?} in {fen}");
                            assert_eq!(e.position, p);
                            assert_eq!(e.mv, m);
                        }
                    }
                }
            }
        }
        assert_eq!(ok, p.legal_moves().len(), "{fen}");
    }
}

#[test]
fn the_reasons_of_hand_picked_refusals() {
    use CastlingProblem::{Blocked, InCheck, IntoCheck, NoRight, ThroughCheck, WrongSquares};
    use CastlingSide::{KingSide, QueenSide};
    use IllegalReason::{NoPiece, NotAPromotion, OpponentPiece, PromotionMissing};
    use MoveKind::{Castle, EnPassant, Normal, Promotion};
    use PieceKind::{King, Knight, Pawn, Queen, Rook};
    let king_side = Castle(KingSide);
    let queen_side = Castle(QueenSide);
    let castling = |side, problem| Err(IllegalReason::Castling { side, problem });
    let wrong_kind = |kind, move_kind| Err(IllegalReason::WrongKind { kind, move_kind });
    let no_such = |kind| {
        Err(IllegalReason::NoSuchMove {
            kind,
            in_check: false,
        })
    };
    let mismatch = |given, legal| Err(IllegalReason::KindMismatch { given, legal });
    let leaves = |kind, pinned, in_check| {
        Err(IllegalReason::LeavesKingInCheck {
            kind,
            pinned,
            in_check,
        })
    };
    let illegal = Err;
    #[rustfmt::skip]
    let cases = [
        (START, "e2", "e4", Normal, Ok(())),
        (START, "e3", "e4", Normal, illegal(NoPiece)),
        (START, "e7", "e5", Normal, illegal(OpponentPiece)),
        (START, "g1", "f3", EnPassant, wrong_kind(Knight, EnPassant)),
        (START, "a1", "a3", king_side, wrong_kind(Rook, king_side)),
        (START, "b1", "c3", Promotion(Queen), wrong_kind(Knight, Promotion(Queen))),
        (START, "e2", "e5", Normal, no_such(Pawn)),
        // Onto its own piece.
        (START, "e1", "e2", Normal, no_such(King)),
        (START, "e2", "e4", Promotion(Queen), illegal(NotAPromotion)),
        (START, "e2", "e4", EnPassant, mismatch(EnPassant, Normal)),
        (START, "e1", "g1", king_side, castling(KingSide, Blocked { square: Square::F1 })),
        // Kiwipete: both castlings legal; the same squares with other flags.
        (KIWIPETE, "e1", "g1", king_side, Ok(())),
        (KIWIPETE, "e1", "c1", queen_side, Ok(())),
        (KIWIPETE, "e1", "g1", Normal, mismatch(Normal, king_side)),
        (KIWIPETE, "e1", "g1", queen_side, mismatch(queen_side, king_side)),
        (KIWIPETE, "e1", "f1", king_side, mismatch(king_side, Normal)),
        (KIWIPETE, "e1", "e3", king_side, castling(KingSide, WrongSquares)),
        (PINNED, "e2", "f4", Normal, leaves(Knight, true, false)),
        (IN_CHECK, "g1", "f3", Normal, leaves(Knight, false, true)),
        // Along the checking rook's line, also away from it (f1: the king
        // does not shield f1 from the rook).
        (IN_CHECK, "e1", "d1", Normal, leaves(King, false, true)),
        (IN_CHECK, "e1", "f1", Normal, leaves(King, false, true)),
        (IN_CHECK, "e1", "e2", Normal, Ok(())),
        (IN_CHECK, "e1", "g1", king_side, castling(KingSide, NoRight)),
        (EN_PASSANT, "e5", "d6", EnPassant, Ok(())),
        (EN_PASSANT, "e5", "d6", Normal, mismatch(Normal, EnPassant)),
        (EN_PASSANT, "e5", "e6", EnPassant, mismatch(EnPassant, Normal)),
        (EN_PASSANT, "e5", "f6", EnPassant, no_such(Pawn)),
        // The position keeps no en passant square when no capture is legal,
        // so the discovered-check capture is reported as no such move.
        (EP_DISCOVERED, "d4", "e3", EnPassant, no_such(Pawn)),
        (THROUGH_CHECK, "e1", "g1", king_side, castling(KingSide, ThroughCheck { square: Square::F1 })),
        (THROUGH_CHECK, "e1", "c1", queen_side, Ok(())),
        (INTO_CHECK, "e1", "g1", king_side, castling(KingSide, IntoCheck { square: Square::G1 })),
        (CASTLE_IN_CHECK, "e1", "c1", queen_side, castling(QueenSide, InCheck)),
        (B1_ATTACKED, "e1", "c1", queen_side, Ok(())),
        (B1_BLOCKED, "e1", "c1", queen_side, castling(QueenSide, Blocked { square: Square::B1 })),
        (PROMOTION, "d7", "d8", Normal, illegal(PromotionMissing)),
        (PROMOTION, "e7", "f8", Normal, illegal(PromotionMissing)),
        (PROMOTION, "e7", "f8", Promotion(Knight), Ok(())),
        (PROMOTION, "a1", "a2", Promotion(Queen), wrong_kind(King, Promotion(Queen))),
    ];
    for (fen, from, to, kind, want) in cases {
        let m = mv(from, to, kind);
        assert_eq!(pos(fen).check_move(m), want, "{m:?} in {fen}");
    }
}

#[test]
fn play_error_names_the_move_in_uci_and_the_reason() {
    let p = Position::startpos();
    let e = p.play(mv("e2", "e5", MoveKind::Normal)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal move e2e5: the pawn has no legal move to that square"
    );
    assert_eq!(e.position, p);
    let e = p
        .play(mv("e1", "g1", MoveKind::Castle(CastlingSide::KingSide)))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal move e1g1: king side castling is not legal: f1 is not empty"
    );
    let e = pos(PINNED)
        .play(mv("e2", "f4", MoveKind::Normal))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal move e2f4: the knight is pinned to its king"
    );
}

/// The words of each refusal name the rule broken: only the king castles
/// (FIDE 3.8), only a pawn promotes or captures en passant (3.7), a king
/// may not move into check, a pinned piece may not leave its line, and a
/// move must answer a check (3.9).
#[test]
fn refusals_say_which_rule() {
    use MoveKind::{Castle, EnPassant, Normal, Promotion};
    #[rustfmt::skip]
    let cases = [
        (START, "a1", "a3", Castle(CastlingSide::KingSide), "a rook cannot castle (only the king)"),
        (START, "b1", "c3", Promotion(PieceKind::Queen), "a knight cannot promote (only a pawn)"),
        (START, "g1", "f3", EnPassant, "a knight cannot capture en passant (only a pawn)"),
        (IN_CHECK, "e1", "d1", Normal, "the king would be in check there"),
        (IN_CHECK, "e1", "f1", Normal, "the king would be in check there"),
        (IN_CHECK, "g1", "f3", Normal, "the knight's move leaves the king in check"),
        (PINNED, "e2", "f4", Normal, "the knight is pinned to its king"),
    ];
    for (fen, from, to, kind, want) in cases {
        let m = mv(from, to, kind);
        let reason = pos(fen).check_move(m).unwrap_err();
        assert_eq!(reason.to_string(), want, "{m:?} in {fen}");
    }
}

#[test]
fn uci_text_for_castling_says_why_not() {
    let e = Position::startpos().parse_uci("e1g1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal move e1g1: king side castling is not legal: f1 is not empty"
    );
    let e = pos(THROUGH_CHECK).parse_uci("e1g1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal move e1g1: king side castling is not legal: the king would pass through check on f1"
    );
}

#[test]
fn startpos_is_read_as_the_start_position() {
    for text in ["startpos", "  startpos", "startpos\n", "\tstartpos \r\n"] {
        assert_eq!(
            text.parse::<Position>(),
            Ok(Position::startpos()),
            "{text:?}"
        );
    }
    assert!("startpos w".parse::<Position>().is_err());
    assert!("start pos".parse::<Position>().is_err());
}

#[test]
fn a_full_move_number_of_zero_is_read_as_one() {
    // python-chess: `max(int(fullmove), 1)`.
    let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0");
    assert_eq!(p.fullmove_number(), 1);
    assert_eq!(p, Position::startpos());
}

#[test]
fn check_move_agrees_with_is_legal_on_random_playouts() {
    // Positions from random games (fixed seed): every move value.
    let mut player = board_core::player::Player::new(7);
    let mut positions = 0;
    for _game in 0..8 {
        let mut p = Position::startpos();
        for ply in 0..100 {
            if ply % 4 == 0 {
                positions += 1;
                let mut ok = 0;
                for from in 0..64 {
                    for to in 0..64 {
                        for kind in MoveKind::ALL {
                            let from = Square::new(from).unwrap();
                            let m = Move::new(from, Square::new(to).unwrap(), kind);
                            let checked = p.check_move(m);
                            assert_eq!(checked.is_ok(), p.is_legal(m), "{m:?} in {p}: {checked:?}");
                            ok += usize::from(checked.is_ok());
                        }
                    }
                }
                assert_eq!(ok, p.legal_moves().len(), "{p}");
            }
            match player.choose_chess(&p) {
                Some(mv) => p.play_unchecked(mv),
                None => break,
            }
        }
    }
    assert!(positions > 100, "{positions}");
}
