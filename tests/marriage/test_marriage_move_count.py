"""RoundState.moves counts every applied move exactly once, whatever its kind."""
from __future__ import annotations

import json
import pathlib
from collections import Counter

from replay.fairness import hand_randomness
from replay.game import engine_for
from replay.records import parse_record
from replay.replayer import engine_move

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIR = ROOT / "fixtures" / "records"
MANIFEST = json.loads((DIR / "manifest.json").read_text())["records"]


def test_every_move_kind_counts_once_in_the_golden_rounds():
    kinds: Counter = Counter()
    for entry in MANIFEST:
        if not (entry["ok"] and entry["preset"].startswith("marriage")):
            continue
        record = parse_record((DIR / entry["file"]).read_text())
        engine = engine_for(record.ruleset)
        f = record.fairness
        state = engine.start(hand_randomness(f.server_seed, record.hand_id, record.ruleset, f.player_seeds),
                             dealer=record.table.dealer)
        assert state.moves == 0
        for i, raw in enumerate(record.moves):
            state = engine.apply(state, engine_move(engine, raw))
            assert state.moves == i + 1, (entry["file"], i, raw["type"])
            kinds[raw["type"]] += 1
    # every kind of move (and so every handler) was exercised
    assert set(kinds) == {"tunnela", "dealt_show", "draw", "show", "discard", "finish"}
