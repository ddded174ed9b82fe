"""Read an operator's revealed records over its JSON API (``tiplu audit URL``).

Pages through ``GET {url}/api/v1/hands?state=revealed`` and fetches each hand's
``/api/v1/hands/<id>/record``.  A page or record that cannot be fetched or parsed is an
:class:`~audit.archive.Item` with an error, and the run goes on.  Hands revealed while the
audit runs may be missed or seen twice (the list is newest first); re-run to catch up,
or use ``tiplu monitor`` to follow a log continuously.
"""
from __future__ import annotations

from typing import Iterator
from urllib.parse import quote

import requests

from replay.errors import MalformedError

from .archive import Item

PAGE = 200
TIMEOUT = 30


def iter_remote_records(url: str, *, session: requests.Session | None = None) -> Iterator[Item]:
    base = url.rstrip("/")
    if base.endswith("/api/v1"):
        base = base[: -len("/api/v1")]
    http = session or requests.Session()
    offset: int | None = 0
    while offset is not None:
        where = f"{base}/api/v1/hands?state=revealed&offset={offset}"
        try:
            resp = http.get(f"{base}/api/v1/hands", params={"state": "revealed", "limit": PAGE, "offset": offset},
                            timeout=TIMEOUT)
            resp.raise_for_status()
            page = resp.json()
            hands = page["hands"]
            offset = page.get("next_offset")
        except (requests.RequestException, ValueError, KeyError, TypeError) as exc:
            yield Item(where, error=MalformedError(f"cannot list hands: {type(exc).__name__}: {exc}"))
            return
        for hand in hands:
            hand_id = hand.get("hand_id") if isinstance(hand, dict) else None
            rec_url = f"{base}/api/v1/hands/{quote(str(hand_id), safe='')}/record"
            try:
                r = http.get(rec_url, timeout=TIMEOUT)
                r.raise_for_status()
                yield Item(rec_url, data=r.json())
            except (requests.RequestException, ValueError) as exc:
                yield Item(rec_url, error=MalformedError(f"cannot fetch the record: {type(exc).__name__}"))
