"""``tiplu seat``: a player's own client of an operator's seat API (a seed never leaves
this machine before its reveal, and is revealed only after the receipt checks out).

* ``tiplu seat commit URL HAND_ID --seat N --seed HEX --token T --public-key HEX --out FILE``
  sends the seed's commitment, checks the receipt the operator answers (its server
  commitment and this seat's commitment are in the log, at a checkpoint signed by the key
  you pinned, and the receipt binds them) and saves it.
* ``tiplu seat reveal URL HAND_ID --seat N --seed HEX --token T --public-key HEX --receipt FILE
  [--server-commitment HEX] [--player NAME] [--point-value D] [--commission-pct D]`` checks
  the saved receipt again -- and that it binds the server commitment you were shown, and
  that the logged hand seats you under your name at the terms you agreed, when given -- and
  only then sends the seed (``commit`` takes the same checks).
* ``tiplu seat moves URL HAND_ID --public-key HEX --keep FILE`` fetches the hand's new move
  receipts, checks each and keeps them (JSON lines): ``tiplu receipt verify … --moves FILE``
  then proves a record with other moves than were played forged.

A check that fails is one line on stderr, exit status 1, and nothing is sent.
``tiplu hand seed-reveal --receipt FILE --public-key HEX`` makes the same check before an
operator-side reveal.  See ``docs/records.md``, "Receipts".
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import click

from replay.errors import MalformedError, TipluError
from replay.fairness import commit_player_seed, parse_player_seed

from . import main
from ._values import COMMISSION_PCT, PLAYER_SEED, POINT_VALUE, PUBLIC_KEY

TIMEOUT = 30


@main.group("seat")
def seat_group() -> None:
    """A player's client: commit a seed, keep the receipt, reveal only once it checks out."""


def _options(fn):
    for opt in reversed([
        click.argument("url"), click.argument("hand_id"),
        click.option("--seat", type=click.IntRange(min=0), required=True, help="Your seat (0 = first)."),
        click.option("--seed", metavar="HEX", required=True, callback=PLAYER_SEED, help="Your seed (tiplu seed new)."),
        click.option("--token", envvar="TIPLU_SEAT_TOKEN", required=True, help="Your seat token (env TIPLU_SEAT_TOKEN)."),
        click.option("--public-key", metavar="HEX", required=True, callback=PUBLIC_KEY,
                     help="The operator key you pinned."),
        click.option("--player", metavar="NAME", help="Your name: the logged hand must seat you under it "
                                                      "(refused otherwise)."),
        click.option("--point-value", metavar="DECIMAL", callback=POINT_VALUE, help="The stake you agreed (HT per point): the logged "
                                                              "hand's must be it."),
        click.option("--commission-pct", metavar="DECIMAL", callback=COMMISSION_PCT, help="The commission you agreed (percent): the logged "
                                                                 "hand's must be it."),
    ]):
        fn = opt(fn)
    return fn


def _post(url: str, hand_id: str, seat: int, what: str, token: str, body: dict) -> dict:
    import requests

    base = url.rstrip("/").removesuffix("/api/v1")
    target = f"{base}/api/v1/hands/{quote(hand_id, safe='')}/seats/{seat}/{what}"
    try:
        r = requests.post(target, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT)
    except requests.RequestException as exc:
        raise TipluError(f"cannot reach {target}: {type(exc).__name__}") from None
    try:
        data = r.json()
    except ValueError:
        data = None
    if r.status_code >= 400:
        msg = data.get("error", {}).get("message") if isinstance(data, dict) else None
        raise TipluError(f"the operator answered {r.status_code}: {msg or r.reason}")
    if not isinstance(data, dict) or not isinstance(data.get("receipt"), dict):
        raise TipluError("the operator's answer holds no receipt")
    return data["receipt"]


@seat_group.command("commit")
@_options
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Where to keep the receipt (you need it to reveal, and to check the published record).")
def seat_commit(url, hand_id, seat, seed, token, public_key, player, point_value, commission_pct, out) -> None:
    """Commit your seed's hash and keep the checked receipt."""
    from ..operator.receipts import check_before_reveal

    mine = commit_player_seed(hand_id, seat, parse_player_seed(seed))
    rec = _post(url, hand_id, seat, "commit", token, {"commitment": mine})
    r = check_before_reveal(rec, public_key, hand_id=hand_id, seat=seat, seed_commitment=mine, player=player,
                            terms=agreed_terms(point_value, commission_pct))
    out.write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    c_leaf = r.of_kind("commitment")[0][0]
    click.echo(f"receipt kept in {out}: server commitment {r.server_commitment} (leaf {c_leaf}), your "
               f"commitment (leaf {r.indices[-1]}), checkpoint size {r.checkpoint.size}")


@seat_group.command("reveal")
@_options
@click.option("--receipt", "receipt_path", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True,
              help="The receipt tiplu seat commit kept.")
@click.option("--server-commitment", metavar="HEX", help="The server commitment you were shown at the table.")
def seat_reveal(url, hand_id, seat, seed, token, public_key, player, point_value, commission_pct, receipt_path,
                server_commitment) -> None:
    """Check your receipt (your name and the terms too, when given), then reveal your seed
    (refused if the check fails)."""
    from ..operator.receipts import check_before_reveal

    seed_b = parse_player_seed(seed)
    check_receipt_file(receipt_path, public_key, hand_id=hand_id, seat=seat,
                       seed_commitment=commit_player_seed(hand_id, seat, seed_b), shown_commitment=server_commitment,
                       check=check_before_reveal, player=player, terms=agreed_terms(point_value, commission_pct))
    _post(url, hand_id, seat, "reveal", token, {"seed": seed_b.hex()})
    click.echo(f"receipt checked; seed of seat {seat} revealed")


@seat_group.command("moves")
@click.argument("url")
@click.argument("hand_id")
@click.option("--public-key", metavar="HEX", required=True, callback=PUBLIC_KEY, help="The operator key you pinned.")
@click.option("--keep", "keep_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Your move receipts (JSON lines): read, extended with the new ones, written back.")
@click.option("--json", "as_json", is_flag=True, help="Print {new, kept, n_moves, head} as JSON.")
def seat_moves(url, hand_id, public_key, keep_path, as_json) -> None:
    """Fetch the hand's new move receipts, check each (signed by the key you pinned, the next
    move after the last you kept, never a second head for a move) and keep them: the proof of
    the moves as played (tiplu receipt verify --moves)."""
    import requests

    from ..auditor.verdict.move_receipts import keep, load_move_receipts

    kept = []
    if keep_path.exists():
        try:
            kept = keep([], load_move_receipts(keep_path.read_text(encoding="utf-8")), public_key, hand_id=hand_id)
        except (OSError, UnicodeDecodeError) as exc:
            raise MalformedError(f"cannot read the move receipts {keep_path}: {type(exc).__name__}") from None
    since = kept[-1]["statement"]["n_moves"] if kept else 0
    base = url.rstrip("/").removesuffix("/api/v1")
    target = f"{base}/api/v1/hands/{quote(hand_id, safe='')}/move-receipts"
    try:
        r = requests.get(target, params={"since": since}, timeout=TIMEOUT)
        data = r.json() if r.status_code < 400 else None
    except (requests.RequestException, ValueError) as exc:
        raise TipluError(f"cannot read {target}: {type(exc).__name__}") from None
    if not isinstance(data, dict) or not isinstance(data.get("receipts"), list):
        raise TipluError(f"the operator answered {r.status_code} with no move receipts")
    before = len(kept)
    kept = keep(kept, data["receipts"], public_key, hand_id=hand_id)
    tmp = keep_path.with_name(keep_path.name + ".tmp")
    tmp.write_text("".join(json.dumps(k, sort_keys=True) + "\n" for k in kept), encoding="utf-8")
    tmp.replace(keep_path)
    last = kept[-1]["statement"] if kept else None
    if as_json:
        click.echo(json.dumps({"new": len(kept) - before, "kept": len(kept), "n_moves": last and last["n_moves"],
                               "head": last and last["head"]}))
        return
    click.echo(f"{len(kept) - before} new move receipts checked; {len(kept)} kept in {keep_path}"
               + (f" (head {last['head']} after move {last['n_moves']})" if last else ""))


def agreed_terms(point_value: str | None, commission_pct: str | None) -> dict[str, str]:
    """The terms a player agreed, as given (checked by the options' callbacks): what the
    logged hand must say."""
    terms = {"point_value": point_value, "commission_pct": commission_pct}
    return {name: value for name, value in terms.items() if value is not None}


def check_receipt_file(path: Path, public_key: str, *, check, **kwargs):
    try:
        rec = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise MalformedError(f"cannot read the receipt {path}: {type(exc).__name__}") from None
    try:
        return check(rec, public_key, **kwargs)
    except MalformedError as exc:
        raise MalformedError(f"not revealing: {exc}") from None
