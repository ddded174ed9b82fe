"""13-card Rummy (preset ``rummy13``): groups, the minimum-points solver, declarations,
the engine, a seeded bot and the ``tiplu eval rummy13`` operations.

* :mod:`replay.rummy.groups` -- the glossary, wild rules, card points, group validity.
* :mod:`replay.rummy.solver` -- the least points a hand can count (R-12..R-15, D-22).
* :mod:`replay.rummy.declare` -- checking a shown declaration (R-7, R-9, D-21).
* :mod:`replay.rummy.moves` / :mod:`replay.rummy.engine` -- the deal, turns, drops,
  timeouts and the outcome.
* :mod:`replay.rummy.bot` -- a reproducible bot for simulations.
* :mod:`replay.rummy.ops` -- JSON operations behind ``tiplu eval rummy13``.
"""
