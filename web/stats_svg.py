"""Inline SVG pictures of the deal statistics (:mod:`audit.auditor.stats.deals`): no script, no style attributes.

The page's Content-Security-Policy (``style-src 'self'``) forbids inline ``style``, so every
colour is a presentation attribute (``fill``, ``stroke``).  Each cell and bar carries a
``<title>`` (the browser shows it as a tooltip): its count and the count chance expects.

* :func:`card_grids` -- one 13 x 4 grid of cards (ranks across, suits down; a fifth row for
  printed jokers and the master card) per seat or stock stretch;
* :func:`heat_table` -- rows by columns with the counts written in (ranks by seat);
* :func:`bars` -- one bar per column with the expected count marked by a dark line.

Heat colours are the standardized difference ``(observed - expected) / sqrt(expected)``:
white is exactly as expected, red more, blue fewer, full colour at 3 or more.
"""
from __future__ import annotations

import math
from html import escape
from typing import Any

from markupsafe import Markup

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED, BLUE, INK, MUTED, BAR = (200, 16, 46), (43, 95, 171), "#1d2430", "#5d6675", "#7fa98f"
FULL = 3.0


def residual(o: float, e: float) -> float:
    return (o - e) / math.sqrt(e) if e > 0 else 0.0


def heat(z: float) -> str:
    """White at 0, towards red (z > 0) or blue (z < 0), full at +-FULL."""
    t = min(abs(z) / FULL, 1.0)
    target = RED if z > 0 else BLUE
    r, g, b = (round(255 + (c - 255) * t) for c in target)
    return f"#{r:02x}{g:02x}{b:02x}"


def _num(x: float) -> str:
    return f"{x:.1f}" if abs(x - round(x)) > 0.05 else str(int(round(x)))


def _svg(width: float, height: float, body: list[str], label: str, cls: str, scale: float | None = None) -> Markup:
    """An ``<svg>``; with ``scale`` it has a natural size (``scale`` px per unit) the CSS may only shrink."""
    size = f' width="{width * scale:g}" height="{height * scale:g}"' if scale else ""
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}"{size} class="{cls}" '
                  f'role="img" aria-label="{escape(label)}">' + "".join(body) + "</svg>")


def _cell(x: float, y: float, w: float, h: float, o: int, e: float, tip: str) -> str:
    return (f'<rect x="{x:g}" y="{y:g}" width="{w - 1:g}" height="{h - 1:g}" fill="{heat(residual(o, e))}">'
            f'<title>{escape(tip)}: {o} (expected {e:.1f})</title></rect>')


def card_grids(chart: dict[str, Any]) -> list[tuple[str, Markup]]:
    """``[(column label, svg)]``: one card grid per column of a ``grid`` chart."""
    rows = {k: i for i, k in enumerate(chart["rows"])}
    extras = [k for k in ("JK", "MC") if k in rows]
    cell, left, top = 13, 14, 12
    height = top + cell * (4 + (1 if extras else 0)) + 2
    width = left + cell * 13 + 2
    out = []
    for j, column in enumerate(chart["columns"]):
        body = [f'<text x="{left + cell * r + cell / 2:g}" y="9" font-size="8" text-anchor="middle" '
                f'fill="{MUTED}">{RANKS[r]}</text>' for r in range(13)]
        for s, suit in enumerate(SUITS):
            colour = "#c8102e" if suit in "HD" else INK
            body.append(f'<text x="6" y="{top + cell * s + 10:g}" font-size="9" text-anchor="middle" '
                        f'fill="{colour}">{SUIT_SYMBOL[suit]}</text>')
            for r, rank in enumerate(RANKS):
                k = rank + suit
                if k in rows:
                    i = rows[k]
                    body.append(_cell(left + cell * r, top + cell * s, cell, cell, chart["observed"][i][j],
                                      chart["expected"][i][j], f"{k} in {column}"))
        for x, k in enumerate(extras):
            i = rows[k]
            y = top + cell * 4
            body.append(_cell(left + cell * 2 * x, y, cell * 2, cell, chart["observed"][i][j],
                              chart["expected"][i][j], f"{k} in {column}"))
            body.append(f'<text x="{left + cell * 2 * x + cell:g}" y="{y + 9.5:g}" font-size="7" '
                        f'text-anchor="middle" fill="{INK}">{k}</text>')
        out.append((column, _svg(width, height, body, f"{chart['title']}: {column}", "stat-grid")))
    return out


def heat_table(chart: dict[str, Any]) -> Markup:
    """Rows by columns, each cell coloured and its count written in."""
    cw, ch, left, top = 34, 16, 22, 14
    cols, rows = chart["columns"], chart["rows"]
    width, height = left + cw * len(cols) + 2, top + ch * len(rows) + 2
    body = [f'<g font-size="8" text-anchor="middle" fill="{MUTED}">']
    body += [f'<text x="{left + cw * j + cw / 2:g}" y="10">{escape(c)}</text>' for j, c in enumerate(cols)]
    body.append(f'</g><g font-size="9" text-anchor="end" fill="{INK}">')
    body += [f'<text x="{left - 4}" y="{top + ch * i + 11.5:g}">{escape(r)}</text>' for i, r in enumerate(rows)]
    body.append("</g>")
    labels = [f'<g font-size="8.5" text-anchor="middle" fill="{INK}" pointer-events="none">']
    for i, r in enumerate(rows):
        y = top + ch * i
        for j, c in enumerate(cols):
            o, e = chart["observed"][i][j], chart["expected"][i][j]
            body.append(_cell(left + cw * j, y, cw, ch, o, e, f"{r} in {c}"))
            dark = ' fill="#ffffff"' if abs(residual(o, e)) > 2.2 else ""
            labels.append(f'<text x="{left + cw * j + cw / 2:g}" y="{y + 11:g}"{dark}>{o}</text>')
    labels.append("</g>")
    return _svg(width, height, body + labels, chart["title"], "stat-table", scale=1.3)


def bars(chart: dict[str, Any]) -> Markup:
    """One bar per column; the expected count is the dark line across each bar."""
    cols, obs, exp = chart["columns"], chart["observed"][0], chart["expected"][0]
    bw = max(26, max(len(c) for c in cols) * 4.6)
    left, top, plot_h, bottom = 30, 8, 110, 30
    width = left + bw * len(cols) + 4
    height = top + plot_h + bottom
    peak = max([*obs, *exp, 1]) * 1.12
    def y(v: float) -> float:
        return float(top + plot_h - plot_h * v / peak)
    body = [f'<line x1="{left}" y1="{top + plot_h}" x2="{width - 2:g}" y2="{top + plot_h}" stroke="{MUTED}"/>']
    for tick in _ticks(peak):
        body.append(f'<line x1="{left - 3}" y1="{y(tick):.1f}" x2="{width - 2:g}" y2="{y(tick):.1f}" '
                    f'stroke="#e1ddd2" stroke-width="0.6"/>')
        body.append(f'<text x="{left - 5}" y="{y(tick) + 3:.1f}" font-size="8" text-anchor="end" '
                    f'fill="{MUTED}">{_num(tick)}</text>')
    for j, (c, o, e) in enumerate(zip(cols, obs, exp)):
        x = left + bw * j + bw * 0.18
        w = bw * 0.64
        body.append(f'<rect x="{x:.1f}" y="{y(o):.1f}" width="{w:.1f}" height="{top + plot_h - y(o):.1f}" '
                    f'fill="{heat(residual(o, e)) if abs(residual(o, e)) > 2 else BAR}">'
                    f'<title>{escape(c)}: {o} (expected {e:.1f})</title></rect>')
        body.append(f'<line x1="{x - 3:.1f}" y1="{y(e):.1f}" x2="{x + w + 3:.1f}" y2="{y(e):.1f}" stroke="{INK}" '
                    f'stroke-width="2"><title>expected {e:.1f}</title></line>')
        body.append(f'<text x="{x + w / 2:.1f}" y="{top + plot_h + 11}" font-size="8" text-anchor="middle" '
                    f'fill="{INK}">{escape(c)}</text>')
        body.append(f'<text x="{x + w / 2:.1f}" y="{top + plot_h + 22}" font-size="7.5" text-anchor="middle" '
                    f'fill="{MUTED}">{o}</text>')
    return _svg(width, height, body, chart["title"], "stat-bars", scale=1.3)


def _ticks(peak: float) -> list[float]:
    raw = peak / 4
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    return [step * i for i in range(1, int(peak / step) + 1)]


def legend() -> Markup:
    """The colour key shared by every heat map."""
    steps = [-3, -2, -1, 0, 1, 2, 3]
    body = []
    for i, z in enumerate(steps):
        body.append(f'<rect x="{8 + i * 22}" y="4" width="22" height="12" fill="{heat(z)}" stroke="#e1ddd2"/>')
        body.append(f'<text x="{19 + i * 22}" y="27" font-size="8" text-anchor="middle" fill="{MUTED}">'
                    f'{"+" if z > 0 else ""}{z}</text>')
    body.append(f'<text x="170" y="14" font-size="8.5" fill="{INK}">fewer (blue) · as expected (white) · '
                f'more (red)</text>')
    body.append(f'<text x="170" y="27" font-size="8" fill="{MUTED}">standard deviations from the expected '
                f'count</text>')
    return _svg(400, 32, body, "colour key: blue fewer than expected, white as expected, red more", "stat-legend",
                scale=1.2)


def picture(chart: dict[str, Any]) -> dict[str, Any]:
    """What the template draws for one chart."""
    if chart["shape"] == "grid":
        return {"grids": card_grids(chart)}
    if chart["shape"] == "table":
        return {"svg": heat_table(chart)}
    return {"svg": bars(chart)}
