#!/usr/bin/env python3
"""Prints docs/engine-results/*.json (from `agon tournament`) as markdown tables."""
import glob, json, os

rows = []
for path in sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "docs", "engine-results", "*.json"))):
    d = json.load(open(path))
    if "a" not in d:
        continue
    rows.append(d)

def line(d):
    lo, hi = d["elo_95"]
    return (f"| `{d['rules']}` | {d['a']} | {d['b']} | {d['games']} | {d['wins']}–{d['draws']}–{d['losses']} "
            f"| {d['score']:.3f} | {d['elo']:+.0f} [{lo:+.0f}, {hi:+.0f}] | {d['a_as_attackers']['score']:.2f} "
            f"| {d['a_as_defenders']['score']:.2f} | {d['attackers_win_rate']:.2f} | {d['mean_plies']:.0f} |")

print("| rules | A | B | games | A: W–D–L | A's score | Elo (95%) | A as attackers | A as defenders | attackers' wins | plies |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for d in sorted(rows, key=lambda d: (d["rules"], d["b"], d["a"])):
    print(line(d))
