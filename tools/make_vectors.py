#!/usr/bin/env python3
"""Write fixtures/vectors/v1.json: the v1 known-answer vectors.

The inputs are fixed here (seeds are SHA-256 of readable labels, so the file can be
regenerated and reviewed); the expected values come from :mod:`replay.fairness`.  The
Python tests and the in-browser verifier both check every vector, and a naive
re-implementation in the tests, written from docs/fairness.md alone, reproduces them.

    python tools/make_vectors.py            # rewrite the file
    python tools/make_vectors.py --check    # exit 1 if the file is not what this writes
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.fairness import hand_randomness  # noqa: E402
from replay.known_answers import VECTORS_FORMAT, known_answers  # noqa: E402
from replay.rulesets import resolve  # noqa: E402

OUT = ROOT / "fixtures" / "vectors" / "v1.json"

# (preset, overrides, player counts)
CASES = [
    ("marriage/nepal", {}, [2, 3, 4, 5]),
    ("marriage/classic", {}, [2, 3, 4, 5]),
    ("marriage/classic", {"direction": "anticlockwise"}, [4]),
    ("kitti", {}, [2, 3, 4, 5]),
    ("kitti", {"sequence_order": "a23-high"}, [3]),
    ("rummy13", {}, [4, 6, 8]),
    ("rummy13", {"players": {"allowed": [2, 3, 4, 5, 6, 7, 8]}}, [2, 7]),
]


def h(label: str, size: int = 32) -> bytes:
    return hashlib.sha256(label.encode()).digest()[:size]


def vector(preset: str, overrides: dict, n: int, variant: int) -> dict:
    rs = resolve(preset, overrides)
    name = f"{preset}/{n}p" + ("/" + ",".join(sorted(overrides)) if overrides else "") + f"/{variant}"
    hand_id = f"vec-{preset.replace('/', '-')}-{n}-{variant}" + ("-o" if overrides else "")
    server = h("server:" + name)
    seeds = [h(f"seat{i}:" + name, 16 + 8 * ((i + variant) % 3)) for i in range(n)]
    dealer = (n - 1) if variant == 0 else (variant % n)  # variant 0: MN-6, the last seat deals
    return {
        "name": name,
        "preset": preset,
        "ruleset": rs.to_json(),
        "ruleset_hash": rs.hash,
        "hand_id": hand_id,
        "n_seats": n,
        "dealer": dealer,
        "server_seed": server.hex(),
        "player_seeds": [s.hex() for s in seeds],
        "expect": known_answers(server, hand_id, rs, seeds, dealer),
    }


# Edge cases (issue #15): rejection sampling, the largest player seed, a non-ASCII hand id.
REJECT_LABEL, REJECT_N = "rejection", 2 ** 31 + 1  # limit 2**31 + 1: about half of all words are rejected


def first_word_rejected(server: bytes, hand_id: str, rs, seeds: list[bytes]) -> bool:
    """Whether the first u32 of the ``rejection`` sub-stream is rejected by randbelow(REJECT_N)."""
    limit = 2 ** 32 - (2 ** 32 % REJECT_N)
    return hand_randomness(server, hand_id, rs, seeds).stream(REJECT_LABEL).next_u32() >= limit


def edge_vectors() -> list[dict]:
    out = []
    # Rejection sampling: the first server-seed label (by counter) whose first candidate is rejected.
    rs = resolve("kitti", {})
    name = "kitti/4p/rejection"
    seeds = [h(f"seat{i}:" + name) for i in range(4)]
    k = 0
    while not first_word_rejected(h(f"server:{name}:{k}"), "vec-kitti-rejection", rs, seeds):
        k += 1
    server = h(f"server:{name}:{k}")
    out.append(_edge(name, "kitti", rs, "vec-kitti-rejection", server, seeds, 3, [(REJECT_LABEL, REJECT_N)]))
    # A 64-byte player seed (the largest allowed) next to a 16-byte one (the smallest).
    rs = resolve("marriage/nepal", {})
    name = "marriage/nepal/3p/seed64"
    seeds = [hashlib.sha512(f"seat0:{name}".encode()).digest(), h(f"seat1:{name}", 16), h(f"seat2:{name}")]
    out.append(_edge(name, "marriage/nepal", rs, "vec-marriage-nepal-seed64", h("server:" + name), seeds, 2))
    # A non-ASCII hand id: Devanagari ("hand-1" in Nepali), UTF-8 in every hash.
    rs = resolve("rummy13", {})
    name = "rummy13/4p/devanagari"
    seeds = [h(f"seat{i}:" + name) for i in range(4)]
    out.append(_edge(name, "rummy13", rs, "हात-१-तिप्लु", h("server:" + name), seeds, 3))
    return out


def _edge(name, preset, rs, hand_id, server, seeds, dealer, extra=()) -> dict:
    return {
        "name": name, "preset": preset, "ruleset": rs.to_json(), "ruleset_hash": rs.hash,
        "hand_id": hand_id, "n_seats": len(seeds), "dealer": dealer, "server_seed": server.hex(),
        "player_seeds": [s.hex() for s in seeds],
        "expect": known_answers(server, hand_id, rs, seeds, dealer, extra),
    }


def build() -> dict:
    vectors = [vector(p, o, n, v) for p, o, ns in CASES for n in ns for v in (0, 1)] + edge_vectors()
    return {"format": VECTORS_FORMAT, "protocol": "v1", "count": len(vectors), "vectors": vectors}


def main() -> int:
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    if "--check" in sys.argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("vectors are current" if same else "vectors differ from tools/make_vectors.py")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
