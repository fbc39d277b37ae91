//! A deterministic PGN corpus for the reading benchmark (and for a later
//! side-by-side run with pgn-reader on the same bytes: the example
//! `pgn_corpus` writes it to a file): random legal games from a fixed
//! seed, with lichess-style `{ [%clk …] }` comments on every move, a NAG
//! on every seventh, a short variation on every eleventh, written by
//! this crate's writer.

use board_core::chess::Position;
use board_records::pgn::{Comment, Game, Nag, Node, Tag};

/// xorshift64*: a fixed sequence, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize) % n.max(1)
    }
}

fn random_line(rng: &mut Rng, mut pos: Position, plies: usize) -> Vec<Node> {
    let mut nodes = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        nodes.push(Node::new(&pos, mv).expect("a legal move"));
        pos = pos.play(mv).expect("a legal move");
    }
    nodes
}

/// One random game.
pub fn game(rng: &mut Rng, index: usize) -> Game {
    let mut g = Game::new(Position::startpos());
    for (name, value) in [
        ("Event", format!("Corpus game {index}")),
        ("Site", "https://example.org".to_string()),
        ("Date", "2026.12.04".to_string()),
        ("Round", "-".to_string()),
        ("White", format!("Player {}", rng.below(1000))),
        ("Black", format!("Player {}", rng.below(1000))),
        ("Result", "*".to_string()),
        ("TimeControl", "180+2".to_string()),
        ("WhiteElo", format!("{}", 1200 + rng.below(1500))),
        ("BlackElo", format!("{}", 1200 + rng.below(1500))),
    ] {
        g.tags.set(Tag::new(name, &value).expect("a tag"));
    }
    let plies = 40 + rng.below(100);
    let mut pos = Position::startpos();
    let mut clock = [180u32, 180u32];
    for ply in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        let mut node = Node::new(&pos, mv).expect("a legal move");
        let side = ply % 2;
        clock[side] = clock[side].saturating_sub(rng.below(8) as u32) + 2;
        let c = clock[side];
        let text = format!("[%clk {}:{:02}:{:02}]", c / 3600, c / 60 % 60, c % 60);
        node.comments.push(Comment::new(&text).expect("a comment"));
        if ply % 7 == 6 {
            node.nags.push(Nag(1 + rng.below(6) as u8));
        }
        if ply % 11 == 10 && legal.len() > 1 {
            let len = 1 + rng.below(4);
            let line = random_line(rng, pos, len);
            if line.first().and_then(Node::mv) != Some(mv) {
                node.variations.push(line);
            }
        }
        g.moves.push(node);
        pos = pos.play(mv).expect("a legal move");
    }
    g
}

/// `games` random games from `seed`, written one after the other.
pub fn corpus(seed: u64, games: usize) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    for i in 0..games {
        out.push_str(&game(&mut rng, i).to_pgn());
    }
    out
}
