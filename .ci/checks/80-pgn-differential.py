"""PGN differential against python-chess (the peer): python-chess writes
random legal games from a fixed seed with comments (clock and eval
commands, free text), NAGs, nested variations, starting comments, null
moves and set-up positions; board-records reads them to the same moves,
tags, comments, NAGs and results; board-records' export read back by
python-chess gives the same game again.

Usage: 80-pgn-differential.py PGN_DUMP_BINARY [--games N] [--seed S]
(the binary is board-records' example `pgn_dump`).
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

import chess
import chess.pgn

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 3 40",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
]
WORDS = ["best", "Inaccuracy.", "a6 was best.", "(0.26 → 0.85)", "Übung", "a;b",
         "%x", "[not a command]", "White is toast", "Mistake."]
VALUES = ["?", "Fischer, Robert J.", "Zürich", "", "2024.01.15", "-", "3.1", "Rated Blitz game"]


def pick_move(rng, board, moves):
    """Favour promotions, castling, en passant and captures (SAN's hard cases)."""
    special = [m for m in moves if m.promotion or board.is_castling(m)
               or board.is_en_passant(m) or board.is_capture(m)]
    if special and rng.random() < 0.3:
        return rng.choice(special)
    return rng.choice(moves)


def comment(rng, ply):
    parts = []
    if rng.random() < 0.5:
        c = rng.randint(0, 5400)
        parts.append("[%%clk %d:%02d:%02d]" % (c // 3600, c // 60 % 60, c % 60))
    if rng.random() < 0.3:
        if rng.random() < 0.2:
            parts.append("[%%eval #%d]" % rng.choice([-5, -3, -1, 1, 2, 7]))
        else:
            parts.append("[%%eval %.2f]" % (rng.randint(-900, 900) / 100))
    for _ in range(rng.randint(0, 3)):
        parts.append(rng.choice(WORDS))
    return " ".join(parts)


def grow(rng, node, board, plies, depth):
    """Adds a line of `plies` random moves under `node` (board = node's
    position), with annotations and variations."""
    for ply in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return
        if rng.random() < 0.02 and not board.is_check():
            mv = chess.Move.null()
        else:
            mv = pick_move(rng, board, moves)
        child = node.add_variation(mv)
        if rng.random() < 0.3:
            child.comment = comment(rng, ply)
        if rng.random() < 0.2:
            child.nags = set(rng.randint(1, 255) for _ in range(rng.randint(1, 2)))
        if depth < 3 and rng.random() < 0.12 and mv != chess.Move.null():
            alts = [m for m in moves if m != mv]
            for alt in rng.sample(alts, min(len(alts), rng.randint(1, 2))):
                var = node.add_variation(alt)
                if rng.random() < 0.3:
                    var.starting_comment = rng.choice(WORDS)
                if rng.random() < 0.3:
                    var.comment = comment(rng, ply)
                b = board.copy(stack=False)
                b.push(alt)
                grow(rng, var, b, rng.randint(0, 6), depth + 1)
        board.push(mv)
        node = child


def random_game(rng, index):
    game = chess.pgn.Game()
    fen = rng.choice(STARTS) if rng.random() < 0.3 else chess.STARTING_FEN
    board = chess.Board(fen)
    if fen != chess.STARTING_FEN:
        game.setup(board)
    for name in ["Event", "Site", "Date", "Round", "White", "Black"]:
        game.headers[name] = rng.choice(VALUES)
    game.headers["Event"] = "Differential %d" % index
    for name in ["WhiteElo", "TimeControl", "ECO", "Annotator", "Termination"]:
        if rng.random() < 0.4:
            game.headers[name] = rng.choice(["1500", "180+2", "B54", "lichess.org", "Normal"])
    game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    if rng.random() < 0.2:
        game.comment = rng.choice(WORDS)
    grow(rng, game, board, rng.randint(0, 70), 0)
    return game


def m(node):
    nags = ",".join(str(n) for n in sorted(node.nags))
    return "m %s n=%s s=%s c=%s" % (node.move.uci(), nags,
                                     node.starting_comment.replace("\n", "\\n"),
                                     node.comment.replace("\n", "\\n"))


def dump_line(first, out):
    node = first
    while True:
        out.append(m(node))
        parent = node.parent
        if parent.variations[0] is node:
            for alt in parent.variations[1:]:
                out.append("(")
                dump_line(alt, out)
                out.append(")")
        if not node.variations:
            return
        node = node.variations[0]


def dump(game, index, tags_in_order=True):
    out = ["game %d" % index]
    tags = list(game.headers.items())
    if not tags_in_order:
        tags.sort()
    out += ["tag %s=%s" % kv for kv in tags]
    out.append("comment %s" % game.comment.replace("\n", "\\n"))
    out.append("start %s" % game.board().fen())
    if game.variations:
        dump_line(game.variations[0], out)
    out.append("result %s" % game.headers.get("Result", "*"))
    return out


def ours_sorted_tags(lines):
    """Our dump of one game with its tag lines sorted (for comparing with
    python-chess's reading of our export, whose tag order is ours)."""
    tags = sorted(l for l in lines if l.startswith("tag "))
    rest = [l for l in lines if not l.startswith("tag ")]
    return rest[:1] + tags + rest[1:]


def split_games(lines):
    games, cur = [], None
    for l in lines:
        if l.startswith("game "):
            cur = [l]
            games.append(cur)
        else:
            cur.append(l)
    return games


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261204)
    args = ap.parse_args()
    t0 = time.time()
    rng = random.Random(args.seed)
    games = [random_game(rng, i) for i in range(args.games)]
    nodes = sum(1 for g in games for _ in iter_nodes(g))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "python-chess.pgn")
        with open(src, "w", encoding="utf-8") as f:
            for g in games:
                print(g, file=f, end="\n\n")
        dump_path = os.path.join(tmp, "dump.txt")
        ours_path = os.path.join(tmp, "ours.pgn")
        subprocess.run([args.binary, src, dump_path, ours_path], check=True, timeout=120)
        with open(dump_path, encoding="utf-8") as f:
            ours = split_games(f.read().splitlines())
        failed = 0
        # 1. Our reading of python-chess's file.
        if len(ours) != len(games):
            print("FAIL: python-chess wrote %d games, we read %d" % (len(games), len(ours)))
            return 1
        for i, (g, o) in enumerate(zip(games, ours)):
            want = dump(g, i)
            if o != want:
                failed += 1
                if failed <= 3:
                    report("read", i, want, o)
        read_ok = len(games) - failed
        # 2. python-chess reading our export.
        back = []
        with open(ours_path, encoding="utf-8") as f:
            while True:
                g = chess.pgn.read_game(f)
                if g is None:
                    break
                back.append(g)
        if len(back) != len(games):
            print("FAIL: we wrote %d games, python-chess read %d" % (len(games), len(back)))
            return 1
        failed2 = 0
        for i, (g, b) in enumerate(zip(games, back)):
            if b.errors:
                failed2 += 1
                print("python-chess errors reading our game %d: %s" % (i, b.errors))
                continue
            want = dump(g, i, tags_in_order=False)
            got = dump(b, i, tags_in_order=False)
            if got != want:
                failed2 += 1
                if failed2 <= 3:
                    report("written", i, want, got)
    elapsed = time.time() - t0
    print("pgn differential: %d games, %d moves (variations included); read by us: %d same, %d differ; "
          "our export read by python-chess: %d same, %d differ (%.1f s)"
          % (len(games), nodes, read_ok, failed, len(games) - failed2, failed2, elapsed))
    total = 2 * len(games)
    print("%d passed, %d failed" % (total - failed - failed2, failed + failed2))
    return 0 if failed == 0 and failed2 == 0 else 1


def iter_nodes(game):
    stack = list(game.variations)
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.variations)


def report(what, i, want, got):
    print("FAIL (%s) game %d" % (what, i))
    for k, (a, b) in enumerate(zip(want, got)):
        if a != b:
            print("  line %d\n    python-chess: %s\n    ours:         %s" % (k, a, b))
            break
    else:
        print("  lengths differ: python-chess %d lines, ours %d" % (len(want), len(got)))


if __name__ == "__main__":
    sys.exit(main())
