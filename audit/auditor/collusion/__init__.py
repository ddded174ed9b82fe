"""Who could see what they should not: superuser and collusion review flags (``docs/collusion.md``).

After the reveal the whole deck is known and every decision replays, so for each decision
the game's ``hidden_signals`` (:mod:`replay.signals`) ask whether the choice lines up with
cards its maker could not see.  This package gathers those observations per account from
audit-passing records (:mod:`.observe`), tests each account and signal against chance with
false-discovery-rate control across all of them (:mod:`.significance`), describes who sits
with whom and where the tokens flow (:mod:`.pairs`), and words the result
(:mod:`.report`).  A flag is a reason to review, never a verdict of cheating.
"""
from .observe import Observations, observe_items
from .report import CollusionReport, review

__all__ = ["CollusionReport", "Observations", "observe_items", "review"]
