"""The hand-written chi-square distribution against published tables and closed forms."""
import math

import pytest

from audit.chisquare import chi2_ppf, chi2_sf, gamma_q

# Upper critical values (NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.4):
# df -> (x at P(X > x) = 0.05, 0.01, 0.001), three decimals as printed.
NIST = {
    1: (3.841, 6.635, 10.828), 2: (5.991, 9.210, 13.816), 3: (7.815, 11.345, 16.266),
    4: (9.488, 13.277, 18.467), 5: (11.070, 15.086, 20.515), 10: (18.307, 23.209, 29.588),
    20: (31.410, 37.566, 45.315), 30: (43.773, 50.892, 59.703), 50: (67.505, 76.154, 86.661),
    100: (124.342, 135.807, 149.449),
}


@pytest.mark.parametrize("df", sorted(NIST))
def test_critical_values_match_the_table(df):
    for q, want in zip((0.95, 0.99, 0.999), NIST[df]):
        assert chi2_ppf(q, df) == pytest.approx(want, abs=0.0006)


@pytest.mark.parametrize("df", sorted(NIST))
def test_p_value_at_a_critical_value_is_its_level(df):
    for alpha, x in zip((0.05, 0.01, 0.001), NIST[df]):
        assert chi2_sf(x, df) == pytest.approx(alpha, rel=2e-3)  # the table rounds x to 3 decimals


@pytest.mark.parametrize("x", [0.001, 0.3, 1.0, 2.0, 7.5, 30.0, 120.0, 600.0])
def test_closed_forms(x):
    # df = 2: P(X > x) = exp(-x/2); df = 1: erfc(sqrt(x/2)); df = 4: (1 + x/2) exp(-x/2)
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
    assert chi2_sf(x, 4) == pytest.approx((1 + x / 2) * math.exp(-x / 2), rel=1e-12)


@pytest.mark.parametrize("df", [1, 7, 51, 204, 318, 1000])
def test_quantile_inverts_the_survival_function(df):
    for q in (0.01, 0.5, 0.99, 0.999999):
        assert chi2_sf(chi2_ppf(q, df), df) == pytest.approx(1 - q, rel=1e-9)


def test_large_df_is_near_normal():
    # Wilson-Hilferty is accurate to ~1e-4 relative at df = 10,000
    df, z99 = 10_000, 2.3263478740408408
    wh = df * (1 - 2 / (9 * df) + z99 * math.sqrt(2 / (9 * df))) ** 3
    assert chi2_ppf(0.99, df) == pytest.approx(wh, rel=1e-4)


def test_edges_and_bad_input():
    assert chi2_sf(0, 3) == 1.0 and chi2_sf(-1, 3) == 1.0 and chi2_sf(math.inf, 3) == 0.0
    assert gamma_q(2.5, 0) == 1.0
    assert 0 < chi2_sf(2000, 10) < 1e-300 or chi2_sf(2000, 10) == 0.0
    for bad in (0, -1, math.nan, math.inf, True):
        with pytest.raises(ValueError):
            chi2_sf(1.0, bad)
    for q in (0, 1, -0.5, 2):
        with pytest.raises(ValueError):
            chi2_ppf(q, 3)
    with pytest.raises(ValueError):
        chi2_sf(math.nan, 3)
