//! KI2 move words ([`spec::shogi_records`](crate::spec::shogi_records) §2.1): resolving
//! `右左直上寄引打` against the legal moves, and choosing exactly the words
//! a move needs.
//!
//! The words, from the mover's own seat (mirrored for White):
//! - 上 / 寄 / 引: the move goes forward / sideways / back (`行` = 上).
//! - 直: one step straight forward (gold-like pieces and silvers).
//! - 右 / 左 (not dragons or horses): the move goes leftward / rightward,
//!   i.e. the mover is the right / left one; a move along its file has no
//!   side, and then 右 / 左 pick the rightmost / leftmost candidate.
//! - 右 / 左 for dragons and horses: the mover stands right / left of the
//!   other candidate.
//!
//! The writer tries, in order, no word, the movement word, 直, the side
//! word, then side and movement (`左引`), and writes the first that the
//! reader resolves to exactly the move: so what it writes reads back, and
//! the choices follow the JSA rules of §2.1 on its worked examples.

use alloc::string::String;

use board_core::shogi::{Color, Move, PieceKind, Position, Square};

use super::error::{Candidate, MoveProblem};
use super::notation::{FW_DIGITS, KANJI_DIGITS, move_name};
use super::reader::{Dest, Movement, Relative};

/// Moves of `kind` of the side to move that land on `to` with promotion
/// `promote` (drops when `drop`).
fn candidates(
    pos: &Position,
    kind: PieceKind,
    to: Square,
    promote: bool,
    drop: bool,
) -> impl Iterator<Item = Move> + '_ {
    let list = pos.legal_moves();
    let mut out = alloc::vec::Vec::new();
    for &m in list.iter() {
        if m.to() != to {
            continue;
        }
        match m.from() {
            None if drop && m.drop_kind() == Some(kind) => out.push(m),
            Some(from) if !drop => {
                let on = pos.piece_at(from).map(|p| p.kind);
                if on == Some(kind) && m.is_promotion() == promote {
                    out.push(m);
                }
            }
            _ => {}
        }
    }
    out.into_iter()
}

/// (forward steps, leftward steps) of a board move from its mover's seat.
fn delta(color: Color, from: Square, to: Square) -> (i32, i32) {
    let dr = i32::from(from.rank()) - i32::from(to.rank());
    let df = i32::from(to.file()) - i32::from(from.file());
    match color {
        Color::Black => (dr, df),
        Color::White => (-dr, -df),
    }
}

fn movement_of(color: Color, m: Move) -> Option<Movement> {
    let from = m.from()?;
    let (fwd, _) = delta(color, from, m.to());
    Some(match fwd.signum() {
        1 => Movement::Up,
        0 => Movement::Sideways,
        _ => Movement::Back,
    })
}

fn gold_like(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Gold
            | PieceKind::Silver
            | PieceKind::ProPawn
            | PieceKind::ProLance
            | PieceKind::ProKnight
            | PieceKind::ProSilver
    )
}

fn is_straight(color: Color, kind: PieceKind, m: Move) -> bool {
    match m.from() {
        Some(from) => gold_like(kind) && delta(color, from, m.to()) == (1, 0),
        None => false,
    }
}

/// Position of a square from `color`'s seat: larger = further left.
fn leftness(color: Color, sq: Square) -> i32 {
    match color {
        Color::Black => i32::from(sq.file()),
        Color::White => -i32::from(sq.file()),
    }
}

fn filter(
    color: Color,
    kind: PieceKind,
    mut c: alloc::vec::Vec<Move>,
    rel: Relative,
) -> alloc::vec::Vec<Move> {
    if let Some(mv) = rel.movement {
        c.retain(|&m| movement_of(color, m) == Some(mv));
    }
    if rel.straight {
        c.retain(|&m| is_straight(color, kind, m));
    }
    if let Some(right) = rel.right {
        let range = matches!(kind, PieceKind::Dragon | PieceKind::Horse);
        let sided: alloc::vec::Vec<Move> = if range {
            alloc::vec::Vec::new()
        } else {
            c.iter()
                .copied()
                .filter(|&m| match m.from() {
                    Some(from) => {
                        let (_, left) = delta(color, from, m.to());
                        if right { left > 0 } else { left < 0 }
                    }
                    None => false,
                })
                .collect()
        };
        if !sided.is_empty() {
            c = sided;
        } else {
            // By where the movers stand: the rightmost / leftmost.
            let key = |m: &Move| m.from().map_or(0, |f| leftness(color, f));
            let best = if right {
                c.iter().map(key).min()
            } else {
                c.iter().map(key).max()
            };
            if let Some(best) = best {
                c.retain(|m| key(m) == best);
            }
        }
    }
    c
}

/// Resolves a KI2 move (no origin square) in `pos`.
///
/// # Errors
/// [`MoveProblem::NoSuchMove`] when no legal move fits, and
/// [`MoveProblem::Ambiguous`] when several do (each with the KI2 text
/// that names it alone).
pub(crate) fn resolve(
    pos: &Position,
    to: Square,
    kind: PieceKind,
    rel: Relative,
    promote: Option<bool>,
    drop: bool,
) -> Result<Move, MoveProblem> {
    let color = pos.side_to_move();
    let promote = promote == Some(true);
    let board: alloc::vec::Vec<Move> = if drop {
        alloc::vec::Vec::new()
    } else {
        candidates(pos, kind, to, promote, false).collect()
    };
    let c = if board.is_empty() && !promote && rel == Relative::default() {
        // No board move: a drop written without 打 (rule 6).
        candidates(pos, kind, to, false, true).collect()
    } else {
        filter(color, kind, board, rel)
    };
    match c.len() {
        1 => Ok(c[0]),
        0 => Err(MoveProblem::NoSuchMove),
        _ => Err(MoveProblem::Ambiguous {
            candidates: c
                .iter()
                .map(|&mv| {
                    let mut ki2 = String::new();
                    move_text(pos, mv, false, &mut ki2);
                    Candidate { mv, ki2 }
                })
                .collect(),
        }),
    }
}

/// The KI2 text of a legal move `m` in `pos`, without its mark:
/// destination (`同　` when `same`), piece, the words it needs, then
/// 成/不成/打 (rules 6 and 7).
pub(crate) fn move_text(pos: &Position, m: Move, same: bool, out: &mut String) {
    let color = pos.side_to_move();
    let to = m.to();
    if same {
        out.push_str("同　");
    } else {
        out.push(FW_DIGITS[to.file() as usize - 1]);
        out.push(KANJI_DIGITS[to.rank() as usize - 1]);
    }
    match m.from() {
        None => {
            let kind = m.drop_kind().unwrap_or(PieceKind::Pawn);
            out.push_str(move_name(kind));
            if candidates(pos, kind, to, false, false).next().is_some()
                || candidates(pos, kind, to, true, false).next().is_some()
            {
                out.push('打');
            }
        }
        Some(from) => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
            out.push_str(move_name(kind));
            let all: alloc::vec::Vec<Move> =
                candidates(pos, kind, to, m.is_promotion(), false).collect();
            if all.len() > 1 {
                let words = choose(color, kind, m, &all);
                if words.right == Some(true) {
                    out.push('右');
                } else if words.right == Some(false) {
                    out.push('左');
                }
                if words.straight {
                    out.push('直');
                }
                match words.movement {
                    Some(Movement::Up) => out.push('上'),
                    Some(Movement::Sideways) => out.push('寄'),
                    Some(Movement::Back) => out.push('引'),
                    None => {}
                }
            }
            let zone = |sq: Square| sq.relative_rank(color) <= 3;
            if kind.can_promote() && (zone(from) || zone(to)) {
                out.push_str(if m.is_promotion() { "成" } else { "不成" });
            }
        }
    }
}

fn choose(color: Color, kind: PieceKind, m: Move, all: &[Move]) -> Relative {
    let mv = movement_of(color, m);
    let range = matches!(kind, PieceKind::Dragon | PieceKind::Horse);
    let mut tries: alloc::vec::Vec<Relative> = alloc::vec![Relative {
        movement: mv,
        ..Relative::default()
    }];
    if !range && is_straight(color, kind, m) {
        tries.push(Relative {
            straight: true,
            ..Relative::default()
        });
    }
    for right in [true, false] {
        tries.push(Relative {
            right: Some(right),
            ..Relative::default()
        });
    }
    for right in [true, false] {
        tries.push(Relative {
            right: Some(right),
            movement: mv,
            ..Relative::default()
        });
    }
    for rel in tries {
        let c = filter(color, kind, all.to_vec(), rel);
        if c.len() == 1 && c[0] == m {
            return rel;
        }
    }
    // Two pieces of a kind always differ in one of the words above; a
    // reader would call this ambiguous (not reached on legal positions
    // with at most four pieces of a kind).
    Relative::default()
}

/// The destination of a written move in `pos` given the previous move's
/// destination.
pub(crate) fn dest_square(dest: Dest, last: Option<Square>) -> Option<Square> {
    match dest {
        Dest::Square(s) => Some(s),
        Dest::Same => last,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board_core::shogi::Position;

    fn text(sfen: &str, usi: &str) -> String {
        let pos: Position = sfen.parse().unwrap();
        let m = pos.parse_usi(usi).unwrap();
        let mut s = String::new();
        move_text(&pos, m, false, &mut s);
        s
    }

    #[test]
    fn spec_worked_examples() {
        // §2.1's first example has Black *golds* on ６一, ４一, ６三 going to
        // ５二, but golds cannot step diagonally back: with silvers (which
        // can), moved down out of the promotion zone (６四, ４四, ６六 to
        // ５五), the spec's answers hold.
        let sfen = "8k/9/9/3S1S3/9/3S5/9/9/4K4 b - 1";
        assert_eq!(text(sfen, "6f5e"), "５五銀上");
        assert_eq!(text(sfen, "4d5e"), "５五銀右");
        assert_eq!(text(sfen, "6d5e"), "５五銀左引");
        // Golds on ６三, ５三, ４三 to ５二: 左, 直, 右.
        let sfen = "8k/9/3GGG3/9/9/9/9/9/4K4 b - 1";
        assert_eq!(text(sfen, "6c5b"), "５二金左");
        assert_eq!(text(sfen, "5c5b"), "５二金直");
        assert_eq!(text(sfen, "4c5b"), "５二金右");
        // Dragons on １三 and ２二 to ２四 (both 引).
        let sfen = "k8/7+R1/8+R/9/9/9/9/9/4K4 b - 1";
        assert_eq!(text(sfen, "1c2d"), "２四龍右");
        assert_eq!(text(sfen, "2b2d"), "２四龍左");
    }
}
