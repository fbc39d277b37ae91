//! board-core's chess against cozy-chess 0.3 (MIT, an independent
//! bitboard move generator), in process.
//!
//! Input: the first byte chooses the start: the standard start position,
//! one of [`SEED_FENS`] (the next byte chooses which) or a set-up built from
//! the following bytes ([`setup_fen`]); every further byte chooses the next
//! move (index modulo the number of legal moves) for up to [`MAX_PLIES`]
//! plies. At every position both sides must agree on:
//!
//! - the legal move set, as sorted UCI strings (cozy-chess writes castling
//!   as the king taking its own rook, `e1h1`; it is translated to the
//!   king's two-square move `e1g1` that board-core and the UCI protocol
//!   use);
//! - the check verdict, checkmate (no move, in check) and stalemate (no
//!   move, not in check);
//! - the FEN, after [`normalised_cozy_fen`]: board-core writes the en
//!   passant square only when an en passant capture is legal (as the FEN
//!   standard's 2008+ readers and python-chess do), cozy-chess whenever the
//!   last move was a double push; the half-move clock, which cozy-chess
//!   stops at 100, is compared as `min(clock, 100)`;
//! - board-core's FEN read by cozy-chess is the same position (same
//!   normalised FEN).
//!
//! When only one side accepts a set-up, the rejection must be one of the
//! documented differences of the two libraries' set-up rules
//! ([`check_one_sided`]); any other one-sided rejection is a finding.

use std::collections::BTreeMap;

use board_core::chess::{FenErrorKind, Position};
use cozy_chess::{Board, Move as CozyMove, Piece as CozyPiece};

/// Plies played from each start at most.
pub const MAX_PLIES: usize = 200;

/// Seed positions: the perft positions 2 to 6 of the chessprogramming wiki's
/// *Perft Results* page (Kiwipete first) and the en passant, castling and
/// promotion edge cases of the perft suite that page links (Martin Sedlak's
/// list), plus en passant squares on which no capture is legal.
pub const SEED_FENS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    // Sedlak's suite: illegal en passant (discovered check), en passant
    // giving check, short/long castling giving check, castling rights lost
    // by a rook capture, castling prevented, promotion out of check,
    // discovered check, promotion giving check, underpromotion giving
    // check, self stalemate, stalemate and checkmate, double check.
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
    // En passant squares where no capture is legal: the capturing pawn
    // and the captured one leave a rank open to a rook; a pinned pawn.
    "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2",
];

/// Runs the differential on fuzz input (see the module documentation).
pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (fen, plies) = match mode % 4 {
        0 => (Position::startpos().to_string(), rest),
        1 => {
            let Some((&i, plies)) = rest.split_first() else {
                return;
            };
            (
                SEED_FENS[usize::from(i) % SEED_FENS.len()].to_string(),
                plies,
            )
        }
        _ => {
            let Some((fen, used)) = setup_fen(rest) else {
                return;
            };
            (fen, &rest[used..])
        }
    };
    let ours = fen.parse::<Position>();
    let theirs = Board::from_fen(&fen, false);
    let (pos, board) = match (ours, theirs) {
        (Ok(pos), Ok(board)) => (pos, board),
        (Err(_), Err(_)) => return,
        (ours, theirs) => {
            check_one_sided(&fen, ours.err().map(|e| e.kind), theirs.is_ok());
            return;
        }
    };
    playout(pos, board, &fen, plies);
}

/// Plays `plies` (one byte per move choice) on both sides from the same
/// position, comparing after every move.
pub fn playout(mut pos: Position, mut board: Board, start: &str, plies: &[u8]) {
    let mut trail = format!("start {start}; moves");
    for &choice in plies.iter().take(MAX_PLIES) {
        let moves = compare(&pos, &board, &trail);
        if moves.is_empty() {
            return;
        }
        let (uci, cozy) = moves.iter().nth(usize::from(choice) % moves.len()).unwrap();
        let mv = pos
            .parse_uci(uci)
            .unwrap_or_else(|e| panic!("{trail}: {uci}: {e}"));
        pos = pos
            .play(mv)
            .unwrap_or_else(|e| panic!("{trail}: {uci}: {e}"));
        board
            .try_play(*cozy)
            .unwrap_or_else(|e| panic!("{trail}: cozy-chess refuses {uci}: {e:?}"));
        trail.push(' ');
        trail.push_str(uci);
    }
    compare(&pos, &board, &trail);
}

/// Compares one position; returns cozy-chess's legal moves by their UCI
/// text (castling translated).
fn compare(pos: &Position, board: &Board, trail: &str) -> BTreeMap<String, CozyMove> {
    let theirs = cozy_moves(board);
    let ours: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    crate::same_move_set(&ours, theirs.keys(), pos, trail);
    assert_eq!(pos.count_legal_moves(), ours.len() as u64, "{trail}");
    let check = !board.checkers().is_empty();
    assert_eq!(pos.is_check(), check, "{trail}: check verdict at {pos}");
    assert_eq!(
        pos.checkers().count(),
        board.checkers().len(),
        "{trail}: checkers at {pos}"
    );
    let none = theirs.is_empty();
    assert_eq!(pos.has_legal_move(), !none, "{trail}: {pos}");
    assert_eq!(
        pos.is_checkmate(),
        none && check,
        "{trail}: mate verdict at {pos}"
    );
    assert_eq!(
        pos.is_stalemate(),
        none && !check,
        "{trail}: stalemate verdict at {pos}"
    );
    let fen = pos.to_string();
    assert_eq!(
        normalised_fen(&fen),
        normalised_cozy_fen(board, &theirs),
        "{trail}: FEN differs (board-core {fen}, cozy-chess {board})"
    );
    if pos.halfmove_clock() <= 100 && pos.fullmove_number() <= u32::from(u16::MAX) {
        let reread = Board::from_fen(&fen, false)
            .unwrap_or_else(|e| panic!("{trail}: cozy-chess rejects board-core's {fen}: {e:?}"));
        // Not `Board::same_position`: cozy-chess 0.3.4 counts an en passant
        // square as effective when any piece of the side to move (not only a
        // pawn) can legally move onto it, so it tells apart two equal
        // positions (e.g. a bishop on g5 after ...h7h5).
        assert_eq!(
            normalised_cozy_fen(&reread, &cozy_moves(&reread)),
            normalised_cozy_fen(board, &theirs),
            "{trail}: {fen} reads differently in cozy-chess"
        );
    }
    theirs
}

/// cozy-chess's legal moves keyed by UCI text (castling as the king's
/// two-square move).
pub fn cozy_moves(board: &Board) -> BTreeMap<String, CozyMove> {
    let mut out = BTreeMap::new();
    let us = board.colors(board.side_to_move());
    board.generate_moves(|moves| {
        for mv in moves {
            let text = if board.piece_on(mv.from) == Some(CozyPiece::King) && us.has(mv.to) {
                // King takes own rook: castling. The king ends on the g or c
                // file of its rank.
                let file = if mv.to.file() > mv.from.file() {
                    'g'
                } else {
                    'c'
                };
                let from = mv.from.to_string();
                format!("{from}{file}{}", &from[1..])
            } else {
                mv.to_string()
            };
            assert!(
                out.insert(text, mv).is_none(),
                "cozy-chess lists a move twice"
            );
        }
        false
    });
    out
}

/// A FEN with the half-move clock capped at 100 (cozy-chess's cap).
fn normalised_fen(fen: &str) -> String {
    let mut f: Vec<String> = fen.split(' ').map(str::to_string).collect();
    if let Ok(n) = f[4].parse::<u32>() {
        f[4] = n.min(100).to_string();
    }
    f.join(" ")
}

/// cozy-chess's FEN with the en passant square written only when one of
/// its legal moves is an en passant capture (a pawn moving diagonally onto
/// it), as board-core writes it, and the clock capped as in
/// [`normalised_fen`].
pub fn normalised_cozy_fen(board: &Board, moves: &BTreeMap<String, CozyMove>) -> String {
    let text = board.to_string();
    let mut f: Vec<String> = text.split(' ').map(str::to_string).collect();
    if f[3] != "-" {
        let ep = f[3].clone();
        let capture = moves.iter().any(|(uci, mv)| {
            board.piece_on(mv.from) == Some(CozyPiece::Pawn)
                && uci[2..4] == ep
                && mv.from.file() != mv.to.file()
        });
        if !capture {
            f[3] = "-".to_string();
        }
    }
    normalised_fen(&f.join(" "))
}

/// A FEN built from fuzz bytes; returns it and the number of bytes used.
///
/// Byte 0: bit 0 side to move, bits 1..=4 castling rights `KQkq`, bit 5 an
/// en passant square (file from byte 1), bit 6 the counters `0 1` or (when
/// set) byte 2 as half-move clock modulo 101 and byte 3 as full-move
/// number 1 + byte. Bytes 4 and 5: the kings' squares (index modulo 64, a1
/// = 0). Byte 6: the number of other pieces (modulo 16), then two bytes
/// each: square and piece (`PNBRQpnbrq`, modulo 10). A king's square wins
/// over a piece put on it. `None` when the bytes run out.
pub fn setup_fen(b: &[u8]) -> Option<(String, usize)> {
    if b.len() < 7 {
        return None;
    }
    let flags = b[0];
    let n = usize::from(b[6] % 16);
    let used = 7 + 2 * n;
    if b.len() < used {
        return None;
    }
    let mut board = [None::<char>; 64];
    for pair in b[7..used].chunks(2) {
        board[usize::from(pair[0] % 64)] = Some(b"PNBRQpnbrq"[usize::from(pair[1] % 10)] as char);
    }
    board[usize::from(b[4] % 64)] = Some('K');
    board[usize::from(b[5] % 64)] = Some('k');
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let white = flags & 1 == 0;
    fen.push_str(if white { " w " } else { " b " });
    let castling: String = "KQkq"
        .chars()
        .enumerate()
        .filter(|(i, _)| flags & (2 << i) != 0)
        .map(|(_, c)| c)
        .collect();
    fen.push_str(if castling.is_empty() { "-" } else { &castling });
    if flags & 0x20 != 0 {
        let file = char::from(b'a' + b[1] % 8);
        fen.push_str(&format!(" {file}{}", if white { 6 } else { 3 }));
    } else {
        fen.push_str(" -");
    }
    if flags & 0x40 != 0 {
        fen.push_str(&format!(" {} {}", b[2] % 101, 1 + u32::from(b[3])));
    } else {
        fen.push_str(" 0 1");
    }
    Some((fen, used))
}

/// One library accepts `fen` and the other does not: allowed only for the
/// known differences of their set-up rules, each checked on the position:
///
/// - board-core rejects castling rights unless the king is on e1/e8 and the
///   rook in its corner; cozy-chess reads `K`/`Q` as Chess960 rights to the
///   h/a-file rook wherever the king stands on its back rank;
/// - board-core rejects more material than promotions allow (e.g. three
///   knights and eight pawns), cozy-chess only counts 16 pieces and 8 pawns;
/// - board-core rejects positions with more than 218 legal moves;
/// - board-core rejects the two kings on adjacent squares (the side not to
///   move is in check); cozy-chess 0.3.4 accepts them: its "opponent not
///   in check" test looks at sliders, knights and pawns, not at the king
///   (`8/8/8/8/8/8/K7/k7 w - - 0 1`), a cozy-chess bug;
/// - cozy-chess rejects a side to move in check by three or more pieces,
///   and an en passant square while the side to move is in check by
///   another piece than the double-pushed pawn (or a slider uncovered by
///   it): no legal last move leads there; board-core accepts both. (The
///   property allows any cozy-only rejection of a set-up with an en
///   passant square and a check, a little wider than cozy-chess's rule.)
pub fn check_one_sided(fen: &str, ours: Option<FenErrorKind>, theirs_ok: bool) {
    match ours {
        None => {
            assert!(!theirs_ok);
            let pos: Position = fen.parse().unwrap();
            let ep_given = fen.split(' ').nth(3) != Some("-");
            let allowed = pos.checkers().count() >= 3 || (ep_given && pos.is_check());
            assert!(allowed, "cozy-chess rejects, board-core accepts: {fen}");
        }
        Some(kind) => {
            assert!(theirs_ok);
            let board = Board::from_fen(fen, false).unwrap();
            let allowed = match kind {
                FenErrorKind::CastlingWithoutPieces { color, .. } => {
                    let c = match color {
                        board_core::chess::Color::White => cozy_chess::Color::White,
                        board_core::chess::Color::Black => cozy_chess::Color::Black,
                    };
                    board.king(c).file() != cozy_chess::File::E
                }
                FenErrorKind::TooMuchMaterial(_) | FenErrorKind::TooManyMoves => true,
                FenErrorKind::OppositeCheck => {
                    let (w, b) = (
                        board.king(cozy_chess::Color::White),
                        board.king(cozy_chess::Color::Black),
                    );
                    let distance = |a: usize, b: usize| a.abs_diff(b);
                    distance(w.file() as usize, b.file() as usize) <= 1
                        && distance(w.rank() as usize, b.rank() as usize) <= 1
                }
                _ => false,
            };
            assert!(
                allowed,
                "board-core rejects ({kind}), cozy-chess accepts: {fen}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_accepted_by_both_and_agree() {
        for fen in SEED_FENS {
            let pos: Position = fen.parse().unwrap();
            let board = Board::from_fen(fen, false).unwrap();
            playout(pos, board, fen, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        }
    }

    /// Perft position 2 (Kiwipete) has 48 legal moves (chessprogramming
    /// wiki, *Perft Results*), both castlings among them.
    #[test]
    fn kiwipete_has_48_moves_with_castling_as_king_moves() {
        let board = Board::from_fen(SEED_FENS[0], false).unwrap();
        let moves = cozy_moves(&board);
        assert_eq!(moves.len(), 48);
        assert!(moves.contains_key("e1g1") && moves.contains_key("e1c1"));
    }

    /// After 1. e4 cozy-chess keeps `e3`; no black pawn can take, so the
    /// normalised FEN has `-`, as the FEN standard's en passant rule in
    /// python-chess's `fen()` (legal captures only) writes it.
    #[test]
    fn ep_square_without_capture_is_dropped() {
        let mut board = Board::default();
        board.play("e2e4".parse().unwrap());
        let moves = cozy_moves(&board);
        assert_eq!(
            normalised_cozy_fen(&board, &moves),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
    }
}
