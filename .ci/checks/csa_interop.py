"""Interop check: two python-shogi `shogi.CSA.TCPProtocol` clients (a real
third-party CSA client) play against our server (`boardwire csa serve`).

Game 1, plain CSA mode: log in with the game name as password (`-b`/`-w`
side suffixes), receive the Game_Summary, agree, play legal moves chosen
on python-shogi's own board, then Black resigns; both see the right result
lines. Game 2, x1 mode: the same with `LOGIN ... x1` and `%%GAME`, then
LOGOUT.

python-shogi 1.1.1's TCPProtocol has known defects, worked around here (not
in our server):
- `logout()` raises ValueError exactly when the server answers
  `LOGOUT:completed` (inverted test): we catch that one error;
- `login_ex()` reads only `LOGIN:<name> OK`, leaving `##[LOGIN] +OK x1` in
  the buffer, where `wait_match()` would choke on it: we read it off;
- `parse_game_summary` raises on `BEGIN Time+`/`Time-` (we send `BEGIN Time`);
- `read_until` spins forever on a closed socket: every socket gets a
  timeout and nothing is read after the last result line;
- `wait_server_message` fails on an empty keep-alive line (our server sends
  none unprompted).

Usage: csa_interop.py SERVER_BINARY   (bounded: 60 s; 127.0.0.1 only)
"""

import random
import socket
import subprocess
import sys
import threading
import time

import shogi
import shogi.CSA as CSA

PLIES = 12


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def csa_move_of(board, move):
    """The CSA piece code after the move, for TCPProtocol.move()."""
    if move.drop_piece_type:
        return move.drop_piece_type
    piece = board.piece_at(move.from_square).piece_type
    if move.promotion:
        piece = shogi.PIECE_PROMOTED[piece]
    return piece


def player(port, name, password, x1, game, results, index, resign_at):
    seen = []
    try:
        p = CSA.TCPProtocol("127.0.0.1", port)
        p.socket.settimeout(20)
        if x1:
            p.login_ex(name, password)
            assert p.read_line() == "##[LOGIN] +OK x1"
            p.write("%%GAME {0} {1}\n".format(game, "+" if index == 0 else "-"))
        else:
            p.login(name, password)
        match = p.wait_match()
        my_color = match["my_color"]
        summary = match["summary"]
        assert summary["names"] == (["sente_" + game[:4], "gote_" + game[:4]]), summary["names"]
        assert summary["time"]["Total_Time"] == "300", summary["time"]
        start = p.command("AGREE")
        assert start.startswith("START:"), start
        board = shogi.Board(summary["sfen"])
        rng = random.Random(index)
        while True:
            if board.turn == my_color:
                if board.move_number > resign_at:
                    p.write("%TORYO\n")
                    for _ in range(3):  # %TORYO, #RESIGN, #LOSE
                        seen.append(p.read_line())
                    break
                moves = list(board.legal_moves)
                captures = [m for m in moves if m.from_square is not None and board.piece_at(m.to_square)]
                move = rng.choice(captures or moves)
                echo = p.move(csa_move_of(board, move), my_color, move)
                color, usi, used, message = p.parse_server_message(echo, board)
                assert usi == move.usi(), (usi, move.usi())
                board.push(move)
            else:
                color, usi, used, message = p.wait_server_message(board)
                if message is not None:
                    seen.append(CSA.SERVER_MESSAGE_SYMBOLS[message])
                    for _ in range(2):
                        line = p.read_line()
                        seen.append(line)
                    break
                board.push(shogi.Move.from_usi(usi))
        if x1:
            try:
                p.logout()
            except ValueError as e:
                # python-shogi's inverted check: raised on success.
                assert str(e) == "Logout failed", e
        results[index] = (seen, board.move_number)
    except Exception as e:  # reported by the main thread
        results[index] = ("error", repr(e))
    finally:
        try:
            p.socket.close()
        except Exception:
            pass


def game(port, x1, game_name):
    results = [None, None]
    threads = []
    for i in range(2):
        if x1:
            password = "pw"
        else:
            password = game_name + ("-b" if i == 0 else "-w")
        name = ("sente_" if i == 0 else "gote_") + game_name[:4]
        t = threading.Thread(
            target=player, args=(port, name, password, x1, game_name, results, i, PLIES), daemon=True
        )
        t.start()
        threads.append(t)
        time.sleep(0.2)
    for t in threads:
        t.join(30)
        if t.is_alive():
            raise SystemExit("timeout: a python-shogi client hung")
    for r in results:
        if r is None or r[0] == "error":
            raise SystemExit("client failed: {0}".format(r))
    black, white = results[0][0], results[1][0]
    # Black resigned after PLIES plies.
    assert black == ["%TORYO", "#RESIGN", "#LOSE"], black
    assert white == ["TORYO", "#RESIGN", "#WIN"], white
    print("{0}: {1} plies, results {2} / {3}".format("x1" if x1 else "CSA", results[0][1] - 1, black, white))


def main():
    binary = sys.argv[1]
    port = free_port()
    server = subprocess.Popen(
        [binary, "csa", "serve", "--listen", "127.0.0.1:{0}".format(port)],
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.time() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise SystemExit("server did not start")
                time.sleep(0.1)
        game(port, False, "csamode-300-0")
        game(port, True, "x1mode-300-0")
        print("csa interop: python-shogi clients played 2 games to a resignation")
    finally:
        server.terminate()
        server.wait(5)


if __name__ == "__main__":
    main()
