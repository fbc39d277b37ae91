"""Interop: pydraughts' own DXP client plays complete games against our
follower (`boardwire dxp serve`), in both colours.

pydraughts (`draughts.engine.DXPEngine`, option `engine-opened` true) is the
initiator: it sends GAMEREQ with a set-up position (`B`), the engine's
colour as the follower's colour, our moves as MOVE messages, and ends with
GAMEEND when the game is over (its `quit()`). Our side of the game is played
by this script with random legal moves from pydraughts' own move generator;
the engine's (our follower's) moves come back through pydraughts' DXP
receiver, which matches each MOVE against its legal moves (from, to, sorted
captured squares) and hangs on anything else - so every completed game
proves that every MOVE we sent was understood as a legal move.

Known pydraughts 0.6.7 quirks this test exercises on purpose: it strips every
NUL from one recv(), so a GAMEACC and a MOVE arriving together merge and the
MOVE is lost (our follower pauses before its first move as White); it sends
stop code 1 and closes with a 7 s sleep.

Usage: dxp_pydraughts.py PORT [--games N] [--seed S] [--max-plies P]
Exit status 0 when every game completed; prints one line per game.
"""

import argparse
import random
import sys
import threading
import time

import draughts
from draughts.engine import DXPEngine


def play_game(port, engine_white, seed, max_plies, result):
    rng = random.Random(seed)
    engine = DXPEngine(options={"engine-opened": True, "ip": "127.0.0.1", "port": port},
                       initial_time=120)
    board = draughts.Board()
    engine_color = draughts.WHITE if engine_white else draughts.BLACK
    engine_moves = 0
    while not board.is_over() and len(board.move_stack) < max_plies:
        if board.turn == engine_color:
            legal = {m.hub_position_move for m in board.legal_moves()}
            played = engine.play(board).move
            if played is None:
                result["error"] = "engine returned no move"
                return
            if played.hub_position_move not in legal:
                result["error"] = f"engine move {played.pdn_move} not legal here"
                return
            board.push(played)
            engine_moves += 1
        else:
            board.push(rng.choice(board.legal_moves()))
    engine.quit()
    result.update(
        plies=len(board.move_stack),
        engine_moves=engine_moves,
        over=board.is_over(),
        winner=board.winner() if board.is_over() else None,
        engine_name=engine.id.get("name"),
        moves=" ".join(m.pdn_move for m in board.move_stack),
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--game-timeout", type=float, default=60.0)
    args = ap.parse_args()

    print(f"pydraughts {draughts.__version__}")
    completed = 0
    for game in range(args.games):
        engine_white = game % 2 == 0
        result = {}
        t0 = time.time()
        worker = threading.Thread(
            target=play_game,
            args=(args.port, engine_white, args.seed + game, args.max_plies, result),
            daemon=True,
        )
        worker.start()
        worker.join(args.game_timeout)
        if worker.is_alive():
            print(f"game {game + 1}: TIMEOUT after {args.game_timeout:.0f} s "
                  f"(engine {'white' if engine_white else 'black'})", flush=True)
            break
        if "error" in result:
            print(f"game {game + 1}: ERROR {result['error']}", flush=True)
            break
        completed += 1
        winner = {draughts.WHITE: "white", draughts.BLACK: "black", None: "none", 0: "draw"}.get(
            result["winner"], str(result["winner"]))
        print(f"game {game + 1}: engine {result['engine_name']!r} played "
              f"{'white' if engine_white else 'black'}; {result['plies']} plies "
              f"({result['engine_moves']} by the engine), over={result['over']}, "
              f"winner={winner}, {time.time() - t0:.1f} s; moves: {result['moves']}",
              flush=True)
    print(f"{completed} of {args.games} games completed", flush=True)
    # pydraughts' receiver threads may still be spinning: leave at once.
    sys.stdout.flush()
    import os
    os._exit(0 if completed == args.games else 1)


if __name__ == "__main__":
    main()
