#!/usr/bin/env python3
"""Rewrites one crate's rows of the mutation tables in docs/TESTING.md from
cargo-mutants' outcomes.json files (scripts/mutants.sh).

    mutants_table.py TESTING_MD CRATE MUTANTS_DIR [MACHINE]

Reads every MUTANTS_DIR/CRATE*/mutants.out/outcomes.json (one per shard or
per run; a mutant tested in several runs counts once, with its latest
outcome, so a run of the missed mutants by name after new tests replaces
their first outcome), keeps the crate's own mutants (its files) and drops
those `.cargo/mutants.toml`'s `exclude_re` now excludes. Counts caught,
missed, timeouts and unviable mutants, and writes:

- the crate's row between the `<!-- mutants-table -->` markers, sorted by
  crate. Caught % counts timeouts as caught and leaves unviable mutants
  out, as issue 29 says. "excluded" counts the crate's `exclude_re` entries
  (those starting with its path, `CRATE/src/`) and its `mutants::skip`
  attributes;
- its modules' rows between `<!-- mutants-modules CRATE -->` and
  `<!-- /mutants-modules CRATE -->`, if the file has these markers.
"""
import collections
import datetime
import glob
import json
import os
import platform
import re
import subprocess
import sys
import tomllib

BEGIN, END = "<!-- mutants-table -->", "<!-- /mutants-table -->"
HEADER = ("| crate | mutants | caught | missed | timeouts | unviable | caught % | excluded | date | commit | machine |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")
MOD_HEADER = ("| module | mutants | caught | missed | timeouts | unviable | caught % |\n"
              "|---|---:|---:|---:|---:|---:|---:|")
KIND = {"CaughtMutant": "caught", "MissedMutant": "missed", "Timeout": "timeout", "Unviable": "unviable"}


def exclusions(root="."):
    path = os.path.join(root, ".cargo", "mutants.toml")
    if not os.path.exists(path):
        return []
    return tomllib.load(open(path, "rb")).get("exclude_re", [])


def outcomes(crate, root):
    """The crate's mutants, name -> (file, kind), latest run last."""
    files = glob.glob(os.path.join(root, crate, "mutants.out", "outcomes.json"))
    files += glob.glob(os.path.join(root, crate + "-*", "mutants.out", "outcomes.json"))
    if not files:
        sys.exit(f"no outcomes.json for {crate} under {root}")
    files.sort(key=os.path.getmtime)
    ex = [re.compile(r) for r in exclusions()]
    merged = {}
    for f in files:
        for o in json.load(open(f))["outcomes"]:
            sc = o.get("scenario")
            k = KIND.get(o.get("summary"))
            if not isinstance(sc, dict) or not k:
                continue
            m = sc["Mutant"]
            if not m["file"].startswith(crate + "/") or any(e.search(m["name"]) for e in ex):
                continue
            merged[m["name"]] = (m["file"], k)
    return merged


def tally(kinds):
    c = collections.Counter(kinds)
    viable = c["caught"] + c["missed"] + c["timeout"]
    pct = 100.0 * (c["caught"] + c["timeout"]) / viable if viable else 0.0
    return c, viable + c["unviable"], pct


def replace_between(text, begin, end, body):
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{body}\n{end}{tail}"


def main():
    md, crate, root = sys.argv[1:4]
    machine = sys.argv[4] if len(sys.argv) > 4 else f"{platform.machine()}, {os.cpu_count()} CPUs"
    merged = outcomes(crate, root)
    c, n, pct = tally(k for _, k in merged.values())
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    skips = subprocess.run(["git", "grep", "-c", "mutants::skip", "--", f"{crate}/src"],
                           capture_output=True, text=True).stdout
    excluded = sum(int(l.rsplit(":", 1)[1]) for l in skips.splitlines() if ":" in l)
    excluded += sum(1 for r in exclusions() if r.startswith(crate + "/src/"))
    row = (f"| {crate} | {n} | {c['caught']} | {c['missed']} | {c['timeout']} | "
           f"{c['unviable']} | {pct:.1f} | {excluded} | {datetime.date.today()} | {commit} | {machine} |")
    text = open(md).read() if os.path.exists(md) else ""
    if BEGIN not in text:
        text += f"\n## Mutation testing\n\n{BEGIN}\n{HEADER}\n{END}\n"
    table = text.split(BEGIN, 1)[1].split(END, 1)[0]
    rows = []
    for line in table.strip().splitlines()[2:]:
        if line.startswith(f"| {crate} |"):
            continue
        cells = line.strip("|").split("|")
        if len(cells) == 10:  # a row from before the machine column
            line += " |"
        rows.append(line)
    rows.append(row)
    rows.sort()
    text = replace_between(text, BEGIN, END, HEADER + "\n" + "\n".join(rows))
    per = collections.defaultdict(list)
    for f, k in merged.values():
        per[f].append(k)
    mod_rows = []
    for f in sorted(per):
        mc, mn, mp = tally(per[f])
        viable = mc["caught"] + mc["missed"] + mc["timeout"]
        shown = f"{mp:.1f}" if viable else "–"
        mod_rows.append(f"| `{f.removeprefix(crate + '/')}` | {mn} | {mc['caught']} | {mc['missed']} | "
                        f"{mc['timeout']} | {mc['unviable']} | {shown} |")
    mb, me = f"<!-- mutants-modules {crate} -->", f"<!-- /mutants-modules {crate} -->"
    if mb in text:
        text = replace_between(text, mb, me, MOD_HEADER + "\n" + "\n".join(mod_rows))
    open(md, "w").write(text)
    print(row)
    print("\n".join(mod_rows))
    missed = sorted(name for name, (_, k) in merged.items() if k == "missed")
    if missed:
        print("missed:\n  " + "\n  ".join(missed))


if __name__ == "__main__":
    main()
