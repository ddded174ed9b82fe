"""Properties of legal_moves and apply under random play."""
from hypothesis import given, settings, strategies as st

from replay.errors import IllegalMoveError
from replay.fairness import hand_randomness
from replay.rulesets import resolve
from replay.marriage.engine import MarriageEngine
from replay.marriage.moves import Discard, Draw, Finish

PRESETS = ("marriage/nepal", "marriage/classic")


# Every listed move is accepted; apply never changes the state it is given; the cards are
# conserved; a round ends (finish, or void at the turn cap, D-10).
@settings(max_examples=15, deadline=None)
@given(st.sampled_from(PRESETS), st.binary(min_size=32, max_size=32), st.integers(2, 5), st.data())
def test_random_legal_play(preset, seed, n, data):
    rs = resolve(preset, {"turn_cap": 40})
    eng = MarriageEngine(rs)
    r = hand_randomness(seed, "legal", rs, [seed[:16] + bytes([s]) for s in range(n)])
    state = eng.start(r, dealer=data.draw(st.integers(0, n - 1)))
    total = 160 if preset == "marriage/nepal" else 156
    while not eng.is_over(state):
        moves = eng.legal_moves(state)
        assert moves and all(m.seat == eng.to_move(state) for m in moves)
        # prefer progress so that shows and finishes are exercised
        strong = [m for m in moves if not isinstance(m, (Draw, Discard))]
        pool = strong if strong and data.draw(st.booleans()) else moves
        move = pool[data.draw(st.integers(0, len(pool) - 1))]
        before = state.to_json()
        new = eng.apply(state, move)
        assert state.to_json() == before
        cards = len(new.stock) + len(new.discards) + (new.tiplu is not None)
        cards += sum(len(s.hand) + len(s.table) for s in new.seats)
        assert cards == total
        state = new
    out = eng.outcome(state)
    assert sum(out.net_points) == 0
    assert (out.winner is None) == (state.void_reason is not None)
    if isinstance(move, Finish):
        assert out.winner == move.seat


# A move from the wrong seat, or any move once the round is over, is refused.
def test_moves_out_of_turn_are_refused():
    rs = resolve("marriage/classic")
    eng = MarriageEngine(rs)
    r = hand_randomness(b"\x03" * 32, "legal", rs, [b"\x01" * 16, b"\x02" * 16, b"\x03" * 16])
    state = eng.start(r, dealer=0)
    for seat in (0, 2):
        try:
            eng.apply(state, Draw(seat, "stock"))
        except IllegalMoveError as exc:
            assert exc.rule == "MC-14"
        else:
            raise AssertionError("a move out of turn was accepted")
