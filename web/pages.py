"""The public pages: home, a table, a hand (fairness panel, replay viewer, scores); every answer's
security headers.  The verify page's files are :mod:`web.static_files`.

Server-rendered Jinja (``web/templates``) with one stylesheet (``web/static/site.css``);
the replay viewer (``web/static/replay/``) and the in-browser check
(``web/static/hand-check.mjs``) are plain ES modules reading JSON embedded in the page.
Cards are shown only for revealed hands: before the reveal nobody outside the operator may
know them.
"""
from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Blueprint, Response, current_app, g, make_response, render_template, request
from flask.typing import ResponseReturnValue

from audit.errors import NotFoundError
from audit.signing import key_id, verify_statement
from replay.canonical import canonical_json
from replay.errors import TipluError
from replay.records import parse_record
from replay.settlement import format_amount

from .static_files import STATIC
from .witness_view import configured_vkeys, record_cosignatures
from . import data, game_templates
from .db import get_ledger

if TYPE_CHECKING:
    from audit.operator.ledger import HandView, Ledger

bp = Blueprint("pages", __name__)

LATEST = 20
CARD_RE = re.compile(r"^(?:[A2-9TJQK][SHDC]|JK|MC)$")
#: keys of an engine's view that name special cards (highlighted wherever they appear)
HIGHLIGHT_KEYS = ("tiplu", "wild", "wild_rank", "highlight", "maal", "joker", "jokers", "indicator")


def is_card(v: Any) -> bool:
    return isinstance(v, str) and bool(CARD_RE.match(v))


def is_cards(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(is_card(c) for c in v)


def is_groups(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(is_cards(g) for g in v)


@bp.app_template_global()
def card_kind(text: str) -> str:
    if text == "JK":
        return "joker"
    if text == "MC":
        return "master"
    return "red" if text[-1] in "HD" else "black"


@bp.app_template_global()
def highlight_class(text: str) -> str:
    """``"hl"`` for a card the hand page highlights (its tiplu, wild rank or indicator)."""
    marked: tuple[frozenset[str], frozenset[str]] = g.get("highlight") or (frozenset(), frozenset())
    return "hl" if text in marked[0] or (text[:1] in marked[1] and text not in ("JK", "MC")) else ""


def _highlights(steps: dict[str, Any] | None) -> tuple[frozenset[str], frozenset[str]]:
    """Cards and ranks named by the last replay step's highlight keys."""
    if not steps or not steps.get("steps"):
        return frozenset(), frozenset()
    view = steps["steps"][-1]["view"]
    cards, ranks = set(), set()
    for key in HIGHLIGHT_KEYS:
        values = view.get(key)
        for v in values if isinstance(values, list) else [values]:
            if is_card(v):
                cards.add(v)
            elif isinstance(v, str) and len(v) == 1 and v in "A23456789TJQK":
                ranks.add(v)
    return frozenset(cards), frozenset(ranks)


@bp.app_template_global()
def short(text: str | None, n: int = 12) -> str:
    if not text:
        return "–"
    return text if len(text) <= 2 * n + 1 else f"{text[:n]}…{text[-6:]}"


@bp.app_template_filter("label")
def label(key: str) -> str:
    return str(key).replace("_", " ")


@bp.record_once
def _globals(state: Any) -> None:
    """Helpers the templates (and macros imported without context) call."""
    state.app.jinja_env.globals.update(is_card=is_card, is_cards=is_cards, is_groups=is_groups, key_id=key_id)
    state.app.jinja_env.loader = game_templates.with_games(state.app.jinja_env.loader)


def _checkpoint(ledger: Ledger) -> dict[str, Any]:
    """The transparency log's latest checkpoint (``size`` None while there is none)."""
    from audit.tlog.checkpoint import parse_checkpoint

    from .witness_view import cosignatures

    text = ledger.latest_checkpoint()
    if text is None:
        return {"size": None}
    cp = parse_checkpoint(text, legacy=True)  # the ledger's latest, maybe signed before format 3
    log = ledger.transparency_log()
    return {"size": cp.size, "root": cp.root.hex(), "time": log.checkpoint_time(text), "origin": cp.origin,
            "text": cp.text, "witnesses": cosignatures(cp.text, log=log)}


@bp.get("/")
def home() -> ResponseReturnValue:
    ledger = get_ledger()
    operators = ledger.operators()
    views, total = ledger.hand_page(limit=LATEST)
    latest = []
    for view in views:
        verdict = None
        if view.state.value in ("finished", "revealed"):
            record = data.record_of(ledger, view.id)
            verdict = data.verdict_for(ledger, view, record).to_json() if record is not None else None
        latest.append({"view": view, "verdict": verdict})
    tables = ledger.tables()
    return render_template("home.html", operators=operators, counts=ledger.hand_counts(), latest=latest,
                           tables=tables, total=total, checkpoint=_checkpoint(ledger))


@bp.get("/tables/<table_id>")
def table(table_id: str) -> ResponseReturnValue:
    from replay.registry import game_for

    money = data.table_money(get_ledger(), table_id)
    # a game that carries nothing between hands (Marriage, Rummy) gets no Pot card and no pot columns
    carries_pot = bool(game_for(money["table"]["ruleset"]["game"]).carry)
    return render_template("table.html", m=money, t=money["table"], carries_pot=carries_pot)


def _settlement_rows(record: dict[str, Any], verdict: Any) -> list[dict[str, Any]]:
    claimed = (record.get("outcome") or {}).get("payouts") or {}
    replay = verdict.replay
    ours = replay.settlement if replay is not None else None
    outcome = replay.outcome if replay is not None else None
    rows = []
    players = [s["player"] for s in record["table"]["seats"]]
    for i, p in enumerate(players):
        row = {"seat": i, "player": p,
               "claimed_net": (claimed.get("nets") or [None] * len(players))[i] if i < len(claimed.get("nets") or []) else None,
               "net": None, "gross": None, "points": None, "net_points": None}
        if ours is not None and outcome is not None:  # settled: both
            row["net"] = format_amount(ours.nets[i])
            row["gross"] = format_amount(ours.gross[i])
            row["points"] = outcome.points[i]
            row["net_points"] = outcome.net_points[i]
        rows.append(row)
    return rows


def _parses(record: Any) -> bool:
    """Whether a published record is well-formed enough to draw (the verdict says why not)."""
    try:
        parse_record(record)
    except TipluError:
        return False
    return True


def _fairness(view: HandView, record: dict[str, Any] | None, ledger: Ledger, public_key: str) -> dict[str, Any]:
    """What the fairness panel shows: the record's own claims once there is a record (that is
    what the audit judges), the ledger's public view before.  Each statement's signature is
    checked against the operator's key as registered in the ledger."""
    if record is not None:
        f = record.get("fairness") or {}
        seats = [{"seat": i, "player": s.get("player"),
                  "commitment": (f.get("seat_commitments") or [None] * (i + 1))[i] if i < len(f.get("seat_commitments") or []) else None,
                  "seed": (f.get("player_seeds") or [])[i] if i < len(f.get("player_seeds") or []) else None}
                 for i, s in enumerate((record.get("table") or {}).get("seats") or [])]
        signed = list(f.get("statements") or [])
        fair = {"ruleset_hash": f.get("ruleset_hash"), "server_commitment": f.get("server_commitment"),
                "server_seed": f.get("server_seed"), "seats": seats}
    else:
        signed = [s.signed for s in ledger.statements(view.id)]
        fair = {"ruleset_hash": view.ruleset_hash, "server_commitment": view.server_seed_commitment,
                "server_seed": view.server_seed, "seats": [s.to_json() for s in view.seats]}
    statements = []
    for i, st in enumerate(signed):
        try:
            verify_statement(st, public_key)
            good = True
        except TipluError:
            good = False
        given = st.get("statement") if isinstance(st, dict) else None
        body = given if isinstance(given, dict) else {}
        statements.append({"n": i + 1, "kind": body.get("kind"), "statement": body, "key": st.get("key", ""),
                           "sig": st.get("sig", ""), "ok": good})
    fair["statements"] = statements
    return fair


def _log_check(hand_id: str, record: dict[str, Any], public_key: str) -> dict[str, Any] | None:
    """What the in-browser log check needs (``web/static/hand-log-check.mjs``): the published
    record's statements, the operator key the page pins and where to fetch the proofs --
    or ``None`` when this server signs no checkpoints (the page then says the check is off)."""
    if current_app.config.get("TIPLU_CHECKPOINT_SIGNER") is None:
        return None
    return {"proofs_url": f"/api/v1/hands/{hand_id}/log-proofs", "public_key": public_key,
            "statements": list((record.get("fairness") or {}).get("statements") or [])}


def _evidence(record: dict[str, Any], public_key: str) -> dict[str, Any]:
    """What the in-browser check of the record's own log evidence needs
    (``web/static/verifier/tlogproof.mjs``, no further request): the record's format, its
    statements and tlog-proofs, the key it claims, and the operator key the ledger registered
    (the key the page checks against)."""
    f = record.get("fairness") or {}
    # a tiplu.hand/3 record's moves are bound by its logged record statement (the move chain,
    # verifier/movechain.mjs): the check needs the moves, the hand id and the server commitment
    return {"format": record.get("format"), "statements": f.get("statements"), "log_proofs": f.get("log_proofs"),
            "claimed_key": (record.get("table") or {}).get("public_key"), "public_key": public_key,
            "hand_id": record.get("hand_id"), "moves": record.get("moves"), "server_commitment": f.get("server_commitment")}


#: rendered pages of revealed hands kept per process (see :func:`hand`)
PAGE_CACHE_SIZE = 1024
#: what a revealed hand's page tells caches: fresh for a day, then revalidate by ETag
REVEALED_CACHE_CONTROL = "public, max-age=86400"
_page_lock = threading.Lock()


@cache
def _templates_hash() -> str:
    """A digest of the templates and static files a page is built from, so a new release
    never matches an ETag (or a cached page) of the old one."""
    h = hashlib.sha256()
    for root in (Path(__file__).parent / "templates", STATIC):
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _page_key(view: HandView, record_text: str, ledger: Ledger, public_key: str) -> str:
    """Everything a revealed hand's page is made of, hashed: the published record (the
    SHA-256 of its stored text), the ledger's view of the hand and its table, the operator
    key the page checks against, whether this server signs checkpoints, and the templates."""
    record = hashlib.sha256(record_text.encode("utf-8")).hexdigest()
    parts = {"record": record, "view": view.to_json(), "table": ledger.table(view.table_id).to_json(),
             "public_key": public_key, "log": current_app.config.get("TIPLU_CHECKPOINT_SIGNER") is not None,
             "witnesses": configured_vkeys(), "templates": _templates_hash()}
    return hashlib.sha256(canonical_json(parts)).hexdigest()


@bp.get("/hands/<hand_id>")
def hand(hand_id: str) -> ResponseReturnValue:
    """A hand's page.  A revealed hand never changes: its page is rendered once per process
    and kept under :func:`_page_key` (a hash of everything the page shows), sent with that
    key as its ETag (a matching ``If-None-Match`` gets 304) and ``Cache-Control: public``.
    Hands before the reveal are rendered on every request and never cached anywhere."""
    ledger = get_ledger()
    view = ledger.get_hand(hand_id)
    if view.state.value != "revealed":
        resp = make_response(_render_hand(ledger, view))
        resp.headers["Cache-Control"] = "no-store"
        return resp
    try:
        text = ledger.get_published_text(view.id)
    except NotFoundError:     # revealed but not published yet: assembled from the ledger each time
        return _render_hand(ledger, view)
    key = _page_key(view, text, ledger, ledger.public_key(view.operator))
    headers = {"ETag": f'"{key}"', "Cache-Control": REVEALED_CACHE_CONTROL}
    if request.if_none_match.contains(key):
        return Response(status=304, headers=headers)
    pages = current_app.extensions.setdefault("tiplu_hand_pages", OrderedDict())
    with _page_lock:
        html = pages.get(key)
        if html is not None:
            pages.move_to_end(key)
    if html is None:
        html = _render_hand(ledger, view, json.loads(text))
        with _page_lock:
            pages[key] = html
            while len(pages) > PAGE_CACHE_SIZE:
                pages.popitem(last=False)
    return Response(html, mimetype="text/html", headers=headers)


def _audit_of(verdict: Any) -> dict[str, Any] | None:
    """This server's verdict, as the in-browser check weighs its own result against it (it
    never shows a success headline on a record the audit rejects)."""
    return None if verdict is None else {"ok": verdict.ok, "reason": verdict.to_json()["reason"]}


def _render_hand(ledger: Ledger, view: HandView, record: dict[str, Any] | None = None) -> str:
    if record is None:
        record = data.record_of(ledger, view.id) if view.state.value in ("finished", "revealed") else None
    verdict = data.verdict_for(ledger, view, record) if record is not None else None
    public_key = ledger.public_key(view.operator)
    shown = record if record is not None and _parses(record) else None  # well-formed enough to draw
    readable = shown is not None
    fair = _fairness(view, shown, ledger, public_key)
    ctx: dict[str, Any] = {"view": view, "record": record, "verdict": verdict,
                           "vj": verdict.to_json() if verdict is not None else None, "public_key": public_key,
                           "fair": fair, "table": ledger.table(view.table_id),
                           "steps": None, "deal": None, "rows": None, "check": None, "readable": readable,
                           "witnesses": record_cosignatures(shown) if shown is not None else None}
    if shown is not None and verdict is not None:
        ctx["rows"] = _settlement_rows(shown, verdict)
        ctx["claimed_commission"] = ((shown.get("outcome") or {}).get("payouts") or {}).get("commission")
        replay = verdict.replay
        ctx["commission"] = format_amount(replay.settlement.commission) if replay and replay.settlement else None
        ctx["pot_delta"] = replay.outcome.pot_delta_points if replay and replay.outcome else None
        # replayed things from the replay; the operator's claims only as claims (the template labels them)
        raw_claimed = shown.get("outcome")
        claimed = raw_claimed if isinstance(raw_claimed, dict) else {}
        if replay and replay.outcome:
            ctx["breakdown"], ctx["breakdown_source"] = replay.outcome.to_json()["breakdown"], "replay"
        else:
            ctx["breakdown"], ctx["breakdown_source"] = claimed.get("breakdown"), "claimed"
        ctx["winner"] = replay.outcome.winner if replay and replay.outcome else None
        ctx["claimed_winner"] = claimed.get("winner")
        ctx["worked"] = replay.worked if replay else None
        ruleset = replay.record.ruleset if replay and replay.record else None
        # the game's own words for its point terms (Game.worked_template, web/game_templates.py)
        ctx["ruleset"] = ruleset
        ctx["worked_template"] = game_templates.worked_template(ruleset.game) if ruleset is not None else None
        ctx["carry"] = (shown.get("table") or {}).get("carry") or {}
    if view.state.value == "revealed" and shown is not None:
        try:
            ctx["steps"] = data.replay_steps(shown)
            ctx["deal"] = data.first_deal(shown)
        except (TipluError, TypeError, ValueError, KeyError):  # too broken to replay: the verdict says why
            ctx["steps"] = ctx["deal"] = None
        f = shown.get("fairness", {})
        if ctx["deal"] is not None:
            ctx["check"] = {
                "hand_id": shown.get("hand_id"), "ruleset": shown.get("ruleset"),
                "ruleset_hash": f.get("ruleset_hash"), "dealer": shown["table"].get("dealer"),
                "server_seed": f.get("server_seed"), "player_seeds": f.get("player_seeds"),
                "server_commitment": f.get("server_commitment"),
                "player_commitments": f.get("seat_commitments"),
                "hands": ctx["deal"]["hands"], "stock": ctx["deal"]["stock"],
                **{k: ctx["deal"][k] for k in ("turned_up", "indicator") if ctx["deal"][k] is not None},
                "log": _log_check(view.id, shown, public_key),
                "evidence": _evidence(shown, public_key),
                "audit": _audit_of(verdict),
                # the published record itself (public once revealed): the browser replays its
                # moves and recomputes its outcome and payouts (verifier/recordchecks.mjs)
                "record": shown,
            }
    elif view.state.value == "finished" and shown is not None:
        # no server seed yet, so no deal to check -- but the record's statements can be
        # checked against the log already
        ctx["check"] = {"log": _log_check(view.id, shown, public_key), "evidence": _evidence(shown, public_key),
                        "audit": _audit_of(verdict)}
    g.highlight = _highlights(ctx["steps"])
    return render_template("hand.html", **ctx)


#: Pages load only this site's own scripts and styles; the JSON embedded for the viewer is
#: ``type="application/json"`` (data, never run).  The offline verifier is one self-contained
#: file with inline code, made to be downloaded: it is exempt.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


@bp.after_app_request
def _security_headers(resp: Response) -> Response:
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "no-referrer")
    if resp.mimetype == "text/html" and not resp.headers.get("Content-Security-Policy"):
        if not request.path.endswith("tiplu-verifier.html"):
            resp.headers["Content-Security-Policy"] = CSP
    return resp
