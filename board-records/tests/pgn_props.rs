//! Properties: writing then reading gives the same game; no input makes
//! the reader panic or loop.

use board_core::chess::Position;
use board_records::pgn::{Comment, Game, GameResult, Nag, Node, Reader, Tag, writer};
use proptest::prelude::*;

/// xorshift64*: the game's shape from one seed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize) % n.max(1)
    }
}

const WORDS: [&str; 12] = [
    "best",
    "[%clk 0:03:00]",
    "[%eval -1.30]",
    "[%eval #-3]",
    "Inaccuracy.",
    "(0.26 → 0.85)",
    "a;b",
    "x\ny",
    "%not an escape",
    "[not a tag]",
    "\"q\"",
    "Übung",
];

fn comment(rng: &mut Rng) -> Comment {
    let n = rng.below(4);
    let words: Vec<&str> = (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect();
    Comment::new(&words.join(" ")).unwrap()
}

fn line(
    rng: &mut Rng,
    mut pos: Position,
    plies: usize,
    depth: u32,
    first_in_var: bool,
) -> Vec<Node> {
    let mut nodes: Vec<Node> = Vec::new();
    for i in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let before = pos;
        let mut node = if rng.below(40) == 0 && !pos.is_check() {
            let mut s = pos.to_setup();
            s.side_to_move = s.side_to_move.opposite();
            s.ep_square = None;
            s.halfmove_clock += 1;
            if s.side_to_move == board_core::chess::Color::White {
                s.fullmove_number += 1;
            }
            pos = Position::from_setup(&s).unwrap();
            Node::null()
        } else {
            let mv = legal[rng.below(legal.len())];
            pos = pos.play(mv).unwrap();
            Node::new(&before, mv).unwrap()
        };
        if i == 0 && first_in_var && rng.below(3) == 0 {
            node.starting_comments.push(comment(rng));
        }
        for _ in 0..rng.below(3) {
            if rng.below(3) == 0 {
                node.nags.push(Nag(1 + rng.below(255) as u8));
            }
        }
        if rng.below(3) == 0 {
            node.comments.push(comment(rng));
        }
        if depth < 3 && rng.below(6) == 0 {
            for _ in 0..1 + rng.below(2) {
                let len = 1 + rng.below(5);
                let var = line(rng, before, len, depth + 1, true);
                node.variations.push(var);
            }
        }
        nodes.push(node);
    }
    nodes
}

fn random_game(seed: u64) -> Game {
    let mut rng = Rng(seed | 1);
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 3 40",
    ];
    let start: Position = starts[rng.below(starts.len())].parse().unwrap();
    let mut g = Game::new(start);
    let result = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ][rng.below(4)];
    let values = [
        "?",
        "Fischer, Robert J.",
        "a \"quoted\" \\ value",
        "Zürich",
        "",
    ];
    for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
        g.tags
            .set(Tag::new(name, values[rng.below(values.len())]).unwrap());
    }
    g.tags.set(Tag::new("Result", result.as_str()).unwrap());
    if start != Position::startpos() {
        g.tags.set(Tag::new("FEN", &start.to_string()).unwrap());
        g.tags.set(Tag::new("SetUp", "1").unwrap());
    }
    // Other tags in ASCII order (the writer's order).
    for name in ["Annotator", "ECO", "TimeControl", "WhiteElo"] {
        if rng.below(2) == 0 {
            g.tags.set(Tag::new(name, "x").unwrap());
        }
    }
    let mut sorted: Vec<Tag> = g.tags.iter().cloned().collect();
    sorted[7..].sort_by(|a, b| a.name().cmp(b.name()));
    g.tags = Default::default();
    for t in sorted {
        g.tags.set(t);
    }
    if rng.below(4) == 0 {
        g.comments.push(comment(&mut rng));
    }
    let len = rng.below(60);
    g.moves = line(&mut rng, start, len, 0, false);
    g.result = Some(result);
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// write -> read gives the same game, and the writer's lines keep to
    /// 79 characters except a comment longer than that.
    #[test]
    fn write_read_round_trip(seed in any::<u64>()) {
        let g = random_game(seed);
        let text = g.to_pgn();
        let mut r = Reader::new(text.as_bytes());
        let back = r.next_game().unwrap().unwrap();
        prop_assert!(r.next_game().is_none());
        prop_assert_eq!(&back, &g, "{}", text);
        for l in text.lines() {
            prop_assert!(l.chars().count() <= writer::MAX_LINE_LEN || l.contains('{') || l.contains('}'), "{}", l);
        }
    }

    /// Several games in one input read back one by one.
    #[test]
    fn streams_of_games(seeds in proptest::collection::vec(any::<u64>(), 1..6)) {
        let games: Vec<Game> = seeds.iter().map(|&s| random_game(s)).collect();
        let text: String = games.iter().map(Game::to_pgn).collect();
        let back: Vec<Game> = Reader::new(text.as_bytes()).games().map(Result::unwrap).collect();
        prop_assert_eq!(back, games);
    }

    /// Arbitrary bytes: no panic, and the reader ends.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let mut r = Reader::new(&bytes);
        let mut n = 0;
        while let Some(g) = r.next_game() {
            if let Ok(g) = g {
                let _ = g.to_pgn();
            }
            n += 1;
            prop_assert!(n <= bytes.len() + 1);
        }
    }

    /// A valid file with bytes changed: no panic; every game that reads
    /// writes and reads back to itself.
    #[test]
    fn mutated_files_never_panic(seed in any::<u64>(), edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let mut bytes = random_game(seed).to_pgn().into_bytes();
        bytes.extend_from_slice(random_game(seed ^ 0x55).to_pgn().as_bytes());
        for (at, b) in edits {
            let k = at % bytes.len();
            bytes[k] = b;
        }
        let mut r = Reader::new(&bytes);
        let mut n = 0;
        while let Some(g) = r.next_game() {
            if let Ok(g) = g {
                let again = Reader::new(g.to_pgn().as_bytes()).next_game().unwrap().unwrap();
                prop_assert_eq!(again.moves, g.moves);
            }
            n += 1;
            prop_assert!(n <= bytes.len() + 1);
        }
    }
}
