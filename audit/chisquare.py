"""The chi-square distribution: its survival function (the p-value) and its quantile.

Written here rather than imported (scipy is a large dependency for two functions).  The
method is the classical one (Press et al., *Numerical Recipes*, 3rd ed., section 6.2):
a chi-square variable with ``df`` degrees of freedom has

    P(X > x) = Q(df/2, x/2)

where ``Q(a, x) = Γ(a, x) / Γ(a)`` is the regularized upper incomplete gamma function.
``Q`` is computed from the series of ``P = 1 - Q`` when ``x < a + 1`` (it converges fast
there) and from Legendre's continued fraction for ``Q`` otherwise (modified Lentz
algorithm), both to a relative precision of about 1e-14; ``log Γ`` is :func:`math.lgamma`.
The quantile (the critical value) inverts the survival function by bisection between
brackets from the Wilson-Hilferty approximation, to 1e-12 relative.

``tests/audit/test_chisquare.py`` checks both against published table values (the
99%, 95% and 99.9% points for many ``df``, and p-values of known statistics).
"""
from __future__ import annotations

import math

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 100_000


def _check(df: float) -> None:
    if not (isinstance(df, (int, float)) and not isinstance(df, bool) and df > 0 and math.isfinite(df)):
        raise ValueError(f"degrees of freedom must be a positive number, got {df!r}")


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its series; for ``x < a + 1``."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz); for ``x >= a + 1``."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function ``Q(a, x)``, ``a > 0``, ``x >= 0``."""
    if a <= 0 or x < 0 or math.isnan(x):
        raise ValueError("gamma_q needs a > 0 and x >= 0")
    if x == 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def chi2_sf(x: float, df: float) -> float:
    """``P(X > x)`` for a chi-square variable with ``df`` degrees of freedom: the p-value of ``x``."""
    _check(df)
    if math.isnan(x):
        raise ValueError("the statistic is not a number")
    if x <= 0:
        return 1.0
    return gamma_q(df / 2.0, x / 2.0)


def chi2_ppf(q: float, df: float) -> float:
    """The ``q`` quantile (``0 < q < 1``): the ``x`` with ``P(X <= x) = q``; ``chi2_ppf(0.99, df)``
    is the critical value a statistic must exceed to be significant at 1%."""
    _check(df)
    if not 0.0 < q < 1.0:
        raise ValueError("the quantile's probability must be between 0 and 1")
    alpha = 1.0 - q
    # Wilson-Hilferty: (X/df)^(1/3) is nearly normal; start from it and bracket generously.
    z = math.sqrt(2.0) * _erfinv(2.0 * q - 1.0)
    guess = df * max(1.0 - 2.0 / (9.0 * df) + z * math.sqrt(2.0 / (9.0 * df)), 0.01) ** 3
    lo, hi = 0.0, max(guess * 2.0, 1.0)
    while chi2_sf(hi, df) > alpha:
        lo, hi = hi, hi * 2.0
    for _ in range(400):
        mid = (lo + hi) / 2.0
        if chi2_sf(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * max(hi, 1e-300):
            break
    return (lo + hi) / 2.0


def _erfinv(y: float) -> float:
    """The inverse error function, for the starting guess only (Newton on :func:`math.erf`)."""
    y = min(max(y, -0.999999999999), 0.999999999999)
    x = 0.0
    for _ in range(100):
        err = math.erf(x) - y
        step = err / (2.0 / math.sqrt(math.pi) * math.exp(-x * x))
        x -= step
        if abs(step) < 1e-12:
            break
    return x
