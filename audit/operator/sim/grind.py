"""The re-signed grind: the attack a log-bound audit exists to catch, performed for real.

A dishonest operator drives a hand honestly up to the deal (its commitment ``c`` is logged
before any seat seed), then -- having seen every player seed -- tries fresh server seeds
``s'`` until its shill wins, and re-signs a whole new statement set for the hand under its
own real key: ``commitment`` ``H(s')``, the seat receipts, the deal, the record and the
reveal (the players' own seat reveals are kept: they do not name the server seed).  It
finishes and reveals the live hand honestly and publishes the re-signed record instead.

Every signature verifies under the operator's real key; only the log shows the set was
made after the fact.  :func:`resigned_grind` returns the forged record in one of three
variants (``evidence``):

* ``"stale"`` -- it keeps the honest record's log proofs: the forged statements are not
  the leaves they claim (``not_in_log``, offline too);
* ``"private"`` -- proofs from a private tree signed with the real key (the forger's own
  log): self-consistent offline; the operator's real log says otherwise
  (``log_inconsistent``, ``not_in_log``);
* ``"relogged"`` -- the forged statements appended to the real log after the honest ones
  (through the ledger's own statement table): the real log then holds two sets
  (``log_duplicate``), and the kept seat reveals precede the forged commitment
  (``log_order``).
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from replay.canonical import canonical_hash, canonical_json
from replay.fairness import commit_server_seed, hand_randomness
from replay.records import HandRecord, parse_record
from replay.settlement import settle
from replay.stream import Stream

from ..ledger.store import atomic
from ..publish import published_record
from .play import PlayedHand, play_hand
from .private_log import forge_log
from .resign import bind_record

if TYPE_CHECKING:
    from audit.operator.ledger import Ledger


def _winner(record: dict[str, Any], server_seed: bytes, rng_label: str) -> tuple[PlayedHand, HandRecord]:
    rec = parse_record(record)
    randomness = hand_randomness(server_seed, rec.hand_id, rec.ruleset, list(rec.fairness.player_seeds))
    played = play_hand(randomness, dealer=rec.table.dealer, carry=dict(rec.table.carry),
                       rng=Stream(bytes(32), bytes(32), rng_label))
    return played, rec


def resigned_grind(ledger: Ledger, hand_id: str, *, shill: int = 0, evidence: str = "stale",
                   tries: int = 400) -> dict[str, Any]:
    """The forged published record of finished-and-revealed ``hand_id`` (see the module doc)."""
    honest = published_record(ledger, hand_id)
    key = ledger.signing_key(ledger.get_hand(hand_id).operator)
    forged = grind_record(honest, key, shill=shill, tries=tries)
    if evidence == "private":
        forge_log(forged, key)
    elif evidence == "relogged":
        _relog(ledger, key, forged, honest)
    elif evidence != "stale":
        raise ValueError(f"unknown evidence variant {evidence!r}")
    return forged


def grind_record(honest: dict[str, Any], key: Any, *, shill: int = 0, tries: int = 400,
                 strict: bool = True) -> dict[str, Any]:
    """The re-signed grind of a published record, keeping its (now stale) log proofs.  With
    ``strict=False`` the last seed tried is used when none lets ``shill`` win."""
    hand_id = honest["hand_id"]
    for attempt in range(tries):
        s = canonical_hash({"grind": hand_id, "try": attempt})
        seed = bytes.fromhex(s)
        played, rec = _winner(honest, seed, f"grind:{hand_id}:{attempt}")
        if played.outcome.winner == shill:
            break
    else:
        if strict:
            raise RuntimeError(f"no server seed in {tries} tries lets seat {shill} win")
    forged = copy.deepcopy(honest)
    f = forged["fairness"]
    commitment = commit_server_seed(seed)
    f["server_commitment"], f["server_seed"] = commitment, seed.hex()
    forged["moves"] = list(played.moves)
    settlement = settle(played.outcome.net_points, point_value=rec.table.point_value,
                        commission_pct=rec.table.commission_pct, pot_delta_points=played.outcome.pot_delta_points)
    forged["outcome"] = {**played.outcome.to_json(), "payouts": settlement.to_json()}
    statements = []
    for signed in f["statements"]:
        st = dict(signed["statement"])
        kind = st["kind"]
        if kind in ("commitment", "seat-receipt", "deal", "reveal"):
            st["server_seed_commitment"] = commitment
        if kind == "reveal":
            st["server_seed"] = seed.hex()
        if kind in ("hand", "seat-reveal"):
            statements.append(signed)  # nothing in them names the server seed: kept as logged
            continue
        if kind == "record":
            continue  # signed last, over the forged core
        statements.append(key.sign(st))
    rec_st = next(dict(s["statement"]) for s in f["statements"] if s["statement"]["kind"] == "record")
    bind_record(rec_st, forged)  # the record hash and (format 3) the head of the forged moves
    at = [i for i, s in enumerate(statements) if s["statement"]["kind"] == "reveal"][0]
    statements.insert(at, key.sign(rec_st))
    f["statements"] = statements
    return forged


def _relog(ledger: Ledger, key: Any, forged: dict[str, Any], honest: dict[str, Any]) -> None:
    """Append the forged statements the honest set does not hold to the real log (as the
    operator's own code would, through the ledger's statement table), and give the record
    proofs at a fresh checkpoint signed with the real key."""
    from ..publish import covering_checkpoint
    from ...tlog.proof import format_tlog_proof
    from ...tlog.store import TransparencyLog, leaf_entry

    old = {leaf_entry(s) for s in honest["fairness"]["statements"]}
    log = TransparencyLog(ledger.db, migrate=False)
    where: dict[bytes, int] = {}
    for i in range(log.size()):
        where.setdefault(log.entry(i), i)
    with atomic(ledger.db) as db:
        for signed in forged["fairness"]["statements"]:
            entry = leaf_entry(signed)
            if entry in old:
                continue
            st = signed["statement"]
            cur = db.execute("INSERT INTO statements (hand_id, kind, statement, key, sig, created_at) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             [st["hand_id"], st["kind"], canonical_json(st).decode(), signed["key"], signed["sig"],
                              st.get("time", "")])
            index = log.append(entry)
            assert cur.lastrowid is not None and index == cur.lastrowid - 1
            where[entry] = index
    operator = ledger.get_hand(forged["hand_id"]).operator
    cp = covering_checkpoint(ledger, log.size(), operator=operator)
    forged["fairness"]["log_proofs"] = [
        format_tlog_proof(where[leaf_entry(s)], log.inclusion_proof(where[leaf_entry(s)], cp.size), cp.text)
        for s in forged["fairness"]["statements"]]

