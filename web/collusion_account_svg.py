"""Inline SVG of one account's signal over time (``/collusion/account/<name>``): no script,
no style.  :func:`excess_chart` draws the cumulative excess by the account's hand count as a
line, over the band chance keeps an honest account's sum in (shaded,
:mod:`audit.auditor.collusion.series`); a flagged account's line in red.
"""
from __future__ import annotations

from html import escape
from typing import Any, Mapping

from markupsafe import Markup

from .stats_svg import BLUE, INK, MUTED, RED

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 520, 220, 56, 12, 12, 34


def _rgb(c: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % c


def excess_chart(series: Mapping[str, Any], *, flagged: bool) -> Markup:
    """``series``: :meth:`audit.auditor.collusion.series.Series.to_json` of one account and signal."""
    hands, total, band = series["hands"], series["total"], series["band"]
    if not hands:
        return Markup("")
    x_max = max(hands[-1], 1)
    y_max = max(max(abs(t) for t in total), max(band), 1e-9) * 1.1

    def x(h: float) -> float:
        return float(LEFT + h / x_max * (WIDTH - LEFT - RIGHT))

    def y(v: float) -> float:
        return float(TOP + (y_max - v) / (2 * y_max) * (HEIGHT - TOP - BOTTOM))

    upper = " ".join(f"{x(h):.1f},{y(b):.1f}" for h, b in zip(hands, band))
    lower = " ".join(f"{x(h):.1f},{y(-b):.1f}" for h, b in reversed(list(zip(hands, band))))
    line = " ".join(f"{x(h):.1f},{y(t):.1f}" for h, t in zip(hands, total))
    colour = _rgb(RED) if flagged else _rgb(BLUE)
    signal = escape(series["signal"])
    out = [f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
           f'aria-label="cumulative excess of {signal} by hand" data-excess-chart="{signal}">',
           f'<polygon points="{x(0):.1f},{y(0):.1f} {upper} {lower}" fill="#e8eef5"/>',
           f'<line x1="{LEFT}" y1="{y(0):.1f}" x2="{WIDTH - RIGHT}" y2="{y(0):.1f}" stroke="{MUTED}"/>',
           f'<polyline points="{x(0):.1f},{y(0):.1f} {line}" fill="none" stroke="{colour}" stroke-width="2">'
           f'<title>{signal}: cumulative excess {total[-1]:+.2f} after {series["decisions"][-1]} decisions '
           f'in {hands[-1]} hands; the honest band there is ±{band[-1]:.2f}</title></polyline>']
    for v in (y_max / 1.1, 0.0, -y_max / 1.1):
        out.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end" '
                   f'fill="{MUTED}">{v:+.1f}</text>')
    for h in (0, x_max // 2, x_max):
        out.append(f'<text x="{x(h):.1f}" y="{HEIGHT - 16}" font-size="11" text-anchor="middle" '
                   f'fill="{MUTED}">{h}</text>')
    out.append(f'<text x="{(LEFT + WIDTH) / 2:.1f}" y="{HEIGHT - 2}" font-size="11" text-anchor="middle" '
               f'fill="{INK}">hands of this account</text>')
    out.append("</svg>")
    return Markup("".join(out))
