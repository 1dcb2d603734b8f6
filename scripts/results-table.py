#!/usr/bin/env python3
"""Prints tournament results as markdown tables.

    scripts/results-table.py            Ringo: docs/engine-results/*.json
    scripts/results-table.py urgammon   Urgammon: docs/urgammon-results/*.json
"""
import glob, json, os, re, sys

if len(sys.argv) > 1 and sys.argv[1] == "urgammon":
    print("| A | B | played | A: W–D–L | A won (95%) | A's points per game (95%) | games |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    here = os.path.join(os.path.dirname(__file__), "..", "docs", "urgammon-results", "*.json")
    for path in sorted(glob.glob(here), key=lambda p: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p)]):
        try:
            d = json.load(open(path))
        except ValueError:
            continue  # a match still being played
        if "a" not in d:
            continue
        played = d.get("games") if d.get("match_to") is None else d.get("matches")
        what = "games" if d.get("match_to") is None else f"matches to {d['match_to']}"
        lo, hi = d["win_rate_95"]
        ppg = d["points_per_game"]
        ci = d.get("points_per_game_95")
        ci = f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else ""
        print(f"| {d['a']} | {d['b']} | {played} {what} | {d['wins']}–{d['draws']}–{d['losses']} "
              f"| {100 * d['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | {ppg:+.3f}{ci} | {d['games_played']} |")
    sys.exit(0)

rows = []
for path in sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "docs", "engine-results", "*.json"))):
    d = json.load(open(path))
    if "a" not in d:
        continue
    rows.append(d)

def elo(d):
    lo, hi = d["elo_95"]
    # A clean sweep has no finite Elo (the tool clamps it at ±1200); only the
    # lower (or upper) bound of its interval says anything.
    if d["score"] == 1.0:
        return f"≥ {lo:+.0f}"
    if d["score"] == 0.0:
        return f"≤ {hi:+.0f}"
    return f"{d['elo']:+.0f} [{lo:+.0f}, {hi:+.0f}]"

def line(d):
    return (f"| `{d['rules']}` | {d['a']} | {d['b']} | {d['games']} | {d['wins']}–{d['draws']}–{d['losses']} "
            f"| {d['score']:.3f} | {elo(d)} | {d['a_as_attackers']['score']:.2f} "
            f"| {d['a_as_defenders']['score']:.2f} | {d['attackers_win_rate']:.2f} | {d['mean_plies']:.0f} |")

print("| rules | A | B | games | A: W–D–L | A's score | Elo (95%) | A as attackers | A as defenders | attackers' wins | plies |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for d in sorted(rows, key=lambda d: (d["rules"], d["b"], d["a"])):
    print(line(d))
