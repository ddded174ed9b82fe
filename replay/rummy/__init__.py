"""13-card Rummy (preset ``rummy13``): groups, the minimum-points solver, declarations,
the engine and the ``tiplu eval rummy13`` operations (its bot is the simulator's:
:mod:`audit.operator.sim.bots.rummy13`).

* :mod:`replay.rummy.groups` -- the glossary, wild rules, card points, group validity.
* :mod:`replay.rummy.solver` -- the least points a hand can count (R-12..R-15, D-22).
* :mod:`replay.rummy.declare` -- checking a shown declaration (R-7, R-9, D-21).
* :mod:`replay.rummy.moves` / :mod:`replay.rummy.engine` -- the deal, turns, drops,
  timeouts and the outcome.
* :mod:`replay.rummy.eval_requests` -- the answers to ``tiplu eval rummy13``'s JSON requests.
* :mod:`replay.rummy.view` -- a deal as people see it.

This package exports the game as one object, :data:`GAME` (:class:`replay.game.Game`).
"""
from pathlib import Path
from typing import Callable

from ..cards import Card
from ..deal import Deal
from ..game import DealLayout, Game, Outcome
from ..rulesets import Ruleset
from .describe import describe
from .engine import RummyEngine
from .eval_requests import evaluate
from .groups import is_joker, wild_rank_of
from .moves import parse_move, parse_move_text
from .discard_drop_signals import hidden_signals
from .view import view
from . import worked

def jokers_of_hand(ruleset: Ruleset, deal: Deal, outcome: Outcome) -> Callable[[Card], bool] | None:
    """Which cards were jokers in a hand (for the deal statistics): the printed jokers and
    every card of the indicator's rank (R-5); ``None`` for a deal with no indicator (not a
    rummy13 deal)."""
    if deal.indicator is None:
        return None
    wild = wild_rank_of(deal.indicator)
    return lambda card: is_joker(card, wild)


GAME = Game(name="rummy13", engine=RummyEngine, parse_move_json=parse_move,
            parse_move_text=parse_move_text, view=view,
            deal_layout=DealLayout(indicator=True, turned_up=True, turned_up_label="Open pile starts",
                                     stock_label="Closed pile", stock_title="Closed pile"),    # R-5, D-19
            eval_handlers=evaluate, describe_move=describe, jokers_of_hand=jokers_of_hand,
            hidden_signals=hidden_signals, worked_template=Path(__file__).with_name("worked.html"), worked_heading=worked.heading)
