#!/usr/bin/env python3
"""Writes the record tree `tree/` that csa-league's rating tests compare with
shogi-server's `mk_game_results DIR | mk_rate` (deterministic: a fixed seed).

Only the lines mk_game_results and mk_rate read are written: `N+`, `N-`,
`'rating:`, the moves (`+7776FU`), `'summary:` and `'$END_TIME:` (a few
files add `$START_TIME:`, `T` lines, comments or CRLF endings).

Usage: python3 gen_tree.py OUT_DIR   (OUT_DIR/tree is replaced)
"""
import hashlib
import math
import os
import random
import shutil
import sys
from datetime import datetime, timedelta

SEED = 20261204
BASE = datetime(2026, 6, 1, 0, 0, 0)  # the tests' --base-date


def trip(name):
    return hashlib.md5(name.encode()).hexdigest()


# (login name, rating id's name part, strength); '@' suffixes are merged by
# mk_rate's identify_id, '@NORATE' ids are not rated.
GROUP_A = [("alpha", 1400), ("beta", 1250), ("gamma", 1200), ("delta", 1100),
           ("epsilon", 1000), ("zeta", 950), ("eta", 900), ("theta", 800),
           ("iota", 700), ("kappa", 650), ("lambda", 600), ("mu", 500)]
GROUP_B = [("red", 1300), ("green", 1000), ("blue", 900), ("cyan", 700),
           ("magenta", 500)]


def main():
    out = os.path.join(sys.argv[1], "tree")
    if os.path.exists(out):
        shutil.rmtree(out)
    rng = random.Random(SEED)
    games = []

    def add(black, white, bstr, wstr, day_back, kind="toryo", plies=None,
            bname=None, wname=None, extras=()):
        games.append(dict(black=black, white=white, bstr=bstr, wstr=wstr,
                          day_back=day_back, kind=kind, plies=plies,
                          bname=bname, wname=wname, extras=extras))

    # Group A: 260 recent games (the half-life weighs them) and 40 over 900
    # days (some older than 730 days).
    for _ in range(260):
        (a, sa), (b, sb) = rng.sample(GROUP_A, 2)
        add(a, b, sa, sb, rng.expovariate(1 / 50.0))
    for _ in range(40):
        (a, sa), (b, sb) = rng.sample(GROUP_A, 2)
        add(a, b, sa, sb, rng.uniform(0, 900))
    # Group B: 110 games among themselves only.
    for _ in range(110):
        (a, sa), (b, sb) = rng.sample(GROUP_B, 2)
        add(a, b, sa, sb, rng.expovariate(1 / 40.0))
    # Draws (sennichite) and max_moves draws in both groups.
    for _ in range(14):
        (a, sa), (b, sb) = rng.sample(GROUP_A, 2)
        add(a, b, sa, sb, rng.uniform(0, 300), kind="sennichite")
    for _ in range(6):
        (a, sa), (b, sb) = rng.sample(GROUP_B, 2)
        add(a, b, sa, sb, rng.uniform(0, 300), kind="max_moves")
    # Abnormal games: short (<= 30 plies: dropped by default) and long.
    for i in range(16):
        (a, sa), (b, sb) = rng.sample(GROUP_A, 2)
        plies = [4, 12, 30, 31, 45, 60][i % 6]
        add(a, b, sa, sb, rng.uniform(0, 200), kind="abnormal", plies=plies)
    # '@' suffixes: alpha and beta log in as alpha@v2 / beta@test (merged).
    for _ in range(12):
        add("alpha@v2", "gamma", 1400, 1200, rng.uniform(0, 100))
        add("delta", "beta@test", 1100, 1250, rng.uniform(0, 100))
    # @NORATE players: never rated, never listed.
    for _ in range(10):
        (a, sa), = rng.sample(GROUP_A, 1)
        add("tester@NORATE", a, 900, sa, rng.uniform(0, 100))
    # Below the limits: few games, only wins, only losses.
    for _ in range(6):
        (a, sa), = rng.sample(GROUP_A, 1)
        add("rookie", a, 900, sa, rng.uniform(0, 20))
    for _ in range(17):
        (a, sa), = rng.sample(GROUP_A, 1)
        add("champ", a, 99999, sa, rng.uniform(0, 6))
    for _ in range(17):
        (a, sa), = rng.sample(GROUP_B, 1)
        add("patzer", a, -99999, sa, rng.uniform(0, 6))
    # Games after the base date (ignored) and very old ones.
    for _ in range(5):
        (a, sa), (b, sb) = rng.sample(GROUP_A, 2)
        add(a, b, sa, sb, -rng.uniform(1, 30))
    # Time up and illegal moves as end states.
    for _ in range(10):
        (a, sa), (b, sb) = rng.sample(GROUP_A, 2)
        add(a, b, sa, sb, rng.uniform(0, 500),
            kind=rng.choice(["time_up", "illegal_move", "kachi"]))

    count = 0
    for g in games:
        count += 1
        end = BASE - timedelta(days=g["day_back"])
        end = end.replace(microsecond=0)
        bname = g["black"]
        wname = g["white"]
        bid = "%s+%s" % (bname, trip(bname.split("@")[0]))
        wid = "%s+%s" % (wname, trip(wname.split("@")[0]))
        kind = g["kind"]
        if kind in ("sennichite", "max_moves"):
            bmark, wmark = "draw", "draw"
        else:
            d = g["bstr"] - g["wstr"]
            p = 1.0 / (1.0 + 10 ** (-max(-4000, min(4000, d)) / 400.0))
            if rng.random() < p:
                bmark, wmark = "win", "lose"
            else:
                bmark, wmark = "lose", "win"
        plies = g["plies"] if g["plies"] is not None else rng.randint(32, 90)
        game = "floodgate-300-10F"
        stamp = end.strftime("%Y%m%d%H%M%S")
        path = os.path.join(out, end.strftime("%Y"), end.strftime("%m"),
                            end.strftime("%d"),
                            "wdoor+%s+%s+%s+%s.csa" % (game, bname, wname, stamp))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        lines = ["V2.2", "N+" + bname, "N-" + wname, "'rating:%s:%s" % (bid, wid)]
        if count % 7 == 0:
            lines.append("$START_TIME:" + (end - timedelta(minutes=20)).strftime("%Y/%m/%d %H:%M:%S"))
        for i in range(plies):
            lines.append(("+7776FU" if i % 2 == 0 else "-3334FU"))
            if count % 11 == 0:
                lines.append("T%d" % (i % 9 + 1))
        if count % 13 == 0:
            lines.append("'** a comment")
        summary = {"toryo": "toryo", "sennichite": "sennichite",
                   "max_moves": "max_moves", "abnormal": "abnormal",
                   "time_up": "time up", "illegal_move": "illegal move",
                   "kachi": "kachi"}[kind]
        # The summary lists the players in either order (shogi-server writes
        # the winner first for some endings).
        if count % 5 == 0:
            lines.append("'summary:%s:%s %s:%s %s" % (summary, wname, wmark, bname, bmark))
        else:
            lines.append("'summary:%s:%s %s:%s %s" % (summary, bname, bmark, wname, wmark))
        lines.append("'$END_TIME:" + end.strftime("%Y/%m/%d %H:%M:%S"))
        eol = "\r\n" if count % 17 == 0 else "\n"
        with open(path, "w", newline="") as f:
            f.write(eol.join(lines) + eol)

    # Files mk_game_results skips without a word: no 'rating: line, the same
    # id on both sides, no 'summary:, no end time; a file that is not *.csa.
    odd = os.path.join(out, "odd")
    os.makedirs(odd, exist_ok=True)
    a, b = "alpha+" + trip("alpha"), "beta+" + trip("beta")
    samples = {
        "no-rating.csa": ["N+alpha", "N-beta", "+7776FU", "'summary:toryo:alpha win:beta lose", "'$END_TIME:2026/05/01 10:00:00"],
        "same-id.csa": ["N+alpha", "N-alpha", "'rating:%s:%s" % (a, a), "+7776FU", "'summary:toryo:alpha win:alpha lose", "'$END_TIME:2026/05/01 10:00:00"],
        "no-summary.csa": ["N+alpha", "N-beta", "'rating:%s:%s" % (a, b), "+7776FU", "'$END_TIME:2026/05/01 10:00:00"],
        "no-end.csa": ["N+alpha", "N-beta", "'rating:%s:%s" % (a, b), "+7776FU", "'summary:toryo:alpha win:beta lose"],
    }
    for name, lines in samples.items():
        with open(os.path.join(odd, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(odd, "notes.txt"), "w") as f:
        f.write("N+alpha\n'rating:%s:%s\n" % (a, b))
    # The same game at a second path is a second result (mk_rate's duplicate
    # check compares whole lines, the path included).
    first = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(out, "2026")) for f in fs)[0]
    shutil.copy(first, os.path.join(odd, "copy-of-a-game.csa"))


if __name__ == "__main__":
    main()
