"""Trust and storage, in rooms by whom they serve (docs/architecture.md, "audit/'s rooms"):
the ground (this package's own modules: errors, Ed25519 statements, key and state files, the
record's schema), the standards (:mod:`audit.tlog`: RFC 9162, C2SP), the operator's side
(:mod:`audit.operator`: the ledger, publishing, the simulator), the auditor's side
(:mod:`audit.auditor`: log evidence, verdicts, sources, the monitor, statistics, the collusion
review) and the ``tiplu`` command line (:mod:`audit.cli`)."""
