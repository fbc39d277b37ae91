"""KIF/KI2 differential against python-shogi and cshogi (the peers).

cshogi plays random legal games from a fixed seed (even games,
the named handicaps both peers know, and positions reached after random
play, given as board diagrams), with drops, promotions and non-promotions
favoured, time columns, comments of the three kinds (`*`, `**`, `*#`,
several on one move) and the ending words. board-records' `kif_dump
--from-usi` writes each game as KIF (Shift_JIS `.kif` for even numbers,
UTF-8 `.kifu` for odd ones) and KI2 (`.ki2u`); then
- python-shogi's KIF reader reads every KIF to the same start position,
  moves and (for resignations) winner;
- cshogi's KIF reader (no board diagrams: it skips the board rows) reads
  every KIF with a named start to the same moves, times, comments and
  ending;
- board-records reads its own KI2 back to the moves cshogi played
  (the KI2 words are checked against the position by construction: a
  missing or superfluous word reads back as an error or another move);
- the other way round, cshogi's KIF writer (`cshogi.KIF.Exporter`, board
  diagrams included) writes every game and board-records reads it to the
  same moves.

Usage: 82-kif-differential.py KIF_DUMP_BINARY [--games N] [--seed S]
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

import shogi
import shogi.KIF
import cshogi
import cshogi.KIF

HANDICAPS = {
    "香落ち": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "角落ち": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛車落ち": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "二枚落ち": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "四枚落ち": "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "六枚落ち": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "十枚落ち": "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}
ENDINGS = ["投了", "投了", "中断", "千日手", "持将棋", "切れ負け", "反則勝ち", "反則負け", "入玉勝ち", "封じ手", "-"]
# All representable in cp932 (Shift_JIS files): see the module docs of
# board_records::kif for what the writer does with the rest.
WORDS = ["好手", "疑問手", "a comment", "▲７六歩が本線", "評価値 120", "x=1", "同　歩", "時間 00:01.2", "全角／ＡＢＣ"]
STARTING_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def pick(rng, board, moves):
    """Favour drops, captures, promotions and declined promotions (the
    cases KIF and KI2 spell out)."""
    usis = [cshogi.move_to_usi(m) for m in moves]
    have = set(usis)
    special = [m for m, u in zip(moves, usis) if "*" in u or u.endswith("+") or board.piece(cshogi.move_to(m))]
    declined = [m for m, u in zip(moves, usis) if not u.endswith("+") and u + "+" in have]
    r = rng.random()
    if declined and r < 0.15:
        return rng.choice(declined)
    if special and r < 0.5:
        return rng.choice(special)
    return rng.choice(moves)


def random_game(rng, index):
    kind = rng.random()
    if kind < 0.5:
        sfen = STARTING_SFEN
    elif kind < 0.75:
        sfen = rng.choice(list(HANDICAPS.values()))
    else:
        board = cshogi.Board()
        for _ in range(rng.randint(10, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(pick(rng, board, moves))
        if board.is_game_over():
            board = cshogi.Board()
        parts = board.sfen().split(" ")
        sfen = " ".join(parts[:3] + ["1"])
    board = cshogi.Board(sfen)
    usi, times, comments = [], [], []
    totals = [0, 0]
    if rng.random() < 0.2:
        comments.append((0, "*", rng.choice(WORDS)))
    for ply in range(rng.randint(0, 160)):
        moves = list(board.legal_moves)
        if not moves:
            break
        m = pick(rng, board, moves)
        side = board.turn
        spent = rng.choice([0, 1, 5, 59, 60, 61, 599, 3600])
        totals[side] += spent
        times.append((spent, totals[side]))
        usi.append(cshogi.move_to_usi(m))
        board.push(m)
        for _ in range(rng.choice([0, 0, 0, 1, 2])):
            comments.append((ply + 1, rng.choice(["*", "*", "**", "*#"]), rng.choice(WORDS)))
    ending = rng.choice(ENDINGS)
    with_times = rng.random() < 0.8
    return {"sfen": sfen, "usi": usi, "times": times if with_times else None,
            "ending": ending, "comments": comments, "named": kind < 0.75,
            "end_turn": "b" if board.turn == cshogi.BLACK else "w",
            }


def line_of(g):
    times = ",".join("%d:%d" % t for t in g["times"]) if g["times"] is not None else "-"
    comments = "\x1f".join("%d:%s:%s" % c for c in g["comments"]) or "-"
    return "\t".join([g["sfen"], " ".join(g["usi"]), times, g["ending"], comments])


def cshogi_expected_comments(g):
    out = {}
    for idx, kind, text in g["comments"]:
        if idx == 0:
            continue
        shown = text if kind in ("*", "**") else "#" + text
        out.setdefault(idx - 1, []).append(shown)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=82)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.time()
    games = [random_game(rng, i) for i in range(args.games)]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        lst = os.path.join(tmp, "games.tsv")
        with open(lst, "w", encoding="utf-8") as f:
            for g in games:
                f.write(line_of(g) + "\n")
        out = subprocess.run([args.binary, "--from-usi", lst, tmp], capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stdout, out.stderr)
            sys.exit(1)
        ps_checked = cs_checked = 0
        for i, g in enumerate(games):
            ext = "kif" if i % 2 == 0 else "kifu"
            path = os.path.join(tmp, "%05d.%s" % (i, ext))
            # python-shogi: start position, moves, resignation winner.
            try:
                ps = shogi.KIF.Parser.parse_file(path)[0]
            except Exception as e:  # noqa: BLE001
                failures.append("%d: python-shogi refused our KIF: %r" % (i, e))
                continue
            if ps["moves"] != g["usi"]:
                failures.append("%d: python-shogi moves differ" % i)
                continue
            # python-shogi reports the board and hands of the start; for a
            # board-diagram start the side to move it gives is the one after
            # the moves (it flips its turn per move and builds the SFEN last).
            got = shogi.Board(ps["sfen"]).sfen().split(" ")
            want = shogi.Board(g["sfen"]).sfen().split(" ")
            turn = want[1] if g["named"] else g["end_turn"]
            if (got[0], got[2], got[1]) != (want[0], want[2], turn):
                failures.append("%d: python-shogi start %s != %s" % (i, ps["sfen"], g["sfen"]))
                continue
            if g["ending"] == "投了":
                winner = "w" if g["end_turn"] == "b" else "b"
                if ps["win"] != winner:
                    failures.append("%d: python-shogi winner %r, expected %r" % (i, ps["win"], winner))
                    continue
            ps_checked += 1
            if not g["named"]:
                continue
            # cshogi: moves, times, comments, ending.
            cs = cshogi.KIF.Parser.parse_file(path)
            cs_moves = [cshogi.move_to_usi(m) for m in cs.moves]
            if cs_moves != g["usi"]:
                failures.append("%d: cshogi moves differ" % i)
                continue
            if g["times"] is not None and cs.times[:len(g["usi"])] != [t[0] for t in g["times"]]:
                failures.append("%d: cshogi times differ" % i)
                continue
            want = cshogi_expected_comments(g)
            got = {k: c for k, c in enumerate(cs.comments) if c is not None}
            want = {k: "\n".join(v) for k, v in want.items()}
            if want != got:
                failures.append("%d: cshogi comments differ: %r" % (i, got))
                continue
            if g["ending"] == "中断" and cs.endgame != "%CHUDAN":
                failures.append("%d: cshogi endgame %r" % (i, cs.endgame))
                continue
            cs_checked += 1
        # Our KI2 back to python-shogi's moves.
        ki2 = [os.path.join(tmp, "%05d.ki2u" % i) for i in range(len(games))]
        out = subprocess.run([args.binary] + ki2, capture_output=True, text=True)
        ki2_checked = 0
        for i, line in enumerate(out.stdout.splitlines()):
            fields = line.split("\t")
            moves = fields[2][len("moves "):].split() if len(fields) == 3 else None
            if moves != games[i]["usi"]:
                failures.append("%d: KI2 read back: %s" % (i, line[:200]))
            else:
                ki2_checked += 1
        # cshogi's KIF writer, read by board-records.
        peer_files = []
        for i, g in enumerate(games):
            path = os.path.join(tmp, "cshogi-%05d.%s" % (i, "kif" if i % 2 == 0 else "kifu"))
            board = cshogi.Board(g["sfen"])
            name = next((n for n, sf in HANDICAPS.items() if sf == g["sfen"]), None)
            handicap = None if g["sfen"] == STARTING_SFEN else (name or cshogi.Board(g["sfen"]))
            ex = cshogi.KIF.Exporter(path)
            ex.header(["A", "B"], handicap=handicap)
            for u in g["usi"]:
                m = board.move_from_usi(u)
                ex.move(m, 1, 0)
                board.push(m)
            ex.end("resign")
            ex.close()
            peer_files.append(path)
        out = subprocess.run([args.binary] + peer_files, capture_output=True, text=True)
        peer_checked = 0
        for i, line in enumerate(out.stdout.splitlines()):
            fields = line.split("\t")
            moves = fields[2][len("moves "):].split() if len(fields) == 3 else None
            if moves != games[i]["usi"]:
                failures.append("%d: cshogi's KIF read by us: %s" % (i, line[:200]))
            else:
                peer_checked += 1
    for f in failures[:20]:
        print(f)
    print("kif differential: %d games, python-shogi agreed on %d, cshogi on %d (named starts), "
          "KI2 round trip %d, cshogi-written KIF read by us %d, %d failures, %.1f s"
          % (len(games), ps_checked, cs_checked, ki2_checked, peer_checked, len(failures), time.time() - t0))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
