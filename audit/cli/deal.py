"""``tiplu deal`` and ``tiplu verify-commitment``: the v1 shuffle from the command line.

Standalone (no database, no network): give the inputs of a hand and see its commitments,
key material, shuffled shoe, hands, turned-up card, indicator, stock and the first draw of
each sub-stream; or check a file of known-answer vectors.  ``docs/fairness.md`` specifies
every byte.  Error messages never echo a seed.
"""
from __future__ import annotations

import json
import sys

import click

from replay.errors import MalformedError, TipluError
from replay.fairness import (parse_digest, parse_player_seed, parse_server_seed, verify_player_seed,
                             verify_server_seed)
from replay.known_answers import VECTORS_FORMAT, check_vector, known_answers
from replay.rulesets import PRESETS, resolve

from . import main
from ._values import DIGEST, PLAYER_SEED, SERVER_SEED, SETTINGS, load_settings


def _print_text(preset: str, ruleset_hash: str, hand_id: str, dealer: int, ans: dict) -> None:
    rows = [("preset", preset), ("ruleset hash", ruleset_hash), ("hand id", hand_id), ("dealer", str(dealer)),
            ("server commitment", ans["server_commitment"])]
    rows += [(f"seat {i} commitment", c) for i, c in enumerate(ans["player_commitments"])]
    rows += [("key material", ans["material"]), (f"shoe ({len(ans['shoe'])})", " ".join(ans["shoe"]))]
    rows += [(f"seat {i} hand ({len(h)})", " ".join(h)) for i, h in enumerate(ans["hands"])]
    rows += [("turned up", ans["turned_up"] or "-"), ("indicator", ans["indicator"] or "-"),
             (f"stock ({len(ans['stock'])})", " ".join(ans["stock"]))]
    for label, sub in ans["substreams"].items():
        rb = sub["randbelow"]
        rows.append((f"stream {label}", f"block0 {sub['block0']}  randbelow({rb['n']}) = {rb['value']}"))
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        click.echo(f"{key:<{width}}  {value}")


def _check_vectors(path: str) -> None:
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except json.JSONDecodeError as exc:
        raise MalformedError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(doc, dict) or doc.get("format") != VECTORS_FORMAT or not isinstance(doc.get("vectors"), list):
        raise MalformedError(f"{path} is not a {VECTORS_FORMAT} file")
    failed = 0
    for i, vector in enumerate(doc["vectors"]):
        name = vector.get("name", f"#{i}") if isinstance(vector, dict) else f"#{i}"
        try:
            wrong = check_vector(vector) if isinstance(vector, dict) else ["not an object"]
        except TipluError as exc:
            wrong = [str(exc)]
        failed += bool(wrong)
        click.echo(f"{'FAIL' if wrong else 'pass'}  {name}" + (f"  ({', '.join(wrong)})" if wrong else ""))
    click.echo(f"{len(doc['vectors']) - failed} passed, {failed} failed")
    if failed:
        sys.exit(1)


@main.command("deal")
@click.option("--preset", type=click.Choice(PRESETS), help="Ruleset preset of the hand.")
@click.option("--hand-id", help="The hand id exactly as recorded (bound into every derivation).")
@click.option("--server-seed", metavar="HEX", callback=SERVER_SEED,
              help="The revealed server seed: 32 bytes, lower-case hex.")
@click.option("--player-seed", "player_seeds", metavar="HEX", multiple=True, callback=PLAYER_SEED,
              help="A seat's revealed seed (16-64 bytes, hex); repeat once per seat, in seat order.")
@click.option("--dealer", type=int, help="Dealer seat (default: the last seat, MN-6).")
@click.option("--settings", "settings_json", metavar="JSON", callback=SETTINGS,
              help="Setting overrides as a JSON object.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the vector 'expect' layout).")
@click.option("--vector", "vector_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Instead: check every vector in FILE (tiplu.vectors/1); exit 1 on any failure.")
def deal_command(preset, hand_id, server_seed, player_seeds, dealer, settings_json, as_json, vector_file) -> None:
    """Shuffle and deal one hand from its seeds (v1), or check a vector file.

    The protocol is specified byte for byte in docs/fairness.md.

    \b
    Example:
      tiplu deal --preset kitti --hand-id h1 --server-seed <64 hex> \\
                 --player-seed <32 hex> --player-seed <32 hex>
    """
    if vector_file is not None:
        _check_vectors(vector_file)
        return
    missing = [name for name, v in [("--preset", preset), ("--hand-id", hand_id), ("--server-seed", server_seed)]
               if v is None]
    if missing or not player_seeds:
        missing += [] if player_seeds else ["--player-seed"]
        raise click.UsageError(f"missing {', '.join(missing)} (or give --vector FILE)")
    server = parse_server_seed(server_seed)
    seeds = [parse_player_seed(text) for text in player_seeds]  # each checked by its option's callback
    ruleset = resolve(preset, load_settings(settings_json))
    dealer = len(seeds) - 1 if dealer is None else dealer
    ans = known_answers(server, hand_id, ruleset, seeds, dealer)
    if as_json:
        click.echo(json.dumps({"preset": preset, "ruleset_hash": ruleset.hash, "hand_id": hand_id,
                               "n_seats": len(seeds), "dealer": dealer, "expect": ans}))
    else:
        _print_text(preset, ruleset.hash, hand_id, dealer, ans)


@main.command("verify-commitment")
@click.option("--commitment", required=True, metavar="HEX", callback=DIGEST, help="The published commitment (SHA-256, hex).")
@click.option("--server-seed", metavar="HEX", callback=SERVER_SEED, help="Check a revealed server seed (32 bytes, hex).")
@click.option("--player-seed", metavar="HEX", callback=PLAYER_SEED, help="Or check a seat's revealed seed (with --hand-id and --seat).")
@click.option("--hand-id", help="The hand id (seat commitments only).")
@click.option("--seat", type=int, help="The seat number, from 0 (seat commitments only).")
@click.option("--json", "as_json", is_flag=True, help='Print {"ok": true, "kind", "commitment"} on a match.')
def verify_commitment_command(commitment, server_seed, player_seed, hand_id, seat, as_json) -> None:
    """Check a revealed seed against its commitment: prints OK, or one error line and exits 1.

    \b
    Server:  tiplu verify-commitment --server-seed HEX --commitment HEX
    Seat:    tiplu verify-commitment --hand-id H --seat N --player-seed HEX --commitment HEX
    """
    digest = parse_digest(commitment).hex()
    if (server_seed is None) == (player_seed is None):
        raise click.UsageError("give exactly one of --server-seed and --player-seed")
    if server_seed is not None:
        verify_server_seed(parse_server_seed(server_seed), digest)
        click.echo(json.dumps({"ok": True, "kind": "server", "commitment": digest}) if as_json
                   else "OK: the server seed matches the commitment")
        return
    if hand_id is None or seat is None:
        raise click.UsageError("a seat commitment needs --hand-id and --seat")
    if seat < 0:
        raise MalformedError("--seat must be 0 or more")
    verify_player_seed(hand_id, seat, parse_player_seed(player_seed), digest)
    click.echo(json.dumps({"ok": True, "kind": "seat", "hand_id": hand_id, "seat": seat, "commitment": digest})
               if as_json else f"OK: seat {seat}'s seed matches the commitment")
