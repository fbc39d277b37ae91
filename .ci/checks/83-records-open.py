"""Records saved by `boardwire` read back by the peers (see 83-records-open).

1. `dxp serve --pdn S` and `dxp connect --pdn C --games 2` on 127.0.0.1:
   pydraughts reads S and C; each game's moves, replayed on pydraughts' own
   board, are the MOVE frames of the initiator's transcript (from, to,
   captured squares), its game ending is the Result tag and matches the
   transcript's `game over` line.
2. `citrine --simulate --auto --pgn P`: python-chess reads P without
   errors; the main line is the transcript's `ack`/`device` moves (UCI);
   the Seven Tag Roster is there.
3. A `citrine` run killed with SIGKILL after three plies: python-chess reads
   the file to exactly the moves its transcript shows, result `*`.
4. `csa serve` and two `csa connect` (built-in players) on 127.0.0.1, the
   sente client with `--kif K.kif` (Shift_JIS): cshogi's KIF reader reads
   K.kif to the moves of the sente client's transcript (the moves the
   server confirmed, `<- +7776FU,T0`), the names and, for #RESIGN or
   #MAX_MOVES (a draw, written 持将棋: KIF has no word for a move limit and
   持将棋 is its draw; cshogi 1.1.0 reads it as %SENNICHITE, its one draw
   ending, win = DRAW), the ending.

Usage: 83-records-open.py BOARDWIRE
"""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import chess
import chess.pgn
import cshogi
import cshogi.KIF
from draughts import Board, Move
from draughts.PDN import PDNReader


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def wire_moves(transcript):
    """Per game, the MOVE frames of a dxp transcript as (from, to, captures)."""
    games, current = [], None
    for line in transcript.splitlines():
        if "(GAMEACC" in line and "accepted" in line:
            current = []
            games.append(current)
        m = re.search(r" (?:->|<-) M(\d{4})(\d\d)(\d\d)(\d\d)(\d*)\s", line)
        if m and current is not None:
            caps = m.group(5)
            n = int(m.group(4))
            captured = sorted(int(caps[2 * k:2 * k + 2]) for k in range(n))
            current.append((int(m.group(2)), int(m.group(3)), captured))
    return games


def pydraughts_moves(game):
    """A pydraughts game's moves replayed on its board as (from, to, captures)."""
    board = Board(variant="standard")
    out = []
    for text in game.moves:
        mv = Move(board, pdn_move=text)
        steps = mv.steps_move
        out.append((steps[0], steps[-1], sorted(mv.captures or [])))
        board.push(mv)
    return out


def check_dxp(bw, tmp):
    serve_pdn, connect_pdn = os.path.join(tmp, "serve.pdn"), os.path.join(tmp, "connect.pdn")
    server = subprocess.Popen(
        [bw, "dxp", "serve", "--listen", "127.0.0.1:0", "--name", "bob", "--first-move-delay-ms", "0",
         "--pdn", serve_pdn],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        addr = server.stderr.readline().split()[-1]
        r = subprocess.run(
            [bw, "dxp", "connect", addr, "--name", "alice", "--games", "2", "--seed", "3", "--pdn", connect_pdn],
            capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            fail(f"dxp connect exit {r.returncode}: {r.stderr}")
        time.sleep(1.0)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
        server.stderr.close()
    wire = wire_moves(r.stdout)
    endings = re.findall(r":: game \d+: game over: (.*)", r.stdout)
    if len(wire) != 2 or len(endings) != 2:
        fail(f"expected 2 games in the transcript, got {len(wire)}/{len(endings)}")
    for path in (connect_pdn, serve_pdn):
        games = PDNReader(filename=path).games
        if len(games) != 2:
            fail(f"{path}: pydraughts read {len(games)} games")
        for k, (g, moves, ending) in enumerate(zip(games, wire, endings)):
            got = pydraughts_moves(g)
            if got != moves:
                fail(f"{path} game {k + 1}: pydraughts reads {got[:5]}... but the wire had {moves[:5]}...")
            if g.game_ending != g.tags.get("Result"):
                fail(f"{path} game {k + 1}: ending {g.game_ending} vs Result {g.tags.get('Result')}")
            # The initiator (alice) plays White in game 1, Black in game 2.
            alice_white = k == 0
            head = ending.split(" (")[0].lower()
            want = {"white wins": "2-0", "black wins": "0-2", "draw": "1-1"}.get(head, "*")
            if g.game_ending != want:
                fail(f"{path} game {k + 1}: result {g.game_ending}, transcript says {ending!r} ({want})")
            names = (g.tags.get("White"), g.tags.get("Black"))
            if names != (("alice", "bob") if alice_white else ("bob", "alice")):
                fail(f"{path} game {k + 1}: names {names}")
        print(f"pydraughts read {path}: 2 games, {sum(len(m) for m in wire)} plies, results "
              f"{[g.game_ending for g in games]}")


def citrine_moves(transcript):
    return [l.split(" ", 1)[1] for l in transcript.splitlines() if l.startswith(("ack ", "device "))]


def read_pgn(path):
    with open(path, encoding="utf-8") as f:
        games = []
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                return games
            if g.errors:
                fail(f"{path}: python-chess errors {g.errors}")
            games.append(g)


def check_citrine(bw, tmp):
    pgn = os.path.join(tmp, "citrine.pgn")
    r = subprocess.run([bw, "citrine", "--simulate", "--auto", "--max-plies", "30", "--pgn", pgn],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    if r.returncode != 0:
        fail(f"citrine exit {r.returncode}: {r.stderr}")
    played = citrine_moves(r.stdout)
    games = read_pgn(pgn)
    if len(games) != 1:
        fail(f"{pgn}: python-chess read {len(games)} games")
    g = games[0]
    got = [m.uci() for m in g.mainline_moves()]
    if got != played:
        fail(f"{pgn}: python-chess reads {got} but the transcript shows {played}")
    for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
        if tag not in g.headers:
            fail(f"{pgn}: no {tag} tag")
    if (g.headers["White"], g.headers["Black"]) != ("boardwire", "Novag Citrine"):
        fail(f"{pgn}: sides {g.headers['White']} / {g.headers['Black']}")
    print(f"python-chess read {pgn}: {len(got)} plies, result {g.headers['Result']}")

    killed = os.path.join(tmp, "killed.pgn")
    p = subprocess.Popen([bw, "citrine", "--simulate", "--auto", "--sim-think-ms", "3000", "--pgn", killed],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while True:
        n = 0
        if os.path.exists(killed):
            # Read while a move may be written in place (boardwire/src/record.rs):
            # a half-written file counts as not yet there.
            with open(killed, encoding="utf-8", errors="replace") as f:
                g0 = chess.pgn.read_game(f)
            n = len(list(g0.mainline_moves())) if g0 is not None and not g0.errors else 0
        if n >= 3:
            break
        if time.time() > deadline:
            p.kill()
            fail("the killed run saved fewer than 3 plies in 30 s")
        time.sleep(0.05)
    time.sleep(0.3)
    p.send_signal(signal.SIGKILL)
    out, _ = p.communicate(timeout=10)
    played = citrine_moves(out)
    g = read_pgn(killed)[0]
    got = [m.uci() for m in g.mainline_moves()]
    if got != played or g.headers["Result"] != "*":
        fail(f"{killed}: python-chess reads {got} ({g.headers['Result']}), the transcript shows {played}")
    print(f"python-chess read {killed} after SIGKILL: {len(got)} plies, result *")


def check_csa_kif(bw, tmp):
    kif = os.path.join(tmp, "csa.kif")
    server = subprocess.Popen([bw, "csa", "serve", "--listen", "127.0.0.1:0", "--max-moves", "60"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        addr = server.stderr.readline().split()[-1]
        common = ["--game", "kifcheck-300-0", "--timeout", "20"]
        a = subprocess.Popen([bw, "csa", "connect", addr, "--user", "kifa", "--side", "+", "--seed", "5",
                              "--kif", kif] + common,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        b = subprocess.Popen([bw, "csa", "connect", addr, "--user", "kifb", "--side", "-", "--seed", "6"] + common,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        out, err = a.communicate(timeout=30)
        b.wait(timeout=10)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
        server.stderr.close()
    if a.returncode != 0:
        fail(f"csa connect --kif exit {a.returncode}: {err}")
    wire = re.findall(r" <- ([+-]\d{4}[A-Z]{2})(?:,T\d+)?\s*$", out, re.M)
    reason = re.search(r"game over after \d+ moves: (#[A-Z_]+)", out)
    if not wire or not reason:
        fail(f"no moves or no result in the transcript:\n{out[-2000:]}")
    k = cshogi.KIF.Parser.parse_file(kif)
    got = [cshogi.move_to_csa(m) for m in k.moves]
    if got != [m[1:] for m in wire]:
        fail(f"{kif}: cshogi reads {got[:6]}... ({len(got)}) but the wire had {wire[:6]}... ({len(wire)})")
    if k.names != ["kifa", "kifb"]:
        fail(f"{kif}: names {k.names}")
    want = {"#RESIGN": "%TORYO", "#MAX_MOVES": "%SENNICHITE"}.get(reason.group(1))
    if want is not None and k.endgame != want:
        fail(f"{kif}: ending {k.endgame}, the server said {reason.group(1)} ({want})")
    print(f"cshogi read {kif}: {len(got)} plies, {reason.group(1)} read as {k.endgame}")


def main():
    bw = sys.argv[1]
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        check_dxp(bw, tmp)
        check_citrine(bw, tmp)
        check_csa_kif(bw, tmp)
    print(f"83-records-open: ok in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
