"""The operator simulator: bots that play real games through the real ledger.

* :mod:`audit.sim.play` -- one hand: the engine and each game's bot, move by move.
* :mod:`audit.sim.tamper` -- the dishonest operator: one realistic fault per chosen hand.
* :mod:`audit.sim.tables` -- whole tables through the ledger, records out.

Everything is deterministic for a given simulator seed: seeds, bots, clocks and tampering
all draw from labelled v1 streams keyed by that seed (never ``random``).
"""
