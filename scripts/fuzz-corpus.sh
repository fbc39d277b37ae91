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

# --- The spec notes' example lines (csa-protocol/spec/csa.md,
# damexchange/spec/damexchange.md): every `code` span, its placeholders
# (`<name>`, `<game_id>`, ...) filled with values of the recorded
# sessions; spans that keep a placeholder are left out.
FILL = {"name": "alice", "id": "testevent+testgame-300-0+alice+bob+20261129145635",
        "game_id": "testevent+testgame-300-0+alice+bob+20261129145635", "gamename": "testgame-300-0",
        "game": "testgame-300-0", "total": "300", "byoyomi": "10", "text": "hello", "status": "game_waiting",
        "n": "3", "moves": "+7776FU-3334FU", "line": "%%FOO", "buoy_name": "buoy_foo-1500-0",
        "word": "floodgate", "side": "+", "rate": "1500", "player": "bob", "password": "pass",
        "nth": "2", "white": "bob", "white player": "bob", "total_sec": "300", "sender": "carol",
        "secret": "x7Qp", "rating": "1500", "protocol": "x1", "move": "+7776FU", "event": "testevent",
        "digits": "12", "comment": "good", "+\\|-\\|*": "+"}
def spec_spans(path):
    out = set()
    for span in re.findall(r"`([^`\n]+)`", read(path).decode()):
        span = re.sub(r"<([^<>]+)>", lambda m: FILL.get(m.group(1), m.group(0)), span)
        span = span.replace("\\|", "|")
        if "<" not in span and span.strip():
            out.add(span)
    return sorted(out)
for span in spec_spans("csa-protocol/spec/csa.md"):
    add("csa_client_line", span)
    add("csa_server_line", span)
for span in spec_spans("damexchange/spec/damexchange.md"):
    if len(span) <= 127:
        add("dxp_decode", span)

# --- SAN (chess_san): the perft positions, each with SAN texts of the
# forms board-core's grammar names (chess/san.rs module docs) and the
# moves of the PGN sample's first game.
sample = read("board-records/tests/data/standard-sample.pgn").decode("latin-1")
pgn_sans = [t for t in re.findall(r"(?<![\w.])([KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?[+#]?|O-O(?:-O)?[+#]?)(?!\w)", sample)][:40]
san_forms = ["e4", "Nf3", "O-O", "O-O-O", "0-0", "exd5", "Qxf7#", "e8=Q+", "e8Q", "Nbd7",
             "R1a3", "Ng1-f3", "e2e4", "e1g1", "Kg1", "b1=N", "e4!?", "Nf9", ""]
for fen in fens:
    for san in san_forms:
        add("chess_san", f"{fen}\n{san}")
for san in pgn_sans:
    add("chess_san", f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n{san}")

# --- Session targets: op streams (fuzz/src/pair.rs `Ops`: op byte, argument
# byte, and for ops that carry bytes a length byte and the bytes).
def ops(*items):
    out = b""
    for it in items:
        if isinstance(it, tuple):
            op, arg, *rest = it
            out += bytes([op, arg])
            for r in rest:
                r = r.encode() if isinstance(r, str) else r
                out += bytes([len(r)]) + r
        else:
            out += bytes(it)
    return out

# dxp_session (fuzz/src/dxp.rs `session`): config bytes (flags, ply cap),
# then ops: (op >> 1) % 16 is the command, op & 1 the side (follower).
D_REQ, D_MOVE, D_END, D_CHAT, D_BACK, D_TB, D_STALE, D_ONE, D_INJ, D_DROP, D_FERR, D_CLOSE, D_TIME, D_PUMP = (
    0, 2, 4, 6, 8, 10, 12, 14, 18, 20, 22, 24, 26, 30)
def dxp_game(plies, first=(D_REQ, 0x14)):
    seq = [first, (D_PUMP, 0)]
    for k in range(plies):
        seq += [(D_MOVE + (k & 1), k * 7 % 256), (D_PUMP, 0)]
    return seq
add("dxp_session", ops([0x21, 0], *dxp_game(30), (D_END, 1), (D_PUMP, 0)))
add("dxp_session", ops([0x29, 0], *dxp_game(12, (D_REQ, 0x55)), (D_BACK, 5), (D_PUMP, 0),
                       (D_BACK + 1, 3), (D_PUMP, 0), (D_END + 1, 3), (D_PUMP, 0)))
add("dxp_session", ops([0x21, 0], *dxp_game(8, (D_REQ, 0x94)), (D_TIME, 255), (D_TIME, 255),
                       (D_PUMP, 0), (D_TIME, 255)))
add("dxp_session", ops([0x31, 6], *dxp_game(10), (D_TIME, 200), (D_PUMP, 0)))
add("dxp_session", ops([0x23, 0], (D_STALE, 0), (D_PUMP, 0), (D_REQ, 1), (D_PUMP, 0),
                       (D_CHAT, 0, "hello"), (D_CHAT + 1, 0, "hi"), (D_PUMP, 0),
                       (D_MOVE + 1, 0), (D_ONE + 1, 0), (D_MOVE, 3), (D_END, 0), (D_PUMP, 0)))
add("dxp_session", ops([0x40, 0], (D_REQ, 0xff), (D_PUMP, 0), (D_REQ, 0x10), (D_PUMP, 0)))
add("dxp_session", ops([0xa1, 0], (D_REQ, 0), (D_PUMP, 0),
                       *[(D_INJ + (i & 1), 0, m.encode() + b"\0") for i, m in enumerate(dxp[:12])],
                       (D_FERR, 1), (D_FERR + 1, 0), (D_FERR, 2), (D_DROP, 0), (D_PUMP, 0),
                       (D_CLOSE + 1, 0), (D_PUMP, 0)))
add("dxp_session", ops([0x21, 0], *dxp_game(6), *[(D_INJ + 1, 0, m.encode() + b"\0") for m in dxp[:30]],
                       (D_PUMP, 0)))

# csa_client_session (fuzz/src/csa.rs `client_session`): the mode byte
# (bit 0 x1, bit 1 %%GAME at login, bit 2 ply cap = mode >> 3), then ops
# (op % 16).
C_AGREE, C_REJECT, C_MOVE, C_RESIGN, C_WIN, C_SPECIAL, C_GAME, C_X1, C_LOGOUT, C_CLOSE, C_INJ, C_BMOVE, C_TIME, C_ONE, C_FERR, C_PUMP = range(16)
def csa_game(plies):
    seq = [(C_PUMP, 0), (C_AGREE, 0), (C_PUMP, 0)]
    for k in range(plies):
        seq += [(C_MOVE, k * 5 % 256), (C_PUMP, 0), (C_BMOVE, k * 11 % 256), (C_PUMP, 0)]
    return seq
add("csa_client_session", ops([0], *csa_game(20), (C_RESIGN, 0), (C_PUMP, 0), (C_LOGOUT, 0), (C_PUMP, 0)))
add("csa_client_session", ops([3], *csa_game(6), (C_X1, 0, "%%WHO"), (C_X1, 0, "%%LIST"),
                              (C_X1, 0, "%%CHAT hello"), (C_PUMP, 0), (C_WIN, 0), (C_PUMP, 0)))
add("csa_client_session", ops([1], (C_PUMP, 0), (C_GAME, 0), (C_PUMP, 0), (C_GAME, 1), (C_PUMP, 0),
                              (C_REJECT, 0), (C_PUMP, 0), (C_GAME, 2), *csa_game(4),
                              (C_SPECIAL, 2), (C_PUMP, 0)))
add("csa_client_session", ops([4 | (6 << 3)], *csa_game(8), (C_TIME, 255), (C_PUMP, 0)))
add("csa_client_session", ops([0x80], *csa_game(3), (C_TIME, 200), (C_TIME, 200), (C_TIME, 255),
                              (C_PUMP, 0), (C_ONE, 0), (C_FERR, 0), (C_CLOSE, 0)))
# The server lines of the recorded shogi-server transcript, given to the
# client as if from the server (its login, summary, moves, x1 replies).
add("csa_client_session", ops([1], *[(C_INJ, 0, (l + "\n").encode()[:255]) for l in server[:80]], (C_PUMP, 0)))
add("csa_client_session", ops([0], (C_PUMP, 0), *[(C_INJ, 0, (l + "\n").encode()[:255]) for l in server[80:160]],
                              (C_AGREE, 0), (C_MOVE, 0)))

# citrine_session (fuzz/src/citrine.rs `session`): driver flags, device
# misbehaviour, ply cap, then ops (op % 16).
T_MOVE, T_BACK, T_NEW, T_POS, T_ADOPT, T_CMD, T_DEV, T_SETUP, T_ONE, T_DROP, T_INJ, T_CLOSE, T_TIME, T_PUMP = (
    0, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15)
def citrine_game(plies):
    seq = []
    for k in range(plies):
        seq += [(T_MOVE, k * 13 % 256), (T_PUMP, 0), (T_TIME, 255), (T_PUMP, 0)]
    return seq
add("citrine_session", ops([1, 0, 0], *citrine_game(16)))
add("citrine_session", ops([3, 0, 0], *citrine_game(6), (T_BACK, 2), (T_PUMP, 0), (T_POS, 0), (T_PUMP, 0),
                           (T_NEW, 0), (T_PUMP, 0), *citrine_game(3)))
add("citrine_session", ops([5, 0, 10], *citrine_game(8), (T_ADOPT, 0), (T_DEV, 1), (T_DEV, 0), (T_PUMP, 0),
                           (T_SETUP, 0), (T_PUMP, 0)))
for bad in (0x81, 0x86, 0x8a, 0x90, 0xc0, 0xff):
    add("citrine_session", ops([1 | 4 | 8, bad, 9], *citrine_game(10)))
add("citrine_session", ops([9, 0, 0], *[(T_CMD, 0, c) for c in sorted(commands)[:30]], (T_PUMP, 0),
                           *[(T_INJ, 0, r + "\r\n") for r in replies], (T_PUMP, 0), *citrine_game(4)))
add("citrine_session", ops([1, 0, 0], (T_MOVE, 0), (T_ONE, 0), (T_DROP, 1), (T_TIME, 255), (T_TIME, 255),
                           (T_PUMP, 0), (T_CLOSE, 1)))

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
