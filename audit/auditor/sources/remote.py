"""Read an operator's hands and records over its JSON API (``tiplu audit URL``).

Pages through ``GET {url}/api/v1/hands`` (every hand, newest first).  A revealed hand
that is published (or whose operator does not say: an API without the ``published``
field) is audited: its ``/api/v1/hands/<id>/record`` is fetched.  Every other hand is
judged, as a ledger's are (:mod:`audit.auditor.sources.coverage`): cancelled, in progress, or -- past the
grace period since its last statement (``/api/v1/hands/<id>/statements``) -- stalled or
unpublished.  A page or record that cannot be fetched or parsed is an
:class:`~audit.auditor.sources.reader.Item` with an error, and the run goes on.  Hands that change while
the audit runs may be missed or seen twice (the list is newest first); re-run to catch
up, or use ``tiplu monitor`` to follow a log continuously.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Iterator
from urllib.parse import quote

import requests

from replay.errors import MalformedError

from .item import Item
from .operator_api import OperatorError
from .coverage import DEFAULT_GRACE, classify, utc_now

PAGE = 200
TIMEOUT = 30


def _why(exc: BaseException) -> str:
    """Why a request to the operator failed, in words (never a Python exception's text)."""
    if isinstance(exc, requests.Timeout):
        return f"the operator did not answer within {TIMEOUT} s"
    if isinstance(exc, requests.ConnectionError):
        return ("the operator could not be reached (connection refused)" if "refused" in str(exc)
                else "the operator could not be reached (no connection)")
    if isinstance(exc, requests.HTTPError) and exc.response is not None:
        return f"GET /api/v1/hands answered HTTP {exc.response.status_code}"
    if isinstance(exc, requests.RequestException):
        return "the request to the operator failed"
    if isinstance(exc, ValueError):
        return "GET /api/v1/hands did not answer JSON"
    return "GET /api/v1/hands did not answer a list of hands"


def _last_statement(http: requests.Session, url: str) -> tuple[str | None, str | None]:
    """The kind and time of a hand's last statement as the API lists them."""
    r = http.get(url, timeout=TIMEOUT)
    r.raise_for_status()
    statements = r.json()["statements"]
    if not statements:
        return None, None
    last = statements[-1].get("statement", {})
    return last.get("kind"), last.get("time")


def _status_item(http: requests.Session, base: str, hand: dict[str, Any], now: datetime,
                 grace: timedelta) -> Item:
    hand_id = str(hand.get("hand_id"))
    where = f"{base}/api/v1/hands/{quote(hand_id, safe='')}"
    state = hand.get("state")
    try:
        kind, time = (None, None) if state == "cancelled" else _last_statement(http, where + "/statements")
        status = classify(hand_id, state=str(state), last_kind=kind, last_time=time, now=now, grace=grace,
                          table_id=hand.get("table_id"), preset=hand.get("preset"))
    except (requests.RequestException, ValueError, KeyError, TypeError, AttributeError, MalformedError) as exc:
        return Item(where, error=MalformedError(f"cannot read the hand's statements: {type(exc).__name__}"))
    return Item(where, status=status)


def iter_remote_records(url: str, *, session: requests.Session | None = None, now: datetime | None = None,
                        grace: timedelta = DEFAULT_GRACE, scope: Any = None) -> Iterator[Item]:
    """``scope`` (:class:`audit.auditor.sources.scope.OperatorScope`): only the hands the site lists under
    that operator are audited."""
    base = url.rstrip("/")
    if base.endswith("/api/v1"):
        base = base[: -len("/api/v1")]
    http = session or requests.Session()
    now = now or utc_now()
    offset: int | None = 0
    while offset is not None:
        where = f"{base}/api/v1/hands?offset={offset}"
        try:
            resp = http.get(f"{base}/api/v1/hands", params={"limit": PAGE, "offset": offset}, timeout=TIMEOUT)
            resp.raise_for_status()
            page = resp.json()
            hands = page["hands"]
            offset = page.get("next_offset")
        except (requests.RequestException, ValueError, KeyError, TypeError) as exc:
            if offset == 0:  # nothing listed, nothing audited: not a record that failed, but no audit at all
                raise OperatorError(f"could not audit {url}: {_why(exc)}; nothing was audited",
                                    kind="UNREACHABLE" if isinstance(exc, requests.ConnectionError) else "BAD_RESPONSE"
                                    ) from None
            yield Item(where, error=MalformedError(f"cannot list hands: {_why(exc)}"))
            return
        for hand in hands:
            if not isinstance(hand, dict):
                yield Item(where, error=MalformedError("the hand list holds something other than a hand"))
                continue
            if scope is not None and not scope.keeps(str(hand.get("hand_id")), str(hand.get("operator"))):
                continue  # another operator's hand: its own key and log (audit.auditor.sources.scope)
            if hand.get("state") != "revealed" or hand.get("published") is False:
                yield _status_item(http, base, hand, now, grace)
                continue
            rec_url = f"{base}/api/v1/hands/{quote(str(hand.get('hand_id')), safe='')}/record"
            try:
                r = http.get(rec_url, timeout=TIMEOUT)
                r.raise_for_status()
                yield Item(rec_url, data=r.json())
            except (requests.RequestException, ValueError) as exc:
                yield Item(rec_url, error=MalformedError(f"cannot fetch the record: {type(exc).__name__}"))
