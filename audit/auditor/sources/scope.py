"""Whose hands an audit of a ledger or an operator URL judges when a key is pinned.

A ledger (and the site over it) can hold several operators, each with its own log
(:mod:`audit.tlog.logs`).  An auditor who pins operator A's key audits **A's** hands: B's
records are B's claims, signed by B's key, in B's log, and judging them under A's key would
fail every one for a reason that says nothing about either operator.  So with a pinned key
that is one of several operators' keys, the audit judges that operator's hands only and
says, in its summary and ``--json``, which other operators it left out and how many hands
they hold (pin their key to audit them).

* a ledger: the hands of the tables of the operator whose registered key is the pinned key
  (the ledger's own rows, not what a record claims);
* a URL: the hands the site lists under that operator (``/api/v1/operators``, the hands'
  ``operator``).

A pinned key that is no operator's, or a source with one operator, changes nothing: every
hand is judged under the pinned key, as before.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from .item import Item


@dataclass(frozen=True)
class OperatorScope:
    """The pinned key's operator and the hands of the others (left out of the audit)."""

    operator: str
    others: tuple[str, ...]
    skip_hands: frozenset[str] = field(default=frozenset(), repr=False)  # a ledger's: known up front
    skipped: dict[str, int] = field(default_factory=dict, compare=False)  # other operator -> hands left out

    def keeps(self, hand_id: str | None, operator: str | None = None) -> bool:
        """Whether the audit judges this hand (and counts it as left out if not)."""
        if operator is not None:
            out = operator != self.operator
        else:
            out = hand_id in self.skip_hands
        if out:
            key = operator or "other operators"
            self.skipped[key] = self.skipped.get(key, 0) + 1
        return not out

    def filter(self, items: Iterable[Item]) -> Iterator[Item]:
        """The items of this operator's hands (a ledger's items are ``<path>#<hand id>``)."""
        for item in items:
            hand_id = item.status.hand_id if item.status is not None else item.where.rpartition("#")[2]
            if self.keeps(hand_id):
                yield item

    def describe(self) -> str:
        left = sum(self.skipped.values())
        return (f"scope: operator {self.operator}'s hands only (its key is pinned); "
                f"{len(self.others)} other operator(s) here ({', '.join(self.others)}): {left} of their hands "
                f"not audited -- pin their key to audit them")

    def to_json(self) -> dict[str, Any]:
        return {"operator": self.operator, "other_operators": list(self.others),
                "hands_not_audited": sum(self.skipped.values())}


def ledger_scope(path: str, public_key: str) -> OperatorScope | None:
    """The scope of a ledger audit under ``public_key`` (``None``: judge every hand)."""
    from ...consttime import same_text
    from .splits import connect_ro

    conn = connect_ro(str(path))
    try:
        ops = conn.execute("SELECT name, public_key FROM operators ORDER BY rowid").fetchall()
        mine = [name for name, pub in ops if same_text(str(pub).lower(), public_key.lower())]
        if len(ops) < 2 or not mine:
            return None
        rows = conn.execute("SELECT h.id FROM hands h JOIN ledger_tables t ON t.id = h.table_id"
                            " WHERE t.operator != ?", (mine[0],)).fetchall()
    finally:
        conn.close()
    return OperatorScope(mine[0], tuple(n for n, _ in ops if n != mine[0]), frozenset(r[0] for r in rows))


def url_operators(base: str, *, session: Any = None, timeout: float = 30) -> list[dict[str, Any]]:
    """The operators an operator URL lists (``[]`` when it lists none or cannot say)."""
    import requests

    http = session or requests.Session()
    try:
        r = http.get(base.rstrip("/") + "/api/v1/operators", timeout=timeout)
        ops = r.json().get("operators") if r.status_code == 200 else None
    except (requests.RequestException, ValueError, AttributeError):
        return []
    return [o for o in ops if isinstance(o, dict)] if isinstance(ops, list) else []


def operator_of_key(operators: list[dict[str, Any]], public_key: str) -> str | None:
    from ...consttime import same_text

    for o in operators:
        key, name = o.get("public_key"), o.get("name")
        if isinstance(key, str) and isinstance(name, str) and same_text(key.lower(), public_key.lower()):
            return name
    return None


def url_scope(base: str, public_key: str) -> OperatorScope | None:
    """The scope of a URL audit under ``public_key`` (``None``: judge every hand)."""
    ops = url_operators(base)
    mine = operator_of_key(ops, public_key)
    if len(ops) < 2 or mine is None:
        return None
    return OperatorScope(mine, tuple(o["name"] for o in ops if o.get("name") != mine))


def scope_for(source: Any, public_key: str | None) -> OperatorScope | None:
    """Whose hands an audit of ``source`` (a :class:`~audit.auditor.sources.source.Source` or
    its name) under ``public_key`` judges: one operator's of a ledger or URL that serves
    several, else ``None`` (every hand)."""
    from .kinds import LEDGER, URL, kind_and_name

    if public_key is None:
        return None
    kind, name = kind_and_name(source)
    if kind == URL:
        base = name.rstrip("/")
        return url_scope(base[: -len("/api/v1")] if base.endswith("/api/v1") else base, public_key)
    if kind == LEDGER:
        return ledger_scope(name, public_key)
    return None
