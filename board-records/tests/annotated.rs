//! The one annotated-move type (issue 32 item 5): PGN commands and KIF
//! time columns read into the same fields, values from the spec notes'
//! examples (spec/pgn-pdn.md §1.9, spec/shogi-records.md §1.6, §1.8).

use core::time::Duration;

use board_core::chess;
use board_records::annotated::{Annotated, Eval, Nag, Score};
use board_records::{kif, pdn, pgn};

fn pgn_first(text: &str) -> pgn::Node {
    let g = pgn::Reader::new(text.as_bytes())
        .next_game()
        .unwrap()
        .unwrap();
    g.moves[0].clone()
}

// §1.9: "one comment may hold several commands
// (`{[%clk 0:00:07][%eval -6.05] White is toast}`)".
#[test]
fn pgn_commands_into_fields() {
    let a = pgn_first("1. e4 {[%clk 0:00:07][%eval -6.05] White is toast} *").annotated();
    assert_eq!(a.clock, Some(Duration::from_secs(7)));
    assert_eq!(
        a.eval,
        Some(Eval {
            score: Score::Centipawns(-605),
            depth: None
        })
    );
    assert_eq!(a.comments, ["White is toast"]);
    assert_eq!((a.spent, a.used), (None, None));
    // §1.9: `%emt` time spent, `%egt` total time used, `#-3` mate; a
    // suffix `?!` is NAG 6 (§1.5); commands without a field stay.
    let a = pgn_first(
        "1. e4?! { [%emt 0:00:12.5] a [%egt 0:05:00] b [%csl Rd4] } { [%eval #-3,20] } *",
    )
    .annotated();
    assert_eq!(a.spent, Some(Duration::from_millis(12_500)));
    assert_eq!(a.used, Some(Duration::from_secs(300)));
    assert_eq!(
        a.eval,
        Some(Eval {
            score: Score::Mate(-3),
            depth: Some(20)
        })
    );
    assert_eq!(a.nags, [Nag(6)]);
    assert_eq!(a.comments, ["a b [%csl Rd4]"]);
    assert_eq!(a.mv.map(|m| m.to_string()), Some("e2e4".to_string()));
}

// §1.6: the KIF time column is the time spent and the mover's total used
// (`( 0:01/00:00:01)`), also without the total (`( 0:12/)`); §1.8: `*`
// lines are comments, `**` reading lines are not.
#[test]
fn kif_time_column_into_fields() {
    let g = kif::read_str(
        "   1 ７六歩(77)   ( 0:01/00:00:01)\n*first\n**reading\n*second\n   2 ３四歩(33)   ( 1:02/)\n",
    )
    .unwrap();
    let a = g.main.moves[0].annotated();
    assert_eq!(a.spent, Some(Duration::from_secs(1)));
    assert_eq!(a.used, Some(Duration::from_secs(1)));
    assert_eq!(a.comments, ["first", "second"]);
    assert_eq!((a.clock, a.eval), (None, None));
    assert_eq!(a.mv.to_string(), "7g7f");
    let a = g.main.moves[1].annotated();
    assert_eq!((a.spent, a.used), (Some(Duration::from_secs(62)), None));
}

// What each format can hold is carried over: written and read back, the
// same fields.
#[test]
fn written_back_to_the_same_fields() {
    let start = chess::Position::startpos();
    let mv = start.parse_san("e4").unwrap();
    let mut a = Annotated::new(Some(mv));
    a.comments = vec!["good {move}".into(), "second".into()];
    a.nags = vec![Nag(1)];
    a.spent = Some(Duration::from_millis(2_500));
    a.used = Some(Duration::from_secs(3_725));
    a.clock = Some(Duration::from_secs(178));
    a.eval = Some(Eval {
        score: Score::Centipawns(-5),
        depth: Some(18),
    });
    let node = pgn::Node::from_annotated(&start, &a).unwrap();
    let mut game = pgn::Game::new(start);
    game.moves.push(node);
    let text = game.to_pgn();
    // python-chess's forms (§1.9, §1.10): `%.2f`, H:MM:SS, decimals
    // trimmed.
    assert!(
        text.contains(
            "{ [%eval -0.05,18] [%clk 0:02:58] [%emt 0:00:02.5] [%egt 1:02:05] good move }"
        ),
        "{text}"
    );
    let back = pgn_first(&text).annotated();
    a.comments[0] = "good move".into();
    assert_eq!(back, a);

    // KIF holds the time spent and used (whole seconds) and comments.
    let g = kif::read_str("   1 ７六歩(77)   ( 0:01/00:00:01)\n*first\n").unwrap();
    let mut a = g.main.moves[0].annotated();
    let node = kif::Node::from_annotated(&a);
    assert_eq!(node, g.main.moves[0]);
    a.clock = Some(Duration::from_secs(1));
    a.spent = Some(Duration::from_millis(1_900));
    let node = kif::Node::from_annotated(&a);
    assert_eq!(node.time.map(|t| (t.spent, t.total)), Some((1, Some(1))));

    // PDN as PGN.
    let pos = board_core::draughts::Position::startpos();
    let mut a = Annotated::new(pos.parse_move("32-28").unwrap());
    a.clock = Some(Duration::from_secs(600));
    a.comments = vec!["centre".into()];
    let node = pdn::Node::from_annotated(&pos, &a).unwrap();
    assert_eq!(node.comments[0].text(), "[%clk 0:10:00] centre");
    assert_eq!(node.annotated(), a);
}
