#!/usr/bin/env python3
"""Differential test: board-core's chess legal moves vs python-chess.

Generates positions by seeded random playouts with python-chess (PyPI
`chess`), from the start position and from the perft positions (castling,
en passant, promotions, pins), biased towards the special moves, and asks
`boardwire moves chess - --json` (batch mode: one FEN per stdin line) for
the legal moves of all of them in one process. Each position's UCI move set
must equal python-chess's `legal_moves`.

Half of the FENs are written with python-chess's `en_passant="fen"` (the
en passant square after every double push, capturable or not), the others
with its default "legal" form, so that our FEN parser's handling of both is
exercised.

Usage: chess_moves.py BOARDWIRE [--positions N] [--seed S]
Exit status 0 when every position agrees, 1 otherwise.
"""

import json
import random
import sys

import chess

from common import PERFT_STARTS, SPECIAL_STARTS, parse_args, run, special

STARTS = [
    *PERFT_STARTS,
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    *SPECIAL_STARTS,
]


def positions(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board(rng.choice(STARTS))
        for _ in range(rng.randrange(1, 120)):
            moves = list(board.legal_moves)
            if not moves or board.is_insufficient_material():
                break
            specials = [m for m in moves if special(board, m)]
            if specials and rng.random() < 0.5:
                move = rng.choice(specials)
            else:
                move = rng.choice(moves)
            was_special = special(board, move)
            board.push(move)
            # Snapshot right after special moves (double pushes make en
            # passant positions) and at random otherwise.
            if was_special or rng.random() < 0.2:
                ep = "fen" if rng.random() < 0.5 else "legal"
                out.append(board.fen(en_passant=ep))
                if len(out) >= count:
                    break
    return out


def main():
    args = parse_args(5000, 20240601)

    fens = positions(args.positions, args.seed)
    proc = run(args.boardwire, ["moves", "chess", "-", "--json"], fens, timeout=600)
    lines = proc.stdout.splitlines()
    if len(lines) != len(fens):
        print(f"expected {len(fens)} answer lines, got {len(lines)}; stderr: {proc.stderr.strip()}")
        return 1

    agreed = 0
    failures = 0
    stats = {"promotion": 0, "en passant": 0, "castling": 0, "check": 0, "no legal move": 0}
    for fen, line in zip(fens, lines):
        answer = json.loads(line)
        board = chess.Board(fen)
        theirs = sorted(m.uci() for m in board.legal_moves)
        if answer.get("fen") != fen or "error" in answer:
            failures += 1
            if failures <= 10:
                print(f"MISMATCH {fen}: boardwire error {answer.get('error')}")
            continue
        ours = sorted(m["uci"] for m in answer["moves"])
        if ours != theirs:
            failures += 1
            if failures <= 10:
                print(f"MISMATCH {fen}")
                print(f"  only boardwire:     {sorted(set(ours) - set(theirs))}")
                print(f"  only python-chess:  {sorted(set(theirs) - set(ours))}")
                if len(ours) != len(set(ours)):
                    print("  boardwire listed a move twice")
            continue
        agreed += 1
        legal = list(board.legal_moves)
        stats["promotion"] += any(m.promotion for m in legal)
        stats["en passant"] += any(board.is_en_passant(m) for m in legal)
        stats["castling"] += any(board.is_castling(m) for m in legal)
        stats["check"] += board.is_check()
        stats["no legal move"] += not legal
    detail = ", ".join(f"{v} with {k}" for k, v in stats.items())
    print(f"chess differential vs python-chess {chess.__version__}: "
          f"{agreed}/{len(fens)} positions agree ({detail})")
    return 0 if failures == 0 and proc.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
