"""Property: any sequence of calls is accepted exactly when a reference model says so, and a
refused call changes nothing."""
from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings, strategies as st

from audit.errors import LedgerStateError
from audit.operator.ledger import HandState
from replay.errors import CommitmentMismatchError, TipluError
from replay.fairness import commit_player_seed

from ledger_testkit import new_ledger, snapshot

N = 2
SEEDS = [bytes([0x40 + i]) * 16 for i in range(N)]
WRONG = b"\x99" * 16

ALL_ACTIONS = [("commit",), ("deal",), ("finish",), ("reveal",), ("cancel",)] + [
    (verb, seat) for verb in ("seed_commit", "seed_reveal", "bad_reveal") for seat in range(N)]


class Model:
    """The lifecycle as the docs state it, independent of the ledger's code."""

    def __init__(self) -> None:
        self.committed = self.dealt = self.finished = self.revealed = self.cancelled = False
        self.seat_committed: set[int] = set()
        self.seat_revealed: set[int] = set()

    def accepts(self, action: tuple) -> bool:
        verb, *seat = action
        live = not self.cancelled
        before_deal = live and not self.dealt
        if verb == "commit":
            return live and not self.committed
        if verb == "seed_commit":
            return before_deal and self.committed and len(self.seat_committed) < N and seat[0] not in self.seat_committed
        if verb == "seed_reveal":
            return (before_deal and len(self.seat_committed) == N and len(self.seat_revealed) < N
                    and seat[0] not in self.seat_revealed)
        if verb == "bad_reveal":
            return False
        if verb == "deal":
            return before_deal and len(self.seat_revealed) == N
        if verb == "finish":
            return live and self.dealt and not self.finished
        if verb == "reveal":
            return live and self.finished and not self.revealed
        if verb == "cancel":
            return before_deal and len(self.seat_revealed) < N
        raise AssertionError(verb)

    def apply(self, action: tuple) -> None:
        verb, *seat = action
        if verb == "commit":
            self.committed = True
        elif verb == "seed_commit":
            self.seat_committed.add(seat[0])
        elif verb == "seed_reveal":
            self.seat_revealed.add(seat[0])
        else:
            setattr(self, {"deal": "dealt", "finish": "finished", "reveal": "revealed", "cancel": "cancelled"}[verb], True)


def call(ledger, action: tuple) -> None:
    verb, *seat = action
    if verb == "seed_commit":
        ledger.seed_commit("h1", seat[0], commit_player_seed("h1", seat[0], SEEDS[seat[0]]))
    elif verb == "seed_reveal":
        ledger.seed_reveal("h1", seat[0], SEEDS[seat[0]])
    elif verb == "bad_reveal":
        ledger.seed_reveal("h1", seat[0], WRONG)
    elif verb == "finish":
        ledger.finish("h1", {"hand_id": "h1"})
    else:
        getattr(ledger, verb)("h1")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_call_sequence_matches_the_model_and_refusals_change_nothing(data):  # rules
    ledger = new_ledger()
    ledger.new_hand("t1", ["a", "b"], hand_id="h1")
    model = Model()
    for _ in range(data.draw(st.integers(0, 16))):
        # mostly a step forward the model allows (so hands get far), sometimes any call at all
        legal = [a for a in ALL_ACTIONS if model.accepts(a) and a[0] != "cancel"]
        pool = legal if legal and data.draw(st.integers(0, 3)) else ALL_ACTIONS
        action = data.draw(st.sampled_from(pool))
        before = snapshot(ledger)
        expected = model.accepts(action)
        try:
            call(ledger, action)
        except (LedgerStateError, CommitmentMismatchError) as exc:
            assert not expected, f"{action} refused: {exc}"
            assert snapshot(ledger) == before
            if action[0] == "bad_reveal" and isinstance(exc, CommitmentMismatchError):
                assert model.accepts(("seed_reveal", action[1]))  # only a legal reveal gets as far as the check
        except TipluError as exc:  # any other typed error is a bug here
            raise AssertionError(f"{action}: unexpected {exc!r}") from exc
        else:
            assert expected, f"{action} accepted in {ledger.get_hand('h1').state}"
            model.apply(action)
    state = ledger.get_hand("h1").state
    event(f"final state {state.value}")
    assert (state is HandState.CANCELLED) == model.cancelled
    assert (state is HandState.REVEALED) == model.revealed
    assert ledger.verify_hand("h1") is state
