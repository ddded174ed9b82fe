"""``tiplu table`` and ``tiplu hand``: an operator's scripts drive the ledger through these.

A hand goes ``new -> commit -> seed-commit (each seat) -> seed-reveal (each seat) -> deal ->
finish -> reveal`` (which also publishes the record; ``publish`` repairs a lost
publication) or ``cancel`` before the deal; ``show``, ``list``, ``log`` and
``verify`` read.  Every command takes ``--db PATH`` (env ``TIPLU_DB``, default
``./tiplu.db``); those that print take ``--json`` (one JSON line: the signed statement for
the lifecycle verbs).  Errors are one line on stderr and exit status 1.
"""
from __future__ import annotations

import json
import sys

import click

from replay.errors import MalformedError
from replay.fairness import commit_player_seed, parse_player_seed

from . import main
from ._values import load_settings
from ._values import COMMISSION_PCT, DIGEST, PLAYER_SEED, POINT_VALUE, PRESET, PUBLIC_KEY, SETTINGS
from ._ledger_common import db_option, emit, json_option, key_option, open_ledger


#: the values of :class:`audit.operator.ledger.HandState` (spelled out so that ``tiplu`` starts without
#: loading the ledger; a test checks they agree)
HAND_STATES = ("created", "committed", "seeds-committed", "seeds-revealed", "dealt", "finished", "revealed",
               "cancelled")


# -- tables ------------------------------------------------------------------------------
@main.group("table")
def table_group() -> None:
    """Tables: a preset with its overrides, a seat count, point value and commission."""


@table_group.command("new")
@click.argument("table_id")
@click.option("--operator", required=True, help="The operator who runs the table.")
@click.option("--preset", required=True, callback=PRESET, help="marriage/nepal, marriage/classic, kitti or rummy13.")
@click.option("--settings", "settings_json", metavar="JSON", callback=SETTINGS, help="Setting overrides as a JSON object.")
@click.option("--seats", type=int, help="Number of seats (default: the most the preset allows).")
@click.option("--point-value", default="1", callback=POINT_VALUE, show_default=True, help="House tokens per point (decimal string).")
@click.option("--commission-pct", default="0", callback=COMMISSION_PCT, show_default=True, help="Commission on winners' gains, percent.")
@db_option
@json_option
def table_new(table_id, operator, preset, settings_json, seats, point_value, commission_pct, db, as_json) -> None:
    """Create table TABLE_ID."""
    with open_ledger(db) as ledger:
        t = ledger.new_table(table_id, operator=operator, preset=preset, overrides=load_settings(settings_json),
                             seats=seats, point_value=point_value, commission_pct=commission_pct)
    emit(t.to_json(), f"table {t.id}: {t.preset}, {t.seats} seats, point value {t.point_value}, "
         f"commission {t.commission_pct}%\nruleset hash {t.ruleset_hash}", as_json)


@table_group.command("show")
@click.argument("table_id")
@db_option
@json_option
def table_show(table_id, db, as_json) -> None:
    """Show a table and its resolved ruleset hash."""
    with open_ledger(db) as ledger:
        t = ledger.table(table_id)
    emit(t.to_json(), f"table {t.id} ({t.operator}): {t.preset}, {t.seats} seats, point value {t.point_value}, "
         f"commission {t.commission_pct}%\nruleset hash {t.ruleset_hash}", as_json)


# -- hands -------------------------------------------------------------------------------
@main.group("hand")
def hand_group() -> None:
    """A hand's lifecycle in the ledger, one signed statement per step."""


def _statement_text(signed: dict) -> str:
    s = signed["statement"]
    kind, hid = s["kind"], s["hand_id"]
    lines = {
        "hand": f"hand {hid} created at table {s.get('table_id')}: "
                + ", ".join(f"{x['seat']}={x['player']}" for x in s.get("seats", [])) + f"; dealer {s.get('dealer')}",
        "commitment": f"hand {hid} committed\nserver seed commitment {s.get('server_seed_commitment')}",
        "seat-receipt": f"hand {hid} seat {s.get('seat')} ({s.get('player')}) committed {s.get('commitment')}",
        "seat-reveal": f"hand {hid} seat {s.get('seat')} ({s.get('player')}) revealed its seed",
        "deal": f"hand {hid} dealt (dealer {s.get('dealer')}, {len(s.get('player_seeds', []))} seeds)",
        "record": f"hand {hid} finished\nrecord hash {s.get('record_hash')}"
                  + (f"\nmoves head {s['moves_head']} after {s.get('n_moves')} moves" if "moves_head" in s else ""),
        "reveal": f"hand {hid} revealed\nserver seed {s.get('server_seed')}",
        "cancel": f"hand {hid} cancelled; missing seats: {', '.join(map(str, s.get('missing_seats', []))) or '-'}",
    }
    return lines.get(kind, kind) + f"\nsigned by {signed['key']} at {s['time']}"


@hand_group.command("new")
@click.option("--table", "table_id", required=True, help="The table the hand is played at.")
@click.option("--player", "players", multiple=True, required=True, help="A player's name; repeat in seat order.")
@click.option("--dealer", type=int, default=0, show_default=True, help="The dealer's seat.")
@click.option("--hand-id", help="The hand id (default: generated).")
@db_option
@key_option
@json_option
def hand_new(table_id, players, dealer, hand_id, db, key_file, as_json) -> None:
    """Create a hand at a table; prints its signed 'hand' statement."""
    with open_ledger(db, key_file) as ledger:
        signed = ledger.new_hand(table_id, list(players), dealer=dealer, hand_id=hand_id)
    emit(signed, _statement_text(signed), as_json)


def _verb(name: str, doc: str):
    """A ``tiplu hand NAME HAND_ID`` command with the shared options."""
    def wrap(fn):
        fn.__doc__ = doc
        cmd = click.argument("hand_id")(fn)
        for opt in (db_option, key_option, json_option):
            cmd = opt(cmd)
        return hand_group.command(name)(cmd)
    return wrap


@_verb("commit", "Commit the hand's server seed (generated and kept private); prints the commitment.")
def hand_commit(hand_id, db, key_file, as_json) -> None:
    with open_ledger(db, key_file) as ledger:
        signed = ledger.commit(hand_id)
    emit(signed, _statement_text(signed), as_json)


@hand_group.command("seed-commit")
@click.argument("hand_id")
@click.option("--seat", type=int, required=True, help="The seat (0 = first).")
@click.option("--commitment", metavar="HEX", callback=DIGEST, help="The seat's seed commitment (computed by the player).")
@click.option("--seed", metavar="HEX", callback=PLAYER_SEED, help="Or the seed itself: the commitment is computed here; the seed is not stored.")
@db_option
@key_option
@json_option
def hand_seed_commit(hand_id, seat, commitment, seed, db, key_file, as_json) -> None:
    """Record a seat's seed commitment; prints the player's signed receipt with the
    inclusion proof of that statement at a freshly signed log checkpoint."""
    if (commitment is None) == (seed is None):
        raise click.UsageError("give exactly one of --commitment and --seed")
    if seed is not None:
        commitment = commit_player_seed(hand_id, seat, parse_player_seed(seed))
    from ..operator.receipts import receipt

    with open_ledger(db, key_file) as ledger:
        signed = ledger.seed_commit(hand_id, seat, commitment)
        operator = ledger.get_hand(hand_id).operator
        rec = receipt(ledger, signed, key=ledger.signing_key(operator))
    emit(rec, _statement_text(signed) + "\n  receipt: the server commitment and this seat's commitment in the log "
         "(C2SP tlog-proofs in --json; keep it to check before the reveal and against the record)", as_json)


@hand_group.command("seed-reveal")
@click.argument("hand_id")
@click.option("--seat", type=int, required=True, help="The seat (0 = first).")
@click.option("--seed", metavar="HEX", required=True, callback=PLAYER_SEED, help="The seat's seed (16-64 bytes, hex).")
@click.option("--receipt", "receipt_path", type=click.Path(exists=True, dir_okay=False),
              help="The seat's receipt (seed-commit --json): checked before the seed is revealed.")
@click.option("--public-key", metavar="HEX", callback=PUBLIC_KEY, help="With --receipt: the operator key the player pinned.")
@click.option("--server-commitment", metavar="HEX", callback=DIGEST, help="With --receipt: the server commitment the player was shown.")
@click.option("--player", metavar="NAME", help="With --receipt: the player's own name (the logged hand must seat it here).")
@click.option("--point-value", metavar="DECIMAL", help="With --receipt: the stake the player agreed (HT per point).")
@click.option("--commission-pct", metavar="DECIMAL", help="With --receipt: the commission the player agreed (percent).")
@db_option
@key_option
@json_option
def hand_seed_reveal(hand_id, seat, seed, receipt_path, public_key, server_commitment, player, point_value,
                     commission_pct, db, key_file, as_json) -> None:
    """Record a seat's seed once every seat has committed (checked against its commitment).

    With --receipt and --public-key the seed is revealed only if the receipt proves the
    server commitment (and this seat's commitment) are in the log under that key, and that
    the logged hand seats --player here at the --point-value and --commission-pct given."""
    from .seat import agreed_terms

    terms = agreed_terms(point_value, commission_pct)
    if receipt_path is not None:
        from ..operator.receipts import check_before_reveal
        from .seat import check_receipt_file

        if public_key is None:
            raise click.UsageError("--receipt needs --public-key: the operator key the player pinned")
        check_receipt_file(receipt_path, public_key, check=check_before_reveal, hand_id=hand_id, seat=seat,
                           seed_commitment=commit_player_seed(hand_id, seat, parse_player_seed(seed)),
                           shown_commitment=server_commitment, player=player, terms=terms)
    elif public_key is not None or server_commitment is not None or player is not None or terms:
        raise click.UsageError("--public-key, --server-commitment, --player and the terms check a --receipt")
    with open_ledger(db, key_file) as ledger:
        signed = ledger.seed_reveal(hand_id, seat, seed)
    emit(signed, _statement_text(signed), as_json)


@_verb("deal", "Close the shuffle's inputs once every seat has revealed; prints the signed deal statement.")
def hand_deal(hand_id, db, key_file, as_json) -> None:
    with open_ledger(db, key_file) as ledger:
        signed = ledger.deal(hand_id)
    emit(signed, _statement_text(signed), as_json)


@hand_group.command("cards")
@click.argument("hand_id")
@db_option
@json_option
def hand_cards(hand_id, db, as_json) -> None:
    """OPERATOR ONLY: the dealt cards of a hand (computed with the private server seed)."""
    with open_ledger(db) as ledger:
        d = ledger.operator_deal(hand_id)
    data = d.to_json()
    emit(data, "\n".join([f"seat {i}: {' '.join(h)}" for i, h in enumerate(data["hands"])]
                         + [f"turned up: {data['turned_up'] or '-'}", f"indicator: {data['indicator'] or '-'}",
                            f"stock ({len(data['stock'])}): {' '.join(data['stock'])}"]), as_json)


def _load_json_file(fh, what: str):
    try:
        return json.load(fh)
    except json.JSONDecodeError as exc:
        raise MalformedError(f"the {what} is not JSON: {exc.msg} at line {exc.lineno}") from None


@hand_group.command("finish")
@click.argument("hand_id")
@click.option("--moves", "moves_file", type=click.File("r", encoding="utf-8"),
              help="The moves as played: a JSON array of move objects ('-' = stdin); the outcome and settlement "
                   "are computed from their replay.")
@click.option("--record", "record_file", type=click.File("r", encoding="utf-8"),
              help="Or the whole hand record (a JSON object with the same hand_id): checked against the ledger "
                   "and the replay, key for key.")
@click.option("--played", is_flag=True, help="Or the moves played one by one (tiplu hand move), exactly as the "
                                            "ledger holds them.")
@db_option
@key_option
@json_option
def hand_finish(hand_id, moves_file, record_file, played, db, key_file, as_json) -> None:
    """Attach the hand's record; prints the signed statement of its hash.

    With --moves the record is built here: the ledger's table, seats, ruleset, seeds and
    commitments, the moves, and the outcome and settlement of their replay (with the
    operator's private server seed, which stays secret); --played takes the moves played one by
    one (tiplu hand move), each already answered by a move receipt. With --record the record is
    refused, in one line and with nothing stored, if the audit would call it malformed once
    published, if it is not this ledger's hand, if a move does not replay, or if its outcome
    or payouts differ from the replay (the line names the first place that differs).
    """
    if (moves_file is not None) + (record_file is not None) + played != 1:
        raise click.UsageError("give exactly one of --moves, --record and --played")
    from ..operator.finishing import finish_hand

    record = moves = None  # JSON as read: finish_hand checks it (exactly one of the three is given)
    if moves_file is not None:
        moves = _load_json_file(moves_file, "moves file")
        if isinstance(moves, dict) and "moves" in moves:  # a record-like {"moves": [...]} works too
            moves = moves["moves"]
    elif record_file is not None:
        record = _load_json_file(record_file, "record")
    with open_ledger(db, key_file) as ledger:
        signed = finish_hand(ledger, hand_id, record=record, moves=moves, played=played)
    emit(signed, _statement_text(signed), as_json)


@hand_group.command("bot-moves")
@click.argument("hand_id")
@db_option
def hand_bot_moves(hand_id, db) -> None:
    """OPERATOR ONLY, for trying the CLI: the moves the simulator's bot plays in a dealt hand
    (a JSON array for 'tiplu hand finish --moves'); a real table's moves come from its game."""
    from ..operator.sim.play import bot_moves

    with open_ledger(db) as ledger:
        moves = bot_moves(ledger, hand_id)
    click.echo(json.dumps(moves))


@hand_group.command("record")
@click.argument("hand_id")
@click.option("--attached", is_flag=True,
              help="The record as attached at finish (before its publication: no statements, no server seed).")
@db_option
def hand_record(hand_id, attached, db) -> None:
    """Print a hand's published record (JSON, as the site serves it and auditors audit it)."""
    from ..operator.publish import get_published_text

    with open_ledger(db) as ledger:
        if attached:
            row = ledger.db.execute("SELECT record FROM hand_records WHERE hand_id = ?",
                                    [ledger.get_hand(hand_id).id]).fetchone()
            if row is None:
                from ..errors import NotFoundError

                raise NotFoundError(f"hand {hand_id!r} has no record yet")
            text = row[0]
        else:
            ledger.get_hand(hand_id)  # "no hand 'x'" before "no published record"
            text = get_published_text(ledger, hand_id)
    click.echo(text)


@_verb("reveal", "Reveal the server seed of a finished hand (checked against its commitment), then publish its record.")
def hand_reveal(hand_id, db, key_file, as_json) -> None:
    from ..operator.publish import reveal_and_publish

    with open_ledger(db, key_file) as ledger:
        signed, _ = reveal_and_publish(ledger, hand_id)
    emit(signed, _statement_text(signed) + "\nrecord published", as_json)


@hand_group.command("publish")
@click.argument("hand_id")
@db_option
@json_option
def hand_publish(hand_id, db, as_json) -> None:
    """Publish the record of a revealed hand that is not yet published (a reveal whose
    publication was lost: audits report it unpublished until then)."""
    from ..operator.publish import publish

    with open_ledger(db) as ledger:
        record = publish(ledger, hand_id)
    emit({"hand_id": hand_id, "published": True, "record": record}, f"hand {hand_id} published", as_json)


@hand_group.command("cancel")
@click.argument("hand_id")
@click.option("--reason", default="a seat did not reveal its seed", show_default=True, help="Why.")
@db_option
@key_option
@json_option
def hand_cancel(hand_id, reason, db, key_file, as_json) -> None:
    """Cancel a hand before the deal; the statement names the seats that never revealed."""
    with open_ledger(db, key_file) as ledger:
        signed = ledger.cancel(hand_id, reason=reason)
    emit(signed, _statement_text(signed), as_json)


def _view_text(v) -> str:
    lines = [f"hand {v.id} ({v.state.value}) at table {v.table_id}, operator {v.operator}, {v.preset}",
             f"ruleset hash           {v.ruleset_hash}", f"dealer                 seat {v.dealer}",
             f"server seed commitment {v.server_seed_commitment or '-'}",
             f"server seed            {v.server_seed or '(secret until the reveal)'}"]
    for s in v.seats:
        lines.append(f"seat {s.seat} {s.player:<12} commitment {s.commitment or '-'}"
                     + (f"  seed {s.seed}" if s.seed else ""))
    if v.record_hash:
        lines.append(f"record hash            {v.record_hash}")
    if v.missing_seats is not None:
        lines.append(f"missing seats          {', '.join(map(str, v.missing_seats))}")
    return "\n".join(lines)


@hand_group.command("show")
@click.argument("hand_id")
@db_option
@json_option
def hand_show(hand_id, db, as_json) -> None:
    """Show the public view of a hand (no server seed before its reveal)."""
    with open_ledger(db) as ledger:
        v = ledger.get_hand(hand_id)
    emit(v.to_json(), _view_text(v), as_json)


@hand_group.command("list")
@click.option("--table", "table_id", help="Only this table's hands.")
@click.option("--state", type=click.Choice(HAND_STATES), help="Only hands in this state.")
@db_option
@json_option
def hand_list(table_id, state, db, as_json) -> None:
    """List hands (one per line; JSON lines with --json)."""
    with open_ledger(db) as ledger:
        for v in ledger.list_hands(table_id=table_id, state=state):
            emit(v.to_json(), f"{v.id}\t{v.state.value}\t{v.table_id}\t{v.preset}", as_json)


@hand_group.command("log")
@click.option("--hand", "hand_id", help="Only this hand's statements.")
@click.option("--since", "since_seq", type=int, default=0, show_default=True, help="Only statements after this seq.")
@db_option
def hand_log(hand_id, since_seq, db) -> None:
    """Export signed statements as JSON lines, in seq order."""
    with open_ledger(db) as ledger:
        for st in ledger.statements(hand_id, since_seq):
            sys.stdout.write(json.dumps(st.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n")


@hand_group.command("verify")
@click.argument("hand_id")
@click.option("--public-key", metavar="HEX", callback=PUBLIC_KEY, help="Verify under this key (default: the operator's key in the ledger).")
@db_option
@json_option
def hand_verify(hand_id, public_key, db, as_json) -> None:
    """Verify every statement of a hand and its revealed seeds; prints OK or fails with one line."""
    with open_ledger(db) as ledger:
        state = ledger.verify_hand(hand_id, public_key)
        n = sum(1 for _ in ledger.statements(hand_id))
    emit({"hand_id": hand_id, "ok": True, "state": state.value, "statements": n},
         f"OK: {n} statements of hand {hand_id} verify ({state.value})", as_json)


from . import hand_moves  # noqa: E402

hand_moves.register(hand_group)  # ``tiplu hand move`` and ``tiplu hand move-receipts``
