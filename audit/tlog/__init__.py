"""The transparency log: an RFC 9162 Merkle tree over the ledger's signed statements.

* :mod:`audit.tlog.merkle` -- pure hashing, proofs and their verification.
* :mod:`audit.tlog.store` -- :class:`TransparencyLog` over the ledger's SQLite file.
* :mod:`audit.tlog.checkpoint` -- signed checkpoints (C2SP signed-note text).
* :mod:`audit.auditor.monitor.watch` -- the client that watches an operator.

See ``docs/transparency-log.md``.
"""
