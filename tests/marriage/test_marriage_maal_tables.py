"""The table-driven maal count against the plain loop it replaced (issue 18, session 5).

:func:`replay.marriage.maal.count_maal` reads what scores under a tiplu from tables made
once per ruleset and tiplu; :func:`tests.marriage.maal_reference.reference_count_maal`
is the loop it replaced, which reads every table at each call.  For any holding --
legal or not -- both give the same :class:`Maal` (points, items and their order) or
refuse it with the same message (D-8, MN-29, MC-25..MC-27)."""
from hypothesis import given, settings, strategies as st

from replay.cards import ALL_CARDS
from replay.errors import MalformedError
from replay.rulesets import resolve
from replay.marriage.maal import count_maal
from tests.marriage.maal_reference import reference_count_maal

NEPAL = resolve("marriage/nepal")
CLASSIC = resolve("marriage/classic")
# regional tables (MC-32) where plans tie: a marriage worth its three singles, groups worth
# their singles, a tunnela worth its own three cards
TIES_NEPAL = resolve("marriage/nepal", {"maal_table": dict(
    NEPAL["maal_table"], marriage=[7, 14], tiplu=[3, 6], poplu=[2, 4, 6], alter=[5, 10, 15], tunnela_at_deal_bonus=0)})
TIES_CLASSIC = resolve("marriage/classic", {"maal_table": dict(
    CLASSIC["maal_table"], marriage=[7, 14], tiplu=[3, 6], jhiplu=[2, 4, 6],
    tunnela_at_deal=dict(CLASSIC["maal_table"]["tunnela_at_deal"], poplu=6))})


def outcome(fn, **kw):
    try:
        return fn(**kw)
    except MalformedError as exc:
        return ("refused", str(exc))


@st.composite
def holdings(draw):
    rs = draw(st.sampled_from([NEPAL, CLASSIC, TIES_NEPAL, TIES_CLASSIC]))
    codes = range(54) if rs.preset == "marriage/nepal" else range(52)
    tiplu = draw(st.one_of(st.none(), st.sampled_from(list(codes))))
    # mostly the cards around the tiplu (the ones that score), some of any kind
    if tiplu is None or tiplu >= 52:
        near = [c for c in codes if c >= 52] or [0]
    else:   # the tiplu, poplu and jhiplu (marriages), its rank in other suits, the jokers
        s, r = divmod(tiplu, 13)
        near = [13 * s + (r + d) % 13 for d in (0, 1, -1, 1, -1)] + [c for c in codes if c % 13 == r or c >= 52]
    picked = draw(st.lists(st.one_of(st.sampled_from(near), st.sampled_from(near), st.sampled_from(list(codes))),
                           max_size=26))
    tunnelas = draw(st.lists(st.one_of(st.sampled_from(near), st.sampled_from(list(codes))), max_size=2, unique=True))
    table = [ALL_CARDS[c] for c in picked[: draw(st.integers(0, len(picked)))]]
    hand = [ALL_CARDS[c] for c in picked[len(table):]]
    if draw(st.booleans()):     # the tunnelas on the table as a replay holds them
        table += [ALL_CARDS[c] for c in tunnelas for _ in range(3)]
    return dict(hand=hand, table=table, tunnelas_at_deal=[(ALL_CARDS[c],) * 3 for c in tunnelas],
                tiplu=None if tiplu is None else ALL_CARDS[tiplu], seen=draw(st.sampled_from([True, True, True, False])), ruleset=rs)


# rules D-8, MN-29, MC-25: the same maal, items and order as the plain count, or the same refusal
@settings(max_examples=600, deadline=None)
@given(holdings())
def test_the_tables_count_as_the_plain_loop(kw):
    assert outcome(count_maal, **kw) == outcome(reference_count_maal, **kw)


# rule D-8: every tiplu of both presets, seen and not, on a holding of every card once
def test_every_tiplu_counts_as_the_plain_loop():
    for rs, codes in ((NEPAL, range(54)), (CLASSIC, range(52)), (TIES_NEPAL, range(54)), (TIES_CLASSIC, range(52))):
        held = [ALL_CARDS[c] for c in codes]
        for tiplu in [None, *codes]:
            t = None if tiplu is None else ALL_CARDS[tiplu]
            for seen in (False, True):
                kw = dict(hand=held[:20], table=held[20:], tiplu=t, seen=seen, ruleset=rs)
                got = outcome(count_maal, **kw)
                assert got == outcome(reference_count_maal, **kw)
