//! `kif::Recorder` (a game saved as it goes), the reader's refusal of text
//! with no KIF item, and `kif::unencodable`: known answers from the spec
//! note (`spec/shogi-records.md`: §1.4 handicaps, §1.6 time columns, §1.7
//! endings and KfW summary lines) and from cshogi 1.1.0's KIF reader
//! (`cshogi.KIF.Parser`) on the recorder's output.

use board_core::shogi::{Move, Position};
use board_records::kif::{
    self, Ending, Handicap, MAX_RECORDED_PLIES, ReadError, Recorder, SyntaxProblem, TextEncoding,
};

fn usi(pos: &Position, text: &str) -> Move {
    pos.parse_usi(text).unwrap()
}

/// `n` plies of rooks moving to and fro (legal for ever; repetition is
/// no rule of the record).
fn shuffle(start: &Position, n: usize) -> Vec<Move> {
    let mut pos = *start;
    (0..n)
        .map(|k| {
            let mv = usi(&pos, ["2h3h", "8b7b", "3h2h", "7b8b"][k % 4]);
            pos = pos.play(mv).unwrap();
            mv
        })
        .collect()
}

#[test]
fn moves_are_written_with_the_time_column_of_their_side() {
    // §1.6: `( m:ss/HH:MM:SS)`, the total per side; §1.10's layout.
    let start = Position::startpos();
    let mut rec = Recorder::new(start);
    rec.set_header("開始日時", "2023/06/03 17:57:05");
    rec.set_header("先手", "A");
    rec.set_header("後手", "B");
    rec.set_header("先手", "A2");
    let line = shuffle(&start, 3);
    rec.push_timed(line[0], Some(3)).unwrap();
    rec.push_timed(line[1], Some(2)).unwrap();
    rec.push_timed(line[2], Some(75)).unwrap();
    let kif = rec.to_kif(None);
    assert_eq!(
        kif,
        "開始日時：2023/06/03 17:57:05\n手合割：平手\n先手：A2\n後手：B\n\
         手数----指手---------消費時間--\n   1 ３八飛(28)   ( 0:03/00:00:03)\n\
         \x20  2 ７二飛(82)   ( 0:02/00:00:02)\n\
         \x20  3 ２八飛(38)   ( 1:15/00:01:18)\n"
    );
    // §1.7: 投了 with White to move, KfW's summary.
    rec.finish(Ending::Resign);
    let kif = rec.to_kif(None);
    assert!(kif.ends_with("   4 投了\nまで3手で先手の勝ち\n"), "{kif}");
    // Nothing changes once finished.
    rec.push(usi(&rec.position(), "7b8b")).unwrap();
    assert_eq!(rec.to_kif(None), kif);
    let back = kif::read_str(&kif).unwrap();
    assert_eq!(back.moves().collect::<Vec<_>>(), line);
    assert_eq!(back.main.moves[2].time.unwrap().total, Some(78));
}

#[test]
fn an_illegal_move_is_refused_with_its_ply() {
    let start = Position::startpos();
    let mut rec = Recorder::new(start);
    rec.push(usi(&start, "7g7f")).unwrap();
    // Black's move again.
    let e = rec.push(usi(&start, "2g2f")).unwrap_err();
    assert_eq!(e.ply, 2);
    assert_eq!(rec.game().main.moves.len(), 1);
}

#[test]
fn sync_follows_take_backs_and_keeps_times() {
    let start = Position::startpos();
    let line = shuffle(&start, 4);
    let mut rec = Recorder::new(start);
    rec.push_timed(line[0], Some(10)).unwrap();
    rec.push_timed(line[1], Some(20)).unwrap();
    rec.push_timed(line[2], Some(30)).unwrap();
    assert!(!rec.sync(&line[..3]).unwrap());
    assert!(rec.sync(&line[..1]).unwrap());
    assert_eq!(rec.game().main.moves.len(), 1);
    // Black's total after the take-back is its first move's only.
    rec.push_timed(line[1], Some(1)).unwrap();
    rec.push_timed(line[2], Some(5)).unwrap();
    let t = rec.game().main.moves[2].time.unwrap();
    assert_eq!((t.spent, t.total), (5, Some(15)));
    assert!(rec.sync(&line).unwrap());
    assert_eq!(rec.game().main.moves.len(), 4);
    assert_eq!(rec.game().main.moves[3].time, None);
}

#[test]
fn the_ply_cap_closes_the_record_with_an_interruption_and_a_comment() {
    let start = Position::startpos();
    let line = shuffle(&start, MAX_RECORDED_PLIES + 3);
    let mut rec = Recorder::new(start);
    assert_eq!(rec.max_plies(), 1000);
    for &mv in &line[..MAX_RECORDED_PLIES] {
        rec.push_timed(mv, Some(1)).unwrap();
    }
    assert!(!rec.is_capped());
    rec.push_timed(line[MAX_RECORDED_PLIES], Some(1)).unwrap();
    assert!(rec.is_capped());
    let kif = rec.to_kif(None);
    // §1.7: 中断, `まで{N}手で中断`.
    assert!(
        kif.ends_with(
            "*the record stops after ply 1000 (its limit of 1000 plies); the game went on\n\
             1001 中断\nまで1000手で中断\n"
        ),
        "{}",
        &kif[kif.len() - 200..]
    );
    // Nothing more is recorded, nor another ending.
    rec.push(line[MAX_RECORDED_PLIES]).unwrap();
    rec.finish(Ending::Resign);
    assert!(!rec.sync(&line).unwrap());
    assert_eq!(rec.to_kif(None), kif);
    let back = kif::read_str(&kif).unwrap();
    assert_eq!(back.moves().count(), MAX_RECORDED_PLIES);
    assert_eq!(back.main.end.map(|e| e.0), Some(Ending::Interrupt));
    // A smaller cap.
    let mut rec = Recorder::with_max_plies(start, 2);
    assert!(rec.sync(&line[..5]).is_ok());
    assert!(rec.is_capped());
    assert_eq!(rec.game().main.moves.len(), 2);
}

#[test]
fn a_named_handicap_is_written_by_its_name() {
    // §1.4: 香落ち removes White's 11 lance, White moves first; cshogi
    // 1.1.0 reads the record's `手合割：香落ち` as this SFEN.
    let start = Handicap::from_name("香落ち").unwrap().position();
    let mut rec = Recorder::new(start);
    rec.push(usi(&start, "3c3d")).unwrap();
    let kif = rec.to_kif(None);
    assert!(kif.contains("手合割：香落ち\n"), "{kif}");
    assert!(!kif.contains('|'), "{kif}");
    assert_eq!(
        start.to_string(),
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
}

#[test]
fn a_comment_before_any_move_is_the_start_s() {
    let mut rec = Recorder::new(Position::startpos());
    rec.comment("why\nit ended");
    assert_eq!(rec.game().start_notes.text(), "why\nit ended");
}

#[test]
fn text_with_no_kif_item_is_no_record() {
    for (text, lines) in [
        ("", 0),
        ("hello world\n", 1),
        ("V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n", 6),
        ("手数----指手---------消費時間--\n\n", 2),
    ] {
        match kif::read_str(text) {
            Err(ReadError::Syntax(e)) => {
                assert_eq!(e.problem, SyntaxProblem::NoItem { lines }, "{text:?}");
                assert_eq!((e.location.line, e.location.column), (1, 1));
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let e = kif::read(b"", Some(TextEncoding::ShiftJis)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "KIF syntax error at line 1, column 1 (byte 0): no KIF or KI2 item: the text is empty"
    );
    // One header is a record (of an even game without moves).
    assert!(kif::read_str("先手：A\n").is_ok());
}

#[test]
fn characters_shift_jis_lacks_are_listed_with_their_lines() {
    // ☗☖ are not in Shift_JIS (§2, shogihome #249).
    let text = "先手：☗A\n後手：B\n*☖ and ☗\n";
    assert_eq!(
        kif::unencodable(text, TextEncoding::ShiftJis),
        [('☗', 1), ('☖', 3), ('☗', 3)]
    );
    assert!(kif::unencodable("先手：A\n", TextEncoding::ShiftJis).is_empty());
}
