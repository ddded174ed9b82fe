"""Kept answers of the combination checks (issue 18, session 6).

:func:`replay.marriage.combos.classify` of three cards and the natural reading of three
cards are kept by the cards' codes (a card is its code), per tiplu and preset: the kept
answer must be the worked-out one for every triple, order and tiplu, in both presets --
shows (MN-14, MC-15), finishing combinations (D-7, MC-20, MC-10, MN-12, MC-9).
:func:`replay.marriage.finish.check_finish` counts a finish's cards in a list by code;
it must accept and refuse exactly as the ``Counter`` count it replaced, with the same
words and rule."""
from collections import Counter

from hypothesis import given, settings, strategies as st

from replay.cards import ALL_CARDS
from replay.errors import IllegalMoveError
from replay.rulesets import resolve
from replay.marriage import combos
from replay.marriage.combos import check_finish_set, check_show_set, classify
from replay.marriage.finish import check_finish

NEPAL = resolve("marriage/nepal")
CLASSIC = resolve("marriage/classic")
CARDS = st.sampled_from(ALL_CARDS)


def cold(fn, *args, **kw):
    """``fn`` with every kept answer forgotten first: the answer worked out."""
    combos._NATURAL.clear()
    combos._CLASSIFIED.clear()
    return answer(fn, *args, **kw)


def answer(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except IllegalMoveError as exc:
        return ("refused", str(exc), exc.rule)


# rule D-7, MC-20, MN-14, MC-15: every kept answer is the worked-out answer
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.tuples(CARDS, CARDS, CARDS), st.one_of(st.none(), CARDS),
                          st.sampled_from([NEPAL, CLASSIC])), min_size=20, max_size=60))
def test_kept_answers_are_the_worked_out_ones(cases):
    # first fill the kept answers with every case (other tiplus, presets and orders of the
    # same codes among them), then ask each again and compare with a cold answer
    for cards, tiplu, rs in cases:
        classify(cards, tiplu=tiplu, ruleset=rs)
        answer(check_show_set, cards, ruleset=rs)
        classify(cards[::-1], tiplu=None, ruleset=rs)
    warm = [(answer(classify, cards, tiplu=tiplu, ruleset=rs), answer(check_show_set, cards, ruleset=rs),
             answer(check_finish_set, cards, tiplu=tiplu, ruleset=rs)) for cards, tiplu, rs in cases]
    for (cards, tiplu, rs), got in zip(cases, warm):
        assert got == (cold(classify, cards, tiplu=tiplu, ruleset=rs), cold(check_show_set, cards, ruleset=rs),
                       cold(check_finish_set, cards, tiplu=tiplu, ruleset=rs))


def test_a_kept_answer_is_per_tiplu_and_preset():
    """The same three cards read first with no tiplu (no joker), then under tiplus that make
    one of them wild (MN-32, MC-3): the answer kept for the first never answers the others."""
    cards = tuple(next(c for c in ALL_CARDS if str(c) == t) for t in ("7H", "8H", "KS"))
    for rs in (NEPAL, CLASSIC):
        assert cold(classify, cards, tiplu=None, ruleset=rs) is None
        wild = [t for t in ALL_CARDS[:52] if cold(classify, cards, tiplu=t, ruleset=rs) is not None]
        assert wild
        classify(cards, tiplu=None, ruleset=rs)
        assert all(classify(cards, tiplu=t, ruleset=rs) is not None for t in wild)
        assert classify(cards, tiplu=None, ruleset=rs) is None


def reference_check_finish(groups, discard, hand, *, tiplu, ruleset, dublee):
    """The count check_finish made before (Counters by code), then the same checks."""
    from replay.marriage.finish import _dublee_rule
    from replay.marriage.jokers import is_nepal

    hand = tuple(hand)
    groups = tuple(tuple(g) for g in groups)
    used = Counter([c.code for g in groups for c in g])
    used[discard.code] += 1
    rest = Counter([c.code for c in hand])
    rest.subtract(used)
    if any(n < 0 for n in rest.values()):
        missing = [ALL_CARDS[code] for code in sorted(code for code, n in rest.items() if n < 0)]
        raise IllegalMoveError(f"the finish uses cards not in hand: {' '.join(map(str, missing))}",
                               rule=_dublee_rule(ruleset) if dublee else "D-7")
    if dublee:
        if len(groups) != 1 or len(groups[0]) != 2 or groups[0][0] != groups[0][1]:
            raise IllegalMoveError("a dublee finish lays one eighth dublee: two identical cards "
                                   "(jokers are never wild in dublees)", rule=_dublee_rule(ruleset))
        return
    if any(n for n in rest.values()):
        raise IllegalMoveError("a finish lays every card but the discard in combinations",
                               rule="D-7" if is_nepal(ruleset) else "MC-20")
    expected = (len(hand) - 1) // 3
    if len(hand) % 3 != 1 or len(groups) != expected:
        raise IllegalMoveError(f"a finish lays {expected} three-card combinations and one discard",
                               rule="D-7" if is_nepal(ruleset) else "MC-20")
    for g in groups:
        check_finish_set(g, tiplu=tiplu, ruleset=ruleset)


@st.composite
def finishes(draw):
    """A hand and a claimed finish of it: mostly the hand's own cards regrouped (often a
    legal finish), sometimes with cards the hand lacks, too few or too many."""
    hand = draw(st.lists(CARDS, min_size=1, max_size=16))
    order = draw(st.permutations(hand))
    if draw(st.integers(0, 3)) == 0:
        order = order + draw(st.lists(CARDS, max_size=2))
    if draw(st.integers(0, 3)) == 0 and len(order) > 1:
        order = order[:-1]
    discard = order[-1] if order else draw(CARDS)
    body = order[:-1]
    size = draw(st.sampled_from([2, 3, 3, 3]))
    groups = [body[i:i + size] for i in range(0, len(body), size)]
    return groups, discard, hand, draw(st.one_of(st.none(), CARDS)), draw(st.sampled_from([NEPAL, CLASSIC])), \
        draw(st.booleans())


# rule D-7, MC-20, MC-21: the same acceptance and refusals as the Counter count
@settings(max_examples=600, deadline=None)
@given(finishes())
def test_check_finish_is_the_counter_count(case):
    groups, discard, hand, tiplu, rs, dublee = case
    kw = dict(tiplu=tiplu, ruleset=rs, dublee=dublee)
    assert answer(check_finish, groups, discard, hand, **kw) == answer(reference_check_finish, groups, discard,
                                                                        hand, **kw)


def _triples():
    """Every pure sequence, tunnela and trial of three in every order, with their
    neighbours (one card changed), and random triples: the answers that matter most."""
    import itertools
    import random

    from replay.cards import card_of
    from replay.melds import RUNS_OF_THREE

    shapes = [tuple(card_of(r, s) for r in w) for s in range(4) for w in RUNS_OF_THREE]
    shapes += [(c, c, c) for c in ALL_CARDS]
    shapes += [tuple(card_of(r, s) for s in suits) for r in range(1, 14) for suits in itertools.combinations(range(4), 3)]
    rng = random.Random(6)
    near = [tuple(rng.choice(ALL_CARDS) if i == k else c for i, c in enumerate(t)) for t in shapes for k in range(3)]
    out = [p for t in shapes + near for p in itertools.permutations(t)]
    return out + [tuple(rng.choices(ALL_CARDS, k=3)) for _ in range(2000)]


# rule MN-14, MC-15, D-7, MC-10: the kept answers of the shapes that matter, against cold ones
def test_kept_answers_of_every_shape():
    triples = _triples()
    tiplus = [None] + [ALL_CARDS[i] for i in (0, 6, 12, 19, 33, 51)]
    combos._NATURAL.clear()
    combos._CLASSIFIED.clear()
    want = {}
    for rs in (NEPAL, CLASSIC):
        for t in tiplus:
            for cards in triples[::7]:
                want[(rs.preset, t, cards)] = (cold(classify, cards, tiplu=t, ruleset=rs),
                                               cold(check_show_set, cards, ruleset=rs))
    combos._NATURAL.clear()
    combos._CLASSIFIED.clear()
    for rs in (NEPAL, CLASSIC):   # fill the kept answers with every triple first
        for t in tiplus:
            for cards in triples:
                classify(cards, tiplu=t, ruleset=rs)
                answer(check_show_set, cards, ruleset=rs)
    for (preset, t, cards), got in want.items():
        rs = NEPAL if preset == NEPAL.preset else CLASSIC
        assert (answer(classify, cards, tiplu=t, ruleset=rs), answer(check_show_set, cards, ruleset=rs)) == got
