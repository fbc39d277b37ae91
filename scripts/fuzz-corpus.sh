#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets, fuzz/seeds/<target>/, from the
# repository's own test data: the perft tables (board-core/tests/data), the
# recorded peer transcripts and game records (boardwire-vectors/data: the
# Scan DXP session, the shogi-server CSA sessions and records, the Floodgate
# kifu files) and the example lines of the spec notes (novag-citrine/spec/
# citrine.md). The seeds are built, not committed (fuzz/seeds is git-ignored),
# so the repository stays small; CI's fuzz smoke runs this script first.
#
# Usage: scripts/fuzz-corpus.sh [OUT_DIR]   (default: fuzz/seeds)
#
# Every target in fuzz/fuzz_targets gets at least one seed: text targets get
# the data above, targets whose bytes are choices (playouts, differentials)
# get choice strings that reach every seed position, and targets whose bytes
# feed `arbitrary` get fixed pseudo-random byte strings (SHA-256 chains), so
# the output is the same on every run. The script fails if a target ends
# without seeds or a data file it reads is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/fuzz/seeds}"
command -v python3 >/dev/null || {
    echo "fuzz-corpus.sh: python3 is required" >&2
    exit 1
}
python3 - "$root" "$out" <<'PY'
import hashlib
import os
import re
import shutil
import sys

ROOT, OUT = sys.argv[1], sys.argv[2]
VECTORS = "boardwire-vectors/data"


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


def noise(label, n):
    """n fixed pseudo-random bytes (a SHA-256 chain seeded by label)."""
    out, h = b"", label.encode()
    while len(out) < n:
        h = hashlib.sha256(h).digest()
        out += h
    return out[:n]


# --- Chess: the perft table and the first positions of the 126-position suite.
fens = [l.split(";")[0].strip() for l in data_lines("board-core/tests/data/perft-chess.txt")]
fens += [l.split(";")[0].strip() for l in data_lines("board-core/tests/data/perftsuite.epd")[:12]]
for fen in fens:
    add("chess_fen", fen)
    # chess_play: a position line, then UCI text (or move bits).
    for mv in ["e2e4", "e1g1", "e8c8", "a7a8q", "b2b1n"]:
        add("chess_play", f"{fen}\n{mv}")
# chess_attacks: 8 bytes per occupancy (little-endian bitboard).
add("chess_attacks", bytes.fromhex("ffff00000000ffff"))  # start position
add("chess_attacks", noise("chess_attacks", 64))

# --- Draughts: PDN FENs from the perft table, with a move line for some.
pdn = [l.split(";")[0].strip() for l in data_lines("board-core/tests/data/perft-draughts.txt")]
for fen in pdn:
    add("draughts_fen", fen)
add("draughts_fen", "W:W28:B23,14\n28x10")
add("draughts_fen", "W:W31-50:B1-20\n32-28")

# --- Shogi: SFENs from the perft table.
sfens = [l.split(";")[0].strip() for l in data_lines("board-core/tests/data/perft-shogi.txt")]
for sfen in sfens:
    add("shogi_sfen", sfen)

# CSA kifu files: the Floodgate games and the shogi-server records (the
# header, the position and the first moves: a short seed keeps executions
# fast; the whole files are in the crates' tests).
kifus = [f"{VECTORS}/floodgate-900-0-gps_normal-gps_l-20100507.csa",
         f"{VECTORS}/uchifuzume-floodgate-2008.csa"]
kifus += sorted(f"{VECTORS}/csa-records/{f}" for f in os.listdir(os.path.join(ROOT, VECTORS, "csa-records"))
                if f.endswith(".csa"))
csa_moves = []
for k in kifus:
    text = read(k)
    lines = text.decode("latin-1").splitlines()
    head = text[: text.index(b"\n", 2000) + 1] if len(text) > 2400 else text
    add("csa_kifu", head if b"%" in head[-40:] else head + b"%TORYO\n")
    csa_moves += [m for l in lines for m in re.findall(r"^[+-]\d{4}[A-Z]{2}", l)]
    block = [l for l in lines if re.match(r"^(P[1-9+-]|PI|[+-]$)", l)]
    if block:
        add("shogi_csa_position", "\n".join(block) + "\n")
for m in csa_moves[:60:4] + ["+0055KA", "-0022FU", "+2822RY"]:
    add("shogi_csa_move", m)
for usi in ["7g7f", "3c3d", "8h2b+", "P*5e", "B*4f", "9a9b", "2b3a+", "R*1a"]:
    add("shogi_usi", usi)

# --- CSA protocol lines from the recorded shogi-server transcript.
transcript = read(f"{VECTORS}/csa-shogi-server-x1-and-csa-mode.txt").decode()
client, server = [], []
for l in transcript.splitlines():
    m = re.match(r"^\[\s*[\d.]+\]\s+\S+\s+(>>|<<) (.*)$", l)
    if m:
        (client if m.group(1) == ">>" else server).append(m.group(2))
if not client or not server:
    sys.exit("fuzz-corpus.sh: no lines read from the CSA transcript (format changed?)")
for l in sorted(set(client)):
    add("csa_client_line", l)
for l in sorted(set(server)):
    add("csa_server_line", l)
summary = re.search(r"(BEGIN Game_Summary.*?END Game_Summary)", "\n".join(server), re.S)
if summary:
    add("csa_game_summary", summary.group(1) + "\n")
    add("csa_framer", b"\x07" + (summary.group(1) + "\n").encode())
add("csa_framer", b"\x03" + "\n".join(client[:20]).encode() + b"\n")
# The session target: op byte 4/5 = data for stranger 0/1, 0xff separates ops.
add("csa_server_session", b"\xff".join(b"\x04" + (l + "\n").encode() for l in client[:12]))

# --- DXP messages from the recorded Scan transcript (NUL shown as \0 there).
dxp = []
for l in read(f"{VECTORS}/dxp-scan-follower.txt").decode().splitlines():
    m = re.match(r"^\[\s*[\d.]+\]\s+\S+\s+(.*)$", l)
    if m:
        dxp += [f for f in m.group(1).split("\\0") if f]
if not dxp:
    sys.exit("fuzz-corpus.sh: no messages read from the DXP transcript (format changed?)")
for msg in sorted(set(dxp)):
    add("dxp_decode", msg)
add("dxp_framer", b"\x03" + b"\0".join(m.encode() for m in dxp[:20]) + b"\0")

# --- Novag Citrine: the spec note's command and reply examples
# (novag-citrine/spec/citrine.md, *Commands (host -> device) and replies
# (device -> host)*, *Move text the Citrine prints*).
spec = read("novag-citrine/spec/citrine.md").decode()
commands = set()
for row in re.findall(r"^\| (`[^|]*)\|", spec, re.M):
    commands.update(c for c in re.findall(r"`([^`]+)`", row))
for c in sorted(commands):
    add("citrine_command_decode", c + "\r\n")
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

# --- Choice-byte targets: one byte per ply (playouts), or a mode byte and a
# seed index first (the differentials: mode 0 start, 1 seed list, 2/3
# set-up bytes; fuzz/src/*_differential.rs).
plies = bytes(range(0, 200, 7))
add("shogi_playout", plies)
add("draughts_playout", noise("draughts_playout", 4 * 60))
add("draughts_reference", b"")
add("draughts_reference", noise("draughts_reference", 51 + 80))
for target, seeds_n, setup_len in [("chess_differential", 23, 7 + 2 * 15),
                                   ("shogi_differential", 14, 11 + 2 * 31)]:
    add(target, b"\x00" + plies)
    for i in range(seeds_n):
        add(target, bytes([1, i]) + plies)
    for mode in (2, 3):
        add(target, bytes([mode]) + noise(target + str(mode), setup_len) + plies)

# --- Game records (board-records): the PGN samples of its tests; PDN games
# in the forms of the spec note's part 2 (short and long captures, a FEN
# set-up, comments, strength marks, a variation).
for f in ["standard-sample.pgn", "lichess.pgn", "chesscom.pgn", "chessbase.pgn"]:
    add("pgn_read", read(os.path.join("board-records/tests/data", f)))
add("pdn_read", '[Event "Seed"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 {a comment} 3. 37-32! (3. 33-29 23x34 4. 40x29) 10-14 *\n')
add("pdn_read", '[GameType "20"]\n[FEN "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26."]\n\n1. 33-29 24x33 2. 28x19x10 *\n\n1. 32-28 18-23 2-0\n')

# KIF/KI2: the real files of board-records' corpus (Shift_JIS and UTF-8,
# Kifu for Windows to ぴよ将棋; tests/data/kif/real/PROVENANCE.md).
KIF_REAL = "board-records/tests/data/kif/real"
for f in sorted(os.listdir(os.path.join(ROOT, KIF_REAL))):
    if f.rsplit(".", 1)[-1] in ("kif", "kifu", "ki2", "ki2u"):
        add("kif_read", read(os.path.join(KIF_REAL, f)))

# --- `arbitrary` targets: fixed pseudo-random bytes of a few lengths.
for t in ["chess_value", "draughts_value", "shogi_value", "dxp_value", "csa_client_value",
          "csa_server_value", "csa_summary_value", "citrine_command_value", "citrine_reply_value"]:
    for n in (16, 64, 256, 1024):
        add(t, noise(f"{t}{n}", n))

targets = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "fuzz", "fuzz_targets")) if f.endswith(".rs"))
missing = [t for t in targets if t not in seeds]
if missing:
    sys.exit(f"fuzz-corpus.sh: no seeds for {', '.join(missing)}")
unknown = sorted(set(seeds) - set(targets))
if unknown:
    sys.exit(f"fuzz-corpus.sh: seeds for targets that do not exist: {', '.join(unknown)}")
if os.path.isdir(OUT):
    shutil.rmtree(OUT)
total = 0
for target in targets:
    os.makedirs(os.path.join(OUT, target))
    for name, data in sorted(seeds[target].items()):
        with open(os.path.join(OUT, target, name), "wb") as f:
            f.write(data)
    total += len(seeds[target])
    print(f"{target}: {len(seeds[target])} seeds")
print(f"{len(targets)} targets, {total} seeds in {OUT}")
PY
