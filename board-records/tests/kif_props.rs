//! Property: any game (random legal moves from the even start, a named
//! handicap or a diagram position; times, comments of the three kinds,
//! bookmarks, variations, endings) written as KIF reads back to the same
//! game, and written as KI2 reads back to the same moves, notes and
//! variations (KI2 has no times; its ending comes from the summary line).

use board_core::shogi::{PieceKind, Position};
use board_records::kif::{
    self, Comment, CommentKind, Ending, Game, Handicap, MoveTime, Node, Notes, Variation,
};
use proptest::prelude::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const TEXTS: [&str; 6] = [
    "好手",
    "a comment",
    "評価値=158",
    "▲７六歩△３四歩",
    "x：y",
    "同　歩",
];

fn notes(rng: &mut Rng) -> Notes {
    let mut n = Notes::default();
    for _ in 0..rng.below(3) {
        let kind = [
            CommentKind::Plain,
            CommentKind::Reading,
            CommentKind::Analysis,
        ][rng.below(3)];
        n.comments.push(Comment {
            kind,
            text: TEXTS[rng.below(TEXTS.len())].to_string(),
        });
    }
    if rng.chance(5) {
        n.bookmarks.push("しおり".to_string());
    }
    n
}

fn line(
    rng: &mut Rng,
    start: Position,
    len: usize,
    depth: u32,
    first_can_branch: bool,
) -> Variation {
    let mut v = Variation::default();
    let mut pos = start;
    let mut totals = [0u32; 2];
    for i in 0..len {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        let mut node = Node::new(mv);
        if rng.chance(80) {
            let spent = [0, 1, 59, 61, 3599, 7200][rng.below(6)];
            let side = pos.side_to_move().index();
            totals[side] += spent;
            node.time = Some(MoveTime {
                spent,
                total: rng.chance(90).then_some(totals[side]),
            });
        }
        node.notes = notes(rng);
        if depth < 2 && (i > 0 || first_can_branch) && rng.chance(8) {
            for _ in 0..1 + rng.below(2) {
                let n = 1 + rng.below(6);
                let sub = line(rng, pos, n, depth + 1, false);
                if !sub.moves.is_empty() {
                    node.variations.push(sub);
                }
            }
        }
        pos.play_unchecked(mv);
        v.moves.push(node);
    }
    if rng.chance(70) {
        v.end = Some((Ending::ALL[rng.below(Ending::ALL.len())], None));
    }
    v
}

fn game(seed: u64) -> Game {
    let mut rng = Rng(seed | 1);
    let start = match rng.below(4) {
        0 | 1 => Position::startpos(),
        2 => Handicap::ALL[rng.below(Handicap::ALL.len())].position(),
        _ => {
            let mut p = Position::startpos();
            for _ in 0..rng.below(60) {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(moves[rng.below(moves.len())]);
            }
            // Renumber to move 1: a diagram carries no move number.
            let mut s = p.to_setup();
            s.move_number = 1;
            Position::from_setup(&s).unwrap()
        }
    };
    let mut g = Game::new(start);
    g.headers
        .push(("開始日時".into(), "2024/01/15 10:00:00".into()));
    g.headers.push(("先手".into(), "A".into()));
    g.headers.push(("後手".into(), "B b".into()));
    g.start_notes = notes(&mut rng);
    let len = rng.below(120);
    g.main = line(&mut rng, start, len, 0, true);
    g
}

fn strip_summaries(v: &mut Variation) {
    v.summary = None;
    for n in &mut v.moves {
        for s in &mut n.variations {
            strip_summaries(s);
        }
    }
}

/// What KI2 keeps: no times; endings as the summary tells them.
fn as_ki2(v: &mut Variation) {
    v.summary = None;
    v.end = v.end.map(|(e, _)| {
        (
            if e == Ending::Sealed {
                Ending::Interrupt
            } else {
                e
            },
            None,
        )
    });
    for n in &mut v.moves {
        n.time = None;
        for s in &mut n.variations {
            as_ki2(s);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn kif_round_trip(seed in any::<u64>()) {
        let g = game(seed);
        let text = g.to_kif(None);
        let mut back = kif::read_str(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        strip_summaries(&mut back.main);
        prop_assert_eq!(&back.main, &g.main, "{}", text);
        prop_assert!(back.start.same_position(&g.start));
        prop_assert_eq!(&back.start_notes, &g.start_notes);
        prop_assert_eq!(&back.headers, &g.headers);
        // Through Shift_JIS bytes too (every text above is in cp932).
        let bytes = g.to_bytes(kif::Format::Kif, kif::TextEncoding::ShiftJis);
        let mut back = kif::read(&bytes, None).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        strip_summaries(&mut back.main);
        prop_assert_eq!(&back.main, &g.main);
    }

    #[test]
    fn ki2_round_trip(seed in any::<u64>()) {
        let g = game(seed);
        let text = g.to_ki2(None);
        let mut back = kif::read_str(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let mut want = g.main.clone();
        as_ki2(&mut want);
        as_ki2(&mut back.main);
        prop_assert_eq!(&back.main, &want, "{}", text);
        prop_assert!(back.start.same_position(&g.start));
        prop_assert_eq!(&back.start_notes, &g.start_notes);
    }
}

#[test]
fn generator_makes_drops_and_promotions() {
    // The property covers what KI2 spells out: drops and promotions occur.
    let (mut drops, mut promotions) = (0, 0);
    for seed in 0..200 {
        let g = game(seed);
        for n in &g.main.moves {
            drops += usize::from(n.mv.drop_kind().is_some_and(|k| k != PieceKind::King));
            promotions += usize::from(n.mv.is_promotion());
        }
    }
    assert!(
        drops > 50 && promotions > 50,
        "{drops} drops, {promotions} promotions"
    );
}

/// Fragments real files are made of, put together at random: the reader
/// never panics, and whatever reads writes back to the same moves.
const FRAGMENTS: [&str; 24] = [
    "   1 ７六歩(77)",
    "   2 ３四歩(33)   ( 0:01/00:00:01)",
    "   3 ２二角成(88)",
    "   4 同　銀(31)",
    "   5 ４五角打",
    "   3 投了",
    "変化：2手",
    "変化：3手",
    "*comment",
    "**読み筋",
    "&mark",
    "手合割：香落ち",
    "手合割：謎",
    "先手の持駒：歩十八",
    "後手番",
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|一",
    "▲７六歩 △３四歩",
    "▲２二角成",
    "△同　銀",
    "まで3手で中断",
    "#KIF version=2.0 encoding=UTF-8",
    "先手：A",
    "   2 ８四歩(83)+",
    "\u{feff}",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_fragments_never_panic(picks in proptest::collection::vec(0..FRAGMENTS.len(), 0..24), crlf in any::<bool>()) {
        let sep = if crlf { "\r\n" } else { "\n" };
        let text: String = picks.iter().map(|&i| format!("{}{sep}", FRAGMENTS[i])).collect();
        if let Ok(game) = kif::read(text.as_bytes(), None) {
            let moves: Vec<_> = game.moves().collect();
            for out in [game.to_kif(None), game.to_ki2(None)] {
                let again = kif::read_str(&out).map_err(|e| TestCaseError::fail(format!("{e}\n{text}\n---\n{out}")))?;
                prop_assert_eq!(again.moves().collect::<Vec<_>>(), moves.clone());
                prop_assert!(again.start.same_position(&game.start));
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = kif::read(&bytes, None);
        let _ = kif::read(&bytes, Some(kif::TextEncoding::ShiftJis));
    }
}
