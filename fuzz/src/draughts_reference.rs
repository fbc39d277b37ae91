//! A plain international-draughts move generator, written for clarity and
//! not for speed, and the differential property that board-core's generator
//! agrees with it (target `draughts_reference`).
//!
//! The rules, as the FMJD's Official Rules of International Draughts state
//! them (articles 3 and 4):
//! - a man moves one square diagonally forward; a king moves any distance
//!   along a diagonal over empty squares ("flying king");
//! - capturing is compulsory, forwards and backwards for men too; a man
//!   jumps an adjacent opponent piece onto the empty square just beyond; a
//!   king jumps an opponent piece at any distance along a diagonal (only
//!   empty squares between) and lands on any empty square beyond it before
//!   the next piece;
//! - a capture goes on while a further capture is possible; the captured
//!   pieces stay on the board until the move is over (they block and may
//!   not be jumped twice); the moving piece's own start square counts as
//!   empty;
//! - the majority rule: the sequence capturing the most pieces must be
//!   played (kings and men count the same); sequences that end on the same
//!   square with the same captured pieces are the same move;
//! - a man becomes a king only when its move *ends* on the far row.
//!
//! Squares are the board's bit-free picture: index 0..50 is square 1..=50,
//! row 0 is squares 1–5 (Black's back row, White's far row), and square
//! `s` (0-based) sits at row `s / 5`, column `2 * (s % 5) + 1` on even rows
//! and `2 * (s % 5)` on odd rows.

use std::collections::BTreeSet;

use board_core::draughts::{Color, Piece, PieceKind, Position, Setup};

/// The four diagonal directions as (row step, column step).
const DIRECTIONS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// A move as the reference sees it: origin, destination and the captured
/// squares, all as square numbers 1..=50.
pub type RefMove = (u8, u8, BTreeSet<u8>);

fn coords(index: usize) -> (i32, i32) {
    let row = (index / 5) as i32;
    let col = 2 * (index % 5) as i32 + if row % 2 == 0 { 1 } else { 0 };
    (row, col)
}

fn index_at(row: i32, col: i32) -> Option<usize> {
    if !(0..10).contains(&row) || !(0..10).contains(&col) || (row + col) % 2 == 0 {
        return None;
    }
    Some((row * 5 + col / 2) as usize)
}

/// The square `steps` steps from `index` in direction `dir`, if on the board.
fn step(index: usize, dir: (i32, i32), steps: i32) -> Option<usize> {
    let (row, col) = coords(index);
    index_at(row + dir.0 * steps, col + dir.1 * steps)
}

fn forward(color: Color) -> i32 {
    match color {
        Color::White => -1,
        Color::Black => 1,
    }
}

/// One capture search state: the board before the move, the mover's colour,
/// its start square, and whether it is a king.
struct Search<'a> {
    board: &'a [Option<Piece>; 50],
    color: Color,
    from: usize,
    king: bool,
}

impl Search<'_> {
    /// Empty for this move: no piece, or the mover's own start square.
    fn empty(&self, index: usize) -> bool {
        index == self.from || self.board[index].is_none()
    }

    fn is_opponent(&self, index: usize) -> bool {
        index != self.from && self.board[index].is_some_and(|p| p.color != self.color)
    }

    /// Every complete capture sequence going on from `at` with `captured`
    /// taken so far, pushed to `out` as (end square, captured set).
    fn extend(&self, at: usize, captured: &mut Vec<usize>, out: &mut Vec<(usize, Vec<usize>)>) {
        let mut went_on = false;
        for dir in DIRECTIONS {
            // The first piece met along `dir` (a man sees only the adjacent square).
            let mut distance = 1;
            let victim = loop {
                match step(at, dir, distance) {
                    None => break None,
                    Some(sq) if self.empty(sq) && self.king => distance += 1,
                    Some(sq) if self.empty(sq) => break None,
                    Some(sq) => break Some(sq),
                }
            };
            let Some(victim) = victim else { continue };
            if !self.is_opponent(victim) || captured.contains(&victim) {
                continue;
            }
            // Landing squares beyond the victim: one for a man, every empty
            // one up to the next piece for a king.
            let mut beyond = 1;
            while let Some(land) = step(victim, dir, beyond) {
                if !self.empty(land) {
                    break;
                }
                went_on = true;
                captured.push(victim);
                self.extend(land, captured, out);
                captured.pop();
                if !self.king {
                    break;
                }
                beyond += 1;
            }
        }
        if !went_on && !captured.is_empty() {
            out.push((at, captured.clone()));
        }
    }
}

/// The legal moves of `setup` by the rules above, as (from, to, captured)
/// square numbers; a set, so two capture paths to the same result are one
/// move.
pub fn legal_moves(setup: &Setup) -> BTreeSet<RefMove> {
    let board = &setup.board;
    let color = setup.side_to_move;
    let mut captures: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    for from in 0..50 {
        let Some(piece) = board[from] else { continue };
        if piece.color != color {
            continue;
        }
        let search = Search {
            board,
            color,
            from,
            king: piece.kind == PieceKind::King,
        };
        let mut ends = Vec::new();
        search.extend(from, &mut Vec::new(), &mut ends);
        captures.extend(ends.into_iter().map(|(to, caps)| (from, to, caps)));
    }
    let number = |i: usize| i as u8 + 1;
    if let Some(most) = captures.iter().map(|(_, _, caps)| caps.len()).max() {
        return captures
            .into_iter()
            .filter(|(_, _, caps)| caps.len() == most)
            .map(|(from, to, caps)| {
                (
                    number(from),
                    number(to),
                    caps.into_iter().map(number).collect(),
                )
            })
            .collect();
    }
    let mut quiet = BTreeSet::new();
    for from in 0..50 {
        let Some(piece) = board[from] else { continue };
        if piece.color != color {
            continue;
        }
        for dir in DIRECTIONS {
            if piece.kind == PieceKind::Man && dir.0 != forward(color) {
                continue;
            }
            let mut distance = 1;
            while let Some(to) = step(from, dir, distance) {
                if board[to].is_some() {
                    break;
                }
                quiet.insert((number(from), number(to), BTreeSet::new()));
                if piece.kind == PieceKind::Man {
                    break;
                }
                distance += 1;
            }
        }
    }
    quiet
}

/// board-core's legal moves as the reference writes them.
fn ours(pos: &Position) -> BTreeSet<RefMove> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let caps = m.captures().iter().map(|s| s.number()).collect();
            (m.from().number(), m.to().number(), caps)
        })
        .collect()
}

/// A set-up from fuzzer bytes: 50 bytes, one per square (most values empty:
/// 0..=3 a white man, black man, white king, black king; a man on its own
/// far row is made a king, since it cannot stand there), then the side to
/// move.
fn setup_from(bytes: &[u8]) -> Option<Setup> {
    let (squares, rest) = bytes.split_at_checked(50)?;
    let mut setup = Setup::empty();
    for (i, &b) in squares.iter().enumerate() {
        let (color, kind) = match b % 16 {
            0 => (Color::White, PieceKind::Man),
            1 => (Color::Black, PieceKind::Man),
            2 => (Color::White, PieceKind::King),
            3 => (Color::Black, PieceKind::King),
            _ => continue,
        };
        let far_row = match color {
            Color::White => i < 5,
            Color::Black => i >= 45,
        };
        let kind = if far_row { PieceKind::King } else { kind };
        setup.board[i] = Some(Piece::new(color, kind));
    }
    setup.side_to_move = if rest.first().is_some_and(|b| b & 1 == 1) {
        Color::Black
    } else {
        Color::White
    };
    Some(setup)
}

/// The property: from a set-up made of the first 51 bytes (or the start
/// position when there are fewer), and then along a playout chosen by the
/// remaining bytes (one per ply, up to 100 plies), board-core's legal move
/// set equals the reference's at every ply: the same (from, to, captured
/// set) triples, so the same majority-capture choice, the same duplicate
/// merging and the same flying-king landings.
pub fn differential(data: &[u8]) {
    let (mut pos, choices) = match setup_from(data) {
        Some(setup) => match Position::from_setup(&setup) {
            Ok(pos) => (pos, &data[51.min(data.len())..]),
            Err(_) => return,
        },
        None => (Position::startpos(), data),
    };
    for &choice in choices.iter().take(100).chain(core::iter::once(&0)) {
        let want = legal_moves(&pos.to_setup());
        let got = ours(&pos);
        assert_eq!(got, want, "{pos}");
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        pos = pos
            .play(moves[choice as usize % moves.len()])
            .expect("a listed move plays");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(squares: &[u8]) -> BTreeSet<u8> {
        squares.iter().copied().collect()
    }

    /// The start position: White's nine men moves from the row 31–35 (the
    /// standard count is 9; perft 1 of the start position).
    #[test]
    fn start_position_has_nine_moves() {
        assert_eq!(legal_moves(&Setup::startpos()).len(), 9);
    }

    /// Woldouby's position (a published perft position): the reference
    /// finds the same moves as board-core.
    #[test]
    fn woldouby_agrees() {
        let pos: Position = "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"
            .parse()
            .unwrap();
        assert_eq!(ours(&pos), legal_moves(&pos.to_setup()));
    }

    /// Derived by hand from the rules: the man on 32 can take 27 and go on
    /// over 17 to 12 (two pieces), or take 28 landing on 23 (one piece);
    /// the majority rule leaves only the two-piece capture.
    #[test]
    fn majority_rule() {
        let pos: Position = "W:W32:B17,27,28".parse().unwrap();
        let want: BTreeSet<RefMove> = [(32, 12, set(&[17, 27]))].into_iter().collect();
        assert_eq!(legal_moves(&pos.to_setup()), want);
        assert_eq!(ours(&pos), want);
    }

    /// Derived by hand: a flying king on 46 takes 28 on the long diagonal
    /// (46-41-37-32-28-23-19-14-10-5), may land on 23 or 19 and must go on
    /// over 14 to 10 or 5; the two paths give two moves, not four.
    #[test]
    fn flying_king_lands_anywhere_and_paths_merge() {
        let pos: Position = "W:WK46:B14,28".parse().unwrap();
        let want: BTreeSet<RefMove> = [(46, 5, set(&[14, 28])), (46, 10, set(&[14, 28]))]
            .into_iter()
            .collect();
        assert_eq!(legal_moves(&pos.to_setup()), want);
        assert_eq!(ours(&pos), want);
    }
}
