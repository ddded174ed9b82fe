"""The simulator's bots: one module per game, named by the game's name
(``audit/operator/sim/bots/<game>.py``, e.g. ``rummy13.py``), each with
``choose_move(engine, state, rng) -> move``.  ``rng`` needs only ``randbelow(n)``: pass a
:class:`replay.stream.Stream` and the same seeds play the same moves, bit for bit.

:func:`bot_for` finds a game's bot from the game's name -- by that naming, or from
:func:`register` for a game outside ``replay/`` (a test's toy game).  The pure library
never needs a bot: records are replayed by the engine alone.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any, Callable

ChooseMove = Callable[[Any, Any, Any], Any]

_registered: dict[str, ChooseMove] = {}


def bot_for(game: str) -> ChooseMove:
    """The ``choose_move`` of the bot that plays ``game``; ``LookupError`` if none does."""
    if game in _registered:
        return _registered[game]
    if not (isinstance(game, str) and game.isidentifier()):
        raise LookupError(f"no bot plays game {game!r}")
    try:
        module = import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{game}":
            raise
        raise LookupError(f"no bot plays game {game!r}") from None
    return module.choose_move


def peeking_bot_for(game: str) -> ChooseMove:
    """The ``choose_peeking`` of a game's bot: a "superuser" that sees the hidden cards
    (``docs/collusion.md``); ``LookupError`` if the game's bot has none."""
    if not (isinstance(game, str) and game.isidentifier()):
        raise LookupError(f"no bot plays game {game!r}")
    try:
        module = import_module(f"{__name__}.{game}")
    except ModuleNotFoundError:
        raise LookupError(f"no bot plays game {game!r}") from None
    choose = getattr(module, "choose_peeking", None)
    if choose is None:
        raise LookupError(f"the {game} bot cannot peek yet")
    return choose


def colluding_bot_for(game: str) -> Callable[..., Any]:
    """The ``choose_colluding(engine, state, rng, partner)`` of a game's bot: the move a seat
    makes for its partner (:mod:`audit.operator.sim.collude`); ``LookupError`` if the game's
    bot has none."""
    if not (isinstance(game, str) and game.isidentifier()):
        raise LookupError(f"no bot plays game {game!r}")
    try:
        module = import_module(f"{__name__}.{game}")
    except ModuleNotFoundError:
        raise LookupError(f"no bot plays game {game!r}") from None
    choose = getattr(module, "choose_colluding", None)
    if choose is None:
        raise LookupError(f"the {game} bot cannot collude yet")
    return choose


def register(game: str, choose_move: ChooseMove) -> None:
    """Add the bot of a game from outside ``replay/``."""
    _registered[game] = choose_move


def unregister(game: str) -> None:
    _registered.pop(game, None)
