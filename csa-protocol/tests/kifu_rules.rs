//! `kifu::check_rules` and `kifu::check_file_rules`: the records of a kifu file played on board-core's
//! shogi rules (spec/csa.md, *Server-side legality*): a
//! kifu whose moves break the rules is refused, not replayed blindly.

use board_core::shogi::{CsaPositionErrorKind, IllegalReason};
use csa_protocol::kifu::{
    IllegalStatement, RuleViolation, check_file_rules, check_rules, parse_kifu,
};

fn refused(text: &[u8]) -> IllegalStatement {
    let records = parse_kifu(text).expect("the grammar accepts the file");
    let e = check_file_rules(text).expect_err("the rules refuse the file");
    // The same refusal from the parsed record.
    let on_record = check_rules(&records[e.record - 1]).expect_err("the record is refused");
    assert_eq!(on_record.what, e.what);
    e
}

#[test]
fn a_drop_of_a_piece_not_in_hand_is_refused_at_its_byte() {
    // After 1. +7776FU -3334FU sente holds nothing: `+0055HI` drops a rook
    // it does not have. Line 6 starts at byte 29 (5 + 3 + 2 + 11 + 8).
    let e = refused(b"V2.2\nPI\n+\n+7776FU,T1\n-3334FU\n+0055HI\n");
    assert_eq!((e.record, e.line, e.column, e.offset), (1, 6, 0, 29));
    let RuleViolation::IllegalMove { mv, reason } = e.what else {
        panic!("{e}");
    };
    assert_eq!(mv.to_string(), "+0055HI");
    assert!(
        matches!(reason, IllegalReason::NotInHand { .. }),
        "{reason:?}"
    );
    assert!(
        e.to_string()
            .starts_with("kifu record 1, line 6, column 0 (byte 29): illegal move +0055HI: "),
        "{e}"
    );
}

#[test]
fn several_statements_on_a_line_name_the_move_s_byte() {
    // V2.2 `,`: `+0055HI` starts at column 22 of line 4 (byte 10 + 22).
    let e = refused(b"V2.2\nPI\n+\n+7776FU,T1,-3334FU,T1,+0055HI\n");
    assert_eq!((e.record, e.line, e.column, e.offset), (1, 4, 22, 32));
}

#[test]
fn a_move_of_the_side_not_to_move_in_the_second_record() {
    // The second record starts gote to move; `-7776FU` follows gote's
    // `-3334FU`, so it is sente's turn.
    let e = refused(b"V2.2\nPI\n+\n+7776FU\n/\nV2.2\nPI\n-\n-3334FU\n-7776FU\n");
    assert_eq!((e.record, e.line, e.column, e.offset), (2, 10, 0, 38));
    assert!(
        matches!(
            e.what,
            RuleViolation::IllegalMove {
                reason: IllegalReason::WrongSide { .. },
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_move_before_the_side_to_move_line() {
    let e = refused(b"V2.2\nPI\n+7776FU\n");
    assert_eq!((e.record, e.line, e.column, e.offset), (1, 3, 0, 8));
    assert!(
        matches!(e.what, RuleViolation::MoveBeforePosition(_)),
        "{e}"
    );
}

#[test]
fn position_lines_are_read_by_the_rules() {
    // `P+00KI00XY` after PI: a fifth gold (a set has four), refused at the
    // `00KI` (column 2); an unknown piece code `XY` at its letters.
    let e = refused(b"V2.2\nPI\nP+00KI00XY\n+\n");
    assert_eq!((e.line, e.column, e.offset), (3, 2, 10));
    assert!(
        matches!(
            e.what,
            RuleViolation::Position(CsaPositionErrorKind::TooManyPieces { .. })
        ),
        "{e}"
    );
    assert!(
        e.to_string()
            .ends_with("position: too many pieces of kind KI"),
        "{e}"
    );
    let e = refused(b"V2.2\nPI\nP+00XY\n+\n");
    assert_eq!((e.line, e.column, e.offset), (3, 4, 12));
    assert!(
        e.to_string().contains("position: unknown piece code"),
        "{e}"
    );
}

#[test]
fn recorded_kifu_files_are_legal() {
    // Real records (Floodgate, shogi-server's own TC_functional games).
    let mut files: Vec<(&str, &[u8])> = vec![
        ("floodgate gps", boardwire_vectors::data::KIFU_FLOODGATE_GPS),
        (
            "floodgate uchifuzume",
            boardwire_vectors::data::KIFU_UCHIFUZUME,
        ),
    ];
    files.extend(boardwire_vectors::data::CSA_RECORDS.iter().copied());
    for (name, data) in files {
        assert_eq!(check_file_rules(data), Ok(()), "{name}");
        for record in parse_kifu(data).expect(name) {
            assert_eq!(check_rules(&record), Ok(()), "{name}");
        }
    }
}

#[test]
fn a_parsed_record_names_the_refused_item() {
    let records = parse_kifu(b"V2.2\nPI\nP+00KI00XY\n+\n").unwrap();
    let e = check_rules(&records[0]).unwrap_err();
    // V2.2, PI, P+00KI00XY: the third item, refused at its `00KI`.
    assert_eq!((e.item, e.column), (2, 2));
    assert!(
        e.to_string()
            .starts_with("kifu item 2, byte 2: position: too many pieces"),
        "{e}"
    );
}
