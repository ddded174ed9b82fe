"""Marriage hand records for the JavaScript differential test (tests/js/test_js_marriage.py).

:func:`honest_records` plays hands with the simulator's bot (audit/operator/sim/bots/marriage.py) and
with a wandering bot that picks any legal move and seldom finishes (so stocks run out and are
reshuffled, D-6, and the turn cap ends hands void, D-10), over both presets, every seat count
the presets allow, every dealer and a few overridden settings.  Records are minimal
``tiplu.hand/3`` documents: what a replay reads (seeds, ruleset, table, moves), no statements.
Everything is derived from labelled v1 streams, so a run is reproducible.
"""
from __future__ import annotations

import hashlib
from typing import Any, Iterator

from audit.operator.sim.bots import bot_for
from replay.fairness import commit_player_seed, commit_server_seed, hand_randomness
from replay.marriage.moves import STOCK, Discard, Draw, Finish, Show
from replay.marriage.state import DRAW, PLAY
from replay.registry import game_for
from replay.rulesets import allowed_players, resolve
from replay.stream import Stream

PRESETS = ("marriage/nepal", "marriage/classic")

#: settings a table may override, per preset: the engine must read each the way Python does
OVERRIDES = {
    "marriage/nepal": ({}, {"see_maal": "immediately", "joker_pickup_after_seeing": False, "master_in_pure": True},
                       {"direction": "anticlockwise", "seven_dublees": False, "tiplu_placement": "bottom"},
                       # a small shoe: stocks run out, the tiplu is often the master card or a putali
                       {"shoe": {"decks": 1, "jokers": 3, "masters": 3}, "hand_size": 9}),
    "marriage/classic": ({}, {"direction": "anticlockwise", "see_maal": "after_discard",
                              "joker_pickup_after_seeing": True},
                         {"tiplu_placement": "out_of_play", "seen_points": 4, "unseen_points": 12,
                          "dublee_bonus": 7},
                         {"shoe": {"decks": 1, "jokers": 0, "masters": 0}, "hand_size": 9,
                          "see_maal": "after_discard"}),
}


def stream(label: str) -> Stream:
    key = hashlib.sha256(b"tiplu/test/js-marriage/" + label.encode()).digest()
    return Stream(key, hashlib.sha256(b"tiplu/test/js-marriage/material").digest(), label)


def make_record(ruleset, hand_id: str, dealer: int, server_seed: bytes, seeds: list[bytes],
                moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A minimal ``tiplu.hand/3`` record of a played hand (no statements, no outcome)."""
    n = len(seeds)
    return {
        "format": "tiplu.hand/3", "hand_id": hand_id,
        "table": {"table_id": "js-marriage", "operator": "test", "public_key": "00" * 32,
                  "seats": [{"seat": i, "player": f"p{i}"} for i in range(n)], "dealer": dealer,
                  "point_value": "0.25", "commission_pct": "5", "carry": {}},
        "ruleset": ruleset.to_json(),
        "fairness": {"protocol": "v1", "ruleset_hash": ruleset.hash,
                     "server_commitment": commit_server_seed(server_seed),
                     "seat_commitments": [commit_player_seed(hand_id, i, s) for i, s in enumerate(seeds)],
                     "player_seeds": [s.hex() for s in seeds], "server_seed": server_seed.hex(),
                     "statements": [], "log_proofs": []},
        "moves": moves,
    }


def wandering_move(engine, state, rng):
    """A legal move, mostly a stock draw and a random discard; one decision in five is any
    legal move (tunnelas, shows, taking a discard ...), finishing one time in twelve."""
    i = state.turn_seat
    me = state.seat(i)
    if rng.randbelow(5) == 0 or (state.phase == PLAY and state.must_finish):
        moves = engine.legal_moves(state)
        finishes = [m for m in moves if isinstance(m, Finish)]
        if finishes and (rng.randbelow(12) == 0 or state.must_finish):
            return finishes[0]
        others = [m for m in moves if not isinstance(m, Finish)] or moves
        return others[rng.randbelow(len(others))]
    if state.phase == DRAW:
        return Draw(i, STOCK)
    if not me.has_shown and rng.randbelow(2) == 0:   # show when it can, half the time
        shows = [m for m in engine.legal_moves(state) if isinstance(m, Show)]
        if shows:
            return shows[rng.randbelow(len(shows))]
    choices = [c for c in me.hand if c != state.taken]
    return Discard(i, choices[rng.randbelow(len(choices))])


def play(ruleset, hand_id: str, n: int, dealer: int, choose, max_moves: int = 5000, *, seeds: int | None = None,
         bot_label: str | None = None) -> dict[str, Any]:
    """A hand of ``n`` seats played to its end by ``choose(engine, state, rng)``, as a record
    (``seeds``: the player seeds' length, else 16..64 bytes by the bot's stream)."""
    rng = stream(bot_label or f"bot:{hand_id}")
    size = seeds or 16 + 16 * rng.randbelow(4)
    seeds = [stream(f"seed:{hand_id}:{s}").block(0)[:size] if size <= 32 else
             (stream(f"seed:{hand_id}:{s}").block(0) + stream(f"seed:{hand_id}:{s}").block(1))[:size]
             for s in range(n)]
    server_seed = stream(f"server:{hand_id}").block(0)
    engine = game_for("marriage").engine(ruleset)
    state = engine.start(hand_randomness(server_seed, hand_id, ruleset, seeds), dealer=dealer)
    moves = []
    while not engine.is_over(state) and len(moves) < max_moves:
        move = choose(engine, state, rng)
        state = engine.apply(state, move)
        moves.append(move.to_json())
    return make_record(ruleset, hand_id, dealer, server_seed, seeds, moves)


def honest_records(per_table: int = 6) -> Iterator[dict[str, Any]]:
    """Hands of every preset x seat count x override set, dealers varied; half of them played
    by the simulator's bot, half by the wandering bot under a lower turn cap."""
    bot = bot_for("marriage")
    for preset in PRESETS:
        for o, overrides in enumerate(OVERRIDES[preset]):
            for n in allowed_players(resolve(preset, overrides)):
                for k in range(per_table):
                    wander = k % 2 == 1
                    settings = dict(overrides)
                    if wander:
                        settings["turn_cap"] = 150 + 60 * k
                    ruleset = resolve(preset, settings)
                    hand_id = f"{preset.split('/')[1]}-o{o}-{n}p-h{k}"
                    yield play(ruleset, hand_id, n, (k * 3 + o) % n, wandering_move if wander else bot)


def stock_and_show(engine, state, rng):
    """Draw from the stock, show as soon as the hand can, else discard at random."""
    i = state.turn_seat
    me = state.seat(i)
    if state.phase == DRAW:
        return Draw(i, STOCK)
    shows = [] if me.has_shown else [m for m in engine.legal_moves(state) if isinstance(m, Show)]
    return shows[0] if shows else Discard(i, me.hand[rng.randbelow(len(me.hand))])


#: hands whose stock runs dry with no discard to reshuffle (D-6, D-10: void "stock"): a
#: one-deck shoe dealt ten cards to each of five seats leaves one stock card and one
#: discard, so a show right after a stock draw finds nothing to pick the tiplu from
VOID_STOCK_HANDS = (("marriage/classic", 11), ("marriage/nepal", 83))


def void_stock_records() -> Iterator[dict[str, Any]]:
    for preset, k in VOID_STOCK_HANDS:
        ruleset = resolve(preset, {"shoe": {"decks": 1, "jokers": 0, "masters": 0}, "hand_size": 10, "turn_cap": 200})
        yield play(ruleset, f"void-{k}", 5, k % 5, stock_and_show, seeds=16, bot_label=f"bvoid-{k}")


def huge_points_records() -> Iterator[dict[str, Any]]:
    """Hands at tables whose overridden values are beyond what a JavaScript number holds
    exactly (2**53): Python counts them and refuses to settle (over 10**12 points), the
    browser refuses them too -- both "malformed" -- never a rounded number."""
    bot = bot_for("marriage")
    for preset in PRESETS:
        ruleset = resolve(preset, {"seen_points": 2**52, "unseen_points": 2**53 - 1})
        yield play(ruleset, f"huge-{preset.split('/')[1]}", 4, 0, bot)


def maal_requests(count: int = 600) -> Iterator[dict[str, Any]]:
    """Random holdings to count maal for, rich in the cards that score: the tiplu's rank and
    its neighbours of its suit, putali and master; some with tunnelas laid at the deal and
    shown sets; seen and not, with no tiplu at all, or a putali / master card as tiplu."""
    from replay.cards import ALL_CARDS
    from replay.shoes import build_shoe

    rng = stream("maal")
    for k in range(count):
        preset = PRESETS[k % 2]
        ruleset = resolve(preset)
        shoe = ruleset["shoe"]
        pool = [c.code for c in build_shoe(shoe["decks"], shoe["jokers"], shoe["masters"])]
        pick = rng.randbelow(12)
        tiplu = None if pick == 0 else (52 if pick == 1 and shoe["jokers"] else 53 if pick == 2 and shoe["masters"]
                                        else rng.randbelow(52))
        if tiplu is not None:
            pool.remove(tiplu)   # the tiplu itself is out of play (D-5)
        near = [c for c in pool if c >= 52 or tiplu is None or tiplu >= 52
                or c % 13 == tiplu % 13 or (c // 13 == tiplu // 13 and (c % 13 - tiplu % 13) % 13 in (1, 12))]
        tunnelas = []
        if rng.randbelow(3) == 0:   # a tunnela laid at the deal: three copies of one card
            for _ in range(1 + rng.randbelow(2)):
                code = (near or pool)[rng.randbelow(len(near or pool))]
                if pool.count(code) >= 3 and code != 53 and code not in tunnelas:
                    for _ in range(3):
                        pool.remove(code)
                        if code in near:
                            near.remove(code)
                    tunnelas.append(code)
        cards = []
        for _ in range(8 + rng.randbelow(16)):
            source = near if near and rng.randbelow(3) else pool
            code = source[rng.randbelow(len(source))]
            for lst in (pool, near):
                if code in lst:
                    lst.remove(code)
            cards.append(code)
        split = rng.randbelow(len(cards) + 1)
        text = lambda codes: [str(ALL_CARDS[c]) for c in codes]
        yield {"preset": preset, "hand": text(cards[:split]),
               "table": text(cards[split:] + [c for c in tunnelas for _ in range(3)]),
               "tunnelas_at_deal": [text([c] * 3) for c in tunnelas],
               "tiplu": None if tiplu is None else str(ALL_CARDS[tiplu]), "seen": rng.randbelow(4) != 0}


def fuzzed_records(records: list[dict[str, Any]], per_record: int = 2) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each record with one move replaced by a random one made from the hand of the seat to
    move at that point (or another seat's): tunnelas, shows and finishes of real and random
    cards (the engine's own finds among them), draws naming right or wrong cards, discards of
    held and unheld cards -- so every check of a move is met, legal or not."""
    from replay.cards import ALL_CARDS
    from replay.marriage.shows import find_dublees, find_pure_sets

    engine = None
    for record in records:
        moves = record["moves"]
        if len(moves) < 3:
            continue
        ruleset = resolve(record["ruleset"]["preset"], {k: v for k, v in record["ruleset"]["settings"].items()
                                                         if resolve(record["ruleset"]["preset"])[k] != v})
        engine = game_for("marriage").engine(ruleset)
        rng = stream(f"fuzz:{record['hand_id']}")
        f = record["fairness"]
        randomness = hand_randomness(bytes.fromhex(f["server_seed"]), record["hand_id"], ruleset,
                                     [bytes.fromhex(s) for s in f["player_seeds"]])
        for j in range(per_record):
            at = rng.randbelow(len(moves))
            state = engine.start(randomness, dealer=record["table"]["dealer"])
            for m in moves[:at]:
                state = engine.apply(state, engine.parse_move(m))
            if engine.is_over(state):
                continue
            seat = state.turn_seat if rng.randbelow(10) else (state.turn_seat + 1) % state.n_seats
            hand = list(state.seat(seat).hand)
            pick = lambda k: [hand.pop(rng.randbelow(len(hand))) for _ in range(min(k, len(hand)))]  # noqa: B023 - called within this iteration
            text = lambda cards: [str(c) for c in cards]
            kinds = ("tunnela", "dealt_show", "draw") if state.phase == DRAW else ("show", "finish", "discard")
            if rng.randbelow(5) == 0:   # now and then a move of the other phase
                kinds = ("tunnela", "dealt_show", "show", "finish", "draw", "discard")
            kind = kinds[rng.randbelow(len(kinds))]
            way = rng.randbelow(3)
            move: dict[str, Any] = {"type": kind, "seat": seat}
            if kind == "tunnela":
                triples = [c for c in set(hand) if hand.count(c) >= 3]
                move["cards"] = text([triples[0]] * 3 if triples and way else pick(3))
            elif kind in ("dealt_show", "show"):
                need = 3 - len(state.seat(seat).tunnelas_at_deal)
                found = find_pure_sets(hand, need) if way == 0 else [find_dublees(hand)] if way == 1 else []
                if found and found[0]:
                    move["sets"] = [text(g) for g in found[0]]
                else:
                    size = 2 if rng.randbelow(4) == 0 else 3
                    move["sets"] = [text(pick(size)) for _ in range(rng.randbelow(8))]
            elif kind == "finish":
                fin = engine.find_finish(state) if way == 0 else None
                if fin is not None:
                    move.update(groups=[text(g) for g in fin.groups], discard=str(fin.discard))
                else:
                    discard = pick(1) or [ALL_CARDS[rng.randbelow(54)]]
                    if way == 1:
                        move["groups"] = [text(pick(2))]
                    else:
                        move["groups"] = [text(pick(3)) for _ in range(len(hand) // 3)]
                    move["discard"] = str(discard[0])
            elif kind == "draw":
                move["source"] = ("stock", "discard")[rng.randbelow(2)]
                pile = state.stock if move["source"] == "stock" else state.discards[-1:]
                if way == 1 and pile:
                    move["card"] = str(pile[0])
                elif way == 2:
                    move["card"] = str(ALL_CARDS[rng.randbelow(54)])
            else:
                move["card"] = str(pick(1)[0] if way and hand else ALL_CARDS[rng.randbelow(54)])
            fuzzed = {**record, "moves": [*moves[:at], move, *moves[at + 1:]]}
            yield f"{record['hand_id']}/fuzz{j}@{at}:{kind}", fuzzed
