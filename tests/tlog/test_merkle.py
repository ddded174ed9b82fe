"""RFC 9162 Merkle hashing and proofs: known answers, every size 0..300, and every single-bit change."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.errors import ProofError
from audit.tlog import merkle
from audit.tlog.merkle import (
    EMPTY_ROOT, MemoryTree, leaf_hash, root_from_inclusion_proof, verify_consistency, verify_inclusion,
)
from replay.errors import TipluError

VECTORS = json.loads((Path(__file__).parents[2] / "fixtures" / "tlog" / "rfc6962-vectors.json").read_text())
MAX_N = 300
REF_SIZE = 1024  # the reference log; proofs for sizes <= MAX_N are checked against its prefixes


# -- a naive reference written straight from RFC 9162 §2.1.1, §2.1.3.1, §2.1.4.1 (slices, no cache) --

def _sha(b: bytes) -> bytes:
    return hashlib.sha256(b).digest()


def ref_mth(d: list[bytes]) -> bytes:
    n = len(d)
    if n == 0:
        return _sha(b"")
    if n == 1:
        return _sha(b"\x00" + d[0])
    k = 1
    while k * 2 < n:
        k *= 2
    return _sha(b"\x01" + ref_mth(d[:k]) + ref_mth(d[k:]))


def ref_path(m: int, d: list[bytes]) -> list[bytes]:
    n = len(d)
    if n == 1:
        return []
    k = 1
    while k * 2 < n:
        k *= 2
    if m < k:
        return ref_path(m, d[:k]) + [ref_mth(d[k:])]
    return ref_path(m - k, d[k:]) + [ref_mth(d[:k])]


def ref_subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    n = len(d)
    if m == n:
        return [] if b else [ref_mth(d)]
    k = 1
    while k * 2 < n:
        k *= 2
    if m <= k:
        return ref_subproof(m, d[:k], b) + [ref_mth(d[k:])]
    return ref_subproof(m - k, d[k:], False) + [ref_mth(d[:k])]


def entry(i: int) -> bytes:
    return f"entry {i}".encode()


@pytest.fixture(scope="module")
def tree() -> MemoryTree:
    return MemoryTree(leaf_hash(entry(i)) for i in range(REF_SIZE))


@pytest.fixture(scope="module")
def roots(tree: MemoryTree) -> list[bytes]:
    """roots[n] = MTH of the first n entries, for every n <= REF_SIZE (computed incrementally)."""
    return [tree.root(n) for n in range(REF_SIZE + 1)]


# -- known answers --------------------------------------------------------------------------

def test_known_roots_of_the_ct_test_tree():
    entries = [bytes.fromhex(e) for e in VECTORS["entries"]]
    t = MemoryTree()
    assert t.root().hex() == VECTORS["roots"][0] == EMPTY_ROOT.hex()
    for n, e in enumerate(entries, start=1):
        t.append(e)
        assert t.root().hex() == VECTORS["roots"][n]
        assert ref_mth(entries[:n]).hex() == VECTORS["roots"][n]


def test_known_inclusion_and_consistency_proofs():
    t = MemoryTree(leaf_hash(bytes.fromhex(e)) for e in VECTORS["entries"])
    for v in VECTORS["inclusion"]:
        path = t.inclusion_proof(v["index"], v["size"])
        assert [p.hex() for p in path] == v["path"]
        verify_inclusion(t.levels[0][v["index"]], v["index"], v["size"], path, bytes.fromhex(VECTORS["roots"][v["size"]]))
    for v in VECTORS["consistency"]:
        path = t.consistency_proof(v["first"], v["second"])
        assert [p.hex() for p in path] == v["path"]
        verify_consistency(v["first"], v["second"], bytes.fromhex(VECTORS["roots"][v["first"]]),
                           bytes.fromhex(VECTORS["roots"][v["second"]]), path)


def test_hash_prefixes():
    assert leaf_hash(b"x") == _sha(b"\x00x")
    assert merkle.node_hash(b"a" * 32, b"b" * 32) == _sha(b"\x01" + b"a" * 32 + b"b" * 32)
    assert issubclass(ProofError, TipluError)
    assert issubclass(ProofError, ValueError)


# -- the cached implementation agrees with the naive reference ---------------------------------

def test_cached_proofs_equal_the_naive_rfc_recursion(tree):
    entries = [entry(i) for i in range(70)]
    for n in range(0, 70):
        assert tree.root(n) == ref_mth(entries[:n])
        for m in range(n):
            assert tree.inclusion_proof(m, n) == ref_path(m, entries[:n])
        for m in range(1, n):
            assert tree.consistency_proof(m, n) == ref_subproof(m, entries[:n], True)


# -- every size 0..300: every inclusion proof and every consistency proof verifies -------------

def test_every_inclusion_proof_up_to_300_verifies(tree, roots):
    for n in range(MAX_N + 1):
        for m in range(n):
            path = tree.inclusion_proof(m, n)
            verify_inclusion(tree.levels[0][m], m, n, path, roots[n])
        with pytest.raises(ProofError):
            tree.inclusion_proof(n, n)  # no leaf n in a tree of size n


def test_every_consistency_proof_up_to_300_verifies(tree, roots):
    for n in range(MAX_N + 1):
        for m in range(n + 1):
            verify_consistency(m, n, roots[m], roots[n], tree.consistency_proof(m, n))


# -- every single-bit change is rejected (systematic for a few sizes) --------------------------

def flip(b: bytes, bit: int) -> bytes:
    out = bytearray(b)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def root_for(size: int, roots: list[bytes], fallback: bytes) -> bytes:
    """The honest root of a flipped size when the reference log has one; else the old root."""
    return roots[size] if size <= REF_SIZE else fallback


def assert_inclusion_tamper_rejected(tree, roots, m: int, n: int) -> None:
    leaf, path, root = tree.levels[0][m], tree.inclusion_proof(m, n), roots[n]
    verify_inclusion(leaf, m, n, path, root)
    for bit in range(256):
        with pytest.raises(ProofError):
            verify_inclusion(flip(leaf, bit), m, n, path, root)
        with pytest.raises(ProofError):
            verify_inclusion(leaf, m, n, path, flip(root, bit))
        for j in range(len(path)):
            bad = list(path)
            bad[j] = flip(bad[j], bit)
            with pytest.raises(ProofError):
                verify_inclusion(leaf, m, n, bad, root)
    for bit in range(64):
        with pytest.raises(ProofError):
            verify_inclusion(leaf, m ^ (1 << bit), n, path, root)
        n2 = n ^ (1 << bit)
        with pytest.raises(ProofError):
            verify_inclusion(leaf, m, n2, path, root_for(n2, roots, root))
    with pytest.raises(ProofError):
        verify_inclusion(leaf, m, n, path + [root], root)
    if path:
        with pytest.raises(ProofError):
            verify_inclusion(leaf, m, n, path[:-1], root)


def assert_consistency_tamper_rejected(tree, roots, m: int, n: int) -> None:
    path, r1, r2 = tree.consistency_proof(m, n), roots[m], roots[n]
    verify_consistency(m, n, r1, r2, path)
    for bit in range(256):
        with pytest.raises(ProofError):
            verify_consistency(m, n, flip(r1, bit), r2, path)
        with pytest.raises(ProofError):
            verify_consistency(m, n, r1, flip(r2, bit), path)
        for j in range(len(path)):
            bad = list(path)
            bad[j] = flip(bad[j], bit)
            with pytest.raises(ProofError):
                verify_consistency(m, n, r1, r2, bad)
    for bit in range(64):
        m2, n2 = m ^ (1 << bit), n ^ (1 << bit)
        with pytest.raises(ProofError):
            verify_consistency(m2, n, root_for(m2, roots, r1), r2, path)
        with pytest.raises(ProofError):
            verify_consistency(m, n2, r1, root_for(n2, roots, r2), path)
    with pytest.raises(ProofError):
        verify_consistency(m, n, r1, r2, path + [r1])
    if path:
        with pytest.raises(ProofError):
            verify_consistency(m, n, r1, r2, path[:-1])


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 13, 16, 33])
def test_every_bit_flip_of_an_inclusion_proof_is_rejected(tree, roots, n):
    for m in range(n):
        assert_inclusion_tamper_rejected(tree, roots, m, n)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 8, 13, 16, 33])
def test_every_bit_flip_of_a_consistency_proof_is_rejected(tree, roots, n):
    for m in range(1, n):
        assert_consistency_tamper_rejected(tree, roots, m, n)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_random_bit_flips_up_to_300_are_rejected(tree, roots, data):
    n = data.draw(st.integers(1, MAX_N), label="size")
    m = data.draw(st.integers(0, n - 1), label="index")
    leaf, path, root = tree.levels[0][m], tree.inclusion_proof(m, n), roots[n]
    target = data.draw(st.sampled_from(["leaf", "root", "index", "size"] + ["path"] * bool(path)))
    bit = data.draw(st.integers(0, 255))
    args = [leaf, m, n, list(path), root]
    if target == "leaf":
        args[0] = flip(leaf, bit)
    elif target == "root":
        args[4] = flip(root, bit)
    elif target == "index":
        args[1] = m ^ (1 << (bit % 64))
    elif target == "size":
        args[2] = n ^ (1 << (bit % 64))
        args[4] = root_for(args[2], roots, root)
    else:
        j = data.draw(st.integers(0, len(path) - 1))
        args[3][j] = flip(path[j], bit)
    with pytest.raises(ProofError):
        verify_inclusion(*args)
    first = data.draw(st.integers(1, n), label="first")
    cpath = tree.consistency_proof(first, n)
    if cpath:
        j = data.draw(st.integers(0, len(cpath) - 1))
        bad = list(cpath)
        bad[j] = flip(bad[j], bit)
        with pytest.raises(ProofError):
            verify_consistency(first, n, roots[first], roots[n], bad)


# -- edge cases -------------------------------------------------------------------------------

def test_degenerate_consistency_cases(roots):
    verify_consistency(0, 5, EMPTY_ROOT, roots[5], [])
    verify_consistency(4, 4, roots[4], roots[4], [])
    with pytest.raises(ProofError):
        verify_consistency(0, 5, roots[1], roots[5], [])  # not the empty tree's root
    with pytest.raises(ProofError):
        verify_consistency(0, 5, EMPTY_ROOT, roots[5], [roots[5]])
    with pytest.raises(ProofError):
        verify_consistency(4, 4, roots[4], roots[5], [])  # split view at one size
    with pytest.raises(ProofError):
        verify_consistency(5, 4, roots[5], roots[4], [])
    with pytest.raises(ProofError):
        verify_consistency(3, 5, roots[3], roots[5], [])  # RFC step 1: empty proof fails


def test_malformed_inputs_raise_proof_error(tree, roots):
    path = tree.inclusion_proof(1, 5)
    for bad in [(b"x" * 31, 1, 5, path, roots[5]), (tree.levels[0][1], 1, 5, path, b"short"),
                (tree.levels[0][1], -1, 5, path, roots[5]), (tree.levels[0][1], 5, 5, path, roots[5]),
                (tree.levels[0][1], True, 5, path, roots[5]), (tree.levels[0][1], 1, 5, [b"x"] + path[1:], roots[5])]:
        with pytest.raises(ProofError):
            verify_inclusion(*bad)
    with pytest.raises(ProofError):
        root_from_inclusion_proof(tree.levels[0][0], 0, 0, [])
    with pytest.raises(ProofError):
        tree.consistency_proof(5, REF_SIZE + 1)


# -- the memo of a batch of inclusion proofs (a record's, under one checkpoint) ----------------

def _outcome(leaf, m, n, path, memo=None):
    """The root a path folds to, or the ProofError's message."""
    try:
        return root_from_inclusion_proof(leaf, m, n, path, memo=memo)
    except ProofError as exc:
        return f"error: {exc}"


def _variants(tree, m, n):
    """The honest proof of leaf m in D[n] and tampered ones: each element flipped (and so
    each suffix changed above a node shared with other proofs), one element short, one too
    many, another index, the leaf flipped."""
    leaf, path = tree.levels[0][m], tuple(tree.inclusion_proof(m, n))
    yield leaf, m, n, path
    for j in range(len(path)):
        yield leaf, m, n, path[:j] + (flip(path[j], j),) + path[j + 1:]
    if path:
        yield leaf, m, n, path[:-1]
    yield leaf, m, n, path + (leaf,)
    yield leaf, (m + 1) % n, n, path
    yield flip(leaf, 3), m, n, path


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 33, 70, 129, 300])
def test_a_memo_shared_by_a_batch_of_proofs_never_changes_an_answer(tree, n):
    memo: dict = {}  # one per tree size, shared by honest and tampered proofs in any order
    for m in list(range(n)) + list(range(n - 1, -1, -1)):
        for leaf, i, size, path in _variants(tree, m, n):
            assert _outcome(leaf, i, size, path, memo) == _outcome(leaf, i, size, path)


def test_a_memo_hashes_each_node_of_neighbouring_paths_once(tree, roots, monkeypatch):
    """13 neighbouring leaves of a 1,000-leaf tree (a hand's statements): without the memo
    each path is hashed to the root (13 x 10); with it, each node of their union once."""
    n = 1000
    proofs = [(tree.levels[0][m], m, tuple(tree.inclusion_proof(m, n))) for m in range(507, 520)]
    calls = []
    real = hashlib.sha256
    monkeypatch.setattr(hashlib, "sha256", lambda b=b"": calls.append(1) or real(b))
    for memo in (None, {}):
        calls.clear()
        for leaf, m, path in proofs:
            assert root_from_inclusion_proof(leaf, m, n, path, memo=memo) == roots[n]
        if memo is None:
            assert len(calls) == 130
        else:
            assert len(calls) <= 40, len(calls)
