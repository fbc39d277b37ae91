#!/usr/bin/env python3
"""Rewrites one crate's row of the mutation table in docs/TESTING.md from
cargo-mutants' outcomes.json files (scripts/mutants.sh).

    mutants_table.py TESTING_MD CRATE MUTANTS_DIR

Reads MUTANTS_DIR/CRATE*/mutants.out/outcomes.json (one per shard), counts
caught, missed, timeouts and unviable mutants, and writes the row between
the `<!-- mutants-table -->` markers, sorted by crate. Caught % counts
timeouts as caught and leaves unviable mutants out, as issue 29 says.
"""
import datetime
import glob
import json
import os
import platform
import subprocess
import sys

BEGIN, END = "<!-- mutants-table -->", "<!-- /mutants-table -->"
HEADER = ("| crate | mutants | caught | missed | timeouts | unviable | caught % | excluded | date | commit |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


def counts(crate, root):
    c = {"caught": 0, "missed": 0, "timeout": 0, "unviable": 0}
    files = glob.glob(os.path.join(root, crate, "mutants.out", "outcomes.json"))
    files += glob.glob(os.path.join(root, crate + "-*-of-*", "mutants.out", "outcomes.json"))
    if not files:
        sys.exit(f"no outcomes.json for {crate} under {root}")
    kind = {"CaughtMutant": "caught", "MissedMutant": "missed", "Timeout": "timeout", "Unviable": "unviable"}
    for f in files:
        for o in json.load(open(f))["outcomes"]:
            k = kind.get(o.get("summary"))
            if k and o.get("scenario") != "Baseline":
                c[k] += 1
    return c


def main():
    md, crate, root = sys.argv[1:4]
    c = counts(crate, root)
    viable = c["caught"] + c["missed"] + c["timeout"]
    pct = 100.0 * (c["caught"] + c["timeout"]) / viable if viable else 0.0
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    skips = subprocess.run(["git", "grep", "-c", "mutants::skip", "--", f"{crate}/src"],
                           capture_output=True, text=True).stdout
    excluded = sum(int(l.rsplit(":", 1)[1]) for l in skips.splitlines() if ":" in l)
    row = (f"| {crate} | {viable + c['unviable']} | {c['caught']} | {c['missed']} | {c['timeout']} | "
           f"{c['unviable']} | {pct:.1f} | {excluded} | {datetime.date.today()} | {commit} |")
    text = open(md).read() if os.path.exists(md) else ""
    if BEGIN not in text:
        text += f"\n## Mutation testing\n\n{BEGIN}\n{HEADER}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    table, tail = rest.split(END, 1)
    rows = [l for l in table.strip().splitlines()[2:] if not l.startswith(f"| {crate} |")]
    rows.append(row)
    rows.sort()
    text = f"{head}{BEGIN}\n{HEADER}\n" + "\n".join(rows) + f"\n{END}{tail}"
    open(md, "w").write(text)
    print(row)
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
