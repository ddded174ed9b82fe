"""A second, deliberately naive implementation of the v1 protocol, written from
docs/fairness.md alone, must reproduce every known-answer vector.

Nothing here imports :mod:`replay`: hashing, encoding, rejection sampling, Fisher-Yates,
the canonical shoe, canonical JSON and the deal layouts are all written out again, as a
stranger reading the specification would write them.  If this file and replay/ disagree,
either the code or the page is wrong.
"""
import hashlib
import hmac
import json

import pytest

from fairness_vectors_data import IDS, VECTORS

# --- docs/fairness.md section 3: encodings -------------------------------------------------


def length_prefixed(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


# --- section 6: canonical JSON and the ruleset hash (D-1) -----------------------------------


def ruleset_hash(ruleset: dict) -> str:
    text = json.dumps(ruleset, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --- section 2: commitments -------------------------------------------------------------------


def server_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def seat_commitment(hand_id: str, seat: int, seed: bytes) -> str:
    msg = (length_prefixed(b"tiplu/v1/seat") + length_prefixed(hand_id.encode("utf-8"))
           + seat.to_bytes(4, "big") + length_prefixed(seed))
    return hashlib.sha256(msg).hexdigest()


# --- section 4: key material and the labelled stream --------------------------------------------


def material(hand_id: str, rs_hash_hex: str, seeds: list) -> bytes:
    msg = length_prefixed(b"tiplu/v1/material")
    msg += length_prefixed(hand_id.encode("utf-8"))
    msg += length_prefixed(bytes.fromhex(rs_hash_hex))
    msg += len(seeds).to_bytes(4, "big")
    for s in seeds:
        msg += length_prefixed(s)
    return hashlib.sha256(msg).digest()


def block(server_seed: bytes, mat: bytes, label: str, i: int) -> bytes:
    msg = length_prefixed(b"tiplu/v1/stream") + mat + length_prefixed(label.encode("utf-8")) + i.to_bytes(8, "big")
    return hmac.new(server_seed, msg, hashlib.sha256).digest()


class NaiveStream:
    """Reads words one at a time; recomputes nothing cleverly."""

    def __init__(self, server_seed, mat, label):
        self.server_seed, self.mat, self.label = server_seed, mat, label
        self.buffer = b""
        self.next_block = 0

    def word(self) -> int:
        if not self.buffer:
            self.buffer = block(self.server_seed, self.mat, self.label, self.next_block)
            self.next_block += 1
        w, self.buffer = self.buffer[:4], self.buffer[4:]
        return int.from_bytes(w, "big")

    def randbelow(self, n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def shuffle(self, cards: list) -> list:
        cards = list(cards)
        for i in range(len(cards) - 1, 0, -1):
            j = self.randbelow(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards


# --- section 5: the canonical shoe and the deal layouts ---------------------------------------


def canonical_shoe(settings: dict, n_seats: int) -> list:
    if "shoe" in settings:
        spec = settings["shoe"]
    else:
        spec = next(e for e in settings["shoe_by_players"] if n_seats <= e["max_players"])
    deck = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    return deck * spec["decks"] + ["JK"] * spec["jokers"] + ["MC"] * spec["masters"]


def deal_layout(game: str, settings: dict, shoe: list, n_seats: int, dealer: int) -> dict:
    step = -1 if settings.get("direction") == "anticlockwise" else 1
    order = [(dealer + step * k) % n_seats for k in range(1, n_seats + 1)]
    hands = [[] for _ in range(n_seats)]
    pos = 0
    for _ in range(settings["hand_size"]):
        for seat in order:
            hands[seat].append(shoe[pos])
            pos += 1
    if game == "marriage":
        return {"hands": hands, "turned_up": shoe[pos], "indicator": None, "stock": shoe[pos + 1:]}
    if game == "rummy13":
        return {"hands": hands, "indicator": shoe[pos], "turned_up": shoe[pos + 1], "stock": shoe[pos + 2:]}
    return {"hands": hands, "turned_up": None, "indicator": None, "stock": shoe[pos:]}


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_naive_implementation_reproduces_vector(v):  # rules, D-1, D-3
    exp = v["expect"]
    server = bytes.fromhex(v["server_seed"])
    seeds = [bytes.fromhex(s) for s in v["player_seeds"]]
    assert len(server) == 32 and all(16 <= len(s) <= 64 for s in seeds)
    assert len(seeds) == v["n_seats"]
    assert ruleset_hash(v["ruleset"]) == v["ruleset_hash"]
    assert server_commitment(server) == exp["server_commitment"]
    assert [seat_commitment(v["hand_id"], i, s) for i, s in enumerate(seeds)] == exp["player_commitments"]
    mat = material(v["hand_id"], v["ruleset_hash"], seeds)
    assert mat.hex() == exp["material"]
    settings = v["ruleset"]["settings"]
    shoe = NaiveStream(server, mat, "deal").shuffle(canonical_shoe(settings, v["n_seats"]))
    assert shoe == exp["shoe"]
    layout = deal_layout(v["ruleset"]["game"], settings, shoe, v["n_seats"], v["dealer"])
    for key in ("hands", "turned_up", "indicator", "stock"):
        assert layout[key] == exp[key], key
    for label, sub in exp["substreams"].items():
        assert block(server, mat, label, 0).hex() == sub["block0"]
        assert NaiveStream(server, mat, label).randbelow(sub["randbelow"]["n"]) == sub["randbelow"]["value"]
