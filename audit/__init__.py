"""Trust and storage: the commit-reveal ledger, Ed25519 statements, the transparency log,
replay-based verification, and the ``tiplu`` CLI."""
