"""Every behaviour of ``audit/tlog/merkle.py`` pinned by small examples, each error by its words.

Fast and deterministic (no Hypothesis): this is the selection the mutation benchmark runs
for the Merkle module (``bench/mutation.py``, ``docs/mutation.md``).  The exhaustive and
random checks over every size up to 300 are in ``test_merkle.py``; the reference used here
is the same naive reading of RFC 9162 §2.1 written with list slices (``ref_mth``,
``ref_path``, ``ref_subproof`` there), and the RFC 6962 / CT test vectors.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from audit.errors import ProofError
from audit.tlog import merkle
from audit.tlog.merkle import (
    EMPTY_ROOT, MemoryTree, consistency_path, inclusion_path, leaf_hash, node_hash, range_hash,
    root_from_inclusion_proof, split_point, verify_consistency, verify_inclusion,
)
from tests.tlog.test_merkle import entry, flip, ref_mth, ref_path, ref_subproof

VECTORS = json.loads((Path(__file__).parents[2] / "fixtures" / "tlog" / "rfc6962-vectors.json").read_text())
N = 40
ENTRIES = [entry(i) for i in range(N)]
TREE = MemoryTree(leaf_hash(e) for e in ENTRIES)
ROOTS = [ref_mth(ENTRIES[:n]) for n in range(N + 1)]
LEAVES = [leaf_hash(e) for e in ENTRIES]


def says(words: str):
    """``pytest.raises(ProofError)`` whose message is exactly ``words``."""
    return pytest.raises(ProofError, match=f"^{re.escape(words)}$")


def recording(tree: MemoryTree, calls: list):
    def perfect(level: int, index: int) -> bytes:
        calls.append((level, index))
        return tree.perfect(level, index)
    return perfect


# -- hashes and the split ----------------------------------------------------------------------

def test_leaf_and_node_hashes_are_the_rfc_ones():
    # RFC 6962 / CT: the leaf hash of the empty entry
    assert leaf_hash(b"").hex() == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
    assert leaf_hash(b"ab") == hashlib.sha256(b"\x00ab").digest()
    assert node_hash(b"L" * 32, b"R" * 32) == hashlib.sha256(b"\x01" + b"L" * 32 + b"R" * 32).digest()
    assert node_hash(b"L" * 32, b"R" * 32) != node_hash(b"R" * 32, b"L" * 32)
    assert EMPTY_ROOT.hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert merkle.HASH_SIZE == 32


def test_split_point_is_the_largest_power_of_two_below_n():
    for n, k in {2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 8: 4, 9: 8, 16: 8, 17: 16, 1025: 1024}.items():
        assert split_point(n) == k, n
    for n in (1, 0, -3):
        with pytest.raises(ValueError, match="^a tree of fewer than 2 leaves does not split$"):
            split_point(n)


# -- range_hash ---------------------------------------------------------------------------------

def test_range_hash_is_the_mth_of_any_range():
    for start in range(N):
        for end in range(start + 1, N + 1):
            assert range_hash(start, end, TREE.perfect) == ref_mth(ENTRIES[start:end]), (start, end)


def test_range_hash_reads_one_perfect_subtree_when_the_range_is_one():
    calls: list = []
    assert range_hash(0, 0, recording(TREE, calls)) == EMPTY_ROOT and calls == []
    assert range_hash(4, 6, recording(TREE, calls)) == TREE.levels[1][2] and calls == [(1, 2)]
    calls.clear()
    assert range_hash(8, 16, recording(TREE, calls)) == TREE.levels[3][1] and calls == [(3, 1)]
    calls.clear()
    assert range_hash(7, 8, recording(TREE, calls)) == LEAVES[7] and calls == [(0, 7)]
    calls.clear()
    # a power-of-two size that does not start on a multiple of itself is split
    assert range_hash(2, 6, recording(TREE, calls)) == node_hash(TREE.levels[1][1], TREE.levels[1][2])
    assert calls == [(1, 1), (1, 2)]
    calls.clear()
    assert range_hash(0, 6, recording(TREE, calls)) == ROOTS[6] and calls == [(2, 0), (1, 2)]


def test_range_hash_refuses_an_empty_or_negative_range():
    for start, end in [(3, 3), (0, -1), (5, 4), (1, 0)]:
        with pytest.raises(ValueError, match=f"^{re.escape(f'empty or negative range [{start}, {end})')}$"):
            range_hash(start, end, TREE.perfect)


# -- sizes and hashes given to the proofs --------------------------------------------------------

BAD_SIZES = [((True, 5), "index and size must be integers"), ((1, True), "index and size must be integers"),
             ((1.0, 5), "index and size must be integers"), ((1, "5"), "index and size must be integers"),
             ((None, 5), "index and size must be integers"), ((1, 5.0), "index and size must be integers"),
             ((-1, 5), "negative index or size"), ((1, -5), "negative index or size"),
             ((-2, -1), "negative index or size")]


@pytest.mark.parametrize("sizes, words", BAD_SIZES)
def test_bad_index_or_size_is_refused_in_words(sizes, words):
    a, b = sizes
    with says(f"inclusion proof: {words}"):
        inclusion_path(a, b, TREE.perfect)
    with says(f"inclusion proof: {words}"):
        root_from_inclusion_proof(LEAVES[0], a, b, [])
    with says(f"inclusion proof: {words}"):
        verify_inclusion(LEAVES[0], a, b, [], ROOTS[5])
    with says(f"consistency proof: {words}"):
        consistency_path(a, b, TREE.perfect)
    with says(f"consistency proof: {words}"):
        verify_consistency(a, b, ROOTS[1], ROOTS[5], [ROOTS[1]])


def test_hash_arguments_must_be_32_bytes():
    good = LEAVES[3]
    for bad in (b"x" * 31, b"x" * 33, b"", "x" * 32, None, list(good), memoryview(good)):
        with says("leaf hash is not a 32-byte hash"):
            root_from_inclusion_proof(bad, 0, 1, [])
        with says("root hash is not a 32-byte hash"):
            verify_inclusion(good, 0, 1, [], bad)
        with says("inclusion path element 2 is not a 32-byte hash"):
            root_from_inclusion_proof(LEAVES[0], 0, 8, [LEAVES[1], good, bad])
        with says("first root is not a 32-byte hash"):
            verify_consistency(1, 2, bad, ROOTS[2], [LEAVES[1]])
        with says("second root is not a 32-byte hash"):
            verify_consistency(1, 2, ROOTS[1], bad, [LEAVES[1]])
        with says("consistency path element 1 is not a 32-byte hash"):
            verify_consistency(1, 3, ROOTS[1], ROOTS[3], [LEAVES[1], bad])
        with says("leaf hash is not a 32-byte hash"):
            MemoryTree().append_leaf_hash(bad)
    # the root is checked before the leaf; a bad element before the path's length
    with says("root hash is not a 32-byte hash"):
        verify_inclusion(b"short", 0, 1, [], b"short")
    with says("inclusion path element 0 is not a 32-byte hash"):
        root_from_inclusion_proof(LEAVES[0], 0, 1, [b"short"])


def test_bytearrays_count_as_hashes_and_answers_are_bytes():
    path = inclusion_path(3, 7, TREE.perfect)
    root = root_from_inclusion_proof(bytearray(LEAVES[3]), 3, 7, [bytearray(p) for p in path])
    assert root == ROOTS[7] and type(root) is bytes
    verify_inclusion(bytearray(LEAVES[3]), 3, 7, [bytearray(p) for p in path], bytearray(ROOTS[7]))
    cpath = consistency_path(3, 7, TREE.perfect)
    verify_consistency(3, 7, bytearray(ROOTS[3]), bytearray(ROOTS[7]), [bytearray(p) for p in cpath])
    verify_consistency(4, 7, bytearray(ROOTS[4]), bytearray(ROOTS[7]), [bytearray(p) for p in consistency_path(4, 7, TREE.perfect)])
    t = MemoryTree([bytearray(LEAVES[0])])
    assert type(t.levels[0][0]) is bytes and t.root() == ROOTS[1]
    assert root_from_inclusion_proof(bytes(LEAVES[0]), 0, 1, ()) == LEAVES[0]


# -- inclusion proofs ---------------------------------------------------------------------------

def test_inclusion_paths_are_the_rfc_paths():
    for n in range(1, 21):
        for m in range(n):
            assert inclusion_path(m, n, TREE.perfect) == ref_path(m, ENTRIES[:n]), (m, n)
    assert inclusion_path(0, 1, TREE.perfect) == []


def test_no_inclusion_path_for_a_leaf_past_the_tree():
    for m, n in [(5, 5), (0, 0), (6, 5), (9, 1)]:
        with says(f"no leaf {m} in a tree of size {n}"):
            inclusion_path(m, n, TREE.perfect)


def test_every_inclusion_proof_up_to_40_leads_to_its_root():
    for n in range(1, N + 1):
        for m in range(n):
            path = inclusion_path(m, n, TREE.perfect)
            assert root_from_inclusion_proof(LEAVES[m], m, n, path) == ROOTS[n], (m, n)
            assert verify_inclusion(LEAVES[m], m, n, path, ROOTS[n]) is None


def test_known_inclusion_proofs_of_the_ct_test_tree():
    t = MemoryTree(leaf_hash(bytes.fromhex(e)) for e in VECTORS["entries"])
    for v in VECTORS["inclusion"]:
        path = [bytes.fromhex(p) for p in v["path"]]
        assert t.inclusion_proof(v["index"], v["size"]) == path
        root = bytes.fromhex(VECTORS["roots"][v["size"]])
        assert root_from_inclusion_proof(t.levels[0][v["index"]], v["index"], v["size"], path) == root
        verify_inclusion(t.levels[0][v["index"]], v["index"], v["size"], path, root)


def test_an_index_not_below_the_size_is_refused_in_words():
    with says("leaf index 5 is not below tree size 5"):
        root_from_inclusion_proof(LEAVES[5], 5, 5, inclusion_path(4, 5, TREE.perfect))
    with says("leaf index 0 is not below tree size 0"):
        root_from_inclusion_proof(LEAVES[0], 0, 0, [])
    with says("leaf index 7 is not below tree size 3"):
        verify_inclusion(LEAVES[7], 7, 3, [], ROOTS[3])


def test_a_path_of_the_wrong_length_is_refused_in_words():
    for n in range(1, 34):
        for m in range(n):
            path = inclusion_path(m, n, TREE.perfect)
            with says("inclusion path is longer than the tree is deep"):
                root_from_inclusion_proof(LEAVES[m], m, n, path + [LEAVES[0]])
            with says("inclusion path is longer than the tree is deep"):
                root_from_inclusion_proof(LEAVES[m], m, n, path + [ROOTS[n], ROOTS[n]])
            if path:
                with says("inclusion path is shorter than the tree is deep"):
                    root_from_inclusion_proof(LEAVES[m], m, n, path[:-1])
                with says("inclusion path is shorter than the tree is deep"):
                    verify_inclusion(LEAVES[m], m, n, path[:-1], ROOTS[n])
    assert root_from_inclusion_proof(LEAVES[0], 0, 1, []) == LEAVES[0]


def test_a_wrong_proof_does_not_lead_to_the_root():
    for m, n in [(0, 2), (1, 2), (3, 7), (4, 5), (6, 7), (8, 9), (12, 13), (5, 16), (31, 33)]:
        leaf, path = LEAVES[m], inclusion_path(m, n, TREE.perfect)
        words = f"inclusion proof of leaf {m} does not lead to the root of size {n}"
        with says(words):
            verify_inclusion(leaf, m, n, path, ROOTS[n - 1])
        with says(words):
            verify_inclusion(LEAVES[m - 1], m, n, path, ROOTS[n])
        for j in range(len(path)):
            with says(words):
                verify_inclusion(leaf, m, n, path[:j] + [flip(path[j], 7)] + path[j + 1:], ROOTS[n])
        if len(path) > 1:  # wrong sibling order
            with says(words):
                verify_inclusion(leaf, m, n, path[::-1], ROOTS[n])
        # another index of the same depth folds the same siblings on other sides
        other = m ^ 1 if (m ^ 1) < n else m - 1
        if len(inclusion_path(other, n, TREE.perfect)) == len(path):
            with says(f"inclusion proof of leaf {other} does not lead to the root of size {n}"):
                verify_inclusion(leaf, other, n, path, ROOTS[n])


def test_right_edge_leaves_fold_past_their_missing_siblings():
    """4b with fn == sn: the last leaf of a tree whose size is not a power of two climbs
    several levels before its next sibling (RFC 9162 §2.1.3.2 step 4b's inner loop)."""
    for m, n in [(4, 5), (8, 9), (16, 17), (12, 13), (2, 3), (6, 7), (32, 33), (10, 11)]:
        path = inclusion_path(m, n, TREE.perfect)
        assert root_from_inclusion_proof(LEAVES[m], m, n, path) == ROOTS[n]


# -- consistency proofs -------------------------------------------------------------------------

def test_consistency_paths_are_the_rfc_proofs():
    for n in range(1, 21):
        for m in range(1, n):
            assert consistency_path(m, n, TREE.perfect) == ref_subproof(m, ENTRIES[:n], True), (m, n)
    for m, n in [(0, 0), (0, 5), (5, 5), (1, 1)]:
        assert consistency_path(m, n, TREE.perfect) == []
    with says("first size 6 is larger than second size 5"):
        consistency_path(6, 5, TREE.perfect)
    with says("first size 1 is larger than second size 0"):
        consistency_path(1, 0, TREE.perfect)


def test_known_consistency_proofs_of_the_ct_test_tree():
    t = MemoryTree(leaf_hash(bytes.fromhex(e)) for e in VECTORS["entries"])
    for v in VECTORS["consistency"]:
        path = [bytes.fromhex(p) for p in v["path"]]
        assert t.consistency_proof(v["first"], v["second"]) == path
        verify_consistency(v["first"], v["second"], bytes.fromhex(VECTORS["roots"][v["first"]]),
                           bytes.fromhex(VECTORS["roots"][v["second"]]), path)


def test_every_consistency_proof_up_to_40_verifies_and_every_change_is_refused():
    for n in range(2, N + 1):
        for m in range(1, n):
            path = consistency_path(m, n, TREE.perfect)
            assert verify_consistency(m, n, ROOTS[m], ROOTS[n], path) is None
            with says("consistency proof is longer than the trees are deep"):
                verify_consistency(m, n, ROOTS[m], ROOTS[n], path + [ROOTS[m]])
            if len(path) > 1:
                with says("consistency proof is shorter than the trees are deep"):
                    verify_consistency(m, n, ROOTS[m], ROOTS[n], path[:-1])
            for j in range(len(path)):
                with pytest.raises(ProofError, match=f"^consistency proof does not lead to the root of size ({m}|{n})$"):
                    verify_consistency(m, n, ROOTS[m], ROOTS[n], path[:j] + [flip(path[j], j)] + path[j + 1:])
            with says(f"consistency proof does not lead to the root of size {n}"):
                verify_consistency(m, n, ROOTS[m], ROOTS[n - 1], path)
            if m & (m - 1):  # not a power of two: the first root is folded from the path
                with says(f"consistency proof does not lead to the root of size {m}"):
                    verify_consistency(m, n, ROOTS[m - 1], ROOTS[n], path)
            else:  # a power of two: the first root starts the fold, so a wrong one spoils the second
                with says(f"consistency proof does not lead to the root of size {n}"):
                    verify_consistency(m, n, ROOTS[m + 1], ROOTS[n], path)


def test_a_consistency_proof_for_other_sizes_is_refused():
    path = consistency_path(3, 7, TREE.perfect)
    for m, n, words in [(2, 7, "consistency proof is longer than the trees are deep"),
                        (3, 6, "consistency proof does not lead to the root of size 6"),
                        (3, 8, "consistency proof does not lead to the root of size 8"),
                        (5, 7, "consistency proof does not lead to the root of size 5"),
                        (4, 7, "consistency proof is longer than the trees are deep")]:
        with says(words):
            verify_consistency(m, n, ROOTS[m], ROOTS[n], path)


def test_consistency_from_the_empty_tree_or_to_the_same_size():
    verify_consistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])
    verify_consistency(0, 5, EMPTY_ROOT, ROOTS[5], [])
    verify_consistency(0, 1, EMPTY_ROOT, ROOTS[1], [])
    verify_consistency(4, 4, ROOTS[4], ROOTS[4], [])
    verify_consistency(1, 1, ROOTS[1], ROOTS[1], [])
    for m, n in [(0, 5), (4, 4), (0, 0), (1, 1)]:
        with says("a consistency proof from the empty tree or to the same size must be empty"):
            verify_consistency(m, n, ROOTS[m], ROOTS[n], [ROOTS[n]])
    with says("the root of the empty tree is SHA-256 of the empty string"):
        verify_consistency(0, 5, ROOTS[1], ROOTS[5], [])
    with says("the root of the empty tree is SHA-256 of the empty string"):
        verify_consistency(0, 0, ROOTS[1], ROOTS[1], [])
    with says("two different roots for the same tree size 4"):
        verify_consistency(4, 4, ROOTS[4], ROOTS[5], [])
    with says("two different roots for the same tree size 0"):
        verify_consistency(0, 0, EMPTY_ROOT, ROOTS[1], [])
    with says("first size 5 is larger than second size 4"):
        verify_consistency(5, 4, ROOTS[5], ROOTS[4], [])
    with says("first size 1 is larger than second size 0"):
        verify_consistency(1, 0, ROOTS[1], EMPTY_ROOT, [])
    for m, n in [(3, 5), (1, 2), (4, 8)]:
        with says("empty consistency proof"):
            verify_consistency(m, n, ROOTS[m], ROOTS[n], [])


# -- the in-memory tree -------------------------------------------------------------------------

def test_a_memory_tree_caches_every_perfect_subtree():
    t = MemoryTree()
    assert t.size == 0 and t.levels == [[]] and t.root() == EMPTY_ROOT == t.root(0)
    assert [t.append(e) for e in ENTRIES[:5]] == [0, 1, 2, 3, 4]
    assert t.append_leaf_hash(LEAVES[5]) == 5
    n01, n23, n45 = node_hash(LEAVES[0], LEAVES[1]), node_hash(LEAVES[2], LEAVES[3]), node_hash(LEAVES[4], LEAVES[5])
    assert t.levels == [LEAVES[:6], [n01, n23, n45], [node_hash(n01, n23)]]
    assert t.size == 6 and t.perfect(1, 2) == n45 and t.perfect(2, 0) == node_hash(n01, n23)
    assert MemoryTree(LEAVES[:6]).levels == t.levels
    assert MemoryTree(iter(LEAVES[:8])).levels[3] == [ROOTS[8]]
    assert [len(level) for level in TREE.levels] == [40, 20, 10, 5, 2, 1]
    with says("leaf hash is not a 32-byte hash"):
        t.append_leaf_hash(b"short")
    assert t.size == 6 and t.levels == [LEAVES[:6], [n01, n23, n45], [node_hash(n01, n23)]]


def test_a_memory_tree_answers_for_any_size_it_holds():
    t = MemoryTree(LEAVES[:5])
    assert t.root() == t.root(5) == ROOTS[5]
    assert [t.root(n) for n in range(6)] == ROOTS[:6]
    for size in (6, -1, 100):
        with says(f"no tree of size {size} (the tree has 5 leaves)"):
            t.root(size)
    assert t.inclusion_proof(2) == t.inclusion_proof(2, 5) == ref_path(2, ENTRIES[:5])
    assert t.inclusion_proof(1, 3) == ref_path(1, ENTRIES[:3])
    with says("no tree of size 6 (the tree has 5 leaves)"):
        t.inclusion_proof(0, 6)
    with says("no leaf 5 in a tree of size 5"):
        t.inclusion_proof(5)
    assert t.inclusion_proof(4, 5) == ref_path(4, ENTRIES[:5])
    assert t.consistency_proof(2) == t.consistency_proof(2, 5) == ref_subproof(2, ENTRIES[:5], True)
    assert t.consistency_proof(3, 4) == ref_subproof(3, ENTRIES[:4], True)
    assert t.consistency_proof(5) == [] == t.consistency_proof(5, 5)
    with says("no tree of size 6 (the tree has 5 leaves)"):
        t.consistency_proof(2, 6)
    with says("first size 6 is larger than second size 5"):
        t.consistency_proof(6)
    with pytest.raises(AttributeError, match="other"):
        t.other = 1  # slotted


# -- the memo of a batch of inclusion proofs ----------------------------------------------------

def _outcome(leaf, m, n, path, memo=None):
    try:
        return root_from_inclusion_proof(leaf, m, n, path, memo=memo)
    except ProofError as exc:
        return f"error: {exc}"


def _batch(n):
    """Honest and tampered proofs of every leaf of D[n], each twice (the second time meets
    its own first pass in the memo): honest, each element flipped, one short, one long,
    another index, the leaf flipped."""
    for m in list(range(n)) + list(range(n - 1, -1, -1)):
        leaf, path = LEAVES[m], tuple(inclusion_path(m, n, TREE.perfect))
        yield leaf, m, n, path
        for j in range(len(path)):
            yield leaf, m, n, path[:j] + (flip(path[j], j),) + path[j + 1:]
        if path:
            yield leaf, m, n, path[:-1]
        yield leaf, m, n, path + (leaf,)
        yield leaf, m, n, path + (leaf, leaf)
        yield leaf, (m + 1) % n, n, path
        yield flip(leaf, 3), m, n, path


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 33])
def test_a_memo_never_changes_an_answer(n):
    memo: dict = {}
    for leaf, m, size, path in _batch(n):
        assert _outcome(leaf, m, size, path, memo) == _outcome(leaf, m, size, path)


def test_a_failed_fold_in_the_memo_is_never_taken_for_a_root():
    n, m = 13, 6
    path = tuple(inclusion_path(m, n, TREE.perfect))
    memo: dict = {}
    long = path + (LEAVES[0],)
    for _ in range(3):
        with says("inclusion path is longer than the tree is deep"):
            root_from_inclusion_proof(LEAVES[m], m, n, long, memo=memo)
    assert root_from_inclusion_proof(LEAVES[m], m, n, path, memo=memo) == ROOTS[n]
    # the honest fold ended: its states now carry its root, a second pass takes it at once
    assert root_from_inclusion_proof(LEAVES[m], m, n, path, memo=memo) == ROOTS[n]
    with says("inclusion path is longer than the tree is deep"):
        root_from_inclusion_proof(LEAVES[m], m, n, long, memo=memo)
    with says("inclusion path is shorter than the tree is deep"):
        root_from_inclusion_proof(LEAVES[m], m, n, path[:-1], memo=memo)


def _ancestors(m: int, n: int) -> list[tuple[int, int]]:
    """The subtrees [start, end) above leaf m in D[n], lowest first (the RFC recursion)."""
    out, start, end = [], 0, n
    while end - start > 1:
        out.append((start, end))
        k = split_point(end - start)
        start, end = (start, start + k) if m < start + k else (start + k, end)
    return out[::-1]


@pytest.mark.parametrize("n, leaves", [(1000, range(507, 520)), (40, range(40)), (33, [32, 0, 31, 16]),
                                       (13, [12, 11, 5, 5, 4])])
def test_a_memo_hashes_each_path_only_up_to_a_node_already_folded(monkeypatch, n, leaves):
    """Without the memo each proof hashes its whole path; with it, a proof stops at the
    first node an earlier proof of the batch folded (that node hashed once more)."""
    tree = TREE if n <= N else MemoryTree(leaf_hash(entry(i)) for i in range(n))
    root = tree.root(n)
    proofs = [(tree.levels[0][m], m, tuple(tree.inclusion_proof(m, n))) for m in leaves]
    seen: set = set()  # the states stored in the memo: the leaf and every node below the root
    expected = []
    for m in leaves:
        nodes = [("leaf", m), *_ancestors(m, n)]  # nodes[i]: what r holds before path[i]; the last is the root
        expected.append(next((i for i, node in enumerate(nodes[:-1]) if node in seen), len(nodes) - 1))
        seen.update(nodes[:-1])
    calls = []
    real = hashlib.sha256
    monkeypatch.setattr(hashlib, "sha256", lambda b=b"": calls.append(1) or real(b))
    for memo, want in ((None, [len(p) for _, _, p in proofs]), ({}, expected)):
        got = []
        for leaf, m, path in proofs:
            calls.clear()
            assert root_from_inclusion_proof(leaf, m, n, path, memo=memo) == root
            got.append(len(calls))
        assert got == want
