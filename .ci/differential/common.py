"""What the differential scripts in this folder share: the chess start
positions of the random playouts, the chess moves the playouts favour, and
the command line, and the one batch run of the boardwire binary (one
input line per position)."""

import argparse
import subprocess

import chess

# The start position and the perft positions (castling, en passant,
# promotions, pins), then positions with promotions, castling and an en
# passant capture that discovers a check on the fourth rank.
PERFT_STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
]
SPECIAL_STARTS = [
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
]


def special(board, move, captures=False):
    """A promotion, en passant, castling or a pawn's double push (or, with
    `captures`, any capture): the chess moves the playouts favour."""
    return (
        move.promotion is not None
        or board.is_en_passant(move)
        or board.is_castling(move)
        or (captures and board.is_capture(move))
        or (board.piece_type_at(move.from_square) == chess.PAWN
            and abs(move.to_square - move.from_square) == 16)
    )


def run(boardwire, args, lines, timeout=None):
    """`boardwire ARGS` in batch mode: `lines` on its standard input, one a
    line; the completed process (text output, not checked)."""
    return subprocess.run(
        [boardwire, *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def parse_args(positions, seed, *options):
    """The command line of a differential script: the boardwire binary,
    `--positions N` and `--seed S` (defaults `positions`, `seed`), and
    `options`, each `(flag, type, default)`."""
    ap = argparse.ArgumentParser()
    ap.add_argument("boardwire")
    ap.add_argument("--positions", type=int, default=positions)
    ap.add_argument("--seed", type=int, default=seed)
    for flag, kind, default in options:
        ap.add_argument(flag, type=kind, default=default)
    return ap.parse_args()
