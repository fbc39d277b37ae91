#!/usr/bin/env python3
"""Differential test: board-core's chess SAN vs python-chess, both ways.

Positions come from seeded random playouts with python-chess (PyPI
`chess`) from several starting FENs: the start position, the perft
positions (castling, en passant, promotions, pins) and positions made for
SAN (several knights, rooks and queens reaching the same squares, so that
file, rank and whole-square disambiguation all occur; promotions with and
without capture). Moves are biased towards the special ones.

Writing: `boardwire moves chess - --json` (batch mode, one FEN per stdin
line) gives every legal move with its UCI and SAN; every SAN must equal
python-chess's `board.san(move)`, and the UCI move sets must agree.

Reading: for every legal move, python-chess's SAN and one lenient variant
of it, and for two moves per position every variant (no check mark, a needless `+`, needless disambiguation by file, rank
or square, a missing `x`, `-` instead of `x`, a promotion without `=` or in
lower case, `0-0`, long algebraic / UCI-like `e2e4`, and forms that must
fail: a needed disambiguation dropped, a promotion piece dropped) are fed
to `boardwire play chess -` (batch mode: `FEN moves SAN` per line). Each
answer must agree with python-chess's `board.parse_san` on the same text:
both reject it, or both play the same move (same resulting FEN). Variants
with an annotation (`!`, `?!`, for a quarter of the moves) are ours only: python-chess's parser does
not take them, so they are compared with python-chess on the text without
the annotation.

Usage: chess_san.py BOARDWIRE [--positions N] [--min-positions N]
                   [--seed S] [--max-seconds T]
Positions are generated until N are reached or T seconds have passed
(then at least --min-positions are required). Exit status 0 when
everything agrees, 1 otherwise.
"""

import json
import random
import sys
import time

import chess

from common import PERFT_STARTS, SPECIAL_STARTS, parse_args, run, special

STARTS = [
    *PERFT_STARTS,
    *SPECIAL_STARTS,
    # SAN-specific: disambiguation-rich (three queens, two rook pairs,
    # knights on one file and one rank) and promotion-rich.
    "6k1/1K6/8/R7/4Q2Q/8/8/R6Q w - - 0 1",
    "k2r3r/8/8/8/8/8/8/4K3 b - - 0 1",
    "4k3/8/8/6N1/8/8/3N4/4NKN1 w - - 0 1",
    "rn2k3/1P4P1/8/8/8/8/1p4p1/RN2K3 w - - 0 1",
    "r1n1k2r/1P5P/8/8/8/8/1p5p/R1N1K2R w KQkq - 0 1",
    "q3k2q/8/8/3qq3/3QQ3/8/8/Q3K2Q w - - 0 1",
]


def positions(count, seed, deadline):
    rng = random.Random(seed)
    out = []
    while len(out) < count and time.monotonic() < deadline:
        board = chess.Board(rng.choice(STARTS))
        for _ in range(rng.randrange(1, 100)):
            moves = list(board.legal_moves)
            if not moves or board.is_insufficient_material():
                break
            specials = [m for m in moves if special(board, m, captures=True)]
            if specials and rng.random() < 0.4:
                move = rng.choice(specials)
            else:
                move = rng.choice(moves)
            board.push(move)
            if rng.random() < 0.3:
                out.append(board.fen())
                if len(out) >= count:
                    break
    return out


def variants(board, move, san):
    """Texts a user may type for `move`, canonical first, then lenient
    forms and forms that must fail (python-chess decides which is which)."""
    out = [san]
    bare = san.rstrip("+#")
    if bare != san:
        out.append(bare)
    else:
        out.append(bare + "+")
    if board.is_castling(move):
        out.append(bare.replace("O", "0"))
        out.append(move.uci())
        return out
    frm, to = chess.SQUARE_NAMES[move.from_square], chess.SQUARE_NAMES[move.to_square]
    piece = board.piece_type_at(move.from_square)
    letter = "" if piece == chess.PAWN else chess.piece_symbol(piece).upper()
    promo = "" if move.promotion is None else chess.piece_symbol(move.promotion).upper()
    cap = "x" if board.is_capture(move) else ""
    if letter:
        out.append(f"{letter}{frm[0]}{cap}{to}")
        out.append(f"{letter}{frm[1]}{cap}{to}")
        out.append(f"{letter}{frm}{cap}{to}")
        out.append(f"{letter}{frm}-{to}")
        # Every disambiguation dropped: ambiguous when one was needed.
        out.append(f"{letter}{cap}{to}")
    if cap:
        out.append(bare.replace("x", ""))
    if promo:
        out.append(bare.replace("=", ""))
        out.append(bare[:-1] + promo.lower())
        out.append(bare.split("=")[0])  # promotion piece missing: must fail
        out.append(f"{frm}{to}{promo}")
    out.append(move.uci())
    return out


def python_verdict(board, text):
    """The FEN after python-chess's parse_san(text), or None if it fails."""
    try:
        move = board.parse_san(text)
    except ValueError:
        return None
    if not move:
        return None  # null move: not a move of ours
    board.push(move)
    fen = board.fen()
    board.pop()
    return fen


def main():
    args = parse_args(
        10500, 20261201, ("--min-positions", int, 10000), ("--max-seconds", float, 300)
    )
    start = time.monotonic()
    # Generation gets a third of the budget; the rest is for comparing.
    fens = positions(args.positions, args.seed, start + args.max_seconds / 3)
    failures = 0

    def fail(msg):
        nonlocal failures
        failures += 1
        if failures <= 15:
            print("MISMATCH " + msg)

    # Writing.
    remaining = max(10.0, args.max_seconds - (time.monotonic() - start))
    proc = run(args.boardwire, ["moves", "chess", "-", "--json"], fens, remaining)
    answers = proc.stdout.splitlines()
    if len(answers) != len(fens) or proc.returncode != 0:
        print(f"moves: expected {len(fens)} lines and exit 0, got {len(answers)} "
              f"and {proc.returncode}; stderr: {proc.stderr.strip()}")
        return 1
    written = 0
    play_lines, expected = [], []
    rng = random.Random(args.seed + 1)
    for fen, line in zip(fens, answers):
        answer = json.loads(line)
        board = chess.Board(fen)
        theirs = {m.uci(): board.san(m) for m in board.legal_moves}
        ours = {m["uci"]: m["san"] for m in answer.get("moves", [])}
        if ours != theirs:
            diff = sorted(set(ours.items()) ^ set(theirs.items()))
            fail(f"{fen}: SAN written differ (ours ^ python-chess): {diff[:6]}")
            continue
        written += len(ours)
        legal = list(board.legal_moves)
        every_variant = set(rng.sample(range(len(legal)), min(2, len(legal))))
        for i, move in enumerate(legal):
            san = theirs[move.uci()]
            forms = variants(board, move, san)
            # Every move: python-chess's SAN and one lenient variant; two
            # moves per position: every variant.
            texts = forms if i in every_variant else [san, rng.choice(forms[1:])]
            for text in texts:
                play_lines.append(f"{fen} moves {text}")
                expected.append((fen, text, python_verdict(board, text)))
            # Annotations (every fourth move): ours only; python-chess is
            # asked without them.
            if rng.random() < 0.25:
                ann = rng.choice(["!", "?", "!!", "??", "!?", "?!"])
                play_lines.append(f"{fen} moves {san}{ann}")
                expected.append((fen, san + ann, python_verdict(board, san)))

    # Reading.
    remaining = max(10.0, args.max_seconds - (time.monotonic() - start))
    proc = run(args.boardwire, ["play", "chess", "-"], play_lines, remaining)
    answers = proc.stdout.splitlines()
    if len(answers) != len(play_lines):
        print(f"play: expected {len(play_lines)} lines, got {len(answers)}; "
              f"stderr: {proc.stderr.strip()[:500]}")
        return 1
    accepted = rejected = 0
    for (fen, text, theirs), ours in zip(expected, answers):
        ours_fen = None if ours.startswith("error: ") else ours
        if ours_fen != theirs:
            fail(f"{fen}: parse {text!r}: boardwire {ours!r}, python-chess {theirs!r}")
        elif theirs is None:
            rejected += 1
        else:
            accepted += 1
    seconds = time.monotonic() - start
    print(f"chess SAN differential vs python-chess {chess.__version__}: "
          f"{len(fens)} positions, {written} legal moves written identically, "
          f"{len(play_lines)} texts read ({accepted} accepted with the same move, "
          f"{rejected} rejected by both), {failures} mismatches, {seconds:.1f} s")
    if len(fens) < args.min_positions:
        print(f"only {len(fens)} positions within --max-seconds "
              f"(at least {args.min_positions} required)")
        return 1
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
