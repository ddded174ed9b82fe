"""The operator simulator: bots that play real games through the real ledger.

* :mod:`audit.operator.sim.play` -- one hand: the engine and each game's bot, move by move.
* :mod:`audit.operator.sim.bots` -- the bots, one module per game named by the game's name.
* :mod:`audit.operator.sim.tamper` -- the dishonest operator: one realistic fault per chosen hand.
* :mod:`audit.operator.sim.tables` -- whole tables through the ledger, records out.
* :mod:`audit.operator.sim.grind` -- the re-signed grind, the attack a log-bound audit catches;
  :mod:`audit.operator.sim.private_log` -- a forger's private log, for it and for the tampering.
* :mod:`audit.operator.sim.archive` -- archives of several simulated tables in one ledger.

Everything is deterministic for a given simulator seed: seeds, bots, clocks and tampering
all draw from labelled v1 streams keyed by that seed (never ``random``).
"""
