"""The operator simulator: bots that play real games through the real ledger.

* :mod:`audit.sim.play` -- one hand: the engine and each game's bot, move by move.
* :mod:`audit.sim.bots` -- the bots, one module per game named by the game's name.
* :mod:`audit.sim.tamper` -- the dishonest operator: one realistic fault per chosen hand.
* :mod:`audit.sim.tables` -- whole tables through the ledger, records out.
* :mod:`audit.sim.grind` -- the re-signed grind, the attack a log-bound audit catches;
  :mod:`audit.sim.private_log` -- a forger's private log, for it and for the tampering.
* :mod:`audit.sim.archive` -- archives of several simulated tables in one ledger.

Everything is deterministic for a given simulator seed: seeds, bots, clocks and tampering
all draw from labelled v1 streams keyed by that seed (never ``random``).
"""
