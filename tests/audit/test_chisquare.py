"""The chi-square test of the deal statistics (scipy.stats.chi2, through audit.auditor.stats.deals.chi_square)
against published tables: the right distribution, at the right degrees of freedom and level."""
import pytest

from audit.auditor.stats.deals import LEVEL, chi_square

# Upper critical values (NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.4):
# df -> x at P(X > x) = 0.01, three decimals as printed.
NIST_99 = {1: 6.635, 2: 9.210, 3: 11.345, 4: 13.277, 5: 15.086, 10: 23.209, 20: 37.566, 50: 76.154}


def test_the_level_is_99_percent():
    assert LEVEL == 0.99


@pytest.mark.parametrize("df", sorted(NIST_99))
def test_critical_value_and_p_value_match_the_table(df):
    # df + 1 equally likely cells, df + 1 hands, one in each: no deviation, so the statistic is 0 and p is 1
    observed = [[1] * (df + 1)]
    per_hand = [[1 / (df + 1)] * (df + 1)]
    t = chi_square(observed, per_hand, hands=df + 1, df=df)
    assert t.df == df and t.critical == pytest.approx(NIST_99[df], abs=0.0006)
    assert t.p_value == pytest.approx(1.0)


def test_p_value_of_a_known_statistic():
    # 60 and 40 where 50 and 50 are expected: (10^2/50) * 2 = 4.0 at 1 df; P(X > 4) = erfc(sqrt 2) = 0.0455
    t = chi_square([[60, 40]], [[0.5, 0.5]], hands=100, df=1)
    assert t.statistic == pytest.approx(4.0) and t.p_value == pytest.approx(0.04550026, rel=1e-6)
    assert not t.flagged   # 4.0 < 6.635
