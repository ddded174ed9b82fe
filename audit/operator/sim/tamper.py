"""The dishonest operator: one realistic fault per chosen hand, of a known class.

Each class is a function ``(record, ctx) -> record`` returning a tampered copy of a
published record.  Some tamper with what the operator claims before signing (the record
is then signed as usual: only the replay can catch it); others with the statements or
the reveal.  :data:`EXPECTED` says which :class:`~replay.faults.Reason` the audit must
report first for each class -- the tests and the demo hold the audit to it.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable

from replay.faults import Reason
from replay.settlement import format_amount
from replay.stream import Stream

from ...signing import SigningKey
from .resign import bind_record


@dataclass(frozen=True)
class TamperContext:
    key: SigningKey  # the operator's own key: a dishonest operator re-signs what it changes
    rng: Stream


def _resign_record(rec: dict[str, Any], ctx: TamperContext) -> dict[str, Any]:
    """Re-sign the record statement over the (tampered) record core, as the operator would."""
    for i, s in enumerate(rec["fairness"].get("statements", [])):
        if s["statement"].get("kind") == "record":
            rec["fairness"]["statements"][i] = ctx.key.sign(bind_record(dict(s["statement"]), rec))
    return rec


def _resign(rec: dict[str, Any], ctx: TamperContext, index: int, **changes: Any) -> None:
    st = dict(rec["fairness"]["statements"][index]["statement"])
    st.update(changes)
    rec["fairness"]["statements"][index] = ctx.key.sign(st)


def _statement_index(rec: dict[str, Any], kind: str, *, last: bool = False) -> int:
    idx = [i for i, s in enumerate(rec["fairness"]["statements"]) if s["statement"].get("kind") == kind]
    return idx[-1] if last else idx[0]


def wrong_seed(rec, ctx):
    """The operator reveals (and signs) a server seed other than the one it committed to."""
    other = bytes(b ^ 0x5A for b in bytes.fromhex(rec["fairness"]["server_seed"])).hex()
    rec["fairness"]["server_seed"] = other
    _resign(rec, ctx, _statement_index(rec, "reveal"), server_seed=other)
    return rec


def early_reveal(rec, ctx):
    """A seat's seed is revealed before every seat has committed."""
    st = rec["fairness"]["statements"]
    first_reveal = _statement_index(rec, "seat-reveal")
    last_commit = _statement_index(rec, "seat-receipt", last=True)
    moved = st.pop(first_reveal)
    st.insert(last_commit, moved)
    # re-date the moved reveal so the times agree with the new order (a careful forger)
    before = st[last_commit - 1]["statement"]["time"] if last_commit else moved["statement"]["time"]
    _resign(rec, ctx, last_commit, time=before)
    return rec


def swapped_seed(rec, ctx):
    """Two seats' seeds are swapped in the published record."""
    seeds = rec["fairness"]["player_seeds"]
    seeds[0], seeds[1] = seeds[1], seeds[0]
    return _resign_record(rec, ctx)


def edited_move(rec, ctx):
    """One move's content is edited: another card discarded or shown, or another seat."""
    from replay.cards import ALL_CARDS, parse_card

    moves = rec["moves"]
    with_card = [i for i, m in enumerate(moves) if isinstance(m.get("card"), str)]
    with_sets = [i for i, m in enumerate(moves) if isinstance(m.get("sets") or m.get("groups"), list)]
    if with_card:
        i = with_card[ctx.rng.randbelow(len(with_card))]
        old = parse_card(moves[i]["card"])
        moves[i] = {**moves[i], "card": str(ALL_CARDS[(old.code + 1) % 52])}
    elif with_sets:
        i = with_sets[ctx.rng.randbelow(len(with_sets))]
        m = copy.deepcopy(moves[i])
        group = (m.get("sets") or m.get("groups"))[0]
        old = parse_card(group[0])
        group[0] = str(ALL_CARDS[(old.code + 1) % 52])
        moves[i] = m
    else:
        i = ctx.rng.randbelow(len(moves))
        moves[i] = {**moves[i], "seat": (moves[i]["seat"] + 1) % len(rec["table"]["seats"])}
    return _resign_record(rec, ctx)


def dropped_move(rec, ctx):
    """One move is silently left out."""
    i = ctx.rng.randbelow(len(rec["moves"]))
    del rec["moves"][i]
    return _resign_record(rec, ctx)


def reordered_moves(rec, ctx):
    """Two neighbouring moves of different seats are swapped."""
    moves = rec["moves"]
    pairs = [i for i in range(len(moves) - 1) if moves[i] != moves[i + 1]]
    i = pairs[ctx.rng.randbelow(len(pairs))]
    moves[i], moves[i + 1] = moves[i + 1], moves[i]
    return _resign_record(rec, ctx)


def deck_mismatch(rec, ctx):
    """A draw from the stock / closed pile lists a card the deck does not put there."""
    moves = rec["moves"]
    draws = [i for i, m in enumerate(moves) if m.get("source") in ("stock", "closed")]
    if not draws:  # Kitti has no draws: the dealt hands are what the deck decides
        return edited_move(rec, ctx)
    i = draws[ctx.rng.randbelow(len(draws))]
    deck = _replayed_draw(rec, i)
    moves[i] = {**moves[i], "card": "AS" if deck != "AS" else "KD"}
    return _resign_record(rec, ctx)


def _replayed_draw(rec, index):
    """The card the deck gives the draw at move ``index`` (the top of the stock / closed
    pile in the state just before that move, found by replaying the honest record), as the
    game's view shows it (both piles top first)."""
    from replay.records import parse_record
    from replay.registry import game_for
    from replay.replayer import replay_record

    before = {}
    parsed = parse_record(rec)
    view = game_for(parsed.ruleset.game).view

    def visit(i, move, state):
        if i == index - 1:
            table = view(state).table
            pile = table.get("stock") or table.get("closed_pile")
            before["card"] = pile[0] if pile else None
    replay_record(parsed, strict=True, visit=visit)
    return before.get("card")


def illegal_show(rec, ctx):
    """A show / declaration / arrangement the rules forbid: two groups swap a card, or a
    Kitti arrangement is laid weakest first."""
    moves = rec["moves"]
    shows = [i for i, m in enumerate(moves) if isinstance(m.get("sets") or m.get("groups"), list)
             and len(m.get("sets") or m.get("groups")) >= 2]
    if not shows:
        return edited_move(rec, ctx)
    i = shows[ctx.rng.randbelow(len(shows))]
    m = copy.deepcopy(moves[i])
    key = "sets" if "sets" in m else "groups"
    groups = m[key]
    if m.get("type") == "arrange":
        groups.reverse()
    else:
        a, b = groups[0], groups[-1]
        a[0], b[-1] = b[-1], a[0]
    moves[i] = m
    return _resign_record(rec, ctx)


def changed_ruleset(rec, ctx):
    """A setting of the ruleset is changed after the commitment."""
    settings = rec["ruleset"]["settings"]
    for name in ("turn_cap", "middle_drop", "salami_stakes", "stake"):
        if name in settings:
            settings[name] += 1
            break
    return _resign_record(rec, ctx)


def forged_signature(rec, ctx):
    """A statement's signature is not the operator's (one byte changed)."""
    s = rec["fairness"]["statements"][_statement_index(rec, "deal")]
    sig = bytearray(bytes.fromhex(s["sig"]))
    sig[7] ^= 0x01
    s["sig"] = sig.hex()
    return rec


def resigned_grind(rec, ctx):
    """The re-signed grind (audit/operator/sim/grind.py): fresh server seeds tried until seat 0 wins
    (or 24 tries), and every statement naming the seed re-signed with the operator's key."""
    from .grind import grind_record

    return grind_record(rec, ctx.key, shill=0, tries=24, strict=False)


def other_moves(rec, ctx):
    """The published moves are another game on the same deal (the bots choosing otherwise:
    another winner, other payouts), with the record statement re-signed over them -- moves
    hash and all.  The seats' move receipts prove it forged; an audit of the record sees a
    record statement that is not the logged leaf (the operator logged the moves as played)."""
    from replay.settlement import settle

    from .grind import _winner

    seed = bytes.fromhex(rec["fairness"]["server_seed"])
    for attempt in range(8):
        played, parsed = _winner(rec, seed, f"other-moves:{rec['hand_id']}:{attempt}")
        if [dict(m) for m in played.moves] != [{k: v for k, v in m.items() if k not in ("time", "auto")}
                                               for m in rec["moves"]]:
            break
    times = [m.get("time") for m in rec["moves"]]
    last = times[-1] if times else None
    rec["moves"] = [{**m, "time": times[i] if i < len(times) else last} if last else dict(m)
                    for i, m in enumerate(played.moves)]
    settlement = settle(played.outcome.net_points, point_value=parsed.table.point_value,
                        commission_pct=parsed.table.commission_pct, pot_delta_points=played.outcome.pot_delta_points)
    rec["outcome"] = {**played.outcome.to_json(), "payouts": settlement.to_json()}
    return _resign_record(rec, ctx)


def inflated_payout(rec, ctx):
    """The winner is paid 1.00 HT more, taken from another seat (still zero-sum)."""
    nets = rec["outcome"]["payouts"]["nets"]
    w = rec["outcome"].get("winner")
    w = w if isinstance(w, int) else max(range(len(nets)), key=lambda i: Decimal(nets[i]))
    other = (w + 1) % len(nets)
    nets[w] = format_amount(Decimal(nets[w]) + 1)
    nets[other] = format_amount(Decimal(nets[other]) - 1)
    return _resign_record(rec, ctx)


def commission_off(rec, ctx):
    """The house takes 0.01 HT more commission than D-2 gives it."""
    pay = rec["outcome"]["payouts"]
    nets = pay["nets"]
    w = max(range(len(nets)), key=lambda i: Decimal(nets[i]))
    nets[w] = format_amount(Decimal(nets[w]) - Decimal("0.01"))
    pay["commission"] = format_amount(Decimal(pay["commission"]) + Decimal("0.01"))
    return _resign_record(rec, ctx)


TAMPERS: dict[str, Callable[[dict, TamperContext], dict]] = {
    "wrong_seed": wrong_seed,
    "early_reveal": early_reveal,
    "swapped_seed": swapped_seed,
    "edited_move": edited_move,
    "dropped_move": dropped_move,
    "reordered_moves": reordered_moves,
    "deck_mismatch": deck_mismatch,
    "illegal_show": illegal_show,
    "changed_ruleset": changed_ruleset,
    "forged_signature": forged_signature,
    "inflated_payout": inflated_payout,
    "commission_off": commission_off,
    "resigned_grind": resigned_grind,
    "other_moves": other_moves,
}

# The reason each class must produce (first fault).  Move edits may surface as an illegal
# move, a deck mismatch, an incomplete hand or a different outcome, depending on the move.
EXPECTED: dict[str, set[Reason]] = {
    "wrong_seed": {Reason.SERVER_SEED_MISMATCH},
    "early_reveal": {Reason.EVENT_ORDER},
    "swapped_seed": {Reason.SEAT_SEED_MISMATCH},
    "edited_move": {Reason.ILLEGAL_MOVE, Reason.DECK_MISMATCH, Reason.OUTCOME_MISMATCH, Reason.INCOMPLETE, Reason.MALFORMED},
    "dropped_move": {Reason.ILLEGAL_MOVE, Reason.DECK_MISMATCH, Reason.INCOMPLETE, Reason.OUTCOME_MISMATCH},
    "reordered_moves": {Reason.ILLEGAL_MOVE, Reason.DECK_MISMATCH, Reason.OUTCOME_MISMATCH},
    "deck_mismatch": {Reason.DECK_MISMATCH, Reason.ILLEGAL_MOVE, Reason.OUTCOME_MISMATCH},
    # a wrong rummy declaration is a legal move (R-18: 80 points, out) -- the forged
    # record then ends before the hand is over
    "illegal_show": {Reason.ILLEGAL_MOVE, Reason.OUTCOME_MISMATCH, Reason.INCOMPLETE},
    "changed_ruleset": {Reason.RULESET_MISMATCH},
    # the default audit leaves per-statement signatures to the log checkpoint: the changed
    # bytes make the statement another leaf than the logged one (with check_signatures: SIGNATURE)
    "forged_signature": {Reason.NOT_IN_LOG},
    "inflated_payout": {Reason.PAYOUT_MISMATCH},
    "commission_off": {Reason.PAYOUT_MISMATCH, Reason.COMMISSION_MISMATCH},
    # issue 15: the whole statement set re-signed for a ground server seed; the record keeps
    # the honest hand's log proofs, and the forged statements are not those leaves
    "resigned_grind": {Reason.NOT_IN_LOG},
    # issue 27: other moves than were played, the record statement re-signed over them; the
    # logged record statement (over the moves as played) is another leaf.  The seats' move
    # receipts prove it too (tiplu receipt verify --moves)
    "other_moves": {Reason.NOT_IN_LOG},
}


#: the classes that are a lie in the record itself: the operator attaches the forged record
#: at ``finish``, so its ``record`` statement (over the lie) is the logged one and only the
#: replay and the seed checks can catch it.  The others edit statements after the fact.
BEFORE_FINISH = frozenset({"swapped_seed", "edited_move", "dropped_move", "reordered_moves", "deck_mismatch",
                           "illegal_show", "changed_ruleset", "inflated_payout", "commission_off"})

MOVE_KINDS = ("edited_move", "dropped_move", "reordered_moves", "illegal_show", "deck_mismatch", "other_moves")
#: the lies in the attached record that change its moves: the ledger refuses a record whose
#: moves are not the moves played through it, so this operator does not play them live
#: (no seat holds a move receipt for those hands)
MOVE_LIES = frozenset(MOVE_KINDS) & BEFORE_FINISH


def applicable(record: dict[str, Any]) -> list[str]:
    """The fault classes that can be forged in this record, sorted.  A hand can end with no
    move at all (Kitti: four of a kind, K-20), and then no move can be edited, dropped or
    reordered; reordering needs two different moves."""
    moves = record.get("moves") or []
    kinds = []
    for kind in sorted(TAMPERS):
        if kind in MOVE_KINDS and not moves:
            continue
        if kind == "reordered_moves" and not any(a != b for a, b in zip(moves, moves[1:])):
            continue
        kinds.append(kind)
    return kinds


def tamper(record: dict[str, Any], kind: str, ctx: TamperContext) -> dict[str, Any]:
    """A tampered deep copy of ``record``."""
    return TAMPERS[kind](copy.deepcopy(record), ctx)
