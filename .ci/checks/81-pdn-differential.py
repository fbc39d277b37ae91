"""PDN differential against pydraughts (the peer; it reads and writes main
lines only: comments, NAGs and variations are dropped by its reader):

1. board-records writes 1,000 random legal games; pydraughts' PDNReader
   reads the same main-line moves and results as board-records reads back.
   The games are written without annotations: pydraughts' reader fails
   (ValueError) on a move number that appears twice, as `5.` and `5...` do
   around a comment, NAG or variation. The annotated form of the same games
   is read by board-records to the same main lines.
2. pydraughts' PDNWriter writes those move lists (its long GameType, its
   FEN tag with unsorted squares); board-records reads the same moves.
3. On a sample of games, pydraughts replays every move on its own board:
   each is legal there and pydraughts writes it with the same text (short
   form, or the long form when ambiguous). pydraughts' move generation is
   slow (about 20 ms a move on 2 loaded cores), so the sample is small.

Usage: 81-pdn-differential.py PDN_TOOL [--games N] [--seed S] [--replay K]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

from draughts import Board, Move
from draughts.PDN import PDNReader, PDNWriter


def parse_dump(path):
    games = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("game "):
                games.append({})
            else:
                key, _, value = line.partition(" ")
                games[-1][key] = value
    return games


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261204)
    ap.add_argument("--replay", type=int, default=5)
    args = ap.parse_args()
    t0 = time.time()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        ours = os.path.join(tmp, "ours.pdn")
        subprocess.run([args.tool, "gen-plain", str(args.games), str(args.seed), ours], check=True, timeout=120)
        dump = os.path.join(tmp, "ours.txt")
        subprocess.run([args.tool, "dump", ours, dump], check=True, timeout=120)
        mine = parse_dump(dump)
        annotated = os.path.join(tmp, "annotated.pdn")
        subprocess.run([args.tool, "gen", str(args.games), str(args.seed), annotated], check=True, timeout=120)
        dump_a = os.path.join(tmp, "annotated.txt")
        subprocess.run([args.tool, "dump", annotated, dump_a], check=True, timeout=120)
        if parse_dump(dump_a) != mine:
            failed += 1
            print("FAIL: the annotated games do not read to the plain games' main lines")
        theirs = PDNReader(filename=ours).games
        if len(theirs) != len(mine) or len(mine) != args.games:
            print("FAIL: %d games written, pydraughts read %d, we read %d" % (args.games, len(theirs), len(mine)))
            return 1
        moves = []
        for i, (m, t) in enumerate(zip(mine, theirs)):
            ours_moves = m.get("moves", "").split()
            moves.append(ours_moves)
            if "error" in m or t.moves != ours_moves or t.game_ending != m.get("result"):
                failed += 1
                if failed <= 3:
                    print("FAIL (our writer, pydraughts reader) game %d: %s\n  ours:       %s %s\n  pydraughts: %s %s"
                          % (i, m.get("error", ""), ours_moves, m.get("result"), t.moves, t.game_ending))
        step1 = failed
        # 2. pydraughts writes, we read.
        theirs_path = os.path.join(tmp, "pydraughts.pdn")
        for i, mv in enumerate(moves):
            PDNWriter(theirs_path, moves=mv, variant="standard", tags={"Event": "Differential %d" % i},
                      game_ending=mine[i].get("result", "*"), file_mode="a")
        dump2 = os.path.join(tmp, "theirs.txt")
        subprocess.run([args.tool, "dump", theirs_path, dump2], check=True, timeout=120)
        back = parse_dump(dump2)
        if len(back) != len(moves):
            print("FAIL: pydraughts wrote %d games, we read %d" % (len(moves), len(back)))
            return 1
        for i, (b, mv) in enumerate(zip(back, moves)):
            if "error" in b or b.get("moves", "").split() != mv:
                failed += 1
                if failed - step1 <= 3:
                    print("FAIL (pydraughts writer, our reader) game %d: %s" % (i, b.get("error", b.get("moves"))))
        step2 = failed - step1
        # 3. pydraughts replays a sample.
        replayed = 0
        for i, mv in enumerate(moves[: args.replay]):
            board = Board("standard")
            for k, text in enumerate(mv):
                legal = {m.pdn_move: m for m in board.legal_moves()}
                if text not in legal:
                    failed += 1
                    print("FAIL (replay) game %d ply %d: %s not among pydraughts' %s" % (i, k + 1, text, sorted(legal)))
                    break
                board.push(legal[text])
                replayed += 1
        step3 = failed - step1 - step2
    n = 2 * args.games + args.replay
    print("pdn differential: %d games; pydraughts reading ours: %d differ; ours reading pydraughts': %d differ; "
          "%d moves replayed by pydraughts, %d games differ (%.1f s)"
          % (args.games, step1, step2, replayed, step3, time.time() - t0))
    print("%d passed, %d failed" % (n - failed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
