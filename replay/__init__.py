"""Tiplu's pure library: cards, the v1 shuffle, rulesets as data, game engines, settlement.

No Flask, no SQLite, no clock, no ``random``: everything here is a deterministic function
of its inputs, so a hand replays the same on every machine.
"""
from .cards import JOKER, MASTER, Card, Rank, Suit, format_cards, parse_card, parse_cards
from .errors import (CardParseError, CommitmentMismatchError, IllegalMoveError, MalformedError,
                     RulesetError, TipluError)
from .fairness import (HandRandomness, commit_player_seed, commit_server_seed, hand_randomness,
                       verify_player_seed, verify_server_seed)
from .rulesets import PRESETS, Ruleset, resolve

__all__ = [
    "Card", "Rank", "Suit", "JOKER", "MASTER", "parse_card", "parse_cards", "format_cards",
    "TipluError", "MalformedError", "CardParseError", "RulesetError", "IllegalMoveError",
    "CommitmentMismatchError", "HandRandomness", "hand_randomness", "commit_server_seed",
    "verify_server_seed", "commit_player_seed", "verify_player_seed", "PRESETS", "Ruleset", "resolve",
]
