//! Games we do not play are refused by name, never read as a wrong game
//! (issue 32, item 6): PGN `[Variant]` values lichess writes (spec note
//! pgn-pdn §1.8: scalachess's variant names), PDN `[GameType]` numbers of
//! other draughts games (the PDN 3.0 table, §2.6), and a KIF `手合割` no
//! handicap list names (shogi-records §1.4).

use board_records::{kif, pdn, pgn};

#[test]
fn chess_variants_are_refused_by_name() {
    for v in [
        "Chess960",
        "Crazyhouse",
        "Antichess",
        "Atomic",
        "Three-check",
        "King of the Hill",
        "Horde",
        "Racing Kings",
    ] {
        let text = format!("[Variant \"{v}\"]\n\n1. e4 *\n");
        match pgn::Reader::new(text.as_bytes()).next_game().unwrap() {
            Err(pgn::ReadError::Game(e)) => {
                assert_eq!(e.problem, pgn::GameProblem::UnsupportedVariant(v.into()));
                assert_eq!((e.location.line, e.location.column), (1, 1), "{v}");
                assert!(e.to_string().contains(v), "{e}");
            }
            r => panic!("{v}: {r:?}"),
        }
    }
    // lichess's `Standard` and `From Position` are chess.
    for v in ["Standard", "From Position"] {
        let text = format!("[Variant \"{v}\"]\n\n1. e4 *\n");
        assert!(
            pgn::Reader::new(text.as_bytes())
                .next_game()
                .unwrap()
                .is_ok(),
            "{v}"
        );
    }
}

#[test]
fn other_draughts_games_are_refused_by_game_type() {
    for t in [
        "25,W,8,8,A0,0",
        "25",
        "40,W,10,10,N2,0",
        "26,W,8,8,A0,0",
        "41",
    ] {
        let text = format!("[GameType \"{t}\"]\n\n1. 32-28 *\n");
        match pdn::Reader::new(text.as_bytes()).next_game().unwrap() {
            Err(pdn::ReadError::Game(e)) => {
                assert_eq!(e.problem, pdn::GameProblem::UnsupportedGameType(t.into()));
                assert!(e.to_string().contains(t), "{e}");
            }
            r => panic!("{t}: {r:?}"),
        }
    }
}

#[test]
fn a_shogi_start_we_cannot_build_is_refused_by_name() {
    match kif::read_str("手合割：トンボ\n   1 ７六歩(77)\n") {
        Err(kif::ReadError::Game(e)) => {
            assert_eq!(
                e.problem,
                kif::GameProblem::UnsupportedHandicap("トンボ".into())
            );
            assert_eq!(e.location.line, 1);
        }
        r => panic!("{r:?}"),
    }
}
