"""The server seed stays private until its reveal: no public read, repr or error shows it."""
from __future__ import annotations

import pytest

from replay.errors import TipluError

from ledger_testkit import SEEDS, advance, new_ledger, private_seed

ILLEGAL_PROBES = [
    lambda L: L.reveal("h1"),
    lambda L: L.seed_reveal("h1", 0, b"\x00" * 16),
    lambda L: L.seed_reveal("h1", 9, SEEDS[0]),
    lambda L: L.deal("h1"),
    lambda L: L.finish("h1", {"hand_id": "h1", "bad": 0.5}),
    lambda L: L.finish("h1", {"hand_id": "h1"}),
    lambda L: L.commit("h1"),
    lambda L: L.get_hand("nope"),
]


def public_surface(ledger) -> str:
    """Everything a reader can see through the public API, as text."""
    parts = [repr(ledger), repr(ledger.operator("acme")), repr(ledger.table("t1"))]
    for view in ledger.list_hands():
        parts += [repr(view), str(view.to_json()), repr(view.seats)]
    parts += [repr(st) + str(st.to_json()) for st in ledger.statements()]
    parts += [repr(r) + str(r.record) for r in ledger.iter_records()]
    finished = ledger.get_hand("h1").state.value == "finished"
    for probe in ILLEGAL_PROBES[1:] if finished else ILLEGAL_PROBES:  # a finished hand may reveal
        try:
            probe(ledger)
        except TipluError as exc:
            parts += [str(exc), repr(exc), repr(exc.__cause__), repr(exc.__context__)]
    return "\n".join(parts)


def leaks(seed_hex: str, text: str) -> bool:
    seed = bytes.fromhex(seed_hex)
    return any(form in text for form in (seed_hex, seed_hex.upper(), repr(seed), seed.hex(" ")))


@pytest.mark.parametrize("step", ["commit", "seed_commit", "seed_reveal", "deal", "finish"])
def test_no_public_read_repr_or_error_reveals_the_server_seed_before_the_reveal(step):  # rule R-22
    ledger = new_ledger()
    advance(ledger, "h1", step)
    seed = private_seed(ledger, "h1")
    assert not leaks(seed, public_surface(ledger))
    assert ledger.get_hand("h1").server_seed is None


def test_after_the_reveal_the_seed_is_public():  # rule R-22
    ledger = new_ledger()
    advance(ledger, "h1", "reveal")
    seed = private_seed(ledger, "h1")
    assert leaks(seed, public_surface(ledger))  # the probe can see a seed when it is there
    assert ledger.get_hand("h1").server_seed == seed


def test_a_failed_write_during_the_deal_phase_does_not_echo_the_seed():
    ledger = new_ledger()
    advance(ledger, "h1", "deal")
    seed = private_seed(ledger, "h1")
    messages = []
    for call in (lambda: ledger.seed_reveal("h1", 0, seed), lambda: ledger.seed_commit("h1", 0, seed),
                 lambda: ledger.cancel("h1"), lambda: ledger.reveal("h1")):
        with pytest.raises(TipluError, match=r"^hand 'h1' is dealt: cannot (seed-reveal|seed-commit|cancel|reveal) \(") as info:
            call()
        messages.append(str(info.value))
    assert not leaks(seed, "\n".join(messages))
