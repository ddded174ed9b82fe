"""The operator's side: what an operator runs to deal, record and publish hands -- the ledger
(``ledger/``), publishing records and receipts, the checked ``finish``, API tokens, and the
simulator (``sim/``) that plays real games through the real ledger (docs/architecture.md)."""
