"""Marriage (presets ``marriage/nepal`` and ``marriage/classic``).

Modules, lowest first:

* :mod:`.jokers`   -- the role of every card once the tiplu is known (tiplu, poplu,
  jhiplu, alter, man, ordinary joker, putali, master) and which cards are jokers.
* :mod:`.combos`   -- the glossary of combinations and their checks: show sets, the
  seven-dublee show, finishing combinations.
* :mod:`.finish`   -- finding and checking a finish (four combinations + a discard, or
  an eighth dublee).
* :mod:`.maal`     -- counting a player's maal (the exact best assignment of cards to
  score items).
* :mod:`.payments` -- turning maal points into per-seat payments and nets.
* :mod:`.ops`      -- ``tiplu eval marriage``: the JSON-lines operations.
* ``engine`` / ``moves`` / ``state`` / ``shows`` / ``bot`` -- the round engine (see
  docs/marriage.md, section Engine).

The scoring modules above never import the engine, so they stay usable on their own.
"""
