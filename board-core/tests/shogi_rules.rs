//! Rule queries: checkmate and the outcome, pawn-drop mate, the CSA 27-point impasse
//! declaration, repetition and perpetual check. Expected values follow the
//! rules as the CSA protocol 1.2 / shogi-server state them; the impasse
//! cases were cross-checked with cshogi's `is_nyugyoku`.

use board_core::shogi::{
    Color, DeclarationError, GameHistory, IllegalReason, ImpasseCount, Move, Outcome, Position,
    Repetition,
};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap()
}

#[test]
fn head_gold_mate() {
    let p = pos("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    assert!(p.is_check());
    assert!(p.is_checkmate());
    assert!(p.legal_moves().is_empty());
    // Without the supporting pawn the king takes the gold.
    let p = pos("4k4/4G4/9/9/9/9/9/9/4K4 w - 1");
    assert!(!p.is_checkmate());
    assert_eq!(p.legal_moves().len(), 1);
}

#[test]
fn pawn_drop_mate_is_refused_with_its_own_reason_but_pawn_push_mate_is_fine() {
    // P*1b would mate (2a is blocked by White's own lance, 2b and 1b are
    // covered by the gold on 2c): refused as uchifuzume.
    let p = pos("7lk/9/7G1/9/9/9/9/9/4K4 b P 1");
    let drop = Move::from_usi("P*1b").unwrap();
    assert_eq!(
        p.check_move(drop),
        Err(IllegalReason::PawnDropMate { square: drop.to() })
    );
    assert!(!p.legal_moves().contains(&drop));
    // The same mate by moving a pawn (not a drop) is legal.
    let p = pos("7lk/9/7GP/9/9/9/9/9/4K4 b - 1");
    let push = Move::from_usi("1c1b").unwrap();
    assert!(p.is_legal(push));
    assert!(p.play(push).unwrap().is_checkmate());
    // A pawn-drop check that is not mate is legal: the king takes it.
    let p = pos("7lk/9/9/9/9/9/9/9/4K4 b P 1");
    assert!(p.is_legal(Move::from_usi("P*1b").unwrap()));
}

#[test]
fn outcome_is_a_loss_for_the_side_with_no_legal_move() {
    // The start position goes on.
    assert_eq!(Position::startpos().outcome(), None);
    // Head-gold mate of White: Black wins.
    assert_eq!(
        pos("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
    // The same mate of Black (gold on 5h guarded by the pawn on 5g).
    assert_eq!(
        pos("4k4/9/9/9/9/9/4p4/4g4/4K4 b - 1").outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
    // Without the guard the king takes the gold: no outcome.
    assert_eq!(pos("4k4/4G4/9/9/9/9/9/9/4K4 w - 1").outcome(), None);
    // White's king on 1a, not in check, every square around it covered
    // (2a by the knight on 3c, 1b and 2b by the gold on 2c), nothing else
    // to move and nothing in hand: a stalemate, which loses in shogi.
    let stalemate = pos("8k/9/6NG1/9/9/9/9/9/4K4 w - 1");
    assert!(!stalemate.is_check());
    assert_eq!(
        stalemate.outcome(),
        Some(Outcome::Stalemate {
            winner: Color::Black
        })
    );
    // The pawn drop that would mate is illegal, so it does not end the
    // game: Black still has other moves; the mate by a pawn push does.
    let p = pos("7lk/9/7G1/9/9/9/9/9/4K4 b P 1");
    assert_eq!(p.outcome(), None);
    let p = pos("7lk/9/7GP/9/9/9/9/9/4K4 b - 1");
    let mated = p.play(Move::from_usi("1c1b").unwrap()).unwrap();
    assert_eq!(
        mated.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::Black
        })
    );
}

#[test]
fn forced_and_optional_promotion() {
    // Pawn to the last rank: promotion only. Knight to the second-last: only.
    let p = pos("4k4/P8/9/9/9/1N7/9/9/4K4 b - 1");
    let usi: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(usi.contains(&"9b9a+".to_string()));
    assert!(!usi.contains(&"9b9a".to_string()));
    assert!(usi.contains(&"8f7d".to_string()) && usi.contains(&"8f9d".to_string()));
    assert!(!usi.iter().any(|m| m.starts_with("8f") && m.ends_with('+')));
    // Silver entering the zone: both.
    let p = pos("4k4/9/9/S8/9/9/9/9/4K4 b - 1");
    let usi: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(usi.contains(&"9d9c".to_string()) && usi.contains(&"9d9c+".to_string()));
    // Leaving the zone also allows promotion (bishop 1c -> 5g).
    let p = pos("4k4/9/B8/9/9/9/9/9/4K4 b - 1");
    assert!(p.is_legal(Move::from_usi("9c5g+").unwrap()));
    assert!(p.is_legal(Move::from_usi("9c5g").unwrap()));
    assert_eq!(
        pos("4k4/9/9/B8/9/9/9/9/4K4 b - 1").check_move(Move::from_usi("9d5h+").unwrap()),
        Err(IllegalReason::PromotionOutsideZone {
            from: Move::from_usi("9d5h").unwrap().from().unwrap(),
            to: Move::from_usi("9d5h").unwrap().to(),
        })
    );
}

#[test]
fn impasse_declaration_27_point_rule() {
    // Black: king in camp, 10 pieces in camp (R, B, 8 tokin) = 18 points,
    // hand R B = 10 -> 28: enough for Black.
    let p = pos("+P+P+P+P+P+P+P+P1/R3K3B/9/9/9/9/9/9/4k4 b RB 1");
    assert_eq!(
        p.impasse_declaration(),
        Ok(ImpasseCount {
            pieces_in_camp: 10,
            points: 28
        })
    );
    // 27 points are not enough for Black...
    let p = pos("+P+P+P+P+P+P+P+P1/R3K3B/9/9/9/9/9/9/4k4 b R4P 1");
    assert_eq!(
        p.impasse_declaration(),
        Err(DeclarationError::TooFewPoints {
            points: 27,
            needed: 28
        })
    );
    // ...but are for White.
    let p = pos("4K4/9/9/9/9/9/9/r3k3b/+p+p+p+p+p+p+p+p1 w r4p 1");
    assert_eq!(
        p.impasse_declaration(),
        Ok(ImpasseCount {
            pieces_in_camp: 10,
            points: 27
        })
    );
    // Only 9 pieces in the camp.
    let p = pos("+P+P+P+P+P+P+P2/R3K3B/9/9/9/9/9/9/4k4 b RB2P 1");
    assert_eq!(
        p.impasse_declaration(),
        Err(DeclarationError::TooFewPieces { count: 9 })
    );
    // King not in the camp.
    let p = pos("+P+P+P+P+P+P+P+P1/R7B/9/4K4/9/9/9/9/4k4 b RB 1");
    assert_eq!(
        p.impasse_declaration(),
        Err(DeclarationError::KingNotInCamp)
    );
    // In check (White rook on 5i).
    let p = pos("+P+P+P+P+P+P+P+P1/R3K3B/9/9/9/9/9/9/4r3k b B 1");
    assert_eq!(p.impasse_declaration(), Err(DeclarationError::InCheck));
    // No king.
    assert_eq!(
        pos("9/9/9/9/9/9/9/9/4k4 b - 1").impasse_declaration(),
        Err(DeclarationError::NoKing)
    );
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    // Black's rook checks on every move (4i5i, 5i4i), White's king steps
    // 5a4a, 4a5a: the start position occurs for the 4th time after 12 plies.
    let mut p = pos("4k4/9/9/9/9/9/9/9/K4R3 b - 1");
    let mut history: GameHistory<64> = GameHistory::new(&p);
    let cycle = ["4i5i", "5a4a", "5i4i", "4a5a"];
    let mut verdicts = Vec::new();
    for usi in cycle.iter().cycle().take(12) {
        p = p.play(Move::from_usi(usi).unwrap()).unwrap();
        verdicts.push(history.push(&p).unwrap());
    }
    assert!(verdicts[..11].iter().all(|v| *v == Repetition::None));
    assert_eq!(
        verdicts[11],
        Repetition::PerpetualCheck {
            loser: Color::Black
        }
    );
}

#[test]
fn plain_repetition_is_a_draw_and_history_capacity_is_reported() {
    let mut p = Position::startpos();
    let mut history: GameHistory<13> = GameHistory::new(&p);
    let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
    let mut last = Repetition::None;
    for (i, usi) in cycle.iter().cycle().take(12).enumerate() {
        p = p.play(Move::from_usi(usi).unwrap()).unwrap();
        last = history.push(&p).unwrap();
        if i < 11 {
            assert_eq!(last, Repetition::None, "ply {}", i + 1);
        }
    }
    assert_eq!(last, Repetition::Sennichite);
    assert_eq!(history.len(), 13);
    assert!(history.push(&p).is_err());
}

#[test]
fn move_list_capacity() {
    use board_core::shogi::{MAX_MOVES, MoveList};
    assert_eq!(MoveList::CAPACITY, MAX_MOVES);
    // The published maximum, 593 legal moves.
    let p = pos("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
    assert_eq!(p.legal_moves().len(), 593);
    // King-less set-ups (accepted, see MAX_MOVES): an empty board and all
    // seven kinds in hand: P 72 + L 72 + N 63 + S, G, B, R 81 each = 531.
    let p = pos("9/9/9/9/9/9/9/9/9 b RBGSNLP 1");
    assert_eq!(p.legal_moves().len(), 531);
    assert!(p.legal_moves().len() <= MAX_MOVES);
}
