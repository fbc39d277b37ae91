"""Writes expected.tsv: for each corpus file, the main line's moves (USI) as
a real peer reads them, and which peer. Run by hand when files are added
(needs python-shogi and cshogi, the versions in .ci/requirements.txt); the
test (tests/kif_corpus.rs) only reads expected.tsv. Nothing is fetched.

Peers read the main line only and run on into `変化` branches (python-shogi
always, cshogi when the main line has no ending), so each is given the
text before the first `変化：` line. Both are run: when they agree, both
are named; files with a board diagram take python-shogi (cshogi skips the
diagram and would start from the even position); otherwise, when they
differ, cshogi (it checks each move on its board; python-shogi's regex
drops lines it does not match). KI2 files: the source test suite's own JSON
answer (shogi-kifu-converter `data/tests/ki2/*.json`) or the moves of
their KIF twin from the same source, checked against cshogi's KI2 reader
(`cshogi.KI2`, named too when it agrees); without either, cshogi's KI2
reader alone.
"""
import glob
import json
import os
import re

import cshogi
import cshogi.KI2
import cshogi.KIF
import shogi
import shogi.KIF

FILES = "abcdefghi"


def jkf_moves(path):
    data = json.load(open(path, encoding="utf-8"))
    out = []
    for m in data["moves"][1:]:
        mv = m.get("move")
        if mv is None:
            break
        to = "%d%s" % (mv["to"]["x"], FILES[mv["to"]["y"] - 1])
        if "from" in mv:
            frm = "%d%s" % (mv["from"]["x"], FILES[mv["from"]["y"] - 1])
            out.append(frm + to + ("+" if mv.get("promote") else ""))
        else:
            out.append("%s*%s" % ({"FU": "P", "KY": "L", "KE": "N", "GI": "S", "KI": "G", "KA": "B", "HI": "R"}[mv["piece"]], to))
    return out


def read_text(path):
    raw = open(path, "rb").read()
    for enc in (["utf-8-sig", "cp932"] if path.endswith("u") else ["cp932", "utf-8-sig"]):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            pass
    return raw.decode("utf-8", "replace")


def peer(path):
    text = read_text(path).replace("\r\n", "\n")
    main = text.split("\n変化：")[0]
    try:
        ps = shogi.KIF.Parser.parse_str(main)[0]["moves"]
    except Exception as e:  # noqa: BLE001
        ps = "python-shogi refused: %s" % e
    try:
        cs = [cshogi.move_to_usi(m) for m in cshogi.KIF.Parser.parse_str(main).moves]
    except Exception as e:  # noqa: BLE001
        cs = "cshogi refused: %s" % e
    if ps == cs:
        return "python-shogi+cshogi", ps
    if "+---" in main:
        return "python-shogi", ps
    if isinstance(cs, list):
        return "cshogi", cs
    if isinstance(ps, list):
        return "python-shogi", ps
    return "none", "%s; %s" % (ps, cs)


rows = []
for path in sorted(glob.glob("*.kif") + glob.glob("*.kifu")):
    who, moves = peer(path)
    rows.append((path, who, moves))
by_stem = {os.path.splitext(p)[0]: (w, m) for p, w, m in rows}


def ki2_peer(path):
    main = read_text(path).replace("\r\n", "\n").split("\n変化：")[0]
    # cshogi 1.1.0's KI2 reader reads one move a line only (its
    # `parse_move_str` takes `m.end()` of a match on `line[pos:]` as a
    # position in `line`): each move is put on a line of its own.
    main = "\n".join(
        re.sub(r"(?<=\S)[ \t　]*(?=[▲△])", "\n", line) if line.startswith(("▲", "△")) else line
        for line in main.split("\n")
    )
    try:
        return [cshogi.move_to_usi(m) for m in cshogi.KI2.Parser.parse_str(main).moves]
    except Exception as e:  # noqa: BLE001
        return "cshogi KI2 refused: %s" % e


for path in sorted(glob.glob("*.ki2") + glob.glob("*.ki2u")):
    stem = os.path.splitext(path)[0]
    cs = ki2_peer(path)
    if os.path.exists(stem + ".json"):
        w, m = "source JSON", jkf_moves(stem + ".json")
    elif stem in by_stem:
        w, m = by_stem[stem]
        w = "%s (KIF twin)" % w
    elif isinstance(cs, list):
        w, m = "cshogi KI2", cs
    else:
        w, m = "none", cs
    if w not in ("cshogi KI2", "none") and cs == m:
        w += " + cshogi KI2"
    rows.append((path, w, m))
with open("expected.tsv", "w", encoding="utf-8") as f:
    f.write("# file\tpeer\tmoves (USI) or why no peer answer\n")
    for path, who, moves in sorted(rows):
        f.write("%s\t%s\t%s\n" % (path, who, " ".join(moves) if isinstance(moves, list) else moves))
print(len(rows), "files")
