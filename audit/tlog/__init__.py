"""The standards: the transparency log as RFC 9162 and C2SP define it -- both sides speak it,
and it imports nothing of either (no ledger, no audit, no HTTP client).

* :mod:`audit.tlog.merkle` -- pure hashing, proofs and their verification.
* :mod:`audit.tlog.store` -- :class:`TransparencyLog` over the ledger's SQLite file
  (:mod:`audit.tlog.leaves`, :mod:`audit.tlog.tables`).
* :mod:`audit.tlog.checkpoint`, :mod:`audit.tlog.note`, :mod:`audit.tlog.cosignature`,
  :mod:`audit.tlog.proof`, :mod:`audit.tlog.policy` -- C2SP signed notes, checkpoints,
  cosignatures, tlog-proof and tlog-policy.
* :mod:`audit.tlog.witness` -- a witness; :mod:`audit.tlog.witnessing` -- an operator's
  submissions to its witnesses.

The monitor that watches an operator's log is the auditor's (:mod:`audit.auditor.monitor`).
See ``docs/transparency-log.md``.
"""
