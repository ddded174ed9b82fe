"""A JSON-ready view of any engine's state for people: the CLI replay and the website.

An engine may provide ``view(state) -> dict`` (hands by seat, piles, highlights); the
fallback inspects common attribute names.  ``lines`` is a plain-text rendering.
"""
from __future__ import annotations

from typing import Any


def _cards(x: Any) -> list[str]:
    try:
        return [str(c) for c in x]
    except TypeError:
        return []


def render_state(engine: Any, state: Any) -> dict[str, Any]:
    view = engine.view(state) if hasattr(engine, "view") else {}
    if not view:
        hands = getattr(state, "hands", None)
        view = {"hands": [_cards(h) for h in hands] if hands is not None else []}
        for name in ("stock", "discards", "open_pile", "closed_pile", "pot"):
            if hasattr(state, name):
                v = getattr(state, name)
                view[name] = v if isinstance(v, int) else _cards(v)
    view = dict(view)
    if "lines" not in view:
        lines = [f"seat {i}: {' '.join(h)}" for i, h in enumerate(view.get("hands", []))]
        for k, v in view.items():
            if k in ("hands", "lines"):
                continue
            if isinstance(v, list) and len(v) > 12 and all(isinstance(c, str) for c in v):
                lines.append(f"{k}: {len(v)} cards, top {v[0] if v else '-'}")
            else:
                lines.append(f"{k}: {v if not isinstance(v, list) else ' '.join(map(str, v))}")
        view["lines"] = lines
    return view
