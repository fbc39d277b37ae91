//! The `{:#}` board diagrams of the three games, for their start positions
//! (written out by hand from the standard start positions: chess FIDE
//! Laws 2.3, draughts squares 1..=20 Black and 31..=50 White, shogi the
//! USI `startpos`), and a few positions that show the other symbols.

use core::fmt::{Debug, Display};
use core::str::FromStr;

/// Checks the diagram of `pos` against `expected`; returns its plain form.
fn start_diagram(pos: impl Display, expected: &str) -> String {
    assert_eq!(format!("{pos:#}"), expected);
    pos.to_string()
}

/// Each `(line, text)`: line `line` (0-based) of the diagram of the
/// position `fen` reads as (a `P`) is `text`.
fn diagram_has<P>(fen: &str, lines: &[(usize, &str)])
where
    P: FromStr + Display,
    P::Err: Debug,
{
    let pos: P = fen.parse().unwrap();
    let d = format!("{pos:#}");
    let got: Vec<&str> = d.lines().collect();
    for &(i, text) in lines {
        assert_eq!(got[i], text, "line {i} of {fen}");
    }
}

#[test]
fn chess_start_position() {
    let expected = "  +-----------------+
8 | r n b q k b n r |
7 | p p p p p p p p |
6 | . . . . . . . . |
5 | . . . . . . . . |
4 | . . . . . . . . |
3 | . . . . . . . . |
2 | P P P P P P P P |
1 | R N B Q K B N R |
  +-----------------+
    a b c d e f g h
white to move";
    let pos = board_core::chess::Position::startpos();
    // The plain form stays FEN.
    assert_eq!(
        start_diagram(pos, expected),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

#[test]
fn chess_after_e4_black_to_move() {
    diagram_has::<board_core::chess::Position>(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        &[
            (5, "4 | . . . . P . . . |"),
            (7, "2 | P P P P . P P P |"),
            (11, "black to move"),
        ],
    );
}

#[test]
fn draughts_start_position() {
    let expected = "\
+---------------------+   +-------------------------------+
|   b   b   b   b   b |   |     1     2     3     4     5 |
| b   b   b   b   b   |   |  6     7     8     9    10    |
|   b   b   b   b   b |   |    11    12    13    14    15 |
| b   b   b   b   b   |   | 16    17    18    19    20    |
|   .   .   .   .   . |   |    21    22    23    24    25 |
| .   .   .   .   .   |   | 26    27    28    29    30    |
|   w   w   w   w   w |   |    31    32    33    34    35 |
| w   w   w   w   w   |   | 36    37    38    39    40    |
|   w   w   w   w   w |   |    41    42    43    44    45 |
| w   w   w   w   w   |   | 46    47    48    49    50    |
+---------------------+   +-------------------------------+
white to move";
    let pos = board_core::draughts::Position::startpos();
    assert!(start_diagram(pos, expected).starts_with("W:W31,"));
}

#[test]
fn draughts_kings_and_black_to_move() {
    // A white king on 1, a black king on 50, a black man on 28.
    diagram_has::<board_core::draughts::Position>(
        "B:WK1:BK50,28",
        &[
            (
                1,
                "|   W   .   .   .   . |   |     1     2     3     4     5 |",
            ),
            (
                6,
                "| .   .   b   .   .   |   | 26    27    28    29    30    |",
            ),
            (
                10,
                "| .   .   .   .   B   |   | 46    47    48    49    50    |",
            ),
            (12, "black to move"),
        ],
    );
}

#[test]
fn shogi_start_position() {
    let expected = "\
gote (w) in hand: -
     9  8  7  6  5  4  3  2  1
  +----------------------------+
  |  l  n  s  g  k  g  s  n  l | a
  |  .  r  .  .  .  .  .  b  . | b
  |  p  p  p  p  p  p  p  p  p | c
  |  .  .  .  .  .  .  .  .  . | d
  |  .  .  .  .  .  .  .  .  . | e
  |  .  .  .  .  .  .  .  .  . | f
  |  P  P  P  P  P  P  P  P  P | g
  |  .  B  .  .  .  .  .  R  . | h
  |  L  N  S  G  K  G  S  N  L | i
  +----------------------------+
sente (b) in hand: -
sente (b) to move";
    let pos = board_core::shogi::Position::startpos();
    assert_eq!(
        start_diagram(pos, expected),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
}

#[test]
fn shogi_hands_and_promoted_pieces() {
    // Sente's bishop has taken on 2b and promoted (8h2b+), gote to move:
    // sente holds a bishop, the horse stands on 2b.
    diagram_has::<board_core::shogi::Position>(
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4",
        &[
            (0, "gote (w) in hand: -"),
            (4, "  |  .  r  .  .  .  .  . +B  . | b"),
            (13, "sente (b) in hand: B"),
            (14, "gote (w) to move"),
        ],
    );
    diagram_has::<board_core::shogi::Position>(
        "4k4/9/9/9/9/9/9/9/4K4 b RG2Pbs3p 1",
        &[
            (0, "gote (w) in hand: b s 3p"),
            (13, "sente (b) in hand: R G 2P"),
        ],
    );
}
