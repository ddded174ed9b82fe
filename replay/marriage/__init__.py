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
* :mod:`.eval_requests` -- ``tiplu eval marriage``: the answers to its JSON requests.
* ``engine`` / ``turns`` / ``outcome`` / ``moves`` / ``state`` / ``shows`` -- the round
  engine (see docs/marriage.md, section Engine); :mod:`.view` -- a round as people see it.

The scoring modules above never import the engine, so they stay usable on their own.
This package exports the game as one object, :data:`GAME` (:class:`replay.game.Game`).
"""
from pathlib import Path
from typing import Callable

from ..cards import parse_card

from ..cards import Card
from ..deal import Deal
from ..game import DealLayout, Game, Outcome
from ..rulesets import Ruleset
from . import jokers
from .describe import describe
from .engine import MarriageEngine
from .eval_requests import evaluate
from .moves import parse_move, parse_move_text
from .discard_joker_signals import hidden_signals
from .view import view
from . import worked

def jokers_of_hand(ruleset: Ruleset, deal: Deal, outcome: Outcome | None) -> Callable[[Card], bool] | None:
    """Which cards were jokers in a replayed hand (for the deal statistics): every card
    with a role under the hand's tiplu (MN-32, MC-3; putali and master in nepal), or
    ``None`` when no tiplu was drawn (nobody showed, D-5)."""
    text = outcome.detail.get("tiplu") if outcome is not None else None
    if not text:
        return None
    table = jokers.role_table(parse_card(text), ruleset)
    return lambda card: table[card.code] is not jokers.Role.NONE


GAME = Game(name="marriage", engine=MarriageEngine, parse_move_json=parse_move,
            parse_move_text=parse_move_text, view=view,
            deal_layout=DealLayout(turned_up=True),    # MN-3, MC-13
            eval_handlers=evaluate, describe_move=describe, jokers_of_hand=jokers_of_hand,
            hidden_signals=hidden_signals, worked_template=Path(__file__).with_name("worked.html"), worked_heading=worked.heading)
