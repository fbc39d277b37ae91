//! CSA kifu reader/writer on the two real Floodgate records
//! (`boardwire_vectors::data`) and on
//! V2.2 / V3.0 texts written from the CSA standard file format pages.

#[path = "common/strategies.rs"]
mod strategies;

use csa_protocol::kifu::{
    Item, KifuError, KifuProblem, KifuSpecial, Records, Statement, Statements, parse_kifu,
    write_kifu,
};
use csa_protocol::types::{CsaMove, MoveTime, Side};

const GPS: &[u8] = boardwire_vectors::data::KIFU_FLOODGATE_GPS;
const UCHIFUZUME: &[u8] = boardwire_vectors::data::KIFU_UCHIFUZUME;

#[test]
fn floodgate_v2_record_reads_completely_and_writes_back_byte_for_byte() {
    let records = parse_kifu(GPS).unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.version(), Some("2"));
    assert_eq!(r.names(), (Some("gps_normal"), Some("gps_l")));
    assert_eq!(
        r.names_raw(),
        (Some(&b"gps_normal"[..]), Some(&b"gps_l"[..]))
    );
    assert_eq!(
        r.info("EVENT"),
        Some(&b"wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007"[..])
    );
    assert_eq!(r.info("START_TIME"), Some(&b"2010/05/07 12:00:00"[..]));
    let moves = r.moves();
    // The shogi issue: "floodgate-900-0-...csa (158 legal moves, resignation)".
    assert_eq!(moves.len(), 158);
    assert_eq!(moves[0].mv, CsaMove::parse(b"+7776FU").unwrap());
    assert_eq!(moves[0].time, Some(MoveTime::from_secs(1)));
    let c0: Vec<_> = moves[0].comments().collect();
    assert_eq!(c0.len(), 1);
    assert_eq!(c0[0].floodgate_eval(), Some(&b" 0"[..]));
    assert_eq!(moves[11].mv, CsaMove::parse(b"-5162OU").unwrap());
    assert_eq!(moves[11].time, Some(MoveTime::from_secs(9)));
    assert_eq!(
        moves.last().unwrap().mv,
        CsaMove::parse(b"-0076KE").unwrap()
    );
    assert_eq!(r.end(), Some((KifuSpecial::Toryo, None)));
    assert!(
        r.position_text()
            .starts_with("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \n")
    );
    assert!(
        r.position_text()
            .ends_with("P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n")
    );
    // The trailing comments after %TORYO (final position, summary) are kept.
    let last = r.items.last().unwrap();
    let Item::Comment(c) = last else {
        panic!("{last:?}")
    };
    assert_eq!(c.as_bytes(), b"$END_TIME:2010/05/07 12:21:52");
    assert_eq!(write_kifu(&records), GPS);
}

#[test]
fn shift_jis_record_keeps_comment_bytes_and_round_trips() {
    let records = parse_kifu(UCHIFUZUME).unwrap();
    let r = &records[0];
    assert_eq!(r.names(), (Some("usapyon-on-note"), Some("KShogi900")));
    // The shogi issue: "all 103 recorded moves are legal".
    assert_eq!(r.moves().len(), 103);
    assert_eq!(r.end(), None, "the record ends without a special move");
    let comments: Vec<_> = r
        .items
        .iter()
        .filter_map(|i| {
            if let Item::Comment(c) = i {
                Some(*c)
            } else {
                None
            }
        })
        .collect();
    let non_utf8 = comments.iter().filter(|c| c.text_utf8().is_none()).count();
    assert!(
        non_utf8 > 0,
        "Shift_JIS comments are present and kept as bytes"
    );
    // 歩 (fu) in Shift_JIS is 0x95 0xE0: it is in the comment after +5756FU.
    let m = r.moves();
    let c = m
        .iter()
        .find(|m| m.mv == CsaMove::parse(b"+5756FU").unwrap())
        .unwrap();
    assert!(
        c.comments()
            .next()
            .unwrap()
            .as_bytes()
            .windows(2)
            .any(|w| w == [0x95, 0xE0])
    );
    assert!(
        comments.iter().any(|c| c
            .as_bytes()
            .starts_with(b"summary:uchifuzume:KShogi900 lose")),
        "summary comment kept"
    );
    assert_eq!(write_kifu(&records), UCHIFUZUME);
}

#[test]
fn v22_and_v30_features() {
    // Written from the CSA standard file format V3.0 description: encoding
    // line, $TIME with increment, decimal times, several statements per
    // line, multiple records separated by `/`, every special.
    let text = "'CSA encoding=UTF-8\nV3.0\nN+先手\nN-後手\n$EVENT:テスト\n$TIME:600+10+5\n$MAX_MOVES:256\n$JISHOGI:27\nPI82HI22KA\nP+00FU\n-\n-3334FU,T1.5\n+7776FU,T0.25,'評価 30\n%+ILLEGAL_ACTION\nT3\n/\nV2.2\nPI\n+\n%TIME_UP\n/\nV2.1\nPI\n+\n+2726FU\n%MAX_MOVES\n";
    let records = parse_kifu(text.as_bytes()).unwrap();
    assert_eq!(records.len(), 3);
    let r = &records[0];
    assert_eq!(r.version(), Some("3.0"));
    assert_eq!(r.encoding(), Some(&b"UTF-8"[..]));
    assert_eq!(r.names().0, Some("先手"));
    assert_eq!(r.names_raw().0, Some("先手".as_bytes()));
    let t = r.time_control().unwrap();
    assert_eq!(
        (
            t.total.as_secs(),
            t.byoyomi.as_secs(),
            t.increment.as_secs()
        ),
        (600, 10, 5)
    );
    assert_eq!(r.info("MAX_MOVES"), Some(&b"256"[..]));
    assert_eq!(r.info("JISHOGI"), Some(&b"27"[..]));
    let m = r.moves();
    assert_eq!(m[0].time, Some(MoveTime::from_millis(1500)));
    assert_eq!(m[1].time, Some(MoveTime::from_millis(250)));
    assert_eq!(m[1].comments().next().unwrap().text_utf8(), Some("評価 30"));
    assert_eq!(
        r.end(),
        Some((
            KifuSpecial::IllegalActionBlack,
            Some(MoveTime::from_secs(3))
        ))
    );
    assert!(r.items.contains(&Item::SideToMove(Side::White)));
    assert_eq!(records[1].end(), Some((KifuSpecial::TimeUp, None)));
    assert_eq!(records[2].end(), Some((KifuSpecial::MaxMoves, None)));
    // Written one statement per line, it reads back to the same records.
    let written = write_kifu(&records);
    assert_eq!(parse_kifu(&written).unwrap(), records);
    for s in KifuSpecial::ALL {
        let t = format!("V2.2\nPI\n+\n{}\n", s.as_str());
        assert_eq!(
            parse_kifu(t.as_bytes()).unwrap()[0].end(),
            Some((s, None)),
            "{}",
            s.as_str()
        );
    }
}

#[test]
fn raw_text_ending_in_cr_survives_a_round_trip() {
    // Found by the csa_kifu fuzz target: a comment `'\r` (the line `''\r\r\n`).
    for text in [&b"''\r\r\n"[..], b"N+a\r\r\n$K:v\r\r\n", b"'a\rb\r\n"] {
        let records = parse_kifu(text).unwrap();
        let written = write_kifu(&records);
        assert_eq!(parse_kifu(&written).unwrap(), records);
    }
    let records = parse_kifu(b"''\r\r\n").unwrap();
    let Item::Comment(c) = records[0].items[0] else {
        panic!()
    };
    assert_eq!(c.as_bytes(), b"'\r");
    assert_eq!(write_kifu(&records), b"''\r\r\n");
}

#[test]
fn unparsed_input_is_an_error_with_its_line_number() {
    // (text, 1-based line number, 0-based byte in the line, 0-based byte in
    // the file)
    let cases: &[(&str, usize, usize, usize)] = &[
        ("V2.2\nPI\n+\n+7776F\n", 4, 6, 16),
        ("V2.2\nPI\n+\n+7776FU\nT1x\n", 5, 2, 20),
        ("V2.2\nhello\n", 2, 0, 5),
        ("V9\n", 1, 1, 1),
        ("V2.2\n%RESIGN\n", 2, 0, 5),
        ("V2.2\n$EVENT\n", 2, 6, 11),
        ("V2.2\nNx\n", 2, 1, 6),
        ("V2.2\n+7776FU,,T1\n", 2, 8, 13),
        // Cut off after `P`: the column is the line's length.
        ("V2.2\nP\n", 2, 1, 6),
        // CR LF line ends count in the file offset.
        ("V2.2\r\nPI\r\n+\r\n+7776F\r\n", 4, 6, 19),
        // The second record.
        ("V2.2\n/\nV9\n", 3, 1, 8),
    ];
    for (text, line, column, offset) in cases {
        let e: KifuError = parse_kifu(text.as_bytes()).unwrap_err();
        assert_eq!(
            (e.line, e.column, e.offset),
            (*line, *column, *offset),
            "{text:?}: {e}"
        );
        assert_eq!(
            Records::new(text.as_bytes()).find_map(Result::err),
            Some(e),
            "{text:?}"
        );
    }
}

#[test]
fn records_iterator_reads_one_record_at_a_time() {
    let text = b"V2.2\nPI\n+\n+2726FU,T12\n-3334FU\nT6\n%TORYO\n/\nV2.1\nPI\n-\n-3334FU\n/\n";
    let records: Vec<_> = Records::new(text).collect::<Result<_, _>>().unwrap();
    assert_eq!(
        records.len(),
        3,
        "the file ends with `/`: an empty third record"
    );
    assert_eq!(records, parse_kifu(text).unwrap());
    let moves: Vec<_> = records[0]
        .iter_moves()
        .map(|m| (m.mv.to_string(), m.time.map(MoveTime::as_secs)))
        .collect();
    assert_eq!(
        moves,
        [
            ("+2726FU".to_string(), Some(12)),
            ("-3334FU".to_string(), Some(6))
        ]
    );
    assert_eq!(records[1].iter_moves().count(), 1);
    assert!(records[2].items.is_empty());
    // The Floodgate record: the iterator and the collecting reader agree.
    let gps = Records::new(GPS).next().unwrap().unwrap();
    assert_eq!(gps.iter_moves().count(), 158);
    assert_eq!(gps.moves(), gps.iter_moves().collect::<Vec<_>>());
    assert!(Records::new(b"").next().is_none());
}

#[test]
fn statements_go_on_after_a_bad_line() {
    let text = b"V2.2\n+7776FU,T1x,%TORYO\n+2726FU\n";
    let got: Vec<_> = Statements::new(text).collect();
    assert_eq!(got.len(), 4);
    assert_eq!(got[0], Ok(Statement::Item(Item::Version("2.2"))));
    assert_eq!(
        got[1],
        Ok(Statement::Item(Item::Move(
            CsaMove::parse(b"+7776FU").unwrap()
        )))
    );
    // `T1x`: the `x` (line 2, column 10, byte 15); `%TORYO` on the same
    // line is skipped, the next line is read.
    let e = got[2].unwrap_err();
    assert_eq!(
        (e.line, e.column, e.offset, e.what),
        (2, 10, 15, KifuProblem::Time)
    );
    assert_eq!(
        got[3],
        Ok(Statement::Item(Item::Move(
            CsaMove::parse(b"+2726FU").unwrap()
        )))
    );
}

#[test]
fn nom_parsers_per_line_kind() {
    use csa_protocol::kifu::parse;
    assert_eq!(parse::version(b"V3.0"), Ok((&b""[..], "3.0")));
    assert_eq!(
        parse::name(b"N+gps_normal"),
        Ok((&b""[..], (Side::Black, &b"gps_normal"[..])))
    );
    assert_eq!(
        parse::info(b"$START_TIME:2010/05/07 12:00:00"),
        Ok((&b""[..], ("START_TIME", &b"2010/05/07 12:00:00"[..])))
    );
    assert_eq!(
        parse::position(b"P1-KY-KE-GI-KI-OU-KI-GI-KE-KY"),
        Ok((&b""[..], "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY"))
    );
    assert_eq!(
        parse::kifu_move(b"-3334FU,T1.5"),
        Ok((&b",T1.5"[..], CsaMove::parse(b"-3334FU").unwrap()))
    );
    assert_eq!(
        parse::time(b"T1.5"),
        Ok((&b""[..], MoveTime::from_millis(1500)))
    );
    // A V3 time with a trailing dot (ShogiHome writes `T3.`) is whole seconds.
    assert_eq!(
        parse::time(b"T3."),
        Ok((&b""[..], MoveTime::from_millis(3000)))
    );
    assert_eq!(
        parse::special(b"%+ILLEGAL_ACTION"),
        Ok((&b""[..], KifuSpecial::IllegalActionBlack))
    );
    assert_eq!(parse::side_to_move(b"-"), Ok((&b""[..], Side::White)));
    // Failures name the problem and where (bytes from the bad one on).
    let Err(nom::Err::Failure(e)) = parse::kifu_move(b"+7776F") else {
        panic!()
    };
    assert_eq!((e.problem, e.remaining), (KifuProblem::MoveLength, 0));
    let Err(nom::Err::Failure(e)) = parse::special(b"%RESIGN") else {
        panic!()
    };
    assert_eq!((e.problem, e.remaining), (KifuProblem::Special, 7));
    // A comment after `,'` runs to the end of the line.
    let (rest, c) = parse::next_statement(b",'** 30 -3334FU,T1").unwrap();
    assert!(rest.is_empty());
    assert!(matches!(c, Item::Comment(c) if c.as_bytes() == b"** 30 -3334FU,T1"));
}

mod round_trip {
    use super::*;
    use csa_protocol::kifu::Record;
    use proptest::prelude::*;

    fn bytes() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(
            any::<u8>().prop_filter("no line ends", |b| *b != b'\n' && *b != b'\r'),
            0..20,
        )
    }

    fn arb_move() -> impl Strategy<Value = CsaMove> {
        strategies::arb_move(vec!["FU", "KI", "UM", "RY", "OU"])
    }

    #[derive(Debug, Clone)]
    enum I {
        Version(&'static str),
        Name(bool, Vec<u8>),
        Info(String, Vec<u8>),
        Position(String),
        Side(bool),
        Move(CsaMove),
        Time(u64),
        Special(KifuSpecial),
        Comment(Vec<u8>),
        Blank,
    }

    fn arb_item() -> impl Strategy<Value = I> {
        prop_oneof![
            prop::sample::select(vec!["2", "2.1", "2.2", "3.0"]).prop_map(I::Version),
            (prop::bool::ANY, bytes()).prop_map(|(b, n)| I::Name(b, n)),
            ("[A-Z_]{1,10}", bytes()).prop_map(|(k, v)| I::Info(k, v)),
            "P[1-9I+-][ -~]{0,30}".prop_map(I::Position),
            prop::bool::ANY.prop_map(I::Side),
            arb_move().prop_map(I::Move),
            (0u64..10_000_000).prop_map(I::Time),
            prop::sample::select(KifuSpecial::ALL.to_vec()).prop_map(I::Special),
            bytes().prop_map(I::Comment),
            Just(I::Blank),
        ]
    }

    proptest! {
        #[test]
        fn records_round_trip(recs in prop::collection::vec(prop::collection::vec(arb_item(), 1..12), 1..4)) {
            // Build the text, then check parse -> write is the identity and
            // the items are the ones generated.
            let mut text = Vec::new();
            for (i, r) in recs.iter().enumerate() {
                if i > 0 { text.extend_from_slice(b"/\n"); }
                for item in r {
                    match item {
                        I::Version(v) => text.extend_from_slice(format!("V{v}").as_bytes()),
                        I::Name(b, n) => { text.extend_from_slice(if *b { b"N+" } else { b"N-" }); text.extend_from_slice(n); }
                        I::Info(k, v) => { text.extend_from_slice(format!("${k}:").as_bytes()); text.extend_from_slice(v); }
                        I::Position(p) => text.extend_from_slice(p.as_bytes()),
                        I::Side(b) => text.push(if *b { b'+' } else { b'-' }),
                        I::Move(m) => text.extend_from_slice(m.to_string().as_bytes()),
                        I::Time(ms) => text.extend_from_slice(format!("T{}", MoveTime::from_millis(*ms)).as_bytes()),
                        I::Special(s) => text.extend_from_slice(s.as_str().as_bytes()),
                        I::Comment(c) => { text.push(b'\''); text.extend_from_slice(c); }
                        I::Blank => {}
                    }
                    text.push(b'\n');
                }
            }
            let parsed: Vec<Record<'_>> = parse_kifu(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(parsed.len(), recs.len());
            for (p, r) in parsed.iter().zip(&recs) {
                prop_assert_eq!(p.items.len(), r.len());
                for (pi, ri) in p.items.iter().zip(r) {
                    let ok = match (pi, ri) {
                        (Item::Version(a), I::Version(b)) => a == b,
                        (Item::Name { side, name }, I::Name(b, n)) => (*side == Side::Black) == *b && name == n,
                        (Item::Info { key, value }, I::Info(k, v)) => key == k && value == v,
                        (Item::Position(a), I::Position(b)) => a == b,
                        (Item::SideToMove(s), I::Side(b)) => (*s == Side::Black) == *b,
                        (Item::Move(a), I::Move(b)) => a == b,
                        (Item::Time(a), I::Time(b)) => a.as_millis() == *b,
                        (Item::Special(a), I::Special(b)) => a == b,
                        (Item::Comment(a), I::Comment(b)) => a.as_bytes() == b.as_slice(),
                        (Item::Blank, I::Blank) => true,
                        _ => false,
                    };
                    prop_assert!(ok, "{:?} vs {:?}", pi, ri);
                }
            }
            prop_assert_eq!(write_kifu(&parsed), text);
        }
    }
}

#[test]
fn a_name_that_is_not_utf8_is_only_in_the_raw_names() {
    // `N+` in Shift_JIS (先手 = 0x90 0xE6 0x8E 0xE8), `N-` in ASCII.
    let records = parse_kifu(b"V2\nN+\x90\xe6\x8e\xe8\nN-b\nPI\n+\n").unwrap();
    let r = &records[0];
    assert_eq!(r.names(), (None, Some("b")));
    assert_eq!(r.names_raw().0, Some(&b"\x90\xe6\x8e\xe8"[..]));
}

#[test]
fn a_written_game_reads_back() {
    use board_core::shogi::{Color, Position};
    use csa_protocol::kifu::{GameMove, Kifu, KifuSpecial, end_statement};
    use csa_protocol::message::EndReason;

    let start = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    let k = Kifu {
        names: [Some("a".into()), Some("b\nc".into())],
        game_id: Some("g-0-1+a+b+1".into()),
        start: &start,
        moves: vec![
            GameMove {
                csa: "+0055FU".parse().unwrap(),
                time: Some(1),
                comment: Some("* 100 -5152OU".into()),
            },
            GameMove {
                csa: "-5152OU".parse().unwrap(),
                time: Some(0),
                comment: None,
            },
        ],
        end: end_statement(EndReason::MaxMoves, Color::Black),
    };
    let text = k.to_string();
    let records = parse_kifu(text.as_bytes()).unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    let moves = r.moves();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0].mv.to_string(), "+0055FU");
    assert_eq!(r.names().1, Some("b c"));
    assert_eq!(r.end().map(|e| e.0), Some(KifuSpecial::MaxMoves));
    assert!(text.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{text}");
}
