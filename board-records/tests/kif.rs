//! KIF/KI2: known answers from the spec note's examples
//! (`spec/shogi-records.md`), CSA ⇄ KIF ⇄ KI2 conversion of recorded
//! Floodgate / shogi-server games (the records of boardwire-vectors;
//! expected moves as cshogi's CSA reader reads them, `tests/data/kif/*.usi`), encodings, and one malformed input
//! per error kind.

use board_core::shogi::{IllegalReason, PieceKind, Position};
use board_records::kif::{
    self, CommentKind, EncodingSource, Ending, Format, Game, GameProblem, Handicap, MoveProblem,
    MoveTime, Node, ReadError, SyntaxProblem, TextEncoding,
};

fn data(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/data/kif/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn usi(game: &Game) -> Vec<String> {
    game.moves().map(|m| m.to_string()).collect()
}

// ---- spec §1.10: the whole KfW V7 example ----

const KFW_V7: &str = "#KIF version=2.0 encoding=Shift_JIS
# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----
開始日時：2023/06/03 17:57:05
手合割：平手　　
先手：A
後手：B
手数----指手---------消費時間--
&開始局面
   1 ２六歩(27)   ( 0:03/00:00:03)
*a comment on move 1
   2 ８四歩(83)   ( 0:02/00:00:02)
   3 投了         ( 0:05/00:00:08)
まで2手で後手の勝ち
";

#[test]
fn spec_whole_example() {
    let bytes = kif::encode(KFW_V7, TextEncoding::ShiftJis);
    let game = kif::read(&bytes, None).unwrap();
    assert_eq!(
        game.encoding,
        (TextEncoding::ShiftJis, EncodingSource::Declaration)
    );
    assert_eq!(game.format, Format::Kif);
    assert_eq!(game.header("開始日時"), Some("2023/06/03 17:57:05"));
    assert_eq!((game.black(), game.white()), (Some("A"), Some("B")));
    assert_eq!(game.handicap, Some(Handicap::Even));
    assert_eq!(
        game.program_lines,
        [" ---- Kifu for Windows V7 V7.70 棋譜ファイル ----"]
    );
    assert_eq!(game.start_notes.bookmarks, ["開始局面"]);
    assert_eq!(usi(&game), ["2g2f", "8c8d"]);
    assert_eq!(
        game.main.moves[0].time,
        Some(MoveTime {
            spent: 3,
            total: Some(3)
        })
    );
    assert_eq!(game.main.moves[0].notes.text(), "a comment on move 1");
    assert_eq!(
        game.main.end,
        Some((
            Ending::Resign,
            Some(MoveTime {
                spent: 5,
                total: Some(8)
            })
        ))
    );
    assert_eq!(game.main.summary.as_deref(), Some("まで2手で後手の勝ち"));
    // Our writer gives the same text back (KfW's layout, §1.6), the
    // program line and the summary as read; 手合割 without KfW's padding.
    assert_eq!(
        game.to_kif(Some(TextEncoding::ShiftJis)),
        KFW_V7.replace("平手　　", "平手")
    );
}

#[test]
fn spec_move_line_examples() {
    // §1.6's examples, each after the moves that make it legal.
    let text = "手合割：平手
   1 ７六歩(77)   ( 0:16/00:00:16)
   2 ３四歩(33)
   3 ２二角成(88)
   4 同　銀(31)
   5 ５五角打
   6 ３三銀(22)
   7 同　角成(55)
   8 同桂(21)
";
    let game = kif::read_str(text).unwrap();
    assert_eq!(
        usi(&game),
        [
            "7g7f", "3c3d", "8h2b+", "3a2b", "B*5e", "2b3c", "5e3c+", "2a3c"
        ]
    );
}

#[test]
fn every_ending_and_its_summary() {
    // §1.7: each word, the KfW summary our writer gives, read back.
    let cases = [
        (Ending::Resign, "まで1手で先手の勝ち"),
        (Ending::Interrupt, "まで1手で中断"),
        (Ending::Repetition, "まで1手で千日手"),
        (Ending::Mate, "まで1手で詰"),
        (Ending::Impasse, "まで1手で持将棋"),
        (Ending::TimeUp, "まで1手で時間切れにより先手の勝ち"),
        (Ending::IllegalWin, "まで1手で後手の反則勝ち"),
        (Ending::IllegalLoss, "まで1手で後手の反則負け"),
        (Ending::EnteringKingWin, "まで1手で後手の入玉勝ち"),
        (Ending::Sealed, "まで1手で中断"),
        (Ending::NoMate, "まで1手で不詰"),
    ];
    for (ending, summary) in cases {
        let text = format!("   1 ７六歩(77)\n   2 {}\n{summary}\n", ending.word());
        let game = kif::read_str(&text).unwrap();
        assert_eq!(game.main.end.map(|e| e.0), Some(ending));
        let mut g = game.clone();
        g.main.summary = None;
        assert!(
            g.to_kif(None)
                .ends_with(&format!("{}\n{summary}\n", ending.word())),
            "{ending:?}"
        );
        // KI2 has no ending words: the summary carries it (§2).
        let ki2 = kif::read_str(&g.to_ki2(None)).unwrap();
        let expected = if ending == Ending::Sealed {
            Ending::Interrupt
        } else {
            ending
        };
        assert_eq!(ki2.main.end.map(|e| e.0), Some(expected), "{ending:?}");
    }
    // Handicap games name the sides 下手/上手.
    let game = kif::read_str("手合割：香落ち\n   1 ３四歩(33)\n   2 投了\n").unwrap();
    assert_eq!(game.start.side_to_move(), board_core::shogi::Color::White);
    let mut g = game;
    g.main.summary = None;
    assert!(g.to_kif(None).ends_with("まで1手で上手の勝ち\n"));
}

#[test]
fn comments_readings_bookmarks_and_headers_after_star_lines() {
    // lishogi #433: `*` lines before the headers; §1.8: `**` and `*#`.
    let text = "*first line of the game comment
開始日時：2021/06/29 09:00
*second
先手：A
   1 ７六歩(77)
*plain one
**対局 評価値 120 読み筋 △３四歩(33)
*#評価値=158
*plain two
&しおり
   2 ３四歩(33)
";
    let game = kif::read_str(text).unwrap();
    assert_eq!(
        game.start_notes.text(),
        "first line of the game comment\nsecond"
    );
    assert_eq!(game.black(), Some("A"));
    let n = &game.main.moves[0].notes;
    let kinds: Vec<_> = n
        .comments
        .iter()
        .map(|c| (c.kind, c.text.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (CommentKind::Plain, "plain one"),
            (CommentKind::Reading, "対局 評価値 120 読み筋 △３四歩(33)"),
            (CommentKind::Analysis, "評価値=158"),
            (CommentKind::Plain, "plain two"),
        ]
    );
    assert_eq!(n.bookmarks, ["しおり"]);
    assert_eq!(usi(&game), ["7g7f", "3c3d"]);
    // Written and read back: the same notes.
    let again = kif::read_str(&game.to_kif(None)).unwrap();
    assert_eq!(again.main.moves[0].notes, *n);
    assert_eq!(again.start_notes, game.start_notes);
}

// ---- §1.9 variations ----

#[test]
fn variations_in_kfw_order() {
    let text = "手合割：平手
   1 ７六歩(77)
   2 ３四歩(33)+
   3 ２六歩(27)+
   4 投了
まで3手で先手の勝ち

変化：3手
   3 ６八銀(79)
   4 中断
まで3手で中断

変化：2手
   2 ８四歩(83)
   3 ２六歩(27)

変化：2手
   2 ４四歩(43)
";
    let game = kif::read_str(text).unwrap();
    assert_eq!(usi(&game), ["7g7f", "3c3d", "2g2f"]);
    let m2 = &game.main.moves[1];
    let m3 = &game.main.moves[2];
    assert_eq!(m3.variations.len(), 1);
    assert_eq!(m3.variations[0].moves[0].mv.to_string(), "7i6h");
    assert_eq!(m3.variations[0].end.map(|e| e.0), Some(Ending::Interrupt));
    // Two alternatives to move 2: siblings, not nested.
    let alts: Vec<String> = m2
        .variations
        .iter()
        .map(|v| v.moves[0].mv.to_string())
        .collect();
    assert_eq!(alts, ["8c8d", "4c4d"]);
    assert_eq!(m2.variations[0].moves.len(), 2);
    // Written in KfW order and read back to the same tree.
    let written = game.to_kif(None);
    let again = kif::read_str(&written).unwrap();
    assert_eq!(again.main, game.main, "{written}");
    let ki2 = kif::read_str(&game.to_ki2(None)).unwrap();
    assert_eq!(usi(&ki2), usi(&game));
    assert_eq!(ki2.main.moves[1].variations.len(), 2);
}

// ---- §1.5 board diagram ----

const BOD: &str = "後手の持駒：飛　金四　銀四　桂　香二　歩十六　
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・v香 ・ ・|一
| ・ ・ ・ ・ ・ ・v桂v玉 ・|二
| ・ ・ ・ ・ ・ ・ 飛 ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ 香 桂 玉|九
+---------------------------+
先手の持駒：角二　桂　
先手番
手数----指手---------消費時間--
   1 ２一角打
";

#[test]
fn board_diagram_with_both_hands() {
    let game = kif::read_str(BOD).unwrap();
    // Read off the diagram by §1.5's cell rules.
    let expected: Position = "6l2/6nk1/6R2/9/9/9/9/9/6LNK b 2BNr4g4sn2l16p 1"
        .parse()
        .unwrap();
    assert!(game.start.same_position(&expected), "{}", game.start);
    assert_eq!(game.handicap, None);
    assert_eq!(usi(&game), ["B*2a"]);
    // Written back as a diagram (no 手合割 line) and read to the same start.
    let w = game.to_kif(None);
    assert!(
        w.contains("後手の持駒：飛　金四　銀四　桂　香二　歩十六　\n"),
        "{w}"
    );
    assert!(!w.contains("手合割"));
    assert!(kif::read_str(&w).unwrap().start.same_position(&expected));
    // Unspaced hands and `なし` (§1.5).
    let t = BOD
        .replace(
            "後手の持駒：飛　金四　銀四　桂　香二　歩十六　",
            "後手の持駒：飛金四銀四桂香二歩十六",
        )
        .replace("先手の持駒：角二　桂　", "先手の持駒：角二 桂");
    assert!(kif::read_str(&t).unwrap().start.same_position(&expected));
}

#[test]
fn named_handicaps() {
    for h in Handicap::ALL {
        let text = format!("手合割：{}　\n", h.name());
        let game = kif::read_str(&text).unwrap();
        assert!(game.start.same_position(&h.position()), "{h:?}");
        assert_eq!(game.handicap, Some(h));
    }
    // python-shogi and cshogi's SFEN for 二枚落ち (their HANDYCAP_SFENS).
    let two: Position = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        .parse()
        .unwrap();
    assert!(Handicap::TwoPieces.position().same_position(&two));
    let three: Position = "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        .parse()
        .unwrap();
    assert!(Handicap::ThreePieces.position().same_position(&three));
}

// ---- KI2 ----

#[test]
fn ki2_spec_example() {
    // §2's example, KfW layout.
    let text = "手合割：平手
▲７六歩    △３四歩    ▲２六歩    △８四歩    ▲２五歩    △８五歩
▲７八金    △３二金    ▲２四歩    △同　歩    ▲同　飛    △２三歩打
まで12手で中断
";
    let game = kif::read_str(text).unwrap();
    assert_eq!(game.format, Format::Ki2);
    assert_eq!(
        usi(&game),
        [
            "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d", "2h2d",
            "P*2c"
        ]
    );
    assert_eq!(game.main.end.map(|e| e.0), Some(Ending::Interrupt));
    // Our KI2 is the same text but for the last move: §2.1 rule 6 writes
    // 打 only when a board pawn could also go there, and none can, while
    // §2's example writes `２三歩打` (the note disagrees with itself; we
    // follow the rule, and read both).
    assert_eq!(game.to_ki2(None), text.replace("△２三歩打", "△２三歩"));
    // Other destinations and marks are read (§2: `７６`, `76`, ☗☖, 同歩).
    let game = kif::read_str("☗７６歩 ☖34歩 ▲２２角成 △同銀\n").unwrap();
    assert_eq!(usi(&game), ["7g7f", "3c3d", "8h2b+", "3a2b"]);
}

#[test]
fn ki2_ambiguous_and_unresolvable_moves() {
    // Both golds can go to ５八 after ▲７八金: `▲５八金` alone is ambiguous.
    let e = kif::read_str("▲５八金\n").unwrap_err();
    let ReadError::Game(g) = e else {
        panic!("{e:?}")
    };
    assert!(matches!(
        g.problem,
        GameProblem::IllegalMove {
            ply: 1,
            problem: MoveProblem::Ambiguous { ref candidates },
            ..
        } if candidates.len() == 2
    ));
    assert_eq!((g.location.line, g.location.column), (1, 1));
    let game = kif::read_str("▲５八金右\n").unwrap();
    assert_eq!(usi(&game), ["4i5h"]);
    let game = kif::read_str("▲５八金左\n").unwrap();
    assert_eq!(usi(&game), ["6i5h"]);
    // No piece can: NoSuchMove.
    let e = kif::read_str("▲７六歩 △５五角\n").unwrap_err();
    let ReadError::Game(g) = e else { panic!() };
    assert!(matches!(
        g.problem,
        GameProblem::IllegalMove {
            ply: 2,
            problem: MoveProblem::NoSuchMove,
            ..
        }
    ));
    // A mark for the wrong side.
    let e = kif::read_str("▲７六歩 ▲２六歩\n").unwrap_err();
    let ReadError::Game(g) = e else { panic!() };
    assert!(matches!(
        g.problem,
        GameProblem::IllegalMove {
            ply: 2,
            problem: MoveProblem::Illegal(IllegalReason::WrongSide { .. }),
            ..
        }
    ));
}

// ---- CSA ⇄ KIF ⇄ KI2 on recorded games ----

/// A CSA record read with board-core's CSA notation: start position, moves
/// and `T` times.
fn read_csa(bytes: &[u8]) -> Game {
    let mut pos_text = Vec::new();
    let mut lines = bytes
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    for line in lines.by_ref() {
        if line.starts_with(b"P") {
            pos_text.extend_from_slice(line);
            pos_text.push(b'\n');
        } else if line == b"+" || line == b"-" {
            pos_text.extend_from_slice(line);
            pos_text.push(b'\n');
            break;
        }
    }
    let start = Position::from_csa(&pos_text).unwrap();
    let mut game = Game::new(start);
    let mut pos = start;
    for line in lines {
        if line.len() >= 7 && (line[0] == b'+' || line[0] == b'-') && line[1].is_ascii_digit() {
            let mv = pos.parse_csa_move(&line[..7]).unwrap();
            pos = pos.play(mv).unwrap();
            game.main.moves.push(Node::new(mv));
        } else if let Some(t) = line.strip_prefix(b"T") {
            let spent: u32 = std::str::from_utf8(t).unwrap().parse().unwrap();
            game.main.moves.last_mut().unwrap().time = Some(MoveTime { spent, total: None });
        } else if line == b"%TORYO" {
            game.main.end = Some((Ending::Resign, None));
        }
    }
    game
}

/// cshogi's reading of the CSA file: start SFEN, moves, times.
fn peer(name: &str) -> (Position, Vec<String>, Vec<u32>) {
    let text = String::from_utf8(data(name)).unwrap();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let sfen = lines.next().unwrap().parse().unwrap();
    let moves = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect();
    let times = lines
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    (sfen, moves, times)
}

fn csa_file(name: &str) -> &'static [u8] {
    use boardwire_vectors::data;
    match name {
        "floodgate-900-0-gps_normal-gps_l-20100507" => data::KIFU_FLOODGATE_GPS,
        "uchifuzume-floodgate-2008" => data::KIFU_UCHIFUZUME,
        "maxmoves-ceotest" => data::CSA_RECORDS[0].1,
        "oute-sennichite-ceotest" => data::CSA_RECORDS[1].1,
        _ => unreachable!(),
    }
}

#[test]
fn floodgate_csa_to_kif_and_ki2_and_back() {
    assert!(
        boardwire_vectors::data::CSA_RECORDS[0]
            .0
            .contains("MaxMovesTest")
    );
    assert!(
        boardwire_vectors::data::CSA_RECORDS[1]
            .0
            .contains("OuteSennichiteTest")
    );
    for name in [
        "floodgate-900-0-gps_normal-gps_l-20100507",
        "maxmoves-ceotest",
        "oute-sennichite-ceotest",
        "uchifuzume-floodgate-2008",
    ] {
        let (start, moves, times) = peer(&format!("{name}.usi"));
        let game = read_csa(csa_file(name));
        assert!(game.start.same_position(&start));
        assert_eq!(
            usi(&game),
            moves,
            "{name}: board-core's CSA reading vs cshogi's"
        );
        for format in [Format::Kif, Format::Ki2] {
            for enc in [TextEncoding::ShiftJis, TextEncoding::Utf8] {
                let bytes = game.to_bytes(format, enc);
                let back = kif::read(&bytes, Some(enc)).unwrap();
                assert_eq!(usi(&back), moves, "{name} {format:?} {enc:?}");
                assert_eq!(back.format, format);
                if format == Format::Kif {
                    let spent: Vec<u32> = back
                        .main
                        .moves
                        .iter()
                        .map(|n| n.time.unwrap().spent)
                        .collect();
                    assert_eq!(spent, times, "{name}");
                }
            }
        }
    }
}

// ---- encodings (§1.1) ----

#[test]
fn encodings_are_chosen_and_reported() {
    let text = "先手：甲\n   1 ７六歩(77)\n";
    let sjis = kif::encode(text, TextEncoding::ShiftJis);
    let g = kif::read(&sjis, Some(TextEncoding::ShiftJis)).unwrap();
    assert_eq!(g.encoding, (TextEncoding::ShiftJis, EncodingSource::Hint));
    let g = kif::read(&sjis, None).unwrap();
    assert_eq!(
        g.encoding,
        (TextEncoding::ShiftJis, EncodingSource::Detected)
    );
    // 81Dojo: UTF-8 in a `.kif` file.
    let g = kif::read(text.as_bytes(), TextEncoding::from_extension("kif")).unwrap();
    assert_eq!(g.encoding, (TextEncoding::Utf8, EncodingSource::Detected));
    assert_eq!(g.black(), Some("甲"));
    // Shogidokoro: BOM.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(text.as_bytes());
    let g = kif::read(&bom, TextEncoding::from_extension("kifu")).unwrap();
    assert_eq!(g.encoding, (TextEncoding::Utf8, EncodingSource::Bom));
    // A declaration the bytes contradict (json-kifu-format's and
    // shogi-kifu-converter's `.kif` test files): read as what they are.
    let mut lie = b"#KIF version=2.0 encoding=UTF-8\n".to_vec();
    lie.extend_from_slice(&sjis);
    let g = kif::read(&lie, None).unwrap();
    assert_eq!(
        g.encoding,
        (TextEncoding::ShiftJis, EncodingSource::Detected)
    );
    // Neither: the declared encoding's error, at the first bad byte.
    let mut bad = b"#KIF version=2.0 encoding=UTF-8\n".to_vec();
    let at = bad.len();
    bad.extend_from_slice(b"\xff\xff\n");
    let e = kif::read(&bad, None).unwrap_err();
    assert_eq!(
        e,
        ReadError::Decode(kif::DecodeError {
            encoding: TextEncoding::Utf8,
            offset: at,
            chosen_by: EncodingSource::Declaration
        })
    );
    // Bytes that are neither UTF-8 nor cp932 (0xFF).
    let e = kif::read(b"\x82\xa0\xff", None).unwrap_err();
    assert!(
        matches!(e, ReadError::Decode(d) if d.encoding == TextEncoding::ShiftJis && d.offset == 2)
    );
    // Offsets of errors after a BOM count the BOM.
    let e = kif::read(b"\xEF\xBB\xBF   1 x\n", None).unwrap_err();
    assert_eq!(e.location().offset, 3 + 5);
}

// ---- malformed input: one per error kind ----

fn syntax(text: &str) -> (SyntaxProblem, u32, u32) {
    match kif::read_str(text) {
        Err(ReadError::Syntax(e)) => (e.problem, e.location.line, e.location.column),
        other => panic!("{text:?}: {other:?}"),
    }
}

fn game_problem(text: &str) -> GameProblem {
    match kif::read_str(text) {
        Err(ReadError::Game(e)) => e.problem,
        other => panic!("{text:?}: {other:?}"),
    }
}

#[test]
fn every_syntax_error_kind() {
    assert_eq!(
        syntax("   1 x六歩(77)\n"),
        (SyntaxProblem::UnknownMoveText, 1, 6)
    );
    // Columns count characters (`▲` is one), as an editor shows them.
    assert_eq!(syntax("▲x六歩\n"), (SyntaxProblem::ExpectedSquare, 1, 2));
    assert_eq!(
        syntax("   1 ７六Ｘ(77)\n"),
        (SyntaxProblem::ExpectedPiece, 1, 8)
    );
    assert_eq!(syntax("   1 ７六歩\n").0, SyntaxProblem::ExpectedOrigin);
    assert_eq!(syntax("   1 ７六歩(7)\n").0, SyntaxProblem::ExpectedOrigin);
    assert_eq!(
        syntax("   1 ７六歩(77) ( 0:1x/00:00:01)\n").0,
        SyntaxProblem::BadTime
    );
    assert_eq!(
        syntax("   1 ７六歩(77) ( 0:01/00:00:01) junk\n").0,
        SyntaxProblem::TrailingText
    );
    assert_eq!(syntax("| ・ ・|一\n").0, SyntaxProblem::BadBoardRow);
    assert_eq!(syntax("先手の持駒：歩十九\n").0, SyntaxProblem::BadHand);
    assert_eq!(
        syntax("   1 ７六歩(77)\n変化：手\n").0,
        SyntaxProblem::BadVariation
    );
    assert_eq!(
        syntax("▲７六歩 ７六歩\n"),
        (SyntaxProblem::ExpectedMark, 1, 6)
    );
    assert_eq!(syntax("▲７六歩右直\n").0, SyntaxProblem::BadModifier);
    assert_eq!(
        syntax("   1 ７六歩(77)\n   3 ３四歩(33)\n"),
        (
            SyntaxProblem::PlyMismatch {
                expected: 2,
                found: 3
            },
            2,
            1
        )
    );
    assert_eq!(
        syntax("   1 ７六歩(77)\n   2 投了\n   2 ３四歩(33)\n").0,
        SyntaxProblem::MoveAfterEnd
    );
    assert_eq!(
        syntax("   1 ７六歩(77)\n手合割：平手\n").0,
        SyntaxProblem::PositionAfterMoves
    );
    // The caps.
    let limits = kif::Limits {
        max_line_len: 8,
        ..kif::Limits::DEFAULT
    };
    let e = kif::read_str_with("先手：ABCDEFG\n", limits).unwrap_err();
    assert!(
        matches!(e, ReadError::Syntax(s) if s.problem == SyntaxProblem::LineTooLong { max: 8 })
    );
    let limits = kif::Limits {
        max_headers: 1,
        ..kif::Limits::DEFAULT
    };
    let e = kif::read_str_with("先手：A\n後手：B\n", limits).unwrap_err();
    assert!(
        matches!(e, ReadError::Syntax(s) if s.problem == SyntaxProblem::TooManyHeaders { max: 1 } && s.location.line == 2)
    );
    let limits = kif::Limits {
        max_moves: 1,
        ..kif::Limits::DEFAULT
    };
    let e = kif::read_str_with("▲７六歩 △３四歩\n", limits).unwrap_err();
    assert!(
        matches!(e, ReadError::Syntax(s) if s.problem == SyntaxProblem::TooManyMoves { max: 1 } && s.location.column == 6)
    );
    let limits = kif::Limits {
        max_comments: 1,
        ..kif::Limits::DEFAULT
    };
    let e = kif::read_str_with("*a\n*b\n", limits).unwrap_err();
    assert!(
        matches!(e, ReadError::Syntax(s) if s.problem == SyntaxProblem::TooManyComments { max: 1 })
    );
    let limits = kif::Limits {
        max_variations: 0,
        ..kif::Limits::DEFAULT
    };
    let e = kif::read_str_with("   1 ７六歩(77)\n変化：1手\n", limits).unwrap_err();
    assert!(
        matches!(e, ReadError::Syntax(s) if s.problem == SyntaxProblem::TooManyVariations { max: 0 })
    );
    // A word that is neither a move nor an ending.
    assert_eq!(
        syntax("   1 ７六歩(77)\n   2 不戦勝\n").0,
        SyntaxProblem::UnknownMoveText
    );
}

#[test]
fn every_game_error_kind() {
    assert_eq!(
        game_problem("手合割：詰将棋\n   1 ７六歩(77)\n"),
        GameProblem::UnsupportedHandicap("詰将棋".into())
    );
    assert_eq!(
        game_problem("| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n"),
        GameProblem::IncompleteDiagram { rows: 1 }
    );
    let nine_empty = "| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n".repeat(9);
    assert!(matches!(
        game_problem(&nine_empty.replacen(" ・|一", " 歩|一", 1)),
        GameProblem::Diagram(_)
    ));
    assert_eq!(
        game_problem("   1 ７六歩(77)\n変化：5手\n"),
        GameProblem::VariationWithoutMove { ply: 5 }
    );
    let p = game_problem("   1 ７六金(77)\n");
    assert!(matches!(
        p,
        GameProblem::IllegalMove {
            ply: 1,
            problem: MoveProblem::WrongPiece {
                named: PieceKind::Gold,
                on_board: Some(PieceKind::Pawn)
            },
            ..
        }
    ));
    let p = game_problem("   1 同　歩(77)\n");
    assert!(matches!(
        p,
        GameProblem::IllegalMove {
            problem: MoveProblem::SameWithoutPrevious,
            ..
        }
    ));
    let p = game_problem("   1 ７五歩(77)\n");
    assert!(matches!(
        p,
        GameProblem::IllegalMove { ply: 1, ref text, problem: MoveProblem::Illegal(IllegalReason::Unreachable { .. }), .. } if text == "７五歩(77)"
    ));
    // In a variation: the depth is named.
    let p = game_problem("   1 ７六歩(77)\n   2 ３四歩(33)\n変化：2手\n   2 ３五歩(33)\n");
    assert!(matches!(
        p,
        GameProblem::IllegalMove {
            ply: 2,
            depth: 1,
            ..
        }
    ));
}

#[test]
fn errors_are_displayed_with_their_place() {
    let e = kif::read_str("先手：A\n   1 ７五歩(77)\n").unwrap_err();
    let s = e.to_string();
    assert!(
        s.starts_with("KIF game error at line 2, column 1 (byte 11): ply 1: ７五歩(77): "),
        "{s}"
    );
}

#[test]
fn multi_line_texts_keep_the_line_structure() {
    let mut game = Game::new(Position::startpos());
    game.headers
        .push(("備考".into(), "line one\nline two".into()));
    let mv = game.start.parse_usi("7g7f").unwrap();
    let mut node = Node::new(mv);
    node.notes.comments.push(kif::Comment {
        kind: CommentKind::Plain,
        text: "a\nb".into(),
    });
    game.main.moves.push(node);
    let text = game.to_kif(None);
    // KfW's literal `\n` in 備考 (§4), one `*` line per comment line (§1.8).
    assert!(text.contains("備考：line one\\nline two\n"), "{text}");
    assert!(text.contains("*a\n*b\n"), "{text}");
    let back = kif::read_str(&text).unwrap();
    assert_eq!(back.main.moves[0].notes.text(), "a\nb");
    assert_eq!(back.header("備考"), Some("line one\\nline two"));
}

// ---- what a newcomer tripped on (session 18) ----

// Columns count characters, offsets bytes; the error names the format the
// text is read as (KI2 here) and lists the moves an ambiguous KI2 move
// fits, each with the word that singles it out (§2.1: with golds on ６九
// and ４九, `５八金右` is ４九's and `５八金左` ６九's) and its origin.
#[test]
fn ki2_errors_name_ki2_characters_and_candidates() {
    // `▲５八金` starts at character 11 of the line, byte 26 (▲７六歩 and
    // △３四歩 are 4 characters of 3 bytes each, each then a space).
    let e = kif::read_str("▲７六歩 △３四歩 ▲５八金\n").unwrap_err();
    let ReadError::Game(g) = &e else {
        panic!("{e:?}")
    };
    assert_eq!(g.format, kif::RecordFormat::Ki2);
    assert_eq!(
        (g.location.line, g.location.column, g.location.offset),
        (1, 11, 26)
    );
    let GameProblem::IllegalMove {
        ply: 3,
        problem: MoveProblem::Ambiguous { candidates },
        ..
    } = &g.problem
    else {
        panic!("{e}")
    };
    let mut named: Vec<(String, String)> = candidates
        .iter()
        .map(|c| (c.ki2.clone(), c.mv.to_string()))
        .collect();
    named.sort();
    assert_eq!(
        named,
        [
            ("５八金右".to_string(), "4i5h".to_string()),
            ("５八金左".to_string(), "6i5h".to_string())
        ]
    );
    let s = e.to_string();
    assert!(
        s.starts_with("KI2 game error at line 1, column 11 (byte 26): ply 3: "),
        "{s}"
    );
    assert!(
        s.contains("５八金右(49)") && s.contains("５八金左(69)"),
        "{s}"
    );
    // A syntax error in a KI2 file says KI2 too.
    let e = kif::read_str("先手：A\n▲７六歩 △x四歩\n").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("KI2 syntax error at line 2, column 7 (byte 27): "),
        "{e}"
    );
    assert_eq!(e.format(), Some(kif::RecordFormat::Ki2));
    // And a KIF file KIF.
    let e = kif::read_str("   1 ７六歩(77)\n   2 x四歩(33)\n").unwrap_err();
    assert_eq!(e.format(), Some(kif::RecordFormat::Kif));
}

// Pieces and squares in KIF's words (§0: 歩 金 成銀; squares ７六), never
// CSA's codes (FU, KI) or USI's squares (7g).
#[test]
fn errors_say_pieces_and_squares_as_kif_does() {
    let said = |text: &str| kif::read_str(text).unwrap_err().to_string();
    let s = said("   1 ７五歩(77)\n");
    assert!(
        s.ends_with("ply 1: ７五歩(77): the 歩 on ７七 cannot reach ７五"),
        "{s}"
    );
    let s = said("   1 ７六金(77)\n");
    assert!(s.ends_with("names 金 but 歩 stands on the origin"), "{s}");
    let s = said("   1 ５五歩打\n");
    assert!(s.ends_with("no 歩 in hand"), "{s}");
    // ▲ moving twice: whose turn it is, with the side's KIF name.
    let s = said("▲７六歩 ▲２六歩\n");
    assert!(s.ends_with("it is 後手's (△) turn"), "{s}");
    for s in [
        said("   1 ７五歩(77)\n"),
        said("   1 ７六金(77)\n"),
        said("   1 ５五歩打\n"),
    ] {
        let (_, problem) = s.split_once(": ply 1: ").unwrap();
        for code in ["FU", "KI", "7g", "7e"] {
            assert!(!problem.contains(code), "{s}");
        }
    }
}
