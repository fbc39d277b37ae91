"""Checks a `boardwire csa rate --html` page (see 55-standings-html).

Usage: standings_html.py PAGE MK_RATE_PLAYERS_YAML
"""
import sys

import html5lib

NS = "{http://www.w3.org/1999/xhtml}"


def mk_rate_groups(path):
    """mk_rate's players.yaml (its fixed shape): {group: [(id, name, rate, win, loss)]}."""
    groups, group, player = {}, None, None
    for line in open(path, encoding="utf-8"):
        if line.startswith("  ") and not line.startswith("   "):
            group = int(line.split(":")[0])
            groups[group] = []
        elif line.startswith("    ") and not line.startswith("     "):
            player = {"id": line.strip()[:-1]}
            groups[group].append(player)
        elif line.startswith("      "):
            key, value = line.strip().split(": ", 1)
            player[key] = value
    return groups


def main():
    page, yaml = sys.argv[1], sys.argv[2]
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
    with open(page, "rb") as f:
        doc = parser.parse(f)  # raises on any HTML5 parse error
    assert not doc.findall(".//%sscript" % NS), "a script element"
    for tag, attr in (("link", "href"), ("img", "src"), ("iframe", "src")):
        assert not doc.findall(".//%s%s" % (NS, tag)), "external %s" % tag
    tables = doc.findall(".//%stable" % NS)
    groups = mk_rate_groups(yaml)
    assert len(tables) == len(groups), (len(tables), len(groups))
    for table, key in zip(tables, sorted(groups)):
        players = groups[key]
        caption = "".join(table.find("%scaption" % NS).itertext())
        want = "Group: %s" % ("Not-Yet-Rated Players" if key == 999 else key)
        assert caption == want, (caption, want)
        rows = table.findall("./%stbody/%str" % (NS, NS))
        assert len(rows) == len(players), (key, len(rows), len(players))
        # mk_html's order: rate, highest first.
        if key != 999:
            players = sorted(players, key=lambda p: -float(p["rate"]))
        else:  # rate 0: the last game, latest first
            players = sorted(players, key=lambda p: p["last_modified"], reverse=True)
        for rank, (row, p) in enumerate(zip(rows, players), 1):
            cells = {td.get("class"): td for td in row.findall("%std" % NS)}
            text = {k: "".join(v.itertext()) for k, v in cells.items()}
            assert text["rank"] == str(rank), (text, rank)
            assert cells["name"].get("title") == p["id"], (cells["name"].get("title"), p["id"])
            assert text["name"] == p["name"]
            if key != 999:
                assert abs(int(text["rate"]) - int(float(p["rate"]))) <= 1, (text, p)
                assert text["win"] == str(int(float(p["win"]))), (text, p)
                assert text["loss"] == str(int(float(p["loss"]))), (text, p)
            else:
                assert text["rate"] == "N/A"
            assert text["last_modified"] == p["last_modified"][:10], (text, p)
    svgs = doc.findall(".//{http://www.w3.org/2000/svg}svg")
    assert len(svgs) == len([k for k in groups if k != 999]), len(svgs)
    print("standings page: %d tables, %d rows, %d charts: ok"
          % (len(tables), sum(len(v) for v in groups.values()), len(svgs)))


if __name__ == "__main__":
    main()
