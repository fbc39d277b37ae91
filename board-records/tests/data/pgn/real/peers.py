"""Writes expected.tsv: for each corpus file and each game in it, the main
line's moves (UCI; a null move `0000`) as python-chess reads them, or the
errors python-chess reports for the game. Run by hand when files are added
(needs python-chess, the version in .ci/requirements.txt); the test
(tests/pgn_corpus.rs) only reads expected.tsv. Nothing is fetched.

Text: UTF-8 with a BOM removed (python-chess's own reading of a file opened
as UTF-8), else Latin-1.
"""
import glob
import io

import chess
import chess.pgn


def read_text(path):
    raw = open(path, "rb").read()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


rows = []
for path in sorted(glob.glob("*.pgn")):
    handle = io.StringIO(read_text(path))
    k = 0
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        k += 1
        moves = " ".join(m.uci() for m in game.mainline_moves())
        if game.errors:
            why = "; ".join(str(e).replace("\t", " ").replace("\n", " ") for e in game.errors)
            rows.append((path, k, "python-chess errors: " + why, moves))
        else:
            rows.append((path, k, "python-chess", moves))
with open("expected.tsv", "w", encoding="utf-8") as f:
    f.write("# file\tgame\tpeer (or its errors)\tmoves (UCI)\n")
    for r in rows:
        f.write("%s\t%d\t%s\t%s\n" % r)
print(len(rows), "games")
