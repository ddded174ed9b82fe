"""An operator's JSON API, as a client (:class:`LogClient`): its log (``/api/v1/log``: the
checkpoint, entries -- through the log's C2SP tile entry bundles when served --, proofs) and its
hands (``/api/v1/hands``).  The URL audit, the auditor's state and the monitor read through it.
"""
from __future__ import annotations

from typing import Any, Mapping
from urllib.parse import quote

import requests

from replay.errors import MalformedError, TipluError


class OperatorError(TipluError):
    """The operator's API could not be reached (UNREACHABLE) or answered something unusable (BAD_RESPONSE)."""

    def __init__(self, message: str, *, kind: str = "BAD_RESPONSE") -> None:
        super().__init__(message)
        self.kind = kind


class LogClient:
    """A thin :mod:`requests` client of ``<base>/api/v1/log`` (and ``/api/v1/hands``)."""

    def __init__(self, base_url: str, *, session: requests.Session | None = None, timeout: float = 10.0,
                 operator: str | None = None) -> None:
        """``operator``: whose log's checkpoint to ask for (``?operator=``, :mod:`audit.tlog.logs`);
        without it, the site's own log."""
        self.base = base_url.rstrip("/")
        self.session = session or requests.Session()
        self.timeout = timeout
        self.operator = operator
        #: the operator whose log the server said its checkpoint is (its tiles' prefix), and
        #: whether the server has tiles (``False`` after a 404: the JSON API is read instead)
        self.served_operator: str | None = None
        self.tiles = True

    def _get(self, path: str, params: Mapping[str, Any] | None = None, *, allow_404: bool = False) -> Any:
        try:
            r = self.session.get(self.base + path, params=params, timeout=self.timeout)
        except requests.RequestException as exc:
            raise OperatorError(f"cannot reach {self.base}{path}: {exc}", kind="UNREACHABLE") from None
        if allow_404 and r.status_code == 404:
            return None
        if r.status_code != 200:
            try:
                msg = r.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                msg = " ".join(r.text.split())[:200]
            raise OperatorError(f"GET {path} answered {r.status_code}: {msg}")
        try:
            return r.json()
        except ValueError:
            raise OperatorError(f"GET {path} did not answer JSON") from None

    def _object(self, path: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        body = self._get(path, params)
        if not isinstance(body, dict):
            raise OperatorError(f"GET {path} did not answer a JSON object")
        return body

    def checkpoint(self) -> dict[str, Any]:
        from ...tlog.logs import OPERATOR_PARAM, check_id

        body = self._object("/api/v1/log/checkpoint", None if self.operator is None else {OPERATOR_PARAM: self.operator})
        try:  # whose log it is: where its tiles are (a name the server gives is checked, never trusted as a path)
            self.served_operator = check_id(body.get("operator"), what="operator") if self.operator is None else None
        except MalformedError:
            self.served_operator = None
        return body

    def _raw(self, path: str) -> tuple[int, bytes]:
        try:
            r = self.session.get(self.base + path, timeout=self.timeout)
        except requests.RequestException as exc:
            raise OperatorError(f"cannot reach {self.base}{path}: {exc}", kind="UNREACHABLE") from None
        return r.status_code, r.content

    def entries(self, start: int, end: int) -> list[dict[str, Any]]:
        """Entries from ``start`` (below ``end``, one page): through the log's C2SP tile entry
        bundles (:mod:`audit.tlog.tileclient`), else -- a server without tiles -- the JSON API."""
        operator = self.operator or self.served_operator
        if operator is not None and self.tiles:
            from ...tlog.tileclient import NoTiles, bundle_entries

            try:
                return bundle_entries(self._raw, operator, start, end)
            except NoTiles:
                self.tiles = False  # a server from before tiles: the JSON API from now on
            except MalformedError as exc:
                raise OperatorError(f"the log's entry bundle is malformed: {exc}") from None
        items = self._object("/api/v1/log/entries", {"start": start, "end": end}).get("entries")
        if not isinstance(items, list):
            raise OperatorError("GET /api/v1/log/entries did not answer a list of entries")
        return items

    def inclusion_proof(self, index: int, size: int) -> dict[str, Any]:
        return self._object("/api/v1/log/proof/inclusion", {"index": index, "size": size})

    def consistency_proof(self, first: int, second: int) -> list[bytes]:
        body = self._object("/api/v1/log/proof/consistency", {"first": first, "second": second})
        return proof_hashes(body.get("path"))

    def hand(self, hand_id: str) -> Any:
        """The hand's public view, or ``None`` when the operator has no such route or hand."""
        return self._get(f"/api/v1/hands/{quote(hand_id, safe='')}", allow_404=True)

    def hand_record(self, hand_id: str) -> Any:
        """The hand's record, or ``None`` when the operator has no such route or hand."""
        return self._get(f"/api/v1/hands/{quote(hand_id, safe='')}/record", allow_404=True)


def proof_hashes(values: Any) -> list[bytes]:
    if not isinstance(values, list):
        raise OperatorError("a proof path must be a list of hex hashes")
    try:
        return [bytes.fromhex(v) for v in values]
    except (TypeError, ValueError):
        raise OperatorError("a proof path must be a list of hex hashes") from None
