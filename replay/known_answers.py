"""The known answers of one hand: everything a v1 vector pins down, as plain JSON.

One definition serves three readers: ``tools/make_vectors.py`` writes
``fixtures/vectors/v1.json`` from it, ``tiplu deal`` prints it, and ``tiplu deal --vector``
compares it with a vector file.  The layout is the ``expect`` object of format
``tiplu.vectors/1`` (see ``docs/fairness.md``, "Known-answer vectors").
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .errors import MalformedError
from .fairness import commit_player_seed, commit_server_seed, hand_randomness, parse_player_seed, parse_server_seed
from .rulesets import Ruleset

VECTORS_FORMAT = "tiplu.vectors/1"
# The first draw of each sub-stream a vector records: (label, n); n None = the stock size.
SUBSTREAM_DRAWS: tuple[tuple[str, int | None], ...] = (("tiplu", None), ("reshuffle:1", 100), ("redeal:1", 52))
EXPECT_KEYS = ("server_commitment", "player_commitments", "material", "shoe", "hands", "turned_up",
               "indicator", "stock", "substreams")


def known_answers(server_seed: bytes, hand_id: str, ruleset: Ruleset, player_seeds: Sequence[bytes],
                  dealer: int, extra_draws: Sequence[tuple[str, int]] = ()) -> dict[str, Any]:
    """The ``expect`` object of a vector for these inputs.

    ``extra_draws`` adds (label, n) sub-stream draws after :data:`SUBSTREAM_DRAWS`: the
    rejection-sampling vector draws with n = 2**31 + 1, where a first candidate is often rejected.
    """
    hr = hand_randomness(server_seed, hand_id, ruleset, player_seeds)
    d = hr.deal(dealer)
    subs = {}
    for label, n in (*SUBSTREAM_DRAWS, *extra_draws):
        size = len(d.stock) if n is None else n
        s = hr.stream(label)
        subs[label] = {"block0": s.block(0).hex(), "randbelow": {"n": size, "value": s.randbelow(size)}}
    return {
        "server_commitment": commit_server_seed(server_seed),
        "player_commitments": [commit_player_seed(hand_id, i, s) for i, s in enumerate(hr.player_seeds)],
        "material": hr.material.hex(),
        "shoe": [str(c) for c in hr.shoe()],
        **d.to_json(),
        "substreams": subs,
    }


def check_vector(vector: Mapping[str, Any]) -> list[str]:
    """The ``expect`` keys a vector gets wrong (empty when it passes).

    Raises :class:`MalformedError` (or :class:`RulesetError`) if the vector does not parse.
    """
    try:
        ruleset = Ruleset.from_json(vector["ruleset"])
        server = parse_server_seed(vector["server_seed"])
        seeds = [parse_player_seed(s) for s in vector["player_seeds"]]
        hand_id, dealer, expect = vector["hand_id"], vector["dealer"], vector["expect"]
    except (KeyError, TypeError) as exc:
        raise MalformedError(f"vector lacks or mangles field {exc}") from None
    if not isinstance(hand_id, str) or not isinstance(dealer, int) or not isinstance(expect, dict):
        raise MalformedError("vector fields hand_id, dealer and expect must be a string, an integer and an object")
    wrong = []
    if vector.get("ruleset_hash") != ruleset.hash:
        wrong.append("ruleset_hash")
    if vector.get("n_seats") != len(seeds):
        wrong.append("n_seats")
    base = {label for label, _ in SUBSTREAM_DRAWS}
    try:
        extra = [(label, sub["randbelow"]["n"]) for label, sub in (expect.get("substreams") or {}).items()
                 if label not in base]
    except (KeyError, TypeError, AttributeError):
        raise MalformedError("vector substreams must map labels to {block0, randbelow: {n, value}}") from None
    if not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 2 ** 32 for _, n in extra):
        raise MalformedError("a vector's extra sub-stream draws need an integer n in [1, 2**32]")
    got = known_answers(server, hand_id, ruleset, seeds, dealer, extra)
    wrong.extend(k for k in EXPECT_KEYS if expect.get(k) != got[k])
    return wrong
