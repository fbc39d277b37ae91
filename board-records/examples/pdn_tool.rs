//! The PDN differential's helper (.ci/checks/81-pdn-differential):
//!
//! - `pdn_tool gen GAMES SEED OUT.pdn`: random legal international
//!   draughts games (board-core) with comments, NAGs and variations,
//!   written by board-records' PDN writer; `gen-plain` the same games
//!   without annotations (pydraughts' reader fails on a move number that
//!   appears twice, as `5.` and `5...` do around an annotation);
//! - `pdn_tool dump IN.pdn DUMP.txt`: reads a PDN file and prints per game
//!   `game N`, the tags, the main line's moves (`moves m1 m2 ...` in
//!   board-records' canonical text) and the result, or `error ...`.
#![allow(missing_docs)]

use std::fmt::Write as _;

use board_core::draughts::Position;
use board_records::pdn::{Game, Node, Reader};
use board_records::pgn::{Comment, Nag, Tag};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize) % n.max(1)
    }
}

fn line(rng: &mut Rng, mut pos: Position, plies: usize, depth: u32) -> Vec<Node> {
    let mut nodes = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())];
        let mut node = Node::new(&pos, mv).expect("legal");
        if rng.below(6) == 0 {
            node.nags.push(Nag(1 + rng.below(6) as u8));
        }
        if rng.below(6) == 0 {
            node.comments
                .push(Comment::new("[%clock w0:10:00 B0:09:58]").expect("comment"));
        }
        if depth < 2 && rng.below(10) == 0 {
            let len = 1 + rng.below(4);
            node.variations.push(line(rng, pos, len, depth + 1));
        }
        pos = pos.play(mv).expect("legal");
        nodes.push(node);
    }
    nodes
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some(mode @ ("gen" | "gen-plain")) if args.len() == 5 => {
            let plain = mode == "gen-plain";
            let games: usize = args[2].parse()?;
            let mut rng = Rng(args[3].parse::<u64>()? | 1);
            let mut out = String::new();
            for i in 0..games {
                let mut g = Game::new(Position::startpos());
                g.tags.set(Tag::new("Event", &format!("Differential {i}"))?);
                g.tags.set(Tag::new("White", "Scan")?);
                g.tags.set(Tag::new("Black", "Kingsrow")?);
                g.tags.set(Tag::new("GameType", "20")?);
                // At least one move: pydraughts stops reading a file at a game
                // without moves.
                let len = 1 + rng.below(90);
                g.moves = line(&mut rng, Position::startpos(), len, 0);
                if plain {
                    for n in &mut g.moves {
                        n.nags.clear();
                        n.comments.clear();
                        n.variations.clear();
                    }
                }
                g.result = Some(["2-0", "0-2", "1-1", "*"][rng.below(4)]);
                out.push_str(&g.to_pdn());
            }
            std::fs::write(&args[4], out)?;
        }
        Some("dump") if args.len() == 4 => {
            let bytes = std::fs::read(&args[2])?;
            let mut out = String::new();
            for (i, g) in Reader::new(&bytes).games().enumerate() {
                let _ = writeln!(out, "game {i}");
                match g {
                    Ok(g) => {
                        let moves: Vec<String> = g.moves.iter().map(Node::text).collect();
                        let _ = writeln!(out, "moves {}", moves.join(" "));
                        let _ = writeln!(out, "result {}", g.result.unwrap_or("none"));
                    }
                    Err(e) => {
                        let _ = writeln!(out, "error {e}");
                    }
                }
            }
            std::fs::write(&args[3], out)?;
        }
        _ => {
            return Err(
                "usage: pdn_tool gen|gen-plain GAMES SEED OUT.pdn | pdn_tool dump IN.pdn DUMP.txt"
                    .into(),
            );
        }
    }
    Ok(())
}
