"""Merkle tree hashing and proofs of RFC 9162 §2.1 (Certificate Transparency v2), as pure functions.

Glossary (the RFC's words):

* *entry* -- the bytes logged at one position (for Tiplu: a signed statement, see
  :mod:`audit.tlog.store`).  ``D[n]`` is the list of the first ``n`` entries.
* *leaf hash* -- ``SHA-256(0x00 || entry)``; *node hash* -- ``SHA-256(0x01 || left || right)``.
* *MTH(D[n])* -- the Merkle Tree Hash (the *root*) of ``n`` entries: the empty string's
  SHA-256 for ``n = 0``, the leaf hash for ``n = 1``, else ``node(MTH(D[0:k]), MTH(D[k:n]))``
  with ``k`` the largest power of two *smaller than* ``n``.
* *perfect subtree* ``(level, index)`` -- the ``2**level`` leaves ``[index << level,
  (index + 1) << level)``.  Every subtree the recursion visits is made of such pieces, so a
  store that caches perfect subtrees answers any MTH in O(log n) look-ups
  (:class:`MemoryTree` here, :class:`audit.tlog.store.TransparencyLog` on SQLite).
* *inclusion proof* ``PATH(m, D[n])`` (§2.1.3.1) -- the sibling hashes from leaf ``m`` up
  to the root of ``D[n]``, lowest first.
* *consistency proof* ``PROOF(m, D[n])`` (§2.1.4.1) -- the hashes that show ``D[m]`` is a
  prefix of ``D[n]``.

Proof *generation* takes a ``perfect(level, index) -> bytes`` callable, so the same code
serves lists, in-memory trees and the database.  Proof *verification* (§2.1.3.2 and
§2.1.4.2) needs only hashes; it returns nothing or raises :class:`audit.errors.ProofError`.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Callable, Iterable, Sequence

from audit.errors import ProofError

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()

PerfectHash = Callable[[int, int], bytes]
"""``perfect(level, index)``: the hash of the perfect subtree of ``2**level`` leaves at ``index``."""


def leaf_hash(entry: bytes) -> bytes:
    """``SHA-256(0x00 || entry)`` (RFC 9162 §2.1.1)."""
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)`` (RFC 9162 §2.1.1)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def split_point(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n >= 2``): where MTH splits ``D[n]``."""
    if n < 2:
        raise ValueError("a tree of fewer than 2 leaves does not split")
    return 1 << ((n - 1).bit_length() - 1)


def range_hash(start: int, end: int, perfect: PerfectHash) -> bytes:
    """MTH(D[start:end]) for a subtree the RFC recursion can reach (``start`` aligned).

    A subtree whose size ``s`` is a power of two and whose start is a multiple of ``s`` is
    one perfect subtree; otherwise it splits at the largest power of two smaller than ``s``.
    """
    size = end - start
    if size <= 0:
        if size == 0 and start == 0:
            return EMPTY_ROOT
        raise ValueError(f"empty or negative range [{start}, {end})")
    if size & (size - 1) == 0 and start % size == 0:
        level = size.bit_length() - 1
        return perfect(level, start >> level)
    k = split_point(size)
    return node_hash(range_hash(start, start + k, perfect), range_hash(start + k, end, perfect))


def _check_sizes(index: int, size: int, what: str) -> None:
    if isinstance(index, bool) or isinstance(size, bool) or not isinstance(index, int) or not isinstance(size, int):
        raise ProofError(f"{what}: index and size must be integers")
    if index < 0 or size < 0:
        raise ProofError(f"{what}: negative index or size")


def inclusion_path(index: int, size: int, perfect: PerfectHash) -> list[bytes]:
    """PATH(m, D[n]) of RFC 9162 §2.1.3.1: sibling hashes of leaf ``index`` in a tree of ``size``."""
    _check_sizes(index, size, "inclusion proof")
    if index >= size:
        raise ProofError(f"no leaf {index} in a tree of size {size}")

    def path(m: int, start: int, end: int) -> list[bytes]:
        n = end - start
        if n == 1:
            return []  # PATH(0, {d(0)}) = {}
        k = split_point(n)
        if m < k:  # PATH(m, D[0:k]) : MTH(D[k:n])
            return path(m, start, start + k) + [range_hash(start + k, end, perfect)]
        # PATH(m - k, D[k:n]) : MTH(D[0:k])
        return path(m - k, start + k, end) + [range_hash(start, start + k, perfect)]

    return path(index, 0, size)


def consistency_path(first: int, second: int, perfect: PerfectHash) -> list[bytes]:
    """PROOF(m, D[n]) of RFC 9162 §2.1.4.1 (``0 <= first <= second``).

    For ``first == 0`` or ``first == second`` the proof is empty (the RFC defines the proof
    only for ``0 < m < n``; these two cases are trivially consistent).
    """
    _check_sizes(first, second, "consistency proof")
    if first > second:
        raise ProofError(f"first size {first} is larger than second size {second}")
    if first == 0 or first == second:
        return []

    def subproof(m: int, start: int, end: int, b: bool) -> list[bytes]:
        n = end - start
        if m == n:  # SUBPROOF(m, D[m], true) = {}; SUBPROOF(m, D[m], false) = {MTH(D[m])}
            return [] if b else [range_hash(start, end, perfect)]
        k = split_point(n)
        if m <= k:  # SUBPROOF(m, D[0:k], b) : MTH(D[k:n])
            return subproof(m, start, start + k, b) + [range_hash(start + k, end, perfect)]
        # SUBPROOF(m - k, D[k:n], false) : MTH(D[0:k])
        return subproof(m - k, start + k, end, False) + [range_hash(start, start + k, perfect)]

    return subproof(first, 0, second, True)


# -- verification ---------------------------------------------------------------------------

def _check_hash(value: object, what: str) -> bytes:
    if not isinstance(value, (bytes, bytearray)) or len(value) != HASH_SIZE:
        raise ProofError(f"{what} is not a {HASH_SIZE}-byte hash")
    return bytes(value)


#: :func:`root_from_inclusion_proof`'s memo: ``(fn, sn, r)`` -- the state of step 4 before
#: a path element -- to ``(path, i, end)``: a fold passed that state before ``path[i]``,
#: and ``end[0]`` is the root it ended at (``None`` while or if it did not end cleanly)
InclusionMemo = dict[tuple[int, int, bytes], tuple[Sequence[bytes], int, list[bytes | None]]]


def root_from_inclusion_proof(leaf: bytes, index: int, size: int, path: Sequence[bytes], *,
                              memo: "InclusionMemo | None" = None) -> bytes:
    """The root that ``path`` proves ``leaf`` (a leaf *hash*) into, per RFC 9162 §2.1.3.2 steps 1-4.

    Raises :class:`ProofError` when the path has the wrong length for ``(index, size)``.

    ``memo`` (a dict, one per batch of proofs -- e.g. a record's, which share one
    checkpoint): what is left of step 4 at element ``i`` depends only on the state
    ``(fn, sn, r)`` and on ``path[i:]``, so a proof that reaches a state another proof
    of the batch passed through, *with the same remaining elements*, ends at that proof's
    root -- taken from the memo instead of hashed again.  Exact memoisation of a pure
    function: the answer (root or :class:`ProofError`) is always the unmemoised one.  Two
    leaves of one tree meet at their common ancestor, so a record's 13 neighbouring leaves
    hash each node of their paths' union once instead of once per path.
    """
    _check_sizes(index, size, "inclusion proof")
    r = _check_hash(leaf, "leaf hash")
    if index >= size:  # step 1
        raise ProofError(f"leaf index {index} is not below tree size {size}")
    fn, sn = index, size - 1  # step 2; r = hash is step 3
    sha256 = hashlib.sha256  # node_hash, inlined: this loop is an audit's hot path
    end: list[bytes | None] = [None]  # this fold's cell in the memo: its root, once it ends cleanly
    i = 0
    for p in path:  # step 4
        if memo is not None:
            state = (fn, sn, r)
            hit = memo.get(state)
            if hit is None:
                memo[state] = (path, i, end)
            elif hit[2][0] is not None and hit[0][hit[1]:] == path[i:]:  # same state, same elements left
                r = end[0] = hit[2][0]
                return r
        if type(p) is not bytes or len(p) != HASH_SIZE:
            p = _check_hash(p, f"inclusion path element {i}")
        if sn == 0:  # 4a
            raise ProofError("inclusion path is longer than the tree is deep")
        if fn & 1 or fn == sn:  # 4b
            r = sha256(b"\x01" + p + r).digest()
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = sha256(b"\x01" + r + p).digest()
        fn >>= 1  # 4c
        sn >>= 1
        i += 1
    if sn != 0:  # step 5, first half
        raise ProofError("inclusion path is shorter than the tree is deep")
    end[0] = r
    return r


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes], root: bytes) -> None:
    """RFC 9162 §2.1.3.2: raise :class:`ProofError` unless ``path`` proves ``leaf`` at ``index`` under ``root``."""
    root = _check_hash(root, "root hash")
    computed = root_from_inclusion_proof(leaf, index, size, path)
    if not hmac.compare_digest(computed, root):  # step 5, second half
        raise ProofError(f"inclusion proof of leaf {index} does not lead to the root of size {size}")


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes,
                       path: Sequence[bytes]) -> None:
    """RFC 9162 §2.1.4.2: raise :class:`ProofError` unless ``path`` shows tree ``first`` is a prefix of ``second``.

    The RFC states the algorithm for ``0 < first < second``; as in its definition of
    PROOF, ``first == second`` needs an empty path and equal roots, and ``first == 0``
    (the empty tree, root SHA-256 of the empty string) needs an empty path.
    """
    _check_sizes(first, second, "consistency proof")
    first_root = _check_hash(first_root, "first root")
    second_root = _check_hash(second_root, "second root")
    path = [_check_hash(p, f"consistency path element {i}") for i, p in enumerate(path)]
    if first > second:
        raise ProofError(f"first size {first} is larger than second size {second}")
    if first == 0 or first == second:
        if path:
            raise ProofError("a consistency proof from the empty tree or to the same size must be empty")
        if first == 0 and not hmac.compare_digest(first_root, EMPTY_ROOT):
            raise ProofError("the root of the empty tree is SHA-256 of the empty string")
        if first == second and not hmac.compare_digest(first_root, second_root):
            raise ProofError(f"two different roots for the same tree size {first}")
        return
    if not path:  # step 1
        raise ProofError("empty consistency proof")
    if first & (first - 1) == 0:  # step 2: first is an exact power of 2
        path = [first_root] + path
    fn, sn = first - 1, second - 1  # step 3
    while fn & 1:  # step 4
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]  # step 5
    for c in path[1:]:  # step 6
        if sn == 0:  # 6a
            raise ProofError("consistency proof is longer than the trees are deep")
        if fn & 1 or fn == sn:  # 6b
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1  # 6c
        sn >>= 1
    # step 7
    if sn != 0:
        raise ProofError("consistency proof is shorter than the trees are deep")
    if not hmac.compare_digest(fr, first_root):
        raise ProofError(f"consistency proof does not lead to the root of size {first}")
    if not hmac.compare_digest(sr, second_root):
        raise ProofError(f"consistency proof does not lead to the root of size {second}")


# -- an in-memory tree with cached perfect subtrees ------------------------------------------

class MemoryTree:
    """An append-only Merkle tree in memory, caching every perfect subtree (O(1) amortised append).

    ``levels[L][i]`` is the hash of perfect subtree ``(L, i)``.  Used by tests, the
    benchmark and clients that hold a whole log; :class:`audit.tlog.store.TransparencyLog`
    is the same idea over SQLite.
    """

    __slots__ = ("levels",)

    def __init__(self, leaf_hashes: Iterable[bytes] = ()) -> None:
        self.levels: list[list[bytes]] = [[]]
        for h in leaf_hashes:
            self.append_leaf_hash(h)

    @property
    def size(self) -> int:
        return len(self.levels[0])

    def append(self, entry: bytes) -> int:
        return self.append_leaf_hash(leaf_hash(entry))

    def append_leaf_hash(self, h: bytes) -> int:
        """Append a leaf hash; return its index."""
        index = len(self.levels[0])
        self.levels[0].append(_check_hash(h, "leaf hash"))
        level, i = 0, index
        while i & 1:  # a right child completes its parent
            parent = node_hash(self.levels[level][i - 1], self.levels[level][i])
            level += 1
            i >>= 1
            if len(self.levels) == level:
                self.levels.append([])
            self.levels[level].append(parent)
        return index

    def perfect(self, level: int, index: int) -> bytes:
        return self.levels[level][index]

    def root(self, size: int | None = None) -> bytes:
        size = self.size if size is None else size
        if not 0 <= size <= self.size:
            raise ProofError(f"no tree of size {size} (the tree has {self.size} leaves)")
        return range_hash(0, size, self.perfect)

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        size = self.size if size is None else size
        if size > self.size:
            raise ProofError(f"no tree of size {size} (the tree has {self.size} leaves)")
        return inclusion_path(index, size, self.perfect)

    def consistency_proof(self, first: int, second: int | None = None) -> list[bytes]:
        second = self.size if second is None else second
        if second > self.size:
            raise ProofError(f"no tree of size {second} (the tree has {self.size} leaves)")
        return consistency_path(first, second, self.perfect)
