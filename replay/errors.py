"""The error hierarchy of the pure library.

Every error Tiplu raises on purpose is a :class:`TipluError`.  Errors about bad input
also subclass :class:`ValueError`, so callers that only know the standard library can
still catch them.  Each subclass names one meaningful failure:

* :class:`MalformedError` -- text or JSON that does not parse (a card, a move, a record).
* :class:`RulesetError` -- an unknown preset or a setting that does not validate.
* :class:`IllegalMoveError` -- a move the rules forbid; carries the rule ID it breaks,
  and, when raised during a replay, the hand id and the index of the move.
* :class:`CommitmentMismatchError` -- a revealed seed that does not hash to its commitment.
"""
from __future__ import annotations


class TipluError(Exception):
    """Base class of every error Tiplu raises on purpose."""


class MalformedError(TipluError, ValueError):
    """Input that does not parse: a card, a move, a seed or a record.

    ``location`` says where (a JSON pointer, a line number, a field name) when known.
    """

    def __init__(self, message: str, *, location: str | None = None) -> None:
        self.location = location
        super().__init__(f"{location}: {message}" if location else message)


class CardParseError(MalformedError):
    """A card's text notation is not one of the canonical spellings."""


class RulesetError(TipluError, ValueError):
    """An unknown preset, an unknown setting or a setting value that does not validate."""


class IllegalMoveError(TipluError, ValueError):
    """A move the rules forbid.

    ``rule`` is the rule ID the move breaks (``"K-6"``, ``"MC-14"`` ...), ``reason`` a
    human sentence.  ``hand_id`` and ``move_index`` are filled in by a replay.
    """

    def __init__(
        self,
        reason: str,
        *,
        rule: str | None = None,
        hand_id: str | None = None,
        move_index: int | None = None,
    ) -> None:
        self.reason = reason
        self.rule = rule
        self.hand_id = hand_id
        self.move_index = move_index
        super().__init__(self._text())

    def _text(self) -> str:
        where = []
        if self.hand_id is not None:
            where.append(f"hand {self.hand_id}")
        if self.move_index is not None:
            where.append(f"move {self.move_index}")
        prefix = (", ".join(where) + ": ") if where else ""
        suffix = f" (rule {self.rule})" if self.rule else ""
        return f"{prefix}{self.reason}{suffix}"

    def at(self, *, hand_id: str | None = None, move_index: int | None = None) -> "IllegalMoveError":
        """A copy of this error located in a hand and at a move index."""
        return type(self)(self.reason, rule=self.rule, hand_id=hand_id, move_index=move_index)


class CommitmentMismatchError(TipluError, ValueError):
    """A revealed seed that does not hash to the commitment published for it."""


class DeckMismatchError(IllegalMoveError):
    """A move lists a card that the deck (the v1 shoe) does not put there, e.g. a draw
    whose listed card differs from the top of the stock."""
