#!/usr/bin/env python3
"""Writes the seed corpora in fuzz/seeds/<target>/ from the repository's own
test data (perft tables, recorded transcripts, kifu files) and the spec
examples, so a short fuzz run starts from meaningful inputs.

Run from the repository root: python3 fuzz/make_seeds.py (the output is
committed; rerun it when the test data changes). Targets whose input is
built with `arbitrary` (chess_play, shogi_playout, dxp_value,
citrine_command_round_trip, citrine_reply_round_trip) get no seeds: their
bytes are choices, not text.
"""
import hashlib
import os
import re
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fuzz", "seeds")


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def data_lines(path):
    return [l for l in read(path).decode().splitlines() if l and not l.startswith("#")]


seeds = {}


def add(target, data):
    if isinstance(data, str):
        data = data.encode()
    seeds.setdefault(target, {})[hashlib.sha1(data).hexdigest()[:16]] = data


# Chess FENs: the perft table and the first positions of the 126-position suite.
fens = [l.split(";")[0].strip() for l in data_lines("board-core/tests/data/perft-chess.txt")]
fens += [l.split(";")[0].strip() for l in data_lines("board-core/tests/data/perftsuite.epd")[:12]]
for fen in fens:
    add("chess_fen", fen)

# Draughts PDN FENs from the perft table, with a move line for some.
pdn = [l.split(";")[0].strip() for l in data_lines("board-core/tests/data/perft-draughts.txt")]
for fen in pdn:
    add("draughts_fen", fen)
add("draughts_fen", "W:W28:B23,14\n28x10")
add("draughts_fen", "W:W31-50:B1-20\n32-28")

# Shogi SFENs from the perft table.
sfens = [l.split(";")[0].strip() for l in data_lines("board-core/tests/data/perft-shogi.txt")]
for sfen in sfens:
    add("shogi_sfen", sfen)

# CSA kifu files (whole), their move tokens, and their position blocks.
kifus = [
    "csa-protocol/tests/data/floodgate-900-0-gps_normal-gps_l-20100507.csa",
    "csa-protocol/tests/data/uchifuzume-floodgate-2008.csa",
]
csa_moves = []
for k in kifus:
    text = read(k)
    lines = text.decode("latin-1").splitlines()
    # The header, the position and the first moves: a short seed keeps the
    # executions fast (the full files are in the crate's tests).
    head = text[: text.index(b"\n", 2000) + 1] if len(text) > 2400 else text
    add("csa_kifu", head + b"%TORYO\n")
    csa_moves += [m for l in lines for m in re.findall(r"^[+-]\d{4}[A-Z]{2}", l)]
    block = [l for l in lines if re.match(r"^(P[1-9+-]|PI|[+-]$)", l)]
    if block:
        add("shogi_csa_position", "\n".join(block) + "\n")
for m in csa_moves[:40:4] + ["+0055KA", "-0022FU", "+2822RY"]:
    add("shogi_csa_move", m)
for usi in ["7g7f", "3c3d", "8h2b+", "P*5e", "B*4f", "9a9b", "2b3a+", "R*1a"]:
    add("shogi_usi", usi)

# CSA protocol lines from the recorded shogi-server transcript.
transcript = read("csa-protocol/tests/data/csa-shogi-server-x1-and-csa-mode.txt").decode()
client, server = [], []
for l in transcript.splitlines():
    m = re.match(r"^\[\s*[\d.]+\]\s+\S+\s+(>>|<<) (.*)$", l)
    if m:
        (client if m.group(1) == ">>" else server).append(m.group(2))
for l in sorted(set(client))[:30]:
    add("csa_client_line", l)
for l in sorted(set(server), key=lambda s: (not s.startswith(("#", "%", "LOGIN", "+", "-", "START")), s))[:40]:
    add("csa_server_line", l)
summary = re.search(r"(BEGIN Game_Summary.*?END Game_Summary)", "\n".join(server), re.S)
if summary:
    add("csa_game_summary", summary.group(1) + "\n")
    add("csa_framer", b"\x07" + (summary.group(1) + "\n").encode())
# The session target: op byte 4/5 = data for stranger 0/1, 0xff separates ops.
add("csa_server_session", b"\xff".join(b"\x04" + (l + "\n").encode() for l in client[:12]))

# DXP messages from the recorded Scan transcript (NUL shown as \0 there).
dxp = []
for l in read("damexchange/tests/data/dxp-scan-follower.txt").decode().splitlines():
    m = re.match(r"^\[\s*[\d.]+\]\s+\S+\s+(.*)$", l)
    if m:
        dxp += [f for f in m.group(1).split("\\0") if f]
for msg in sorted(set(dxp))[:40]:
    add("dxp_decode", msg)
add("dxp_framer", b"\x03" + b"\0".join(m.encode() for m in dxp[:20]) + b"\0")

# Novag Citrine replies: the spec note's examples (novag-citrine/spec/citrine.md,
# *Commands (host -> device) and replies (device -> host)*, *Move text the
# Citrine prints*).
replies = [
    "Clock 00:06:27 00:00:01", "Flip", "Flip --> Black", "Game 2", ". white black",
    ". 1 e2-e4 c7-c5", ". 2 Ng1-f3 d7-d6", ". 3 f4xe5 d8-h4", "ID.UCBII VI.09",
    "ID. UCBII V1.09", "Level tr 1", "Level sd 5", "M 1 e2-e4 |", "M 1, d7-d6 |",
    "M   7   g1-f3", "M   7,  c5xd4", "M   5   d7-d8/N", "M   7   e5xd6ep", "M   4   O-O",
    "T   1,  e7-e5", "t 2 g8-f6", "New Game", "Position Board",
    "8 br bn bb bq bk bb bn br", "4    ::    :: WP ::    ::", ".Referee off", "Xmit on",
]
for r in replies:
    add("citrine_reply_decode", r + "\r\n")
add("citrine_driver_input", "\r\n".join(replies) + "\r\n")

if os.path.isdir(OUT):
    shutil.rmtree(OUT)
for target, files in sorted(seeds.items()):
    os.makedirs(os.path.join(OUT, target))
    for name, data in sorted(files.items()):
        with open(os.path.join(OUT, target, name), "wb") as f:
            f.write(data)
    print(f"{target}: {len(files)} seeds")
