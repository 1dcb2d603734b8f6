#!/usr/bin/env python3
"""Draws the Urgammon engine's plots as plain SVG (no plotting library needed).

    scripts/urgammon-plots.py [RESULTS_DIR]

Reads, from RESULTS_DIR (default docs/urgammon-results):
  train-log.jsonl   one JSON line per training checkpoint (agon urgammon train --log)
  calibration.json  the output of agon urgammon calibrate
and writes training.svg and calibration.svg next to them.
"""
import json
import sys
from pathlib import Path

W, H = 640, 300
PAD_L, PAD_R, PAD_T, PAD_B = 60, 20, 30, 45


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;")


def chart(title, xlabel, ylabel, series, xr, yr, diagonal=False, points=False, legend_bottom=False):
    """One chart: series is [(name, colour, [(x, y)...])]."""
    (x0, x1), (y0, y1) = xr, yr
    pw, ph = W - PAD_L - PAD_R, H - PAD_T - PAD_B

    def sx(x):
        return PAD_L + (x - x0) / (x1 - x0) * pw

    def sy(y):
        return PAD_T + ph - (y - y0) / (y1 - y0) * ph

    out = [
        f'<rect x="{PAD_L}" y="{PAD_T}" width="{pw}" height="{ph}" fill="#fff" stroke="#999"/>',
        f'<text x="{W / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">{esc(title)}</text>',
        f'<text x="{W / 2}" y="{H - 8}" text-anchor="middle" font-size="12">{esc(xlabel)}</text>',
        f'<text x="14" y="{PAD_T + ph / 2}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 14 {PAD_T + ph / 2})">{esc(ylabel)}</text>',
    ]
    for i in range(6):
        fx = x0 + (x1 - x0) * i / 5
        fy = y0 + (y1 - y0) * i / 5
        out.append(f'<line x1="{sx(fx)}" y1="{PAD_T}" x2="{sx(fx)}" y2="{PAD_T + ph}" stroke="#eee"/>')
        out.append(f'<line x1="{PAD_L}" y1="{sy(fy)}" x2="{PAD_L + pw}" y2="{sy(fy)}" stroke="#eee"/>')
        xt = f"{fx / 1000:.0f}k" if x1 >= 10000 else f"{fx:.2g}"
        out.append(f'<text x="{sx(fx)}" y="{PAD_T + ph + 16}" text-anchor="middle" font-size="11">{xt}</text>')
        out.append(f'<text x="{PAD_L - 6}" y="{sy(fy) + 4}" text-anchor="end" font-size="11">{fy:.3g}</text>')
    if diagonal:
        out.append(
            f'<line x1="{sx(x0)}" y1="{sy(y0)}" x2="{sx(x1)}" y2="{sy(y1)}" stroke="#888" stroke-dasharray="4 4"/>'
        )
    for k, (name, colour, pts) in enumerate(series):
        if not pts:
            continue
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        if points:
            for x, y in pts:
                out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3.5" fill="{colour}"/>')
        ly = (PAD_T + ph - 12 - 16 * (len(series) - 1 - k)) if legend_bottom else (PAD_T + 16 + 16 * k)
        out.append(f'<line x1="{PAD_L + 12}" y1="{ly - 4}" x2="{PAD_L + 32}" y2="{ly - 4}" stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{PAD_L + 38}" y="{ly}" font-size="12">{esc(name)}</text>')
    return out


def svg(parts, height):
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" '
        f'viewBox="0 0 {W} {height}" font-family="sans-serif">\n'
        + "\n".join(parts)
        + "\n</svg>\n"
    )


def training(results):
    rows = [json.loads(l) for l in (results / "train-log.jsonl").read_text().splitlines() if l.strip()]
    games = [r["games"] for r in rows]
    xr = (0, max(games))
    loss = [(r["games"], r["loss"]) for r in rows]
    lo, hi = min(y for _, y in loss), max(y for _, y in loss)
    top = chart(
        "TD(λ) training: cross-entropy to the λ-return targets",
        "self-play games",
        "loss",
        [("mean loss (moving average)", "#1f77b4", loss)],
        xr,
        (lo - 0.02, hi + 0.02),
    )
    probes = [
        ("0-ply network vs greedy", "#2ca02c", [(r["games"], r["vs_greedy"]) for r in rows if r.get("vs_greedy") is not None]),
        ("0-ply network vs 0-ply heuristic", "#d62728", [(r["games"], r["vs_heuristic"]) for r in rows if r.get("vs_heuristic") is not None]),
    ]
    bottom = chart(
        "Probe matches at each checkpoint (400 games each)",
        "self-play games",
        "share of games won",
        probes,
        xr,
        (0.5, 1.0),
        legend_bottom=True,
    )
    bottom = [f'<g transform="translate(0 {H})">'] + bottom + ["</g>"]
    (results / "training.svg").write_text(svg(top + bottom, 2 * H))


def calibration(results):
    data = json.loads((results / "calibration.json").read_text())
    series = []
    for name, colour in (("network", "#1f77b4"), ("heuristic", "#ff7f0e")):
        bins = data[name]["calibration"]
        mae = data[name]["win_mae"]
        series.append(
            (f"{name} (win MAE {mae:.3f})", colour, [(b["predicted"], b["observed"]) for b in bins])
        )
    title = (
        f"Calibration: predicted win chance vs rollouts "
        f"({data['positions']} held-out positions × {data['rollouts_per_position']} games)"
    )
    parts = chart(title, "predicted win chance (bin mean)", "rollout win share", series, (0, 1), (0, 1), diagonal=True, points=True, legend_bottom=False)
    (results / "calibration.svg").write_text(svg(parts, H + 40))


def main():
    results = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/urgammon-results")
    if (results / "train-log.jsonl").exists():
        training(results)
    if (results / "calibration.json").exists():
        calibration(results)


if __name__ == "__main__":
    main()
