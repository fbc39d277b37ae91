//! Wire moves ⇄ board-core moves against a tracked position.

mod common;

use novag_citrine::convert::{IllegalReason, host_move_to_move, to_host_move, to_move, to_text};
use novag_citrine::decode::decode;
use novag_citrine::message::{Command, Reply};
use novag_citrine::types::MoveText;
use novag_citrine::vocab::{Move, Position};

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

fn text(s: &str) -> MoveText {
    // Decode through a move line, as the driver does.
    let line = format!("M 1 {s}");
    match decode::<Reply>(line.as_bytes()).unwrap() {
        Reply::Move(m) => m.text,
        other => panic!("{other:?}"),
    }
}

fn uci(p: &Position, s: &str) -> Move {
    p.parse_uci(s).unwrap()
}

/// Why `to_move` refuses the move text `t` in `p`.
fn refused(p: &Position, t: &str) -> IllegalReason {
    to_move(p, &text(t)).unwrap_err().reason
}

#[test]
fn captured_game_list_replays_to_mate() {
    // The captured `G` output quoted by the spec note (spec/citrine.md,
    // *Commands (host -> device) and replies (device -> host)*: `. 3 f4xe5 d8-h4`),
    // replayed move by move; final FEN and mate from python-chess 1.11.2.
    let rows = &common::CAPTURED_GAME_LIST[2..];
    let mut p = Position::startpos();
    for row in rows {
        let Reply::GameRow { white, black, .. } = decode::<Reply>(row.as_bytes()).unwrap() else {
            panic!()
        };
        for t in [Some(white), black].into_iter().flatten() {
            let mv = to_move(&p, &t).unwrap_or_else(|e| panic!("{row}: {e}"));
            p = p.play(mv).unwrap();
        }
    }
    assert_eq!(
        p.to_string(),
        "rnb1k1nr/pppp1ppp/8/2b1P3/4q3/8/PPPPK1PP/RNBQ1BNR w kq - 0 7"
    );
    assert!(p.is_checkmate());
}

#[test]
fn document_game_list_with_piece_letters() {
    let mut p = Position::startpos();
    for t in ["e2-e4", "c7-c5", "Ng1-f3", "d7-d6"] {
        p = p.play(to_move(&p, &text(t)).unwrap()).unwrap();
    }
    assert_eq!(
        p.to_string(),
        "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"
    );
}

#[test]
fn castling_both_ways() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(to_move(&p, &text("O-O")).unwrap(), uci(&p, "e1g1"));
    assert_eq!(to_move(&p, &text("O-O-O")).unwrap(), uci(&p, "e1c1"));
    // The UCB's king-move spelling is accepted too.
    assert_eq!(to_move(&p, &text("e1-g1")).unwrap(), uci(&p, "e1g1"));
    assert_eq!(to_text(&p, uci(&p, "e1c1"), false).to_string(), "O-O-O");
    let b = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(to_move(&b, &text("O-O")).unwrap(), uci(&b, "e8g8"));
    let no_rights = pos("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    let err = to_move(&no_rights, &text("O-O")).unwrap_err();
    assert_eq!(err.reason, IllegalReason::NotLegal);
    // The message is words, not a Debug form.
    assert_eq!(
        err.to_string(),
        "move O-O does not fit the position: no legal move has these squares"
    );
}

#[test]
fn en_passant() {
    let p = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let ep = to_move(&p, &text("e5xf6ep")).unwrap();
    assert_eq!(ep, uci(&p, "e5f6"));
    assert!(ep.is_en_passant());
    assert_eq!(to_text(&p, ep, false).to_string(), "e5xf6ep");
    assert_eq!(refused(&p, "e5xf6"), IllegalReason::EnPassantMark);
    assert_eq!(refused(&p, "e5xd6ep"), IllegalReason::NotLegal);
}

#[test]
fn promotions() {
    let p = pos("8/3P4/8/8/8/8/k7/4K3 w - - 0 1");
    let n = to_move(&p, &text("d7-d8/N")).unwrap();
    assert_eq!(n, uci(&p, "d7d8n"));
    assert_eq!(
        to_move(&p, &text("d7-d8")).unwrap(),
        uci(&p, "d7d8q"),
        "queen by default"
    );
    assert_eq!(to_text(&p, n, false).to_string(), "d7-d8/N");
    assert_eq!(refused(&p, "e1-e2/Q"), IllegalReason::Promotion);
    let cmd = Command::Move(to_host_move(n));
    assert_eq!(cmd.to_bytes(), b"M d7d8/N\r\n");
    let Command::Move(hm) = decode::<Command>(b"M d7d8").unwrap() else {
        panic!()
    };
    assert_eq!(host_move_to_move(&p, &hm).unwrap(), uci(&p, "d7d8q"));
}

#[test]
fn inconsistent_marks_are_typed_errors() {
    let p = Position::startpos();
    for (t, why) in [
        ("e2xe4", IllegalReason::CaptureMark),
        ("Bg1-f3", IllegalReason::WrongPiece),
        ("e2-e5", IllegalReason::NotLegal),
        ("e7-e5", IllegalReason::NotLegal),
    ] {
        assert_eq!(refused(&p, t), why, "{t}");
    }
    let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
    assert_eq!(refused(&p, "e4-d5"), IllegalReason::CaptureMark);
    assert_eq!(to_move(&p, &text("e4xd5")).unwrap(), uci(&p, "e4d5"));
}

#[test]
fn every_legal_move_round_trips_through_text() {
    // Walk a few thousand positions (deterministic pseudo-random playouts)
    // and check text -> move -> text for every legal move.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut checked = 0;
    for _ in 0..12 {
        let mut p = Position::startpos();
        for _ in 0..120 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &mv in moves.iter() {
                for with_piece in [false, true] {
                    let t = to_text(&p, mv, with_piece);
                    assert_eq!(to_move(&p, &t), Ok(mv), "{p} {mv} {t}");
                    // And through the wire: encode a move line, decode it.
                    let line = format!("M 1 {t}");
                    let Reply::Move(m) = decode::<Reply>(line.as_bytes()).unwrap() else {
                        panic!()
                    };
                    assert_eq!(m.text, t);
                }
                assert_eq!(host_move_to_move(&p, &to_host_move(mv)), Ok(mv));
                checked += 1;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves[(seed % moves.len() as u64) as usize];
            p = p.play(mv).unwrap();
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// What a person types at a host's prompt: UCI first, then SAN. The
/// expected moves follow from the notations' rules (SAN names the piece
/// and the destination; UCI gives both squares, castling as the king's
/// two-square move, the promotion piece as a lower-case suffix).
#[test]
fn typed_moves_are_uci_or_san() {
    use novag_citrine::convert::parse_typed_move;
    let uci_of =
        |p: &Position, text: &str| parse_typed_move(p, text).map(|m| m.to_uci().to_string());
    let start = Position::startpos();
    assert_eq!(uci_of(&start, "e2e4").unwrap(), "e2e4");
    assert_eq!(uci_of(&start, "e4").unwrap(), "e2e4", "SAN pawn push");
    assert_eq!(uci_of(&start, "Nf3").unwrap(), "g1f3", "SAN knight move");
    assert_eq!(uci_of(&start, "Nc3").unwrap(), "b1c3");
    // White castles short or long; a pawn on b7 promotes.
    let p: Position = "r3k2r/1P6/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1"
        .parse()
        .unwrap();
    assert_eq!(
        uci_of(&p, "O-O").unwrap(),
        "e1g1",
        "SAN castling is the king's move"
    );
    assert_eq!(uci_of(&p, "e1g1").unwrap(), "e1g1", "UCI castling");
    assert_eq!(uci_of(&p, "O-O-O").unwrap(), "e1c1");
    assert_eq!(uci_of(&p, "exd5").unwrap(), "e4d5", "SAN capture");
    assert_eq!(uci_of(&p, "e4d5").unwrap(), "e4d5");
    assert_eq!(uci_of(&p, "b7b8q").unwrap(), "b7b8q", "UCI promotion");
    assert_eq!(uci_of(&p, "b8=Q").unwrap(), "b7b8q", "SAN promotion");
    assert_eq!(uci_of(&p, "b8=N").unwrap(), "b7b8n");
    // Neither notation: both reasons are given.
    for bad in ["", "e2e5", "Nf6", "hello", "O-O-O-O"] {
        let e = parse_typed_move(&start, bad).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("neither UCI (e2e4"), "{bad:?}: {text}");
        assert!(text.contains(") nor SAN (Nf3"), "{bad:?}: {text}");
    }
    // Black to move: SAN is read for the side to move.
    let after = start.play(start.parse_uci("e2e4").unwrap()).unwrap();
    assert_eq!(uci_of(&after, "Nf6").unwrap(), "g8f6");
    assert_eq!(uci_of(&after, "e5").unwrap(), "e7e5");
    assert!(
        parse_typed_move(&after, "Nf3").is_err(),
        "white's move, black to move"
    );
}

/// `to_text` with piece letters prints them for pieces and none for pawns,
/// as the protocol document's game list does (spec note, *Commands (host ->
/// device) and replies (device -> host)*: `. 1 e2-e4 c7-c5`,
/// `. 2 Ng1-f3 d7-d6`).
#[test]
fn document_game_list_letters_pieces_not_pawns() {
    let mut p = Position::startpos();
    for (u, printed) in [
        ("e2e4", "e2-e4"),
        ("c7c5", "c7-c5"),
        ("g1f3", "Ng1-f3"),
        ("d7d6", "d7-d6"),
    ] {
        let mv = uci(&p, u);
        assert_eq!(to_text(&p, mv, true).to_string(), printed, "{u}");
        p = p.play(mv).unwrap();
    }
}

/// An `M` command with a promotion suffix on a move that does not promote
/// is refused, and the error quotes the suffix it refused (spec note, *Move
/// text the Citrine prints*: "a pawn reaching the last rank takes /Q /R /B
/// /N").
#[test]
fn host_move_promotion_suffix_on_a_non_promotion_is_quoted_in_the_error() {
    let p = Position::startpos();
    let Command::Move(hm) = decode::<Command>(b"M e2e4/N").unwrap() else {
        panic!()
    };
    let err = host_move_to_move(&p, &hm).unwrap_err();
    assert_eq!(err.reason, IllegalReason::Promotion);
    assert_eq!(
        err.to_string(),
        "move e2-e4/N does not fit the position: a promotion suffix on a move that does not promote"
    );
}

/// Every promotion prints its suffix, the queen's too (spec note, *Move
/// text the Citrine prints*: "promotion suffix /Q /R /B /N"; the host's
/// `M` command writes the piece always).
#[test]
fn every_promotion_piece_prints_its_suffix() {
    let p = pos("8/3P4/8/8/8/8/k7/4K3 w - - 0 1");
    for (u, printed, command) in [
        ("d7d8q", "d7-d8/Q", "M d7d8/Q\r\n"),
        ("d7d8r", "d7-d8/R", "M d7d8/R\r\n"),
        ("d7d8b", "d7-d8/B", "M d7d8/B\r\n"),
        ("d7d8n", "d7-d8/N", "M d7d8/N\r\n"),
    ] {
        let mv = uci(&p, u);
        assert_eq!(to_text(&p, mv, false).to_string(), printed);
        assert_eq!(
            Command::Move(to_host_move(mv)).to_bytes(),
            command.as_bytes()
        );
    }
}
