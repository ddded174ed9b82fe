"""Money: points into house tokens (HT), commission, and the zero-sum check (D-2).

All amounts are :class:`decimal.Decimal`, never floats, written as decimal strings with at
most two places (``"0.25"``, ``"5"``): :data:`AMOUNT_PATTERN`, the one spelling.

A table's money has one rule, here, that every reader applies (records, the ledger, the
CLI, the API, the simulator, the settlement; the browser verifier's ``decimal.mjs`` mirrors
it): its ``point_value`` is more than 0 and its ``commission_pct`` is at least 0 and less
than 100 (docs/records.md, "Table money"): :func:`parse_point_value`,
:func:`parse_commission_pct` for text, :func:`check_point_value`, :func:`check_commission_pct`
for values.

Commission is taken from what each winner gains in the hand: for every seat whose gross
gain is positive, ``round_half_up(gain * commission_pct / 100, 0.01)``.  The nets after
commission, the house's commission and any change to a carried pot (Kitti) sum to exactly
zero -- :func:`settle` checks it and raises if not.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import (ROUND_HALF_UP, Context, Decimal, DecimalException, DivisionByZero, Inexact,
                     InvalidOperation, Overflow, localcontext)
from typing import Sequence, TypedDict

from .errors import MalformedError

CENT = Decimal("0.01")
ZERO = Decimal("0")


# Plain ASCII decimal notation only: Decimal() alone would also take "1e3", "1_000", "+1",
# surrounding blanks and non-ASCII digits such as Devanagari "३".
_DIGITS = r"[0-9]{1,15}(\.[0-9]{1,2})?"
#: the one spelling of an amount: at most 15 digits before the point, at most 2 after, an
#: optional leading minus (the record's schema, the model and ``decimal.mjs`` use this text)
AMOUNT_PATTERN = rf"^-?{_DIGITS}$"
#: a table's point value as the record's schema states it: an amount, no sign, not zero
POINT_VALUE_PATTERN = rf"^(?![0.]*$){_DIGITS}$"
#: a table's commission as the record's schema states it: an amount, no sign, below 100
COMMISSION_PCT_PATTERN = rf"^(?=0*[0-9]{{1,2}}(\.|$)){_DIGITS}$"
_AMOUNT = re.compile(AMOUNT_PATTERN)
#: a commission is less than this percentage (docs/records.md, "Table money")
COMMISSION_LIMIT = Decimal(100)
#: the largest number of points one seat (or a pot change) may carry into a settlement
MAX_POINTS = 10 ** 12
# Settlement arithmetic is exact by construction: within the limits above every product and
# sum has at most ~40 significant digits; the context traps any inexact step (or overflow),
# so money is never silently rounded by Decimal's default 28-digit precision.
_EXACT = Context(prec=60, rounding=ROUND_HALF_UP, traps=[Inexact, Overflow, InvalidOperation, DivisionByZero])
_ROUNDING = Context(prec=60, rounding=ROUND_HALF_UP, traps=[Overflow, InvalidOperation])  # the one rounding step


def parse_amount(text: object, *, what: str = "amount", allow_negative: bool = False) -> Decimal:
    """A decimal string with at most two places (``"0.25"``, ``"5"``), as :class:`Decimal`.

    Refused with :class:`MalformedError`: floats (and bools), exponents, signs other than a
    leading ``-`` (and that only with ``allow_negative``; never ``"-0"``), blanks, non-ASCII
    digits, more than two decimal places, more than 15 integer digits.  (A table's money has
    its own bounds: :func:`parse_point_value`, :func:`parse_commission_pct`.)
    Python ints are accepted as whole amounts.
    """
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise MalformedError(f"{what} must be a decimal string such as \"0.25\"")
    if isinstance(text, int):
        text = str(text)
    if not _AMOUNT.fullmatch(text):  # fullmatch: "5\n" is no amount
        if re.fullmatch(r"-?[0-9]+\.[0-9]{3,}", text):
            raise MalformedError(f"{what} has more than two decimal places")
        raise MalformedError(f"{what} must be a decimal string such as \"0.25\" (at most 15 digits before the point)")
    if text.startswith("-") and not allow_negative:
        raise MalformedError(f"{what} must not be negative (or carry a sign)")
    value = Decimal(text)
    if text.startswith("-") and value == 0:
        raise MalformedError(f"{what} must not be a negative zero")
    return value


def check_point_value(value: Decimal) -> Decimal:
    """``value`` if it is a table's point value (more than 0, D-2), else :class:`MalformedError`.
    Zero is refused: no ledger makes such a table, and a hand at it would move no money."""
    if not value.is_finite() or value <= 0:
        raise MalformedError("point_value must be more than 0")
    return value


def check_commission_pct(value: Decimal) -> Decimal:
    """``value`` if it is a table's commission (at least 0, less than 100 percent; D-2,
    R-2), else :class:`MalformedError`.  100 is refused: it would leave a winner nothing of
    the hand, so the house would be the only party that wins (docs/records.md, "Table money")."""
    if not value.is_finite() or not 0 <= value < COMMISSION_LIMIT:
        raise MalformedError("commission_pct must be at least 0 and less than 100")
    return value


def parse_point_value(text: object) -> Decimal:
    """A table's point value from its text (:func:`parse_amount`, then :func:`check_point_value`)."""
    return check_point_value(parse_amount(text, what="point_value"))


def parse_commission_pct(text: object) -> Decimal:
    """A table's commission from its text (:func:`parse_amount`, then :func:`check_commission_pct`)."""
    return check_commission_pct(parse_amount(text, what="commission_pct"))


def round_cents(value: Decimal) -> Decimal:
    """Round half-up to 0.01 HT."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP, context=_ROUNDING)


def format_amount(value: Decimal) -> str:
    """An amount as a decimal string with two places (``"-1.50"``)."""
    return str(round_cents(value) if value == round_cents(value) else value)


class SettlementJson(TypedDict):
    """:meth:`Settlement.to_json`: each amount as :func:`format_amount` writes it."""

    gross: list[str]
    nets: list[str]
    commission: str
    pot_delta: str


@dataclass(frozen=True, slots=True)
class Settlement:
    """One hand's money.  ``gross`` and ``nets`` are per seat, in HT."""

    gross: tuple[Decimal, ...]
    nets: tuple[Decimal, ...]
    commission: Decimal
    pot_delta: Decimal = ZERO

    def to_json(self) -> SettlementJson:
        return {
            "gross": [format_amount(x) for x in self.gross],
            "nets": [format_amount(x) for x in self.nets],
            "commission": format_amount(self.commission),
            "pot_delta": format_amount(self.pot_delta),
        }


def settle(net_points: Sequence[int | Decimal], *, point_value: Decimal, commission_pct: Decimal,
           pot_delta_points: int | Decimal = 0) -> Settlement:
    """Turn each seat's net in points into HT, take commission from the winners, check zero-sum.

    ``sum(net_points) + pot_delta_points`` must be zero (the pot counts as a party), else
    :class:`MalformedError` (a ``ValueError``); so must the table's money (:func:`check_point_value`,
    :func:`check_commission_pct`) and every points figure at most :data:`MAX_POINTS` in size.  The
    arithmetic is exact (a 60-digit context that traps any inexact step); the one rounding
    is each fee to the cent, half up.
    """
    for p in (*net_points, pot_delta_points):
        if isinstance(p, bool) or not isinstance(p, (int, Decimal)) or (
                isinstance(p, Decimal) and not p.is_finite()) or not -MAX_POINTS <= p <= MAX_POINTS:
            raise MalformedError(f"a seat's points must be a number of at most {MAX_POINTS} in size")
    if sum(net_points) + pot_delta_points != 0:
        raise MalformedError(f"net points {list(net_points)} with pot change {pot_delta_points} do not sum to zero")
    try:
        with localcontext(_EXACT):
            return _settle(net_points, Decimal(point_value), Decimal(commission_pct), pot_delta_points)
    except DecimalException:
        raise MalformedError("the amounts are too large or too precise to settle exactly") from None


def _settle(net_points: Sequence[int | Decimal], pv: Decimal, pct: Decimal,
            pot_delta_points: int | Decimal) -> Settlement:
    check_point_value(pv)
    check_commission_pct(pct)
    gross = tuple(Decimal(p) * pv for p in net_points)
    fees = tuple(round_cents(g * pct / 100) if g > 0 else ZERO for g in gross)
    nets = tuple(g - f for g, f in zip(gross, fees))
    commission = sum(fees, ZERO)
    pot_delta = Decimal(pot_delta_points) * pv
    if sum(nets, ZERO) + commission + pot_delta != 0:  # pragma: no cover - arithmetic invariant
        raise AssertionError("settlement does not sum to zero")
    return Settlement(gross, nets, commission, pot_delta)
