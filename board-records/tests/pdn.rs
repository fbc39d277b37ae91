//! PDN (international draughts) known answers from the spec note
//! spec/pgn-pdn.md, part 2 (sections named), and properties.

use board_core::draughts::{Color, Position};
use board_records::pdn::{Game, GameProblem, Node, ReadError, Reader, RecordFormat, Warning};
use board_records::pgn::{Comment, Nag, SyntaxProblem, Tag};
use proptest::prelude::*;

fn one(text: &[u8]) -> Game {
    let mut r = Reader::new(text);
    let g = r.next_game().expect("a game").expect("reads");
    assert!(r.next_game().is_none());
    g
}

fn texts(g: &Game) -> Vec<String> {
    g.moves.iter().map(Node::text).collect()
}

// §2.2: the start is `W:W31-50:B1-20`; §2.7: the trailing dot is read,
// pieces in any order, kings with `K`.
#[test]
fn fen_tag() {
    let g = one(b"[FEN \"W:W31-50:B1-20\"]\n\n1. 32-28 *");
    assert_eq!(*g.start(), Position::startpos());
    let g = one(b"[FEN \"W:W31-50:B1-20.\"]\n\n*");
    assert_eq!(*g.start(), Position::startpos());
    let g = one(b"[FEN \"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\"]\n\n*");
    assert_eq!(g.start().side_to_move(), Color::Black);
    let spec: Position = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
        .parse()
        .unwrap();
    assert_eq!(*g.start(), spec);
    let e = Reader::new(b"[FEN \"W:W31-50:B1-51\"]\n\n*")
        .next_game()
        .unwrap()
        .unwrap_err();
    assert!(matches!(e, ReadError::Game(g) if matches!(g.problem, GameProblem::Fen(_))));
}

// §2.6: a reader keys on GameType's leading number; 20 is international
// draughts (short form, PDN 3.0's long form, PlayOK's N1 form).
#[test]
fn game_type() {
    for t in ["20", "20,W,10,10,N2,0", "20,W,10,10,N1,0"] {
        let text = format!("[GameType \"{t}\"]\n\n1. 32-28 *");
        assert_eq!(texts(&one(text.as_bytes())), ["32-28"]);
    }
    let e = Reader::new(b"[GameType \"21,B,8,8,N1,0\"]\n\n1. 11-15 *")
        .next_game()
        .unwrap()
        .unwrap_err();
    match e {
        ReadError::Game(g) => assert_eq!(
            g.problem,
            GameProblem::UnsupportedGameType("21,B,8,8,N1,0".into())
        ),
        e => panic!("{e}"),
    }
}

// §2.8: quiet moves `32-28`, short captures `28x19`; results of the
// international set end the movetext; `1-10` is a move, not `1-1`.
#[test]
fn moves_and_results() {
    let g = one(b"[Result \"2-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n");
    assert_eq!(texts(&g), ["32-28", "19-23", "28x19", "14x23"]);
    assert_eq!(g.result, Some("2-0"));
    for r in ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"] {
        let text = format!("1. 32-28 {r}\n");
        assert_eq!(one(text.as_bytes()).result, Some(r), "{r}");
    }
    match Reader::new(b"1. 32-28 1-10 *")
        .next_game()
        .unwrap()
        .unwrap_err()
    {
        ReadError::Game(e) => match e.problem {
            GameProblem::IllegalMove { ply, ref text, .. } => {
                assert_eq!((ply, text.as_str()), (2, "1-10"))
            }
            p => panic!("{p}"),
        },
        e => panic!("{e}"),
    }
    // Capture is compulsory: a quiet move when a capture exists is refused.
    let e = Reader::new(b"1. 32-28 19-23 2. 31-27 *")
        .next_game()
        .unwrap()
        .unwrap_err();
    let ReadError::Game(g) = e else { panic!("{e}") };
    assert!(matches!(g.problem, GameProblem::IllegalMove { ply: 3, .. }));
    // Said once: the move, then why (not `31-27: 31-27: ...`).
    let said = g.problem.to_string();
    assert!(said.starts_with("ply 3: 31-27: "), "{said}");
    assert_eq!(said.matches("31-27").count(), 1, "{said}");
}

// §2.3: `%` comments anywhere to the end of the line; strength marks glued
// to the move, also in parentheses; `{}` comments; NAGs; variations.
#[test]
fn comments_marks_variations() {
    let g = one(b"1. 32-28! % a line comment\n 19-23(?) {centre} (1... 18-22) 2. 28x19 $1 14x23 *");
    assert_eq!(texts(&g), ["32-28", "19-23", "28x19", "14x23"]);
    assert_eq!(g.moves[0].nags, [Nag(1)]);
    assert_eq!(g.moves[1].nags, [Nag(2)]);
    assert_eq!(g.moves[1].comments[0].text(), "centre");
    assert_eq!(g.moves[2].nags, [Nag(1)]);
    assert_eq!(g.moves[1].variations[0][0].text(), "18-22");
}

#[test]
fn errors_locations_and_resync() {
    let text = b"[Event \"a\"]\n\n1. 32-28 19-23\n2. 33-29 *\n\n[Event \"b\"]\n\n1. 31-26 *\n";
    let mut r = Reader::new(text);
    match r.next_game().unwrap().unwrap_err() {
        ReadError::Game(e) => {
            assert_eq!((e.location.line, e.location.column), (4, 4));
            assert!(matches!(e.problem, GameProblem::IllegalMove { ply: 3, .. }));
        }
        e => panic!("{e}"),
    }
    assert_eq!(r.next_game().unwrap().unwrap().tags.get("Event"), Some("b"));
    let e = Reader::new(b"1. 32-28 <").next_game().unwrap().unwrap_err();
    assert!(
        matches!(e, ReadError::Syntax(s) if s.problem == SyntaxProblem::UnexpectedByte { byte: b'<' })
    );
}

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize) % n.max(1)
    }
}

fn line(rng: &mut Rng, mut pos: Position, plies: usize, depth: u32, var: bool) -> Vec<Node> {
    let mut nodes = Vec::new();
    for i in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        let mut node = Node::new(&pos, mv).unwrap();
        if i == 0 && var && rng.below(3) == 0 {
            node.starting_comments.push(Comment::new("idea").unwrap());
        }
        if rng.below(5) == 0 {
            node.nags.push(Nag(1 + rng.below(200) as u8));
        }
        if rng.below(5) == 0 {
            node.comments
                .push(Comment::new("[%clock w0:10:00 B0:09:58] ok").unwrap());
        }
        if depth < 2 && rng.below(8) == 0 {
            let len = 1 + rng.below(4);
            node.variations.push(line(rng, pos, len, depth + 1, true));
        }
        pos = pos.play(mv).unwrap();
        nodes.push(node);
    }
    nodes
}

fn random_game(seed: u64) -> Game {
    let mut rng = Rng(seed | 1);
    let mut g = Game::new(Position::startpos());
    // The Seven Tag Roster, which the writer writes first (§1.4, §2.5).
    g.tags.set(Tag::new("Event", "Test \"match\"").unwrap());
    for (name, value) in [("Site", "?"), ("Date", "2025.01.02"), ("Round", "-")] {
        g.tags.set(Tag::new(name, value).unwrap());
    }
    g.tags.set(Tag::new("White", "A").unwrap());
    g.tags.set(Tag::new("Black", "B").unwrap());
    let result = ["2-0", "0-2", "1-1", "*"][rng.below(4)];
    g.tags.set(Tag::new("Result", result).unwrap());
    g.tags.set(Tag::new("GameType", "20").unwrap());
    let len = rng.below(120);
    g.moves = line(&mut rng, Position::startpos(), len, 0, false);
    g.result = Some(result);
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// write -> read gives the same game (ambiguous captures in the long
    /// form, the others short: board-core's choice, §2.8).
    #[test]
    fn write_read_round_trip(seed in any::<u64>()) {
        let g = random_game(seed);
        let text = g.to_pdn();
        prop_assert_eq!(one(text.as_bytes()), g, "{}", text);
    }

    /// Every capture written in the long form (every landing square) reads
    /// to the same move (§2.8: readers accept the long form always).
    #[test]
    fn long_form_captures_read(seed in any::<u64>()) {
        let g = random_game(seed);
        let mut pos = Position::startpos();
        let mut text = String::new();
        for n in &g.moves {
            let path = pos.capture_path(n.mv()).unwrap();
            let squares: Vec<String> = path.squares().map(|s| s.to_string()).collect();
            let sep = if n.mv().captures().is_empty() { "-" } else { "x" };
            text.push_str(&squares.join(sep));
            text.push(' ');
            pos = pos.play(n.mv()).unwrap();
        }
        text.push('*');
        let back = one(text.as_bytes());
        let a: Vec<_> = back.moves.iter().map(Node::mv).collect();
        let b: Vec<_> = g.moves.iter().map(Node::mv).collect();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..1500)) {
        let mut r = Reader::new(&bytes);
        let mut n = 0;
        while let Some(g) = r.next_game() {
            if let Ok(g) = g {
                let _ = g.to_pdn();
            }
            n += 1;
            prop_assert!(n <= bytes.len() + 1);
        }
    }
}

// ---- what a newcomer tripped on (session 18) ----

// An illegal move when capturing is compulsory names the captures that
// are (pydraughts 0.6.x lists the same legal moves in these positions).
#[test]
fn illegal_moves_name_the_compulsory_captures() {
    let problem = |text: &[u8]| match Reader::new(text).next_game().unwrap() {
        Err(ReadError::Game(g)) => {
            assert_eq!(g.format, RecordFormat::Pdn);
            g.problem
        }
        other => panic!("{other:?}"),
    };
    // After 32-28 19-23 White must take 28x19 (§2.8 short form).
    let p = problem(b"1. 32-28 19-23 2. 31-27 *");
    assert_eq!(
        p.to_string(),
        "ply 3: 31-27: a capture is compulsory: 28x19"
    );
    // Two captures from 28: over 22 to 17 and over 23 to 19.
    let p = problem(b"[FEN \"W:W28,35:B22,23\"]\n\n1. 35-30 *");
    let GameProblem::IllegalMove { ref compulsory, .. } = p else {
        panic!("{p}")
    };
    let mut named: Vec<String> = compulsory.iter().map(|m| m.to_string()).collect();
    named.sort();
    assert_eq!(named, ["28x17", "28x19"]);
    let s = p.to_string();
    assert!(
        s.starts_with("ply 1: 35-30: a capture is compulsory: 28x1"),
        "{s}"
    );
    // A capture that is not of the most pieces (the majority rule): 28x19
    // takes one piece where 28x10 takes two.
    let p = problem(b"[FEN \"W:W28:B23,14\"]\n\n1. 28x19 *");
    assert_eq!(
        p.to_string(),
        "ply 1: no legal capture from 28 to 19; a capture of the most pieces is compulsory: 28x10"
    );
    // No capture possible: nothing is named.
    let p = problem(b"1. 32-26 *");
    let GameProblem::IllegalMove { ref compulsory, .. } = p else {
        panic!("{p}")
    };
    assert!(compulsory.is_empty(), "{p}");
}

// PDN errors say PDN (they used to say PGN), with the column in
// characters.
#[test]
fn syntax_errors_say_pdn() {
    let e = Reader::new("{é} 1. 32-28 <".as_bytes())
        .next_game()
        .unwrap()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "PDN syntax error at line 1, column 14 (byte 14): unexpected '<'"
    );
    assert_eq!(e.location().column, 14);
}

// §2.5/§1.4: the writer fills the Seven Tag Roster (PGN's unknown values)
// for a game read without it, first and in its order.
#[test]
fn writer_fills_the_seven_tag_roster() {
    let g = one(b"[GameType \"20\"]\n[Opening \"x\"]\n\n1. 32-28 2-0\n");
    assert_eq!(
        g.to_pdn(),
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"?\"]\n[Black \"?\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n[Opening \"x\"]\n\n\
         1. 32-28 2-0\n\n"
    );
    let g = one(b"1. 32-28 *");
    assert!(g.to_pdn().starts_with(
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[GameType \"20\"]\n\n"
    ));
    // Tags read are kept, the roster's in its order.
    let g = one(b"[Black \"B\"]\n[White \"W\"]\n[Event \"E\"]\n\n*");
    assert!(g.to_pdn().starts_with(
        "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"W\"]\n[Black \"B\"]\n"
    ));
}

// Issue 32 item 1 (for PDN): a Result tag that differs from the
// movetext's result keeps both and warns; results of one meaning (§2.8:
// `1-0` is `2-0` in type 20) and PDN 3.0's `*` terminator (§2.4: the
// standard's own example ends with `*` under `Result "0-2"`) do not.
#[test]
fn result_tag_and_movetext_result() {
    let g = one(b"[Result \"2-0\"]\n\n1. 32-28 0-2\n");
    assert_eq!((g.tags.get("Result"), g.result), (Some("2-0"), Some("0-2")));
    assert_eq!(
        g.warnings,
        [Warning::ResultMismatch {
            tag: "2-0".into(),
            movetext: "0-2"
        }]
    );
    assert_eq!(
        g.warnings[0].to_string(),
        "Result tag \"2-0\" differs from the movetext's 0-2"
    );
    for (tag, movetext) in [
        ("1-0", "2-0"),
        ("0-1", "0-2"),
        ("1/2-1/2", "1-1"),
        ("0-2", "*"),
        ("?", "2-0"),
        ("2-0", "2-0"),
    ] {
        let text = format!("[Result \"{tag}\"]\n\n1. 32-28 {movetext}\n");
        assert!(one(text.as_bytes()).warnings.is_empty(), "{text}");
    }
    let g = one(b"[Result \"1-1\"]\n\n1. 32-28 2-0\n");
    assert_eq!(g.warnings.len(), 1);
    // No Result tag: nothing to differ.
    assert!(one(b"1. 32-28 2-0\n").warnings.is_empty());
}
