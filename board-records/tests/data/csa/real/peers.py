"""Writes expected.tsv: for each corpus file and each record in it (records
are separated by a `/` line), the start position (SFEN) and the moves (USI)
as real peers read them, and which peer. Run by hand when files are added
(needs python-shogi and cshogi, the versions in .ci/requirements.txt); the
test (boardwire/tests/records_csa_corpus.rs) only reads expected.tsv.
Nothing is fetched.

Text: the file's `'CSA encoding=` line (V3.0) or `'encoding=` comment if it
has one, else UTF-8 when the bytes are valid UTF-8, else cp932. Both peers
are run; when they agree both are named; when only one reads the record,
that one; when they differ, cshogi (it checks each move on its board and
reads every start-position form; python-shogi does not read `P+`/`P-`
lines or `PI` with removed pieces).
"""
import glob
import json
import re
import subprocess
import sys

import cshogi
import cshogi.CSA
import shogi
import shogi.CSA


def read_text(path):
    raw = open(path, "rb").read()
    m = re.search(rb"^'(?:CSA )?encoding=([A-Za-z0-9_-]+)", raw, re.M)
    encs = []
    if m:
        name = m.group(1).decode().lower().replace("_", "-")
        encs.append("cp932" if name in ("shift-jis", "sjis", "cp932") else name)
    encs += ["utf-8", "cp932", "euc-jp"]
    for enc in encs:
        try:
            return raw.decode(enc)
        except (UnicodeDecodeError, LookupError):
            pass
    return raw.decode("utf-8", "replace")


def records(text):
    """The records of a file as cshogi splits them (a `/` line)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n/\n")


def cshogi_games(text):
    try:
        return [
            (p.sfen, [cshogi.move_to_usi(m) for m in p.moves])
            for p in cshogi.CSA.Parser.parse_str(text)
        ]
    except Exception as e:  # noqa: BLE001
        return "cshogi refused: %s" % e


def peer(text):
    # cshogi's C++ reader crashes on some files (a segmentation fault on
    # jkf-9fu_komabetsu.csa): it runs in a child process.
    child = subprocess.run(
        [sys.executable, __file__, "--cshogi"], input=text, capture_output=True, text=True
    )
    if child.returncode == 0:
        cs = [tuple(g) for g in json.loads(child.stdout)]
        cs = cs if cs and isinstance(cs[0], tuple) and len(cs[0]) == 2 else json.loads(child.stdout)
    else:
        cs = "cshogi crashed (exit %d)" % child.returncode
    try:
        ps = []
        for one in records(text):
            r = shogi.CSA.Parser.parse_str(one)[0]
            ps.append((r["sfen"], r["moves"]))
    except Exception as e:  # noqa: BLE001
        ps = "python-shogi refused: %s" % e
    return cs, ps


def same(a, b):
    # SFEN without the move number field.
    strip = lambda s: " ".join(s.split()[:3])
    return [(strip(s), m) for s, m in a] == [(strip(s), m) for s, m in b]


if sys.argv[1:] == ["--cshogi"]:
    print(json.dumps(cshogi_games(sys.stdin.read())))
    sys.exit(0)

rows = []
for path in sorted(glob.glob("*.csa")):
    text = read_text(path).replace("\r\n", "\n").replace("\r", "\n")
    cs, ps = peer(text)
    if isinstance(cs, list) and isinstance(ps, list) and same(cs, ps):
        who, games = "python-shogi+cshogi", cs
    elif isinstance(cs, list):
        who, games = "cshogi", cs
    elif isinstance(ps, list):
        who, games = "python-shogi", ps
    else:
        rows.append((path, 0, "none", "%s; %s" % (cs, ps), ""))
        continue
    for k, (sfen, moves) in enumerate(games):
        rows.append((path, k + 1, who, " ".join(sfen.split()[:3]), " ".join(moves)))
with open("expected.tsv", "w", encoding="utf-8") as f:
    f.write("# file\trecord\tpeer\tstart SFEN (board, side, hands) or why no peer answer\tmoves (USI)\n")
    for r in rows:
        f.write("%s\t%d\t%s\t%s\t%s\n" % r)
print(len(rows), "records")
