"""The simulator's bots: one module per game, named by the game's name
(``audit/operator/sim/bots/<game>.py``, e.g. ``rummy13.py``), each with
``choose_move(engine, state, rng) -> move``.  ``rng`` needs only ``randbelow(n)``: pass a
:class:`replay.stream.Stream` and the same seeds play the same moves, bit for bit.

:func:`bot_for` finds a game's bot from the game's name -- by that naming, or from
:func:`register` for a game outside ``replay/`` (a test's toy game) -- and, by role, its
superuser (``choose_peeking``) and colluding move (``choose_colluding``): one finder.  The pure library
never needs a bot: records are replayed by the engine alone.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any, Callable

ChooseMove = Callable[[Any, Any, Any], Any]

_registered: dict[str, ChooseMove] = {}


#: What a game's bot module may play, by role: the function (``choose_<role>``) and the
#: verb of the refusal when the module has none.  ``move``: the honest bot,
#: ``choose_move(engine, state, rng)``; ``peeking``: a "superuser" that sees the hidden cards,
#: ``choose_peeking(engine, state, rng)`` (``docs/collusion.md``); ``colluding``: the move a
#: seat makes knowing its partner's hand, ``choose_colluding(engine, state, rng, partner)``
#: (:mod:`audit.operator.sim.collude`); ``joker_peeking``: Marriage's joker hunter, a superuser
#: told only where the jokers are (``docs/collusion.md``, ``marriage.joker``).
ROLES = {"move": "play", "peeking": "peek", "colluding": "collude", "joker_peeking": "hunt jokers"}


def bot_for(game: str, role: str = "move") -> Callable[..., Any]:
    """The ``choose_<role>`` of the bot that plays ``game`` (:data:`ROLES`); ``LookupError``
    if no bot plays the game, or its bot has no such move."""
    if role not in ROLES:
        raise ValueError(f"no bot role {role!r}: one of {', '.join(ROLES)}")
    if role == "move" and game in _registered:
        return _registered[game]
    if not (isinstance(game, str) and game.isidentifier()):
        raise LookupError(f"no bot plays game {game!r}")
    try:
        module = import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{game}":
            raise
        raise LookupError(f"no bot plays game {game!r}") from None
    choose: Callable[..., Any] | None = getattr(module, f"choose_{role}", None)  # the bot module's function
    if choose is None:
        raise LookupError(f"the {game} bot cannot {ROLES[role]} yet")
    return choose


def register(game: str, choose_move: ChooseMove) -> None:
    """Add the bot of a game from outside ``replay/``."""
    _registered[game] = choose_move


def unregister(game: str) -> None:
    _registered.pop(game, None)
