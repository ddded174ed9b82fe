"""Inline SVG pictures of the collusion review (:mod:`audit.auditor.collusion`): no script, no style.

* :func:`band_chart` -- one row per account of a signal: its t statistic as a dot, against
  the band chance keeps an honest account in (|t| below 2.58, 99 %, shaded); flagged
  accounts in red.  Each dot's ``<title>`` gives the numbers.
* :func:`pair_graph` -- the accounts on a circle, a line between two that shared hands, as
  thick as the hands they shared; flagged accounts, and the lines of flagged pairs, in red.
"""
from __future__ import annotations

import math
from html import escape
from typing import Any, Sequence

from markupsafe import Markup

from .stats_svg import BLUE, INK, MUTED, RED

BAND = 2.576   # two-sided 99 % of the standard normal: where an honest account's t falls 99 times in 100
LO, HI = -4.0, 8.0
ROW, LEFT, WIDTH = 22, 150, 520


def _x(t: float) -> float:
    t = max(LO, min(HI, t))
    return LEFT + (t - LO) / (HI - LO) * (WIDTH - LEFT - 20)


def _rgb(c: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % c


def band_chart(rows: Sequence[dict[str, Any]]) -> Markup:
    """``rows``: the tested accounts of one signal (``account``, ``t``, ``p``, ``q``, ``flagged``)."""
    h = ROW * len(rows) + 40
    out = [f'<svg viewBox="0 0 {WIDTH} {h}" width="100%" role="img" aria-label="t statistic per account">',
           f'<rect x="{_x(-BAND):.1f}" y="10" width="{_x(BAND) - _x(-BAND):.1f}" height="{h - 30}" fill="#e8eef5"/>',
           f'<line x1="{_x(0):.1f}" y1="10" x2="{_x(0):.1f}" y2="{h - 20}" stroke="{MUTED}"/>']
    for t in range(int(LO), int(HI) + 1, 2):
        out.append(f'<text x="{_x(t):.1f}" y="{h - 6}" font-size="11" text-anchor="middle" fill="{MUTED}">{t}</text>')
    for i, r in enumerate(rows):
        y = 24 + i * ROW
        colour = _rgb(RED) if r["flagged"] else _rgb(BLUE)
        name = escape(r["account"])
        out.append(f'<text x="{LEFT - 8}" y="{y + 4}" font-size="12" text-anchor="end" fill="{INK}">'
                   f'<a href="/collusion/account/{name}">{name}</a></text>')
        out.append(f'<circle cx="{_x(r["t"]):.1f}" cy="{y}" r="5" fill="{colour}" data-account="{name}">'
                   f'<title>{name}: t {r["t"]:.2f}, p {r["p"]:.2g}, q {r["q"]:.2g}, {r["decisions"]} decisions'
                   f'</title></circle>')
    out.append("</svg>")
    return Markup("".join(out))


def pair_graph(pairs: Sequence[dict[str, Any]], flagged: set[str]) -> Markup:
    """``pairs``: ``{"accounts": [a, b], "hands_together": n, "flagged": bool, ...}``."""
    names = sorted({a for p in pairs for a in p["accounts"]})
    if not names:
        return Markup("")
    size, r = 360, 130
    pos = {n: (size / 2 + r * math.cos(2 * math.pi * i / len(names)),
               size / 2 + r * math.sin(2 * math.pi * i / len(names))) for i, n in enumerate(names)}
    most = max(p["hands_together"] for p in pairs)
    out = [f'<svg viewBox="0 0 {size} {size}" width="100%" role="img" aria-label="who sat with whom">']
    for p in pairs:
        (x1, y1), (x2, y2) = pos[p["accounts"][0]], pos[p["accounts"][1]]
        w = 0.5 + 4.5 * p["hands_together"] / most
        hot = p.get("flagged", False)
        colour = _rgb(RED) if hot else MUTED
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                   f'stroke-width="{max(w, 2.5) if hot else w:.2f}" data-pair="{escape("|".join(p["accounts"]))}"'
                   f'{" data-flagged-pair" if hot else ""}><title>{escape(" and ".join(p["accounts"]))}: '
                   f'{p["hands_together"]} hands together{", flagged for review" if hot else ""}</title></line>')
    for n, (x, y) in pos.items():
        colour = _rgb(RED) if n in flagged else INK
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="{colour}"/>'
                   f'<text x="{x:.1f}" y="{y - 10:.1f}" font-size="11" text-anchor="middle" fill="{INK}">'
                   f'{escape(n)}</text>')
    out.append("</svg>")
    return Markup("".join(out))
