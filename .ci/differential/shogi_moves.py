#!/usr/bin/env python3
"""Differential test: board-core's shogi legal moves vs cshogi.

Generates positions by seeded random playouts with cshogi (PyPI `cshogi`, a
C++ core derived from Apery), from the even-game start, handicap starts and
positions with full hands, with the move choice biased towards checks,
drops, promotions and captures so that uchifuzume, forced promotions, nifu
and evasions come up often. All positions go to one
`boardwire moves shogi - --json` process (batch mode: one SFEN per stdin
line). For each position the USI move set must equal cshogi's
`legal_moves`, and every move's CSA text must equal cshogi's `move_to_csa`
(which omits the sign; we check the sign against the side to move).

Usage: shogi_moves.py BOARDWIRE [--positions N] [--seed S] [--max-seconds T]
Exit status 0 when every position agrees, 1 otherwise.
"""

import json
import random
import sys
import time

import importlib.metadata

import cshogi

from common import parse_args, run

STARTS = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    # Handicaps (White, the stronger side, moves first): rook+bishop, rook, lance.
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    # Full hands: drops everywhere, pawn-drop checks.
    "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrb3g3s3n3l17p 1",
    "4k4/9/9/9/9/9/9/9/4K4 w RBGSNLPrb3g3s3n3l17p 1",
    # The vectors file's positions that have both kings.
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "r7k/6K2/7SP/4s2bb/9/9/9/9/9 b r4g2s4n4l17p 1",
    "l7l/5bS2/p1np5/6Sk1/4p2B1/PSpPPn1G1/1P1G2g1N/2+l6/L1KN1+r3 b R3Pgs7p 1",
    # Pawn-drop mate available: a hand-made one (P*1b) and the Floodgate
    # game lost by -0064FU (vectors/csa-kifu), after its 103 moves.
    "7lk/9/7G1/9/9/9/9/9/4K4 b P 1",
    "ln1g1k1nl/2+P6/4gg1p1/2p1ppp2/1+rSK3PP/p1PGSPP1L/3+r5/9/LN7 w B2SN5Pbp 104",
]


def pick(board, moves, rng):
    """A legal move, biased towards checks, drops, promotions, captures."""
    r = rng.random()
    # Below each threshold, the first kind of move the position has.
    for threshold, kind in (
        (0.25, lambda: list(board.check_moves)),
        (0.45, lambda: [m for m in moves if cshogi.move_is_drop(m)]),
        (0.6, lambda: [m for m in moves if cshogi.move_is_promotion(m)]),
        (0.75, lambda: [m for m in moves if cshogi.move_cap(m)]),
    ):
        if r < threshold:
            chosen = kind()
            if chosen:
                return rng.choice(chosen)
    return rng.choice(moves)


def positions(count, rng):
    seen = set()
    out = []
    while len(out) < count:
        board = cshogi.Board(rng.choice(STARTS))
        for _ in range(rng.randint(10, 250)):
            sfen = board.sfen()
            if sfen not in seen:
                seen.add(sfen)
                out.append(sfen)
            moves = list(board.legal_moves)
            if not moves or len(out) >= count:
                break
            board.push(pick(board, moves, rng))
    return out


def pawn_drop_mate_square(board):
    """The square in front of the enemy king when a pawn drop there is
    legal in every respect except the pawn-drop-mate rule (so both sides
    must leave it out), else None. Squares: file index * 9 + rank index."""
    if board.is_check():
        return None
    us = board.turn
    if board.pieces_in_hand[us][0] == 0:
        return None
    king = board.king_square(1 - us)
    rank = king % 9 + (1 if us == cshogi.BLACK else -1)
    if not 0 <= rank <= 8:
        return None
    front = king - king % 9 + rank
    if board.piece(front) != 0:
        return None
    if (us == cshogi.BLACK and rank == 0) or (us == cshogi.WHITE and rank == 8):
        return None
    own_pawn = cshogi.BPAWN if us == cshogi.BLACK else cshogi.WPAWN
    file_start = king - king % 9
    if any(board.piece(file_start + r) == own_pawn for r in range(9)):
        return None
    usi = f"P*{front // 9 + 1}{chr(ord('a') + front % 9)}"
    legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
    return None if usi in legal else usi


def main():
    args = parse_args(5000, 20260601, ("--max-seconds", float, 60.0))
    started = time.monotonic()
    rng = random.Random(args.seed)
    sfens = positions(args.positions, rng)
    proc = run(args.boardwire, ["moves", "shogi", "-", "--json"], sfens)
    if proc.returncode != 0:
        print(f"boardwire failed ({proc.returncode}): {proc.stderr.strip()}", file=sys.stderr)
        return 1
    answers = proc.stdout.splitlines()
    if len(answers) != len(sfens):
        print(f"expected {len(sfens)} answer lines, got {len(answers)}", file=sys.stderr)
        return 1
    stats = {"moves": 0, "in_check": 0, "mate": 0, "with_drops": 0, "with_promotions": 0,
             "pawn_drop_mate_excluded": 0}
    bad = 0
    for sfen, line in zip(sfens, answers):
        answer = json.loads(line)
        if answer.get("sfen") != sfen or "moves" not in answer:
            print(f"bad answer for {sfen}: {line}", file=sys.stderr)
            bad += 1
            continue
        board = cshogi.Board(sfen)
        sign = "+" if board.turn == cshogi.BLACK else "-"
        theirs = {cshogi.move_to_usi(m): sign + cshogi.move_to_csa(m) for m in board.legal_moves}
        ours = {m["usi"]: m["csa"] for m in answer["moves"]}
        if ours != theirs:
            bad += 1
            if bad <= 10:
                only_ours = sorted(set(ours) - set(theirs))
                only_theirs = sorted(set(theirs) - set(ours))
                csa_diff = sorted((u, ours[u], theirs[u]) for u in set(ours) & set(theirs)
                                  if ours[u] != theirs[u])
                print(f"MISMATCH {sfen}\n  only ours: {only_ours}\n  only cshogi: {only_theirs}"
                      f"\n  csa differs: {csa_diff[:5]}", file=sys.stderr)
            continue
        stats["moves"] += len(ours)
        if board.is_check():
            stats["in_check"] += 1
            if not ours:
                stats["mate"] += 1
        if any("*" in u for u in ours):
            stats["with_drops"] += 1
        if any(u.endswith("+") for u in ours):
            stats["with_promotions"] += 1
        if pawn_drop_mate_square(board) is not None:
            stats["pawn_drop_mate_excluded"] += 1
    elapsed = time.monotonic() - started
    print(f"shogi differential vs cshogi {importlib.metadata.version('cshogi')}: "
          f"{len(sfens) - bad}/{len(sfens)} positions agree ({stats['moves']} moves; "
          f"{stats['in_check']} in check, {stats['mate']} mates, {stats['with_drops']} with drops, "
          f"{stats['with_promotions']} with promotions, {stats['pawn_drop_mate_excluded']} pawn-drop "
          f"mates excluded) in {elapsed:.1f} s")
    if elapsed > args.max_seconds:
        print(f"warning: took longer than {args.max_seconds} s", file=sys.stderr)
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
